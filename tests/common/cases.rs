//! Cases that read like the rules. Each names the clause of docs/rules.md it pins down (`R11`)
//! and says in a few words what it shows; then, drawn as boards ([`super::diagram`]):
//!
//! - a move: the board before it and the board after it side by side, the side that moves and
//!   the move, the squares it captures (none unless stated) and how the game stands after it
//!   (going on unless stated);
//! - or a board with the side to move, and what may be played there: the destinations of the
//!   legal moves from a square, the legal moves onto a square, the moves refused and why.
//!
//! ```text
//! case("R9", "the king is a hammer")
//!     .play(Defenders, "f7-f3")
//!     .captures("e3")
//!     .board("
//!         9  . . . . . . . . .    . . . . . . . . .
//!         ...
//!         3  . . . d a . . . .    . . . d . K . . .
//!     ")
//! ```
//!
//! [`run`] plays every case of a table and fails with the list of every case that does not hold,
//! each by clause and name, with everything that is wrong in it.
#![allow(dead_code)]

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use tafl_engine::{
    Game, IllegalMoveError, Move, Outcome, PlayError, Position, Rules, Side, WinReason,
};

use super::diagram::{
    beside, show, split_side_by_side, squares, try_play_checked, try_position_from_diagram,
    try_position_from_diagram_with_rules,
};

/// One case of a rules table: see the module's doc.
#[derive(Clone, Debug)]
pub struct Case {
    clause: &'static str,
    name: &'static str,
    rules: Option<Rules>,
    side: Side,
    play: Option<&'static str>,
    captures: &'static str,
    outcome: Option<Outcome>,
    diagram: &'static str,
    checks: Vec<Check>,
    then_refused: Vec<(&'static str, IllegalMoveError)>,
}

/// What may be played on the board of a case.
#[derive(Clone, Debug)]
enum Check {
    /// From this square, the legal moves go to exactly these squares.
    MovesFrom(&'static str, &'static str),
    /// Onto this square, the legal moves come from exactly these squares.
    MovesOnto(&'static str, &'static str),
    /// This move is refused with this error, and refusing it changes nothing.
    Refuses(&'static str, IllegalMoveError),
}

/// A case of clause `clause` (`"R13"`, as docs/rules.md numbers it), named `name`.
pub fn case(clause: &'static str, name: &'static str) -> Case {
    Case {
        clause,
        name,
        rules: None,
        side: Side::Attackers,
        play: None,
        captures: "",
        outcome: None,
        diagram: "",
        checks: Vec::new(),
        then_refused: Vec::new(),
    }
}

impl Case {
    /// The boards are played under `rules` rather than docs/rules.md's for their size.
    pub fn under(mut self, rules: Rules) -> Case {
        self.rules = Some(rules);
        self
    }

    /// `side` is to move on the board of a case without a move (the attackers unless stated).
    pub fn side_to_move(mut self, side: Side) -> Case {
        self.side = side;
        self
    }

    /// `side` plays `m` (`"e1-e3"`): the board is then two boards side by side, before and after.
    pub fn play(mut self, side: Side, m: &'static str) -> Case {
        self.side = side;
        self.play = Some(m);
        self
    }

    /// The move captures exactly these squares (`"d3 e4"`); without this, it captures nothing.
    pub fn captures(mut self, names: &'static str) -> Case {
        self.captures = names;
        self
    }

    /// The game has then ended so (after the move, or on the board of a case without one);
    /// without this, it goes on.
    pub fn ends(mut self, outcome: Outcome) -> Case {
        self.outcome = Some(outcome);
        self
    }

    /// The board: one diagram, or with a move the boards before and after it side by side.
    pub fn board(mut self, diagram: &'static str) -> Case {
        self.diagram = diagram;
        self
    }

    /// On the board (before the move), the legal moves from `from` go to exactly `destinations`
    /// (square names separated by spaces, in any order).
    pub fn moves_from(mut self, from: &'static str, destinations: &'static str) -> Case {
        self.checks.push(Check::MovesFrom(from, destinations));
        self
    }

    /// On the board (before the move), the legal moves onto `to` come from exactly `origins`.
    pub fn moves_onto(mut self, to: &'static str, origins: &'static str) -> Case {
        self.checks.push(Check::MovesOnto(to, origins));
        self
    }

    /// On the board (before the move), `m` is refused with `error`.
    pub fn refuses(mut self, m: &'static str, error: IllegalMoveError) -> Case {
        self.checks.push(Check::Refuses(m, error));
        self
    }

    /// After the move, `m` is refused with `error`; a `GameOver` error is the game's answer too.
    pub fn then_refuses(mut self, m: &'static str, error: IllegalMoveError) -> Case {
        self.then_refused.push((m, error));
        self
    }

    /// `clause name`, as failures name the case.
    pub fn title(&self) -> String {
        format!("{} {}", self.clause, self.name)
    }

    /// The position drawn in `diagram` with `side` to move, under the case's rules.
    fn position(&self, diagram: &str, side: Side) -> Result<Position, String> {
        match self.rules {
            Some(rules) => try_position_from_diagram_with_rules(diagram, rules, side),
            None => try_position_from_diagram(diagram, side),
        }
    }

