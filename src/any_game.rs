//! [`AnyGame`]: a game of any rules, on whichever grid they need, behind one type: a program
//! that takes a user's game name or rules string plays, counts, searches and records it without
//! naming a grid or being generic. The generic [`Game<B>`] stays for code that wants the speed of
//! knowing its grid at compile time (perft runners, searches of one game).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use crate::board::{Narrow, Wide};
use crate::game::Game;
use crate::move_input::MoveInputError;
use crate::moves::Move;
use crate::notation;
use crate::perft;
use crate::piece::Side;
use crate::position::Outcome;
use crate::position_string::{self, PositionStringError};
use crate::record::{GameRecord, GameRecordError};
use crate::rules_string::RulesStringError;
use crate::search::{Limits, Score, Searcher};
use crate::square::Square;
use crate::variant::{AnyVariant, Variant};

/// A move of an [`AnyGame`]: a move of the narrow or of the wide grid. It prints in OpenTafl's
/// notation (`e2-h2`), and [`AnyGame::play`] plays it on either grid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AnyMove {
    /// A move of a board up to 11x11.
    Narrow(Move<Narrow>),
    /// A move of a board above 11x11.
    Wide(Move<Wide>),
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Narrow(m) => m.fmt(f),
            AnyMove::Wide(m) => m.fmt(f),
        }
    }
}

/// A square of an [`AnyGame`] (what a move captured), on the narrow or the wide grid. It prints
/// as `e5`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AnySquare {
    /// A square of a board up to 11x11.
    Narrow(Square<Narrow>),
    /// A square of a board above 11x11.
    Wide(Square<Wide>),
}

impl fmt::Display for AnySquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnySquare::Narrow(square) => square.fmt(f),
            AnySquare::Wide(square) => square.fmt(f),
        }
    }
}

/// Why a move cannot be played in an [`AnyGame`]: the error of its grid's game. Nothing was
/// played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnyMoveError {
    /// The error of a game up to 11x11.
    #[error(transparent)]
    Narrow(#[from] MoveInputError<Narrow>),
    /// The error of a game above 11x11.
    #[error(transparent)]
    Wide(#[from] MoveInputError<Wide>),
}

/// Why a game could not be set up from a user's text ([`AnyGame::from_name_or_rules`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnyGameError {
    /// A single word that names no game.
    #[error("'{0}' is no game's name (names: {names}) and no rules string", names = AnyVariant::names().collect::<Vec<_>>().join(", "))]
    UnknownName(String),
    /// A rules string that was refused (the error names the field).
    #[error("{0}")]
    Rules(#[from] RulesStringError<Wide>),
    /// A position string that could not be read for a game of the narrow grid.
    #[error("{0}")]
    NarrowPosition(PositionStringError<Narrow>),
    /// A position string that could not be read for a game of the wide grid.
    #[error("{0}")]
    WidePosition(PositionStringError<Wide>),
    /// A game record that could not be read, as a record of the narrow grid (up to 11x11).
    #[error("{0}")]
    NarrowRecord(GameRecordError<Narrow>),
    /// A game record that could not be read, as a record of the wide grid (above 11x11).
    #[error("{0}")]
    WideRecord(GameRecordError<Wide>),
}

/// What [`AnyGame::search`] found: [`SearchResult`](crate::search::SearchResult) with moves of
/// either grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnySearchResult {
    /// The best move, `None` only when the game is over.
    pub best_move: Option<AnyMove>,
    /// Its score for the side to move, on the shown scale ([`Score`]).
    pub score: Score,
    /// The principal variation, the best move first.
    pub pv: Vec<AnyMove>,
    /// The deepest completed depth.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// The game behind an [`AnyGame`], with the variant it was set up from (its name, for records).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Inner {
    Narrow(Variant<Narrow>, Game<Narrow>),
    Wide(Variant<Wide>, Game<Wide>),
}

/// A game of any rules: a [`Game`] on the narrow grid (boards up to 11x11) or on the wide one
/// (up to 19x19), chosen by the rules. Every method forwards to the game of its grid.
///
/// ```
/// use tafl_engine::AnyGame;
/// use tafl_engine::search::{Limits, SearchConfig, Searcher};
/// for name in ["tablut", "hnefatafl-org-copenhagen-13"] {
///     let mut game: AnyGame = name.parse()?; // a name, or any OpenTafl rules string
///     let first = game.legal_moves()[0];
///     game.play(first)?;
///     game.play_text(&game.legal_moves()[0].to_string())?;
///     assert_eq!(game.moves().len(), 2);
///     let mut searcher = Searcher::new(SearchConfig { hash_mb: 1, ..SearchConfig::default() });
///     let result = game.search(&mut searcher, &Limits::depth(2));
///     assert!(game.legal_moves().contains(&result.best_move.unwrap()));
///     println!("{game}"); // the board
///     let read = tafl_engine::AnyGame::from_record(&game.to_record())?;
///     assert_eq!(read.moves(), game.moves());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyGame {
    inner: Inner,
}

