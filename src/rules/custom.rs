//! Custom rules: every rule choice of OpenTafl's rules strings that this engine plays, as data
//! ([`RuleSpec`]), and the same compiled into the masks the move generator and the capture code
//! read ([`RuleSet`]). See docs/rules-strings.md for what each choice means.
//!
//! A compiled set is kept for the whole run in a registry and named by a small number, so that a
//! [`Rules`](super::Rules) stays a few bytes and a position stays within one cache line.

use crate::bitboard::{Bitboard, Direction};
use crate::board::{GridBase, Narrow, Wide};
use crate::piece::Side;
use crate::square::Square;

use super::repetition::RepetitionRule;

/// A set of squares of a rules string: on the wide grid, which holds every board up to 19x19
/// (compiled into each grid's own sets by [`RuleSet::compile`]).
pub(crate) type SquareSet = Bitboard<Wide>;

/// Where the king escapes to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Escape {
    /// Any edge square (OpenTafl `esc:e`).
    Edge,
    /// A corner square (OpenTafl `esc:c`; the corners are the rules' corner squares).
    Corner,
}

/// How many attackers it takes to capture the king (OpenTafl `ks:`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum KingStrength {
    /// Hostile squares on all four sides, everywhere: never captured on an edge (`ks:s`).
    Strong,
    /// Strong on the throne and next to it, weak elsewhere (`ks:c`).
    StrongAtThrone,
    /// Captured between two hostile squares, like a soldier (`ks:w`).
    Weak,
    /// Every neighbouring square hostile: four, three on an edge, two in a corner (`ks:m`).
    Middleweight,
    /// Strong on the throne (attackers on his four sides), captured like a soldier elsewhere,
    /// the empty throne not hostile to him (hnefatafl.org's Brandubh, H4; no OpenTafl field says
    /// it).
    StrongOnThrone,
}

/// Which program's version of the rules that two programs word alike but decide differently:
/// shieldwalls, edge forts, encirclement and the other ends of the game (C8, C9).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Dialect {
    /// OpenTafl's (C8, C9).
    OpenTafl,
    /// hnefatafl.org's server's (H5, H7-H9, H11): its own shieldwall, exit fort and encirclement
    /// tests, the attackers' win when the defenders can no longer escape, no win by immobile
    /// defenders.
    HnefataflOrg,
}

/// Shieldwall captures (OpenTafl `sw:`): a row of enemies along an edge, each held by a piece on
/// the square inside it and bracketed at both ends, is taken at once.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Shieldwall {
    /// No shieldwall captures (`sw:n`).
    None,
    /// Brackets must be pieces (`sw:w`).
    Weak,
    /// A corner square may be a bracket (`sw:s`).
    Strong,
}

/// How the shieldwalls a move takes are found along the edges (C8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum WallSearch {
    /// OpenTafl's search (its `detectShieldwallPositionsForSide`), with its quirks (C8).
    OpenTafl,
    /// The rule as the published Copenhagen rules word it (C8a), which is also how hnefatafl.org's
    /// server finds them (H5): a row of two or more enemies along an edge, each with a piece of
    /// the mover's side in front of it, bracketed at both ends by the mover's pieces or a corner.
    Published,
}

/// The kinds of special square, each with its own movement and hostility rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum SquareKind {
    /// The throne (`cen`).
    Throne = 0,
    /// A corner square (`cor`).
    Corner = 1,
    /// An attackers' fort (`afor`).
    AttackerFort = 2,
    /// A defenders' fort (`dfor`).
    DefenderFort = 3,
}

impl SquareKind {
    pub(crate) const ALL: [SquareKind; 4] = [
        SquareKind::Throne,
        SquareKind::Corner,
        SquareKind::AttackerFort,
        SquareKind::DefenderFort,
    ];
}

/// A set of OpenTafl piece letters, in OpenTafl's order `t c n k m g T C N K M G` (lower case
/// attackers, upper case defenders: taflman, commander, knight, king, mercenary, guard).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Letters(pub(crate) u16);

impl Letters {
    /// The letters in OpenTafl's order.
    pub(crate) const ORDER: &'static str = "tcnkmgTCNKMG";
    /// Every letter.
    pub(crate) const ALL: Letters = Letters((1 << 12) - 1);
    /// No letter.
    pub(crate) const NONE: Letters = Letters(0);

    /// The set of the letters in `text`, or the first letter that is not a piece letter.
    pub(crate) fn parse(text: &str) -> Result<Letters, char> {
        let mut set = 0;
        for letter in text.chars() {
            match Letters::ORDER.chars().position(|l| l == letter) {
                Some(place) => set |= 1 << place,
                None => return Err(letter),
            }
        }
        Ok(Letters(set))
    }

