#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod actions;
mod bitboard;
mod board;
mod game;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
mod piece;
mod play;
mod position;
pub mod position_string;
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

pub use bitboard::{Bitboard, SquareIter};
pub use board::{BitSet, Grid, Narrow, Wide};
pub use game::{Game, PlayError};
pub use moves::{
    MAX_LEGAL_MOVES, MOVE_LIST_CAPACITY, Move, MoveGrid, MoveList, MoveListFull, MoveListIntoIter,
};
pub use piece::{Piece, Side};
pub use play::Board;
pub use position::{DrawReason, IllegalMoveError, Outcome, Position, SetupError, WinReason};
pub use rules::{
    Escape, KingStrength, RepetitionRule, RuleFlags, RuleGrid, Rules, RulesError, Shieldwall,
};
pub use square::{MAX_BOARD_SIZE, Square, SquareParseError};
pub use variant::{AnyVariant, OPENTAFL_GAMES, RulesStringError, Variant};
