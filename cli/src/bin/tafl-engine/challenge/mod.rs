//! `tafl-engine tablut-challenge <white|black> ...`: a client for the University of Bologna's
//! Tablut Challenge (AGalassi/TablutCompetition), whose Java server referees student engines
//! under "Ashton" Tablut rules over TCP. See docs/tablut-challenge.md.
//!
//! - `framing`: the 4-byte length prefix of every message (the server's `StreamUtils`);
//! - `messages`: the server's state, our name and our move, as gson writes and reads them;
//! - `board`: the server's board as a library `Position`, and the move between two positions;
//! - `client`: the connection and the game loop (keeping in step, thinking, answering).

mod board;
mod client;
mod framing;
mod messages;

use std::time::Duration;

use clap::Parser;
use tafl_engine::{Side, Variant};

use crate::remote;

/// White's port in the server's `Configuration.java`.
pub const WHITE_PORT: u16 = 5800;
/// Black's port in the server's `Configuration.java`.
pub const BLACK_PORT: u16 = 5801;

/// Thinking time per move unless `--movetime` says otherwise: the server's default limit is 60
/// s, which it checks by sleeping one second at a time; 5 s are left for the network, the
/// server's polling and our own start of the search.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(55_000);

/// How long the client waits for the server's next message unless `--timeout` says otherwise:
/// the server waits up to 300 s for the second player to connect, then gives each move 60 s by
/// default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(360);

/// Once a message has begun, how long the client waits for each next part of it (or the
/// `--timeout`, if shorter).
pub const MESSAGE_TIMEOUT: Duration = Duration::from_secs(10);

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The side we play: white is the defenders.
    pub side: Side,
    /// The server's host name or address.
    pub host: String,
    /// The server's port.
    pub port: u16,
    /// The name we send.
    pub name: String,
    /// Thinking time per move.
    pub move_time: Duration,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// How long to wait for the server's next message.
    pub timeout: Duration,
}

/// The rules the challenge's server plays, with the side that moves first (white): the one
/// place that chooses them. The server's default game (`-r 4`) is Ashton Tablut.
pub fn variant() -> Variant {
    Variant::ashton()
}

/// The command line as clap reads it (its doc comments are `--help`'s text).
#[derive(Parser, Debug)]
#[command(
    name = "tafl-engine tablut-challenge",
    // A later flag replaces an earlier one (the tests add theirs after the defaults).
    args_override_self = true,
    about = "Plays one game in the Tablut Challenge's server (Ashton Tablut) as white (the \
             defenders and the king, who move first) or black (the attackers). Progress and \
             the result go to stderr.",
    after_help = "Exit status: 0 when the game ended, 1 if the connection failed or closed \
                  first, 2 for a bad command line."
)]
struct Command {
    /// white or black (in any case)
    #[arg(value_name = "white|black", value_parser = side)]
    side: Side,
    /// the server (the Java clients' default is "localhost", which Java resolves to 127.0.0.1
    /// first; the address itself needs no lookup that could pick ::1 instead)
    #[arg(long, value_name = "host", default_value = "127.0.0.1")]
    host: String,
    /// the server's port [default: 5800 for white, 5801 for black, as the server's
    /// Configuration.java says]
    #[arg(long, value_name = "port", value_parser = clap::value_parser!(u16).range(1..))]
    port: Option<u16>,
    /// our name (the server keeps the letters and digits of the first 10 characters, so
    /// 'tafl-engine' would show as 'taflengin')
    #[arg(long, value_name = "name", default_value = "taflengine",
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    name: String,
    /// thinking time per move, counted from the server's state (the server allows 60 s by
    /// default, checked once a second; 5 s stay for the network and the server; keep a margin
    /// likewise with the server's -t, e.g. --movetime 8000 for -t 10)
    #[arg(long, value_name = "ms", default_value_t = DEFAULT_MOVE_TIME.as_millis() as u64,
          value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: u64,
    #[command(flatten)]
    search: remote::SearchArgs,
    /// how long to wait for the server's next message before giving up (the server waits 300 s
    /// for the second player, then 60 s a move; raise it with the server's -t). Once a message
    /// has begun, the rest must come within 10 s (or the timeout, if shorter)
    #[arg(long, value_name = "s", default_value_t = DEFAULT_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    timeout: u64,
}

