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

/// The address a request is limited by: the sender's (`peer`), or, when the sender is one of
/// `proxies` (a load balancer), the client address that its `X-Forwarded-For` header names
/// last: the one the balancer added. Earlier entries came from the client and may be forged.
pub fn client_address(
    proxies: &[std::net::IpAddr],
    peer: std::net::IpAddr,
    headers: &axum::http::HeaderMap,
) -> std::net::IpAddr {
    if !proxies.contains(&peer) {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
        .and_then(|value| value.to_str().ok())
        .and_then(|list| list.rsplit(',').next())
        .and_then(|last| last.trim().parse().ok())
        .unwrap_or(peer)
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

#[cfg(test)]
mod tests {
    use super::client_address;
    use axum::http::HeaderMap;
    use std::net::IpAddr;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", value.parse().expect("a header value"));
        }
        headers
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client_and_only_its_last_entry_counts() {
        let balancer = ip("10.0.0.2");
        let proxies = [balancer];
        // Not from the balancer: the header is anyone's to forge.
        let stranger = ip("192.0.2.7");
        let header = forwarded(&["203.0.113.9"]);
        assert_eq!(client_address(&proxies, stranger, &header), stranger);
        assert_eq!(client_address(&[], balancer, &header), balancer);
        // From the balancer: the last entry, the one it added.
        assert_eq!(
            client_address(&proxies, balancer, &header),
            ip("203.0.113.9")
        );
        let forged = forwarded(&["198.51.100.1, 203.0.113.9"]);
        assert_eq!(
            client_address(&proxies, balancer, &forged),
            ip("203.0.113.9")
        );
        let two_lines = forwarded(&["198.51.100.1", "2001:db8::5"]);
        assert_eq!(
            client_address(&proxies, balancer, &two_lines),
            ip("2001:db8::5")
        );
        // No header, or one that names no address: the balancer's own.
        for header in [HeaderMap::new(), forwarded(&["unknown"]), forwarded(&[""])] {
            assert_eq!(client_address(&proxies, balancer, &header), balancer);
        }
    }
}
