//! The HTTP layer: one module per resource, each with its own router; the error answer; the
//! extractors. Handlers check the request and who sends it, then act on a `round::Live`.

pub mod error;
mod events;
pub mod extract;
mod games;
mod learn;
mod meta;
mod moves;
mod review;
mod think;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::get;

use crate::app::AppState;
use crate::assets;
use error::ApiError;

/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The router of the whole server.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/g/{id}", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .merge(meta::router())
        .merge(games::router())
        .merge(moves::router())
        .merge(think::router())
        .merge(events::router())
        .merge(learn::router())
        .merge(review::router())
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// Takes a token of `id`'s bucket: a 429 when it is empty.
pub(crate) fn limited(state: &AppState, id: &str) -> Result<(), ApiError> {
    if state.limiter.allow(id) {
        Ok(())
    } else {
        Err(ApiError::too_fast())
    }
}
