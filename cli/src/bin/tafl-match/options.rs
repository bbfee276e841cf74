//! The command line: flags, engine specifications and time controls.

use std::path::PathBuf;
use std::time::Duration;

use tafl_engine::{AnyVariant, Variant};

use crate::stats::Sprt;

/// The usage text printed by `--help` and after a bad flag.
pub const USAGE: &str = "\
usage: tafl-match --a ENGINE --b ENGINE [options]

ENGINE is a built-in player or an external OTEP engine:
  otep:<command line>      any OTEP engine, e.g. otep:target/release/tafl-engine --threads 1
                           (words split as a shell would, with '...' and \"...\" quoting)
  engine[:opt,opt...]      this crate's searcher in process; options depth=N nodes=N
                           threads=N hash=MiB contempt=N eval=default|basic no-null no-lmr no-futility
                           no-reverse-futility no-lmp no-quiescence no-aspiration threat-extension
                           no-threat-extension hand-eval network=FILE
                           w.TERM=VALUE (one evaluation weight); it plays the match's clock
  greedy                   wins at once if it can, else the best static evaluation
  random                   a uniformly random legal move (seeded)

options:
  --variant NAME[,NAME...]  games to play: a built-in name or a whole OpenTafl rules string,
                            boards from 5x5 to 19x19; repeatable; default every built-in
                            variant up to 11x11
  --games N                 games per variant (default 2); each opening is played twice,
                            the colours swapped
  --movetime MS             time per move for both engines (default 100)
  --clock MS[+INC]          a game clock for A (and B unless --b-clock): main time, increment
  --b-clock MS[+INC]        B's clock (time odds); --b-movetime MS likewise
  --margin MS               how far past its time an engine may answer (default 200)
  --settle MS               after an engine's move, wait MS before telling it the opponent's
                            (default 0; OpenTafl's AI updates its own board after sending its
                            move, and an answer that comes at once races that and crashes it)
  --own-clock               each engine's `clock` shows its own time for both sides (OpenTafl's
                            engine plans its time by the attackers' figure of the first `clock`
                            of a game, so with time odds it needs this to see its own)
  --max-plies N             a game reaching N plies is a draw (default 400)
  --opening-plies N         random plies of a seeded opening (default 4)
  --openings FILE           openings from a file instead, used in order (docs/tafl-match.md)
  --seed S                  seed of the openings and random players (default 1)
  --concurrency N           games played at once (default 1)
  --sprt ELO0 ELO1 ALPHA BETA  stop once the SPRT decides
  --log DIR                 protocol talk of every game, engines' stderr
  --records DIR             one OpenTafl game record (.otg) per game
  --a-name NAME, --b-name NAME  names for the output and records
  --hello-timeout MS        how long an engine may take to say hello (default 30000)
  --quiet                   no line per game
";

/// How much time a side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time for every move.
    MoveTime(Duration),
    /// A game clock: main time, and an increment added after each move.
    Clock {
        /// Main time.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

impl TimeControl {
    /// Reads `MS` or `MS+INC` as a clock.
    fn parse_clock(flag: &str, text: &str) -> Result<TimeControl, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let millis = |part: &str| {
            part.trim()
                .parse::<u64>()
                .map(Duration::from_millis)
                .map_err(|_| format!("{flag} wants MS or MS+INC in milliseconds, not {text:?}"))
        };
        let base = millis(base)?;
        let increment = millis(increment)?;
        if base.is_zero() && increment.is_zero() {
            return Err(format!("{flag}: a clock of no time"));
        }
        Ok(TimeControl::Clock { base, increment })
    }

    /// The OpenTafl `time-control` tag: main seconds and an increment (`20 0.5i`).
    pub fn record_tag(&self) -> String {
        match self {
            TimeControl::MoveTime(time) => format!("0 1/{}", seconds(*time)),
            TimeControl::Clock { base, increment } if increment.is_zero() => seconds(*base),
            TimeControl::Clock { base, increment } => {
                format!("{} {}i", seconds(*base), seconds(*increment))
            }
        }
    }
}

fn seconds(time: Duration) -> String {
    let text = format!("{:.3}", time.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::MoveTime(time) => write!(f, "{} ms a move", time.as_millis()),
            TimeControl::Clock { base, increment } => {
                write!(f, "{} ms", base.as_millis())?;
                if !increment.is_zero() {
                    write!(f, " + {} ms a move", increment.as_millis())?;
                }
                Ok(())
            }
        }
    }
}

