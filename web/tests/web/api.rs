//! The JSON API over HTTP against the real binary: every endpoint, every error, games played
//! through it checked move for move against the library, and recovery after `kill -9`.

use crate::common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};

use common::{Choices, EventStream, Server, Sse, scratch, served_move_texts};
use serde_json::{Value, json};
use tafl_engine::record::GameRecord;
use tafl_engine::{AnyVariant, Game, Grid, Move, position_string};

/// The library's game beside the server's, on either grid.
enum Oracle {
    Narrow(Game),
    Wide(Game<tafl_engine::Wide>),
}

impl Oracle {
    fn new(rules: &str, start: Option<&str>) -> Oracle {
        fn begin<B: Grid>(v: &tafl_engine::Variant<B>, start: Option<&str>) -> Game<B> {
            match start {
                None => Game::new(v),
                Some(text) => Game::from_position(
                    position_string::parse(text, v.rules()).expect("the start reads"),
                ),
            }
        }
        match rules.parse::<AnyVariant>().expect("rules") {
            AnyVariant::Narrow(v) => Oracle::Narrow(begin(&v, start)),
            AnyVariant::Wide(v) => Oracle::Wide(begin(&v, start)),
        }
    }

    fn play(&mut self, text: &str) {
        fn go<B: Grid>(game: &mut Game<B>, text: &str) {
            let m: Move<B> = text.parse().expect("a move");
            game.play(m).expect("the library plays the server's move");
        }
        match self {
            Oracle::Narrow(g) => go(g, text),
            Oracle::Wide(g) => go(g, text),
        }
    }

    /// Position string, legal moves, result, captures of the last move.
    fn view(&self) -> (String, BTreeSet<String>, Option<String>, Vec<String>) {
        fn of<B: Grid>(game: &Game<B>) -> (String, BTreeSet<String>, Option<String>, Vec<String>) {
            let legal = if game.outcome().is_some() {
                BTreeSet::new()
            } else {
                game.legal_moves().iter().map(|m| m.to_string()).collect()
            };
            let captures = game
                .last_move()
                .map(|(_, captured)| captured.into_iter().map(|s| s.to_string()).collect())
                .unwrap_or_default();
            (
                position_string::write(game.position()),
                legal,
                game.outcome().map(|o| o.to_string()),
                captures,
            )
        }
        match self {
            Oracle::Narrow(g) => of(g),
            Oracle::Wide(g) => of(g),
        }
    }
}

