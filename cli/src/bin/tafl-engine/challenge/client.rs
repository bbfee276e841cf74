//! The client: connects, sends our name, then reads the server's states one by one, keeps its
//! own [`Game`] in step with them and answers each state that gives us the move.
//!
//! Keeping in step: a state that follows our position by one legal move of the side to move is
//! played as that move (so our game's history, and its repetitions, are the server's too). The
//! server sending back the board from before our move means it refused the move (it only does
//! that when started with `-e`, errors allowed): we take our move back and play another. Any other
//! state (a first state that is not our start, a board our rules do not reach by one move, a
//! game our rules say is over while the server plays on) is taken as it is: a "resync", said on
//! stderr, after which the game's history starts again at the server's board.
//!
//! What a message that cannot be read does:
//! - the framing is lost (a length prefix that is negative or over 1 MiB, the connection closing
//!   inside a message, a read error): nothing after it can be read, so the client exits (1);
//! - the connection closes between messages: the client exits (1), saying so;
//! - a whole message that is not UTF-8, not JSON, not a state (a missing field, a board that is
//!   not 9x9, an unknown cell or turn name, a throne off e5, two kings): the message is skipped
//!   with an error on stderr and the client reads on; the next good state brings it back in step.
//!   (If the skipped state was the one giving us the move, the server will time us out: no
//!   board, no move.)

use std::io::ErrorKind;
use std::time::{Duration, Instant};

use tafl_engine::search::{SearchConfig, SearchResult, Searcher};
use tafl_engine::{Game, Move, Position, Side, Variant};

use super::board;
use super::framing::{self, FrameError};
use super::messages::{self, State, Turn, colour};
use super::{MESSAGE_TIMEOUT, Options};
use crate::remote::{self, connect};

/// What to do after a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nothing: wait for the next state.
    Wait,
    /// Send this move (already played in our game).
    Send(Move),
    /// The game is over: this line says how.
    Over(String),
}

/// The game as we know it, and what keeps it in step with the server.
pub struct Client {
    variant: Variant,
    us: Side,
    game: Game,
    /// Whether a state has come yet.
    started: bool,
    /// Our last move, sent, until the next state comes.
    sent: Option<Move>,
    /// Moves the server refused in the current position.
    refused: Vec<Move>,
    searcher: Searcher,
    move_time: Duration,
}

impl Client {
    /// A client playing `us` in `variant`'s game, thinking `move_time` per move.
    pub fn new(variant: Variant, us: Side, searcher: Searcher, move_time: Duration) -> Client {
        Client {
            game: Game::new(&variant),
            variant,
            us,
            started: false,
            sent: None,
            refused: Vec::new(),
            searcher,
            move_time,
        }
    }

    /// Our last move, while we wait for the server's state after it.
    pub fn waiting_for_answer(&self) -> Option<Move> {
        self.sent
    }

    /// The game as we know it.
    #[cfg(test)]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Takes a state that came at `received`: keeps our game in step with it and, if it gives
    /// us the move, thinks and plays. Lines for stderr go to `log`.
    pub fn on_state(
        &mut self,
        state: &State,
        received: Instant,
        log: &mut dyn FnMut(String),
    ) -> Answer {
        let Some(side) = state.turn.side_to_move() else {
            return Answer::Over(self.result(state.turn));
        };
        let target = match board::position(self.variant.rules(), side, state) {
            Ok(target) => target,
            Err(error) => {
                log(format!("error: skipped a state from the server: {error}"));
                return Answer::Wait;
            }
        };
        self.keep_in_step(target, log);
        if side == self.us {
            self.play(received, log)
        } else {
            Answer::Wait
        }
    }

    /// The line that says how the game ended.
    fn result(&self, turn: Turn) -> String {
        let how = match turn {
            Turn::WhiteWin | Turn::BlackWin => {
                let winner = if turn == Turn::WhiteWin {
                    Side::Defenders
                } else {
                    Side::Attackers
                };
                let we = if winner == self.us { "won" } else { "lost" };
                format!("{} won: we ({}) {we}", colour(winner), colour(self.us))
            }
            _ => format!("a draw (we played {})", colour(self.us)),
        };
        format!("game over: {}: {how}", turn.name())
    }

    /// The line for a connection that closed before the game ended. The server closes it
    /// without a last state when a player loses by an illegal move or a timeout (its log says
    /// which): our last move, if we were waiting for its answer, is the first suspect.
    pub fn closed_early(&self, error: Option<&std::io::Error>) -> String {
        let mut line = "the server closed the connection before the game ended".to_string();
        if let Some(error) = error {
            line += &format!(" ({error})");
        }
        if let Some(m) = self.sent {
            line += &format!(
                "; it was answering our move {m}: the server ends a game without a last state \
                 when a player loses by an illegal move or a timeout (see the server's log)"
            );
        }
        line
    }

