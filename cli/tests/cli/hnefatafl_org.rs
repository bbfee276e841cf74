//! `tafl-engine hnefatafl-org`, the real binary, against a fake hnefatafl.org server: a TCP
//! listener on 127.0.0.1 (`common::client_process`) that speaks the server's line protocol
//! (hnefatafl-copenhagen 6.4.1: the login, `generate_move`, `resume_game_json`, `game ... play`,
//! `= game`, `= game_over`) and referees with the library under hnefatafl.org's rules
//! (docs/hnefatafl-org.md). Every move the client sends must be legal in the fake server's game,
//! history included.
//!
//! Every read has a timeout and every wait for the client's exit a deadline, so a hung client
//! fails a test instead of hanging it.

use crate::common;

use common::client_process::{ClientProcess, Stderr, check_command_line};
use common::seeded::Lcg;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use tafl_engine::{Game, Grid, Move, Narrow, Outcome, Side, Variant, Wide, notation};

/// How long the fake server waits for the client to connect, answer or exit.
const PATIENCE: Duration = Duration::from_secs(30);

/// The client's thinking time in these tests.
const MOVE_TIME_MS: &str = "100";

/// The server's role word of a side.
fn role(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

/// The start as the server writes it (`open_tafl_serialize`): top row first, `A`, `D`, `K`;
/// the library's record has rank 1 first, `t`, `T`, `K`.
fn server_start<B: Grid>(variant: &Variant<B>) -> String {
    let record = notation::position_record(&variant.start());
    let rows: Vec<&str> = record.trim_matches('/').split('/').rev().collect();
    format!("/{}/", rows.join("/"))
        .replace('t', "A")
        .replace('T', "D")
}

/// A square or a move as the server writes it: capitals on 13x13 (its `Vertex`), small letters
/// on the smaller boards.
fn server_text(text: String, size: u8) -> String {
    if size == 13 {
        text.to_ascii_uppercase()
    } else {
        text
    }
}

/// A game the fake server referees (on the grid of its board: 13x13 on the wide one): its id,
/// players, and the moves with their captures.
struct Table<B: Grid = Narrow> {
    id: u64,
    attackers: String,
    defenders: String,
    variant: Variant<B>,
    game: Game<B>,
    record: Vec<String>,
    /// The clock, if the game is timed: milliseconds left to the attackers and the defenders,
    /// and the seconds added a move.
    clock: Option<(i64, i64, i64)>,
}

impl<B: Grid> Table<B> {
    fn new(id: u64, attackers: &str, defenders: &str, variant: Variant<B>) -> Table<B> {
        Table {
            id,
            attackers: attackers.to_string(),
            defenders: defenders.to_string(),
            game: Game::new(&variant),
            variant,
            record: Vec::new(),
            clock: None,
        }
    }

    /// Plays `m`, which must be legal; records it as the server does (`a1-a2xb3`, `A1-A2xB3`
    /// on 13x13).
    fn play(&mut self, m: Move<B>) {
        let captured = self
            .game
            .play(m)
            .unwrap_or_else(|e| panic!("{m} is not legal here: {e}"));
        let size = self.size();
        let mut text = server_text(m.to_string(), size);
        for square in captured {
            text.push('x');
            text.push_str(&server_text(square.to_string(), size));
        }
        self.record.push(text);
    }

    /// The board's size.
    fn size(&self) -> u8 {
        self.variant.rules().size()
    }

    /// `resume_game_json`'s answer.
    fn json(&self, dim: u8) -> String {
        let (time_control, time_remaining) = match self.clock {
            Some((attackers_ms, defenders_ms, increment_s)) => (
                format!("{{\"main_time_seconds\":900,\"increment_length\":{increment_s}}}"),
                format!(
                    "{{\"attackers\":{attackers_ms},\"defenders\":{defenders_ms},\"last_move\":\"2026-01-01T00:00:00Z\"}}"
                ),
            ),
            None => ("null".to_string(), "null".to_string()),
        };
        format!(
            "= resume_game_json {{\"id\":{},\"attackers\":\"{}\",\"defenders\":\"{}\",\"dim\":{dim},\"start\":\"{}\",\"time_control\":{time_control},\"time_remaining_ms\":{time_remaining},\"moves\":\"{}\",\"rated\":false,\"messages\":[{{\"username\":\"x\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"content\":\"a message with spaces and \\\"quotes\\\"\"}}]}}",
            self.id,
            self.attackers,
            self.defenders,
            server_start(&self.variant),
            self.record.join(" ")
        )
    }

    fn to_move(&self) -> Side {
        self.game.position().side_to_move()
    }
}

/// One connection of the client to the fake server.
struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Connection {
    fn send(&mut self, line: &str) {
        // A client that has gone has gone: the test's later checks say what happened.
        let _ = self.writer.write_all(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let _ = self.writer.write_all(bytes);
    }

    /// The client's next line, or `None` if it closed the connection.
    fn recv(&mut self, stderr: &Stderr) -> Option<String> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => None,
            Ok(_) => Some(line.trim_end().to_string()),
            Err(error) => panic!(
                "no line from the client ({error}); stderr:\n{}",
                stderr.text()
            ),
        }
    }

    /// The client's next line, which must start with `prefix`, skipping its pings (within
    /// [`PATIENCE`]).
    fn expect(&mut self, prefix: &str, stderr: &Stderr) -> String {
        let started = Instant::now();
        loop {
            let line = self
                .recv(stderr)
                .unwrap_or_else(|| panic!("the client closed; stderr:\n{}", stderr.text()));
            if line == "ping" {
                // A client that only pings (it waits for nothing) fails the test, not hangs it.
                assert!(
                    started.elapsed() < PATIENCE,
                    "no '{prefix}...' within {PATIENCE:?}, only pings; stderr:\n{}",
                    stderr.text()
                );
                self.send("= ping");
                continue;
            }
            assert!(
                line.starts_with(prefix),
                "expected '{prefix}...', got '{line}'; stderr:\n{}",
                stderr.text()
            );
            return line;
        }
    }
}

/// The fake server and the client process.
struct Server {
    client: ClientProcess,
    stderr: Stderr,
}

