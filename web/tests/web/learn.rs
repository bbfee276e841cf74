//! The learn pages' lessons hold: every board is a position the library sets up, every
//! exercise's answer does what the lesson says (the capture shown captures, the king shown
//! escapes or is captured) and is not the only legal move that could be played, every clause a
//! lesson cites is one of the rules documents' (docs/rules.md, docs/rules-strings.md,
//! docs/rules-hosts.md) and the lessons follow their order, and the page has the
//! lesson's words in every language.

use std::fs;
use std::path::Path;

use serde_json::Value;
use tafl_engine::{DrawReason, Game, Outcome, Piece, Side, Variant, WinReason};
use tafl_web::learn::{COURSES, Goal, attempt, position, view};

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// A clause's place in the rules documents (`R13` < `R14` < `C1`).
fn clause_order(clause: &str) -> (u8, u32) {
    let (kind, number) = clause.split_at(1);
    let number: u32 = number
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .unwrap();
    (if kind == "R" { 0 } else { 1 }, number)
}

#[test]
fn every_exercise_is_solved_by_its_answer_as_the_library_plays_it() {
    for course in &COURSES {
        for lesson in course.lessons {
            let (_, start) = position(course, lesson).expect("the board sets up");
            let what = format!("{}/{}", course.key, lesson.id);
            let Some(answer) = lesson.answer else {
                assert_eq!(
                    lesson.goal,
                    Goal::None,
                    "{what}: an exercise has its answer"
                );
                assert_eq!(start.outcome(), None, "{what}: a game in progress");
                continue;
            };
            assert_eq!(start.outcome(), None, "{what}: not over before the move");
            let tried = attempt(course, lesson, answer).unwrap();
            assert_eq!(
                tried["done"],
                Value::Bool(true),
                "{what}: {answer}: {tried}"
            );
            // The claim, checked on the library's game directly.
            let mut game = Game::from_position(start);
            let captured = game
                .play(answer.parse().unwrap())
                .expect("the answer is legal");
            match lesson.goal {
                Goal::Capture(square) => {
                    let square = square.parse().unwrap();
                    let piece = start.piece_at(square);
                    assert!(
                        matches!(piece, Some(Piece::Attacker | Piece::Defender)),
                        "{what}: a soldier stands on the square to capture"
                    );
                    assert!(
                        captured.contains(square),
                        "{what}: the capture shown captures"
                    );
                    assert_eq!(game.position().piece_at(square), None);
                }
                Goal::CaptureKing => assert!(matches!(
                    game.outcome(),
                    Some(Outcome::Win {
                        reason: WinReason::KingCaptured,
                        ..
                    })
                )),
                Goal::Escape => assert!(matches!(
                    game.outcome(),
                    Some(Outcome::Win {
                        reason: WinReason::KingEscaped,
                        ..
                    })
                )),
                // The fort and the ring shown really end the game with that reason.
                Goal::Fort => assert_eq!(
                    game.outcome(),
                    Some(Outcome::Win {
                        winner: Side::Defenders,
                        reason: WinReason::EdgeFort,
                    }),
                    "{what}"
                ),
                Goal::Encircle => assert_eq!(
                    game.outcome(),
                    Some(Outcome::Win {
                        winner: Side::Attackers,
                        reason: WinReason::Encircled,
                    }),
                    "{what}"
                ),
                Goal::NoMove => {
                    assert!(game.position().legal_moves().is_empty(), "{what}");
                    assert!(
                        matches!(
                            game.outcome(),
                            Some(
                                Outcome::Draw(DrawReason::NoLegalMoves)
                                    | Outcome::Win {
                                        reason: WinReason::NoLegalMoves,
                                        ..
                                    }
                            )
                        ),
                        "{what}: {:?}",
                        game.outcome()
                    );
                }
                Goal::Reach(from, to) => assert_eq!(answer, format!("{from}-{to}")),
                Goal::None => panic!("{what}: an answer without a goal"),
            }
            // Another legal move does not do it: the reader has to find the rule.
            let others = start
                .legal_moves()
                .iter()
                .filter(|m| m.to_string() != answer)
                .filter(|m| {
                    attempt(course, lesson, &m.to_string()).unwrap()["done"] == Value::Bool(false)
                })
                .count();
            assert!(others > 0, "{what}: every move solves it");
        }
    }
}

