//! Searches as jobs (issue 53): `tafl-web worker` processes search the engine's moves of the
//! games that servers keep in PostgreSQL, a worker killed mid-search loses its job to another
//! after its lease, every move is played once, and a server searches itself while no worker
//! runs. The PostgreSQL is the tests' own (common/database.rs); every test has a database of
//! its own (the workers' heartbeats are per database).

use crate::common;

use std::time::{Duration, Instant};

use common::worker::Worker;
use common::{EventStream, Server, database, first_served_move};
use serde_json::{Value, json};

/// A fresh database of the tests' PostgreSQL: (its name, its URL).
fn fresh(name: &str) -> (String, String) {
    let name = format!("workers_{name}");
    let url = database::cluster().database(&name);
    (name, url)
}

/// `sql`'s one value, as text, on database `name`.
fn sql(name: &str, sql: &str) -> String {
    database::cluster().psql(name, sql).trim().to_owned()
}

fn wait_for(what: &str, within: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !done() {
        assert!(
            Instant::now() < deadline,
            "waited too long for {what} ({within:?})"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A new game against the engine (the engine plays the attackers, who move first).
fn new_game(server: &Server, level: u64) -> String {
    let created = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "defenders", "level": level})),
    );
    created["id"].as_str().expect("an id").to_owned()
}

fn state(server: &Server, id: &str) -> Value {
    server.ok("GET", &format!("/api/games/{id}"), None)
}

/// Waits for game `id` to have `ply` moves (read through `server`).
fn wait_ply(server: &Server, id: &str, ply: u64, within: Duration) -> Value {
    let mut last = Value::Null;
    wait_for(&format!("ply {ply} of {id}"), within, || {
        last = state(server, id);
        last["ply"] == json!(ply)
    });
    last
}

/// The person (the defenders) plays the first legal move of the position `state`.
fn person_moves(server: &Server, id: &str, state: &Value) {
    let text = first_served_move(state);
    server.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": text, "ply": state["ply"]})),
    );
}

/// Rows of the game's moves and engine-move events at `ply`: (moves, events).
fn stored_at(name: &str, id: &str, ply: u64) -> (u64, u64) {
    let moves = sql(
        name,
        &format!("SELECT COUNT(*) FROM moves WHERE game = '{id}' AND ply = {ply}"),
    );
    let events = sql(
        name,
        &format!(
            "SELECT COUNT(*) FROM events WHERE game = '{id}' AND kind = 'move' \
             AND data::json->>'ply' = '{ply}'"
        ),
    );
    (moves.parse().unwrap(), events.parse().unwrap())
}

