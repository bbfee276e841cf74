//! Rematches through the API: the sides swapped, the same rules and level; against the engine
//! at once, between two people through the other's open seat, which every page of the old game
//! is told about (a `rematch` event).

use crate::common;

use common::people::first_event;
use common::{Server, scratch};
use serde_json::{Value, json};

/// The data of the first `rematch` event of game `id`'s stream, replayed from its start.
fn rematch_event(server: &Server, id: &str) -> Value {
    let path = format!("/api/games/{id}/events?last_event_id=0");
    first_event(server, &path, None, &["rematch"]).data
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
    server.wait_state(&new_id, |s| s["ply"] == json!(1));
    assert_eq!(rematch_event(&server, &id)["id"], json!(new_id));
}

#[test]
fn a_rematch_between_two_people_opens_the_other_seat_for_the_other_person() {
    let dir = scratch("rematch-people");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let people = server.two_people(json!({"variant": "tablut", "human": "attackers"}));
    let (id, creator, friend) = (people.id, people.host, people.guest);
    let e2_h2 = json!({"move": "e2-h2"});
    assert_eq!(
        server.act(&id, "moves", Some(&e2_h2), Some(&creator)).0,
        200
    );
    assert_eq!(server.act(&id, "resign", None, Some(&friend)).0, 200);
    // The friend (the defenders) asks for the rematch: they attack in it, the defenders' seat
    // is open for the creator.
    let (status, rematch) = server.act(&id, "rematch", None, Some(&friend));
    assert_eq!(status, 201, "{rematch}");
    assert_eq!(rematch["you"], json!(["attackers"]));
    assert_eq!(rematch["seats"]["defenders"], json!("open"));
    let new_id = rematch["id"].as_str().unwrap().to_owned();
    // Every page of the old game hears of it; the creator takes the open seat, once.
    assert_eq!(rematch_event(&server, &id)["id"], json!(new_id));
    let (status, seat) = server.act(&new_id, "join", None, None);
    assert_eq!((status, seat["side"].as_str()), (200, Some("defenders")));
    assert_eq!(server.act(&new_id, "join", None, None).0, 409);
    // The old game's secrets hold nothing in the new one.
    assert_eq!(
        server.act(&new_id, "moves", Some(&e2_h2), Some(&creator)).0,
        403
    );
    let (status, moved) = server.act(&new_id, "moves", Some(&e2_h2), rematch["secret"].as_str());
    assert_eq!((status, moved["ply"].clone()), (200, json!(1)));
}

#[test]
fn when_both_people_ask_for_a_rematch_the_second_takes_the_seat_the_first_opened() {
    let dir = scratch("rematch-both");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let people = server.two_people(json!({"variant": "tablut", "human": "attackers"}));
    let (id, creator, friend) = (people.id, people.host, people.guest);
    assert_eq!(server.act(&id, "resign", None, Some(&friend)).0, 200);
    let (status, first) = server.act(&id, "rematch", None, Some(&creator));
    assert_eq!(status, 201, "{first}");
    assert_eq!(first["you"], json!(["defenders"]));
    // The friend presses Rematch too (their page had not heard of the first yet): they sit in
    // the same new game, as its attackers, with a secret of their own.
    let (status, second) = server.act(&id, "rematch", None, Some(&friend));
    assert_eq!(status, 200, "{second}");
    assert_eq!(second["id"], first["id"], "one rematch, not two");
    assert_eq!(second["you"], json!(["attackers"]));
    assert_eq!(
        second["seats"],
        json!({"attackers": "person", "defenders": "person"})
    );
    let rematch = first["id"].as_str().unwrap();
    let (status, moved) = server.act(
        rematch,
        "moves",
        Some(&json!({"move": "e2-h2"})),
        second["secret"].as_str(),
    );
    assert_eq!((status, moved["ply"].clone()), (200, json!(1)), "{moved}");
    // Its seats are both taken: nobody else joins it.
    assert_eq!(server.act(rematch, "join", None, None).0, 409);
}
