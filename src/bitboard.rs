//! `Bitboard`: a set of squares of a grid: one `u128` on the narrow grid (boards up to 11x11),
//! six `u64`s on the wide one (up to 19x19).
//!
//! Bit `y * stride + x` stands for the square at file `x`, rank `y` (see [`Square::index`]). A
//! smaller board uses the lower-left part of the same grid, so shifting by one file is always a
//! shift by 1 and by one rank always a shift by the stride (11 or 19), whatever the board size.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::board::{BitSet, GridBase, Narrow, grid};
use crate::square::Square;

/// A set of squares of a grid ([`Narrow`] by default: boards up to 11x11, one `u128`).
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
pub struct Bitboard<B: GridBase = Narrow>(pub B::Bits);

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

impl Bitboard<Narrow> {
    /// All squares of a `size` x `size` board of the narrow grid (`size` at most 11; larger sizes
    /// give the 11x11 board). A board's own squares: [`Rules::board`](crate::Rules::board).
    pub const fn board(size: u8) -> Bitboard {
        let size = if size > 11 { 11 } else { size };
        Bitboard(grid::to_u128(grid::board(11, size)))
    }

    /// The edge squares of a `size` x `size` board of the narrow grid: rank 1, the last rank, file
    /// `a` and the last file.
    pub const fn edge(size: u8) -> Bitboard {
        let size = if size > 11 { 11 } else { size };
        Bitboard(grid::to_u128(grid::edge(11, size)))
    }
}

impl<B: GridBase> Bitboard<B> {
    /// The empty set.
    pub const EMPTY: Bitboard<B> = Bitboard(B::Bits::ZERO);

    /// The set holding only `square`.
    #[inline(always)]
    pub fn from_square(square: Square<B>) -> Bitboard<B> {
        Bitboard(B::Bits::bit(square.place()))
    }

    /// All squares of a `size` x `size` board of this grid (sizes larger than the grid give the
    /// whole grid): [`Bitboard::board`] on any grid.
    pub(crate) fn board_of(size: u8) -> Bitboard<B> {
        Bitboard(B::Bits::from_words(grid::board(
            B::MAX_SIZE,
            size.min(B::MAX_SIZE),
        )))
    }

    /// The edge squares of a `size` x `size` board of this grid: [`Bitboard::edge`] on any grid.
    pub(crate) fn edge_of(size: u8) -> Bitboard<B> {
        Bitboard(B::Bits::from_words(grid::edge(
            B::MAX_SIZE,
            size.min(B::MAX_SIZE),
        )))
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0.is_zero()
    }

    /// Whether the set has at least one square.
    #[inline(always)]
    pub fn any(self) -> bool {
        !self.0.is_zero()
    }

    /// Whether `square` is in the set.
    #[inline]
    pub fn contains(self, square: Square<B>) -> bool {
        self.0.test(square.place())
    }

    /// How many squares the set holds.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest-index square of the set, if any.
    #[inline]
    pub fn first(self) -> Option<Square<B>> {
        Square::at_index(B::index_of(self.0.lowest()?))
    }

    /// Whether the set holds exactly one square.
    #[inline]
    pub fn is_single(self) -> bool {
        !self.0.is_zero() && self.0.without_lowest().is_zero()
    }

    /// The set with `square` added.
    #[must_use]
    #[inline]
    pub fn with(self, square: Square<B>) -> Bitboard<B> {
        Bitboard(self.0.or(B::Bits::bit(square.place())))
    }

    /// The set with `square` removed.
    #[must_use]
    #[inline]
    pub fn without(self, square: Square<B>) -> Bitboard<B> {
        Bitboard(self.0.and(B::Bits::bit(square.place()).not()))
    }

    /// Every square moved one step in `direction`; squares that would leave the grid (or wrap
    /// round to the other side) are dropped. Squares past the edge of a smaller board stay in
    /// the grid: intersect with a set on the board to drop them.
    #[inline(always)]
    pub(crate) fn shift(self, direction: Direction) -> Bitboard<B> {
        let stride = u32::from(B::MAX_SIZE);
        Bitboard(match direction {
            Direction::North => self.0.shl(stride).and(B::GRID),
            Direction::South => self.0.shr(stride),
            Direction::East => self.0.shl(1).and(B::NOT_FIRST_FILE),
            Direction::West => self.0.shr(1).and(B::NOT_LAST_FILE),
        })
    }

    /// The set holding only `square`, from a table (cheaper than a shift of a u128 by a
    /// variable amount, on the hot path of every move).
    #[inline(always)]
    pub(crate) fn single(square: Square<B>) -> Bitboard<B> {
        Bitboard(B::single(square.index()))
    }

