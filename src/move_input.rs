//! A move typed by a user, read and checked against a position or a game in one step
//! ([`Position::parse_move`], [`Game::parse_move`]): the syntax by [`notation`](crate::notation),
//! the move by the rules, and what full notation adds (the piece, the captures) against what the
//! move does there.

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::board::Narrow;
use crate::game::{Game, PlayError};
use crate::moves::Move;
use crate::notation::{FullMove, MoveParseError};
use crate::piece::Piece;
use crate::play::Grid;
use crate::position::{IllegalMoveError, Position};

/// Why a move given as text cannot be played in a position or a game. Nothing was played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveInputError<B: Grid = Narrow> {
    /// The text is no move in OpenTafl's notation.
    #[error("{0}")]
    Syntax(#[from] MoveParseError),
    /// A move, but one the rules do not allow here (or the game is over).
    #[error("{0}")]
    Illegal(#[from] PlayError<B>),
    /// Full notation names a piece that does not stand on the starting square.
    #[error("{mv}: the piece on its starting square is not the one written ({written:?})")]
    WrongPiece {
        /// The move.
        mv: Move<B>,
        /// The piece the text names.
        written: Piece,
    },
    /// Full notation names captures that the move does not make here.
    #[error("{mv} captures {}, not {}", squares(*.actual), squares(*.written))]
    WrongCaptures {
        /// The move.
        mv: Move<B>,
        /// The captures the text names.
        written: Bitboard<B>,
        /// What the move captures here.
        actual: Bitboard<B>,
    },
}

/// `d4 and e5`, or `nothing`.
fn squares<B: Grid>(set: Bitboard<B>) -> String {
    let names: Vec<String> = set.into_iter().map(|square| square.to_string()).collect();
    if names.is_empty() {
        "nothing".to_string()
    } else {
        names.join(" and ")
    }
}

/// Checks what full notation adds to a legal move: the piece and the captures it names.
fn check_description<B: Grid>(
    position: &Position<B>,
    full: FullMove<B>,
) -> Result<Move<B>, MoveInputError<B>> {
    let mv = full.mv;
    if let Some(written) = full.piece {
        if position.piece_at(mv.from()) != Some(written) {
            return Err(MoveInputError::WrongPiece { mv, written });
        }
    }
    // Captures are checked only when the text names some: simple notation names none.
    if !full.captures.is_empty() {
        let actual = position.captures_of(mv);
        if actual != full.captures {
            return Err(MoveInputError::WrongCaptures {
                mv,
                written: full.captures,
                actual,
            });
        }
    }
    Ok(mv)
}

impl<B: Grid> Position<B> {
    /// Reads a move in simple (`e2-h2`) or full (`te2-h2`, `Ke5-e8xe9--`) notation and checks
    /// it against this position: a move the rules allow here, and whose piece and captures, when
    /// the text names them, are those it has here (as shakmaty's `UciMove::to_move`).
    /// `"e2-h2".parse::<Move>()` checks the syntax only.
    ///
    /// ```
    /// use tafl_engine::{MoveInputError, Position};
    /// let position = Position::tablut();
    /// assert_eq!(position.parse_move("e2-h2")?.to_string(), "e2-h2");
    /// let error = position.parse_move("e1-e3").unwrap_err(); // the attacker on e2 is in the way
    /// assert!(matches!(error, MoveInputError::Illegal(_)));
    /// assert!(error.to_string().contains("blocked"), "{error}");
    /// let error = position.parse_move("e5-e6").unwrap_err(); // the attackers are to move
    /// assert_eq!(error.to_string(), "illegal move: no piece of the attackers on e5");
    /// assert!(matches!(position.parse_move("e2-"), Err(MoveInputError::Syntax(_))));
    /// assert!(matches!(position.parse_move("Ke2-h2"), Err(MoveInputError::WrongPiece { .. })));
    /// # Ok::<(), MoveInputError>(())
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move<B>, MoveInputError<B>> {
        let full: FullMove<B> = text.parse()?;
        self.check_move(full.mv).map_err(|error| match error {
            IllegalMoveError::GameOver(outcome) => PlayError::GameOver(outcome),
            error => PlayError::Illegal(error),
        })?;
        check_description(self, full)
    }
}

impl<B: Grid> Game<B> {
    /// Reads a move as [`Position::parse_move`] does and checks it as [`Game::play`] would
    /// (the end of the game and the rules of its history too); the game is not changed.
    ///
    /// ```
    /// use tafl_engine::{Game, Variant};
    /// let mut game = Game::new(&Variant::tablut());
    /// let m = game.parse_move("e2-h2")?;
    /// game.play(m)?;
    /// assert!(game.parse_move("e2-h2").is_err()); // the defenders are to move
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move<B>, MoveInputError<B>> {
        let full: FullMove<B> = text.parse()?;
        self.check_move(full.mv)?;
        check_description(self.position(), full)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Wide;
    use crate::variant::Variant;

    #[test]
    fn full_notation_is_checked_against_the_move() {
        let mut game = Game::new(&Variant::tablut());
        for text in ["e2-h2", "e3-h3", "h2-g2"] {
            game.play(text.parse().unwrap()).unwrap(); // legal moves of Tablut's opening
        }
        // Whatever the position, a move's own description reads back as that move, and a wrong
        // capture list is refused naming the true one.
        for &m in game.legal_moves().iter() {
            let full = FullMove::describe(game.position(), m).to_string();
            assert_eq!(game.parse_move(&full), Ok(m), "{full}");
        }
        let moves = game.legal_moves();
        let quiet = moves.iter().copied();
        let mut quiet = quiet.filter(|&m| game.position().captures_of(m).is_empty());
        let m = quiet.next().unwrap(); // Most moves of an opening capture nothing.
        let error = game.parse_move(&format!("{m}xe5")).unwrap_err();
        assert!(
            matches!(error, MoveInputError::WrongCaptures { .. }),
            "{error}"
        );
        assert_eq!(error.to_string(), format!("{m} captures nothing, not e5"));
    }

    #[test]
    fn wide_games_read_moves_too() {
        let game = Game::new(&Variant::<Wide>::hnefatafl_org_copenhagen_13());
        let first = game.legal_moves()[0];
        assert_eq!(game.parse_move(&first.to_string()), Ok(first));
        assert!(matches!(
            game.parse_move("a1-a2"),
            Err(MoveInputError::Illegal(PlayError::Illegal(_)))
        ));
    }
}
