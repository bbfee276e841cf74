//! Zobrist keys, built at compile time: one per piece kind and square, and one for the side to move.

use crate::board::{GridBase, Narrow};
use crate::piece::Piece;
use crate::square::Square;

/// Squares of the narrow grid.
const SQUARES: usize = 121;

/// Squares of the wide grid.
const WIDE_SQUARES: usize = 361;

/// Rows of the key table: one per value of a square's `u8` index, so that looking a key up
/// needs no bounds check on the hot path of every move (rows past 120 are never used).
const ROWS: usize = 256;

/// splitmix64: a small, well-mixed generator, good enough for hash keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// The keys of the first `squares` rows of a table of `ROWS_OF` rows per piece kind, drawn from
/// the sequence that starts at `seed` (the rest of each row stays 0, never used).
const fn build_keys<const ROWS_OF: usize>(squares: usize, seed: u64) -> [[u64; ROWS_OF]; 3] {
    let mut keys = [[0u64; ROWS_OF]; 3];
    let mut state = seed;
    let mut kind = 0;
    while kind < 3 {
        let mut square = 0;
        while square < squares {
            let (next, key) = splitmix(state);
            state = next;
            keys[kind][square] = key;
            square += 1;
        }
        kind += 1;
    }
    keys
}

static PIECE_KEYS: [[u64; ROWS]; 3] = build_keys(SQUARES, 0x7AF1_2024_0000_0001);

/// The wide grid's keys: its own sequence (a narrow position and a wide one are never compared).
static WIDE_PIECE_KEYS: [[u64; WIDE_SQUARES]; 3] = build_keys(WIDE_SQUARES, 0x7AF1_2024_0019_0019);

/// Key toggled when the defenders are to move.
pub(crate) const DEFENDERS_TO_MOVE: u64 = splitmix(0x005E_ED0F_7AF1).1;

/// The key of `piece` standing on `square`.
#[inline(always)]
pub(crate) fn piece_key<B: GridBase>(piece: Piece, square: Square<B>) -> u64 {
    let kind = match piece {
        Piece::Attacker => 0,
        Piece::Defender => 1,
        Piece::King => 2,
    };
    let index: usize = square.index().into();
    // The grid's table, chosen by its width: a constant of each grid's copy of this code.
    if B::MAX_SIZE == Narrow::MAX_SIZE {
        narrow_key(kind, index)
    } else {
        wide_key(kind, index)
    }
}

/// A key of the narrow grid: kind 0 (attacker), 1 (defender) or 2 (king) on square `index`
/// (below 256 on the narrow grid: its index is a `u8`, so no bounds check is left).
#[inline(always)]
fn narrow_key(kind: usize, index: usize) -> u64 {
    PIECE_KEYS[kind][index % ROWS]
}

/// A key of the wide grid (0 for an index off the grid, never given).
#[inline(always)]
fn wide_key(kind: usize, index: usize) -> u64 {
    WIDE_PIECE_KEYS
        .get(kind)
        .and_then(|row| row.get(index))
        .copied()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_non_zero() {
        // The keys of the grid's squares; rows past them are unused.
        let mut all: Vec<u64> = PIECE_KEYS
            .iter()
            .flat_map(|row| &row[..SQUARES])
            .copied()
            .collect();
        all.extend(WIDE_PIECE_KEYS.iter().flatten());
        all.push(DEFENDERS_TO_MOVE);
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
        assert!(all.iter().all(|&key| key != 0));
    }
}
