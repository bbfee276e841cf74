//! An OTEP engine that plays Copenhagen by running the AI of **hnefatafl-copenhagen**
//! (crates.io v6.4.1, its program `hnefatafl-text-protocol`, AGPL-3.0, not part of this project;
//! docs/opponents.md says how to install it), so that `tafl-match` can play it:
//!
//! ```text
//! cargo build --release --example otep_hnefatafl_text
//! tafl-match --a otep:target/release/tafl-engine --clock 20000 \
//!     --b "otep:target/release/examples/otep_hnefatafl_text --engine /path/to/hnefatafl-text-protocol" \
//!     --b-name hnefatafl-copenhagen --b-clock 3600000 --variant copenhagen --games 8 --log logs/
//! ```
//!
//! Options: `--engine PROGRAM` (required), `--trace` (every line to and from it on stderr),
//! `-- ARGS` (its own arguments, e.g. `-- --repeat-moves`, which lets the defenders repeat).
//!
//! **Its protocol** (the Hnefatafl Text Protocol, `src/message.rs` there): one command a line,
//! answered by `= <answer>` or `? <error>` (the answer may go on over more lines, and the AI
//! prints lines of its own first). `board_size 11` starts a new game (Copenhagen from its start,
//! attackers first; 7 and 13 are other games, which this crate does not play); `play <role>
//! <from> <to>` plays a move (`= <captured squares>`); `generate_move` makes the AI choose and
//! play a move (`= play <role> <from> <to>, score: ..., delay milliseconds: ...`, or `play
//! <role> resigns _`); `show_board_open_tafl` writes its board as a record, rows from the top,
//! `A` `D` `K`; `final_status` says `ongoing`, `attacker_wins`, `defender_wins` or `draw`;
//! `protocol_version` answers `= 1-beta`, which the adapter sends after each command to know
//! where an answer ends. A square is a column letter and a row number counted from the bottom,
//! its vertex `(x, y)` with y counted from the top (`src/play.rs`): the same names as this
//! crate's. It cannot set up a position: every game is played from the start.
//!
//! **Its time**: none. The text protocol's `generate_move` always searches to **depth 4**
//! (`AiBasic::new(4, true)`, `src/game.rs`; the program's `--depth` only serves its `--ai` and
//! `--host` modes). It takes seconds a move on the project machine (10.7 s for the first
//! defenders' move), so give it a clock it cannot run out (`--b-clock 3600000`). Its search
//! crashes when it reaches its own 142-ply draw (`Status::Draw => unreachable!()`,
//! `src/game.rs`), that is when asked to move at ply 139 or later: `tafl-match --max-plies 138`
//! draws such games before.
//!
//! **Checks** after every move: its board (`show_board_open_tafl`) and its verdict
//! (`final_status`) against the adapter's; a move it refuses (its defenders may not recreate an
//! earlier board) or a game it sees as over ends the adapter's part in the game, reported, with
//! `error -1` at its next turn. Rules differences: docs/opponents.md.

mod otep_adapter;

use std::process::ExitCode;
use std::time::Duration;

use otep_adapter::{Answer, Failure, Link, Opponent, Options, Verdict};
use tafl_engine::protocol::ClockCommand;
use tafl_engine::{Game, Move, Position, Rules, Side, Square, Variant, notation};

/// The board it plays here: 11x11.
const SIZE: u8 = 11;

/// How long a command other than `generate_move` may take to answer.
const ANSWER_TIME: Duration = Duration::from_secs(10);

/// One answer of the program.
struct Reply {
    /// `=` (true) or `?` (false).
    ok: bool,
    /// The first line of the answer, after `= ` or `? `.
    text: String,
}

/// The adapter's state for hnefatafl-copenhagen.
struct Hnefatafl {
    /// Its answer to `protocol_version`, which marks the end of each answer.
    sentinel: String,
    /// How many of the game's moves it has played.
    known: usize,
}

