//! tafl-web: a web page where a person plays the tafl-engine, served with axum. The page is
//! embedded; games live in SQLite; every rule is the library's (docs/web.md).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
pub mod assets;
pub mod engine;
pub mod events;
mod http;
mod ids;
pub mod jobs;
pub mod learn;
mod limits;
pub mod queue;
mod review;
mod round;
mod searches;
pub mod seats;
pub mod store;
pub mod summaries;
pub mod table;

use std::net::SocketAddr;
use std::sync::Arc;

pub use app::{AppState, Config};
pub use http::router;

/// Serves `state` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(
        listener,
        router(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}
