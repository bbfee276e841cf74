//! What an operator and a load balancer see of a server (issue 53): the probes `/healthz` and
//! `/readyz`, the log lines that name their game, and a graceful stop on SIGTERM. Each test runs
//! on SQLite, and on PostgreSQL with `TAFL_TEST_DB=postgres` (the tests' own cluster; the test
//! that stops its database and starts it again has a cluster of its own).
//! `a_page_moves_on_from_a_stopped_server_without_a_lost_connection_notice` is a real browser
//! through HAProxy (`#[ignore]`d: `.ci/run` runs it with `cargo test --test web -- --ignored ops::`).

use crate::common;
use crate::common::browser;

use std::path::PathBuf;
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

use common::{EventStream, Server, database, first_served_move, scratch};
use serde_json::{Value, json};

fn db(name: &str) -> PathBuf {
    scratch(name).join("games.sqlite")
}

/// Sends SIGTERM to the server, as a service manager does.
fn terminate(server: &Server) {
    let status = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// The server's exit status, if it exits within `limit`.
fn exits_within(server: &mut Server, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if let Some(status) = server.child.try_wait().expect("the child is ours") {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// A GET on `path`: the status, the JSON answer and the time it took.
fn probe(server: &Server, path: &str) -> (u16, Value, Duration) {
    let started = Instant::now();
    let (status, value) = server.call("GET", path, None);
    (status, value, started.elapsed())
}

/// Waits (up to `limit`) for a log line `accept` takes.
fn logged(server: &Server, limit: Duration, accept: impl Fn(&str) -> bool) -> Option<String> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(line) = server.log_lines().into_iter().find(|l| accept(l)) {
            return Some(line);
        }
        if Instant::now() > deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A new game against the engine; its id.
fn new_game(server: &Server, human: &str, level: u64) -> String {
    let created = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": human, "level": level})),
    );
    created["id"].as_str().expect("an id").to_owned()
}

#[test]
fn probes_answer_without_limit_or_secret() {
    // One request a second: an API client is throttled at once, a balancer's probes never.
    let server = Server::start(
        "127.0.0.1:0",
        &db("probes"),
        &["--rate", "1", "--burst", "1"],
    );
    let backend = if database::postgres() {
        "postgres"
    } else {
        "sqlite"
    };
    for _ in 0..30 {
        let (status, value, _) = probe(&server, "/healthz");
        assert_eq!((status, value), (200, json!({"status": "ok"})));
        let (status, value, _) = probe(&server, "/readyz");
        assert_eq!(
            (status, value),
            (200, json!({"status": "ready", "store": backend}))
        );
    }
    let statuses: Vec<u16> = (0..5)
        .map(|_| server.call("GET", "/api/status", None).0)
        .collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    // Nothing about the database's whereabouts, and never kept by a cache.
    let response = ureq::get(&server.url("/readyz")).call().expect("200");
    assert_eq!(response.header("cache-control"), Some("no-store"));
    let text = response.into_string().expect("a body");
    assert!(!text.contains(&server.db_arg), "{text}");
}

/// GET `url` from a blocking thread: the status and the JSON answer.
async fn get_json(url: String) -> (u16, Value) {
    tokio::task::spawn_blocking(move || {
        let response = match ureq::get(&url).call() {
            Ok(response) | Err(ureq::Error::Status(_, response)) => response,
            Err(error) => panic!("{url}: {error}"),
        };
        let status = response.status();
        (status, response.into_json().unwrap_or(Value::Null))
    })
    .await
    .expect("the request's thread")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_is_503_from_the_moment_the_server_stops() {
    // In this process, so that the stop can be begun without closing the listener: what a
    // balancer probing a stopping server on a kept-alive connection sees.
    let config = tafl_web::Config::new(database::arg(&db("stopping")));
    let state = tafl_web::AppState::open(config)
        .await
        .expect("the database opens");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(tafl_web::serve(
        listener,
        state.clone(),
        std::future::pending(),
    ));
    assert_eq!(get_json(format!("{base}/readyz")).await.0, 200);
    assert!(!state.stopping());
    state.stop();
    let (status, value) = get_json(format!("{base}/readyz")).await;
    assert_eq!(status, 503, "{value}");
    assert_eq!(value["error"], json!("stopping"), "{value}");
    // Alive all the same.
    assert_eq!(get_json(format!("{base}/healthz")).await.0, 200);
}

#[test]
fn readiness_fails_fast_while_the_database_is_stopped_and_recovers() {
    if !database::postgres() {
        eprintln!("skipped: needs TAFL_TEST_DB=postgres (the database is stopped and started)");
        return;
    }
    // A PostgreSQL of this test's own: the one every other web test of this binary shares
    // (on PostgreSQL) stays up.
    let cluster = database::Cluster::start();
    let server = Server::start_with("127.0.0.1:0", &cluster.database("outage"), &["--rate", "0"]);
    let id = new_game(&server, "attackers", 0);
    assert_eq!(probe(&server, "/readyz").0, 200);

    cluster.stop();
    let stopped = Instant::now();
    let (status, value, took) = probe(&server, "/readyz");
    assert_eq!(status, 503, "{value}");
    assert_eq!(value["error"], json!("storage_unavailable"), "{value}");
    // The balancer's probe is answered within the 1 s readiness waits, not after a hang.
    assert!(took < Duration::from_millis(2500), "{took:?}");
    eprintln!("figure: /readyz answered 503 in {took:?} with PostgreSQL stopped");
    // The process itself is alive, and a request that needs the database says why it fails.
    assert_eq!(probe(&server, "/healthz").0, 200);
    let (status, value, took) = probe(&server, "/api/status");
    assert_eq!(status, 503, "{value}");
    assert_eq!(value["error"], json!("storage_unavailable"), "{value}");
    assert!(took < Duration::from_secs(7), "{took:?}");
    assert!(stopped.elapsed() < Duration::from_secs(10));

    cluster.start_again();
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (status, value, _) = probe(&server, "/readyz");
        if status == 200 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not ready again: {status} {value}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // And it plays again.
    let state = server.ok("GET", &format!("/api/games/{id}"), None);
    let text = first_served_move(&state);
    server.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": text, "ply": 0})),
    );
}

#[test]
fn every_log_line_of_a_move_names_its_game() {
    let server = Server::start("127.0.0.1:0", &db("logs"), &["--rate", "0"]);
    let id = new_game(&server, "attackers", 0);
    let state = server.ok("GET", &format!("/api/games/{id}"), None);
    let text = first_served_move(&state);
    server.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": text, "ply": 0})),
    );
    // The engine answers (searched in a task of its own, outside the request).
    let mut events = EventStream::open(&server, &format!("/api/games/{id}/events"), Some(0));
    events.until(|e| e.name == "move" && e.data["by"] == json!("engine"));
    let game = format!("game={id}");
    let reply = logged(&server, Duration::from_secs(5), |l| {
        l.contains("kind=move") && l.contains(r#""by":"engine""#)
    })
    .expect("the engine's move is logged");
    assert!(reply.contains(&game), "{reply}");
    let lines = server.log_lines();
    let moves: Vec<&String> = lines.iter().filter(|l| l.contains("kind=move")).collect();
    assert_eq!(moves.len(), 2, "{lines:#?}");
    for line in &moves {
        assert!(line.contains(&game), "{line}");
    }
    // The creation and the engine's search too.
    for what in ["game created", "engine's search asked for"] {
        let line = lines.iter().find(|l| l.contains(what)).expect(what);
        assert!(line.contains(&game), "{line}");
    }

    // As JSON for a collector: one object a line, the game in the span.
    let json_server = Server::start(
        "127.0.0.1:0",
        &db("logs-json"),
        &["--rate", "0", "--log-format", "json"],
    );
    let id = new_game(&json_server, "defenders", 0);
    let line = logged(&json_server, Duration::from_secs(10), |l| {
        l.contains(r#""kind":"move""#)
    })
    .expect("the engine's first move is logged");
    let value: Value = serde_json::from_str(&line).expect("a JSON line");
    assert_eq!(value["span"]["game"], json!(id), "{value}");
    assert_eq!(value["fields"]["message"], json!("event"), "{value}");
    for line in json_server.log_lines() {
        serde_json::from_str::<Value>(&line).expect("every line is JSON");
    }
}

#[test]
fn sigterm_tells_streams_to_reconnect_hands_back_the_search_and_exits_0() {
    let path = db("sigterm");
    let mut server = Server::start("127.0.0.1:0", &path, &["--rate", "0"]);
    // Level "club": the engine thinks 3 s, long enough to be stopped mid-search.
    let id = new_game(&server, "attackers", 3);
    let state = server.ok("GET", &format!("/api/games/{id}"), None);
    let text = first_served_move(&state);
    let answer = server.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": text, "ply": 0})),
    );
    assert_eq!(answer["ply"], json!(1), "acknowledged: {answer}");
    let mut events = EventStream::open(&server, &format!("/api/games/{id}/events"), None);
    let first = events.next().expect("the stream opens with the state");
    assert_eq!(first.name, "state");
    // The engine's search runs on this server (PostgreSQL: it claimed the job, no worker runs).
    events.until(|e| e.name == "started");

    let signalled = Instant::now();
    terminate(&server);
    // The stream is told to reconnect (after the search's own news: queue, started, info),
    // then ends: no hang, no error, no move.
    let before = events.until(|e| e.name == "reconnect");
    let told = before.last().expect("reconnect");
    assert_eq!(told.data, json!({"reason": "server_stopping"}));
    assert!(before.iter().all(|e| e.id.is_none()), "{before:?}");
    assert!(events.next().is_none(), "the stream ends");
    let status = exits_within(&mut server, Duration::from_secs(4))
        .unwrap_or_else(|| panic!("still running {:?} after SIGTERM", signalled.elapsed()));
    assert!(status.success(), "{status:?}");
    eprintln!("figure: exited 0 {:?} after SIGTERM", signalled.elapsed());
    let stop = logged(&server, Duration::from_secs(1), |l| l.contains("stopping"))
        .expect("the stop is logged");
    assert!(stop.contains("searches_cancelled=1"), "{stop}");

    // The acknowledged move is stored; the engine's, cancelled, was not played...
    assert_eq!(database::stored(&server.db_arg, &id).moves, [text]);
    if let Some((_, name)) = server.db_arg.rsplit_once('/')
        && database::postgres()
    {
        // ...and its job waits in the queue again, held by nobody (not until its lease ends).
        let waiting = database::cluster().psql(
            name,
            &format!("SELECT count(*) FROM jobs WHERE game = '{id}' AND worker IS NULL"),
        );
        assert_eq!(waiting.trim(), "1");
    }
    // ...and is searched again where the game is next read (PostgreSQL: claimed from the queue).
    let again = Server::start_with("127.0.0.1:0", &server.db_arg, &["--rate", "0"]);
    let mut events = EventStream::open(&again, &format!("/api/games/{id}/events"), Some(1));
    let reply = events.until(|e| e.name == "move");
    let reply = reply.last().expect("the engine's move");
    assert_eq!(reply.data["by"], json!("engine"), "{reply:?}");
    assert_eq!(reply.data["ply"], json!(1), "{reply:?}");
    assert_eq!(database::stored(&again.db_arg, &id).moves.len(), 2);
}

#[test]
fn a_worker_sent_sigterm_mid_search_hands_its_job_back_at_once() {
    if !database::postgres() {
        eprintln!("skipped: needs TAFL_TEST_DB=postgres (workers search PostgreSQL's jobs)");
        return;
    }
    let url = database::cluster().database("worker_sigterm");
    let server = Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    // A lease of 60 s: a move that arrives sooner was handed back, not lost and retaken.
    let mut worker = Command::new(env!("CARGO_BIN_EXE_tafl-web"))
        .args([
            "worker",
            "--db",
            &url,
            "--searches",
            "1",
            "--lease-ms",
            "60000",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the worker starts");
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(worker.stdout.take().expect("piped")),
        &mut line,
    )
    .expect("the worker says it runs");
    assert!(line.contains("searching"), "{line}");
    // "club": 3 s a move; the person moves, the worker claims the engine's answer.
    let id = new_game(&server, "attackers", 3);
    let state = server.ok("GET", &format!("/api/games/{id}"), None);
    let text = first_served_move(&state);
    let mut events = EventStream::open(&server, &format!("/api/games/{id}/events"), None);
    server.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": text, "ply": 0})),
    );
    // `started`: another process (the worker: the server leaves jobs to it) claimed it.
    events.until(|e| e.name == "started");
    let name = url.rsplit_once('/').expect("a database name").1;
    let holder = database::cluster().psql(
        name,
        &format!("SELECT worker FROM jobs WHERE game = '{id}'"),
    );
    assert!(
        holder.trim().starts_with("worker ")
            && holder.trim().ends_with(&format!(":{}", worker.id())),
        "held by {holder:?}"
    );

    let signalled = Instant::now();
    let status = Command::new("kill")
        .args(["-TERM", &worker.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let status = worker.wait().expect("the worker ends");
    let exited = signalled.elapsed();
    assert!(status.success(), "{status:?}");
    // Its search was cancelled, not finished: it exits well within its 3 s.
    assert!(exited < Duration::from_secs(2), "{exited:?}");
    // The server, alone now, plays the move, long before the lease would have run out.
    let reply = events.until(|e| e.name == "move");
    let took = signalled.elapsed();
    assert_eq!(reply.last().expect("a move").data["by"], json!("engine"));
    assert!(took < Duration::from_secs(20), "{took:?}");
    assert_eq!(database::stored(&url, &id).moves.len(), 2, "played once");
    eprintln!(
        "figure: worker exited {exited:?} after SIGTERM; the server played the move {took:?} after it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium, chromedriver and haproxy: .ci/run runs it with --ignored"]
async fn a_page_moves_on_from_a_stopped_server_without_a_lost_connection_notice() {
    use browser::Chromedriver;
    use common::balancer::Balancer;

    // Always PostgreSQL: two servers share the games, HAProxy in front.
    let url = database::cluster().database("page_sigterm");
    let start = || Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    let mut servers = [start(), start()];
    let balancer = Balancer::start([&servers[0], &servers[1]]);
    let chromedriver = Chromedriver::start();
    let page = chromedriver.open(1280, 900).await;
    // Tablut, the attackers, "club": the engine thinks 3 s, long enough to stop its server.
    let id = page
        .start_engine_game(&balancer.url("/"), "tablut", "attackers", "3")
        .await;
    // Every text the status line shows from now on, and a mark a reload would lose.
    page.run(
        "window.taflMark = 'loaded once';
         window.taflStatuses = [];
         const status = document.getElementById('status');
         new MutationObserver(() => window.taflStatuses.push(status.textContent))
           .observe(status, {childList: true, characterData: true, subtree: true});
         return 1;",
    )
    .await;

    let state = balancer.game(&id);
    let text = first_served_move(&state);
    let (from, to) = text.split_once('-').expect("a move");
    page.click_move(from, to).await;
    page.wait("the player's move", |p| p["live"] == json!(1))
        .await;
    // SIGTERM to the server the page's stream is on, while the engine searches.
    let events = format!("/api/games/{id}/events");
    let streams = balancer.wait_requests(&events, 1);
    let victim = *streams.last().expect("a stream");
    let signalled = Instant::now();
    terminate(&servers[victim]);
    let status = exits_within(&mut servers[victim], Duration::from_secs(4)).expect("it exits");
    assert!(status.success(), "{status:?}");
    let answered = page
        .wait("the engine's answer", |p| {
            p["live"] == json!(2) && p["ply"] == json!(2)
        })
        .await;
    let took = signalled.elapsed();
    let statuses = page.run("return window.taflStatuses;").await;
    let lost: Vec<&Value> = statuses
        .as_array()
        .expect("statuses")
        .iter()
        .filter(|s| {
            let s = s.as_str().unwrap_or_default().to_lowercase();
            s.contains("lost") || s.contains("reconnecting")
        })
        .collect();
    assert!(lost.is_empty(), "the page said: {statuses}");
    assert_eq!(
        page.run("return window.taflMark || null;").await,
        json!("loaded once"),
        "the page was reloaded"
    );
    // It reconnected through the balancer, to the other server; the move was played once.
    let streams = balancer.wait_requests(&events, streams.len() + 1);
    assert_eq!(
        *streams.last().expect("a stream"),
        1 - victim,
        "{streams:?}"
    );
    let state = balancer.game(&id);
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(2), "{state}");
    assert_eq!(answered["listed"], json!(2));
    let cancelled = logged(&servers[victim], Duration::from_secs(1), |l| {
        l.contains("searches_cancelled=")
    })
    .expect("the stop is logged");
    eprintln!(
        "figure: the engine's move shown {:.1} s after SIGTERM to the page's server ({})",
        took.as_secs_f64(),
        cancelled.split("signal=").nth(1).unwrap_or_default()
    );
    page.close().await;
}
