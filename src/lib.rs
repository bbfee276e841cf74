//! The tafl board games on bitboards: exact rules, OpenTafl notation and game records, perft, a
//! strong search, and the OpenTafl Engine Protocol.
//!
//! The games: Tablut (9x9) and Tawlbwrdd (11x11) as this crate's own rules define them,
//! Copenhagen and Fetlar Hnefatafl, Brandubh, Sea Battle, Ashton Tablut (the Tablut Challenge),
//! hnefatafl.org's games, and any rules string of [OpenTafl](https://github.com/jslater89/OpenTafl)
//! on boards from 5x5 to 19x19 ([`AnyVariant::names`] lists the named ones). The king and his
//! defenders start in the middle and the attackers round the edges; the king wins by escaping
//! (to an edge or a corner), the attackers by capturing him.
//!
//! # Start here
//!
//! 1. **A game.** [`AnyGame`] plays any game from its name or rules string, on whichever
//!    board it needs: legal moves, moves read from text and checked, the outcome, perft, a
//!    search, game records, a diagram.
//! 2. **A search.** A [`Searcher`](search::Searcher) (one per thread; [`SearchConfig`](search::SearchConfig)
//!    sets its threads and table) searches within [`Limits`](search::Limits): a depth, a node
//!    count, a time or a clock.
//! 3. **Records and notation.** Moves and positions as text in [`notation`]; whole games as
//!    OpenTafl `.otg` records in [`record`].
//!
//! ```
//! use tafl_engine::prelude::*;
//!
//! let mut game = AnyGame::from_name_or_rules("copenhagen")?; // or "dim:13 name:... start:..."
//! assert_eq!(game.legal_moves().len(), 116);
//! game.play_text("h1-h3")?;
//! assert!(game.play_text("a4-a3").is_err()); // the defenders are to move: an error says why
//! println!("{game}"); // the board as a diagram
//!
//! assert_eq!(AnyGame::from_name_or_rules("tablut")?.perft(3), 353_200);
//!
//! let mut searcher = Searcher::new(SearchConfig { hash_mb: 16, ..SearchConfig::default() });
//! let result = game.search(&mut searcher, &Limits::nodes(20_000));
//! println!("best {} score {}", result.best_move.unwrap(), result.score); // a move while it goes on
//!
//! let saved = game.to_record(); // an OpenTafl .otg record
//! assert_eq!(AnyGame::from_record(&saved)?.moves(), game.moves());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The typed API, for speed
//!
//! [`AnyGame`] chooses the grid at run time. The types under it are generic over the grid `B`
//! ([`Narrow`], a `u128` bitboard for boards up to 11x11 and the default everywhere, or
//! [`Wide`], six words for up to 19x19): [`Variant`] → [`Game`] → [`Position`], [`Move`],
//! [`perft`], [`Searcher::search`](search::Searcher::search) with a callback for each depth.
//!
//! ```
//! use tafl_engine::search::{Limits, SearchConfig, Searcher};
//! use tafl_engine::{Game, Variant, perft};
//!
//! let mut game = Game::new(&Variant::tablut());
//! let m = game.parse_move("e2-h2")?; // read and checked against the game
//! game.play(m)?;
//! assert_eq!(perft::perft(game.position(), 2), 4_591);
//! let mut searcher = Searcher::new(SearchConfig { hash_mb: 4, ..SearchConfig::default() });
//! let result = searcher.search(&game, &Limits::depth(3), |info| println!("{:?}", info.pv));
//! assert!(game.legal_moves().contains(&result.best_move.unwrap()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Modules
//!
//! - [`notation`]: squares, moves, position records and diagrams as text;
//!   [`position_string`]: a position and the side to move on one line.
//! - [`record`]: OpenTafl game records (`.otg`).
//! - [`perft`]: counting move sequences, in parallel or stoppable.
//! - [`search`]: the searcher, its limits and scores, the learned evaluation ([`search::nnue`]).
//! - [`actions`] and [`symmetry`]: moves as integers and the board's eight symmetries, for
//!   learning code.
//! - `protocol` (the default feature `protocol`): the OpenTafl Engine Protocol's state machine,
//!   the engine in process.
//!
//! The rules, clause by clause (R1-R18 for this crate's own Tablut and Tawlbwrdd), the variants'
//! rules strings and the protocol are documented in the repository's `docs/` folder; the
//! programs built on this crate (an engine binary for OpenTafl, a match runner, a web page, a
//! Python package) live beside it in the same repository.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod actions;
mod any_game;
mod bitboard;
mod board;
mod game;
mod move_input;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
mod piece;
mod play;
mod position;
pub mod position_string;
#[cfg(feature = "protocol")]
pub mod protocol;
pub mod record;
mod rules;
mod rules_string;
pub mod search;
mod square;
pub mod symmetry;
#[cfg(test)]
mod test_support;
mod variant;
mod views;
mod zobrist;

// Before the re-exports below: tests/repository/layers.rs maps each name to the module that the last
// `pub use` line naming it gives.
/// The names most programs need, in one import: `use tafl_engine::prelude::*;`.
pub mod prelude {
    pub use crate::any_game::{AnyGame, AnyMove};
    pub use crate::board::{Narrow, Wide};
    pub use crate::game::Game;
    pub use crate::moves::Move;
    pub use crate::piece::Side;
    pub use crate::play::Grid;
    pub use crate::position::{Outcome, Position};
    pub use crate::search::{Limits, Score, SearchConfig, Searcher};
    pub use crate::variant::{AnyVariant, Variant};
}

pub use any_game::{AnyGame, AnyGameError, AnyMove, AnyMoveError, AnySearchResult, AnySquare};
pub use bitboard::{Bitboard, SquareIter};
pub use board::{Narrow, Wide};
// The grid's layers below `Grid` (sealed): public because `Grid`, `Square<G>` and `Bitboard<G>`
// name them, hidden because no user implements or calls them (docs/wide-boards.md).
#[doc(hidden)]
pub use board::{BitSet, GridBase};
pub use game::{Game, PlayError};
pub use move_input::MoveInputError;
#[doc(hidden)]
pub use moves::MoveGrid;
pub use moves::{
    MAX_LEGAL_MOVES, MOVE_LIST_CAPACITY, Move, MoveList, MoveListFull, MoveListIntoIter,
};
pub use piece::{Piece, Side};
#[allow(deprecated)]
pub use play::{Board, Grid};
pub use position::{DrawReason, IllegalMoveError, Outcome, Position, SetupError, WinReason};
#[doc(hidden)]
pub use rules::RuleGrid;
pub use rules::{Escape, KingStrength, RepetitionRule, RuleFlags, Rules, RulesError, Shieldwall};
pub use square::{MAX_BOARD_SIZE, Square, SquareParseError};
pub use variant::{AnyVariant, OPENTAFL_GAMES, RulesStringError, Variant};

/// The README's Rust example, compiled and run as a doctest (the README is the repository's
/// front page; this page is the crate's).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
