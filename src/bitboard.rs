//! `Bitboard`: a set of squares in one `u128`, for both 9x9 and 11x11 boards.
//!
//! Bit `y * 11 + x` stands for the square at file `x`, rank `y` (see [`Square::index`]). A 9x9
//! board uses the lower-left part of the same 11-wide grid, so shifting by one file is always a
//! shift by 1 and by one rank always a shift by 11, whatever the board size.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::square::{MAX_BOARD_SIZE, STRIDE, Square};

/// A set of squares.
///
/// ```
/// use tafl_engine::{Bitboard, Square};
/// let e5: Square = "e5".parse().unwrap();
/// let set = Bitboard::EMPTY | e5;
/// assert!(set.contains(e5));
/// assert_eq!(set.count(), 1);
/// assert_eq!(set.into_iter().collect::<Vec<_>>(), vec![e5]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// The four directions a piece moves in (R5), as used by the set-wise shifts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Direction {
    North,
    South,
    East,
    West,
}

impl Direction {
    pub(crate) const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];
}

const fn file_mask(x: u8) -> u128 {
    let mut mask = 0u128;
    let mut y = 0;
    while y < MAX_BOARD_SIZE {
        mask |= 1u128 << (y * STRIDE + x);
        y += 1;
    }
    mask
}

/// Number of squares of the 11x11 grid.
const GRID_SQUARES: usize = (MAX_BOARD_SIZE as usize) * (MAX_BOARD_SIZE as usize);

