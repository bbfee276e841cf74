//! One game as we follow it: the server's record replayed into the engine's [`Game`] under
//! hnefatafl.org's rules, so that our moves are chosen from the moves these rules (history and
//! all) allow.

use std::time::Duration;

use tafl_engine::{Game, Move, Side, Square, Variant};

use super::messages::{Clock, Record};

/// The variant the server plays on a board of `dim` squares, if the engine plays it.
pub fn variant(dim: u8) -> Result<Variant, String> {
    match dim {
        11 => Ok(Variant::hnefatafl_org_copenhagen()),
        7 => Ok(Variant::hnefatafl_org_brandubh()),
        13 => Err("a 13x13 game: the engine's boards stop at 11x11".to_string()),
        other => Err(format!(
            "a board of {other}x{other}, which the server does not play"
        )),
    }
}

/// A game of ours: who we are, and the game as the server's record makes it.
pub struct Table {
    pub us: Side,
    pub game: Game,
    /// The clocks at the server's last count, if the game is timed.
    pub clock: Option<Clock>,
    /// Our move that the server refused in this position (as many as it refused).
    pub refused: Vec<Move>,
    /// Captures the record and the engine saw differently (should stay empty).
    pub disagreements: Vec<String>,
}

/// A square of the server's notation (`f6`; capitals on 13x13) on the engine's board.
fn square(text: &str, size: u8) -> Option<Square> {
    let lower = text.to_ascii_lowercase();
    let square: Square = lower.parse().ok()?;
    square.is_on_board(size).then_some(square)
}

/// The server's start (`start`: top row first, `A` `D` `K` and counts of empty squares) is the
/// start of `variant`.
fn same_start(text: &str, variant: &Variant) -> bool {
    let start = variant.start();
    let size = start.rules().size();
    let rows: Vec<&str> = text.trim_matches('/').split('/').collect();
    if rows.len() != usize::from(size) {
        return false;
    }
    for (index, row) in rows.iter().enumerate() {
        let y = size - 1 - index as u8;
        let mut x = 0u8;
        let mut digits = String::new();
        let mut squares = Vec::new();
        for c in row.chars().chain(std::iter::once('|')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                let Ok(run) = digits.parse::<u8>() else {
                    return false;
                };
                for _ in 0..run {
                    squares.push((x, None));
                    x = x.saturating_add(1);
                }
                digits.clear();
            }
            let piece = match c {
                'A' => tafl_engine::Piece::Attacker,
                'D' => tafl_engine::Piece::Defender,
                'K' => tafl_engine::Piece::King,
                '|' => break,
                _ => return false,
            };
            squares.push((x, Some(piece)));
            x = x.saturating_add(1);
        }
        if x != size {
            return false;
        }
        for (x, piece) in squares {
            let Some(at) = Square::new(x, y) else {
                return false;
            };
            if start.piece_at(at) != piece {
                return false;
            }
        }
    }
    true
}

impl Table {
    /// The game of `record` as `user` plays it: `Err` says why it cannot be followed (not our
    /// game, a board the engine does not play, a start that is not the variant's, a move the
    /// engine's rules refuse).
    pub fn from_record(record: &Record, user: &str) -> Result<Table, String> {
        let us = if record.attackers == user {
            Side::Attackers
        } else if record.defenders == user {
            Side::Defenders
        } else {
            return Err(format!(
                "{} plays {} against {}: not our game",
                user, record.attackers, record.defenders
            ));
        };
        let variant = variant(record.dim)?;
        if !same_start(&record.start, &variant) {
            return Err(format!(
                "the start {} is not the start of {}",
                record.start,
                variant.name()
            ));
        }
        let size = record.dim;
        let mut game = Game::new(&variant);
        let mut disagreements = Vec::new();
        for (ply, text) in record.moves.iter().enumerate() {
            let mut parts = text.split('x');
            let played = parts.next().unwrap_or_default();
            let m = played
                .split_once('-')
                .and_then(|(from, to)| Some(Move::new(square(from, size)?, square(to, size)?)))
                .ok_or_else(|| format!("move {} ({text}) is not a move", ply + 1))?;
            let captured = game.play(m).map_err(|error| {
                format!(
                    "move {} ({text}) is refused by the engine: {error}",
                    ply + 1
                )
            })?;
            let mut theirs: Vec<Square> = parts.filter_map(|s| square(s, size)).collect();
            theirs.sort();
            let ours: Vec<Square> = captured.into_iter().collect();
            if ours != theirs {
                disagreements.push(format!(
                    "move {} ({text}): the engine captured {ours:?}",
                    ply + 1
                ));
            }
        }
        Ok(Table {
            us,
            game,
            clock: record.clock,
            refused: Vec::new(),
            disagreements,
        })
    }

