//! One game as we follow it: the server's record replayed into the engine's [`Game`] under
//! hnefatafl.org's rules, so that our moves are chosen from the moves these rules (history and
//! all) allow. The 7x7 and 11x11 games are followed on the engine's narrow grid, the 13x13 one
//! on its wide grid: one generic [`Table`], chosen once per game by the record's board
//! ([`AnyTable`]).

use std::time::Duration;

use tafl_engine::{Game, Grid, Move, Narrow, Side, Square, Variant, Wide};

use super::messages::{Clock, Record};

/// A game of ours on the engine's grid for its board: 7x7 and 11x11 on the narrow one, 13x13
/// on the wide one.
pub enum AnyTable {
    Narrow(Table<Narrow>),
    Wide(Table<Wide>),
}

impl AnyTable {
    /// The game of `record` as `user` plays it, on the grid of its board: `Err` says why it
    /// cannot be followed (not our game, a board the server does not play, a start that is not
    /// the variant's, a move the engine's rules refuse).
    pub fn from_record(record: &Record, user: &str) -> Result<AnyTable, String> {
        let us = our_side(record, user)?;
        match record.dim {
            11 => Table::from_record(record, us, &Variant::hnefatafl_org_copenhagen())
                .map(AnyTable::Narrow),
            7 => Table::from_record(record, us, &Variant::hnefatafl_org_brandubh())
                .map(AnyTable::Narrow),
            13 => Table::from_record(record, us, &Variant::<Wide>::hnefatafl_org_copenhagen_13())
                .map(AnyTable::Wide),
            other => Err(format!(
                "a board of {other}x{other}, which the server does not play"
            )),
        }
    }
}

/// The side `user` plays in `record`'s game, if it is ours.
fn our_side(record: &Record, user: &str) -> Result<Side, String> {
    if record.attackers == user {
        Ok(Side::Attackers)
    } else if record.defenders == user {
        Ok(Side::Defenders)
    } else {
        Err(format!(
            "{} plays {} against {}: not our game",
            user, record.attackers, record.defenders
        ))
    }
}

/// A game of ours: who we are, and the game as the server's record makes it.
pub struct Table<B: Grid> {
    pub us: Side,
    pub game: Game<B>,
    /// The clocks at the server's last count, if the game is timed.
    pub clock: Option<Clock>,
    /// Our move that the server refused in this position (as many as it refused).
    pub refused: Vec<Move<B>>,
    /// Captures the record and the engine saw differently (should stay empty).
    pub disagreements: Vec<String>,
}

/// A square of the server's notation (`f6`; capitals on 13x13) on the engine's board.
fn square<B: Grid>(text: &str, size: u8) -> Option<Square<B>> {
    let lower = text.to_ascii_lowercase();
    let square: Square<B> = lower.parse().ok()?;
    square.is_on_board(size).then_some(square)
}

/// The server's start (`start`: top row first, `A` `D` `K` and counts of empty squares) is the
/// start of `variant`.
fn same_start<B: Grid>(text: &str, variant: &Variant<B>) -> bool {
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
            let Some(at) = Square::<B>::at(x, y) else {
                return false;
            };
            if start.piece_at(at) != piece {
                return false;
            }
        }
    }
    true
}