impl Server {
    /// Starts the client with `hnefatafl-org`, `--port <port>`, the tests' thinking time and
    /// table size, and `args` (whose flags replace those).
    fn start(args: &[&str]) -> Server {
        let mut all = vec!["--movetime", MOVE_TIME_MS, "--hash", "4"];
        all.extend_from_slice(args);
        let client = ClientProcess::start("hnefatafl-org", &all, PATIENCE);
        Server {
            stderr: client.stderr.clone(),
            client,
        }
    }

    /// [`Server::start`] with the client under a limit of one process for its user (it can
    /// start no thread); `None` where `prlimit` is missing.
    #[cfg(target_os = "linux")]
    fn start_without_threads(args: &[&str]) -> Option<Server> {
        let mut all = vec!["--movetime", MOVE_TIME_MS, "--hash", "4"];
        all.extend_from_slice(args);
        let client = ClientProcess::start_without_threads("hnefatafl-org", &all, PATIENCE)?;
        Some(Server {
            stderr: client.stderr.clone(),
            client,
        })
    }

    /// Accepts the client's next connection.
    fn accept(&mut self) -> Connection {
        let stream = self.client.accept();
        Connection {
            reader: BufReader::new(stream.try_clone().expect("a clone")),
            writer: stream,
        }
    }

    /// Accepts a connection and answers its login with `= login`; returns the login line.
    fn logged_in(&mut self) -> (Connection, String) {
        let mut connection = self.accept();
        let login = connection.expect("32d9a140 ", &self.stderr);
        connection.send("= login");
        connection.expect("software_id tafl-engine-", &self.stderr);
        (connection, login)
    }

    /// Waits for the client to exit.
    fn exit(&mut self) -> ExitStatus {
        self.client.exit()
    }

    /// Waits for the client to exit, which it must do with success; returns its stderr.
    fn finished(&mut self) -> String {
        let status = self.exit();
        let stderr = self.stderr.text();
        assert!(status.success(), "{status}; stderr:\n{stderr}");
        stderr
    }
}

/// The client's next move in `table` (as `us`): asked with `generate_move`, the record sent
/// when it asks for it, the move read and checked legal, played.
fn client_move<B: Grid>(
    server: &Server,
    connection: &mut Connection,
    table: &mut Table<B>,
    us: Side,
) -> Move<B> {
    connection.send(&format!("game {} generate_move {}", table.id, role(us)));
    connection.expect(&format!("resume_game_json {}", table.id), &server.stderr);
    let dim = table.variant.rules().size();
    connection.send(&table.json(dim));
    let line = connection.expect(
        &format!("game {} play {}", table.id, role(us)),
        &server.stderr,
    );
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 6, "{line}");
    let m: Move<B> = format!("{}-{}", words[4], words[5])
        .parse()
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    assert!(
        table.game.legal_moves().contains(&m),
        "{m} is not legal in {}",
        notation::position_record(table.game.position())
    );
    table.play(m);
    m
}

/// The fake opponent's move: a random legal one, played; returns the line that tells it.
fn opponent_plays<B: Grid>(table: &mut Table<B>, random: &mut Lcg) -> String {
    let mut moves = table.game.legal_moves();
    moves.sort_by_key(|m| (m.from().index(), m.to().index()));
    let m = moves[random.below(moves.len())];
    let side = table.to_move();
    table.play(m);
    format!(
        "game {} play {} {} {}",
        table.id,
        role(side),
        server_text(m.from().to_string(), table.size()),
        server_text(m.to().to_string(), table.size())
    )
}

/// The fake opponent's move, told to the client as the server tells it.
fn opponent_move<B: Grid>(connection: &mut Connection, table: &mut Table<B>, random: &mut Lcg) {
    let line = opponent_plays(table, random);
    connection.send(&line);
}

/// Up to `rounds` of the client's move (as `us`, answered `= game`) and the opponent's, until
/// the game ends.
fn play_rounds<B: Grid>(
    server: &Server,
    connection: &mut Connection,
    table: &mut Table<B>,
    us: Side,
    random: &mut Lcg,
    rounds: usize,
) {
    for _ in 0..rounds {
        client_move(server, connection, table, us);
        connection.send("= game");
        if table.game.outcome().is_some() {
            return;
        }
        opponent_move(connection, table, random);
        if table.game.outcome().is_some() {
            return;
        }
    }
}