/// `$body` with `$game` bound to the game of either grid (and `$variant` to its variant).
macro_rules! on_grid {
    ($self:expr, |$variant:pat_param, $game:ident| $body:expr) => {
        match &$self.inner {
            Inner::Narrow($variant, $game) => $body,
            Inner::Wide($variant, $game) => $body,
        }
    };
}

impl AnyGame {
    /// A new game of `variant` from its start position.
    pub fn new(variant: &AnyVariant) -> AnyGame {
        let inner = match variant {
            AnyVariant::Narrow(variant) => Inner::Narrow(variant.clone(), Game::new(variant)),
            AnyVariant::Wide(variant) => Inner::Wide(variant.clone(), Game::new(variant)),
        };
        AnyGame { inner }
    }

    /// A new game from a user's text: a game's name ([`AnyVariant::names`]: `tablut`,
    /// `copenhagen`, ...) or an OpenTafl rules string (`dim:13 ...`), on the grid its size
    /// needs.
    ///
    /// ```
    /// use tafl_engine::{AnyGame, AnyGameError};
    /// assert_eq!(AnyGame::from_name_or_rules("copenhagen")?.size(), 11);
    /// let error = AnyGame::from_name_or_rules("tablutt").unwrap_err();
    /// assert!(matches!(error, AnyGameError::UnknownName(_)));
    /// assert!(AnyGame::from_name_or_rules("dim:11 ber:m").is_err());
    /// # Ok::<(), AnyGameError>(())
    /// ```
    pub fn from_name_or_rules(text: &str) -> Result<AnyGame, AnyGameError> {
        let text = text.trim();
        if let Some(variant) = AnyVariant::by_name(text) {
            return Ok(AnyGame::new(&variant));
        }
        if !text.contains(':') && !text.contains(char::is_whitespace) {
            return Err(AnyGameError::UnknownName(notation::quoted(text, 40)));
        }
        Ok(AnyGame::new(&text.parse::<AnyVariant>()?))
    }

    /// A game of `variant`'s rules set up at a position given as a position string
    /// ([`position_string`](crate::position_string): `/3ttt3/.../ a`, the side to move last);
    /// the variant's start is not used.
    ///
    /// ```
    /// use tafl_engine::{AnyGame, AnyVariant, Side};
    /// let tablut = AnyVariant::by_name("tablut").unwrap();
    /// let game = AnyGame::from_position_string(&tablut, "/9/9/2K6/9/9/9/t8/9/9/ d")?;
    /// assert_eq!(game.side_to_move(), Side::Defenders);
    /// assert!(AnyGame::from_position_string(&tablut, "/9/9/ d").is_err());
    /// # Ok::<(), tafl_engine::AnyGameError>(())
    /// ```
    pub fn from_position_string(variant: &AnyVariant, text: &str) -> Result<AnyGame, AnyGameError> {
        let inner = match variant {
            AnyVariant::Narrow(variant) => {
                let position = position_string::parse(text, variant.rules())
                    .map_err(AnyGameError::NarrowPosition)?;
                Inner::Narrow(variant.clone(), Game::from_position(position))
            }
            AnyVariant::Wide(variant) => {
                let position = position_string::parse(text, variant.rules())
                    .map_err(AnyGameError::WidePosition)?;
                Inner::Wide(variant.clone(), Game::from_position(position))
            }
        };
        Ok(AnyGame { inner })
    }

    /// Reads an OpenTafl game record (`.otg`, [`GameRecord`]) of any board size: its rules,
    /// start and moves (its tags are not kept).
    pub fn from_record(text: &str) -> Result<AnyGame, AnyGameError> {
        match text.parse::<GameRecord<Narrow>>() {
            Ok(record) => Ok(AnyGame {
                inner: Inner::Narrow(record.variant, record.game),
            }),
            Err(narrow) => match text.parse::<GameRecord<Wide>>() {
                Ok(record) => Ok(AnyGame {
                    inner: Inner::Wide(record.variant, record.game),
                }),
                // The wide grid's error for a board it alone holds, the narrow one's otherwise.
                Err(wide) if record_needs_wide(&narrow) => Err(AnyGameError::WideRecord(wide)),
                Err(_) => Err(AnyGameError::NarrowRecord(narrow)),
            },
        }
    }

    /// The game as an OpenTafl game record (`.otg`): the rules, the moves, the `result` and,
    /// once it is over, the `termination` tag ([`GameRecord`]).
    pub fn to_record(&self) -> String {
        on_grid!(self, |variant, game| GameRecord::new(
            variant.clone(),
            game.clone()
        )
        .to_string())
    }

