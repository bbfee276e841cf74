//! `tafl-engine hnefatafl-org ...`: a bot client for hnefatafl.org's server (the crate
//! hnefatafl-copenhagen 6.4.1's `hnefatafl-server`), playing its Copenhagen 11x11 and 13x13 and
//! Brandubh 7x7 under the server's own rules (docs/rules-hosts.md, H1-H12). See docs/hnefatafl-org.md.
//!
//! - `lines`: the server's lines, with a cap on their length and a read timeout;
//! - `messages`: the server's lines as the client reads them, and its commands;
//! - `table`: one game, the server's record replayed into the engine's `Game` (on the narrow
//!   grid for 7x7 and 11x11, the wide one for 13x13);
//! - `client`: the connection, the login, the games, reconnecting.

mod client;
mod lines;
mod messages;
mod table;

use std::time::Duration;

use clap::Parser;
use tafl_engine::Side;

use crate::remote;

/// The port hnefatafl.org's server listens on (its `SERVER_PORT`).
pub const SERVER_PORT: u16 = 49152;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: String,
    pub create_account: bool,
    /// Offer games as this side.
    pub new_game: Option<Side>,
    /// The board of the games offered.
    pub size: u8,
    /// Their clock: milliseconds, seconds added a move; `None` untimed.
    pub clock: Option<(i64, i64)>,
    pub rated: bool,
    pub join: Option<messages::GameId>,
    pub join_any: bool,
    pub tournament: bool,
    pub games: Option<usize>,
    pub move_time: Duration,
    pub threads: usize,
    pub hash_mb: usize,
    pub server_version: String,
    /// Reconnecting: the first wait, and the longest (the waits double up to it).
    pub retry_wait: Duration,
    pub retry_max_wait: Duration,
    /// Give up after this long without the server; `None`: never.
    pub give_up_after: Option<Duration>,
}

/// Whether `name` is a name the server takes for a new account (its `invalid_username`).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 16
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        && !name.starts_with(['-', '_'])
        && !name.ends_with(['-', '_'])
        && !["--", "-_", "_-", "__"]
            .iter()
            .any(|pair| name.contains(pair))
}

/// The command line as clap reads it (its doc comments are `--help`'s text).
#[derive(Parser, Debug)]
#[command(
    name = "tafl-engine hnefatafl-org",
    // A later flag replaces an earlier one (the tests add theirs after the defaults).
    args_override_self = true,
    about = "Plays as a bot account on a hnefatafl.org server: every game the server gives it, \
             and those it offers or joins. Progress and results go to stderr.",
    after_help = "Durations are a number and a unit, or several: 500ms, 90s, 10m, 2h, 1h30m, 1d.\n\n\
                  Exit status: 0 when --games games have ended, 1 if the server refuses the \
                  login or cannot be reached within --give-up-after, 2 for a bad command line."
)]
struct Command {
    /// the server
    #[arg(long, value_name = "host", default_value = "127.0.0.1")]
    host: String,
    /// its port (the one the server listens on)
    #[arg(long, value_name = "port", default_value_t = SERVER_PORT,
          value_parser = clap::value_parser!(u16).range(1..))]
    port: u16,
    /// the account; hnefatafl.org names bot accounts ai-... (at most 16 letters, digits, - and
    /// _, no two of - and _ together, none at the ends)
    #[arg(long, value_name = "name", value_parser = user)]
    user: String,
    /// its password: at most 32 characters, none of them control characters; empty (the
    /// default, or --password "") for none
    #[arg(long, value_name = "password", default_value = "", value_parser = password)]
    password: String,
    /// create the account if the server does not know it
    #[arg(long)]
    create_account: bool,
    /// offer a game as that side, one at a time, a new one when it is over, and accept the
    /// first player who asks to play it
    #[arg(long, value_name = "attacker|defender", value_parser = role)]
    new_game: Option<Side>,
    /// the board of the games offered
    #[arg(long, value_name = "11|13|7", default_value = "11",
          value_parser = ["11", "13", "7"])]
    size: String,
    /// their clock: m minutes and s seconds more a move; 'untimed' for none
    #[arg(long, value_name = "m+s", default_value = "15+10", value_parser = clock)]
    time: Clock,
    /// offer rated games (default unrated)
    #[arg(long)]
    rated: bool,
    /// ask to play the game offered with this id
    #[arg(long, value_name = "id")]
    join: Option<messages::GameId>,
    /// ask to play games offered (7x7, 11x11, 13x13), one at a time
    #[arg(long)]
    join_any: bool,
    /// join the server's tournament and play its games
    #[arg(long)]
    tournament: bool,
    /// exit after n games have ended (default: play on until stopped)
    #[arg(long, value_name = "n", value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    games: Option<u32>,
    /// the most thinking time a move; less on a short clock
    #[arg(long, value_name = "ms", default_value_t = 5000,
          value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: u64,
    #[command(flatten)]
    search: remote::SearchArgs,
    /// the version id the server wants at login (the default is the server 6.4.1's)
    #[arg(long, value_name = "id", default_value = messages::SERVER_VERSION_ID)]
    server_version: String,
    /// when the server cannot be reached: the first wait before connecting again (the waits
    /// double after each failed attempt, up to --retry-max-wait)
    #[arg(long, value_name = "duration", default_value = "1s", value_parser = duration)]
    retry_wait: Duration,
    /// the longest wait between two attempts to connect
    #[arg(long, value_name = "duration", default_value = "30s", value_parser = duration)]
    retry_max_wait: Duration,
    /// exit (status 1) after this long without the server (default: try again for ever)
    #[arg(long, value_name = "duration", value_parser = duration)]
    give_up_after: Option<Duration>,
}

