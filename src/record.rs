//! Game records in OpenTafl's format (`.otg`, section 4 of OpenTafl's notation specification),
//! read and written: tags, the rules, then one line per turn with both sides' moves in full
//! notation.
//!
//! ```text
//! [event:tafl-match]
//! [result:1]
//! [rules:dim:9 name:Tablut esc:e ... start:/3ttt3/4t4/.../]
//!
//! 1. e2-h2 e3-h3
//! 2. h2-h3xh4 ...
//! ```
//!
//! Written: each tag `[key:value]` on a line of its own (a value's line breaks become spaces, its
//! brackets parentheses), then `[result:...]` and, once the game is over, `[termination:...]`
//! from the game unless tags of those names were set ([`GameRecord::result`],
//! [`GameRecord::termination`]), the `rules` tag last with the game's own rules (under the
//! variant's name when the variant has the game's rules) and its start position,
//! an empty line, then the turns: a turn is a move of the side that moved first and the other
//! side's answer, `N. move move`, in full notation without the piece letter (`e5-e8xe9--`), as
//! OpenTafl writes them; a resignation is `---` in place of a move.
//!
//! Read: the same, and more of what the specification allows: the rules as a line of their own
//! (`dim:9 ...`) instead of a tag, a start position as a record line (`/3ttt3/.../`) after them,
//! commentary lines (`[...]` between turns, skipped), any white space. Every move is played by
//! the rules; a record that is malformed or has an illegal move is refused with the line and
//! what is wrong. Reading never panics.
//!
//! ```
//! use tafl_engine::record::GameRecord;
//! use tafl_engine::{Game, Variant};
//! let mut game = Game::new(&Variant::tablut());
//! for text in ["e2-h2", "e3-h3", "h2-g2"] {
//!     game.play(text.parse()?)?;
//! }
//! let mut record = GameRecord::new(Variant::tablut(), game.clone());
//! record.set_tag("event", "a test");
//! let text = record.to_string();
//! assert!(text.ends_with("\n\n1. e2-h2 e3-h3\n2. h2-g2\n"));
//! let read: GameRecord = text.parse()?;
//! assert_eq!(read.game, game);
//! assert_eq!(read.tag("event"), Some("a test"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::board::Narrow;
use crate::game::{Game, PlayError};
use crate::notation::{self, FullMove, MoveParseError, RecordError};
use crate::piece::Side;
use crate::play::Grid;
use crate::rules_string::RulesStringError;
use crate::variant::Variant;

/// Most characters of the input an error message repeats.
const QUOTED_CHARS: usize = 40;

/// A game with its record's tags: what a `.otg` file holds.
///
/// `B` is the board type of the game ([`Narrow`] by default; a `GameRecord<Wide>` reads and
/// writes records of boards above 11x11).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord<B: Grid = Narrow> {
    /// The tags in order, `(key, value)`, without the rules (written from `variant` and `game`).
    pub tags: Vec<(String, String)>,
    /// The game's name and rules. Its start position is not written: the game's is.
    pub variant: Variant<B>,
    /// The game, from its start position.
    pub game: Game<B>,
    /// The side that resigned after the game's last move, if one did.
    pub resigned: Option<Side>,
}

