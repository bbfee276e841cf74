//! A game's actions: a move, a takeback, resigning.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::error::{ApiError, bad};
use super::extract::{Body, Secret};
use crate::app::AppState;
use crate::searches::next_turn;
use crate::table::side_name;

/// `/api/games/{id}/moves`, `/takeback`, `/resign`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/resign", post(resign))
}

/// A move's request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    /// The move: `e2-e4` (or full notation).
    #[serde(rename = "move")]
    text: String,
    /// The number of moves played before it, when the page wants to be sure it moves in the
    /// position it shows.
    ply: Option<usize>,
}

async fn play(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Secret(secret): Secret,
    Body(request): Body<MoveRequest>,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(&id).await?;
    let mut live = game.lock().await;
    let held = live.holder(secret.as_deref())?;
    if let Some(ply) = request.ply
        && ply != live.table.ply()
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "stale",
            format!("the game is at move {}, not {ply}", live.table.ply()),
        ));
    }
    if let Some(side) = live.resigned() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_over",
            format!("the game is over: the {} resigned", side_name(side)),
        ));
    }
    if live.check_flag(&state).await? || live.flagged().is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_over",
            "the game is over: time ran out",
        ));
    }
    if live.table.outcome().is_none() {
        live.check_seat(&held, live.table.side_to_move())?;
    }
    let mut next = live.table.clone();
    next.play(&request.text).map_err(|e| ApiError {
        reason: live.table.refusal(&request.text),
        ..bad("illegal_move", e.0)
    })?;
    let ply = live.table.ply();
    let text = next.move_texts().pop().unwrap_or_default();
    let used = if live.row.clock_ms.is_some() {
        live.turn_ms()
    } else {
        0
    };
    let side = side_name(live.table.side_to_move());
    let event = live.channel.next(
        "move",
        &json!({"ply": ply, "move": text, "side": side, "by": "person", "used_ms": used}),
    );
    // The engine's turn next: its move is asked for with this one (the job table).
    let engine_next = next.outcome().is_none()
        && live.row.seats.get(next.side_to_move()).kind == crate::seats::SeatKind::Engine;
    if engine_next {
        (state.store)
            .push_move_engine_next(&id, ply, &text, used, &event)
            .await?;
    } else {
        state.store.push_move(&id, ply, &text, used, &event).await?;
    }
    live.stop_thinking();
    live.played(next, used);
    live.announce(&event, json!({}));
    // The engine answers by itself; every page sees its move through the events.
    next_turn(&state, &game, &mut live);
    let body = live.state();
    state.forget_if_finished(&live);
    Ok(Json(body))
}

async fn takeback(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Secret(secret): Secret,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(&id).await?;
    let mut live = game.lock().await;
    let held = live.holder(secret.as_deref())?;
    // Against the engine a person takes back their own moves; between two people it is
    // neither's alone.
    let mine = match held.as_slice() {
        [side] => {
            live.check_seat(&held, !*side).or_else(|error| {
                if error.code == "not_your_turn" {
                    Ok(())
                } else {
                    Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "not_your_seat",
                        "a takeback in a game between two people is not one player's alone",
                    ))
                }
            })?;
            Some(*side)
        }
        _ => None,
    };
    if live.resigned().is_some() || live.check_flag(&state).await? || live.flagged().is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_over",
            "the game is over: resigned or lost on time",
        ));
    }
    let mut next = live.table.clone();
    match mine {
        // Back to the person's turn, before their last move.
        Some(human) => {
            let mut undone = false;
            while next.ply() > 0 {
                next.undo();
                if next.side_to_move() == human {
                    undone = true;
                    break;
                }
            }
            if !undone {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "nothing_to_take_back",
                    "you have made no move to take back",
                ));
            }
        }
        None => {
            if !next.undo() {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "nothing_to_take_back",
                    "no move to take back",
                ));
            }
        }
    }
    let plies = next.ply();
    let event = live.channel.next("takeback", &json!({ "ply": plies }));
    state.store.truncate(&id, plies, &event).await?;
    live.stop_thinking();
    live.table = next;
    live.row.used_ms.truncate(plies);
    live.turn_started = Instant::now();
    live.row.turn_since_ms = Some(crate::store::now_ms());
    live.announce(&event, json!({}));
    next_turn(&state, &game, &mut live);
    Ok(Json(live.state()))
}

async fn resign(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Secret(secret): Secret,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(&id).await?;
    let mut live = game.lock().await;
    let held = live.holder(secret.as_deref())?;
    let &[human] = held.as_slice() else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "analysis",
            "nobody resigns an analysis",
        ));
    };
    if live.finished() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_over",
            "the game is over",
        ));
    }
    let event = live
        .channel
        .next("resign", &json!({ "side": side_name(human) }));
    state
        .store
        .set_resigned(&id, side_name(human), &event)
        .await?;
    live.stop_thinking();
    live.row.resigned = Some(side_name(human).to_owned());
    live.announce(&event, json!({}));
    let body = live.state();
    state.forget_if_finished(&live);
    Ok(Json(body))
}
