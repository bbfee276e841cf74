//! `tafl-engine tablut-challenge`, the real binary, against a fake Tablut Challenge server: a
//! TCP listener on 127.0.0.1 (`common::client_process`) that frames and writes its messages
//! as the Java server does (a 4-byte big-endian length, then gson's JSON), and referees with the
//! library (docs/tablut-challenge.md).
//!
//! Every read has a timeout and every wait for the client's exit a deadline, so a hung client
//! fails a test instead of hanging it.

use crate::common;

use common::client_process::{ClientProcess, check_command_line};
use common::seeded::Lcg;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use tafl_engine::{Game, Move, Outcome, Piece, Position, Side, Variant};

/// How long the fake server waits for the client to connect, answer or exit.
const PATIENCE: Duration = Duration::from_secs(20);

/// The client's thinking time in these tests.
const MOVE_TIME_MS: u64 = 200;

/// What the client may take beyond its move time to answer: reading the state, starting and
/// stopping the search, writing the move; generous for a loaded machine.
const ANSWER_SLACK: Duration = Duration::from_millis(400);

/// The game the client plays (its `challenge::variant()`): Ashton Tablut, white first.
fn variant() -> Variant {
    Variant::ashton()
}

fn colour(side: Side) -> &'static str {
    match side {
        Side::Defenders => "WHITE",
        Side::Attackers => "BLACK",
    }
}

/// A board as the server's gson writes it, with `turn`.
fn state_json(position: &Position, turn: &str) -> String {
    let mut rows = Vec::new();
    for row in 0..9u8 {
        let mut cells = Vec::new();
        for column in 0..9u8 {
            let square = tafl_engine::Square::new(column, row).expect("on the board");
            let cell = match position.piece_at(square) {
                Some(Piece::Attacker) => "BLACK",
                Some(Piece::Defender) => "WHITE",
                Some(Piece::King) => "KING",
                None if (row, column) == (4, 4) => "THRONE",
                None => "EMPTY",
            };
            cells.push(format!("\"{cell}\""));
        }
        rows.push(format!("[{}]", cells.join(",")));
    }
    format!("{{\"board\":[{}],\"turn\":\"{turn}\"}}", rows.join(","))
}

/// A position with the same pieces as `position` but for the one on `square`, `side` to move.
fn without(position: &Position, square: &str, side: Side) -> Position {
    let pieces: Vec<_> = position
        .pieces_with_squares()
        .filter(|(s, _)| s.to_string() != square)
        .collect();
    assert!(
        pieces.len() < position.occupied().count() as usize,
        "{square} had a piece"
    );
    Position::from_pieces(position.rules(), side, pieces).expect("a position")
}

/// The fake server and the client connected to it.
struct Match {
    client: ClientProcess,
    stream: TcpStream,
    /// The name message, as it came (without its length prefix).
    name: Vec<u8>,
    /// The name message's length prefix.
    name_prefix: [u8; 4],
}

impl Match {
    /// Starts the client with `tablut-challenge`, `--port <port>` and `args`, accepts its
    /// connection and reads its name.
    fn start(args: &[&str]) -> Match {
        Match::connected(ClientProcess::start("tablut-challenge", args, PATIENCE))
    }

    /// Accepts the connection of a client started, and reads its name.
    fn connected(mut client: ClientProcess) -> Match {
        let stream = client.accept();
        let mut game = Match {
            client,
            stream,
            name: Vec::new(),
            name_prefix: [0; 4],
        };
        let (prefix, name) = game.recv_frame();
        game.name = name;
        game.name_prefix = prefix;
        game
    }

