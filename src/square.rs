//! Squares of the board and their names (`e5`), per docs/rules.md R2.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::board::{GridBase, Narrow};

/// The widest board of the narrow grid ([`Narrow`]), the grid of every board up to 11x11 (R1).
/// Boards up to 19x19 are played on the [`Wide`](crate::Wide) grid.
pub const MAX_BOARD_SIZE: u8 = 11;

/// Row stride of the narrow grid's square index: index = y * STRIDE + x.
pub(crate) const STRIDE: u8 = MAX_BOARD_SIZE;

/// A square of a grid ([`Narrow`] by default: boards up to 11x11; [`Wide`](crate::Wide): up to
/// 19x19), named as in OpenTafl notation (R2): file letter `a`, `b`, ... from x = 0, rank number
/// `1`, `2`, ... from y = 0.
///
/// A `Square` does not know the board's size: `k11` is a valid square, but it is on a Tawlbwrdd
/// board only. Positions check that a square is on their board.
///
/// ```
/// use tafl_engine::Square;
/// let e5: Square = "e5".parse().unwrap();
/// assert_eq!((e5.x(), e5.y()), (4, 4));
/// assert_eq!(e5.to_string(), "e5");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square<B: GridBase = Narrow>(B::Index);

impl Square<Narrow> {
    /// The square at file `x` (0 = `a`) and rank `y` (0 = rank 1) of the narrow grid, or `None`
    /// if either is 11 or more. ([`Square::at`] on any grid: `Square::<Wide>::at(x, y)`.)
    pub const fn new(x: u8, y: u8) -> Option<Square> {
        if x < MAX_BOARD_SIZE && y < MAX_BOARD_SIZE {
            Some(Square(y * STRIDE + x))
        } else {
            None
        }
    }

    /// The square of the narrow grid with the given index (`y * 11 + x`), or `None` if the index
    /// is 121 or more. ([`Square::at_index`] on any grid.)
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < MAX_BOARD_SIZE * MAX_BOARD_SIZE {
            Some(Square(index))
        } else {
            None
        }
    }
}

impl Square<crate::Wide> {
    /// [`Square::from_index`] at compile time, on the wide grid, for an index known to be on it.
    pub(crate) const fn wide_index(index: u16) -> Square<crate::Wide> {
        Square(index)
    }
}

impl Square {
    /// The same square on the grid `C`: every grid is at least 11 wide, so it is on it.
    pub(crate) fn onto_any_grid<C: GridBase>(self) -> Square<C> {
        // Cannot fall back: x and y are below 11, and every grid's MAX_SIZE is 11 or more.
        Square::at(self.x(), self.y()).unwrap_or(Square::A1)
    }
}

impl<B: GridBase> Square<B> {
    /// The same square (file and rank) on the grid `C`, if it is on it.
    #[inline]
    pub(crate) fn on_grid<C: GridBase>(self) -> Option<Square<C>> {
        Square::at(self.x(), self.y())
    }

    /// The corner square `a1` (x = 0, y = 0).
    pub const A1: Square<B> = Square(B::A1_INDEX);

    /// The square at file `x` (0 = `a`) and rank `y` (0 = rank 1), or `None` if either is off the
    /// grid (11 or more on the narrow grid, 19 or more on the wide one). On the narrow grid it is
    /// [`Square::new`].
    ///
    /// ```
    /// use tafl_engine::{Square, Wide};
    /// let s19 = Square::<Wide>::at(18, 18).unwrap();
    /// assert_eq!(s19.to_string(), "s19");
    /// assert_eq!(Square::<Wide>::at(19, 0), None);
    /// ```
    #[inline]
    pub fn at(x: u8, y: u8) -> Option<Square<B>> {
        if x < B::MAX_SIZE && y < B::MAX_SIZE {
            let index = usize::from(y) * usize::from(B::MAX_SIZE) + usize::from(x);
            Some(Square(B::index_of(index)))
        } else {
            None
        }
    }

