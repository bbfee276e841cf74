//! The transposition table: a fixed-size hash table keyed by the Zobrist hash, shared by all
//! search threads without locks.
//!
//! Each entry is two `AtomicU64`: the packed data and the key xor the data. A reader that sees a
//! torn entry (two threads writing at once) finds a key that does not match and ignores it, so
//! the table needs no lock and no `unsafe`. Buckets hold two entries: one kept for depth, one
//! always replaced.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::board::Narrow;
use crate::moves::Move;
use crate::play::Grid;
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
pub(crate) struct Entry<B: Grid = Narrow> {
    pub(crate) best: Option<Move<B>>,
    pub(crate) score: i32,
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
    generation: u8,
}

impl<B: Grid> Entry<B> {
    /// Bits of a square's index in the packed entry: 8 on the narrow grid (121 squares), 9 on
    /// the wide one (361). The move takes two, then come the score (32 bits), the depth (8),
    /// the bound (2) and the generation in what is left (6 bits narrow, 4 wide).
    const SQUARE_BITS: u32 = if B::GRID_SQUARES <= 256 { 8 } else { 9 };
    const SQUARE_MASK: u64 = (1 << Self::SQUARE_BITS) - 1;
    const SCORE_SHIFT: u32 = 2 * Self::SQUARE_BITS;
    const DEPTH_SHIFT: u32 = Self::SCORE_SHIFT + 32;
    const BOUND_SHIFT: u32 = Self::DEPTH_SHIFT + 8;
    const GENERATION_SHIFT: u32 = Self::BOUND_SHIFT + 2;
    /// The generations an entry tells apart.
    const GENERATION_MASK: u8 = (u64::MAX >> Self::GENERATION_SHIFT) as u8;

    fn pack(self) -> u64 {
        let mv = self.best.map_or(0u64, |m| {
            let (from, to): (usize, usize) = (m.from().index().into(), m.to().index().into());
            from as u64 | (to as u64) << Self::SQUARE_BITS
        });
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        mv | u64::from(self.score as u32) << Self::SCORE_SHIFT
            | u64::from(self.depth) << Self::DEPTH_SHIFT
            | bound << Self::BOUND_SHIFT
            | u64::from(self.generation & Self::GENERATION_MASK) << Self::GENERATION_SHIFT
    }

