//! A game: its name, rules and start position; this project's two games (docs/rules.md) and
//! OpenTafl's built-in games, by name; rules strings in and out ([`crate::rules_string`]).

use std::fmt;
use std::str::FromStr;

use crate::board::{Narrow, Wide};
use crate::play::Grid;
use crate::position::Position;
use crate::rules::{Rules, RulesError};
use crate::rules_string;
pub use crate::rules_string::RulesStringError;

/// A game: name, rules and start position (which says who moves first).
///
/// ```
/// use tafl_engine::Variant;
/// let tablut = Variant::tablut();
/// let text = tablut.to_string();
/// assert!(text.starts_with("dim:9 name:Tablut esc:e"));
/// assert_eq!(text.parse::<Variant>().unwrap(), tablut);
/// ```
///
/// A game on a board above 11x11 is a `Variant<Wide>` (docs/wide-boards.md), read from its rules
/// string; every other game is a `Variant`, the narrow grid's.
///
/// ```
/// use tafl_engine::{Variant, Wide, perft};
/// let sea_battle_13: Variant<Wide> = "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n \
///     cj:n cor: cen: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/\
///     t3T3T3t/6T6/6t6/5t1t5/4ttttt4/".parse()?;
/// assert_eq!(sea_battle_13.rules().size(), 13);
/// // OpenTafl's own count (tests/data/opentafl-wide.txt).
/// assert_eq!(perft::perft(&sea_battle_13.start(), 2), 23_436);
/// # Ok::<(), tafl_engine::RulesStringError<Wide>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Variant<B: Grid = Narrow> {
    name: String,
    start: Position<B>,
}

