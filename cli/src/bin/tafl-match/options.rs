//! The command line, read by clap: flags, engine specifications and time controls. Every usage
//! mistake (an unknown or repeated flag, a bad value, flags that exclude each other) exits with
//! status 2 and clap's message, before anything is started.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::error::ErrorKind;
use clap::{ArgAction, CommandFactory, Parser};
use tafl_engine::{AnyVariant, Variant};

use crate::spec::EngineSpec;
use crate::stats::Sprt;

/// The most random plies a seeded opening may have (`--opening-plies`): more leave few games
/// to play, and random plies end most games long before.
pub const MAX_OPENING_PLIES: u32 = 200;

/// What `--help` says after the flags: the engines.
const ENGINES_HELP: &str = "\
ENGINE is a built-in player or an external OTEP engine:
  otep:<command line>   any OTEP engine, e.g. otep:target/release/tafl-engine --threads 1
                        (words split as a shell would, with '...' and \"...\" quoting)
  engine[:opt,opt...]   this crate's searcher in process; options depth=N nodes=N threads=N
                        hash=MiB contempt=N eval=default|basic no-null no-lmr no-futility
                        no-reverse-futility no-lmp no-quiescence no-aspiration
                        threat-extension no-threat-extension hand-eval network=FILE
                        w.TERM=VALUE (one evaluation weight); it plays the match's clock
  greedy                wins at once if it can, else the best static evaluation
  random                a uniformly random legal move (seeded)

The last line printed is always `A vs B: +W =D -L of N; score S; Elo E ± M`.
See docs/tafl-match.md.";

/// The command line as clap reads it; [`parse`] checks what clap cannot and makes [`Settings`].
#[derive(Parser, Debug)]
#[command(
    name = "tafl-match",
    version,
    about = "Plays two tafl engines against each other over many games and reports wins, draws, \
             losses and the Elo difference.",
    after_help = ENGINES_HELP
)]
struct Cli {
    /// Engine A (see ENGINE below)
    #[arg(long, value_name = "ENGINE")]
    a: EngineSpec,
    /// Engine B
    #[arg(long, value_name = "ENGINE")]
    b: EngineSpec,
    /// A's name in the output and records [default: its ENGINE]
    #[arg(long, value_name = "NAME")]
    a_name: Option<String>,
    /// B's name in the output and records [default: its ENGINE]
    #[arg(long, value_name = "NAME")]
    b_name: Option<String>,
    /// Games to play: built-in names, or one whole OpenTafl rules string of a board from 5x5 to
    /// 19x19; repeatable [default: every built-in variant up to 11x11]
    #[arg(long, value_name = "NAME[,NAME...]", value_parser = parse_variants, action = ArgAction::Append)]
    variant: Vec<VariantList>,
    /// Games per variant; each opening is played twice, the colours swapped
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = at_least_one::<u32>)]
    games: u32,
    /// Time per move for both engines, in milliseconds [default: 100]
    #[arg(long, value_name = "MS", value_parser = move_time, conflicts_with = "clock")]
    movetime: Option<Duration>,
    /// A game clock for A (and B unless --b-clock): main time and increment, in milliseconds
    #[arg(long, value_name = "MS[+INC]", value_parser = TimeControl::parse_clock)]
    clock: Option<TimeControl>,
    /// B's time per move (time odds)
    #[arg(long, value_name = "MS", value_parser = move_time, conflicts_with = "b_clock")]
    b_movetime: Option<Duration>,
    /// B's clock (time odds)
    #[arg(long, value_name = "MS[+INC]", value_parser = TimeControl::parse_clock)]
    b_clock: Option<TimeControl>,
    /// How far past its time an engine may answer, in milliseconds
    #[arg(long, value_name = "MS", default_value = "200", value_parser = millis)]
    margin: Duration,
    /// After an engine's move, wait MS before telling it the opponent's (OpenTafl's AI updates
    /// its own board after sending its move, and an answer that comes at once races that)
    #[arg(long, value_name = "MS", default_value = "0", value_parser = millis)]
    settle: Duration,
    /// Each engine's `clock` shows its own time for both sides (OpenTafl's AI plans by the
    /// attackers' figure, so with time odds it needs this)
    #[arg(long)]
    own_clock: bool,
    /// A game reaching N plies (its opening's counted) is a draw
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = at_least_one::<usize>)]
    max_plies: usize,
    /// Random plies of a seeded opening (at most 200, and fewer than --max-plies)
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = opening_plies)]
    opening_plies: u32,
    /// Openings from a file instead, used in order and cycled (docs/tafl-match.md)
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seed of the openings and random players
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Games played at once
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = at_least_one::<usize>)]
    concurrency: usize,
    /// Stop once the sequential probability ratio test decides between ELO0 and ELO1
    #[arg(
        long,
        num_args = 4,
        value_names = ["ELO0", "ELO1", "ALPHA", "BETA"],
        allow_negative_numbers = true,
        action = ArgAction::Set
    )]
    sprt: Option<Vec<f64>>,
    /// Protocol talk of every game and the engines' stderr, in this directory
    #[arg(long, value_name = "DIR", value_parser = directory)]
    log: Option<PathBuf>,
    /// One OpenTafl game record (.otg) per game, in this directory
    #[arg(long, value_name = "DIR", value_parser = directory)]
    records: Option<PathBuf>,
    /// How long an engine may take to say hello, in milliseconds
    #[arg(long, value_name = "MS", default_value = "30000", value_parser = millis)]
    hello_timeout: Duration,
    /// No line per game
    #[arg(long)]
    quiet: bool,
}

