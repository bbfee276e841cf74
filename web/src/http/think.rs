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
use tafl_engine::search::{Clock, Limits};
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::error::{ApiError, bad};
use super::extract::Secret;
use super::limited;
use crate::app::AppState;
use crate::engine::{Control, Event};
use crate::round::Shared;

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
    limited(&state, &id)?;
    let game = state.game(&id)?;
    let live = game.lock().await;
    live.holder(secret.as_deref())?;
    let stopped = match &live.thinking {
        Some(control) => {
            control.stop_now();
            true
        }
        None => false,
    };
    Ok(Json(json!({ "stopped": stopped })))
}

/// What the engine is asked.
#[derive(Deserialize)]
struct ThinkQuery {
    /// `move` (the engine plays its move), `hint` (the best move for the person) or
    /// `analysis` (three best lines).
    #[serde(rename = "for")]
    purpose: Option<String>,
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
    limited(&state, &id)?;
    let purpose = query.purpose.unwrap_or_else(|| "move".into());
    if !matches!(purpose.as_str(), "move" | "hint" | "analysis") {
        return Err(bad(
            "bad_purpose",
            format!("'{purpose}' is not move, hint or analysis"),
        ));
    }
    let game = state.game(&id)?;
    let (table, limits, lines, viewer, control, ply) = {
        let mut live = game.lock().await;
        let held = live.holder(secret.as_deref())?;
        live.check_flag(&state)?;
        if live.finished() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "game_over",
                "the game is over",
            ));
        }
        let to_move = live.table.side_to_move();
        let (lines, viewer) = match purpose.as_str() {
            // Anyone seated may have the engine play its own turn.
            "move" if live.engine_to_move() => (1, !to_move),
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
        let time = Duration::from_millis(match purpose.as_str() {
            "move" => live.level().millis,
            // A hint or an analysis is worth a second at least.
            _ => live.level().millis.max(1_000),
        });
        let mut limits = Limits::move_time(time);
        if purpose == "move"
            && let Some(left) = live.remaining_ms(to_move)
        {
            // The engine's clock: it budgets its time from what is left.
            limits.clock = Some(Clock {
                remaining: Duration::from_millis(u64::try_from(left).unwrap_or(0)),
                increment: Duration::from_millis(live.row.increment_ms),
                ..Clock::default()
            });
        }
        (
            live.table.clone(),
            limits,
            lines,
            viewer,
            control,
            live.table.ply(),
        )
    };
    let (sender, receiver) = mpsc::unbounded_channel::<SseEvent>();
    let worker_state = state.clone();
    tokio::spawn(async move {
        let (events, mut event_receiver) = mpsc::unbounded_channel::<Event>();
        let forward_sender = sender.clone();
        let forward = tokio::spawn(async move {
            while let Some(event) = event_receiver.recv().await {
                let name = match &event {
                    Event::Queue { .. } => "queue",
                    Event::Started => "started",
                    Event::Info(_) => "info",
                };
                if forward_sender.send(sse_event(name, &event)).is_err() {
                    break;
                }
            }
        });
        // The page leaving closes the stream: its search is given up.
        let closer = {
            let sender = sender.clone();
            let control = control.clone();
            tokio::spawn(async move {
                sender.closed().await;
                control.cancel();
            })
        };
        let found = worker_state
            .pool
            .search(table, limits, lines, viewer, control.clone(), events)
            .await;
        closer.abort();
        let _ = forward.await;
        let Some(found) = found else {
            clear_thinking(&game, &control).await;
            return;
        };
        match purpose.as_str() {
            "move" => {
                let mut live = game.lock().await;
                let current = live
                    .thinking
                    .as_ref()
                    .is_some_and(|c| Arc::ptr_eq(c, &control));
                if !current || control.is_cancelled() || live.table.ply() != ply {
                    return;
                }
                live.thinking = None;
                if live.check_flag(&worker_state).unwrap_or(false) {
                    let body = live.state();
                    let _ =
                        sender.send(sse_event("state", &json!({"state": body, "found": found})));
                    return;
                }
                let Some(best) = found.best.clone() else {
                    return;
                };
                let mut next = live.table.clone();
                if let Err(error) = next.play(&best) {
                    let _ = sender.send(sse_event("failed", &json!({"message": error.0})));
                    return;
                }
                let used = if live.row.clock_ms.is_some() {
                    live.turn_ms()
                } else {
                    0
                };
                let stored = worker_state
                    .with_store(|store| store.push_move(&live.row.id, ply, &best, used));
                if let Err(error) = stored {
                    let _ = sender.send(sse_event("failed", &json!({"message": error.message})));
                    return;
                }
                live.played(next, used);
                let body = live.state();
                let _ = sender.send(sse_event("state", &json!({"state": body, "found": found})));
                worker_state.forget_if_finished(&live);
            }
            _ => {
                clear_thinking(&game, &control).await;
                let _ = sender.send(sse_event(&purpose, &found));
            }
        }
    });
    let stream = UnboundedReceiverStream::new(receiver).map(Ok::<_, Infallible>);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(5)))
        .into_response())
}

async fn clear_thinking(game: &Shared, control: &Arc<Control>) {
    let mut live = game.lock().await;
    if live
        .thinking
        .as_ref()
        .is_some_and(|c| Arc::ptr_eq(c, control))
    {
        live.thinking = None;
    }
}
