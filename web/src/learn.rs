//! The learn pages' lessons: for this project's Tablut and Tawlbwrdd (docs/rules.md R1-R18) and
//! for Copenhagen, the rules in the order a person learns them, each with a small board set up
//! in the library and, where it helps, a one-move exercise the library checks. The words are the
//! page's (`assets/i18n.js`: `learn_SET_LESSON_title`, `..._text`); the lessons' order follows
//! the clauses they cite.

use serde_json::{Value, json};
use tafl_engine::{DrawReason, Game, Outcome, Piece, Position, Side, Square, Variant, WinReason};

use crate::table::{cells, parse_move, side_name};

/// What an exercise asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Nothing: the board illustrates the rule.
    None,
    /// Move the piece on `from` to `to` (a move's path, such as over the empty castle).
    Reach(&'static str, &'static str),
    /// Capture the soldier on this square.
    Capture(&'static str),
    /// Capture the king.
    CaptureKing,
    /// Bring the king to safety (an edge or a corner, as the game has it).
    Escape,
    /// Close an edge fort round the king (the defenders win, `WinReason::EdgeFort`).
    Fort,
    /// Close the ring round every defender (the attackers win, `WinReason::Encircled`).
    Encircle,
    /// Leave the other side without a legal move (a draw or a loss, as the game has it).
    NoMove,
}

/// One rule with its board.
#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    /// Its name in the words' keys (`objective`, `moves`, ...).
    pub id: &'static str,
    /// The clauses it teaches: docs/rules.md's (R1-R18) or docs/rules-strings.md's (C1-C11).
    pub clauses: &'static [&'static str],
    /// The pieces (`square`, `t` attacker, `T` defender, `K` king), or empty for the game's
    /// start position.
    pub pieces: &'static [(&'static str, char)],
    /// The side to move in `pieces`.
    pub to_move: Side,
    /// The exercise.
    pub goal: Goal,
    /// A move that reaches the goal (the test plays it; the page shows it on request).
    pub answer: Option<&'static str>,
}

/// A game's lessons.
pub struct Course {
    /// The built-in game (`Variant::by_name`).
    pub key: &'static str,
    /// Which words the page uses: `classic` (R1-R18) or `copenhagen`.
    pub words: &'static str,
    /// In the order a person learns.
    pub lessons: &'static [Lesson],
}

const A: Side = Side::Attackers;
const D: Side = Side::Defenders;

const fn lesson(
    id: &'static str,
    clauses: &'static [&'static str],
    pieces: &'static [(&'static str, char)],
    to_move: Side,
    goal: Goal,
    answer: Option<&'static str>,
) -> Lesson {
    Lesson {
        id,
        clauses,
        pieces,
        to_move,
        goal,
        answer,
    }
}

/// Tablut (9x9, castle e5).
const TABLUT: &[Lesson] = &[
    lesson("objective", &["R3", "R13", "R14"], &[], A, Goal::None, None),
    lesson("setup", &["R1", "R2", "R3", "R4"], &[], A, Goal::None, None),
    lesson(
        "moves",
        &["R5", "R6", "R7"],
        &[("c5", 'T'), ("g7", 'K'), ("b8", 't'), ("h2", 't')],
        D,
        Goal::Reach("c5", "g5"),
        Some("c5-g5"),
    ),
    lesson(
        "capture",
        &["R8", "R9", "R11", "R12"],
        &[("c3", 'T'), ("b3", 't'), ("d7", 't'), ("g7", 'K')],
        A,
        Goal::Capture("c3"),
        Some("d7-d3"),
    ),
    lesson(
        "castle",
        &["R10"],
        &[("d5", 't'), ("c8", 'T'), ("g7", 'K'), ("h2", 't')],
        D,
        Goal::Capture("d5"),
        Some("c8-c5"),
    ),
    lesson(
        "king_two",
        &["R13"],
        &[("c7", 'K'), ("b7", 't'), ("d9", 't'), ("g3", 'T')],
        A,
        Goal::CaptureKing,
        Some("d9-d7"),
    ),
    lesson(
        "king_three",
        &["R13"],
        &[
            ("d5", 'K'),
            ("c5", 't'),
            ("d6", 't'),
            ("b4", 't'),
            ("g3", 'T'),
        ],
        A,
        Goal::CaptureKing,
        Some("b4-d4"),
    ),
    lesson(
        "king_four",
        &["R13"],
        &[
            ("e5", 'K'),
            ("d5", 't'),
            ("f5", 't'),
            ("e6", 't'),
            ("e2", 't'),
            ("g3", 'T'),
        ],
        A,
        Goal::CaptureKing,
        Some("e2-e4"),
    ),
    lesson(
        "escape",
        &["R14", "R15"],
        &[
            ("c4", 'K'),
            ("b4", 't'),
            ("g4", 't'),
            ("c7", 't'),
            ("g7", 'T'),
        ],
        D,
        Goal::Escape,
        Some("c4-c1"),
    ),
    // R17 on a real board: the lone attacker in the corner, walled in by two defenders.
    lesson(
        "draws",
        &["R16", "R17", "R18"],
        &[("a1", 't'), ("a2", 'T'), ("b5", 'T'), ("g7", 'K')],
        D,
        Goal::NoMove,
        Some("b5-b1"),
    ),
];

