//! The start placements of this project's own games, Tablut and Tawlbwrdd (R1), built at
//! compile time from their diagrams.

use crate::bitboard::Bitboard;
use crate::square::MAX_BOARD_SIZE;

/// The start placement of one of this project's games, as the `(attackers, defenders, king)`
/// sets, from its diagram (top rank first, `a` attacker, `d` defender, `K` king): the diagrams
/// of docs/rules.md, R1.
pub(crate) struct StartPlacement {
    pub(crate) attackers: Bitboard,
    pub(crate) defenders: Bitboard,
    pub(crate) king: Bitboard,
}

impl StartPlacement {
    /// The placement of a square diagram, top rank first (computed at compile time).
    pub(super) const fn from_rows(rows: &[&str]) -> StartPlacement {
        let size = rows.len();
        let (mut attackers, mut defenders, mut king) = (0u128, 0u128, 0u128);
        let mut row = 0;
        while row < size {
            let bytes = rows[row].as_bytes();
            let y = size - 1 - row;
            let mut x = 0;
            while x < bytes.len() {
                let bit = 1u128 << (y * MAX_BOARD_SIZE as usize + x);
                match bytes[x] {
                    b'a' => attackers |= bit,
                    b'd' => defenders |= bit,
                    b'K' => king |= bit,
                    _ => {}
                }
                x += 1;
            }
            row += 1;
        }
        StartPlacement {
            attackers: Bitboard(attackers),
            defenders: Bitboard(defenders),
            king: Bitboard(king),
        }
    }
}

/// Tablut's start (R1).
pub(crate) const TABLUT_START: StartPlacement = StartPlacement::from_rows(&[
    "...aaa...",
    "....a....",
    "....d....",
    "a...d...a",
    "aaddKddaa",
    "a...d...a",
    "....d....",
    "....a....",
    "...aaa...",
]);

/// Tawlbwrdd's start (R1).
pub(crate) const TAWLBWRDD_START: StartPlacement = StartPlacement::from_rows(&[
    "....aaa....",
    "....a.a....",
    ".....a.....",
    ".....d.....",
    "aa..ddd..aa",
    "a.addKdda.a",
    "aa..ddd..aa",
    ".....d.....",
    ".....a.....",
    "....a.a....",
    "....aaa....",
]);