/// The side a word names: white is the defenders, black the attackers.
fn side(word: &str) -> Result<Side, String> {
    match word.to_ascii_lowercase().as_str() {
        "white" => Ok(Side::Defenders),
        "black" => Ok(Side::Attackers),
        _ => Err(format!("'{word}' is not white or black")),
    }
}

/// Reads the subcommand's arguments (after `tablut-challenge`). `Err` is clap's: `--help`
/// (exit status 0) or a usage mistake (2), with its message.
pub fn options(args: &[String]) -> Result<Options, clap::Error> {
    let command = Command::try_parse_from(
        std::iter::once("tafl-engine tablut-challenge").chain(args.iter().map(String::as_str)),
    )?;
    Ok(Options {
        side: command.side,
        host: command.host,
        port: command.port.unwrap_or(match command.side {
            Side::Defenders => WHITE_PORT,
            Side::Attackers => BLACK_PORT,
        }),
        name: command.name,
        move_time: Duration::from_millis(command.movetime),
        threads: usize::from(command.search.threads),
        hash_mb: command.search.hash as usize,
        timeout: Duration::from_secs(command.timeout),
    })
}

/// Runs the subcommand; returns the exit status.
pub fn main(args: &[String]) -> i32 {
    match options(args) {
        Ok(options) => client::run(&options, variant()),
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
    fn defaults_follow_the_side() {
        let white = options(&args("white")).unwrap();
        assert_eq!(white.side, Side::Defenders);
        assert_eq!(white.port, 5800);
        assert_eq!(white.host, "127.0.0.1");
        assert_eq!(white.move_time, Duration::from_secs(55));
        assert_eq!(white.timeout, Duration::from_secs(360));
        let black = options(&args("BLACK")).unwrap();
        assert_eq!(black.side, Side::Attackers);
        assert_eq!(black.port, 5801);
    }

    #[test]
    fn every_option() {
        let o = options(&args(
            "--host example.org black --port 7000 --name me --movetime 200 --threads 2 --hash 4 \
             --timeout 30",
        ))
        .unwrap();
        assert_eq!(
            o,
            Options {
                side: Side::Attackers,
                host: "example.org".to_string(),
                port: 7000,
                name: "me".to_string(),
                move_time: Duration::from_millis(200),
                threads: 2,
                hash_mb: 4,
                timeout: Duration::from_secs(30),
            }
        );
    }

    /// clap's message for a command line it refuses, and its kind.
    fn refused(text: &str) -> (clap::error::ErrorKind, String) {
        let error = options(&args(text)).unwrap_err();
        (error.kind(), error.to_string())
    }

    #[test]
    fn bad_command_lines_say_why() {
        use clap::error::ErrorKind;
        let (kind, message) = refused("");
        assert_eq!(kind, ErrorKind::MissingRequiredArgument, "{message}");
        assert!(message.contains("<white|black>"), "{message}");
        let (kind, message) = refused("red");
        assert_eq!(kind, ErrorKind::ValueValidation, "{message}");
        assert!(message.contains("'red' is not white or black"), "{message}");
        let (kind, message) = refused("white black");
        assert_eq!(kind, ErrorKind::UnknownArgument, "{message}");
        let (kind, message) = refused("white --port 0");
        assert_eq!(kind, ErrorKind::ValueValidation, "{message}");
        assert!(message.contains("--port"), "{message}");
        assert_eq!(refused("white --port").0, ErrorKind::InvalidValue);
        assert_eq!(refused("white --frob").0, ErrorKind::UnknownArgument);
        assert_eq!(refused("white --name=").0, ErrorKind::InvalidValue);
        assert_eq!(refused("white --threads 257").0, ErrorKind::ValueValidation);
        let help = options(&args("--help")).unwrap_err();
        assert_eq!(help.kind(), ErrorKind::DisplayHelp);
        assert_eq!(help.exit_code(), 0);
        assert_eq!(options(&args("red")).unwrap_err().exit_code(), 2);
        let text = help.to_string();
        for flag in [
            "--host",
            "--port",
            "--name",
            "--movetime",
            "--threads",
            "--hash",
            "--timeout",
        ] {
            assert!(text.contains(flag), "{flag} in {text}");
        }
    }

    #[test]
    fn the_variant_is_the_servers_start_with_white_to_move() {
        let start = variant().start();
        assert_eq!(start.side_to_move(), Side::Defenders);
        assert_eq!(start.rules().size(), 9);
        assert_eq!(start.pieces(Side::Attackers).count(), 16);
        assert_eq!(start.pieces(Side::Defenders).count(), 9);
    }
}
