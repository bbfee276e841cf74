//! One game on either grid: the library's `Game` on the narrow grid (up to 11x11) or the wide
//! one (above), with what the page is handed for each position. Every rule is the library's:
//! this module only turns its answers into JSON.

use serde::Serialize;
use serde_json::{Value, json};
use tafl_engine::notation::FullMove;
use tafl_engine::record::GameRecord;
use tafl_engine::{
    AnyVariant, Game, Grid, Move, Narrow, Outcome, Piece, Position, Side, Variant, Wide,
    position_string,
};

/// Why a move, a position or a record was refused: the library's words.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// A game on the grid its board needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Table {
    /// Boards up to 11x11.
    Narrow(Variant, Game),
    /// Boards above 11x11.
    Wide(Variant<Wide>, Game<Wide>),
}

/// Runs `$body` with `$variant` and `$game` bound on whichever grid the table is on.
macro_rules! on_grid {
    ($table:expr, |$variant:ident, $game:ident| $body:expr) => {
        match $table {
            Table::Narrow($variant, $game) => $body,
            Table::Wide($variant, $game) => $body,
        }
    };
}
pub(crate) use on_grid;

/// The longest name a game's rules may give it, in characters: the page shows it in a line.
pub const MAX_NAME_CHARS: usize = 64;

/// Refuses a rules' name longer than [`MAX_NAME_CHARS`].
pub fn check_name(name: &str) -> Result<(), Refused> {
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(Refused(format!(
            "the rules' name is {chars} characters long: at most {MAX_NAME_CHARS}"
        )));
    }
    Ok(())
}

/// Refuses what the rules' parser accepts but a game on the page cannot be: a name longer than
/// [`MAX_NAME_CHARS`], a start position without a king (the attackers would have won before
/// the first move).
fn playable<B: Grid>(variant: &Variant<B>, game: &Game<B>) -> Result<(), Refused> {
    check_name(variant.name())?;
    if game.start_position().king().is_none() {
        return Err(Refused("the start position has no king".into()));
    }
    Ok(())
}

impl Table {
    /// A new game of `variant`, from `start` (a position string) when given.
    pub fn new(variant: AnyVariant, start: Option<&str>) -> Result<Table, Refused> {
        fn begin<B: Grid>(variant: &Variant<B>, start: Option<&str>) -> Result<Game<B>, Refused> {
            let game = match start {
                None => Game::new(variant),
                Some(text) => position_string::parse(text, variant.rules())
                    .map(Game::from_position)
                    .map_err(|e| Refused(e.to_string()))?,
            };
            playable(variant, &game)?;
            Ok(game)
        }
        Ok(match variant {
            AnyVariant::Narrow(v) => {
                let game = begin(&v, start)?;
                Table::Narrow(v, game)
            }
            AnyVariant::Wide(v) => {
                let game = begin(&v, start)?;
                Table::Wide(v, game)
            }
        })
    }

    /// The game an `.otg` record holds, on the grid its rules need.
    pub fn from_record(text: &str) -> Result<Table, Refused> {
        let table = match text.parse::<GameRecord<Narrow>>() {
            Ok(record) => Table::Narrow(record.variant, record.game),
            Err(narrow_error) => match text.parse::<GameRecord<Wide>>() {
                Ok(record) if record.variant.rules().size() > Narrow::MAX_SIZE => {
                    Table::Wide(record.variant, record.game)
                }
                _ => return Err(Refused(narrow_error.to_string())),
            },
        };
        on_grid!(&table, |variant, game| playable(variant, game))?;
        Ok(table)
    }

    /// The rules string of the game.
    pub fn rules_string(&self) -> String {
        on_grid!(self, |variant, _game| variant.to_string())
    }

    /// The board's size.
    pub fn size(&self) -> u8 {
        on_grid!(self, |variant, _game| variant.rules().size())
    }

    /// The start position's position string.
    pub fn start_string(&self) -> String {
        on_grid!(self, |_variant, game| position_string::write(
            game.start_position()
        ))
    }

    /// The current position's position string.
    pub fn position_string(&self) -> String {
        on_grid!(self, |_variant, game| position_string::write(
            game.position()
        ))
    }

