//! Text in and out: OpenTafl position records, simple and full moves, board diagrams.
//!
//! The notation is OpenTafl's, as its engine protocol and game records use it:
//!
//! - a **square** is a file letter and a rank number, `a1` at the bottom left (`e5` is
//!   Tablut's centre; up to `s19` on the wide grid);
//! - a **simple move** is `from-to` (`e2-h2`); a **full move** adds the piece letter, the
//!   captured squares and the king's state, `[piece]from-to[xcap[/cap]...][+|-|++|--]`
//!   ([`FullMove`]: `Ke5-e8xe9--`); `---` is a resignation, not a move;
//! - a **position record** lists the ranks from rank 1 up between slashes, a digit being a run
//!   of empty squares, `t` an attacker, `T` a defender and `K` the king
//!   (`/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/` is Tablut's start);
//!   [`position_record`] writes one and [`parse_position_record`] reads one;
//! - a **diagram** ([`diagram`], also `Display` of any [`Position`]) draws the board for people.
//!
//! `"e2-h2".parse::<Move>()` checks the syntax only; [`Position::parse_move`] and
//! [`Game::parse_move`](crate::Game::parse_move) read a move and check it against the position.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::board::{Narrow, Wide};
use crate::moves::Move;
use crate::piece::{Piece, Side};
use crate::play::Grid;
use crate::position::{Outcome, Position, SetupError, WinReason};
use crate::rules::Rules;
use crate::square::{Square, SquareParseError};