/// The server's state equals the library's game.
fn assert_same(state: &Value, oracle: &Oracle) {
    let (position, legal, result, captures) = oracle.view();
    assert_eq!(state["position"], json!(position));
    assert_eq!(served_move_texts(state), legal);
    assert_eq!(state["result"]["text"].as_str().map(str::to_owned), result);
    let served_captures: Vec<String> = state["moves"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| {
            m["captures"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| s.as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(served_captures, captures);
}

fn start(name: &str, extra: &[&str]) -> Server {
    let dir = scratch(name);
    Server::start("127.0.0.1:0", &dir.join("games.sqlite"), extra)
}

/// Reads a think stream to its last event: (event name, data) of every event.
fn stream(server: &Server, path: &str) -> Vec<(String, Value)> {
    let response = server.get(path).call().expect("the stream opens");
    let mut events = Vec::new();
    let mut name = String::new();
    for line in BufReader::new(response.into_reader()).lines() {
        let line = line.expect("a line");
        if let Some(rest) = line.strip_prefix("event: ") {
            name = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("data: ") {
            let data: Value = serde_json::from_str(rest).expect("JSON data");
            let last = matches!(name.as_str(), "state" | "hint" | "analysis" | "failed");
            events.push((name.clone(), data));
            if last {
                break;
            }
        }
    }
    events
}

#[test]
fn the_page_and_its_assets_are_served_and_nothing_else() {
    let server = start("api-assets", &[]);
    for path in [
        "/",
        "/g/abc",
        "/assets/app.js",
        "/assets/board.js",
        "/assets/style.css",
    ] {
        let response = ureq::get(&server.url(path)).call().expect(path);
        assert_eq!(response.status(), 200, "{path}");
    }
    let html = ureq::get(&server.url("/"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(html.contains("<script type=\"module\" src=\"/assets/app.js\">"));
    // The fonts: every one the style sheet names is served as woff2 (its magic `wOF2`), and
    // all of them together stay small (subsets of the page's scripts).
    let css = ureq::get(&server.url("/assets/style.css"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    let fonts: Vec<&str> = css
        .split("url(")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .collect();
    assert_eq!(
        fonts.len(),
        3,
        "Latin and Cyrillic, Thai, Arabic: {fonts:?}"
    );
    let mut total = 0;
    for path in fonts {
        let response = ureq::get(&server.url(path)).call().expect(path);
        assert_eq!(
            response.header("content-type"),
            Some("font/woff2"),
            "{path}"
        );
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut response.into_reader(), &mut bytes).unwrap();
        assert_eq!(&bytes[..4], b"wOF2", "{path} is a woff2 file");
        total += bytes.len();
    }
    assert!(total < 150_000, "the fonts weigh {total} bytes");
    for path in [
        "/assets/../Cargo.toml",
        "/assets/..%2f..%2fCargo.toml",
        "/assets/%2e%2e/%2e%2e/Cargo.toml",
        "/etc/passwd",
        "/assets/",
        "/assets/index.html.bak",
        "/web/assets/app.js",
        "/Cargo.toml",
    ] {
        let (status, _) = server.call("GET", path, None);
        assert_eq!(status, 404, "{path} must not be served");
    }
}

#[test]
fn variants_and_levels_list_every_built_in_game() {
    let server = start("variants", &[]);
    let variants = server.ok("GET", "/api/variants", None);
    let keys: Vec<&str> = variants["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, AnyVariant::names().collect::<Vec<_>>());
    // One name per game: a player choosing by name plays the rules described.
    let names: BTreeSet<&str> = variants["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), keys.len(), "every name is unique: {names:?}");
    for variant in variants["variants"].as_array().unwrap() {
        assert!(variant["summary"].as_str().unwrap().len() > 40, "{variant}");
        assert!(
            matches!(variant["escape"].as_str(), Some("edge" | "corner")),
            "{variant}"
        );
        assert!(variant["castle"].is_boolean(), "{variant}");
        let game = AnyVariant::by_name(variant["key"].as_str().unwrap()).unwrap();
        assert_eq!(variant["rules"], json!(game.to_string()));
        assert!(matches!(
            variant["first"].as_str(),
            Some("attackers" | "defenders")
        ));
        // Each one can be started.
        let (status, state) = server.call(
            "POST",
            "/api/games",
            Some(&json!({"variant": variant["key"], "mode": "analysis"})),
        );
        assert_eq!(status, 201, "{state}");
        assert_eq!(state["size"], variant["size"]);
    }
    let levels = server.ok("GET", "/api/levels", None);
    let millis: Vec<u64> = levels["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["millis"].as_u64().unwrap())
        .collect();
    assert!(millis.windows(2).all(|w| w[0] < w[1]));
    assert!(millis[0] <= 100 && *millis.last().unwrap() >= 10_000);
    let status = server.ok("GET", "/api/status", None);
    assert!(status["search_slots"].as_u64().unwrap() >= 1);
}

#[test]
fn games_played_through_the_api_equal_the_librarys_move_for_move() {
    let server = start("replay", &["--rate", "0"]);
    let games = [
        json!({"variant": "tablut", "mode": "analysis"}),
        json!({"variant": "copenhagen", "mode": "analysis"}),
        json!({"variant": "brandub", "mode": "analysis"}),
        json!({"variant": "hnefatafl-org-copenhagen-13", "mode": "analysis"}),
        json!({"rules": "dim:5 name:Tiny start:/1ttt1/5/t1K1t/5/1ttt1/", "mode": "analysis"}),
        json!({"variant": "tablut", "mode": "analysis",
               "position": "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/ d"}),
    ];
    let mut choices = Choices(0x1234_5678_9abc_def1);
    for request in games {
        let state = server.ok("POST", "/api/games", Some(&request));
        let id = state["id"].as_str().unwrap().to_owned();
        let mut oracle = Oracle::new(
            state["rules"].as_str().unwrap(),
            request["position"].as_str(),
        );
        assert_same(&state, &oracle);
        for _ in 0..120 {
            let state = server.ok("GET", &format!("/api/games/{id}"), None);
            let legal: Vec<String> = served_move_texts(&state).into_iter().collect();
            if legal.is_empty() {
                assert!(state["result"].is_object());
                break;
            }
            let text = &legal[choices.pick(legal.len())];
            let ply = state["ply"].as_u64().unwrap();
            let next = server.ok(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&json!({"move": text, "ply": ply})),
            );
            oracle.play(text);
            assert_same(&next, &oracle);
            assert_eq!(next["ply"].as_u64().unwrap(), ply + 1);
        }
        // The record downloaded is the same game.
        let record = ureq::get(&server.url(&format!("/api/games/{id}/otg")))
            .call()
            .unwrap()
            .into_string()
            .unwrap();
        match &oracle {
            Oracle::Narrow(game) => {
                let read: GameRecord = record.parse().expect("the record reads");
                assert_eq!(&read.game, game);
            }
            Oracle::Wide(game) => {
                let read: GameRecord<tafl_engine::Wide> = record.parse().expect("the record reads");
                assert_eq!(&read.game, game);
            }
        }
        // And a game made from it starts where it ended.
        let copy = server.ok(
            "POST",
            "/api/games",
            Some(&json!({"otg": record, "mode": "analysis"})),
        );
        assert_eq!(
            copy["position"],
            server.ok("GET", &format!("/api/games/{id}"), None)["position"]
        );
    }
}

#[test]
fn the_engine_streams_its_thinking_and_plays_hints_and_takebacks() {
    let server = start("engine", &["--rate", "0"]);
    let state = server.ok(
        "POST",
        "/api/games",
        // 3 s a move: the engine thinks while this test looks.
        Some(&json!({"variant": "tablut", "human": "defenders", "level": 3})),
    );
    let id = state["id"].as_str().unwrap().to_owned();
    assert_eq!(state["engine_to_move"], json!(true));
    // The engine thinks by itself, no page asking: every page sees it through the events.
    let mut watch = EventStream::open(&server, &format!("/api/games/{id}/events"), None);
    let first = watch.next().unwrap();
    assert_eq!((first.name.as_str(), first.id), ("state", Some(0)));
    assert_eq!(first.data["state"]["ply"], json!(0));
    // The person cannot move for the engine, nor ask it for a hint now.
    let (status, body) = server.call(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": "e2-h2"})),
    );
    assert_eq!(
        (status, body["error"].as_str()),
        (409, Some("not_your_turn"))
    );
    let thinking = watch.until(|e| e.name == "info");
    let info = &thinking.last().unwrap().data;
    assert!((0.0..=100.0).contains(&info["win"].as_f64().unwrap()));
    assert!(!info["pv"].as_array().unwrap().is_empty());
    assert!(
        thinking.iter().all(|e| e.id.is_none()),
        "thinking is not numbered"
    );
    // A think stream for the move follows that search; "move now" ends it at once.
    let events = std::thread::scope(|scope| {
        let follower = scope.spawn(|| stream(&server, &format!("/api/games/{id}/think?for=move")));
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(
            server.ok("POST", &format!("/api/games/{id}/stop"), None)["stopped"],
            json!(true)
        );
        follower.join().unwrap()
    });
    assert_eq!(events.last().unwrap().0, "state");
    let (_, last) = events.last().unwrap();
    // The spectator's stream has the move, numbered 1, with the state after it.
    let moved = watch.until(|e| e.name == "move");
    let moved = moved.last().unwrap();
    assert_eq!(moved.id, Some(1));
    assert_eq!(moved.data["by"], json!("engine"));
    assert_eq!(moved.data["state"], last["state"]);
    let mut oracle = Oracle::new(state["rules"].as_str().unwrap(), None);
    let engine_move = last["state"]["moves"][0]["move"]
        .as_str()
        .unwrap()
        .to_owned();
    oracle.play(&engine_move);
    assert_same(&last["state"], &oracle);
    assert_eq!(last["found"]["best"], json!(engine_move));
    // A hint is one of the legal moves, and changes nothing.
    let hint = stream(&server, &format!("/api/games/{id}/think?for=hint"));
    let (name, found) = hint.last().unwrap();
    assert_eq!(name, "hint");
    let best = found["best"].as_str().unwrap();
    let now = server.ok("GET", &format!("/api/games/{id}"), None);
    assert!(served_move_texts(&now).contains(best));
    assert_eq!(now["ply"], json!(1));
    // The person plays it; the engine answers; a takeback goes back to the person's turn.
    server.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": best})),
    );
    let answer = watch.until(|e| e.name == "move" && e.data["by"] == json!("engine"));
    assert_eq!(answer.last().unwrap().data["state"]["ply"], json!(3));
    assert_eq!(answer.last().unwrap().id, Some(3));
    let back = server.ok("POST", &format!("/api/games/{id}/takeback"), None);
    assert_eq!(back["ply"], json!(1));
    assert_eq!(back["to_move"], json!("defenders"));
    assert_same(&back, &oracle);
    // An analysis gives three lines, best first.
    let analysis = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "copenhagen", "mode": "analysis"})),
    );
    let aid = analysis["id"].as_str().unwrap();
    let lines = stream(&server, &format!("/api/games/{aid}/think?for=analysis"));
    let (name, found) = lines.last().unwrap();
    assert_eq!(name, "analysis");
    let lines = found["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    let firsts: BTreeSet<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
    assert_eq!(firsts.len(), 3, "three different first moves");
    assert!(
        lines
            .windows(2)
            .all(|w| w[0]["score"].as_i64() >= w[1]["score"].as_i64())
    );
    // Move now: nothing to stop when nothing runs.
    assert_eq!(
        server.ok("POST", &format!("/api/games/{id}/stop"), None)["stopped"],
        json!(false)
    );
    // Resign ends the game in words.
    let resigned = server.ok("POST", &format!("/api/games/{id}/resign"), None);
    assert_eq!(resigned["resigned"], json!("defenders"));
    assert_eq!(resigned["finished"], json!(true));
    assert_eq!(resigned["legal"], json!({}));
    let (status, _) = server.call(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": best})),
    );
    assert_eq!(status, 409);
}

#[test]
fn bad_requests_get_clear_errors_and_change_nothing() {
    let server = start("errors", &["--rate", "0"]);
    // Unknown games.
    for (method, path) in [
        ("GET", "/api/games/0123456789abcdef"),
        ("POST", "/api/games/0123456789abcdef/moves"),
        ("POST", "/api/games/0123456789abcdef/takeback"),
        ("GET", "/api/games/0123456789abcdef/think"),
        ("GET", "/api/games/0123456789abcdef/otg"),
        ("GET", "/api/games/..%2f..%2fetc/otg"),
        ("GET", "/api/nothing"),
    ] {
        let body = (method == "POST").then(|| json!({"move": "e2-e4"}));
        let (status, answer) = server.call(method, path, body.as_ref());
        assert_eq!(status, 404, "{method} {path}: {answer}");
        assert_eq!(answer["error"], json!("not_found"));
    }
    let mut state = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "mode": "analysis"})),
    );
    // The secret is in the creation answer only.
    state.as_object_mut().unwrap().remove("secret");
    let id = state["id"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}/moves");
    // Illegal moves: the rule's reason, the game unchanged.
    // Beside the words, the reason as data for a page in another language.
    for (text, reason, data) in [
        (
            "e1-e3",
            "blocked",
            json!({"code": "blocked", "square": "e2"}),
        ),
        (
            "a1-a2",
            "no piece",
            json!({"code": "not_your_piece", "square": "a1", "side": "attackers"}),
        ),
        (
            "d1-e2",
            "rank or a file",
            json!({"code": "not_straight", "from": "d1", "to": "e2"}),
        ),
        ("e1-e1", "", Value::Null),
        ("z9-z10", "", Value::Null),
        (
            "hello",
            "not a move",
            json!({"code": "bad_notation", "text": "hello"}),
        ),
    ] {
        let (status, answer) = server.call("POST", &path, Some(&json!({"move": text})));
        assert_eq!(status, 422, "{text}: {answer}");
        assert_eq!(answer["error"], json!("illegal_move"));
        let message = answer["message"].as_str().unwrap();
        assert!(message.contains(reason), "{text}: {message}");
        assert!(answer["reason"]["code"].is_string(), "{text}: {answer}");
        if !data.is_null() {
            assert_eq!(answer["reason"], data, "{text}");
        }
        assert_eq!(server.ok("GET", &format!("/api/games/{id}"), None), state);
    }
    // A stale ply is refused.
    let (status, _) = server.call("POST", &path, Some(&json!({"move": "e2-h2", "ply": 4})));
    assert_eq!(status, 409);
    // Malformed JSON, wrong fields: 400.
    for body in [
        "{",
        "[1,2]",
        "{\"move\": 3}",
        "{\"mvoe\": \"e2-h2\"}",
        "\u{0}",
    ] {
        let result = ureq::post(&server.url(&path))
            .set("content-type", "application/json")
            .send_string(body);
        let status = match result {
            Ok(r) => r.status(),
            Err(ureq::Error::Status(code, _)) => code,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(status, 400, "{body:?}");
    }
    // A body over 64 KiB: 413.
    let big = format!("{{\"move\": \"{}\"}}", "x".repeat(70 * 1024));
    let status = match ureq::post(&server.url(&path))
        .set("content-type", "application/json")
        .send_string(&big)
    {
        Ok(r) => r.status(),
        Err(ureq::Error::Status(code, _)) => code,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(status, 413);
    assert_eq!(server.ok("GET", &format!("/api/games/{id}"), None), state);
    // Bad new games: 422 with the reason.
    for (request, code) in [
        (json!({"variant": "chess"}), "unknown_variant"),
        (json!({"rules": "dim:21 start:/21/"}), "bad_rules"),
        (json!({"rules": "dim:9 nonsense"}), "bad_rules"),
        (json!({"variant": "tablut", "human": "kings"}), "bad_side"),
        (json!({"variant": "tablut", "level": 99}), "bad_level"),
        (
            json!({"variant": "tablut", "position": "/9/ a"}),
            "bad_position",
        ),
        (json!({"otg": "[rules:dim:9]\n\n1. z1-z2"}), "bad_record"),
        (json!({"variant": "tablut", "mode": "blitz"}), "bad_mode"),
        // A name the page cannot show in a line (a 60 KB one made it 1.2 M px wide).
        (
            json!({"rules": format!("dim:9 name:{} esc:e {TABLUT_START}", "N".repeat(65))}),
            "bad_rules",
        ),
        (
            json!({"otg": format!("[rules:dim:9 name:{} {TABLUT_START}]\n\n", "N".repeat(65))}),
            "bad_record",
        ),
        // No king: the attackers would have won before the first move.
        (
            json!({"variant": "tablut", "position": "/3ttt3/4t4/4T4/t3T3t/ttTTTTTtt/t3T3t/4T4/4t4/3ttt3/ a"}),
            "bad_position",
        ),
        (
            json!({"rules": "dim:9 esc:e start:/3ttt3/4t4/4T4/t3T3t/ttTTTTTtt/t3T3t/4T4/4t4/3ttt3/"}),
            "bad_position",
        ),
        (
            json!({"otg": "[rules:dim:9 esc:e start:/3ttt3/4t4/4T4/t3T3t/ttTTTTTtt/t3T3t/4T4/4t4/3ttt3/]\n\n"}),
            "bad_record",
        ),
    ] {
        let (status, answer) = server.call("POST", "/api/games", Some(&request));
        assert_eq!(
            (status, answer["error"].as_str()),
            (422, Some(code)),
            "{request}: {answer}"
        );
        assert!(!answer["message"].as_str().unwrap().is_empty());
    }
    let (status, _) = server.call("GET", &format!("/api/games/{id}/think?for=dance"), None);
    assert_eq!(status, 422);
    // A name of 64 characters is still a name.
    let named = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"rules": format!("dim:9 name:{} esc:e {TABLUT_START}", "N".repeat(64))})),
    );
    assert_eq!(named["name"], json!("N".repeat(64)));
}

