//! The transposition table: a fixed-size hash table keyed by the Zobrist hash, shared by all
//! search threads without locks.
//!
//! Each entry is two `AtomicU64`: the packed data and the key xor the data. A reader that sees a
//! torn entry (two threads writing at once) finds a key that does not match and ignores it, so
//! the table needs no lock and no `unsafe`. Buckets hold two entries: one kept for depth, one
//! always replaced.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::moves::Move;
use crate::square::Square;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) best: Option<Move>,
    pub(crate) score: i32,
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
    generation: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        let mv = self.best.map_or(0u64, |m| {
            u64::from(m.from().index()) | u64::from(m.to().index()) << 8
        });
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        mv | u64::from(self.score as u32) << 16
            | u64::from(self.depth) << 48
            | bound << 56
            | u64::from(self.generation & 0x3f) << 58
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None, // an empty slot
        };
        let from = Square::from_index((data & 0xff) as u8);
        let to = Square::from_index((data >> 8 & 0xff) as u8);
        let best = match (from, to) {
            (Some(from), Some(to)) if from != to => Some(Move::new(from, to)),
            _ => None,
        };
        Some(Entry {
            best,
            score: (data >> 16) as u32 as i32,
            depth: (data >> 48) as u8,
            bound,
            generation: (data >> 58) as u8,
        })
    }
}

/// One slot: the key xor the data, and the data.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The shared table.
#[derive(Debug)]
pub(crate) struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU64,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// The smallest table, in slots (16 KiB).
const MIN_SLOTS: usize = 1024;

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least [`MIN_SLOTS`] slots), or, if the memory
    /// cannot be had, of the largest half, quarter, ... of it that can (rather than abort).
    pub(crate) fn new(megabytes: usize) -> TranspositionTable {
        let mut wanted = (megabytes.saturating_mul(1 << 20) / SLOT_BYTES).max(MIN_SLOTS) & !1;
        let mut slots = Vec::new();
        while slots.try_reserve_exact(wanted).is_err() && wanted > MIN_SLOTS {
            wanted = (wanted / 2).max(MIN_SLOTS) & !1;
        }
        // Reserved above; if even the smallest table could not be, this allocates or aborts
        // like any other allocation.
        slots.resize_with(wanted, Slot::default);
        let table = TranspositionTable {
            slots,
            generation: AtomicU64::new(0),
        };
        // `resize_with` writes the slots too, but the compiler may turn an allocation followed
        // by zeroing into a zeroed allocation that maps no page yet; the atomic stores of
        // `clear` are always made. The second pass costs about 3 ms of the 25 for 64 MiB.
        table.clear();
        table
    }

    /// Empties every slot, in place.
    ///
    /// Writing every slot also has the operating system back the whole table with memory at
    /// once. A fresh allocation is mapped page by page as it is first written; left to the
    /// search, those page faults took a third of the time of a first search with a 64 MiB table,
    /// and two threads faulting at once, waiting on each other in the kernel, were slower than
    /// one (measured).
    pub(crate) fn clear(&self) {
        for slot in &self.slots {
            slot.data.store(0, Ordering::Relaxed);
            slot.check.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: entries of older searches become the first to be replaced.
    pub(crate) fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 0x3f) as u8
    }

    /// The first slot of the key's bucket (buckets are two slots).
    fn bucket(&self, key: u64) -> usize {
        let buckets = (self.slots.len() / 2) as u64;
        // Multiply-shift maps the key onto 0..buckets without a division.
        ((u128::from(key) * u128::from(buckets)) >> 64) as usize * 2
    }

    fn read(&self, index: usize, key: u64) -> Option<Entry> {
        let slot = &self.slots[index];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data == key {
            Entry::unpack(data)
        } else {
            None
        }
    }

    /// The entry stored for `key`, if any.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let index = self.bucket(key);
        self.read(index, key).or_else(|| self.read(index + 1, key))
    }

    /// Stores a result. The first slot of the bucket keeps the deeper (or newer) entry; the
    /// second takes whatever the first refused.
    pub(crate) fn store(&self, key: u64, best: Option<Move>, score: i32, depth: u32, bound: Bound) {
        let index = self.bucket(key);
        let generation = self.generation();
        let mut entry = Entry {
            best,
            score,
            depth: u8::try_from(depth).unwrap_or(u8::MAX),
            bound,
            generation,
        };
        let first = &self.slots[index];
        let first_data = first.data.load(Ordering::Relaxed);
        let first_key = first.check.load(Ordering::Relaxed) ^ first_data;
        let target = match Entry::unpack(first_data) {
            None => index,
            Some(old) if first_key == key => {
                // Same position: keep the old move if the new result has none.
                if entry.best.is_none() {
                    entry.best = old.best;
                }
                index
            }
            Some(old) if old.generation != generation || entry.depth >= old.depth => index,
            Some(_) => index + 1,
        };
        let data = entry.pack();
        let slot = &self.slots[target];
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let table = TranspositionTable::new(1);
        let m: Move = "e2-e4".parse().expect("valid move");
        table.store(42, Some(m), -123_456, 7, Bound::Lower);
        let entry = table.probe(42).expect("just stored");
        assert_eq!(entry.best, Some(m));
        assert_eq!(entry.score, -123_456);
        assert_eq!(entry.depth, 7);
        assert_eq!(entry.bound, Bound::Lower);
        assert_eq!(table.probe(43), None);
    }

    #[test]
    fn clearing_forgets_every_entry() {
        let table = TranspositionTable::new(0);
        let keys: Vec<u64> = (1..=300u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &key in &keys {
            table.store(key, None, 5, 3, Bound::Exact);
        }
        let kept = keys
            .iter()
            .filter(|&&key| table.probe(key).is_some())
            .count();
        assert!(kept > 200, "only {kept} of 300 entries were kept");
        table.clear();
        assert!(keys.iter().all(|&key| table.probe(key).is_none()));
        // A key of zero matches an empty slot's check word: it must still read as empty.
        assert_eq!(table.probe(0), None);
        assert_eq!(table.slots.len(), MIN_SLOTS);
    }

    #[test]
    fn a_deep_entry_survives_a_shallow_one_in_its_bucket() {
        let table = TranspositionTable::new(0); // 1024 slots
        // Find two keys of one bucket.
        let first = 1u64 << 60;
        let second = (1..)
            .map(|k| first + k)
            .find(|&k| table.bucket(k) == table.bucket(first));
        let second = second.expect("neighbouring keys share a bucket");
        table.store(first, None, 1, 10, Bound::Exact);
        table.store(second, None, 2, 1, Bound::Exact);
        assert_eq!(table.probe(first).map(|e| e.score), Some(1));
        assert_eq!(table.probe(second).map(|e| e.score), Some(2));
    }
}