impl<B: Grid> Table<B> {
    /// The game of `record`, ours as `us`, under `variant` (the server's game on that board):
    /// `Err` says why it cannot be followed (a start that is not the variant's, a move the
    /// engine's rules refuse).
    fn from_record(record: &Record, us: Side, variant: &Variant<B>) -> Result<Table<B>, String> {
        if !same_start(&record.start, variant) {
            return Err(format!(
                "the start {} is not the start of {}",
                record.start,
                variant.name()
            ));
        }
        let size = record.dim;
        let mut game = Game::new(variant);
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
            let mut theirs: Vec<Square<B>> = parts.filter_map(|s| square(s, size)).collect();
            theirs.sort();
            let ours: Vec<Square<B>> = captured.into_iter().collect();
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
    pub fn allowed(&self) -> Vec<Move<B>> {
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

    /// The game of a record on 7x7 or 11x11 (the narrow grid).
    fn narrow(record: &Record, user: &str) -> Result<Table<Narrow>, String> {
        match AnyTable::from_record(record, user)? {
            AnyTable::Narrow(table) => Ok(table),
            AnyTable::Wide(_) => Err(format!("a {0}x{0} game on the wide grid", record.dim)),
        }
    }

    /// The game of a 13x13 record (the wide grid).
    fn wide(record: &Record, user: &str) -> Result<Table<Wide>, String> {
        match AnyTable::from_record(record, user)? {
            AnyTable::Wide(table) => Ok(table),
            AnyTable::Narrow(_) => Err(format!("a {0}x{0} game on the narrow grid", record.dim)),
        }
    }

    /// A 13x13 record as the server writes it: capitals, top row first.
    fn record_13(moves: &str) -> Record {
        Record {
            dim: 13,
            start: "/3AAAAAAA3/6A6/13/A5D5A/A5D5A/A4DDD4A/AA1DDDKDDD1AA/A4DDD4A/A5D5A/A5D5A/13/6A6/3AAAAAAA3/"
                .to_string(),
            ..record(moves)
        }
    }

    #[test]
    fn a_record_is_replayed_and_checked() {
        let table = narrow(&record("d1-d3 e5-e3"), "ai-d").unwrap();
        assert_eq!(table.us, Side::Defenders);
        assert_eq!(table.game.moves().len(), 2);
        assert!(!table.our_turn());
        assert!(table.disagreements.is_empty());
        // A capture the engine does not make is noted, not fatal.
        let odd = narrow(&record("d1-d3 e5-e3xd3"), "ai-a").unwrap();
        assert_eq!(odd.disagreements.len(), 1);
        assert!(odd.our_turn());
    }

    #[test]
    fn records_that_cannot_be_followed_say_why() {
        let why = |r: &Record, user: &str| narrow(r, user).err().unwrap();
        assert!(why(&record(""), "ai-x").contains("not our game"));
        assert!(why(&record("d1-d9"), "ai-a").contains("refused by the engine"));
        assert!(why(&record("d1"), "ai-a").contains("is not a move"));
        let mut nine = record("");
        nine.dim = 9;
        assert!(why(&nine, "ai-a").contains("does not play"));
        // An 11x11 start on a 13x13 board is not the 13x13 game's start.
        let mut wide = record("");
        wide.dim = 13;
        assert!(why(&wide, "ai-a").contains("is not the start"));
        let mut other = record("");
        other.start = other.start.replacen("3AAAAA3", "3AAAA4", 1);
        assert!(why(&other, "ai-a").contains("is not the start"));
        // The defenders' move back to an earlier board (H12) is refused.
        assert!(why(&record("a4-b4 e5-e3 b4-a4 e3-e5"), "ai-a").contains("refused"));
    }

    #[test]
    fn the_budget_follows_the_clock() {
        let mut table = narrow(&record(""), "ai-a").unwrap();
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

    #[test]
    fn a_13x13_record_is_followed_on_the_wide_grid() {
        // The server writes 13x13 squares with capitals, and its captures after an `x`. The
        // attackers move first.
        let table = wide(&record_13("D1-D2 D7-D4"), "ai-d").unwrap();
        assert_eq!(table.us, Side::Defenders);
        assert_eq!(table.game.position().rules().size(), 13);
        assert_eq!(table.game.moves().len(), 2);
        assert!(table.disagreements.is_empty(), "{:?}", table.disagreements);
        assert!(!table.our_turn());
        let table = wide(&record_13("D1-D2 D7-D4"), "ai-a").unwrap();
        assert!(table.our_turn());
        // Every allowed move is on the 13x13 board, some beyond the 11x11 one's files.
        let allowed = table.allowed();
        assert_eq!(allowed.len(), table.game.legal_moves().len());
        assert!(
            allowed
                .iter()
                .any(|m| m.to().x() == 12 || m.from().x() == 12)
        );
        assert!(allowed.iter().all(|m| m.to().is_on_board(13)));
        // A move the engine refuses, a square off the board, a capture it does not see.
        assert!(
            wide(&record_13("D1-D13"), "ai-a")
                .err()
                .unwrap()
                .contains("refused by the engine")
        );
        assert!(
            wide(&record_13("D1-N1"), "ai-a")
                .err()
                .unwrap()
                .contains("is not a move")
        );
        let odd = wide(&record_13("D1-D2xE2"), "ai-a").unwrap();
        assert_eq!(odd.disagreements.len(), 1);
        // The 11x11 game's start is not the 13x13 one.
        let mut other = record_13("");
        other.start = other.start.replacen("3AAAAAAA3", "3AAAAAA4", 1);
        assert!(
            wide(&other, "ai-a")
                .err()
                .unwrap()
                .contains("is not the start")
        );
        // The defenders' move back to an earlier board (H12) is refused on 13x13 too (the
        // start is not one of those boards there: the board after the first two moves is).
        assert!(
            wide(&record_13("D1-D2 D7-D4 A5-B5 D4-D7 B5-A5 D7-D4"), "ai-a")
                .err()
                .unwrap()
                .contains("move 6 (D7-D4) is refused")
        );
    }
}
