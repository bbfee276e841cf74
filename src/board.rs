//! Grid types: the grid squares are laid out on and the bit set that holds a set of them.
//!
//! Two grids: [`Narrow`], 11 squares wide, whose sets are one `u128` (boards up to 11x11, the
//! layout of every position before boards grew), and [`Wide`], 19 squares wide, whose sets are six
//! `u64`s (boards up to 19x19). Square `(x, y)` has index `y * stride + x` on both, so one file
//! step is always one bit and one rank step `stride` bits. The core (`Square`, `Bitboard`,
//! `Move`, `Position`, the search, ...) is generic over the grid and compiled once per grid, so the
//! narrow copy is the code of a `u128` board and nothing asks at run time which grid it is on
//! (docs/wide-boards.md).
//!
//! [`GridBase`] is the lowest layer of the grid traits: the bits, the squares and their tables. Each
//! layer above adds its own per-grid items in a trait of its own, implemented for both grids where
//! its code lives: `MoveGrid` (move lists), `RuleGrid` (per-size masks, compiled custom rules) and
//! [`Grid`](crate::Grid) (the rules' entry points, each grid's own code).

use std::fmt::Debug;
use std::hash::Hash;

mod sealed {
    /// Only this crate's board types and bit sets implement the traits.
    pub trait Sealed {}
    impl Sealed for u128 {}
    impl Sealed for [u64; 6] {}
    impl Sealed for super::Narrow {}
    impl Sealed for super::Wide {}
}

/// The bits of a set of squares: `u128` on the narrow grid, `[u64; 6]` on the wide one. Bit `i`
/// stands for the square of index `i`. The operations are those the sets need, each as cheap as
/// the type allows.
pub trait BitSet:
    sealed::Sealed + Copy + Eq + Hash + Default + Debug + Send + Sync + 'static
{
    /// No bit set.
    const ZERO: Self;
    /// How many bits the type has.
    const BITS: u32;

    /// The bits of both.
    fn and(self, other: Self) -> Self;
    /// The bits of either.
    fn or(self, other: Self) -> Self;
    /// The bits of exactly one of them.
    fn xor(self, other: Self) -> Self;
    /// Every bit flipped (the caller masks it to the grid).
    fn not(self) -> Self;
    /// Whether no bit is set.
    fn is_zero(self) -> bool;
    /// How many bits are set.
    fn count_ones(self) -> u32;
    /// The index of the lowest set bit, if any.
    fn lowest(self) -> Option<usize>;
    /// The index of the highest set bit, if any.
    fn highest(self) -> Option<usize>;
    /// The set without its lowest bit.
    #[must_use]
    fn without_lowest(self) -> Self;
    /// The set of bit `index` alone (`index` below [`BitSet::BITS`]).
    fn bit(index: usize) -> Self;
    /// Whether bit `index` is set (`index` below [`BitSet::BITS`]).
    fn test(self, index: usize) -> bool;
    /// Every bit moved `n` places up (towards higher indices); bits past the top are lost.
    #[must_use]
    fn shl(self, n: u32) -> Self;
    /// Every bit moved `n` places down; bits below 0 are lost.
    #[must_use]
    fn shr(self, n: u32) -> Self;
    /// The sum of both as numbers, carries running up, the top carry lost.
    #[must_use]
    fn wrapping_add(self, other: Self) -> Self;
    /// Calls `visit` with the index of each set bit, lowest first.
    fn for_each_index(self, visit: impl FnMut(usize));
    /// The set from the words of the crate's compile-time set builders (the first 128 bits for a
    /// `u128`).
    fn from_words(words: [u64; 6]) -> Self;
}

impl BitSet for u128 {
    const ZERO: u128 = 0;
    const BITS: u32 = 128;

