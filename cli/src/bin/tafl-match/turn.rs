//! What the referee puts to a player on its turn, and what comes back: the words both kinds of
//! player (in process, and external OTEP engines) share, below both of them.

use std::time::Duration;

use tafl_engine::search::Limits;
use tafl_engine::{Game, Grid, Narrow, Side};

/// One turn as the referee puts it to a player, on the game's grid.
pub struct Turn<'a, B: Grid = Narrow> {
    /// The game so far; the side to move is the player's.
    pub game: &'a Game<B>,
    /// The side to play.
    pub side: Side,
    /// The OTEP `clock` command for this turn (both sides' time, as OpenTafl gives it).
    pub clock_line: String,
    /// The player's own time as search limits (for players in process).
    pub limits: Limits,
    /// How long the referee waits for the answer before the player loses on time.
    pub allowed: Duration,
}

/// A player's answer to a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move as text (checked by the referee), and the time it took.
    Move {
        /// The move as the player wrote it.
        text: String,
        /// From the request to the answer.
        spent: Duration,
    },
    /// No move within the time allowed.
    Silence,
    /// The engine's process ended, or could not be written to.
    Crashed(String),
    /// The engine gave up with a critical error (`error -1 ...`).
    Refused(String),
}
