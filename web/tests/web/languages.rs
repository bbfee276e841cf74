//! The page in every language, in a real browser (Debian's chromium through chromedriver with
//! `fantoccini`, as `tests/web/browser.rs`: `common/browser.rs`): for Arabic, Thai, Russian and
//! Romanian a person chooses Tablut, reads its learn page and solves an exercise there, is told
//! in words why a move breaks a rule, starts a game, is told why an illegal move is refused and
//! sees the result; on every page the
//! visible text is collected and no English word of more than three letters may be in it
//! outside names, notation and numbers. Screenshots of the learn page and the game in each
//! language (English too) go to target/web-screenshots/, or to the directory
//! `TAFL_WEB_SCREENSHOTS` names (`TAFL_WEB_SCREENSHOTS=docs/web` refreshes
//! docs/web-screenshots.md's).
//!
//! Like `browser.rs` it is `#[ignore]`d in a plain `cargo test`; `.ci/run` runs it with
//! `cargo test -p tafl-web --test web -- --ignored languages::`.

use crate::common;
use crate::common::browser;

use std::collections::BTreeSet;
use std::path::Path;

use browser::{Browser, Chromedriver};
use common::{Server, scratch};
use serde_json::json;
use tafl_engine::{Piece, Position, Side, Variant, position_string};

/// The start page, its form ready, Tablut chosen in it.
async fn open_form_with_tablut(driver: &Browser, server: &Server) {
    driver.goto(&server.url("/")).await;
    driver
        .wait_for(
            "the form",
            30,
            "return document.body.dataset.ready === '1';",
        )
        .await;
    driver.select("#variant", "tablut").await;
}

/// The text a person sees: the page's shown part (the language menu, which names every
/// language in its own, aside).
async fn visible_text(driver: &Browser) -> String {
    driver
        .run(
            "return [...document.querySelectorAll('main:not([hidden])')].map(m => m.innerText)
               .concat([document.querySelector('header .brand').innerText]).join('\\n');",
        )
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Names a page may show in any language (games, programs, sites, people), lower case.
const NAMES: [&str; 15] = [
    "tablut",
    "tawlbwrdd",
    "copenhagen",
    "opentafl",
    "hnefatafl",
    "aagenielsen",
    "linnaeus",
    "fetlar",
    "brandub",
    "brandubh",
    "ashton",
    "foteviken",
    "challenge",
    "bell",
    "tafl",
];

/// The words of one language's block of i18n.js, lower case.
fn vocabulary(language: &str) -> BTreeSet<String> {
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/i18n.js"))
            .expect("i18n.js");
    let block = source
        .split(&format!("const {language} = {{"))
        .nth(1)
        .and_then(|rest| rest.split("\n};").next())
        .expect("the language's block");
    // The texts only (`key: 'text'`), not the keys, which are English in every language.
    let mut texts = String::new();
    for part in block.split(": '").skip(1) {
        let mut escaped = false;
        for c in part.chars() {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '\'') => break,
                _ => {
                    texts.push(c);
                    escaped = false;
                }
            }
        }
        texts.push(' ');
    }
    texts
        .split(|c: char| !c.is_alphabetic())
        .map(str::to_lowercase)
        .collect()
}

/// The English words of more than three letters in `text` that are not names: any Latin word
/// where the language writes in another script; in Romanian, a word of English's page that
/// Romanian's does not use.
fn english_words(language: &str, text: &str) -> Vec<String> {
    let english = vocabulary("en");
    let own = vocabulary(language);
    text.split(|c: char| !c.is_alphabetic())
        .filter(|word| word.chars().count() > 3 && word.chars().all(|c| c.is_ascii_alphabetic()))
        .map(str::to_lowercase)
        .filter(|word| !NAMES.contains(&word.as_str()))
        .filter(|word| language != "ro" || (english.contains(word) && !own.contains(word)))
        .collect()
}

fn assert_no_english(language: &str, page: &str, text: &str) {
    let found = english_words(language, text);
    assert!(
        found.is_empty(),
        "{language}, {page}: English words shown: {found:?}\n{text}"
    );
}

