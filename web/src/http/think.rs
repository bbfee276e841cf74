//! The engine's thinking: a move, a hint or an analysis streamed as Server-Sent Events, and
//! "move now".

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tafl_engine::search::Limits;
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::error::{ApiError, bad};
use super::extract::Secret;
use crate::app::AppState;
use crate::engine::{Class, Control, Event, Job};
use crate::events::GameEvent;
use crate::ids::secret_hash;
use crate::round::Shared;
use crate::searches::{clear_thinking, engine_move_if_due, event_name};

/// `/api/games/{id}/think`, `/api/games/{id}/stop`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/games/{id}/think", get(think))
        .route("/api/games/{id}/stop", post(stop))
}

async fn stop(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Secret(secret): Secret,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(&id).await?;
    let live = game.lock().await;
    live.holder(secret.as_deref())?;
    let mut stopped = match &live.thinking {
        Some(control) => {
            control.stop_now();
            true
        }
        None => false,
    };
    drop(live);
    if state.store.shared() {
        // The job may be searched by another process: it reads this when it renews its lease.
        stopped |= state.store.stop_job(&id).await?;
    }
    Ok(Json(json!({ "stopped": stopped })))
}

/// What the engine is asked.
#[derive(Deserialize)]
struct ThinkQuery {
    /// `move` (the engine plays its move), `hint` (the best move for the person) or
    /// `analysis` (three best lines).
    #[serde(rename = "for")]
    purpose: Option<String>,
    /// The position after this many moves (a finished game between people: any of its
    /// positions; otherwise only the current one). Default: the current position.
    ply: Option<usize>,
}

fn sse_event(name: &str, data: &impl serde::Serialize) -> SseEvent {
    SseEvent::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| SseEvent::default().event(name).data("{}"))
}