    fn stderr(&self) -> String {
        self.client.stderr.text()
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).expect("the client reads");
        self.stream.flush().expect("the client reads");
    }

    /// Sends one framed message.
    fn send(&mut self, text: &str) {
        let mut frame = (text.len() as i32).to_be_bytes().to_vec();
        frame.extend_from_slice(text.as_bytes());
        self.send_bytes(&frame);
    }

    fn send_state(&mut self, position: &Position) {
        self.send(&state_json(position, colour(position.side_to_move())));
    }

    /// Reads one framed message: its length prefix and its bytes.
    fn recv_frame(&mut self) -> ([u8; 4], Vec<u8>) {
        let mut prefix = [0u8; 4];
        if let Err(error) = self.stream.read_exact(&mut prefix) {
            panic!(
                "no message from the client ({error}); stderr:\n{}",
                self.stderr()
            );
        }
        let length = i32::from_be_bytes(prefix);
        assert!((0..=4096).contains(&length), "length prefix {length}");
        let mut body = vec![0u8; length as usize];
        self.stream
            .read_exact(&mut body)
            .expect("the whole message");
        (prefix, body)
    }

    /// Reads the client's move, checks it is gson's `Action` for `side`, and returns it.
    fn recv_move(&mut self, side: Side) -> Move {
        let (_, body) = self.recv_frame();
        let text = String::from_utf8(body).expect("UTF-8");
        let fields = text
            .strip_prefix("{\"from\":\"")
            .and_then(|rest| rest.split_once("\",\"to\":\""))
            .and_then(|(from, rest)| {
                let (to, turn) = rest.split_once("\",\"turn\":\"")?;
                Some((from, to, turn.strip_suffix("\"}")?))
            });
        let Some((from, to, turn)) = fields else {
            panic!("not an action: {text}")
        };
        assert_eq!(turn, colour(side), "{text}");
        assert!(from.len() == 2 && to.len() == 2, "{text}");
        format!("{from}-{to}").parse().expect("a move")
    }

    /// Closes the connection, then waits for the client to exit.
    fn finish_after_close(self) -> (ExitStatus, String) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        self.finish()
    }

    /// Waits for the client to exit; returns its status and everything it wrote to stderr.
    fn finish(mut self) -> (ExitStatus, String) {
        let status = self.client.exit();
        let stderr = self.stderr();
        assert!(
            !stderr.contains("panicked"),
            "the client panicked:\n{stderr}"
        );
        (status, stderr)
    }
}

fn args(side: &str, move_time: u64) -> Vec<String> {
    vec![
        side.to_string(),
        "--movetime".to_string(),
        move_time.to_string(),
        "--hash".to_string(),
        "4".to_string(),
    ]
}

