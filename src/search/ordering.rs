//! Move ordering: which moves to try first so that alpha-beta cuts early.
//!
//! Order: the transposition table's move, moves that win material or make a king threat (an
//! escape line for the defenders), killers (quiet moves that cut at the same ply), then the
//! history heuristic (how often a move cut anywhere in the tree).

use crate::board::Narrow;
use crate::moves::{Move, MoveList};
use crate::piece::Side;
use crate::play::Grid;

/// Most plies a search line can reach (extensions and quiescence included).
pub(crate) const MAX_PLY: usize = 128;

/// Ordering keys. Above `QUIET_LIMIT` a move is "tactical": never reduced or pruned.
pub(crate) const TT_MOVE: i32 = 1 << 30;
pub(crate) const KING_FORK: i32 = 1 << 29;
pub(crate) const KING_CHECK: i32 = 1 << 28;
pub(crate) const CAPTURE: i32 = 1 << 27;
pub(crate) const NEAR_KING: i32 = 1 << 26;
pub(crate) const FIRST_KILLER: i32 = 1 << 25;
pub(crate) const SECOND_KILLER: i32 = (1 << 25) - 1;
/// Keys at or above this belong to tactical moves.
pub(crate) const QUIET_LIMIT: i32 = NEAR_KING;
/// History scores stay below this, under the killers.
const HISTORY_MAX: i32 = 1 << 20;

/// `length` copies of `value`, or `None` when the memory cannot be had: a search thread's
/// tables are set up this way, so that a thread started with too little memory left does not
/// search instead of aborting the program.
pub(crate) fn filled<T: Clone>(length: usize, value: T) -> Option<Vec<T>> {
    let mut values = Vec::new();
    values.try_reserve_exact(length).ok()?;
    values.resize(length, value);
    Some(values)
}

/// Killer moves and history scores of one search thread.
#[derive(Clone, Debug)]
pub(crate) struct Heuristics<B: Grid = Narrow> {
    killers: Vec<[Option<Move<B>>; 2]>,
    history: Vec<i32>,
}

impl<B: Grid> Heuristics<B> {
    /// Empty heuristics, or `None` when their memory (about 120 KB) cannot be had.
    pub(crate) fn new() -> Option<Heuristics<B>> {
        Some(Heuristics {
            killers: filled(MAX_PLY + 1, [None; 2])?,
            history: filled(2 * B::GRID_SQUARES * B::GRID_SQUARES, 0)?,
        })
    }

    fn history_index(side: Side, m: Move<B>) -> usize {
        let side = match side {
            Side::Attackers => 0,
            Side::Defenders => 1,
        };
        let squares = B::GRID_SQUARES;
        (side * squares + m.from().index().into()) * squares + m.to().index().into()
    }

    pub(crate) fn killers(&self, ply: usize) -> [Option<Move<B>>; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    pub(crate) fn history(&self, side: Side, m: Move<B>) -> i32 {
        self.history[Self::history_index(side, m)]
    }

    /// A quiet move cut off at `ply`: remember it as a killer and reward it; the quiet moves
    /// tried before it (`tried`) are penalised.
    pub(crate) fn reward(
        &mut self,
        side: Side,
        m: Move<B>,
        ply: usize,
        depth: i32,
        tried: &[Move<B>],
    ) {
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        self.update(side, m, bonus);
        for &other in tried {
            if other != m {
                self.update(side, other, -bonus);
            }
        }
    }

    /// The gravity update: entries saturate at `HISTORY_MAX` instead of growing forever.
    fn update(&mut self, side: Side, m: Move<B>, bonus: i32) {
        let entry = &mut self.history[Self::history_index(side, m)];
        *entry += bonus * 32 - *entry * bonus.abs() / (HISTORY_MAX / 32);
        *entry = (*entry).clamp(-HISTORY_MAX + 1, HISTORY_MAX - 1);
    }

    /// Clears killers (they belong to one position) and halves history between searches.
    pub(crate) fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for entry in &mut self.history {
            *entry /= 2;
        }
    }
}

/// Moves handed out by selection before the rest is sorted.
const SELECTIONS: usize = 6;

/// Moves with their ordering keys, handed out best first by selection (a full sort is wasted
/// when the first move cuts).
pub(crate) struct MovePicker<B: Grid = Narrow> {
    moves: MoveList<B>,
    keys: B::MoveKeys,
    next: usize,
}

impl<B: Grid> MovePicker<B> {
    pub(crate) fn new(moves: MoveList<B>, key: impl Fn(Move<B>) -> i32) -> MovePicker<B> {
        let keys = moves.iter().map(|&m| key(m)).collect();
        MovePicker {
            moves,
            keys,
            next: 0,
        }
    }

    /// The next best move and its key. The sort of the rest is out of line: it is rare, and
    /// inlined it would weigh on every node.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(Move<B>, i32)> {
        if self.next >= self.moves.len() {
            return None;
        }
        if self.next == SELECTIONS {
            // No cut among the first few: sort the rest once instead of selecting each.
            self.sort_rest();
        }
        if self.next >= SELECTIONS {
            let picked = (self.moves[self.next], self.keys[self.next]);
            self.next += 1;
            return Some(picked);
        }
        let mut best = self.next;
        for index in self.next + 1..self.moves.len() {
            if self.keys[index] > self.keys[best] {
                best = index;
            }
        }
        self.moves.swap(self.next, best);
        self.keys.swap(self.next, best);
        let picked = (self.moves[self.next], self.keys[self.next]);
        self.next += 1;
        Some(picked)
    }

    /// Sorts the moves not yet handed out, best first, moves of equal keys in the order they
    /// had. On the stack: the stable sort of at most MOVE_LIST_CAPACITY pairs of 8 bytes works
    /// in a scratch buffer of its own on the stack too (tests/allocations.rs checks that no node
    /// allocates).
    #[inline(never)]
    fn sort_rest(&mut self) {
        let mut rest: B::KeyedMoves = self.keys[self.next..]
            .iter()
            .copied()
            .zip(self.moves[self.next..].iter().copied())
            .collect();
        rest.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        for (offset, &(key, m)) in rest.iter().enumerate() {
            self.keys[self.next + offset] = key;
            self.moves[self.next + offset] = m;
        }
    }
}
