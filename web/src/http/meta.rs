//! What the server offers: the built-in games, the engine's levels, the server's load.

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};
use tafl_engine::AnyVariant;

use super::error::ApiError;
use crate::app::AppState;
use crate::engine::LEVELS;
use crate::summaries;
use crate::table::{Table, side_name};

/// `/api/variants`, `/api/levels`, `/api/status`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/variants", get(variants))
        .route("/api/levels", get(levels))
        .route("/api/status", get(status))
}

async fn variants() -> Json<Value> {
    let list: Vec<Value> = AnyVariant::names()
        .filter_map(|key| {
            let variant = AnyVariant::by_name(key)?;
            let table = Table::new(variant.clone(), None).ok()?;
            let summary = summaries::summary(key);
            // What a player needs before choosing, from the library's rules themselves.
            let facts = summaries::facts(&variant);
            Some(json!({
                "key": key,
                "name": summary.map_or_else(|| variant.name().replace('_', " "), |s| s.name.to_owned()),
                "size": variant.size(),
                "rules": variant.to_string(),
                "first": side_name(table.side_to_move()),
                "escape": facts.escape,
                "castle": facts.castle,
                "learn": crate::learn::course(key).is_some(),
                "summary": summary.map_or("", |s| s.text),
            }))
        })
        .collect();
    Json(json!({ "variants": list }))
}

async fn levels() -> Json<Value> {
    Json(json!({ "levels": LEVELS }))
}

async fn status(State(state): State<Arc<AppState>>) -> Result<Json<Value>, ApiError> {
    let (mut waiting, running) = state.pool.load();
    let mut workers = 0;
    if state.store.shared() {
        // The engine's moves wait in the job table, for every server and worker.
        let jobs = state.store.job_places().await?;
        waiting += jobs.iter().filter(|job| job.place.is_some()).count();
        workers = state
            .store
            .live_workers(crate::jobs::WORKER_ALIVE_MS)
            .await?;
    }
    let stored = state.store.count_games().await?;
    Ok(Json(json!({
        "searches_running": running,
        "searches_waiting": waiting,
        "search_slots": state.config.searches,
        "workers": workers,
        "games_in_memory": state.games_in_memory(),
        "games_stored": stored,
    })))
}
