//! Several servers on one PostgreSQL (issue 53): any server answers any game, none serves a
//! stale copy of a game another changed, and every move reaches the event streams open on every
//! server, numbered alike (LISTEN/NOTIFY carries the game's id; the events are read from the
//! database). The PostgreSQL is the tests' own (common/database.rs).

use crate::common;

use common::{Choices, EventStream, Server, database, served_move_texts};
use serde_json::{Value, json};

fn move_as(server: &Server, id: &str, text: &str, ply: u64, secret: &str) -> (u16, Value) {
    server.call_as(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({ "move": text, "ply": ply })),
        Some(secret),
    )
}

#[test]
fn two_servers_share_one_game_its_moves_and_its_streams() {
    let url = database::cluster().database("two_servers");
    let start = || Server::start_with("127.0.0.1:0", &url, &["--rate", "0"]);
    let (a, b) = (start(), start());
    // The creator plays the defenders on server A; the friend joins on B and plays there.
    let created = a.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "defenders", "opponent": "open"})),
    );
    let id = created["id"].as_str().unwrap().to_owned();
    let creator = created["secret"].as_str().unwrap().to_owned();
    // A spectator on each server, from the start.
    let events = format!("/api/games/{id}/events");
    let mut watch_a = EventStream::open(&a, &events, Some(0));
    let mut watch_b = EventStream::open(&b, &events, Some(0));
    let (status, joined) = b.call_as("POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(status, 200, "{joined}");
    let friend = joined["secret"].as_str().unwrap().to_owned();
    assert_eq!(joined["side"], json!("attackers"));

    // Each side moves on its own server: each server must see the other's last move (A's copy
    // of the game is in its memory since the creation) or it would refuse the next one.
    let mut choices = Choices(53);
    let mut played = Vec::new();
    for ply in 0..12u64 {
        let (server, secret) = if ply % 2 == 0 {
            (&b, &friend)
        } else {
            (&a, &creator)
        };
        let state = server.ok("GET", &format!("/api/games/{id}"), None);
        assert_eq!(state["ply"], json!(ply), "{state}");
        if !state["result"].is_null() {
            break;
        }
        let moves: Vec<String> = served_move_texts(&state).into_iter().collect();
        let text = moves[choices.pick(moves.len())].clone();
        let (status, answer) = move_as(server, &id, &text, ply, secret);
        assert_eq!(status, 200, "ply {ply} {text}: {answer}");
        played.push(text);
    }
    // Both servers answer the same game.
    let read_a = a.ok("GET", &format!("/api/games/{id}"), None);
    let read_b = b.ok("GET", &format!("/api/games/{id}"), None);
    assert_eq!(read_a["moves"], read_b["moves"]);
    assert_eq!(read_a["ply"], json!(played.len()));

    // Every stream saw the join and every move, numbered 1, 2, ... alike, from both servers.
    let wanted = played.len() + 1;
    for watch in [&mut watch_a, &mut watch_b] {
        let mut seen = Vec::new();
        while seen.len() < wanted {
            let event = watch.next().expect("the stream goes on");
            if let Some(seq) = event.id
                && event.name != "state"
            {
                seen.push((seq, event.name.clone(), event.data["move"].clone()));
            }
        }
        let numbers: Vec<u64> = seen.iter().map(|e| e.0).collect();
        assert_eq!(numbers, (1..=wanted as u64).collect::<Vec<_>>());
        assert_eq!(seen[0].1, "join");
        let moves: Vec<String> = seen[1..]
            .iter()
            .map(|e| e.2.as_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(moves, played);
    }
    // A page that reconnects to the other server gets exactly what it missed.
    let mut again = EventStream::open(&a, &events, Some(5));
    let missed = again.until(|e| e.name == "state");
    let numbers: Vec<u64> = missed
        .iter()
        .filter(|e| e.name != "state")
        .filter_map(|e| e.id)
        .collect();
    assert_eq!(numbers, (6..=wanted as u64).collect::<Vec<_>>());
}