/// Tawlbwrdd (11x11, castle f6): Tablut's lessons on the larger board.
const TAWLBWRDD: &[Lesson] = &[
    lesson("objective", &["R3", "R13", "R14"], &[], A, Goal::None, None),
    lesson("setup", &["R1", "R2", "R3", "R4"], &[], A, Goal::None, None),
    lesson(
        "moves",
        &["R5", "R6", "R7"],
        &[("d6", 'T'), ("h8", 'K'), ("b10", 't'), ("j2", 't')],
        D,
        Goal::Reach("d6", "h6"),
        Some("d6-h6"),
    ),
    lesson(
        "capture",
        &["R8", "R9", "R11", "R12"],
        &[("d4", 'T'), ("c4", 't'), ("e7", 't'), ("h8", 'K')],
        A,
        Goal::Capture("d4"),
        Some("e7-e4"),
    ),
    lesson(
        "castle",
        &["R10"],
        &[("e6", 't'), ("d9", 'T'), ("h8", 'K'), ("j2", 't')],
        D,
        Goal::Capture("e6"),
        Some("d9-d6"),
    ),
    lesson(
        "king_two",
        &["R13"],
        &[("d8", 'K'), ("c8", 't'), ("e10", 't'), ("h3", 'T')],
        A,
        Goal::CaptureKing,
        Some("e10-e8"),
    ),
    lesson(
        "king_three",
        &["R13"],
        &[
            ("e6", 'K'),
            ("d6", 't'),
            ("e7", 't'),
            ("c5", 't'),
            ("h3", 'T'),
        ],
        A,
        Goal::CaptureKing,
        Some("c5-e5"),
    ),
    lesson(
        "king_four",
        &["R13"],
        &[
            ("f6", 'K'),
            ("e6", 't'),
            ("g6", 't'),
            ("f7", 't'),
            ("f3", 't'),
            ("h3", 'T'),
        ],
        A,
        Goal::CaptureKing,
        Some("f3-f5"),
    ),
    lesson(
        "escape",
        &["R14", "R15"],
        &[
            ("d5", 'K'),
            ("c5", 't'),
            ("h5", 't'),
            ("d8", 't'),
            ("h8", 'T'),
        ],
        D,
        Goal::Escape,
        Some("d5-d1"),
    ),
    lesson(
        "draws",
        &["R16", "R17", "R18"],
        &[("a1", 't'), ("a2", 'T'), ("b6", 'T'), ("h8", 'K')],
        D,
        Goal::NoMove,
        Some("b6-b1"),
    ),
];