/// OpenTafl's built-in games (all but Berserk), by name: their rules strings exactly as OpenTafl
/// sends them to an engine.
pub const OPENTAFL_GAMES: [(&str, &str); 9] = [
    (
        "sea-battle",
        "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    ),
    (
        "fetlar",
        "dim:11 name:Fetlar atkf:y nj:n cj:n start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    ),
    (
        "copenhagen",
        "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    ),
    (
        "copenhagen-relaxed",
        "dim:11 name:Copenhagen_(relaxed_shieldwall) atkf:y tfr:w sw:s swf:n efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    ),
    (
        "brandub",
        "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    ),
    (
        "opentafl-tawlbwrdd",
        "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
    ),
    (
        "opentafl-tablut",
        "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    ),
    (
        "foteviken-tablut",
        "dim:9 name:Foteviken_Tablut esc:e atkf:y nj:n cor: afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cenp:tcnkTCNK aforp:tcnkTCNK cens: cenh: cenhe:K aforh:K cenre: aforre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    ),
    (
        "magpie",
        "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    ),
];

/// Every name [`Variant::by_name`] takes.
const NAMES: [&str; 15] = [
    "tablut",
    "tawlbwrdd",
    OPENTAFL_GAMES[0].0,
    OPENTAFL_GAMES[1].0,
    OPENTAFL_GAMES[2].0,
    OPENTAFL_GAMES[3].0,
    OPENTAFL_GAMES[4].0,
    OPENTAFL_GAMES[5].0,
    OPENTAFL_GAMES[6].0,
    OPENTAFL_GAMES[7].0,
    OPENTAFL_GAMES[8].0,
    "ashton",
    "copenhagen-aagenielsen",
    "hnefatafl-org-copenhagen",
    "hnefatafl-org-brandubh",
];

/// Copenhagen by its published rules (aagenielsen.dk): OpenTafl's Copenhagen string with the
/// third occurrence of a position a win for the attackers (`tfr:a`) and shieldwalls as the rules
/// word them (`sw-published:y`), both this engine's own (docs/rules-strings.md, C8a).
const COPENHAGEN_AAGENIELSEN: &str = "dim:11 name:Copenhagen_(aagenielsen.dk) atkf:y tfr:a sw:s sw-published:y efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

impl Variant {
    /// Tablut (Linnaeus, 1732), 9x9, as docs/rules.md gives it.
    pub fn tablut() -> Variant {
        Variant::new("Tablut", Position::tablut())
    }

    /// Tawlbwrdd (R. C. Bell's reconstruction), 11x11, as docs/rules.md gives it.
    pub fn tawlbwrdd() -> Variant {
        Variant::new("Tawlbwrdd", Position::tawlbwrdd())
    }

    /// A game of OpenTafl's from its rules string (one of [`OPENTAFL_GAMES`]).
    fn opentafl(text: &str) -> Variant {
        // Not reached: the strings are fixed, and a test reads each of them.
        text.parse().unwrap_or_else(|_| Variant::tablut())
    }

    /// Sea Battle (OpenTafl), 9x9: no throne or corners, an unarmed king captured on four sides,
    /// escape to any edge; the attackers also win by encircling the defenders.
    pub fn sea_battle() -> Variant {
        Variant::opentafl(OPENTAFL_GAMES[0].1)
    }

    /// Fetlar (OpenTafl), 11x11: escape to a corner; the king alone may stop on the throne and the
    /// corners, which are hostile; he is captured on four sides; encircling wins.
    pub fn fetlar() -> Variant {
        Variant::opentafl(OPENTAFL_GAMES[1].1)
    }

    /// Copenhagen Hnefatafl (OpenTafl), 11x11: Fetlar with shieldwall captures (flanked),
    /// edge-fort escapes, and a third repetition lost by the side that makes it.
    pub fn copenhagen() -> Variant {
        Variant::opentafl(OPENTAFL_GAMES[2].1)
    }

    /// Copenhagen with relaxed shieldwalls (OpenTafl): any move may take a shieldwall.
    pub fn copenhagen_relaxed_shieldwall() -> Variant {
        Variant::opentafl(OPENTAFL_GAMES[3].1)
    }

    /// Brandub (OpenTafl), 7x7: corner escape, a weak king, a throne hostile to nobody.
    pub fn brandub() -> Variant {
        Variant::opentafl(OPENTAFL_GAMES[4].1)
    }

    /// OpenTafl's Tawlbwrdd, 11x11: a weak king, no throne and no corners, edge escape,
    /// encircling wins. (This project's [`Variant::tawlbwrdd`] plays other rules.)
    pub fn opentafl_tawlbwrdd() -> Variant {
        Variant::opentafl(OPENTAFL_GAMES[5].1)
    }

    /// OpenTafl's Tablut, 9x9: this project's castle rules with Linnaean capture, encircling wins
    /// and a threefold repetition draw. (This project's [`Variant::tablut`] plays R1-R18.)
    pub fn opentafl_tablut() -> Variant {
        Variant::opentafl(OPENTAFL_GAMES[6].1)
    }

    /// Foteviken Tablut (OpenTafl's rules string), 9x9: the attackers start in forts that no
    /// piece may enter, a throne nobody may pass once empty.
    pub fn foteviken_tablut() -> Variant {
        Variant::opentafl(OPENTAFL_GAMES[7].1)
    }

    /// Magpie (OpenTafl's rules string), 7x7: Brandub's board with a middleweight king who moves
    /// one square at a time.
    pub fn magpie() -> Variant {
        Variant::opentafl(OPENTAFL_GAMES[8].1)
    }

    /// Ashton Tablut, 9x9: the rules of the University of Bologna's Tablut Challenge, as its
    /// game server plays them (docs/rules-hosts.md, C12-C14). The attackers start on camps, which only a
    /// piece starting on a camp may cross or stop on; nothing crosses or lands on the throne;
    /// the king escapes to any edge and is captured by four attackers on the throne, three
    /// beside it, two (or one against a camp) elsewhere; the defenders move first; the first
    /// recurrence of a position draws.
    ///
    /// ```
    /// use tafl_engine::{Side, Variant};
    /// let ashton = Variant::ashton();
    /// assert_eq!(ashton.start().side_to_move(), Side::Defenders);
    /// assert_eq!(ashton.to_string().parse::<Variant>().unwrap(), ashton);
    /// ```
    pub fn ashton() -> Variant {
        Variant::new("Ashton Tablut", Position::ashton())
    }

    /// Copenhagen as the community plays it by its published rules (aagenielsen.dk, the World
    /// Tafl Federation's): OpenTafl's Copenhagen but for repetition, where "perpetual repetition
    /// is a loss for the defenders" is read as the third occurrence of a position (the same
    /// placement, the same side to move) winning for the attackers, whichever side made it, and
    /// for shieldwalls, found as the published rule words them rather than by OpenTafl's search
    /// (docs/rules-hosts.md, "Copenhagen as the community plays it", which lists every difference).
    ///
    /// ```
    /// use tafl_engine::{RepetitionRule, Variant};
    /// let community = Variant::copenhagen_aagenielsen();
    /// assert_eq!(community.rules().repetition(), RepetitionRule::ThirdOccurrenceAttackersWin);
    /// let same_pieces = community.start().pieces_with_squares()
    ///     .eq(Variant::copenhagen().start().pieces_with_squares());
    /// assert!(same_pieces);
    /// ```
    pub fn copenhagen_aagenielsen() -> Variant {
        Variant::opentafl(COPENHAGEN_AAGENIELSEN)
    }

    /// Copenhagen Hnefatafl 11x11 as hnefatafl.org's server plays it (docs/rules-hosts.md, H1-H12):
    /// OpenTafl's Copenhagen board and moves, the server's own shieldwall, exit-fort and
    /// encirclement tests, a win for the attackers once the defenders can no longer escape, a
    /// draw at the 141st move, and defenders who may not recreate an earlier placement.
    ///
    /// ```
    /// use tafl_engine::{Game, Side, Variant};
    /// let variant = Variant::hnefatafl_org_copenhagen();
    /// assert_eq!(variant.start().side_to_move(), Side::Attackers);
    /// assert_eq!(variant.rules().move_limit(), Some(141));
    /// assert_eq!(Game::new(&variant).legal_moves().len(), 116);
    /// ```
    pub fn hnefatafl_org_copenhagen() -> Variant {
        Variant::hnefatafl_org(11, "Copenhagen (hnefatafl.org)")
    }

    /// Brandubh 7x7 as hnefatafl.org's server plays it (H1-H12): the defenders move first, only
    /// the king passes the throne, he is captured by four attackers on it and by two elsewhere,
    /// no exit forts; otherwise the server's Copenhagen rules.
    ///
    /// ```
    /// use tafl_engine::{Side, Variant};
    /// let variant = Variant::hnefatafl_org_brandubh();
    /// assert_eq!(variant.start().side_to_move(), Side::Defenders);
    /// assert_eq!(variant.to_string().parse::<Variant>().unwrap(), variant);
    /// ```
    pub fn hnefatafl_org_brandubh() -> Variant {
        Variant::hnefatafl_org(7, "Brandubh (hnefatafl.org)")
    }

    /// hnefatafl.org's game on a board of `size` (7 or 11), named `name`.
    fn hnefatafl_org(size: u8, name: &str) -> Variant {
        // Not reached: 7 and 11 are played, and their rules take one registry slot each.
        let start = Position::hnefatafl_org(size).unwrap_or_else(Position::tablut);
        Variant::new(name, start)
    }

    /// The names [`Variant::by_name`] accepts, in the order `help` lists them: this project's two
    /// games, then OpenTafl's built-in games (all but Berserk), then Ashton Tablut, Copenhagen by
    /// its published rules, and hnefatafl.org's games.
    ///
    /// ```
    /// use tafl_engine::Variant;
    /// assert_eq!(&Variant::names()[..3], ["tablut", "tawlbwrdd", "sea-battle"]);
    /// for name in Variant::names() {
    ///     assert!(Variant::by_name(name).is_some());
    /// }
    /// ```
    pub fn names() -> &'static [&'static str] {
        &NAMES
    }

    /// The built-in game with this name (one of [`Variant::names`], any case).
    pub fn by_name(name: &str) -> Option<Variant> {
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "tablut" => Some(Variant::tablut()),
            "tawlbwrdd" => Some(Variant::tawlbwrdd()),
            "ashton" => Some(Variant::ashton()),
            "copenhagen-aagenielsen" => Some(Variant::copenhagen_aagenielsen()),
            "hnefatafl-org-copenhagen" => Some(Variant::hnefatafl_org_copenhagen()),
            "hnefatafl-org-brandubh" => Some(Variant::hnefatafl_org_brandubh()),
            _ => OPENTAFL_GAMES
                .iter()
                .find(|(game, _)| *game == name)
                .map(|(_, text)| Variant::opentafl(text)),
        }
    }

    /// The name [`Variant::by_name`] knows this game by (`sea-battle`, `opentafl-tablut`), or
    /// `None` for a game that is none of [`Variant::names`] (other rules, or another start).
    /// `Variant::by_name(key)` gives the game back.
    ///
    /// ```
    /// use tafl_engine::Variant;
    /// assert_eq!(Variant::opentafl_tablut().key(), Some("opentafl-tablut"));
    /// assert_eq!(Variant::opentafl_tablut().name(), Variant::tablut().name());
    /// for name in Variant::names() {
    ///     assert_eq!(Variant::by_name(name).unwrap().key(), Some(*name));
    /// }
    /// ```
    pub fn key(&self) -> Option<&'static str> {
        BUILT_IN
            .get_or_init(built_in_games)
            .iter()
            .find(|(_, variant)| variant == self)
            .map(|&(name, _)| name)
    }
}

impl<B: Grid> Variant<B> {
    /// Whether this game and `other` are the same game: the same board, the same start (pieces
    /// and side to move) and rules alike in every choice that changes play, the ends of the game
    /// among them ([`Rules::plays_like`]); their names and the spelling of their rules strings
    /// may differ (docs/variants.md, "A built-in by any name").
    ///
    /// ```
    /// use tafl_engine::Variant;
    /// let renamed = Variant::new("Tablut (my club)", Variant::tablut().start());
    /// assert!(renamed.is_same_game(&Variant::tablut()));
    /// assert!(!Variant::opentafl_tablut().is_same_game(&Variant::tablut()));
    /// ```
    pub fn is_same_game(&self, other: &Variant<B>) -> bool {
        self.start.side_to_move() == other.start.side_to_move()
            && self.rules().plays_like(other.rules())
            && self
                .start
                .pieces_with_squares()
                .eq(other.start.pieces_with_squares())
    }
}

impl Variant {
    /// The built-in game ([`Variant::names`]) that this game is, whatever its name and however
    /// its rules string spelt it (fields in any order, defaults given or left out, letters of
    /// pieces that cannot be on the board, rules of squares the board does not have); `None` for
    /// a game that is none of them (docs/variants.md, "A built-in by any name"). A game that
    /// ends otherwise than the built-in (another repetition rule, OpenTafl's ends rather than
    /// R16-R17) is another game.
    ///
    /// ```
    /// use tafl_engine::Variant;
    /// let shuffled: Variant = "name:Sea_battle_at_the_club start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/ \
    ///     cen: cor: cj:n nj:n ka:n atkf:y esc:e dim:9 tfr:d surf:y ks:s".parse()?;
    /// assert_eq!(shuffled.key(), None);
    /// assert_eq!(shuffled.built_in(), Some("sea-battle"));
    /// // This project's Tablut as OpenTafl reads it (RULES.md): a threefold repetition draws and
    /// // a side without moves loses, so it is not `tablut`.
    /// let opentafl_reading: Variant = "dim:9 name:Tablut esc:e surf:n atkf:y ks:c nj:n cor: \
    ///     cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:n \
    ///     start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/".parse()?;
    /// assert_eq!(opentafl_reading.built_in(), None);
    /// # Ok::<(), tafl_engine::RulesStringError>(())
    /// ```
    pub fn built_in(&self) -> Option<&'static str> {
        BUILT_IN
            .get_or_init(built_in_games)
            .iter()
            .find(|(_, variant)| variant.is_same_game(self))
            .map(|&(name, _)| name)
    }

    /// This game as it is played: when it is a built-in game ([`Variant::built_in`]), the
    /// built-in's rules and start under this game's name, so that it gets the built-in's code
    /// path, network and time calibration; any other game as it is.
    ///
    /// ```
    /// use tafl_engine::Variant;
    /// let spelt: Variant = "dim:9 name:Sea esc:e atkf:y ka:n nj:n cj:n cor: cen: cenp:tcnkTCNK \
    ///     start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/".parse()?;
    /// let played = spelt.canonical();
    /// assert_eq!(played.rules(), Variant::sea_battle().rules());
    /// assert_eq!(played.name(), "Sea");
    /// # Ok::<(), tafl_engine::RulesStringError>(())
    /// ```
    pub fn canonical(&self) -> Variant {
        match self.built_in().and_then(Variant::by_name) {
            Some(built_in) => Variant::new(&self.name, built_in.start),
            None => self.clone(),
        }
    }
}

/// Every built-in game with its name, made once.
static BUILT_IN: std::sync::OnceLock<Vec<(&'static str, Variant)>> = std::sync::OnceLock::new();

fn built_in_games() -> Vec<(&'static str, Variant)> {
    NAMES
        .iter()
        .filter_map(|&name| Some((name, Variant::by_name(name)?)))
        .collect()
}

/// The name of hnefatafl.org's 13x13 game for [`AnyVariant::by_name`].
const HNEFATAFL_ORG_13_NAME: &str = "hnefatafl-org-copenhagen-13";

/// hnefatafl.org's 13x13 game: its server's start under its Copenhagen rules (H1-H12; H12's
/// start not counted).
const HNEFATAFL_ORG_13: &str = "dim:13 name:Copenhagen_13x13_(hnefatafl.org) atkf:y hnefatafl-org:y \
    start:/3ttttttt3/6t6/13/t5T5t/t5T5t/t4TTT4t/tt1TTTKTTT1tt/t4TTT4t/t5T5t/t5T5t/13/6t6/3ttttttt3/";

impl Variant<Wide> {
    /// Copenhagen 13x13 as hnefatafl.org's server plays it (docs/rules-hosts.md, H1-H12): the 11x11
    /// game's rules on a 13x13 board, the attackers first, and its start not counted among the
    /// placements the defenders may not recreate (H12).
    ///
    /// ```
    /// use tafl_engine::{Game, Side, Variant, Wide};
    /// let variant = Variant::<Wide>::hnefatafl_org_copenhagen_13();
    /// assert_eq!(variant.rules().size(), 13);
    /// assert_eq!(variant.start().side_to_move(), Side::Attackers);
    /// assert_eq!(variant.to_string().parse::<Variant<Wide>>().unwrap(), variant);
    /// assert!(!Game::new(&variant).legal_moves().is_empty());
    /// ```
    pub fn hnefatafl_org_copenhagen_13() -> Variant<Wide> {
        HNEFATAFL_ORG_13
            .parse()
            // Cannot fail: a constant string, read by this function's doctest and by
            // tests/engine/hnefatafl_org_perft.rs, which checks the server's counts against it.
            .expect("hnefatafl.org's 13x13 rules string reads")
    }
}

impl<B: Grid> Variant<B> {
    /// A game from its parts, on either grid (a game set up from a position on a board above
    /// 11x11 is a `Variant<Wide>`). The name is made safe for a rules string: runs of white
    /// space become one space, ends are trimmed, and `:` becomes `-` (so that no word of the
    /// name can be read back as a rule field).
    ///
    /// ```
    /// use tafl_engine::{Variant, Wide};
    /// let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13();
    /// let renamed = Variant::new("my: game", thirteen.start());
    /// assert!(renamed.to_string().starts_with("dim:13 name:my-_game "));
    /// assert_eq!(renamed.start(), thirteen.start());
    /// ```
    pub fn new(name: impl AsRef<str>, start: Position<B>) -> Variant<B> {
        let name = name
            .as_ref()
            .split_whitespace()
            .map(|word| word.replace(':', "-"))
            .collect::<Vec<_>>()
            .join(" ");
        Variant { name, start }
    }

    /// The game's name for people (may be empty): `Sea Battle`, `Tablut`. Two games may share
    /// one (OpenTafl's Tablut and this project's); [`Variant::key`] tells them apart.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The rules.
    pub fn rules(&self) -> Rules<B> {
        self.start.rules()
    }

    /// The start position, with the side that moves first to move.
    pub fn start(&self) -> Position<B> {
        self.start
    }
}

impl<B: Grid> crate::game::Game<B> {
    /// A new game at the variant's start position.
    ///
    /// ```
    /// use tafl_engine::{Game, Variant};
    /// let game = Game::new(&Variant::brandub());
    /// assert_eq!(game.legal_moves().len(), 40);
    /// ```
    pub fn new(variant: &Variant<B>) -> crate::game::Game<B> {
        crate::game::Game::from_position(variant.start())
    }
}

impl FromStr for Variant {
    type Err = RulesStringError;

    /// Reads an OpenTafl rules string, with OpenTafl's meaning (its defaults for the fields left
    /// out); fields may come in any order. Every field that changes the rules is played or
    /// refused with an error that names it: see docs/rules-strings.md. The field
    /// `classic:y` asks for the classic rules (R1-R18) instead.
    ///
    /// ```
    /// use tafl_engine::{Side, Variant};
    /// let copenhagen: Variant = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y \
    ///     start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
    ///     .parse()?;
    /// assert_eq!(copenhagen, Variant::copenhagen());
    /// assert!("dim:11 ber:m start:/11/11/11/11/11/5K5/11/11/11/11/11/"
    ///     .parse::<Variant>()
    ///     .unwrap_err()
    ///     .to_string()
    ///     .contains("ber"));
    /// # Ok::<(), tafl_engine::RulesStringError>(())
    /// ```
    fn from_str(text: &str) -> Result<Variant, RulesStringError> {
        let (name, start) = rules_string::parse::<Narrow>(text)?;
        Ok(Variant { name, start })
    }
}

impl FromStr for Variant<Wide> {
    type Err = RulesStringError<Wide>;

    /// Reads an OpenTafl rules string for a board of any size up to 19x19, as [`Variant`]'s
    /// reader does (the classic rules, `classic:y`, are the narrow grid's only).
    fn from_str(text: &str) -> Result<Variant<Wide>, RulesStringError<Wide>> {
        let (name, start) = rules_string::parse::<Wide>(text)?;
        Ok(Variant { name, start })
    }
}

/// A game on the board type its board needs: a [`Variant`] (the narrow grid) up to 11x11, a
/// `Variant<Wide>` above. What a program that reads rules from its user (a protocol session, a
/// match runner) holds, to choose the board type once per game (docs/wide-boards.md).
///
/// ```
/// use tafl_engine::{AnyVariant, Variant};
/// let tablut: AnyVariant = Variant::tablut().to_string().parse()?;
/// assert_eq!(tablut, AnyVariant::Narrow(Variant::tablut()));
/// let thirteen: AnyVariant = "dim:13 atkf:y start:/13/13/13/13/13/13/6K6/13/13/13/13/13/13/".parse()?;
/// assert!(matches!(thirteen, AnyVariant::Wide(_)));
/// assert_eq!(thirteen.size(), 13);
/// assert!("dim:21 start:/21/".parse::<AnyVariant>().is_err());
/// # Ok::<(), tafl_engine::RulesStringError<tafl_engine::Wide>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AnyVariant {
    /// A game on a board up to 11x11.
    Narrow(Variant),
    /// A game on a board above 11x11 (up to 19x19).
    Wide(Variant<Wide>),
}

impl AnyVariant {
    /// The built-in game with this name, any case: one of [`Variant::names`], or
    /// `hnefatafl-org-copenhagen-13` ([`Variant::hnefatafl_org_copenhagen_13`]).
    ///
    /// ```
    /// use tafl_engine::AnyVariant;
    /// assert_eq!(AnyVariant::by_name("Tablut").map(|v| v.size()), Some(9));
    /// assert_eq!(AnyVariant::by_name("hnefatafl-org-copenhagen-13").map(|v| v.size()), Some(13));
    /// ```
    pub fn by_name(name: &str) -> Option<AnyVariant> {
        if name.eq_ignore_ascii_case(HNEFATAFL_ORG_13_NAME) {
            return Some(AnyVariant::Wide(
                Variant::<Wide>::hnefatafl_org_copenhagen_13(),
            ));
        }
        Variant::by_name(name).map(AnyVariant::Narrow)
    }

    /// The names [`AnyVariant::by_name`] accepts: [`Variant::names`], then the 13x13 game.
    pub fn names() -> impl Iterator<Item = &'static str> {
        NAMES.iter().copied().chain([HNEFATAFL_ORG_13_NAME])
    }

    /// The name [`AnyVariant::by_name`] knows this game by, or `None` for a game that is none
    /// of [`AnyVariant::names`] ([`Variant::key`] on either grid).
    ///
    /// ```
    /// use tafl_engine::{AnyVariant, Variant, Wide};
    /// let thirteen = AnyVariant::Wide(Variant::<Wide>::hnefatafl_org_copenhagen_13());
    /// assert_eq!(thirteen.key(), Some("hnefatafl-org-copenhagen-13"));
    /// assert_eq!(AnyVariant::Narrow(Variant::brandub()).key(), Some("brandub"));
    /// ```
    pub fn key(&self) -> Option<&'static str> {
        static THIRTEEN: std::sync::OnceLock<Variant<Wide>> = std::sync::OnceLock::new();
        match self {
            AnyVariant::Narrow(variant) => variant.key(),
            AnyVariant::Wide(variant) => (*variant
                == *THIRTEEN.get_or_init(Variant::<Wide>::hnefatafl_org_copenhagen_13))
            .then_some(HNEFATAFL_ORG_13_NAME),
        }
    }

    /// The built-in game ([`AnyVariant::names`]) that this game is, whatever its name and the
    /// spelling of its rules string ([`Variant::built_in`] on either grid).
    ///
    /// ```
    /// use tafl_engine::{AnyVariant, Variant, Wide};
    /// let thirteen = Variant::new("13", Variant::<Wide>::hnefatafl_org_copenhagen_13().start());
    /// assert_eq!(AnyVariant::Wide(thirteen).built_in(), Some("hnefatafl-org-copenhagen-13"));
    /// ```
    pub fn built_in(&self) -> Option<&'static str> {
        match self {
            AnyVariant::Narrow(variant) => variant.built_in(),
            AnyVariant::Wide(variant) => variant
                .is_same_game(&Variant::<Wide>::hnefatafl_org_copenhagen_13())
                .then_some(HNEFATAFL_ORG_13_NAME),
        }
    }

    /// This game as it is played: a built-in game's rules and start under this game's name
    /// ([`Variant::canonical`] on either grid).
    pub fn canonical(&self) -> AnyVariant {
        match self {
            AnyVariant::Narrow(variant) => AnyVariant::Narrow(variant.canonical()),
            AnyVariant::Wide(variant) => match self.built_in() {
                Some(_) => AnyVariant::Wide(Variant::new(
                    &variant.name,
                    Variant::<Wide>::hnefatafl_org_copenhagen_13().start,
                )),
                None => self.clone(),
            },
        }
    }

    /// The game's name.
    pub fn name(&self) -> &str {
        match self {
            AnyVariant::Narrow(variant) => variant.name(),
            AnyVariant::Wide(variant) => variant.name(),
        }
    }

    /// The board's size (5 to 19).
    pub fn size(&self) -> u8 {
        match self {
            AnyVariant::Narrow(variant) => variant.rules().size(),
            AnyVariant::Wide(variant) => variant.rules().size(),
        }
    }
}

impl From<Variant> for AnyVariant {
    fn from(variant: Variant) -> AnyVariant {
        AnyVariant::Narrow(variant)
    }
}

impl From<Variant<Wide>> for AnyVariant {
    fn from(variant: Variant<Wide>) -> AnyVariant {
        AnyVariant::Wide(variant)
    }
}

impl FromStr for AnyVariant {
    type Err = RulesStringError<Wide>;

    /// Reads an OpenTafl rules string of any size from 5x5 to 19x19: a narrow [`Variant`] up to
    /// 11x11 (the classic rules, `classic:y`, included), a `Variant<Wide>` above.
    fn from_str(text: &str) -> Result<AnyVariant, RulesStringError<Wide>> {
        match text.parse::<Variant>() {
            Ok(variant) => Ok(AnyVariant::Narrow(variant)),
            Err(RulesStringError::Size(RulesError::UnsupportedSize(size)))
                if size > Narrow::MAX_SIZE =>
            {
                text.parse::<Variant<Wide>>().map(AnyVariant::Wide)
            }
            Err(error) => Err(error.for_grid()),
        }
    }
}

impl fmt::Display for AnyVariant {
    /// The game's rules string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyVariant::Narrow(variant) => variant.fmt(f),
            AnyVariant::Wide(variant) => variant.fmt(f),
        }
    }
}

