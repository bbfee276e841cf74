//! Iterative-deepening negamax alpha-beta with a transposition table.

use std::time::{Duration, Instant};

use crate::game::Game;
use crate::moves::{Move, MoveList};
use crate::piece::Side;
use crate::position::Position;
use crate::square::Square;

use super::eval::{self, EvalWeights};
use super::{Limits, PvLine, Score, SearchInfo, SearchResult, StopHandle};

const MAX_PLY: usize = 128;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    best: Option<Move>,
    score: i32,
    depth: u8,
    bound: Bound,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// Search state kept between searches: the transposition table.
#[derive(Debug)]
pub(crate) struct State {
    table: Vec<Entry>,
}

struct Run<'a> {
    table: &'a mut Vec<Entry>,
    stop: &'a StopHandle,
    weights: EvalWeights,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// Hashes of the game's earlier positions and of the current search path, for R16.
    path: Vec<u64>,
    pv: [[Option<Move>; MAX_PLY]; MAX_PLY],
}

impl State {
    pub(crate) fn new(hash_mb: usize) -> State {
        let entries = (hash_mb.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1024);
        State {
            table: vec![Entry::default(); entries],
        }
    }

    pub(crate) fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        lines: usize,
        stop: &StopHandle,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let root = *game.position();
        let root_moves = game.legal_moves();
        let mut run = Run {
            table: &mut self.table,
            stop,
            weights: EvalWeights::DEFAULT,
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time_budget().map(|budget| start + budget),
            aborted: false,
            path: game.positions().iter().map(Position::hash).collect(),
            pv: [[None; MAX_PLY]; MAX_PLY],
        };
        let mut result = SearchResult {
            best_move: root_moves.first().copied(),
            score: Score::DRAW,
            pv: root_moves.first().copied().into_iter().collect(),
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if root_moves.is_empty() {
            result.elapsed = start.elapsed();
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            let mut excluded: Vec<Move> = Vec::new();
            let mut found: Vec<PvLine> = Vec::new();
            for _ in 0..lines.min(root_moves.len()) {
                let Some(line) = run.root(&root, depth, &excluded) else {
                    break;
                };
                excluded.push(line.moves[0]);
                found.push(line);
                if run.aborted {
                    break;
                }
            }
            if run.aborted && depth > 1 {
                break;
            }
            if let Some(best) = found.first() {
                result.best_move = Some(best.moves[0]);
                result.score = best.score;
                result.pv = best.moves.clone();
                result.lines = found.clone();
                result.depth = depth;
            }
            result.nodes = run.nodes;
            result.elapsed = start.elapsed();
            on_info(&SearchInfo {
                depth,
                score: result.score,
                pv: result.pv.clone(),
                nodes: run.nodes,
                elapsed: result.elapsed,
            });
            if run.aborted || result.score.is_forced() && lines == 1 {
                break;
            }
            // Do not start a depth that cannot finish in the time left.
            if let Some(deadline) = run.deadline {
                let spent = start.elapsed();
                if Instant::now() + spent > deadline {
                    break;
                }
            }
        }
        result.nodes = run.nodes;
        result.elapsed = start.elapsed();
        result
    }
}

