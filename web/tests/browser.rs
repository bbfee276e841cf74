//! The page in a real browser: Debian's chromium driven over WebDriver (chromedriver). It plays
//! whole games of Tablut and (on a phone-wide window) of 13x13 Copenhagen by clicking squares,
//! and after every move compares the board the page draws with the library's position; it takes
//! a hint and a takeback, reloads the page, and restarts (kill -9) the server mid-game: the page says it reconnects and comes back by itself, without a reload, and goes on, and saves
//! screenshots under target/web-screenshots/.
//!
//! It needs Debian's chromium and chromedriver, which a plain `cargo test` cannot count on, so
//! it is `#[ignore]`d there: `.ci/run` installs them and runs it with
//! `cargo test -p tafl-web --test browser -- --ignored`. Run so without them, it fails and says
//! how to install them (`apt-get install -y chromium chromium-driver`).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{Choices, Server, scratch, served_move_texts, served_moves};
use serde_json::{Value, json};
use tafl_engine::{AnyVariant, Game, Grid, Move, Piece, Position};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver process and one browser session.
struct Driver {
    child: Child,
    base: String,
    session: String,
}

impl Driver {
    fn start(port: u16) -> Driver {
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
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=en-US"]
            }
        }}});
        let mut driver = Driver {
            child,
            base,
            session: String::new(),
        };
        let value = driver.command("POST", "/session", Some(capabilities));
        driver.session = value["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {value}"))
            .to_owned();
        driver
    }

    /// A WebDriver command: its `value`.
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
            Ok(response) => response,
            Err(ureq::Error::Status(_, response)) => response,
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

    fn refresh(&self) {
        self.command("POST", "/refresh", Some(json!({})));
    }

    fn find(&self, css: &str) -> String {
        let value = self.command(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        value[ELEMENT].as_str().unwrap_or_default().to_owned()
    }

    fn click(&self, css: &str) {
        let element = self.find(css);
        self.command(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    fn run(&self, script: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn size(&self, width: u32, height: u32) {
        self.command(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let data = self.command("GET", "/screenshot", None);
        let bytes = base64_decode(data.as_str().unwrap_or_default());
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/web-screenshots");
        std::fs::create_dir_all(&dir).expect("target/ is writable");
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("the screenshot is written");
        path
    }

    /// What the page shows: the live ply, whose turn, the pieces (`e5K`), the arrow.
    fn page(&self) -> Value {
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
             };",
        )
    }

    /// Waits until `ready` holds of the page.
    fn wait(&self, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let page = self.page();
            if !page.is_null() && ready(&page) {
                return page;
            }
            assert!(
                Instant::now() < deadline,
                "waited too long for {what}: {page}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
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

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut word = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            word |= u32::from(*d) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((word >> (16 - 8 * i)) as u8);
        }
    }
    out
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

/// A game of the library's on either grid, kept in step with the server's moves.
enum Oracle {
    Narrow(Game),
    Wide(Game<tafl_engine::Wide>),
}

impl Oracle {
    fn new(rules: &str) -> Oracle {
        match rules
            .parse::<AnyVariant>()
            .expect("the server's rules string reads back")
        {
            AnyVariant::Narrow(v) => Oracle::Narrow(Game::new(&v)),
            AnyVariant::Wide(v) => Oracle::Wide(Game::<tafl_engine::Wide>::new(&v)),
        }
    }

    fn ply(&self) -> usize {
        match self {
            Oracle::Narrow(g) => g.moves().len(),
            Oracle::Wide(g) => g.moves().len(),
        }
    }

    fn play(&mut self, text: &str) {
        fn go<B: Grid>(game: &mut Game<B>, text: &str) {
            let m: Move<B> = text.parse().expect("the server's move reads");
            game.play(m)
                .unwrap_or_else(|e| panic!("the library refuses {text}: {e}"));
        }
        match self {
            Oracle::Narrow(g) => go(g, text),
            Oracle::Wide(g) => go(g, text),
        }
    }

    fn undo(&mut self) {
        match self {
            Oracle::Narrow(g) => g.undo().is_some(),
            Oracle::Wide(g) => g.undo().is_some(),
        };
    }

    fn view(&self) -> (BTreeSet<String>, BTreeSet<String>) {
        match self {
            Oracle::Narrow(g) => library_view(g),
            Oracle::Wide(g) => library_view(g),
        }
    }

    fn outcome(&self) -> Option<String> {
        match self {
            Oracle::Narrow(g) => g.outcome().map(|o| o.to_string()),
            Oracle::Wide(g) => g.outcome().map(|o| o.to_string()),
        }
    }

    /// Captures `text` would make (to prefer them: games end sooner).
    fn captures(&self, text: &str) -> u32 {
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

/// Brings the oracle to the server's moves (playing each new one by the library's rules) and
/// checks the page's board and the server's legal moves against the library's.
fn check(driver: &Driver, server: &Server, id: &str, oracle: &mut Oracle) -> Value {
    let state = server.ok("GET", &format!("/api/games/{id}"), None);
    let moves: Vec<String> = state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().unwrap_or_default().to_owned())
        .collect();
    for text in &moves[oracle.ply()..] {
        oracle.play(text);
    }
    assert_eq!(
        oracle.ply(),
        moves.len(),
        "the library and the server disagree on the ply"
    );
    let page = driver.wait("the page to show the server's ply", |p| {
        p["ply"] == json!(moves.len()) && p["live"] == json!(moves.len())
    });
    let (pieces, legal) = oracle.view();
    let shown: BTreeSet<String> = page["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .map(|p| p.as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        shown, pieces,
        "the page's board is not the library's after {moves:?}"
    );
    let served = served_move_texts(&state);
    if state["to_move"] == state["human"] || state["finished"] == json!(true) {
        assert_eq!(
            served, legal,
            "the server's legal moves are not the library's"
        );
    }
    assert_eq!(
        state["result"]["text"].as_str().map(str::to_owned),
        oracle.outcome(),
        "the result"
    );
    state
}

/// Clicks `from` then `to` on the board.
fn click_move(driver: &Driver, from: &str, to: &str) {
    driver.click(&format!("#board rect[data-square=\"{from}\"]"));
    driver.wait("the selection", |_| true);
    driver.click(&format!("#board rect[data-square=\"{to}\"]"));
}

/// Drags the piece on `from` to `to` (pointer down, move, up).
fn drag_move(driver: &Driver, from: &str, to: &str) {
    let from = driver.find(&format!("#board rect[data-square=\"{from}\"]"));
    let to = driver.find(&format!("#board rect[data-square=\"{to}\"]"));
    let actions = json!({"actions": [{
        "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [
            {"type": "pointerMove", "duration": 0, "origin": {ELEMENT: from}, "x": 0, "y": 0},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerMove", "duration": 100, "origin": {ELEMENT: from}, "x": 3, "y": 3},
            {"type": "pointerMove", "duration": 200, "origin": {ELEMENT: to}, "x": 0, "y": 0},
            {"type": "pointerUp", "button": 0}
        ]
    }]});
    driver.command("POST", "/actions", Some(actions));
    driver.command("DELETE", "/actions", None);
}

/// Plays a whole game through the page; at the given person's moves, takes a hint, a
/// takeback, reloads the page or restarts the server.
fn play_game(
    driver: &Driver,
    server: &mut Server,
    variant: &str,
    name: &str,
    seed: u64,
    restart_at: Option<usize>,
    done: &mut BTreeSet<&'static str>,
) -> Value {
    let created = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": variant, "human": "attackers", "level": 0})),
    );
    let id = created["id"].as_str().expect("id").to_owned();
    open_as_player(driver, server, &id);
    let mut oracle = Oracle::new(created["rules"].as_str().expect("rules"));
    let mut choices = Choices(seed);
    let mut person_moves = 0;
    // Whether the last move was clicked with the page scrolled to its top.
    let mut clicked_at_top = false;
    loop {
        driver.wait("the person's turn or the end", |p| {
            p["turn"] == json!("person") || p["turn"] == json!("over")
        });
        if clicked_at_top {
            // The page stays where the person left it while the moves are shown: on a phone the
            // move list is below the board, and keeping its last move in view must scroll the
            // list, not the page (the board would slide out of sight at every move).
            assert_eq!(
                driver.run("return window.scrollY"),
                json!(0),
                "the page scrolled by itself after a move"
            );
            // ... and the list shows its last move.
            let shown = driver.run(
                "const list = document.getElementById('move-list'); \
                 const item = list.querySelector('.current'); \
                 if (!item) return true; \
                 const box = list.getBoundingClientRect(), at = item.getBoundingClientRect(); \
                 return at.top >= box.top - 1 && at.bottom <= box.bottom + 1;",
            );
            assert_eq!(shown, json!(true), "the move list shows the last move");
        }
        let state = check(driver, server, &id, &mut oracle);
        if state["finished"] == json!(true) {
            let page = driver.page();
            assert_eq!(page["turn"], json!("over"));
            let text = page["status"].as_str().unwrap_or_default();
            assert!(
                text.contains("win") || text.contains("Draw"),
                "the end is explained in words: {text}"
            );
            driver.screenshot(&format!("{name}-end.png"));
            return state;
        }
        assert!(oracle.ply() < 600, "the game does not end");
        let legal = served_moves(&state);
        assert!(!legal.is_empty());
        match person_moves {
            1 => {
                done.insert("illegal drop and move list");
                // An illegal drop: refused with the rule's reason, nothing changes.
                let (from, _) = &legal[0];
                let targets: BTreeSet<&str> = legal
                    .iter()
                    .filter(|(f, _)| f == from)
                    .map(|(_, t)| t.as_str())
                    .collect();
                let size = state["size"].as_u64().expect("size") as u8;
                let cells = state["cells"].as_str().expect("cells").as_bytes();
                let wrong = (0..size)
                    .flat_map(|y| (0..size).map(move |x| (x, y)))
                    .find(|&(x, y)| {
                        let name = format!("{}{}", (b'a' + x) as char, y + 1);
                        cells[usize::from(y) * usize::from(size) + usize::from(x)] == b'.'
                            && !targets.contains(name.as_str())
                    })
                    .map(|(x, y)| format!("{}{}", (b'a' + x) as char, y + 1))
                    .expect("an empty square that is no target");
                click_move(driver, from, &wrong);
                let page = driver.wait("the reason", |p| {
                    !p["reason"].as_str().unwrap_or_default().is_empty()
                });
                // The rule's refusal, in the page's words for the library's reason.
                let reason = page["reason"].as_str().unwrap_or_default();
                assert!(
                    reason.starts_with("Not allowed: ") && reason.len() > 30,
                    "{page}"
                );
                check(driver, server, &id, &mut oracle);
                // The move list: an earlier position is shown, then the live one again.
                driver.click("#move-list button[data-ply=\"1\"]");
                let earlier = driver.wait("the first position", |p| p["ply"] == json!(1));
                let mut first = Oracle::new(state["rules"].as_str().expect("rules"));
                first.play(state["moves"][0]["move"].as_str().expect("a first move"));
                let shown: BTreeSet<String> = earlier["pieces"]
                    .as_array()
                    .expect("pieces")
                    .iter()
                    .map(|p| p.as_str().unwrap_or_default().to_owned())
                    .collect();
                assert_eq!(shown, first.view().0, "the position after the first move");
                driver.click("#live");
                driver.wait("the live position", |p| p["ply"] == p["live"]);
            }
            2 => {
                done.insert("hint");
                driver.click("#hint");
                let page = driver.wait("the hint's arrow", |p| !p["arrow"].is_null());
                let arrow = page["arrow"].as_str().unwrap_or_default().to_owned();
                assert!(
                    legal.iter().any(|(f, t)| format!("{f}-{t}") == arrow),
                    "the hint {arrow} is a legal move"
                );
                driver.screenshot(&format!("{name}-hint.png"));
            }
            3 => {
                done.insert("takeback");
                let before = oracle.ply();
                driver.click("#takeback");
                driver.wait("the takeback", |p| {
                    p["live"] == json!(before - 2) && p["turn"] == json!("person")
                });
                oracle.undo();
                oracle.undo();
                check(driver, server, &id, &mut oracle);
                person_moves += 1;
                continue;
            }
            5 => {
                done.insert("reload");
                driver.refresh();
                driver.wait("the reloaded page", |p| p["live"] == json!(oracle.ply()));
                check(driver, server, &id, &mut oracle);
            }
            n if Some(n) == restart_at => {
                done.insert("restart");
                let listen = server.address.clone();
                server.kill();
                // The page notices by itself (its event stream broke) and says so...
                let cut = driver.wait("the page to say it reconnects", |p| {
                    p["status"]
                        .as_str()
                        .unwrap_or_default()
                        .contains("reconnecting")
                });
                assert_eq!(cut["live"], json!(oracle.ply()), "{cut}");
                let secrets = std::mem::take(&mut *server.secrets.lock().expect("secrets"));
                *server = Server::start(&listen, &server.db.clone(), &["--rate", "0"]);
                *server.secrets.lock().expect("secrets") = secrets;
                // ... and comes back without a reload, at the same position, and plays on.
                driver.wait("the page to reconnect by itself", |p| {
                    !p["status"]
                        .as_str()
                        .unwrap_or_default()
                        .contains("reconnecting")
                        && p["turn"] == json!("person")
                });
                check(driver, server, &id, &mut oracle);
            }
            _ => {}
        }
        // Prefer captures, so that the game ends; otherwise any legal move.
        let best = legal
            .iter()
            .map(|(f, t)| oracle.captures(&format!("{f}-{t}")))
            .max()
            .unwrap_or(0);
        let candidates: Vec<&(String, String)> = legal
            .iter()
            .filter(|(f, t)| oracle.captures(&format!("{f}-{t}")) == best)
            .collect();
        let (from, to) = candidates[choices.pick(candidates.len())].clone();
        let before = oracle.ply();
        if person_moves == 4 {
            done.insert("drag");
            drag_move(driver, &from, &to);
        } else {
            driver.run("window.scrollTo(0, 0)");
            click_move(driver, &from, &to);
        }
        clicked_at_top = person_moves != 4;
        driver.wait("the move to be played", |p| {
            p["live"].as_u64().unwrap_or(0) > before as u64
        });
        person_moves += 1;
    }
}

/// Opens game `id` in the page as the player who created it through the API: the page keeps
/// its seat's secret in localStorage (as it does for a game made on the page), then loads.
fn open_as_player(driver: &Driver, server: &Server, id: &str) {
    driver.goto(&server.url("/"));
    let secret = server
        .secret_for(&format!("/api/games/{id}"))
        .expect("the game's secret");
    driver.run(&format!(
        "localStorage.setItem('tafl-secrets', JSON.stringify({{ {id:?}: {secret:?} }})); return 1;"
    ));
    driver.goto(&server.url(&format!("/g/{id}")));
}

fn browser_present() -> bool {
    Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

#[test]
#[ignore = "needs chromium and chromedriver: .ci/run installs them and runs it with --ignored"]
fn a_person_plays_whole_games_in_chromium_and_the_page_shows_the_librarys_positions() {
    assert!(
        browser_present(),
        "the browser test needs Debian's chromium and chromedriver: \
         apt-get update && apt-get install -y chromium chromium-driver"
    );
    let dir = scratch("browser");
    let mut server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let driver = Driver::start(free_port());

    // What each game did besides moves: a short game may end before all of it, the two together
    // must not.
    let mut done = BTreeSet::new();
    let tablut = play_game(
        &driver,
        &mut server,
        "tablut",
        "tablut",
        0x9e37_79b9_7f4a_7c15,
        Some(6),
        &mut done,
    );
    assert_eq!(tablut["size"], json!(9));
    // The 13x13 game on a phone-wide window: the squares are small, the panel below the board.
    driver.size(390, 844);
    let thirteen = play_game(
        &driver,
        &mut server,
        "hnefatafl-org-copenhagen-13",
        "copenhagen-13",
        0x2545_f491_4f6c_dd1d,
        Some(7),
        &mut done,
    );
    assert_eq!(
        done.into_iter().collect::<Vec<_>>(),
        [
            "drag",
            "hint",
            "illegal drop and move list",
            "reload",
            "restart",
            "takeback"
        ],
        "steps done in the two games"
    );
    assert_eq!(thirteen["size"], json!(13));
    // A third board size, Copenhagen 11x11 (corner escape), on the phone-wide window too.
    let eleven = play_game(
        &driver,
        &mut server,
        "copenhagen",
        "copenhagen-11",
        0x6a09_e667_f3bc_c908,
        None,
        &mut BTreeSet::new(),
    );
    assert_eq!(eleven["size"], json!(11));
    driver.size(1280, 900);

    spectate(&driver, &server);
    invite(&driver, &server);
    screenshots(&driver, &server);
}

/// Playing a friend: the creator's board shows the invitation; another browser (here: the
/// same one with none of the creator's secrets) opening it takes the seat, keeps its secret
/// and moves; a second taker watches, told why.
fn invite(driver: &Driver, server: &Server) {
    let created = server.ok(
        "POST",
        "/api/games",
        Some(
            &json!({"variant": "tablut", "human": "defenders", "opponent": "open",
                     "days_per_move": 3}),
        ),
    );
    let id = created["id"].as_str().expect("id").to_owned();
    open_as_player(driver, server, &id);
    driver.wait("the creator's page", |p| p["live"] == json!(0));
    let deadline =
        "const d = document.getElementById('deadline'); return d.hidden ? null : d.textContent;";
    assert_eq!(
        driver.run(deadline),
        Value::Null,
        "no deadline while the seat is open"
    );
    let link = driver.run(
        "return document.getElementById('invite').hidden ? null \
         : document.getElementById('invite-link').value;",
    );
    let link = link
        .as_str()
        .expect("the creator sees the invitation")
        .to_owned();
    assert!(link.ends_with(&format!("/g/{id}?join")), "{link}");
    // The friend's browser: no secret of this game.
    driver.run("localStorage.removeItem('tafl-secrets'); return 1;");
    driver.goto(&link);
    let page = driver.wait("the friend's seat", |p| p["turn"] == json!("person"));
    assert_eq!(page["live"], json!(0));
    // A correspondence game: the side to move's deadline as a date and time, 3 days ahead.
    let shown = driver.run(deadline);
    let shown = shown.as_str().expect("the deadline shows");
    let year = (2026..2100).find(|y| shown.contains(&y.to_string()));
    assert!(
        year.is_some() && shown.contains("must move by") && shown.contains('3'),
        "{shown}"
    );
    let kept = driver.run(&format!(
        "return JSON.parse(localStorage.getItem('tafl-secrets') || '{{}}')[{id:?}] || null;"
    ));
    let friend = kept.as_str().expect("the friend's secret kept").to_owned();
    assert_eq!(
        driver.run("return window.location.pathname + window.location.search;"),
        json!(format!("/g/{id}"))
    );
    // The friend moves from the page (typed), and the server has it.
    let state = server.ok("GET", &format!("/api/games/{id}"), None);
    let (from, to) = served_moves(&state)[0].clone();
    driver.run(&format!(
        "document.getElementById('move-input').value = '{from}-{to}'; \
         document.getElementById('text-move').requestSubmit(); return 1;"
    ));
    driver.wait("the friend's move", |p| p["live"] == json!(1));
    let stored = server
        .call_as("GET", &format!("/api/games/{id}"), None, Some(&friend))
        .1;
    assert_eq!(stored["ply"], json!(1));
    assert_eq!(stored["you"], json!(["attackers"]));
    // A second taker: the seat is held; the page watches and says why.
    driver.run("localStorage.removeItem('tafl-secrets'); return 1;");
    driver.goto(&link);
    let page = driver.wait("the second taker's page", |p| {
        p["turn"] == json!("watching") && p["reason"].as_str().is_some_and(|r| !r.is_empty())
    });
    assert!(
        page["reason"]
            .as_str()
            .unwrap()
            .contains("already been taken"),
        "{page}"
    );
    assert_eq!(
        driver.run("return document.getElementById('reason').dataset.kind;"),
        json!("seat")
    );
    // The game over (the creator resigns), the friend's page asks the engine for a hint.
    server.ok("POST", &format!("/api/games/{id}/resign"), None);
    driver.run(&format!(
        "localStorage.setItem('tafl-secrets', JSON.stringify({{ {id:?}: {friend:?} }})); return 1;"
    ));
    driver.goto(&server.url(&format!("/g/{id}")));
    driver.wait("the finished game", |p| p["turn"] == json!("over"));
    assert_eq!(
        driver.run("return [document.getElementById('hint').hidden, document.getElementById('analyse').hidden];"),
        json!([false, false]),
        "hints and the three best lines are open after a game between people"
    );
    driver.click("#hint");
    let page = driver.wait("the hint's arrow", |p| !p["arrow"].is_null());
    let arrow = page["arrow"].as_str().unwrap_or_default();
    assert!(
        served_move_texts(&stored).contains(arrow),
        "the hint is a legal move of the last position: {arrow}"
    );
}

/// A spectator: a game between two people, played through the API with their secrets, opened
/// in the page without either (the page holds no seat of it). The page says it watches, lets
/// nothing be moved, and follows every move live, showing the library's position after each.
fn spectate(driver: &Driver, server: &Server) {
    let created = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "attackers", "opponent": "open"})),
    );
    let id = created["id"].as_str().expect("id").to_owned();
    let host = created["secret"].as_str().expect("secret").to_owned();
    let (_, joined) = server.call_as("POST", &format!("/api/games/{id}/join"), None, None);
    let guest = joined["secret"]
        .as_str()
        .expect("the guest's secret")
        .to_owned();
    driver.goto(&server.url(&format!("/g/{id}")));
    let page = driver.wait("the spectator's page", |p| p["live"] == json!(0));
    assert_eq!(
        page["turn"],
        json!("watching"),
        "a spectator does not move: {page}"
    );
    assert!(
        page["status"]
            .as_str()
            .unwrap_or_default()
            .contains("watching"),
        "{page}"
    );
    assert_eq!(
        driver.run("return document.body.dataset.watching;"),
        json!("1")
    );
    let mut oracle = Oracle::new(created["rules"].as_str().expect("rules"));
    let mut choices = Choices(0x0bad_cafe_1234_5678);
    for ply in 0..12 {
        let state = server.ok("GET", &format!("/api/games/{id}"), None);
        let legal: Vec<String> = served_move_texts(&state).into_iter().collect();
        if legal.is_empty() {
            break;
        }
        let secret = if ply % 2 == 0 { &host } else { &guest };
        let (status, answer) = server.call_as(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": legal[choices.pick(legal.len())]})),
            Some(secret),
        );
        assert_eq!(status, 200, "{answer}");
        // The page shows it with nobody reloading: the library's position.
        check(driver, server, &id, &mut oracle);
        assert_eq!(driver.page()["turn"], json!("watching"));
    }
    driver.screenshot("spectator.png");
}