impl<B: Grid> fmt::Display for Variant<B> {
    /// The game's rules string: what OpenTafl needs to play it, and what [`FromStr`] reads back
    /// to the same game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        rules_string::write(f, &self.name, &self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Side;
    use crate::rules::custom::Dialect;
    use crate::rules::{Escape, RepetitionRule, RuleFlags};

    /// The strings of docs/rules-strings.md for this project's two games, which OpenTafl reads with its
    /// own end-of-game rules.
    const TABLUT: &str = "dim:9 name:Tablut esc:e surf:n atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:n start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    const TAWLBWRDD: &str = "dim:11 name:Tawlbwrdd esc:e surf:n atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:n start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";

    #[test]
    fn the_classic_field_gives_the_built_in_games() {
        assert_eq!(
            format!("{TABLUT} classic:y").parse::<Variant>().unwrap(),
            Variant::tablut()
        );
        assert_eq!(
            format!("classic:y {TAWLBWRDD}").parse::<Variant>().unwrap(),
            Variant::tawlbwrdd()
        );
    }

    #[test]
    fn without_it_the_same_strings_mean_what_opentafl_plays() {
        // The same board rules, so the same perft; OpenTafl's end of game: threefold repetition.
        for (text, classic) in [
            (TABLUT, Variant::tablut()),
            (TAWLBWRDD, Variant::tawlbwrdd()),
        ] {
            let read: Variant = text.parse().unwrap();
            assert!(!read.rules().is_classic(), "{text}");
            assert_eq!(
                read.rules().repetition(),
                RepetitionRule::ThirdOccurrenceDraws
            );
            for depth in 1..=3 {
                assert_eq!(
                    crate::perft::perft(&read.start(), depth),
                    crate::perft::perft(&classic.start(), depth),
                    "{text} depth {depth}"
                );
            }
        }
    }