impl Hnefatafl {
    /// Sends `command` and reads its answer.
    fn ask(
        &mut self,
        link: &mut Link,
        command: &str,
        within: Option<Duration>,
    ) -> Result<Reply, Failure> {
        link.send(command)?;
        link.send("protocol_version")?;
        let sentinel = self.sentinel.clone();
        let lines = link.lines_until(|line| line == sentinel, within)?;
        let answer = lines[..lines.len() - 1].iter().find_map(|line| {
            let (ok, text) = if let Some(text) = line.strip_prefix('=') {
                (true, text)
            } else {
                (false, line.strip_prefix('?')?)
            };
            (text.is_empty() || text.starts_with(' ')).then(|| Reply {
                ok,
                text: text.trim().to_string(),
            })
        });
        answer.ok_or_else(|| {
            Failure::Lost(format!(
                "hnefatafl-copenhagen gave no answer to {command:?}: {lines:?}"
            ))
        })
    }

    /// Its verdict on its game.
    fn verdict(&mut self, link: &mut Link) -> Result<Result<Verdict, String>, Failure> {
        let reply = self.ask(link, "final_status", Some(ANSWER_TIME))?;
        Ok(match reply.text.as_str() {
            "ongoing" => Ok(Verdict::Ongoing),
            "attacker_wins" => Ok(Verdict::Win(Side::Attackers)),
            "defender_wins" => Ok(Verdict::Win(Side::Defenders)),
            "draw" => Ok(Verdict::Draw),
            other => Err(other.to_string()),
        })
    }
}

impl Opponent for Hnefatafl {
    const NAME: &'static str = "hnefatafl-copenhagen";
    const QUIT: &'static str = "quit";

    fn handshake(&mut self, link: &mut Link) -> Result<(), Failure> {
        link.send("protocol_version")?;
        let lines = link.lines_until(|line| line.starts_with("= "), Some(ANSWER_TIME))?;
        self.sentinel = lines.last().cloned().unwrap_or_default();
        let version = self.ask(link, "version", Some(ANSWER_TIME))?;
        eprintln!(
            "[{}] version {}, protocol {}",
            Self::NAME,
            version.text,
            self.sentinel.trim_start_matches("= ")
        );
        Ok(())
    }

    fn refuses_rules(&self, variant: &Variant) -> Option<String> {
        otep_adapter::not_copenhagen(variant)
    }

    fn refuses_start(&self, start: &Position) -> Option<String> {
        (*start != Variant::copenhagen().start()).then(|| {
            "hnefatafl-text-protocol plays from Copenhagen's start only, attackers first (it \
             cannot set up a position)"
                .to_string()
        })
    }

    fn new_game(&mut self, link: &mut Link, game: &Game) -> Result<(), Failure> {
        let reply = self.ask(link, "board_size 11", Some(ANSWER_TIME))?;
        if !reply.ok {
            return Err(Failure::Stuck(format!("board_size 11: {}", reply.text)));
        }
        self.known = 0;
        let differences = self.catch_up(link, game)?;
        match differences.is_empty() {
            true => Ok(()),
            false => Err(Failure::Stuck(format!(
                "it starts the game differently: {}",
                differences.join("; ")
            ))),
        }
    }

    fn catch_up(&mut self, link: &mut Link, game: &Game) -> Result<Vec<String>, Failure> {
        let moves: Vec<Move> = game.moves().collect();
        while let Some(&m) = moves.get(self.known) {
            let side = game.positions()[self.known].side_to_move();
            let reply = self.ask(link, &play_command(side, m), Some(ANSWER_TIME))?;
            if !reply.ok {
                return Err(Failure::Stuck(format!(
                    "it refuses {m} (ply {}), which the referee's rules allow: {}",
                    self.known + 1,
                    reply.text
                )));
            }
            self.known += 1;
        }
        let mut found = Vec::new();
        let position = game.position();
        let board = self.ask(link, "show_board_open_tafl", Some(ANSWER_TIME))?;
        match read_record(&board.text, position.rules(), position.side_to_move()) {
            Ok(board) => {
                let differences = otep_adapter::board_differences(position, &board);
                if !differences.is_empty() {
                    found.push(format!(
                        "its board differs from the referee's ({})",
                        differences.join("; ")
                    ));
                }
            }
            Err(why) => found.push(format!("its board does not read: {why}")),
        }
        let referee = Verdict::of(game);
        match self.verdict(link)? {
            Ok(verdict) if verdict == referee => {}
            Ok(verdict) => found.push(format!(
                "its rules say {verdict:?}, the referee's {}",
                game.outcome()
                    .map_or("the game goes on".to_string(), |outcome| outcome
                        .to_string())
            )),
            Err(text) => found.push(format!("its final_status does not read: {text:?}")),
        }
        Ok(found)
    }