/// A Tablut position where the defenders' king escapes in one move (c4-c1), as the page's
/// start-position field takes it.
fn escape_position() -> String {
    let variant = Variant::tablut();
    let square = |name: &str| name.parse().expect("a square");
    let position = Position::from_pieces(
        variant.rules(),
        Side::Defenders,
        [
            (square("c4"), Piece::King),
            (square("b4"), Piece::Attacker),
            (square("g4"), Piece::Attacker),
            (square("c7"), Piece::Attacker),
            (square("g7"), Piece::Defender),
        ],
    )
    .expect("a position");
    position_string::write(&position)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: .ci/run installs them and runs it with --ignored"]
async fn a_person_who_reads_only_their_language_learns_plays_and_understands_every_message() {
    let dir = scratch("languages");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let chromedriver = Chromedriver::start();
    let driver = chromedriver.open(1100, 1000).await;
    let start = escape_position();
    for language in ["ar", "th", "ru", "ro", "en"] {
        // The new game's form, in the language: the game chosen, its paragraph read.
        driver.goto(&server.url("/")).await;
        driver
            .run(&format!(
                "localStorage.clear(); localStorage.setItem('tafl-lang', '{language}'); return 1;"
            ))
            .await;
        open_form_with_tablut(&driver, &server).await;
        assert_eq!(
            driver.run("return document.documentElement.dir;").await,
            json!(if language == "ar" { "rtl" } else { "ltr" })
        );
        // Thai and Arabic in the page's own fonts, not the system's.
        let family = match language {
            "th" => Some("Tafl Noto Sans Thai"),
            "ar" => Some("Tafl Noto Naskh Arabic"),
            _ => None,
        };
        if let Some(family) = family {
            driver.wait_for(
                family, 30,
                &format!(
                    "return [...document.fonts].some(f => f.family.replaceAll('\"', '') === {family:?}
                       && f.status === 'loaded');"
                ),
            ).await;
        }
        // Every game of the list, its paragraph shown in turn.
        let keys = driver.run(
            "return [...document.getElementById('variant').options].map(o => o.value).filter(v => v);",
        ).await;
        let keys: Vec<String> = serde_json::from_value(keys).expect("the games' keys");
        assert!(keys.len() >= 16, "{keys:?}");
        for key in &keys {
            driver
                .run(&format!(
                    "const s = document.getElementById('variant'); s.value = {key:?};
                 s.dispatchEvent(new Event('change')); return 1;"
                ))
                .await;
            if language != "en" {
                assert_no_english(
                    language,
                    &format!("the form with {key}"),
                    &visible_text(&driver).await,
                );
            }
        }
        driver
            .run(
                "const s = document.getElementById('variant'); s.value = 'tablut';
             s.dispatchEvent(new Event('change')); return 1;",
            )
            .await;
        // The other learn pages, read whole.
        for key in ["tawlbwrdd", "copenhagen"] {
            driver.goto(&server.url(&format!("/learn/{key}"))).await;
            driver
                .wait_for(
                    "the lessons",
                    30,
                    "return document.querySelectorAll('section.lesson svg').length >= 8;",
                )
                .await;
            if language != "en" {
                assert_no_english(
                    language,
                    &format!("/learn/{key}"),
                    &visible_text(&driver).await,
                );
            }
        }
        open_form_with_tablut(&driver, &server).await;
        // Its learn page: every lesson shown, a castle refusal in words, an exercise solved.
        driver.click("#learn-link").await;
        driver
            .wait_for(
                "the lessons",
                30,
                "return document.querySelectorAll('section.lesson svg').length >= 10;",
            )
            .await;
        // The castle is no legal target, so the board offers no dot there; a drop on it is
        // sent to the server, which says why.
        driver
            .drag(
                "section[data-lesson=moves] rect[data-square=c5]",
                "section[data-lesson=moves] rect[data-square=e5]",
            )
            .await;
        let refused = driver.wait_for(
            "the castle's reason", 30,
            "return document.querySelector('section[data-lesson=moves] .feedback.error')?.innerText;",
        ).await;
        assert!(refused.as_str().unwrap().contains("e5"), "{refused}");
        driver
            .click("section[data-lesson=capture] rect[data-square=d7]")
            .await;
        driver
            .click("section[data-lesson=capture] rect[data-square=d3]")
            .await;
        driver.wait_for(
            "the exercise solved", 30,
            "return document.querySelector('section[data-lesson=capture]').dataset.done === '1';",
        ).await;
        driver.run(
            "document.querySelector('section[data-lesson=capture]').scrollIntoView(); return 1;",
        ).await;
        driver.screenshot(&format!("learn-{language}.png")).await;
        let learn = visible_text(&driver).await;
        if language != "en" {
            assert_no_english(language, "the learn page", &learn);
        }
        // A game from a set-up position: an illegal move's reason, then the result.
        open_form_with_tablut(&driver, &server).await;
        driver
            .run(&format!(
                "
             document.querySelector('input[name=mode][value=analysis]').click();
             document.getElementById('position').value = {start:?};
             document.getElementById('setup-form').requestSubmit(); return 1;"
            ))
            .await;
        driver
            .wait_for(
                "the game",
                30,
                "return document.querySelector('#board svg') && document.body.dataset.ply === '0';",
            )
            .await;
        driver.type_move("c4-a4").await;
        let reason = driver
            .wait_for(
                "an illegal move's reason",
                30,
                "return document.getElementById('reason').innerText;",
            )
            .await;
        assert!(reason.as_str().unwrap().contains("b4"), "{reason}");
        let refused = visible_text(&driver).await;
        driver.type_move("c4-c1").await;
        driver.wait_for(
            "the result", 30,
            "return document.body.dataset.finished === '1' && document.getElementById('status').innerText;",
        ).await;
        driver.screenshot(&format!("game-{language}.png")).await;
        let over = visible_text(&driver).await;
        if language != "en" {
            assert_no_english(language, "a refused move", &refused);
            assert_no_english(language, "the end of a game", &over);
        } else {
            assert!(over.contains("king escaped"), "{over}");
        }
    }
}

#[test]
fn the_english_check_finds_english_words_and_lets_names_and_notation_pass() {
    let thai = "ราชาหนีไปได้ Tablut — OpenTafl e2-e4 9x9 the king escaped";
    assert_eq!(english_words("th", thai), ["king", "escaped"]);
    let romanian = "Regele a scăpat pe margine: Copenhaga, Tablut, the king escaped";
    assert_eq!(english_words("ro", romanian), ["king", "escaped"]);
    assert!(english_words("ro", "Apărătorii câștigă: regele a scăpat").is_empty());
}