/// A duration on the command line: one or more of a number and a unit (`ms`, `s`, `m`, `h`,
/// `d`), `1h30m`; at most 100 days.
fn duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("'{text}' is not a duration such as 500ms, 90s, 10m, 2h or 1h30m");
    let mut total = Duration::ZERO;
    let mut rest = text;
    if rest.is_empty() {
        return Err(bad());
    }
    while !rest.is_empty() {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let number: u64 = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let unit = rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .len();
        let millis = match &rest[..unit] {
            "ms" => 1,
            "s" => 1_000,
            "m" => 60_000,
            "h" => 3_600_000,
            "d" => 86_400_000,
            _ => return Err(bad()),
        };
        rest = &rest[unit..];
        total += Duration::from_millis(number.checked_mul(millis).ok_or_else(bad)?);
    }
    if total > Duration::from_secs(100 * 86_400) {
        return Err(format!("'{text}': at most 100 days"));
    }
    Ok(total)
}

/// A game's clock on the command line: milliseconds and seconds added a move, or none.
#[derive(Clone, Copy, Debug)]
struct Clock(Option<(i64, i64)>);

/// `--user`: a name the server takes.
fn user(name: &str) -> Result<String, String> {
    if valid_name(name) {
        Ok(name.to_string())
    } else {
        Err(format!("'{name}' is not a name the server takes"))
    }
}

/// `--password`: what the server's login line can carry (words split at white space, the
/// empty password included).
fn password(text: &str) -> Result<String, String> {
    if text.chars().count() > 32 || text.chars().any(char::is_control) {
        Err("at most 32 characters, none of them control characters".to_string())
    } else {
        Ok(text.to_string())
    }
}

/// `--new-game`: the side offered.
fn role(word: &str) -> Result<Side, String> {
    match word {
        "attacker" | "attackers" => Ok(Side::Attackers),
        "defender" | "defenders" => Ok(Side::Defenders),
        other => Err(format!("'{other}' is not attacker or defender")),
    }
}

/// `--time`: `m+s` (1 to 100000 minutes, 0 to 3600 seconds a move) or `untimed`.
fn clock(text: &str) -> Result<Clock, String> {
    if text == "untimed" {
        return Ok(Clock(None));
    }
    let (minutes, seconds) = text
        .split_once('+')
        .ok_or_else(|| format!("'{text}' is not m+s or untimed"))?;
    let minutes = minutes
        .parse::<i64>()
        .ok()
        .filter(|m| (1..=100_000).contains(m))
        .ok_or_else(|| format!("'{text}': minutes from 1 to 100000"))?;
    let seconds = seconds
        .parse::<i64>()
        .ok()
        .filter(|s| (0..=3600).contains(s))
        .ok_or_else(|| format!("'{text}': seconds from 0 to 3600"))?;
    Ok(Clock(Some((minutes * 60_000, seconds))))
}

/// Reads the subcommand's arguments (after `hnefatafl-org`). `Err` is clap's: `--help` (exit
/// status 0) or a usage mistake (2), with its message.
pub fn options(args: &[String]) -> Result<Options, clap::Error> {
    let command = Command::try_parse_from(
        std::iter::once("tafl-engine hnefatafl-org").chain(args.iter().map(String::as_str)),
    )?;
    Ok(Options {
        host: command.host,
        port: command.port,
        user: command.user,
        password: command.password,
        create_account: command.create_account,
        new_game: command.new_game,
        // One of the three the value parser lets through.
        size: command.size.parse().unwrap_or(11),
        clock: command.time.0,
        rated: command.rated,
        join: command.join,
        join_any: command.join_any,
        tournament: command.tournament,
        games: command.games.map(|games| games as usize),
        move_time: Duration::from_millis(command.movetime),
        threads: usize::from(command.search.threads),
        hash_mb: command.search.hash as usize,
        server_version: command.server_version,
        retry_wait: command.retry_wait.max(Duration::from_millis(1)),
        retry_max_wait: command.retry_max_wait.max(command.retry_wait),
        give_up_after: command.give_up_after,
    })
}

