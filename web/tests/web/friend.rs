//! Playing a friend through the API, as the page does it: the creator's game has an open seat;
//! the invitation (`/g/ID?join`, whose page calls `POST /api/games/ID/join`) is taken once and
//! holds that seat by the taker's secret; every move needs the secret of the side to move.
//! The engine helps neither player while the game is on, and both once it is over.

use crate::common;

use common::people::first_event;
use common::{Choices, Server, scratch, served_move_texts, served_moves};
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn move_as(server: &Server, id: &str, text: &str, ply: u64, secret: Option<&str>) -> (u16, Value) {
    server.act(
        id,
        "moves",
        Some(&json!({ "move": text, "ply": ply })),
        secret,
    )
}

#[test]
fn an_invitation_is_taken_once_and_each_player_moves_only_with_their_own_secret() {
    let dir = scratch("friend-invitation");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let created = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "defenders", "opponent": "open"})),
    );
    let id = created["id"].as_str().unwrap().to_owned();
    let creator = created["secret"].as_str().unwrap().to_owned();
    assert_eq!(
        created["seats"],
        json!({"attackers": "open", "defenders": "person"})
    );
    assert_eq!(created["engine_to_move"], json!(false));

    // The invitation link is the game's page with `?join`: the page itself.
    let page = server
        .get(&format!("/g/{id}?join"))
        .call()
        .expect("the page");
    assert_eq!(page.status(), 200);
    assert!(page.into_string().unwrap().contains("id=\"invite\""));

    // Before anyone joins, the open seat's turn cannot be played by the creator.
    let first = served_moves(&created)[0].clone();
    let text = format!("{}-{}", first.0, first.1);
    let (status, refused) = move_as(&server, &id, &text, 0, Some(&creator));
    assert_eq!(
        (status, refused["error"].as_str()),
        (403, Some("not_your_seat")),
        "{refused}"
    );

    // A stranger opens the invitation: the open seat is theirs, and stays theirs.
    let (status, joined) = server.call_as("POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["side"], json!("attackers"));
    assert_eq!(joined["state"]["seats"]["attackers"], json!("person"));
    let friend = joined["secret"].as_str().unwrap().to_owned();
    assert!(friend.len() >= 32 && friend != creator);
    // A second taker (anyone, even the creator) is refused, and the seat keeps its holder.
    for (body, secret) in [
        (None, None),
        (Some(json!({"side": "attackers"})), None),
        (Some(json!({"side": "defenders"})), None),
        (None, Some(creator.as_str())),
    ] {
        let (status, again) = server.call_as(
            "POST",
            &format!("/api/games/{id}/join"),
            body.as_ref(),
            secret,
        );
        assert_eq!(
            (status, again["error"].as_str()),
            (409, Some("seat_taken")),
            "{again}"
        );
    }
    let watched = server
        .call_as("GET", &format!("/api/games/{id}"), None, None)
        .1;
    assert_eq!(
        watched["seats"],
        json!({"attackers": "person", "defenders": "person"})
    );
    let mine = server
        .call_as("GET", &format!("/api/games/{id}"), None, Some(&friend))
        .1;
    assert_eq!(mine["you"], json!(["attackers"]));

    // Twelve plies: each turn, the other player's secret, none and a made-up one are refused
    // (nothing changes), then the side to move's own secret plays.
    let mut choices = Choices(0x51c);
    let mut state = watched;
    for ply in 0..12u64 {
        if state["finished"] == json!(true) {
            break;
        }
        assert_eq!(state["ply"], json!(ply));
        let (own, other) = if state["to_move"] == json!("attackers") {
            (&friend, &creator)
        } else {
            (&creator, &friend)
        };
        let moves = served_moves(&state);
        let (from, to) = &moves[choices.pick(moves.len())];
        let text = format!("{from}-{to}");
        for (secret, code) in [
            (Some(other.as_str()), "not_your_seat"),
            (None, "no_secret"),
            (Some("0123456789abcdef0123456789abcdef"), "wrong_secret"),
        ] {
            let (status, refused) = move_as(&server, &id, &text, ply, secret);
            assert_eq!(
                (status, refused["error"].as_str()),
                (403, Some(code)),
                "{refused}"
            );
        }
        let unchanged = server
            .call_as("GET", &format!("/api/games/{id}"), None, None)
            .1;
        assert_eq!(
            unchanged["ply"],
            json!(ply),
            "a refused move changed nothing"
        );
        let (status, next) = move_as(&server, &id, &text, ply, Some(own));
        assert_eq!(status, 200, "{next}");
        assert_eq!(next["ply"], json!(ply + 1));
        assert_eq!(
            next["engine_to_move"],
            json!(false),
            "no engine plays between people"
        );
        state = next;
    }
    assert!(state["ply"].as_u64().unwrap() >= 2);
}

/// Reads a think stream, sent with `secret`, to its answer: (event name, data).
fn ask(server: &Server, path: &str, secret: &str) -> (String, Value) {
    let answer = first_event(server, path, Some(secret), &["hint", "analysis", "failed"]);
    (answer.name, answer.data)
}

