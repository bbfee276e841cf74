//! `tafl-engine hnefatafl-org ...`: a bot client for hnefatafl.org's server (the crate
//! hnefatafl-copenhagen 6.4.1's `hnefatafl-server`), playing its Copenhagen 11x11 and 13x13 and
//! Brandubh 7x7 under the server's own rules (docs/rules.md, H1-H12). See docs/hnefatafl-org.md.
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

use tafl_engine::Side;

/// The command line of the subcommand.
pub const USAGE: &str =
    "usage: tafl-engine hnefatafl-org --user <name> [--password <password>] [options]
Plays as a bot account on a hnefatafl.org server: every game the server gives it, and those
it offers or joins. Progress and results go to stderr.
  --host <host>          the server (default 127.0.0.1)
  --port <port>          its port (default 49152, the one the server listens on)
  --user <name>          the account; hnefatafl.org names bot accounts ai-... (at most 16
                         letters, digits, - and _)
  --password <password>  its password (default: empty)
  --create-account       create the account if the server does not know it
  --new-game <attacker|defender>
                         offer a game as that side, one at a time, a new one when it is over,
                         and accept the first player who asks to play it
  --size <11|13|7>       the board of the games offered (default 11)
  --time <m+s>           their clock: m minutes and s seconds more a move (default 15+10);
                         'untimed' for none
  --rated                offer rated games (default unrated)
  --join <id>            ask to play the game offered with this id
  --join-any             ask to play games offered (7x7, 11x11, 13x13), one at a time
  --tournament           join the server's tournament and play its games
  --games <n>            exit after n games have ended (default: play on until stopped)
  --movetime <ms>        the most thinking time a move (default 5000); less on a short clock
  --threads <n>          search threads (default 1)
  --hash <MiB>           transposition table size (default 64)
  --server-version <id>  the version id the server wants at login (default 32d9a140, the
                         server 6.4.1's)
Exit status: 0 when --games games have ended, 1 if the server cannot be reached (after
retries) or refuses the login, 2 for a bad command line.";

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

/// Reads the subcommand's arguments (after `hnefatafl-org`). `Err` holds the message for
/// stderr: the usage itself for `--help`.
pub fn options(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        host: "127.0.0.1".to_string(),
        port: SERVER_PORT,
        user: String::new(),
        password: String::new(),
        create_account: false,
        new_game: None,
        size: 11,
        clock: Some((15 * 60_000, 10)),
        rated: false,
        join: None,
        join_any: false,
        tournament: false,
        games: None,
        move_time: Duration::from_millis(5000),
        threads: 1,
        hash_mb: 64,
        server_version: messages::SERVER_VERSION_ID.to_string(),
    };
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
            "--host" => options.host = value("--host")?,
            "--port" => options.port = number("--port", value("--port")?, 65_535)? as u16,
            "--user" => options.user = value("--user")?,
            "--password" => options.password = value("--password")?,
            "--create-account" => options.create_account = true,
            "--new-game" => {
                options.new_game = Some(match value("--new-game")?.as_str() {
                    "attacker" | "attackers" => Side::Attackers,
                    "defender" | "defenders" => Side::Defenders,
                    other => {
                        return Err(format!("--new-game: '{other}' is not attacker or defender"));
                    }
                });
            }
            "--size" => {
                options.size = match value("--size")?.as_str() {
                    "11" => 11,
                    "13" => 13,
                    "7" => 7,
                    other => {
                        return Err(format!(
                            "--size: '{other}' is not 11, 13 or 7 (the server's boards)"
                        ));
                    }
                };
            }
            "--time" => {
                let text = value("--time")?;
                options.clock = if text == "untimed" {
                    None
                } else {
                    let (minutes, seconds) = text
                        .split_once('+')
                        .ok_or_else(|| format!("--time: '{text}' is not m+s or untimed"))?;
                    let minutes = number("--time", minutes.to_string(), 100_000)? as i64;
                    let seconds = seconds
                        .parse::<i64>()
                        .ok()
                        .filter(|s| (0..=3600).contains(s))
                        .ok_or_else(|| format!("--time: '{text}': seconds from 0 to 3600"))?;
                    Some((minutes * 60_000, seconds))
                };
            }
            "--rated" => options.rated = true,
            "--join" => {
                let text = value("--join")?;
                options.join = Some(
                    text.parse()
                        .map_err(|_| format!("--join: '{text}' is not a game id"))?,
                );
            }
            "--join-any" => options.join_any = true,
            "--tournament" => options.tournament = true,
            "--games" => {
                options.games = Some(number("--games", value("--games")?, 1 << 20)? as usize)
            }
            "--movetime" => {
                let ms = number("--movetime", value("--movetime")?, 86_400_000)?;
                options.move_time = Duration::from_millis(ms);
            }
            "--threads" => {
                options.threads = number("--threads", value("--threads")?, 256)? as usize
            }
            "--hash" => options.hash_mb = number("--hash", value("--hash")?, 1 << 16)? as usize,
            "--server-version" => options.server_version = value("--server-version")?,
            "--help" | "-h" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    if options.user.is_empty() {
        return Err(format!("say which account: --user <name>\n{USAGE}"));
    }
    if !valid_name(&options.user) {
        return Err(format!(
            "--user: '{}' is not a name the server takes (at most 16 letters, digits, - and _, \
             no two of - and _ together, none at the ends)",
            options.user
        ));
    }
    if options.password.len() > 32 || options.password.chars().any(char::is_control) {
        return Err("--password: at most 32 characters, none of them control characters".into());
    }
    Ok(options)
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
    fn defaults_and_every_option() {
        let o = options(&args("--user ai-tafl")).unwrap();
        assert_eq!((o.host.as_str(), o.port), ("127.0.0.1", 49152));
        assert_eq!(o.clock, Some((900_000, 10)));
        assert_eq!(o.server_version, "32d9a140");
        let o = options(&args(
            "--host h --port 7 --user ai-x --password p --create-account --new-game defender \
             --size 7 --time 3+2 --rated --join 12 --join-any --tournament --games 4 \
             --movetime 300 --threads 2 --hash 8 --server-version abc",
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
            }
        );
        assert_eq!(
            options(&args("--user a --time untimed")).unwrap().clock,
            None
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
    fn bad_command_lines_say_why() {
        let error = |text: &str| options(&args(text)).unwrap_err();
        assert!(error("").starts_with("say which account"));
        assert!(error("--user ai--x").starts_with("--user: 'ai--x'"));
        assert!(error("--user ai-x-too-long-a-name").starts_with("--user"));
        assert!(error("--user a --size 9").starts_with("--size: '9' is not 11, 13 or 7"));
        assert!(error("--user a --new-game king").starts_with("--new-game"));
        assert!(error("--user a --time 5").starts_with("--time"));
        assert!(error("--user a --time 5+x").starts_with("--time"));
        assert!(error("--user a --join x").starts_with("--join"));
        assert!(error("--user a --port 0").starts_with("--port"));
        assert!(error("--user a --frob").starts_with("unknown argument"));
        assert_eq!(error("--help"), USAGE);
    }
}
