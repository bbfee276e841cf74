//! The rules of a game as data (see docs/rules.md).
//!
//! Two families: the **classic** rules of this project's own Tablut and Tawlbwrdd (R1-R18), a
//! board size and a few flags, played by the fastest code; and **custom** rules, every choice an
//! OpenTafl rules string can make that this engine plays (corners, forts, king strengths,
//! shieldwalls, ...: [`custom`]), played by the general code. Which code plays a game is decided
//! once, by its rules, never per move.

use std::marker::PhantomData;

use bitflags::bitflags;
use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::board::{Grid, Narrow, Wide, grid};
use crate::moves::MoveGrid;
use crate::square::{MAX_BOARD_SIZE, Square};

pub(crate) mod ashton;
pub(crate) mod custom;
pub(crate) mod hnefatafl_org;

pub use custom::{Escape, KingStrength, Shieldwall};
use custom::{RuleSet, RuleSpec, Slots};

/// A grid's rule tables: the masks of each board size it holds (built at compile time) and the
/// custom rule sets compiled for it. Implemented here for both grids; a supertrait of
/// [`Board`](crate::Board).
pub trait RuleGrid: MoveGrid {
    /// The masks of a board of `size` (at most `MAX_SIZE`), built at compile time.
    #[doc(hidden)]
    fn geometry(size: u8) -> &'static Geometry<Self>;
    /// The custom rule sets compiled for this grid, by registry index.
    #[doc(hidden)]
    fn rule_sets() -> &'static Slots<Self>;
}

impl RuleGrid for Narrow {
    #[inline(always)]
    fn geometry(size: u8) -> &'static Geometry<Narrow> {
        // `size` is at most 11 (checked by `Rules`), so the index is in range.
        &NARROW_GEOMETRIES[size as usize]
    }
    #[inline(always)]
    fn rule_sets() -> &'static Slots<Narrow> {
        &custom::NARROW_SLOTS
    }
}

impl RuleGrid for Wide {
    #[inline(always)]
    fn geometry(size: u8) -> &'static Geometry<Wide> {
        // `size` is at most 19 (checked by `Rules`), so the index is in range.
        &WIDE_GEOMETRIES[size as usize]
    }
    #[inline(always)]
    fn rule_sets() -> &'static Slots<Wide> {
        &custom::WIDE_SLOTS
    }
}

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
/// The board type `B` is the grid the rules' board is laid out on: [`Narrow`] (the default, boards
/// up to 11x11) or [`Wide`] (up to 19x19).
///
/// ```
/// use tafl_engine::{Rules, RuleFlags};
/// assert_eq!(Rules::TABLUT.size(), 9);
/// assert_eq!(Rules::TAWLBWRDD.castle().to_string(), "f6");
/// assert!(Rules::TABLUT.flags().contains(RuleFlags::KING_HAMMER));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules<B: Grid = Narrow> {
    size: u8,
    flags: RuleFlags,
    repetition: RepetitionRule,
    /// 0 for the classic rules, else the index of the custom rules in their registry.
    custom: u16,
    board: PhantomData<B>,
}

/// Why a set of rules cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The board size is not an odd number from 5 to 11 (to 19 on the wide grid, read as a
    /// `Variant<Wide>`).
    #[error(
        "board size {0} is not supported: it must be odd (the castle is the centre square) and from 5 to 11 (to 19 read as a Variant<Wide>)"
    )]
    UnsupportedSize(u8),
    /// The run already holds as many different sets of custom rules as it can.
    #[error("too many different custom rule sets in one run (at most {0})")]
    TooManyRuleSets(usize),
}

impl Rules<Narrow> {
    /// Tablut as docs/rules.md gives it (9x9).
    pub const TABLUT: Rules = Rules::classic_unchecked(9);

    /// Tawlbwrdd as docs/rules.md gives it (11x11).
    pub const TAWLBWRDD: Rules = Rules::classic_unchecked(11);

    /// The rules of docs/rules.md on a board of `size` (checked by the callers).
    const fn classic_unchecked(size: u8) -> Rules {
        Rules {
            size,
            flags: RuleFlags::STANDARD,
            repetition: RepetitionRule::SecondOccurrenceDraws,
            custom: 0,
            board: PhantomData,
        }
    }

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
            board: PhantomData,
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
}

impl<B: RuleGrid> Rules<B> {
    /// Whether a board of `size` is played: odd (the castle is the centre square), from 5 to the
    /// grid's width.
    const fn size_is_supported(size: u8) -> bool {
        size >= 5 && size <= B::MAX_SIZE && size % 2 == 1
    }