    /// The letters of this set that are also in `other`.
    pub(crate) fn and(self, other: Letters) -> Letters {
        Letters(self.0 & other.0)
    }

    /// Whether `letter` is in the set.
    pub(crate) fn has(self, letter: char) -> bool {
        Letters::ORDER
            .chars()
            .position(|l| l == letter)
            .is_some_and(|place| self.0 >> place & 1 == 1)
    }

    /// The letters, in OpenTafl's order.
    pub(crate) fn to_text(self) -> String {
        Letters::ORDER
            .chars()
            .enumerate()
            .filter(|&(place, _)| self.0 >> place & 1 == 1)
            .map(|(_, letter)| letter)
            .collect()
    }
}

/// What one kind of special square allows, by piece letter.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct KindRules {
    /// Who may pass over it (`cenp`, `corp`, `aforp`, `dforp`).
    pub(crate) passable: Letters,
    /// Who may stop on it (`cens`, `cors`, `afors`, `dfors`).
    pub(crate) stoppable: Letters,
    /// Whom it is hostile to; for the throne, while occupied (`cenh`, `corh`, `aforh`, `dforh`).
    /// Only the `t` and `T` letters count: they stand for each side's pieces, king included.
    pub(crate) hostile: Letters,
    /// Whom the empty throne is hostile to (`cenhe`); the other kinds use `hostile`.
    pub(crate) hostile_empty: Letters,
    /// Who may enter it from a square of another kind (`cenre`, `corre`, `aforre`, `dforre`).
    pub(crate) reenterable: Letters,
}

/// Every rule choice of a game played by custom rules: the rules string's meaning, as data.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct RuleSpec {
    /// The board is `size` x `size`.
    pub(crate) size: u8,
    /// Where the king escapes to (`esc`).
    pub(crate) escape: Escape,
    /// The attackers win when no defender can reach an edge (`surf`).
    pub(crate) surrounding_fatal: bool,
    /// What the third occurrence of a position does (`tfr`).
    pub(crate) repetition: RepetitionRule,
    /// The king captures as the moving piece (`ka:y` or `ka:h`).
    pub(crate) king_hammer: bool,
    /// The king is hostile to attackers as the far piece (`ka:y` or `ka:a`).
    pub(crate) king_anvil: bool,
    /// How the king is captured (`ks`).
    pub(crate) king_strength: KingStrength,
    /// Shieldwall captures (`sw`).
    pub(crate) shieldwall: Shieldwall,
    /// A shieldwall is taken only by a move onto the edge of one of its own pieces (`swf`).
    pub(crate) shieldwall_flanking: bool,
    /// How shieldwalls are found (`sw-published`, this engine's own field; `hnefatafl-org`).
    pub(crate) shieldwall_search: WallSearch,
    /// The defenders win with the king in an edge fort (`efe`).
    pub(crate) edge_fort: bool,
    /// Linnaean capture (`linc`).
    pub(crate) linnaean: bool,
    /// How far each piece letter may move in one turn, `-1` for no limit (`spd`).
    pub(crate) speeds: [i8; 12],
    /// The special squares of each kind, in [`SquareKind`] order.
    pub(crate) squares: [SquareSet; 4],
    /// What each kind of special square allows, in [`SquareKind`] order.
    pub(crate) kinds: [KindRules; 4],
    /// Camps (C12; none in OpenTafl's games): squares that only a piece which starts its move on
    /// a camp may pass over or stop on.
    pub(crate) camps: SquareSet,
    /// The longest move from a camp to a camp, in squares (`0`: no limit).
    pub(crate) camp_move_limit: u8,
    /// The camps hostile to each side's pieces, occupied or not, by [`Side`].
    pub(crate) camp_hostility: [SquareSet; 2],
    /// The game ends OpenTafl adds to every game (C9): the defenders win when the attackers have
    /// no piece left, the attackers when no defender can move at all.
    pub(crate) opentafl_ends: bool,
    /// Whose shieldwall, edge-fort, encirclement and end tests these rules use.
    pub(crate) dialect: Dialect,
    /// The game is drawn when this many moves have been played since its start, unless the last
    /// of them won it on the board (H10; 0: no limit).
    pub(crate) move_limit: u16,
}

/// The letters of the pieces that can be on a board (`t`, `T`, `K`: the start record refuses
/// every other piece), in OpenTafl's order: bits 0, 6 and 9.
const PIECE_LETTERS: Letters = Letters(1 | 1 << 6 | 1 << 9);