impl Run<'_> {
    fn root(&mut self, root: &Position, depth: u32, excluded: &[Move]) -> Option<PvLine> {
        let mut moves = root.legal_moves();
        moves.retain(|m| !excluded.contains(m));
        self.order(
            root,
            &mut moves,
            self.probe(root.hash()).and_then(|e| e.best),
        );
        let mut alpha = -Score::INFINITE.0;
        let beta = Score::INFINITE.0;
        let mut best: Option<(Move, i32)> = None;
        for &m in &moves {
            let mut next = *root;
            next.play_unchecked(m);
            let score = -self.negamax(&next, depth - 1, -beta, -alpha, 1);
            if self.aborted && best.is_some() {
                break;
            }
            if best.is_none() || score > alpha {
                alpha = alpha.max(score);
                best = Some((m, score));
                self.pv[0][0] = Some(m);
                for ply in 1..MAX_PLY {
                    self.pv[0][ply] = self.pv[1][ply];
                    if self.pv[1][ply].is_none() {
                        break;
                    }
                }
            }
        }
        let (best_move, score) = best?;
        if excluded.is_empty() {
            self.store(root.hash(), Some(best_move), score, depth, Bound::Exact);
        }
        let moves: Vec<Move> = self.pv[0].iter().map_while(|m| *m).collect();
        Some(PvLine {
            moves,
            score: Score(score),
        })
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply][ply] = None;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        if position.winner().is_some() {
            // The previous mover won (R13, R14).
            return Score::loss_in(ply as u32).0;
        }
        // R16: a position that occurred before (in the game or this line) is a draw.
        if self.path.contains(&position.hash()) {
            return Score::DRAW.0;
        }
        if depth == 0 || ply >= MAX_PLY - 1 {
            return self.leaf(position, ply);
        }
        let tt_move = match self.probe(position.hash()) {
            Some(entry) => {
                if u32::from(entry.depth) >= depth {
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
                entry.best
            }
            None => None,
        };
        let mut moves = position.legal_moves();
        if moves.is_empty() {
            return Score::DRAW.0; // R17
        }
        self.order(position, &mut moves, tt_move);
        let original_alpha = alpha;
        let mut best_score = -Score::INFINITE.0;
        let mut best_move = None;
        self.path.push(position.hash());
        for &m in &moves {
            let mut next = *position;
            next.play_unchecked(m);
            let score = -self.negamax(&next, depth - 1, -beta, -alpha, ply + 1);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.pv[ply][ply] = Some(m);
                    for next_ply in ply + 1..MAX_PLY {
                        self.pv[ply][next_ply] = self.pv[ply + 1][next_ply];
                        if self.pv[ply + 1][next_ply].is_none() {
                            break;
                        }
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if !self.aborted {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store(
                position.hash(),
                best_move,
                to_table(best_score, ply),
                depth,
                bound,
            );
        }
        best_score
    }

    /// Depth 0: the static evaluation, unless the side to move wins at once with the king.
    fn leaf(&self, position: &Position, ply: usize) -> i32 {
        if position.side_to_move() == Side::Defenders && eval::king_lines(position).1 > 0 {
            return Score::win_in(ply as u32 + 1).0; // R14 next move
        }
        eval::evaluate(position, &self.weights).0
    }

    /// Winning moves first, then the table's move, then captures.
    fn order(&self, position: &Position, moves: &mut MoveList, tt_move: Option<Move>) {
        let mut keyed: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| {
                let mut next = *position;
                let captured = next.play_unchecked(m);
                let key = if next.winner().is_some() {
                    1_000_000
                } else if Some(m) == tt_move {
                    100_000
                } else {
                    captured.count() as i32 * 1000 + closeness_to_king(position, m.to())
                };
                (key, m)
            })
            .collect();
        keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        moves.clear();
        moves.extend(keyed.into_iter().map(|(_, m)| m));
    }

    fn check_limits(&mut self) {
        if self.stop.is_stopped()
            || self.nodes >= self.node_limit
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.aborted = true;
        }
    }

    fn index(&self, key: u64) -> usize {
        // The table is never empty (at least 1024 entries), so the remainder is an index into it.
        (key % self.table.len() as u64) as usize
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.table[self.index(key)];
        (entry.key == key).then_some(entry)
    }

    fn store(&mut self, key: u64, best: Option<Move>, score: i32, depth: u32, bound: Bound) {
        let index = self.index(key);
        let depth = u8::try_from(depth).unwrap_or(u8::MAX);
        let slot = &mut self.table[index];
        if slot.key != key || depth >= slot.depth || bound == Bound::Exact {
            *slot = Entry {
                key,
                best,
                score,
                depth,
                bound,
            };
        }
    }
}

fn closeness_to_king(position: &Position, to: Square) -> i32 {
    match position.king() {
        Some(king) => {
            let distance = (i32::from(king.x()) - i32::from(to.x())).abs()
                + (i32::from(king.y()) - i32::from(to.y())).abs();
            20 - distance
        }
        None => 0,
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
