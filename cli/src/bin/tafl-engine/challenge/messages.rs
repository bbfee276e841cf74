//! The Tablut Challenge's messages as the server's gson writes and reads them: the state it
//! sends (`{"board":[[...9 rows of 9 cells...]],"turn":"WHITE"}`), and the two we send, our name
//! (a JSON string) and our move (`{"from":"e3","to":"f3","turn":"WHITE"}`).
//!
//! gson writes a Java enum by its constant's name (`EMPTY`, `WHITEWIN`), not by the short
//! `toString` the server's classes define (`O`, `WW`), and an object's fields in declaration
//! order: `board`, `turn` for `State`; `from`, `to`, `turn` for `Action`.

use tafl_engine::{Move, Side};
use thiserror::Error;

use crate::json::{Value, quote};

/// The server's board is 9x9 (`StateTablut`).
pub const SIZE: usize = 9;

/// A square's content, the server's `State.Pawn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// A state as the server sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// Why a JSON value is not a state. Each says which field (and square) is wrong and how.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StateError {
    /// The message is not a JSON object.
    #[error("a state is a JSON object, this is {0}")]
    NotAnObject(&'static str),
    /// `board` or `turn` is missing.
    #[error("the state has no \"{0}\" field")]
    MissingField(&'static str),
    /// `board` or `turn` comes twice.
    #[error("the state has two \"{0}\" fields")]
    DuplicateField(&'static str),
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

/// The one member named `name` of an object.
fn field<'a>(members: &'a [(String, Value)], name: &'static str) -> Result<&'a Value, StateError> {
    let mut found = members.iter().filter(|(key, _)| key == name);
    let first = found.next().ok_or(StateError::MissingField(name))?;
    if found.next().is_some() {
        return Err(StateError::DuplicateField(name));
    }
    Ok(&first.1)
}

impl State {
    /// Reads a state from the server's JSON. Members other than `board` and `turn` are ignored
    /// (gson ignores unknown fields too).
    pub fn from_json(value: &Value) -> Result<State, StateError> {
        let members = value
            .as_object()
            .ok_or(StateError::NotAnObject(value.kind()))?;
        let board_value = field(members, "board")?;
        let turn_value = field(members, "turn")?;
        let rows = board_value
            .as_array()
            .ok_or(StateError::BoardNotAnArray(board_value.kind()))?;
        if rows.len() != SIZE {
            return Err(StateError::RowCount(rows.len()));
        }
        let mut board = [[Cell::Empty; SIZE]; SIZE];
        for (row, (row_value, cells)) in rows.iter().zip(board.iter_mut()).enumerate() {
            let values = row_value.as_array().ok_or(StateError::RowNotAnArray {
                row,
                kind: row_value.kind(),
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
                    kind: cell_value.kind(),
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
            .ok_or(StateError::TurnNotAString(turn_value.kind()))?;
        let turn = Turn::from_name(turn_name)
            .ok_or_else(|| StateError::UnknownTurn(excerpt(turn_name)))?;
        Ok(State { board, turn })
    }

    /// The state as gson writes it (for tests and logs).
    #[cfg(test)]
    pub fn to_json(&self) -> String {
        let rows: Vec<String> = self
            .board
            .iter()
            .map(|row| {
                let cells: Vec<String> = row.iter().map(|cell| quote(cell.name())).collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        format!(
            "{{\"board\":[{}],\"turn\":{}}}",
            rows.join(","),
            quote(self.turn.name())
        )
    }
}

/// The first message: our name, a JSON string.
pub fn name_message(name: &str) -> String {
    quote(name)
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

/// Our move, as the server's `Action`: `{"from":"e3","to":"f3","turn":"WHITE"}`.
pub fn action_message(m: Move, side: Side) -> String {
    format!(
        "{{\"from\":{},\"to\":{},\"turn\":{}}}",
        quote(&m.from().to_string()),
        quote(&m.to().to_string()),
        quote(Turn::of(side).name())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

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
        State::from_json(&parse(text).expect("JSON"))
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
        assert_eq!(read("[]"), Err(StateError::NotAnObject("an array")));
        assert_eq!(
            read(r#"{"turn":"WHITE"}"#),
            Err(StateError::MissingField("board"))
        );
        let no_turn = start.replace(r#","turn":"WHITE""#, "");
        assert_eq!(read(&no_turn), Err(StateError::MissingField("turn")));
        let two_turns = start.replace(r#""turn":"WHITE""#, r#""turn":"WHITE","turn":"BLACK""#);
        assert_eq!(read(&two_turns), Err(StateError::DuplicateField("turn")));
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
