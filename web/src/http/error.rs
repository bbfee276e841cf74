//! The error answer every handler gives: a status and `{error, message}` in JSON (with
//! `reason` for an illegal move).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::store::StoreError;

/// An error answer: a status, a short code and words for a person (and, for an illegal move,
/// its reason as data: `Table::refusal`).
#[derive(Debug)]
pub struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) code: &'static str,
    pub(crate) message: String,
    pub(crate) reason: Option<Value>,
}

impl ApiError {
    /// An answer with this status, code and words.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            reason: None,
        }
    }

    /// 404: no game has this id.
    pub fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such game")
    }

    /// 503 when the database is out of reach (try again), else 500: the database failed.
    pub fn storage(error: StoreError) -> ApiError {
        if error.conflict() {
            tracing::info!("refused by the database (changed meanwhile): {error}");
        } else {
            tracing::error!("database error: {error}");
        }
        if error.conflict() {
            ApiError::new(
                StatusCode::CONFLICT,
                "stale",
                "the game changed meanwhile (another page or server): read it again",
            )
        } else if error.unavailable() {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "storage_unavailable",
                format!("the database is out of reach, try again soon: {error}"),
            )
        } else {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "storage",
                format!("the database failed: {error}"),
            )
        }
    }

    /// 429: the rate limit.
    pub fn too_fast() -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_fast",
            "too many requests: slow down",
        )
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        ApiError::storage(error)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({"error": self.code, "message": self.message});
        if let (Some(reason), Value::Object(map)) = (self.reason, &mut body) {
            map.insert("reason".into(), reason);
        }
        let body = Json(body);
        (self.status, body).into_response()
    }
}

/// A request the rules or the form refuse: 422.
pub fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
}