/// The games one `--variant` names.
#[derive(Clone, Debug)]
struct VariantList(Vec<AnyVariant>);

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
    fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let millis = |part: &str| {
            part.trim()
                .parse::<u64>()
                .map(Duration::from_millis)
                .map_err(|_| "wants MS or MS+INC in milliseconds".to_string())
        };
        let base = millis(base)?;
        let increment = millis(increment)?;
        if base.is_zero() && increment.is_zero() {
            return Err("a clock of no time".to_string());
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
    /// Engine A.
    pub a: EngineSpec,
    /// Engine B.
    pub b: EngineSpec,
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

/// Reads the command line (without the program name). `Err` is clap's: `--help` (print it,
/// exit 0) or a usage mistake (exit 2); `Error::exit` does either.
pub fn parse<I, T>(args: I) -> Result<Settings, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let program = std::iter::once(std::ffi::OsString::from("tafl-match"));
    let cli = Cli::try_parse_from(program.chain(args.into_iter().map(Into::into)))?;
    let usage = |kind: ErrorKind, message: String| Cli::command().error(kind, message);
    let sprt = match cli.sprt.as_deref() {
        Some(&[elo0, elo1, alpha, beta]) => Some(
            Sprt::new(elo0, elo1, alpha, beta)
                .map_err(|message| usage(ErrorKind::ValueValidation, message))?,
        ),
        // clap takes exactly four values.
        _ => None,
    };
    if cli.openings.is_none() && cli.opening_plies as usize >= cli.max_plies {
        return Err(usage(
            ErrorKind::ValueValidation,
            format!(
                "--opening-plies {} leaves no game to play under --max-plies {}: an opening must \
                 be shorter than the ply cap",
                cli.opening_plies, cli.max_plies
            ),
        ));
    }
    let mut variants: Vec<AnyVariant> = cli.variant.into_iter().flat_map(|list| list.0).collect();
    if variants.is_empty() {
        // The games up to 11x11, as before boards above it were played.
        variants = Variant::names()
            .iter()
            .filter_map(|name| Variant::by_name(name))
            .map(AnyVariant::Narrow)
            .collect();
    }
    let a_time = match (cli.movetime, cli.clock) {
        (_, Some(clock)) => clock,
        (Some(time), None) => TimeControl::MoveTime(time),
        (None, None) => TimeControl::MoveTime(Duration::from_millis(100)),
    };
    let b_time = match (cli.b_movetime, cli.b_clock) {
        (_, Some(clock)) => clock,
        (Some(time), None) => TimeControl::MoveTime(time),
        (None, None) => a_time,
    };
    Ok(Settings {
        a_name: cli.a_name.unwrap_or_else(|| cli.a.text.clone()),
        b_name: cli.b_name.unwrap_or_else(|| cli.b.text.clone()),
        a: cli.a,
        b: cli.b,
        variants,
        games: cli.games,
        a_time,
        b_time,
        margin: cli.margin,
        own_clock: cli.own_clock,
        settle: cli.settle,
        max_plies: cli.max_plies,
        opening_plies: cli.opening_plies,
        openings: cli.openings,
        seed: cli.seed,
        concurrency: cli.concurrency,
        sprt,
        log: cli.log,
        records: cli.records,
        hello_timeout: cli.hello_timeout,
        quiet: cli.quiet,
    })
}