/// Tablut's start in a rules string.
const TABLUT_START: &str = "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

#[test]
fn a_client_sending_too_fast_gets_429() {
    let server = start("rate", &["--rate", "2", "--burst", "5"]);
    let state = server.ok("POST", "/api/games", Some(&json!({"variant": "tablut"})));
    let id = state["id"].as_str().unwrap().to_owned();
    let statuses: Vec<u16> = (0..20)
        .map(|_| server.call("GET", &format!("/api/games/{id}"), None).0)
        .collect();
    assert!(statuses[..5].iter().all(|&s| s == 200), "{statuses:?}");
    assert!(statuses.contains(&429), "{statuses:?}");
    let (status, answer) = server.call("GET", &format!("/api/games/{id}"), None);
    assert_eq!((status, answer["error"].as_str()), (429, Some("too_fast")));
    std::thread::sleep(std::time::Duration::from_millis(1200));
    assert_eq!(server.call("GET", &format!("/api/games/{id}"), None).0, 200);
}

#[test]
fn every_acknowledged_move_survives_kill_9_and_the_game_goes_on() {
    let dir = scratch("restart");
    let db = dir.join("games.sqlite");
    let mut server = Server::start("127.0.0.1:0", &db, &["--rate", "0"]);
    let mut ids = Vec::new();
    let mut choices = Choices(0xdead_beef_cafe_f00d);
    for variant in ["tablut", "copenhagen", "hnefatafl-org-copenhagen-13"] {
        let state = server.ok(
            "POST",
            "/api/games",
            Some(&json!({"variant": variant, "mode": "analysis"})),
        );
        let id = state["id"].as_str().unwrap().to_owned();
        for _ in 0..9 {
            let now = server.ok("GET", &format!("/api/games/{id}"), None);
            let legal: Vec<String> = served_move_texts(&now).into_iter().collect();
            if legal.is_empty() {
                break;
            }
            server.ok(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&json!({"move": legal[choices.pick(legal.len())]})),
            );
        }
        server.ok("POST", &format!("/api/games/{id}/takeback"), None);
        let acknowledged = server.ok("GET", &format!("/api/games/{id}"), None);
        ids.push((id, acknowledged));
    }
    let resigned = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "brandub", "human": "attackers"})),
    );
    let resigned_id = resigned["id"].as_str().unwrap().to_owned();
    server.ok("POST", &format!("/api/games/{resigned_id}/resign"), None);
    server.kill();
    let secrets = std::mem::take(&mut *server.secrets.lock().unwrap());
    let mut server = Server::start("127.0.0.1:0", &db, &["--rate", "0"]);
    *server.secrets.lock().unwrap() = secrets;
    for (id, acknowledged) in &ids {
        let after = server.ok("GET", &format!("/api/games/{id}"), None);
        assert_eq!(&after, acknowledged, "game {id} after kill -9");
        let legal: Vec<String> = served_move_texts(&after).into_iter().collect();
        server.ok(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": legal[0]})),
        );
    }
    let after = server.ok("GET", &format!("/api/games/{resigned_id}"), None);
    assert_eq!(after["resigned"], json!("attackers"));
    server.kill();
}

fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !ready() {
        assert!(
            std::time::Instant::now() < deadline,
            "waited too long for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn searches_wait_in_a_fair_queue_and_the_engine_plays_with_no_page_open() {
    let server = start("queue", &["--rate", "0", "--searches", "1"]);
    let slow = |variant: &str| {
        let state = server.ok(
            "POST",
            "/api/games",
            // The strongest level: 20 s a move, longer than this test waits.
            Some(&json!({"variant": variant, "human": "defenders", "level": 5})),
        );
        state["id"].as_str().unwrap().to_owned()
    };
    let status = |key: &str| server.ok("GET", "/api/status", None)[key].as_u64().unwrap();
    // The engine starts thinking when the game is made, no page asking.
    let first = slow("tablut");
    wait_for("the first search", || status("searches_running") == 1);
    let second = slow("copenhagen");
    wait_for("the second search to wait", || {
        status("searches_waiting") == 1
    });
    // A page opened now is told where the engine stands: running, or waiting first in line.
    let mut watch_first = EventStream::open(&server, &format!("/api/games/{first}/events"), None);
    let opened = watch_first.until(|e| e.name == "started");
    assert_eq!(opened[0].name, "state");
    let mut watch_second = EventStream::open(&server, &format!("/api/games/{second}/events"), None);
    let waiting = watch_second.until(|e| e.name == "queue");
    assert_eq!(waiting.last().unwrap().data["place"], json!(1));
    drop((watch_first, watch_second));
    // No page is open: the searches go on ("move now" plays the running one at once), and
    // each game gets its move.
    for id in [&first, &second] {
        wait_for("the search to run", || status("searches_running") == 1);
        std::thread::sleep(std::time::Duration::from_millis(300));
        let started = std::time::Instant::now();
        assert_eq!(
            server.ok("POST", &format!("/api/games/{id}/stop"), None)["stopped"],
            json!(true)
        );
        wait_for("the engine's move", || {
            server.ok("GET", &format!("/api/games/{id}"), None)["ply"] == json!(1)
        });
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
    wait_for("the queue to empty", || {
        status("searches_running") == 0 && status("searches_waiting") == 0
    });
}

#[test]
fn clocks_count_each_sides_time_survive_a_restart_and_end_the_game_on_time() {
    let dir = scratch("clock");
    let db = dir.join("games.sqlite");
    let server = Server::start("127.0.0.1:0", &db, &["--rate", "0"]);
    // A 2 s clock with 1 s a move: the person (the attackers, who move first) plays at once.
    let state = server.ok(
        "POST",
        "/api/games",
        Some(
            &json!({"variant": "tablut", "human": "attackers", "level": 0,
                     "clock_seconds": 2, "increment_seconds": 1}),
        ),
    );
    let id = state["id"].as_str().unwrap().to_owned();
    assert_eq!(state["clock"]["running"], json!("attackers"));
    assert_eq!(state["clock"]["defenders"], json!(2000));
    let moved = server.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": "e2-h2"})),
    );
    let attackers = moved["clock"]["attackers"].as_i64().unwrap();
    assert!(
        (2500..=3000).contains(&attackers),
        "2 s, less a moment, plus 1 s: {attackers}"
    );
    assert_eq!(moved["clock"]["running"], json!("defenders"));
    // The engine plays within its clock.
    // The engine answers by itself; its move is event 2 (the person's was 1).
    let events = EventStream::open(&server, &format!("/api/games/{id}/events"), Some(1))
        .until(|e| e.name == "move");
    let after = &events.last().unwrap().data["state"];
    assert_eq!(after["ply"], json!(2));
    let defenders = after["clock"]["defenders"].as_i64().unwrap();
    assert!((1000..=3000).contains(&defenders), "{defenders}");
    // The times taken are stored: after kill -9 the side not to move has the same time.
    let secrets = std::mem::take(&mut *server.secrets.lock().unwrap());
    drop(server);
    let server = Server::start("127.0.0.1:0", &db, &["--rate", "0"]);
    *server.secrets.lock().unwrap() = secrets;
    let back = server.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(back["clock"]["defenders"], json!(defenders));
    // The person does not move: after their time the game is lost on time, and a spectator
    // is told at once, nobody asking.
    let waiting = std::time::Instant::now();
    let flag = EventStream::open(&server, &format!("/api/games/{id}/events"), None)
        .until(|e| e.name == "flag");
    let flag = flag.last().unwrap();
    assert_eq!(flag.data["side"], json!("attackers"));
    assert_eq!(flag.data["state"]["result"]["reason"], json!("time"));
    let waited = waiting.elapsed().as_millis() as i64;
    let left = back["clock"]["attackers"].as_i64().unwrap();
    assert!(
        (left - 200..left + 1500).contains(&waited),
        "flagged after {waited} ms with {left} ms left"
    );
    let over = server.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(over["flagged"], json!("attackers"));
    assert_eq!(over["finished"], json!(true));
    assert_eq!(over["result"]["reason"], json!("time"));
    assert_eq!(over["result"]["winner"], json!("defenders"));
    assert_eq!(over["legal"], json!({}));
    // The record says how it ended, as OpenTafl's do: the result and the termination tags.
    let record = ureq::get(&server.url(&format!("/api/games/{id}/otg")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(record.contains("[result:-1]\n"), "{record}");
    assert!(
        record.contains("[termination:the attackers ran out of time]\n"),
        "{record}"
    );
    let read: GameRecord = record.parse().expect("the record reads");
    assert_eq!(read.game.moves().len(), 2);
    let (status, _) = server.call(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": "h2-h3"})),
    );
    assert_eq!(status, 409);
    // Bad clocks are refused.
    for request in [
        json!({"variant": "tablut", "clock_seconds": 0}),
        json!({"variant": "tablut", "clock_seconds": 100_000}),
        json!({"variant": "tablut", "clock_seconds": 60, "increment_seconds": 1000}),
        json!({"variant": "tablut", "mode": "analysis", "clock_seconds": 60}),
    ] {
        let (status, answer) = server.call("POST", "/api/games", Some(&request));
        assert_eq!(
            (status, answer["error"].as_str()),
            (422, Some("bad_clock")),
            "{request}"
        );
    }
}

/// A game as the database holds it, read apart from the server.
fn stored(server: &Server, id: &str) -> tafl_web::store::GameRow {
    common::database::stored(&server.db_arg, id)
}

#[test]
fn every_changing_request_needs_the_secret_of_the_seat_that_may_do_it() {
    let server = start("seats", &["--rate", "0"]);
    // Against the engine, which moves first; an analysis board; a game between two people.
    let engine = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "defenders", "level": 0})),
    );
    let analysis = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "mode": "analysis"})),
    );
    let people = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "attackers", "opponent": "open"})),
    );
    for (game, seats) in [
        (
            &engine,
            json!({"attackers": "engine", "defenders": "person"}),
        ),
        (
            &analysis,
            json!({"attackers": "person", "defenders": "person"}),
        ),
        (&people, json!({"attackers": "person", "defenders": "open"})),
    ] {
        let secret = game["secret"].as_str().unwrap();
        assert_eq!(secret.len(), 64, "256 bits in hex");
        assert_eq!(game["seats"], seats);
        assert_eq!(game["read_only"], json!(false));
        // The secret is given once and stored only as its hash.
        let id = game["id"].as_str().unwrap();
        let read = server
            .call_as("GET", &format!("/api/games/{id}"), None, None)
            .1;
        assert!(read.get("secret").is_none(), "{read}");
        let row = stored(&server, id);
        let hashes = [row.seats.attackers.hash, row.seats.defenders.hash];
        assert!(
            hashes
                .iter()
                .flatten()
                .all(|h| h.len() == 64 && h != secret)
        );
    }
    let id = |game: &Value| game["id"].as_str().unwrap().to_owned();
    let secret = |game: &Value| game["secret"].as_str().unwrap().to_owned();
    // The other seat of the game between people is taken once.
    let joined = server.ok("POST", &format!("/api/games/{}/join", id(&people)), None);
    assert_eq!(joined["side"], json!("defenders"));
    assert_eq!(joined["state"]["seats"]["defenders"], json!("person"));
    let guest = joined["secret"].as_str().unwrap().to_owned();
    let (status, again) = server.call_as(
        "POST",
        &format!("/api/games/{}/join", id(&people)),
        Some(&json!({"side": "defenders"})),
        None,
    );
    assert_eq!((status, again["error"].as_str()), (409, Some("seat_taken")));
    let (status, _) = server.call("POST", &format!("/api/games/{}/join", id(&engine)), None);
    assert_eq!(status, 409, "the engine's seat is not open");
    // The engine moves first in `engine`: awaited, so that "unchanged" below compares the game
    // with itself, not with the engine's move made meanwhile.
    wait_for("the engine's first move", || {
        server.ok("GET", &format!("/api/games/{}", id(&engine)), None)["ply"] == json!(1)
    });
    // Every changing request, with no secret, another game's, the other seat's, or a broken
    // header: 403, the reason in words, and the stored game unchanged.
    let changing = |game: &str| {
        [
            (
                "POST",
                format!("/api/games/{game}/moves"),
                Some(json!({"move": "e2-h2"})),
            ),
            (
                "POST",
                format!("/api/games/{game}/moves"),
                Some(json!({"move": "d1-d4"})),
            ),
            ("POST", format!("/api/games/{game}/takeback"), None),
            ("POST", format!("/api/games/{game}/resign"), None),
            ("POST", format!("/api/games/{game}/stop"), None),
            ("GET", format!("/api/games/{game}/think?for=move"), None),
            ("GET", format!("/api/games/{game}/think?for=hint"), None),
            ("GET", format!("/api/games/{game}/think?for=analysis"), None),
        ]
    };
    let cases: Vec<(String, Option<String>, &str)> = vec![
        (id(&engine), None, "no_secret"),
        (id(&engine), Some(secret(&analysis)), "wrong_secret"),
        (id(&analysis), None, "no_secret"),
        (id(&analysis), Some(secret(&people)), "wrong_secret"),
        (id(&people), None, "no_secret"),
        (id(&people), Some(secret(&engine)), "wrong_secret"),
        (id(&people), Some(guest.clone()), "not_your_seat"),
    ];
    for (game, sent, code) in &cases {
        let before = stored(&server, game);
        for (method, path, body) in changing(game) {
            // Stopping a search and asking for an analysis are any seated player's; the guest
            // may resign their own side (checked last).
            let theirs = ["stop", "analysis", "resign"];
            if *code == "not_your_seat" && theirs.iter().any(|word| path.contains(word)) {
                continue;
            }
            let (status, answer) = server.call_as(method, &path, body.as_ref(), sent.as_deref());
            if *code == "not_your_seat" && path.contains("think?for=move") {
                assert_eq!(status, 409, "{path}: the engine is not to move");
                continue;
            }
            if *code == "not_your_seat" && path.contains("think?for=hint") {
                // Between two people the engine hints to neither while the game is on.
                assert_eq!(answer["error"], json!("game_between_people"), "{path}");
                continue;
            }
            assert_eq!(status, 403, "{method} {path} with {sent:?}: {answer}");
            assert_eq!(answer["error"], json!(code), "{path}: {answer}");
            assert!(answer["message"].as_str().unwrap().len() > 10);
        }
        assert_eq!(stored(&server, game), before, "{game} unchanged");
    }
    let before = stored(&server, &id(&engine));
    let (status, answer) = ureq::post(&server.url(&format!("/api/games/{}/resign", id(&engine))))
        .set("authorization", "Basic dXNlcjpwYXNz")
        .call()
        .map_or_else(
            |e| match e {
                ureq::Error::Status(code, r) => (code, r.into_json::<Value>().unwrap()),
                e => panic!("{e}"),
            },
            |r| (r.status(), Value::Null),
        );
    assert_eq!(
        (status, answer["error"].as_str()),
        (403, Some("bad_secret"))
    );
    assert_eq!(stored(&server, &id(&engine)), before);
    // The seat's own secret may: the creator against the engine, the two people in turn.
    server.ok(
        "POST",
        &format!("/api/games/{}/moves", id(&analysis)),
        Some(&json!({"move": "e2-h2"})),
    );
    let path = format!("/api/games/{}/moves", id(&people));
    server.ok("POST", &path, Some(&json!({"move": "e2-h2"})));
    let (status, answer) = server.call("POST", &path, Some(&json!({"move": "e3-h3"})));
    assert_eq!(
        (status, answer["error"].as_str()),
        (403, Some("not_your_seat"))
    );
    let moved = server.call_as("POST", &path, Some(&json!({"move": "e3-h3"})), Some(&guest));
    assert_eq!(moved.0, 200, "{}", moved.1);
    assert_eq!(stored(&server, &id(&people)).moves, ["e2-h2", "e3-h3"]);
    // Each holder sees which seat is theirs; a spectator none.
    let game = format!("/api/games/{}", id(&people));
    assert_eq!(server.ok("GET", &game, None)["you"], json!(["attackers"]));
    assert_eq!(
        server.call_as("GET", &game, None, Some(&guest)).1["you"],
        json!(["defenders"])
    );
    assert!(
        server
            .call_as("GET", &game, None, None)
            .1
            .get("you")
            .is_none()
    );
    // The guest resigns their own side, not the other.
    let resigned = server.call_as("POST", &format!("{game}/resign"), None, Some(&guest));
    assert_eq!(resigned.1["resigned"], json!("defenders"));
}