/// Screenshots for docs/web.md: 9x9, 11x11, 19x19 mid-game, the Arabic page, a phone.
fn screenshots(driver: &Driver, server: &Server) {
    let game = |request: Value, moves: &[&str]| {
        let created = server.ok("POST", "/api/games", Some(&request));
        let id = created["id"].as_str().expect("id").to_owned();
        for m in moves {
            server.ok(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&json!({"move": m})),
            );
        }
        id
    };
    let nineteen = format!(
        "dim:19 name:Alea_Evangelii_like esc:c atkf:y start:/{}/",
        nineteen_start()
    );
    let shots: [(&str, Value, &[&str]); 3] = [
        (
            "tablut-9x9.png",
            json!({"variant": "tablut", "mode": "analysis"}),
            &["e2-h2", "e3-h3", "a4-c4"],
        ),
        (
            "copenhagen-11x11.png",
            json!({"variant": "copenhagen", "mode": "analysis"}),
            &["d1-d3", "f4-c4", "k4-j4"],
        ),
        (
            "custom-19x19.png",
            json!({"rules": nineteen, "mode": "analysis"}),
            &[],
        ),
    ];
    for (name, request, moves) in shots {
        let id = game(request, moves);
        open_as_player(driver, server, &id);
        driver.wait("the board", |p| p["live"] == json!(moves.len()));
        if name.starts_with("copenhagen") {
            // The analysis board's three best lines, each a legal first move.
            driver.click("#analyse");
            let deadline = Instant::now() + Duration::from_secs(30);
            while driver.run("return document.querySelectorAll('#lines li').length;") != json!(3) {
                assert!(Instant::now() < deadline, "no three lines");
                std::thread::sleep(Duration::from_millis(50));
            }
            let state = server.ok("GET", &format!("/api/games/{id}"), None);
            let lines = driver.run(
                "return [...document.querySelectorAll('#lines li')].map(li => li.textContent);",
            );
            for line in lines.as_array().expect("lines") {
                let first = line
                    .as_str()
                    .unwrap_or_default()
                    .split(' ')
                    .nth(2)
                    .unwrap_or_default();
                let (from, to) = first.split_once('-').expect("a move");
                assert!(
                    state["legal"][from]
                        .as_array()
                        .is_some_and(|t| t.contains(&json!(to))),
                    "{line} does not start with a legal move"
                );
            }
        }
        driver.screenshot(name);
    }
    let id = game(
        json!({"variant": "tablut", "human": "defenders", "level": 0,
               "clock_seconds": 300, "increment_seconds": 3}),
        &[],
    );
    open_as_player(driver, server, &id);
    driver.wait("the engine's first move", |p| p["turn"] == json!("person"));
    driver.run("const s = document.getElementById('lang'); s.value = 'ar'; s.dispatchEvent(new Event('change'));");
    let dir = driver.run("return document.documentElement.dir;");
    assert_eq!(dir, json!("rtl"));
    // The clocks: shown, the person's running after the engine's move.
    let clocks = driver.run(
        "return [...document.querySelectorAll('#clocks .clock')].map(c => [c.dataset.side, c.classList.contains('running'), c.querySelector('b').textContent]);",
    );
    assert_eq!(clocks[1][0], json!("defenders"));
    assert_eq!(clocks[1][1], json!(true), "{clocks}");
    let shown = clocks[1][2].as_str().unwrap_or_default();
    assert!(
        shown.starts_with("5:") || shown.starts_with("4:5"),
        "{clocks}"
    );
    driver.screenshot("arabic.png");
    // The choice is remembered.
    driver.refresh();
    driver.wait("the reloaded page", |p| p["turn"] == json!("person"));
    assert_eq!(
        driver.run("return document.documentElement.lang;"),
        json!("ar")
    );
    driver.size(390, 844);
    driver.screenshot("arabic-phone.png");
    driver.run("const s = document.getElementById('lang'); s.value = 'en'; s.dispatchEvent(new Event('change'));");
    driver.screenshot("phone.png");
    driver.size(1280, 900);
    // Flip: a1 goes from the left to the right of b1, and back.
    let a1_right_of_b1 = || {
        driver.run(
            "const x = s => Number(document.querySelector(`#board rect[data-square=\"${s}\"]`).getAttribute('x'));
             return x('a1') > x('b1');",
        )
    };
    assert_eq!(a1_right_of_b1(), json!(false));
    driver.click("#flip");
    assert_eq!(a1_right_of_b1(), json!(true));
    driver.click("#flip");
    assert_eq!(a1_right_of_b1(), json!(false));
    // Resign, after the page asks: the game is over, in words.
    driver.click("#resign");
    driver.command("POST", "/alert/accept", Some(json!({})));
    let page = driver.wait("the resignation", |p| p["turn"] == json!("over"));
    assert!(
        page["status"]
            .as_str()
            .unwrap_or_default()
            .contains("resigned"),
        "{page}"
    );
    assert_eq!(
        server.ok("GET", &format!("/api/games/{id}"), None)["resigned"],
        json!("defenders")
    );
    // The finished game's review: a graph under the move list with a point for every position
    // once the server has evaluated them all; clicking the first point shows the start.
    let positions = page["live"].as_u64().unwrap() + 1;
    let deadline = Instant::now() + Duration::from_secs(120);
    while driver.run("return document.querySelectorAll('#review-graph circle.point').length;")
        != json!(positions)
    {
        assert!(Instant::now() < deadline, "the review graph was not drawn");
        std::thread::sleep(Duration::from_millis(200));
    }
    driver.screenshot("review-graph.png");
    driver.click("#review-graph circle[data-ply=\"0\"]");
    driver.wait("the start position from the graph", |p| {
        p["ply"] == json!(0)
    });
    // "My games" on the start page lists it (this browser holds its seat), with its result;
    // a click resumes it.
    driver.goto(&server.url("/"));
    let item = format!("#my-games-list li[data-id=\"{id}\"]");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let shown = driver.run(&format!(
            "const li = document.querySelector('{item}');
             return li ? [li.dataset.turn, li.textContent] : null;"
        ));
        if !shown.is_null() {
            assert_eq!(shown[0], json!("over"), "{shown}");
            assert!(shown[1].as_str().unwrap().contains("resigned"), "{shown}");
            break;
        }
        assert!(Instant::now() < deadline, "my games does not list {id}");
        std::thread::sleep(Duration::from_millis(100));
    }
    driver.click(&format!("{item} a"));
    driver.wait("the game resumed from my games", |p| {
        p["turn"] == json!("over") && p["live"] == json!(positions - 1)
    });
}

/// A 19x19 start: attackers along the edges' middles, defenders in a diamond round the king.
fn nineteen_start() -> String {
    let mut rows = vec![vec!['.'; 19]; 19];
    for i in 6..13 {
        for (x, y) in [(i, 0), (i, 18), (0, i), (18, i)] {
            rows[y][x] = 't';
        }
    }
    for (x, y) in [(9, 1), (9, 17), (1, 9), (17, 9)] {
        rows[y][x] = 't';
    }
    for d in 1..4 {
        for (x, y) in [(9 + d, 9), (9 - d, 9), (9, 9 + d), (9, 9 - d)] {
            rows[y][x] = 'T';
        }
    }
    for (x, y) in [(8, 8), (10, 10), (8, 10), (10, 8)] {
        rows[y][x] = 'T';
    }
    rows[9][9] = 'K';
    rows.iter()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect::<Vec<_>>()
        .join("/")
}
