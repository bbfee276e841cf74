//! A game being played: the stored row, the board, its clocks, and the search thinking for it.
//! The handlers of `http/` decide who may act; this module knows what a game is now.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};
use tafl_engine::Side;

use crate::app::AppState;
use axum::http::StatusCode;

use crate::engine::{Control, LEVELS, Level};
use crate::events::Channel;
use crate::http::error::ApiError;
use crate::seats::SeatKind;
use crate::store::EventRow;
use crate::store::{GameRow, now_ms};
use crate::table::{Table, side_from, side_name};

/// A game in memory.
pub(crate) struct Live {
    pub(crate) row: GameRow,
    pub(crate) table: Table,
    pub(crate) thinking: Option<Arc<Control>>,
    /// When the side to move's clock started (its turn began, or the game was read back:
    /// the time the server was down is not counted).
    pub(crate) turn_started: Instant,
    /// The game's events: its broadcast to every open page, its last number.
    pub(crate) channel: Channel,
    /// The side whose draw offer stands, if one does.
    pub(crate) draw_offer: Option<Side>,
}

impl Live {
    /// The sides whose seats `secret` holds: at least one, else a 403 that says why (no
    /// secret, a secret of no seat here, a game stored before seats).
    pub(crate) fn holder(&self, secret: Option<&str>) -> Result<Vec<Side>, ApiError> {
        let forbidden = |code, message: &str| ApiError::new(StatusCode::FORBIDDEN, code, message);
        if self.row.seats.read_only() {
            return Err(forbidden(
                "read_only",
                "this game was stored before seats had secrets: it can be watched, not changed",
            ));
        }
        let Some(secret) = secret else {
            return Err(forbidden(
                "no_secret",
                "this needs the secret of a seat of this game (Authorization: Bearer <secret>); \
                 without it the game can only be watched",
            ));
        };
        let sides = self.row.seats.held_by(secret);
        if sides.is_empty() {
            return Err(forbidden(
                "wrong_secret",
                "this secret holds no seat of this game",
            ));
        }
        Ok(sides)
    }

