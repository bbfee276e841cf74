//! The masks of each board size on each grid (board, edge, castle, ...), built at compile time:
//! they are used on every move, so they are looked up, not recomputed.

use crate::bitboard::Bitboard;
use crate::board::{GridBase, Narrow, Wide, grid};
use crate::square::{MAX_BOARD_SIZE, Square};

/// Precomputed masks of one board size.
#[derive(Debug)]
pub struct Geometry<B: GridBase = Narrow> {
    /// Every square of the board.
    pub(crate) board: Bitboard<B>,
    /// The edge squares (R14).
    pub(crate) edge: Bitboard<B>,
    /// The castle (R1) as a set of one square.
    pub(crate) castle: Bitboard<B>,
    /// The castle square.
    pub(crate) castle_square: Square<B>,
    /// The castle's four neighbours (R13's middle regime).
    pub(crate) castle_neighbours: Bitboard<B>,
    /// Squares a move may end on: the board less the castle (R6).
    pub(crate) destinations: Bitboard<B>,
    /// The castle's rank and file: the lines where a piece may pass over the empty castle (R7).
    pub(crate) castle_lines: Bitboard<B>,
}

/// The masks of a `size` board on a grid of `stride`, as words (see [`grid`]), and the castle's
/// index.
struct GeometryWords {
    board: [u64; 6],
    edge: [u64; 6],
    castle: [u64; 6],
    castle_index: usize,
    castle_neighbours: [u64; 6],
    destinations: [u64; 6],
    castle_lines: [u64; 6],
}

const fn geometry_words(stride: u8, size: u8) -> GeometryWords {
    let middle = size / 2;
    let castle_index = middle as usize * stride as usize + middle as usize;
    let castle = grid::square(stride, middle, middle);
    let board = grid::board(stride, size);
    GeometryWords {
        board,
        edge: grid::edge(stride, size),
        castle,
        castle_index,
        castle_neighbours: grid::and(grid::neighbours(stride, castle_index), board),
        destinations: grid::minus(board, castle),
        castle_lines: grid::lines(stride, size, middle, middle),
    }
}

/// The narrow grid's masks of a `size` board.
const fn narrow_geometry(size: u8) -> Geometry<Narrow> {
    let words = geometry_words(MAX_BOARD_SIZE, size);
    let castle_square = match Square::from_index(words.castle_index as u8) {
        Some(square) => square,
        // Not reached: every size in the table is at most 11, so the centre is on the grid.
        None => Square::A1,
    };
    Geometry {
        board: Bitboard(grid::to_u128(words.board)),
        edge: Bitboard(grid::to_u128(words.edge)),
        castle: Bitboard(grid::to_u128(words.castle)),
        castle_square,
        castle_neighbours: Bitboard(grid::to_u128(words.castle_neighbours)),
        destinations: Bitboard(grid::to_u128(words.destinations)),
        castle_lines: Bitboard(grid::to_u128(words.castle_lines)),
    }
}

/// The wide grid's masks of a `size` board.
const fn wide_geometry(size: u8) -> Geometry<Wide> {
    let words = geometry_words(Wide::MAX_SIZE, size);
    Geometry {
        board: Bitboard(words.board),
        edge: Bitboard(words.edge),
        castle: Bitboard(words.castle),
        castle_square: Square::wide_index(words.castle_index as u16),
        castle_neighbours: Bitboard(words.castle_neighbours),
        destinations: Bitboard(words.destinations),
        castle_lines: Bitboard(words.castle_lines),
    }
}

/// Narrow masks for every size up to 11, indexed by size (sizes below 5 are never used).
pub(super) static NARROW_GEOMETRIES: [Geometry<Narrow>; 12] = [
    narrow_geometry(0),
    narrow_geometry(1),
    narrow_geometry(2),
    narrow_geometry(3),
    narrow_geometry(4),
    narrow_geometry(5),
    narrow_geometry(6),
    narrow_geometry(7),
    narrow_geometry(8),
    narrow_geometry(9),
    narrow_geometry(10),
    narrow_geometry(11),
];

/// Wide masks for every size up to 19, indexed by size (sizes below 5 are never used).
pub(super) static WIDE_GEOMETRIES: [Geometry<Wide>; 20] = {
    let mut table = [const { wide_geometry(0) }; 20];
    let mut size = 1;
    while size < 20 {
        table[size] = wide_geometry(size as u8);
        size += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_has_the_same_masks_on_both_grids() {
        for size in (5..=11).step_by(2) {
            let (narrow, wide) = (&NARROW_GEOMETRIES[size], &WIDE_GEOMETRIES[size]);
            assert_eq!(narrow.board.on_grid::<Wide>(), wide.board, "{size}");
            assert_eq!(narrow.edge.on_grid::<Wide>(), wide.edge, "{size}");
            assert_eq!(narrow.castle_lines.on_grid::<Wide>(), wide.castle_lines);
            assert_eq!(narrow.castle_neighbours.on_grid(), wide.castle_neighbours);
            assert_eq!(narrow.destinations.on_grid(), wide.destinations);
            assert_eq!(narrow.castle_square.on_grid(), Some(wide.castle_square));
        }
        let nineteen = &WIDE_GEOMETRIES[19];
        assert_eq!(nineteen.board.count(), 361);
        assert_eq!(nineteen.edge.count(), 72);
        assert_eq!(nineteen.castle_square.to_string(), "j10");
        assert_eq!(nineteen.castle_lines.count(), 37);
    }
}
