//! The Tablut Challenge's messages as the server's gson writes and reads them: the state it
//! sends (`{"board":[[...9 rows of 9 cells...]],"turn":"WHITE"}`), and the two we send, our name
//! (a JSON string) and our move (`{"from":"e3","to":"f3","turn":"WHITE"}`).
//!
//! gson writes a Java enum by its constant's name (`EMPTY`, `WHITEWIN`), not by the short
//! `toString` the server's classes define (`O`, `WW`), and an object's fields in declaration
//! order: `board`, `turn` for `State`; `from`, `to`, `turn` for `Action`.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use tafl_engine::{Move, Side};
use thiserror::Error;

/// The server's board is 9x9 (`StateTablut`).
pub const SIZE: usize = 9;

/// A square's content, the server's `State.Pawn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Cell {
    /// `EMPTY`
    Empty,
    /// `WHITE`: a defender (white's soldier).
    White,
    /// `BLACK`: an attacker.
    Black,
    /// `KING`: white's king.
    King,
    /// `THRONE`: the empty throne (e5), once the king has left it.
    Throne,
}

impl Cell {
    /// Every cell by its name, as gson writes it.
    const NAMES: [(&'static str, Cell); 5] = [
        ("EMPTY", Cell::Empty),
        ("WHITE", Cell::White),
        ("BLACK", Cell::Black),
        ("KING", Cell::King),
        ("THRONE", Cell::Throne),
    ];

    /// The cell for its gson name (exactly, upper case).
    pub fn from_name(name: &str) -> Option<Cell> {
        Cell::NAMES
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, cell)| cell)
    }

    /// Its gson name.
    pub fn name(self) -> &'static str {
        Cell::NAMES
            .iter()
            .find(|(_, cell)| *cell == self)
            .map_or("EMPTY", |(name, _)| name)
    }
}

/// Who moves next, or how the game ended: the server's `State.Turn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Turn {
    /// `WHITE`: white (the defenders, with the king) to move.
    White,
    /// `BLACK`: black (the attackers) to move.
    Black,
    /// `WHITEWIN`
    WhiteWin,
    /// `BLACKWIN`
    BlackWin,
    /// `DRAW`
    Draw,
}

impl Turn {
    const NAMES: [(&'static str, Turn); 5] = [
        ("WHITE", Turn::White),
        ("BLACK", Turn::Black),
        ("WHITEWIN", Turn::WhiteWin),
        ("BLACKWIN", Turn::BlackWin),
        ("DRAW", Turn::Draw),
    ];

    /// The turn for its gson name (exactly, upper case).
    pub fn from_name(name: &str) -> Option<Turn> {
        Turn::NAMES
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, turn)| turn)
    }

    /// Its gson name.
    pub fn name(self) -> &'static str {
        Turn::NAMES
            .iter()
            .find(|(_, turn)| *turn == self)
            .map_or("DRAW", |(name, _)| name)
    }

    /// The turn of a side to move: white is the defenders, black the attackers.
    pub fn of(side: Side) -> Turn {
        match side {
            Side::Defenders => Turn::White,
            Side::Attackers => Turn::Black,
        }
    }

    /// The side to move, or `None` once the game has ended.
    pub fn side_to_move(self) -> Option<Side> {
        match self {
            Turn::White => Some(Side::Defenders),
            Turn::Black => Some(Side::Attackers),
            Turn::WhiteWin | Turn::BlackWin | Turn::Draw => None,
        }
    }
}

/// The colour the server calls a side: `white` for the defenders, `black` for the attackers.
pub fn colour(side: Side) -> &'static str {
    match side {
        Side::Defenders => "white",
        Side::Attackers => "black",
    }
}

/// A state as the server sends it (and as gson writes it: `Serialize` gives the same JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct State {
    /// `board[row][column]` is the square named by the column's letter and `row + 1`
    /// (`State.getBox`): `board[3][0]` is a4.
    pub board: [[Cell; SIZE]; SIZE],
    /// Who moves next, or the result.
    pub turn: Turn,
}

/// The name of the server's square `board[row][column]`: `a4` for `board[3][0]`.
pub fn square_name(row: usize, column: usize) -> String {
    let letter = char::from(b'a' + (column % 26) as u8);
    format!("{letter}{}", row + 1)
}

