//! Draw offers through the API (R18): between two people the other side accepts or declines;
//! the engine answers at once, accepting when its search scores the position as a draw or
//! worse for itself. An agreed draw is stored: it survives a restart and is in the record.

use crate::common;

use common::{Server, scratch};
use serde_json::{Value, json};

fn draw(server: &Server, id: &str, action: &str, secret: Option<&str>) -> (u16, Value) {
    server.act(id, "draw", Some(&json!({ "action": action })), secret)
}

#[test]
fn two_people_offer_decline_and_agree_a_draw_that_is_stored() {
    let dir = scratch("draw-people");
    let db = dir.join("games.sqlite");
    let mut server = Server::start("127.0.0.1:0", &db, &["--rate", "0"]);
    let people = server.two_people(json!({"variant": "tablut", "human": "attackers"}));
    let (id, creator, friend) = (people.id, people.host, people.guest);
    // Without a seat's secret: 403; nothing to accept yet: 409.
    assert_eq!(draw(&server, &id, "offer", None).0, 403);
    let (status, answer) = draw(&server, &id, "accept", Some(&friend));
    assert_eq!((status, answer["error"].as_str()), (409, Some("no_offer")));
    // The attackers offer; they cannot accept their own offer; the defenders decline.
    let (status, offered) = draw(&server, &id, "offer", Some(&creator));
    assert_eq!(
        (status, offered["draw_offer"].clone()),
        (200, json!("attackers"))
    );
    let watched = server
        .call_as("GET", &format!("/api/games/{id}"), None, None)
        .1;
    assert_eq!(watched["draw_offer"], json!("attackers"));
    assert_eq!(draw(&server, &id, "accept", Some(&creator)).0, 409);
    let (status, declined) = draw(&server, &id, "decline", Some(&friend));
    assert_eq!((status, declined["draw_offer"].clone()), (200, Value::Null));
    assert_eq!(declined["finished"], json!(false));
    // The defenders offer, the attackers accept: drawn by agreement.
    draw(&server, &id, "offer", Some(&friend));
    let (status, drawn) = draw(&server, &id, "accept", Some(&creator));
    assert_eq!(status, 200, "{drawn}");
    assert_eq!(drawn["finished"], json!(true));
    assert_eq!(drawn["result"]["reason"], json!("draw_agreement"));
    assert_eq!(drawn["result"]["winner"], Value::Null);
    assert_eq!(draw(&server, &id, "offer", Some(&friend)).0, 409);
    // Stored: after kill -9 the game is still drawn, and its record says so.
    server.kill();
    let server = Server::start("127.0.0.1:0", &db, &["--rate", "0"]);
    let back = server
        .call_as("GET", &format!("/api/games/{id}"), None, None)
        .1;
    assert_eq!(back["result"]["reason"], json!("draw_agreement"), "{back}");
    let record = ureq::get(&server.url(&format!("/api/games/{id}/otg")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(record.contains("[result:0]\n"), "{record}");
}

#[test]
fn the_engine_accepts_a_draw_only_when_it_is_not_better_off() {
    let dir = scratch("draw-engine");
    let server = Server::start("127.0.0.1:0", &dir.join("games.sqlite"), &["--rate", "0"]);
    // The engine holds the defenders. The king on the castle with attackers on three sides and
    // one more a step from the fourth, attackers to move: the engine has lost, and accepts.
    let lost = server.ok(
        "POST",
        "/api/games",
        Some(
            &json!({"variant": "tablut", "human": "attackers", "level": 0,
                     "position": "/9/9/4t4/9/3tKt3/4t4/9/9/9/ a"}),
        ),
    );
    let id = lost["id"].as_str().unwrap().to_owned();
    let (status, answer) = draw(&server, &id, "offer", lost["secret"].as_str());
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["accepted"], json!(true), "{answer}");
    assert_eq!(answer["result"]["reason"], json!("draw_agreement"));
    // The king free on an open board against one attacker: the engine wins, and declines.
    let won = server.ok(
        "POST",
        "/api/games",
        Some(
            &json!({"variant": "tablut", "human": "attackers", "level": 0,
                     "position": "/9/9/9/9/4K4/9/9/9/t8/ a"}),
        ),
    );
    let id = won["id"].as_str().unwrap().to_owned();
    let (status, answer) = draw(&server, &id, "offer", won["secret"].as_str());
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["accepted"], json!(false), "{answer}");
    assert_eq!(answer["finished"], json!(false));
    assert_eq!(answer["draw_offer"], Value::Null);
}
