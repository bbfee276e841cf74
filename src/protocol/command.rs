//! Commands a host (or a person) sends to the engine, read from one line of text.
//!
//! Parsing checks the syntax and the arity of every command and nothing else; whether a command
//! makes sense in the current state (a legal move, a record of the right size) is the session's
//! business. Every refusal is a [`CommandError`] that says what was wrong.

use std::time::Duration;

use thiserror::Error;

use crate::board::{Narrow, Wide};
use crate::moves::Move;
use crate::notation::MoveParseError;
use crate::piece::Side;
use crate::play::Grid;
use crate::search::Clock;
use crate::variant::{AnyVariant, RulesStringError};

/// Longest line the engine reads, in bytes; longer lines are refused whole.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Deepest `go depth` the engine accepts (the search's own ply limit is a little higher).
pub const MAX_GO_DEPTH: u32 = 100;

/// Longest `analyze` or `go movetime` the engine accepts: one day.
pub const MAX_THINK_TIME: Duration = Duration::from_secs(24 * 60 * 60);

/// One command, as read from a line. `B` is the board type of its moves (`opponent-move`,
/// `play-move`): [`Narrow`] by default, [`Wide`] to read moves of boards above 11x11
/// ([`parse_command_on`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Command<B: Grid = Narrow> {
    // ---- OTEP (OpenTafl Engine Protocol) ----
    /// `hello`: the host greets the engine; nothing to answer.
    Hello,
    /// `start`: the host says the game has started; nothing to do.
    Start,
    /// `rules <rules-string>` (or a game's name: `rules tablut`, `rules copenhagen`, ...; see
    /// [`AnyVariant::names`]): a new game, on a board up to 19x19.
    Rules(Box<AnyVariant>),
    /// `position <record>`: replace the board; the side to move stays.
    Position(String),
    /// `side attackers|defenders`: set the side to move.
    Side(Side),
    /// `clock <atk-ms>[*] <def-ms>[*] <overtime-s> <atk-periods> <def-periods>`.
    Clock(ClockCommand),
    /// `play attackers|defenders`: think and answer with `move`.
    Play(Side),
    /// `move <record>`: the host accepted our last move; the record is the board after it.
    Move(String),
    /// `opponent-move <m1[|m2...]> <record>`: the other side moved; the record is the board after.
    OpponentMove {
        /// The moves, oldest first.
        moves: Vec<Move<B>>,
        /// The board after them.
        record: String,
    },
    /// `analyze <lines> <seconds>`: answer `analysis` with up to that many lines.
    Analyze {
        /// Most lines (distinct first moves) wanted, at least 1.
        lines: usize,
        /// Time to think.
        time: Duration,
    },
    /// `error <code> [message]` from the host: 1 or 3 wrong side, 2 or 4 illegal move.
    HostError {
        /// The code.
        code: i64,
        /// The text after the code, if any.
        message: String,
    },
    /// `finish <0|1|2|3>`: the game ended.
    Finish(FinishCode),
    /// `goodbye`: exit.
    Goodbye,

    // ---- the engine's own commands, for people and scripts ----
    /// `perft <depth>`.
    Perft(u32),
    /// `divide <depth>`.
    Divide(u32),
    /// `show`: the board and facts about the position.
    Show,
    /// `moves`: the legal moves.
    Moves,
    /// `play-move <move>`: play a move on the engine's board (for a person).
    PlayMove(Move<B>),
    /// `undo`: take back the last move.
    Undo,
    /// `new`: restart the current game from its start position.
    New,
    /// `go [depth <n>] [movetime <ms>] [nodes <n>]`: search and print `info` lines and `bestmove`.
    Go(GoLimits),
    /// `stop`: stop a running search now; it answers with what it has.
    Stop,
    /// `help`: list the commands.
    Help,
}