async fn think(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(query): Query<ThinkQuery>,
    Secret(secret): Secret,
) -> Result<Response, ApiError> {
    let purpose = query.purpose.unwrap_or_else(|| "move".into());
    if !matches!(purpose.as_str(), "move" | "hint" | "analysis") {
        return Err(bad(
            "bad_purpose",
            format!("'{purpose}' is not move, hint or analysis"),
        ));
    }
    let game = state.game(&id).await?;
    // The player, for the queue's fairness: whoever holds the seat's secret (kept as its
    // hash; the request is refused below without one).
    let player = secret.as_deref().map_or_else(|| id.clone(), secret_hash);
    let (table, limits, lines, viewer, control) = {
        let mut live = game.lock().await;
        let held = live.holder(secret.as_deref())?;
        live.check_flag(&state).await?;
        let people = live.between_people();
        let help = purpose != "move";
        if help && people && !live.finished() {
            // Between two people the engine helps nobody while the game is on.
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "game_between_people",
                "the engine's hints and analyses open to both players when this game is over",
            ));
        }
        if live.finished() && !(help && people) {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "game_over",
                "the game is over",
            ));
        }
        if let Some(ply) = query.ply
            && ply != live.table.ply()
            && !(live.finished() && ply < live.table.ply())
        {
            return Err(bad(
                "bad_ply",
                format!(
                    "ply {ply}: this game can be asked about its position after {} moves",
                    live.table.ply()
                ),
            ));
        }
        if live.finished() {
            // A finished game between people: both players ask about any of its positions.
            let mut table = live.table.clone();
            while table.ply() > query.ply.unwrap_or(table.ply()) {
                table.undo();
            }
            if table.outcome().is_some() {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "game_over",
                    "the game ended in this position: ask about an earlier one",
                ));
            }
            let viewer = table.side_to_move();
            let lines = if purpose == "hint" { 1 } else { 3 };
            let control = Arc::new(Control::default());
            let time = Duration::from_millis(live.level().millis.max(1_000));
            (table, Limits::move_time(time), lines, viewer, control)
        } else {
            let to_move = live.table.side_to_move();
            let (lines, viewer) = match purpose.as_str() {
                // The engine plays its turn by itself; this follows its search to its move.
                "move" if live.engine_to_move() => {
                    engine_move_if_due(&state, &game, &mut live);
                    let receiver = live.channel.subscribe();
                    let now = live.channel.thinking.lock().ok().and_then(|t| t.clone());
                    drop(live);
                    return Ok(follow(&state, receiver, now, game.clone()));
                }
                "move" => {
                    return Err(ApiError::new(
                        StatusCode::CONFLICT,
                        "not_engine_turn",
                        "the engine is not to move",
                    ));
                }
                // A hint is for the side to move, from its seat's holder.
                "hint" => {
                    live.check_seat(&held, to_move).map_err(|error| {
                        if error.code == "not_your_turn" {
                            ApiError::new(
                                StatusCode::CONFLICT,
                                "not_your_turn",
                                "wait for the engine's move",
                            )
                        } else {
                            error
                        }
                    })?;
                    (1, to_move)
                }
                _ => (3, to_move),
            };
            live.stop_thinking();
            let control = Arc::new(Control::default());
            live.thinking = Some(control.clone());
            // A hint or an analysis is worth a second at least.
            let time = Duration::from_millis(live.level().millis.max(1_000));
            (
                live.table.clone(),
                Limits::move_time(time),
                lines,
                viewer,
                control,
            )
        }
    };
    let (sender, receiver) = mpsc::unbounded_channel::<SseEvent>();
    let worker_state = state.clone();
    tokio::spawn(async move {
        let (events, mut event_receiver) = mpsc::unbounded_channel::<Event>();
        let forward_sender = sender.clone();
        let forward = tokio::spawn(async move {
            while let Some(event) = event_receiver.recv().await {
                if forward_sender
                    .send(sse_event(event_name(&event), &event))
                    .is_err()
                {
                    break;
                }
            }
        });
        // The page leaving closes the stream: its hint or analysis is given up.
        let closer = {
            let sender = sender.clone();
            let control = control.clone();
            tokio::spawn(async move {
                sender.closed().await;
                control.cancel();
            })
        };
        let job = Job {
            player,
            class: if purpose == "move" {
                Class::Move
            } else {
                Class::Hint
            },
        };
        let found = worker_state
            .pool
            .search(job, table, limits, lines, viewer, control.clone(), events)
            .await;
        closer.abort();
        let _ = forward.await;
        clear_thinking(&game, &control).await;
        if let Some(found) = found {
            let _ = sender.send(sse_event(&purpose, &found));
        }
    });
    let stream = UnboundedReceiverStream::new(receiver).map(Ok::<_, Infallible>);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(5)))
        .into_response())
}

/// The think stream of the engine's move: its thinking from the game's events, then `state`
/// (`{state, found}`) once the move is played (or the game changed otherwise), or `failed`.
fn follow(
    state: &Arc<AppState>,
    mut receiver: tokio::sync::broadcast::Receiver<Arc<GameEvent>>,
    now: Option<Arc<GameEvent>>,
    game: Shared,
) -> Response {
    let (sender, out) = mpsc::unbounded_channel::<SseEvent>();
    let state = state.clone();
    tokio::spawn(async move {
        // Holding the game keeps it in memory while it is followed.
        let _game = game;
        if let Some(event) = now {
            let _ = sender.send(sse_event(&event.kind, &event.data));
        }
        loop {
            let event = tokio::select! {
                _ = sender.closed() => return,
                // The server stops: the stream ends, the page reads the game again elsewhere.
                () = state.stopped() => return,
                event = receiver.recv() => event,
            };
            let event = match event {
                Ok(event) => event,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(_) => return,
            };
            match event.seq {
                None if event.kind == "failed" => {
                    let _ = sender.send(sse_event("failed", &event.data));
                    return;
                }
                None => {
                    let _ = sender.send(sse_event(&event.kind, &event.data));
                }
                Some(_) => {
                    let data = json!({"state": event.data["state"], "found": event.data["found"]});
                    let _ = sender.send(sse_event("state", &data));
                    return;
                }
            }
        }
    });
    let stream = UnboundedReceiverStream::new(out).map(Ok::<_, Infallible>);
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(5)))
        .into_response()
}
