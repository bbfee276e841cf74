//! Faults of a site on several machines (issue 53), with real parts started by the tests: two
//! `tafl-web` servers on one PostgreSQL (common/database.rs) behind HAProxy configured by the
//! repository's file (web/deploy/haproxy.cfg, common/balancer.rs).
//!
//! - `a_killed_servers_stream_reconnects_through_the_balancer_and_the_engines_move_arrives`:
//!   `kill -9` of the server a player's event stream is on, while it searches the engine's move.
//! - `postgresql_stopped_for_ten_seconds`: requests answered 503 `storage_unavailable` at once
//!   during the outage, nothing acknowledged lost, the servers back by themselves after it.
//! - `a_page_plays_through_the_balancer_while_a_server_is_killed` (a real browser: `#[ignore]`d
//!   in a plain `cargo test`; `.ci/run` runs it with `cargo test --test web -- --ignored faults::`):
//!   the page's server killed mid-game, the page reconnects by itself through the balancer and
//!   the engine's move arrives; the board is the library's position after every move.

use crate::common;
use crate::common::browser;

use std::time::Instant;

use common::balancer::Balancer;
use common::worker::Worker;
use common::{EventStream, Server, call_at, database, first_served_move, served_move_texts};
use serde_json::json;

/// Reads `stream` until `done` accepts an event or the stream ends or breaks (its server
/// killed): the events read, and whether `done` accepted one.
fn read_until(
    stream: &mut EventStream,
    mut done: impl FnMut(&common::Sse) -> bool,
) -> (Vec<common::Sse>, bool) {
    let mut events = Vec::new();
    while let Ok(Some(event)) = stream.try_next() {
        let last = done(&event);
        events.push(event);
        if last {
            return (events, true);
        }
    }
    (events, false)
}

/// The numbered events among `events` (a `state` event repeats the last number: left out).
fn numbers(events: &[common::Sse]) -> Vec<u64> {
    events
        .iter()
        .filter(|e| e.name != "state")
        .filter_map(|e| e.id)
        .collect()
}

