//! `Move` and `MoveList`.

use std::fmt;

use thiserror::Error;

use crate::board::{GridBase, Narrow, Wide};
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
pub struct Move<B: GridBase = Narrow> {
    from: Square<B>,
    to: Square<B>,
}

// A move stays two bytes: it fills move lists and transposition-table entries.
const _: () = assert!(std::mem::size_of::<Move>() == 2);

impl<B: GridBase> Move<B> {
    /// The move from `from` to `to`. Any pair of squares makes a `Move`; whether it is legal is
    /// for a position to say.
    pub const fn new(from: Square<B>, to: Square<B>) -> Move<B> {
        Move { from, to }
    }

    /// Where the piece starts.
    pub const fn from(self) -> Square<B> {
        self.from
    }

    /// Where the piece lands.
    pub const fn to(self) -> Square<B> {
        self.to
    }
}

impl<B: GridBase> fmt::Display for Move<B> {
    /// OpenTafl's simple move notation: `e1-e3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl<B: GridBase> fmt::Debug for Move<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Most legal moves any position of a board up to 11x11 can have: 400.
///
/// Why 400 is enough, on a board of at most 121 squares with `p` pieces of the side to move: a
/// move is fixed by its destination (an empty square) and the direction it came from (4), so
/// there are at most `4 * (121 - p)` moves; and a piece reaches at most 10 squares along its rank
/// and 10 along its file, so at most `20 * p`. If `p <= 20` the second bound gives 400; if
/// `p >= 21` the first gives at most `4 * 100 = 400`.
pub const MAX_LEGAL_MOVES: usize = Narrow::MAX_LEGAL_MOVES;

/// Capacity of a [`MoveList`]: [`MAX_LEGAL_MOVES`] and 16 more, because the move generator
/// writes moves 16 at a time (a whole run of a precomputed table) and then counts only the moves
/// really made.
pub const MOVE_LIST_CAPACITY: usize = MAX_LEGAL_MOVES + BLOCK;

/// Moves the generator copies at once: at least the longest stretch a piece can slide (10
/// squares). A list has room for one block past its most moves.
pub(crate) const BLOCK: usize = 16;

/// A grid's move lists: the buffer of a [`MoveList`] and the search's lists of keyed moves, each
/// sized for the grid's most legal moves and one block of scratch. Implemented here for both grids;
/// a supertrait of [`Grid`](crate::Grid).
pub trait MoveGrid: GridBase {
    /// A move list's buffer: [`GridBase::MAX_LEGAL_MOVES`] moves and one block of scratch.
    #[doc(hidden)]
    type MoveBuffer: Copy + AsRef<[Move<Self>]> + AsMut<[Move<Self>]> + Send + Sync + 'static;
    /// The search's ordering keys of a move list, one a move (uninitialised until pushed).
    #[doc(hidden)]
    type MoveKeys: Default
        + std::ops::DerefMut<Target = [i32]>
        + FromIterator<i32>
        + Send
        + Sync
        + 'static;
    /// The search's scratch list of moves with their keys, sorted in place.
    #[doc(hidden)]
    type KeyedMoves: Default
        + std::ops::DerefMut<Target = [(i32, Move<Self>)]>
        + FromIterator<(i32, Move<Self>)>
        + Send
        + Sync
        + 'static;
    /// An empty move buffer.
    #[doc(hidden)]
    const EMPTY_MOVES: Self::MoveBuffer;
}

impl MoveGrid for Narrow {
    type MoveBuffer = [Move<Narrow>; MOVE_LIST_CAPACITY];
    type MoveKeys = arrayvec::ArrayVec<i32, MOVE_LIST_CAPACITY>;
    type KeyedMoves = arrayvec::ArrayVec<(i32, Move<Narrow>), MOVE_LIST_CAPACITY>;
    const EMPTY_MOVES: Self::MoveBuffer = [Move::new(Square::A1, Square::A1); MOVE_LIST_CAPACITY];
}

/// Capacity of a move list of the wide grid.
const WIDE_CAPACITY: usize = Wide::MAX_LEGAL_MOVES + BLOCK;

impl MoveGrid for Wide {
    type MoveBuffer = [Move<Wide>; WIDE_CAPACITY];
    type MoveKeys = arrayvec::ArrayVec<i32, WIDE_CAPACITY>;
    type KeyedMoves = arrayvec::ArrayVec<(i32, Move<Wide>), WIDE_CAPACITY>;
    const EMPTY_MOVES: Self::MoveBuffer =
        [Move::new(Square::<Wide>::A1, Square::<Wide>::A1); WIDE_CAPACITY];
}

/// A [`MoveList`] was full: the move was not added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("the move list is full ({capacity} moves): {0} was not added", capacity = B::MAX_LEGAL_MOVES + BLOCK)]
pub struct MoveListFull<B: MoveGrid = Narrow>(pub Move<B>);

/// A list of moves on the stack, large enough for every position ([`MAX_LEGAL_MOVES`]).
///
/// It dereferences to a slice of moves (`len`, `iter`, `contains`, indexing, sorting), and
/// iterates by value or by reference.
///
/// ```
/// use tafl_engine::{Move, MoveList, Position};
/// let moves: MoveList = Position::tablut().legal_moves();
/// assert_eq!(moves.len(), 80);
/// assert!(moves.contains(&"e2-h2".parse::<Move>().unwrap()));
/// let mut mine = MoveList::new();
/// mine.try_push(moves[0]).unwrap();
/// assert_eq!(mine.as_slice(), &moves[..1]);
/// ```
#[derive(Clone)]
pub struct MoveList<B: MoveGrid = Narrow> {
    /// The moves are `moves[..len]`; the rest is scratch space for block writes.
    moves: B::MoveBuffer,
    len: usize,
}

impl<B: MoveGrid> MoveList<B> {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList<B> {
        MoveList {
            moves: B::EMPTY_MOVES,
            len: 0,
        }
    }

