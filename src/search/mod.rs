//! The game-playing search: iterative-deepening alpha-beta over [`Game`]s.
//!
//! [`Searcher`] is the entry point: give it a game and [`Limits`], get a [`SearchResult`]; watch
//! progress through a callback and stop it from another thread with a [`StopHandle`].
//!
//! Inside: `deepening` (iterative deepening, aspiration windows, multi-PV, time, lazy-SMP
//! threads), `alphabeta` (the principal-variation search and the quiescence search), `threats`
//! (the king's free lines and one-move wins), `ordering` (killers, history), `table` (the shared
//! transposition table) and [`eval`] (the evaluation terms).

mod alphabeta;
mod deepening;
pub mod eval;
mod limits;
pub mod nnue;
mod ordering;
mod score;
mod table;
mod threats;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub use eval::EvalWeights;
pub use limits::{Clock, Limits};
pub use score::Score;

use crate::board::{Board, Narrow};
use crate::game::Game;
use crate::moves::Move;

/// How a [`Searcher`] is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Search threads (at least 1).
    pub threads: usize,
    /// Transposition table size in MiB. [`Searcher::new`] allocates and clears the whole table
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
    /// The learned evaluation ([`nnue`]) for the games that have a built-in network
    /// ([`nnue::network_for`]: corner-escape games on 11x11 boards); off, or for other games, the
    /// hand-written evaluation ([`eval`]) with the searcher's weights.
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
pub struct PvLine<B: Board = Narrow> {
    /// The line, first move first (never empty).
    pub moves: Vec<Move<B>>,
    /// Score from the side to move's point of view.
    pub score: Score,
}

/// Progress of a search, reported after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<B: Board = Narrow> {
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