    /// Moves played so far.
    pub fn ply(&self) -> usize {
        on_grid!(self, |_variant, game| game.moves().len())
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        on_grid!(self, |_variant, game| game.position().side_to_move())
    }

    /// The result, once the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        on_grid!(self, |_variant, game| game.outcome())
    }

    /// The moves played so far, as text (`e2-e4`).
    pub fn move_texts(&self) -> Vec<String> {
        on_grid!(self, |_variant, game| game
            .moves()
            .map(|m| m.to_string())
            .collect())
    }

    /// Plays `text` (`e2-e4`, or full notation): the library decides.
    pub fn play(&mut self, text: &str) -> Result<(), Refused> {
        fn go<B: Grid>(game: &mut Game<B>, text: &str) -> Result<(), Refused> {
            let m = parse_move::<B>(text)?;
            game.play(m).map(|_| ()).map_err(|e| Refused(e.to_string()))
        }
        on_grid!(self, |_variant, game| go(game, text))
    }

    /// Why `text` cannot be played here, as data the page words in its language: `{code,
    /// square?, side?, from?, to?, distance?, kind?}` with the library's code
    /// (`PlayError::code`), or `bad_notation` for text that is no move; `None` when it can.
    pub fn refusal(&self, text: &str) -> Option<Value> {
        on_grid!(self, |variant, game| refusal(variant, game, text))
    }

    /// The players agree to a draw (R18): the game ends drawn.
    pub fn agree_draw(&mut self) {
        on_grid!(self, |_variant, game| game.agree_draw())
    }

    /// Takes the last move back; false when there was none.
    pub fn undo(&mut self) -> bool {
        on_grid!(self, |_variant, game| game.undo().is_some())
    }

    /// The game as an `.otg` record: a resignation as OpenTafl's `---`; how a finished game
    /// ended (on the board, by resignation or on time: `flagged` is the side whose clock ran
    /// out) in its `result` and `termination` tags, as OpenTafl's records say it.
    pub fn record(&self, resigned: Option<Side>, flagged: Option<Side>) -> String {
        on_grid!(self, |variant, game| {
            let mut record = GameRecord::new(variant.clone(), game.clone());
            record.set_tag("event", "tafl-web");
            record.resigned = resigned;
            let ending = match (resigned, flagged, game.outcome()) {
                (Some(side), _, _) => Some((Some(!side), format!("the {side} resigned"))),
                (None, Some(side), _) => Some((Some(!side), format!("the {side} ran out of time"))),
                (None, None, Some(outcome)) => Some((outcome.winner(), outcome.to_string())),
                (None, None, None) => None,
            };
            if let Some((winner, termination)) = ending {
                record.set_tag("result", GameRecord::result_value(winner));
                record.set_tag("termination", &termination);
            }
            record.to_string()
        })
    }

    /// What the page draws and may do: the board, the special squares, the legal moves
    /// (from-square to targets), the moves with their captures and every position so far.
    pub fn view(&self) -> Value {
        on_grid!(self, |variant, game| view(variant, game))
    }
}

/// A move in simple or full notation.
pub fn parse_move<B: Grid>(text: &str) -> Result<Move<B>, Refused> {
    let text = text.trim();
    if let Ok(m) = text.parse::<Move<B>>() {
        return Ok(m);
    }
    text.parse::<FullMove<B>>()
        .map(|full| full.mv)
        .map_err(|e| Refused(format!("'{text}' is not a move: {e}")))
}

