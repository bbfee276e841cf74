//! Iterative deepening: one root search per depth, with aspiration windows, multi-PV, time
//! management and the lazy-SMP helper threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::moves::Move;
use crate::play::Grid;
use crate::position::Position;

use super::alphabeta::{self, Shared, Thread};
use super::eval::EvalWeights;
use super::evaluator::Evaluator;
use super::interface::{Features, MAX_DRAW_COST, PvLine, SearchInfo, SearchResult, StopHandle};
use super::limits::Limits;
use super::nnue::Network;
use super::ordering;
use super::ordering::MAX_PLY;
use super::score::Score;
use super::table::TranspositionTable;

/// Deepest iteration: leaves room in the ply-indexed tables for extensions and quiescence.
pub(crate) const MAX_DEPTH: u32 = (MAX_PLY as u32) / 2;
/// Helpers iterate up to this depth (or until the main thread is done).
const HELPER_DEPTH: i32 = MAX_DEPTH as i32;
/// Memory held back while helper threads start (32 MiB), then given back: room for the rest of
/// the search when the helpers have taken all the system allows.
const HELPER_RESERVE: usize = 32 << 20;
/// Memory that must be free before a helper starts (4 MiB: its stack, 2 MiB, and its tables,
/// under 0.2 MiB, with room to spare).
const HELPER_ROOM: usize = 4 << 20;
/// Address space that must be free (reserved, not touched) before a helper starts: the C
/// library sets aside 64 MiB for a new thread's first allocations, and the standard library maps
/// the thread's signal stack as it starts, where a failure aborts the program. Under a limit on
/// address space (`ulimit -v`) a helper starts only with room for all of it.
const HELPER_ADDRESS_ROOM: usize = 80 << 20;

/// Whether `bytes` of address space can be had now: reserved and given back, never touched.
fn address_room(bytes: usize) -> bool {
    Vec::<u8>::new().try_reserve_exact(bytes).is_ok()
}
/// First half-width of the aspiration window, in hundredths of a soldier.
const ASPIRATION: i32 = 35;

/// Everything one search needs besides the game and its limits.
pub(crate) struct Setup<'a> {
    pub(crate) table: &'a TranspositionTable,
    pub(crate) stop: &'a StopHandle,
    pub(crate) threads: usize,
    pub(crate) weights: EvalWeights,
    pub(crate) features: Features,
    /// A network given to the searcher, which replaces the built-in ones.
    pub(crate) network: Option<Arc<Network>>,
    pub(crate) contempt: i32,
    /// What a draw costs the root's side to move, when the caller has fixed it (the root-move
    /// searches price draws for the side to move before the move): used as it is instead of
    /// [`draw_cost`] of `contempt`.
    pub(crate) fixed_draw_cost: Option<i32>,
}

/// What a draw costs the root's side to move when a search of a game that began at `start`
/// starts at `root`: at least `contempt`, and when `contempt` is positive, also `contempt` more
/// than the static evaluation says that side is behind, at the root or at the start, whichever
/// is more (capped at [`MAX_DRAW_COST`]).
///
/// The evaluation's zero is not where a game is even: each game's start is tilted to one side
/// (to the defenders by 2.45 at Tablut's start and 1.33 at Tawlbwrdd's since the defenders'
/// mobility term; to the attackers by 0.9 and 1.86 before it). The start of the game is taken
/// as even, so a draw costs a side at least what the start's evaluation says it is behind;
/// measured in docs/search.md.
pub(crate) fn draw_cost<B: Grid>(
    contempt: i32,
    root: &Position<B>,
    start: &Position<B>,
    evaluator: &Evaluator,
) -> i32 {
    if contempt <= 0 {
        return contempt;
    }
    let side = root.side_to_move();
    let behind_now = -evaluator.evaluate(root).0;
    let behind_at_start = -evaluator.evaluate(&start.with_side_to_move(side)).0;
    let behind = behind_now.max(behind_at_start);
    contempt.max(contempt.saturating_add(behind).min(MAX_DRAW_COST))
}

