//! The server's board in the library's terms: a [`State`] as a [`Position`], where two positions
//! differ, and the move that turns one position into another.
//!
//! `board[row][column]` is the library's square `Square::new(column, row)` (a4 is
//! `board[3][0]`); white's soldiers are defenders, black's attackers; `THRONE` is the empty
//! throne, e5.

use tafl_engine::{Move, Piece, Position, Rules, SetupError, Side, Square};
use thiserror::Error;

use super::messages::{Cell, SIZE, State, square_name};

/// Where the server's throne is: e5, `board[4][4]`.
const THRONE: (usize, usize) = (4, 4);

/// Why a state's board is not a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// A `THRONE` cell somewhere other than e5.
    #[error("THRONE on {0}: the throne is e5")]
    ThroneOffCentre(String),
    /// The pieces do not make a position (two kings).
    #[error("the board is not a position: {0}")]
    Setup(#[from] SetupError),
}

/// The pieces on a state's board.
pub fn pieces(state: &State) -> Result<Vec<(Square, Piece)>, BoardError> {
    let mut pieces = Vec::new();
    for (row, cells) in state.board.iter().enumerate() {
        for (column, cell) in cells.iter().enumerate() {
            let piece = match cell {
                Cell::Empty => continue,
                Cell::Throne if (row, column) == THRONE => continue,
                Cell::Throne => return Err(BoardError::ThroneOffCentre(square_name(row, column))),
                Cell::White => Piece::Defender,
                Cell::Black => Piece::Attacker,
                Cell::King => Piece::King,
            };
            // Rows and columns are below SIZE (9): always a square.
            if let Some(square) = Square::new(column as u8, row as u8) {
                pieces.push((square, piece));
            }
        }
    }
    Ok(pieces)
}

/// A state's board as a position under `rules`, with `side` to move.
pub fn position(rules: Rules, side: Side, state: &State) -> Result<Position, BoardError> {
    Ok(Position::from_pieces(rules, side, pieces(state)?)?)
}

/// Whether two positions have the same placement and the same side to move (the rules aside).
pub fn same_position(a: &Position, b: &Position) -> bool {
    a.side_to_move() == b.side_to_move()
        && a.attackers() == b.attackers()
        && a.defenders() == b.defenders()
        && a.king_set() == b.king_set()
}

/// The server's name for what stands on a square.
fn content(position: &Position, square: Square) -> &'static str {
    match position.piece_at(square) {
        Some(Piece::Attacker) => Cell::Black,
        Some(Piece::Defender) => Cell::White,
        Some(Piece::King) => Cell::King,
        None => Cell::Empty,
    }
    .name()
}

/// Where `theirs` differs from `ours`, for a message: the first few squares that differ, and the
/// side to move if it differs (`"d4 ours BLACK, the server's EMPTY; ..."`).
pub fn differences(ours: &Position, theirs: &Position) -> String {
    const SHOWN: usize = 6;
    let mut found = Vec::new();
    for row in 0..SIZE {
        for column in 0..SIZE {
            let Some(square) = Square::new(column as u8, row as u8) else {
                continue;
            };
            let (a, b) = (content(ours, square), content(theirs, square));
            if a != b {
                found.push(format!("{square} ours {a}, the server's {b}"));
            }
        }
    }
    let squares = found.len();
    found.truncate(SHOWN);
    if squares > SHOWN {
        found.push(format!("{} more squares", squares - SHOWN));
    }
    if ours.side_to_move() != theirs.side_to_move() {
        found.push(format!(
            "{} to move in ours, {} in the server's",
            super::messages::colour(ours.side_to_move()),
            super::messages::colour(theirs.side_to_move())
        ));
    }
    if found.is_empty() {
        "none".to_string()
    } else {
        found.join("; ")
    }
}

/// The legal moves of `from` that lead to `to` (same placement, same side to move): one when
/// `to` follows `from` by a move, none otherwise. (Two moves cannot lead to the same placement:
/// the squares they leave differ, and a side never captures its own pieces.)
pub fn moves_between(from: &Position, to: &Position) -> Vec<Move> {
    from.legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut next = *from;
            next.play(m).is_ok() && same_position(&next, to)
        })
        .collect()
}

/// A state of `position`'s board, as the server draws it (for the tests of this module and of
/// the client).
#[cfg(test)]
pub fn state_of(position: &Position, turn: super::messages::Turn) -> State {
    let mut board = [[Cell::Empty; SIZE]; SIZE];
    board[4][4] = Cell::Throne;
    for (square, piece) in position.pieces_with_squares() {
        board[square.y() as usize][square.x() as usize] = match piece {
            Piece::Attacker => Cell::Black,
            Piece::Defender => Cell::White,
            Piece::King => Cell::King,
        };
    }
    State { board, turn }
}

#[cfg(test)]
mod tests {
    use tafl_engine::Variant;

    use super::super::messages::Turn;
    use super::*;

    fn start() -> Position {
        Variant::tablut().start().with_side_to_move(Side::Defenders)
    }

    #[test]
    fn a_state_reads_back_as_its_position() {
        let position = start();
        let state = state_of(&position, Turn::White);
        let read = super::position(position.rules(), Side::Defenders, &state).unwrap();
        assert!(same_position(&read, &position));
        assert_eq!(read, position, "the hash too");
        assert_eq!(state.board[3][0], Cell::Black, "a4 is an attacker");
    }

    #[test]
    fn the_empty_throne_is_e5_only() {
        let position = start();
        let mut state = state_of(&position, Turn::White);
        state.board[0][0] = Cell::Throne;
        assert_eq!(
            pieces(&state).unwrap_err(),
            BoardError::ThroneOffCentre("a1".to_string())
        );
        let mut state = state_of(&position, Turn::White);
        state.board[0][0] = Cell::King;
        assert!(matches!(
            super::position(position.rules(), Side::Defenders, &state),
            Err(BoardError::Setup(SetupError::SecondKing(_)))
        ));
    }

    #[test]
    fn finds_the_move_between_two_positions() {
        let before = start();
        let m: Move = "e3-f3".parse().unwrap();
        let mut after = before;
        after.play(m).unwrap();
        assert_eq!(moves_between(&before, &after), vec![m]);
        assert!(moves_between(&after, &before).is_empty());
        assert!(moves_between(&before, &before).is_empty());
        let text = differences(&before, &after);
        assert_eq!(
            text,
            "e3 ours WHITE, the server's EMPTY; f3 ours EMPTY, the server's WHITE; \
             white to move in ours, black in the server's"
        );
        assert_eq!(differences(&before, &before), "none");
    }
}
