//! A game: its name, rules and start position; the two games of RULES.md; OpenTafl rules strings
//! in and out.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::notation::{self, RecordError};
use crate::piece::Side;
use crate::position::Position;
use crate::rules::{RepetitionRule, RuleFlags, Rules, RulesError};

/// A game: name, rules and start position (which says who moves first).
///
/// ```
/// use tafl_engine::Variant;
/// let tablut = Variant::tablut();
/// let text = tablut.to_string();
/// assert!(text.starts_with("dim:9 name:Tablut esc:e"));
/// assert_eq!(text.parse::<Variant>().unwrap(), tablut);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Variant {
    name: String,
    start: Position,
}

const TABLUT_START: &str = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
const TAWLBWRDD_START: &str =
    "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";

impl Variant {
    /// A game from its parts. The name is made safe for a rules string: runs of white space
    /// become one space, ends are trimmed, and `:` becomes `-` (so that no word of the name can
    /// be read back as a rule field).
    pub fn new(name: impl AsRef<str>, start: Position) -> Variant {
        let name = name
            .as_ref()
            .split_whitespace()
            .map(|word| word.replace(':', "-"))
            .collect::<Vec<_>>()
            .join(" ");
        Variant { name, start }
    }

    /// Tablut (Linnaeus, 1732), 9x9, as RULES.md gives it.
    pub fn tablut() -> Variant {
        Variant::builtin("Tablut", Rules::TABLUT, TABLUT_START)
    }

    /// Tawlbwrdd (R. C. Bell's reconstruction), 11x11, as RULES.md gives it.
    pub fn tawlbwrdd() -> Variant {
        Variant::builtin("Tawlbwrdd", Rules::TAWLBWRDD, TAWLBWRDD_START)
    }

    fn builtin(name: &str, rules: Rules, record: &str) -> Variant {
        match notation::parse_position_record(record, rules, Side::Attackers) {
            Ok(start) => Variant::new(name, start),
            // Not reached: the built-in records are fixed and covered by tests.
            Err(_) => Variant::new(name, Position::empty(rules, Side::Attackers)),
        }
    }

    /// The names [`Variant::by_name`] accepts, in the order `help` lists them.
    ///
    /// ```
    /// use tafl_engine::Variant;
    /// for name in Variant::names() {
    ///     assert!(Variant::by_name(name).is_some());
    /// }
    /// ```
    pub fn names() -> &'static [&'static str] {
        &["tablut", "tawlbwrdd"]
    }

    /// The built-in game with this name (one of [`Variant::names`], any case).
    pub fn by_name(name: &str) -> Option<Variant> {
        match name.to_ascii_lowercase().as_str() {
            "tablut" => Some(Variant::tablut()),
            "tawlbwrdd" => Some(Variant::tawlbwrdd()),
            _ => None,
        }
    }

    /// The game's name (may be empty).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.start.rules()
    }

    /// The start position, with the side that moves first to move.
    pub fn start(&self) -> Position {
        self.start
    }
}

/// Why an OpenTafl rules string was refused. Each error names the field.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesStringError {
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
        error: RecordError,
    },
}

/// Every field of an OpenTafl rules string that this engine reads.
const KNOWN_FIELDS: [&str; 35] = [
    "dim", "name", "esc", "surf", "atkf", "ka", "ks", "kj", "nj", "cj", "cor", "corh", "corp",
    "cors", "aforh", "aforp", "afors", "dforh", "dforp", "dfors", "afor", "dfor", "cen", "cenp",
    "cens", "cenh", "cenhe", "linc", "tfr", "sw", "swf", "efe", "ber", "start", "starti",
];

/// The OpenTafl piece letters: t c n k for attackers, T C N K for defenders.
const PIECE_LETTERS: &str = "tcnkTCNK";

