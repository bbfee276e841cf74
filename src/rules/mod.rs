//! The rules of a game as data (see docs/rules.md).
//!
//! Two families: the **classic** rules of this project's own Tablut and Tawlbwrdd (R1-R18), a
//! board size and a few flags, played by the fastest code; and **custom** rules, every choice an
//! OpenTafl rules string can make that this engine plays (corners, forts, king strengths,
//! shieldwalls, ...: [`custom`]), played by the general code. Which code plays a game is decided
//! once, by its rules, never per move.

use bitflags::bitflags;
use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::square::{MAX_BOARD_SIZE, Square};

pub(crate) mod ashton;
pub(crate) mod custom;
pub(crate) mod hnefatafl_org;

pub use custom::{Escape, KingStrength, Shieldwall};
use custom::{RuleSet, RuleSpec};

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
        /// The rules of docs/rules.md: armed king, empty castle hostile to both sides.
        const STANDARD = Self::KING_HAMMER.bits()
            | Self::KING_ANVIL.bits()
            | Self::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS.bits()
            | Self::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS.bits();
    }
}

/// When a repeated position (the same placement with the same side to move) ends the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RepetitionRule {
    /// Repetitions never end the game.
    Ignored,
    /// The second occurrence draws: R16.
    SecondOccurrenceDraws,
    /// The third occurrence draws (OpenTafl `tfr:d`, its default).
    ThirdOccurrenceDraws,
    /// The third occurrence loses for the side whose move made it (OpenTafl `tfr:w`: the side
    /// then to move wins; Copenhagen).
    ThirdOccurrenceLosesForMover,
    /// The third occurrence wins for the side whose move made it (OpenTafl `tfr:l`).
    ThirdOccurrenceWinsForMover,
    /// The second occurrence draws, counting only positions reached by a move: the position the
    /// game started from is not counted (Ashton Tablut, C14: the Tablut Challenge server
    /// remembers the positions after each move, not the first one).
    SecondOccurrenceDrawsStartUncounted,
    /// The third occurrence wins for the attackers, whichever side's move made it: the published
    /// Copenhagen rules' "perpetual repetition is a loss for the defenders" (docs/rules.md,
    /// "Copenhagen as the community plays it"; this engine's own `tfr:a`).
    ThirdOccurrenceAttackersWin,
    /// Repetitions never end the game, but the defenders may not make a move that puts the
    /// pieces as they stood after an earlier move or at the start, whoever was then to move
    /// (hnefatafl.org's server, H12: the placement is compared before the move's captures). A
    /// side without a legal move loses.
    DefendersMayNotRecreate,
    /// [`RepetitionRule::DefendersMayNotRecreate`], the start position not counted
    /// (hnefatafl.org's server on its 7x7 and 13x13 boards, H12).
    DefendersMayNotRecreateStartUncounted,
}

impl RepetitionRule {
    /// How many occurrences of one position end the game, if any do.
    pub const fn end_count(self) -> Option<usize> {
        match self {
            RepetitionRule::Ignored
            | RepetitionRule::DefendersMayNotRecreate
            | RepetitionRule::DefendersMayNotRecreateStartUncounted => None,
            RepetitionRule::SecondOccurrenceDraws
            | RepetitionRule::SecondOccurrenceDrawsStartUncounted => Some(2),
            RepetitionRule::ThirdOccurrenceDraws
            | RepetitionRule::ThirdOccurrenceLosesForMover
            | RepetitionRule::ThirdOccurrenceWinsForMover
            | RepetitionRule::ThirdOccurrenceAttackersWin => Some(3),
        }
    }

    /// How many occurrences of one position draw the game, if any do (`None` also when a
    /// repetition wins or loses: see [`RepetitionRule::end_count`]).
    pub const fn draw_count(self) -> Option<usize> {
        match self {
            RepetitionRule::SecondOccurrenceDraws
            | RepetitionRule::SecondOccurrenceDrawsStartUncounted => Some(2),
            RepetitionRule::ThirdOccurrenceDraws => Some(3),
            _ => None,
        }
    }