/// Entries of the per-square tables looked up on every move: one per value of a square's `u8`
/// index, so that the look-up needs no bounds check (entries past 120 are empty, never used).
const INDEX_VALUES: usize = 256;
/// Squares of the 11x11 grid (bits 0..121).
const GRID: u128 = (1u128 << 121) - 1;
/// After a shift east, bits that wrapped round into file `a` of the next rank are dropped.
const NOT_FIRST_FILE: u128 = !file_mask(0) & GRID;
/// After a shift west, bits that wrapped round into the last grid file of the rank below are dropped.
const NOT_LAST_GRID_FILE: u128 = !file_mask(MAX_BOARD_SIZE - 1) & GRID;

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `square`.
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1u128 << square.index())
    }

    /// All squares of a `size` x `size` board (`size` at most 11; larger sizes give the 11x11 board).
    pub const fn board(size: u8) -> Bitboard {
        let size = if size > MAX_BOARD_SIZE {
            MAX_BOARD_SIZE
        } else {
            size
        };
        let mut mask = 0u128;
        let mut y = 0;
        while y < size {
            let row = ((1u128 << size) - 1) << (y * STRIDE);
            mask |= row;
            y += 1;
        }
        Bitboard(mask)
    }

    /// The edge squares of a `size` x `size` board: rank 1, the last rank, file `a` and the last file.
    pub const fn edge(size: u8) -> Bitboard {
        let all = Bitboard::board(size).0;
        if size <= 2 {
            return Bitboard(all);
        }
        let inner = Bitboard::board(size - 2).0 << (STRIDE + 1);
        Bitboard(all & !inner)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        // The half that holds the square, then one bit test: cheaper than a shift of a u128 by a
        // variable amount, on the path of every move perft makes.
        let index = square.index();
        let half = if index < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        half >> (index % 64) & 1 != 0
    }

    /// How many squares the set holds.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest-index square of the set, if any.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::from_index(self.0.trailing_zeros() as u8)
        }
    }

    /// Whether the set holds exactly one square.
    pub const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }

    /// The set with `square` added.
    #[must_use]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << square.index())
    }

    /// The set with `square` removed.
    #[must_use]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << square.index()))
    }

    /// Every square moved one step in `direction`; squares that would leave the 11x11 grid (or
    /// wrap round to the other side) are dropped. Squares past the edge of a smaller board stay
    /// in the grid: intersect with a set on the board to drop them.
    #[inline(always)]
    pub(crate) const fn shift(self, direction: Direction) -> Bitboard {
        Bitboard(match direction {
            Direction::North => (self.0 << STRIDE) & GRID,
            Direction::South => self.0 >> STRIDE,
            Direction::East => (self.0 << 1) & NOT_FIRST_FILE,
            Direction::West => (self.0 >> 1) & NOT_LAST_GRID_FILE,
        })
    }

    /// The set holding only `square`, from a table (cheaper than a shift of a u128 by a
    /// variable amount, on the hot path of every move).
    #[inline(always)]
    pub(crate) fn single(square: Square) -> Bitboard {
        Bitboard(SINGLES[usize::from(square.index())])
    }

    /// The orthogonal neighbours (R2a) of `square` on the 11x11 grid, from a table.
    #[inline(always)]
    pub(crate) fn neighbours_of(square: Square) -> Bitboard {
        Bitboard(NEIGHBOURS[usize::from(square.index())])
    }

    /// The squares two steps from `square` along its rank and file (the far side of each of its
    /// neighbours, where a capture's anvil stands, R8), on the 11x11 grid, from a table.
    #[inline(always)]
    pub(crate) fn two_steps_from(square: Square) -> Bitboard {
        Bitboard(TWO_STEPS[usize::from(square.index())])
    }

    /// The squares the pieces of `self` reach sliding (R5) in `direction` through `empty`
    /// squares, all pieces at once: a piece stops before the first square not in `empty`, and
    /// never wraps round the grid. `empty` must hold only squares of the grid, and none of the
    /// pieces' squares (two pieces in one empty stretch would carry wrongly in the addition
    /// below).
    ///
    /// East (towards higher bits) is one addition: adding the squares just east of the pieces to
    /// `empty` makes a carry run along each empty stretch that starts next to a piece, clearing
    /// it. The other directions fill in four doubling steps (1, 2, 4, 8 squares: enough for the
    /// longest slide, 10), each step carrying the pieces' reach as far again through squares
    /// whose whole step is empty (the Kogge-Stone occluded fill).
    #[inline(always)]
    pub(crate) fn slides(self, direction: Direction, empty: Bitboard) -> Bitboard {
        debug_assert!((self & empty).is_empty(), "pieces on empty squares");
        let (pieces, empty) = (self.0, empty.0);
        Bitboard(match direction {
            Direction::East => {
                // A stretch at the end of a rank must not carry on into the next rank's first
                // square: the first file never counts as empty here (nothing slides east onto it).
                slide_east(pieces, empty & NOT_FIRST_FILE)
            }
            // Sliding west, the last grid file is never reached (nothing is east of it); leaving
            // it out stops a step from the first file wrapping round to it.
            Direction::West => fill(pieces, empty & NOT_LAST_GRID_FILE, |set, n| set >> n, 1),
            Direction::North => fill(pieces, empty, |set, n| set << n, STRIDE.into()),
            Direction::South => fill(pieces, empty, |set, n| set >> n, STRIDE.into()),
        })
    }

    /// The set grown by orthogonal steps (R2a) through `open` squares until it stops growing:
    /// its squares and every `open` square joined to one of them by such steps.
    pub(crate) fn flood(self, open: Bitboard) -> Bitboard {
        let mut region = self;
        loop {
            let grown = region | (region.neighbours() & open);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The orthogonal neighbours (R2a) of the set's squares, on the 11x11 grid.
    #[inline(always)]
    pub(crate) const fn neighbours(self) -> Bitboard {
        Bitboard(
            self.shift(Direction::North).0
                | self.shift(Direction::South).0
                | self.shift(Direction::East).0
                | self.shift(Direction::West).0,
        )
    }
}

/// Calls `visit` with the index of each square of `set`, lowest first. The halves are walked
/// separately: finding the lowest bit of a u64 is one instruction, of a u128 several.
#[inline(always)]
pub(crate) fn for_each_index(set: u128, mut visit: impl FnMut(usize)) {
    for (mut half, offset) in [(set as u64, 0), ((set >> 64) as u64, 64)] {
        while half != 0 {
            visit(half.trailing_zeros() as usize + offset);
            half &= half - 1;
        }
    }
}

/// The squares reached from `pieces` sliding east (towards higher bits) through the `open`
/// squares, which must leave out the first file (so that a stretch at the end of a rank does not
/// carry on into the next). A carry from each square just east of a piece runs along its open
/// stretch and clears it; stretches with no piece to their west are left as they were. The move
/// counts of perft's views use it too, in each view's bits.
#[inline(always)]
pub(crate) fn slide_east(pieces: u128, open: u128) -> u128 {
    open & !open.wrapping_add((pieces << 1) & open)
}

/// The squares reached from `pieces` by steps of `step` bits (`shift(set, n)` moves a set `n`
/// bits along) through the `open` squares, the pieces themselves left out: see
/// [`Bitboard::slides`].
#[inline(always)]
fn fill(pieces: u128, open: u128, shift: impl Fn(u128, u32) -> u128, step: u32) -> u128 {
    let (mut reached, mut open_run) = (pieces, open);
    reached |= open_run & shift(reached, step);
    open_run &= shift(open_run, step);
    reached |= open_run & shift(reached, 2 * step);
    open_run &= shift(open_run, 2 * step);
    reached |= open_run & shift(reached, 4 * step);
    open_run &= shift(open_run, 4 * step);
    reached |= open_run & shift(reached, 8 * step);
    // `reached` holds the pieces and every open square they reach but the last; one more step
    // gives the squares reached.
    shift(reached, step) & open
}

/// The set of each square of the grid alone.
static SINGLES: [u128; INDEX_VALUES] = {
    let mut table = [0u128; INDEX_VALUES];
    let mut index = 0;
    while index < GRID_SQUARES {
        table[index] = 1u128 << index;
        index += 1;
    }
    table
};

/// The neighbours of each square of the grid, looked up on every move (R8).
static NEIGHBOURS: [u128; INDEX_VALUES] = {
    let mut table = [0u128; INDEX_VALUES];
    let mut index = 0;
    while index < GRID_SQUARES {
        table[index] = Bitboard(1u128 << index).neighbours().0;
        index += 1;
    }
    table
};

/// The squares two steps along a rank or file from each square of the grid.
static TWO_STEPS: [u128; INDEX_VALUES] = {
    let mut table = [0u128; INDEX_VALUES];
    let mut index = 0;
    while index < GRID_SQUARES {
        let square = Bitboard(1u128 << index);
        let mut two_steps = 0;
        let mut direction = 0;
        while direction < 4 {
            let step = Direction::ALL[direction];
            two_steps |= square.shift(step).shift(step).0;
            direction += 1;
        }
        table[index] = two_steps;
        index += 1;
    }
    table
};

impl From<Square> for Bitboard {
    fn from(square: Square) -> Bitboard {
        Bitboard::from_square(square)
    }
}

macro_rules! set_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl<T: Into<Bitboard>> $trait<T> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, other: T) -> Bitboard {
                Bitboard(self.0 $op other.into().0)
            }
        }
        impl<T: Into<Bitboard>> $assign_trait<T> for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, other: T) {
                self.0 = self.0 $op other.into().0;
            }
        }
    };
}