#[test]
fn games_stored_before_seats_are_read_only() {
    let dir = scratch("legacy");
    let db = dir.join("games.sqlite");
    let mut server = Server::start("127.0.0.1:0", &db, &["--rate", "0"]);
    let game = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "attackers"})),
    );
    let id = game["id"].as_str().unwrap().to_owned();
    server.kill();
    // As an older version wrote it: no seats, no hashes.
    common::database::execute(
        &server.db_arg,
        "UPDATE games SET attackers_seat = NULL, defenders_seat = NULL,
                          attackers_hash = NULL, defenders_hash = NULL",
    );
    let server = Server::start("127.0.0.1:0", &db, &["--rate", "0"]);
    let (status, answer) = server.call_as(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": "e2-h2"})),
        game["secret"].as_str(),
    );
    assert_eq!((status, answer["error"].as_str()), (403, Some("read_only")));
    let read = server.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(read["read_only"], json!(true));
    assert_eq!(
        read["seats"],
        json!({"attackers": "person", "defenders": "engine"})
    );
    assert_eq!(read["ply"], json!(0));
}

/// The numbered events' facts, without the state a live event carries.
fn facts(events: &[Sse]) -> Vec<(Option<u64>, String, Value)> {
    events
        .iter()
        .filter(|e| e.id.is_some() && e.name != "state")
        .map(|e| {
            let mut data = e.data.clone();
            if let Some(map) = data.as_object_mut() {
                map.remove("state");
                map.remove("found");
            }
            (e.id, e.name.clone(), data)
        })
        .collect()
}

