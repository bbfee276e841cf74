//! What the browser tests share: Debian's chromium driven through chromedriver with
//! `fantoccini` (a maintained WebDriver client), one browser session per person (each its own
//! profile: its own localStorage, so its own secrets), what the page shows read in one script,
//! and the library's game as the oracle the page's board is compared with.
//!
//! Include it next to `common` with `#[path = "common/browser.rs"] mod browser;`.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use tafl_engine::{AnyVariant, Game, Grid, Move, Piece, Position};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Fails the test with the command that installs the browser when it is missing.
pub fn require_browser() {
    assert!(
        Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists(),
        "the browser tests need Debian's chromium and chromedriver: \
         apt-get update && apt-get install -y chromium chromium-driver"
    );
}

/// A chromedriver process on a free loopback port; each [`Chromedriver::open`] is a new
/// browser with a profile of its own.
pub struct Chromedriver {
    child: Child,
    url: String,
}

impl Chromedriver {
    /// Starts chromedriver and waits until it answers.
    pub fn start() -> Chromedriver {
        require_browser();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        // A process group of its own, so that its chromium processes go with it (below).
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while ureq::get(&format!("{url}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        Chromedriver { child, url }
    }

    /// A new headless chromium, `width` x `height`, in English.
    pub async fn open(&self, width: u32, height: u32) -> Browser {
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", format!("--window-size={width},{height}"),
                         "--lang=en-US"]
            }
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!("a JSON object literal")
        };
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .expect("a chromium session");
        let browser = Browser { client };
        // Again now that it runs: at its launch chromium widens a window below 500 px.
        browser.size(width, height).await;
        browser
    }
}

impl Drop for Chromedriver {
    /// Kills chromedriver and every chromium it started (its process group): a test that ends
    /// without closing its sessions, or fails, would otherwise leave chromium running, its pages
    /// still trying to reconnect to the test's stopped server.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser session (a person's browser). Every WebDriver failure fails the test.
pub struct Browser {
    pub client: Client,
}

impl Browser {
    pub async fn goto(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("open {url}: {e}"));
    }

    pub async fn refresh(&self) {
        self.client.refresh().await.expect("reload");
    }

    /// Runs `script` (a function body) in the page: what it returns.
    pub async fn run(&self, script: &str) -> Value {
        self.client
            .execute(script, Vec::new())
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// The element `css` finds (none fails the test).
    pub async fn element(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
    }

    /// Clicks the element `css` finds. An element the page drew again between finding and
    /// clicking (a stream's event redraws the board) is found again: the page's state, such as
    /// the board's selected square, survives its redrawing.
    pub async fn click(&self, css: &str) {
        for _ in 0..5 {
            match self.element(css).await.click().await {
                Ok(_) => return,
                Err(e) if e.to_string().contains("stale element") => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(e) => panic!("click {css}: {e}"),
            }
        }
        panic!("click {css}: the element was redrawn five times in a row");
    }

    /// Clicks `from` then `to` on the board.
    pub async fn click_move(&self, from: &str, to: &str) {
        self.click(&format!("#board rect[data-square=\"{from}\"]"))
            .await;
        self.click(&format!("#board rect[data-square=\"{to}\"]"))
            .await;
    }

    /// Drags the piece on `from` to `to` on the board.
    pub async fn drag_move(&self, from: &str, to: &str) {
        let square = |name: &str| format!("#board rect[data-square=\"{name}\"]");
        self.drag(&square(from), &square(to)).await;
    }

    /// Drags from the element `from_css` to the element `to_css` (pointer down, move, up).
    pub async fn drag(&self, from_css: &str, to_css: &str) {
        let (from, to) = (self.element(from_css).await, self.element(to_css).await);
        let over = |element, ms, offset| PointerAction::MoveToElement {
            element,
            duration: Some(Duration::from_millis(ms)),
            x: offset,
            y: offset,
        };
        let mouse = MouseActions::new("mouse".to_owned())
            .then(over(from.clone(), 0, 0.0))
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(over(from, 100, 3.0))
            .then(over(to, 200, 0.0))
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client.perform_actions(mouse).await.expect("the drag");
        self.client.release_actions().await.expect("the drag's end");
    }

    /// Types `text` in the page's move field and plays it.
    pub async fn type_move(&self, text: &str) {
        self.run(&format!(
            "document.getElementById('move-input').value = {text:?};
             document.getElementById('text-move').requestSubmit(); return 1;"
        ))
        .await;
    }

    /// Chooses `value` in the `<select>` `css` (as a person does: a change event follows).
    pub async fn select(&self, css: &str, value: &str) {
        self.element(css)
            .await
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("choose {value} in {css}: {e}"));
    }