/// The first `chars` characters of `text`, and `...` when there is more: for error messages
/// that repeat a user's input without repeating all of it.
pub(crate) fn quoted(text: &str, chars: usize) -> String {
    let mut rest = text.chars();
    let head: String = rest.by_ref().take(chars).collect();
    if rest.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

/// Why a position record could not be read.
///
/// `B`, the board type ([`Narrow`] unless a board above 11x11 is read), is that of the squares
/// named in [`RecordError::Setup`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError<B: Grid = Narrow> {
    /// The record holds no rows.
    #[error("the position record is empty")]
    Empty,
    /// The record has more rows than the largest board of any grid (19x19).
    #[error("the record has {0} rows; the largest board is {max}x{max}", max = Wide::MAX_SIZE)]
    TooManyRows(usize),
    /// A character that is neither a digit nor a piece letter of these games.
    #[error("row {row}: '{found}' is not a piece of these games (t, T, K) or a digit")]
    BadCharacter {
        /// Row number in the record, from 1.
        row: usize,
        /// The character.
        found: char,
    },
    /// A row does not have as many squares as the board is wide.
    #[error("row {row} has {}; the board is {expected} wide", squares_in_row(*.found, *.expected))]
    RowLength {
        /// Row number in the record, from 1.
        row: usize,
        /// Squares counted in the row. Counting stops once the row is wider than the board, so
        /// a larger number only means "more than `expected`".
        found: usize,
        /// Squares needed: the width of the board the rules play on.
        expected: usize,
    },
    /// The record does not have as many rows as the board the rules play on.
    #[error("the record has {}; the rules play on {expected}x{expected}", count(*.found, "row"))]
    WrongSize {
        /// The record's rows.
        found: usize,
        /// The rules' size.
        expected: u8,
    },
    /// The pieces do not make a position (two kings, ...).
    #[error(transparent)]
    Setup(#[from] SetupError<B>),
}

/// `1 row`, `2 rows`.
fn count(number: usize, thing: &str) -> String {
    if number == 1 {
        format!("1 {thing}")
    } else {
        format!("{number} {thing}s")
    }
}

impl RecordError {
    /// The same error for the grid `B` (see [`RulesStringError`](crate::RulesStringError)'s
    /// `for_grid`): squares of the narrow grid are on every grid.
    pub(crate) fn for_grid<B: Grid>(self) -> RecordError<B> {
        match self {
            RecordError::Empty => RecordError::Empty,
            RecordError::TooManyRows(rows) => RecordError::TooManyRows(rows),
            RecordError::BadCharacter { row, found } => RecordError::BadCharacter { row, found },
            RecordError::RowLength {
                row,
                found,
                expected,
            } => RecordError::RowLength {
                row,
                found,
                expected,
            },
            RecordError::WrongSize { found, expected } => {
                RecordError::WrongSize { found, expected }
            }
            RecordError::Setup(error) => RecordError::Setup(error.for_grid()),
        }
    }
}

/// How a row's count of squares reads in [`RecordError::RowLength`]: past the board's width the
/// count is only a lower bound (a digit run may be any length), so it is not shown.
fn squares_in_row(found: usize, expected: usize) -> String {
    if found > expected {
        format!("more than {expected} squares")
    } else {
        count(found, "square")
    }
}

/// The pieces of a record for a board `size` squares wide. `top_down` reads the first row as
/// the top rank (OpenTafl's `starti:`); otherwise the first row is rank 1. After the characters,
/// the number of rows is checked, so that a row is only ever measured against the board the
/// rules play on.
pub(crate) fn parse_record_pieces<B: Grid>(
    record: &str,
    top_down: bool,
    size: u8,
) -> Result<Vec<(Square<B>, Piece)>, RecordError<B>> {
    let record = record.trim();
    let trimmed = record.strip_prefix('/').unwrap_or(record);
    let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
    if trimmed.is_empty() {
        return Err(RecordError::Empty);
    }
    // A character that is no piece and no digit is named first: it says most about junk.
    for (row_index, row) in trimmed.split('/').enumerate() {
        let bad = row
            .chars()
            .find(|&c| c.to_digit(10).is_none() && Piece::from_record_char(c).is_none());
        if let Some(found) = bad {
            return Err(RecordError::BadCharacter {
                row: row_index + 1,
                found,
            });
        }
    }
    let rows = trimmed.split('/').count();
    // More rows than any board has; a number of rows that another board has is the rules'
    // size that differs (below), whichever grid reads it.
    if rows > usize::from(Wide::MAX_SIZE) {
        return Err(RecordError::TooManyRows(rows));
    }
    if rows != usize::from(size) {
        return Err(RecordError::WrongSize {
            found: rows,
            expected: size,
        });
    }
    let size = usize::from(size);
    let mut pieces = Vec::new();
    for (row_index, row) in trimmed.split('/').enumerate() {
        let row_number = row_index + 1;
        let y = if top_down {
            size - 1 - row_index
        } else {
            row_index
        };
        let mut x = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(digit) = c.to_digit(10) {
                let mut run = digit as usize;
                while let Some(next) = chars.peek().and_then(|d| d.to_digit(10)) {
                    chars.next();
                    // Any run longer than a row is caught below; saturate so it cannot overflow.
                    run = run.saturating_mul(10).saturating_add(next as usize);
                }
                x = x.saturating_add(run);
            } else if let Some(piece) = Piece::from_record_char(c) {
                if x < size {
                    // x and y are below size, at most the grid's width, so the square exists.
                    if let Some(square) = Square::at(x as u8, y as u8) {
                        pieces.push((square, piece));
                    }
                }
                x += 1;
            } else {
                return Err(RecordError::BadCharacter {
                    row: row_number,
                    found: c,
                });
            }
            if x > size {
                break;
            }
        }
        if x != size {
            return Err(RecordError::RowLength {
                row: row_number,
                found: x,
                expected: size,
            });
        }
    }
    Ok(pieces)
}

/// Reads an OpenTafl position record (rank 1 first) for a game played under `rules`, with
/// `side_to_move` to move (a record does not say whose move it is).
///
/// ```
/// use tafl_engine::{notation, Rules, Side};
/// let record = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
/// let position = notation::parse_position_record(record, Rules::TABLUT, Side::Attackers).unwrap();
/// assert_eq!(notation::position_record(&position), record);
/// ```
pub fn parse_position_record<B: Grid>(
    record: &str,
    rules: Rules<B>,
    side_to_move: Side,
) -> Result<Position<B>, RecordError<B>> {
    let pieces = parse_record_pieces(record, false, rules.size())?;
    Ok(Position::from_pieces(rules, side_to_move, pieces)?)
}

fn write_row<B: Grid>(out: &mut String, position: &Position<B>, y: u8) {
    let mut empty_run = 0;
    for x in 0..position.rules().size() {
        match Square::at(x, y).and_then(|square| position.piece_at(square)) {
            Some(piece) => {
                if empty_run > 0 {
                    out.push_str(&empty_run.to_string());
                    empty_run = 0;
                }
                out.push(piece.record_char());
            }
            None => empty_run += 1,
        }
    }
    if empty_run > 0 {
        out.push_str(&empty_run.to_string());
    }
    out.push('/');
}