/// Why a message is not a state: not JSON at all, or JSON of another shape.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReadError {
    /// Not JSON (RFC 8259, as serde_json reads it): where and what.
    #[error("bad JSON at byte {offset}: {what}")]
    Json {
        /// Byte offset in the message where the problem was found.
        offset: usize,
        /// What the problem is (serde_json's words, without its line and column).
        what: String,
    },
    /// JSON, but not a state.
    #[error("not a state: {0}")]
    State(#[from] StateError),
}

/// Why a JSON value is not a state. Each says which field (and square) is wrong and how.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StateError {
    /// Not an object, or an object with `board` or `turn` twice: serde_json's words (`invalid
    /// type: sequence, expected ...`, ``duplicate field `turn` ``), without its line and column.
    #[error("{0}")]
    Shape(String),
    /// `board` or `turn` is missing.
    #[error("the state has no \"{0}\" field")]
    MissingField(&'static str),
    /// `board` is not an array.
    #[error("\"board\" is {0}, not an array of rows")]
    BoardNotAnArray(&'static str),
    /// The board does not have nine rows.
    #[error("the board has {0} rows, not {SIZE}")]
    RowCount(usize),
    /// A row is not an array.
    #[error("board[{row}] is {kind}, not an array of cells")]
    RowNotAnArray {
        /// The row's index.
        row: usize,
        /// What it is.
        kind: &'static str,
    },
    /// A row does not have nine cells.
    #[error("board[{row}] has {length} cells, not {SIZE}")]
    RowLength {
        /// The row's index.
        row: usize,
        /// Its length.
        length: usize,
    },
    /// A cell is not a string.
    #[error("board[{row}][{column}] ({}) is {kind}, not a cell name", square_name(*.row, *.column))]
    CellNotAString {
        /// The row.
        row: usize,
        /// The column.
        column: usize,
        /// What it is.
        kind: &'static str,
    },
    /// A cell's name is not one of the five.
    #[error(
        "board[{row}][{column}] ({}) is {name}, not EMPTY, WHITE, BLACK, KING or THRONE",
        square_name(*.row, *.column)
    )]
    UnknownCell {
        /// The row.
        row: usize,
        /// The column.
        column: usize,
        /// The name found, quoted, cut to its first [`EXCERPT_CHARS`] characters ([`excerpt`]).
        name: String,
    },
    /// `turn` is not a string.
    #[error("\"turn\" is {0}, not a string")]
    TurnNotAString(&'static str),
    /// `turn` is not one of the five; the name found, quoted and cut ([`excerpt`]).
    #[error("\"turn\" is {0}, not WHITE, BLACK, WHITEWIN, BLACKWIN or DRAW")]
    UnknownTurn(String),
}

/// The most characters of the server's text quoted in a message: 80.
pub const EXCERPT_CHARS: usize = 80;

/// `text` quoted for a message, cut to its first [`EXCERPT_CHARS`] characters (`...` after the
/// quotes when it was cut): a server's junk never makes a line of stderr longer than that.
pub fn excerpt(text: &str) -> String {
    let shown: String = text.chars().take(EXCERPT_CHARS).collect();
    let more = if shown.len() < text.len() { "..." } else { "" };
    format!("{shown:?}{more}")
}