impl<B: Board> SearchInfo<B> {
    /// Nodes per second so far.
    pub fn nodes_per_second(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<B: Board = Narrow> {
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
    table: table::TranspositionTable,
    weights: EvalWeights,
    features: Features,
    network: Option<Arc<nnue::Network>>,
    contempt: i32,
}

/// What a draw costs the side a search plays for at least, in hundredths of a soldier, unless
/// [`Searcher::set_contempt`] says otherwise: the engine would rather play on than repeat
/// (R16, the first repetition draws) or wall itself in (R17), unless that costs more than this
/// (and more than the evaluation says it is behind: [`Searcher::draw_score`]).
pub const DEFAULT_CONTEMPT: i32 = 60;

/// The most the search's own pricing of a draw goes to, in hundredths of a soldier (15
/// soldiers): a positive contempt plus the evaluation's deficit is capped here
/// ([`Searcher::draw_score`]). A contempt of this much prices every draw at 15 soldiers whatever
/// the evaluation says; it is what the protocol binary plays with by default and the largest
/// `--contempt` it takes.
pub const MAX_DRAW_COST: i32 = 1500;

// The protocol binary runs the searcher on a worker thread.
const _: fn() = || {
    fn assert_send<T: Send>() {}
    assert_send::<Searcher>();
};

impl Searcher {
    /// A searcher with the given configuration.
    pub fn new(config: SearchConfig) -> Searcher {
        let config = SearchConfig {
            threads: config.threads.max(1),
            ..config
        };
        Searcher {
            table: table::TranspositionTable::new(config.hash_mb),
            config,
            stop: StopHandle::default(),
            weights: EvalWeights::DEFAULT,
            features: Features::default(),
            network: None,
            contempt: DEFAULT_CONTEMPT,
        }
    }

    /// Sets what a draw costs the side the search plays for (the side to move at the root), in
    /// hundredths of a soldier, from the next search on; 0 scores draws as even. Inside the tree
    /// a draw (repetition R16, no move R17) is [`Searcher::draw_score`] for the root's side and
    /// its negation for the opponent, and reported scores keep that view. A positive contempt
    /// grows by as much as the static evaluation says the root's side is behind, at the root or
    /// at the game's start (up to 15 soldiers), so that a side the evaluation is pessimistic
    /// about still plays on; zero or a negative contempt is used as it is.
    pub fn set_contempt(&mut self, contempt: i32) {
        self.contempt = contempt.clamp(-Score::WIN_THRESHOLD / 2, Score::WIN_THRESHOLD / 2);
    }

    /// What a draw costs the side the search plays for at least ([`Searcher::set_contempt`]).
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// The score of a draw inside a search of `game` from its current position, from the view of
    /// the side to move: `-contempt`, or lower when the static evaluation says that side is
    /// behind, now or at the game's start (the start is taken as even: the evaluation's zero is
    /// not, each game's start is tilted to one side).
    ///
    /// ```
    /// use tafl_engine::{Game, Variant};
    /// use tafl_engine::search::{SearchConfig, Searcher};
    /// let mut searcher = Searcher::new(SearchConfig { threads: 1, hash_mb: 1 });
    /// let game = Game::new(&Variant::tablut());
    /// assert!(searcher.draw_score(&game).0 <= -searcher.contempt());
    /// searcher.set_contempt(0);
    /// assert_eq!(searcher.draw_score(&game).0, 0);
    /// ```
    pub fn draw_score<B: Board>(&self, game: &Game<B>) -> Score {
        let evaluation = eval::Evaluator::new(
            &self.weights,
            &self.features,
            self.network.as_ref(),
            game.position().rules(),
        );
        Score(-deepening::draw_cost(
            self.contempt,
            game.position(),
            game.start_position(),
            &evaluation,
        ))
    }

    /// Uses other evaluation weights from the next search on (for tuning and matches).
    pub fn set_eval_weights(&mut self, weights: EvalWeights) {
        self.weights = weights;
    }

    /// The evaluation weights in use.
    pub fn eval_weights(&self) -> &EvalWeights {
        &self.weights
    }

    /// Switches search techniques on or off from the next search on.
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// Plays with `network` from the next search on, whatever the game's rules, instead of the
    /// built-in network of the rules ([`nnue::network_for`]); `None` goes back to the built-in
    /// ones. Only while [`Features::learned_eval`] is on (it is by default): the network is for
    /// games like those it was trained on (docs/nnue.md).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tafl_engine::search::nnue::{FloatNetwork, Network, HIDDEN, INPUTS};
    /// use tafl_engine::search::{SearchConfig, Searcher};
    /// let zero = FloatNetwork {
    ///     input_weights: vec![0.0; INPUTS * HIDDEN],
    ///     input_biases: vec![0.0; HIDDEN],
    ///     output_weights: vec![0.0; 2 * HIDDEN],
    ///     output_biases: [0.0, 0.0],
    ///     scale: 100.0,
    ///     adds_hand_written: false,
    ///     description: "every position even".to_string(),
    /// };
    /// let mut searcher = Searcher::new(SearchConfig { threads: 1, hash_mb: 1 });
    /// searcher.set_network(Some(Arc::new(Network::quantize(&zero))));
    /// assert_eq!(searcher.network().map(|n| n.description()), Some("every position even"));
    /// ```
    pub fn set_network(&mut self, network: Option<Arc<nnue::Network>>) {
        self.network = network;
    }

    /// The network given by [`Searcher::set_network`], if any.
    pub fn network(&self) -> Option<&nnue::Network> {
        self.network.as_deref()
    }

    /// The search techniques in use.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// A handle that stops this searcher's searches from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Forgets what earlier searches learnt (call between unrelated games). The table is emptied
    /// in place (a few milliseconds for 64 MiB).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    fn run<B: Board>(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        lines: usize,
        on_info: impl FnMut(&SearchInfo<B>),
    ) -> SearchResult<B> {
        self.stop.reset();
        let setup = deepening::Setup {
            table: &self.table,
            stop: &self.stop,
            threads: self.config.threads,
            weights: self.weights,
            features: self.features,
            network: self.network.clone(),
            contempt: self.contempt,
        };
        deepening::run(&setup, game, limits, lines, on_info)
    }

    /// Searches the current position of `game` within `limits`, calling `on_info` after each
    /// completed depth, and returns the best move found. The stop flag is cleared on entry.
    pub fn search<B: Board>(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        on_info: impl FnMut(&SearchInfo<B>),
    ) -> SearchResult<B> {
        self.run(game, limits, 1, on_info)
    }

    /// Like [`Searcher::search`], but finds the best `lines` first moves, each with its own line
    /// and score, best first (for analysis).
    pub fn search_multi_pv<B: Board>(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        lines: usize,
        on_info: impl FnMut(&SearchInfo<B>),
    ) -> SearchResult<B> {
        self.run(game, limits, lines.max(1), on_info)
    }
}
