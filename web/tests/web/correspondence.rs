//! Correspondence games: days per move, the side to move's deadline in the state, and a loss
//! on time (in the record too) when it passes, with no page open and across a restart.
//! A day here is 1.5 s: the server's test-only option `--day-ms` (default a real day).

use crate::common;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::{Server, scratch, served_moves};
use serde_json::{Value, json};

const DAY_MS: u64 = 1500;

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap() // the clock is after 1970
        .as_millis() as u64
}

fn start(db: &std::path::Path) -> Server {
    Server::start("127.0.0.1:0", db, &["--rate", "0", "--day-ms", "1500"])
}

/// The stored game, read apart from the server (no request reaches it).
fn stored(db: &std::path::Path, id: &str) -> tafl_web::store::GameRow {
    common::database::stored(&common::database::arg(db), id)
}

/// A correspondence game between two people, the invitation taken: (id, creator, friend,
/// the state after the join).
fn game_between_people(server: &Server, days: u64) -> (String, String, String, Value) {
    let created = server.ok(
        "POST",
        "/api/games",
        Some(
            &json!({"variant": "tablut", "human": "defenders", "opponent": "open",
                     "days_per_move": days}),
        ),
    );
    assert_eq!(created["days_per_move"], json!(days));
    assert_eq!(
        created["deadline"],
        Value::Null,
        "no deadline while a seat is open"
    );
    let id = created["id"].as_str().unwrap().to_owned();
    let before = now_ms();
    let joined = server.join_open(&id);
    let after = now_ms();
    let deadline = joined["state"]["deadline"]
        .as_u64()
        .expect("a deadline once both sit");
    assert!(
        (before + days * DAY_MS..=after + days * DAY_MS).contains(&deadline),
        "{before} {deadline} {after}"
    );
    (
        id,
        created["secret"].as_str().unwrap().to_owned(),
        joined["secret"].as_str().unwrap().to_owned(),
        joined["state"].clone(),
    )
}

#[test]
fn days_per_move_are_checked_and_a_missed_deadline_loses_with_no_page_open() {
    let dir = scratch("correspondence");
    let db = dir.join("games.sqlite");
    let server = start(&db);
    for bad in [
        json!({"variant": "tablut", "opponent": "open", "days_per_move": 0}),
        json!({"variant": "tablut", "opponent": "open", "days_per_move": 15}),
        json!({"variant": "tablut", "opponent": "open", "days_per_move": 3, "clock_seconds": 60}),
        json!({"variant": "tablut", "mode": "analysis", "days_per_move": 3}),
    ] {
        let (status, refused) = server.call("POST", "/api/games", Some(&bad));
        assert_eq!(
            (status, refused["error"].as_str()),
            (422, Some("bad_clock")),
            "{bad}"
        );
    }
    let (id, _creator, friend, state) = game_between_people(&server, 2);
    // The attackers (the friend) move: the defenders' deadline runs from that move.
    let (from, to) = served_moves(&state)[0].clone();
    let before = now_ms();
    let (status, moved) = server.call_as(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": format!("{from}-{to}"), "ply": 0})),
        Some(&friend),
    );
    assert_eq!(status, 200, "{moved}");
    let deadline = moved["deadline"].as_u64().expect("deadline");
    assert!(deadline >= before + 2 * DAY_MS && deadline <= now_ms() + 2 * DAY_MS);
    assert_eq!(moved["clock"], Value::Null, "a deadline, not a clock");
    // Nobody asks anything: past the deadline the server has ended the game by itself.
    let waited = Instant::now();
    std::thread::sleep(Duration::from_millis(
        deadline.saturating_sub(now_ms()) + 700,
    ));
    let row = stored(&db, &id);
    assert_eq!(
        row.flagged.as_deref(),
        Some("defenders"),
        "after {:?}",
        waited.elapsed()
    );
    let over = server
        .call_as("GET", &format!("/api/games/{id}"), None, None)
        .1;
    assert_eq!(over["finished"], json!(true));
    assert_eq!(over["result"]["reason"], json!("time"));
    assert_eq!(over["result"]["winner"], json!("attackers"));
    assert_eq!(over["deadline"], Value::Null);
    let record = server
        .get(&format!("/api/games/{id}/otg"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(record.contains("ran out of time"), "{record}");
}

#[test]
fn a_deadline_that_passes_while_the_server_is_down_loses_at_its_start() {
    let dir = scratch("correspondence-restart");
    let db = dir.join("games.sqlite");
    let mut server = start(&db);
    let (id, _creator, _friend, state) = game_between_people(&server, 1);
    let deadline = state["deadline"].as_u64().unwrap();
    // Another game whose deadline is far: it goes on.
    let (later, _, _, later_state) = game_between_people(&server, 14);
    let later_deadline = later_state["deadline"].as_u64().unwrap();
    server.kill();
    std::thread::sleep(Duration::from_millis(
        deadline.saturating_sub(now_ms()) + 300,
    ));
    assert_eq!(stored(&db, &id).flagged, None, "the server was down");
    let server = start(&db);
    // No request about the game: the server read it at its start.
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(stored(&db, &id).flagged.as_deref(), Some("attackers"));
    assert_eq!(stored(&db, &later).flagged, None);
    let going = server
        .call_as("GET", &format!("/api/games/{later}"), None, None)
        .1;
    assert_eq!(going["finished"], json!(false));
    let kept = going["deadline"].as_u64().unwrap();
    assert!(
        kept.abs_diff(later_deadline) < 100,
        "the deadline kept across the restart: {later_deadline} then {kept}"
    );
}