#[test]
fn a_spectator_sees_every_move_live_and_a_reconnect_gets_exactly_the_missed_events() {
    let server = start("spectator", &["--rate", "0"]);
    // Two people: the creator (attackers) and a guest who takes the open seat.
    let created = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "attackers", "opponent": "open"})),
    );
    let id = created["id"].as_str().unwrap().to_owned();
    let host = created["secret"].as_str().unwrap().to_owned();
    // The spectator opens the game before anything happens, with no secret.
    let mut watch = EventStream::open(&server, &format!("/api/games/{id}/events"), None);
    assert_eq!(watch.next().unwrap().id, Some(0));
    let guest = server.ok("POST", &format!("/api/games/{id}/join"), None)["secret"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut oracle = Oracle::new(created["rules"].as_str().unwrap(), None);
    let mut choices = Choices(0x5eed_0f5a_1e00_0001);
    let mut played = Vec::new();
    for _ in 0..30 {
        let state = server.ok("GET", &format!("/api/games/{id}"), None);
        let legal: Vec<String> = served_move_texts(&state).into_iter().collect();
        if legal.is_empty() {
            break;
        }
        let text = legal[choices.pick(legal.len())].clone();
        let secret = if state["to_move"] == json!("attackers") {
            &host
        } else {
            &guest
        };
        let (status, _) = server.call_as(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": text})),
            Some(secret),
        );
        assert_eq!(status, 200);
        played.push(text);
    }
    let (status, resigned) = server.call_as(
        "POST",
        &format!("/api/games/{id}/resign"),
        None,
        Some(&guest),
    );
    assert!(
        status == 200 || resigned["error"] == json!("game_over"),
        "{resigned}"
    );
    let last_kind = if status == 200 { "resign" } else { "move" };
    // The spectator saw the seat taken, every move in order with the position after it, and
    // the end: numbered 1, 2, 3, ... with nothing missing.
    let seen = watch.until(|e| {
        e.name == last_kind
            && e.id == Some(played.len() as u64 + 1 + u64::from(last_kind == "resign"))
    });
    let numbered: Vec<u64> = seen.iter().filter_map(|e| e.id).collect();
    assert_eq!(numbered, (1..=numbered.len() as u64).collect::<Vec<_>>());
    assert_eq!(seen[0].name, "join");
    let moves: Vec<&Sse> = seen.iter().filter(|e| e.name == "move").collect();
    assert_eq!(moves.len(), played.len());
    for (event, text) in moves.iter().zip(&played) {
        assert_eq!(event.data["move"], json!(text));
        assert_eq!(event.data["by"], json!("person"));
        oracle.play(text);
        assert_same(&event.data["state"], &oracle);
    }
    // Reconnecting after event k (the header, or the query): exactly the events after k, from
    // the database, then the game as it is now.
    let all = facts(&seen);
    let last = all.len() as u64;
    for k in [0, 1, last / 2, last - 1, last] {
        for by_query in [false, true] {
            let mut again = if by_query {
                EventStream::open(
                    &server,
                    &format!("/api/games/{id}/events?last_event_id={k}"),
                    None,
                )
            } else {
                EventStream::open(&server, &format!("/api/games/{id}/events"), Some(k))
            };
            let replay = again.until(|e| e.name == "state");
            let snapshot = replay.last().unwrap();
            assert_eq!(snapshot.id, Some(last));
            assert_eq!(
                snapshot.data["state"],
                server
                    .call_as("GET", &format!("/api/games/{id}"), None, None)
                    .1
            );
            assert_eq!(facts(&replay), all[k as usize..], "after {k}");
        }
    }
    // A game against the engine: its moves reach a spectator with nobody asking for them.
    let engine = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "brandub", "human": "defenders", "level": 0})),
    );
    let engine_id = engine["id"].as_str().unwrap();
    let mut watch = EventStream::open(&server, &format!("/api/games/{engine_id}/events"), Some(0));
    let moved = watch.until(|e| e.name == "move");
    assert_eq!(moved.last().unwrap().data["by"], json!("engine"));
    assert_eq!(moved.last().unwrap().id, Some(1));
}

