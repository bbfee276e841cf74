//! What a search is given and what it reports: [`SearchConfig`] and [`Features`] in,
//! [`SearchInfo`] after each depth, [`SearchResult`] (with its [`PvLine`]s) at the end, and the
//! [`StopHandle`] that stops it from another thread. Below the search's code, which uses them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::board::Narrow;
use crate::moves::Move;
use crate::play::Grid;

use super::score::Score;

/// The most the search's own pricing of a draw goes to, in hundredths of a soldier (15
/// soldiers): a positive contempt plus the evaluation's deficit is capped here
/// ([`Searcher::draw_score`](super::Searcher::draw_score)). A contempt of this much prices every draw at 15 soldiers whatever
/// the evaluation says; it is what the protocol binary plays with by default and the largest
/// `--contempt` it takes.
pub const MAX_DRAW_COST: i32 = 1500;

/// How a [`Searcher`](super::Searcher) is set up.
///
/// The default is one thread and a 64 MiB transposition table, allocated by each
/// [`Searcher::new`](super::Searcher::new): a program that keeps several searchers (one a game,
/// say) may want a smaller table each.
///
/// ```
/// use tafl_engine::search::SearchConfig;
/// assert_eq!(SearchConfig::default(), SearchConfig { threads: 1, hash_mb: 64 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Search threads (at least 1).
    pub threads: usize,
    /// Transposition table size in MiB. [`Searcher::new`](super::Searcher::new) allocates and clears the whole table
    /// at once (about 25 ms for 64 MiB), so that searches do not wait for the memory to be
    /// mapped; if that much memory cannot be allocated, it takes the largest half, quarter, ...
    /// of it that can be.
    pub hash_mb: usize,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: 1,
            hash_mb: 64,
        }
    }
}

/// Search techniques that can be switched off, to measure what each one is worth (see the match
/// runner, `examples/match`). All but `threat_extension` are on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Null-move pruning: skip a node when passing the turn still beats beta.
    pub null_move: bool,
    /// Late-move reductions: search late quiet moves shallower first.
    pub late_move_reductions: bool,
    /// Futility pruning: skip quiet moves near the horizon when the score is far below alpha.
    pub futility: bool,
    /// Reverse futility pruning: near the horizon, return at once when the static score is far
    /// above beta.
    pub reverse_futility: bool,
    /// Late-move pruning: near the horizon, skip the quiet moves after the first few.
    pub late_move_pruning: bool,
    /// Quiescence search of captures and king threats at the horizon (blocks of an open king
    /// line are always searched).
    pub quiescence: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// At the horizon, search the defenders' answers when the attackers threaten to capture
    /// the king next move. Off by default: at equal nodes it lost a match (docs/search.md).
    pub threat_extension: bool,
    /// The learned evaluation ([`nnue`](super::nnue)) for the games that have a built-in network
    /// ([`nnue::network_for`](super::nnue::network_for): corner-escape games on 11x11 boards); off, or for other games, the
    /// hand-written evaluation ([`eval`](super::eval)) with the searcher's weights.
    pub learned_eval: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            null_move: true,
            late_move_reductions: true,
            futility: true,
            reverse_futility: true,
            late_move_pruning: true,
            quiescence: true,
            aspiration: true,
            threat_extension: false,
            learned_eval: true,
        }
    }
}

/// One principal variation: a first move, the line that follows, and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine<B: Grid = Narrow> {
    /// The line, first move first (never empty).
    pub moves: Vec<Move<B>>,
    /// Score from the side to move's point of view.
    pub score: Score,
}

/// Progress of a search, reported after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<B: Grid = Narrow> {
    /// Depth completed, in plies.
    pub depth: u32,
    /// Best score so far, from the side to move's point of view.
    pub score: Score,
    /// Principal variation.
    pub pv: Vec<Move<B>>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

impl<B: Grid> SearchInfo<B> {
    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<B: Grid = Narrow> {
    /// The move to play; `None` only when the game is over (no legal move).
    pub best_move: Option<Move<B>>,
    /// Its score, from the side to move's point of view.
    pub score: Score,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move<B>>,
    /// The best lines with distinct first moves, best first (one unless multi-PV was asked for).
    pub lines: Vec<PvLine<B>>,
    /// Deepest depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Threads that searched: [`SearchConfig::threads`], or fewer when the system refused to
    /// start some (memory, a limit on threads); 0 when even the calling thread's tables could not
    /// be had (then `best_move` is the first legal move, unsearched).
    pub threads: usize,
}

/// Stops a running search from another thread. Cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Asks the search to stop as soon as it can; it then returns its best move so far.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    pub(super) fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}
