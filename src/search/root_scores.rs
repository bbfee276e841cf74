//! Scores for every legal root move, each move searched on its own to the same depth: what a
//! learner needs to train a policy on (a value for every move, not only the best one).
//!
//! One root search proves only that the other moves are worse than the best (null windows give
//! bounds). Multi-PV over all moves scores each line's move exactly, but searches every move
//! not yet found again for each line (about N²/2 move searches for N moves), and each score
//! depends on what the lines before it left in the table. Here each move's position is searched
//! once per depth with the whole window, as a search of its own, so that every score is that of
//! a stated search (see [`Searcher::root_scores`]); it took about as long as multi-PV over all
//! moves on the starts of Tablut and Copenhagen (`cargo run --release --example root_scores`).
//!
//! [`Searcher::root_scores`]: super::Searcher::root_scores

use std::time::{Duration, Instant};

use crate::board::Narrow;
use crate::game::Game;
use crate::moves::Move;
use crate::play::Grid;
use crate::position::Outcome;

use super::deepening::{self, MAX_DEPTH, Setup};
use super::evaluator::Evaluator;
use super::limits::Limits;
use super::score::Score;
use super::table::distinct_generations;

/// One legal root move and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMove<B: Grid = Narrow> {
    /// The move.
    pub first: Move<B>,
    /// Its score from the point of view of the side that plays it (the side to move at the
    /// root): higher is better for that side, like [`SearchResult::score`](super::SearchResult).
    pub score: Score,
    /// The move, then the best line found after it (only the move when it ends the game).
    pub pv: Vec<Move<B>>,
}

/// The scores of every legal root move at one depth ([`Searcher::root_scores`]).
///
/// [`Searcher::root_scores`]: super::Searcher::root_scores
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootScores<B: Grid = Narrow> {
    /// Every legal move of the game ([`Game::legal_moves`], in its order) with its score, all
    /// searched to `depth`; empty when the game is over or no depth was completed for every
    /// move within the limits.
    pub moves: Vec<RootMove<B>>,
    /// The depth every move was searched to, in plies from the root (the move itself is the
    /// first ply); 0 when `moves` is empty.
    pub depth: u32,
    /// Nodes searched, over all depths and moves.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl<B: Grid> RootScores<B> {
    /// The move with the highest score (the first of equals in `moves`), if any.
    pub fn best(&self) -> Option<&RootMove<B>> {
        // `max_by_key` keeps the last of equals: search from the back to keep the first.
        self.moves.iter().rev().max_by_key(|line| line.score)
    }
}

/// A score of the position after a move, from its side to move's view, seen from the side that
/// made the move: negated, and a forced result one ply further away.
pub(crate) fn one_ply_up(score: Score) -> Score {
    match score.forced_in() {
        Some(plies) if plies >= 0 => Score::loss_in(plies.unsigned_abs() + 1),
        Some(plies) => Score::win_in(plies.unsigned_abs() + 1),
        None => -score,
    }
}

/// The score of a move that ends the game, for the side that made it: the rules' result, a
/// draw priced at `draw_cost` (what a draw costs that side, as the search prices it).
fn ended_score<B: Grid>(outcome: Outcome, game: &Game<B>, draw_cost: i32) -> Score {
    match outcome.winner() {
        Some(winner) if winner == game.position().side_to_move() => Score::win_in(1),
        Some(_) => Score::loss_in(1),
        None => Score(-draw_cost),
    }
}

/// Scores every legal move of `game` within `limits` (see [`Searcher::root_scores`]), calling
/// `on_depth` after each depth completed for every move.
///
/// [`Searcher::root_scores`]: super::Searcher::root_scores
pub(crate) fn run<B: Grid>(
    setup: &Setup<'_>,
    game: &Game<B>,
    limits: &Limits,
    mut on_depth: impl FnMut(&RootScores<B>),
) -> RootScores<B> {
    let start = Instant::now();
    let mut result = RootScores {
        moves: Vec::new(),
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    let legal = game.legal_moves();
    if legal.is_empty() {
        return result; // The game is over: no move to score.
    }
    let root = game.position();
    let evaluator = Evaluator::new(
        &setup.weights,
        &setup.features,
        setup.network.as_ref(),
        root.rules(),
    );
    // Draws are priced for the root's side to move in every move's search, as one search of
    // the root prices them: the side to move after the move sees a draw's cost negated.
    let draw_cost = deepening::draw_cost(setup.contempt, root, game.start_position(), &evaluator);
    let move_setup = Setup {
        table: setup.table,
        stop: setup.stop,
        threads: 1,
        weights: setup.weights,
        features: setup.features,
        network: setup.network.clone(),
        contempt: setup.contempt,
        fixed_draw_cost: Some(-draw_cost),
    };
    let children: Vec<(Move<B>, Game<B>)> = legal
        .iter()
        .filter_map(|&m| {
            let mut child = game.clone();
            // The game's own legal moves: playing one cannot fail.
            child.play(m).ok().map(|_| (m, child))
        })
        .collect();
    let deadline = limits
        .time_budget_in(root.rules())
        .map(|budget| start + budget);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(2, MAX_DEPTH);
    // Shallower depths are only a fallback for when a limit stops a deeper one.
    let bounded = deadline.is_some() || limits.nodes.is_some() || limits.depth.is_none();
    let first_depth = if bounded { 2 } else { max_depth };
    setup.table.clear();
    setup.table.set_ignore_older(true);
    let mut searches_since_emptied = 0;
    'depths: for depth in first_depth..=max_depth {
        let mut moves = Vec::with_capacity(children.len());
        for (first, child) in &children {
            if setup.stop.is_stopped() {
                break 'depths;
            }
            if let Some(outcome) = child.outcome() {
                moves.push(RootMove {
                    first: *first,
                    score: ended_score(outcome, game, draw_cost),
                    pv: vec![*first],
                });
                continue;
            }
            let nodes = limits.nodes.map(|n| n.saturating_sub(result.nodes));
            let time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if nodes == Some(0) || time == Some(Duration::ZERO) {
                break 'depths;
            }
            let move_limits = Limits {
                depth: Some(depth - 1),
                nodes,
                move_time: time,
                clock: None,
            };
            // Each move's search runs as on an empty table, as a new searcher's would: entries
            // of earlier searches are ignored, and the table is emptied before their
            // generations come round again.
            if searches_since_emptied == distinct_generations::<B>() {
                setup.table.clear();
                searches_since_emptied = 0;
            }
            searches_since_emptied += 1;
            let found = deepening::run(&move_setup, child, &move_limits, 1, |_| {});
            result.nodes += found.nodes;
            if found.threads == 0 || found.depth < depth - 1 || setup.stop.is_stopped() {
                break 'depths;
            }
            let mut pv = Vec::with_capacity(found.pv.len() + 1);
            pv.push(*first);
            pv.extend_from_slice(&found.pv);
            moves.push(RootMove {
                first: *first,
                score: one_ply_up(found.score),
                pv,
            });
        }
        result.moves = moves;
        result.depth = depth;
        result.elapsed = start.elapsed();
        on_depth(&result);
    }
    setup.table.set_ignore_older(false);
    result.elapsed = start.elapsed();
    result
}