    /// Refuses a request of a holder of `held` on `side`'s behalf: 409 when the engine plays
    /// it (wait for it), 403 when a person or nobody does (not your seat).
    pub(crate) fn check_seat(&self, held: &[Side], side: Side) -> Result<(), ApiError> {
        if held.contains(&side) {
            return Ok(());
        }
        if self.row.seats.get(side).kind == SeatKind::Engine {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "not_your_turn",
                "it is the engine's turn",
            ));
        }
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not_your_seat",
            format!(
                "it is the {}' turn, and their seat is not yours",
                side_name(side)
            ),
        ))
    }

    pub(crate) fn resigned(&self) -> Option<Side> {
        self.row.resigned.as_deref().and_then(side_from)
    }

    pub(crate) fn flagged(&self) -> Option<Side> {
        self.row.flagged.as_deref().and_then(side_from)
    }

    pub(crate) fn finished(&self) -> bool {
        self.resigned().is_some() || self.flagged().is_some() || self.table.outcome().is_some()
    }

    /// Milliseconds the side to move has spent on this turn so far.
    pub(crate) fn turn_ms(&self) -> u64 {
        u64::try_from(self.turn_started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// What is left on `side`'s clock, in milliseconds (negative once it has run out), when
    /// the game has clocks: its start, an increment for each of its moves, less the time its
    /// moves took and, on its turn, the time of this one.
    pub(crate) fn remaining_ms(&self, side: Side) -> Option<i64> {
        if let Some(turn) = self.row.move_ms {
            return self.correspondence_ms(side, turn);
        }
        let start = self.row.clock_ms?;
        let ply = self.row.used_ms.len();
        let to_move = self.table.side_to_move();
        // Sides alternate: the last move was the other side's, the one before it this side's.
        let mut left = start as i64;
        for (index, used) in self.row.used_ms.iter().enumerate() {
            let mover = if (ply - index).is_multiple_of(2) {
                to_move
            } else {
                !to_move
            };
            if mover == side {
                left += self.row.increment_ms as i64 - *used as i64;
            }
        }
        if side == to_move && self.clock_runs() {
            left -= self.turn_ms() as i64;
        }
        Some(left)
    }

    /// Whether the side to move's clock runs: not once the game is over, nor while a seat
    /// waits for the invited person (the turn starts when they sit down).
    fn clock_runs(&self) -> bool {
        !self.finished()
            && self.row.seats.attackers.kind != SeatKind::Open
            && self.row.seats.defenders.kind != SeatKind::Open
    }

    /// A correspondence game's time left to `side`: a whole turn, less on its turn the wall
    /// time since the turn began (a restart gives none back). None while a seat is open.
    fn correspondence_ms(&self, side: Side, turn: u64) -> Option<i64> {
        if self.row.seats.attackers.kind == SeatKind::Open
            || self.row.seats.defenders.kind == SeatKind::Open
        {
            return None;
        }
        let turn = i64::try_from(turn).unwrap_or(i64::MAX);
        if side != self.table.side_to_move() || self.finished() {
            return Some(turn);
        }
        let since = self.row.turn_since_ms?;
        let spent = i64::try_from(now_ms().saturating_sub(since)).unwrap_or(i64::MAX);
        Some(turn - spent)
    }

    /// A correspondence game's deadline for the side to move, in ms since 1970.
    fn deadline_ms(&self) -> Option<u64> {
        let turn = self.row.move_ms?;
        // None while a seat is open.
        self.remaining_ms(self.table.side_to_move())?;
        let since = self.row.turn_since_ms?;
        (!self.finished()).then_some(since.saturating_add(turn))
    }

    /// Ends the game on time when the side to move's clock has run out; true when it has.
    pub(crate) async fn check_flag(&mut self, state: &AppState) -> Result<bool, ApiError> {
        if self.finished() {
            return Ok(false);
        }
        let to_move = self.table.side_to_move();
        if self.remaining_ms(to_move).is_some_and(|left| left < 0) {
            let side = side_name(to_move);
            let id = self.row.id.clone();
            let event = self.channel.next("flag", &json!({"side": side}));
            state.store.set_flagged(&id, side, &event).await?;
            self.row.flagged = Some(side.to_owned());
            self.stop_thinking();
            self.announce(&event, json!({}));
            return Ok(true);
        }
        Ok(false)
    }

    /// Sends a stored event to every page of the game, with the state after it and `extra`,
    /// and logs it (a move, a takeback, an end... made here).
    pub(crate) fn announce(&mut self, event: &EventRow, extra: Value) {
        tracing::info!(seq = event.seq, kind = %event.kind, data = %event.data, "event");
        self.relay(event, extra);
    }

    /// [`Live::announce`] for an event another server stored (logged at `debug` only: that
    /// server logged it).
    pub(crate) fn relay(&mut self, event: &EventRow, mut extra: Value) {
        tracing::debug!(seq = event.seq, kind = %event.kind, "event from another server");
        self.channel.last_seq = event.seq;
        extra["state"] = self.state();
        self.channel.announce(event, extra);
    }

    /// Records a move played on the board: its thinking time, and the next turn's start.
    pub(crate) fn played(&mut self, next: Table, used_ms: u64) {
        self.table = next;
        self.row.used_ms.push(used_ms);
        self.turn_started = Instant::now();
        self.row.turn_since_ms = Some(now_ms());
    }

    /// Whether the engine is to move in a game against it.
    pub(crate) fn engine_to_move(&self) -> bool {
        !self.finished() && self.row.seats.get(self.table.side_to_move()).kind == SeatKind::Engine
    }

    /// Whether two people play this game (or one waits for the other): no seat is the
    /// engine's. The engine helps neither while it is on, and both once it is over.
    pub(crate) fn between_people(&self) -> bool {
        self.row.mode == "play"
            && self.row.seats.attackers.kind != SeatKind::Engine
            && self.row.seats.defenders.kind != SeatKind::Engine
    }

    /// The engine's level (a stored level out of range reads as the strongest).
    pub(crate) fn level(&self) -> Level {
        LEVELS[self.row.level.min(LEVELS.len() - 1)]
    }

    pub(crate) fn stop_thinking(&mut self) {
        if let Some(control) = self.thinking.take() {
            control.cancel();
        }
    }

    pub(crate) fn state(&self) -> Value {
        let mut view = self.table.view();
        if let Value::Object(map) = &mut view {
            map.insert("id".into(), json!(self.row.id));
            map.insert("mode".into(), json!(self.row.mode));
            map.insert("human".into(), json!(self.row.human));
            map.insert(
                "level".into(),
                json!({"index": self.row.level, "key": self.level().key, "millis": self.level().millis}),
            );
            // The number of the last event this state includes: a page keeps the newest.
            map.insert("event".into(), json!(self.channel.last_seq));
            map.insert("seats".into(), self.row.seats.view());
            map.insert("read_only".into(), json!(self.row.seats.read_only()));
            map.insert("resigned".into(), json!(self.row.resigned));
            map.insert(
                "draw_offer".into(),
                json!(self.draw_offer.filter(|_| !self.finished()).map(side_name)),
            );
            map.insert("flagged".into(), json!(self.row.flagged));
            // A correspondence game: its days per move, and the side to move's deadline.
            map.insert("days_per_move".into(), json!(self.row.move_days));
            map.insert("deadline".into(), json!(self.deadline_ms()));
            map.insert(
                "clock".into(),
                match self.row.clock_ms {
                    None => Value::Null,
                    Some(_) => json!({
                        "attackers": self.remaining_ms(Side::Attackers).map(|ms| ms.max(0)),
                        "defenders": self.remaining_ms(Side::Defenders).map(|ms| ms.max(0)),
                        "running": self.clock_runs().then(|| side_name(self.table.side_to_move())),
                        "increment": self.row.increment_ms,
                    }),
                },
            );
            if let Some(side) = self.flagged() {
                map.insert(
                    "result".into(),
                    json!({
                        "winner": side_name(!side),
                        "reason": "time",
                        "text": format!("{} win: the {} ran out of time", !side, side),
                    }),
                );
            }
            map.insert("engine_to_move".into(), json!(self.engine_to_move()));
            map.insert("finished".into(), json!(self.finished()));
            if self.resigned().is_some() || self.flagged().is_some() {
                // The legal moves of a resigned game, or one lost on time, are none.
                map.insert("legal".into(), json!({}));
            }
        }
        view
    }
}

pub(crate) type Shared = Arc<tokio::sync::Mutex<Live>>;

/// The span of work on game `id` outside any request (the engine's move, a clock, changes that
/// another server made): every log line in it carries `game=ID`, as a request's do.
pub(crate) fn game_span(id: &str, task: &'static str) -> tracing::Span {
    tracing::info_span!(parent: None, "game", game = %id, task)
}