    #[test]
    fn every_named_game_reads_and_prints_back() {
        for name in Variant::names() {
            let variant = Variant::by_name(name).unwrap();
            let text = variant.to_string();
            assert_eq!(text.parse::<Variant>().unwrap(), variant, "{name}: {text}");
        }
        for (name, text) in OPENTAFL_GAMES {
            let variant = Variant::by_name(name).unwrap();
            assert_eq!(text.parse::<Variant>().unwrap(), variant, "{name}");
            assert!(!variant.rules().is_classic());
        }
        assert_eq!(Variant::fetlar().rules().escape(), Escape::Corner);
        assert_eq!(
            Variant::sea_battle().rules().throne(),
            crate::Bitboard::EMPTY
        );
        assert_eq!(Variant::by_name("COPENHAGEN"), Some(Variant::copenhagen()));
        assert_eq!(Variant::by_name("berserk"), None);
    }

    /// `text` with the field `key` set to `value` (added when it is not there).
    fn with_field(text: &str, key: &str, value: &str) -> String {
        let mut words: Vec<String> = text
            .split(' ')
            .filter(|word| word.split_once(':').map(|(k, _)| k) != Some(key))
            .map(String::from)
            .collect();
        words.insert(1, format!("{key}:{value}"));
        words.join(" ")
    }

