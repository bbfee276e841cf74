//! The page's files, embedded in the binary: only these names are served, nothing from disk.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// `(name, content type, bytes)` of every asset.
const ASSETS: [(&str, &str, &[u8]); 8] = [
    (
        "learn.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/learn.js"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/app.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/board.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/i18n.js"),
    ),
    (
        "review.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/review.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/api.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/style.css"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../assets/favicon.svg"),
    ),
];

/// The fonts the page carries (`scripts/make-web-fonts.sh`, SIL Open Font License:
/// `assets/fonts/OFL.txt`), so that Thai and Arabic render where the system has no such font.
/// They change only with the binary: a browser may keep them a day.
const FONTS: [(&str, &[u8]); 3] = [
    (
        "noto-sans.woff2",
        include_bytes!("../assets/fonts/noto-sans.woff2"),
    ),
    (
        "noto-sans-thai.woff2",
        include_bytes!("../assets/fonts/noto-sans-thai.woff2"),
    ),
    (
        "noto-naskh-arabic.woff2",
        include_bytes!("../assets/fonts/noto-naskh-arabic.woff2"),
    ),
];

const INDEX: &str = include_str!("../assets/index.html");

/// The page (`/` and each game's URL `/g/ID`): the script reads the game from the URL.
pub async fn index() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        INDEX,
    )
        .into_response()
}

/// One embedded asset by its name; any other name is a 404.
pub async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(known, _, _)| *known == name) {
        Some((_, kind, bytes)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *bytes,
        )
            .into_response(),
        None => match FONTS.iter().find(|(known, _)| *known == name) {
            Some((_, bytes)) => (
                [
                    (header::CONTENT_TYPE, "font/woff2"),
                    (header::CACHE_CONTROL, "public, max-age=86400"),
                ],
                *bytes,
            )
                .into_response(),
            None => crate::http::error::ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                "no such asset",
            )
            .into_response(),
        },
    }
}

/// The names of the embedded assets, fonts included.
pub fn names() -> impl Iterator<Item = &'static str> {
    ASSETS
        .iter()
        .map(|(name, _, _)| *name)
        .chain(FONTS.iter().map(|(name, _)| *name))
}