    fn unpack(data: u64) -> Option<Entry<B>> {
        let bound = match (data >> Self::BOUND_SHIFT) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None, // an empty slot
        };
        let square = |bits: u64| {
            B::Index::try_from((bits & Self::SQUARE_MASK) as usize)
                .ok()
                .and_then(Square::<B>::at_index)
        };
        let (from, to) = (square(data), square(data >> Self::SQUARE_BITS));
        let best = match (from, to) {
            (Some(from), Some(to)) if from != to => Some(Move::new(from, to)),
            _ => None,
        };
        Some(Entry {
            best,
            score: (data >> Self::SCORE_SHIFT) as u32 as i32,
            depth: (data >> Self::DEPTH_SHIFT) as u8,
            bound,
            generation: (data >> Self::GENERATION_SHIFT) as u8,
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
    /// Whether entries of earlier searches are ignored, read and written as if the table had
    /// been emptied when the search began (the root-move searches, `search/root_scores`).
    ignore_older: AtomicBool,
}

/// Searches after which an emptied table's generations come round again on grid `B` (64 on the
/// narrow grid, 16 on the wide one, whose entries keep fewer bits of generation): after this
/// many searches that ignore older entries, the table must be emptied for them to stay
/// invisible.
pub(crate) fn distinct_generations<B: Grid>() -> u32 {
    u32::from(Entry::<B>::GENERATION_MASK) + 1
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
            ignore_older: AtomicBool::new(false),
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

    /// From now on, entries of earlier searches are ignored (`true`), as if the table were
    /// emptied at each [`TranspositionTable::new_search`], or used again (`false`, the usual).
    /// Exactly so while those entries' generations differ from the current one's: the caller
    /// empties the table at least every [`distinct_generations`] searches. A search that ignores
    /// them reads only its own entries, and writes each entry to the slot it would take in an
    /// empty table (a slot of an older search counts as empty), so it runs as on an empty table.
    pub(crate) fn set_ignore_older(&self, ignore: bool) {
        self.ignore_older.store(ignore, Ordering::Relaxed);
    }

    /// Whether `entry` counts: always, unless older entries are ignored and it is one.
    fn counts<B: Grid>(&self, entry: &Entry<B>) -> bool {
        !self.ignore_older.load(Ordering::Relaxed)
            || entry.generation == self.generation() & Entry::<B>::GENERATION_MASK
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

    fn read<B: Grid>(&self, index: usize, key: u64) -> Option<Entry<B>> {
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
    pub(crate) fn probe<B: Grid>(&self, key: u64) -> Option<Entry<B>> {
        let index = self.bucket(key);
        let read = |index| self.read(index, key).filter(|entry| self.counts(entry));
        read(index).or_else(|| read(index + 1))
    }

    /// Stores a result. The first slot of the bucket keeps the deeper (or newer) entry; the
    /// second takes whatever the first refused.
    pub(crate) fn store<B: Grid>(
        &self,
        key: u64,
        best: Option<Move<B>>,
        score: i32,
        depth: u32,
        bound: Bound,
    ) {
        let index = self.bucket(key);
        let generation = self.generation() & Entry::<B>::GENERATION_MASK;
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
        let first_entry = Entry::<B>::unpack(first_data).filter(|old| self.counts(old));
        let target = match first_entry {
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
        table.store::<Narrow>(42, Some(m), -123_456, 7, Bound::Lower);
        let entry = table.probe::<Narrow>(42).expect("just stored");
        assert_eq!(entry.best, Some(m));
        assert_eq!(entry.score, -123_456);
        assert_eq!(entry.depth, 7);
        assert_eq!(entry.bound, Bound::Lower);
        assert_eq!(table.probe::<Narrow>(43), None);
    }

    #[test]
    fn wide_entries_round_trip_on_every_square_and_score_extreme() {
        use crate::board::Wide;
        use crate::search::Score;
        let table = TranspositionTable::new(1);
        let squares = ["a1", "s19", "s1", "a19", "j10", "m13"];
        let scores = [Score::WIN.0, -Score::WIN.0, 0, -1, Score::WIN_THRESHOLD];
        let mut key = 1u64;
        for from in squares {
            for to in squares.iter().filter(|&&to| to != from) {
                for (index, &score) in scores.iter().enumerate() {
                    let m: Move<Wide> = format!("{from}-{to}").parse().expect("valid move");
                    let bound = [Bound::Exact, Bound::Lower, Bound::Upper][index % 3];
                    // Generations past the wide entry's 4 bits wrap without harm.
                    for _ in 0..7 {
                        table.new_search();
                    }
                    key = key.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
                    table.store::<Wide>(key, Some(m), score, 250, bound);
                    let entry = table.probe::<Wide>(key).expect("just stored");
                    assert_eq!(entry.best, Some(m));
                    assert_eq!((entry.score, entry.depth, entry.bound), (score, 250, bound));
                }
            }
        }
    }

    #[test]
    fn clearing_forgets_every_entry() {
        let table = TranspositionTable::new(0);
        let keys: Vec<u64> = (1..=300u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &key in &keys {
            table.store::<Narrow>(key, None, 5, 3, Bound::Exact);
        }
        let kept = keys
            .iter()
            .filter(|&&key| table.probe::<Narrow>(key).is_some())
            .count();
        assert!(kept > 200, "only {kept} of 300 entries were kept");
        table.clear();
        assert!(keys.iter().all(|&key| table.probe::<Narrow>(key).is_none()));
        // A key of zero matches an empty slot's check word: it must still read as empty.
        assert_eq!(table.probe::<Narrow>(0), None);
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
        table.store::<Narrow>(first, None, 1, 10, Bound::Exact);
        table.store::<Narrow>(second, None, 2, 1, Bound::Exact);
        assert_eq!(table.probe::<Narrow>(first).map(|e| e.score), Some(1));
        assert_eq!(table.probe::<Narrow>(second).map(|e| e.score), Some(2));
    }

    #[test]
    fn ignoring_older_entries_reads_and_writes_as_an_empty_table() {
        use crate::board::Wide;
        let table = TranspositionTable::new(0);
        let first = 1u64 << 60;
        let second = (1..)
            .map(|k| first + k)
            .find(|&k| table.bucket(k) == table.bucket(first))
            .expect("neighbouring keys share a bucket");
        let m: Move = "e2-e4".parse().expect("valid move");
        // An older search left a deep entry in the bucket's first slot, and one for `second`.
        table.store::<Narrow>(first, Some(m), 1, 10, Bound::Exact);
        table.store::<Narrow>(second, None, 2, 1, Bound::Exact);
        table.new_search();
        table.set_ignore_older(true);
        assert_eq!(table.probe::<Narrow>(first), None);
        assert_eq!(table.probe::<Narrow>(second), None);
        // As in an empty table, a shallow entry takes the first slot, and keeps no older move.
        table.store::<Narrow>(first, None, 3, 1, Bound::Upper);
        let entry = table.probe::<Narrow>(first).expect("just stored");
        assert_eq!((entry.best, entry.score, entry.depth), (None, 3, 1));
        table.set_ignore_older(false);
        assert_eq!(table.probe::<Narrow>(second).map(|e| e.score), Some(2));
        // The wide grid's entries tell 16 generations apart: after that many searches an old
        // entry looks current again, which is why the root-move searches empty the table.
        table.store::<Wide>(first, None, 4, 1, Bound::Exact);
        table.set_ignore_older(true);
        assert_eq!(
            (
                distinct_generations::<Narrow>(),
                distinct_generations::<Wide>()
            ),
            (64, 16)
        );
        for _ in 1..distinct_generations::<Wide>() {
            table.new_search();
            assert_eq!(table.probe::<Wide>(first), None);
        }
        table.new_search();
        assert_eq!(table.probe::<Wide>(first).map(|e| e.score), Some(4));
    }
}