    /// The square with the given index (`y * 11 + x` on the narrow grid, `y * 19 + x` on the
    /// wide one), or `None` if the index is off the grid (121 or more, 361 or more). On the
    /// narrow grid it is [`Square::from_index`].
    #[inline]
    pub fn at_index(index: B::Index) -> Option<Square<B>> {
        if index.into() < B::GRID_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Index of the square: `y * 11 + x`, in `0..121`, on the narrow grid (`y * 19 + x` on the
    /// wide one). It is also the square's bit in a [`Bitboard`](crate::Bitboard).
    #[inline(always)]
    pub fn index(self) -> B::Index {
        self.0
    }

    /// The index as a `usize`, for tables.
    #[inline(always)]
    pub(crate) fn place(self) -> usize {
        self.0.into()
    }

    /// File, from 0 (`a`).
    #[inline(always)]
    pub fn x(self) -> u8 {
        (self.place() % usize::from(B::MAX_SIZE)) as u8
    }

    /// Rank, from 0 (rank 1).
    #[inline(always)]
    pub fn y(self) -> u8 {
        (self.place() / usize::from(B::MAX_SIZE)) as u8
    }

    /// Whether the square lies on a `size` x `size` board.
    #[inline]
    pub fn is_on_board(self, size: u8) -> bool {
        self.x() < size && self.y() < size
    }

    /// The square `dx`, `dy` away, or `None` when that leaves the grid.
    pub fn offset(self, dx: i8, dy: i8) -> Option<Square<B>> {
        let x = i16::from(self.x()) + i16::from(dx);
        let y = i16::from(self.y()) + i16::from(dy);
        Square::at(u8::try_from(x).ok()?, u8::try_from(y).ok()?)
    }
}

impl<B: GridBase> fmt::Display for Square<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x()) as char, self.y() + 1)
    }
}

impl<B: GridBase> fmt::Debug for Square<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SquareParseError {
    /// The text was empty.
    #[error("empty square name")]
    Empty,
    /// The first character is not a file letter of the grid (`a` to `k` on boards up to 11x11,
    /// `a` to `s` on larger ones).
    #[error("'{0}' is not a file letter of the board (a-k up to 11x11, a-s up to 19x19)")]
    BadFile(String),
    /// The rank is missing, not a number, or off the grid (1-11 on boards up to 11x11, 1-19 on
    /// larger ones).
    #[error("'{0}' is not a rank number of the board (1-11 up to 11x11, 1-19 up to 19x19)")]
    BadRank(String),
}

impl<B: GridBase> FromStr for Square<B> {
    type Err = SquareParseError;

    /// Reads `e5`, `k11`, `s19`, ... (an upper-case file letter is accepted too).
    fn from_str(text: &str) -> Result<Square<B>, SquareParseError> {
        let mut chars = text.chars();
        let file = chars.next().ok_or(SquareParseError::Empty)?;
        let lower = file.to_ascii_lowercase();
        let x = match u8::try_from(lower) {
            Ok(letter @ b'a'..=b'z') if letter - b'a' < B::MAX_SIZE => letter - b'a',
            _ => return Err(SquareParseError::BadFile(file.to_string())),
        };
        let rank_text = chars.as_str();
        let rank_ok = !rank_text.is_empty()
            && rank_text.len() <= 2
            && rank_text.bytes().all(|b| b.is_ascii_digit())
            && !rank_text.starts_with('0');
        let rank: u8 = if rank_ok {
            rank_text
                .parse()
                .map_err(|_| SquareParseError::BadRank(rank_text.to_string()))?
        } else {
            return Err(SquareParseError::BadRank(rank_text.to_string()));
        };
        if !(1..=B::MAX_SIZE).contains(&rank) {
            return Err(SquareParseError::BadRank(rank_text.to_string()));
        }
        Square::at(x, rank - 1).ok_or_else(|| SquareParseError::BadRank(rank_text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_name_round_trips() {
        for index in 0..121 {
            let square = Square::from_index(index).expect("index below 121");
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
    }

    #[test]
    fn r2_a1_is_origin_and_files_count_from_a() {
        let a1: Square = "a1".parse().unwrap();
        assert_eq!((a1.x(), a1.y()), (0, 0));
        let k11: Square = "k11".parse().unwrap();
        assert_eq!((k11.x(), k11.y()), (10, 10));
    }

    #[test]
    fn wide_squares_are_named_a1_to_s19() {
        use crate::Wide;
        for index in 0..361u16 {
            let square = Square::<Wide>::at_index(index).expect("index below 361");
            assert_eq!(square.to_string().parse::<Square<Wide>>(), Ok(square));
        }
        let s19: Square<Wide> = "s19".parse().unwrap();
        assert_eq!((s19.x(), s19.y(), s19.index()), (18, 18, 360));
        for bad in ["t1", "a20", "s0", "l1x"] {
            assert!(
                bad.parse::<Square<Wide>>().is_err(),
                "{bad:?} should be refused"
            );
        }
        // Narrow names stop at k11.
        assert!("l1".parse::<Square>().is_err());
        assert!("a12".parse::<Square>().is_err());
    }

    #[test]
    fn bad_names_are_refused() {
        for bad in ["", "l1", "a0", "a12", "a", "1a", "a01", "a1x", "é1", "a+1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} should be refused");
        }
    }
}
