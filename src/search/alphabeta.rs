//! The search proper: iterative deepening over a principal-variation alpha-beta (negamax) with
//! aspiration windows, a shared transposition table, null-move pruning, late-move reductions,
//! futility, reverse futility and late-move pruning near the horizon, and the forcing moves of
//! tafl searched to the end:
//!
//! - a side that can win at once (king escape R14, king capture R13) is scored a win without
//!   searching;
//! - attackers facing a king with a free line to the edge (the "check" of tafl) may only block
//!   it: only the blocking moves are searched, one ply deeper (an extension); two free lines are
//!   a loss;
//! - the quiescence search at the horizon plays captures and king moves onto a free line, so
//!   that the evaluation never sees a position in the middle of a tactic.
//!
//! Repetitions (R16) and positions without moves (R17) are draws inside the tree, scored with
//! contempt: a draw counts as `contempt` worse than even for the side the search plays for (the
//! root's side to move), and as that much better for its opponent, so that the engine plays on
//! instead of repeating unless every other line is clearly worse (the contempt is set per search,
//! `deepening::draw_cost`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::board::Narrow;
use crate::moves::{Move, MoveList};
use crate::piece::Side;
use crate::play::Grid;
use crate::position::{Outcome, Position, WinReason};

use super::eval;
use super::evaluator::Evaluator;
use super::interface::{Features, StopHandle};
use super::nnue::{Accumulator, Network};
use super::ordering::{
    CAPTURE, FIRST_KILLER, Heuristics, KING_CHECK, KING_FORK, MAX_PLY, MovePicker, NEAR_KING,
    QUIET_LIMIT, SECOND_KILLER, TT_MOVE, filled,
};
use super::score::Score;
use super::table::{Bound, TranspositionTable};
use super::threats::{self, KingLines};

const INFINITE: i32 = Score::INFINITE.0;
/// Quiescence plies after which only forced answers (blocks) are still searched.
const QUIESCENCE_PLIES: usize = 6;
/// Futility margin a ply of depth left (hundredths of a soldier): about what a capture wins.
const FUTILITY_MARGIN: i32 = 120;
/// Deepest depth left at which reverse futility pruning returns the static score.
const REVERSE_FUTILITY_DEPTH: i32 = 3;
/// Deepest depth left at which late quiet moves are pruned.
const LATE_MOVE_PRUNING_DEPTH: i32 = 3;

/// How many quiet moves a node `depth` plies from the horizon searches before late-move pruning
/// skips the rest.
fn late_move_count(depth: i32) -> usize {
    (4 + 3 * depth * depth) as usize
}

/// How often (in nodes) a thread looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub(crate) table: &'a TranspositionTable,
    pub(crate) stop: &'a StopHandle,
    /// Set when the main thread has finished: the helpers stop.
    pub(crate) done: &'a AtomicBool,
    /// Nodes of all threads, added in batches.
    pub(crate) nodes: &'a AtomicU64,
    /// The static evaluation: the hand-written terms, or a network.
    pub(crate) evaluator: Evaluator,
    pub(crate) features: Features,
    pub(crate) deadline: Option<Instant>,
    pub(crate) node_limit: u64,
    /// What a draw costs the root's side to move, in hundredths of a soldier.
    pub(crate) contempt: i32,
    /// The side the search plays for: the root's side to move.
    pub(crate) root_side: Side,
}

/// One search thread.
pub(crate) struct Thread<'a, B: Grid = Narrow> {
    shared: &'a Shared<'a>,
    heuristics: Heuristics<B>,
    /// Whether this thread is the main thread (it alone obeys the node limit).
    main: bool,
    nodes: u64,
    unreported_nodes: u64,
    pub(crate) aborted: bool,
    /// Hashes of the game's positions and of the search path, each with its number of pieces:
    /// a capture can never be undone, so a repetition is looked for only back to the last one.
    path: Vec<(u64, u32)>,
    /// How many moves the game had at the root: the path's positions alternate sides from
    /// there (H10 counts them).
    game_moves: usize,
    /// The rules' move limit (H10), if any.
    move_limit: Option<usize>,
    /// Whether the defenders may not recreate an earlier placement (H12).
    forbid_recreating: bool,
    pv: Vec<[Option<Move<B>>; MAX_PLY + 1]>,
    pv_length: [usize; MAX_PLY + 1],
    reductions: [[u8; 64]; 64],
    /// The network's accumulators along the path, when a network evaluates.
    network: Option<NetworkStack<B>>,
}