/// The OpenTafl position record of `position`, rank 1 first: `/3ttt3/4t4/.../`.
pub fn position_record<B: Grid>(position: &Position<B>) -> String {
    let mut out = String::from("/");
    for y in 0..position.rules().size() {
        write_row(&mut out, position, y);
    }
    out
}

// Positions print as records (`Debug`) and diagrams (`Display`): text is this module's job.
impl<B: Grid> fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({} {} to move)",
            position_record(self),
            self.side_to_move()
        )
    }
}

impl<B: Grid> fmt::Display for Position<B> {
    /// The board diagram of [`diagram`] (on either grid).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&diagram(self))
    }
}

/// A board diagram as docs/rules.md draws them: rank 1 at the bottom, files along the foot, `a`
/// attacker, `d` defender, `K` king, `#` the empty castle (or throne), `+` an empty corner or
/// fort of custom rules, `.` an empty square.
///
/// ```
/// use tafl_engine::{notation, Position};
/// let diagram = notation::diagram(&Position::tablut());
/// assert!(diagram.starts_with("9  . . . a a a . . ."));
/// assert!(diagram.contains("5  a a d d K d d a a"));
/// ```
pub fn diagram<B: Grid>(position: &Position<B>) -> String {
    let size = position.rules().size();
    let (throne, special) = (
        position.rules().throne(),
        position.rules().special_squares(),
    );
    let mut out = String::new();
    for y in (0..size).rev() {
        out.push_str(&format!("{:>2} ", y + 1));
        for x in 0..size {
            let Some(square) = Square::<B>::at(x, y) else {
                continue;
            };
            let symbol = match position.piece_at(square) {
                Some(piece) => piece.diagram_char(),
                None if throne.contains(square) => '#',
                None if special.contains(square) => '+',
                None => '.',
            };
            out.push(' ');
            out.push(symbol);
        }
        out.push('\n');
    }
    out.push_str("   ");
    for x in 0..size {
        out.push(' ');
        out.push((b'a' + x) as char);
    }
    out.push('\n');
    // Drop the leading space of two-digit-free boards so 9x9 matches docs/rules.md's layout.
    if size < 10 {
        out = out
            .lines()
            .map(|line| line.strip_prefix(' ').unwrap_or(line))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n";
    }
    out
}

/// The marker at the end of a full move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum KingMarker {
    /// `+`: the attackers, to move next, can capture the king.
    Threatened,
    /// `-`: the defenders, to move next, can move the king to an edge.
    WayOut,
    /// `++`: this move captured the king.
    Captured,
    /// `--`: this move took the king to an edge.
    Escaped,
}

impl KingMarker {
    /// The marker's text.
    pub const fn as_str(self) -> &'static str {
        match self {
            KingMarker::Threatened => "+",
            KingMarker::WayOut => "-",
            KingMarker::Captured => "++",
            KingMarker::Escaped => "--",
        }
    }
}

/// A move in OpenTafl's full notation: the piece, the move, what it captured and a king marker,
/// e.g. `Ke5-e8xe9--`. Only the move itself decides anything; the rest is description.
///
/// ```
/// use tafl_engine::{notation::FullMove, Position};
/// let position = Position::tablut();
/// let full = FullMove::describe(&position, "e2-h2".parse().unwrap());
/// assert_eq!(full.to_string(), "te2-h2");
/// let read: FullMove = "te2-h2".parse().unwrap();
/// assert_eq!(read, full);
/// ```
///
/// `B` is the board type (squares up to `s19` read as a `FullMove<Wide>`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct FullMove<B: Grid = Narrow> {
    /// The moving piece, when the text names it.
    pub piece: Option<Piece>,
    /// The move.
    pub mv: Move<B>,
    /// Squares the move captures (the king's too, with `++`).
    pub captures: Bitboard<B>,
    /// The king marker, if any.
    pub marker: Option<KingMarker>,
}