/// A comma-separated list of built-in names, or one whole rules string (it has `:` in it) of a
/// board from 5x5 to 19x19; at least one game.
fn parse_variants(text: &str) -> Result<VariantList, String> {
    if text.contains(':') {
        return text
            .parse::<AnyVariant>()
            .map(|variant| VariantList(vec![variant]))
            .map_err(|error| format!("the rules string is refused: {error}"));
    }
    let known = || AnyVariant::names().collect::<Vec<_>>().join(", ");
    let variants = text
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| {
            AnyVariant::by_name(name)
                .ok_or_else(|| format!("unknown game {name:?}; known: {}", known()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if variants.is_empty() {
        return Err(format!("no game named; known: {}", known()));
    }
    Ok(VariantList(variants))
}

fn whole<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| "wants a whole number".to_string())
}

fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(text: &str) -> Result<T, String> {
    let number: T = whole(text)?;
    if number < T::from(1) {
        return Err("must be at least 1".to_string());
    }
    Ok(number)
}

fn millis(text: &str) -> Result<Duration, String> {
    whole::<u64>(text)
        .map(Duration::from_millis)
        .map_err(|_| "wants milliseconds, a whole number".to_string())
}

fn move_time(text: &str) -> Result<Duration, String> {
    let time = millis(text)?;
    if time.is_zero() {
        return Err("a move time of 0 ms".to_string());
    }
    Ok(time)
}

fn opening_plies(text: &str) -> Result<u32, String> {
    let plies: u32 = whole(text)?;
    if plies > MAX_OPENING_PLIES {
        return Err(format!(
            "a seeded opening has at most {MAX_OPENING_PLIES} random plies"
        ));
    }
    Ok(plies)
}

/// A directory to write into: refused when something that is not a directory has its name
/// (it is created, with its parents, when the match starts).
fn directory(text: &str) -> Result<PathBuf, String> {
    let path = Path::new(text);
    if text.is_empty() {
        return Err("an empty path".to_string());
    }
    match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_dir() => {
            Err(format!("{} exists and is not a directory", path.display()))
        }
        _ => Ok(path.to_path_buf()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn b_gets_a_s_time_unless_told_otherwise() {
        let settings = parse(args("--a random --b greedy --clock 20000+100")).unwrap();
        let clock = TimeControl::Clock {
            base: Duration::from_secs(20),
            increment: Duration::from_millis(100),
        };
        assert_eq!(settings.a_time, clock);
        assert_eq!(settings.b_time, clock);
        let odds = parse(args("--a random --b greedy --clock 20000 --b-clock 200000")).unwrap();
        assert_eq!(
            odds.b_time,
            TimeControl::Clock {
                base: Duration::from_secs(200),
                increment: Duration::ZERO
            }
        );
        assert_eq!(odds.b_time.record_tag(), "200");
        let moves = parse(args("--a random --b greedy --movetime 30 --b-movetime 70")).unwrap();
        assert_eq!(
            moves.a_time,
            TimeControl::MoveTime(Duration::from_millis(30))
        );
        assert_eq!(
            moves.b_time,
            TimeControl::MoveTime(Duration::from_millis(70))
        );
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        let settings = parse(args("--a random --b greedy")).unwrap();
        assert_eq!(settings.games, 2);
        assert_eq!(
            settings.a_time,
            TimeControl::MoveTime(Duration::from_millis(100))
        );
        assert_eq!(settings.margin, Duration::from_millis(200));
        assert_eq!(settings.settle, Duration::ZERO);
        assert_eq!(settings.max_plies, 400);
        assert_eq!(settings.opening_plies, 4);
        assert_eq!(settings.seed, 1);
        assert_eq!(settings.concurrency, 1);
        assert_eq!(settings.hello_timeout, Duration::from_millis(30_000));
        assert_eq!(
            (settings.a_name.as_str(), settings.b_name.as_str()),
            ("random", "greedy")
        );
        assert!(!settings.quiet && !settings.own_clock);
        assert!(settings.sprt.is_none() && settings.log.is_none() && settings.openings.is_none());
    }

    #[test]
    fn an_sprt_takes_four_numbers_and_elo0_may_be_negative() {
        let settings = parse(args("--a random --b random --sprt -5 5 0.05 0.1")).unwrap();
        let sprt = settings.sprt.unwrap();
        assert_eq!(
            (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta),
            (-5.0, 5.0, 0.05, 0.1)
        );
    }

    #[test]
    fn bad_flags_are_usage_mistakes_that_say_what_is_wrong() {
        for (line, fragment) in [
            ("--a random", "--b <ENGINE>"),
            ("--a random --b random --games x", "wants a whole number"),
            ("--a random --b random --games 0", "must be at least 1"),
            ("--a random --b random --variant chess", "unknown game"),
            ("--a random --b random --clock 5+", "MS or MS+INC"),
            ("--a random --b random --clock 0", "a clock of no time"),
            ("--a random --b random --movetime 0", "a move time of 0 ms"),
            (
                "--a random --b random --movetime 5 --clock 9",
                "cannot be used with",
            ),
            ("--a random --b random --sprt 0 5 0.05", "4 values required"),
            (
                "--a random --b random --sprt 5 0 0.05 0.05",
                "must be below elo1",
            ),
            ("--a random --b random --frobnicate", "unexpected argument"),
            ("--a random --b random --gmaes 3", "--games"),
            (
                "--a random --a greedy --b random",
                "cannot be used multiple times",
            ),
            ("--a foo --b random", "unknown engine \"foo\""),
            ("--a random --b random --max-plies 0", "must be at least 1"),
            (
                "--a random --b random --opening-plies 100000",
                "at most 200 random plies",
            ),
            (
                "--a random --b random --opening-plies 10 --max-plies 10",
                "shorter than the ply cap",
            ),
            (
                "--a random --b random --concurrency 0",
                "must be at least 1",
            ),
        ] {
            let error = parse(args(line)).unwrap_err();
            assert_eq!(error.exit_code(), 2, "{line}: {error}");
            let text = error.to_string();
            assert!(text.contains(fragment), "{line}: {text}");
        }
        let help = parse(args("--help")).unwrap_err();
        assert_eq!(help.exit_code(), 0);
    }

    #[test]
    fn an_empty_variant_is_refused_not_read_as_every_variant() {
        for text in ["", ",", " , "] {
            let error = parse(["--a", "random", "--b", "random", "--variant", text]).unwrap_err();
            assert_eq!(error.exit_code(), 2);
            assert!(error.to_string().contains("no game named"), "{error}");
        }
    }

    #[test]
    fn boards_up_to_19x19_are_taken_by_name_or_rules_string() {
        let settings = parse(args(
            "--a random --b random --variant tablut,hnefatafl-org-copenhagen-13 --variant brandub",
        ))
        .unwrap();
        assert_eq!(settings.variants.len(), 3);
        assert!(matches!(settings.variants[0], AnyVariant::Narrow(_)));
        assert!(matches!(settings.variants[1], AnyVariant::Wide(_)));
        let nineteen = format!("dim:19 atkf:y start:/{}/", {
            let mut rows = vec!["19".to_string(); 19];
            rows[9] = "9K9".to_string();
            rows.join("/")
        });
        let parsed = parse_variants(&nineteen).unwrap();
        assert_eq!(parsed.0[0].size(), 19);
        let error = parse_variants("dim:21 start:/21/").unwrap_err();
        assert!(error.contains("the rules string is refused"), "{error}");
        let unknown = parse_variants("chess").unwrap_err();
        assert!(unknown.contains("hnefatafl-org-copenhagen-13"), "{unknown}");
    }

    #[test]
    fn every_built_in_variant_by_default() {
        let settings = parse(args("--a random --b random")).unwrap();
        assert_eq!(settings.variants.len(), Variant::names().len());
    }
}