/// The positions of the search path and their accumulators, computed lazily: a node records its
/// position, and an evaluation brings the accumulators up to its ply from the nearest ancestor
/// that has one, move by move ([`Accumulator::update`]). Nodes that are never evaluated (cut by
/// the table, won, repeated) cost only the copy of their position. The network reads the grid
/// `B` (the evaluator keeps no other).
struct NetworkStack<B: Grid> {
    network: Arc<Network>,
    plies: Vec<PlyEntry<B>>,
}

#[derive(Clone)]
struct PlyEntry<B: Grid> {
    position: Position<B>,
    accumulator: Accumulator,
    /// Whether `accumulator` is that of `position`.
    fresh: bool,
}

impl<B: Grid> NetworkStack<B> {
    /// The stack of a search from `root`, or `None` when its memory (about 80 KB on the narrow
    /// grid, 90 KB on the wide one) cannot be had (see `ordering::filled`).
    fn new(network: Arc<Network>, root: &Position<B>) -> Option<NetworkStack<B>> {
        debug_assert!(network.reads::<B>(), "a network of the other grid");
        let entry = PlyEntry {
            position: *root,
            accumulator: network.accumulator_of(root),
            fresh: false,
        };
        let plies = filled(MAX_PLY + 2, entry)?;
        Some(NetworkStack { network, plies })
    }

    /// Records the position of the node at `ply` (its parent is the one at `ply - 1`).
    #[inline]
    fn enter(&mut self, position: &Position<B>, ply: usize) {
        let entry = &mut self.plies[ply];
        entry.position = *position;
        entry.fresh = false;
    }

    /// The network's score of the node at `ply`, from its side to move's point of view.
    fn evaluate(&mut self, ply: usize) -> i32 {
        let mut base = ply;
        while base > 0 && !self.plies[base].fresh {
            base -= 1;
        }
        if !self.plies[base].fresh {
            let entry = &mut self.plies[base];
            entry.accumulator = self.network.accumulator_of(&entry.position);
            entry.fresh = true;
        }
        for next in base + 1..=ply {
            let (done, rest) = self.plies.split_at_mut(next);
            let (before, after) = (&done[next - 1], &mut rest[0]);
            after.accumulator.clone_from(&before.accumulator);
            after
                .accumulator
                .update_of(&self.network, &before.position, &after.position);
            after.fresh = true;
        }
        let entry = &self.plies[ply];
        debug_assert_eq!(
            entry.accumulator,
            self.network.accumulator_of(&entry.position),
            "the accumulator at ply {ply} is not its position's"
        );
        let side = entry.position.side_to_move();
        let defenders_view = self.network.output(&entry.accumulator, side);
        match side {
            Side::Defenders => defenders_view,
            Side::Attackers => -defenders_view,
        }
    }
}

/// What a root search returns.
pub(crate) struct RootResult<B: Grid = Narrow> {
    pub(crate) score: i32,
    pub(crate) pv: Vec<Move<B>>,
}