#[test]
fn learn_pages_are_served_and_their_exercises_checked_by_the_server() {
    let server = start("learn", &[]);
    let course = server.ok("GET", "/api/learn/tablut", None);
    let lessons = course["lessons"].as_array().unwrap();
    assert_eq!(lessons[0]["id"], json!("objective"));
    let capture = lessons
        .iter()
        .find(|l| l["id"] == json!("capture"))
        .unwrap();
    let answer = capture["answer"].as_str().unwrap();
    let path = "/api/learn/tablut/capture";
    let done = server.ok("POST", path, Some(&json!({"move": answer})));
    assert_eq!(done["done"], json!(true), "{done}");
    assert_eq!(done["captures"], json!([capture["goal"]["square"]]));
    // A move that breaks a rule: its reason as data; one that is legal but misses: not done.
    let castle = server.ok(
        "POST",
        "/api/learn/tablut/moves",
        Some(&json!({"move": "c5-e5"})),
    );
    assert_eq!(castle["reason"], json!({"code": "castle", "square": "e5"}));
    let missed = server.ok(
        "POST",
        "/api/learn/tablut/moves",
        Some(&json!({"move": "c5-c6"})),
    );
    assert_eq!(missed["done"], json!(false));
    for path in ["/api/learn/brandub", "/api/learn/tablut/nope"] {
        let method = if path.ends_with("nope") {
            "POST"
        } else {
            "GET"
        };
        let body = (method == "POST").then(|| json!({"move": "e1-e2"}));
        let (status, _) = server.call(method, path, body.as_ref());
        assert_eq!(status, 404, "{path}");
    }
    let page = ureq::get(&server.url("/learn/copenhagen")).call().unwrap();
    assert_eq!(page.status(), 200);
}