impl<B: Grid> Command<B> {
    /// The command's word, as it is typed.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Hello => "hello",
            Command::Start => "start",
            Command::Rules(_) => "rules",
            Command::Position(_) => "position",
            Command::Side(_) => "side",
            Command::Clock(_) => "clock",
            Command::Play(_) => "play",
            Command::Move(_) => "move",
            Command::OpponentMove { .. } => "opponent-move",
            Command::Analyze { .. } => "analyze",
            Command::HostError { .. } => "error",
            Command::Finish(_) => "finish",
            Command::Goodbye => "goodbye",
            Command::Perft(_) => "perft",
            Command::Divide(_) => "divide",
            Command::Show => "show",
            Command::Moves => "moves",
            Command::PlayMove(_) => "play-move",
            Command::Undo => "undo",
            Command::New => "new",
            Command::Go(_) => "go",
            Command::Stop => "stop",
            Command::Help => "help",
        }
    }
}

/// How the game ended, as `finish` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinishCode {
    /// 0: stopped before a result.
    Stopped,
    /// 1: a draw.
    Draw,
    /// 2: the attackers won.
    AttackersWon,
    /// 3: the defenders won.
    DefendersWon,
}

/// One side's time in a `clock` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideTime {
    /// Time left, in milliseconds; `None` when the host sent a negative number (no main time).
    pub millis: Option<u64>,
    /// `*`: the side is in overtime and `millis` is what is left of the current period.
    pub in_overtime: bool,
    /// Overtime periods left.
    pub periods: u32,
}

/// A `clock` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockCommand {
    /// The attackers' time.
    pub attackers: SideTime,
    /// The defenders' time.
    pub defenders: SideTime,
    /// Length of one overtime period.
    pub overtime: Duration,
}

impl ClockCommand {
    /// The search clock of `side`, or `None` when the host gave that side no usable time.
    pub fn for_side(&self, side: Side) -> Option<Clock> {
        let time = match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        let remaining = match time.millis {
            Some(millis) => Duration::from_millis(millis),
            // No main time but overtime periods: each move may use a period.
            None if time.periods > 0 && !self.overtime.is_zero() => Duration::ZERO,
            None => return None,
        };
        Some(Clock {
            remaining,
            in_overtime: time.in_overtime,
            overtime: self.overtime,
            overtime_periods: time.periods,
            increment: Duration::ZERO,
        })
    }
}

/// The limits of a `go` command; with none, the engine's default move time applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// `depth <n>`.
    pub depth: Option<u32>,
    /// `movetime <ms>`.
    pub move_time: Option<Duration>,
    /// `nodes <n>`.
    pub nodes: Option<u64>,
}

/// Why a line is not a command the engine can take. The engine answers `error 0 <this>` (or
/// `error -1 <this>` for a rules string it cannot play, see [`CommandError::is_critical`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// The line holds no command word (only spaces).
    #[error("empty command")]
    Empty,
    /// The line is longer than [`MAX_LINE_BYTES`].
    #[error("line of {0} bytes is longer than the {MAX_LINE_BYTES} bytes a command may have")]
    TooLong(usize),
    /// The line holds a line break or another control character.
    #[error("the line holds control character {0}; a command is printable text on one line")]
    ControlCharacter(String),
    /// The first word is not a command.
    #[error("unknown command {0}; 'help' lists the commands")]
    Unknown(String),
    /// An argument is missing.
    #[error("'{command}' needs {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What it needs, e.g. "a depth".
        what: &'static str,
    },
    /// More arguments than the command takes.
    #[error("'{command}' takes {takes}; unexpected {extra}")]
    Extra {
        /// The command.
        command: &'static str,
        /// What it takes.
        takes: &'static str,
        /// The first unexpected word, quoted.
        extra: String,
    },
    /// An argument that is not what the command takes.
    #[error("'{command}': {value} is not {expected}")]
    BadArgument {
        /// The command.
        command: &'static str,
        /// The argument, quoted.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A move that cannot be read.
    #[error("'{command}': bad move {text}: {error}")]
    BadMove {
        /// The command.
        command: &'static str,
        /// The move's text, quoted.
        text: String,
        /// Why it cannot be read.
        error: MoveParseError,
    },
    /// A rules string that this engine cannot play.
    #[error("rules refused: {0}")]
    Rules(RulesStringError<Wide>),
    /// One word that is neither a game's name nor a rules string (which has `key:value`
    /// fields).
    #[error(
        "rules refused: no game is named {name}; the names are {}; or send an OpenTafl rules string",
        AnyVariant::names().collect::<Vec<_>>().join(", ")
    )]
    UnknownGame {
        /// The word, quoted (at most a few dozen characters of it).
        name: String,
    },
}