    fn think(
        &mut self,
        link: &mut Link,
        game: &Game,
        _clock: Option<&ClockCommand>,
    ) -> Result<Answer, Failure> {
        let reply = self.ask(link, "generate_move", None)?;
        if !reply.ok {
            let verdict = self.verdict(link)?;
            return Ok(Answer::NoMove(format!(
                "it answers {:?}; its final_status: {verdict:?}",
                reply.text
            )));
        }
        otep_adapter::note(&format!("{}: {}", Self::NAME, reply.text));
        let side = game.position().side_to_move();
        Ok(match read_play(&reply.text) {
            Ok(Play::Resigns) => Answer::NoMove(format!("it resigns ({})", reply.text)),
            Ok(Play::Move(role, m)) if role == side => {
                // It has played the move on its own board.
                self.known += 1;
                Answer::Move {
                    text: reply.text,
                    read: Ok(m),
                }
            }
            Ok(Play::Move(role, _)) => Answer::Move {
                read: Err(format!("a move of the {role}, but the {side} are to move")),
                text: reply.text,
            },
            Err(why) => Answer::Move {
                text: reply.text,
                read: Err(why),
            },
        })
    }
}

/// What `generate_move` answered.
#[derive(Debug, PartialEq)]
enum Play {
    /// A side's move.
    Move(Side, Move),
    /// The side to move resigns.
    Resigns,
}

/// Its role word for a side.
fn role(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

/// The `play` command for `side`'s move `m`.
fn play_command(side: Side, m: Move) -> String {
    format!(
        "play {} {} {}",
        role(side),
        vertex_name(vertex(m.from())),
        vertex_name(vertex(m.to()))
    )
}

/// Reads a `play ROLE FROM TO` (what `generate_move` answers, with `, score: ...` after it).
fn read_play(text: &str) -> Result<Play, String> {
    let words: Vec<&str> = text
        .split_whitespace()
        .map(|word| word.trim_end_matches(','))
        .collect();
    let [play, role, from, to, ..] = words[..] else {
        return Err(format!("{text:?} is not 'play ROLE FROM TO'"));
    };
    if play != "play" {
        return Err(format!("{text:?} is not 'play ROLE FROM TO'"));
    }
    let side = match role.to_ascii_lowercase().as_str() {
        "a" | "attacker" => Side::Attackers,
        "d" | "defender" => Side::Defenders,
        other => return Err(format!("{other:?} is not a role")),
    };
    if from == "resigns" {
        return Ok(Play::Resigns);
    }
    Ok(Play::Move(
        side,
        Move::new(read_vertex(from)?, read_vertex(to)?),
    ))
}

/// Its vertex of a square: the column, and the row counted from the top (`src/play.rs`).
fn vertex(square: Square) -> (u8, u8) {
    (square.x(), SIZE - 1 - square.y())
}

/// Its name of a vertex (`Vertex`'s `Display`): the column's letter (lower case on 11x11), then
/// the board's size less the row.
fn vertex_name((x, y): (u8, u8)) -> String {
    format!("{}{}", char::from(b'a' + x), SIZE - y)
}

/// A square as it writes one (`f8`, `F8`).
fn read_vertex(text: &str) -> Result<Square, String> {
    let mut chars = text.chars();
    let letter = chars.next().map(|c| c.to_ascii_lowercase());
    let x = match letter {
        Some(letter @ 'a'..='k') => letter as u8 - b'a',
        _ => return Err(format!("{text:?}: no column letter a-k")),
    };
    let number: u8 = chars
        .as_str()
        .parse()
        .map_err(|_| format!("{text:?}: no row number"))?;
    if !(1..=SIZE).contains(&number) {
        return Err(format!("{text:?}: row {number} is off the board"));
    }
    let y_from_top = SIZE - number;
    Square::new(x, SIZE - 1 - y_from_top).ok_or_else(|| format!("{text:?} is off the board"))
}

/// Its board as `show_board_open_tafl` writes it (`Board::open_tafl_serialize`): `/`, the rows
/// from the top each ended by `/`, `A` attacker, `D` defender, `K` king, digits for empty
/// squares; read as a position under `rules` with `side` to move.
fn read_record(text: &str, rules: Rules, side: Side) -> Result<Position, String> {
    let rows: Vec<&str> = text.trim().trim_matches('/').split('/').collect();
    if rows.len() != usize::from(SIZE) {
        return Err(format!("{text:?} has {} rows", rows.len()));
    }
    let ours: Vec<String> = rows
        .iter()
        .rev()
        .map(|row| {
            row.chars()
                .map(|c| match c {
                    'A' => 't',
                    'D' => 'T',
                    other => other,
                })
                .collect()
        })
        .collect();
    let record = format!("/{}/", ours.join("/"));
    notation::parse_position_record(&record, rules, side).map_err(|error| error.to_string())
}

fn main() -> ExitCode {
    otep_adapter::run_guard_if_asked();
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) if options.rest.is_empty() => options,
        Ok(options) => return usage(&format!("unknown arguments {:?}", options.rest)),
        Err(error) => return usage(&error),
    };
    let hnefatafl = Hnefatafl {
        sentinel: String::new(),
        known: 0,
    };
    otep_adapter::run(hnefatafl, &options)
}

