//! Positions as planes of 0/1 bytes, for learning code: `planes x size x size` per position,
//! laid out so that numpy can wrap the bytes without a copy.

use tafl_engine::{Bitboard, Position, Side};

/// The planes, in order. Each is `size x size` bytes, row 0 = rank 1, column 0 = file a.
pub const PLANES: [&str; 5] = [
    // The attacking soldiers.
    "attackers",
    // The defending soldiers (without the king).
    "defenders",
    // The king (all zero once he is captured).
    "king",
    // The castle square.
    "castle",
    // All ones when the attackers are to move, all zeros when the defenders are.
    "attackers_to_move",
];

/// Bytes one position takes.
pub fn bytes_per_position(size: u8) -> usize {
    PLANES.len() * usize::from(size) * usize::from(size)
}

/// Writes the planes of `position` into `out`, which holds `bytes_per_position` bytes.
pub fn write(position: &Position, out: &mut [u8]) {
    let size = usize::from(position.rules().size());
    let area = size * size;
    out.fill(0);
    let mut mark = |plane: usize, set: Bitboard| {
        for square in set {
            let index = plane * area + usize::from(square.y()) * size + usize::from(square.x());
            // Squares of a position are on its board, so the index is inside `out`.
            if let Some(cell) = out.get_mut(index) {
                *cell = 1;
            }
        }
    };
    mark(0, position.attackers());
    mark(1, position.defenders());
    mark(2, position.king_set());
    mark(3, position.rules().throne());
    if position.side_to_move() == Side::Attackers {
        if let Some(plane) = out.get_mut(4 * area..5 * area) {
            plane.fill(1);
        }
    }
}