    /// Adds `m` at the end, or says that the list is full.
    #[inline]
    pub fn try_push(&mut self, m: Move<B>) -> Result<(), MoveListFull<B>> {
        let slot = self
            .moves
            .as_mut()
            .get_mut(self.len)
            .ok_or(MoveListFull(m))?;
        *slot = m;
        self.len += 1;
        Ok(())
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the moves for which `keep` returns `true`, in their order.
    ///
    /// ```
    /// use tafl_engine::Position;
    /// let mut moves = Position::tablut().legal_moves();
    /// moves.retain(|m| m.to().x() == 0);
    /// assert!(!moves.is_empty() && moves.iter().all(|m| m.to().x() == 0));
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&Move<B>) -> bool) {
        let moves = self.moves.as_mut();
        let mut kept = 0;
        for index in 0..self.len {
            let m = moves[index];
            if keep(&m) {
                moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Keeps the first `len` moves (does nothing if there are fewer).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move<B>] {
        &self.moves.as_ref()[..self.len]
    }

    /// The moves as a mutable slice (to reorder them).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move<B>] {
        &mut self.moves.as_mut()[..self.len]
    }
}

impl MoveList {
    /// The whole buffer and the length, for the narrow generator's block writes.
    #[inline(always)]
    pub(crate) fn buffer_mut(&mut self) -> (&mut [Move; MOVE_LIST_CAPACITY], &mut usize) {
        (&mut self.moves, &mut self.len)
    }
}

impl<B: MoveGrid> Default for MoveList<B> {
    fn default() -> MoveList<B> {
        MoveList::new()
    }
}

impl<B: MoveGrid> std::ops::Deref for MoveList<B> {
    type Target = [Move<B>];
    #[inline]
    fn deref(&self) -> &[Move<B>] {
        self.as_slice()
    }
}

impl<B: MoveGrid> std::ops::DerefMut for MoveList<B> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move<B>] {
        self.as_mut_slice()
    }
}

impl<B: MoveGrid> AsRef<[Move<B>]> for MoveList<B> {
    fn as_ref(&self) -> &[Move<B>] {
        self.as_slice()
    }
}

