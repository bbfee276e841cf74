//! The HTTP layer: one module per resource, each with its own router; the error answer; the
//! extractors. Handlers check the request and who sends it, then act on a `round::Live`.

mod draw;
pub mod error;
mod events;
pub mod extract;
mod games;
mod health;
mod learn;
mod meta;
mod moves;
mod review;
mod think;

use std::sync::Arc;

use std::net::SocketAddr;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tracing::Instrument;

use crate::app::AppState;
use crate::assets;
use crate::ids::secret_hash;
use error::ApiError;

/// Largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The router of the whole server.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/g/{id}", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .merge(health::router())
        .merge(meta::router())
        .merge(games::router())
        .merge(moves::router())
        .merge(think::router())
        .merge(events::router())
        .merge(learn::router())
        .merge(review::router())
        .merge(draw::router())
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such page") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "this path does not take this method",
            )
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(state.clone(), limit))
        .layer(middleware::map_response(secure))
        .layer(middleware::from_fn(trace))
        .with_state(state)
}

/// The game a path is about: `/api/games/ID/...` or the page `/g/ID`.
fn game_of(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("/api/games/")
        .or_else(|| path.strip_prefix("/g/"))?;
    let id = rest.split('/').next()?;
    let plausible =
        !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric());
    plausible.then_some(id)
}

/// Runs each request in a span with its method, path and game (`game=ID`, so that every log
/// line a request about a game writes names it), and logs its answer: at `debug` (every
/// request: `RUST_LOG=tafl_web=debug`), at `warn` when the server failed (5xx).
async fn trace(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let span = tracing::info_span!(
        "request",
        method = %request.method(),
        path = %path,
        game = tracing::field::Empty,
    );
    if let Some(game) = game_of(&path) {
        span.record("game", tracing::field::display(game));
    }
    let started = std::time::Instant::now();
    let response = next.run(request).instrument(span.clone()).await;
    let _entered = span.enter();
    let status = response.status().as_u16();
    let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    if response.status().is_server_error() {
        tracing::warn!(status, ms, "answered");
    } else {
        tracing::debug!(status, ms, "answered");
    }
    response
}

/// What the page may load: its own files only (scripts, styles, fonts, images, requests), in no
/// frame; no plugin, no inline script or style sheet.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
    style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The security headers every answer carries (the page's, the API's, the errors').
async fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        // A game's address is how it is watched: it is not handed to other sites.
        (header::REFERRER_POLICY, "no-referrer"),
        (
            header::HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// Rate limits every API request by who sends it (`crate::limits`): the seat's secret in its
/// `Authorization` header, else the sender's address (behind a `--proxy`, the client's); new
/// games by address. Over the limit: 429,
/// before the handler runs.
async fn limit(
    State(state): State<Arc<AppState>>,
    ConnectInfo(address): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let ip = extract::client_address(&state.config.proxies, address.ip(), request.headers());
    let allowed = if !path.starts_with("/api/") {
        true
    } else if request.method() == Method::POST && path == "/api/games" {
        state.limits.allow_creating(ip)
    } else {
        match extract::bearer(request.headers()) {
            Some(secret) => state.limits.allow_seat(&secret_hash(secret), ip),
            None => state.limits.allow_address(ip),
        }
    };
    if !allowed {
        return ApiError::too_fast().into_response();
    }
    next.run(request).await
}
