//! A position in one line of text with the side to move (like chess's FEN): an OpenTafl
//! position record, a space, and `a` or `d`.
//!
//! ```text
//! position-string = record " " side
//! record          = "/" row "/" row "/" ... "/"     n rows of an n x n board, rank 1 first
//! row             = one or more of: a number (that many empty squares) or a piece letter
//!                   ("t" attacker, "T" defender, "K" king), adding up to n squares
//! side            = "a" (attackers to move) or "d" (defenders to move)
//! ```
//!
//! For example Tablut's start, attackers to move:
//! `/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/ a`. [`write()`] writes exactly that form,
//! and [`parse()`] reads it back to the same position. The reader is more lenient: white space
//! around and between the fields may be any amount, the slashes at the ends may be left out, and
//! the side may also be written `attackers`, `defenders`, `attacker`, `defender` (any case). The
//! rules are not in the string: the reader is given them, as for a record.
//!
//! ```
//! use tafl_engine::{position_string, Position, Rules};
//! let text = position_string::write(&Position::tablut());
//! assert_eq!(text, "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/ a");
//! assert_eq!(position_string::parse(&text, Rules::TABLUT)?, Position::tablut());
//! let error = position_string::parse("/3ttt3/4t4/ x", Rules::TABLUT).unwrap_err();
//! assert!(error.to_string().contains("column 13"));
//! # Ok::<(), tafl_engine::position_string::PositionStringError>(())
//! ```

use thiserror::Error;

use crate::board::Narrow;
use crate::notation::{self, RecordError};
use crate::piece::Side;
use crate::play::Grid;
use crate::position::Position;
use crate::rules::Rules;

/// Most characters of the input an error message repeats.
const QUOTED_CHARS: usize = 24;

/// Why a position string could not be read (`B`: the board type it was read for).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionStringError<B: Grid = Narrow> {
    /// Nothing but white space.
    #[error("the position string is empty")]
    Empty,
    /// The record is not followed by a side to move.
    #[error(
        "no side to move after the record: add ' a' (attackers to move) or ' d' (defenders to move)"
    )]
    MissingSide,
    /// The second field is not a side.
    #[error(
        "'{found}' at column {column} is not a side to move: expected 'a' (attackers) or 'd' (defenders)"
    )]
    BadSide {
        /// The field (its first characters).
        found: String,
        /// Its column, from 1.
        column: usize,
    },
    /// More text after the side to move.
    #[error("'{found}' at column {column}: a position string ends after the side to move")]
    TrailingText {
        /// The extra text (its first characters).
        found: String,
        /// Its column, from 1.
        column: usize,
    },
    /// The record part is malformed or does not fit the rules.
    #[error("the record (column 1): {0}")]
    Record(#[from] RecordError<B>),
}

/// The position string of `position`: its record, a space, `a` or `d`.
pub fn write<B: Grid>(position: &Position<B>) -> String {
    let side = match position.side_to_move() {
        Side::Attackers => 'a',
        Side::Defenders => 'd',
    };
    format!("{} {side}", notation::position_record(position))
}

/// The first characters of `text`, for an error message.
fn quoted(text: &str) -> String {
    notation::quoted(text, QUOTED_CHARS)
}

/// Reads a position string (see the module's documentation) for a game played under `rules`.
/// Never panics; an error says what is wrong and where.
pub fn parse<B: Grid>(text: &str, rules: Rules<B>) -> Result<Position<B>, PositionStringError<B>> {
    // Fields with the column (from 1) each starts at.
    let mut fields = text
        .split_whitespace()
        .map(|field| {
            // `field` is a slice of `text`, so its offset is the difference of the pointers.
            let offset = field.as_ptr() as usize - text.as_ptr() as usize;
            (field, text[..offset].chars().count() + 1)
        })
        .peekable();
    let (record, _) = fields.next().ok_or(PositionStringError::Empty)?;
    let (side_text, column) = fields.next().ok_or(PositionStringError::MissingSide)?;
    let side = Side::from_name(side_text).ok_or_else(|| PositionStringError::BadSide {
        found: quoted(side_text),
        column,
    })?;
    if let Some((extra, column)) = fields.next() {
        return Err(PositionStringError::TrailingText {
            found: quoted(extra),
            column,
        });
    }
    Ok(notation::parse_position_record(record, rules, side)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{built_in_variants, positions_along_random_games};
    use crate::variant::Variant;

    #[test]
    fn every_position_along_random_games_reads_back_exactly() {
        let variants = built_in_variants();
        let starts: Vec<Position> = variants.iter().map(Variant::start).collect();
        for position in positions_along_random_games(&starts, 2, 60, 0xf00d) {
            let text = write(&position);
            assert_eq!(parse(&text, position.rules()), Ok(position), "{text}");
            assert!(text.ends_with(" a") || text.ends_with(" d"));
            assert_eq!(text.lines().count(), 1);
        }
    }

    #[test]
    fn positions_of_boards_above_eleven_squares_read_back_exactly() {
        use crate::board::Wide;
        let starts: Vec<Position<Wide>> = [
            Variant::<Wide>::hnefatafl_org_copenhagen_13().start(),
            // Alea Evangelii's 19x19 board, kings and soldiers only, as a rules string sets it up.
            "dim:19 start:/19/19/19/19/19/19/19/19/19/9K9/19/19/19/19/19/19/19/t18/18T/"
                .parse::<Variant<Wide>>()
                .expect("reads")
                .start(),
        ]
        .to_vec();
        for position in positions_along_random_games(&starts, 2, 40, 0x1919) {
            let text = write(&position);
            assert_eq!(parse(&text, position.rules()), Ok(position), "{text}");
        }
        let thirteen = starts[0].rules();
        assert!(matches!(
            parse("/13/13/ a", thirteen),
            Err(PositionStringError::Record(_))
        ));
    }

    #[test]
    fn lenient_forms_read_the_same() {
        let start = Position::tablut();
        let record = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        for text in [
            format!("{record} a"),
            format!("  {record}\t attackers \n"),
            format!("{} A", record.trim_matches('/')),
        ] {
            assert_eq!(parse(&text, Rules::TABLUT), Ok(start), "{text:?}");
        }
        assert_eq!(
            parse(&format!("{record} defenders"), Rules::TABLUT),
            Ok(start.with_side_to_move(Side::Defenders))
        );
    }

    #[test]
    fn errors_say_what_and_where() {
        let record = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        let cases = [
            (String::new(), "empty"),
            ("   ".to_string(), "empty"),
            (record.to_string(), "no side to move"),
            (format!("{record} w"), "'w' at column 53"),
            (format!("{record} a 12"), "'12' at column 55"),
            (format!("{record} {}", "x".repeat(1000)), "xxx..."),
            ("/9/9/ a".to_string(), "record (column 1)"),
            (
                "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3tqt3/ a".to_string(),
                "'q'",
            ),
            ("/7/7/7/7/7/7/7/ d".to_string(), "the record has 7 rows"),
            ("é/ü a".to_string(), "'é'"),
            ("é ü".to_string(), "'ü' at column 3"),
        ];
        for (text, expected) in cases {
            let error = parse(&text, Rules::TABLUT).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
            assert!(error.len() < 200, "{error}");
        }
    }
}