fn start(side: &str, move_time: u64) -> Match {
    let args = args(side, move_time);
    Match::start(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn the_first_message_is_the_name_as_a_framed_json_string() {
    let game = start("white", MOVE_TIME_MS);
    assert_eq!(game.name, b"\"taflengine\"");
    assert_eq!(game.name_prefix, [0, 0, 0, 12]);
    let game = Match::start(&["black", "--name", "tafl-engine \"2\"", "--hash", "4"]);
    assert_eq!(game.name, br#""tafl-engine \"2\"""#);
    assert_eq!(
        i32::from_be_bytes(game.name_prefix) as usize,
        game.name.len()
    );
    // The client says what the server will make of the name.
    let (_, stderr) = game.finish_after_close();
    assert!(
        stderr.contains(r#"name "tafl-engine \"2\"" (the server keeps "taflengin")"#),
        "{stderr}"
    );
}

/// Plays a whole game: the fake server plays `server_side` with seeded random moves, and
/// declares a draw after `max_plies` (as the real server does after ten hours).
fn whole_game(client_side: Side, seed: u64) {
    const MAX_PLIES: usize = 60;
    let client_name = match client_side {
        Side::Defenders => "white",
        Side::Attackers => "black",
    };
    let mut game_match = start(client_name, 100);
    let mut game = Game::new(&variant());
    let mut random = Lcg(seed);
    let mut slowest = Duration::ZERO;
    game_match.send_state(game.position());
    let turn = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome {
                Outcome::Win {
                    winner: Side::Defenders,
                    ..
                } => "WHITEWIN",
                Outcome::Win { .. } => "BLACKWIN",
                Outcome::Draw(_) => "DRAW",
            };
        }
        if game.moves().len() >= MAX_PLIES {
            break "DRAW";
        }
        let side = game.position().side_to_move();
        let m = if side == client_side {
            let asked = Instant::now();
            let m = game_match.recv_move(side);
            slowest = slowest.max(asked.elapsed());
            m
        } else {
            let mut moves = game.legal_moves().to_vec();
            moves.sort();
            moves[random.below(moves.len())]
        };
        if let Err(error) = game.play(m) {
            panic!(
                "the client's move {m} is illegal: {error}; stderr:\n{}",
                game_match.stderr()
            );
        }
        game_match.send_state(game.position());
    };
    game_match.send(&state_json(game.position(), turn));
    let (status, stderr) = game_match.finish();
    assert!(status.success(), "exit status {status}; stderr:\n{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with(&format!("game over: {turn}")), "{stderr}");
    assert!(!stderr.contains("resync"), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
    assert!(
        slowest < Duration::from_millis(100) + ANSWER_SLACK,
        "slowest answer {slowest:?}"
    );
}

#[test]
fn plays_a_whole_game_as_white_and_exits_0_at_the_end() {
    whole_game(Side::Defenders, 1);
}

#[test]
fn plays_a_whole_game_as_black_and_exits_0_at_the_end() {
    whole_game(Side::Attackers, 2);
}

#[test]
fn answers_within_its_move_time() {
    let mut game_match = start("white", MOVE_TIME_MS);
    let mut position = variant().start();
    let mut random = Lcg(7);
    for _ in 0..3 {
        game_match.send_state(&position);
        let asked = Instant::now();
        let m = game_match.recv_move(Side::Defenders);
        let took = asked.elapsed();
        assert!(
            took < Duration::from_millis(MOVE_TIME_MS) + ANSWER_SLACK,
            "answered in {took:?}"
        );
        position.play(m).expect("a legal move");
        game_match.send_state(&position);
        let mut moves = position.legal_moves().to_vec();
        moves.sort();
        position
            .play(moves[random.below(moves.len())])
            .expect("legal");
    }
}

#[test]
fn a_connection_closed_mid_game_ends_the_client_with_a_clear_message() {
    let mut game_match = start("black", MOVE_TIME_MS);
    let mut position = variant().start();
    game_match.send_state(&position);
    position.play("e3-f3".parse().unwrap()).unwrap();
    game_match.send_state(&position);
    let m = game_match.recv_move(Side::Attackers);
    assert!(position.is_legal(m));
    game_match.stream.shutdown(std::net::Shutdown::Both).ok();
    let (status, stderr) = game_match.finish();
    assert!(!status.success());
    assert!(
        stderr.contains("the server closed the connection before the game ended"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("our move {m}")), "{stderr}");
}

#[test]
#[cfg(target_os = "linux")]
fn under_a_limit_of_one_process_it_still_answers_within_its_move_time() {
    // The client searches on its own thread when the system will not start another (it used to
    // panic, "failed to spawn thread", exit 101, at the first request for a move).
    let args = args("white", MOVE_TIME_MS);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let Some(client) = ClientProcess::start_without_threads("tablut-challenge", &args, PATIENCE)
    else {
        eprintln!("no prlimit here: not run");
        return;
    };
    let mut game_match = Match::connected(client);
    let mut position = variant().start();
    game_match.send_state(&position);
    let asked = Instant::now();
    let m = game_match.recv_move(Side::Defenders);
    let took = asked.elapsed();
    assert!(position.is_legal(m), "{m}");
    assert!(
        took < Duration::from_millis(MOVE_TIME_MS + 2000),
        "{took:?}"
    );
    position.play(m).unwrap();
    let mut moves = position.legal_moves().to_vec();
    moves.sort();
    position.play(moves[0]).unwrap();
    game_match.send_state(&position);
    let m = game_match.recv_move(Side::Defenders);
    assert!(position.is_legal(m), "{m}");
    let (status, stderr) = game_match.finish_after_close();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the server closed the connection before the game ended"),
        "{stderr}"
    );
}

#[test]
fn help_exits_0_and_a_usage_mistake_exits_2_with_clap_s_message() {
    check_command_line(
        "tablut-challenge",
        &[
            "<white|black>",
            "--host",
            "--port",
            "--name",
            "--movetime",
            "--timeout",
        ],
        &[
            &["white", "--frob"][..],
            &[],
            &["red"],
            &["white", "--port", "0"],
        ],
    );
}

#[test]
fn malformed_messages_are_reported_skipped_and_a_bad_length_ends_the_client() {
    let mut game_match = start("white", MOVE_TIME_MS);
    let start = variant().start();
    let good = state_json(&start, "WHITE");
    game_match.send("{\"board\":[[\"EMPTY\"");
    game_match.send(&good.replacen("\"BLACK\"", "\"PAWN\"", 1));
    game_match.send(&good.replacen("[\"EMPTY\"", "[\"EMPTY\",\"EMPTY\"", 1));
    let (eight_rows, _) = good.rsplit_once(",[").expect("rows");
    game_match.send(&format!("{eight_rows}],\"turn\":\"WHITE\"}}"));
    game_match.send(&good.replace("\"WHITE\"}", "\"GREEN\"}"));
    game_match.send("{\"turn\":\"WHITE\"}");
    let mut frame = 4i32.to_be_bytes().to_vec();
    frame.extend_from_slice(b"\xff\xfe{}");
    game_match.send_bytes(&frame);
    // After all that, a good state: the client answers it.
    game_match.send(&good);
    let m = game_match.recv_move(Side::Defenders);
    assert!(start.is_legal(m));
    // A length prefix over the limit: the framing is lost, the client gives up.
    game_match.send_bytes(&i32::MAX.to_be_bytes());
    let (status, stderr) = game_match.finish();
    assert_eq!(status.code(), Some(1), "{stderr}");
    for expected in [
        "error: skipped a message of 18 bytes from the server: bad JSON at byte 18: unexpected end",
        r#"board[0][3] (d1) is "PAWN", not EMPTY, WHITE, BLACK, KING or THRONE"#,
        "board[0] has 10 cells, not 9",
        "the board has 8 rows, not 9",
        r#""turn" is "GREEN", not WHITE, BLACK, WHITEWIN, BLACKWIN or DRAW"#,
        "the state has no \"board\" field",
        "not UTF-8 (byte 0 of 4)",
        "error: a message's length prefix says 2147483647 bytes, over the limit of 1048576",
    ] {
        assert!(stderr.contains(expected), "no {expected:?} in:\n{stderr}");
    }
    assert!(!stderr.contains("resync"), "{stderr}");
}

#[test]
fn a_negative_length_prefix_ends_the_client() {
    let mut game_match = start("black", MOVE_TIME_MS);
    game_match.send_bytes(&(-5i32).to_be_bytes());
    let (status, stderr) = game_match.finish();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("length prefix is negative (-5)"),
        "{stderr}"
    );
}

#[test]
fn a_state_that_differs_from_ours_is_a_resync_and_play_goes_on() {
    let mut game_match = start("white", MOVE_TIME_MS);
    let mut position = variant().start();
    game_match.send_state(&position);
    let ours = game_match.recv_move(Side::Defenders);
    position.play(ours).unwrap();
    // After our move, the server's board lacks black's a4: not what the client expects.
    let odd = without(&position, "a4", Side::Attackers);
    game_match.send_state(&odd);
    // Black moves from that board, legally: the client follows without another resync.
    let mut next = odd;
    let mut moves = next.legal_moves().to_vec();
    moves.sort();
    next.play(moves[0]).unwrap();
    game_match.send_state(&next);
    let m = game_match.recv_move(Side::Defenders);
    assert!(next.is_legal(m), "{m} in the server's board");
    next.play(m).unwrap();
    game_match.send_state(&next);
    // Now a board no black move reaches: black's i4 is gone too, and it is white's turn.
    let mut moves = next.legal_moves().to_vec();
    moves.sort();
    let mut jumped = next;
    jumped.play(moves[0]).unwrap();
    let jumped = without(&jumped, "i4", Side::Defenders);
    game_match.send_state(&jumped);
    let m = game_match.recv_move(Side::Defenders);
    assert!(jumped.is_legal(m), "{m} in the server's board");
    let (_, stderr) = game_match.finish_after_close();
    let resyncs: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("resync:"))
        .collect();
    assert_eq!(resyncs.len(), 2, "{stderr}");
    assert!(
        resyncs[0].contains(&format!(
            "after our move {ours} the server's board is not ours"
        )) && resyncs[0].contains("a4 ours BLACK, the server's EMPTY"),
        "{stderr}"
    );
    assert!(
        resyncs[1].contains("no legal move of black leads from our board to the server's"),
        "{stderr}"
    );
}

#[test]
fn a_first_state_that_is_not_the_start_is_taken_as_it_is() {
    let mut game_match = start("black", MOVE_TIME_MS);
    let mut position = variant().start();
    for text in ["e3-f3", "d1-d3", "f3-f2"] {
        position.play(text.parse().unwrap()).unwrap();
    }
    game_match.send_state(&position);
    let m = game_match.recv_move(Side::Attackers);
    assert!(position.is_legal(m));
    let (_, stderr) = game_match.finish_after_close();
    assert!(
        stderr.contains("resync: the first state is not the start of"),
        "{stderr}"
    );
}

/// The client with `--timeout 1`.
fn start_with_timeout(side: &str) -> Match {
    let mut args = args(side, MOVE_TIME_MS);
    args.extend(["--timeout".to_string(), "1".to_string()]);
    Match::start(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn a_server_silent_after_our_move_is_given_up_after_the_timeout() {
    let mut game_match = start_with_timeout("white");
    let start = variant().start();
    game_match.send_state(&start);
    let m = game_match.recv_move(Side::Defenders);
    // Then nothing: the connection stays open, and the client used to wait forever.
    let waiting = Instant::now();
    let (status, stderr) = game_match.finish();
    let waited = waiting.elapsed();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: the server sent nothing for 1 s after our move {m}: giving up (--timeout)"
        )),
        "{stderr}"
    );
    assert!(waited >= Duration::from_millis(900), "{waited:?}");
    assert!(waited < Duration::from_secs(10), "{waited:?}");
}