impl<B: Grid> FullMove<B> {
    /// Describes `m` played in `position` (assumed legal there): piece, captures and marker.
    pub fn describe(position: &Position<B>, m: Move<B>) -> FullMove<B> {
        let mut after = *position;
        let captures = after.play_unchecked(m);
        // OpenTafl's markers are the king's: `++` captured, `--` escaped, `+` and `-` one move
        // from either. A game won otherwise (encircled, no piece left, an edge fort, ...) ends
        // with no marker; the record's `result` and `termination` tags say how.
        let king_ending = |position: &Position<B>| match B::won_outcome(position) {
            Some(Outcome::Win {
                reason: WinReason::KingCaptured,
                ..
            }) => Some(KingMarker::Captured),
            Some(Outcome::Win {
                reason: WinReason::KingEscaped,
                ..
            }) => Some(KingMarker::Escaped),
            _ => None,
        };
        let marker = if after.winner().is_some() {
            king_ending(&after)
        } else {
            let reply_ends_with_king = after.legal_moves().iter().any(|&reply| {
                let mut next = after;
                next.play_unchecked(reply);
                king_ending(&next).is_some()
            });
            match (reply_ends_with_king, after.side_to_move()) {
                (false, _) => None,
                (true, Side::Attackers) => Some(KingMarker::Threatened),
                (true, Side::Defenders) => Some(KingMarker::WayOut),
            }
        };
        FullMove {
            piece: position.piece_at(m.from()),
            mv: m,
            captures,
            marker,
        }
    }
}

impl<B: Grid> fmt::Display for FullMove<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(piece) = self.piece {
            write!(f, "{}", piece.record_char())?;
        }
        write!(f, "{}", self.mv)?;
        for (i, square) in self.captures.into_iter().enumerate() {
            f.write_str(if i == 0 { "x" } else { "/" })?;
            write!(f, "{square}")?;
        }
        if let Some(marker) = self.marker {
            f.write_str(marker.as_str())?;
        }
        Ok(())
    }
}

/// Why a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// The text was empty.
    #[error("empty move")]
    Empty,
    /// `---` is a resignation, not a move.
    #[error("'---' is a resignation, not a move")]
    Resignation,
    /// No `-` between the two squares.
    #[error("'{0}' is not a move: expected from-to, like e1-e3")]
    NoDash(String),
    /// A leading piece letter that these games do not have.
    #[error("'{0}' is not a piece of these games (t, T, K)")]
    BadPiece(char),
    /// The starting square is not a square.
    #[error("bad starting square: {0}")]
    BadFrom(SquareParseError),
    /// The destination is not a square.
    #[error("bad destination: {0}")]
    BadTo(SquareParseError),
    /// A captured square after `x` or `/` is not a square.
    #[error("bad captured square: {0}")]
    BadCapture(SquareParseError),
    /// Something other than captures and a king marker follows the destination.
    #[error("unexpected '{0}' after the move")]
    Trailing(String),
}

fn split_square_prefix(text: &str) -> (&str, &str) {
    // A square is a letter then one or two digits.
    let mut end = 0;
    for (i, c) in text.char_indices() {
        if i == 0 {
            if !c.is_ascii_alphabetic() {
                break;
            }
        } else if !(c.is_ascii_digit() && i <= 2) {
            break;
        }
        end = i + c.len_utf8();
    }
    text.split_at(end)
}

impl<B: Grid> FromStr for FullMove<B> {
    type Err = MoveParseError;

    /// Reads a simple (`e1-e3`) or full (`Ke5-e8xe9/d8--`) move.
    fn from_str(text: &str) -> Result<FullMove<B>, MoveParseError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MoveParseError::Empty);
        }
        if text == "---" {
            return Err(MoveParseError::Resignation);
        }
        let mut rest = text;
        let mut piece = None;
        let mut chars = text.chars();
        if let (Some(first), Some(second)) = (chars.next(), chars.next()) {
            // A square starts with a letter then a digit; a piece letter is followed by a letter.
            if first.is_ascii_alphabetic() && !second.is_ascii_digit() && second != '-' {
                piece =
                    Some(Piece::from_record_char(first).ok_or(MoveParseError::BadPiece(first))?);
                rest = &text[first.len_utf8()..];
            }
        }
        let Some((from_text, after_dash)) = rest.split_once('-') else {
            return Err(MoveParseError::NoDash(text.to_string()));
        };
        let from: Square<B> = from_text.parse().map_err(MoveParseError::BadFrom)?;
        let (to_text, mut tail) = split_square_prefix(after_dash);
        let to: Square<B> = to_text.parse().map_err(MoveParseError::BadTo)?;
        let mut captures = Bitboard::EMPTY;
        let mut first_capture = true;
        while let Some(after) = tail.strip_prefix('x').or_else(|| {
            if first_capture {
                None
            } else {
                tail.strip_prefix('/')
            }
        }) {
            let (square_text, next) = split_square_prefix(after);
            let square: Square<B> = square_text.parse().map_err(MoveParseError::BadCapture)?;
            captures |= square;
            tail = next;
            first_capture = false;
        }
        let marker = match tail {
            "" => None,
            "+" => Some(KingMarker::Threatened),
            "-" => Some(KingMarker::WayOut),
            "++" => Some(KingMarker::Captured),
            "--" => Some(KingMarker::Escaped),
            other => return Err(MoveParseError::Trailing(other.to_string())),
        };
        Ok(FullMove {
            piece,
            mv: Move::new(from, to),
            captures,
            marker,
        })
    }
}