/// Everything the command line sets.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Engine A's specification.
    pub a: String,
    /// Engine B's specification.
    pub b: String,
    /// A's name in the output.
    pub a_name: String,
    /// B's name in the output.
    pub b_name: String,
    /// The games to play, each on the grid its board needs.
    pub variants: Vec<AnyVariant>,
    /// Games per variant.
    pub games: u32,
    /// A's time.
    pub a_time: TimeControl,
    /// B's time.
    pub b_time: TimeControl,
    /// Lateness forgiven to an engine's answer.
    pub margin: Duration,
    /// Each engine's `clock` shows its own time for both sides.
    pub own_clock: bool,
    /// How long after an engine's move the host waits before it speaks to it again.
    pub settle: Duration,
    /// Plies after which a game is a draw.
    pub max_plies: usize,
    /// Random plies of a seeded opening.
    pub opening_plies: u32,
    /// A file of openings.
    pub openings: Option<PathBuf>,
    /// Seed of the openings and random players.
    pub seed: u64,
    /// Games at once.
    pub concurrency: usize,
    /// The stopping test.
    pub sprt: Option<Sprt>,
    /// Where the protocol logs go.
    pub log: Option<PathBuf>,
    /// Where the game records go.
    pub records: Option<PathBuf>,
    /// How long an engine may take to start.
    pub hello_timeout: Duration,
    /// No line per game.
    pub quiet: bool,
}

/// Reads the command line (without the program name). `Err` holds the message to print.
pub fn parse(args: &[String]) -> Result<Settings, String> {
    let mut a = None;
    let mut b = None;
    let mut a_name = None;
    let mut b_name = None;
    let mut variants: Vec<AnyVariant> = Vec::new();
    let mut games = 2u32;
    let mut movetime = None;
    let mut clock = None;
    let mut b_movetime = None;
    let mut b_clock = None;
    let mut settings_margin = Duration::from_millis(200);
    let mut max_plies = 400usize;
    let mut opening_plies = 4u32;
    let mut openings = None;
    let mut seed = 1u64;
    let mut concurrency = 1usize;
    let mut sprt = None;
    let mut log = None;
    let mut records = None;
    let mut hello_timeout = Duration::from_millis(30_000);
    let mut quiet = false;
    let mut own_clock = false;
    let mut settle = Duration::ZERO;

    let mut index = 0;
    while index < args.len() {
        let flag = args[index].as_str();
        index += 1;
        let mut value = |what: &str| -> Result<String, String> {
            let value = args
                .get(index)
                .ok_or_else(|| format!("{flag} needs {what}"))?
                .clone();
            index += 1;
            Ok(value)
        };
        match flag {
            "--help" | "-h" => return Err(USAGE.to_string()),
            "--quiet" => quiet = true,
            "--own-clock" => own_clock = true,
            "--a" => a = Some(value("an engine")?),
            "--b" => b = Some(value("an engine")?),
            "--a-name" => a_name = Some(value("a name")?),
            "--b-name" => b_name = Some(value("a name")?),
            "--variant" => {
                let text = value("a variant")?;
                variants.extend(parse_variants(&text)?);
            }
            "--games" => games = number(flag, &value("a number")?)?,
            "--movetime" => movetime = Some(millis(flag, &value("milliseconds")?)?),
            "--b-movetime" => b_movetime = Some(millis(flag, &value("milliseconds")?)?),
            "--clock" => clock = Some(TimeControl::parse_clock(flag, &value("MS[+INC]")?)?),
            "--b-clock" => b_clock = Some(TimeControl::parse_clock(flag, &value("MS[+INC]")?)?),
            "--settle" => settle = millis(flag, &value("milliseconds")?)?,
            "--margin" => settings_margin = millis(flag, &value("milliseconds")?)?,
            "--max-plies" => max_plies = number(flag, &value("a number")?)?,
            "--opening-plies" => opening_plies = number(flag, &value("a number")?)?,
            "--openings" => openings = Some(PathBuf::from(value("a file")?)),
            "--seed" => seed = number(flag, &value("a number")?)?,
            "--concurrency" => concurrency = number(flag, &value("a number")?)?,
            "--sprt" => {
                let mut four = [0f64; 4];
                for slot in &mut four {
                    let text = value("ELO0 ELO1 ALPHA BETA")?;
                    *slot = text
                        .parse()
                        .map_err(|_| format!("--sprt wants four numbers, not {text:?}"))?;
                }
                sprt = Some(Sprt::new(four[0], four[1], four[2], four[3])?);
            }
            "--log" => log = Some(PathBuf::from(value("a directory")?)),
            "--records" => records = Some(PathBuf::from(value("a directory")?)),
            "--hello-timeout" => hello_timeout = millis(flag, &value("milliseconds")?)?,
            other => return Err(format!("unknown option {other:?}\n\n{USAGE}")),
        }
    }
    let a = a.ok_or_else(|| format!("--a is missing\n\n{USAGE}"))?;
    let b = b.ok_or_else(|| format!("--b is missing\n\n{USAGE}"))?;
    if variants.is_empty() {
        // The games up to 11x11, as before boards above it were played.
        variants = Variant::names()
            .iter()
            .filter_map(|name| Variant::by_name(name))
            .map(AnyVariant::Narrow)
            .collect();
    }
    if games == 0 {
        return Err("--games: at least one game".to_string());
    }
    if concurrency == 0 {
        return Err("--concurrency: at least 1".to_string());
    }
    if movetime.is_some() && clock.is_some() {
        return Err("--movetime and --clock exclude each other".to_string());
    }
    if b_movetime.is_some() && b_clock.is_some() {
        return Err("--b-movetime and --b-clock exclude each other".to_string());
    }
    let a_time = match (movetime, clock) {
        (_, Some(clock)) => clock,
        (Some(time), None) => TimeControl::MoveTime(time),
        (None, None) => TimeControl::MoveTime(Duration::from_millis(100)),
    };
    let b_time = match (b_movetime, b_clock) {
        (_, Some(clock)) => clock,
        (Some(time), None) => TimeControl::MoveTime(time),
        (None, None) => a_time,
    };
    for time in [a_time, b_time] {
        if time == TimeControl::MoveTime(Duration::ZERO) {
            return Err("a move time of 0 ms".to_string());
        }
    }
    Ok(Settings {
        a_name: a_name.unwrap_or_else(|| a.clone()),
        b_name: b_name.unwrap_or_else(|| b.clone()),
        a,
        b,
        variants,
        games,
        a_time,
        b_time,
        margin: settings_margin,
        own_clock,
        settle,
        max_plies,
        opening_plies,
        openings,
        seed,
        concurrency,
        sprt,
        log,
        records,
        hello_timeout,
        quiet,
    })
}

