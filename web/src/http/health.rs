//! What a load balancer probes: `GET /healthz` (the process answers: 200) and `GET /readyz`
//! (200 when the database answers a trivial query within a second and the server is not
//! stopping; 503 with the reason in JSON otherwise). Outside `/api/`: never rate limited. They
//! say nothing secret (no address of the database, no game).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use super::error::ApiError;
use crate::app::AppState;

/// How long readiness waits for the database.
const STORE_WAIT: Duration = Duration::from_secs(1);

/// `/healthz`, `/readyz`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// A probe's answer is about now: never kept by a cache.
fn fresh(response: impl IntoResponse) -> Response {
    let mut response = response.into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn healthz() -> Response {
    fresh(Json(json!({"status": "ok"})))
}

async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    let unready = |code, message: String| {
        tracing::warn!(code, "not ready: {message}");
        fresh(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            code,
            message,
        ))
    };
    if state.stopping() {
        return unready("stopping", "the server is stopping".into());
    }
    match tokio::time::timeout(STORE_WAIT, state.store.ping()).await {
        Ok(Ok(())) => fresh(Json(json!({
            "status": "ready",
            "store": state.store.backend(),
        }))),
        Ok(Err(error)) => unready(
            "storage_unavailable",
            format!("the database does not answer: {error}"),
        ),
        Err(_) => unready(
            "storage_unavailable",
            format!("the database did not answer within {STORE_WAIT:?}"),
        ),
    }
}
