//! OpenTafl rules strings in and out: `dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:...`.
//!
//! A string means what OpenTafl's own reader makes of it: a field left out takes OpenTafl's
//! default. Every field that changes the rules is played or refused with an error naming it; the
//! meaning of each is in docs/rules-strings.md. One field is this engine's own:
//! `classic:y` asks for the classic rules of docs/rules.md (R1-R18), which OpenTafl's fields
//! alone cannot say (a first repetition draws, R16; no move is a draw, R17); the classic games
//! print it, so that their strings read back to the same games. Another is `ashton:y`: the
//! Ashton Tablut rules of the Tablut Challenge (C12-C14), which have camps that OpenTafl's fields
//! cannot describe; another `hnefatafl-org:y`, the rules of hnefatafl.org's server (H1-H12).
//! The value `tfr:a` (the third occurrence wins for the attackers) is this engine's too.

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::board::{Narrow, Wide};
use crate::notation::{self, RecordError};
use crate::piece::Side;
use crate::play::Grid;
use crate::position::Position;
use crate::rules::ashton;
use crate::rules::custom::{
    Dialect, KindRules, Letters, RuleSpec, SquareKind, SquareSet, WallSearch,
};
use crate::rules::{
    Escape, KingStrength, RepetitionRule, RuleFlags, Rules, RulesError, Shieldwall,
};
use crate::square::Square;

/// Why an OpenTafl rules string was refused. Each error names the field.
///
/// `B` is the board type the string was read for ([`Narrow`] unless it is read as a
/// `Variant<Wide>`): that of the squares a [`RulesStringError::Start`] error names.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesStringError<B: Grid = Narrow> {
    /// A word that is not `key:value`.
    #[error("'{0}' is not a key:value field")]
    NotAField(String),
    /// A field given twice.
    #[error("field '{0}' is given twice")]
    Duplicate(String),
    /// A field this engine does not know.
    #[error("unknown field '{0}'")]
    UnknownField(String),
    /// A required field is missing (or its OpenTafl default is a rule this engine does not play).
    #[error("field '{field}' is missing: {why}")]
    Missing {
        /// The field.
        field: &'static str,
        /// Why it is needed.
        why: &'static str,
    },
    /// A value that the field does not take.
    #[error("field '{field}': '{value}' is not valid; expected {expected}")]
    BadValue {
        /// The field.
        field: String,
        /// The value given.
        value: String,
        /// What the field takes.
        expected: &'static str,
    },
    /// A rule that this engine does not play.
    #[error("field '{field}:{value}' asks for {rule}, which this engine does not play")]
    Unsupported {
        /// The field.
        field: String,
        /// The value given.
        value: String,
        /// The rule it asks for.
        rule: &'static str,
    },
    /// The board size cannot be played.
    #[error("field 'dim': {0}")]
    Size(#[from] RulesError),
    /// The start position is malformed.
    #[error("field '{field}': {error}")]
    Start {
        /// `start` or `starti`.
        field: &'static str,
        /// What is wrong with it.
        error: RecordError<B>,
    },
}

impl RulesStringError {
    /// The same error for a string read for the grid `B`. The fields' checks are made once, on
    /// the narrow grid's type: they name no square of the board, so nothing changes but the
    /// type (a start position's error names squares, but is made for `B` itself).
    pub(crate) fn for_grid<B: Grid>(self) -> RulesStringError<B> {
        match self {
            RulesStringError::NotAField(text) => RulesStringError::NotAField(text),
            RulesStringError::Duplicate(key) => RulesStringError::Duplicate(key),
            RulesStringError::UnknownField(key) => RulesStringError::UnknownField(key),
            RulesStringError::Missing { field, why } => RulesStringError::Missing { field, why },
            RulesStringError::BadValue {
                field,
                value,
                expected,
            } => RulesStringError::BadValue {
                field,
                value,
                expected,
            },
            RulesStringError::Unsupported { field, value, rule } => {
                RulesStringError::Unsupported { field, value, rule }
            }
            RulesStringError::Size(error) => RulesStringError::Size(error),
            RulesStringError::Start { field, error } => RulesStringError::Start {
                field,
                error: error.for_grid(),
            },
        }
    }
}

/// Every field of an OpenTafl rules string that this engine reads, and its own `classic`,
/// `ashton`, `hnefatafl-org` and `sw-published`.
const KNOWN_FIELDS: [&str; 46] = [
    "dim",
    "name",
    "esc",
    "surf",
    "atkf",
    "tfr",
    "ka",
    "ks",
    "kj",
    "nj",
    "cj",
    "mj",
    "gj",
    "sw",
    "swf",
    "efe",
    "linc",
    "ber",
    "spd",
    "cor",
    "cen",
    "afor",
    "dfor",
    "corp",
    "cenp",
    "aforp",
    "dforp",
    "cors",
    "cens",
    "afors",
    "dfors",
    "corh",
    "cenh",
    "cenhe",
    "aforh",
    "dforh",
    "corre",
    "cenre",
    "aforre",
    "dforre",
    "start",
    "starti",
    "classic",
    "ashton",
    "hnefatafl-org",
    "sw-published",
];