    /// The same rules on the other grid: the same size, flags and custom rules (compiled for that
    /// grid), for boards that fit it. Tests play the same games on both grids with it, and the
    /// rules-string reader reads the engine's own rule sets for either grid with it.
    pub(crate) fn on<C: RuleGrid>(self) -> Result<Rules<C>, RulesError> {
        if !Rules::<C>::size_is_supported(self.size) {
            return Err(RulesError::UnsupportedSize(self.size));
        }
        if self.custom != 0 && custom::lookup::<C>(self.custom).is_none() {
            custom::compile_for::<C>(self.custom)
                .ok_or(RulesError::TooManyRuleSets(custom::REGISTRY_CAPACITY - 1))?;
        }
        Ok(Rules {
            size: self.size,
            flags: self.flags,
            repetition: self.repetition,
            custom: self.custom,
            board: PhantomData,
        })
    }

    /// Custom rules: registers `spec` (once per run for equal specs) and names it.
    pub(crate) fn from_spec(spec: RuleSpec) -> Result<Rules<B>, RulesError> {
        let size = spec.size;
        if !Self::size_is_supported(size) {
            return Err(RulesError::UnsupportedSize(size));
        }
        let repetition = spec.repetition;
        let mut flags = RuleFlags::empty();
        flags.set(RuleFlags::KING_HAMMER, spec.king_hammer);
        flags.set(RuleFlags::KING_ANVIL, spec.king_anvil);
        let custom = custom::register::<B>(spec)
            .ok_or(RulesError::TooManyRuleSets(custom::REGISTRY_CAPACITY - 1))?;
        Ok(Rules {
            size,
            flags,
            repetition,
            custom,
            board: PhantomData,
        })
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
    pub(crate) fn custom(self) -> Option<&'static RuleSet<B>> {
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
    pub fn throne(self) -> Bitboard<B> {
        match self.custom() {
            None => self.geometry().castle,
            Some(set) => set.throne(),
        }
    }

    /// The corner squares that have rules of their own (none in the classic rules).
    pub fn corners(self) -> Bitboard<B> {
        self.custom().map_or(Bitboard::EMPTY, RuleSet::corners)
    }

    /// Every square with rules of its own: throne, corners, forts, camps (Ashton Tablut).
    pub fn special_squares(self) -> Bitboard<B> {
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
    pub fn castle(self) -> Square<B> {
        self.geometry().castle_square
    }

    /// All squares of the board.
    pub fn board(self) -> Bitboard<B> {
        self.geometry().board
    }

    /// The edge squares, where the king escapes (R14).
    pub fn edge(self) -> Bitboard<B> {
        self.geometry().edge
    }

    /// The masks of this board size, from a table built at compile time (they are used on every
    /// move, so they are looked up, not recomputed).
    #[inline(always)]
    pub(crate) fn geometry(self) -> &'static Geometry<B> {
        B::geometry(self.size)
    }

    /// Whether `square` is on this board.
    pub fn contains(self, square: Square<B>) -> bool {
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
pub struct Geometry<B: Grid = Narrow> {
    /// Every square of the board.
    pub(crate) board: Bitboard<B>,
    /// The edge squares (R14).
    pub(crate) edge: Bitboard<B>,
    /// The castle (R1) as a set of one square.
    pub(crate) castle: Bitboard<B>,
    /// The castle square.
    pub(crate) castle_square: Square<B>,
    /// The castle's four neighbours (R13's middle regime).
    pub(crate) castle_neighbours: Bitboard<B>,
    /// Squares a move may end on: the board less the castle (R6).
    pub(crate) destinations: Bitboard<B>,
    /// The castle's rank and file: the lines where a piece may pass over the empty castle (R7).
    pub(crate) castle_lines: Bitboard<B>,
}

/// The masks of a `size` board on a grid of `stride`, as words (see [`grid`]), and the castle's
/// index.
struct GeometryWords {
    board: [u64; 6],
    edge: [u64; 6],
    castle: [u64; 6],
    castle_index: usize,
    castle_neighbours: [u64; 6],
    destinations: [u64; 6],
    castle_lines: [u64; 6],
}

const fn geometry_words(stride: u8, size: u8) -> GeometryWords {
    let middle = size / 2;
    let castle_index = middle as usize * stride as usize + middle as usize;
    let castle = grid::square(stride, middle, middle);
    let board = grid::board(stride, size);
    GeometryWords {
        board,
        edge: grid::edge(stride, size),
        castle,
        castle_index,
        castle_neighbours: grid::and(grid::neighbours(stride, castle_index), board),
        destinations: grid::minus(board, castle),
        castle_lines: grid::lines(stride, size, middle, middle),
    }
}

/// The narrow grid's masks of a `size` board.
const fn narrow_geometry(size: u8) -> Geometry<Narrow> {
    let words = geometry_words(MAX_BOARD_SIZE, size);
    let castle_square = match Square::from_index(words.castle_index as u8) {
        Some(square) => square,
        // Not reached: every size in the table is at most 11, so the centre is on the grid.
        None => Square::A1,
    };
    Geometry {
        board: Bitboard(grid::to_u128(words.board)),
        edge: Bitboard(grid::to_u128(words.edge)),
        castle: Bitboard(grid::to_u128(words.castle)),
        castle_square,
        castle_neighbours: Bitboard(grid::to_u128(words.castle_neighbours)),
        destinations: Bitboard(grid::to_u128(words.destinations)),
        castle_lines: Bitboard(grid::to_u128(words.castle_lines)),
    }
}

/// The wide grid's masks of a `size` board.
const fn wide_geometry(size: u8) -> Geometry<Wide> {
    let words = geometry_words(Wide::MAX_SIZE, size);
    Geometry {
        board: Bitboard(words.board),
        edge: Bitboard(words.edge),
        castle: Bitboard(words.castle),
        castle_square: Square::wide_index(words.castle_index as u16),
        castle_neighbours: Bitboard(words.castle_neighbours),
        destinations: Bitboard(words.destinations),
        castle_lines: Bitboard(words.castle_lines),
    }
}

/// Narrow masks for every size up to 11, indexed by size (sizes below 5 are never used).
static NARROW_GEOMETRIES: [Geometry<Narrow>; 12] = [
    narrow_geometry(0),
    narrow_geometry(1),
    narrow_geometry(2),
    narrow_geometry(3),
    narrow_geometry(4),
    narrow_geometry(5),
    narrow_geometry(6),
    narrow_geometry(7),
    narrow_geometry(8),
    narrow_geometry(9),
    narrow_geometry(10),
    narrow_geometry(11),
];

/// Wide masks for every size up to 19, indexed by size (sizes below 5 are never used).
static WIDE_GEOMETRIES: [Geometry<Wide>; 20] = {
    let mut table = [const { wide_geometry(0) }; 20];
    let mut size = 1;
    while size < 20 {
        table[size] = wide_geometry(size as u8);
        size += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_has_the_same_masks_on_both_grids() {
        for size in (5..=11).step_by(2) {
            let (narrow, wide) = (Narrow::geometry(size), Wide::geometry(size));
            assert_eq!(narrow.board.on_grid::<Wide>(), wide.board, "{size}");
            assert_eq!(narrow.edge.on_grid::<Wide>(), wide.edge, "{size}");
            assert_eq!(narrow.castle_lines.on_grid::<Wide>(), wide.castle_lines);
            assert_eq!(narrow.castle_neighbours.on_grid(), wide.castle_neighbours);
            assert_eq!(narrow.destinations.on_grid(), wide.destinations);
            assert_eq!(narrow.castle_square.on_grid(), Some(wide.castle_square));
        }
        let nineteen = Wide::geometry(19);
        assert_eq!(nineteen.board.count(), 361);
        assert_eq!(nineteen.edge.count(), 72);
        assert_eq!(nineteen.castle_square.to_string(), "j10");
        assert_eq!(nineteen.castle_lines.count(), 37);
    }

    #[test]
    fn custom_rules_compile_to_the_same_squares_on_both_grids() {
        for name in crate::Variant::names() {
            let Some(variant) = crate::Variant::by_name(name) else {
                continue;
            };
            let narrow = variant.rules();
            let Some(narrow_set) = narrow.custom() else {
                continue;
            };
            let wide = narrow
                .on::<Wide>()
                .expect("a narrow board fits the wide grid");
            assert_eq!(wide.size(), narrow.size());
            let wide_set = wide.custom().expect("custom rules stay custom");
            assert_eq!(
                narrow_set.special.on_grid::<Wide>(),
                wide_set.special,
                "{name}"
            );
            for (n, w) in narrow_set
                .no_pass
                .iter()
                .flatten()
                .zip(wide_set.no_pass.iter().flatten())
            {
                assert_eq!(n.on_grid::<Wide>(), *w, "{name}");
            }
            for (n, w) in narrow_set
                .no_stop
                .iter()
                .flatten()
                .zip(wide_set.no_stop.iter().flatten())
            {
                assert_eq!(n.on_grid::<Wide>(), *w, "{name}");
            }
            assert_eq!(
                narrow_set.hostile_always.map(|set| set.on_grid::<Wide>()),
                wide_set.hostile_always
            );
            assert_eq!(
                narrow_set.king_strong_squares.on_grid::<Wide>(),
                wide_set.king_strong_squares
            );
            assert_eq!(
                narrow_set.linnaean_squares.on_grid::<Wide>(),
                wide_set.linnaean_squares
            );
            for square in narrow_set.camps {
                let wide_square = square.on_grid::<Wide>().expect("on both grids");
                assert_eq!(
                    narrow_set.camps_out_of_reach(square).on_grid::<Wide>(),
                    wide_set.camps_out_of_reach(wide_square)
                );
            }
            // Back on the narrow grid: the same index, the same set.
            assert_eq!(wide.on::<Narrow>(), Ok(narrow));
        }
        // A board larger than 11 does not fit the narrow grid.
        let copenhagen = crate::Variant::copenhagen()
            .rules()
            .custom()
            .map(|set| set.spec.clone());
        let mut spec = copenhagen.expect("Copenhagen is a custom rule set");
        spec.size = 13;
        let big = Rules::<Wide>::from_spec(spec);
        assert_eq!(
            big.and_then(Rules::on::<Narrow>),
            Err(RulesError::UnsupportedSize(13))
        );
    }
}
