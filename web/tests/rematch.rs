//! Rematches through the API: the sides swapped, the same rules and level; against the engine
//! at once, between two people through the other's open seat, which every page of the old game
//! is told about (a `rematch` event).

mod common;

use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

use common::{Server, scratch};
use serde_json::{Value, json};

/// Waits until the game's state satisfies `ready` (a minute at most).
fn wait_for_state(server: &Server, id: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let state = server.ok("GET", &format!("/api/games/{id}"), None);
        if ready(&state) {
            return state;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{state}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The data of the first `rematch` event of game `id`'s stream, replayed from its start.
fn rematch_event(server: &Server, id: &str) -> Value {
    let response = ureq::get(&server.url(&format!("/api/games/{id}/events?last_event_id=0")))
        .call()
        .expect("the event stream opens");
    let mut name = String::new();
    for line in BufReader::new(response.into_reader()).lines() {
        let line = line.expect("a line");
        if let Some(rest) = line.strip_prefix("event: ") {
            name = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("data: ")
            && name == "rematch"
        {
            return serde_json::from_str(rest).expect("JSON");
        }
    }
    panic!("no rematch event in {id}'s stream");
}

#[test]
fn a_rematch_against_the_engine_swaps_the_sides_and_keeps_the_rules_and_level() {
    let dir = scratch("rematch-engine");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let state = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "brandub", "human": "attackers", "level": 0})),
    );
    let id = state["id"].as_str().unwrap().to_owned();
    // Not before the game is over, and never without a seat's secret.
    let (status, answer) = server.call("POST", &format!("/api/games/{id}/rematch"), None);
    assert_eq!(
        (status, answer["error"].as_str()),
        (409, Some("not_finished"))
    );
    server.ok("POST", &format!("/api/games/{id}/resign"), None);
    let (status, _) = server.call_as("POST", &format!("/api/games/{id}/rematch"), None, None);
    assert_eq!(status, 403);
    let (status, again) = server.call("POST", &format!("/api/games/{id}/rematch"), None);
    assert_eq!(status, 201, "{again}");
    assert_ne!(again["id"], state["id"]);
    assert_eq!(again["rules"], state["rules"]);
    assert_eq!(again["level"], state["level"]);
    assert_eq!(again["human"], json!("defenders"));
    assert_eq!(again["you"], json!(["defenders"]));
    assert_eq!(again["seats"]["attackers"], json!("engine"), "{again}");
    // The engine has the first move now, and plays it by itself.
    let new_id = again["id"].as_str().unwrap().to_owned();
    wait_for_state(&server, &new_id, |s| s["ply"] == json!(1));
    assert_eq!(rematch_event(&server, &id)["id"], json!(new_id));
}

#[test]
fn a_rematch_between_two_people_opens_the_other_seat_for_the_other_person() {
    let dir = scratch("rematch-people");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let state = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "attackers", "opponent": "open"})),
    );
    let id = state["id"].as_str().unwrap().to_owned();
    let creator = state["secret"].as_str().unwrap().to_owned();
    let (status, joined) = server.call_as("POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(status, 200, "{joined}");
    let friend = joined["secret"].as_str().unwrap().to_owned();
    let (status, _) = server.call_as(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": "e2-h2"})),
        Some(&creator),
    );
    assert_eq!(status, 200);
    let (status, _) = server.call_as(
        "POST",
        &format!("/api/games/{id}/resign"),
        None,
        Some(&friend),
    );
    assert_eq!(status, 200);
    // The friend (the defenders) asks for the rematch: they attack in it, the defenders' seat
    // is open for the creator.
    let (status, rematch) = server.call_as(
        "POST",
        &format!("/api/games/{id}/rematch"),
        None,
        Some(&friend),
    );
    assert_eq!(status, 201, "{rematch}");
    assert_eq!(rematch["you"], json!(["attackers"]));
    assert_eq!(rematch["seats"]["defenders"], json!("open"));
    let new_id = rematch["id"].as_str().unwrap().to_owned();
    // Every page of the old game hears of it; the creator takes the open seat, once.
    assert_eq!(rematch_event(&server, &id)["id"], json!(new_id));
    let (status, seat) = server.call_as("POST", &format!("/api/games/{new_id}/join"), None, None);
    assert_eq!((status, seat["side"].as_str()), (200, Some("defenders")));
    let (status, _) = server.call_as("POST", &format!("/api/games/{new_id}/join"), None, None);
    assert_eq!(status, 409);
    // The old game's secrets hold nothing in the new one.
    let (status, _) = server.call_as(
        "POST",
        &format!("/api/games/{new_id}/moves"),
        Some(&json!({"move": "e2-h2"})),
        Some(&creator),
    );
    assert_eq!(status, 403);
    let (status, moved) = server.call_as(
        "POST",
        &format!("/api/games/{new_id}/moves"),
        Some(&json!({"move": "e2-h2"})),
        rematch["secret"].as_str(),
    );
    assert_eq!((status, moved["ply"].clone()), (200, json!(1)));
}