/// The letters a square's hostility is read for: one per side, `t` and `T` (the king included).
const SIDE_LETTERS: Letters = Letters(1 | 1 << 6);

impl RuleSpec {
    /// The same rules with every choice that cannot change play brought to one value, so that two
    /// specs play the same game exactly when their canonical forms are equal (docs/variants.md,
    /// "A built-in by any name"): the letters of pieces that cannot be on the board (commanders,
    /// knights, mercenaries, guards, an attacking king), the rules of a kind of special square
    /// the board has none of, the hostility of an empty corner or fort (they read `hostile`
    /// alone), how shieldwalls are flanked and found without shieldwalls, and the speed limits of
    /// absent pieces.
    /// Everything else, the ends of the game among it, is kept as it is.
    pub(crate) fn canonical(&self) -> RuleSpec {
        let mut spec = self.clone();
        let board = SquareSet::board_of(spec.size);
        for kind in SquareKind::ALL {
            let index = kind as usize;
            spec.squares[index] &= board;
            let rules = &mut spec.kinds[index];
            if spec.squares[index].is_empty() {
                *rules = KindRules {
                    passable: Letters::NONE,
                    stoppable: Letters::NONE,
                    hostile: Letters::NONE,
                    hostile_empty: Letters::NONE,
                    reenterable: Letters::NONE,
                };
                continue;
            }
            rules.passable = rules.passable.and(PIECE_LETTERS);
            rules.stoppable = rules.stoppable.and(PIECE_LETTERS);
            rules.reenterable = rules.reenterable.and(PIECE_LETTERS);
            rules.hostile = rules.hostile.and(SIDE_LETTERS);
            rules.hostile_empty = if kind == SquareKind::Throne {
                rules.hostile_empty.and(SIDE_LETTERS)
            } else {
                Letters::NONE
            };
        }
        if spec.shieldwall == Shieldwall::None {
            spec.shieldwall_flanking = true;
            spec.shieldwall_search = WallSearch::OpenTafl;
        }
        for (letter, speed) in spec.speeds.iter_mut().enumerate() {
            if PIECE_LETTERS.0 >> letter & 1 == 0 || *speed < 1 {
                *speed = -1;
            }
        }
        spec
    }
}

/// The piece classes that move and are captured differently: soldiers of each side, and the king.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    Attacker = 0,
    Defender = 1,
    King = 2,
}

impl Class {
    /// The OpenTafl letter of the class.
    const fn letter(self) -> char {
        match self {
            Class::Attacker => 't',
            Class::Defender => 'T',
            Class::King => 'K',
        }
    }
}

/// Kinds of the square a piece starts from: a plain square, one of the special kinds, or a camp.
pub(crate) const START_KINDS: usize = 6;

/// The index of a camp among the start kinds (after the plain square and the [`SquareKind`]s).
pub(crate) const CAMP_START: usize = 5;

/// Custom rules compiled into masks of one grid, kept for the whole run (see [`register`](super::tables::register)).
#[derive(Debug)]
pub struct RuleSet<B: GridBase = Narrow> {
    /// The rules as given.
    pub(crate) spec: RuleSpec,
    /// Every square of the board.
    pub(crate) board: Bitboard<B>,
    /// The edge squares.
    pub(crate) edge: Bitboard<B>,
    /// The edge squares of each side of the board (a corner is on two), each with the direction
    /// from it into the board: the first rank's squares look north, the last rank's south, the
    /// first file's east, the last file's west.
    pub(crate) edge_sides: [(Bitboard<B>, Direction); 4],
    /// Every special square.
    pub(crate) special: Bitboard<B>,
    /// The special squares of each kind, in [`SquareKind`] order (the spec's, on this grid).
    pub(crate) squares: [Bitboard<B>; 4],
    /// The camps (C12; the spec's, on this grid).
    pub(crate) camps: Bitboard<B>,
    /// Squares a piece of each class, starting from a square of each kind (plain first, then the
    /// [`SquareKind`]s), may not pass over nor stop on.
    pub(crate) no_pass: [[Bitboard<B>; START_KINDS]; 3],
    /// Squares it may pass over but not stop on, or may not pass over.
    pub(crate) no_stop: [[Bitboard<B>; START_KINDS]; 3],
    /// [`RuleSet::no_stop`] by ranks and files, for the move generator.
    pub(crate) no_stop_lines: [[LineBits; START_KINDS]; 3],
    /// The squares on a rank or a file through a square the piece may pass over but not stop
    /// on (in `no_stop` but not in `no_pass`): a piece anywhere else slides along its lines
    /// through no square it may not stop on.
    pub(crate) refused_lines: [[Bitboard<B>; START_KINDS]; 3],
    /// How far each class moves in one turn (0: no limit).
    pub(crate) speed: [u8; 3],
    /// Squares hostile to each side's pieces whether occupied or not (corners, forts), by side.
    pub(crate) hostile_always: [Bitboard<B>; 2],
    /// The throne squares hostile to each side's pieces while empty.
    pub(crate) hostile_when_empty: [Bitboard<B>; 2],
    /// The throne squares hostile to each side's pieces while occupied.
    pub(crate) hostile_when_occupied: [Bitboard<B>; 2],
    /// Where the king is strong (4 hostile sides; middleweight: all sides; `StrongOnThrone`: the
    /// throne).
    pub(crate) king_strong_squares: Bitboard<B>,
    /// The four squares two steps from the board's centre, where an attacker's move may make a
    /// Linnaean capture (empty unless `linnaean`).
    pub(crate) linnaean_squares: Bitboard<B>,
    /// For each square (by index), the camps a piece starting there may not stop on because they
    /// are farther than the camp move limit (empty unless the square is a camp and there is a
    /// limit; no entries at all for rules without camps or limit).
    camps_out_of_reach: Vec<Bitboard<B>>,
}