/// What kind of JSON value this is, for error messages: "an object", "a string", ...
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json's message without the ` at line L column C` it ends with, and the byte offset
/// that line and column stand for in `text` (its column counts bytes from 1, or is the line's
/// length at its end).
fn located(text: &str, error: &serde_json::Error) -> (usize, String) {
    let mut what = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    if let Some(stripped) = what.strip_suffix(&suffix) {
        what = stripped.to_string();
    }
    let line_start: usize = text
        .split_inclusive('\n')
        .take(error.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let column = match error.classify() {
        serde_json::error::Category::Eof => error.column(),
        _ => error.column().saturating_sub(1),
    };
    (line_start + column, what)
}

/// Reads a JSON message into `T`: a syntax error is [`ReadError::Json`] with its byte offset;
/// a document of another shape is `shape`'s error. serde_json refuses what RFC 8259 refuses
/// (trailing commas, single quotes, raw control characters in strings, lone surrogates, text
/// after the value) and nesting deeper than 128 arrays and objects, without overflowing the
/// stack.
pub fn from_json<T: serde::de::DeserializeOwned>(
    text: &str,
    shape: impl FnOnce(String) -> ReadError,
) -> Result<T, ReadError> {
    // The whole document's syntax first, as any JSON, so that a syntax error is said as one
    // even where the type would have been refused at the first character.
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .and_then(|_| serde_json::from_str(text))
        .map_err(|error| {
            let (offset, what) = located(text, &error);
            match error.classify() {
                serde_json::error::Category::Eof => ReadError::Json {
                    offset,
                    what: "unexpected end of the document".to_string(),
                },
                serde_json::error::Category::Syntax | serde_json::error::Category::Io => {
                    ReadError::Json { offset, what }
                }
                serde_json::error::Category::Data => shape(what),
            }
        })
}

/// `value` as JSON text. Serializing the messages' types (strings, derived structs and enums,
/// no maps) cannot fail: serde_json fails only for a map with keys that are not strings or a
/// `Serialize` that reports an error, and none of ours does.
fn to_json_text<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// `Some` of whatever value the field holds, `null` included: a field that is present.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// A state as it comes: the two fields gson writes, each any JSON value, checked by
/// [`State::from_json`] so that an error names the square or the name that is wrong. Other
/// members are ignored (gson ignores unknown fields too); one of the two twice is refused.
#[derive(Deserialize)]
struct WireState {
    #[serde(default, deserialize_with = "present")]
    board: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    turn: Option<Value>,
}

/// `T` read from a JSON object only: serde's derived structs also take an array of their
/// fields in order (`[board, turn]`), which gson never writes.
struct ObjectOnly<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ObjectOnly<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<T> {
            type Value = ObjectOnly<T>;
            fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
                formatter.write_str("a state, a JSON object with \"board\" and \"turn\"")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(ObjectOnly)
            }
        }
        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

impl State {
    /// Reads a state from the server's JSON text.
    pub fn from_json(text: &str) -> Result<State, ReadError> {
        let ObjectOnly(wire): ObjectOnly<WireState> =
            from_json(text, |what| ReadError::State(StateError::Shape(what)))?;
        Ok(State::from_wire(wire)?)
    }

    /// Checks the two fields of a state.
    fn from_wire(wire: WireState) -> Result<State, StateError> {
        let board_value = wire.board.ok_or(StateError::MissingField("board"))?;
        let turn_value = wire.turn.ok_or(StateError::MissingField("turn"))?;
        let rows = board_value
            .as_array()
            .ok_or(StateError::BoardNotAnArray(kind(&board_value)))?;
        if rows.len() != SIZE {
            return Err(StateError::RowCount(rows.len()));
        }
        let mut board = [[Cell::Empty; SIZE]; SIZE];
        for (row, (row_value, cells)) in rows.iter().zip(board.iter_mut()).enumerate() {
            let values = row_value.as_array().ok_or(StateError::RowNotAnArray {
                row,
                kind: kind(row_value),
            })?;
            if values.len() != SIZE {
                return Err(StateError::RowLength {
                    row,
                    length: values.len(),
                });
            }
            for (column, (cell_value, cell)) in values.iter().zip(cells.iter_mut()).enumerate() {
                let name = cell_value.as_str().ok_or(StateError::CellNotAString {
                    row,
                    column,
                    kind: kind(cell_value),
                })?;
                *cell = Cell::from_name(name).ok_or_else(|| StateError::UnknownCell {
                    row,
                    column,
                    name: excerpt(name),
                })?;
            }
        }
        let turn_name = turn_value
            .as_str()
            .ok_or(StateError::TurnNotAString(kind(&turn_value)))?;
        let turn = Turn::from_name(turn_name)
            .ok_or_else(|| StateError::UnknownTurn(excerpt(turn_name)))?;
        Ok(State { board, turn })
    }

    /// The state as gson writes it (for tests and logs).
    #[cfg(test)]
    pub fn to_json(&self) -> String {
        to_json_text(self)
    }
}

/// The first message: our name, a JSON string.
pub fn name_message(name: &str) -> String {
    to_json_text(name)
}

/// The name as the server keeps it: of the first ten characters, the letters and digits.
/// (Java counts UTF-16 units; for names outside the Basic Multilingual Plane the server may keep
/// fewer.)
pub fn name_as_the_server_keeps_it(name: &str) -> String {
    name.chars()
        .take(10)
        .filter(|c| c.is_alphabetic() || c.is_numeric())
        .collect()
}

/// Our move as the server's `Action` reads it, its fields in gson's order.
#[derive(Serialize)]
struct Action {
    from: String,
    to: String,
    turn: Turn,
}

