//! `GET /api/games/{id}/events`: the game's numbered events as Server-Sent Events, one
//! broadcast per game that all its pages read (players and spectators alike: no secret).
//! A page that reconnects says the last number it saw (`Last-Event-ID`, or
//! `?last_event_id=N`) and is sent the events it missed from the database first.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::{broadcast, mpsc};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::error::ApiError;
use crate::app::AppState;
use crate::events::GameEvent;

/// `/api/games/{id}/events`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new().route("/api/games/{id}/events", get(events))
}

/// Where a reconnecting page left off.
#[derive(Deserialize)]
struct EventsQuery {
    /// The number of the last event it saw (as `Last-Event-ID`).
    last_event_id: Option<u64>,
}

async fn events(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<EventsQuery>,
) -> Result<Response, ApiError> {
    let after = headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.trim().parse::<u64>().ok())
        .or(query.last_event_id);
    let game = state.game(&id).await?;
    state.watch(&id, &game);
    // Subscribing under the game's lock cuts the events in two: up to `last` from the
    // database, after it from the broadcast; none missed, none twice.
    let (receiver, last, snapshot, thinking) = {
        let live = game.lock().await;
        let thinking = live.channel.thinking.lock().ok().and_then(|t| t.clone());
        (
            live.channel.subscribe(),
            live.channel.last_seq,
            live.state(),
            thinking,
        )
    };
    let missed = match after {
        Some(after) if after < last => state.store.events_after(&id, after).await?,
        _ => Vec::new(),
    };
    let (sender, out) = mpsc::unbounded_channel::<SseEvent>();
    for row in missed.iter().filter(|row| row.seq <= last) {
        let _ = sender.send(GameEvent::from_row(row).to_sse());
    }
    // Then the game as it is now, numbered with the last event: the page is up to date.
    let now = json!({"state": snapshot, "last_event_id": last});
    let _ = sender.send(
        SseEvent::default()
            .event("state")
            .id(last.to_string())
            .json_data(&now)
            .unwrap_or_default(),
    );
    if let Some(event) = thinking {
        let _ = sender.send(event.to_sse());
    }
    tokio::spawn(forward(state.clone(), receiver, sender, last, game));
    let stream = UnboundedReceiverStream::new(out).map(Ok::<_, Infallible>);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response())
}

/// Sends the game's live events after `last` until the page leaves. A page too slow to keep
/// up is cut off: it reconnects and reads what it missed from the database. When the server
/// stops, the page is sent `reconnect` and the stream ends: the page comes back at once,
/// through the balancer, to another server, from its last event.
async fn forward(
    state: Arc<AppState>,
    mut receiver: broadcast::Receiver<Arc<GameEvent>>,
    sender: mpsc::UnboundedSender<SseEvent>,
    last: u64,
    game: crate::round::Shared,
) {
    // Holding the game keeps it in memory (and its broadcast alive) while anyone watches.
    let _game = game;
    loop {
        let event = tokio::select! {
            _ = sender.closed() => return,
            () = state.stopped() => {
                let reconnect = json!({"reason": "server_stopping"});
                let _ = sender.send(
                    SseEvent::default()
                        .event("reconnect")
                        .json_data(&reconnect)
                        .unwrap_or_default(),
                );
                return;
            }
            event = receiver.recv() => event,
        };
        match event {
            Ok(event) if event.seq.is_some_and(|seq| seq <= last) => {}
            Ok(event) => {
                if sender.send(event.to_sse()).is_err() {
                    return;
                }
            }
            Err(_) => return,
        }
    }
}