/// The fields of a string, in order, once each.
struct Fields(Vec<(String, String)>);

impl Fields {
    /// Splits `text` into `key:value` fields; a word without a colon continues the name.
    fn read(text: &str) -> Result<Fields, RulesStringError> {
        let mut fields: Vec<(String, String)> = Vec::new();
        for word in text.split_whitespace() {
            match word.split_once(':') {
                Some((key, value)) => {
                    // Unknown keys are refused here, so `fields` never holds more than the known
                    // fields and the duplicate check stays cheap whatever the input's length.
                    if !KNOWN_FIELDS.contains(&key) {
                        return Err(RulesStringError::UnknownField(key.to_string()));
                    }
                    if fields.iter().any(|(k, _)| k == key) {
                        return Err(RulesStringError::Duplicate(key.to_string()));
                    }
                    fields.push((key.to_string(), value.to_string()));
                }
                None => match fields.last_mut() {
                    Some((key, value)) if key == "name" => {
                        value.push(' ');
                        value.push_str(word);
                    }
                    _ => return Err(RulesStringError::NotAField(word.to_string())),
                },
            }
        }
        if fields.iter().any(|(k, _)| k == "start") && fields.iter().any(|(k, _)| k == "starti") {
            return Err(RulesStringError::Duplicate("start/starti".to_string()));
        }
        Ok(Fields(fields))
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn unsupported(field: &str, value: &str, rule: &'static str) -> RulesStringError {
    RulesStringError::Unsupported {
        field: field.to_string(),
        value: value.to_string(),
        rule,
    }
}

fn bad_value(field: &str, value: &str, expected: &'static str) -> RulesStringError {
    RulesStringError::BadValue {
        field: field.to_string(),
        value: value.to_string(),
        expected,
    }
}

/// The piece letters of a list field.
fn letters(field: &str, value: &str) -> Result<Letters, RulesStringError> {
    Letters::parse(value).map_err(|bad| {
        bad_value(
            field,
            value,
            if bad.is_ascii() {
                "piece letters from tcnkmgTCNKMG"
            } else {
                "ASCII piece letters from tcnkmgTCNKMG"
            },
        )
    })
}

/// A `y`/`n` field.
fn yes_no(field: &str, value: &str) -> Result<bool, RulesStringError> {
    match value {
        "y" => Ok(true),
        "n" => Ok(false),
        _ => Err(bad_value(field, value, "y or n")),
    }
}

/// The board's size (`dim`), checked to be one the engine plays before any other field is read
/// for it (a board of 1 or 2 squares would otherwise be refused for its corners meeting its
/// throne, not for its size).
fn size_of<B: Grid>(fields: &Fields) -> Result<u8, RulesStringError> {
    let text = fields.get("dim").ok_or(RulesStringError::Missing {
        field: "dim",
        why: "the board size is required",
    })?;
    let size = text
        .parse()
        .map_err(|_| bad_value("dim", text, "a board size such as 9 or 11"))?;
    if size < 5 || size > B::MAX_SIZE || size % 2 == 0 {
        return Err(RulesError::UnsupportedSize(size).into());
    }
    Ok(size)
}

/// The start position's pieces (`start`, rank 1 first, or `starti`, top rank first), checked to
/// be `size` wide.
fn start_of<B: Grid>(
    fields: &Fields,
    rules: Rules<B>,
    side: Side,
) -> Result<Position<B>, RulesStringError<B>> {
    let (field, record) = match (fields.get("start"), fields.get("starti")) {
        (Some(record), _) => ("start", record),
        (None, Some(record)) => ("starti", record),
        (None, None) => {
            return Err(RulesStringError::Missing {
                field: "start",
                why: "the start position (start: or starti:) is required",
            });
        }
    };
    let to_error = |error: RecordError<B>| RulesStringError::Start { field, error };
    let pieces =
        notation::parse_record_pieces(record, field == "starti", rules.size()).map_err(to_error)?;
    Position::from_pieces(rules, side, pieces).map_err(|error| to_error(RecordError::Setup(error)))
}

/// Who moves first (`atkf`, attackers by default).
fn first_side(fields: &Fields) -> Result<Side, RulesStringError> {
    Ok(match fields.get("atkf") {
        None => Side::Attackers,
        Some(value) => {
            if yes_no("atkf", value)? {
                Side::Attackers
            } else {
                Side::Defenders
            }
        }
    })
}

/// Reads a rules string: the game's name and its start position (whose rules are the string's),
/// on the grid `B` (boards up to 11x11 on the narrow grid, up to 19x19 on the wide one).
pub(crate) fn parse<B: Grid>(text: &str) -> Result<(String, Position<B>), RulesStringError<B>> {
    let fields = Fields::read(text).map_err(RulesStringError::for_grid)?;
    let name = fields.get("name").unwrap_or("").replace('_', " ");
    let rules = rules_of::<B>(&fields).map_err(RulesStringError::for_grid)?;
    let side = first_side(&fields).map_err(RulesStringError::for_grid)?;
    let start = start_of(&fields, rules, side)?;
    Ok((name, start))
}

/// The rules of a string's fields, on the grid `B`.
fn rules_of<B: Grid>(fields: &Fields) -> Result<Rules<B>, RulesStringError> {
    let size = size_of::<B>(fields)?;
    let classic = match fields.get("classic") {
        None => false,
        Some(value) => yes_no("classic", value)?,
    };
    let ashton = match fields.get("ashton") {
        None => false,
        Some(value) => yes_no("ashton", value)?,
    };
    let hnefatafl_org = match fields.get("hnefatafl-org") {
        None => false,
        Some(value) => yes_no("hnefatafl-org", value)?,
    };
    let own_rules = [classic, ashton, hnefatafl_org];
    if own_rules.iter().filter(|&&asked| asked).count() > 1 {
        return Err(unsupported(
            "classic",
            "y",
            "two of the classic, Ashton and hnefatafl.org rules at once",
        ));
    }
    let narrow = if ashton {
        ashton_rules(fields, size)?
    } else if hnefatafl_org {
        return Ok(Rules::from_spec(hnefatafl_org_spec(fields, size)?)?);
    } else if classic {
        classic_rules(fields, size)?
    } else {
        return Ok(Rules::from_spec(custom_spec(fields, size)?)?);
    };
    // The engine's own rules are played on the narrow grid only (the classic rules' code is
    // the narrow grid's); their boards fit it.
    if narrow.is_classic() && B::MAX_SIZE > Narrow::MAX_SIZE {
        return Err(unsupported(
            "classic",
            "y",
            "the classic rules on the wide grid (read the string as a Variant, not Variant<Wide>)",
        ));
    }
    Ok(narrow.on::<B>()?)
}

/// The rules of a string with `ashton:y` (C12-C14): a 9x9 board, and no field that would change
/// the rules (only the name, who moves first and the start position may be given).
fn ashton_rules(fields: &Fields, size: u8) -> Result<Rules, RulesStringError> {
    if size != 9 {
        return Err(bad_value("dim", &size.to_string(), "9 with ashton:y"));
    }
    for (key, value) in &fields.0 {
        if !matches!(
            key.as_str(),
            "dim" | "name" | "atkf" | "ashton" | "start" | "starti"
        ) {
            return Err(unsupported(key, value, "a change to the Ashton rules"));
        }
    }
    Ok(Rules::from_spec(ashton::spec())?)
}

/// The rules of a string with `hnefatafl-org:y` (H1-H12): a 7x7, 11x11 or 13x13 board (13x13 on
/// the wide grid), and no field that would change the rules (only the name, who moves first
/// and the start position may be given).
fn hnefatafl_org_spec(fields: &Fields, size: u8) -> Result<RuleSpec, RulesStringError> {
    for (key, value) in &fields.0 {
        if !matches!(
            key.as_str(),
            "dim" | "name" | "atkf" | "hnefatafl-org" | "start" | "starti"
        ) {
            return Err(unsupported(key, value, "a change to hnefatafl.org's rules"));
        }
    }
    crate::rules::hnefatafl_org::spec(size)
        .ok_or_else(|| bad_value("dim", &size.to_string(), "7, 11 or 13 with hnefatafl-org:y"))
}

/// The fields of a string for the classic rules (with `classic:y`): they must describe R1-R18,
/// except for the flags and the repetition rule that [`Rules::new`] takes.
fn classic_rules(fields: &Fields, size: u8) -> Result<Rules, RulesStringError> {
    let mut flags = RuleFlags::empty();
    let mut repetition = RepetitionRule::SecondOccurrenceDraws;
    for (key, value) in &fields.0 {
        let (key, value) = (key.as_str(), value.as_str());
        match key {
            "dim" | "name" | "atkf" | "classic" | "start" | "starti" | "ka" => {}
            "esc" => match value {
                "e" => {}
                "c" => {
                    return Err(unsupported(
                        key,
                        value,
                        "corner escape in the classic rules",
                    ));
                }
                _ => return Err(bad_value(key, value, "e (edge) or c (corner)")),
            },
            "surf" | "linc" | "efe" => {
                if yes_no(key, value)? {
                    return Err(unsupported(
                        key,
                        value,
                        "a rule the classic rules do not have",
                    ));
                }
            }
            "sw" => {
                if value != "n" {
                    return Err(unsupported(key, value, "shieldwalls in the classic rules"));
                }
            }
            "ks" => {
                if value != "c" {
                    return Err(unsupported(
                        key,
                        value,
                        "a king strength other than 'strong at the castle' (R13)",
                    ));
                }
            }
            "kj" | "ber" => {
                if value != "n" {
                    return Err(unsupported(key, value, "jumps or berserk moves"));
                }
            }
            "nj" | "cj" | "mj" | "gj" | "swf" => {}
            // Changes nothing without shieldwalls.
            "sw-published" => {
                yes_no(key, value)?;
            }
            "cor" | "afor" | "dfor" => {
                if !value.is_empty() {
                    return Err(unsupported(
                        key,
                        value,
                        "corners or forts in the classic rules",
                    ));
                }
            }
            "cen" => {
                let centre = Square::new(size / 2, size / 2);
                let listed: Vec<&str> = value.split(',').filter(|s| !s.is_empty()).collect();
                let is_centre = listed.len() == 1 && listed[0].parse::<Square>().ok() == centre;
                if !is_centre {
                    return Err(unsupported(
                        key,
                        value,
                        "a castle other than the single centre square (R1)",
                    ));
                }
            }
            "cenp" => {
                let set = letters(key, value)?;
                if !(set.has('t') && set.has('T') && set.has('K')) {
                    return Err(unsupported(
                        key,
                        value,
                        "pieces that may not pass the castle (R7 lets every piece pass)",
                    ));
                }
            }
            "cens" => {
                let set = letters(key, value)?;
                if set.has('t') || set.has('T') || set.has('K') {
                    return Err(unsupported(
                        key,
                        value,
                        "pieces that may stop on the castle (R6 forbids it)",
                    ));
                }
            }
            "cenhe" => {
                let set = letters(key, value)?;
                if !set.has('K') {
                    return Err(unsupported(
                        key,
                        value,
                        "a castle that does not close the king in (R13 counts it as a wall)",
                    ));
                }
                flags.set(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS, set.has('t'));
                flags.set(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS, set.has('T'));
            }
            "tfr" => {
                repetition = match value {
                    "n" | "i" => RepetitionRule::Ignored,
                    "d" => RepetitionRule::ThirdOccurrenceDraws,
                    "w" | "l" => {
                        return Err(unsupported(key, value, "a repetition that wins or loses"));
                    }
                    _ => return Err(bad_value(key, value, "n or d")),
                }
            }
            "spd" => {
                if value != "-1" {
                    return Err(unsupported(key, value, "speed limits in the classic rules"));
                }
            }
            _ => {
                // Other letter lists: checked, but the classic rules have no such squares.
                letters(key, value)?;
                if key == "cenh" {
                    let set = letters(key, value)?;
                    if set.has('T') {
                        return Err(unsupported(
                            key,
                            value,
                            "an occupied castle that is hostile by itself (R10)",
                        ));
                    }
                } else if key.starts_with("cen") {
                    return Err(unsupported(key, value, "castle re-entry rules"));
                }
            }
        }
    }
    if fields.get("cenhe").is_none() {
        flags |= RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS
            | RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS;
    }
    let ka = fields.get("ka").unwrap_or("y");
    match ka {
        "y" => flags |= RuleFlags::KING_HAMMER | RuleFlags::KING_ANVIL,
        "n" => {}
        "h" => flags |= RuleFlags::KING_HAMMER,
        "a" => flags |= RuleFlags::KING_ANVIL,
        _ => {
            return Err(bad_value(
                "ka",
                ka,
                "y, n, h (hammer only) or a (anvil only)",
            ));
        }
    }
    let cenh = letters("cenh", fields.get("cenh").unwrap_or("tcnk"))?;
    if cenh.has('t') && !flags.contains(RuleFlags::KING_ANVIL) {
        return Err(unsupported(
            "cenh",
            &cenh.to_text(),
            "an occupied castle that is hostile by itself (R10)",
        ));
    }
    Ok(Rules::new(size, flags, repetition)?)
}

/// OpenTafl's default letters for each kind of special square, in [`SquareKind`] order.
fn default_kinds() -> [KindRules; 4] {
    let all = Letters::parse("tcnkmTCNKM").unwrap_or(Letters::ALL);
    let king = Letters::parse("K").unwrap_or(Letters::NONE);
    let attackers = Letters::parse("tcnkm").unwrap_or(Letters::NONE);
    let defenders = Letters::parse("TCNKM").unwrap_or(Letters::NONE);
    [
        // Throne: everyone passes, only the king stops; hostile to attackers while occupied, to
        // everyone while empty.
        KindRules {
            passable: all,
            stoppable: king,
            hostile: attackers,
            hostile_empty: all,
            reenterable: all,
        },
        // Corners: only the king passes or stops; hostile to everyone.
        KindRules {
            passable: king,
            stoppable: king,
            hostile: all,
            hostile_empty: all,
            reenterable: all,
        },
        // Attackers' forts: everyone passes and stops; hostile to defenders.
        KindRules {
            passable: all,
            stoppable: all,
            hostile: defenders,
            hostile_empty: defenders,
            reenterable: all,
        },
        // Defenders' forts: everyone passes, defenders stop; hostile to attackers.
        KindRules {
            passable: all,
            stoppable: defenders,
            hostile: attackers,
            hostile_empty: attackers,
            reenterable: all,
        },
    ]
}

/// The squares of a coordinate list (`a1,a9,`), each on the board.
fn squares_of(field: &str, value: &str, size: u8) -> Result<SquareSet, RulesStringError> {
    let mut set = SquareSet::EMPTY;
    for name in value.split(',').filter(|name| !name.is_empty()) {
        match name.parse::<Square<Wide>>() {
            Ok(square) if square.is_on_board(size) => set |= square,
            _ => {
                return Err(bad_value(
                    field,
                    value,
                    "a comma-separated list of squares on the board, such as a1,a9,",
                ));
            }
        }
    }
    Ok(set)
}

/// The speed limits of `spd`, by letter, as OpenTafl reads them: one number for every piece, two
/// (which OpenTafl reads as no limits at all), eight (t c n k, then T C N K), ten (no limits, as
/// OpenTafl reads them) or twelve (every letter in order); a limit below 1 is no limit.
fn speeds_of(value: &str) -> Result<[i8; 12], RulesStringError> {
    let expected = "1, 2, 8, 10 or 12 comma-separated whole numbers (-1 for no limit)";
    // Like OpenTafl, a trailing comma ends the list.
    let numbers: Result<Vec<i8>, _> = value
        .trim_end_matches(',')
        .split(',')
        .map(str::parse::<i8>)
        .collect();
    let numbers = numbers.map_err(|_| bad_value("spd", value, expected))?;
    let mut speeds = [-1i8; 12];
    match numbers.len() {
        1 => speeds = [numbers[0]; 12],
        2 | 10 => {}
        8 => {
            speeds[..4].copy_from_slice(&numbers[..4]);
            speeds[6..10].copy_from_slice(&numbers[4..]);
        }
        12 => speeds.copy_from_slice(&numbers),
        _ => return Err(bad_value("spd", value, expected)),
    }
    Ok(speeds.map(|speed| if speed < 1 { -1 } else { speed }))
}

/// The custom rules a string describes, OpenTafl's defaults for the fields it leaves out.
fn custom_spec(fields: &Fields, size: u8) -> Result<RuleSpec, RulesStringError> {
    let mut spec = RuleSpec {
        size,
        escape: Escape::Corner,
        surrounding_fatal: true,
        repetition: RepetitionRule::ThirdOccurrenceDraws,
        king_hammer: true,
        king_anvil: true,
        king_strength: KingStrength::Strong,
        shieldwall: Shieldwall::None,
        shieldwall_flanking: true,
        shieldwall_search: WallSearch::OpenTafl,
        edge_fort: false,
        linnaean: false,
        speeds: [-1; 12],
        squares: [SquareSet::EMPTY; 4],
        kinds: default_kinds(),
        camps: SquareSet::EMPTY,
        camp_move_limit: 0,
        camp_hostility: [SquareSet::EMPTY; 2],
        opentafl_ends: true,
        dialect: Dialect::OpenTafl,
        move_limit: 0,
    };
    // Berserk first: its string also asks for jumping pieces, but berserk is what it is.
    if let Some(value) = fields.get("ber") {
        match value {
            "n" => {}
            "m" | "c" => return Err(unsupported("ber", value, "berserk moves")),
            _ => return Err(bad_value("ber", value, "n, m or c")),
        }
    }
    let board = SquareSet::board_of(size);
    let middle = size / 2;
    let corner = |x, y| Square::at(x, y).map_or(SquareSet::EMPTY, SquareSet::from_square);
    let last = size.saturating_sub(1);
    spec.squares[SquareKind::Throne as usize] = corner(middle, middle);
    spec.squares[SquareKind::Corner as usize] =
        corner(0, 0) | corner(last, 0) | corner(0, last) | corner(last, last);
    for (key, value) in &fields.0 {
        let (key, value) = (key.as_str(), value.as_str());
        match key {
            "dim" | "name" | "atkf" | "classic" | "start" | "starti" => {}
            "esc" => {
                spec.escape = match value {
                    "e" => Escape::Edge,
                    "c" => Escape::Corner,
                    _ => return Err(bad_value(key, value, "e (edge) or c (corner)")),
                }
            }
            "surf" => spec.surrounding_fatal = yes_no(key, value)?,
            "tfr" => {
                spec.repetition = match value {
                    // OpenTafl reads every value but w and l as a draw.
                    "d" | "i" | "n" => RepetitionRule::ThirdOccurrenceDraws,
                    "w" => RepetitionRule::ThirdOccurrenceLosesForMover,
                    "l" => RepetitionRule::ThirdOccurrenceWinsForMover,
                    // This engine's own: the published Copenhagen rules' repetition.
                    "a" => RepetitionRule::ThirdOccurrenceAttackersWin,
                    _ => return Err(bad_value(key, value, "d, w, l or a")),
                }
            }
            "ka" => {
                (spec.king_hammer, spec.king_anvil) = match value {
                    "y" => (true, true),
                    "h" => (true, false),
                    "a" => (false, true),
                    "n" => (false, false),
                    _ => {
                        return Err(bad_value(
                            key,
                            value,
                            "y, n, h (hammer only) or a (anvil only)",
                        ));
                    }
                }
            }
            "ks" => {
                spec.king_strength = match value {
                    "s" | "y" => KingStrength::Strong,
                    "c" => KingStrength::StrongAtThrone,
                    "m" => KingStrength::Middleweight,
                    "w" | "n" => KingStrength::Weak,
                    _ => return Err(bad_value(key, value, "s, c, m or w")),
                }
            }
            "kj" => match value {
                "n" => {}
                "j" | "c" | "r" => return Err(unsupported(key, value, "a jumping king")),
                _ => return Err(bad_value(key, value, "n, j, c or r")),
            },
            // Jumps of commanders, knights, mercenaries and guards: none of these pieces can be
            // on the board (the start record refuses them), so the values change nothing.
            "nj" | "cj" | "mj" | "gj" => {
                if !matches!(value, "n" | "j" | "c" | "r") {
                    return Err(bad_value(key, value, "n, j, c or r"));
                }
            }
            "sw" => {
                spec.shieldwall = match value {
                    "n" => Shieldwall::None,
                    "w" => Shieldwall::Weak,
                    "s" => Shieldwall::Strong,
                    _ => return Err(bad_value(key, value, "n, w or s")),
                }
            }
            "swf" => spec.shieldwall_flanking = yes_no(key, value)?,
            // This engine's own: shieldwalls as the published Copenhagen rules find them (C8a).
            "sw-published" => {
                spec.shieldwall_search = if yes_no(key, value)? {
                    WallSearch::Published
                } else {
                    WallSearch::OpenTafl
                }
            }
            "efe" => spec.edge_fort = yes_no(key, value)?,
            "linc" => spec.linnaean = yes_no(key, value)?,
            "ber" => match value {
                "n" => {}
                "m" | "c" => return Err(unsupported(key, value, "berserk moves")),
                _ => return Err(bad_value(key, value, "n, m or c")),
            },
            "spd" => spec.speeds = speeds_of(value)?,
            "cor" | "cen" | "afor" | "dfor" => {
                let kind = match key {
                    "cen" => SquareKind::Throne,
                    "cor" => SquareKind::Corner,
                    "afor" => SquareKind::AttackerFort,
                    _ => SquareKind::DefenderFort,
                };
                spec.squares[kind as usize] = squares_of(key, value, size)?;
            }
            _ => {
                let list = letters(key, value)?;
                let (kind, property) = key
                    .strip_prefix("cen")
                    .map(|rest| (SquareKind::Throne, rest))
                    .or_else(|| {
                        key.strip_prefix("cor")
                            .map(|rest| (SquareKind::Corner, rest))
                    })
                    .or_else(|| {
                        key.strip_prefix("afor")
                            .map(|rest| (SquareKind::AttackerFort, rest))
                    })
                    .or_else(|| {
                        key.strip_prefix("dfor")
                            .map(|rest| (SquareKind::DefenderFort, rest))
                    })
                    .ok_or_else(|| RulesStringError::UnknownField(key.to_string()))?;
                let rules = &mut spec.kinds[kind as usize];
                match property {
                    "p" => rules.passable = list,
                    "s" => rules.stoppable = list,
                    "h" => {
                        rules.hostile = list;
                        if kind != SquareKind::Throne {
                            rules.hostile_empty = list;
                        }
                    }
                    "he" => rules.hostile_empty = list,
                    "re" => {}
                    _ => return Err(RulesStringError::UnknownField(key.to_string())),
                }
            }
        }
    }
    // Re-entry, as OpenTafl's reader has it: the corners' and forts' lists are read only when the
    // throne's is given, and then a list left out means nobody.
    if let Some(throne) = fields.get("cenre") {
        spec.kinds[SquareKind::Throne as usize].reenterable = letters("cenre", throne)?;
        for (kind, key) in [
            (SquareKind::Corner, "corre"),
            (SquareKind::AttackerFort, "aforre"),
            (SquareKind::DefenderFort, "dforre"),
        ] {
            spec.kinds[kind as usize].reenterable = match fields.get(key) {
                Some(value) => letters(key, value)?,
                None => Letters::NONE,
            };
        }
    }
    // A square of two kinds would play by whichever OpenTafl happened to set last: refused.
    let mut seen = Bitboard::EMPTY;
    for (kind, key) in [
        (SquareKind::Throne, "cen"),
        (SquareKind::Corner, "cor"),
        (SquareKind::AttackerFort, "afor"),
        (SquareKind::DefenderFort, "dfor"),
    ] {
        let squares = spec.squares[kind as usize] & board;
        if (squares & seen).any() {
            return Err(unsupported(
                key,
                fields.get(key).unwrap_or("(default)"),
                "a square that is two kinds of special square at once",
            ));
        }
        seen |= squares;
    }
    // Without shieldwalls, how they would be found changes nothing: one spec for both strings.
    if spec.shieldwall == Shieldwall::None {
        spec.shieldwall_search = WallSearch::OpenTafl;
    }
    Ok(spec)
}

/// Writes the rules string of a game named `name` starting from `start`.
pub(crate) fn write<B: Grid>(
    out: &mut impl std::fmt::Write,
    name: &str,
    start: &Position<B>,
) -> std::fmt::Result {
    let rules = start.rules();
    write!(out, "dim:{}", rules.size())?;
    if !name.is_empty() {
        write!(out, " name:{}", name.replace(' ', "_"))?;
    }
    let atkf = if start.side_to_move() == Side::Attackers {
        "y"
    } else {
        "n"
    };
    match rules.custom() {
        // The classic rules play on the narrow grid only (`rules_of`).
        None => match B::as_narrow(start) {
            Some(narrow) => write_classic(out, narrow.rules(), atkf)?,
            None => write!(out, " atkf:{atkf}")?,
        },
        Some(set) if set.spec == ashton::spec() => write!(out, " atkf:{atkf} ashton:y")?,
        Some(set) if set.spec.dialect == Dialect::HnefataflOrg => {
            write!(out, " atkf:{atkf} hnefatafl-org:y")?;
        }
        Some(set) => write_custom(out, &set.spec, atkf)?,
    }
    write!(out, " start:{}", notation::position_record(start))
}

/// The fields of the classic rules, ending with `classic:y`.
fn write_classic(out: &mut impl std::fmt::Write, rules: Rules, atkf: &str) -> std::fmt::Result {
    let flags = rules.flags();
    write!(out, " esc:e surf:n atkf:{atkf}")?;
    let ka = match (
        flags.contains(RuleFlags::KING_HAMMER),
        flags.contains(RuleFlags::KING_ANVIL),
    ) {
        (true, true) => None,
        (true, false) => Some("h"),
        (false, true) => Some("a"),
        (false, false) => Some("n"),
    };
    if let Some(ka) = ka {
        write!(out, " ka:{ka}")?;
    }
    let mut cenhe = String::new();
    if flags.contains(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS) {
        cenhe.push_str("tcnk");
    }
    if flags.contains(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS) {
        cenhe.push_str("TCN");
    }
    cenhe.push('K');
    write!(
        out,
        " ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:{cenhe} linc:n"
    )?;
    match rules.repetition() {
        RepetitionRule::ThirdOccurrenceDraws => out.write_str(" tfr:d")?,
        RepetitionRule::Ignored => out.write_str(" tfr:n")?,
        _ => {}
    }
    out.write_str(" classic:y")
}

/// The fields of custom rules that differ from OpenTafl's defaults.
fn write_custom(out: &mut impl std::fmt::Write, spec: &RuleSpec, atkf: &str) -> std::fmt::Result {
    if spec.escape == Escape::Edge {
        out.write_str(" esc:e")?;
    }
    if !spec.surrounding_fatal {
        out.write_str(" surf:n")?;
    }
    write!(out, " atkf:{atkf}")?;
    match spec.repetition {
        RepetitionRule::ThirdOccurrenceLosesForMover => out.write_str(" tfr:w")?,
        RepetitionRule::ThirdOccurrenceWinsForMover => out.write_str(" tfr:l")?,
        RepetitionRule::ThirdOccurrenceAttackersWin => out.write_str(" tfr:a")?,
        _ => {}
    }
    match (spec.king_hammer, spec.king_anvil) {
        (true, true) => {}
        (true, false) => out.write_str(" ka:h")?,
        (false, true) => out.write_str(" ka:a")?,
        (false, false) => out.write_str(" ka:n")?,
    }
    match spec.king_strength {
        KingStrength::Strong => {}
        KingStrength::StrongAtThrone => out.write_str(" ks:c")?,
        KingStrength::Weak => out.write_str(" ks:w")?,
        KingStrength::Middleweight => out.write_str(" ks:m")?,
        // Only hnefatafl.org's Brandubh has it, written as `hnefatafl-org:y` (see `write`).
        KingStrength::StrongOnThrone => {}
    }
    match spec.shieldwall {
        Shieldwall::None => {}
        Shieldwall::Weak => out.write_str(" sw:w")?,
        Shieldwall::Strong => out.write_str(" sw:s")?,
    }
    if !spec.shieldwall_flanking {
        out.write_str(" swf:n")?;
    }
    if spec.shieldwall_search == WallSearch::Published {
        out.write_str(" sw-published:y")?;
    }
    if spec.edge_fort {
        out.write_str(" efe:y")?;
    }
    if spec.linnaean {
        out.write_str(" linc:y")?;
    }
    if spec.speeds != [-1; 12] {
        out.write_str(" spd:")?;
        for speed in spec.speeds {
            write!(out, "{speed},")?;
        }
    }
    let defaults = default_kinds();
    let size = spec.size;
    let middle = size / 2;
    let last = size.saturating_sub(1);
    let at = |x, y| Square::at(x, y).map_or(SquareSet::EMPTY, SquareSet::from_square);
    let default_squares = [
        at(middle, middle),
        at(0, 0) | at(last, 0) | at(0, last) | at(last, last),
        SquareSet::EMPTY,
        SquareSet::EMPTY,
    ];
    let prefixes = ["cen", "cor", "afor", "dfor"];
    for kind in SquareKind::ALL {
        let index = kind as usize;
        if spec.squares[index] != default_squares[index] {
            write!(out, " {}:", prefixes[index])?;
            for square in spec.squares[index] {
                write!(out, "{square},")?;
            }
        }
    }
    let reentry_given = SquareKind::ALL
        .into_iter()
        .any(|kind| spec.kinds[kind as usize].reenterable != defaults[kind as usize].reenterable);
    for kind in SquareKind::ALL {
        let index = kind as usize;
        let (rules, default) = (spec.kinds[index], defaults[index]);
        let prefix = prefixes[index];
        let mut list = |suffix: &str, letters: Letters, default: Letters| {
            if letters != default {
                write!(out, " {prefix}{suffix}:{}", letters.to_text())
            } else {
                Ok(())
            }
        };
        list("p", rules.passable, default.passable)?;
        list("s", rules.stoppable, default.stoppable)?;
        list("h", rules.hostile, default.hostile)?;
        if kind == SquareKind::Throne {
            list("he", rules.hostile_empty, default.hostile_empty)?;
        }
        if reentry_given {
            // All four are written: OpenTafl reads the others only when `cenre` is given.
            write!(out, " {prefix}re:{}", rules.reenterable.to_text())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> String {
        parse::<Narrow>(text).expect_err(text).to_string()
    }

    #[test]
    fn a_board_too_small_is_refused_for_its_size_not_its_squares() {
        for size in [1, 2, 3, 4] {
            let message = refusal(&format!("dim:{size} name:x"));
            assert_eq!(
                message,
                format!(
                    "field 'dim': board size {size} is not supported: it must be odd (the castle \
                     is the centre square) and from 5 to 11 (to 19 read as a Variant<Wide>)"
                )
            );
        }
        assert!(refusal("dim:1 start:/k/").starts_with("field 'dim': board size 1"));
    }

    #[test]
    fn a_start_of_the_wrong_shape_names_rows_or_squares_as_they_are() {
        let nine_by_ten = format!("dim:9 start:{}/", "/9".repeat(10));
        assert_eq!(
            refusal(&nine_by_ten),
            "field 'start': the record has 10 rows; the rules play on 9x9"
        );
        let ones = format!("dim:9 starti:/{}{}/", "1".repeat(65_000), "/9".repeat(8));
        assert_eq!(
            refusal(&ones),
            "field 'starti': row 1 has more than 9 squares; the board is 9 wide"
        );
        let one_row = format!("dim:9 start:/{}/", "1".repeat(65_000));
        assert_eq!(
            refusal(&one_row),
            "field 'start': the record has 1 row; the rules play on 9x9"
        );
    }
}