#[test]
fn a_worker_plays_the_engines_moves_of_a_game_made_on_a_server() {
    let (name, url) = fresh("one");
    let worker = Worker::start(&url, &[]);
    let server = Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    let id = new_game(&server, 0);
    let mut stream = EventStream::open(&server, &format!("/api/games/{id}/events"), Some(0));
    let first = wait_ply(&server, &id, 1, Duration::from_secs(10));
    person_moves(&server, &id, &first);
    wait_ply(&server, &id, 3, Duration::from_secs(10));
    // The worker played both of the engine's moves (the server leaves them to it)...
    assert_eq!(worker.wait_played(2), [(id.clone(), 0), (id.clone(), 2)]);
    // ...and the page on the server got them through the database's notifications, in order.
    let moves: Vec<(u64, String)> = (0..3)
        .map(|_| {
            let event = stream
                .until(|e| e.name == "move")
                .pop()
                .expect("a move event");
            (
                event.data["ply"].as_u64().unwrap(),
                event.data["by"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        moves,
        [
            (0, "engine".to_owned()),
            (1, "person".to_owned()),
            (2, "engine".to_owned())
        ]
    );
    assert_eq!(sql(&name, "SELECT COUNT(*) FROM jobs"), "0");
}

#[test]
fn a_worker_killed_mid_search_loses_its_job_after_its_lease_and_the_move_is_played_once() {
    let (name, url) = fresh("killed");
    let lease = 1_000;
    let options = ["--lease-ms", "1000"];
    let mut workers = [Worker::start(&url, &options), Worker::start(&url, &options)];
    let server = Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    // "casual": a second a move, long enough to be killed in.
    let id = new_game(&server, 2);
    let mut holder = String::new();
    wait_for("a worker to claim the job", Duration::from_secs(5), || {
        holder = sql(
            &name,
            &format!("SELECT COALESCE(worker, '') FROM jobs WHERE game = '{id}'"),
        );
        !holder.is_empty()
    });
    let killed = workers
        .iter()
        .position(|w| holder.ends_with(&w.suffix()))
        .expect("one of the two holds it");
    workers[killed].kill();
    let at = Instant::now();
    wait_ply(&server, &id, 1, Duration::from_secs(10));
    let took = at.elapsed();
    eprintln!("the killed worker's move came {took:?} after the kill (lease {lease} ms)");
    // Within the lease and one search (1 s), with room for a busy machine.
    assert!(
        took < Duration::from_millis(lease + 1_000 + 1_500),
        "the move came {took:?} after the kill"
    );
    assert!(
        took >= Duration::from_millis(lease / 2),
        "the move came before the lease ran out ({took:?}): not the killed worker's job?"
    );
    let other = &workers[1 - killed];
    assert_eq!(other.wait_played(1), [(id.clone(), 0)]);
    assert!(
        other
            .log
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.contains("(try 2)")),
        "the second claim is the job's second try"
    );
    // Played once: one move row, one move event at ply 0, and nothing else in the game.
    assert_eq!(stored_at(&name, &id, 0), (1, 1));
    assert_eq!(
        sql(
            &name,
            &format!("SELECT COUNT(*) FROM events WHERE game = '{id}'")
        ),
        "1"
    );
}

#[test]
fn two_workers_and_many_games_each_move_played_once_none_lost() {
    let (name, url) = fresh("many");
    let workers = [Worker::start(&url, &[]), Worker::start(&url, &[])];
    let server = Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    let games: Vec<String> = (0..12).map(|_| new_game(&server, 0)).collect();
    for id in &games {
        let first = wait_ply(&server, id, 1, Duration::from_secs(20));
        person_moves(&server, id, &first);
    }
    for id in &games {
        wait_ply(&server, id, 3, Duration::from_secs(20));
    }
    wait_for("the workers' lines", Duration::from_secs(5), || {
        workers.iter().map(|w| w.played().len()).sum::<usize>() >= 2 * games.len()
    });
    let mut played: Vec<(String, u64)> = workers.iter().flat_map(Worker::played).collect();
    assert!(
        workers.iter().all(|w| !w.played().is_empty()),
        "both workers searched: {played:?}"
    );
    played.sort();
    let mut wanted: Vec<(String, u64)> = games
        .iter()
        .flat_map(|id| [(id.clone(), 0), (id.clone(), 2)])
        .collect();
    wanted.sort();
    assert_eq!(
        played, wanted,
        "every engine move played once, by one worker"
    );
    for id in &games {
        for ply in 0..3 {
            assert_eq!(stored_at(&name, id, ply), (1, 1), "{id} ply {ply}");
        }
    }
    assert_eq!(sql(&name, "SELECT COUNT(*) FROM jobs"), "0");
}

#[test]
fn the_server_searches_itself_while_no_worker_runs() {
    let (name, url) = fresh("alone");
    let server = Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    let id = new_game(&server, 0);
    let first = wait_ply(&server, &id, 1, Duration::from_secs(10));
    assert_eq!(sql(&name, "SELECT COUNT(*) FROM workers"), "0");
    // A worker comes: the server leaves the next move to it.
    let mut worker = Worker::start(&url, &[]);
    person_moves(&server, &id, &first);
    let second = wait_ply(&server, &id, 3, Duration::from_secs(10));
    assert_eq!(worker.wait_played(1), [(id.clone(), 2)]);
    // It stops (SIGTERM: its heartbeat goes at once): the server searches again.
    worker.stop();
    assert_eq!(sql(&name, "SELECT COUNT(*) FROM workers"), "0");
    person_moves(&server, &id, &second);
    wait_ply(&server, &id, 5, Duration::from_secs(10));
    for ply in 0..5 {
        assert_eq!(stored_at(&name, &id, ply), (1, 1), "ply {ply}");
    }
}

#[test]
fn a_job_whose_searcher_dies_three_times_is_given_up_and_its_game_told() {
    let (name, url) = fresh("given_up");
    let options = ["--lease-ms", "800"];
    // The worker first: a server that looked for live workers just before it came could
    // still claim the job itself.
    let mut worker = Worker::start(&url, &options);
    let server = Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    // "master": 20 s a move, so no claimer finishes before it is killed.
    let id = new_game(&server, 5);
    let mut stream = EventStream::open(&server, &format!("/api/games/{id}/events"), Some(0));
    // Each claimer is killed as soon as it holds the job; the next claims it after the lease.
    for tries in 1..=3 {
        let wanted = format!("{}/{tries}", worker.suffix());
        let mut holder = String::new();
        wait_for(&format!("claim {tries}"), Duration::from_secs(5), || {
            holder = sql(
                &name,
                &format!("SELECT worker || '/' || tries FROM jobs WHERE game = '{id}'"),
            );
            if !holder.ends_with(&wanted) {
                eprintln!("claim {tries}: the job is held by {holder:?}");
            }
            holder.ends_with(&wanted)
        });
        worker.kill();
        worker = Worker::start(&url, &options);
    }
    // The third lease runs out: the next claimer gives the job up and tells the game.
    let failed = stream.until(|e| e.name == "failed").pop().expect("failed");
    assert_eq!(failed.id, Some(1), "a stored event, numbered");
    assert_eq!(failed.data["ply"], json!(0));
    assert!(
        failed.data["message"]
            .as_str()
            .is_some_and(|m| m.contains("failed 3 times")),
        "{}",
        failed.data
    );
    assert_eq!(sql(&name, "SELECT COUNT(*) FROM jobs"), "0");
    assert_eq!(stored_at(&name, &id, 0), (0, 0), "no move was played");
    assert!(worker.played().is_empty());
    assert_eq!(state(&server, &id)["ply"], json!(0));
}

#[test]
fn the_engines_turn_is_stored_with_the_persons_move_and_survives_the_servers_death() {
    let (name, url) = fresh("asked");
    let mut server = Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    // A worker that seems alive (and never claims): the server leaves the jobs to it.
    sql(
        &name,
        "INSERT INTO workers (id, searches, seen_ms) VALUES ('a worker to come', 1, \
         (EXTRACT(EPOCH FROM now()) * 1000)::BIGINT + 600000)",
    );
    // The person plays the attackers, who move first; the engine's turn comes with the move.
    let created = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "attackers", "level": 0})),
    );
    let id = created["id"].as_str().unwrap().to_owned();
    person_moves(&server, &id, &created);
    // The server dies at once after its answer: the engine's move is asked for all the same.
    server.kill();
    assert_eq!(
        sql(
            &name,
            &format!("SELECT ply || '/' || tries FROM jobs WHERE game = '{id}'")
        ),
        "1/0"
    );
    sql(&name, "DELETE FROM workers");
    let worker = Worker::start(&url, &[]);
    assert_eq!(worker.wait_played(1), [(id.clone(), 1)]);
    assert_eq!(stored_at(&name, &id, 1), (1, 1));
    assert_eq!(sql(&name, "SELECT COUNT(*) FROM jobs"), "0");
}
