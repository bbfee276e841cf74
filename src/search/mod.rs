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
pub(crate) mod evaluator;
mod interface;
mod limits;
pub mod nnue;
mod ordering;
mod root_scores;
mod scale;
mod score;
mod table;
mod threats;

use std::sync::Arc;

pub use eval::EvalWeights;
pub use evaluator::PlayingEvaluation;
pub use interface::{
    Features, MAX_DRAW_COST, PvLine, SearchConfig, SearchInfo, SearchResult, StopHandle,
};
pub use limits::{Clock, Limits};
pub use root_scores::{RootMove, RootScores};
pub use scale::ScoreScale;
pub use score::Score;

use crate::game::Game;
use crate::play::Grid;
use crate::position::Outcome;
use crate::rules::Rules;

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
    /// the side to move, on the shown scale that searches report ([`ScoreScale`]): `-contempt`
    /// (in the evaluation's units), or lower when the static evaluation says that side is
    /// behind, now or at the game's start (the start is taken as even: the evaluation's zero is
    /// not, each game's start is tilted to one side).
    ///
    /// ```
    /// use tafl_engine::{Game, Variant};
    /// use tafl_engine::search::{Score, SearchConfig, Searcher};
    /// let mut searcher = Searcher::new(SearchConfig { threads: 1, hash_mb: 1 });
    /// let game = Game::new(&Variant::tablut());
    /// let (scale, side) = (searcher.score_scale(game.position().rules()), game.position().side_to_move());
    /// assert!(searcher.draw_score(&game) <= scale.show(Score(-searcher.contempt()), side));
    /// searcher.set_contempt(0);
    /// assert_eq!(searcher.draw_score(&game), scale.show(Score::DRAW, side));
    /// ```
    pub fn draw_score<B: Grid>(&self, game: &Game<B>) -> Score {
        let evaluator = self.evaluator(game.position().rules());
        let internal = Score(-deepening::draw_cost(
            self.contempt,
            game.position(),
            game.start_position(),
            &evaluator,
        ));
        evaluator
            .scale
            .show(internal, game.position().side_to_move())
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
    /// games like those it was trained on (docs/nnue.md). Only in games of the network's grid
    /// ([`nnue::Network::grid`]): a game on the other grid (a 13x13 game for a network of 11x11
    /// boards, or the reverse) is played with the hand-written evaluation.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tafl_engine::search::nnue::{FloatNetwork, Network, NetworkGrid, HIDDEN, INPUTS};
    /// use tafl_engine::search::{SearchConfig, Searcher};
    /// let zero = FloatNetwork {
    ///     grid: NetworkGrid::Narrow,
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

    /// The static evaluation a search of a game under `rules` plays with now: the built-in
    /// network of the rules' family ([`nnue::network_for`]), a network given by
    /// [`Searcher::set_network`], or the hand-written one (see [`Features::learned_eval`]).
    pub fn evaluation<B: Grid>(&self, rules: Rules<B>) -> PlayingEvaluation {
        self.evaluator(rules).playing
    }

    /// How the scores of that evaluation are turned into the shown scale that searches report
    /// ([`ScoreScale`] says what a shown score means).
    pub fn score_scale<B: Grid>(&self, rules: Rules<B>) -> ScoreScale {
        self.evaluator(rules).scale
    }

    fn evaluator<B: Grid>(&self, rules: Rules<B>) -> evaluator::Evaluator {
        evaluator::Evaluator::new(&self.weights, &self.features, self.network.as_ref(), rules)
    }

    fn run<B: Grid>(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        lines: usize,
        mut on_info: impl FnMut(&SearchInfo<B>),
    ) -> SearchResult<B> {
        self.stop.reset();
        let side = game.position().side_to_move();
        // A game that is over has no best move; its score says how it ended for the side to move.
        if let Some(outcome) = game.outcome() {
            let score = match outcome {
                Outcome::Win { winner, .. } if winner == side => Score::win_in(0),
                Outcome::Win { .. } => Score::loss_in(0),
                Outcome::Draw(_) => self.draw_score(game),
            };
            return SearchResult {
                best_move: None,
                score,
                pv: Vec::new(),
                lines: Vec::new(),
                depth: 0,
                nodes: 0,
                elapsed: std::time::Duration::ZERO,
                threads: 0,
            };
        }
        let setup = deepening::Setup {
            table: &self.table,
            stop: &self.stop,
            threads: self.config.threads,
            weights: self.weights,
            features: self.features,
            network: self.network.clone(),
            contempt: self.contempt,
            fixed_draw_cost: None,
        };
        // The search works in its evaluation's units; what it reports is on the shown scale.
        let scale = self.score_scale(game.position().rules());
        let mut result = deepening::run(&setup, game, limits, lines, |info| {
            on_info(&SearchInfo {
                score: scale.show(info.score, side),
                ..info.clone()
            })
        });
        result.score = scale.show(result.score, side);
        for line in &mut result.lines {
            line.score = scale.show(line.score, side);
        }
        result
    }

    /// Searches the current position of `game` within `limits`, calling `on_info` after each
    /// completed depth, and returns the best move found. The stop flag is cleared on entry.
    pub fn search<B: Grid>(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        on_info: impl FnMut(&SearchInfo<B>),
    ) -> SearchResult<B> {
        self.run(game, limits, 1, on_info)
    }

    /// [`Searcher::search`] without a callback: the result only.
    ///
    /// A game that is over has no best move: the result's `best_move` is `None`, its depth 0
    /// and its score says how the game ended for the side to move, [`Score::loss_in`]`(0)` for
    /// a side that has lost, [`Score::win_in`]`(0)` for one that has won, and
    /// [`Searcher::draw_score`] for a draw.
    ///
    /// ```
    /// use tafl_engine::search::{Limits, Score, SearchConfig, Searcher};
    /// use tafl_engine::{Game, Rules, Side, Variant, notation};
    /// let mut searcher = Searcher::new(SearchConfig { hash_mb: 1, ..SearchConfig::default() });
    /// let game = Game::new(&Variant::tablut());
    /// let result = searcher.search_without_info(&game, &Limits::depth(2));
    /// assert!(game.legal_moves().contains(&result.best_move.unwrap()));
    /// // The attackers have captured the king: the defenders, to move, have lost.
    /// let record = "/3ttt3/4t4/4T4/t3T3t/ttTT1TTtt/t3T3t/4T4/4t4/3ttt3/"; // no king
    /// let won = notation::parse_position_record(record, Rules::TABLUT, Side::Defenders)?;
    /// let result = searcher.search_without_info(&Game::from_position(won), &Limits::depth(2));
    /// assert_eq!((result.best_move, result.score), (None, Score::loss_in(0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search_without_info<B: Grid>(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
    ) -> SearchResult<B> {
        self.run(game, limits, 1, |_| {})
    }

    /// Like [`Searcher::search`], but finds the best `lines` first moves, each with its own line
    /// and score, best first (for analysis).
    pub fn search_multi_pv<B: Grid>(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        lines: usize,
        on_info: impl FnMut(&SearchInfo<B>),
    ) -> SearchResult<B> {
        self.run(game, limits, lines.max(1), on_info)
    }

    /// Scores every legal move of `game`, each searched on its own to the same depth: a value
    /// for every move (for policy targets, or to show them all), where [`Searcher::search`]
    /// proves only that the best move is best.
    ///
    /// The depth `d` counts the move itself: each move's position is searched to `d - 1` by one
    /// thread ([`SearchConfig::threads`] is not used), as on an empty table and with fresh move
    /// ordering, exactly as [`Searcher::search`] of a new single-threaded searcher with this
    /// one's table size, features, weights and network searches it with [`Limits::depth`]`(d -
    /// 1)`; the score is that search's, negated, a forced result one ply further away. Draws in
    /// those searches are priced for the side to move at the root, as one search of the root
    /// prices them (the contempt, [`Searcher::draw_score`]): with the contempt 0, each score is
    /// exactly that of the separate search. A move that ends the game is scored by the rules:
    /// [`Score::win_in`]`(1)`, [`Score::loss_in`]`(1)` or the draw score.
    ///
    /// `limits.depth` is `d` (at least 2). With a time or node limit (or no depth), the depths
    /// 2, 3, ... are searched in turn for every move, and the result is the deepest one that
    /// every move completed within the limits (empty if none: `depth` 0). A stop
    /// ([`Searcher::stop_handle`]) ends the search the same way. Each move's search ignores the
    /// entries of earlier searches, and the table is emptied first and again every 64 moves (16
    /// on boards above 11x11), so this forgets what earlier searches learnt (emptying a table
    /// costs about 1 ms for 4 MiB, 15 ms for 64 MiB).
    ///
    /// ```
    /// use tafl_engine::{Game, Variant};
    /// use tafl_engine::search::{Limits, SearchConfig, Searcher};
    /// let game = Game::new(&Variant::tablut());
    /// let mut searcher = Searcher::new(SearchConfig { threads: 1, hash_mb: 1 });
    /// let scores = searcher.root_scores(&game, &Limits::depth(2));
    /// assert_eq!(scores.depth, 2);
    /// let legal: Vec<_> = game.legal_moves().iter().copied().collect();
    /// let scored: Vec<_> = scores.moves.iter().map(|line| line.first).collect();
    /// assert_eq!(scored, legal);
    /// // The best of them is as good as every other.
    /// let best = scores.best().unwrap(); // Tablut's start has legal moves.
    /// assert!(scores.moves.iter().all(|line| line.score <= best.score));
    /// ```
    pub fn root_scores<B: Grid>(&mut self, game: &Game<B>, limits: &Limits) -> RootScores<B> {
        self.root_scores_with(game, limits, |_| {})
    }

    /// Like [`Searcher::root_scores`], calling `on_depth` with the scores of each depth that
    /// every move completed.
    pub fn root_scores_with<B: Grid>(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        on_depth: impl FnMut(&RootScores<B>),
    ) -> RootScores<B> {
        self.stop.reset();
        let setup = deepening::Setup {
            table: &self.table,
            stop: &self.stop,
            threads: 1,
            weights: self.weights,
            features: self.features,
            network: self.network.clone(),
            contempt: self.contempt,
            fixed_draw_cost: None,
        };
        // Each move's score is from the view of the root's side to move, shown like a search's.
        let side = game.position().side_to_move();
        let scale = self.score_scale(game.position().rules());
        let show = |scores: &RootScores<B>| {
            let mut shown = scores.clone();
            for line in &mut shown.moves {
                line.score = scale.show(line.score, side);
            }
            shown
        };
        let mut on_depth = on_depth;
        let scores = root_scores::run(&setup, game, limits, |scores| on_depth(&show(scores)));
        show(&scores)
    }
}