impl<B: MoveGrid> PartialEq for MoveList<B> {
    fn eq(&self, other: &MoveList<B>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<B: MoveGrid> Eq for MoveList<B> {}

impl<B: MoveGrid> std::hash::Hash for MoveList<B> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<B: MoveGrid> fmt::Debug for MoveList<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a, B: MoveGrid> IntoIterator for &'a MoveList<B> {
    type Item = &'a Move<B>;
    type IntoIter = std::slice::Iter<'a, Move<B>>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, B: MoveGrid> IntoIterator for &'a mut MoveList<B> {
    type Item = &'a mut Move<B>;
    type IntoIter = std::slice::IterMut<'a, Move<B>>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<B: MoveGrid> IntoIterator for MoveList<B> {
    type Item = Move<B>;
    type IntoIter = MoveListIntoIter<B>;
    fn into_iter(self) -> MoveListIntoIter<B> {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}

/// The moves of a [`MoveList`], by value.
#[derive(Clone, Debug)]
pub struct MoveListIntoIter<B: MoveGrid = Narrow> {
    list: MoveList<B>,
    next: usize,
}

impl<B: MoveGrid> Iterator for MoveListIntoIter<B> {
    type Item = Move<B>;
    #[inline]
    fn next(&mut self) -> Option<Move<B>> {
        let m = self.list.as_slice().get(self.next).copied()?;
        self.next += 1;
        Some(m)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len - self.next;
        (left, Some(left))
    }
}

impl<B: MoveGrid> DoubleEndedIterator for MoveListIntoIter<B> {
    fn next_back(&mut self) -> Option<Move<B>> {
        if self.list.len == self.next {
            return None;
        }
        self.list.len -= 1;
        self.list.moves.as_ref().get(self.list.len).copied()
    }
}

impl<B: MoveGrid> ExactSizeIterator for MoveListIntoIter<B> {}
impl<B: MoveGrid> std::iter::FusedIterator for MoveListIntoIter<B> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn some_moves(count: usize) -> Vec<Move> {
        (0..count)
            .map(|i| {
                let from = Square::from_index((i % 121) as u8).unwrap();
                let to = Square::from_index(((i * 7 + 1) % 121) as u8).unwrap();
                Move::new(from, to)
            })
            .collect()
    }

    #[test]
    fn a_full_list_refuses_a_move_and_stays_as_it_was() {
        let moves = some_moves(MOVE_LIST_CAPACITY + 1);
        let mut list = MoveList::new();
        for &m in &moves[..MOVE_LIST_CAPACITY] {
            list.try_push(m).unwrap();
        }
        let extra = moves[MOVE_LIST_CAPACITY];
        assert_eq!(list.try_push(extra), Err(MoveListFull(extra)));
        assert_eq!(list.as_slice(), &moves[..MOVE_LIST_CAPACITY]);
    }

    #[test]
    fn a_list_behaves_like_the_vector_of_its_moves() {
        let moves = some_moves(37);
        let mut list = MoveList::new();
        for &m in &moves {
            list.try_push(m).unwrap();
        }
        assert_eq!(list.len(), moves.len());
        assert_eq!(list.iter().copied().collect::<Vec<_>>(), moves);
        assert_eq!(list.clone().into_iter().collect::<Vec<_>>(), moves);
        let backwards: Vec<Move> = list.clone().into_iter().rev().collect();
        assert_eq!(backwards, moves.iter().rev().copied().collect::<Vec<_>>());
        let mut iter = list.clone().into_iter();
        assert_eq!(iter.len(), 37);
        iter.next();
        iter.next_back();
        assert_eq!(iter.len(), 35);
        assert_eq!(iter.collect::<Vec<_>>(), moves[1..36].to_vec());

        // Equality and hashing look at the moves only, not at the unused places.
        let mut other = MoveList::new();
        for &m in moves.iter().chain(&moves) {
            other.try_push(m).unwrap();
        }
        other.truncate(37);
        assert_eq!(other, list);
        let hash = |list: &MoveList| {
            use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
            BuildHasherDefault::<DefaultHasher>::default().hash_one(list)
        };
        assert_eq!(hash(&other), hash(&list));

        list.truncate(100); // longer than the list: nothing changes
        assert_eq!(list.len(), 37);
        list.clear();
        assert!(list.is_empty());
        assert_eq!(format!("{:?}", MoveList::<Narrow>::new()), "[]");
    }
}
