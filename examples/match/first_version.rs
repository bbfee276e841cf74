//! The project's first search (commit 99066f0), kept as an opponent so that matches can show
//! progress: iterative-deepening plain negamax alpha-beta with a transposition table, ordering
//! winning moves, the table's move, captures and moves near the king first; no pruning, no
//! quiescence, the first evaluation (`EvalWeights::BASIC`). Ported to the public API.

use std::time::{Duration, Instant};

use tafl_engine::search::eval::{self, EvalWeights};
use tafl_engine::{Game, Move, Position, Side};

const WIN: i32 = 1_000_000;
const WIN_THRESHOLD: i32 = WIN - 10_000;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    best: Option<Move>,
    score: i32,
    depth: u8,
    bound: u8, // 0 exact, 1 lower, 2 upper
}

/// The first version's searcher.
pub struct FirstVersion {
    table: Vec<Entry>,
    depth: Option<u32>,
    move_time: Option<Duration>,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
    path: Vec<u64>,
}

impl FirstVersion {
    pub fn new(depth: Option<u32>, move_time: Option<Duration>) -> FirstVersion {
        FirstVersion {
            table: vec![Entry::default(); 1 << 20],
            depth,
            move_time,
            nodes: 0,
            deadline: None,
            aborted: false,
            path: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
    }

    pub fn choose(&mut self, game: &Game) -> Option<Move> {
        let start = Instant::now();
        let root = *game.position();
        let root_moves = game.legal_moves();
        let mut best = root_moves.first().copied()?;
        self.deadline = self.move_time.map(|t| start + t);
        self.aborted = false;
        self.nodes = 0;
        self.path = game.positions().iter().map(Position::hash).collect();
        for depth in 1..=self.depth.unwrap_or(60) {
            let mut alpha = -WIN - 1;
            let mut found = None;
            let mut moves: Vec<Move> = root_moves.to_vec();
            self.order(&root, &mut moves);
            if let Some(index) = moves.iter().position(|&m| m == best) {
                let m = moves.remove(index);
                moves.insert(0, m);
            }
            for m in moves {
                let mut next = root;
                next.play_unchecked(m);
                let score = -self.negamax(&next, depth - 1, -WIN - 1, -alpha, 1);
                if self.aborted {
                    break;
                }
                if found.is_none() || score > alpha {
                    alpha = alpha.max(score);
                    found = Some(m);
                }
            }
            if self.aborted && depth > 1 {
                break;
            }
            if let Some(m) = found {
                best = m;
            }
            if alpha.abs() >= WIN_THRESHOLD {
                break;
            }
            if let Some(deadline) = self.deadline {
                if Instant::now() + start.elapsed() > deadline {
                    break;
                }
            }
        }
        Some(best)
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if position.winner().is_some() {
            return -WIN + ply;
        }
        if self.path.contains(&position.hash()) {
            return 0;
        }
        if depth == 0 {
            return self.leaf(position, ply);
        }
        let entry = self.probe(position.hash());
        if let Some(entry) = entry {
            if u32::from(entry.depth) >= depth {
                let score = entry.score;
                let usable = match entry.bound {
                    0 => true,
                    1 => score >= beta,
                    _ => score <= alpha,
                };
                if usable && score.abs() < WIN_THRESHOLD {
                    return score;
                }
            }
        }
        let mut moves: Vec<Move> = position.legal_moves().to_vec();
        if moves.is_empty() {
            return 0;
        }
        self.order(position, &mut moves);
        if let Some(tt) = entry.and_then(|e| e.best) {
            if let Some(index) = moves.iter().position(|&m| m == tt) {
                let m = moves.remove(index);
                moves.insert(0, m);
            }
        }
        let original_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_move = None;
        self.path.push(position.hash());
        for m in moves {
            let mut next = *position;
            next.play_unchecked(m);
            let score = -self.negamax(&next, depth - 1, -beta, -alpha, ply + 1);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.path.pop();
        if !self.aborted {
            let bound = if best_score >= beta {
                1
            } else if best_score > original_alpha {
                0
            } else {
                2
            };
            self.store(position.hash(), best_move, best_score, depth, bound);
        }
        best_score
    }

    fn leaf(&self, position: &Position, ply: i32) -> i32 {
        if position.side_to_move() == Side::Defenders {
            if let Some(king) = position.king() {
                let escapes = position.legal_moves().into_iter().any(|m| {
                    m.from() == king && {
                        let mut next = *position;
                        next.play_unchecked(m);
                        next.winner() == Some(Side::Defenders)
                    }
                });
                if escapes {
                    return WIN - ply - 1;
                }
            }
        }
        eval::evaluate(position, &EvalWeights::BASIC).0
    }

    fn order(&self, position: &Position, moves: &mut [Move]) {
        let king = position.king();
        moves.sort_by_cached_key(|&m| {
            let mut next = *position;
            let captured = next.play_unchecked(m);
            let key = if next.winner().is_some() {
                1_000_000
            } else {
                let closeness = king.map_or(0, |k| {
                    20 - (i32::from(k.x()) - i32::from(m.to().x())).abs()
                        - (i32::from(k.y()) - i32::from(m.to().y())).abs()
                });
                captured.count() as i32 * 1000 + closeness
            };
            std::cmp::Reverse(key)
        });
    }

    fn index(&self, key: u64) -> usize {
        (key % self.table.len() as u64) as usize
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.table[self.index(key)];
        (entry.key == key).then_some(entry)
    }

    fn store(&mut self, key: u64, best: Option<Move>, score: i32, depth: u32, bound: u8) {
        let index = self.index(key);
        let depth = u8::try_from(depth).unwrap_or(u8::MAX);
        let slot = &mut self.table[index];
        if slot.key != key || depth >= slot.depth || bound == 0 {
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