#[test]
fn after_a_game_between_people_both_players_get_hints_and_analyses_of_any_position() {
    let dir = scratch("friend-after");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let people = server.two_people(json!({"variant": "tablut", "human": "defenders"}));
    let (id, creator, friend, joined) = (people.id, people.host, people.guest, people.joined);
    let think = |purpose: &str, ply: Option<usize>, secret: Option<&str>| {
        let ply = ply.map(|p| format!("&ply={p}")).unwrap_or_default();
        server.call_as(
            "GET",
            &format!("/api/games/{id}/think?for={purpose}{ply}"),
            None,
            secret,
        )
    };
    // Four plies, the states kept: no hint and no analysis for either player meanwhile.
    let mut states = vec![joined["state"].clone()];
    let mut choices = Choices(0x51c3);
    for ply in 0..4 {
        for purpose in ["hint", "analysis"] {
            for secret in [&creator, &friend] {
                let (status, refused) = think(purpose, None, Some(secret));
                assert_eq!(
                    (status, refused["error"].as_str()),
                    (409, Some("game_between_people")),
                    "{purpose} at ply {ply}: {refused}"
                );
            }
        }
        let state = states.last().unwrap();
        let own = if state["to_move"] == json!("attackers") {
            &friend
        } else {
            &creator
        };
        let moves = served_moves(state);
        let (from, to) = &moves[choices.pick(moves.len())];
        let (status, next) = move_as(&server, &id, &format!("{from}-{to}"), ply, Some(own));
        assert_eq!(status, 200, "{next}");
        states.push(next);
    }
    let (status, review) = server.call_as("GET", &format!("/api/games/{id}/review"), None, None);
    assert_eq!(
        (status, review["error"].as_str()),
        (409, Some("not_finished"))
    );
    let (status, over) = server.call_as(
        "POST",
        &format!("/api/games/{id}/resign"),
        None,
        Some(&creator),
    );
    assert_eq!(
        (status, over["finished"].as_bool()),
        (200, Some(true)),
        "{over}"
    );

    // Over: each player gets a hint for the last position, one of its legal moves.
    for secret in [&creator, &friend] {
        let (name, found) = ask(&server, &format!("/api/games/{id}/think?for=hint"), secret);
        assert_eq!(name, "hint", "{found}");
        let best = found["best"].as_str().expect("a best move");
        assert!(served_move_texts(&states[4]).contains(best), "{best}");
    }
    // And three lines for an earlier position, each starting with a different legal move there.
    let (name, found) = ask(
        &server,
        &format!("/api/games/{id}/think?for=analysis&ply=2"),
        &friend,
    );
    assert_eq!(name, "analysis", "{found}");
    let lines = found["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{found}");
    let firsts: BTreeSet<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
    assert_eq!(firsts.len(), 3);
    let legal = served_move_texts(&states[2]);
    assert!(
        firsts.iter().all(|m| legal.contains(*m)),
        "{firsts:?} {legal:?}"
    );
    // Nothing changed, and nobody else asks.
    let after = server
        .call_as("GET", &format!("/api/games/{id}"), None, None)
        .1;
    assert_eq!(
        (after["ply"].clone(), after["finished"].clone()),
        (json!(4), json!(true))
    );
    let (status, _) = think("hint", None, None);
    assert_eq!(status, 403, "a spectator asks nothing");
    let (status, refused) = think("analysis", Some(5), Some(&friend));
    assert_eq!((status, refused["error"].as_str()), (422, Some("bad_ply")));
    // The review is computed for it, as for any finished game.
    let (status, review) = server.call_as("GET", &format!("/api/games/{id}/review"), None, None);
    assert_eq!(status, 200, "{review}");

    // A finished game against the engine stays closed to hints.
    let engine = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "defenders"})),
    );
    let eid = engine["id"].as_str().unwrap();
    let esecret = engine["secret"].as_str().unwrap();
    server.call_as(
        "POST",
        &format!("/api/games/{eid}/resign"),
        None,
        Some(esecret),
    );
    let (status, refused) = server.call_as(
        "GET",
        &format!("/api/games/{eid}/think?for=hint"),
        None,
        Some(esecret),
    );
    assert_eq!(
        (status, refused["error"].as_str()),
        (409, Some("game_over"))
    );
}

#[test]
fn a_live_clock_waits_for_the_invited_friend_and_runs_from_their_arrival() {
    let dir = scratch("friend-clock");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    let created = server.ok(
        "POST",
        "/api/games",
        Some(
            &json!({"variant": "tablut", "human": "attackers", "opponent": "open",
                     "clock_seconds": 60, "increment_seconds": 0}),
        ),
    );
    let id = created["id"].as_str().unwrap().to_owned();
    // The creator (to move) waits for the friend: their clock stands still meanwhile.
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let waiting = server.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(
        (&waiting["clock"]["attackers"], &waiting["clock"]["running"]),
        (&json!(60_000), &Value::Null),
        "{waiting}"
    );
    // The friend sits down: the creator's turn, and clock, start now.
    let joined = server.join_open(&id);
    assert_eq!(joined["state"]["clock"]["running"], json!("attackers"));
    let left = joined["state"]["clock"]["attackers"].as_i64().unwrap();
    assert!((59_000..=60_000).contains(&left), "{joined}");
}