#[test]
fn a_server_that_stalls_in_the_middle_of_a_message_is_given_up() {
    let mut game_match = start_with_timeout("black");
    let text = state_json(&variant().start(), "WHITE");
    let mut frame = (text.len() as i32).to_be_bytes().to_vec();
    frame.extend_from_slice(&text.as_bytes()[..100]);
    game_match.send_bytes(&frame);
    let (status, stderr) = game_match.finish();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "error: the server stopped sending in the middle of a message (104 of its {} bytes \
             came, then nothing for 1 s)",
            text.len() + 4
        )),
        "{stderr}"
    );
}

#[test]
fn a_megabyte_of_junk_makes_a_short_line_that_says_its_length() {
    let mut game_match = start("white", MOVE_TIME_MS);
    let start = variant().start();
    // A JSON string of a mebibyte, the longest message the framing takes: serde_json's error
    // quotes the whole value.
    let junk = format!("\"{}\"", "J".repeat((1 << 20) - 2));
    game_match.send(&junk);
    game_match.send(&state_json(&start, "WHITE"));
    let m = game_match.recv_move(Side::Defenders);
    assert!(start.is_legal(m));
    game_match.stream.shutdown(std::net::Shutdown::Both).ok();
    let (_, stderr) = game_match.finish();
    let line = stderr
        .lines()
        .find(|line| line.contains(&format!("skipped a message of {} bytes", junk.len())))
        .unwrap_or_else(|| panic!("{}", &stderr[..stderr.len().min(2000)]));
    assert!(line.ends_with(" characters in all)"), "{line}");
    let longest = stderr.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 600, "a line of {longest} bytes");
}

#[test]
fn unknown_names_are_quoted_to_80_characters() {
    let mut game_match = start("white", MOVE_TIME_MS);
    let start = variant().start();
    let good = state_json(&start, "WHITE");
    let long = "P".repeat(300_000);
    game_match.send(&good.replacen("\"BLACK\"", &format!("\"{long}\""), 1));
    game_match.send(&good.replace("\"WHITE\"}", &format!("\"{long}\"}}")));
    game_match.send(&good);
    let m = game_match.recv_move(Side::Defenders);
    assert!(start.is_legal(m));
    game_match.stream.shutdown(std::net::Shutdown::Both).ok();
    let (_, stderr) = game_match.finish();
    let quoted = format!("\"{}\"...", "P".repeat(80));
    assert!(
        stderr.contains(&format!(
            "board[0][3] (d1) is {quoted}, not EMPTY, WHITE, BLACK, KING or THRONE"
        )),
        "{}",
        &stderr[..stderr.len().min(2000)]
    );
    assert!(
        stderr.contains(&format!("\"turn\" is {quoted}, not WHITE")),
        "{}",
        &stderr[..stderr.len().min(2000)]
    );
    let longest = stderr.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 600, "a line of {longest} bytes");
}
