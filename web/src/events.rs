//! A game's events, numbered: every change (a move by a person or the engine, a takeback, a
//! resignation, a loss on time, a seat taken) is stored with the next number in the same
//! transaction as the change, then sent to every open page of the game through one broadcast
//! per game. The engine's thinking (queue place, started, each depth) is sent too, unnumbered
//! and not stored. A page that reconnects says the last number it saw and is sent what it
//! missed from the database, then the live events.

use std::sync::{Arc, Mutex};

use axum::response::sse::Event as SseEvent;
use serde_json::Value;
use tokio::sync::broadcast;

use crate::store::EventRow;

/// Events a slow page may fall behind by before its stream is cut (it reconnects and reads
/// the missed ones from the database).
const BACKLOG: usize = 256;

/// One event as the pages get it.
#[derive(Clone, Debug)]
pub struct GameEvent {
    /// Its number in the game; `None` for a transient one (the engine's thinking).
    pub seq: Option<u64>,
    /// `move`, `takeback`, `resign`, `flag`, `join`; `queue`, `started`, `info`, `failed`.
    pub kind: String,
    /// Its facts (a live numbered event carries the game's `state` after it).
    pub data: Value,
}

impl GameEvent {
    /// A stored event, as read back.
    pub fn from_row(row: &EventRow) -> GameEvent {
        GameEvent {
            seq: Some(row.seq),
            kind: row.kind.clone(),
            data: serde_json::from_str(&row.data).unwrap_or(Value::Null),
        }
    }

    /// The Server-Sent Event: `event:` its kind, `id:` its number, `data:` its JSON.
    pub fn to_sse(&self) -> SseEvent {
        let event = SseEvent::default().event(&self.kind);
        let event = match self.seq {
            Some(seq) => event.id(seq.to_string()),
            None => event,
        };
        event
            .json_data(&self.data)
            .unwrap_or_else(|_| SseEvent::default().event(&self.kind).data("{}"))
    }
}

/// A game's broadcast, its last event's number and what the engine is doing now.
pub struct Channel {
    sender: broadcast::Sender<Arc<GameEvent>>,
    /// The number of the last event stored.
    pub last_seq: u64,
    /// The engine's latest transient event (`queue` or `started`) while it thinks, for pages
    /// that open meanwhile.
    pub thinking: Arc<Mutex<Option<Arc<GameEvent>>>>,
}

impl Channel {
    /// A channel whose last stored event is `last_seq`.
    pub fn new(last_seq: u64) -> Channel {
        Channel {
            sender: broadcast::channel(BACKLOG).0,
            last_seq,
            thinking: Arc::new(Mutex::new(None)),
        }
    }

    /// The next event, numbered, to store with a change.
    pub fn next(&self, kind: &str, data: &Value) -> EventRow {
        EventRow {
            seq: self.last_seq + 1,
            kind: kind.to_owned(),
            data: data.to_string(),
        }
    }

    /// Sends a stored event (its data with `extra` fields added) to every page.
    pub fn announce(&mut self, row: &EventRow, extra: Value) {
        self.last_seq = row.seq;
        let mut event = GameEvent::from_row(row);
        if let (Value::Object(data), Value::Object(extra)) = (&mut event.data, extra) {
            data.extend(extra);
        }
        let _ = self.sender.send(Arc::new(event));
    }

    /// A sender of transient events, for a search running without the game's lock.
    pub fn transient(&self) -> Transient {
        Transient {
            sender: self.sender.clone(),
            thinking: self.thinking.clone(),
        }
    }

    /// A new page's receiver.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<GameEvent>> {
        self.sender.subscribe()
    }
}

/// Sends a game's transient events.
#[derive(Clone)]
pub struct Transient {
    sender: broadcast::Sender<Arc<GameEvent>>,
    thinking: Arc<Mutex<Option<Arc<GameEvent>>>>,
}

impl Transient {
    /// Sends `kind` with `data`, unnumbered; `queue` and `started` are kept for pages that
    /// open later, until [`Transient::done`].
    pub fn send(&self, kind: &str, data: Value) {
        let event = Arc::new(GameEvent {
            seq: None,
            kind: kind.to_owned(),
            data,
        });
        if matches!(kind, "queue" | "started")
            && let Ok(mut thinking) = self.thinking.lock()
        {
            *thinking = Some(event.clone());
        }
        let _ = self.sender.send(event);
    }

    /// The engine stopped thinking.
    pub fn done(&self) {
        if let Ok(mut thinking) = self.thinking.lock() {
            *thinking = None;
        }
    }
}