/// Copenhagen (11x11, throne f6, corners), OpenTafl's string (docs/rules-strings.md C1-C11).
const COPENHAGEN: &[Lesson] = &[
    lesson("objective", &["C6", "C9"], &[], A, Goal::None, None),
    lesson("setup", &["C1"], &[], A, Goal::None, None),
    lesson(
        "moves",
        &["C2"],
        &[("a3", 'T'), ("f6", 'K'), ("k5", 't'), ("e11", 't')],
        D,
        Goal::Reach("a3", "a2"),
        Some("a3-a2"),
    ),
    // Any piece passes over the empty throne (the library's `copenhagen`: `tests/web/learn.rs`
    // checks a soldier of each side may, and none may stop there).
    lesson(
        "throne",
        &["C2"],
        &[("d6", 'T'), ("h8", 'K'), ("b10", 't'), ("j2", 't')],
        D,
        Goal::Reach("d6", "h6"),
        Some("d6-h6"),
    ),
    lesson(
        "capture",
        &["C4"],
        &[("b1", 't'), ("c4", 'T'), ("f6", 'K'), ("k8", 't')],
        D,
        Goal::Capture("b1"),
        Some("c4-c1"),
    ),
    lesson(
        "king",
        &["C5", "C6"],
        &[
            ("d8", 'K'),
            ("c8", 't'),
            ("e8", 't'),
            ("d9", 't'),
            ("b7", 't'),
            ("h3", 'T'),
        ],
        A,
        Goal::CaptureKing,
        Some("b7-d7"),
    ),
    // Beside the throne three attackers do it: the empty throne is the fourth (C6).
    lesson(
        "king_throne",
        &["C6"],
        &[
            ("e6", 'K'),
            ("d6", 't'),
            ("e7", 't'),
            ("c5", 't'),
            ("h3", 'T'),
        ],
        A,
        Goal::CaptureKing,
        Some("c5-e5"),
    ),
    lesson(
        "shieldwall",
        &["C8"],
        &[
            ("c1", 'T'),
            ("d1", 'T'),
            ("c2", 't'),
            ("d2", 't'),
            ("b1", 't'),
            ("e4", 't'),
            ("f6", 'K'),
        ],
        A,
        Goal::Capture("d1"),
        Some("e4-e1"),
    ),
    lesson(
        "escape",
        &["C9"],
        &[("d1", 'K'), ("h1", 't'), ("e3", 't'), ("h8", 'T')],
        D,
        Goal::Escape,
        Some("d1-a1"),
    ),
    // The king on the edge with a move to spare, every piece round his squares a defender
    // the attackers cannot take: the fourth wall closes it (C9, `efe:y`).
    lesson(
        "fort",
        &["C9"],
        &[
            ("a6", 'K'),
            ("a5", 'T'),
            ("b6", 'T'),
            ("b7", 'T'),
            ("d8", 'T'),
            ("f3", 't'),
            ("h9", 't'),
        ],
        D,
        Goal::Fort,
        Some("d8-a8"),
    ),
    // Eight attackers in a diamond round the king and a defender: the eighth closes it, and
    // no defender can reach an edge (C9, `surf`).
    lesson(
        "encircle",
        &["C9"],
        &[
            ("f6", 'K'),
            ("g6", 'T'),
            ("d6", 't'),
            ("e7", 't'),
            ("f8", 't'),
            ("g7", 't'),
            ("h6", 't'),
            ("g5", 't'),
            ("e5", 't'),
            ("f1", 't'),
        ],
        A,
        Goal::Encircle,
        Some("f1-f4"),
    ),
    // C10 on a real board: the lone attacker beside the corner, walled in, loses.
    lesson(
        "ends",
        &["C9", "C10", "C11"],
        &[
            ("a2", 't'),
            ("a3", 'T'),
            ("b6", 'T'),
            ("f6", 'K'),
            ("h8", 'T'),
        ],
        D,
        Goal::NoMove,
        Some("b6-b2"),
    ),
];

/// The games that have a learn page.
pub const COURSES: [Course; 3] = [
    Course {
        key: "tablut",
        words: "classic",
        lessons: TABLUT,
    },
    Course {
        key: "tawlbwrdd",
        words: "classic",
        lessons: TAWLBWRDD,
    },
    Course {
        key: "copenhagen",
        words: "copenhagen",
        lessons: COPENHAGEN,
    },
];

/// The course of a game, by its key.
pub fn course(key: &str) -> Option<&'static Course> {
    COURSES.iter().find(|course| course.key == key)
}

/// Why a lesson's board could not be set up (a defect of the lessons, caught by their test).
#[derive(Debug, thiserror::Error)]
#[error("lesson {lesson} of {game}: {why}")]
pub struct BadLesson {
    game: &'static str,
    lesson: &'static str,
    why: String,
}

/// The lesson's position, set up by the library.
pub fn position(course: &Course, lesson: &Lesson) -> Result<(Variant, Position), BadLesson> {
    let bad = |why: String| BadLesson {
        game: course.key,
        lesson: lesson.id,
        why,
    };
    let variant = Variant::by_name(course.key).ok_or_else(|| bad("no such game".into()))?;
    if lesson.pieces.is_empty() {
        let start = variant.start();
        return Ok((variant, start));
    }
    let mut pieces = Vec::new();
    for (name, kind) in lesson.pieces {
        let square: Square = name.parse().map_err(|e| bad(format!("{name}: {e}")))?;
        let piece = match kind {
            't' => Piece::Attacker,
            'T' => Piece::Defender,
            _ => Piece::King,
        };
        pieces.push((square, piece));
    }
    let position = Position::from_pieces(variant.rules(), lesson.to_move, pieces)
        .map_err(|e| bad(e.to_string()))?;
    Ok((variant, position))
}