fn piece_letters(field: &str, value: &str) -> Result<(bool, bool, bool), RulesStringError> {
    if let Some(bad) = value.chars().find(|c| !PIECE_LETTERS.contains(*c)) {
        return Err(RulesStringError::BadValue {
            field: field.to_string(),
            value: value.to_string(),
            expected: if bad.is_ascii() {
                "piece letters from tcnkTCNK"
            } else {
                "ASCII piece letters from tcnkTCNK"
            },
        });
    }
    Ok((
        value.contains('t'),
        value.contains('T'),
        value.contains('K'),
    ))
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

impl FromStr for Variant {
    type Err = RulesStringError;

    /// Reads an OpenTafl rules string, e.g. the ones RULES.md gives. Fields may come in any order.
    /// Every field that changes the rules is honoured or refused with an error that names it.
    fn from_str(text: &str) -> Result<Variant, RulesStringError> {
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
                // OpenTafl names may hold spaces: a bare word after `name:` continues the name.
                None => match fields.last_mut() {
                    Some((key, value)) if key == "name" => {
                        value.push(' ');
                        value.push_str(word);
                    }
                    _ => return Err(RulesStringError::NotAField(word.to_string())),
                },
            }
        }
        let get = |key: &str| {
            fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };

        let dim_text = get("dim").ok_or(RulesStringError::Missing {
            field: "dim",
            why: "the board size is required",
        })?;
        let size: u8 = dim_text
            .parse()
            .map_err(|_| bad_value("dim", dim_text, "a board size such as 9 or 11"))?;
        let mut flags = RuleFlags::empty();
        let mut attackers_first = true;
        let mut repetition = RepetitionRule::SecondOccurrenceDraws;
        let mut name = String::new();
        let mut start: Option<(&'static str, &str)> = None;

        for (key, value) in &fields {
            let (key, value) = (key.as_str(), value.as_str());
            match key {
                "dim" => {}
                "name" => name = value.to_string(),
                "esc" => match value {
                    "e" => {}
                    "c" => return Err(unsupported(key, value, "corner escape")),
                    _ => return Err(bad_value(key, value, "e (edge) or c (corner)")),
                },
                "surf" => match value {
                    "n" => {}
                    "y" => return Err(unsupported(key, value, "'surrounding fatal'")),
                    _ => return Err(bad_value(key, value, "y or n")),
                },
                "atkf" => match value {
                    "y" => attackers_first = true,
                    "n" => attackers_first = false,
                    _ => return Err(bad_value(key, value, "y or n")),
                },
                "ka" => {} // read below, together with cenh.
                "ks" => match value {
                    "c" => {}
                    "w" | "s" | "m" | "y" | "n" => {
                        return Err(unsupported(
                            key,
                            value,
                            "a king strength other than 'strong at the castle' (R13)",
                        ));
                    }
                    _ => return Err(bad_value(key, value, "c")),
                },
                "kj" => match value {
                    "n" => {}
                    "j" | "c" | "r" => return Err(unsupported(key, value, "a jumping king")),
                    _ => return Err(bad_value(key, value, "n, j, c or r")),
                },
                // Knights and commanders do not exist in these games, so their jumps change nothing.
                "nj" | "cj" => {
                    if !matches!(value, "n" | "j" | "c" | "r") {
                        return Err(bad_value(key, value, "n, j, c or r"));
                    }
                }
                "cor" => {
                    if !value.is_empty() {
                        return Err(unsupported(key, value, "corner squares"));
                    }
                }
                // Without corners (cor:) or forts, the fields about them change nothing.
                "corh" | "corp" | "cors" | "aforh" | "aforp" | "afors" | "dforh" | "dforp"
                | "dfors" => {
                    piece_letters(key, value)?;
                }
                "afor" | "dfor" => {
                    if !value.is_empty() {
                        return Err(unsupported(key, value, "forts"));
                    }
                }
                "cen" => {
                    let centre = crate::square::Square::new(size / 2, size / 2);
                    let listed: Vec<&str> = value.split(',').filter(|s| !s.is_empty()).collect();
                    let is_centre = listed.len() == 1
                        && listed[0].parse::<crate::square::Square>().ok() == centre;
                    if !is_centre {
                        return Err(unsupported(
                            key,
                            value,
                            "a castle other than the single centre square (R1)",
                        ));
                    }
                }
                "cenp" => {
                    let (t, big_t, k) = piece_letters(key, value)?;
                    if !(t && big_t && k) {
                        return Err(unsupported(
                            key,
                            value,
                            "pieces that may not pass the castle (R7 lets every piece pass)",
                        ));
                    }
                }
                "cens" => {
                    let (t, big_t, k) = piece_letters(key, value)?;
                    if t || big_t || k {
                        return Err(unsupported(
                            key,
                            value,
                            "pieces that may stop on the castle (R6 forbids it)",
                        ));
                    }
                }
                "cenh" => {
                    piece_letters(key, value)?;
                }
                "cenhe" => {
                    let (t, big_t, k) = piece_letters(key, value)?;
                    if !k {
                        return Err(unsupported(
                            key,
                            value,
                            "a castle that does not close the king in (R13 counts it as a wall)",
                        ));
                    }
                    flags.set(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS, t);
                    flags.set(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS, big_t);
                }
                "linc" => match value {
                    "n" => {}
                    "y" => return Err(unsupported(key, value, "Linnaean capture")),
                    _ => return Err(bad_value(key, value, "y or n")),
                },
                "tfr" => {
                    repetition = match value {
                        "n" => RepetitionRule::Ignored,
                        "d" => RepetitionRule::ThirdOccurrenceDraws,
                        "w" | "l" => {
                            return Err(unsupported(key, value, "a repetition that wins or loses"));
                        }
                        _ => return Err(bad_value(key, value, "n or d")),
                    }
                }
                "sw" => match value {
                    "n" => {}
                    "s" | "w" => return Err(unsupported(key, value, "shieldwall captures")),
                    _ => return Err(bad_value(key, value, "n, s or w")),
                },
                "swf" => {
                    if !matches!(value, "y" | "n") {
                        return Err(bad_value(key, value, "y or n"));
                    }
                }
                "efe" => match value {
                    "n" => {}
                    "y" => return Err(unsupported(key, value, "edge fort escape")),
                    _ => return Err(bad_value(key, value, "y or n")),
                },
                "ber" => match value {
                    "n" => {}
                    "m" | "c" => return Err(unsupported(key, value, "berserk moves")),
                    _ => return Err(bad_value(key, value, "n, m or c")),
                },
                "start" | "starti" => {
                    if start.is_some() {
                        return Err(RulesStringError::Duplicate("start/starti".to_string()));
                    }
                    start = Some((if key == "start" { "start" } else { "starti" }, value));
                }
                _ => return Err(RulesStringError::UnknownField(key.to_string())),
            }
        }

        // Fields whose OpenTafl default is a rule this engine does not play must be spelled out.
        for (field, why) in [
            ("esc", "OpenTafl's default is corner escape"),
            ("surf", "OpenTafl's default is 'surrounding fatal'"),
            ("ks", "OpenTafl's default is a strong king everywhere"),
            ("cor", "OpenTafl's default has corner squares"),
            ("cens", "OpenTafl's default lets pieces stop on the castle"),
        ] {
            if get(field).is_none() {
                return Err(RulesStringError::Missing { field, why });
            }
        }
        if get("cenhe").is_none() {
            // OpenTafl's default: the empty castle is hostile to everyone, as in R10.
            flags |= RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS
                | RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS;
        }
        let ka = get("ka").unwrap_or("y");
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
        // cenh: the occupied castle holds only the king. Hostile to attackers is what an anvil
        // king already is; hostile to defenders is not R10.
        let cenh = get("cenh").unwrap_or("tcnk");
        let (t, big_t, _) = piece_letters("cenh", cenh)?;
        if big_t || (t && !flags.contains(RuleFlags::KING_ANVIL)) {
            return Err(unsupported(
                "cenh",
                cenh,
                "an occupied castle that is hostile by itself (R10)",
            ));
        }

        let rules = Rules::new(size, flags, repetition)?;
        let (field, record) = start.ok_or(RulesStringError::Missing {
            field: "start",
            why: "the start position (start: or starti:) is required",
        })?;
        let side = if attackers_first {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let to_error = |error: RecordError| RulesStringError::Start { field, error };
        let (record_size, pieces) =
            notation::parse_record_pieces(record, field == "starti").map_err(to_error)?;
        if record_size != usize::from(size) {
            return Err(to_error(RecordError::WrongSize {
                found: record_size,
                expected: size,
            }));
        }
        let start = Position::from_pieces(rules, side, pieces)
            .map_err(|error| to_error(RecordError::Setup(error)))?;
        Ok(Variant { name, start })
    }
}

impl fmt::Display for Variant {
    /// The OpenTafl rules string, with every rule field spelled out, in RULES.md's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.rules();
        let flags = rules.flags();
        write!(f, "dim:{}", rules.size())?;
        if !self.name.is_empty() {
            write!(f, " name:{}", self.name)?;
        }
        let atkf = if self.start.side_to_move() == Side::Attackers {
            "y"
        } else {
            "n"
        };
        write!(f, " esc:e surf:n atkf:{atkf}")?;
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
            write!(f, " ka:{ka}")?;
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
            f,
            " ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:{cenhe} linc:n"
        )?;
        match rules.repetition() {
            RepetitionRule::SecondOccurrenceDraws => {}
            RepetitionRule::Ignored => f.write_str(" tfr:n")?,
            RepetitionRule::ThirdOccurrenceDraws => f.write_str(" tfr:d")?,
        }
        write!(f, " start:{}", notation::position_record(&self.start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLUT: &str = "dim:9 name:Tablut esc:e surf:n atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:n start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    const TAWLBWRDD: &str = "dim:11 name:Tawlbwrdd esc:e surf:n atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:n start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";

    #[test]
    fn the_rules_md_strings_give_the_built_in_games() {
        assert_eq!(TABLUT.parse::<Variant>().unwrap(), Variant::tablut());
        assert_eq!(TAWLBWRDD.parse::<Variant>().unwrap(), Variant::tawlbwrdd());
    }

    #[test]
    fn field_order_does_not_matter_and_starti_reads_top_down() {
        let mut words: Vec<&str> = TAWLBWRDD.split(' ').collect();
        words.reverse();
        assert_eq!(
            words.join(" ").parse::<Variant>().unwrap(),
            Variant::tawlbwrdd()
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
        for variant in [Variant::tablut(), Variant::tawlbwrdd()] {
            assert_eq!(variant.to_string().parse::<Variant>().unwrap(), variant);
        }
        let odd = "dim:7 atkf:n ka:h esc:e surf:n ks:c cor: cens: cenh: cenhe:TK tfr:d start:/t6/7/7/3K3/7/7/6T/";
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
    }

    #[test]
    fn unsupported_rules_are_refused_naming_the_field() {
        let cases = [
            ("esc:e", "esc:c", "esc"),
            ("linc:n", "linc:y", "linc"),
            ("dim:9", "dim:13", "dim"),
            ("dim:9", "dim:10", "dim"),
            ("ks:c", "ks:w", "ks"),
            ("surf:n", "surf:y", "surf"),
            ("cor:", "cor:a1,a9,i1,i9", "cor"),
            ("cens:", "cens:K", "cens"),
            ("cenp:tcnkTCNK", "cenp:K", "cenp"),
            ("cor:", "", "cor"),
            ("esc:e", "", "esc"),
            ("linc:n", "linc:n sw:s", "sw"),
            ("linc:n", "linc:n ber:m", "ber"),
            ("linc:n", "linc:n frobnicate:y", "frobnicate"),
            ("linc:n", "linc:n linc:n", "linc"),
            ("start:/3ttt3/", "start:/3ttt2/", "start"),
            ("cenh:", "cenh:T", "cenh"),
            ("linc:n", "linc:n tfr:w", "tfr"),
        ];
        for (from, to, field) in cases {
            assert!(TABLUT.contains(from), "{from}");
            let text = TABLUT.replacen(from, to, 1);
            let error = text.parse::<Variant>().expect_err(&text).to_string();
            assert!(error.contains(field), "{text}\n -> {error}");
        }
    }
}