#[test]
fn a_killed_servers_stream_reconnects_through_the_balancer_and_the_engines_move_arrives() {
    let started = Instant::now();
    let url = database::cluster().database("killed_stream");
    let start = || Server::start_with("127.0.0.1:0", &url, &["--rate", "0", "--lease-ms", "2000"]);
    let mut servers = [start(), start()];
    let balancer = Balancer::start([&servers[0], &servers[1]]);

    // A game against the engine (3 s a move: its search must outlast the query of its job's
    // holder below, which other tests of this binary running beside it can slow down), created
    // through the balancer.
    let (status, created) = call_at(
        &balancer.url("/api/games"),
        "POST",
        Some(&json!({"variant": "tablut", "human": "attackers", "level": 3})),
        None,
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_owned();
    let secret = created["secret"].as_str().expect("a secret").to_owned();
    let events = format!("/api/games/{id}/events");

    // The player's page follows the game through the balancer: which server is it on?
    let mut stream = EventStream::open_at(&balancer.url(&events), Some(0), None);
    let (first, _) = read_until(&mut stream, |e| e.name == "state");
    let state = &first.last().expect("a state").data["state"];
    let victim = balancer.wait_requests(&events, 1)[0];
    let survivor = 1 - victim;

    // The player's move is sent to that same server, so that the engine's search runs there too:
    // the worst case, the stream and the search lost at once.
    let text = first_served_move(state);
    let (status, answer) = servers[victim].call_as(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": text, "ply": 0})),
        Some(&secret),
    );
    assert_eq!(status, 200, "{answer}");
    let (mut seen, searching) =
        read_until(&mut stream, |e| e.name == "started" || e.name == "queue");
    assert!(searching, "the engine's search starts: {seen:?}");

    // kill -9 of that server mid-search. Which server claimed the search job (both search while
    // no worker runs) is said, not chosen: the killed one, mostly (it is woken first).
    let holder = database::cluster().psql(
        "killed_stream",
        &format!("SELECT COALESCE(worker, '') FROM jobs WHERE game = '{id}';"),
    );
    let held = holder
        .trim()
        .ends_with(&format!(":{}", servers[victim].child.id()));
    servers[victim].kill();
    let killed = Instant::now();
    let played = database::stored(&url, &id).moves;
    assert_eq!(
        played,
        std::slice::from_ref(&text),
        "the engine's move was not made before the kill (else this tests nothing)"
    );
    // The stream ends or breaks; what it sent before stays seen.
    let (rest, _) = read_until(&mut stream, |_| false);
    seen.extend(rest);
    let last = numbers(&seen)
        .into_iter()
        .max()
        .expect("the person's move seen");

    // The page reconnects through the balancer, from the last event it saw: the other server
    // answers and sends nothing twice; the killed server's search job goes back to the queue
    // when its lease (2 s here, 10 s by default) runs out, the other server searches it, and the
    // engine's move arrives.
    let mut again = EventStream::open_at(&balancer.url(&events), Some(last), None);
    again.give_up_after(20);
    let (after, arrived) = read_until(&mut again, |e| {
        e.name == "move" && e.data["by"] == json!("engine")
    });
    assert!(arrived, "the engine's move arrives: {after:?}");
    let waited = killed.elapsed();
    assert!(
        waited.as_secs_f64() < 2.0 + 3.0 + 5.0,
        "the move arrives within the lease plus one search: {waited:?}"
    );
    assert_eq!(balancer.wait_requests(&events, 2)[1], survivor);
    seen.extend(after);
    let numbers = numbers(&seen);
    assert_eq!(
        numbers,
        (1..=numbers.len() as u64).collect::<Vec<_>>(),
        "every event once, in order: {seen:?}"
    );

    // Played once: the stored game and its events, read apart from the servers.
    let engine_move = seen
        .iter()
        .rfind(|e| e.name == "move")
        .map(|e| e.data["move"].as_str().unwrap_or_default().to_owned())
        .expect("a move event");
    assert_eq!(database::stored(&url, &id).moves, [text, engine_move]);
    let moves_stored = database::cluster().psql(
        "killed_stream",
        &format!("SELECT count(*) FROM events WHERE game = '{id}' AND kind = 'move';"),
    );
    assert_eq!(moves_stored.trim(), "2");
    // The game goes on through the balancer.
    let (status, game) = call_at(
        &balancer.url(&format!("/api/games/{id}")),
        "GET",
        None,
        None,
    );
    assert_eq!((status, game["ply"].clone()), (200, json!(2)), "{game}");
    eprintln!(
        "killed stream: the engine's move arrived {:.2} s after the kill (the killed server held \
         its search: {held}); test {:.1} s",
        waited.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}

/// A request timed: its status, JSON answer and how long it took.
fn timed(
    url: &str,
    method: &str,
    body: Option<&serde_json::Value>,
    secret: Option<&str>,
) -> (u16, serde_json::Value, f64) {
    let sent = Instant::now();
    let (status, answer) = call_at(url, method, body, secret);
    (status, answer, sent.elapsed().as_secs_f64())
}

#[test]
fn postgresql_stopped_for_ten_seconds() {
    let started = Instant::now();
    // A PostgreSQL of this test's own: the other tests' stays up.
    let cluster = database::Cluster::start();
    let url = cluster.database("outage");
    let start = || Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    let (a, b) = (start(), start());
    let balancer = Balancer::start([&a, &b]);
    // A worker plays the engine's moves (the servers leave them to it while it runs).
    let worker = Worker::start(&url, &[]);
    let engine_game = a.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "attackers", "level": 0})),
    )["id"]
        .as_str()
        .expect("an id")
        .to_owned();

    // A game between two people: the creator on A, the friend on B.
    let created = a.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "defenders", "opponent": "open"})),
    );
    let id = created["id"].as_str().expect("an id").to_owned();
    let creator = created["secret"].as_str().expect("a secret").to_owned();
    let (status, joined) = b.call_as("POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(status, 200, "{joined}");
    let friend = joined["secret"].as_str().expect("a secret").to_owned();
    let game = format!("/api/games/{id}");
    let moves = format!("{game}/moves");
    // Plays the next ply on its mover's server (attackers: the friend on B): the move sent.
    let mut choices = common::Choices(7);
    let mut play = |ply: u64| -> String {
        let (server, secret) = if ply.is_multiple_of(2) {
            (&b, &friend)
        } else {
            (&a, &creator)
        };
        let state = server.ok("GET", &game, None);
        let legal: Vec<String> = served_move_texts(&state).into_iter().collect();
        let text = legal[choices.pick(legal.len())].clone();
        let (status, answer) = server.call_as(
            "POST",
            &moves,
            Some(&json!({"move": text, "ply": ply})),
            Some(secret),
        );
        assert_eq!(status, 200, "ply {ply} {text}: {answer}");
        text
    };
    let mut acknowledged: Vec<String> = (0..4).map(&mut play).collect();
    // A spectator on B, from the start, open through the outage.
    let mut watch = EventStream::open(&b, &format!("{game}/events"), Some(0));
    watch.give_up_after(60);
    let (before, _) = read_until(&mut watch, |e| e.name == "state");
    assert_eq!(numbers(&before), (1..=5).collect::<Vec<_>>());

    cluster.stop();
    let stopped = Instant::now();
    // During the outage every request that needs the database is answered 503
    // `storage_unavailable` with words, at once (not a hang), on both servers and through the
    // balancer; a move sent then is not played.
    let ply = acknowledged.len() as u64;
    let requests = [
        (a.url(&game), "GET", None, None),
        (b.url(&game), "GET", None, None),
        (balancer.url(&game), "GET", None, None),
        (
            a.url(&moves),
            "POST",
            Some(json!({"move": "a4-a3", "ply": ply})),
            Some(friend.as_str()),
        ),
        (
            balancer.url("/api/games"),
            "POST",
            Some(json!({"variant": "tablut"})),
            None,
        ),
        (a.url("/api/status"), "GET", None, None),
    ];
    let mut slowest = 0f64;
    for (url, method, body, secret) in &requests {
        let (status, answer, took) = timed(url, method, body.as_ref(), *secret);
        assert_eq!(status, 503, "{method} {url} during the outage: {answer}");
        assert_eq!(answer["error"], json!("storage_unavailable"), "{answer}");
        assert!(
            answer["message"].as_str().is_some_and(|m| m.len() > 10),
            "a message in words: {answer}"
        );
        assert!(
            took < 6.0,
            "{method} {url} took {took:.1} s during the outage"
        );
        slowest = slowest.max(took);
    }
    // Then the balancer's checks (`/readyz`, every second, two failures) take both servers
    // out, and HAProxy answers itself: 503 in JSON, at once.
    let lb_game = balancer.url(&game);
    let out = loop {
        let (status, answer, took) = timed(&lb_game, "GET", None, None);
        assert_eq!(status, 503, "{answer}");
        assert!(took < 6.0, "GET through the balancer took {took:.1} s");
        if answer["error"] == json!("unavailable") {
            assert!(
                answer["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("no server"))
            );
            break stopped.elapsed().as_secs_f64();
        }
        assert_eq!(answer["error"], json!("storage_unavailable"), "{answer}");
        assert!(
            stopped.elapsed().as_secs() < 8,
            "the servers are still in: {answer}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let ten = std::time::Duration::from_secs(10);
    std::thread::sleep(ten.saturating_sub(stopped.elapsed()));
    cluster.start_again();
    let restarted = Instant::now();

    // Both servers answer again by themselves (a new connection from the pool).
    let mut back = [0f64; 2];
    for (server, back) in [&a, &b].into_iter().zip(&mut back) {
        loop {
            let (status, _) = server.call("GET", &game, None);
            if status == 200 {
                *back = restarted.elapsed().as_secs_f64();
                break;
            }
            assert!(
                restarted.elapsed().as_secs() < 15,
                "{} still answers {status} after the restart",
                server.address
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
    // And the balancer has them back after their next check.
    let lb_back = loop {
        let (status, answer) = call_at(&lb_game, "GET", None, None);
        if status == 200 {
            break restarted.elapsed().as_secs_f64();
        }
        assert!(
            restarted.elapsed().as_secs() < 15,
            "balancer: {status} {answer}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    // The worker is back too: its heartbeat is fresh again, and it plays the engine's answer to a
    // move made after the restart.
    let worker_back = loop {
        let fresh = cluster.psql(
            "outage",
            "SELECT COUNT(*) FROM workers \
             WHERE seen_ms > (extract(epoch FROM clock_timestamp()) * 1000)::bigint - 1500;",
        );
        if fresh.trim() == "1" {
            break restarted.elapsed().as_secs_f64();
        }
        assert!(restarted.elapsed().as_secs() < 10, "the worker's heartbeat");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let engine_path = format!("/api/games/{engine_game}");
    let state = a.ok("GET", &engine_path, None);
    let text = first_served_move(&state);
    a.ok(
        "POST",
        &format!("{engine_path}/moves"),
        Some(&json!({"move": text, "ply": 0})),
    );
    let answered = Instant::now();
    while b.ok("GET", &engine_path, None)["ply"] != json!(2) {
        assert!(answered.elapsed().as_secs() < 10, "the engine's answer");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let answer_took = answered.elapsed().as_secs_f64();
    assert!(
        worker.played().contains(&(engine_game.clone(), 1)),
        "the worker played it: {:?}",
        worker.played()
    );
    // Every move acknowledged before the outage is there, and only those.
    assert_eq!(database::stored(&url, &id).moves, acknowledged);
    // New moves work, each on its mover's server, and a move made on A reaches the stream that
    // stayed open on B through the outage (B's listener made its connection again).
    let first = play(ply);
    acknowledged.push(first);
    let sent = Instant::now();
    let last = play(ply + 1);
    acknowledged.push(last.clone());
    let (after, heard) = read_until(&mut watch, |e| {
        e.name == "move" && e.data["move"] == json!(last)
    });
    assert!(
        heard,
        "the move made on A after the outage reaches B's stream: {after:?}"
    );
    let heard_after = sent.elapsed().as_secs_f64();
    let seen: Vec<u64> = numbers(&before)
        .into_iter()
        .chain(numbers(&after))
        .collect();
    assert_eq!(
        seen,
        (1..=7).collect::<Vec<_>>(),
        "every event once, in order"
    );
    assert_eq!(database::stored(&url, &id).moves, acknowledged);
    eprintln!(
        "outage: slowest answer during it {slowest:.3} s; both servers out of the balancer \
         {out:.1} s into it; servers back {:.3} s and {:.3} s after the restart, in the balancer \
         {lb_back:.2} s; the worker's heartbeat {worker_back:.2} s, its first move \
         {answer_took:.2} s after the person's; A's move on B's stream in {heard_after:.2} s; \
         test {:.1} s",
        back[0],
        back[1],
        started.elapsed().as_secs_f64()
    );
}

/// The status of `GET path` sent to `address` from the local address `from` (any 127.x.y.z
/// is this machine's loopback: a client of its own), with `extra` header lines.
fn status_from(from: &str, address: &str, path: &str, extra: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime starts");
    runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind(format!("{from}:0").parse().expect("an address"))
            .expect("a loopback address binds");
        let mut stream = socket
            .connect(address.parse().expect("an address"))
            .await
            .expect("the balancer accepts");
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: {address}\r\n{extra}Connection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.expect("sent");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("an answer");
        answer
            .split(' ')
            .nth(1)
            .and_then(|status| status.parse().ok())
            .unwrap_or_else(|| panic!("no status in {answer:?}"))
    })
}

#[test]
fn behind_the_balancer_each_client_has_its_own_rate_limit() {
    let url = database::cluster().database("limits");
    // Servers that trust the balancer's X-Forwarded-For (it runs on 127.0.0.1).
    let options = ["--rate", "0.5", "--burst", "2", "--proxy", "127.0.0.1"];
    let start = || Server::start_with("127.0.0.1:0", &url, &options);
    let servers = [start(), start()];
    let balancer = Balancer::start([&servers[0], &servers[1]]);
    let get = |from: &str, extra: &str| status_from(from, &balancer.address, "/api/levels", extra);
    // One client (127.0.0.2) over its limit: two at once on each server, then refused.
    let first: Vec<u16> = (0..8).map(|_| get("127.0.0.2", "")).collect();
    assert_eq!(first[..4], [200; 4], "{first:?}");
    assert!(
        first[4..].iter().filter(|&&s| s == 429).count() >= 3,
        "{first:?}"
    );
    // Another client through the same balancer is not limited by the first's requests.
    assert_eq!([get("127.0.0.3", ""), get("127.0.0.3", "")], [200, 200]);
    // A forged X-Forwarded-For changes nothing: the balancer appends the real address, and
    // only the last entry counts.
    let forged = "X-Forwarded-For: 10.9.9.9\r\n";
    assert_eq!(
        [get("127.0.0.2", forged), get("127.0.0.2", forged)],
        [429, 429]
    );
}

/// The moves of game `id` as the database has them, read through the balancer.
fn moves_through(balancer: &Balancer, id: &str) -> Vec<String> {
    let state = balancer.game(id);
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: .ci/run installs them and runs it with --ignored"]
async fn a_page_plays_through_the_balancer_while_a_server_is_killed() {
    use browser::{Chromedriver, Oracle, shown_pieces};

    let started = Instant::now();
    let url = database::cluster().database("page_balanced");
    let start = || Server::start_with("127.0.0.1:0", &url, &["--rate", "0", "--lease-ms", "2000"]);
    let mut servers = [start(), start()];
    let balancer = Balancer::start([&servers[0], &servers[1]]);
    let chromedriver = Chromedriver::start();
    let page = chromedriver.open(1280, 900).await;

    // The player opens the site at the balancer's address and starts a game against the
    // engine on the form: Tablut, the attackers, "casual" (a second a move).
    let id = page
        .start_engine_game(&balancer.url("/"), "tablut", "attackers", "2")
        .await;
    let events = format!("/api/games/{id}/events");
    let state = balancer.game(&id);
    let mut oracle = Oracle::new(state["rules"].as_str().expect("rules"));
    page.run("window.taflMark = 'loaded once'; return 1;").await;

    // Two moves of the player, each answered by the engine; the server the page's stream is on
    // is killed right after the first, while the engine searches its answer.
    let mut killed = None;
    let mut played: Vec<String> = Vec::new();
    for round in 0..2 {
        let ply = oracle.ply();
        let state = balancer.game(&id);
        let text = first_served_move(&state);
        let (from, to) = text.split_once('-').expect("a move");
        page.click_move(from, to).await;
        oracle.play(&text);
        played.push(text);
        if round == 0 {
            // Once the server has acknowledged the move (the page shows it as played).
            page.wait("the player's move", |p| {
                p["live"].as_u64() > Some(ply as u64)
            })
            .await;
            let streams = balancer.wait_requests(&events, 1);
            let victim = *streams.last().expect("a stream");
            servers[victim].kill();
            killed = Some((victim, streams.len(), Instant::now()));
        }
        // The engine's answer, on the page: the board is the library's position after it.
        let answered = page
            .wait(&format!("the engine's answer at ply {}", ply + 1), |p| {
                p["live"] == json!(ply + 2) && p["ply"] == json!(ply + 2)
            })
            .await;
        let moves = moves_through(&balancer, &id);
        assert_eq!(moves[..=ply], played[..], "the player's moves");
        oracle.play(&moves[ply + 1]);
        played.push(moves[ply + 1].clone());
        assert_eq!(moves.len(), oracle.ply(), "played once: {moves:?}");
        assert_eq!(
            shown_pieces(&answered),
            oracle.view().0,
            "the page's board is not the library's position at ply {}",
            oracle.ply()
        );
        assert_eq!(answered["listed"], json!(oracle.ply()));
        if let Some((victim, before, when)) = killed.filter(|_| round == 0) {
            eprintln!(
                "page: the engine's move shown {:.1} s after the kill",
                when.elapsed().as_secs_f64()
            );
            // The page reconnected by itself (no reload), through the balancer, to the other
            // server.
            let streams = balancer.wait_requests(&events, before + 1);
            assert!(
                streams[before..].iter().all(|&s| s == 1 - victim),
                "{streams:?}"
            );
            assert_eq!(
                page.run("return window.taflMark || null;").await,
                json!("loaded once"),
                "the page was reloaded"
            );
        }
    }
    page.close().await;
    eprintln!(
        "page through the balancer: {} plies and a kill in {:.1} s",
        oracle.ply(),
        started.elapsed().as_secs_f64()
    );
}