impl<'a, B: Grid> Thread<'a, B> {
    /// A thread's state, or `None` when its memory cannot be had (see `ordering::filled`).
    pub(crate) fn new(
        shared: &'a Shared<'a>,
        history: &[Position<B>],
        main: bool,
    ) -> Option<Thread<'a, B>> {
        let mut reductions = [[0u8; 64]; 64];
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (index, cell) in row.iter_mut().enumerate().skip(1) {
                let r = 0.25 + (depth as f64).ln() * (index as f64).ln() / 2.25;
                *cell = r.max(0.0) as u8;
            }
        }
        let mut heuristics = Heuristics::new()?;
        heuristics.new_search();
        let mut path = Vec::new();
        path.try_reserve_exact(history.len() + MAX_PLY + 1).ok()?;
        path.extend(history.iter().enumerate().map(|(index, p)| {
            // C14: a start position that the rules do not count can never be repeated: a piece
            // count no position has ends the look-back there.
            if index == 0 && !p.rules().repetition().counts_start() {
                (p.hash(), u32::MAX)
            } else {
                (p.hash(), p.occupied().count())
            }
        }));
        let rules = history.first().map(Position::rules);
        Some(Thread {
            game_moves: history.len().saturating_sub(1),
            move_limit: rules.and_then(|rules| rules.move_limit()),
            forbid_recreating: rules
                .is_some_and(|rules| rules.repetition().forbids_defenders_recreating()),
            shared,
            heuristics,
            main,
            nodes: 0,
            unreported_nodes: 0,
            aborted: false,
            path,
            pv: filled(MAX_PLY + 1, [None; MAX_PLY + 1])?,
            pv_length: [0; MAX_PLY + 1],
            reductions,
            // The evaluator keeps only a network of this grid (`Evaluator::new`); the test here
            // is once a search, and keeps the stack's rows in range whatever the caller.
            network: match (&shared.evaluator.network, history.last()) {
                (Some(network), Some(root)) if network.reads::<B>() => {
                    Some(NetworkStack::new(Arc::clone(network), root)?)
                }
                _ => None,
            },
        })
    }

    /// Nodes this thread has searched.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Adds the nodes not yet counted to the shared counter.
    pub(crate) fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unreported_nodes, Ordering::Relaxed);
        self.unreported_nodes = 0;
    }

    fn check_limits(&mut self) {
        self.flush_nodes();
        let shared = self.shared;
        if shared.stop.is_stopped()
            || shared.done.load(Ordering::Relaxed)
            || (self.main && self.nodes >= shared.node_limit)
            || shared
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.aborted = true;
        }
    }

    /// Searches the root with window (`alpha`, `beta`), skipping `excluded` moves (multi-PV).
    /// `root_moves` is reordered: the best move comes first.
    pub(crate) fn root(
        &mut self,
        root: &Position<B>,
        root_moves: &mut Vec<(Move<B>, u64)>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        excluded: &[Move<B>],
    ) -> Option<RootResult<B>> {
        let mut best: Option<(usize, i32)> = None;
        self.pv_length[0] = 0;
        if let Some(stack) = &mut self.network {
            stack.enter(root, 0);
        }
        let order: Vec<Move<B>> = root_moves.iter().map(|&(m, _)| m).collect();
        for (index, m) in order.into_iter().enumerate() {
            if excluded.contains(&m) {
                continue;
            }
            let nodes_before = self.nodes;
            let mut next = *root;
            next.play_unchecked(m);
            // The root is already the last position of the path (the game's history).
            let score = if best.is_none() {
                -self.search(&next, depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut score = -self.search(&next, depth - 1, -alpha - 1, -alpha, 1, true);
                if score > alpha && score < beta && !self.aborted {
                    score = -self.search(&next, depth - 1, -beta, -alpha, 1, true);
                }
                score
            };
            root_moves[index].1 = self.nodes - nodes_before;
            if self.aborted {
                break;
            }
            if best.is_none() || score > alpha {
                best = Some((index, score));
                self.update_pv(0, m);
                if score > alpha {
                    alpha = score;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        let (index, score) = best?;
        // Best first, then the others by the effort they took (a cheap guess at their rank).
        let best_entry = root_moves.remove(index);
        root_moves.sort_by_key(|&(_, nodes)| std::cmp::Reverse(nodes));
        root_moves.insert(0, best_entry);
        let pv: Vec<Move<B>> = self.pv[0][..self.pv_length[0]]
            .iter()
            .map_while(|m| *m)
            .collect();
        if excluded.is_empty() && !self.aborted {
            let bound = if score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.shared
                .table
                .store(root.hash(), pv.first().copied(), score, depth as u32, bound);
        }
        Some(RootResult { score, pv })
    }

    fn update_pv(&mut self, ply: usize, m: Move<B>) {
        let child_length = self.pv_length[ply + 1].max(ply + 1);
        self.pv[ply][ply] = Some(m);
        for next in ply + 1..child_length {
            self.pv[ply][next] = self.pv[ply + 1][next];
        }
        self.pv_length[ply] = child_length;
    }

    /// The score of a draw (R16, R17) at a node where `position` is to move: below zero for the
    /// side the search plays for, above zero for its opponent.
    #[inline]
    fn draw_score(&self, position: &Position<B>) -> i32 {
        if position.side_to_move() == self.shared.root_side {
            -self.shared.contempt
        } else {
            self.shared.contempt
        }
    }

    /// Whether `position` (at `ply` > 0) repeats a position of the game or of the path (R16).
    fn is_repetition(&self, position: &Position<B>) -> bool {
        let pieces = position.occupied().count();
        let hash = position.hash();
        // The parent is last in the path; positions with the same side to move are two apart.
        let mut index = self.path.len();
        while index >= 2 {
            index -= 2;
            let (earlier, earlier_pieces) = self.path[index];
            if earlier_pieces != pieces {
                return false;
            }
            if earlier == hash {
                return true;
            }
        }
        false
    }

    /// What every node does first: count itself, start an empty line, and end at once (with the
    /// score to return) when the search is aborted or the previous mover has won (R13, R14).
    #[inline(always)]
    fn enter_node(&mut self, position: &Position<B>, ply: usize) -> Option<i32> {
        self.pv_length[ply] = ply;
        if let Some(stack) = &mut self.network {
            stack.enter(position, ply);
        }
        self.count_node();
        if self.aborted {
            return Some(0);
        }
        if self
            .move_limit
            .is_some_and(|limit| self.game_moves + ply >= limit)
        {
            return Some(self.move_limit_score(position, ply));
        }
        match position.winner() {
            None => None,
            // Under custom rules a move can also win for the other side (an attacker stepping
            // away from an edge fort completes it).
            Some(winner) if winner == position.side_to_move() => Some(Score::win_in(ply as u32).0),
            Some(_) => Some(Score::loss_in(ply as u32).0),
        }
    }

    /// The score of a position reached by the move that brings the game to its move limit
    /// (H10): a win on the board stands, but for the ends the server tests after the limit (the
    /// defenders can no longer escape, H11; no legal move, H12); else a draw.
    #[cold]
    fn move_limit_score(&self, position: &Position<B>, ply: usize) -> i32 {
        match position.outcome() {
            Some(Outcome::Win { winner, reason })
                if !matches!(reason, WinReason::CannotEscape | WinReason::NoLegalMoves) =>
            {
                if winner == position.side_to_move() {
                    Score::win_in(ply as u32).0
                } else {
                    Score::loss_in(ply as u32).0
                }
            }
            _ => self.draw_score(position),
        }
    }

    /// H12, at a node where the defenders are to move (the node last in the path): a filter of
    /// the placements a move of theirs may not recreate, those of the game and of the path since
    /// the last capture (a move captures nothing before it is compared), or `None` when the
    /// rules allow every move. The path alternates sides: a position an even number of places
    /// before the node has the defenders to move, and its hash their key.
    fn recreatable_boards(&self, position: &Position<B>) -> Option<u128> {
        if !self.forbid_recreating || position.side_to_move() != Side::Defenders {
            return None;
        }
        let pieces = position.occupied().count();
        let mut filter = 0u128;
        for (distance, &(hash, count)) in self.path.iter().rev().enumerate() {
            if count != pieces {
                break;
            }
            filter |= 1 << (board_hash(hash, distance % 2 == 0) >> 57);
        }
        Some(filter)
    }

    /// H12: whether the defenders' move `m`, at a node last in the path, puts the pieces as
    /// they stood at a position of the game or of the path (`filter` from
    /// [`Thread::recreatable_boards`]; the hashes are compared where the filter lets a move
    /// through).
    fn recreates(&self, filter: u128, position: &Position<B>, m: Move<B>) -> bool {
        let piece = if position.king() == Some(m.from()) {
            crate::piece::Piece::King
        } else {
            crate::piece::Piece::Defender
        };
        let moved = board_hash(position.hash(), true)
            ^ crate::zobrist::piece_key(piece, m.from())
            ^ crate::zobrist::piece_key(piece, m.to());
        if filter >> (moved >> 57) & 1 == 0 {
            return false;
        }
        let pieces = position.occupied().count();
        self.path
            .iter()
            .rev()
            .enumerate()
            .take_while(|&(_, &(_, count))| count == pieces)
            .any(|(distance, &(hash, _))| board_hash(hash, distance % 2 == 0) == moved)
    }

    /// The score of a position that repeats one of the game or of the path (R16; under custom
    /// rules the third occurrence ends the game as they say, and an earlier repetition is
    /// scored as a draw where the third draws), or `None`. Under hnefatafl.org's rules a
    /// repetition decides nothing (H12 is kept by the moves: [`Thread::recreates`]).
    fn repetition_score(&self, position: &Position<B>, ply: usize) -> Option<i32> {
        let rule = position.rules().repetition();
        if rule.forbids_defenders_recreating() || !self.is_repetition(position) {
            return None;
        }
        if rule.draw_count() == Some(2) || rule.end_count().is_none() {
            return Some(self.draw_score(position));
        }
        // Count the earlier occurrences: the third decides the game as the rule says.
        let hash = position.hash();
        let earlier = self
            .path
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|(other, _)| *other == hash)
            .count();
        if earlier + 1 < 3 {
            // A second occurrence stands for a draw only where the third draws. Where the third
            // decides the game (`tfr:w`, `tfr:l`), a side forced round a cycle (blocking a king
            // that shuttles between two escapes) must see the cycle's end: search on.
            return match rule {
                crate::rules::RepetitionRule::ThirdOccurrenceDraws => {
                    Some(self.draw_score(position))
                }
                _ => None,
            };
        }
        Some(match rule {
            crate::rules::RepetitionRule::ThirdOccurrenceLosesForMover => {
                Score::win_in(ply as u32).0
            }
            crate::rules::RepetitionRule::ThirdOccurrenceWinsForMover => {
                Score::loss_in(ply as u32).0
            }
            // Whoever made it: a win for the attackers.
            crate::rules::RepetitionRule::ThirdOccurrenceAttackersWin => {
                if position.side_to_move() == Side::Attackers {
                    Score::win_in(ply as u32).0
                } else {
                    Score::loss_in(ply as u32).0
                }
            }
            _ => self.draw_score(position),
        })
    }

    /// The score of a position whose side to move has no legal move: a draw (R17), or under
    /// custom rules a loss.
    fn no_moves_score(&self, position: &Position<B>, ply: usize) -> i32 {
        if position.rules().is_classic() {
            self.draw_score(position) // R17
        } else {
            Score::loss_in(ply as u32).0
        }
    }

    /// The static score of the node at `ply` (whose position is `position`), from its side to
    /// move's point of view: the network's when one plays, else the hand-written terms'.
    #[inline]
    fn evaluate(&mut self, position: &Position<B>, ply: usize, lines: &KingLines<B>) -> i32 {
        let hand_written = |weights| eval::evaluate_with_lines(position, weights, lines).0;
        match &mut self.network {
            Some(stack) if stack.network.adds_hand_written() => {
                stack.evaluate(ply) + hand_written(&self.shared.evaluator.weights)
            }
            Some(stack) => stack.evaluate(ply),
            None => hand_written(&self.shared.evaluator.weights),
        }
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        if self.nodes % CHECK_EVERY == 0 {
            self.check_limits();
        }
    }

    /// Principal-variation negamax. Returns a score from the side to move's point of view.
    fn search(
        &mut self,
        position: &Position<B>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        if let Some(score) = self.enter_node(position, ply) {
            return score;
        }
        if let Some(score) = self.repetition_score(position, ply) {
            return score; // R16
        }
        let lines = threats::king_lines(position);
        if threats::side_to_move_wins_now(position, &lines) {
            return Score::win_in(ply as u32 + 1).0;
        }
        let in_check = position.side_to_move() == Side::Attackers && lines.open > 0;
        if in_check && lines.open >= 2 {
            // One move blocks one line; the king escapes along the other (R14).
            return Score::loss_in(ply as u32 + 2).0;
        }
        if ply >= MAX_PLY - 8 {
            return self.evaluate(position, ply, &lines);
        }
        // Mate-distance pruning: nothing here beats winning now or loses faster than losing now.
        alpha = alpha.max(Score::loss_in(ply as u32).0);
        beta = beta.min(Score::win_in(ply as u32 + 1).0);
        if alpha >= beta {
            return alpha;
        }
        if in_check {
            depth = depth.max(0) + 1; // The block is forced: search it a ply deeper.
        } else if depth <= 0
            && self.shared.features.threat_extension
            && position.side_to_move() == Side::Defenders
            && threats::attackers_win_now(&position.with_side_to_move(Side::Attackers))
        {
            // The attackers threaten to capture the king: the defenders' answers are searched
            // one ply, not guessed by the evaluation.
            depth = 1;
        }
        if depth <= 0 {
            return self.quiescence(position, alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        let hash = position.hash();
        let entry = self.shared.table.probe(hash);
        if let Some(entry) = entry {
            if !pv_node && i32::from(entry.depth) >= depth {
                let score = from_table(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }
        let tt_move = entry.and_then(|e| e.best);
        let features = self.shared.features;
        let static_eval = if in_check {
            -INFINITE
        } else {
            self.evaluate(position, ply, &lines)
        };

        // Reverse futility: near the horizon, a static score this far above beta is not brought
        // down to it by the few plies left. Not when the opponent threatens to win at once,
        // which the static score does not see: the attackers' king capture next move (R13; the
        // king's free lines, R14, are `in_check`).
        if features.reverse_futility
            && !pv_node
            && !in_check
            && depth <= REVERSE_FUTILITY_DEPTH
            && beta.abs() < Score::WIN_THRESHOLD
            && static_eval - FUTILITY_MARGIN * depth >= beta
            && !(position.side_to_move() == Side::Defenders
                && threats::attackers_win_now(&position.with_side_to_move(Side::Attackers)))
        {
            return static_eval;
        }

        // Null move: if passing still beats beta, a real move will too (tafl has few zugzwangs).
        if features.null_move
            && allow_null
            && !pv_node
            && !in_check
            && depth >= 3
            && static_eval >= beta
            && beta.abs() < Score::WIN_THRESHOLD
        {
            let reduction = 3 + depth / 6;
            let passed = position.with_side_to_move(position.side_to_move().opponent());
            self.path.push((hash, position.occupied().count()));
            let score = -self.search(
                &passed,
                depth - 1 - reduction,
                -beta,
                -beta + 1,
                ply + 1,
                false,
            );
            self.path.pop();
            if self.aborted {
                return 0;
            }
            if score >= beta {
                return if score >= Score::WIN_THRESHOLD {
                    beta
                } else {
                    score
                };
            }
        }

        let moves = if in_check {
            threats::moves_to(position, lines.open_squares)
        } else {
            // `enter_node` found no winner.
            position.unwon_legal_moves()
        };
        if in_check && moves.is_empty() {
            return Score::loss_in(ply as u32 + 2).0; // No block: the king escapes.
        } else if moves.is_empty() {
            return self.no_moves_score(position, ply); // R17
        }
        let mut picker = self.picker(position, moves, &lines, tt_move, ply);
        let side = position.side_to_move();
        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried: arrayvec::ArrayVec<Move<B>, 64> = arrayvec::ArrayVec::new();
        let mut index = 0usize;
        self.path.push((hash, position.occupied().count()));
        // H12: the defenders' moves that would recreate a placement are not moves.
        let recreatable = self.recreatable_boards(position);
        let mut any_legal = false;
        while let Some((m, key)) = picker.next() {
            if recreatable.is_some_and(|filter| self.recreates(filter, position, m)) {
                continue;
            }
            any_legal = true;
            let tactical = key >= QUIET_LIMIT;
            // Quiet moves near the horizon may be skipped, at non-PV nodes without an open king
            // line and once a move that does not lose was found (so forced scores stay proofs).
            // Futility: at the frontier, a quiet move cannot lift a hopeless static score.
            // Late-move pruning: the quiet moves the history ranks last are not searched once
            // enough have been (the king's threats, captures and the attackers' moves next to
            // the king or onto his lines are tactical, never skipped).
            let prunable = !pv_node && !in_check && !tactical && best_score > -Score::WIN_THRESHOLD;
            let futile = features.futility
                && depth <= 2
                && index > 0
                && static_eval + FUTILITY_MARGIN * depth <= alpha;
            let late = features.late_move_pruning
                && depth <= LATE_MOVE_PRUNING_DEPTH
                && quiets_tried.len() >= late_move_count(depth);
            if prunable && (futile || late) {
                index += 1;
                continue;
            }
            let mut next = *position;
            next.play_unchecked(m);
            let score = if index == 0 {
                -self.search(&next, depth - 1, -beta, -alpha, ply + 1, true)
            } else {
                // Late quiet moves are searched shallower first (late-move reductions).
                let mut reduction = 0;
                if features.late_move_reductions && depth >= 3 && !tactical && !in_check {
                    reduction = i32::from(self.reductions[depth.min(63) as usize][index.min(63)]);
                    if pv_node {
                        reduction -= 1;
                    }
                    if key >= SECOND_KILLER {
                        reduction -= 1;
                    }
                    reduction = reduction.clamp(0, depth - 2);
                }
                let mut score = -self.search(
                    &next,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if reduction > 0 && score > alpha && !self.aborted {
                    score = -self.search(&next, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = -self.search(&next, depth - 1, -beta, -alpha, ply + 1, true);
                }
                score
            };
            index += 1;
            if self.aborted {
                self.path.pop();
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        if !tactical || key == FIRST_KILLER || key == SECOND_KILLER {
                            self.heuristics.reward(side, m, ply, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if !tactical {
                let _ = quiets_tried.try_push(m);
            }
        }
        self.path.pop();
        if !any_legal {
            return self.no_moves_score(position, ply); // H12: every move recreates a placement.
        }
        if best_move.is_none() {
            // Every move was pruned as futile: the static score stands for them.
            return static_eval.min(beta).max(alpha);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.table.store(
            hash,
            best_move,
            to_table(best_score, ply),
            depth as u32,
            bound,
        );
        best_score
    }

    /// Orders `moves` for a full-width node.
    fn picker(
        &self,
        position: &Position<B>,
        moves: MoveList<B>,
        lines: &KingLines<B>,
        tt_move: Option<Move<B>>,
        ply: usize,
    ) -> MovePicker<B> {
        let side = position.side_to_move();
        let captures = threats::capture_squares(position);
        let killers = self.heuristics.killers(ply);
        let king = position.king();
        let (checks, forks) = match side {
            Side::Defenders => threats::escape_squares(position),
            Side::Attackers => Default::default(),
        };
        let near_king = match (side, king) {
            (Side::Attackers, Some(king)) => {
                crate::bitboard::Bitboard::from_square(king).neighbours() | lines.reach
            }
            _ => crate::bitboard::Bitboard::EMPTY,
        };
        let heuristics = &self.heuristics;
        MovePicker::new(moves, |m| {
            if Some(m) == tt_move {
                return TT_MOVE;
            }
            let to = m.to();
            if Some(m.from()) == king {
                if forks.contains(to) {
                    return KING_FORK;
                }
                if checks.contains(to) {
                    return KING_CHECK;
                }
            }
            if captures.contains(to) {
                return CAPTURE;
            }
            if Some(m) == killers[0] {
                return FIRST_KILLER;
            }
            if Some(m) == killers[1] {
                return SECOND_KILLER;
            }
            let history = heuristics.history(side, m);
            if near_king.contains(to) {
                return NEAR_KING + history / 64;
            }
            history
        })
    }

    /// The quiescence search: the static score, unless a capture or a king threat does better;
    /// attackers facing an open king line must block it.
    fn quiescence(
        &mut self,
        position: &Position<B>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        if let Some(score) = self.enter_node(position, ply) {
            return score;
        }
        let lines = threats::king_lines(position);
        if threats::side_to_move_wins_now(position, &lines) {
            return Score::win_in(ply as u32 + 1).0;
        }
        let side = position.side_to_move();
        let in_check = side == Side::Attackers && lines.open > 0;
        if in_check && lines.open >= 2 {
            return Score::loss_in(ply as u32 + 2).0;
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(position, ply, &lines);
        }
        let mut best_score;
        let moves;
        if in_check {
            // Forced: only blocks, and no standing pat.
            moves = threats::moves_to(position, lines.open_squares);
            if moves.is_empty() {
                return Score::loss_in(ply as u32 + 2).0;
            }
            best_score = -INFINITE;
        } else {
            if !threats::has_moves(position) {
                return self.no_moves_score(position, ply); // R17
            }
            best_score = self.evaluate(position, ply, &lines);
            if best_score >= beta || qply >= QUIESCENCE_PLIES || !self.shared.features.quiescence {
                return best_score;
            }
            alpha = alpha.max(best_score);
            let captures = threats::capture_squares(position);
            let mut found = threats::moves_to(position, captures);
            if side == Side::Defenders && qply < 2 {
                // King moves onto a square with a free line: the escape threats.
                let checks = threats::escape_squares(position).0 & (lines.reach - captures);
                let king = position.king();
                for &m in &threats::moves_to(position, checks) {
                    // Moves to distinct squares of one side: within a list's capacity.
                    if Some(m.from()) == king && found.try_push(m).is_err() {
                        break;
                    }
                }
            }
            moves = found;
        }
        // By reference: a list moved into its iterator is copied whole (over 800 bytes).
        for &m in &moves {
            let mut next = *position;
            next.play_unchecked(m);
            let score = -self.quiescence(&next, -beta, -alpha, ply + 1, qply + 1);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best_score
    }
}

/// Runs iterative deepening on a helper thread until the main thread is done (lazy SMP: the
/// helpers fill the shared table; odd helpers search one ply deeper to spread the work). Helpers
/// do not stop at the main thread's depth limit: going deeper keeps feeding it. `legal` are the
/// game's legal moves at the root (its history may forbid some of the board's, H12). `started`
/// is told whether the helper's memory could be had, before it searches; `None` when it could
/// not: the helper did not search.
pub(crate) fn helper<B: Grid>(
    shared: &Shared<'_>,
    history: &[Position<B>],
    legal: &[Move<B>],
    index: usize,
    max_depth: i32,
    started: impl FnOnce(bool),
) -> Option<u64> {
    let thread = Thread::new(shared, history, false);
    started(thread.is_some());
    let mut thread = thread?;
    let root = history[history.len() - 1];
    let mut root_moves: Vec<(Move<B>, u64)> = legal.iter().map(|&m| (m, 0)).collect();
    if root_moves.is_empty() {
        return Some(0);
    }
    let mut depth = 1 + (index % 2) as i32;
    while depth <= max_depth && !thread.aborted {
        let _ = thread.root(&root, &mut root_moves, depth, -INFINITE, INFINITE, &[]);
        depth += 1;
    }
    thread.flush_nodes();
    Some(thread.nodes())
}

/// The hash of a position's placement alone (H12 compares placements whoever is to move):
/// its hash without the side-to-move key, which a position with the defenders to move has.
fn board_hash(hash: u64, defenders_to_move: bool) -> u64 {
    if defenders_to_move {
        hash ^ crate::zobrist::DEFENDERS_TO_MOVE
    } else {
        hash
    }
}

/// Forced results are stored relative to the node, so that they stay right at other plies.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= Score::WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -Score::WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= Score::WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -Score::WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}
