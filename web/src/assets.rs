//! The page's files, embedded in the binary: only these names are served, nothing from disk.

use std::io::Write;
use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use flate2::Compression;
use flate2::write::GzEncoder;

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

/// One embedded asset by its name; any other name is a 404. The scripts and the style sheet
/// are sent gzipped to a browser that accepts it (i18n.js, every language's words, is 115 KB
/// plain and about a fifth of that gzipped); the fonts are woff2, compressed already.
pub async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    match ASSETS.iter().position(|(known, _, _)| *known == name) {
        Some(index) => {
            let (_, kind, bytes) = ASSETS[index];
            if accepts_gzip(&headers) {
                (
                    [
                        (header::CONTENT_TYPE, kind),
                        (header::CACHE_CONTROL, "no-cache"),
                        (header::CONTENT_ENCODING, "gzip"),
                        (header::VARY, "accept-encoding"),
                    ],
                    gzipped()[index].as_slice(),
                )
                    .into_response()
            } else {
                (
                    [
                        (header::CONTENT_TYPE, kind),
                        (header::CACHE_CONTROL, "no-cache"),
                        (header::VARY, "accept-encoding"),
                    ],
                    bytes,
                )
                    .into_response()
            }
        }
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

/// Whether the request's `Accept-Encoding` names gzip (without `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            parts.next() == Some("gzip") && parts.all(|p| p.replace(' ', "") != "q=0")
        })
}

/// [`ASSETS`]' bytes gzipped, in the same order: compressed once, on the first request.
fn gzipped() -> &'static [Vec<u8>] {
    static GZIPPED: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    GZIPPED.get_or_init(|| {
        ASSETS
            .iter()
            .map(|(_, _, bytes)| {
                let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
                // Writing to a Vec cannot fail.
                encoder.write_all(bytes).expect("in memory");
                encoder.finish().expect("in memory")
            })
            .collect()
    })
}

/// The names of the embedded assets, fonts included.
pub fn names() -> impl Iterator<Item = &'static str> {
    ASSETS
        .iter()
        .map(|(name, _, _)| *name)
        .chain(FONTS.iter().map(|(name, _)| *name))
}
