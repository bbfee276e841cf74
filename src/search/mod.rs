//! The game-playing search: iterative-deepening alpha-beta over [`Game`]s.
//!
//! [`Searcher`] is the entry point: give it a game and [`Limits`], get a [`SearchResult`]; watch
//! progress through a callback and stop it from another thread with a [`StopHandle`].

mod alphabeta;
pub mod eval;
mod limits;
mod score;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub use limits::{Clock, Limits};
pub use score::Score;

use crate::game::Game;
use crate::moves::Move;

/// How a [`Searcher`] is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Search threads (at least 1).
    pub threads: usize,
    /// Transposition table size in MiB.
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

/// One principal variation: a first move, the line that follows, and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// The line, first move first (never empty).
    pub moves: Vec<Move>,
    /// Score from the side to move's point of view.
    pub score: Score,
}

/// Progress of a search, reported after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth completed, in plies.
    pub depth: u32,
    /// Best score so far, from the side to move's point of view.
    pub score: Score,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

impl SearchInfo {
    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is over (no legal move).
    pub best_move: Option<Move>,
    /// Its score, from the side to move's point of view.
    pub score: Score,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// The best lines with distinct first moves, best first (one unless multi-PV was asked for).
    pub lines: Vec<PvLine>,
    /// Deepest depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
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

    fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// Searches games for the best move.
///
/// ```
/// use tafl_engine::{Game, Variant};
/// use tafl_engine::search::{Limits, Searcher, SearchConfig};
/// let game = Game::new(&Variant::tablut());
/// let mut searcher = Searcher::new(SearchConfig::default());
/// let result = searcher.search(&game, &Limits::depth(2), |_| {});
/// assert!(game.position().is_legal(result.best_move.unwrap()));
/// ```
#[derive(Debug)]
pub struct Searcher {
    config: SearchConfig,
    stop: StopHandle,
    state: alphabeta::State,
}

impl Searcher {
    /// A searcher with the given configuration.
    pub fn new(config: SearchConfig) -> Searcher {
        let config = SearchConfig {
            threads: config.threads.max(1),
            ..config
        };
        Searcher {
            state: alphabeta::State::new(config.hash_mb),
            config,
            stop: StopHandle::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// A handle that stops this searcher's searches from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Forgets what earlier searches learnt (call between unrelated games).
    pub fn clear(&mut self) {
        self.state = alphabeta::State::new(self.config.hash_mb);
    }

    /// Searches the current position of `game` within `limits`, calling `on_info` after each
    /// completed depth, and returns the best move found. The stop flag is cleared on entry.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        self.stop.reset();
        self.state.search(game, limits, 1, &self.stop, on_info)
    }

    /// Like [`Searcher::search`], but finds the best `lines` first moves, each with its own line
    /// and score, best first (for analysis).
    pub fn search_multi_pv(
        &mut self,
        game: &Game,
        limits: &Limits,
        lines: usize,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        self.stop.reset();
        self.state
            .search(game, limits, lines.max(1), &self.stop, on_info)
    }
}
