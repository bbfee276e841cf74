//! `Game`: a position with its history, for the draws that depend on it (R16, R18), undo and the
//! result.

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::{DrawReason, IllegalMoveError, Outcome, Position, WinReason};
use crate::rules::RepetitionRule;

/// Why a move could not be played in a game. The game is left as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// The move is not legal in the current position.
    #[error("illegal move: {0}")]
    Illegal(#[from] IllegalMoveError),
}

/// A game in progress: the start position, the moves played and the positions they led to.
///
/// ```
/// use tafl_engine::{Game, Variant, Outcome, DrawReason};
/// let mut game = Game::new(&Variant::tablut());
/// for text in ["e2-h2", "e3-h3", "h2-e2", "h3-e3"] {
///     game.play(text.parse().unwrap()).unwrap();
/// }
/// // R16: the start position (attackers to move) occurred a second time.
/// assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
/// game.undo();
/// assert_eq!(game.outcome(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Every position of the game, the start first and the current one last (never empty).
    positions: Vec<Position>,
    /// The moves between them, with what each captured.
    moves: Vec<(Move, Bitboard)>,
    agreed_draw: bool,
}

impl Game {
    /// A new game set up at `position`: repetitions count from here (R16).
    pub fn from_position(position: Position) -> Game {
        Game {
            positions: vec![position],
            moves: Vec::new(),
            agreed_draw: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        // `positions` is never empty: it starts with one and `undo` keeps the first.
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// Every position of the game so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played so far, first to last.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = Move> + ExactSizeIterator + '_ {
        self.moves.iter().map(|&(m, _)| m)
    }

    /// The moves played so far, each with the squares it captured, first to last.
    pub fn moves_with_captures(
        &self,
    ) -> impl DoubleEndedIterator<Item = (Move, Bitboard)> + ExactSizeIterator + '_ {
        self.moves.iter().copied()
    }

    /// The last move played and what it captured.
    pub fn last_move(&self) -> Option<(Move, Bitboard)> {
        self.moves.last().copied()
    }

    /// How many times the current position (placement and side to move) has occurred in this
    /// game, counting itself.
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        self.positions
            .iter()
            .filter(|p| p.hash() == current.hash() && *p == current)
            .count()
    }

    /// [`Game::repetitions`] as `rule` counts them: without the start position when the rule
    /// leaves it out (C14), unless the game is still there.
    fn counted_repetitions(&self, rule: RepetitionRule) -> usize {
        let all = self.repetitions();
        let start = &self.positions[0];
        if !rule.counts_start() && self.positions.len() > 1 && start == self.position() {
            all - 1
        } else {
            all
        }
    }

    /// The result, once the game has ended: a win on the board (R13, R14), a draw by repetition
    /// (R16), by lack of moves (R17) or by agreement (R18). Under custom rules, the other wins on
    /// the board, and the third occurrence of a position as the rules say (draw, or a win).
    pub fn outcome(&self) -> Option<Outcome> {
        let position = self.position();
        if position.winner().is_some() {
            return position.outcome();
        }
        if self.agreed_draw {
            return Some(Outcome::Draw(DrawReason::Agreement));
        }
        let rule = position.rules().repetition();
        if let Some(count) = rule.end_count() {
            if self.counted_repetitions(rule) >= count {
                // The side to move now did not make the repeating move: the other side did.
                let to_move = position.side_to_move();
                return Some(match rule {
                    RepetitionRule::ThirdOccurrenceLosesForMover => Outcome::Win {
                        winner: to_move,
                        reason: WinReason::Repetition,
                    },
                    RepetitionRule::ThirdOccurrenceWinsForMover => Outcome::Win {
                        winner: to_move.opponent(),
                        reason: WinReason::Repetition,
                    },
                    _ => Outcome::Draw(DrawReason::Repetition),
                });
            }
        }
        position.outcome()
    }

    /// The legal moves: none once the game has ended.
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome().is_some() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays `m` and returns what it captured, or says why it cannot be played.
    pub fn play(&mut self, m: Move) -> Result<Bitboard, PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        let mut next = *self.position();
        let captured = next.play(m)?;
        self.positions.push(next);
        self.moves.push((m, captured));
        Ok(captured)
    }

    /// Takes back the last thing that happened: a draw agreement made since the last move (then
    /// no move is taken back and it returns `None`), or else the last move, which it returns.
    /// `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        if self.agreed_draw {
            self.agreed_draw = false;
            return None;
        }
        let (m, _) = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// The players agree to a draw (R18). Does nothing once the game has ended.
    pub fn agree_draw(&mut self) {
        if self.outcome().is_none() {
            self.agreed_draw = true;
        }
    }
}