/// "human" joins game `id` of the client's (hnefatafl.org's Copenhagen, unrated, untimed), and
/// two rounds are played: the client as the attackers, the opponent's moves drawn by `Lcg(seed)`.
fn join_and_play_two_rounds(server: &Server, connection: &mut Connection, id: u64, seed: u64) {
    connection.send("= join_game ai-test human unrated UnTimed 11");
    let mut table = Table::new(id, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    play_rounds(
        server,
        connection,
        &mut table,
        Side::Attackers,
        &mut Lcg(seed),
        2,
    );
}

#[test]
fn a_game_as_the_attackers_through_the_server_s_noise() {
    let mut server = Server::start(&["--user", "ai-test", "--password", "pw word", "--games", "1"]);
    let (mut connection, login) = server.logged_in();
    assert_eq!(login, "32d9a140 login ai-test pw word");
    let mut table = Table::new(5, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    let mut random = Lcg(11);
    // The noise a real server sends: lists of users and games, texts, a line of two megabytes,
    // bytes that are not UTF-8, lines about other games.
    connection.send("= users_updated (updated:{},removed:[])");
    connection.send("version 6.4.1");
    connection.send_bytes(&[b'x'; 2 << 20]);
    connection.send_bytes(b"\n\xff\xfe\x00 broken\n");
    connection.send("game x generate_move attacker");
    connection.send("= games_updated {\"created\":[],\"removed\":[],\"updated\":{}}");
    connection.send("request_draw 5 defender");
    connection.send("= game_time {\"id\":5,\"attacker_ms_left\":1,\"defender_ms_left\":2}");
    play_rounds(
        &server,
        &mut connection,
        &mut table,
        Side::Attackers,
        &mut random,
        6,
    );
    connection.send("= game_over 5 defender_wins");
    let stderr = server.finished();
    assert!(
        stderr.contains(&format!("game 5 over after {} moves", table.record.len())),
        "{stderr}"
    );
    assert!(stderr.contains("defender won"), "{stderr}");
    assert!(
        stderr.contains("dropped a line of 2097152 bytes"),
        "{stderr}"
    );
    assert!(stderr.contains("a draw offered, not taken"), "{stderr}");
    assert!(stderr.contains("done: 1 games played"), "{stderr}");
}

#[test]
fn a_refused_move_is_replaced_by_another() {
    let mut server = Server::start(&["--user", "ai-test", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(8, "human", "ai-test", Variant::hnefatafl_org_copenhagen());
    let mut random = Lcg(3);
    opponent_move(&mut connection, &mut table, &mut random);
    connection.send("game 8 generate_move defender");
    connection.expect("resume_game_json 8", &server.stderr);
    connection.send(&table.json(11));
    let first = connection.expect("game 8 play defender", &server.stderr);
    connection.send("? game play: you already reached that position");
    connection.expect("resume_game_json 8", &server.stderr);
    connection.send(&table.json(11));
    let second = connection.expect("game 8 play defender", &server.stderr);
    assert_ne!(first, second);
    connection.send("= game_over 8 attacker_wins");
    let stderr = server.finished();
    assert!(stderr.contains("refused our move"), "{stderr}");
}

#[test]
fn a_refused_13x13_move_is_replaced_by_another_beyond_the_11x11_board() {
    // The refused moves are kept across records as text: on 13x13 they must read back as
    // moves of the wide grid, or the client would send one of them again.
    let mut server = Server::start(&["--user", "ai-test", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    let variant = Variant::<Wide>::hnefatafl_org_copenhagen_13();
    let table = Table::new(80, "ai-test", "human", variant);
    let mut sent = Vec::new();
    for _ in 0..3 {
        if sent.is_empty() {
            connection.send("game 80 generate_move attacker");
        } else {
            connection.send("? game play: refused by the fake server");
        }
        connection.expect("resume_game_json 80", &server.stderr);
        connection.send(&table.json(13));
        let line = connection.expect("game 80 play attacker", &server.stderr);
        let words: Vec<&str> = line.split_whitespace().collect();
        let m: Move<Wide> = format!("{}-{}", words[4], words[5]).parse().unwrap();
        assert!(table.game.legal_moves().contains(&m), "{line}");
        assert!(!sent.contains(&m), "{m} sent again after its refusal");
        sent.push(m);
    }
    connection.send("= game_over 80 attacker_wins");
    let stderr = server.finished();
    assert_eq!(stderr.matches("refused our move").count(), 2, "{stderr}");
    assert!(stderr.contains("game 80 over after 1 moves"), "{stderr}");
}

#[test]
fn after_a_dropped_connection_it_logs_in_again_and_resumes() {
    let mut server = Server::start(&["--user", "ai-test", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(2, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    let mut random = Lcg(5);
    client_move(&server, &mut connection, &mut table, Side::Attackers);
    connection.send("= game");
    drop(connection);
    // The opponent moves while the client is away; at its new login the server asks for the
    // move in every game of its, as the real one does.
    opponent_plays(&mut table, &mut random);
    let (mut connection, _) = server.logged_in();
    client_move(&server, &mut connection, &mut table, Side::Attackers);
    connection.send("= game");
    connection.send("= game_over 2 attacker_wins");
    let stderr = server.finished();
    assert!(stderr.contains("connection lost"), "{stderr}");
    assert!(stderr.contains("attacker won"), "{stderr}");
}

#[test]
#[cfg(target_os = "linux")]
fn under_a_limit_of_one_process_it_still_plays() {
    // The client searches on its own thread when the system will not start another (it used to
    // panic, "failed to spawn thread", exit 101, at the first request for a move).
    let Some(mut server) = Server::start_without_threads(&["--user", "ai-test", "--games", "1"])
    else {
        eprintln!("no prlimit here: not run");
        return;
    };
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(6, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    let mut random = Lcg(6);
    play_rounds(
        &server,
        &mut connection,
        &mut table,
        Side::Attackers,
        &mut random,
        2,
    );
    connection.send("= game_over 6 defender_wins");
    let stderr = server.finished();
    assert!(stderr.contains("game 6 over after 4 moves"), "{stderr}");
}

#[test]
fn it_waits_when_the_record_says_it_is_not_its_turn() {
    let mut server = Server::start(&["--user", "ai-test", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(4, "human", "ai-test", Variant::hnefatafl_org_copenhagen());
    // At login the server asks for a move in every game, whoever is to move.
    connection.send("game 4 generate_move defender");
    connection.expect("resume_game_json 4", &server.stderr);
    connection.send(&table.json(11));
    let mut random = Lcg(9);
    opponent_move(&mut connection, &mut table, &mut random);
    // The next line must answer the next request, not the first.
    let m = client_move(&server, &mut connection, &mut table, Side::Defenders);
    assert!(table.game.moves().any(|played| played == m));
    connection.send("= game_over 4 attacker_wins");
    let stderr = server.finished();
    assert!(
        stderr.contains("game 4 over after 2 moves: attacker won"),
        "{stderr}"
    );
}

#[test]
fn it_creates_its_account_offers_a_brandubh_game_and_counts_the_draw() {
    let mut server = Server::start(&[
        "--user",
        "ai-new",
        "--password",
        "pw",
        "--create-account",
        "--new-game",
        "defender",
        "--size",
        "7",
        "--time",
        "untimed",
        "--games",
        "1",
    ]);
    let mut connection = server.accept();
    assert_eq!(
        connection.expect("32d9a140 login", &server.stderr),
        "32d9a140 login ai-new pw"
    );
    connection.send("? login multiple_possible_errors account_not_in_database");
    assert_eq!(
        connection.expect("32d9a140 create_account", &server.stderr),
        "32d9a140 create_account ai-new pw"
    );
    connection.send("= login");
    connection.expect("software_id", &server.stderr);
    let offer = connection.expect("new_game", &server.stderr);
    assert_eq!(
        offer,
        r#"new_game {"role":"Defender","rated":false,"time_settings":"UnTimed","board_size":7}"#
    );
    connection.send("= new_game 9");
    connection.send("= challenge_requested 9");
    connection.expect("join_game 9", &server.stderr);
    connection.send("= join_game human ai-new unrated UnTimed 7");
    // On 7x7 the defenders move first.
    let mut table = Table::new(9, "human", "ai-new", Variant::hnefatafl_org_brandubh());
    let mut random = Lcg(1);
    play_rounds(
        &server,
        &mut connection,
        &mut table,
        Side::Defenders,
        &mut random,
        3,
    );
    connection.send("= draw accept");
    let stderr = server.finished();
    assert!(stderr.contains("game 9 over"), "{stderr}");
}

#[test]
fn a_refused_login_ends_the_client() {
    let mut server = Server::start(&["--user", "ai-test"]);
    let mut connection = server.accept();
    connection.expect("32d9a140 login", &server.stderr);
    connection.send("? login multiple_possible_errors wrong_password");
    let status = server.exit();
    assert_eq!(status.code(), Some(1), "{}", server.stderr.text());
    assert!(server.stderr.text().contains("refuses the login"));
}

#[test]
fn the_empty_password_can_be_said_and_is_sent_as_it_is() {
    // `--password ""` was refused ("--password needs a value") though empty is the default.
    let mut server = Server::start(&["--user", "ai-test", "--password", ""]);
    let mut connection = server.accept();
    let login = connection.expect("32d9a140 login", &server.stderr);
    // (The fake server's lines are read without the white space at their end.)
    assert_eq!(login, "32d9a140 login ai-test");
    connection.send("? login multiple_possible_errors wrong_password");
    let status = server.exit();
    assert_eq!(status.code(), Some(1), "{}", server.stderr.text());
}

#[test]
fn help_exits_0_and_a_usage_mistake_exits_2_with_clap_s_message() {
    check_command_line(
        "hnefatafl-org",
        &[
            "--user",
            "--password",
            "--new-game",
            "--join-any",
            "--games",
            "--time",
            "--give-up-after",
            "--retry-max-wait",
        ],
        &[
            &["--user", "ai-x", "--frob"][..],
            &[],
            &["--user", "ai-x", "--size", "9"],
            &["--user", "ai-x", "--give-up-after", "soon"],
        ],
    );
}

/// The 13x13 start as the server writes it, by hand (the fake server writes its own from the
/// library's variant: the two must agree).
const START_13: &str =
    "/3AAAAAAA3/6A6/13/A5D5A/A5D5A/A4DDD4A/AA1DDDKDDD1AA/A4DDD4A/A5D5A/A5D5A/13/6A6/3AAAAAAA3/";

#[test]
fn a_13x13_record_is_followed_mid_game() {
    let variant = Variant::<Wide>::hnefatafl_org_copenhagen_13();
    assert_eq!(server_start(&variant), START_13);
    let mut server = Server::start(&["--user", "ai-test", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    // Random moves of both sides, as the server records them (capitals, with the captures),
    // until some were captured; then the client, the defenders, is asked for its move in the
    // middle of the game. Its move must be legal with the whole history (H12 included).
    let mut table = Table::new(6, "human", "ai-test", variant);
    let mut random = Lcg(13);
    while !(table.record.len() >= 30
        && table.to_move() == Side::Defenders
        && table.record.iter().any(|m| m.contains('x')))
    {
        opponent_plays(&mut table, &mut random);
        assert!(table.game.outcome().is_none(), "seed 13 ends the game");
    }
    assert!(
        table
            .record
            .iter()
            .all(|m| m.chars().all(|c| c == 'x' || !c.is_ascii_lowercase())),
        "{:?}",
        table.record
    );
    table.clock = Some((600_000, 540_000, 10));
    let before = table.record.len();
    play_rounds(
        &server,
        &mut connection,
        &mut table,
        Side::Defenders,
        &mut random,
        3,
    );
    connection.send("= game_over 6 attacker_wins");
    let stderr = server.finished();
    let moves = table.record.len();
    assert!(moves > before, "{stderr}");
    assert!(
        stderr.contains(&format!("game 6 over after {moves} moves: attacker won")),
        "{stderr}"
    );
    // The client's replay of the record saw every capture the referee made.
    assert!(!stderr.contains("warning"), "{stderr}");
    assert!(!stderr.contains("cannot follow"), "{stderr}");
}

/// Plays `attacking` (the client the attackers) and then `defending` to their ends against the
/// fake server, with moves of the server's side drawn from `seed`; the client must say each
/// result, count both games and warn of nothing.
fn both_games_to_their_end<A: Grid, D: Grid>(
    seed: u64,
    attacking: &mut Table<A>,
    defending: &mut Table<D>,
) {
    let mut server = Server::start(&["--user", "ai-test", "--games", "2"]);
    let (mut connection, _) = server.logged_in();
    let mut random = Lcg(seed);
    let results = [
        play_to_the_end(
            &server,
            &mut connection,
            attacking,
            Side::Attackers,
            &mut random,
        ),
        play_to_the_end(
            &server,
            &mut connection,
            defending,
            Side::Defenders,
            &mut random,
        ),
    ];
    let stderr = server.finished();
    for result in &results {
        assert!(
            stderr.contains(result.as_str()),
            "'{result}' not in:\n{stderr}"
        );
    }
    assert!(stderr.contains("done: 2 games played"), "{stderr}");
    // The client replayed every record without a disagreement with the referee's captures.
    assert!(!stderr.contains("warning"), "{stderr}");
}

#[test]
fn whole_13x13_games_to_their_end_as_either_side_every_move_legal() {
    let variant = Variant::<Wide>::hnefatafl_org_copenhagen_13();
    // On 13x13 the attackers move first.
    let mut attacking = Table::new(61, "ai-test", "human", variant.clone());
    let mut defending = Table::new(62, "human", "ai-test", variant);
    both_games_to_their_end(1313, &mut attacking, &mut defending);
    // Moves beyond the 11x11 board's files and ranks were played by someone: the whole 13x13
    // board was in use.
    let beyond = |table: &Table<Wide>| {
        table
            .game
            .moves()
            .any(|m| m.to().x() > 10 || m.to().y() > 10)
    };
    assert!(beyond(&attacking) || beyond(&defending));
}

#[test]
fn it_offers_a_13x13_game_and_plays_it() {
    let mut server = Server::start(&[
        "--user",
        "ai-test",
        "--new-game",
        "attacker",
        "--size",
        "13",
        "--time",
        "untimed",
        "--games",
        "1",
    ]);
    let (mut connection, _) = server.logged_in();
    let offer = connection.expect("new_game", &server.stderr);
    assert_eq!(
        offer,
        r#"new_game {"role":"Attacker","rated":false,"time_settings":"UnTimed","board_size":13}"#
    );
    connection.send("= new_game 70");
    connection.send("= challenge_requested 70");
    connection.expect("join_game 70", &server.stderr);
    connection.send("= join_game ai-test human unrated UnTimed 13");
    let mut table = Table::new(
        70,
        "ai-test",
        "human",
        Variant::<Wide>::hnefatafl_org_copenhagen_13(),
    );
    let mut random = Lcg(70);
    play_rounds(
        &server,
        &mut connection,
        &mut table,
        Side::Attackers,
        &mut random,
        3,
    );
    connection.send("= game_over 70 defender_wins");
    let stderr = server.finished();
    assert!(
        stderr.contains("game 70 over after 6 moves: defender won"),
        "{stderr}"
    );
}

#[test]
fn a_game_its_own_move_ends_counts_that_move() {
    let mut server = Server::start(&["--user", "ai-test", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(3, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    client_move(&server, &mut connection, &mut table, Side::Attackers);
    // The server answers a move that ends the game with the end alone, no `= game`.
    connection.send("= game_over 3 attacker_wins");
    let stderr = server.finished();
    assert!(stderr.contains("game 3 over after 1 moves"), "{stderr}");
}

/// The line the server ends a game with, for the fake referee's outcome.
fn ending<B: Grid>(table: &Table<B>) -> String {
    match table.game.outcome() {
        Some(Outcome::Win { winner, .. }) => {
            format!("= game_over {} {}_wins", table.id, role(winner))
        }
        Some(Outcome::Draw(_)) => "= draw accept".to_string(),
        None => panic!("game {} is not over", table.id),
    }
}

/// Plays `table` to its end under the fake referee, the client as `us` (asked for every move,
/// each checked legal with the game's history), a random opponent; returns the result line
/// the client should log.
fn play_to_the_end<B: Grid>(
    server: &Server,
    connection: &mut Connection,
    table: &mut Table<B>,
    us: Side,
    random: &mut Lcg,
) -> String {
    while table.game.outcome().is_none() {
        if table.to_move() == us {
            client_move(server, connection, table, us);
            // A move that ends the game gets the end alone, as on the real server.
            if table.game.outcome().is_none() {
                connection.send("= game");
            }
        } else {
            opponent_move(connection, table, random);
        }
    }
    connection.send(&ending(table));
    let how = match table.game.outcome() {
        Some(Outcome::Win { winner, .. }) => format!("{} won", role(winner)),
        _ => "drawn".to_string(),
    };
    format!(
        "game {} over after {} moves: {how}",
        table.id,
        table.record.len()
    )
}

#[test]
fn whole_games_to_their_end_as_either_side_every_move_legal() {
    let mut attacking = Table::new(21, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    // On 7x7 the defenders move first: the client's first request is the game's first move.
    let mut defending = Table::new(22, "human", "ai-test", Variant::hnefatafl_org_brandubh());
    both_games_to_their_end(21, &mut attacking, &mut defending);
}

/// One move of the client's on a clock that runs: the time from the request to the answer is
/// taken from its side's time, as the server does, and the increment added.
fn client_move_on_the_clock(
    server: &Server,
    connection: &mut Connection,
    table: &mut Table,
    us: Side,
) -> Duration {
    let asked = Instant::now();
    client_move(server, connection, table, us);
    let took = asked.elapsed();
    let (attackers_ms, defenders_ms, increment_s) = table.clock.expect("a timed game");
    let spent = took.as_millis() as i64 - increment_s * 1000;
    table.clock = Some(match us {
        Side::Attackers => (attackers_ms - spent, defenders_ms, increment_s),
        Side::Defenders => (attackers_ms, defenders_ms - spent, increment_s),
    });
    took
}

#[test]
fn every_answer_comes_within_the_clock_whatever_the_movetime() {
    // Thinking time a move up to a minute, but 2.5 seconds on the clock and no increment: the
    // clock decides. The fake server runs the client's clock as the real one does.
    let mut server = Server::start(&["--user", "ai-test", "--games", "1", "--movetime", "60000"]);
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(31, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    table.clock = Some((2_500, 900_000, 0));
    let mut random = Lcg(31);
    for _ in 0..6 {
        let took = client_move_on_the_clock(&server, &mut connection, &mut table, Side::Attackers);
        let (left, ..) = table.clock.expect("a clock");
        assert!(
            left > 0,
            "the client took {took:?} and ran out of time; stderr:\n{}",
            server.stderr.text()
        );
        if table.game.outcome().is_some() {
            break;
        }
        connection.send("= game");
        opponent_move(&mut connection, &mut table, &mut random);
        if table.game.outcome().is_some() {
            break;
        }
    }
    connection.send("= game_over 31 defender_wins");
    let stderr = server.finished();
    let moves = table.record.len();
    assert!(
        stderr.contains(&format!("game 31 over after {moves} moves")),
        "{stderr}"
    );
}

/// A game of `initialize_display`'s list (the server's RON) between `attacker` and `defender`
/// (`None`: a free seat), untimed.
fn listed_game(id: u64, attacker: Option<&str>, defender: Option<&str>, size: u8) -> String {
    let seat = |name: Option<&str>| match name {
        Some(name) => format!("Some(\"{name}\")"),
        None => "None".to_string(),
    };
    let started = attacker.is_some() && defender.is_some();
    format!(
        "(id:{id},attacker:{},defender:{},challenger:(None),rated:No,timed:UnTimed,spectators:{{}},challenge_accepted:{started},game_over:false,board_size:_{size},turn:Roleless)",
        seat(attacker),
        seat(defender)
    )
}

#[test]
fn with_join_any_it_asks_to_play_an_offered_game_it_can_play() {
    let mut server = Server::start(&["--user", "ai-test", "--join-any", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    // At login the server lists its games: one under way between others, one of the client's
    // own name, one offered on 11x11 with the attackers' seat free, one on 13x13.
    let games = [
        listed_game(40, Some("a"), Some("b"), 11),
        listed_game(42, Some("ai-test"), None, 13),
        listed_game(43, None, Some("human"), 11),
        listed_game(44, None, Some("human"), 13),
    ];
    connection.send(&format!(
        "= initialize_display ([{}],Users({{}}),false,false)",
        games.join(",")
    ));
    connection.expect("join_game_pending 43", &server.stderr);
    // The creator accepts; the server starts the game and asks the attackers for a move.
    join_and_play_two_rounds(&server, &mut connection, 43, 43);
    connection.send("= game_over 43 defender_wins");
    let stderr = server.finished();
    assert!(
        stderr.contains("game 43 over after 4 moves: defender won"),
        "{stderr}"
    );
}

#[test]
fn with_join_any_it_asks_to_play_an_offered_13x13_game() {
    let mut server = Server::start(&["--user", "ai-test", "--join-any", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    // The games offered as they change (`games_updated`, JSON): a 13x13 one, the defenders'
    // seat free.
    connection.send(&format!(
        "= games_updated {{\"created\":[[45,null,{}]],\"removed\":[],\"updated\":{{}}}}",
        r#"{"id":45,"attacker":"human","defender":null,"challenger":null,"rated":"No","timed":"UnTimed","spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_13","turn":"Roleless"}"#
    ));
    connection.expect("join_game_pending 45", &server.stderr);
    connection.send("= join_game human ai-test unrated UnTimed 13");
    let mut table = Table::new(
        45,
        "human",
        "ai-test",
        Variant::<Wide>::hnefatafl_org_copenhagen_13(),
    );
    let mut random = Lcg(45);
    opponent_move(&mut connection, &mut table, &mut random);
    play_rounds(
        &server,
        &mut connection,
        &mut table,
        Side::Defenders,
        &mut random,
        2,
    );
    connection.send("= game_over 45 attacker_wins");
    let stderr = server.finished();
    assert!(
        stderr.contains("game 45 over after 5 moves: attacker won"),
        "{stderr}"
    );
}

#[test]
fn a_move_lost_with_the_connection_is_sent_again_after_the_login() {
    let mut server = Server::start(&["--user", "ai-test", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(12, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    // The client's move goes out, and the connection drops before the server has it (as when
    // the client's side of the connection is reset: seen on the real server).
    connection.send("game 12 generate_move attacker");
    connection.expect("resume_game_json 12", &server.stderr);
    connection.send(&table.json(11));
    connection.expect("game 12 play attacker", &server.stderr);
    drop(connection);
    // At the new login the server asks again, and its record has no move: the client must
    // move again rather than wait for an answer to the lost one.
    let (mut connection, _) = server.logged_in();
    client_move(&server, &mut connection, &mut table, Side::Attackers);
    connection.send("= game_over 12 attacker_wins");
    let stderr = server.finished();
    assert!(stderr.contains("connection lost"), "{stderr}");
    // The log says the move is sent again, and why.
    assert!(
        stderr.contains("(sent again: our move") && stderr.contains("the server's record lacks it"),
        "{stderr}"
    );
    assert!(stderr.contains("game 12 over after 1 moves"), "{stderr}");
}

/// The games of `initialize_display` as the server sends them at login.
fn initial_display(games: &[String]) -> String {
    format!(
        "= initialize_display ([{}],Users({{}}),false,false)",
        games.join(",")
    )
}

#[test]
fn after_a_restart_before_its_game_began_it_joins_again_and_plays() {
    // The client asked to join a game; the server dies before the game begins. The restarted
    // server counts its games from 0 again, and the opponent offers a game again with the id
    // the client asked for before: the client must ask again (it used to only ping).
    let mut server = Server::start(&["--user", "ai-test", "--join-any", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    connection.send(&initial_display(&[listed_game(0, None, Some("human"), 11)]));
    connection.expect("join_game_pending 0", &server.stderr);
    drop(connection);
    let (mut connection, _) = server.logged_in();
    connection.send(&initial_display(&[listed_game(0, None, Some("human"), 11)]));
    connection.expect("join_game_pending 0", &server.stderr);
    join_and_play_two_rounds(&server, &mut connection, 0, 60);
    connection.send("= game_over 0 defender_wins");
    let stderr = server.finished();
    assert!(stderr.contains("connection lost"), "{stderr}");
    assert!(
        stderr.contains("game 0 over after 4 moves: defender won"),
        "{stderr}"
    );
    assert!(stderr.contains("done: 1 games played"), "{stderr}");
}

#[test]
fn after_a_restart_that_lost_its_game_it_offers_again_and_plays() {
    // The client's game is under way when the server dies; the restarted server has lost it
    // (it does not ask for it at the new login). The client must forget it and offer a game
    // again (it used to only ping, its `--games 1` never reached).
    let mut server = Server::start(&[
        "--user",
        "ai-test",
        "--new-game",
        "attacker",
        "--games",
        "1",
    ]);
    let (mut connection, _) = server.logged_in();
    connection.expect("new_game", &server.stderr);
    connection.send("= new_game 1");
    connection.send("= challenge_requested 1");
    connection.expect("join_game 1", &server.stderr);
    connection.send("= join_game ai-test human unrated UnTimed 11");
    let mut table = Table::new(1, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    client_move(&server, &mut connection, &mut table, Side::Attackers);
    connection.send("= game");
    drop(connection);
    let (mut connection, _) = server.logged_in();
    let offer = connection.expect("new_game", &server.stderr);
    assert!(offer.contains(r#""role":"Attacker""#), "{offer}");
    connection.send("= new_game 1");
    connection.send("= challenge_requested 1");
    connection.expect("join_game 1", &server.stderr);
    join_and_play_two_rounds(&server, &mut connection, 1, 61);
    connection.send("= game_over 1 attacker_wins");
    let stderr = server.finished();
    assert!(
        stderr.contains("game 1: the server no longer has it after the new login"),
        "{stderr}"
    );
    assert!(
        stderr.contains("game 1 over after 4 moves: attacker won"),
        "{stderr}"
    );
    assert!(stderr.contains("done: 1 games played"), "{stderr}");
}

#[test]
fn after_a_restart_mid_game_with_join_any_it_joins_the_game_offered_again() {
    // As the issue saw it on the real server: both players' game is lost with the server, the
    // opponent (restarted too) offers again, and the client joins.
    let mut server = Server::start(&["--user", "ai-test", "--join-any", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    connection.send(&initial_display(&[listed_game(3, Some("human"), None, 7)]));
    connection.expect("join_game_pending 3", &server.stderr);
    connection.send("= join_game human ai-test unrated UnTimed 7");
    let mut table = Table::new(3, "human", "ai-test", Variant::hnefatafl_org_brandubh());
    // On 7x7 the defenders move first.
    client_move(&server, &mut connection, &mut table, Side::Defenders);
    connection.send("= game");
    drop(connection);
    let (mut connection, _) = server.logged_in();
    // The list comes at login, before the answer to the client's ping: the client joins from
    // it once it knows its game is gone.
    connection.send(&initial_display(&[listed_game(0, Some("human"), None, 7)]));
    connection.expect("join_game_pending 0", &server.stderr);
    connection.send("= join_game human ai-test unrated UnTimed 7");
    let mut table = Table::new(0, "human", "ai-test", Variant::hnefatafl_org_brandubh());
    let mut random = Lcg(62);
    play_rounds(
        &server,
        &mut connection,
        &mut table,
        Side::Defenders,
        &mut random,
        2,
    );
    connection.send("= game_over 0 defender_wins");
    let stderr = server.finished();
    assert!(
        stderr.contains("game 3: the server no longer has it"),
        "{stderr}"
    );
    assert!(stderr.contains("game 0 over after 4 moves"), "{stderr}");
    assert!(stderr.contains("done: 1 games played"), "{stderr}");
}

#[test]
fn with_tournament_it_joins_and_plays_the_games_the_server_lists() {
    let mut server = Server::start(&["--user", "ai-test", "--tournament", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    connection.expect("join_tournament", &server.stderr);
    // The server makes a tournament's games without telling the players: `resume_games` is
    // answered with a `generate_move` for each game of the account's.
    connection.expect("resume_games", &server.stderr);
    let mut table = Table::new(50, "human", "ai-test", Variant::hnefatafl_org_copenhagen());
    let mut random = Lcg(50);
    opponent_plays(&mut table, &mut random);
    client_move(&server, &mut connection, &mut table, Side::Defenders);
    connection.send("= game_over 50 defender_wins");
    let stderr = server.finished();
    assert!(stderr.contains("game 50 over after 2 moves"), "{stderr}");
}

#[test]
fn a_fresh_client_plays_the_game_the_server_holds_before_it_offers_another() {
    // A client killed mid-game and started again: its account still has game 7 under way. The
    // server names it (`generate_move`) at login after other lines, before it answers the
    // client's ping: the client must play game 7 alone to its end, then offer (it used to
    // offer in the same millisecond as its login, and play two games at once).
    let mut server = Server::start(&[
        "--user",
        "ai-test",
        "--new-game",
        "attacker",
        "--games",
        "2",
    ]);
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(7, "human", "ai-test", Variant::hnefatafl_org_copenhagen());
    let mut random = Lcg(7);
    // Three moves made before: the opponent's, ours (the process before), the opponent's.
    for _ in 0..3 {
        opponent_plays(&mut table, &mut random);
    }
    // What the server sends at login before it resumes the games: the games on offer (one the
    // client could join), users, texts; a draw of no game of ours.
    connection.send(&initial_display(&[listed_game(
        43,
        None,
        Some("human"),
        11,
    )]));
    connection.send("= users_updated (updated:{},removed:[])");
    connection.send("version 6.4.1");
    connection.send("= draw accept");
    connection.send("game 7 generate_move defender");
    // The first line after `ping` (answered by `expect`, so after the server's resume): the
    // game held, nothing offered, nothing joined.
    connection.expect("resume_game_json 7", &server.stderr);
    connection.send(&table.json(11));
    let line = connection.expect("game 7 play defender", &server.stderr);
    let words: Vec<&str> = line.split_whitespace().collect();
    let m: Move = format!("{}-{}", words[4], words[5]).parse().unwrap();
    table.play(m);
    connection.send("= game");
    opponent_move(&mut connection, &mut table, &mut random);
    play_rounds(
        &server,
        &mut connection,
        &mut table,
        Side::Defenders,
        &mut random,
        2,
    );
    connection.send("= game_over 7 attacker_wins");
    // Only now: an offer (every line before was checked).
    let offer = connection.expect("new_game", &server.stderr);
    assert!(offer.contains(r#""role":"Attacker""#), "{offer}");
    connection.send("= new_game 8");
    connection.send("= challenge_requested 8");
    connection.expect("join_game 8", &server.stderr);
    join_and_play_two_rounds(&server, &mut connection, 8, 8);
    connection.send("= game_over 8 defender_wins");
    let stderr = server.finished();
    assert!(
        stderr.contains("game 7: under way on the server before this login: resumed"),
        "{stderr}"
    );
    // The moves made before, each with its side, ours marked.
    let caught_up = format!(
        "game 7: caught up at move 4 (we are the defenders): 3 moves made before: 1. attacker \
         {}, 2. defender {} (ours), 3. attacker {}",
        table.record[0], table.record[1], table.record[2]
    );
    assert!(stderr.contains(&caught_up), "{caught_up} in {stderr}");
    assert!(
        stderr.contains("no game of ours is under way: not counted"),
        "{stderr}"
    );
    let over = format!(
        "game 7 over after {} moves: attacker won",
        table.record.len()
    );
    assert!(stderr.contains(&over), "{over} in {stderr}");
    assert!(
        stderr.contains("game 8 over after 4 moves: defender won"),
        "{stderr}"
    );
    assert!(stderr.contains("done: 2 games played"), "{stderr}");
    assert!(!stderr.contains("join_game_pending"), "{stderr}");
}

#[test]
fn with_join_any_a_fresh_client_joins_nothing_while_its_held_game_is_under_way() {
    let mut server = Server::start(&["--user", "ai-test", "--join-any", "--games", "2"]);
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(5, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    connection.send(&initial_display(&[listed_game(
        43,
        None,
        Some("human"),
        11,
    )]));
    connection.send("= users_updated (updated:{},removed:[])");
    // Game 5 (its `generate_move` sent after those lines) first, on its own: a join of game 43
    // would fail the expectations.
    let mut random = Lcg(5);
    play_rounds(
        &server,
        &mut connection,
        &mut table,
        Side::Attackers,
        &mut random,
        2,
    );
    // Games offered while game 5 is under way are not joined.
    connection.send(&format!(
        "= games_updated {{\"created\":[[44,null,{}]],\"removed\":[],\"updated\":{{}}}}",
        r#"{"id":44,"attacker":null,"defender":"human","challenger":null,"rated":"No","timed":"UnTimed","spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_11","turn":"Roleless"}"#
    ));
    client_move(&server, &mut connection, &mut table, Side::Attackers);
    connection.send("= game_over 5 attacker_wins");
    // Then the next game offered is.
    connection.send(&format!(
        "= games_updated {{\"created\":[[46,null,{}]],\"removed\":[],\"updated\":{{}}}}",
        r#"{"id":46,"attacker":null,"defender":"human","challenger":null,"rated":"No","timed":"UnTimed","spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_11","turn":"Roleless"}"#
    ));
    connection.expect("join_game_pending 46", &server.stderr);
    join_and_play_two_rounds(&server, &mut connection, 46, 46);
    connection.send("= game_over 46 defender_wins");
    let stderr = server.finished();
    assert!(
        stderr.contains("game 5 over after 5 moves: attacker won"),
        "{stderr}"
    );
    assert!(stderr.contains("game 46 over after 4 moves"), "{stderr}");
    assert!(!stderr.contains("join_game_pending 43"), "{stderr}");
    assert!(!stderr.contains("join_game_pending 44"), "{stderr}");
}

#[test]
fn a_draw_that_names_no_game_is_counted_for_the_game_the_server_no_longer_has() {
    // Two games under way (held from an earlier process), and `= draw accept`, which names no
    // game: the client asks for both records; the server answers for the game it still has
    // (8), not for the drawn one (7), then the ping.
    let mut server = Server::start(&["--user", "ai-test", "--games", "1"]);
    let (mut connection, _) = server.logged_in();
    let mut seven = Table::new(7, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    let eight = Table::new(8, "human", "ai-test", Variant::hnefatafl_org_copenhagen());
    let mut random = Lcg(78);
    // Game 7: our move made, the opponent's turn; game 8: the opponent's first move to come.
    opponent_plays(&mut seven, &mut random);
    connection.send("game 7 generate_move attacker");
    connection.send("game 8 generate_move defender");
    connection.expect("resume_game_json 7", &server.stderr);
    connection.expect("resume_game_json 8", &server.stderr);
    connection.send(&seven.json(11));
    connection.send(&eight.json(11));
    connection.send("= draw accept");
    connection.expect("resume_game_json 7", &server.stderr);
    connection.expect("resume_game_json 8", &server.stderr);
    connection.send(&eight.json(11));
    assert_eq!(connection.recv(&server.stderr).as_deref(), Some("ping"));
    connection.send("= ping");
    let stderr = server.finished();
    assert!(
        stderr.contains("asking the server which it still has"),
        "{stderr}"
    );
    assert!(
        stderr.contains("game 7 over after 1 moves: drawn"),
        "{stderr}"
    );
    assert!(!stderr.contains("game 8 over"), "{stderr}");
    assert!(stderr.contains("done: 1 games played"), "{stderr}");
}

#[test]
fn it_waits_out_an_outage_longer_than_the_old_limit_and_catches_up() {
    // The server is down for more attempts than the old limit (12): the client tries again
    // for ever (the waits shortened for the test: 10 ms doubling to 40 ms), then logs in,
    // resumes its game and logs the opponent's move made meanwhile.
    let mut server = Server::start(&[
        "--user",
        "ai-test",
        "--games",
        "1",
        "--retry-wait",
        "10ms",
        "--retry-max-wait",
        "40ms",
    ]);
    let (mut connection, _) = server.logged_in();
    let mut table = Table::new(2, "ai-test", "human", Variant::hnefatafl_org_copenhagen());
    let mut random = Lcg(2);
    client_move(&server, &mut connection, &mut table, Side::Attackers);
    connection.send("= game");
    server.client.refuse_connections();
    drop(connection);
    opponent_plays(&mut table, &mut random);
    server.client.wait_for("attempt 14: cannot connect");
    server.client.listen_again();
    let (mut connection, _) = server.logged_in();
    client_move(&server, &mut connection, &mut table, Side::Attackers);
    connection.send("= game_over 2 attacker_wins");
    let stderr = server.finished();
    // One loss; then every attempt refused, each said with its number and the next wait.
    assert_eq!(stderr.matches("connection lost").count(), 1, "{stderr}");
    assert!(
        stderr.contains("connection lost: the server closed the connection"),
        "{stderr}"
    );
    assert!(
        stderr.contains("attempt 1 in 10 ms (waits doubling up to 40 ms, for ever)"),
        "{stderr}"
    );
    assert!(stderr.contains("attempt 3 in 40 ms"), "{stderr}");
    assert!(
        stderr.contains("attempt 13: cannot connect to the server at 127.0.0.1 port"),
        "{stderr}"
    );
    assert!(!stderr.contains("giving up"), "{stderr}");
    assert!(stderr.contains("back on the server at attempt"), "{stderr}");
    assert!(
        stderr.contains("game 2: resumed after the new login"),
        "{stderr}"
    );
    let caught_up = format!(
        "game 2: caught up at move 3 (we are the attackers): 1 moves made while we were away: \
         2. defender {}",
        table.record[1]
    );
    assert!(stderr.contains(&caught_up), "{caught_up} in {stderr}");
    assert!(stderr.contains("game 2 over after 3 moves"), "{stderr}");
}

#[test]
fn with_give_up_after_it_exits_when_the_server_stays_away() {
    let mut server = Server::start(&[
        "--user",
        "ai-test",
        "--retry-wait",
        "20ms",
        "--give-up-after",
        "300ms",
    ]);
    let (connection, _) = server.logged_in();
    server.client.refuse_connections();
    let lost = Instant::now();
    drop(connection);
    let status = server.exit();
    let stderr = server.stderr.text();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(lost.elapsed() >= Duration::from_millis(300), "{stderr}");
    assert!(
        stderr.contains("until 300 ms without the server"),
        "{stderr}"
    );
    assert!(
        stderr.contains(": cannot connect to the server"),
        "{stderr}"
    );
    assert!(
        stderr.contains("giving up (--give-up-after 300 ms)"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("connection lost").count(), 1, "{stderr}");
}
