//! The page in a real browser: Debian's chromium driven through chromedriver with `fantoccini`
//! (`common/browser.rs`). It plays whole games of Tablut and (on a phone-wide window) of 13x13
//! Copenhagen by clicking squares, and after every move compares the board the page draws with
//! the library's position; it takes a hint and a takeback, reloads the page, and restarts
//! (kill -9) the server mid-game: the page says it reconnects and comes back by itself, without
//! a reload, and goes on, and saves screenshots under target/web-screenshots/. Two people and a
//! spectator, each in their own browser, are `players.rs`.
//!
//! It needs Debian's chromium and chromedriver, which a plain `cargo test` cannot count on, so
//! it is `#[ignore]`d there: `.ci/run` installs them and runs it with
//! `cargo test -p tafl-web --test web -- --ignored browser::`. Run so without them, it fails and says
//! how to install them (`apt-get install -y chromium chromium-driver`).

use crate::common;
use crate::common::browser;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use browser::{Browser, Chromedriver, Oracle, shown_pieces};
use common::{Choices, Server, scratch, served_move_texts, served_moves};
use serde_json::{Value, json};

/// Brings the oracle to the server's moves (playing each new one by the library's rules) and
/// checks the page's board and the server's legal moves against the library's.
async fn check(driver: &Browser, server: &Server, id: &str, oracle: &mut Oracle) -> Value {
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
    let page = driver
        .wait("the page to show the server's ply", |p| {
            p["ply"] == json!(moves.len()) && p["live"] == json!(moves.len())
        })
        .await;
    let (pieces, legal) = oracle.view();
    assert_eq!(
        shown_pieces(&page),
        pieces,
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

/// Plays a whole game through the page; at the given person's moves, takes a hint, a
/// takeback, reloads the page or restarts the server.
async fn play_game(
    driver: &Browser,
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
    open_as_player(driver, server, &id).await;
    let mut oracle = Oracle::new(created["rules"].as_str().expect("rules"));
    let mut choices = Choices(seed);
    let mut person_moves = 0;
    // Whether the last move was clicked with the page scrolled to its top.
    let mut clicked_at_top = false;
    loop {
        driver
            .wait("the person's turn or the end", |p| {
                p["turn"] == json!("person") || p["turn"] == json!("over")
            })
            .await;
        if clicked_at_top {
            // The page stays where the person left it while the moves are shown: on a phone the
            // move list is below the board, and keeping its last move in view must scroll the
            // list, not the page (the board would slide out of sight at every move).
            assert_eq!(
                driver.run("return window.scrollY").await,
                json!(0),
                "the page scrolled by itself after a move"
            );
            // ... and the list shows its last move.
            let shown = driver
                .run(
                    "const list = document.getElementById('move-list'); \
                 const item = list.querySelector('.current'); \
                 if (!item) return true; \
                 const box = list.getBoundingClientRect(), at = item.getBoundingClientRect(); \
                 return at.top >= box.top - 1 && at.bottom <= box.bottom + 1;",
                )
                .await;
            assert_eq!(shown, json!(true), "the move list shows the last move");
        }
        let state = check(driver, server, &id, &mut oracle).await;
        if state["finished"] == json!(true) {
            let page = driver.page().await;
            assert_eq!(page["turn"], json!("over"));
            let text = page["status"].as_str().unwrap_or_default();
            assert!(
                text.contains("win") || text.contains("Draw"),
                "the end is explained in words: {text}"
            );
            driver.screenshot(&format!("{name}-end.png")).await;
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
                driver.click_move(from, &wrong).await;
                let page = driver
                    .wait("the reason", |p| {
                        !p["reason"].as_str().unwrap_or_default().is_empty()
                    })
                    .await;
                // The rule's refusal, in the page's words for the library's reason.
                let reason = page["reason"].as_str().unwrap_or_default();
                assert!(
                    reason.starts_with("Not allowed: ") && reason.len() > 30,
                    "{page}"
                );
                check(driver, server, &id, &mut oracle).await;
                // The move list: an earlier position is shown, then the live one again.
                driver.click("#move-list button[data-ply=\"1\"]").await;
                let earlier = driver
                    .wait("the first position", |p| p["ply"] == json!(1))
                    .await;
                let mut first = Oracle::new(state["rules"].as_str().expect("rules"));
                first.play(state["moves"][0]["move"].as_str().expect("a first move"));
                let shown = shown_pieces(&earlier);
                assert_eq!(shown, first.view().0, "the position after the first move");
                driver.click("#live").await;
                driver
                    .wait("the live position", |p| p["ply"] == p["live"])
                    .await;
            }
            2 => {
                done.insert("hint");
                driver.click("#hint").await;
                let page = driver
                    .wait("the hint's arrow", |p| !p["arrow"].is_null())
                    .await;
                let arrow = page["arrow"].as_str().unwrap_or_default().to_owned();
                assert!(
                    legal.iter().any(|(f, t)| format!("{f}-{t}") == arrow),
                    "the hint {arrow} is a legal move"
                );
                driver.screenshot(&format!("{name}-hint.png")).await;
            }
            3 => {
                done.insert("takeback");
                let before = oracle.ply();
                driver.click("#takeback").await;
                driver
                    .wait("the takeback", |p| {
                        p["live"] == json!(before - 2) && p["turn"] == json!("person")
                    })
                    .await;
                oracle.undo();
                oracle.undo();
                check(driver, server, &id, &mut oracle).await;
                person_moves += 1;
                continue;
            }
            5 => {
                done.insert("reload");
                driver.refresh().await;
                driver
                    .wait("the reloaded page", |p| p["live"] == json!(oracle.ply()))
                    .await;
                check(driver, server, &id, &mut oracle).await;
            }
            n if Some(n) == restart_at => {
                done.insert("restart");
                let listen = server.address.clone();
                server.kill();
                // The page notices by itself (its event stream broke) and says so...
                let cut = driver
                    .wait("the page to say it reconnects", |p| {
                        p["status"]
                            .as_str()
                            .unwrap_or_default()
                            .contains("reconnecting")
                    })
                    .await;
                assert_eq!(cut["live"], json!(oracle.ply()), "{cut}");
                let secrets = std::mem::take(&mut *server.secrets.lock().expect("secrets"));
                *server = Server::start(&listen, &server.db.clone(), &["--rate", "0"]);
                *server.secrets.lock().expect("secrets") = secrets;
                // ... and comes back without a reload, at the same position, and plays on.
                driver
                    .wait("the page to reconnect by itself", |p| {
                        !p["status"]
                            .as_str()
                            .unwrap_or_default()
                            .contains("reconnecting")
                            && p["turn"] == json!("person")
                    })
                    .await;
                check(driver, server, &id, &mut oracle).await;
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
            driver.drag_move(&from, &to).await;
        } else {
            driver.run("window.scrollTo(0, 0)").await;
            driver.click_move(&from, &to).await;
        }
        clicked_at_top = person_moves != 4;
        driver
            .wait("the move to be played", |p| {
                p["live"].as_u64().unwrap_or(0) > before as u64
            })
            .await;
        person_moves += 1;
    }
}

/// Opens game `id` in the page as the player who created it through the API: the page keeps
/// its seat's secret in localStorage (as it does for a game made on the page), then loads.
async fn open_as_player(driver: &Browser, server: &Server, id: &str) {
    driver.goto(&server.url("/")).await;
    let secret = server
        .secret_for(&format!("/api/games/{id}"))
        .expect("the game's secret");
    driver.run(&format!(
        "localStorage.setItem('tafl-secrets', JSON.stringify({{ {id:?}: {secret:?} }})); return 1;"
    )).await;
    driver.goto(&server.url(&format!("/g/{id}"))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: .ci/run installs them and runs it with --ignored"]
async fn a_person_plays_whole_games_in_chromium_and_the_page_shows_the_librarys_positions() {
    let dir = scratch("browser");
    let mut server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let chromedriver = Chromedriver::start();
    let driver = chromedriver.open(1280, 900).await;

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
    )
    .await;
    assert_eq!(tablut["size"], json!(9));
    // The 13x13 game on a phone-wide window: the squares are small, the panel below the board.
    driver.size(390, 844).await;
    let thirteen = play_game(
        &driver,
        &mut server,
        "hnefatafl-org-copenhagen-13",
        "copenhagen-13",
        0x2545_f491_4f6c_dd1d,
        Some(7),
        &mut done,
    )
    .await;
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
    )
    .await;
    assert_eq!(eleven["size"], json!(11));
    driver.size(1280, 900).await;

    invite(&driver, &server).await;
    screenshots(&driver, &server).await;
}

/// Playing a friend: the creator's board shows the invitation; another browser (here: the
/// same one with none of the creator's secrets) opening it takes the seat, keeps its secret
/// and moves; a second taker watches, told why.
async fn invite(driver: &Browser, server: &Server) {
    let created = server.ok(
        "POST",
        "/api/games",
        Some(
            &json!({"variant": "tablut", "human": "defenders", "opponent": "open",
                     "days_per_move": 3}),
        ),
    );
    let id = created["id"].as_str().expect("id").to_owned();
    open_as_player(driver, server, &id).await;
    driver
        .wait("the creator's page", |p| p["live"] == json!(0))
        .await;
    let deadline =
        "const d = document.getElementById('deadline'); return d.hidden ? null : d.textContent;";
    assert_eq!(
        driver.run(deadline).await,
        Value::Null,
        "no deadline while the seat is open"
    );
    let link = driver
        .run(
            "return document.getElementById('invite').hidden ? null \
         : document.getElementById('invite-link').value;",
        )
        .await;
    let link = link
        .as_str()
        .expect("the creator sees the invitation")
        .to_owned();
    assert!(link.ends_with(&format!("/g/{id}?join")), "{link}");
    // The friend's browser: no secret of this game.
    driver
        .run("localStorage.removeItem('tafl-secrets'); return 1;")
        .await;
    driver.goto(&link).await;
    let page = driver
        .wait("the friend's seat", |p| p["turn"] == json!("person"))
        .await;
    assert_eq!(page["live"], json!(0));
    // A correspondence game: the side to move's deadline as a date and time, 3 days ahead.
    let shown = driver.run(deadline).await;
    let shown = shown.as_str().expect("the deadline shows");
    let year = (2026..2100).find(|y| shown.contains(&y.to_string()));
    assert!(
        year.is_some() && shown.contains("must move by") && shown.contains('3'),
        "{shown}"
    );
    let kept = driver
        .run(&format!(
            "return JSON.parse(localStorage.getItem('tafl-secrets') || '{{}}')[{id:?}] || null;"
        ))
        .await;
    let friend = kept.as_str().expect("the friend's secret kept").to_owned();
    assert_eq!(
        driver
            .run("return window.location.pathname + window.location.search;")
            .await,
        json!(format!("/g/{id}"))
    );
    // The friend moves from the page (typed), and the server has it.
    let state = server.ok("GET", &format!("/api/games/{id}"), None);
    let (from, to) = served_moves(&state)[0].clone();
    driver.type_move(&format!("{from}-{to}")).await;
    driver
        .wait("the friend's move", |p| p["live"] == json!(1))
        .await;
    let stored = server
        .call_as("GET", &format!("/api/games/{id}"), None, Some(&friend))
        .1;
    assert_eq!(stored["ply"], json!(1));
    assert_eq!(stored["you"], json!(["attackers"]));
    // A second taker: the seat is held; the page watches and says why.
    driver
        .run("localStorage.removeItem('tafl-secrets'); return 1;")
        .await;
    driver.goto(&link).await;
    let page = driver
        .wait("the second taker's page", |p| {
            p["turn"] == json!("watching") && p["reason"].as_str().is_some_and(|r| !r.is_empty())
        })
        .await;
    assert!(
        page["reason"]
            .as_str()
            .unwrap()
            .contains("already been taken"),
        "{page}"
    );
    assert_eq!(
        driver
            .run("return document.getElementById('reason').dataset.kind;")
            .await,
        json!("seat")
    );
    // The game over (the creator resigns), the friend's page asks the engine for a hint.
    server.ok("POST", &format!("/api/games/{id}/resign"), None);
    driver.run(&format!(
        "localStorage.setItem('tafl-secrets', JSON.stringify({{ {id:?}: {friend:?} }})); return 1;"
    )).await;
    driver.goto(&server.url(&format!("/g/{id}"))).await;
    driver
        .wait("the finished game", |p| p["turn"] == json!("over"))
        .await;
    assert_eq!(
        driver.run("return [document.getElementById('hint').hidden, document.getElementById('analyse').hidden];").await,
        json!([false, false]),
        "hints and the three best lines are open after a game between people"
    );
    driver.click("#hint").await;
    let page = driver
        .wait("the hint's arrow", |p| !p["arrow"].is_null())
        .await;
    let arrow = page["arrow"].as_str().unwrap_or_default();
    assert!(
        served_move_texts(&stored).contains(arrow),
        "the hint is a legal move of the last position: {arrow}"
    );
}

/// Screenshots for docs/web-screenshots.md: 9x9, 11x11, 19x19 mid-game, the Arabic page, a phone.
async fn screenshots(driver: &Browser, server: &Server) {
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
        open_as_player(driver, server, &id).await;
        driver
            .wait("the board", |p| p["live"] == json!(moves.len()))
            .await;
        if name.starts_with("copenhagen") {
            // The analysis board's three best lines, each a legal first move.
            driver.click("#analyse").await;
            let deadline = Instant::now() + Duration::from_secs(30);
            while driver
                .run("return document.querySelectorAll('#lines li').length;")
                .await
                != json!(3)
            {
                assert!(Instant::now() < deadline, "no three lines");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let state = server.ok("GET", &format!("/api/games/{id}"), None);
            let lines = driver
                .run(
                    "return [...document.querySelectorAll('#lines li')].map(li => li.textContent);",
                )
                .await;
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
        driver.screenshot(name).await;
    }
    let id = game(
        json!({"variant": "tablut", "human": "defenders", "level": 0,
               "clock_seconds": 300, "increment_seconds": 3}),
        &[],
    );
    open_as_player(driver, server, &id).await;
    driver
        .wait("the engine's first move", |p| p["turn"] == json!("person"))
        .await;
    driver.run("const s = document.getElementById('lang'); s.value = 'ar'; s.dispatchEvent(new Event('change'));").await;
    let dir = driver.run("return document.documentElement.dir;").await;
    assert_eq!(dir, json!("rtl"));
    // The clocks: shown, the person's running after the engine's move.
    let clocks = driver.run(
        "return [...document.querySelectorAll('#clocks .clock')].map(c => [c.dataset.side, c.classList.contains('running'), c.querySelector('b').textContent]);",
    ).await;
    assert_eq!(clocks[1][0], json!("defenders"));
    assert_eq!(clocks[1][1], json!(true), "{clocks}");
    let shown = clocks[1][2].as_str().unwrap_or_default();
    assert!(
        shown.starts_with("5:") || shown.starts_with("4:5"),
        "{clocks}"
    );
    driver.screenshot("arabic.png").await;
    // The choice is remembered.
    driver.refresh().await;
    driver
        .wait("the reloaded page", |p| p["turn"] == json!("person"))
        .await;
    assert_eq!(
        driver.run("return document.documentElement.lang;").await,
        json!("ar")
    );
    driver.size(390, 844).await;
    driver.screenshot("arabic-phone.png").await;
    driver.run("const s = document.getElementById('lang'); s.value = 'en'; s.dispatchEvent(new Event('change'));").await;
    driver.screenshot("phone.png").await;
    driver.size(1280, 900).await;
    // Flip: a1 goes from the left to the right of b1, and back.
    let a1_right_of_b1 =
        "const x = s => Number(document.querySelector(`#board rect[data-square=\"${s}\"]`).getAttribute('x'));
         return x('a1') > x('b1');";
    assert_eq!(driver.run(a1_right_of_b1).await, json!(false));
    driver.click("#flip").await;
    assert_eq!(driver.run(a1_right_of_b1).await, json!(true));
    driver.click("#flip").await;
    assert_eq!(driver.run(a1_right_of_b1).await, json!(false));
    // Resign, after the page asks: the game is over, in words.
    driver.click("#resign").await;
    driver.accept_alert().await;
    let page = driver
        .wait("the resignation", |p| p["turn"] == json!("over"))
        .await;
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
    while driver
        .run("return document.querySelectorAll('#review-graph circle.point').length;")
        .await
        != json!(positions)
    {
        assert!(Instant::now() < deadline, "the review graph was not drawn");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    driver.screenshot("review-graph.png").await;
    driver.click("#review-graph circle[data-ply=\"0\"]").await;
    driver
        .wait("the start position from the graph", |p| {
            p["ply"] == json!(0)
        })
        .await;
    // "My games" on the start page lists it (this browser holds its seat), with its result;
    // a click resumes it.
    driver.goto(&server.url("/")).await;
    let item = format!("#my-games-list li[data-id=\"{id}\"]");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let shown = driver
            .run(&format!(
                "const li = document.querySelector('{item}');
             return li ? [li.dataset.turn, li.textContent] : null;"
            ))
            .await;
        if !shown.is_null() {
            assert_eq!(shown[0], json!("over"), "{shown}");
            assert!(shown[1].as_str().unwrap().contains("resigned"), "{shown}");
            break;
        }
        assert!(Instant::now() < deadline, "my games does not list {id}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    driver.click(&format!("{item} a")).await;
    driver
        .wait("the game resumed from my games", |p| {
            p["turn"] == json!("over") && p["live"] == json!(positions - 1)
        })
        .await;
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
