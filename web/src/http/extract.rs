//! Extractors: the JSON body.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use super::MAX_BODY;
use super::error::ApiError;

/// A JSON body: any malformed body is a 400, any body over [`MAX_BODY`] a 413.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                let status = rejection.status();
                if status == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        status,
                        "too_large",
                        format!("the body is over {MAX_BODY} bytes"),
                    )
                } else {
                    ApiError::new(StatusCode::BAD_REQUEST, "bad_body", rejection.body_text())
                }
            })?;
        let bytes: &[u8] = if bytes.is_empty() { b"{}" } else { &bytes };
        serde_json::from_slice(bytes).map(Body).map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_json",
                format!("malformed JSON: {e}"),
            )
        })
    }
}