impl CommandError {
    /// Whether the error is critical in OTEP's sense (`error -1`: the host ends the game): a
    /// rules string the engine cannot play. Everything else is `error 0`.
    pub fn is_critical(&self) -> bool {
        matches!(
            self,
            CommandError::Rules(_) | CommandError::UnknownGame { .. }
        )
    }

    /// The OTEP error code for this error: -1 or 0.
    pub fn code(&self) -> i32 {
        if self.is_critical() { -1 } else { 0 }
    }
}

/// A word of input for an error message: quoted, with anything but printable ASCII escaped and
/// long words cut, so that the message stays one printable line.
pub fn quote(word: &str) -> String {
    format!("'{}'", super::reply::printable(word, 40))
}

fn side_argument(command: &'static str, word: Option<&str>) -> Result<Side, CommandError> {
    let word = word.ok_or(CommandError::Missing {
        command,
        what: "a side: attackers or defenders",
    })?;
    Side::from_name(word).ok_or_else(|| CommandError::BadArgument {
        command,
        value: quote(word),
        expected: "a side (attackers or defenders)",
    })
}

fn number_argument<T: std::str::FromStr>(
    command: &'static str,
    word: Option<&str>,
    what: &'static str,
    expected: &'static str,
) -> Result<T, CommandError> {
    let word = word.ok_or(CommandError::Missing { command, what })?;
    // `FromStr` for integers takes a leading '+'; protocol numbers are plain digits.
    if !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CommandError::BadArgument {
            command,
            value: quote(word),
            expected,
        });
    }
    word.parse().map_err(|_| CommandError::BadArgument {
        command,
        value: quote(word),
        expected,
    })
}

fn no_more(
    command: &'static str,
    takes: &'static str,
    mut words: std::str::SplitAsciiWhitespace<'_>,
) -> Result<(), CommandError> {
    match words.next() {
        None => Ok(()),
        Some(extra) => Err(CommandError::Extra {
            command,
            takes,
            extra: quote(extra),
        }),
    }
}

fn parse_move<B: Grid>(command: &'static str, text: &str) -> Result<Move<B>, CommandError> {
    text.parse().map_err(|error| CommandError::BadMove {
        command,
        text: quote(text),
        error,
    })
}

/// A duration in seconds (`30`, `0.5`) within [`MAX_THINK_TIME`].
fn seconds_argument(command: &'static str, word: Option<&str>) -> Result<Duration, CommandError> {
    let word = word.ok_or(CommandError::Missing {
        command,
        what: "a number of lines and a number of seconds",
    })?;
    let bad = || CommandError::BadArgument {
        command,
        value: quote(word),
        expected: "a number of seconds (up to one day)",
    };
    let plain = !word.is_empty()
        && word.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && word.bytes().filter(|&b| b == b'.').count() <= 1
        && word.bytes().any(|b| b.is_ascii_digit());
    if !plain {
        return Err(bad());
    }
    let seconds: f64 = word.parse().map_err(|_| bad())?;
    let time = Duration::try_from_secs_f64(seconds).map_err(|_| bad())?;
    if time > MAX_THINK_TIME {
        return Err(bad());
    }
    Ok(time)
}