set_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
set_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
set_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<T: Into<Bitboard>> Sub<T> for Bitboard {
    type Output = Bitboard;
    /// Set difference: the squares of `self` that are not in `other`.
    #[inline(always)]
    fn sub(self, other: T) -> Bitboard {
        Bitboard(self.0 & !other.into().0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 11x11 grid.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & GRID)
    }
}

impl fmt::Debug for Bitboard {
    /// An 11x11 picture, rank 11 at the top: `X` for a square in the set, `.` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(")?;
        for y in (0..MAX_BOARD_SIZE).rev() {
            for x in 0..MAX_BOARD_SIZE {
                let square = Square::new(x, y).expect("x and y are below 11");
                f.write_str(if self.contains(square) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        write!(f, ")")
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct SquareIter(u128);

impl Iterator for SquareIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::from_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.0.count_ones() as usize;
        (count, Some(count))
    }
}

impl DoubleEndedIterator for SquareIter {
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = 127 - self.0.leading_zeros() as u8;
        self.0 &= !(1u128 << index);
        Square::from_index(index)
    }
}

impl ExactSizeIterator for SquareIter {}
impl FusedIterator for SquareIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = SquareIter;
    fn into_iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(squares: I) -> Bitboard {
        squares
            .into_iter()
            .fold(Bitboard::EMPTY, |set, square| set | square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn board_masks_have_the_right_sizes() {
        assert_eq!(Bitboard::board(9).count(), 81);
        assert_eq!(Bitboard::board(11).count(), 121);
        assert_eq!(Bitboard::edge(9).count(), 32);
        assert_eq!(Bitboard::edge(11).count(), 40);
        assert!(Bitboard::edge(9).contains(sq("i5")));
        assert!(!Bitboard::edge(9).contains(sq("h5")));
    }

    #[test]
    fn shifts_do_not_wrap_round_the_grid() {
        let k5 = Bitboard::from(sq("k5"));
        assert!(k5.shift(Direction::East).is_empty());
        let a5 = Bitboard::from(sq("a5"));
        assert!(a5.shift(Direction::West).is_empty());
        assert!(Bitboard::from(sq("e11")).shift(Direction::North).is_empty());
        assert!(Bitboard::from(sq("e1")).shift(Direction::South).is_empty());
        assert_eq!(Bitboard::from(sq("e5")).neighbours().count(), 4);
    }

    #[test]
    fn iteration_visits_each_square_once_in_both_orders() {
        let set: Bitboard = ["a1", "e5", "k11"].iter().map(|s| sq(s)).collect();
        let forward: Vec<_> = set.into_iter().collect();
        let mut backward: Vec<_> = set.into_iter().rev().collect();
        backward.reverse();
        assert_eq!(forward, backward);
        assert_eq!(forward.len(), 3);
        assert_eq!(set.into_iter().len(), 3);
    }

    #[test]
    fn membership_agrees_with_the_bits_in_both_halves() {
        let mut random = crate::test_support::XorShift(0x6a09_e667_f3bc_c908);
        for _ in 0..200 {
            let set =
                Bitboard((u128::from(random.next()) << 64 | u128::from(random.next())) & GRID);
            for index in 0..121 {
                let square = Square::from_index(index).unwrap(); // 121 squares on the grid
                assert_eq!(set.contains(square), set.0 >> index & 1 == 1, "{index}");
                assert_eq!(set.contains(square), set.into_iter().any(|s| s == square));
            }
        }
    }
}