fn usage(error: &str) -> ExitCode {
    eprintln!(
        "{error}\nusage: otep_hnefatafl_text --engine PATH/hnefatafl-text-protocol [--trace] \
         [-- ITS-ARGS]"
    );
    ExitCode::FAILURE
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Its `show_board_open_tafl` after `play a d1 d3`, as it printed it.
    const AFTER_D1_D3: &str =
        "/3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/3A7/5A5/4AAAA3/";

    /// `Board::open_tafl_serialize` written again from its description: rows from the top.
    fn its_record(position: &Position) -> String {
        let mut text = String::new();
        for y_from_top in 0..SIZE {
            text.push('/');
            let mut empty = 0;
            for x in 0..SIZE {
                let square = Square::new(x, SIZE - 1 - y_from_top).unwrap();
                let letter = position.piece_at(square).map(|piece| match piece {
                    tafl_engine::Piece::Attacker => 'A',
                    tafl_engine::Piece::Defender => 'D',
                    tafl_engine::Piece::King => 'K',
                });
                match letter {
                    None => empty += 1,
                    Some(letter) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(letter);
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
        }
        text.push('/');
        text
    }

    #[test]
    fn its_square_names_are_this_crates() {
        for index in 0..121u8 {
            let square = Square::from_index(index).unwrap();
            assert_eq!(vertex_name(vertex(square)), square.to_string());
            assert_eq!(read_vertex(&square.to_string().to_uppercase()), Ok(square));
        }
        // Its a1 is the bottom left corner: vertex (0, 10).
        assert_eq!(vertex("a1".parse().unwrap()), (0, 10));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Every legal move of random Copenhagen positions, sent as `play`, reads back as the
        /// same side's same move.
        #[test]
        fn every_legal_move_round_trips(seed in any::<u64>()) {
            for position in otep_adapter::random_copenhagen_positions(seed, 1, 120) {
                let side = position.side_to_move();
                for &m in position.legal_moves().as_slice() {
                    let command = play_command(side, m);
                    prop_assert_eq!(read_play(&command), Ok(Play::Move(side, m)), "{}", command);
                }
            }
        }

        /// Random positions written as it writes its board read back as themselves.
        #[test]
        fn its_board_records_read_back(seed in any::<u64>()) {
            for position in otep_adapter::random_copenhagen_positions(seed, 1, 120) {
                let text = its_record(&position);
                let read = read_record(&text, position.rules(), position.side_to_move());
                prop_assert_eq!(read, Ok(position), "{}", text);
            }
        }
    }

    #[test]
    fn its_answers_read() {
        let answer = "play defender f8 f9, score: 19996, delay milliseconds: 10677, loops: 0";
        assert_eq!(
            read_play(answer),
            Ok(Play::Move(Side::Defenders, "f8-f9".parse().unwrap()))
        );
        assert_eq!(read_play("play attacker resigns _"), Ok(Play::Resigns));
        for bad in [
            "",
            "play",
            "play defender f8",
            "play king f8 f9",
            "move d f8 f9",
            "play d f0 f9",
        ] {
            assert!(read_play(bad).is_err(), "{bad}");
        }
        let mut game = Game::new(&Variant::copenhagen());
        game.play("d1-d3".parse().unwrap()).unwrap();
        let position = game.position();
        assert_eq!(
            read_record(AFTER_D1_D3, position.rules(), position.side_to_move()),
            Ok(*position)
        );
        assert!(read_record("/11/11/", position.rules(), Side::Attackers).is_err());
    }
}