    /// Whether the position a game starts from counts as an occurrence (or, for the rules that
    /// forbid the defenders to recreate a placement, as an earlier placement).
    pub const fn counts_start(self) -> bool {
        !matches!(
            self,
            RepetitionRule::SecondOccurrenceDrawsStartUncounted
                | RepetitionRule::DefendersMayNotRecreateStartUncounted
        )
    }

    /// Whether the defenders may not recreate an earlier placement of the pieces (H12): a
    /// history-dependent legality rule, kept by [`Game`](crate::Game) and the search.
    pub const fn forbids_defenders_recreating(self) -> bool {
        matches!(
            self,
            RepetitionRule::DefendersMayNotRecreate
                | RepetitionRule::DefendersMayNotRecreateStartUncounted
        )
    }
}

/// The rules a position is played under: board size, rule flags and the repetition rule for the
/// classic rules (the castle is the centre square, R1; king capture follows R13, escape R14); or
/// a set of custom rules read from an OpenTafl rules string (see
/// [`Variant`](crate::Variant)'s `FromStr`). `Rules` is `Copy` and a few bytes: custom rules are
/// compiled once and kept for the whole run, and equal rules compare equal.
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
    /// 0 for the classic rules, else the index of the custom rules in their registry.
    custom: u16,
}

/// Why a set of rules cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The board size is not an odd number from 5 to 11.
    #[error(
        "board size {0} is not supported: it must be odd (the castle is the centre square) and from 5 to 11"
    )]
    UnsupportedSize(u8),
    /// The run already holds as many different sets of custom rules as it can.
    #[error("too many different custom rule sets in one run (at most {0})")]
    TooManyRuleSets(usize),
}

impl Rules {
    /// Tablut as docs/rules.md gives it (9x9).
    pub const TABLUT: Rules = Rules {
        size: 9,
        flags: RuleFlags::STANDARD,
        repetition: RepetitionRule::SecondOccurrenceDraws,
        custom: 0,
    };

    /// Tawlbwrdd as docs/rules.md gives it (11x11).
    pub const TAWLBWRDD: Rules = Rules {
        size: 11,
        flags: RuleFlags::STANDARD,
        repetition: RepetitionRule::SecondOccurrenceDraws,
        custom: 0,
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
            custom: 0,
        })
    }

    /// Custom rules: registers `spec` (once per run for equal specs) and names it.
    pub(crate) fn from_spec(spec: RuleSpec) -> Result<Rules, RulesError> {
        let size = spec.size;
        if !(5..=MAX_BOARD_SIZE).contains(&size) || size % 2 == 0 {
            return Err(RulesError::UnsupportedSize(size));
        }
        let repetition = spec.repetition;
        let mut flags = RuleFlags::empty();
        flags.set(RuleFlags::KING_HAMMER, spec.king_hammer);
        flags.set(RuleFlags::KING_ANVIL, spec.king_anvil);
        let custom = custom::register(spec)
            .ok_or(RulesError::TooManyRuleSets(custom::REGISTRY_CAPACITY - 1))?;
        Ok(Rules {
            size,
            flags,
            repetition,
            custom,
        })
    }

    /// Ashton Tablut's rules (C12-C14): the Tablut Challenge's.
    pub(crate) fn ashton() -> Rules {
        // The Ashton spec is a valid 9x9 spec, and one spec takes one registry slot for the
        // whole run (the first call registers it), so only a registry filled by thousands of other
        // rule sets can refuse it; the classic Tablut rules then stand in, never silently: the
        // variant's name and rules string would show it.
        Rules::from_spec(ashton::spec()).unwrap_or(Rules::TABLUT)
    }

    /// hnefatafl.org's rules (H1-H12) for a board of `size`, 7 or 11 (`None` otherwise).
    pub(crate) fn hnefatafl_org(size: u8) -> Option<Rules> {
        // One spec per size takes one registry slot for the whole run: only a registry filled
        // by thousands of other rule sets refuses it.
        Rules::from_spec(hnefatafl_org::spec(size)?).ok()
    }

    /// The game is drawn once this many moves have been played since its start, unless the last
    /// of them won it on the board (hnefatafl.org's rules, H10); `None` for no limit.
    pub fn move_limit(self) -> Option<usize> {
        self.custom()
            .map(|set| usize::from(set.spec.move_limit))
            .filter(|&limit| limit > 0)
    }

    /// The compiled custom rules, or `None` for the classic rules.
    #[inline(always)]
    pub(crate) fn custom(self) -> Option<&'static RuleSet> {
        if self.custom == 0 {
            None
        } else {
            custom::lookup(self.custom)
        }
    }

    /// Whether these are the classic rules of R1-R18 (with their flags), rather than custom rules.
    pub const fn is_classic(self) -> bool {
        self.custom == 0
    }

    /// Where the king escapes to: any edge square (R14), or a corner.
    pub fn escape(self) -> Escape {
        self.custom().map_or(Escape::Edge, |set| set.spec.escape)
    }

    /// The throne: the castle of the classic rules (R1), the `cen` squares of custom rules (none
    /// in some games).
    pub fn throne(self) -> Bitboard {
        match self.custom() {
            None => self.geometry().castle,
            Some(set) => set.throne(),
        }
    }

    /// The corner squares that have rules of their own (none in the classic rules).
    pub fn corners(self) -> Bitboard {
        self.custom().map_or(Bitboard::EMPTY, RuleSet::corners)
    }

    /// Every square with rules of its own: throne, corners, forts, camps (Ashton Tablut).
    pub fn special_squares(self) -> Bitboard {
        match self.custom() {
            None => self.geometry().castle,
            Some(set) => set.special,
        }
    }

    /// The board is `size` x `size`.
    pub const fn size(self) -> u8 {
        self.size
    }

    /// The rule flags (for custom rules, the king's arms; the rest of them is in the custom
    /// rules).
    pub const fn flags(self) -> RuleFlags {
        self.flags
    }

    /// The repetition rule (R16).
    pub const fn repetition(self) -> RepetitionRule {
        self.repetition
    }

    /// The castle: the centre square (R1). Custom rules may have no throne, or another: see
    /// [`Rules::throne`].
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

