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
use crate::board::{GridBase, Narrow};
use crate::square::{MAX_BOARD_SIZE, Square};

pub(crate) mod ashton;
pub(crate) mod custom;
mod geometry;
pub(crate) mod hnefatafl_org;
mod repetition;
mod starts;
mod tables;

pub use custom::{Escape, KingStrength, Shieldwall};
use custom::{RuleSet, RuleSpec};
pub use geometry::Geometry;
pub use repetition::RepetitionRule;
pub(crate) use starts::{StartPlacement, TABLUT_START, TAWLBWRDD_START};
pub use tables::RuleGrid;

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

/// The rules a position is played under: board size, rule flags and the repetition rule for the
/// classic rules (the castle is the centre square, R1; king capture follows R13, escape R14); or
/// a set of custom rules read from an OpenTafl rules string (see
/// [`Variant`](crate::Variant)'s `FromStr`). `Rules` is `Copy` and a few bytes: custom rules are
/// compiled once and kept for the whole run, and equal rules compare equal.
///
/// The board type `B` is the grid the rules' board is laid out on: [`Narrow`] (the default, boards
/// up to 11x11) or [`Wide`](crate::Wide) (up to 19x19).
///
/// ```
/// use tafl_engine::{Rules, RuleFlags};
/// assert_eq!(Rules::TABLUT.size(), 9);
/// assert_eq!(Rules::TAWLBWRDD.castle().to_string(), "f6");
/// assert!(Rules::TABLUT.flags().contains(RuleFlags::KING_HAMMER));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules<B: GridBase = Narrow> {
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
        if self.custom != 0 && tables::lookup::<C>(self.custom).is_none() {
            tables::compile_for::<C>(self.custom)
                .ok_or(RulesError::TooManyRuleSets(tables::REGISTRY_CAPACITY - 1))?;
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
        let custom = tables::register::<B>(spec)
            .ok_or(RulesError::TooManyRuleSets(tables::REGISTRY_CAPACITY - 1))?;
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
            tables::lookup(self.custom)
        }
    }

    /// Whether these rules play the same game as `other` on the same board: equal classic rules,
    /// or custom rules equal in every choice that changes play, the ends of the game among them
    /// (docs/variants.md, "A built-in by any name"). Classic and custom rules never play alike:
    /// no rules string without `classic:y` ends a game by R16 and R17.
    ///
    /// ```
    /// use tafl_engine::Variant;
    /// // Sea Battle's string with OpenTafl's default lists spelt out, which change nothing.
    /// let spelt: Variant = "dim:9 esc:e atkf:y ka:n nj:n cj:n cor: cen: cenp:tcnkTCNK corh:t \
    ///     start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/".parse()?;
    /// assert_ne!(spelt.rules(), Variant::sea_battle().rules());
    /// assert!(spelt.rules().plays_like(Variant::sea_battle().rules()));
    /// assert!(!Variant::opentafl_tablut().rules().plays_like(Variant::tablut().rules()));
    /// # Ok::<(), tafl_engine::RulesStringError>(())
    /// ```
    pub fn plays_like(self, other: Rules<B>) -> bool {
        if self.is_classic() || other.is_classic() {
            return self == other;
        }
        match (self.custom(), other.custom()) {
            (Some(mine), Some(theirs)) => mine.spec.canonical() == theirs.spec.canonical(),
            _ => false,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Wide;

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