/// Why a game record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameRecordError<B: Grid = Narrow> {
    /// No rules: neither a `[rules:...]` tag nor a rules line before the moves.
    #[error("the record has no rules: a [rules:...] tag must come before the moves")]
    MissingRules,
    /// The rules are refused.
    #[error("line {line}: the rules: {error}")]
    Rules {
        /// Line number, from 1.
        line: usize,
        /// Why.
        error: RulesStringError<B>,
    },
    /// A tag without its `:` or its closing `]`.
    #[error("line {line}: '{text}' is not a tag: expected [key:value]")]
    Tag {
        /// Line number, from 1.
        line: usize,
        /// The line (its first characters).
        text: String,
    },
    /// A start position that is not a record of the rules' board.
    #[error("line {line}: the start position: {error}")]
    Position {
        /// Line number, from 1.
        line: usize,
        /// Why.
        error: RecordError<B>,
    },
    /// A line that is neither a tag, the rules, a start position nor a turn.
    #[error("line {line}: '{text}' is not a tag, rules, a position or a turn ('1. e2-h2 e3-h3')")]
    Unexpected {
        /// Line number, from 1.
        line: usize,
        /// The line (its first characters).
        text: String,
    },
    /// A turn line whose number is missing or not the next one.
    #[error("line {line}: '{found}' is not turn {expected} ('{expected}. move move')")]
    TurnNumber {
        /// Line number, from 1.
        line: usize,
        /// What stands where the number should.
        found: String,
        /// The turn number expected.
        expected: usize,
    },
    /// A turn with more than two moves.
    #[error("line {line}: a turn has at most two moves, '{text}' is a third")]
    TooManyMoves {
        /// Line number, from 1.
        line: usize,
        /// The third move (its first characters).
        text: String,
    },
    /// A move that is not a move.
    #[error("line {line}: '{text}': {error}")]
    Move {
        /// Line number, from 1.
        line: usize,
        /// The move's text (its first characters).
        text: String,
        /// Why.
        error: MoveParseError,
    },
    /// A move the rules refuse.
    #[error("line {line}: move {ply} '{text}' cannot be played: {error}")]
    Illegal {
        /// Line number, from 1.
        line: usize,
        /// The move's number in the game, from 1.
        ply: usize,
        /// The move's text.
        text: String,
        /// Why.
        error: PlayError<B>,
    },
    /// A move after a resignation.
    #[error("line {line}: '{text}' comes after a resignation")]
    AfterResignation {
        /// Line number, from 1.
        line: usize,
        /// The move's text (its first characters).
        text: String,
    },
}

/// The first characters of `text`, for an error message.
fn quoted(text: &str) -> String {
    notation::quoted(text, QUOTED_CHARS)
}

/// A tag's key or value as a record may hold it: on one line, without brackets.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\r' => ' ',
            ']' => ')',
            '[' => '(',
            c => c,
        })
        .collect()
}

impl<B: Grid> GameRecord<B> {
    /// A record of `game`, played under `variant`'s rules, without tags.
    pub fn new(variant: Variant<B>, game: Game<B>) -> GameRecord<B> {
        GameRecord {
            tags: Vec::new(),
            variant,
            game,
            resigned: None,
        }
    }

    /// The value of the first tag named `key`.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, value)| value.as_str())
    }

    /// Sets the tag `key` to `value` (in place of the first tag of that name, or at the end).
    /// Line breaks become spaces and brackets parentheses; a key also loses its `:`. The
    /// `rules` tag is not kept: the rules are written from the game.
    pub fn set_tag(&mut self, key: &str, value: &str) {
        let key = clean(key).replace(':', "-");
        if key == "rules" {
            return;
        }
        let value = clean(value);
        match self.tags.iter_mut().find(|(k, _)| *k == key) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((key, value)),
        }
    }

    /// The rules string of the record: the game's rules and start, under the variant's name if
    /// the variant's rules are the game's (else without a name: a name would claim other rules).
    fn rules(&self) -> Variant<B> {
        let name = if self.variant.rules() == self.game.rules() {
            self.variant.name()
        } else {
            ""
        };
        Variant::new(name, *self.game.start_position())
    }

    /// The `result` tag's value the record writes when no `result` tag was set: `1` the
    /// attackers won, `-1` the defenders, `0` a draw, `?` a game not over (OpenTafl's "other").
    /// A resignation is the other side's win.
    pub fn result(&self) -> &'static str {
        match (self.resigned, self.game.outcome()) {
            (Some(side), _) => GameRecord::result_value(Some(side.opponent())),
            (None, Some(outcome)) => GameRecord::result_value(outcome.winner()),
            (None, None) => "?",
        }
    }

    /// How the game ended, as the `termination` tag says it when none was set (`None` while the
    /// game goes on): the rules' outcome (`attackers win: the king was captured`), or who
    /// resigned.
    pub fn termination(&self) -> Option<String> {
        match (self.resigned, self.game.outcome()) {
            (Some(side), _) => Some(format!("the {side} resigned")),
            (None, outcome) => outcome.map(|outcome| outcome.to_string()),
        }
    }
}

impl GameRecord {
    /// The `result` tag's value for a winner: `1` the attackers, `-1` the defenders, `0` a
    /// draw (or no winner). The same on every grid.
    pub const fn result_value(winner: Option<Side>) -> &'static str {
        match winner {
            Some(Side::Attackers) => "1",
            Some(Side::Defenders) => "-1",
            None => "0",
        }
    }
}