    #[inline(always)]
    fn and(self, other: u128) -> u128 {
        self & other
    }
    #[inline(always)]
    fn or(self, other: u128) -> u128 {
        self | other
    }
    #[inline(always)]
    fn xor(self, other: u128) -> u128 {
        self ^ other
    }
    #[inline(always)]
    fn not(self) -> u128 {
        !self
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline(always)]
    fn lowest(self) -> Option<usize> {
        if self == 0 {
            None
        } else {
            Some(self.trailing_zeros() as usize)
        }
    }
    #[inline(always)]
    fn highest(self) -> Option<usize> {
        if self == 0 {
            None
        } else {
            Some(127 - self.leading_zeros() as usize)
        }
    }
    #[inline(always)]
    fn without_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn bit(index: usize) -> u128 {
        1u128 << index
    }
    #[inline(always)]
    fn test(self, index: usize) -> bool {
        // The half that holds the bit, then one bit test: cheaper than a shift of a u128 by a
        // variable amount, on the path of every move perft makes.
        let half = if index < 64 {
            self as u64
        } else {
            (self >> 64) as u64
        };
        half >> (index % 64) & 1 != 0
    }
    #[inline(always)]
    fn shl(self, n: u32) -> u128 {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> u128 {
        self >> n
    }
    #[inline(always)]
    fn wrapping_add(self, other: u128) -> u128 {
        u128::wrapping_add(self, other)
    }
    #[inline(always)]
    fn for_each_index(self, mut visit: impl FnMut(usize)) {
        // The halves are walked separately: finding the lowest bit of a u64 is one instruction,
        // of a u128 several.
        for (mut half, offset) in [(self as u64, 0), ((self >> 64) as u64, 64)] {
            while half != 0 {
                visit(half.trailing_zeros() as usize + offset);
                half &= half - 1;
            }
        }
    }
    fn from_words(words: [u64; 6]) -> u128 {
        grid::to_u128(words)
    }
}

/// Words of the wide bit set.
const WORDS: usize = 6;

impl BitSet for [u64; 6] {
    const ZERO: [u64; 6] = [0; 6];
    const BITS: u32 = 384;