/// The start placement of one of this project's games, as the `(attackers, defenders, king)`
/// sets, from its diagram (top rank first, `a` attacker, `d` defender, `K` king): the diagrams
/// of docs/rules.md, R1.
pub(crate) struct StartPlacement {
    pub(crate) attackers: Bitboard,
    pub(crate) defenders: Bitboard,
    pub(crate) king: Bitboard,
}

impl StartPlacement {
    /// The placement of a square diagram, top rank first (computed at compile time).
    const fn from_rows(rows: &[&str]) -> StartPlacement {
        let size = rows.len();
        let (mut attackers, mut defenders, mut king) = (0u128, 0u128, 0u128);
        let mut row = 0;
        while row < size {
            let bytes = rows[row].as_bytes();
            let y = size - 1 - row;
            let mut x = 0;
            while x < bytes.len() {
                let bit = 1u128 << (y * MAX_BOARD_SIZE as usize + x);
                match bytes[x] {
                    b'a' => attackers |= bit,
                    b'd' => defenders |= bit,
                    b'K' => king |= bit,
                    _ => {}
                }
                x += 1;
            }
            row += 1;
        }
        StartPlacement {
            attackers: Bitboard(attackers),
            defenders: Bitboard(defenders),
            king: Bitboard(king),
        }
    }
}

/// Tablut's start (R1).
pub(crate) const TABLUT_START: StartPlacement = StartPlacement::from_rows(&[
    "...aaa...",
    "....a....",
    "....d....",
    "a...d...a",
    "aaddKddaa",
    "a...d...a",
    "....d....",
    "....a....",
    "...aaa...",
]);

/// Tawlbwrdd's start (R1).
pub(crate) const TAWLBWRDD_START: StartPlacement = StartPlacement::from_rows(&[
    "....aaa....",
    "....a.a....",
    ".....a.....",
    ".....d.....",
    "aa..ddd..aa",
    "a.addKdda.a",
    "aa..ddd..aa",
    ".....d.....",
    ".....a.....",
    "....a.a....",
    "....aaa....",
]);

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