/// From this depth on, a change of best move or a falling score makes the search take more time.
const UNSETTLED_FROM_DEPTH: u32 = 5;
/// A score this much below the last iteration's (hundredths of a soldier) is a falling score.
const FALLING_SCORE: i32 = 25;

/// Searches `game` within `limits`, reporting each completed depth to `on_info`.
pub(crate) fn run<B: Grid>(
    setup: &Setup<'_>,
    game: &Game<B>,
    limits: &Limits,
    lines: usize,
    mut on_info: impl FnMut(&SearchInfo<B>),
) -> SearchResult<B> {
    let start = Instant::now();
    setup.table.new_search();
    let history: Vec<Position<B>> = game.positions().to_vec();
    let root = *game.position();
    let legal = game.legal_moves();
    let mut result = SearchResult {
        best_move: legal.first().copied(),
        score: Score::DRAW,
        pv: legal.first().copied().into_iter().collect(),
        lines: Vec::new(),
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        threads: 0,
    };
    if legal.is_empty() {
        result.elapsed = start.elapsed();
        return result;
    }
    let budget = limits.time_budget_in(root.rules());
    // Hard limit: the budget. Soft limit: a settled search starts no iteration past it; an
    // unsettled one (new best move, falling score, or a draw as the best it has found) may
    // start iterations until half the budget, since the next one takes longer than all before.
    let soft_limit = limits.soft_time_limit_in(root.rules());
    let unsettled_limit = budget.map(|budget| budget / 2);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let evaluator = Evaluator::new(
        &setup.weights,
        &setup.features,
        setup.network.as_ref(),
        root.rules(),
    );
    let contempt = setup
        .fixed_draw_cost
        .unwrap_or_else(|| draw_cost(setup.contempt, &root, game.start_position(), &evaluator));
    let done = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let shared = Shared {
        table: setup.table,
        stop: setup.stop,
        done: &done,
        nodes: &nodes,
        evaluator,
        features: setup.features,
        deadline: budget.map(|budget| start + budget),
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        contempt,
        root_side: root.side_to_move(),
    };
    let lines = lines.clamp(1, legal.len());
    std::thread::scope(|scope| {
        let Some(mut thread) = Thread::new(&shared, &history, true) else {
            // No memory for the main thread's tables: no search, the first legal move.
            return;
        };
        result.threads = 1;
        // A helper the system refuses to start (memory, a limit on threads) is not an error:
        // the search goes on with those that started, and says how many in `threads`. Helpers
        // start one at a time, each after room for it was found and the one before has set
        // itself up, and memory is held back meanwhile and given back after: so when the
        // system runs out, it is at a start that can fail (`spawn`, the helper's tables), not
        // at one of the program's allocations, which would abort it.
        let reserve = if setup.threads > 1 {
            ordering::filled(HELPER_RESERVE, 0u8)
        } else {
            None
        };
        let mut helpers = Vec::new();
        for index in 1..setup.threads {
            if reserve.is_none()
                || !address_room(HELPER_ADDRESS_ROOM)
                || ordering::filled(HELPER_ROOM, 0u8).is_none()
            {
                break;
            }
            let (told, ready) = std::sync::mpsc::sync_channel(1);
            let (shared, history, legal) = (&shared, &history, &legal);
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                alphabeta::helper(shared, history, legal, index, HELPER_DEPTH, |set_up| {
                    let _ = told.send(set_up);
                })
            });
            let Ok(helper) = spawned else { break };
            helpers.push(helper);
            if ready.recv() != Ok(true) {
                break;
            }
        }
        drop(reserve);
        let mut root_moves: Vec<(Move<B>, u64)> = legal.iter().map(|&m| (m, 0)).collect();
        let mut previous: Option<i32> = None;
        for depth in 1..=max_depth {
            let depth = depth as i32;
            let mut found: Vec<PvLine<B>> = Vec::new();
            for line in 0..lines {
                let excluded: Vec<Move<B>> = found.iter().map(|l| l.moves[0]).collect();
                let aspiration = setup.features.aspiration && line == 0 && depth >= 4;
                let outcome = match previous {
                    Some(centre) if aspiration && !Score(centre).is_forced() => aspirated(
                        &mut thread,
                        &root,
                        &mut root_moves,
                        depth,
                        centre,
                        &excluded,
                    ),
                    _ => thread.root(
                        &root,
                        &mut root_moves,
                        depth,
                        -Score::INFINITE.0,
                        Score::INFINITE.0,
                        &excluded,
                    ),
                };
                if thread.aborted {
                    break;
                }
                match outcome {
                    Some(found_line) if !found_line.pv.is_empty() => found.push(PvLine {
                        moves: found_line.pv,
                        score: Score(found_line.score),
                    }),
                    _ => break,
                }
            }
            if thread.aborted && (depth > 1 || found.is_empty()) {
                break;
            }
            // Best first; a stable sort keeps search order among equal scores.
            found.sort_by_key(|line| std::cmp::Reverse(line.score));
            let mut unsettled = false;
            if let Some(best) = found.first() {
                let draw = contempt != 0 && best.score.0 == -contempt;
                let moved = result.best_move != Some(best.moves[0]);
                let fell = previous.is_some_and(|last| best.score.0 < last - FALLING_SCORE);
                unsettled = depth as u32 >= UNSETTLED_FROM_DEPTH && (draw || moved || fell);
                result.best_move = Some(best.moves[0]);
                result.score = best.score;
                result.pv = best.moves.clone();
                result.lines = found.clone();
                result.depth = depth as u32;
                previous = Some(best.score.0);
            }
            thread.flush_nodes();
            result.elapsed = start.elapsed();
            on_info(&SearchInfo {
                depth: depth as u32,
                score: result.score,
                pv: result.pv.clone(),
                nodes: nodes.load(Ordering::Relaxed),
                elapsed: result.elapsed,
            });
            if thread.aborted {
                break;
            }
            // A forced result within the depth searched is proved: deeper search cannot change it.
            let proved = result
                .score
                .forced_in()
                .is_some_and(|plies| plies.unsigned_abs() <= depth as u32);
            if proved && lines == 1 && limits.depth.is_none() {
                break;
            }
            let limit = if unsettled {
                unsettled_limit
            } else {
                soft_limit
            };
            if limit.is_some_and(|limit| start.elapsed() >= limit) {
                break;
            }
        }
        done.store(true, Ordering::Relaxed);
        thread.flush_nodes();
        for helper in helpers {
            // A helper that panicked only loses its nodes; the main result stands.
            if let Ok(Some(_)) = helper.join() {
                result.threads += 1;
            }
        }
    });
    result.nodes = nodes.load(Ordering::Relaxed);
    result.elapsed = start.elapsed();
    result
}

/// A root search in a narrow window around the last score, widened until the score falls inside.
fn aspirated<B: Grid>(
    thread: &mut Thread<'_, B>,
    root: &Position<B>,
    root_moves: &mut Vec<(Move<B>, u64)>,
    depth: i32,
    centre: i32,
    excluded: &[Move<B>],
) -> Option<alphabeta::RootResult<B>> {
    let mut delta = ASPIRATION;
    let mut alpha = (centre - delta).max(-Score::INFINITE.0);
    let mut beta = (centre + delta).min(Score::INFINITE.0);
    loop {
        let outcome = thread.root(root, root_moves, depth, alpha, beta, excluded)?;
        if thread.aborted {
            return Some(outcome);
        }
        delta *= 3;
        if outcome.score <= alpha {
            alpha = if delta > 1000 {
                -Score::INFINITE.0
            } else {
                (outcome.score - delta).max(-Score::INFINITE.0)
            };
        } else if outcome.score >= beta {
            beta = if delta > 1000 {
                Score::INFINITE.0
            } else {
                (outcome.score + delta).min(Score::INFINITE.0)
            };
        } else {
            return Some(outcome);
        }
    }
}
