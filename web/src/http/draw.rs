//! Draw offers (R18): a seat offers, the other side accepts or declines; against the engine it
//! answers at once, accepting when its search scores the position as a draw or worse for
//! itself.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tafl_engine::Side;
use tafl_engine::search::Limits;
use tokio::sync::mpsc;

use super::error::{ApiError, bad};
use super::extract::{Body, Secret};
use crate::app::AppState;
use crate::engine::{Class, Control, Job};
use crate::round::Live;
use crate::seats::SeatKind;
use crate::table::side_name;

/// The engine's longest think over a draw offer, in milliseconds.
const ENGINE_DRAW_MS: u64 = 1_000;

/// `/api/games/{id}/draw`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new().route("/api/games/{id}/draw", post(draw))
}

/// A draw offer's request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawRequest {
    /// `offer`, `accept` or `decline`.
    action: String,
}

fn conflict(code: &'static str, message: &str) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, code, message)
}

/// Records the agreement: the game ends drawn.
async fn agree(state: &AppState, live: &mut Live, id: &str, by: Side) -> Result<(), ApiError> {
    let event = live.channel.next("draw", &json!({ "side": side_name(by) }));
    state.store.set_draw(id, None, true, &event).await?;
    live.table.agree_draw();
    live.draw_offer = None;
    live.stop_thinking();
    live.announce(&event, json!({}));
    state.forget_if_finished(live);
    Ok(())
}

/// Records `side`'s standing offer (or none) with an event of `kind`.
async fn set_offer(
    state: &AppState,
    live: &mut Live,
    id: &str,
    kind: &str,
    side: Side,
    offer: Option<Side>,
) -> Result<(), ApiError> {
    let event = live.channel.next(kind, &json!({ "side": side_name(side) }));
    state
        .store
        .set_draw(id, offer.map(side_name), false, &event)
        .await?;
    live.draw_offer = offer;
    live.announce(&event, json!({}));
    Ok(())
}

/// Offers, accepts or declines a draw for the seat the secret holds. The answer is the game's
/// state, with `accepted` when the engine answered an offer.
async fn draw(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Secret(secret): Secret,
    Body(request): Body<DrawRequest>,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(&id).await?;
    let (table, engine, ply, think_ms) = {
        let mut live = game.lock().await;
        let held = live.holder(secret.as_deref())?;
        live.check_flag(&state).await?;
        if live.finished() {
            return Err(conflict("game_over", "the game is over"));
        }
        if live.row.mode != "play" || held.len() != 1 {
            return Err(conflict("analysis", "an analysis board has no draw offers"));
        }
        let side = held[0];
        let other = !side;
        let offered_to_me = live.draw_offer == Some(other);
        match request.action.as_str() {
            "accept" | "decline" if !offered_to_me => {
                return Err(conflict("no_offer", "the other side has offered no draw"));
            }
            "accept" => {
                agree(&state, &mut live, &id, side).await?;
                return Ok(Json(live.state()));
            }
            "decline" => {
                set_offer(&state, &mut live, &id, "decline", side, None).await?;
                return Ok(Json(live.state()));
            }
            // An offer meeting the other side's is an agreement.
            "offer" if offered_to_me => {
                agree(&state, &mut live, &id, side).await?;
                return Ok(Json(live.state()));
            }
            "offer" if live.row.seats.get(other).kind != SeatKind::Engine => {
                set_offer(&state, &mut live, &id, "offer", side, Some(side)).await?;
                return Ok(Json(live.state()));
            }
            "offer" => {}
            other => {
                return Err(bad(
                    "bad_action",
                    format!("'{other}' is not offer, accept or decline"),
                ));
            }
        }
        let think_ms = live.level().millis.min(ENGINE_DRAW_MS);
        (live.table.clone(), other, live.table.ply(), think_ms)
    };
    // The engine weighs the offer: a search from its side, in the queue's first class (the
    // person waits for the answer).
    let (events, _) = mpsc::unbounded_channel();
    let job = Job {
        player: id.clone(),
        class: Class::Move,
    };
    let limits = Limits::move_time(Duration::from_millis(think_ms));
    let found = state
        .pool
        .search(
            job,
            table,
            limits,
            1,
            engine,
            Arc::new(Control::default()),
            events,
        )
        .await;
    // Scores are from the engine's side: a draw or worse for it, it accepts.
    let accepted = found
        .as_ref()
        .and_then(|f| f.lines.first())
        .is_some_and(|line| line.score <= 0);
    let mut live = game.lock().await;
    if live.finished() || live.table.ply() != ply {
        return Err(conflict(
            "stale",
            "the game changed while the engine weighed the offer",
        ));
    }
    if accepted {
        agree(&state, &mut live, &id, engine).await?;
    } else {
        set_offer(&state, &mut live, &id, "decline", engine, None).await?;
    }
    let mut body = live.state();
    body["accepted"] = json!(accepted);
    Ok(Json(body))
}