/// Sends `count` requests for `path` from the address `from` (another loopback address than
/// the server's other clients), over one kept-alive connection: their statuses.
fn flood(server: &Server, from: &str, method: &str, path: &str, count: usize) -> Vec<u16> {
    use std::io::{Read, Write};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
        let address = server.address.parse().unwrap();
        socket.connect(address).await.unwrap().into_std().unwrap()
    });
    stream.set_nonblocking(false).unwrap();
    stream.set_nodelay(true).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    let mut statuses = Vec::new();
    for _ in 0..count {
        let body = if method == "POST" {
            "{\"move\": \"e2-h2\"}"
        } else {
            ""
        };
        // One write a request (no small segments for Nagle to hold back).
        let request = format!(
            "{method} {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n\r\n{body}",
            body.len()
        );
        writer.write_all(request.as_bytes()).unwrap();
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        statuses.push(status.split(' ').nth(1).unwrap().parse().unwrap());
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().unwrap();
            }
        }
        let mut skip = vec![0; length];
        reader.read_exact(&mut skip).unwrap();
    }
    statuses
}

#[test]
fn nobody_throttles_someone_elses_game_by_flooding_its_id() {
    // The default limits: 10 requests a second, 30 at once.
    let server = start("victim", &[]);
    let victim = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "mode": "analysis"})),
    );
    let id = victim["id"].as_str().unwrap().to_owned();
    // A stranger at another address sends 1,000 requests on the victim's game: reads, moves
    // without a secret, the event stream's opening.
    let mut statuses = flood(
        &server,
        "127.0.0.2",
        "GET",
        &format!("/api/games/{id}"),
        600,
    );
    statuses.extend(flood(
        &server,
        "127.0.0.2",
        "POST",
        &format!("/api/games/{id}/moves"),
        400,
    ));
    assert_eq!(statuses.len(), 1000);
    let limited = statuses.iter().filter(|&&s| s == 429).count();
    assert!(
        limited > 800,
        "the stranger is limited: {limited} of 1000 got 429"
    );
    assert!(
        statuses.iter().all(|&s| matches!(s, 200 | 403 | 429)),
        "{statuses:?}"
    );
    // The victim's moves are answered, at once.
    let path = format!("/api/games/{id}/moves");
    for text in ["e2-h2", "e3-h3", "h2-h1", "h3-h4"] {
        let (status, answer) = server.call("POST", &path, Some(&json!({"move": text})));
        assert_eq!(status, 200, "{text}: {answer}");
    }
    assert_eq!(stored(&server, &id).moves.len(), 4);
    // The stranger is still held back, the victim's spectator from elsewhere is not.
    // (Its bucket refills at 10 a second while the victim plays: of 100 more, most are refused.)
    let again = flood(
        &server,
        "127.0.0.2",
        "GET",
        &format!("/api/games/{id}"),
        100,
    );
    assert!(
        again.iter().filter(|&&s| s == 429).count() >= 50,
        "{again:?}"
    );
    assert_eq!(
        flood(&server, "127.0.0.3", "GET", &format!("/api/games/{id}"), 1),
        [200]
    );
}

#[test]
fn every_answer_carries_the_security_headers_and_every_error_is_json() {
    let server = start("headers", &[]);
    let game = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "mode": "analysis"})),
    );
    let id = game["id"].as_str().unwrap().to_owned();
    let check = |method: &str, path: &str, status: u16| {
        let response = match ureq::request(method, &server.url(path)).call() {
            Ok(response) => response,
            Err(ureq::Error::Status(_, response)) => response,
            Err(error) => panic!("{method} {path}: {error}"),
        };
        assert_eq!(response.status(), status, "{method} {path}");
        let csp = response
            .header("content-security-policy")
            .unwrap_or_default();
        for part in [
            "default-src 'none'",
            "script-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(part), "{method} {path}: {csp}");
        }
        assert!(!csp.contains("unsafe"), "{csp}");
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(response.header("referrer-policy"), Some("no-referrer"));
        assert_eq!(response.header("x-frame-options"), Some("DENY"));
        let kind = response.content_type().to_owned();
        let text = response.into_string().unwrap_or_default();
        if status >= 400 {
            let error: Value = serde_json::from_str(&text)
                .unwrap_or_else(|_| panic!("{method} {path}: not JSON: {text}"));
            let code = if status == 405 {
                "method_not_allowed"
            } else {
                "not_found"
            };
            assert_eq!(error["error"], json!(code), "{method} {path}");
            assert!(!error["message"].as_str().unwrap().is_empty());
            assert_eq!(kind, "application/json");
        }
    };
    for (method, path, status) in [
        ("GET", "/".to_owned(), 200),
        ("GET", format!("/g/{id}"), 200),
        ("GET", "/assets/app.js".to_owned(), 200),
        ("GET", "/api/variants".to_owned(), 200),
        ("GET", format!("/api/games/{id}"), 200),
        ("GET", "/assets/nothing.js".to_owned(), 404),
        ("GET", "/nothing".to_owned(), 404),
        ("GET", "/api/games/0123456789abcdef".to_owned(), 404),
        ("DELETE", format!("/api/games/{id}"), 405),
        ("GET", format!("/api/games/{id}/moves"), 405),
        ("PUT", "/api/games".to_owned(), 405),
        ("POST", "/api/variants".to_owned(), 405),
    ] {
        check(method, &path, status);
    }
    // The event stream too.
    let response = ureq::get(&server.url(&format!("/api/games/{id}/events")))
        .call()
        .unwrap();
    assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
    assert!(response.header("content-security-policy").is_some());
}