impl<B: Grid> fmt::Display for GameRecord<B> {
    /// The record as OpenTafl writes it (see the module's documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (key, value) in &self.tags {
            if key != "rules" {
                writeln!(f, "[{}:{}]", clean(key), clean(value))?;
            }
        }
        // The result and the end's reason from the game, unless the tags say them.
        if self.tag("result").is_none() {
            writeln!(f, "[result:{}]", self.result())?;
        }
        if let (None, Some(termination)) = (self.tag("termination"), self.termination()) {
            writeln!(f, "[termination:{}]", clean(&termination))?;
        }
        writeln!(f, "[rules:{}]", clean(&self.rules().to_string()))?;
        writeln!(f)?;
        let mut moves: Vec<String> = Vec::new();
        for (position, m) in self.game.positions().iter().zip(self.game.moves()) {
            let full = FullMove {
                piece: None,
                ..FullMove::describe(position, m)
            };
            moves.push(full.to_string());
        }
        if self.resigned.is_some() {
            moves.push("---".to_string());
        }
        // A turn is the first mover's move and the answer: the game's moves in pairs.
        for (turn, pair) in moves.chunks(2).enumerate() {
            writeln!(f, "{}. {}", turn + 1, pair.join(" "))?;
        }
        Ok(())
    }
}

/// What the reader has seen of a record so far.
struct Reader<B: Grid> {
    tags: Vec<(String, String)>,
    rules: Option<Variant<B>>,
    game: Option<Game<B>>,
    resigned: Option<Side>,
    turn: usize,
}

impl<B: Grid> Reader<B>
where
    Variant<B>: FromStr<Err = RulesStringError<B>>,
{
    /// The game the moves are played in, set up from the rules on the first move.
    fn game(&mut self) -> Result<&mut Game<B>, GameRecordError<B>> {
        let rules = self.rules.as_ref().ok_or(GameRecordError::MissingRules)?;
        Ok(self.game.get_or_insert_with(|| Game::new(rules)))
    }

    fn header_line(&mut self, line: usize, text: &str) -> Result<(), GameRecordError<B>> {
        if let Some(inner) = text.strip_prefix('[') {
            let Some((key, value)) = inner.strip_suffix(']').and_then(|t| t.split_once(':')) else {
                return Err(GameRecordError::Tag {
                    line,
                    text: quoted(text),
                });
            };
            if key.trim() == "rules" {
                return self.read_rules(line, value);
            }
            self.tags
                .push((key.trim().to_string(), value.trim().to_string()));
            Ok(())
        } else if text.starts_with("dim:") {
            self.read_rules(line, text)
        } else if text.starts_with('/') {
            let rules = self.rules.as_ref().ok_or(GameRecordError::MissingRules)?;
            let side = rules.start().side_to_move();
            let position = notation::parse_position_record(text, rules.rules(), side)
                .map_err(|error| GameRecordError::Position { line, error })?;
            self.game = Some(Game::from_position(position));
            Ok(())
        } else {
            Err(GameRecordError::Unexpected {
                line,
                text: quoted(text),
            })
        }
    }

    fn read_rules(&mut self, line: usize, text: &str) -> Result<(), GameRecordError<B>> {
        let variant: Variant<B> = text
            .trim()
            .parse()
            .map_err(|error| GameRecordError::Rules { line, error })?;
        self.game = Some(Game::new(&variant));
        self.rules = Some(variant);
        Ok(())
    }

    fn turn_line(&mut self, line: usize, text: &str) -> Result<(), GameRecordError<B>> {
        let mut words = text.split_whitespace();
        let number = words.next().unwrap_or_default();
        let expected = self.turn + 1;
        if number.strip_suffix('.') != Some(expected.to_string().as_str()) {
            return Err(GameRecordError::TurnNumber {
                line,
                found: quoted(number),
                expected,
            });
        }
        self.turn = expected;
        for (index, word) in words.enumerate() {
            if index == 2 {
                return Err(GameRecordError::TooManyMoves {
                    line,
                    text: quoted(word),
                });
            }
            if self.resigned.is_some() {
                return Err(GameRecordError::AfterResignation {
                    line,
                    text: quoted(word),
                });
            }
            let game = self.game()?;
            if word == "---" {
                self.resigned = Some(game.position().side_to_move());
                continue;
            }
            let m = word.parse().map_err(|error| GameRecordError::Move {
                line,
                text: quoted(word),
                error,
            })?;
            let ply = game.moves().len() + 1;
            game.play(m).map_err(|error| GameRecordError::Illegal {
                line,
                ply,
                text: quoted(word),
                error,
            })?;
        }
        Ok(())
    }
}