#[test]
fn the_lessons_follow_the_rules_clauses_in_order_and_have_their_words() {
    let rules = [
        "../docs/rules.md",
        "../docs/rules-strings.md",
        "../docs/rules-hosts.md",
    ]
    .map(read)
    .concat();
    let words = read("assets/i18n.js");
    let languages = words.matches("\nconst ").count();
    assert!(languages >= 5);
    for course in &COURSES {
        let mut last = (0, 0);
        let view = view(course).unwrap();
        assert_eq!(
            view["lessons"].as_array().unwrap().len(),
            course.lessons.len()
        );
        for lesson in course.lessons {
            for clause in lesson.clauses {
                let marker = if clause.starts_with('R') {
                    format!("**{clause}.**")
                } else {
                    format!("- {clause}.")
                };
                assert!(
                    rules.contains(&marker),
                    "{clause} is a clause of the rules documents"
                );
            }
            // The objective comes first, as an overview; the rest follow the clauses' order.
            if lesson.id != "objective" {
                let first = clause_order(lesson.clauses[0]);
                assert!(
                    first >= last,
                    "{}/{}: its clauses come after the lesson before",
                    course.key,
                    lesson.id
                );
                last = first;
            }
            for part in ["title", "text"] {
                let key = format!("learn_{}_{}_{part}: ", course.words, lesson.id);
                assert_eq!(
                    words.matches(&key).count(),
                    languages,
                    "{key} in every language"
                );
            }
        }
    }
}

#[test]
fn the_moves_lessons_refuse_what_their_words_forbid() {
    // R6: no piece stops on the castle; Copenhagen: only the king stops on a corner.
    for (key, id, text, code) in [
        ("tablut", "moves", "c5-e5", "castle"),
        ("tawlbwrdd", "moves", "d6-f6", "castle"),
        ("copenhagen", "moves", "a3-a1", "restricted"),
    ] {
        let course = COURSES.iter().find(|c| c.key == key).unwrap();
        let lesson = course.lessons.iter().find(|l| l.id == id).unwrap();
        let tried = attempt(course, lesson, text).unwrap();
        assert_eq!(tried["done"], Value::Bool(false), "{key} {text}");
        assert_eq!(
            tried["reason"]["code"],
            Value::from(code),
            "{key} {text}: {tried}"
        );
    }
}

/// The end a lesson's answer reaches, by the library.
fn answer_outcome(key: &str, id: &str) -> Option<Outcome> {
    let course = COURSES.iter().find(|c| c.key == key).unwrap();
    let lesson = course.lessons.iter().find(|l| l.id == id).unwrap();
    let (_, start) = position(course, lesson).unwrap();
    let mut game = Game::from_position(start);
    game.play(lesson.answer.unwrap().parse().unwrap()).unwrap();
    game.outcome()
}

#[test]
fn the_draws_lessons_show_the_rule_each_game_has_for_a_side_without_a_move() {
    // R17: a draw in this project's games; C10: a loss in Copenhagen.
    for key in ["tablut", "tawlbwrdd"] {
        assert_eq!(
            answer_outcome(key, "draws"),
            Some(Outcome::Draw(DrawReason::NoLegalMoves)),
            "{key}"
        );
    }
    assert_eq!(
        answer_outcome("copenhagen", "ends"),
        Some(Outcome::Win {
            winner: Side::Defenders,
            reason: WinReason::NoLegalMoves,
        })
    );
}

#[test]
fn in_copenhagen_any_piece_passes_over_the_empty_throne_and_only_the_king_stops_there() {
    // What the throne lesson says, asked of the library's `copenhagen` (f6 the throne).
    let variant = Variant::by_name("copenhagen").unwrap();
    let board = |side: Side, pieces: &[(&str, Piece)]| {
        let pieces = pieces.iter().map(|(s, p)| (s.parse().unwrap(), *p));
        Game::from_position(
            tafl_engine::Position::from_pieces(variant.rules(), side, pieces).unwrap(),
        )
    };
    for (side, piece, from, over, stop) in [
        (Side::Defenders, Piece::Defender, "d6", "h6", "f6"),
        (Side::Attackers, Piece::Attacker, "f3", "f9", "f6"),
    ] {
        let pieces = [
            (from, piece),
            ("h8", Piece::King),
            ("b10", Piece::Attacker),
            ("j2", Piece::Defender),
        ];
        let mut game = board(side, &pieces);
        assert!(
            game.play(format!("{from}-{over}").parse().unwrap()).is_ok(),
            "{piece:?} passes over the empty throne"
        );
        let mut game = board(side, &pieces);
        assert!(
            game.play(format!("{from}-{stop}").parse().unwrap())
                .is_err(),
            "{piece:?} may not stop on the throne"
        );
    }
    let mut game = board(
        Side::Defenders,
        &[
            ("f3", Piece::King),
            ("b10", Piece::Attacker),
            ("j2", Piece::Attacker),
        ],
    );
    assert!(
        game.play("f3-f6".parse().unwrap()).is_ok(),
        "the king stops there"
    );
}
