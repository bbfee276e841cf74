//! `Move` and `MoveList`.

use std::fmt;

use arrayvec::ArrayVec;

use crate::square::Square;

/// A move: a piece slides from one square to another along a rank or a file (R5).
///
/// A `Move` is two bytes and `Copy`. It does not say which piece moves: the position knows.
///
/// ```
/// use tafl_engine::Move;
/// let m: Move = "e1-e3".parse().unwrap();
/// assert_eq!(m.to_string(), "e1-e3");
/// assert_eq!(m.to().to_string(), "e3");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    from: Square,
    to: Square,
}

// A move stays two bytes: it fills move lists and transposition-table entries.
const _: () = assert!(std::mem::size_of::<Move>() == 2);

impl Move {
    /// The move from `from` to `to`. Any pair of squares makes a `Move`; whether it is legal is
    /// for a position to say.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Where the piece starts.
    pub const fn from(self) -> Square {
        self.from
    }

    /// Where the piece lands.
    pub const fn to(self) -> Square {
        self.to
    }
}

impl fmt::Display for Move {
    /// OpenTafl's simple move notation: `e1-e3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Most legal moves any position can have: 400.
///
/// Why 400 is enough, on a board of at most 121 squares with `p` pieces of the side to move: a
/// move is fixed by its destination (an empty square) and the direction it came from (4), so
/// there are at most `4 * (121 - p)` moves; and a piece reaches at most 10 squares along its rank
/// and 10 along its file, so at most `20 * p`. If `p <= 20` the second bound gives 400; if
/// `p >= 21` the first gives at most `4 * 100 = 400`.
pub const MAX_LEGAL_MOVES: usize = 400;

/// A list of moves on the stack, large enough for every position ([`MAX_LEGAL_MOVES`]).
pub type MoveList = ArrayVec<Move, MAX_LEGAL_MOVES>;