impl<B: GridBase> RuleSet<B> {
    /// Compiles `spec` for the grid `B` (its board fits the grid: [`super::Rules`] checks).
    pub(super) fn compile(spec: RuleSpec) -> RuleSet<B> {
        let board = Bitboard::board_of(spec.size);
        let edge = Bitboard::edge_of(spec.size);
        let squares = spec.squares.map(|set| set.on_grid::<B>() & board);
        let camps = spec.camps.on_grid::<B>() & board;
        let special = squares.iter().fold(Bitboard::EMPTY, |all, &set| all | set);
        // A square is on the side of the board opposite `inward` when the square beyond it that
        // way round is off the board.
        let edge_sides = [
            Direction::North,
            Direction::South,
            Direction::East,
            Direction::West,
        ]
        .map(|inward| (board - board.shift(inward), inward));
        let mut no_pass = [[Bitboard::EMPTY; START_KINDS]; 3];
        let mut no_stop = [[Bitboard::EMPTY; START_KINDS]; 3];
        for class in [Class::Attacker, Class::Defender, Class::King] {
            let letter = class.letter();
            for start in 0..START_KINDS {
                let mut blocked = Bitboard::EMPTY;
                let mut refused = Bitboard::EMPTY;
                for kind in SquareKind::ALL {
                    let rules = spec.kinds[kind as usize];
                    let squares = squares[kind as usize];
                    // A square of a kind the piece may not re-enter can be passed or reached only
                    // by a piece that starts on a square of that same kind.
                    let may_enter = rules.reenterable.has(letter) || start == kind as usize + 1;
                    if !(may_enter && rules.passable.has(letter)) {
                        blocked |= squares;
                    } else if !rules.stoppable.has(letter) {
                        refused |= squares;
                    }
                }
                // C12: camps are open only to a piece that starts its move on one.
                if start != CAMP_START {
                    blocked |= camps;
                }
                no_pass[class as usize][start] = blocked & board;
                no_stop[class as usize][start] = (blocked | refused) & board;
            }
        }
        let speed_of = |letter: usize| u8::try_from(spec.speeds[letter]).unwrap_or(0);
        // Letters t (0), T (6) and K (9).
        let speed = [speed_of(0), speed_of(6), speed_of(9)];
        let mut hostile_always = [Bitboard::EMPTY; 2];
        let mut hostile_when_empty = [Bitboard::EMPTY; 2];
        let mut hostile_when_occupied = [Bitboard::EMPTY; 2];
        for side in Side::ALL {
            let letter = match side {
                Side::Attackers => 't',
                Side::Defenders => 'T',
            };
            let index = side as usize;
            hostile_always[index] |= spec.camp_hostility[index].on_grid::<B>() & board;
            for kind in SquareKind::ALL {
                let rules = spec.kinds[kind as usize];
                let squares = squares[kind as usize];
                if kind == SquareKind::Throne {
                    if rules.hostile_empty.has(letter) {
                        hostile_when_empty[index] |= squares;
                    }
                    if rules.hostile.has(letter) {
                        hostile_when_occupied[index] |= squares;
                    }
                } else if rules.hostile.has(letter) {
                    hostile_always[index] |= squares;
                }
            }
        }
        let throne = squares[SquareKind::Throne as usize];
        let king_strong_squares = match spec.king_strength {
            KingStrength::Strong | KingStrength::Middleweight => board,
            KingStrength::StrongAtThrone => (throne | throne.neighbours()) & board,
            KingStrength::StrongOnThrone => throne,
            KingStrength::Weak => Bitboard::EMPTY,
        };
        let linnaean_squares = if spec.linnaean {
            let middle = spec.size / 2;
            [(2, 0), (-2, 0), (0, 2), (0, -2)]
                .into_iter()
                .filter_map(|(dx, dy)| Square::at(middle, middle)?.offset(dx, dy))
                .fold(Bitboard::EMPTY, |set, square| set | square)
                & board
        } else {
            Bitboard::EMPTY
        };
        // Without a camp move limit the table would be all empty: an empty one reads the same.
        let camps_out_of_reach = if spec.camp_move_limit == 0 || camps.is_empty() {
            Vec::new()
        } else {
            (0..B::GRID_SQUARES)
                .map(|index| camps_out_of_reach(spec.camp_move_limit, camps, index))
                .collect()
        };
        RuleSet {
            board,
            edge,
            edge_sides,
            special: special | camps,
            squares,
            camps,
            camps_out_of_reach,
            spec,
            no_pass,
            no_stop_lines: no_stop.map(|by_start| by_start.map(LineBits::of)),
            refused_lines: std::array::from_fn(|class| {
                std::array::from_fn(|start| {
                    let refused = no_stop[class][start] - no_pass[class][start];
                    board
                        .into_iter()
                        .filter(|on| {
                            refused
                                .into_iter()
                                .any(|r| r.x() == on.x() || r.y() == on.y())
                        })
                        .fold(Bitboard::EMPTY, |lines, on| lines | on)
                })
            }),
            no_stop,
            speed,
            hostile_always,
            hostile_when_empty,
            hostile_when_occupied,
            king_strong_squares,
            linnaean_squares,
        }
    }

