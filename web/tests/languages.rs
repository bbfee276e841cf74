//! The page in every language, in a real browser (Debian's chromium over WebDriver, as
//! `tests/browser.rs`): for Arabic, Thai, Russian and Romanian a person chooses Tablut, reads
//! its learn page and solves an exercise there, is told in words why a move breaks a rule,
//! starts a game, is told why an illegal move is refused and sees the result; on every page the
//! visible text is collected and no English word of more than three letters may be in it
//! outside names, notation and numbers. Screenshots of the learn page and the game in each
//! language (English too) go to target/web-screenshots/, or to the directory
//! `TAFL_WEB_SCREENSHOTS` names (`TAFL_WEB_SCREENSHOTS=docs/web` refreshes docs/web.md's).
//!
//! Like `browser.rs` it is `#[ignore]`d in a plain `cargo test`; `.ci/run` runs it with
//! `cargo test -p tafl-web --test languages -- --ignored`.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{Server, scratch};
use serde_json::{Value, json};
use tafl_engine::{Piece, Position, Side, Variant, position_string};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver process and one browser session (the few commands this test needs).
struct Driver {
    child: Child,
    base: String,
    session: String,
}

impl Driver {
    fn start() -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while ureq::get(&format!("{base}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut driver = Driver {
            child,
            base,
            session: String::new(),
        };
        let value = driver.command(
            "POST",
            "/session",
            Some(json!({"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": CHROMIUM,
                    "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                             "--disable-dev-shm-usage", "--window-size=1100,1000", "--lang=en-US"]
                }
            }}})),
        );
        driver.session = value["sessionId"].as_str().expect("a session").to_owned();
        driver
    }

    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = if path == "/session" {
            format!("{}{path}", self.base)
        } else {
            format!("{}/session/{}{path}", self.base, self.session)
        };
        let request = ureq::request(method, &url).timeout(Duration::from_secs(60));
        let result = match body {
            Some(body) => request.send_json(body),
            None => request.call(),
        };
        let response = match result {
            Ok(response) | Err(ureq::Error::Status(_, response)) => response,
            Err(error) => panic!("WebDriver {method} {path}: {error}"),
        };
        let status = response.status();
        let value: Value = response.into_json().unwrap_or(Value::Null);
        assert!(status < 300, "WebDriver {method} {path}: {status} {value}");
        value["value"].clone()
    }

    fn goto(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    fn run(&self, script: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn click(&self, css: &str) {
        let found = self.command(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        let element = found["element-6066-11e4-a52e-4f735466cecf"]
            .as_str()
            .unwrap_or_else(|| panic!("no {css}"))
            .to_owned();
        self.command(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    /// Waits until `script` returns something true, and returns it.
    fn wait(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let value = self.run(script);
            if !(value.is_null() || value == json!(false) || value == json!("")) {
                return value;
            }
            assert!(Instant::now() < deadline, "waited too long for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Saves a screenshot as NAME in the directory `TAFL_WEB_SCREENSHOTS` names (relative to
    /// the repository, e.g. `docs/web` to refresh docs/web.md's pictures), or else in
    /// target/web-screenshots/, so that a plain run never rewrites tracked files.
    fn screenshot(&self, name: &str) {
        let data = self.command("GET", "/screenshot", None);
        let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = match std::env::var_os("TAFL_WEB_SCREENSHOTS") {
            Some(dir) if !dir.is_empty() => repository.join(dir),
            _ => repository.join("target/web-screenshots"),
        };
        std::fs::create_dir_all(&dir).expect("the screenshots' directory");
        let path = dir.join(name);
        std::fs::write(&path, base64(data.as_str().unwrap_or_default()))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// The text a person sees: the page's shown part (the language menu, which names every
    /// language in its own, aside).
    fn visible_text(&self) -> String {
        self.run(
            "return [...document.querySelectorAll('main:not([hidden])')].map(m => m.innerText)
               .concat([document.querySelector('header .brand').innerText]).join('\\n');",
        )
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = ureq::delete(&format!("{}/session/{}", self.base, self.session)).call();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(digit).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let word = chunk
            .iter()
            .enumerate()
            .fold(0u32, |w, (i, d)| w | u32::from(*d) << (18 - 6 * i));
        out.extend(word.to_be_bytes()[1..chunk.len()].iter());
    }
    out
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

#[test]
#[ignore = "needs chromium and chromedriver: .ci/run installs them and runs it with --ignored"]
fn a_person_who_reads_only_their_language_learns_plays_and_understands_every_message() {
    assert!(
        Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists(),
        "needs Debian's chromium and chromedriver: apt-get install -y chromium chromium-driver"
    );
    let dir = scratch("languages");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let driver = Driver::start();
    let start = escape_position();
    for language in ["ar", "th", "ru", "ro", "en"] {
        // The new game's form, in the language: the game chosen, its paragraph read.
        driver.goto(&server.url("/"));
        driver.run(&format!(
            "localStorage.clear(); localStorage.setItem('tafl-lang', '{language}'); return 1;"
        ));
        driver.goto(&server.url("/"));
        driver.wait("the form", "return document.body.dataset.ready === '1';");
        driver.run(
            "const s = document.getElementById('variant'); s.value = 'tablut';
             s.dispatchEvent(new Event('change')); return 1;",
        );
        assert_eq!(
            driver.run("return document.documentElement.dir;"),
            json!(if language == "ar" { "rtl" } else { "ltr" })
        );
        // Thai and Arabic in the page's own fonts, not the system's.
        let family = match language {
            "th" => Some("Tafl Noto Sans Thai"),
            "ar" => Some("Tafl Noto Naskh Arabic"),
            _ => None,
        };
        if let Some(family) = family {
            driver.wait(
                family,
                &format!(
                    "return [...document.fonts].some(f => f.family.replaceAll('\"', '') === {family:?}
                       && f.status === 'loaded');"
                ),
            );
        }
        // Every game of the list, its paragraph shown in turn.
        let keys = driver.run(
            "return [...document.getElementById('variant').options].map(o => o.value).filter(v => v);",
        );
        let keys: Vec<String> = serde_json::from_value(keys).expect("the games' keys");
        assert!(keys.len() >= 16, "{keys:?}");
        for key in &keys {
            driver.run(&format!(
                "const s = document.getElementById('variant'); s.value = {key:?};
                 s.dispatchEvent(new Event('change')); return 1;"
            ));
            if language != "en" {
                assert_no_english(
                    language,
                    &format!("the form with {key}"),
                    &driver.visible_text(),
                );
            }
        }
        driver.run(
            "const s = document.getElementById('variant'); s.value = 'tablut';
             s.dispatchEvent(new Event('change')); return 1;",
        );
        // The other learn pages, read whole.
        for key in ["tawlbwrdd", "copenhagen"] {
            driver.goto(&server.url(&format!("/learn/{key}")));
            driver.wait(
                "the lessons",
                "return document.querySelectorAll('section.lesson svg').length >= 8;",
            );
            if language != "en" {
                assert_no_english(language, &format!("/learn/{key}"), &driver.visible_text());
            }
        }
        driver.goto(&server.url("/"));
        driver.wait("the form", "return document.body.dataset.ready === '1';");
        driver.run(
            "const s = document.getElementById('variant'); s.value = 'tablut';
             s.dispatchEvent(new Event('change')); return 1;",
        );
        // Its learn page: every lesson shown, a castle refusal in words, an exercise solved.
        driver.click("#learn-link");
        driver.wait(
            "the lessons",
            "return document.querySelectorAll('section.lesson svg').length >= 10;",
        );
        // The castle is no legal target, so the board offers no dot there; a drop on it is
        // sent to the server, which says why.
        drag(&driver, "section[data-lesson=moves]", "c5", "e5");
        let refused = driver.wait(
            "the castle's reason",
            "return document.querySelector('section[data-lesson=moves] .feedback.error')?.innerText;",
        );
        assert!(refused.as_str().unwrap().contains("e5"), "{refused}");
        driver.click("section[data-lesson=capture] rect[data-square=d7]");
        driver.click("section[data-lesson=capture] rect[data-square=d3]");
        driver.wait(
            "the exercise solved",
            "return document.querySelector('section[data-lesson=capture]').dataset.done === '1';",
        );
        driver.run(
            "document.querySelector('section[data-lesson=capture]').scrollIntoView(); return 1;",
        );
        driver.screenshot(&format!("learn-{language}.png"));
        let learn = driver.visible_text();
        if language != "en" {
            assert_no_english(language, "the learn page", &learn);
        }
        // A game from a set-up position: an illegal move's reason, then the result.
        driver.goto(&server.url("/"));
        driver.wait("the form", "return document.body.dataset.ready === '1';");
        driver.run(&format!(
            "const s = document.getElementById('variant'); s.value = 'tablut';
             s.dispatchEvent(new Event('change'));
             document.querySelector('input[name=mode][value=analysis]').click();
             document.getElementById('position').value = {start:?};
             document.getElementById('setup-form').requestSubmit(); return 1;"
        ));
        driver.wait(
            "the game",
            "return document.querySelector('#board svg') && document.body.dataset.ply === '0';",
        );
        type_move(&driver, "c4-a4");
        let reason = driver.wait(
            "an illegal move's reason",
            "return document.getElementById('reason').innerText;",
        );
        assert!(reason.as_str().unwrap().contains("b4"), "{reason}");
        let refused = driver.visible_text();
        type_move(&driver, "c4-c1");
        driver.wait(
            "the result",
            "return document.body.dataset.finished === '1' && document.getElementById('status').innerText;",
        );
        driver.screenshot(&format!("game-{language}.png"));
        let over = driver.visible_text();
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

/// Drags the piece on `from` to `to` on the board inside `within`.
fn drag(driver: &Driver, within: &str, from: &str, to: &str) {
    let find = |square: &str| {
        driver.command(
            "POST",
            "/element",
            Some(json!({"using": "css selector",
                        "value": format!("{within} rect[data-square={square}]")})),
        )["element-6066-11e4-a52e-4f735466cecf"]
            .clone()
    };
    let (from, to) = (find(from), find(to));
    let origin = |element: &Value| json!({"element-6066-11e4-a52e-4f735466cecf": element});
    driver.command(
        "POST",
        "/actions",
        Some(json!({"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "origin": origin(&from), "x": 0, "y": 0},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "duration": 100, "origin": origin(&from), "x": 3, "y": 3},
                {"type": "pointerMove", "duration": 200, "origin": origin(&to), "x": 0, "y": 0},
                {"type": "pointerUp", "button": 0}
            ]
        }]})),
    );
    driver.command("DELETE", "/actions", None);
}

/// Types a move in the page's move field and plays it.
fn type_move(driver: &Driver, text: &str) {
    driver.run(&format!(
        "document.getElementById('move-input').value = {text:?};
         document.getElementById('text-move').requestSubmit(); return 1;"
    ));
}