    /// The variant the game was set up from (its name and rules string; `Display` writes the
    /// rules string).
    pub fn variant(&self) -> AnyVariant {
        match &self.inner {
            Inner::Narrow(variant, _) => AnyVariant::Narrow(variant.clone()),
            Inner::Wide(variant, _) => AnyVariant::Wide(variant.clone()),
        }
    }

    /// The board's size (9 for 9x9).
    pub fn size(&self) -> u8 {
        on_grid!(self, |_, game| game.rules().size())
    }

    /// The game of the narrow grid, if it is one (for the generic API).
    pub fn as_narrow(&self) -> Option<&Game<Narrow>> {
        match &self.inner {
            Inner::Narrow(_, game) => Some(game),
            Inner::Wide(..) => None,
        }
    }

    /// The game of the wide grid, if it is one (for the generic API).
    pub fn as_wide(&self) -> Option<&Game<Wide>> {
        match &self.inner {
            Inner::Wide(_, game) => Some(game),
            Inner::Narrow(..) => None,
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        on_grid!(self, |_, game| game.side_to_move())
    }

    /// How the game ended, `None` while it goes on ([`Game::outcome`]).
    pub fn outcome(&self) -> Option<Outcome> {
        on_grid!(self, |_, game| game.outcome())
    }

    /// The moves that can be played now, none once the game is over ([`Game::legal_moves`]).
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match &self.inner {
            Inner::Narrow(_, game) => game
                .legal_moves()
                .iter()
                .map(|&m| AnyMove::Narrow(m))
                .collect(),
            Inner::Wide(_, game) => game
                .legal_moves()
                .iter()
                .map(|&m| AnyMove::Wide(m))
                .collect(),
        }
    }

    /// The moves played so far, the first first.
    pub fn moves(&self) -> Vec<AnyMove> {
        match &self.inner {
            Inner::Narrow(_, game) => game.moves().map(AnyMove::Narrow).collect(),
            Inner::Wide(_, game) => game.moves().map(AnyMove::Wide).collect(),
        }
    }

    /// Plays `m` and returns the squares it captured, or says why it cannot be played (the game
    /// is then unchanged). A move of the other grid is read by its notation.
    pub fn play(&mut self, m: AnyMove) -> Result<Vec<AnySquare>, AnyMoveError> {
        match (&mut self.inner, m) {
            (Inner::Narrow(_, game), AnyMove::Narrow(m)) => game
                .play(m)
                .map(|captured| captured.into_iter().map(AnySquare::Narrow).collect())
                .map_err(|error| MoveInputError::Illegal(error).into()),
            (Inner::Wide(_, game), AnyMove::Wide(m)) => game
                .play(m)
                .map(|captured| captured.into_iter().map(AnySquare::Wide).collect())
                .map_err(|error| MoveInputError::Illegal(error).into()),
            _ => self.play_text(&m.to_string()).map(|(_, captured)| captured),
        }
    }

    /// Reads a move in simple or full notation and checks it against the game
    /// ([`Game::parse_move`]); the game is unchanged.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, AnyMoveError> {
        Ok(match &self.inner {
            Inner::Narrow(_, game) => AnyMove::Narrow(game.parse_move(text)?),
            Inner::Wide(_, game) => AnyMove::Wide(game.parse_move(text)?),
        })
    }

    /// Reads a move ([`AnyGame::parse_move`]) and plays it: the move and what it captured.
    pub fn play_text(&mut self, text: &str) -> Result<(AnyMove, Vec<AnySquare>), AnyMoveError> {
        let m = self.parse_move(text)?;
        let captured = self.play(m)?;
        Ok((m, captured))
    }

    /// Takes back the last move (or a draw agreement) ([`Game::undo`]).
    pub fn undo(&mut self) -> Option<AnyMove> {
        match &mut self.inner {
            Inner::Narrow(_, game) => game.undo().map(AnyMove::Narrow),
            Inner::Wide(_, game) => game.undo().map(AnyMove::Wide),
        }
    }

    /// The number of move sequences of `depth` plies from the current position, with the
    /// game's history (repetitions, [`perft::perft_game`]).
    pub fn perft(&self, depth: u32) -> u64 {
        on_grid!(self, |_, game| perft::perft_game(game, depth))
    }

    /// Searches the current position within `limits` ([`Searcher::search`]; a finished game gives
    /// no move, [`Searcher::search_without_info`]).
    pub fn search(&self, searcher: &mut Searcher, limits: &Limits) -> AnySearchResult {
        match &self.inner {
            Inner::Narrow(_, game) => {
                let result = searcher.search_without_info(game, limits);
                AnySearchResult {
                    best_move: result.best_move.map(AnyMove::Narrow),
                    score: result.score,
                    pv: result.pv.into_iter().map(AnyMove::Narrow).collect(),
                    depth: result.depth,
                    nodes: result.nodes,
                    elapsed: result.elapsed,
                }
            }
            Inner::Wide(_, game) => {
                let result = searcher.search_without_info(game, limits);
                AnySearchResult {
                    best_move: result.best_move.map(AnyMove::Wide),
                    score: result.score,
                    pv: result.pv.into_iter().map(AnyMove::Wide).collect(),
                    depth: result.depth,
                    nodes: result.nodes,
                    elapsed: result.elapsed,
                }
            }
        }
    }

    /// The current position as an OpenTafl position record (`/3ttt3/.../`, rank 1 first).
    pub fn position_record(&self) -> String {
        on_grid!(self, |_, game| notation::position_record(game.position()))
    }
}

