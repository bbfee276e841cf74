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

use tafl_engine::{Side, Variant};

/// The command line of the subcommand.
pub const USAGE: &str =
    "usage: tafl-engine tablut-challenge <white|black> [--host <host>] [--port <port>]
         [--name <name>] [--movetime <ms>] [--threads <n>] [--hash <MiB>] [--timeout <s>]
Plays one game in the Tablut Challenge's server (Ashton Tablut) as white (the defenders and
the king, who move first) or black (the attackers). Progress and the result go to stderr.
  --host <host>    the server (default 127.0.0.1: the Java clients' default is \"localhost\",
                   which Java resolves to 127.0.0.1 first; the address itself needs no lookup
                   that could pick ::1 instead)
  --port <port>    the server's port (default 5800 for white, 5801 for black, as the server's
                   Configuration.java says)
  --name <name>    our name (default taflengine: the server keeps the letters and digits of
                   the first 10 characters, so 'tafl-engine' would show as 'taflengin')
  --movetime <ms>  thinking time per move, counted from the server's state (default 55000:
                   the server allows 60 s by default, checked once a second; 5 s stay for the
                   network and the server; keep a margin likewise with the server's -t,
                   e.g. --movetime 8000 for -t 10)
  --threads <n>    search threads (default 1)
  --hash <MiB>     transposition table size (default 64)
  --timeout <s>    how long to wait for the server's next message before giving up (default
                   360: the server waits 300 s for the second player, then 60 s a move; raise
                   it with the server's -t). Once a message has begun, the rest must come
                   within 10 s (or the timeout, if shorter).
Exit status: 0 when the game ended, 1 if the connection failed or closed first, 2 for a bad
command line.";

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

/// Reads the subcommand's arguments (after `tablut-challenge`). `Err` holds the message for
/// stderr: the usage itself for `--help`.
pub fn options(args: &[String]) -> Result<Options, String> {
    let mut side = None;
    let mut host = "127.0.0.1".to_string();
    let mut port = None;
    let mut name = "taflengine".to_string();
    let mut move_time = DEFAULT_MOVE_TIME;
    let mut threads = 1;
    let mut hash_mb = 64;
    let mut timeout = DEFAULT_TIMEOUT;
    let mut args = args.iter().filter(|arg| !arg.trim().is_empty());
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| -> Result<String, String> {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        let number = |flag: &str, text: String, max: u64| -> Result<u64, String> {
            match text.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(format!("{flag}: '{text}' is not a number from 1 to {max}")),
            }
        };
        match arg.as_str() {
            "--host" => host = value("--host")?,
            "--port" => port = Some(number("--port", value("--port")?, 65_535)? as u16),
            "--name" => {
                name = value("--name")?;
                if name.is_empty() {
                    return Err("--name: the name is empty".to_string());
                }
            }
            "--movetime" => {
                let ms = number("--movetime", value("--movetime")?, 86_400_000)?;
                move_time = Duration::from_millis(ms);
            }
            "--threads" => threads = number("--threads", value("--threads")?, 256)? as usize,
            "--hash" => hash_mb = number("--hash", value("--hash")?, 1 << 16)? as usize,
            "--timeout" => {
                timeout = Duration::from_secs(number("--timeout", value("--timeout")?, 86_400)?);
            }
            "--help" | "-h" => return Err(USAGE.to_string()),
            word if !word.starts_with('-') && side.is_none() => {
                side = Some(match word.to_ascii_lowercase().as_str() {
                    "white" => Side::Defenders,
                    "black" => Side::Attackers,
                    _ => return Err(format!("'{word}' is not white or black\n{USAGE}")),
                });
            }
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    let side = side.ok_or_else(|| format!("say which side to play: white or black\n{USAGE}"))?;
    Ok(Options {
        side,
        host,
        port: port.unwrap_or(match side {
            Side::Defenders => WHITE_PORT,
            Side::Attackers => BLACK_PORT,
        }),
        name,
        move_time,
        threads,
        hash_mb,
        timeout,
    })
}

/// Runs the subcommand; returns the exit status.
pub fn main(args: &[String]) -> i32 {
    match options(args) {
        Ok(options) => client::run(&options, variant()),
        Err(message) => crate::refused(&message, USAGE),
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

    #[test]
    fn bad_command_lines_say_why() {
        assert!(
            options(&args(""))
                .unwrap_err()
                .starts_with("say which side")
        );
        assert!(
            options(&args("red"))
                .unwrap_err()
                .starts_with("'red' is not")
        );
        assert!(
            options(&args("white black"))
                .unwrap_err()
                .starts_with("unknown argument")
        );
        assert!(
            options(&args("white --port 0"))
                .unwrap_err()
                .starts_with("--port: '0'")
        );
        assert!(
            options(&args("white --port"))
                .unwrap_err()
                .starts_with("--port needs")
        );
        assert!(
            options(&args("white --frob"))
                .unwrap_err()
                .starts_with("unknown argument")
        );
        assert_eq!(options(&args("--help")).unwrap_err(), USAGE);
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
