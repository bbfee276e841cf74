//! The review of a finished game through the API: computed in the background, stored (it
//! survives a restart), one evaluation per position, and only for a game that is over.

use crate::common;

use std::time::{Duration, Instant};

use common::people::first_event;
use common::{Server, scratch};
use serde_json::{Value, json};
use tafl_engine::{Game, Variant};

/// Reads a think stream (sent with the game's secret) to its `state`: the game after it.
fn stream_state(server: &Server, path: &str) -> Value {
    let secret = server.secret_for(path);
    first_event(server, path, secret.as_deref(), &["state"]).data["state"].clone()
}

/// Asks for the review until it is complete (a minute at most).
fn complete_review(server: &Server, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let review = server.ok("GET", &format!("/api/games/{id}/review"), None);
        if review["complete"] == json!(true) {
            return review;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the review is not complete: {review}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_finished_games_review_has_every_position_is_stored_and_survives_a_restart() {
    let dir = scratch("review");
    let db = dir.join("games.sqlite");
    let options = ["--rate", "0", "--review-ms", "50", "--searches", "1"];
    let mut server = Server::start("127.0.0.1:0", &db, &options);
    let state = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "human": "attackers", "level": 0})),
    );
    let id = state["id"].as_str().unwrap().to_owned();
    // Not over: no review.
    let (status, answer) = server.call("GET", &format!("/api/games/{id}/review"), None);
    assert_eq!(
        (status, answer["error"].as_str()),
        (409, Some("not_finished"))
    );
    // Two moves each, then the person resigns.
    let mut oracle = Game::new(&Variant::tablut());
    for text in ["e2-h2", "b5-b8"] {
        server.ok(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": text})),
        );
        oracle.play(text.parse().unwrap()).unwrap();
        let after = stream_state(&server, &format!("/api/games/{id}/think?for=move"));
        let answer = after["moves"].as_array().unwrap().last().unwrap()["move"]
            .as_str()
            .unwrap()
            .to_owned();
        oracle.play(answer.parse().unwrap()).unwrap();
    }
    server.ok("POST", &format!("/api/games/{id}/resign"), None);
    let review = complete_review(&server, &id);
    assert_eq!(review["positions"], json!(5));
    let points = review["points"].as_array().unwrap();
    assert_eq!(points.len(), 5, "{review}");
    for (ply, point) in points.iter().enumerate() {
        assert_eq!(point["ply"], json!(ply));
        let win = point["win"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&win), "{point}");
        // The engine's best move in each position is a legal move there.
        let position = &oracle.positions()[ply];
        let best: tafl_engine::Move = point["best"].as_str().unwrap().parse().unwrap();
        assert!(position.is_legal(best), "{point}");
    }
    assert!(review["marked"].is_array());
    // Stored: after kill -9 and a restart the same review is there at once.
    server.kill();
    let server = Server::start("127.0.0.1:0", &db, &options);
    let again = server.ok("GET", &format!("/api/games/{id}/review"), None);
    assert_eq!(again["complete"], json!(true));
    assert_eq!(again["points"], review["points"]);
    // An unknown game: 404.
    let (status, _) = server.call("GET", "/api/games/0123456789abcdef/review", None);
    assert_eq!(status, 404);
}

#[test]
fn a_game_won_on_the_board_ends_its_review_with_the_result() {
    let dir = scratch("review-won");
    let db = dir.join("games.sqlite");
    let server = Server::start(
        "127.0.0.1:0",
        &db,
        &["--rate", "0", "--review-ms", "50", "--searches", "1"],
    );
    // Tablut's king on the throne with an open file to the edge (R14): the defenders win by
    // moving him there.
    let state = server.ok(
        "POST",
        "/api/games",
        Some(&json!({"variant": "tablut", "mode": "analysis",
                     "position": "/9/9/9/9/4K4/9/9/9/t8/ d"})),
    );
    let id = state["id"].as_str().unwrap().to_owned();
    let won = server.ok(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": "e5-e9"})),
    );
    assert_eq!(won["result"]["winner"], json!("defenders"), "{won}");
    let review = complete_review(&server, &id);
    let points = review["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    // The last position is the result, not a search: the attackers' chance is 0.
    assert_eq!(points[1]["win"], json!(0.0));
    assert_eq!(points[1]["best"], Value::Null);
}