    /// The index into [`RuleSet::no_pass`]/[`RuleSet::no_stop`] of the kind of `square`'s set.
    #[inline]
    pub(crate) fn start_kind(&self, from: Bitboard<B>) -> usize {
        for kind in SquareKind::ALL {
            if (self.squares[kind as usize] & from).any() {
                return kind as usize + 1;
            }
        }
        if (self.camps & from).any() {
            return CAMP_START;
        }
        0
    }

    /// C12: the camps a piece starting on `from` may not stop on, being farther than the camp
    /// move limit (to be added to its `no_stop` squares).
    #[inline]
    pub(crate) fn camps_out_of_reach(&self, from: Square<B>) -> Bitboard<B> {
        self.camps_out_of_reach
            .get(from.place())
            .copied()
            .unwrap_or(Bitboard::EMPTY)
    }

    /// The throne squares.
    pub(crate) fn throne(&self) -> Bitboard<B> {
        self.squares[SquareKind::Throne as usize]
    }

    /// The corner squares.
    pub(crate) fn corners(&self) -> Bitboard<B> {
        self.squares[SquareKind::Corner as usize]
    }
}

/// A set of squares by ranks and files: bit `x` of rank `y`, bit `y` of file `x`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LineBits {
    /// Each rank's squares, by file.
    pub(crate) ranks: [u32; Wide::MAX_SIZE as usize],
    /// Each file's squares, by rank.
    pub(crate) files: [u32; Wide::MAX_SIZE as usize],
}

impl LineBits {
    /// The squares of `set` by ranks and files.
    pub(crate) fn of<B: GridBase>(set: Bitboard<B>) -> LineBits {
        let mut lines = LineBits::default();
        for square in set {
            let (x, y) = (usize::from(square.x()), usize::from(square.y()));
            if let (Some(rank), Some(file)) = (lines.ranks.get_mut(y), lines.files.get_mut(x)) {
                *rank |= 1 << x;
                *file |= 1 << y;
            }
        }
        lines
    }
}

/// The `camps` farther than the camp move `limit` from the square of index `index`, on its rank
/// and file (every camp off its lines is out of reach anyway), when that square is a camp.
fn camps_out_of_reach<B: GridBase>(limit: u8, camps: Bitboard<B>, index: usize) -> Bitboard<B> {
    let limit = i32::from(limit);
    let Some(from) = Square::<B>::at_index(B::index_of(index)) else {
        return Bitboard::EMPTY;
    };
    if limit == 0 || !camps.contains(from) {
        return Bitboard::EMPTY;
    }
    camps
        .into_iter()
        .filter(|to| {
            let (dx, dy) = (
                i32::from(to.x()) - i32::from(from.x()),
                i32::from(to.y()) - i32::from(from.y()),
            );
            dx.abs().max(dy.abs()) > limit
        })
        .fold(Bitboard::EMPTY, |far, to| far | to)
}
