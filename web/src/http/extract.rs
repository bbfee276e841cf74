//! Extractors: the JSON body, the seat's secret.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
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

/// The secret a request carries (`Authorization: Bearer <secret>`), if any. Whether it holds a
/// seat is the game's to say (`round::Live::holder`).
pub struct Secret(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for Secret {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        if parts.headers.get(header::AUTHORIZATION).is_none() {
            return Ok(Secret(None));
        }
        let secret = bearer(&parts.headers).ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "bad_secret",
                "the Authorization header is not `Bearer <secret>`",
            )
        })?;
        Ok(Secret(Some(secret.to_owned())))
    }
}

/// The secret of an `Authorization: Bearer <secret>` header (at most 256 characters).
pub fn bearer(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
        .filter(|secret| !secret.is_empty() && secret.len() <= 256)
}
