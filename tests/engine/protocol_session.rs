//! Properties of the in-process protocol session (`Session::handle_line`), on random input:
//! every reply is a documented form, and a line answered with `error 0` changes nothing.
#![cfg(feature = "protocol")]

use proptest::prelude::*;
use tafl_engine::notation;
use tafl_engine::protocol::{Session, SessionOptions, is_documented_reply};

/// Lines that are commands, near-commands or junk, built from protocol words.
fn line() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "rules",
        "tablut",
        "tawlbwrdd",
        "position",
        "side",
        "attackers",
        "defenders",
        "clock",
        "play",
        "move",
        "opponent-move",
        "analyze",
        "error",
        "finish",
        "perft",
        "divide",
        "show",
        "moves",
        "play-move",
        "undo",
        "new",
        "go",
        "depth",
        "movetime",
        "nodes",
        "stop",
        "help",
        "hello",
        "start",
        "0",
        "1",
        "2",
        "-1",
        "30*",
        "e2-h2",
        "e3-h3",
        "te2-h2",
        "Ke5-e8xe9--",
        "a4-a1|e3-h3",
        "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        "/4tt3/3tt4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        "/9/9/9/9/9/9/9/9/9/",
        "dim:9",
        "linc:y",
        "\u{0}",
        "\u{fffd}",
        "é",
        "",
    ]);
    let commands = prop::sample::select(vec![
        "play attackers",
        "play defenders",
        "go depth 1",
        "analyze 3 0.01",
        "play-move e2-h2",
        "play-move e3-h3",
        "opponent-move e2-h2 /3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        "error 2",
        "clock 100 100* 1 0 2",
        "undo",
        "perft 2",
        "side defenders",
    ]);
    prop_oneof![
        3 => commands.prop_map(str::to_string),
        4 => prop::collection::vec(words, 1..5).prop_map(|w| w.join(" ")),
        1 => ".{0,40}",
    ]
}

fn state(session: &Session) -> Option<(String, Vec<String>)> {
    session.game().map(|game| {
        (
            notation::position_record(game.position()) + game.position().side_to_move().name(),
            game.moves().map(|m| m.to_string()).collect(),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn replies_are_documented_and_errors_change_nothing(
        start in prop::sample::select(vec!["", "rules tablut", "rules tawlbwrdd"]),
        lines in prop::collection::vec(line(), 1..25),
    ) {
        let mut session = Session::new(SessionOptions::quick());
        session.handle_line(start, &mut |_| {});
        for line in &lines {
            let before = state(&session);
            let mut replies = Vec::new();
            session.handle_line(line, &mut |reply| replies.push(reply));
            for reply in &replies {
                prop_assert!(is_documented_reply(reply), "{line:?} -> {reply:?}");
            }
            if replies.len() == 1 && replies[0].starts_with("error 0 ") {
                prop_assert_eq!(&state(&session), &before, "{:?} -> {:?}", line, replies);
            }
        }
    }
}
