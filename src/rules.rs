//! The rules of a game as data: board size and rule flags (see RULES.md).
//!
//! Both games of RULES.md share every rule; only the size and the start position differ. The flags
//! below are the rule choices that the engine really implements both ways, so that a variant is a
//! new value, never a new code path.

use bitflags::bitflags;
use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::square::{MAX_BOARD_SIZE, Square};

bitflags! {
    /// Rule choices that differ between tafl variants and that this crate implements both ways.
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub struct RuleFlags: u8 {
        /// The king captures as the moving piece, the "hammer" (R9).
        const KING_HAMMER = 1;
        /// The king is the far piece of a capture, the "anvil" (R9).
        const KING_ANVIL = 1 << 1;
        /// The empty castle is hostile to attacking soldiers (R10).
        const EMPTY_CASTLE_HOSTILE_TO_ATTACKERS = 1 << 2;
        /// The empty castle is hostile to defending soldiers (R10).
        const EMPTY_CASTLE_HOSTILE_TO_DEFENDERS = 1 << 3;
        /// The rules of RULES.md: armed king, empty castle hostile to both sides.
        const STANDARD = Self::KING_HAMMER.bits()
            | Self::KING_ANVIL.bits()
            | Self::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS.bits()
            | Self::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS.bits();
    }
}

/// When a repeated position (the same placement with the same side to move) ends the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RepetitionRule {
    /// Repetitions never end the game (OpenTafl `tfr:n`).
    Ignored,
    /// The second occurrence draws: R16.
    SecondOccurrenceDraws,
    /// The third occurrence draws (OpenTafl `tfr:d`).
    ThirdOccurrenceDraws,
}

impl RepetitionRule {
    /// How many occurrences of one position draw the game, if any do.
    pub const fn draw_count(self) -> Option<usize> {
        match self {
            RepetitionRule::Ignored => None,
            RepetitionRule::SecondOccurrenceDraws => Some(2),
            RepetitionRule::ThirdOccurrenceDraws => Some(3),
        }
    }
}

/// The rules a position is played under: board size, rule flags and the repetition rule.
///
/// The castle is always the centre square (R1); king capture follows R13 and escape R14.
///
/// ```
/// use tafl_engine::{Rules, RuleFlags};
/// assert_eq!(Rules::TABLUT.size(), 9);
/// assert_eq!(Rules::TAWLBWRDD.castle().to_string(), "f6");
/// assert!(Rules::TABLUT.flags().contains(RuleFlags::KING_HAMMER));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    size: u8,
    flags: RuleFlags,
    repetition: RepetitionRule,
}

/// Why a set of rules cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The board size is not an odd number from 5 to 11.
    #[error(
        "board size {0} is not supported: it must be odd (the castle is the centre square) and from 5 to 11"
    )]
    UnsupportedSize(u8),
}

impl Rules {
    /// Tablut as RULES.md gives it (9x9).
    pub const TABLUT: Rules = Rules {
        size: 9,
        flags: RuleFlags::STANDARD,
        repetition: RepetitionRule::SecondOccurrenceDraws,
    };

    /// Tawlbwrdd as RULES.md gives it (11x11).
    pub const TAWLBWRDD: Rules = Rules {
        size: 11,
        flags: RuleFlags::STANDARD,
        repetition: RepetitionRule::SecondOccurrenceDraws,
    };

    /// Rules for an odd board size from 5 to 11.
    pub const fn new(
        size: u8,
        flags: RuleFlags,
        repetition: RepetitionRule,
    ) -> Result<Rules, RulesError> {
        if size < 5 || size > MAX_BOARD_SIZE || size % 2 == 0 {
            return Err(RulesError::UnsupportedSize(size));
        }
        Ok(Rules {
            size,
            flags,
            repetition,
        })
    }

    /// The board is `size` x `size`.
    pub const fn size(self) -> u8 {
        self.size
    }

    /// The rule flags.
    pub const fn flags(self) -> RuleFlags {
        self.flags
    }

    /// The repetition rule (R16).
    pub const fn repetition(self) -> RepetitionRule {
        self.repetition
    }

    /// The castle: the centre square (R1).
    pub fn castle(self) -> Square {
        self.geometry().castle_square
    }

    /// All squares of the board.
    pub fn board(self) -> Bitboard {
        self.geometry().board
    }

    /// The edge squares, where the king escapes (R14).
    pub fn edge(self) -> Bitboard {
        self.geometry().edge
    }

    /// The masks of this board size, from a table built at compile time (they are used on every
    /// move, so they are looked up, not recomputed).
    #[inline(always)]
    pub(crate) fn geometry(self) -> &'static Geometry {
        // `size` is at most 11 (checked by `Rules::new`), so the index is in range.
        &GEOMETRIES[self.size as usize]
    }

    /// Whether `square` is on this board.
    pub const fn contains(self, square: Square) -> bool {
        square.is_on_board(self.size)
    }
}

/// Precomputed masks of one board size.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Every square of the board.
    pub(crate) board: Bitboard,
    /// The edge squares (R14).
    pub(crate) edge: Bitboard,
    /// The castle (R1) as a set of one square.
    pub(crate) castle: Bitboard,
    /// The castle square.
    pub(crate) castle_square: Square,
    /// The castle's four neighbours (R13's middle regime).
    pub(crate) castle_neighbours: Bitboard,
    /// Squares a move may end on: the board less the castle (R6).
    pub(crate) destinations: Bitboard,
    /// The castle's rank and file: the lines where a piece may pass over the empty castle (R7).
    pub(crate) castle_lines: Bitboard,
}

const fn geometry(size: u8) -> Geometry {
    let castle_square = match Square::new(size / 2, size / 2) {
        Some(square) => square,
        // Not reached: every size in the table is at most 11, so the centre is on the grid.
        None => Square::A1,
    };
    let castle = Bitboard::from_square(castle_square);
    let board = Bitboard::board(size);
    Geometry {
        board,
        edge: Bitboard::edge(size),
        castle,
        castle_square,
        castle_neighbours: Bitboard(castle.neighbours().0 & board.0),
        destinations: Bitboard(board.0 & !castle.0),
        castle_lines: Bitboard(castle_lines(castle_square, size)),
    }
}

/// The squares of the rank and file of `castle` on a board of `size`.
const fn castle_lines(castle: Square, size: u8) -> u128 {
    let mut lines = 0u128;
    let mut place = 0;
    while place < size {
        if let Some(on_rank) = Square::new(place, castle.y()) {
            lines |= 1 << on_rank.index();
        }
        if let Some(on_file) = Square::new(castle.x(), place) {
            lines |= 1 << on_file.index();
        }
        place += 1;
    }
    lines
}

/// Masks for every size up to 11, indexed by size (sizes below 5 are never used).
static GEOMETRIES: [Geometry; 12] = [
    geometry(0),
    geometry(1),
    geometry(2),
    geometry(3),
    geometry(4),
    geometry(5),
    geometry(6),
    geometry(7),
    geometry(8),
    geometry(9),
    geometry(10),
    geometry(11),
];