fn refusal<B: Grid>(variant: &Variant<B>, game: &Game<B>, text: &str) -> Option<Value> {
    use tafl_engine::{IllegalMoveError, PlayError};
    let Ok(m) = parse_move::<B>(text) else {
        return Some(json!({"code": "bad_notation", "text": text.trim()}));
    };
    let error = game.clone().play(m).err()?;
    let mut reason = json!({"code": error.code()});
    let map = reason.as_object_mut()?;
    let mut put = |key: &str, value: Value| {
        map.insert(key.to_owned(), value);
    };
    match error {
        PlayError::GameOver(outcome) => put("result", result_json(outcome)),
        PlayError::RecreatesEarlierPosition(m)
        | PlayError::Illegal(IllegalMoveError::NotStraight(m)) => {
            put("from", json!(m.from().to_string()));
            put("to", json!(m.to().to_string()));
        }
        PlayError::Illegal(IllegalMoveError::GameOver(outcome)) => {
            put("result", result_json(outcome))
        }
        PlayError::Illegal(IllegalMoveError::NotYourPiece { square, side }) => {
            put("square", json!(square.to_string()));
            put("side", json!(side_name(side)));
        }
        PlayError::Illegal(
            IllegalMoveError::OffBoard(square)
            | IllegalMoveError::Blocked(square)
            | IllegalMoveError::Castle(square),
        ) => put("square", json!(square.to_string())),
        PlayError::Illegal(IllegalMoveError::Restricted(square)) => {
            let rules = variant.rules();
            // Which kind of special square, from the rules: the page names it.
            let kind = if rules.throne().contains(square) {
                "throne"
            } else if rules.corners().contains(square) {
                "corner"
            } else {
                "fort"
            };
            put("square", json!(square.to_string()));
            put("kind", json!(kind));
        }
        PlayError::Illegal(IllegalMoveError::TooFar(distance)) => put("distance", json!(distance)),
    }
    Some(reason)
}

/// Squares as their names.
fn names<B: Grid>(set: tafl_engine::Bitboard<B>) -> Vec<String> {
    set.into_iter().map(|s| s.to_string()).collect()
}

/// The placement as one character a square (`.`, `t`, `T`, `K`), rank 1 first, `size` a rank.
pub fn cells<B: Grid>(position: &Position<B>) -> String {
    let size = position.rules().size();
    let mut text = String::with_capacity(usize::from(size) * usize::from(size));
    for y in 0..size {
        for x in 0..size {
            let piece = tafl_engine::Square::<B>::at(x, y).and_then(|s| position.piece_at(s));
            text.push(match piece {
                None => '.',
                Some(Piece::Attacker) => 't',
                Some(Piece::Defender) => 'T',
                Some(Piece::King) => 'K',
            });
        }
    }
    text
}

fn view<B: Grid>(variant: &Variant<B>, game: &Game<B>) -> Value {
    let rules = variant.rules();
    let position = game.position();
    let outcome = game.outcome();
    let mut legal = serde_json::Map::new();
    if outcome.is_none() {
        for m in game.legal_moves().iter() {
            let targets = legal
                .entry(m.from().to_string())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = targets {
                list.push(Value::String(m.to().to_string()));
            }
        }
    }
    let positions = game.positions();
    let moves: Vec<Value> = game
        .moves_with_captures()
        .enumerate()
        .map(|(index, (m, captured))| {
            json!({
                "move": m.to_string(),
                "full": FullMove::describe(&positions[index], m).to_string(),
                "captures": names(captured),
            })
        })
        .collect();
    let special = rules.special_squares() & !rules.throne() & !rules.corners();
    json!({
        "rules": variant.to_string(),
        "name": variant.name(),
        "size": rules.size(),
        "throne": names(rules.throne()),
        "corners": names(rules.corners()),
        "camps": names(special),
        "position": position_string::write(position),
        "cells": cells(position),
        "to_move": side_name(position.side_to_move()),
        "ply": moves.len(),
        "moves": moves,
        "history": positions.iter().map(cells).collect::<Vec<_>>(),
        "legal": legal,
        "result": outcome.map(result_json),
    })
}

/// `attackers` or `defenders`.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attackers",
        Side::Defenders => "defenders",
    }
}

/// A side from its name.
pub fn side_from(text: &str) -> Option<Side> {
    match text {
        "attackers" => Some(Side::Attackers),
        "defenders" => Some(Side::Defenders),
        _ => None,
    }
}

/// The result as the page shows it: the winner (or none), a reason key it translates and the
/// library's own words.
#[derive(Serialize)]
struct ResultView {
    winner: Option<&'static str>,
    reason: &'static str,
    text: String,
}

fn result_json(outcome: Outcome) -> Value {
    let reason = match outcome {
        Outcome::Win { reason, .. } => reason.code(),
        Outcome::Draw(reason) => reason.code(),
    };
    serde_json::to_value(ResultView {
        winner: outcome.winner().map(side_name),
        reason,
        text: outcome.to_string(),
    })
    .unwrap_or(Value::Null)
}