/// Runs the subcommand; returns the exit status.
pub fn main(args: &[String]) -> i32 {
    match options(args) {
        Ok(options) => {
            let mut log = |line: String| eprintln!("{line}");
            if !options.user.starts_with("ai-") {
                log(format!(
                    "note: hnefatafl.org names bot accounts ai-...; playing as {}",
                    options.user
                ));
            }
            client::Client::new(options).run(&mut log)
        }
        Err(error) => {
            // clap writes `--help` to stdout and a mistake to stderr; nothing to do if it
            // cannot write.
            let _ = error.print();
            error.exit_code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn defaults_and_every_option() {
        let o = options(&args("--user ai-tafl")).unwrap();
        assert_eq!((o.host.as_str(), o.port), ("127.0.0.1", 49152));
        assert_eq!(o.clock, Some((900_000, 10)));
        assert_eq!(o.server_version, "32d9a140");
        // Reconnecting: 1 s, doubled up to 30 s, for ever.
        assert_eq!(
            (o.retry_wait, o.retry_max_wait, o.give_up_after),
            (Duration::from_secs(1), Duration::from_secs(30), None)
        );
        let o = options(&args(
            "--host h --port 7 --user ai-x --password p --create-account --new-game defender \
             --size 7 --time 3+2 --rated --join 12 --join-any --tournament --games 4 \
             --movetime 300 --threads 2 --hash 8 --server-version abc --retry-wait 200ms \
             --retry-max-wait 1m30s --give-up-after 2h",
        ))
        .unwrap();
        assert_eq!(
            o,
            Options {
                host: "h".to_string(),
                port: 7,
                user: "ai-x".to_string(),
                password: "p".to_string(),
                create_account: true,
                new_game: Some(Side::Defenders),
                size: 7,
                clock: Some((180_000, 2)),
                rated: true,
                join: Some(12),
                join_any: true,
                tournament: true,
                games: Some(4),
                move_time: Duration::from_millis(300),
                threads: 2,
                hash_mb: 8,
                server_version: "abc".to_string(),
                retry_wait: Duration::from_millis(200),
                retry_max_wait: Duration::from_secs(90),
                give_up_after: Some(Duration::from_secs(7200)),
            }
        );
        assert_eq!(
            options(&args("--user a --time untimed")).unwrap().clock,
            None
        );
        // A later flag replaces an earlier one.
        assert_eq!(
            options(&args("--user a --movetime 7 --movetime 60000"))
                .unwrap()
                .move_time,
            Duration::from_secs(60)
        );
        // 13x13 games are offered with the server's board size 13 (its `NewGame`).
        let o = options(&args("--user a --new-game attacker --size 13")).unwrap();
        assert_eq!(o.size, 13);
        assert_eq!(
            messages::new_game(Side::Attackers, o.rated, o.clock, o.size),
            r#"new_game {"role":"Attacker","rated":false,"time_settings":{"Timed":{"add_seconds":10,"milliseconds_left":900000}},"board_size":13}"#
        );
    }

    #[test]
    fn durations_add_their_parts() {
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(
            duration("1d2h3m4s5ms"),
            Ok(Duration::from_millis(93_784_005))
        );
        assert_eq!(duration("0s"), Ok(Duration::ZERO));
        assert_eq!(duration("100d"), Ok(Duration::from_secs(8_640_000)));
    }

    #[test]
    fn the_empty_password_is_the_default_and_can_be_said() {
        assert_eq!(options(&args("--user a")).unwrap().password, "");
        let said = ["--user", "a", "--password", ""].map(str::to_string);
        assert_eq!(options(&said).unwrap().password, "");
        let spaced = ["--user", "a", "--password", "pw word"].map(str::to_string);
        assert_eq!(options(&spaced).unwrap().password, "pw word");
    }

    #[test]
    fn bad_command_lines_say_why() {
        use clap::error::ErrorKind;
        let error = |text: &str| {
            let error = options(&args(text)).unwrap_err();
            assert_eq!(error.exit_code(), 2, "{error}");
            (error.kind(), error.to_string())
        };
        let (kind, message) = error("");
        assert_eq!(kind, ErrorKind::MissingRequiredArgument, "{message}");
        assert!(message.contains("--user"), "{message}");
        assert!(error("--user ai--x").1.contains("'ai--x' is not a name"));
        assert!(error("--user ai-x-too-long-a-name").1.contains("--user"));
        assert_eq!(error("--user a --size 9").0, ErrorKind::InvalidValue);
        assert!(error("--user a --new-game king").1.contains("--new-game"));
        assert!(error("--user a --time 5").1.contains("'5' is not m+s"));
        assert!(error("--user a --time 5+x").1.contains("seconds from 0"));
        assert!(error("--user a --join x").1.contains("--join"));
        assert!(error("--user a --port 0").1.contains("--port"));
        assert!(error("--user a --password").1.contains("--password"));
        let long = format!("--user a --password {}", "p".repeat(33));
        assert!(error(&long).1.contains("at most 32"));
        for bad in [
            "",
            "5",
            "s",
            "5x",
            "-5s",
            "1.5s",
            "5s3",
            "101d",
            "99999999999999999999s",
        ] {
            let line = format!("--user a --give-up-after={bad}");
            assert!(error(&line).1.contains("--give-up-after"), "{bad}");
        }
        assert_eq!(error("--user a --frob").0, ErrorKind::UnknownArgument);
        let help = options(&args("--help")).unwrap_err();
        assert_eq!(help.kind(), ErrorKind::DisplayHelp);
        assert_eq!(help.exit_code(), 0);
    }
}