    /// The orthogonal neighbours (R2a) of `square` on the grid, from a table.
    #[inline(always)]
    pub(crate) fn neighbours_of(square: Square<B>) -> Bitboard<B> {
        Bitboard(B::neighbours_of(square.index()))
    }

    /// The squares two steps from `square` along its rank and file (the far side of each of its
    /// neighbours, where a capture's anvil stands, R8), on the grid, from a table.
    #[inline(always)]
    pub(crate) fn two_steps_from(square: Square<B>) -> Bitboard<B> {
        Bitboard(B::two_steps_from(square.index()))
    }

    /// The squares the pieces of `self` reach sliding (R5) in `direction` through `empty`
    /// squares, all pieces at once: a piece stops before the first square not in `empty`, and
    /// never wraps round the grid. `empty` must hold only squares of the grid, and none of the
    /// pieces' squares (two pieces in one empty stretch would carry wrongly in the addition
    /// below).
    ///
    /// East (towards higher bits) is one addition: adding the squares just east of the pieces to
    /// `empty` makes a carry run along each empty stretch that starts next to a piece, clearing
    /// it. The other directions fill in doubling steps (1, 2, 4, 8 squares: enough for the
    /// longest slide of an 11-wide grid, 10; and 16 on the 19-wide one, whose longest is 18),
    /// each step carrying the pieces' reach as far again through squares whose whole step is
    /// empty (the Kogge-Stone occluded fill).
    #[inline(always)]
    pub(crate) fn slides(self, direction: Direction, empty: Bitboard<B>) -> Bitboard<B> {
        debug_assert!((self & empty).is_empty(), "pieces on empty squares");
        let (pieces, empty) = (self.0, empty.0);
        let stride = u32::from(B::MAX_SIZE);
        Bitboard(match direction {
            Direction::East => {
                // A stretch at the end of a rank must not carry on into the next rank's first
                // square: the first file never counts as empty here (nothing slides east onto it).
                slide_east(pieces, empty.and(B::NOT_FIRST_FILE))
            }
            // Sliding west, the last grid file is never reached (nothing is east of it); leaving
            // it out stops a step from the first file wrapping round to it.
            Direction::West => fill::<B>(pieces, empty.and(B::NOT_LAST_FILE), BitSet::shr, 1),
            Direction::North => fill::<B>(pieces, empty, BitSet::shl, stride),
            Direction::South => fill::<B>(pieces, empty, BitSet::shr, stride),
        })
    }

    /// The same squares (by file and rank) on the grid `C`; squares off that grid are dropped.
    pub(crate) fn on_grid<C: GridBase>(self) -> Bitboard<C> {
        self.into_iter()
            .filter_map(|square| square.on_grid::<C>())
            .collect()
    }

    /// The set grown by orthogonal steps (R2a) through `open` squares until it stops growing:
    /// its squares and every `open` square joined to one of them by such steps.
    pub(crate) fn flood(self, open: Bitboard<B>) -> Bitboard<B> {
        let mut region = self;
        loop {
            let grown = region | (region.neighbours() & open);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The orthogonal neighbours (R2a) of the set's squares, on the grid.
    #[inline(always)]
    pub(crate) fn neighbours(self) -> Bitboard<B> {
        Bitboard(
            self.shift(Direction::North)
                .0
                .or(self.shift(Direction::South).0)
                .or(self.shift(Direction::East).0)
                .or(self.shift(Direction::West).0),
        )
    }
}

/// Calls `visit` with the index of each square of `set`, lowest first (on the narrow grid the
/// halves are walked separately: finding the lowest bit of a u64 is one instruction, of a u128
/// several).
#[inline(always)]
pub(crate) fn for_each_index<S: BitSet>(set: S, visit: impl FnMut(usize)) {
    set.for_each_index(visit);
}

/// The squares reached from `pieces` sliding east (towards higher bits) through the `open`
/// squares, which must leave out the first file (so that a stretch at the end of a rank does not
/// carry on into the next). A carry from each square just east of a piece runs along its open
/// stretch and clears it; stretches with no piece to their west are left as they were. The move
/// counts of perft's views use it too, in each view's bits.
#[inline(always)]
pub(crate) fn slide_east<S: BitSet>(pieces: S, open: S) -> S {
    open.and(open.wrapping_add(pieces.shl(1).and(open)).not())
}

/// The squares reached from `pieces` by steps of `step` bits (`shift(set, n)` moves a set `n`
/// bits along) through the `open` squares, the pieces themselves left out: see
/// [`Bitboard::slides`]. The doubling steps cover the longest slide of the grid: 1 + 2 + 4 + 8
/// = 15 squares, then 16 more where a slide may be longer than 15 (the wide grid).
#[inline(always)]
fn fill<B: GridBase>(
    pieces: B::Bits,
    open: B::Bits,
    shift: impl Fn(B::Bits, u32) -> B::Bits,
    step: u32,
) -> B::Bits {
    let (mut reached, mut open_run) = (pieces, open);
    reached = reached.or(open_run.and(shift(reached, step)));
    open_run = open_run.and(shift(open_run, step));
    reached = reached.or(open_run.and(shift(reached, 2 * step)));
    open_run = open_run.and(shift(open_run, 2 * step));
    reached = reached.or(open_run.and(shift(reached, 4 * step)));
    open_run = open_run.and(shift(open_run, 4 * step));
    reached = reached.or(open_run.and(shift(reached, 8 * step)));
    if B::MAX_SIZE > 16 {
        open_run = open_run.and(shift(open_run, 8 * step));
        reached = reached.or(open_run.and(shift(reached, 16 * step)));
    }
    // `reached` holds the pieces and every open square they reach but the last; one more step
    // gives the squares reached.
    shift(reached, step).and(open)
}

impl<B: GridBase> From<Square<B>> for Bitboard<B> {
    #[inline(always)]
    fn from(square: Square<B>) -> Bitboard<B> {
        Bitboard::from_square(square)
    }
}

macro_rules! set_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:ident) => {
        impl<B: GridBase, T: Into<Bitboard<B>>> $trait<T> for Bitboard<B> {
            type Output = Bitboard<B>;
            #[inline(always)]
            fn $method(self, other: T) -> Bitboard<B> {
                Bitboard(self.0.$op(other.into().0))
            }
        }
        impl<B: GridBase, T: Into<Bitboard<B>>> $assign_trait<T> for Bitboard<B> {
            #[inline(always)]
            fn $assign_method(&mut self, other: T) {
                self.0 = self.0.$op(other.into().0);
            }
        }
    };
}