    /// Brings our game to `target`, by a move if one leads there, else by taking it as it is.
    fn keep_in_step(&mut self, target: Position, log: &mut dyn FnMut(String)) {
        let first = !self.started;
        self.started = true;
        let sent = self.sent.take();
        let ours = *self.game.position();
        if board::same_position(&ours, &target) {
            // In step (also when the server refused the opponent's move and sent its board
            // again).
        } else if first {
            self.resync(
                target,
                &format!(
                    "the first state is not the start of {} ({})",
                    self.variant.name(),
                    board::differences(&ours, &target)
                ),
                log,
            );
        } else if let Some(m) = sent.filter(|_| self.is_position_before_last_move(&target)) {
            // The server sends the same state again when it refuses a move (with errors
            // allowed); it never happens otherwise, as a move cannot undo the one before.
            self.game.undo();
            if !self.refused.contains(&m) {
                self.refused.push(m);
            }
            log(format!(
                "the server sent back the board from before our move {m}: it refused it; \
                 playing another"
            ));
            return;
        } else {
            match board::moves_between(&ours, &target)[..] {
                [m] => match self.game.play(m) {
                    Ok(_) => log(format!("{} played {m}", colour(ours.side_to_move()))),
                    Err(error) => self.resync(
                        target,
                        &format!(
                            "{} played {m}, which our game refuses: {error}",
                            colour(ours.side_to_move())
                        ),
                        log,
                    ),
                },
                _ => {
                    let why = match sent {
                        Some(m) if target.side_to_move() != self.us => format!(
                            "after our move {m} the server's board is not ours ({})",
                            board::differences(&ours, &target)
                        ),
                        _ => format!(
                            "no legal move of {} leads from our board to the server's ({})",
                            colour(ours.side_to_move()),
                            board::differences(&ours, &target)
                        ),
                    };
                    self.resync(target, &why, log);
                }
            }
        }
        self.refused.clear();
        // A draw our rules find in the history (a repetition) that the server does not see:
        // play on from the board. (A game over on the board itself stays over: see `play`.)
        let position = *self.game.position();
        if let Some(outcome) = self.game.outcome() {
            if Game::from_position(position).outcome().is_none() {
                self.resync(
                    position,
                    &format!("our rules say the game is over ({outcome}) but the server plays on"),
                    log,
                );
            }
        }
    }

    /// Whether `target` is the position before our game's last move, that move being ours.
    fn is_position_before_last_move(&self, target: &Position) -> bool {
        let positions = self.game.positions();
        positions.len() >= 2
            && board::same_position(&positions[positions.len() - 2], target)
            && target.side_to_move() == self.us
    }

    /// Takes the server's board as it is: the game's history starts again there.
    fn resync(&mut self, target: Position, why: &str, log: &mut dyn FnMut(String)) {
        log(format!(
            "resync: {why}; took the server's board ({} to move), the game's history starts again here",
            colour(target.side_to_move())
        ));
        self.game = Game::from_position(target);
    }

    /// Thinks about our move inside the move time (counted from `received`), plays it in our
    /// game and says to send it.
    fn play(&mut self, received: Instant, log: &mut dyn FnMut(String)) -> Answer {
        let position = *self.game.position();
        let legal = self.game.legal_moves();
        let allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !self.refused.contains(m))
            .collect();
        if allowed.is_empty() {
            log(if legal.is_empty() {
                match self.game.outcome() {
                    Some(outcome) => format!(
                        "error: our rules say the game is over ({outcome}): no move to send"
                    ),
                    None => "error: we have no legal move: no move to send".to_string(),
                }
            } else {
                "error: the server refused every legal move here: no move to send".to_string()
            });
            return Answer::Wait;
        }
        let budget = self
            .move_time
            .saturating_sub(received.elapsed())
            .max(Duration::from_millis(1));
        let result = self.search(budget);
        // The search's choice if it is legal and not refused, else the next best, else any
        // allowed move: never an illegal one.
        let choice = remote::choose(&result, &allowed).unwrap_or(allowed[0]);
        if let Err(error) = self.game.play(choice) {
            // Not reached: the move is one of the game's legal moves.
            log(format!(
                "error: our own move {choice} was refused by our game: {error}"
            ));
            return Answer::Wait;
        }
        self.sent = Some(choice);
        log(format!(
            "we ({}) play {choice}: depth {}, score {}, {} nodes, {:.2} s{}",
            colour(position.side_to_move()),
            result.depth,
            result.score,
            result.nodes,
            received.elapsed().as_secs_f64(),
            if self.refused.is_empty() {
                String::new()
            } else {
                format!(" (not {} refused)", self.refused.len())
            }
        ));
        Answer::Send(choice)
    }

    /// Searches the current position for at most `budget` (see [`remote::search_within`]).
    fn search(&mut self, budget: Duration) -> SearchResult {
        let lines = self.refused.len() + 1;
        remote::search_within(&mut self.searcher, &self.game, budget, lines)
    }
}

