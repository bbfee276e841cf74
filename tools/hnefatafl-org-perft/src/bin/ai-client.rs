//! The server's own AI (`AiBasic`, the crate hnefatafl-copenhagen 6.4.1's alpha-beta) as a
//! player on a hnefatafl.org server: logs in, offers or joins games, and answers each
//! `generate_move` with the move `AiBasic` chooses in the game the server's record
//! (`resume_game_json`) makes. An opponent for tafl-engine's client in docs/hnefatafl-org.md;
//! run by hand, see README.md.
//!
//! usage: ai-client --user NAME [--password PW] [--host HOST] [--depth N] [--create-account]
//!                  [--new-game attacker|defender] [--size 11|13|7] [--join ID] [--games N]

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::panic::{AssertUnwindSafe, catch_unwind};

use hnefatafl_copenhagen::ai::{AI, AiBasic};
use hnefatafl_copenhagen::game::Game;
use hnefatafl_copenhagen::opentafl::OpenTaflGame;
use hnefatafl_copenhagen::play::Plae;
use hnefatafl_copenhagen::role::Role;
use hnefatafl_copenhagen::status::Status;
use hnefatafl_copenhagen::{SERVER_PORT, VERSION_ID};

struct Options {
    user: String,
    password: String,
    host: String,
    depth: u8,
    create_account: bool,
    new_game: Option<&'static str>,
    size: usize,
    join: Option<String>,
    games: usize,
}

fn options() -> Options {
    let mut options = Options {
        user: String::new(),
        password: String::new(),
        host: "127.0.0.1".to_string(),
        depth: 3,
        create_account: false,
        new_game: None,
        size: 11,
        join: None,
        games: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--user" => options.user = value(),
            "--password" => options.password = value(),
            "--host" => options.host = value(),
            "--depth" => options.depth = value().parse().expect("a depth"),
            "--create-account" => options.create_account = true,
            "--new-game" => {
                options.new_game = Some(match value().as_str() {
                    "attacker" => "Attacker",
                    "defender" => "Defender",
                    other => panic!("--new-game {other}"),
                });
            }
            "--size" => options.size = value().parse().expect("7, 11 or 13"),
            "--join" => options.join = Some(value()),
            "--games" => options.games = value().parse().expect("a number"),
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(!options.user.is_empty(), "--user NAME");
    options
}

/// The move `AiBasic` chooses in `game`, as the server's command words (`from to`, or
/// `resigns _`). The AI panics when a game drawn by the move limit is below its horizon
/// (`alpha_beta_duplicated`); near the limit it looks less far, and on a panic it plays the
/// first legal move.
fn choose(game: &Game, depth: u8) -> String {
    let left = 140usize.saturating_sub(game.plays.len());
    let depth = depth.min(u8::try_from(left).unwrap_or(u8::MAX)).max(1);
    let mut copy = game.clone();
    let chosen = catch_unwind(AssertUnwindSafe(|| {
        AiBasic::new(depth, true).generate_move(&mut copy)
    }));
    let play = match chosen {
        Ok(Ok(generated)) => generated.play,
        _ => game
            .all_legal_plays()
            .into_iter()
            .next()
            .unwrap_or(Plae::AttackerResigns),
    };
    match play {
        Plae::Play(play) => format!("{} {}", play.from, play.to),
        Plae::AttackerResigns | Plae::DefenderResigns => "resigns _".to_string(),
    }
}

fn main() {
    let options = options();
    let mut stream =
        TcpStream::connect(format!("{}{SERVER_PORT}", options.host)).expect("the server");
    let mut reader = BufReader::new(stream.try_clone().expect("a clone"));
    let send = |stream: &mut TcpStream, line: String| {
        eprintln!("> {line}");
        stream
            .write_all(format!("{line}\n").as_bytes())
            .expect("the server reads");
    };
    let verb = if options.create_account {
        "create_account"
    } else {
        "login"
    };
    send(
        &mut stream,
        format!("{VERSION_ID} {verb} {} {}", options.user, options.password),
    );
    let mut logged_in = false;
    let mut offered = false;
    let mut offers: Vec<String> = Vec::new();
    let mut finished = 0;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).expect("a line") == 0 {
            eprintln!("the server closed the connection");
            return;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["=", "login"] => {
                logged_in = true;
                eprintln!("logged in as {}", options.user);
                if let Some(id) = &options.join {
                    send(&mut stream, format!("join_game_pending {id}"));
                }
            }
            ["?", "login", ..] => panic!("login refused: {line}"),
            // `--create-account` for an account that exists: the server refuses the creation
            // (and waits for another try): log in instead.
            ["?", "create_account", "already_exists", ..] => {
                eprintln!("the account {} exists: logging in", options.user);
                send(
                    &mut stream,
                    format!("{VERSION_ID} login {} {}", options.user, options.password),
                );
            }
            ["?", "create_account", ..] => panic!("account creation refused: {line}"),
            ["=", "new_game", id] => offers.push((*id).to_string()),
            ["=", "challenge_requested", id] if offers.iter().any(|o| o == id) => {
                send(&mut stream, format!("join_game {id}"));
            }
            ["game", id, "generate_move", _] => {
                send(&mut stream, format!("resume_game_json {id}"));
            }
            ["=", "resume_game_json", ..] => {
                let text = line
                    .trim()
                    .strip_prefix("= resume_game_json ")
                    .expect("the record");
                let record: OpenTaflGame = match hnefatafl_copenhagen_json(text) {
                    Some(record) => record,
                    None => continue,
                };
                let game = Game::from(&record);
                let us = if record.attackers == options.user {
                    Role::Attacker
                } else {
                    Role::Defender
                };
                if game.status == Status::Ongoing && game.turn == us {
                    let role = if us == Role::Attacker { "attacker" } else { "defender" };
                    let chosen = choose(&game, options.depth);
                    send(&mut stream, format!("game {} play {role} {chosen}", record.id));
                }
            }
            ["=", "game_over", id, result] => {
                eprintln!("game {id} over: {result}");
                finished += 1;
                offered = false;
            }
            ["=", "draw", "accept"] => {
                eprintln!("a game drawn");
                finished += 1;
                offered = false;
            }
            ["?", ..] => eprintln!("{}", line.trim()),
            _ => {}
        }
        if finished >= options.games {
            eprintln!("done: {finished} games");
            return;
        }
        // Not before the login: the server would read the offer as a login line.
        if let (Some(role), false, true) = (options.new_game, offered, logged_in) {
            offered = true;
            send(
                &mut stream,
                format!(
                    "new_game {{\"role\":\"{role}\",\"rated\":false,\"time_settings\":{{\"Timed\":{{\"add_seconds\":10,\"milliseconds_left\":900000}}}},\"board_size\":{}}}",
                    options.size
                ),
            );
        }
    }
}

/// The record's JSON, read as the server wrote it.
fn hnefatafl_copenhagen_json(text: &str) -> Option<OpenTaflGame> {
    match serde_json::from_str(text) {
        Ok(record) => Some(record),
        Err(error) => {
            eprintln!("a record that does not read: {error}");
            None
        }
    }
}