    /// Everything about the case that does not hold (empty if it all does).
    pub fn problems(&self) -> Vec<String> {
        let (before_diagram, after_diagram) = match self.play {
            None => (self.diagram.to_string(), None),
            Some(_) => match split_side_by_side(self.diagram) {
                Ok((before, after)) => (before, Some(after)),
                Err(e) => return vec![e],
            },
        };
        let before = match self.position(&before_diagram, self.side) {
            Ok(position) => position,
            Err(e) => return vec![format!("the board before: {e}")],
        };
        let mut problems: Vec<String> = self
            .checks
            .iter()
            .filter_map(|check| check.problem(&before).err())
            .collect();
        match (self.play, after_diagram) {
            (Some(text), Some(after_diagram)) => {
                problems.extend(self.move_problems(&before, text, &after_diagram));
            }
            _ => {
                problems.extend(outcome_problems(&before, self.outcome));
                if !self.then_refused.is_empty() || !self.captures.is_empty() {
                    problems.push("`then_refuses` and `captures` need a move".to_string());
                }
            }
        }
        problems
    }

    /// What is wrong with playing the case's move `text` on `before`.
    fn move_problems(&self, before: &Position, text: &str, after_diagram: &str) -> Vec<String> {
        let mut problems = Vec::new();
        let m = match parse_move(text) {
            Ok(m) => m,
            Err(e) => return vec![e],
        };
        if !before.legal_moves().contains(&m) {
            problems.push(format!(
                "{m} is not among the legal moves of\n{}",
                show(before)
            ));
        }
        let (after, captured) = match try_play_checked(before, m) {
            Ok(played) => played,
            Err(e) => {
                problems.push(e);
                return problems;
            }
        };
        match self.position(after_diagram, self.side.opponent()) {
            Ok(expected) if expected != after => problems.push(format!(
                "after {m}:\n{}",
                beside("expected", &show(&expected), "played", &show(&after))
            )),
            Ok(_) => {}
            Err(e) => problems.push(format!("the board after: {e}")),
        }
        let expected_captures = squares(self.captures);
        if captured != expected_captures {
            problems.push(format!(
                "{m} captured {}, expected {}",
                names(captured),
                names(expected_captures)
            ));
        }
        if before.captures_of(m) != captured {
            problems.push(format!(
                "captures_of({m}) says {}, play took {}",
                names(before.captures_of(m)),
                names(captured)
            ));
        }
        problems.extend(outcome_problems(&after, self.outcome));
        for (text, error) in &self.then_refused {
            if let Err(e) = refusal_problem(&after, text, error) {
                problems.push(format!("after {m}: {e}"));
            }
        }
        // The same move in a game that starts on the board: the game agrees with the position.
        let mut game = Game::from_position(*before);
        match game.play(m) {
            Ok(game_captured) if game_captured == captured => {}
            other => problems.push(format!("in a game, {m} gives {other:?}")),
        }
        if game.position() != &after {
            problems.push(format!(
                "in a game, {m} leads to\n{}",
                show(game.position())
            ));
        }
        if game.outcome() != self.outcome {
            problems.push(format!(
                "in a game, after {m} the outcome is {:?}, expected {:?}",
                game.outcome(),
                self.outcome
            ));
        }
        if game.legal_moves().is_empty() != self.outcome.is_some() {
            problems.push(format!(
                "in a game, after {m} there are {} legal moves, outcome {:?}",
                game.legal_moves().len(),
                self.outcome
            ));
        }
        for (text, error) in &self.then_refused {
            let IllegalMoveError::GameOver(outcome) = error else {
                continue;
            };
            let unchanged = game.clone();
            let answer = parse_move(text).map(|m| game.play(m));
            if answer != Ok(Err(PlayError::GameOver(*outcome))) || game != unchanged {
                problems.push(format!(
                    "in a game, after {m} {text} gives {answer:?}, expected GameOver({outcome:?})"
                ));
            }
        }
        problems
    }
}

impl Check {
    /// Whether the check holds on `position`, or why not.
    fn problem(&self, position: &Position) -> Result<(), String> {
        match self {
            Check::MovesFrom(from, destinations) => {
                let from = parse_square(from)?;
                let found = sorted_names(
                    position
                        .legal_moves()
                        .iter()
                        .filter(|m| m.from() == from)
                        .map(|m| m.to().to_string()),
                );
                let expected = sorted_names(destinations.split_whitespace().map(String::from));
                if found != expected {
                    return Err(format!(
                        "moves from {from}: {found:?}, expected {expected:?}"
                    ));
                }
                every_move_legal(position, expected.iter().map(|to| format!("{from}-{to}")))
            }
            Check::MovesOnto(to, origins) => {
                let to = parse_square(to)?;
                let found = sorted_names(
                    position
                        .legal_moves()
                        .iter()
                        .filter(|m| m.to() == to)
                        .map(|m| m.from().to_string()),
                );
                let expected = sorted_names(origins.split_whitespace().map(String::from));
                if found != expected {
                    return Err(format!(
                        "moves onto {to} from: {found:?}, expected {expected:?}"
                    ));
                }
                every_move_legal(position, expected.iter().map(|from| format!("{from}-{to}")))
            }
            Check::Refuses(text, error) => refusal_problem(position, text, error),
        }
    }
}

/// Whether `is_legal` and `check_move` accept each of `moves`.
fn every_move_legal(
    position: &Position,
    moves: impl Iterator<Item = String>,
) -> Result<(), String> {
    for text in moves {
        let m = parse_move(&text)?;
        if !position.is_legal(m) || position.check_move(m).is_err() {
            return Err(format!(
                "{m} is generated but check_move says {:?}",
                position.check_move(m)
            ));
        }
    }
    Ok(())
}

/// Whether `position` refuses the move `text` with `error` everywhere it is asked (check_move,
/// is_legal, play, the generator), and refusing it changes nothing.
fn refusal_problem(
    position: &Position,
    text: &str,
    error: &IllegalMoveError,
) -> Result<(), String> {
    let m = parse_move(text)?;
    let expected = Err(*error);
    if position.check_move(m) != expected {
        return Err(format!(
            "check_move({m}) is {:?}, expected {expected:?}",
            position.check_move(m)
        ));
    }
    if position.is_legal(m) || position.legal_moves().contains(&m) {
        return Err(format!("{m} should not be legal"));
    }
    let mut copy = *position;
    let played = copy.play(m);
    if played != expected.map(|()| tafl_engine::Bitboard::EMPTY) || copy != *position {
        return Err(format!(
            "play({m}) is {played:?} and leaves\n{}",
            show(&copy)
        ));
    }
    Ok(())
}

/// Whether `position` stands as `outcome` says: the outcome, the winner, and no legal move once
/// the game has ended.
fn outcome_problems(position: &Position, outcome: Option<Outcome>) -> Vec<String> {
    let mut problems = Vec::new();
    if position.outcome() != outcome {
        problems.push(format!(
            "the outcome is {:?}, expected {outcome:?}, in\n{}",
            position.outcome(),
            show(position)
        ));
    }
    let winner_on_board = match outcome {
        Some(Outcome::Win {
            winner,
            reason: WinReason::KingCaptured | WinReason::KingEscaped,
        }) => Some(winner),
        _ => None,
    };
    if position.winner() != winner_on_board {
        problems.push(format!(
            "the winner is {:?}, expected {winner_on_board:?}",
            position.winner()
        ));
    }
    let (listed, counted) = (position.legal_moves().len(), position.count_legal_moves());
    if listed != counted as usize {
        problems.push(format!("{listed} legal moves listed, {counted} counted"));
    }
    if outcome.is_some() && listed != 0 {
        problems.push(format!("{listed} legal moves in a game that has ended"));
    }
    problems
}

fn parse_move(text: &str) -> Result<Move, String> {
    text.parse()
        .map_err(|e| format!("`{text}` is not a move: {e}"))
}

fn parse_square(name: &str) -> Result<tafl_engine::Square, String> {
    name.parse()
        .map_err(|e| format!("`{name}` is not a square: {e}"))
}

fn sorted_names(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut names: Vec<String> = names.collect();
    names.sort();
    names
}

/// The squares of a set by name (`d3 e4`), or `nothing`.
fn names(set: tafl_engine::Bitboard) -> String {
    let names: Vec<String> = set.into_iter().map(|square| square.to_string()).collect();
    if names.is_empty() {
        "nothing".to_string()
    } else {
        names.join(" ")
    }
}

/// The text of a panic, for the report.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// Plays every case of `cases` and fails with every one that does not hold, by clause and name.
/// A case must name a clause of docs/rules.md and no two cases of a clause share a name.
pub fn run(cases: &[Case]) {
    let rules_text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md"))
        .expect("docs/rules.md is part of the crate");
    let mut seen = HashSet::new();
    let mut per_clause: Vec<(&str, usize)> = Vec::new();
    let mut failures = Vec::new();
    for case in cases {
        let mut problems = Vec::new();
        if !rules_text.contains(&format!("**{}.**", case.clause)) {
            problems.push(format!("docs/rules.md has no clause {}", case.clause));
        }
        if !seen.insert((case.clause, case.name)) {
            problems.push("another case of this clause has this name".to_string());
        }
        match catch_unwind(AssertUnwindSafe(|| case.problems())) {
            Ok(found) => problems.extend(found),
            Err(panic) => problems.push(format!("panicked: {}", panic_text(&*panic))),
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}:\n  {}",
                case.title(),
                problems
                    .iter()
                    .map(|problem| problem.trim_end())
                    .collect::<Vec<_>>()
                    .join("\n")
                    .replace('\n', "\n  ")
            ));
        }
        match per_clause
            .iter_mut()
            .find(|(clause, _)| *clause == case.clause)
        {
            Some((_, count)) => *count += 1,
            None => per_clause.push((case.clause, 1)),
        }
    }
    let counts: Vec<String> = per_clause
        .iter()
        .map(|(clause, count)| format!("{clause}: {count}"))
        .collect();
    println!("{} cases ({})", cases.len(), counts.join(", "));
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n\n{}\n",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