    #[inline]
    fn and(self, other: Self) -> Self {
        std::array::from_fn(|i| self[i] & other[i])
    }
    #[inline]
    fn or(self, other: Self) -> Self {
        std::array::from_fn(|i| self[i] | other[i])
    }
    #[inline]
    fn xor(self, other: Self) -> Self {
        std::array::from_fn(|i| self[i] ^ other[i])
    }
    #[inline]
    fn not(self) -> Self {
        self.map(|word| !word)
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.iter().fold(0, |any, &word| any | word) == 0
    }
    #[inline]
    fn count_ones(self) -> u32 {
        self.iter().map(|word| word.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> Option<usize> {
        let (at, word) = self.iter().enumerate().find(|&(_, &word)| word != 0)?;
        Some(at * 64 + word.trailing_zeros() as usize)
    }
    #[inline]
    fn highest(self) -> Option<usize> {
        let (at, word) = self
            .iter()
            .enumerate()
            .rev()
            .find(|&(_, &word)| word != 0)?;
        Some(at * 64 + 63 - word.leading_zeros() as usize)
    }
    #[inline]
    fn without_lowest(mut self) -> Self {
        if let Some(word) = self.iter_mut().find(|word| **word != 0) {
            *word &= *word - 1;
        }
        self
    }
    #[inline]
    fn bit(index: usize) -> Self {
        let mut words = [0; WORDS];
        if let Some(word) = words.get_mut(index / 64) {
            *word = 1 << (index % 64);
        }
        words
    }
    #[inline]
    fn test(self, index: usize) -> bool {
        self.get(index / 64)
            .is_some_and(|word| word >> (index % 64) & 1 != 0)
    }
    #[inline]
    fn shl(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        std::array::from_fn(|i| {
            let Some(source) = i.checked_sub(words) else {
                return 0;
            };
            let high = self[source] << bits;
            match (bits, source.checked_sub(1)) {
                (1.., Some(below)) => high | self[below] >> (64 - bits),
                _ => high,
            }
        })
    }
    #[inline]
    fn shr(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        std::array::from_fn(|i| {
            let source = i + words;
            let Some(&word) = self.get(source) else {
                return 0;
            };
            let low = word >> bits;
            match (bits, self.get(source + 1)) {
                (1.., Some(&above)) => low | above << (64 - bits),
                _ => low,
            }
        })
    }
    #[inline]
    fn wrapping_add(self, other: Self) -> Self {
        let mut sum = [0; WORDS];
        let mut carry = false;
        for ((place, a), b) in sum.iter_mut().zip(self).zip(other) {
            let (partial, first) = a.overflowing_add(b);
            let (total, second) = partial.overflowing_add(u64::from(carry));
            *place = total;
            carry = first || second;
        }
        sum
    }
    #[inline]
    fn for_each_index(self, mut visit: impl FnMut(usize)) {
        for (at, mut word) in self.into_iter().enumerate() {
            while word != 0 {
                visit(word.trailing_zeros() as usize + at * 64);
                word &= word - 1;
            }
        }
    }
    fn from_words(words: [u64; 6]) -> Self {
        words
    }
}

/// A grid squares are laid out on: its bit set, its stride, its per-square tables. Sealed: the
/// implementations are [`Narrow`] (boards up to 11x11) and [`Wide`] (up to 19x19).
///
/// Code generic over a grid is compiled once for each, so the grid is chosen once per game (by
/// the rules' board size), never per move. [`Grid`](crate::Grid), the bound of positions and
/// games, has `GridBase` as its lowest supertrait. See docs/wide-boards.md.
pub trait GridBase:
    sealed::Sealed + Copy + Eq + Ord + Hash + Default + Debug + Send + Sync + 'static
{
    /// The bits of a set of squares.
    type Bits: BitSet;
    /// A square's index, `y * STRIDE + x`: `u8` on the narrow grid, `u16` on the wide one.
    type Index: Copy
        + Eq
        + Ord
        + Hash
        + Debug
        + Default
        + Send
        + Sync
        + 'static
        + Into<usize>
        + TryFrom<usize>;

    /// The largest board of the grid, which is also its width (stride).
    const MAX_SIZE: u8;
    /// Squares of the grid, `MAX_SIZE * MAX_SIZE`.
    const GRID_SQUARES: usize;
    /// The most legal moves a position of the grid can have (see [`crate::MAX_LEGAL_MOVES`] for
    /// the reasoning, with `MAX_SIZE` in place of 11).
    const MAX_LEGAL_MOVES: usize;
    /// Every square of the grid.
    #[doc(hidden)]
    const GRID: Self::Bits;
    /// The grid less its first file: what survives a step east (nothing wraps into file `a`).
    #[doc(hidden)]
    const NOT_FIRST_FILE: Self::Bits;
    /// The grid less its last file: what survives a step west.
    #[doc(hidden)]
    const NOT_LAST_FILE: Self::Bits;
    /// The index of `a1`, 0.
    #[doc(hidden)]
    const A1_INDEX: Self::Index;

    /// The index of a square's number on the grid (`index` is below `GRID_SQUARES`).
    #[doc(hidden)]
    fn index_of(index: usize) -> Self::Index;
    /// The set of the square of index `index` alone, from a table.
    #[doc(hidden)]
    fn single(index: Self::Index) -> Self::Bits;
    /// The orthogonal neighbours of the square of index `index` on the grid, from a table.
    #[doc(hidden)]
    fn neighbours_of(index: Self::Index) -> Self::Bits;
    /// The squares two steps along a rank or file from the square of index `index`.
    #[doc(hidden)]
    fn two_steps_from(index: Self::Index) -> Self::Bits;
}

/// The 11-wide grid of boards up to 11x11: sets are one `u128`, squares one byte, moves two bytes.
/// The default board type of every generic item, so `Position` is `Position<Narrow>`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Narrow;

/// The 19-wide grid of boards up to 19x19: sets are six `u64`s, squares two bytes, moves four.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Wide;

// The grids' sizes without `GridBase` in scope (`Narrow::MAX_SIZE`), as before the grid's items moved
// from `Grid` into its supertrait `GridBase`.
impl Narrow {
    /// The largest board of the grid, 11 ([`GridBase::MAX_SIZE`]).
    pub const MAX_SIZE: u8 = <Narrow as GridBase>::MAX_SIZE;
    /// Squares of the grid, 121 ([`GridBase::GRID_SQUARES`]).
    pub const GRID_SQUARES: usize = <Narrow as GridBase>::GRID_SQUARES;
    /// The most legal moves of a position of the grid, 400 ([`GridBase::MAX_LEGAL_MOVES`]).
    pub const MAX_LEGAL_MOVES: usize = <Narrow as GridBase>::MAX_LEGAL_MOVES;
}

impl Wide {
    /// The largest board of the grid, 19 ([`GridBase::MAX_SIZE`]).
    pub const MAX_SIZE: u8 = <Wide as GridBase>::MAX_SIZE;
    /// Squares of the grid, 361 ([`GridBase::GRID_SQUARES`]).
    pub const GRID_SQUARES: usize = <Wide as GridBase>::GRID_SQUARES;
    /// The most legal moves of a position of the grid, 1296 ([`GridBase::MAX_LEGAL_MOVES`]).
    pub const MAX_LEGAL_MOVES: usize = <Wide as GridBase>::MAX_LEGAL_MOVES;
}

/// Entries of the narrow per-square tables looked up on every move: one per value of a square's
/// `u8` index, so that the look-up needs no bounds check (entries past 120 are empty, never used).
const NARROW_INDEX_VALUES: usize = 256;

/// A per-square table of the narrow grid.
const fn narrow_table(table: grid::Table) -> [u128; NARROW_INDEX_VALUES] {
    let mut entries = [0u128; NARROW_INDEX_VALUES];
    let mut index = 0;
    while index < 121 {
        entries[index] = grid::to_u128(table.entry(11, index));
        index += 1;
    }
    entries
}

/// The set of each square of the narrow grid alone.
static NARROW_SINGLES: [u128; NARROW_INDEX_VALUES] = narrow_table(grid::Table::Single);
/// The neighbours of each square of the narrow grid, looked up on every move (R8).
static NARROW_NEIGHBOURS: [u128; NARROW_INDEX_VALUES] = narrow_table(grid::Table::Neighbours);
/// The squares two steps along a rank or file from each square of the narrow grid.
static NARROW_TWO_STEPS: [u128; NARROW_INDEX_VALUES] = narrow_table(grid::Table::TwoSteps);

/// The most legal moves any position of the narrow grid can have: 400.
///
/// Why 400 is enough, on a board of at most 121 squares with `p` pieces of the side to move: a
/// move is fixed by its destination (an empty square) and the direction it came from (4), so
/// there are at most `4 * (121 - p)` moves; and a piece reaches at most 10 squares along its rank
/// and 10 along its file, so at most `20 * p`. If `p <= 20` the second bound gives 400; if
/// `p >= 21` the first gives at most `4 * 100 = 400`.
const NARROW_MAX_LEGAL_MOVES: usize = 400;

impl GridBase for Narrow {
    type Bits = u128;
    type Index = u8;

    const MAX_SIZE: u8 = 11;
    const GRID_SQUARES: usize = 121;
    const MAX_LEGAL_MOVES: usize = NARROW_MAX_LEGAL_MOVES;
    const GRID: u128 = (1u128 << 121) - 1;
    const NOT_FIRST_FILE: u128 = grid::to_u128(grid::not_file(11, 0));
    const NOT_LAST_FILE: u128 = grid::to_u128(grid::not_file(11, 10));
    const A1_INDEX: u8 = 0;

    #[inline(always)]
    fn index_of(index: usize) -> u8 {
        index as u8
    }
    #[inline(always)]
    fn single(index: u8) -> u128 {
        NARROW_SINGLES[usize::from(index)]
    }
    #[inline(always)]
    fn neighbours_of(index: u8) -> u128 {
        NARROW_NEIGHBOURS[usize::from(index)]
    }
    #[inline(always)]
    fn two_steps_from(index: u8) -> u128 {
        NARROW_TWO_STEPS[usize::from(index)]
    }
}

/// Squares of the wide grid.
const WIDE_SQUARES: usize = 19 * 19;

/// The most legal moves of a 19x19 position: 1296. A move is fixed by its destination (an empty
/// square) and the direction it came from, so at most `4 * (361 - p)` moves with `p` pieces of the
/// side to move; and a piece reaches at most 18 squares along its rank and 18 along its file, so
/// at most `36 * p`. If `p <= 36` the second bound gives 1296; if `p >= 37` the first gives at
/// most `4 * 324 = 1296`.
const WIDE_MAX_LEGAL_MOVES: usize = 1296;

/// A per-square table of the wide grid.
const fn wide_table(table: grid::Table) -> [[u64; 6]; WIDE_SQUARES] {
    let mut entries = [[0u64; 6]; WIDE_SQUARES];
    let mut index = 0;
    while index < WIDE_SQUARES {
        entries[index] = table.entry(19, index);
        index += 1;
    }
    entries
}

static WIDE_SINGLES: [[u64; 6]; WIDE_SQUARES] = wide_table(grid::Table::Single);
static WIDE_NEIGHBOURS: [[u64; 6]; WIDE_SQUARES] = wide_table(grid::Table::Neighbours);
static WIDE_TWO_STEPS: [[u64; 6]; WIDE_SQUARES] = wide_table(grid::Table::TwoSteps);

/// A wide table's entry, the empty set for an index off the grid (never given).
#[inline(always)]
fn wide_entry(table: &[[u64; 6]; WIDE_SQUARES], index: u16) -> [u64; 6] {
    table.get(usize::from(index)).copied().unwrap_or([0; 6])
}

impl GridBase for Wide {
    type Bits = [u64; 6];
    type Index = u16;

    const MAX_SIZE: u8 = 19;
    const GRID_SQUARES: usize = WIDE_SQUARES;
    const MAX_LEGAL_MOVES: usize = WIDE_MAX_LEGAL_MOVES;
    const GRID: [u64; 6] = grid::board(19, 19);
    const NOT_FIRST_FILE: [u64; 6] = grid::not_file(19, 0);
    const NOT_LAST_FILE: [u64; 6] = grid::not_file(19, 18);
    const A1_INDEX: u16 = 0;

    #[inline(always)]
    fn index_of(index: usize) -> u16 {
        index as u16
    }
    #[inline(always)]
    fn single(index: u16) -> [u64; 6] {
        wide_entry(&WIDE_SINGLES, index)
    }
    #[inline(always)]
    fn neighbours_of(index: u16) -> [u64; 6] {
        wide_entry(&WIDE_NEIGHBOURS, index)
    }
    #[inline(always)]
    fn two_steps_from(index: u16) -> [u64; 6] {
        wide_entry(&WIDE_TWO_STEPS, index)
    }
}

/// Compile-time builders of sets on a grid of any stride up to 19, as six words (bit `i` of the
/// set is bit `i % 64` of word `i / 64`): the per-square tables and per-size masks of both grids
/// are built by the same code, the narrow ones then cut to a `u128` ([`to_u128`]).
pub(crate) mod grid {
    /// The first 128 bits of a set of words.
    pub(crate) const fn to_u128(words: [u64; 6]) -> u128 {
        words[0] as u128 | (words[1] as u128) << 64
    }

    /// `words` with bit `index` set.
    pub(crate) const fn with(mut words: [u64; 6], index: usize) -> [u64; 6] {
        words[index / 64] |= 1 << (index % 64);
        words
    }

    /// The bits of either.
    pub(crate) const fn or(a: [u64; 6], b: [u64; 6]) -> [u64; 6] {
        let mut words = a;
        let mut i = 0;
        while i < 6 {
            words[i] |= b[i];
            i += 1;
        }
        words
    }

    /// The bits of both.
    pub(crate) const fn and(a: [u64; 6], b: [u64; 6]) -> [u64; 6] {
        let mut words = a;
        let mut i = 0;
        while i < 6 {
            words[i] &= b[i];
            i += 1;
        }
        words
    }

    /// The bits of `a` not in `b`.
    pub(crate) const fn minus(a: [u64; 6], b: [u64; 6]) -> [u64; 6] {
        let mut words = a;
        let mut i = 0;
        while i < 6 {
            words[i] &= !b[i];
            i += 1;
        }
        words
    }

    /// The square `(x, y)` alone, on a grid of `stride`.
    pub(crate) const fn square(stride: u8, x: u8, y: u8) -> [u64; 6] {
        with([0; 6], y as usize * stride as usize + x as usize)
    }

    /// The per-square tables of a grid.
    #[derive(Clone, Copy)]
    pub(crate) enum Table {
        /// Each square alone.
        Single,
        /// Its orthogonal neighbours (R2a).
        Neighbours,
        /// The squares two steps away along its rank and file.
        TwoSteps,
    }

    impl Table {
        /// The entry of the square of `index` on a grid of `stride`.
        pub(crate) const fn entry(self, stride: u8, index: usize) -> [u64; 6] {
            match self {
                Table::Single => with([0; 6], index),
                Table::Neighbours => neighbours(stride, index),
                Table::TwoSteps => two_steps(stride, index),
            }
        }
    }

    /// The square `dx`, `dy` from the square of `index`, if on the grid.
    const fn step(stride: u8, index: usize, dx: i32, dy: i32) -> [u64; 6] {
        let x = (index % stride as usize) as i32 + dx;
        let y = (index / stride as usize) as i32 + dy;
        if x < 0 || y < 0 || x >= stride as i32 || y >= stride as i32 {
            [0; 6]
        } else {
            square(stride, x as u8, y as u8)
        }
    }

    /// The orthogonal neighbours (R2a) of the square of `index` on the grid.
    pub(crate) const fn neighbours(stride: u8, index: usize) -> [u64; 6] {
        or(
            or(step(stride, index, 1, 0), step(stride, index, -1, 0)),
            or(step(stride, index, 0, 1), step(stride, index, 0, -1)),
        )
    }

    /// The squares two steps along a rank or file from the square of `index`.
    pub(crate) const fn two_steps(stride: u8, index: usize) -> [u64; 6] {
        or(
            or(step(stride, index, 2, 0), step(stride, index, -2, 0)),
            or(step(stride, index, 0, 2), step(stride, index, 0, -2)),
        )
    }

    /// Every square of a `size` x `size` board in the lower left of the grid.
    pub(crate) const fn board(stride: u8, size: u8) -> [u64; 6] {
        let mut words = [0; 6];
        let mut y = 0;
        while y < size {
            let mut x = 0;
            while x < size {
                words = or(words, square(stride, x, y));
                x += 1;
            }
            y += 1;
        }
        words
    }

    /// The edge squares of a `size` x `size` board.
    pub(crate) const fn edge(stride: u8, size: u8) -> [u64; 6] {
        let mut words = [0; 6];
        let mut y = 0;
        while y < size {
            let mut x = 0;
            while x < size {
                if x == 0 || y == 0 || x + 1 == size || y + 1 == size {
                    words = or(words, square(stride, x, y));
                }
                x += 1;
            }
            y += 1;
        }
        words
    }

    /// The whole grid less file `x`.
    pub(crate) const fn not_file(stride: u8, x: u8) -> [u64; 6] {
        let mut file = [0; 6];
        let mut y = 0;
        while y < stride {
            file = or(file, square(stride, x, y));
            y += 1;
        }
        minus(board(stride, stride), file)
    }

    /// The rank and file of `(x, y)` on a `size` board.
    pub(crate) const fn lines(stride: u8, size: u8, x: u8, y: u8) -> [u64; 6] {
        let mut words = [0; 6];
        let mut place = 0;
        while place < size {
            words = or(words, square(stride, place, y));
            words = or(words, square(stride, x, place));
            place += 1;
        }
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seeded random wide sets of every density.
    fn wide_sets() -> Vec<[u64; 6]> {
        let mut random = crate::test_support::XorShift(0x243f_6a88_85a3_08d3);
        (0..400)
            .map(|round| {
                let mut words: [u64; 6] = std::array::from_fn(|_| random.next());
                for _ in 0..round % 4 {
                    let mask: [u64; 6] = std::array::from_fn(|_| random.next());
                    words = words.and(mask);
                }
                if round % 7 == 0 {
                    words[round % 6] = 0;
                }
                words
            })
            .collect()
    }

    /// The bits of a wide set, as a list of booleans (an independent model of the set).
    fn bits(words: [u64; 6]) -> Vec<bool> {
        (0..384)
            .map(|i| words[i / 64] >> (i % 64) & 1 == 1)
            .collect()
    }

    fn from_bits(bits: &[bool]) -> [u64; 6] {
        let mut words = [0; 6];
        for (i, _) in bits.iter().enumerate().filter(|(_, set)| **set) {
            words[i / 64] |= 1 << (i % 64);
        }
        words
    }

    #[test]
    fn wide_shifts_move_every_bit_and_drop_those_past_the_ends() {
        for words in wide_sets().into_iter().take(100) {
            let model = bits(words);
            for n in [1, 2, 19, 38, 63, 64, 65, 76, 128, 152, 200, 304, 383] {
                let up: Vec<bool> = (0..384).map(|i| i >= n && model[i - n]).collect::<Vec<_>>();
                let down: Vec<bool> = (0..384)
                    .map(|i| i + n < 384 && model[i + n])
                    .collect::<Vec<_>>();
                assert_eq!(words.shl(n as u32), from_bits(&up), "{words:?} << {n}");
                assert_eq!(words.shr(n as u32), from_bits(&down), "{words:?} >> {n}");
            }
        }
    }

    #[test]
    fn wide_addition_carries_across_words() {
        let sets = wide_sets();
        for pair in sets.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            // Schoolbook addition bit by bit.
            let (x, y) = (bits(a), bits(b));
            let mut carry = false;
            let mut sum = vec![false; 384];
            for i in 0..384 {
                let total = u8::from(x[i]) + u8::from(y[i]) + u8::from(carry);
                sum[i] = total % 2 == 1;
                carry = total >= 2;
            }
            assert_eq!(a.wrapping_add(b), from_bits(&sum), "{a:?} + {b:?}");
        }
        // A carry that runs through whole words of ones.
        let ones = [u64::MAX, u64::MAX, u64::MAX, 0, 0, 0];
        assert_eq!(ones.wrapping_add([1, 0, 0, 0, 0, 0]), [0, 0, 0, 1, 0, 0]);
    }

    #[test]
    fn wide_bit_queries_agree_with_the_bits() {
        for words in wide_sets() {
            let model = bits(words);
            let set: Vec<usize> = (0..384).filter(|&i| model[i]).collect();
            assert_eq!(words.count_ones() as usize, set.len());
            assert_eq!(words.is_zero(), set.is_empty());
            assert_eq!(words.lowest(), set.first().copied());
            assert_eq!(words.highest(), set.last().copied());
            let mut visited = Vec::new();
            words.for_each_index(|i| visited.push(i));
            assert_eq!(visited, set);
            for &i in set.iter().take(5) {
                assert!(words.test(i));
                assert_eq!(<[u64; 6]>::bit(i).and(words), <[u64; 6]>::bit(i));
            }
            assert_eq!(
                bits(words.without_lowest()).iter().filter(|&&b| b).count(),
                set.len().saturating_sub(1)
            );
            assert_eq!(words.not().not(), words);
        }
    }

    #[test]
    fn narrow_tables_are_the_u128_sets_of_before() {
        // The neighbours of e5 (index 48) on the 11-wide grid: d5, f5, e4, e6.
        assert_eq!(
            Narrow::neighbours_of(48),
            1 << 47 | 1 << 49 | 1 << 37 | 1 << 59
        );
        // k5 (index 54) has no neighbour east: it would wrap to a6.
        assert_eq!(Narrow::neighbours_of(54).count_ones(), 3);
        assert_eq!(Narrow::GRID.count_ones(), 121);
        assert_eq!(Narrow::NOT_FIRST_FILE.count_ones(), 110);
        assert_eq!(Wide::GRID.count_ones(), 361);
        assert_eq!(Wide::NOT_LAST_FILE.count_ones(), 342);
        // s19 (index 360), the wide grid's last square: two neighbours.
        assert_eq!(Wide::neighbours_of(360).count_ones(), 2);
        assert_eq!(Wide::two_steps_from(180).count_ones(), 4);
    }
}