/// Our move, as the server's `Action`: `{"from":"e3","to":"f3","turn":"WHITE"}`.
pub fn action_message(m: Move, side: Side) -> String {
    to_json_text(&Action {
        from: m.from().to_string(),
        to: m.to().to_string(),
        turn: Turn::of(side),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server's start state (`StateTablut` with the turn set to WHITE), as gson writes it.
    fn start_json() -> String {
        let mut board = [[Cell::Empty; SIZE]; SIZE];
        board[4][4] = Cell::King;
        for (row, column) in [
            (2, 4),
            (3, 4),
            (5, 4),
            (6, 4),
            (4, 2),
            (4, 3),
            (4, 5),
            (4, 6),
        ] {
            board[row][column] = Cell::White;
        }
        for (row, column) in [
            (0, 3),
            (0, 4),
            (0, 5),
            (1, 4),
            (8, 3),
            (8, 4),
            (8, 5),
            (7, 4),
            (3, 0),
            (4, 0),
            (5, 0),
            (4, 1),
            (3, 8),
            (4, 8),
            (5, 8),
            (4, 7),
        ] {
            board[row][column] = Cell::Black;
        }
        State {
            board,
            turn: Turn::White,
        }
        .to_json()
    }

    fn read(text: &str) -> Result<State, StateError> {
        match State::from_json(text) {
            Ok(state) => Ok(state),
            Err(ReadError::State(error)) => Err(error),
            Err(error) => panic!("not JSON: {error}"),
        }
    }

    #[test]
    fn reads_the_servers_start_state() {
        let text = start_json();
        assert!(text.starts_with(r#"{"board":[["EMPTY","EMPTY","EMPTY","BLACK","BLACK","BLACK","EMPTY","EMPTY","EMPTY"],["EMPTY","#));
        assert!(text.ends_with(r#""EMPTY"]],"turn":"WHITE"}"#));
        let state = read(&text).unwrap();
        assert_eq!(state.turn, Turn::White);
        assert_eq!(state.board[4][4], Cell::King);
        assert_eq!(state.board[3][0], Cell::Black, "a4");
        assert_eq!(square_name(3, 0), "a4");
        assert_eq!(square_name(8, 8), "i9");
    }

    #[test]
    fn unknown_fields_and_white_space_are_fine() {
        let text = start_json().replacen('{', "{ \"moves\" : [1, {\"x\": null}] ,", 1);
        assert_eq!(read(&text).unwrap().turn, Turn::White);
    }

    #[test]
    fn every_wrong_shape_names_what_is_wrong() {
        let start = start_json();
        assert_eq!(
            read("[]").unwrap_err().to_string(),
            "invalid type: sequence, expected a state, a JSON object with \"board\" and \"turn\""
        );
        assert_eq!(
            read(r#"{"turn":"WHITE"}"#),
            Err(StateError::MissingField("board"))
        );
        let no_turn = start.replace(r#","turn":"WHITE""#, "");
        assert_eq!(read(&no_turn), Err(StateError::MissingField("turn")));
        let two_turns = start.replace(r#""turn":"WHITE""#, r#""turn":"WHITE","turn":"BLACK""#);
        assert_eq!(
            read(&two_turns),
            Err(StateError::Shape("duplicate field `turn`".to_string()))
        );
        assert_eq!(
            read(r#"{"board":"x","turn":"WHITE"}"#),
            Err(StateError::BoardNotAnArray("a string"))
        );
        assert_eq!(
            read(r#"{"board":[[]],"turn":"WHITE"}"#),
            Err(StateError::RowCount(1))
        );
        let short_row = start.replacen(r#"["EMPTY","#, "[", 1);
        assert_eq!(
            read(&short_row),
            Err(StateError::RowLength { row: 0, length: 8 })
        );
        let unknown = start.replacen("BLACK", "PAWN", 1);
        let error = read(&unknown).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"board[0][3] (d1) is "PAWN", not EMPTY, WHITE, BLACK, KING or THRONE"#
        );
        // gson's enum names, not the short names the server prints.
        let short = start.replacen("\"BLACK\"", "\"B\"", 1);
        assert!(matches!(read(&short), Err(StateError::UnknownCell { .. })));
        let number = start.replacen("\"BLACK\"", "7", 1);
        assert_eq!(
            read(&number),
            Err(StateError::CellNotAString {
                row: 0,
                column: 3,
                kind: "a number"
            })
        );
        let turn = start.replace(r#""turn":"WHITE""#, r#""turn":"W""#);
        assert_eq!(
            read(&turn),
            Err(StateError::UnknownTurn("\"W\"".to_string()))
        );
        let turn = start.replace(r#""turn":"WHITE""#, r#""turn":null"#);
        assert_eq!(read(&turn), Err(StateError::TurnNotAString("null")));
    }

    /// The error for a text that is not JSON, which must be one.
    fn json_error(text: &str) -> (usize, String) {
        match State::from_json(text) {
            Err(ReadError::Json { offset, what }) => (offset, what),
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn what_strict_json_refuses_is_refused_with_where() {
        assert_eq!(
            json_error(r#"{"board":[["EMPTY""#),
            (18, "unexpected end of the document".to_string())
        );
        assert_eq!(json_error("[1,]").0, 3);
        assert_eq!(json_error("{} x").0, 3);
        assert_eq!(json_error("{\n\"a\":1,\n}").0, 9);
        for text in [
            "",
            " ",
            "[1,]",
            "[,1]",
            "{\"a\":1,}",
            "{a:1}",
            "{'a':1}",
            "[1 2]",
            "tru",
            "True",
            "01",
            "1.",
            "-",
            "1e",
            ".5",
            "+1",
            "\"a\nb\"",
            r#""\x""#,
            r#""\ud83d""#,
            r#""\u12G4""#,
            "{} x",
        ] {
            assert!(
                matches!(State::from_json(text), Err(ReadError::Json { .. })),
                "{text:?} is not JSON"
            );
        }
        // Nesting as deep as anyone likes is an error, not a stack overflow.
        let deep = "[".repeat(100_000);
        assert!(matches!(
            State::from_json(&deep),
            Err(ReadError::Json { .. })
        ));
        // JSON of another shape is not a state, and says so: gson writes an object, never the
        // array of its fields that serde would otherwise take.
        for text in ["[]", "null", "\"WHITE\"", "7"] {
            let error = State::from_json(text).unwrap_err().to_string();
            assert!(error.starts_with("not a state: invalid type"), "{error}");
        }
        let fields = format!("[{},\"WHITE\"]", &start_json()[9..start_json().len() - 16]);
        assert!(
            matches!(State::from_json(&fields), Err(ReadError::State(_))),
            "{fields}"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_panicking(text in "\\PC{0,200}") {
            let _ = State::from_json(&text);
        }

        #[test]
        fn a_state_with_one_byte_changed_reads_or_is_refused(index in 0usize..2000, byte in 0u8..128) {
            let mut bytes = start_json().into_bytes();
            let index = index % bytes.len();
            bytes[index] = byte;
            if let Ok(text) = String::from_utf8(bytes) {
                let _ = State::from_json(&text);
            }
        }

        #[test]
        fn our_name_reads_back_as_the_same_string(name in proptest::prelude::any::<String>()) {
            let text = name_message(&name);
            proptest::prop_assert_eq!(serde_json::from_str::<String>(&text).ok(), Some(name));
        }
    }

    #[test]
    fn turns_and_sides() {
        for name in ["WHITE", "BLACK", "WHITEWIN", "BLACKWIN", "DRAW"] {
            assert_eq!(Turn::from_name(name).map(Turn::name), Some(name));
        }
        assert_eq!(Turn::White.side_to_move(), Some(Side::Defenders));
        assert_eq!(Turn::of(Side::Attackers), Turn::Black);
        assert_eq!(Turn::Draw.side_to_move(), None);
    }

    #[test]
    fn our_messages_are_what_gson_reads() {
        let m: Move = "e3-f3".parse().unwrap();
        assert_eq!(
            action_message(m, Side::Defenders),
            r#"{"from":"e3","to":"f3","turn":"WHITE"}"#
        );
        assert_eq!(
            action_message("d1-d3".parse().unwrap(), Side::Attackers),
            r#"{"from":"d1","to":"d3","turn":"BLACK"}"#
        );
        assert_eq!(name_message("tafl-engine"), r#""tafl-engine""#);
        assert_eq!(name_as_the_server_keeps_it("tafl-engine"), "taflengin");
        assert_eq!(name_as_the_server_keeps_it("taflengine"), "taflengine");
        assert_eq!(name_as_the_server_keeps_it("a b\"c"), "abc");
    }
}