    pub async fn size(&self, width: u32, height: u32) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("the window's size");
    }

    /// Accepts the page's `confirm()`.
    pub async fn accept_alert(&self) {
        self.client
            .accept_alert()
            .await
            .expect("an alert to accept");
    }

    /// Saves a screenshot as `name` in the directory `TAFL_WEB_SCREENSHOTS` names (relative to
    /// the repository, e.g. `docs/web` to refresh docs/web-screenshots.md's pictures), or else in
    /// target/web-screenshots/, so that a plain run never rewrites tracked files.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let bytes = self.client.screenshot().await.expect("a screenshot");
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = match std::env::var("TAFL_WEB_SCREENSHOTS") {
            Ok(dir) if !dir.is_empty() => root.join(dir),
            _ => root.join("target/web-screenshots"),
        };
        std::fs::create_dir_all(&dir).expect("the screenshots' directory is writable");
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("the screenshot is written");
        path
    }

    /// What the page shows: the ply drawn and the live ply, whose turn (`data-turn`), the
    /// pieces (`e5K`), the arrow, the status and reason lines, the move list's moves.
    pub async fn page(&self) -> Value {
        self.run(
            "const svg = document.querySelector('#board svg');
             if (!svg || document.body.dataset.ply === undefined) return null;
             return {
               ply: Number(svg.dataset.ply), live: Number(document.body.dataset.ply),
               turn: document.body.dataset.turn,
               pieces: [...svg.querySelectorAll('g.piece')].map(g => g.dataset.square + g.dataset.piece),
               arrow: (svg.querySelector('[data-arrow]') || {dataset: {}}).dataset.arrow || null,
               status: document.getElementById('status').textContent,
               reason: document.getElementById('reason').textContent,
               listed: document.querySelectorAll('#move-list button[data-ply]').length,
               path: window.location.pathname,
             };",
        )
        .await
    }

    /// Waits (60 s at most) until `ready` holds of [`Browser::page`]: that page.
    pub async fn wait(&self, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let page = self.page().await;
            if !page.is_null() && ready(&page) {
                return page;
            }
            assert!(
                Instant::now() < deadline,
                "waited too long for {what}: {page}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits (`seconds` at most) until `script` returns something other than null, false, 0
    /// or "": that value.
    pub async fn wait_for(&self, what: &str, seconds: u64, script: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        loop {
            let value = self.run(script).await;
            if !(value.is_null()
                || value == json!(false)
                || value == json!(0)
                || value == json!(""))
            {
                return value;
            }
            assert!(
                Instant::now() < deadline,
                "waited too long for {what}: {value}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Opens the start page at `url` and waits until its form lists the games.
    pub async fn open_form(&self, url: &str) {
        self.goto(url).await;
        self.wait_for(
            "the form's games",
            30,
            "return document.querySelector('#variant option[value=\"tablut\"]') !== null;",
        )
        .await;
    }

    /// Starts a game against the engine on the start page at `url`, as a person does: the
    /// game, the person's side and the engine's level chosen in the form, then Start. Waits for
    /// the person's board and answers the game's id (from the page's address).
    pub async fn start_engine_game(
        &self,
        url: &str,
        variant: &str,
        side: &str,
        level: &str,
    ) -> String {
        self.open_form(url).await;
        self.select("#variant", variant).await;
        self.select("#human", side).await;
        self.select("#level", level).await;
        self.click("#start").await;
        let shown = self
            .wait("the board", |p| {
                p["live"] == json!(0) && p["turn"] == json!("person")
            })
            .await;
        shown["path"]
            .as_str()
            .and_then(|p| p.strip_prefix("/g/"))
            .expect("the game's address")
            .to_owned()
    }

    /// Ends the session (its chromium quits).
    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// The pieces a page shows, as a set (`e5K`).
pub fn shown_pieces(page: &Value) -> BTreeSet<String> {
    page["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .map(|p| p.as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The library's view of a game: the pieces (`e5K`) and the legal moves (`e2-e4`).
fn library_view<B: Grid>(game: &Game<B>) -> (BTreeSet<String>, BTreeSet<String>) {
    let position: &Position<B> = game.position();
    let pieces = position
        .pieces_with_squares()
        .map(|(square, piece)| {
            let letter = match piece {
                Piece::Attacker => 't',
                Piece::Defender => 'T',
                Piece::King => 'K',
            };
            format!("{square}{letter}")
        })
        .collect();
    let legal = if game.outcome().is_some() {
        BTreeSet::new()
    } else {
        game.legal_moves().iter().map(|m| m.to_string()).collect()
    };
    (pieces, legal)
}

/// A game of the library's on either grid: the independent oracle the page is compared with.
pub enum Oracle {
    Narrow(Game),
    Wide(Game<tafl_engine::Wide>),
}

impl Oracle {
    pub fn new(rules: &str) -> Oracle {
        match rules
            .parse::<AnyVariant>()
            .expect("the server's rules string reads back")
        {
            AnyVariant::Narrow(v) => Oracle::Narrow(Game::new(&v)),
            AnyVariant::Wide(v) => Oracle::Wide(Game::<tafl_engine::Wide>::new(&v)),
        }
    }

    pub fn ply(&self) -> usize {
        match self {
            Oracle::Narrow(g) => g.moves().len(),
            Oracle::Wide(g) => g.moves().len(),
        }
    }

    /// Plays `text` by the library's rules (a refusal fails the test).
    pub fn play(&mut self, text: &str) {
        fn go<B: Grid>(game: &mut Game<B>, text: &str) {
            let m: Move<B> = text.parse().expect("the move reads");
            game.play(m)
                .unwrap_or_else(|e| panic!("the library refuses {text}: {e}"));
        }
        match self {
            Oracle::Narrow(g) => go(g, text),
            Oracle::Wide(g) => go(g, text),
        }
    }

    pub fn undo(&mut self) {
        match self {
            Oracle::Narrow(g) => g.undo().is_some(),
            Oracle::Wide(g) => g.undo().is_some(),
        };
    }

    /// The pieces (`e5K`) and the legal moves (`e2-e4`, none once the game is over).
    pub fn view(&self) -> (BTreeSet<String>, BTreeSet<String>) {
        match self {
            Oracle::Narrow(g) => library_view(g),
            Oracle::Wide(g) => library_view(g),
        }
    }

    /// The result in the words the server uses (`Outcome`'s Display).
    pub fn outcome(&self) -> Option<String> {
        match self {
            Oracle::Narrow(g) => g.outcome().map(|o| o.to_string()),
            Oracle::Wide(g) => g.outcome().map(|o| o.to_string()),
        }
    }

    /// Both sides agree to a draw.
    pub fn agree_draw(&mut self) {
        match self {
            Oracle::Narrow(g) => g.agree_draw(),
            Oracle::Wide(g) => g.agree_draw(),
        }
    }

    /// Captures `text` would make (to prefer them: games end sooner).
    pub fn captures(&self, text: &str) -> u32 {
        fn count<B: Grid>(game: &Game<B>, text: &str) -> u32 {
            let mut copy = game.clone();
            text.parse::<Move<B>>()
                .ok()
                .and_then(|m| copy.play(m).ok())
                .map_or(0, |captured| captured.count())
        }
        match self {
            Oracle::Narrow(g) => count(g, text),
            Oracle::Wide(g) => count(g, text),
        }
    }
}
