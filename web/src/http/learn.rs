//! The learn pages' API: a game's lessons, and a move tried on a lesson's board.

use std::sync::Arc;

use axum::extract::Path;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use super::extract::Body;
use crate::app::AppState;
use crate::assets;
use crate::learn;

/// `/learn/KEY` (the page), `/api/learn/KEY`, `/api/learn/KEY/LESSON`.
pub fn router() -> Router<Arc<AppState>> {
    Router::new()
        .route("/learn/{key}", get(assets::index))
        .route("/api/learn/{key}", get(lessons))
        .route("/api/learn/{key}/{lesson}", post(attempt))
}

fn no_course(key: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("no learn page for '{key}'"),
    )
}

fn broken(error: learn::BadLesson) -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "bad_lesson",
        error.to_string(),
    )
}

async fn lessons(Path(key): Path<String>) -> Result<Json<Value>, ApiError> {
    let course = learn::course(&key).ok_or_else(|| no_course(&key))?;
    learn::view(course).map(Json).map_err(broken)
}

/// A move tried on a lesson's board.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Attempt {
    /// The move: `e2-e4`.
    #[serde(rename = "move")]
    text: String,
}

async fn attempt(
    Path((key, id)): Path<(String, String)>,
    Body(request): Body<Attempt>,
) -> Result<Json<Value>, ApiError> {
    let course = learn::course(&key).ok_or_else(|| no_course(&key))?;
    let lesson = course
        .lessons
        .iter()
        .find(|lesson| lesson.id == id)
        .ok_or_else(|| no_course(&format!("{key}/{id}")))?;
    learn::attempt(course, lesson, &request.text)
        .map(Json)
        .map_err(broken)
}
