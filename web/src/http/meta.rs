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
use crate::table::{Table, side_name};

/// `/api/variants`, `/api/levels`, `/api/status`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/variants", get(variants))
        .route("/api/levels", get(levels))
        .route("/api/status", get(status))
}

/// A short paragraph on each built-in game, by key.
fn summary(key: &str) -> &'static str {
    crate::summaries::SUMMARIES
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("", |(_, text)| text)
}

async fn variants() -> Json<Value> {
    let list: Vec<Value> = AnyVariant::names()
        .filter_map(|key| {
            let variant = AnyVariant::by_name(key)?;
            let table = Table::new(variant.clone(), None).ok()?;
            Some(json!({
                "key": key,
                "name": variant.name().replace('_', " "),
                "size": variant.size(),
                "rules": variant.to_string(),
                "first": side_name(table.side_to_move()),
                "summary": summary(key),
            }))
        })
        .collect();
    Json(json!({ "variants": list }))
}

async fn levels() -> Json<Value> {
    Json(json!({ "levels": LEVELS }))
}

async fn status(State(state): State<Arc<AppState>>) -> Result<Json<Value>, ApiError> {
    let (waiting, running) = state.pool.load();
    let stored = state.with_store(|store| store.count_games())?;
    Ok(Json(json!({
        "searches_running": running,
        "searches_waiting": waiting,
        "search_slots": state.config.searches,
        "games_in_memory": state.games_in_memory(),
        "games_stored": stored,
    })))
}
