//! Playing a friend through the API, as the page does it: the creator's game has an open seat;
//! the invitation (`/g/ID?join`, whose page calls `POST /api/games/ID/join`) is taken once and
//! holds that seat by the taker's secret; every move needs the secret of the side to move.

mod common;

use common::{Choices, Server, scratch, served_moves};
use serde_json::{Value, json};

fn move_as(server: &Server, id: &str, text: &str, ply: u64, secret: Option<&str>) -> (u16, Value) {
    server.call_as(
        "POST",
        &format!("/api/games/{id}/moves"),
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