    /// Whether the server waits for our move: our side is to move and the game goes on.
    pub fn our_turn(&self) -> bool {
        self.game.position().side_to_move() == self.us && self.game.outcome().is_none()
    }

    /// The moves we may send: the engine's legal moves, less those the server refused here.
    pub fn allowed(&self) -> Vec<Move> {
        self.game
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !self.refused.contains(m))
            .collect()
    }

    /// The time to think about a move, at most `cap`: on a clock, a share of what is left
    /// (the moves left to the move limit, at most 30 of them, share it, and most of the
    /// increment comes back), never more than half of it, and a margin for the network and
    /// the server's count.
    pub fn budget(&self, cap: Duration) -> Duration {
        let Some(clock) = self.clock else {
            return cap;
        };
        let left = clock.left(self.us) - 1_500;
        if left <= 0 {
            return Duration::from_millis(50);
        }
        let limit = self.game.position().rules().move_limit().unwrap_or(200);
        let our_moves_left = (limit.saturating_sub(self.game.moves().len()) / 2).clamp(1, 30);
        let share = left / our_moves_left as i64 + clock.increment_s * 750;
        let ms = share.min(left / 2).max(50);
        cap.min(Duration::from_millis(ms as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &str) -> Record {
        Record {
            id: 1,
            attackers: "ai-a".to_string(),
            defenders: "ai-d".to_string(),
            dim: 11,
            start: "/3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/"
                .to_string(),
            moves: moves.split_whitespace().map(str::to_string).collect(),
            clock: None,
        }
    }

    #[test]
    fn a_record_is_replayed_and_checked() {
        let table = Table::from_record(&record("d1-d3 e5-e3"), "ai-d").unwrap();
        assert_eq!(table.us, Side::Defenders);
        assert_eq!(table.game.moves().len(), 2);
        assert!(!table.our_turn());
        assert!(table.disagreements.is_empty());
        // A capture the engine does not make is noted, not fatal.
        let odd = Table::from_record(&record("d1-d3 e5-e3xd3"), "ai-a").unwrap();
        assert_eq!(odd.disagreements.len(), 1);
        assert!(odd.our_turn());
    }

    #[test]
    fn records_that_cannot_be_followed_say_why() {
        let why = |r: &Record, user: &str| Table::from_record(r, user).err().unwrap();
        assert!(why(&record(""), "ai-x").contains("not our game"));
        assert!(why(&record("d1-d9"), "ai-a").contains("refused by the engine"));
        assert!(why(&record("d1"), "ai-a").contains("is not a move"));
        let mut wide = record("");
        wide.dim = 13;
        assert!(why(&wide, "ai-a").contains("13x13"));
        let mut other = record("");
        other.start = other.start.replacen("3AAAAA3", "3AAAA4", 1);
        assert!(why(&other, "ai-a").contains("is not the start"));
        // The defenders' move back to an earlier board (H12) is refused.
        assert!(why(&record("a4-b4 e5-e3 b4-a4 e3-e5"), "ai-a").contains("refused"));
    }

    #[test]
    fn the_budget_follows_the_clock() {
        let mut table = Table::from_record(&record(""), "ai-a").unwrap();
        let cap = Duration::from_secs(5);
        assert_eq!(table.budget(cap), cap);
        table.clock = Some(Clock {
            attackers_ms: 60_000,
            defenders_ms: 60_000,
            increment_s: 0,
        });
        assert_eq!(
            table.budget(cap),
            Duration::from_millis((60_000 - 1_500) / 30)
        );
        table.clock = Some(Clock {
            attackers_ms: 1_000,
            defenders_ms: 60_000,
            increment_s: 10,
        });
        assert_eq!(table.budget(cap), Duration::from_millis(50));
    }
}
