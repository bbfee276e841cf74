//! The page's files over HTTP as a browser fetches them: every script and the style sheet
//! gzipped when the request accepts gzip (and the same bytes once unzipped), plain otherwise;
//! the first page load's bytes, plain and gzipped, printed for docs/web.md.

use crate::common;

use std::io::Read;

use common::{Server, scratch};

fn fetch(server: &Server, path: &str, gzip: bool) -> (Option<String>, Vec<u8>) {
    let mut request = server.get(path);
    if gzip {
        request = request.set("Accept-Encoding", "gzip, deflate, br");
    }
    let response = request.call().unwrap_or_else(|e| panic!("{path}: {e}"));
    let encoding = response.header("content-encoding").map(str::to_owned);
    let mut body = Vec::new();
    response
        .into_reader()
        .read_to_end(&mut body)
        .expect("the body");
    (encoding, body)
}

#[test]
fn scripts_and_style_are_gzipped_for_a_browser_that_accepts_it_and_unzip_to_the_same_bytes() {
    let dir = scratch("assets");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &[]);
    let (mut plain_total, mut gzip_total) = (0, 0);
    for name in tafl_web::assets::names() {
        let path = format!("/assets/{name}");
        let (encoding, plain) = fetch(&server, &path, false);
        assert_eq!(encoding, None, "{name}: plain without Accept-Encoding");
        let (encoding, sent) = fetch(&server, &path, true);
        if name.ends_with(".woff2") {
            assert_eq!(encoding, None, "{name}: woff2 is compressed already");
            assert_eq!(sent, plain);
            continue;
        }
        assert_eq!(encoding.as_deref(), Some("gzip"), "{name}");
        let mut unzipped = Vec::new();
        flate2::read::GzDecoder::new(sent.as_slice())
            .read_to_end(&mut unzipped)
            .expect("gzip");
        assert_eq!(unzipped, plain, "{name}: the same bytes once unzipped");
        assert!(sent.len() < plain.len(), "{name}: smaller");
        println!(
            "{name}: {} bytes plain, {} gzipped",
            plain.len(),
            sent.len()
        );
        plain_total += plain.len();
        gzip_total += sent.len();
    }
    println!("scripts and style: {plain_total} bytes plain, {gzip_total} gzipped");
    // `q=0` refuses gzip.
    let response = server
        .get("/assets/i18n.js")
        .set("Accept-Encoding", "gzip;q=0")
        .call()
        .expect("i18n.js");
    assert_eq!(response.header("content-encoding"), None);
}