/// One side's `<ms>[*]` in a `clock` command.
fn side_time(word: Option<&str>, periods: u32) -> Result<SideTime, CommandError> {
    let word = word.ok_or(CommandError::Missing {
        command: "clock",
        what: "five fields: <atk-ms>[*] <def-ms>[*] <overtime-s> <atk-periods> <def-periods>",
    })?;
    let (number, in_overtime) = match word.strip_suffix('*') {
        Some(number) => (number, true),
        None => (word, false),
    };
    let bad = || CommandError::BadArgument {
        command: "clock",
        value: quote(word),
        expected: "a time in milliseconds, with '*' when in overtime",
    };
    let (digits, negative) = match number.strip_prefix('-') {
        Some(digits) => (digits, true),
        None => (number, false),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    // Very large numbers saturate: a clock of centuries is as good as no limit.
    let millis = digits.parse::<u64>().unwrap_or(u64::MAX);
    Ok(SideTime {
        // OpenTafl's older hosts send -1 for "no main time".
        millis: if negative { None } else { Some(millis) },
        in_overtime,
        periods,
    })
}

fn parse_clock<B: Grid>(
    mut words: std::str::SplitAsciiWhitespace<'_>,
) -> Result<Command<B>, CommandError> {
    let attackers = words.next();
    let defenders = words.next();
    let overtime = words.next();
    let attacker_periods = words.next();
    let defender_periods = words.next();
    let what = "five fields: <atk-ms>[*] <def-ms>[*] <overtime-s> <atk-periods> <def-periods>";
    let count = |word: Option<&str>| {
        number_argument::<u32>("clock", word, what, "a number of overtime periods")
    };
    let attacker_periods = count(attacker_periods)?;
    let defender_periods = count(defender_periods)?;
    let overtime_seconds: u64 =
        number_argument("clock", overtime, what, "an overtime length in seconds")?;
    let command = ClockCommand {
        attackers: side_time(attackers, attacker_periods)?,
        defenders: side_time(defenders, defender_periods)?,
        overtime: Duration::from_secs(overtime_seconds.min(MAX_THINK_TIME.as_secs())),
    };
    no_more("clock", what, words)?;
    Ok(Command::Clock(command))
}

fn parse_go<B: Grid>(
    mut words: std::str::SplitAsciiWhitespace<'_>,
) -> Result<Command<B>, CommandError> {
    let mut limits = GoLimits::default();
    let takes = "depth <n>, movetime <ms> and nodes <n>, each at most once";
    while let Some(key) = words.next() {
        let value = words.next();
        let repeated = || CommandError::Extra {
            command: "go",
            takes,
            extra: quote(key),
        };
        match key {
            "depth" => {
                if limits.depth.is_some() {
                    return Err(repeated());
                }
                let depth: u32 = number_argument("go", value, "a depth after 'depth'", "a depth")?;
                if !(1..=MAX_GO_DEPTH).contains(&depth) {
                    return Err(CommandError::BadArgument {
                        command: "go",
                        value: quote(value.unwrap_or_default()),
                        expected: "a depth from 1 to 100",
                    });
                }
                limits.depth = Some(depth);
            }
            "movetime" => {
                if limits.move_time.is_some() {
                    return Err(repeated());
                }
                let millis: u64 = number_argument(
                    "go",
                    value,
                    "a time in milliseconds after 'movetime'",
                    "a time in milliseconds",
                )?;
                let time = Duration::from_millis(millis);
                if time > MAX_THINK_TIME {
                    return Err(CommandError::BadArgument {
                        command: "go",
                        value: quote(value.unwrap_or_default()),
                        expected: "a time in milliseconds up to one day",
                    });
                }
                limits.move_time = Some(time);
            }
            "nodes" => {
                if limits.nodes.is_some() {
                    return Err(repeated());
                }
                let nodes: u64 =
                    number_argument("go", value, "a node count after 'nodes'", "a node count")?;
                if nodes == 0 {
                    return Err(CommandError::BadArgument {
                        command: "go",
                        value: quote("0"),
                        expected: "a node count of at least 1",
                    });
                }
                limits.nodes = Some(nodes);
            }
            _ => {
                return Err(CommandError::BadArgument {
                    command: "go",
                    value: quote(key),
                    expected: "a limit: depth <n>, movetime <ms> or nodes <n>",
                });
            }
        }
    }
    Ok(Command::Go(limits))
}

/// The rules of a `rules` command: a shorthand or an OpenTafl rules string.
fn parse_rules<B: Grid>(rest: &str) -> Result<Command<B>, CommandError> {
    let rest = rest.trim_matches(|c: char| c.is_ascii_whitespace());
    if rest.is_empty() {
        return Err(CommandError::Missing {
            command: "rules",
            what: "a rules string, or a game's name such as tablut or copenhagen",
        });
    }
    if let Some(variant) = AnyVariant::by_name(rest) {
        return Ok(Command::Rules(Box::new(variant)));
    }
    let mut words = rest.split_ascii_whitespace();
    if let (Some(first), Some(extra)) = (words.next(), words.next()) {
        if AnyVariant::by_name(first).is_some() {
            // `rules tablut extra`: a shorthand with a stray word, not a rules string.
            return Err(CommandError::Extra {
                command: "rules",
                takes: "a rules string, or a game's name alone",
                extra: quote(extra),
            });
        }
    }
    if !rest.contains(':') && !rest.contains(char::is_whitespace) {
        // A word that is not a name: say so, rather than that it is not a `key:value` field.
        return Err(CommandError::UnknownGame { name: quote(rest) });
    }
    rest.parse::<AnyVariant>()
        .map(|variant| Command::Rules(Box::new(variant)))
        .map_err(CommandError::Rules)
}

/// The text after the command word, without the spaces around it.
fn rest_of_line<'a>(line: &'a str, word: &str) -> &'a str {
    line.trim_start_matches(|c: char| c.is_ascii_whitespace())
        .get(word.len()..)
        .unwrap_or("")
        .trim_matches(|c: char| c.is_ascii_whitespace())
}