/// A comma-separated list of built-in names, or one whole rules string (it has `:` in it) of a
/// board from 5x5 to 19x19.
fn parse_variants(text: &str) -> Result<Vec<AnyVariant>, String> {
    if text.contains(':') {
        return text
            .parse::<AnyVariant>()
            .map(|variant| vec![variant])
            .map_err(|error| format!("--variant: the rules string is refused: {error}"));
    }
    text.split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| {
            AnyVariant::by_name(name).ok_or_else(|| {
                format!(
                    "--variant: unknown game {name:?}; known: {}",
                    AnyVariant::names().collect::<Vec<_>>().join(", ")
                )
            })
        })
        .collect()
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{flag} wants a whole number, not {text:?}"))
}

fn millis(flag: &str, text: &str) -> Result<Duration, String> {
    number::<u64>(flag, text).map(Duration::from_millis)
}

/// Splits a command line into words as a POSIX shell would for plain words: white space
/// separates, `'...'` quotes literally, `"..."` quotes with `\"` and `\\` escapes, and a
/// backslash outside quotes escapes the next character. No variables, globs or redirections.
pub fn split_command_line(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("an unclosed ' in {text:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("an unclosed \" in {text:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("an unclosed \" in {text:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command_line(r#"sh -c 'cd /x && exec java' "a \"b\"" c\ d"#).unwrap(),
            ["sh", "-c", "cd /x && exec java", "a \"b\"", "c d"]
        );
        assert_eq!(split_command_line("  ").unwrap(), Vec::<String>::new());
        assert!(split_command_line("'open").is_err());
    }

    #[test]
    fn b_gets_a_s_time_unless_told_otherwise() {
        let settings = parse(&args("--a random --b greedy --clock 20000+100")).unwrap();
        let clock = TimeControl::Clock {
            base: Duration::from_secs(20),
            increment: Duration::from_millis(100),
        };
        assert_eq!(settings.a_time, clock);
        assert_eq!(settings.b_time, clock);
        let odds = parse(&args(
            "--a random --b greedy --clock 20000 --b-clock 200000",
        ))
        .unwrap();
        assert_eq!(
            odds.b_time,
            TimeControl::Clock {
                base: Duration::from_secs(200),
                increment: Duration::ZERO
            }
        );
        assert_eq!(odds.b_time.record_tag(), "200");
    }

    #[test]
    fn bad_flags_say_what_is_wrong() {
        for (line, fragment) in [
            ("--a random", "--b is missing"),
            (
                "--a random --b random --games x",
                "--games wants a whole number",
            ),
            ("--a random --b random --variant chess", "unknown game"),
            ("--a random --b random --clock 5+", "MS or MS+INC"),
            ("--a random --b random --sprt 0 5 0.05", "--sprt needs"),
            ("--a random --b random --frobnicate", "unknown option"),
        ] {
            let error = parse(&args(line)).unwrap_err();
            assert!(error.contains(fragment), "{line}: {error}");
        }
    }

    #[test]
    fn boards_up_to_19x19_are_taken_by_name_or_rules_string() {
        let settings = parse(&args(
            "--a random --b random --variant tablut,hnefatafl-org-copenhagen-13",
        ))
        .unwrap();
        assert!(matches!(settings.variants[0], AnyVariant::Narrow(_)));
        assert!(matches!(settings.variants[1], AnyVariant::Wide(_)));
        let nineteen = format!("dim:19 atkf:y start:/{}/", {
            let mut rows = vec!["19".to_string(); 19];
            rows[9] = "9K9".to_string();
            rows.join("/")
        });
        let parsed = parse_variants(&nineteen).unwrap();
        assert_eq!(parsed[0].size(), 19);
        let error = parse_variants("dim:21 start:/21/").unwrap_err();
        assert!(error.contains("the rules string is refused"), "{error}");
        let unknown = parse_variants("chess").unwrap_err();
        assert!(unknown.contains("hnefatafl-org-copenhagen-13"), "{unknown}");
    }

    #[test]
    fn every_built_in_variant_by_default() {
        let settings = parse(&args("--a random --b random")).unwrap();
        assert_eq!(settings.variants.len(), Variant::names().len());
    }
}