set_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, and);
set_operator!(BitOr, bitor, BitOrAssign, bitor_assign, or);
set_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, xor);

impl<B: GridBase, T: Into<Bitboard<B>>> Sub<T> for Bitboard<B> {
    type Output = Bitboard<B>;
    /// Set difference: the squares of `self` that are not in `other`.
    #[inline(always)]
    fn sub(self, other: T) -> Bitboard<B> {
        Bitboard(self.0.and(other.into().0.not()))
    }
}

impl<B: GridBase> Not for Bitboard<B> {
    type Output = Bitboard<B>;
    /// Complement within the grid.
    #[inline(always)]
    fn not(self) -> Bitboard<B> {
        Bitboard(self.0.not().and(B::GRID))
    }
}

impl<B: GridBase> fmt::Debug for Bitboard<B> {
    /// A picture of the grid, its last rank at the top: `X` for a square in the set, `.`
    /// otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(")?;
        for y in (0..B::MAX_SIZE).rev() {
            for x in 0..B::MAX_SIZE {
                let inside = Square::<B>::at(x, y).is_some_and(|square| self.contains(square));
                f.write_str(if inside { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        write!(f, ")")
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct SquareIter<B: GridBase = Narrow>(B::Bits);

impl<B: GridBase> Iterator for SquareIter<B> {
    type Item = Square<B>;

    #[inline(always)]
    fn next(&mut self) -> Option<Square<B>> {
        let index = self.0.lowest()?;
        self.0 = self.0.without_lowest();
        Square::at_index(B::index_of(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.0.count_ones() as usize;
        (count, Some(count))
    }
}

impl<B: GridBase> DoubleEndedIterator for SquareIter<B> {
    fn next_back(&mut self) -> Option<Square<B>> {
        let index = self.0.highest()?;
        self.0 = self.0.and(B::Bits::bit(index).not());
        Square::at_index(B::index_of(index))
    }
}

impl<B: GridBase> ExactSizeIterator for SquareIter<B> {}
impl<B: GridBase> FusedIterator for SquareIter<B> {}

impl<B: GridBase> IntoIterator for Bitboard<B> {
    type Item = Square<B>;
    type IntoIter = SquareIter<B>;
    fn into_iter(self) -> SquareIter<B> {
        SquareIter(self.0)
    }
}

impl<B: GridBase> FromIterator<Square<B>> for Bitboard<B> {
    fn from_iter<I: IntoIterator<Item = Square<B>>>(squares: I) -> Bitboard<B> {
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
            let set = Bitboard::<Narrow>(
                (u128::from(random.next()) << 64 | u128::from(random.next())) & Narrow::GRID,
            );
            for index in 0..121 {
                let square = Square::from_index(index).unwrap(); // 121 squares on the grid
                assert_eq!(set.contains(square), set.0 >> index & 1 == 1, "{index}");
                assert_eq!(set.contains(square), set.into_iter().any(|s| s == square));
            }
        }
    }
}
