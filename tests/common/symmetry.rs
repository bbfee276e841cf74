//! The 8 symmetries of the square board (rotations and reflections). The castle is the centre
//! and the edge is the edge under each of them, so the rules look the same after any.
#![allow(dead_code)]

use tafl_engine::{Bitboard, Move, Position, Square};

/// Maps (x, y) on a board whose last file and rank index is the third argument.
type SquareMap = fn(u8, u8, u8) -> (u8, u8);

/// The symmetries, by name.
pub const SYMMETRIES: [(&str, SquareMap); 8] = [
    ("identity", |x, y, _| (x, y)),
    ("quarter turn", |x, y, n| (n - y, x)),
    ("half turn", |x, y, n| (n - x, n - y)),
    ("three-quarter turn", |x, y, n| (y, n - x)),
    ("mirror left-right", |x, y, n| (n - x, y)),
    ("mirror top-bottom", |x, y, n| (x, n - y)),
    ("main diagonal", |x, y, _| (y, x)),
    ("anti-diagonal", |x, y, n| (n - y, n - x)),
];

/// A symmetry of a board of one size.
#[derive(Clone, Copy)]
pub struct Symmetry {
    pub name: &'static str,
    map: SquareMap,
    last: u8,
}

impl Symmetry {
    /// All 8 symmetries of a `size` x `size` board.
    pub fn all(size: u8) -> impl Iterator<Item = Symmetry> {
        SYMMETRIES.into_iter().map(move |(name, map)| Symmetry {
            name,
            map,
            last: size - 1,
        })
    }

    pub fn square(&self, square: Square) -> Square {
        let (x, y) = (self.map)(square.x(), square.y(), self.last);
        Square::new(x, y).expect("a symmetry keeps a square on the board")
    }

    pub fn mv(&self, m: Move) -> Move {
        Move::new(self.square(m.from()), self.square(m.to()))
    }

    pub fn set(&self, set: Bitboard) -> Bitboard {
        set.into_iter().map(|square| self.square(square)).collect()
    }

    /// The position with every piece moved to its image, built from scratch.
    pub fn position(&self, position: &Position) -> Position {
        Position::from_pieces(
            position.rules(),
            position.side_to_move(),
            position
                .pieces_with_squares()
                .map(|(square, piece)| (self.square(square), piece)),
        )
        .expect("the image of a position is a position")
    }
}