/// Reads one command from one line (without its line break). Blank lines give
/// [`CommandError::Empty`]; callers usually skip them before.
///
/// ```
/// use tafl_engine::protocol::{parse_command, Command};
/// assert_eq!(parse_command("perft 3"), Ok(Command::Perft(3)));
/// assert!(parse_command("perft three").is_err());
/// ```
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    parse_command_on::<Narrow>(line)
}

/// Reads one command as [`parse_command`] does, its moves for the board type `B`: with
/// [`Wide`], moves of boards up to 19x19 (`m13-m10`), and every move a narrow board has.
///
/// ```
/// use tafl_engine::protocol::{parse_command, parse_command_on, Command};
/// use tafl_engine::Wide;
/// assert!(matches!(parse_command_on::<Wide>("play-move m13-m10"), Ok(Command::PlayMove(_))));
/// assert!(parse_command("play-move m13-m10").is_err());
/// ```
pub fn parse_command_on<B: Grid>(line: &str) -> Result<Command<B>, CommandError> {
    if line.len() > MAX_LINE_BYTES {
        return Err(CommandError::TooLong(line.len()));
    }
    if let Some(c) = line.chars().find(|&c| c.is_control() && c != '\t') {
        return Err(CommandError::ControlCharacter(quote(&c.to_string())));
    }
    let mut words = line.split_ascii_whitespace();
    let Some(word) = words.next() else {
        return Err(CommandError::Empty);
    };
    let command = match word {
        "hello" => {
            no_more("hello", "no arguments", words)?;
            Command::Hello
        }
        "start" => {
            no_more("start", "no arguments", words)?;
            Command::Start
        }
        "rules" => return parse_rules(rest_of_line(line, word)),
        "position" => {
            let record = words.next().ok_or(CommandError::Missing {
                command: "position",
                what: "a position record, e.g. /3ttt3/4t4/.../",
            })?;
            no_more("position", "one position record", words)?;
            Command::Position(record.to_string())
        }
        "side" => {
            let side = side_argument("side", words.next())?;
            no_more("side", "one side", words)?;
            Command::Side(side)
        }
        "clock" => return parse_clock(words),
        "play" => {
            let side = side_argument("play", words.next())?;
            no_more("play", "one side", words)?;
            Command::Play(side)
        }
        "move" => {
            let record = words.next().ok_or(CommandError::Missing {
                command: "move",
                what: "the position record after our move",
            })?;
            no_more("move", "one position record", words)?;
            Command::Move(record.to_string())
        }
        "opponent-move" => {
            let what = "moves (m1|m2...) and the position record after them";
            let list = words.next().ok_or(CommandError::Missing {
                command: "opponent-move",
                what,
            })?;
            let record = words.next().ok_or(CommandError::Missing {
                command: "opponent-move",
                what,
            })?;
            no_more("opponent-move", what, words)?;
            let moves = list
                .split('|')
                .map(|text| parse_move("opponent-move", text))
                .collect::<Result<Vec<_>, _>>()?;
            Command::OpponentMove {
                moves,
                record: record.to_string(),
            }
        }
        "analyze" => {
            let what = "a number of lines and a number of seconds";
            let lines: usize = number_argument(
                "analyze",
                words.next(),
                what,
                "a number of lines from 1 to 400",
            )?;
            if !(1..=crate::moves::MAX_LEGAL_MOVES).contains(&lines) {
                return Err(CommandError::BadArgument {
                    command: "analyze",
                    value: quote(&lines.to_string()),
                    expected: "a number of lines from 1 to 400",
                });
            }
            let time = seconds_argument("analyze", words.next())?;
            no_more("analyze", what, words)?;
            Command::Analyze { lines, time }
        }
        "error" => {
            let text = words.next().ok_or(CommandError::Missing {
                command: "error",
                what: "an error code",
            })?;
            let code = text
                .strip_prefix('-')
                .unwrap_or(text)
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| text.parse::<i64>().ok())
                .flatten()
                .ok_or_else(|| CommandError::BadArgument {
                    command: "error",
                    value: quote(text),
                    expected: "an error code (a whole number)",
                })?;
            let message = rest_of_line(line, word)
                .get(text.len()..)
                .unwrap_or("")
                .trim()
                .to_string();
            Command::HostError { code, message }
        }
        "finish" => {
            let code: u8 = number_argument(
                "finish",
                words.next(),
                "a finish code (0, 1, 2 or 3)",
                "a finish code (0, 1, 2 or 3)",
            )?;
            let code = match code {
                0 => FinishCode::Stopped,
                1 => FinishCode::Draw,
                2 => FinishCode::AttackersWon,
                3 => FinishCode::DefendersWon,
                _ => {
                    return Err(CommandError::BadArgument {
                        command: "finish",
                        value: quote(&code.to_string()),
                        expected: "a finish code (0, 1, 2 or 3)",
                    });
                }
            };
            no_more("finish", "one finish code", words)?;
            Command::Finish(code)
        }
        "goodbye" => {
            no_more("goodbye", "no arguments", words)?;
            Command::Goodbye
        }
        "perft" | "divide" => {
            let name = if word == "perft" { "perft" } else { "divide" };
            let depth: u32 = number_argument(name, words.next(), "a depth", "a depth")?;
            no_more(name, "one depth", words)?;
            if name == "perft" {
                Command::Perft(depth)
            } else {
                Command::Divide(depth)
            }
        }
        "show" => {
            no_more("show", "no arguments", words)?;
            Command::Show
        }
        "moves" => {
            no_more("moves", "no arguments", words)?;
            Command::Moves
        }
        "play-move" => {
            let text = words.next().ok_or(CommandError::Missing {
                command: "play-move",
                what: "a move, e.g. e2-h2",
            })?;
            no_more("play-move", "one move", words)?;
            Command::PlayMove(parse_move("play-move", text)?)
        }
        "undo" => {
            no_more("undo", "no arguments", words)?;
            Command::Undo
        }
        "new" => {
            no_more("new", "no arguments", words)?;
            Command::New
        }
        "go" => return parse_go(words),
        "stop" => {
            no_more("stop", "no arguments", words)?;
            Command::Stop
        }
        "help" => {
            no_more("help", "no arguments", words)?;
            Command::Help
        }
        _ => return Err(CommandError::Unknown(quote(word))),
    };
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn error_text(line: &str) -> String {
        parse_command(line).unwrap_err().to_string()
    }

    #[test]
    fn otep_commands_parse() {
        assert_eq!(parse_command("hello"), Ok(Command::Hello));
        assert_eq!(parse_command("  start  "), Ok(Command::Start));
        assert_eq!(
            parse_command("side defenders"),
            Ok(Command::Side(Side::Defenders))
        );
        assert_eq!(
            parse_command("play attackers"),
            Ok(Command::Play(Side::Attackers))
        );
        assert_eq!(
            parse_command("position /9/9/9/9/9/9/9/9/9/"),
            Ok(Command::Position("/9/9/9/9/9/9/9/9/9/".into()))
        );
        assert_eq!(
            parse_command("finish 3"),
            Ok(Command::Finish(FinishCode::DefendersWon))
        );
        assert_eq!(
            parse_command("error 2"),
            Ok(Command::HostError {
                code: 2,
                message: String::new()
            })
        );
        assert_eq!(
            parse_command("error -1 engine went away"),
            Ok(Command::HostError {
                code: -1,
                message: "engine went away".into()
            })
        );
        assert_eq!(
            parse_command("analyze 3 0.5"),
            Ok(Command::Analyze {
                lines: 3,
                time: Duration::from_millis(500)
            })
        );
        assert_eq!(parse_command("goodbye"), Ok(Command::Goodbye));
    }

    #[test]
    fn opponent_move_takes_simple_and_full_moves_in_a_list() {
        let Ok(Command::OpponentMove { moves, record }) =
            parse_command("opponent-move te2-h2|Ke5-e8xe9/d8-- /9/9/9/9/9/9/9/9/9/")
        else {
            panic!("not parsed");
        };
        let texts: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(texts, ["e2-h2", "e5-e8"]);
        assert_eq!(record, "/9/9/9/9/9/9/9/9/9/");
    }

    #[test]
    fn clock_reads_overtime_marks_and_negative_times() {
        let Ok(Command::Clock(clock)) = parse_command("clock 1500* -1 30 2 3 ") else {
            panic!("not parsed");
        };
        assert_eq!(clock.attackers.millis, Some(1500));
        assert!(clock.attackers.in_overtime);
        assert_eq!(clock.attackers.periods, 2);
        assert_eq!(clock.defenders.millis, None);
        assert_eq!(clock.defenders.periods, 3);
        assert_eq!(clock.overtime, Duration::from_secs(30));
        let attackers = clock.for_side(Side::Attackers).unwrap();
        assert_eq!(attackers.remaining, Duration::from_millis(1500));
        assert!(attackers.in_overtime);
        // No main time, but periods: the clock is the periods alone.
        let defenders = clock.for_side(Side::Defenders).unwrap();
        assert_eq!(defenders.remaining, Duration::ZERO);
        assert_eq!(defenders.overtime_periods, 3);
    }

    #[test]
    fn rules_take_shorthands_and_strings() {
        assert!(matches!(parse_command("rules tablut"), Ok(Command::Rules(v)) if v.size() == 9));
        assert!(
            matches!(parse_command("rules Tawlbwrdd"), Ok(Command::Rules(v)) if v.size() == 11)
        );
        let string = Variant::tablut().to_string();
        assert!(
            matches!(parse_command(&format!("rules {string}")), Ok(Command::Rules(v)) if *v == AnyVariant::Narrow(Variant::tablut()))
        );
        // Boards above 11x11, by name or string, whatever the grid of the command's moves.
        let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13();
        for line in [
            "rules hnefatafl-org-copenhagen-13".to_string(),
            format!("rules {thirteen}"),
        ] {
            let expected = AnyVariant::Wide(thirteen.clone());
            assert!(matches!(parse_command(&line), Ok(Command::Rules(v)) if *v == expected));
            assert!(
                matches!(parse_command_on::<Wide>(&line), Ok(Command::Rules(v)) if *v == expected)
            );
        }
        let too_large = parse_command("rules dim:21 start:/21/").unwrap_err();
        assert!(too_large.is_critical() && too_large.to_string().contains("21"));
        let refused =
            parse_command(&format!("rules {}", string.replace("linc:n", "linc:y"))).unwrap_err();
        assert!(refused.is_critical());
        assert!(refused.to_string().contains("linc"), "{refused}");
        // A missing rules string, or a shorthand with more words, is a malformed command, not
        // a refused game.
        assert_eq!(parse_command("rules").unwrap_err().code(), 0);
        assert_eq!(parse_command("rules tablut 9").unwrap_err().code(), 0);
        assert_eq!(parse_command("rules dim:9").unwrap_err().code(), -1);
    }

    #[test]
    fn go_takes_each_limit_once() {
        assert_eq!(parse_command("go"), Ok(Command::Go(GoLimits::default())));
        assert_eq!(
            parse_command("go depth 4 movetime 250"),
            Ok(Command::Go(GoLimits {
                depth: Some(4),
                move_time: Some(Duration::from_millis(250)),
                nodes: None
            }))
        );
        for bad in [
            "go depth",
            "go depth 0",
            "go depth 4 depth 5",
            "go movetime x",
            "go nodes 0",
            "go fast",
        ] {
            assert!(parse_command(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn errors_say_what_was_wrong() {
        assert!(error_text("perft").contains("needs a depth"));
        assert!(error_text("perft -1").contains("'-1' is not a depth"));
        assert!(error_text("perft 3 4").contains("unexpected '4'"));
        assert!(error_text("side up").contains("'up'"));
        assert!(error_text("fly me").contains("unknown command 'fly'"));
        assert!(error_text("play-move e2h2").contains("bad move 'e2h2'"));
        assert!(error_text("play-move z2-h2").contains("bad move"));
        assert!(error_text("opponent-move e2-h2").contains("needs moves"));
        assert!(error_text("clock 1 2 3 4").contains("five fields"));
        assert!(error_text("clock 1 2 3 4 5 6").contains("unexpected '6'"));
        assert!(error_text("clock 1x 2 3 4 5").contains("'1x'"));
        assert!(error_text("analyze 0 5").contains("from 1 to 400"));
        assert!(error_text("analyze 3 -5").contains("seconds"));
        assert!(error_text("analyze 3 NaN").contains("seconds"));
        assert!(error_text("finish 7").contains("finish code"));
        assert!(error_text("goodbye now").contains("unexpected 'now'"));
        assert!(error_text("show\u{0}").contains("control character"));
        assert!(error_text(&"x".repeat(MAX_LINE_BYTES + 1)).contains("longer"));
    }

    #[test]
    fn quoted_input_is_printable_ascii_and_short() {
        let quoted = quote("a\u{1b}[2Jb\u{fffd}\u{7f}");
        assert!(quoted.chars().all(|c| c.is_ascii_graphic() || c == ' '));
        assert!(quote(&"y".repeat(1000)).len() < 50);
    }
}