/// What a move played on a lesson's board did: whether it reached the goal, what it captured,
/// the board after it; or why it could not be played (`Table::refusal`'s data).
pub fn attempt(course: &Course, lesson: &Lesson, text: &str) -> Result<Value, BadLesson> {
    let (variant, position) = position(course, lesson)?;
    let mut game = Game::from_position(position);
    let Ok(m) = parse_move(text) else {
        return Ok(json!({"done": false, "reason": {"code": "bad_notation", "text": text.trim()}}));
    };
    let captured = match game.play(m) {
        Ok(captured) => captured,
        Err(error) => {
            let table = crate::table::Table::Narrow(variant, Game::from_position(position));
            let reason = table
                .refusal(text)
                .unwrap_or_else(|| json!({"code": error.code()}));
            return Ok(json!({"done": false, "reason": reason}));
        }
    };
    let captures: Vec<String> = captured.into_iter().map(|s| s.to_string()).collect();
    let done = match lesson.goal {
        Goal::None => false,
        Goal::Reach(from, to) => m.from().to_string() == from && m.to().to_string() == to,
        Goal::Capture(square) => captures.iter().any(|c| c == square),
        Goal::CaptureKing => matches!(
            game.outcome(),
            Some(Outcome::Win {
                reason: WinReason::KingCaptured,
                ..
            })
        ),
        Goal::Escape => matches!(
            game.outcome(),
            Some(Outcome::Win {
                reason: WinReason::KingEscaped,
                ..
            })
        ),
        Goal::Fort => matches!(
            game.outcome(),
            Some(Outcome::Win {
                reason: WinReason::EdgeFort,
                ..
            })
        ),
        Goal::Encircle => matches!(
            game.outcome(),
            Some(Outcome::Win {
                reason: WinReason::Encircled,
                ..
            })
        ),
        Goal::NoMove => matches!(
            game.outcome(),
            Some(
                Outcome::Win {
                    reason: WinReason::NoLegalMoves,
                    ..
                } | Outcome::Draw(DrawReason::NoLegalMoves)
            )
        ),
    };
    Ok(json!({
        "done": done,
        "move": m.to_string(),
        "captures": captures,
        "cells": cells(game.position()),
        "result": game.outcome().map(|o| json!({"winner": o.winner().map(side_name), "reason": match o {
            Outcome::Win { reason, .. } => reason.code(),
            Outcome::Draw(reason) => reason.code(),
        }})),
    }))
}

/// A course as the page draws it: each lesson's board (cells, the special squares, the side to
/// move and its legal moves) and its exercise.
pub fn view(course: &Course) -> Result<Value, BadLesson> {
    let mut lessons = Vec::new();
    for lesson in course.lessons {
        let (variant, position) = position(course, lesson)?;
        let rules = variant.rules();
        let names = |set: tafl_engine::Bitboard| -> Vec<String> {
            set.into_iter().map(|s| s.to_string()).collect()
        };
        let mut legal = serde_json::Map::new();
        if lesson.goal != Goal::None {
            for m in position.legal_moves().iter() {
                if let Value::Array(list) = legal
                    .entry(m.from().to_string())
                    .or_insert_with(|| Value::Array(Vec::new()))
                {
                    list.push(json!(m.to().to_string()));
                }
            }
        }
        let goal = match lesson.goal {
            Goal::None => Value::Null,
            Goal::Reach(from, to) => json!({"code": "reach", "from": from, "square": to}),
            Goal::Capture(square) => json!({"code": "capture", "square": square}),
            Goal::CaptureKing => json!({"code": "capture_king"}),
            Goal::Escape => json!({"code": "escape"}),
            Goal::Fort => json!({"code": "fort"}),
            Goal::Encircle => json!({"code": "encircle"}),
            Goal::NoMove => json!({"code": "no_move"}),
        };
        lessons.push(json!({
            "id": lesson.id,
            "clauses": lesson.clauses,
            "size": rules.size(),
            "cells": cells(&position),
            "throne": names(rules.throne()),
            "corners": names(rules.corners()),
            "camps": names(rules.special_squares() & !rules.throne() & !rules.corners()),
            "to_move": side_name(position.side_to_move()),
            "legal": legal,
            "goal": goal,
            "answer": lesson.answer,
        }));
    }
    Ok(json!({
        "key": course.key,
        "words": course.words,
        "castle": Variant::by_name(course.key).map(|v| v.rules().castle().to_string()),
        "lessons": lessons,
    }))
}
