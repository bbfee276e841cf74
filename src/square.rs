//! Squares of the board and their names (`e5`), per docs/rules.md R2.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The widest board this crate plays (Tawlbwrdd, R1). Every board is laid out on an 11-wide grid,
/// so a square has the same index whatever the board size.
pub const MAX_BOARD_SIZE: u8 = 11;

/// Row stride of the square index: index = y * STRIDE + x.
pub(crate) const STRIDE: u8 = MAX_BOARD_SIZE;

/// A square on a board of up to 11x11, named as in OpenTafl notation (R2): file letter `a`, `b`, ...
/// from x = 0, rank number `1`, `2`, ... from y = 0.
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
pub struct Square(u8);

impl Square {
    /// The corner square `a1` (x = 0, y = 0).
    pub const A1: Square = Square(0);

    /// The square at file `x` (0 = `a`) and rank `y` (0 = rank 1), or `None` if either is 11 or more.
    pub const fn new(x: u8, y: u8) -> Option<Square> {
        if x < MAX_BOARD_SIZE && y < MAX_BOARD_SIZE {
            Some(Square(y * STRIDE + x))
        } else {
            None
        }
    }

    /// The square with the given index (`y * 11 + x`), or `None` if the index is 121 or more.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < MAX_BOARD_SIZE * MAX_BOARD_SIZE {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Index of the square: `y * 11 + x`, in `0..121`. It is also the square's bit in a
    /// [`Bitboard`](crate::Bitboard).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// File, from 0 (`a`).
    pub const fn x(self) -> u8 {
        self.0 % STRIDE
    }

    /// Rank, from 0 (rank 1).
    pub const fn y(self) -> u8 {
        self.0 / STRIDE
    }

    /// Whether the square lies on a `size` x `size` board.
    pub const fn is_on_board(self, size: u8) -> bool {
        self.x() < size && self.y() < size
    }

    /// The square `dx`, `dy` away, or `None` when that leaves the 11x11 grid.
    pub const fn offset(self, dx: i8, dy: i8) -> Option<Square> {
        let x = self.x() as i8 + dx;
        let y = self.y() as i8 + dy;
        if x < 0 || y < 0 {
            return None;
        }
        Square::new(x as u8, y as u8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x()) as char, self.y() + 1)
    }
}

impl fmt::Debug for Square {
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
    /// The first character is not a file letter `a` to `k`.
    #[error("'{0}' is not a file letter a-k")]
    BadFile(String),
    /// The rank is missing, not a number, or not in 1-11.
    #[error("'{0}' is not a rank number 1-11")]
    BadRank(String),
}

impl FromStr for Square {
    type Err = SquareParseError;

    /// Reads `e5`, `k11`, ... (an upper-case file letter is accepted too).
    fn from_str(text: &str) -> Result<Square, SquareParseError> {
        let mut chars = text.chars();
        let file = chars.next().ok_or(SquareParseError::Empty)?;
        let x = match file.to_ascii_lowercase() {
            letter @ 'a'..='k' => letter as u8 - b'a',
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
        if !(1..=MAX_BOARD_SIZE).contains(&rank) {
            return Err(SquareParseError::BadRank(rank_text.to_string()));
        }
        Square::new(x, rank - 1).ok_or_else(|| SquareParseError::BadRank(rank_text.to_string()))
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
    fn bad_names_are_refused() {
        for bad in ["", "l1", "a0", "a12", "a", "1a", "a01", "a1x", "é1", "a+1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} should be refused");
        }
    }
}
