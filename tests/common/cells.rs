//! A library position's placement as the references' cells (`cells[y * size + x]`), on either
//! grid: what the differential tests compare the references' boards with.
#![allow(dead_code)]

use super::reference::Cell;
use tafl_engine::{Grid, Piece, Position};

/// The position's pieces, `cells[y * size + x]` for its board's `size`.
pub fn cells_of<B: Grid>(position: &Position<B>) -> Vec<Cell> {
    let size = usize::from(position.rules().size());
    let mut cells = vec![Cell::Empty; size * size];
    for (square, piece) in position.pieces_with_squares() {
        let (x, y) = (usize::from(square.x()), usize::from(square.y()));
        cells[y * size + x] = match piece {
            Piece::Attacker => Cell::Attacker,
            Piece::Defender => Cell::Defender,
            Piece::King => Cell::King,
        };
    }
    cells
}