    /// `text`'s value of the field `key`, if it is given.
    fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
        text.split(' ')
            .find_map(|word| word.strip_prefix(key)?.strip_prefix(':'))
    }

    #[test]
    fn every_built_in_is_recognised_however_its_string_is_spelt() {
        for name in Variant::names() {
            let variant = Variant::by_name(name).unwrap();
            let text = variant.to_string();
            let mut spellings = vec![
                text.clone(),
                with_field(&text, "name", "Another_name_for_it"),
            ];
            if !text.contains("ashton:y") && !text.contains("hnefatafl-org:y") {
                // Jumps of pieces that cannot be on the board change nothing.
                spellings.push(with_field(&text, "nj", "j"));
            }
            let mut reversed: Vec<&str> = text.split(' ').collect();
            reversed.reverse();
            spellings.push(reversed.join(" "));
            if !variant.rules().is_classic()
                && variant.rules().custom().is_some_and(|set| {
                    set.spec.dialect == Dialect::OpenTafl && set.spec.camps.is_empty()
                })
            {
                // Letters of pieces that cannot be on the board, and the lists of squares the
                // board does not have, change nothing either.
                let passable = field(&text, "cenp").unwrap_or("tcnkmTCNKM");
                spellings.push(with_field(&text, "cenp", &format!("{passable}gG")));
                if variant.rules().corners().is_empty() {
                    spellings.push(with_field(&text, "cors", "tT"));
                }
            }
            for spelling in spellings {
                let read: Variant = spelling.parse().expect(&spelling);
                assert_eq!(read.built_in(), Some(*name), "{spelling}");
                let played = read.canonical();
                assert_eq!(played.rules(), variant.rules(), "{spelling}");
                assert_eq!(played.start(), variant.start(), "{spelling}");
                assert_eq!(played.name(), read.name());
                assert_eq!(
                    crate::perft::perft(&read.start(), 2),
                    crate::perft::perft(&variant.start(), 2),
                    "{spelling}"
                );
            }
        }
    }

    #[test]
    fn a_string_that_differs_in_one_rule_that_changes_play_is_not_the_built_in() {
        for name in Variant::names() {
            let variant = Variant::by_name(name).unwrap();
            let rules = variant.rules();
            let text = variant.to_string();
            let flip = |key: &str, default: &str| match field(&text, key).unwrap_or(default) {
                "y" => "n",
                _ => "y",
            };
            let mut changes: Vec<(&str, String)> = vec![
                ("atkf", flip("atkf", "y").to_string()),
                ("surf", flip("surf", "y").to_string()),
                (
                    "esc",
                    if rules.escape() == Escape::Edge {
                        "c"
                    } else {
                        "e"
                    }
                    .to_string(),
                ),
                (
                    "ka",
                    if field(&text, "ka") == Some("n") {
                        "y"
                    } else {
                        "n"
                    }
                    .to_string(),
                ),
                (
                    "ks",
                    if field(&text, "ks") == Some("w") {
                        "m"
                    } else {
                        "w"
                    }
                    .to_string(),
                ),
                (
                    "sw",
                    if field(&text, "sw").is_some() {
                        "n"
                    } else {
                        "w"
                    }
                    .to_string(),
                ),
                ("spd", "1".to_string()),
            ];
            for tfr in ["d", "w", "l", "a", "n"] {
                changes.push(("tfr", tfr.to_string()));
            }
            if field(&text, "sw").is_some() {
                changes.push(("sw-published", flip("sw-published", "n").to_string()));
            }
            if rules.escape() == Escape::Corner {
                changes.push(("efe", flip("efe", "n").to_string()));
            }
            if rules.throne().any() {
                changes.push(("linc", flip("linc", "n").to_string()));
                changes.push(("cens", "tTK".to_string()));
            }
            if rules.corners().any() {
                changes.push(("cors", "tTK".to_string()));
            }
            let start = field(&text, "start").unwrap();
            let other_start = start.replacen('t', "T", 1);
            changes.push(("start", other_start));
            // Changes read as a game (others are refused: the engine's own rules take no
            // fields), each of which must be another game.
            let mut read_as_games = 0;
            for (key, value) in changes {
                let changed = with_field(&text, key, &value);
                if let Ok(read) = changed.parse::<Variant>() {
                    if read.start() == variant.start() {
                        continue; // The value the string meant already: no change.
                    }
                    read_as_games += 1;
                    assert_ne!(read.built_in(), Some(*name), "{changed}");
                }
            }
            assert!(read_as_games >= 2, "{name}: {read_as_games}");
        }
    }

    #[test]
    fn opentafl_reading_of_the_classic_strings_is_no_built_in() {
        // RULES.md's strings without `classic:y`: the same board rules as `tablut` and
        // `tawlbwrdd`, but a threefold repetition draws (not R16) and a side without moves loses
        // (not R17); and not OpenTafl's own Tablut (Linnaean capture, encircling wins).
        for text in [TABLUT, TAWLBWRDD] {
            let read: Variant = text.parse().unwrap();
            assert_eq!(read.built_in(), None, "{text}");
            assert_eq!(read.canonical(), read);
            let classic: Variant = format!("{text} classic:y").parse().unwrap();
            assert!(classic.built_in().is_some(), "{text}");
        }
        let nearest = TABLUT
            .replace("surf:n", "surf:y")
            .replace("linc:n", "linc:y");
        assert_eq!(
            nearest.parse::<Variant>().unwrap().built_in(),
            Some("opentafl-tablut")
        );
    }

    #[test]
    fn field_order_does_not_matter_and_starti_reads_top_down() {
        let mut words: Vec<&str> = TAWLBWRDD.split(' ').collect();
        words.reverse();
        assert_eq!(
            words.join(" ").parse::<Variant>().unwrap(),
            TAWLBWRDD.parse::<Variant>().unwrap()
        );

        // An asymmetric start: one attacker on a1, the king on c3 (5x5, rank 1 first).
        let bottom_up = "dim:5 esc:e surf:n ks:c cor: cens: start:/t4/5/2K2/5/5/";
        let top_down = "dim:5 esc:e surf:n ks:c cor: cens: starti:/5/5/2K2/5/t4/";
        let a: Variant = bottom_up.parse().unwrap();
        let b: Variant = top_down.parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(
            a.start().piece_at("a1".parse().unwrap()),
            Some(crate::Piece::Attacker)
        );
    }

    #[test]
    fn printed_strings_read_back_to_the_same_game() {
        let odd = "dim:7 atkf:n ka:h esc:e surf:n ks:c cor: cens: cenh: cenhe:TK tfr:d classic:y start:/t6/7/7/3K3/7/7/6T/";
        let variant: Variant = odd.parse().unwrap();
        assert_eq!(variant.start().side_to_move(), Side::Defenders);
        assert_eq!(
            variant.rules().flags(),
            RuleFlags::KING_HAMMER | RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS
        );
        assert_eq!(
            variant.rules().repetition(),
            RepetitionRule::ThirdOccurrenceDraws
        );
        assert_eq!(variant.to_string().parse::<Variant>().unwrap(), variant);
        // Custom rules with every kind of field away from its default.
        let custom = "dim:9 name:Odd_one esc:e surf:n atkf:n tfr:l ka:a ks:m sw:w swf:n efe:y linc:y \
            spd:2,3,3,3,3,3,2,3,3,1,3,3 cor:a1,i9, cen:e5,e4, afor:a5,b5, dfor:h5, cenp:tK cens:T \
            cenh:T cenhe:t cenre:K corre:t aforp:T dforh:tT start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        let variant: Variant = custom.parse().unwrap();
        let printed = variant.to_string();
        assert_eq!(printed.parse::<Variant>().unwrap(), variant, "{printed}");
        assert_eq!(variant.name(), "Odd one");
    }

    #[test]
    fn unplayable_or_malformed_rules_are_refused_naming_the_field() {
        let cases = [
            ("dim:9", "dim:13", "dim"),
            ("dim:9", "dim:10", "dim"),
            ("linc:n", "linc:n ber:m", "ber"),
            ("linc:n", "linc:n kj:j", "kj"),
            ("linc:n", "linc:n frobnicate:y", "frobnicate"),
            ("linc:n", "linc:n linc:n", "linc"),
            ("linc:n", "linc:x", "linc"),
            ("start:/3ttt3/", "start:/3ttt2/", "start"),
            ("cor:", "cor:a1,z9", "cor"),
            ("cor:", "cor:e5", "cor"),
            ("cenp:tcnkTCNK", "cenp:tq", "cenp"),
            ("linc:n", "linc:n spd:1,2,3", "spd"),
            ("linc:n", "linc:n tfr:q", "tfr"),
            ("linc:n", "linc:n classic:y esc:c", "esc"),
            ("linc:n", "linc:n classic:y sw:s", "sw"),
            ("cenh: ", "cenh:T classic:y ", "cenh"),
            ("linc:n", "", "start"),
        ];
        for (from, to, field) in cases {
            assert!(TABLUT.contains(from), "{from}");
            let text = if to.is_empty() {
                TABLUT
                    .split(" start:")
                    .next()
                    .unwrap_or_default()
                    .to_string()
            } else {
                TABLUT.replacen(from, to, 1)
            };
            let error = text.parse::<Variant>().expect_err(&text).to_string();
            assert!(error.contains(field), "{text}\n -> {error}");
        }
    }
}