impl<B: Grid> FromStr for Move<B> {
    type Err = MoveParseError;

    /// Reads a move in simple (`e1-e3`) or full (`Ke5-e8xe9--`) notation; the extras of the full
    /// form are checked for syntax and then dropped (the rules decide what a move captures).
    /// Squares to `s19` on the wide grid (`Move<Wide>`).
    fn from_str(text: &str) -> Result<Move<B>, MoveParseError> {
        text.parse::<FullMove<B>>().map(|full| full.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_for_both_start_positions() {
        for (record, rules) in [
            (
                "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
                Rules::TABLUT,
            ),
            (
                "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
                Rules::TAWLBWRDD,
            ),
        ] {
            let position = parse_position_record(record, rules, Side::Attackers).unwrap();
            assert_eq!(position_record(&position), record);
        }
    }

    #[test]
    fn malformed_records_are_refused_with_the_row() {
        let rules = Rules::TABLUT;
        let cases = [
            ("", "empty"),
            ("/9/9/9/9/9/9/9/9/", "WrongSize"),
            ("/7/7/7/7/7/7/7/", "WrongSize"),
            ("/9/9/9/9/9/9/9/9/8/", "RowLength"),
            ("/9/9/9/9/9/9/9/9/99999999999999999999999/", "RowLength"),
            ("/9/9/9/9/9/9/9/9/8c/", "BadCharacter"),
            ("/K8/9/9/9/9/9/9/9/8K/", "SecondKing"),
        ];
        for (record, expected) in cases {
            let error = parse_position_record(record, rules, Side::Attackers).unwrap_err();
            let debug = format!("{error:?} {error}");
            assert!(
                debug.to_lowercase().contains(&expected.to_lowercase()),
                "{record:?}: {debug}"
            );
        }
    }

    #[test]
    fn record_errors_name_the_real_problem() {
        let message = |record: &str| {
            parse_position_record(record, Rules::TABLUT, Side::Attackers)
                .unwrap_err()
                .to_string()
        };
        // Ten ranks of nine squares: the rows are too many, not too narrow.
        assert_eq!(
            message(&"/9".repeat(10)),
            "the record has 10 rows; the rules play on 9x9"
        );
        assert_eq!(
            message(&"/9".repeat(12)),
            "the record has 12 rows; the rules play on 9x9"
        );
        assert_eq!(
            message(&"/9".repeat(20)),
            "the record has 20 rows; the largest board is 19x19"
        );
        // A run of digits longer than any number: the row is too long, by some amount.
        let long_run = format!("/{}{}", "1".repeat(65_000), "/9".repeat(8));
        assert_eq!(
            message(&long_run),
            "row 1 has more than 9 squares; the board is 9 wide"
        );
        assert_eq!(
            message("/9/9/9/9/9/9/9/9/t7/"),
            "row 9 has 8 squares; the board is 9 wide"
        );
        assert_eq!(
            message("/9/9/9/9/9/9/9/9/t/"),
            "row 9 has 1 square; the board is 9 wide"
        );
        assert_eq!(
            message("/9/9/9/9/9/9/9/9/9t/"),
            "row 9 has more than 9 squares; the board is 9 wide"
        );
    }

    #[test]
    fn full_moves_parse_with_captures_and_markers() {
        let full: FullMove = "Ke5-e8xe9/d8--".parse().unwrap();
        assert_eq!(full.piece, Some(Piece::King));
        assert_eq!(full.mv.to_string(), "e5-e8");
        assert_eq!(full.captures.count(), 2);
        assert_eq!(full.marker, Some(KingMarker::Escaped));
        assert_eq!(full.to_string(), "Ke5-e8xd8/e9--");
        for bad in [
            "", "e5", "e5-", "e5-e8x", "e5-e8?", "Xe5-e8", "---", "e5-e8+++",
        ] {
            assert!(bad.parse::<FullMove>().is_err(), "{bad:?}");
        }
        assert_eq!("a10-a11".parse::<Move>().unwrap().to().to_string(), "a11");
    }
}
