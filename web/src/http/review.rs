//! A finished game's review: the engine's evaluation of every position (`review.rs`).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::Value;

use super::error::ApiError;
use crate::app::AppState;
use crate::review;

/// `/api/games/{id}/review`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new().route("/api/games/{id}/review", get(read))
}

/// The review as far as it is computed; asking for it starts it if it is not running (after a
/// restart, say). 409 while the game goes on.
async fn read(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(&id).await?;
    let row = {
        let mut live = game.lock().await;
        live.check_flag(&state).await?;
        if !live.finished() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "not_finished",
                "a game is reviewed once it is over",
            ));
        }
        let mut row = live.row.clone();
        row.moves = live.table.move_texts();
        state.forget_if_finished(&live);
        row
    };
    state.reviews.request(&state, &id);
    let rows = state.store.load_review(&id).await?;
    Ok(Json(review::view(
        &row,
        &rows,
        state.reviews.is_running(&id),
    )))
}