impl<B: Grid> FromStr for GameRecord<B>
where
    Variant<B>: FromStr<Err = RulesStringError<B>>,
{
    type Err = GameRecordError<B>;

    /// Reads a record (see the module's documentation): `GameRecord` reads boards up to
    /// 11x11, `GameRecord<Wide>` any board up to 19x19.
    fn from_str(text: &str) -> Result<GameRecord<B>, GameRecordError<B>> {
        let mut reader = Reader {
            tags: Vec::new(),
            rules: None,
            game: None,
            resigned: None,
            turn: 0,
        };
        for (index, line) in text.lines().enumerate() {
            let (number, line) = (index + 1, line.trim());
            let in_turns = reader.turn > 0;
            if line.is_empty() || (in_turns && line.starts_with('[')) {
                continue; // Blank lines; commentary between turns.
            }
            if line.starts_with(|c: char| c.is_ascii_digit()) {
                reader.turn_line(number, line)?;
            } else if in_turns {
                return Err(GameRecordError::Unexpected {
                    line: number,
                    text: quoted(line),
                });
            } else {
                reader.header_line(number, line)?;
            }
        }
        let game = reader.game()?.clone();
        let variant = reader.rules.ok_or(GameRecordError::MissingRules)?;
        Ok(GameRecord {
            tags: reader.tags,
            variant,
            game,
            resigned: reader.resigned,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_writes_the_games_rules_its_result_and_its_end() {
        let mut game = Game::new(&Variant::copenhagen());
        // Under another game's name the rules are the game's own, written without that name.
        let text = GameRecord::new(Variant::tablut(), game.clone()).to_string();
        assert!(!text.contains("name:Tablut"), "{text}");
        assert!(text.contains("atkf:y tfr:w sw:s efe:y"), "{text}"); // Copenhagen's fields
        let read: GameRecord = text.parse().unwrap();
        assert_eq!(read.game.rules(), Variant::copenhagen().rules());
        assert!(
            text.contains("[result:?]") && !text.contains("termination"),
            "{text}"
        );
        // A finished game: the result and how it ended, read back as tags.
        game.agree_draw();
        let text = GameRecord::new(Variant::copenhagen(), game.clone()).to_string();
        assert!(text.contains("name:Copenhagen"), "{text}");
        let read: GameRecord = text.parse().unwrap();
        assert_eq!(read.tag("result"), Some("0"));
        assert_eq!(
            read.tag("termination"),
            Some(game.outcome().unwrap().to_string().as_str())
        );
        // A resignation is the other side's win; tags that were set are kept.
        let mut record = GameRecord::new(Variant::copenhagen(), Game::new(&Variant::copenhagen()));
        record.resigned = Some(Side::Attackers);
        assert_eq!(record.result(), "-1");
        record.set_tag("result", "1");
        let text = record.to_string();
        assert!(
            text.contains("[result:1]") && !text.contains("[result:-1]"),
            "{text}"
        );
        assert!(
            text.contains("[termination:the attackers resigned]"),
            "{text}"
        );
    }
    use crate::test_support::XorShift;

    fn random_game<B: Grid>(variant: &Variant<B>, plies: usize, seed: u64) -> Game<B> {
        let mut random = XorShift(seed);
        let mut game = Game::new(variant);
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(random.next() % moves.len() as u64) as usize];
            game.play(m).unwrap();
        }
        game
    }

    #[test]
    fn records_of_random_games_of_every_variant_read_back_to_the_same_game() {
        for (index, name) in Variant::names().iter().enumerate() {
            let variant = Variant::by_name(name).unwrap();
            for seed in 1..=4u64 {
                let game = random_game(&variant, 30 * seed as usize, seed + index as u64 * 10);
                let mut record = GameRecord::new(variant.clone(), game.clone());
                record.set_tag("event", "test [one]\nline two");
                record.set_tag(
                    "result",
                    GameRecord::result_value(game.outcome().and_then(|o| o.winner())),
                );
                if seed == 2 {
                    record.resigned = Some(game.position().side_to_move());
                }
                let text = record.to_string();
                let read: GameRecord = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(read.game, game, "{name}\n{text}");
                assert_eq!(read.variant, variant, "{name}");
                assert_eq!(read.tag("event"), Some("test (one) line two"));
                assert_eq!(read.resigned, record.resigned);
                assert_eq!(read.to_string(), text, "printing is stable");
            }
        }
    }

    #[test]
    fn records_of_games_above_eleven_squares_read_back_as_wide_records_only() {
        use crate::board::Wide;
        let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13();
        let nineteen: Variant<Wide> =
            "dim:19 name:Nineteen atkf:y start:/19/19/19/19/19/19/19/19/19/9K9/19/19/19/19/19/19/19/t18/18T/"
                .parse()
                .unwrap();
        for (index, variant) in [thirteen, nineteen].iter().enumerate() {
            let game = random_game(variant, 60, 7 + index as u64);
            assert!(game.moves().len() > 10);
            let record = GameRecord::new(variant.clone(), game.clone());
            let text = record.to_string();
            let read: GameRecord<Wide> = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(read.game, game);
            assert_eq!(read.to_string(), text);
            // The narrow grid's reader refuses it for its size, naming the rules' line.
            let refused = text.parse::<GameRecord>().unwrap_err();
            assert!(
                matches!(refused, GameRecordError::Rules { .. }),
                "{refused}"
            );
        }
    }

    #[test]
    fn a_game_from_a_set_up_position_keeps_its_start_and_first_mover() {
        let start = crate::notation::parse_position_record(
            "/9/9/2K6/9/9/9/t8/9/9/",
            crate::Rules::TABLUT,
            Side::Defenders,
        )
        .unwrap();
        let mut game = Game::from_position(start);
        game.play("c3-c2".parse().unwrap()).unwrap();
        let text = GameRecord::new(Variant::tablut(), game.clone()).to_string();
        assert!(text.contains("atkf:n"), "{text}");
        let read: GameRecord = text.parse().unwrap();
        assert_eq!(read.game, game);
    }

    #[test]
    fn the_other_forms_of_the_specification_are_read() {
        let rules = Variant::tablut().to_string();
        let text = format!(
            "[event:x]\n{rules}\n/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/\n\n  1.   e2-h2   te3-h3 \n[a comment|another]\n2. h2-g2\n"
        );
        let read: GameRecord = text.parse().unwrap();
        assert_eq!(read.game.moves().len(), 3);
        assert_eq!(read.tag("event"), Some("x"));
        let empty: GameRecord = format!("[rules:{rules}]\n").parse().unwrap();
        assert_eq!(empty.game, Game::new(&Variant::tablut()));
    }

    #[test]
    fn malformed_records_are_refused_with_the_line_and_the_reason() {
        let rules = format!("[rules:{}]", Variant::tablut());
        let cases = [
            (String::new(), "no rules"),
            ("1. e2-h2".to_string(), "no rules"),
            ("[event:x]\n\n1. e2-h2".to_string(), "no rules"),
            ("[rules:dim:13 start:/13/]".to_string(), "line 1: the rules"),
            ("[event x]".to_string(), "line 1: '[event x]' is not a tag"),
            ("[event:x".to_string(), "not a tag"),
            (format!("{rules}\nhello"), "line 2: 'hello' is not a tag"),
            (format!("{rules}\n\n2. e2-h2"), "line 3: '2.' is not turn 1"),
            (format!("{rules}\n\n1 e2-h2"), "'1' is not turn 1"),
            (
                format!("{rules}\n\n1. e2-h2 e3-h3 h2-g2"),
                "at most two moves, 'h2-g2'",
            ),
            (
                format!("{rules}\n\n1. e2-h9"),
                "line 3: move 1 'e2-h9' cannot be played",
            ),
            (format!("{rules}\n\n1. e2-h2 zz"), "line 3: 'zz'"),
            (
                format!("{rules}\n\n1. e2-h2 ---\n2. h2-g2"),
                "line 4: 'h2-g2' comes after a resignation",
            ),
            (format!("{rules}\n/9/9/\n"), "line 2: the start position"),
            (format!("{rules}\n\n1. e2-h2\nfoo"), "line 4: 'foo'"),
            (format!("{rules}\n\n1. {}", "x".repeat(10_000)), "xxx..."),
        ];
        for (text, expected) in cases {
            let error = text.parse::<GameRecord>().unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}\n -> {error}");
            assert!(error.len() < 300, "{error}");
        }
    }
}