/// Whether a record refused by the narrow grid is one of a board above 11x11.
fn record_needs_wide(error: &GameRecordError<Narrow>) -> bool {
    use crate::rules::RulesError;
    matches!(
        error,
        GameRecordError::Rules {
            error: RulesStringError::Size(RulesError::UnsupportedSize(size)),
            ..
        } if *size > Narrow::MAX_SIZE
    )
}

impl FromStr for AnyGame {
    type Err = AnyGameError;

    /// [`AnyGame::from_name_or_rules`].
    fn from_str(text: &str) -> Result<AnyGame, AnyGameError> {
        AnyGame::from_name_or_rules(text)
    }
}

impl From<Game<Narrow>> for AnyGame {
    /// The game, under a variant of its rules without a name.
    fn from(game: Game<Narrow>) -> AnyGame {
        let variant = Variant::new("", *game.start_position());
        AnyGame {
            inner: Inner::Narrow(variant, game),
        }
    }
}

impl From<Game<Wide>> for AnyGame {
    /// The game, under a variant of its rules without a name.
    fn from(game: Game<Wide>) -> AnyGame {
        let variant = Variant::new("", *game.start_position());
        AnyGame {
            inner: Inner::Wide(variant, game),
        }
    }
}

impl fmt::Display for AnyGame {
    /// The current position's board diagram ([`notation::diagram`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        on_grid!(self, |_, game| game.position().fmt(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchConfig;

    /// The same random game through `AnyGame` and through the generic API agree move for move.
    #[test]
    fn any_game_forwards_to_the_game_of_its_grid() {
        for name in AnyVariant::names() {
            let mut any = AnyGame::from_name_or_rules(name).unwrap(); // a known name
            let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
            for _ in 0..40 {
                let moves = any.legal_moves();
                let Some(&m) = moves.get(seed as usize % moves.len().max(1)) else {
                    break;
                };
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let text = m.to_string();
                assert_eq!(any.parse_move(&text), Ok(m), "{name}: {text}");
                any.play(m).unwrap();
            }
            // The record reads back as the same game, on the same grid.
            let read = AnyGame::from_record(&any.to_record()).unwrap();
            assert_eq!(read.moves(), any.moves(), "{name}");
            assert_eq!(read.size(), any.size());
            assert_eq!(read.as_wide().is_some(), any.size() > 11, "{name}");
            // perft of depth 1 is the legal moves.
            assert_eq!(any.perft(1), any.legal_moves().len() as u64, "{name}");
            assert_eq!(
                any.to_string().lines().count(),
                usize::from(any.size()) + 1,
                "{name}"
            );
        }
    }

    #[test]
    fn bad_text_is_refused_with_the_grid_error() {
        let mut game = AnyGame::from_name_or_rules("hnefatafl-org-copenhagen-13").unwrap();
        let error = game.play_text("a1-a2").unwrap_err();
        assert!(
            matches!(error, AnyMoveError::Wide(MoveInputError::Illegal(_))),
            "{error}"
        );
        assert!(game.moves().is_empty());
        assert!(matches!(
            AnyGame::from_record(&format!("[rules:{}]\n\n1. a1-a2\n", game.variant())),
            Err(AnyGameError::WideRecord(_))
        ));
        assert!(matches!(
            AnyGame::from_record("1. e2-h2"),
            Err(AnyGameError::NarrowRecord(_))
        ));
        // A finished game searches to no move and says who won.
        let mut searcher = Searcher::new(SearchConfig {
            hash_mb: 1,
            ..SearchConfig::default()
        });
        let mut game = AnyGame::from_name_or_rules("tablut").unwrap();
        for text in ["e2-h2", "e3-h3", "h2-e2", "h3-e3"] {
            game.play_text(text).unwrap(); // R16: back to the start: a draw
        }
        assert!(game.outcome().is_some());
        assert_eq!(
            game.search(&mut searcher, &Limits::depth(3)).best_move,
            None
        );
    }
}