/// The most characters of a line the client writes to stderr: 400.
const LINE_CHARS: usize = 400;

/// `line` as stderr gets it: cut to its first [`LINE_CHARS`] characters, then how long it was,
/// so that no message of the server's (quoted in an error of serde_json's, say) makes a line of
/// a megabyte.
fn cut_line(line: &str) -> String {
    match line.char_indices().nth(LINE_CHARS) {
        None => line.to_string(),
        Some((end, _)) => format!(
            "{}... (cut: {} characters in all)",
            &line[..end],
            line.chars().count()
        ),
    }
}

/// Reads a message's bytes as a state; the error says what was wrong, and quotes the start of
/// the message.
fn decode(bytes: &[u8]) -> Result<State, String> {
    let excerpt = || messages::excerpt(&String::from_utf8_lossy(bytes));
    let text = std::str::from_utf8(bytes).map_err(|error| {
        format!(
            "not UTF-8 (byte {} of {}): {}",
            error.valid_up_to(),
            bytes.len(),
            excerpt()
        )
    })?;
    State::from_json(text).map_err(|error| format!("{error}: {}", excerpt()))
}

/// Plays one game; returns the exit status (0 once the game has ended).
pub fn run(options: &Options, variant: Variant) -> i32 {
    let us = options.side;
    let mut log = |line: String| eprintln!("{}", cut_line(&line));
    // The table is allocated before connecting, so that no move waits for it.
    let searcher = Searcher::new(SearchConfig {
        threads: options.threads,
        hash_mb: options.hash_mb,
    });
    let mut client = Client::new(variant, us, searcher, options.move_time);
    let mut stream = match connect(&options.host, options.port) {
        Ok(stream) => stream,
        Err(error) => {
            log(format!("error: {error}"));
            return 1;
        }
    };
    // Moves are small and must leave at once.
    let _ = stream.set_nodelay(true);
    let shown = messages::name_as_the_server_keeps_it(&options.name);
    log(format!(
        "connected to {} port {} as {} ({}); name {:?}{}",
        options.host,
        options.port,
        colour(us),
        us,
        options.name,
        if shown == options.name {
            String::new()
        } else {
            format!(" (the server keeps {shown:?})")
        }
    ));
    if let Err(error) = framing::write_message(&mut stream, &messages::name_message(&options.name))
    {
        log(format!("error: could not send our name: {error}"));
        return 1;
    }
    loop {
        // A long wait for the next message to begin (the other player thinks), a short one for
        // the rest of it once it has.
        let _ = stream.set_read_timeout(Some(options.timeout));
        match stream.peek(&mut [0u8; 1]) {
            Ok(_) => {}
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                log(format!(
                    "error: the server sent nothing for {} s{}: giving up (--timeout)",
                    options.timeout.as_secs(),
                    match client.waiting_for_answer() {
                        Some(m) => format!(" after our move {m}"),
                        None => String::new(),
                    }
                ));
                return 1;
            }
            // Read below, where it is told apart from the end of the stream.
            Err(_) => {}
        }
        let inside = MESSAGE_TIMEOUT.min(options.timeout);
        let _ = stream.set_read_timeout(Some(inside));
        let bytes = match framing::read_message(&mut stream, inside) {
            Ok(bytes) => bytes,
            Err(FrameError::Closed) => {
                log(client.closed_early(None));
                return 1;
            }
            Err(FrameError::Io(error)) if error.kind() == ErrorKind::ConnectionReset => {
                log(client.closed_early(Some(&error)));
                return 1;
            }
            Err(error) => {
                log(format!(
                    "error: {error}; the messages can no longer be told apart: giving up"
                ));
                return 1;
            }
        };
        let received = Instant::now();
        let state = match decode(&bytes) {
            Ok(state) => state,
            Err(why) => {
                log(format!(
                    "error: skipped a message of {} bytes from the server: {why}",
                    bytes.len()
                ));
                continue;
            }
        };
        match client.on_state(&state, received, &mut log) {
            Answer::Wait => {}
            Answer::Send(m) => {
                if let Err(error) =
                    framing::write_message(&mut stream, &messages::action_message(m, us))
                {
                    log(format!("error: could not send our move {m}: {error}"));
                    return 1;
                }
            }
            Answer::Over(line) => {
                log(line);
                return 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tafl_engine::Position;

    #[test]
    fn long_lines_are_cut_and_say_their_length() {
        assert_eq!(super::cut_line("short"), "short");
        let exact = "é".repeat(super::LINE_CHARS);
        assert_eq!(super::cut_line(&exact), exact);
        let long = format!("{}{}", "é".repeat(super::LINE_CHARS), "x".repeat(1_000_000));
        let cut = super::cut_line(&long);
        assert_eq!(
            cut,
            format!(
                "{}... (cut: {} characters in all)",
                "é".repeat(super::LINE_CHARS),
                super::LINE_CHARS + 1_000_000
            )
        );
    }

    use super::*;

    fn state_of(position: &Position) -> State {
        super::super::board::state_of(position, Turn::of(position.side_to_move()))
    }

    fn client(us: Side) -> Client {
        let searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: 1,
        });
        Client::new(
            super::super::variant(),
            us,
            searcher,
            Duration::from_millis(30),
        )
    }

    fn feed(client: &mut Client, position: &Position) -> (Answer, Vec<String>) {
        let mut lines = Vec::new();
        let answer = client.on_state(&state_of(position), Instant::now(), &mut |line| {
            lines.push(line)
        });
        (answer, lines)
    }

    #[test]
    fn plays_the_opponents_move_and_answers_with_a_legal_one() {
        let mut client = client(Side::Attackers);
        let start = super::super::variant().start();
        let (answer, lines) = feed(&mut client, &start);
        assert_eq!(answer, Answer::Wait);
        assert!(lines.is_empty(), "{lines:?}");
        let mut next = start;
        next.play("e3-f3".parse().unwrap()).unwrap();
        let (answer, lines) = feed(&mut client, &next);
        let Answer::Send(m) = answer else {
            panic!("no move: {lines:?}")
        };
        assert!(next.is_legal(m));
        assert_eq!(lines[0], "white played e3-f3");
        assert_eq!(client.game().moves().len(), 2, "history kept");
    }

    #[test]
    fn a_refused_move_is_taken_back_and_not_played_again() {
        let mut client = client(Side::Defenders);
        let start = super::super::variant().start();
        let (Answer::Send(first), _) = feed(&mut client, &start) else {
            panic!("white moves first")
        };
        // The server sends the same state again: it refused the move.
        let (answer, lines) = feed(&mut client, &start);
        let Answer::Send(second) = answer else {
            panic!("no second move: {lines:?}")
        };
        assert_ne!(first, second);
        assert!(lines[0].contains("refused"), "{lines:?}");
        assert_eq!(client.game().moves().len(), 1);
    }

    #[test]
    fn a_board_no_move_reaches_is_a_resync() {
        let mut client = client(Side::Defenders);
        let start = super::super::variant().start();
        let (Answer::Send(ours), _) = feed(&mut client, &start) else {
            panic!("white moves first")
        };
        let mut expected = start;
        expected.play(ours).unwrap();
        // The server's board after our move lacks an attacker on a4.
        let pieces = expected
            .pieces_with_squares()
            .filter(|(square, _)| square.to_string() != "a4")
            .collect::<Vec<_>>();
        let odd = Position::from_pieces(expected.rules(), Side::Attackers, pieces).unwrap();
        let (answer, lines) = feed(&mut client, &odd);
        assert_eq!(answer, Answer::Wait);
        assert!(lines[0].starts_with("resync: after our move"), "{lines:?}");
        assert!(
            lines[0].contains("a4 ours BLACK, the server's EMPTY"),
            "{lines:?}"
        );
        assert!(board::same_position(client.game().position(), &odd));
    }

    #[test]
    fn the_end_of_the_game_is_one_line() {
        let mut client = client(Side::Attackers);
        let mut state = state_of(&super::super::variant().start());
        state.turn = Turn::BlackWin;
        let answer = client.on_state(&state, Instant::now(), &mut |_| {});
        let Answer::Over(line) = answer else {
            panic!("over")
        };
        assert!(
            line.starts_with("game over: BLACKWIN: black won: we (black) won"),
            "{line}"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_are_decoded_or_refused_without_panicking(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)
        ) {
            let _ = decode(&bytes);
        }

        #[test]
        fn a_state_with_one_byte_changed_is_decoded_or_refused(
            index in 0usize..2000,
            byte in proptest::prelude::any::<u8>()
        ) {
            let mut bytes = state_of(&super::super::variant().start()).to_json().into_bytes();
            let index = index % bytes.len();
            bytes[index] = byte;
            let _ = decode(&bytes);
        }
    }

    #[test]
    fn a_bad_message_says_what_was_wrong() {
        assert!(
            decode(b"\xff{}")
                .unwrap_err()
                .starts_with("not UTF-8 (byte 0 of 3)")
        );
        assert!(
            decode(b"{\"board\":")
                .unwrap_err()
                .starts_with("bad JSON at byte 9")
        );
        assert!(
            decode(b"{\"board\":[],\"turn\":\"WHITE\"}")
                .unwrap_err()
                .starts_with("not a state: the board has 0 rows, not 9")
        );
    }
}
