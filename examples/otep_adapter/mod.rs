//! What the OTEP adapters (`otep_zevtafl`, `otep_hnefatafl_text`) share: an OTEP engine for
//! `tafl-match` that plays by running another tafl program and translating.
//!
//! The adapter keeps its own [`Game`] under this crate's rules, which are the referee's: it
//! reads the host's commands with the library's own parser ([`parse_command`]), plays every
//! move on its game, and after every move brings the other program up to date and compares that
//! program's board (and, where its protocol tells, its verdict on the game) with its own. Any
//! difference is reported loudly, on stderr and as an OTEP `status` line, which `tafl-match`
//! writes into the game's log (`--log`); the adapter never plays on silently from a board the
//! referee does not have. A program that exits or stops answering is reported and the adapter
//! exits; one that cannot go on with a game (it refuses a move the referee allows, or thinks the
//! game is over) gives that game up at its next turn with `error -1 <why>`.
//!
//! Only the OTEP that `tafl-match` and OpenTafl's games use is served: `rules`, `position`,
//! `side`, `clock`, `play`, `move`, `opponent-move`, `error`, `finish`, `goodbye`. `analyze`
//! and this crate's own commands answer `error 0`.

mod link;

use std::process::ExitCode;

use tafl_engine::protocol::reply;
use tafl_engine::protocol::{ClockCommand, Command, Input, error_reply, parse_command};
use tafl_engine::{AnyVariant, Game, Move, Outcome, Position, Side, Variant, notation};

pub use link::{Failure, Link, run_guard_if_asked};

/// What the adapter was started with.
pub struct Options {
    /// The other program and its arguments.
    pub engine: Vec<String>,
    /// Copy every line exchanged with the program to stderr.
    pub trace: bool,
    /// The arguments the shared options do not know, in order, for the adapter to read.
    pub rest: Vec<String>,
}

impl Options {
    /// Reads `--engine PROGRAM`, `--trace` and, after `--`, the program's own arguments; every
    /// other argument is left in [`Options::rest`].
    pub fn parse(arguments: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut program = None;
        let mut engine_arguments = Vec::new();
        let mut trace = false;
        let mut rest = Vec::new();
        let mut arguments = arguments.into_iter();
        while let Some(argument) = arguments.next() {
            match argument.as_str() {
                "--engine" => {
                    program = Some(arguments.next().ok_or("--engine needs a program")?);
                }
                "--trace" => trace = true,
                "--" => engine_arguments.extend(arguments.by_ref()),
                _ => rest.push(argument),
            }
        }
        let program = program.ok_or("--engine PROGRAM is required")?;
        let mut engine = vec![program];
        engine.extend(engine_arguments);
        Ok(Options {
            engine,
            trace,
            rest,
        })
    }
}

/// A move the program gave, or why it gave none.
pub enum Answer {
    /// Its move as it wrote it, and as read into this crate's notation.
    Move {
        /// The program's own text.
        text: String,
        /// The move, or why the text does not read as one.
        read: Result<Move, String>,
    },
    /// It gave no move: why (it resigned, or sees the game as over).
    NoMove(String),
}

/// One other program, as the host loop drives it.
pub trait Opponent {
    /// Its name, for messages.
    const NAME: &'static str;
    /// The line that asks it to exit.
    const QUIT: &'static str;
    /// Talks to the freshly started program until it is ready to play.
    fn handshake(&mut self, link: &mut Link) -> Result<(), Failure>;
    /// Why it cannot play under these rules (from their start position), if it cannot.
    fn refuses_rules(&self, variant: &Variant) -> Option<String>;
    /// Why it cannot play a game set up at `start`, if it cannot.
    fn refuses_start(&self, start: &Position) -> Option<String>;
    /// Starts a new game at `game`'s start (no move played yet).
    fn new_game(&mut self, link: &mut Link, game: &Game) -> Result<(), Failure>;
    /// Brings the program up to `game`, one move further than before (or as far, when the move
    /// is its own and it has played it already), and returns what it sees differently: boards,
    /// verdicts.
    fn catch_up(&mut self, link: &mut Link, game: &Game) -> Result<Vec<String>, Failure>;
    /// Its move in `game`, with the host's last `clock` if there was one.
    fn think(
        &mut self,
        link: &mut Link,
        game: &Game,
        clock: Option<&ClockCommand>,
    ) -> Result<Answer, Failure>;
}

/// Why `variant` is not Copenhagen's rules on the board, if it is not: the adapters play this
/// crate's `copenhagen` with any repetition rule (`tfr`) and either way of finding shieldwalls
/// (`sw-published`: OpenTafl's search, or the published rule, as `copenhagen-aagenielsen`
/// has it). The referee applies both; the adapter reports where the program's own rules end a
/// game or take pieces differently.
pub fn not_copenhagen(variant: &Variant) -> Option<String> {
    // The rules string without its name, repetition rule and shieldwall search, read back:
    // equal rules compare equal.
    let board_rules = |variant: &Variant| {
        let text = variant.to_string();
        let kept: Vec<&str> = text
            .split_whitespace()
            .filter(|field| {
                !["name:", "tfr:", "sw-published:"]
                    .iter()
                    .any(|name| field.starts_with(name))
            })
            .collect();
        kept.join(" ").parse::<Variant>().map(|read| read.rules())
    };
    let copenhagen = Variant::copenhagen();
    match (board_rules(variant), board_rules(&copenhagen)) {
        (Ok(rules), Ok(wanted)) if rules == wanted => None,
        _ => Some(format!(
            "only Copenhagen's rules on the board are played (the rules string `{copenhagen}`, \
             any `tfr` and `sw-published`); these are `{variant}`"
        )),
    }
}

/// The squares where two boards differ, as `square: ours X, theirs Y` (`.` an empty square);
/// empty when they are the same.
pub fn board_differences(ours: &Position, theirs: &Position) -> Vec<String> {
    let letter = |piece: Option<tafl_engine::Piece>| piece.map_or('.', |piece| piece.record_char());
    let size = ours.rules().size();
    let mut differences = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let Some(square) = tafl_engine::Square::new(x, y) else {
                continue;
            };
            let (a, b) = (ours.piece_at(square), theirs.piece_at(square));
            if a != b {
                differences.push(format!(
                    "{square}: ours {}, theirs {}",
                    letter(a),
                    letter(b)
                ));
            }
        }
    }
    differences
}

/// How a game stands by some program's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game goes on.
    Ongoing,
    /// That side has won.
    Win(Side),
    /// A draw.
    Draw,
}

impl Verdict {
    /// The referee's verdict on `game`.
    pub fn of(game: &Game) -> Verdict {
        match game.outcome() {
            None => Verdict::Ongoing,
            Some(Outcome::Win { winner, .. }) => Verdict::Win(winner),
            Some(Outcome::Draw(_)) => Verdict::Draw,
        }
    }
}

/// The adapter's game and what it waits for.
struct Table {
    game: Game,
    /// Our program's move, sent to the host and not yet confirmed with `move`.
    pending: Option<Move>,
    /// Whether the program was brought up to the game after `pending` already.
    pending_caught_up: bool,
    /// Why the program cannot go on with this game, once it cannot.
    stuck: Option<String>,
    /// Disagreements reported in this game.
    disagreements: usize,
}

impl Table {
    /// A table for `game`, nothing pending.
    fn new(game: Game) -> Table {
        Table {
            game,
            pending: None,
            pending_caught_up: false,
            stuck: None,
            disagreements: 0,
        }
    }
}

/// Runs the adapter for the program `opponent`, started as `options` say; returns when the host
/// says goodbye or the program is lost.
pub fn run<O: Opponent>(mut opponent: O, options: &Options) -> ExitCode {
    let mut link = match Link::start(O::NAME, &options.engine, options.trace) {
        Ok(link) => link,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(failure) = opponent.handshake(&mut link) {
        eprintln!("{} did not start: {failure:?}", O::NAME);
        link.close(O::QUIT);
        return ExitCode::FAILURE;
    }
    say("hello");
    let mut table: Option<Table> = None;
    let mut clock: Option<ClockCommand> = None;
    loop {
        let input = match link.host_input() {
            Ok(input) => input,
            Err(failure) => return lost(link, O::QUIT, failure),
        };
        let line = match input {
            Input::End => break,
            Input::TooLong(length) => {
                say(&reply::error(
                    false,
                    &format!("line of {length} bytes is too long"),
                ));
                continue;
            }
            Input::Line(line) => line,
        };
        let command = match parse_command(&line) {
            Ok(command) => command,
            Err(error) => {
                say(&error_reply(&error));
                continue;
            }
        };
        let result = match command {
            Command::Goodbye => break,
            Command::Clock(given) => {
                clock = Some(given);
                Ok(())
            }
            command => handle(
                &mut opponent,
                &mut link,
                &mut table,
                clock.as_ref(),
                command,
            ),
        };
        match result {
            Ok(()) => {}
            Err(Failure::Stuck(why)) => {
                if let Some(table) = table.as_mut() {
                    report(
                        table,
                        O::NAME,
                        &format!("cannot go on with this game: {why}"),
                    );
                    table.stuck = Some(why);
                }
            }
            Err(failure) => return lost(link, O::QUIT, failure),
        }
    }
    link.close(O::QUIT);
    ExitCode::SUCCESS
}

/// One host command other than `clock` and `goodbye`.
fn handle<O: Opponent>(
    opponent: &mut O,
    link: &mut Link,
    table: &mut Option<Table>,
    clock: Option<&ClockCommand>,
    command: Command,
) -> Result<(), Failure> {
    match command {
        Command::Hello | Command::Start => Ok(()),
        Command::Rules(variant) => {
            let AnyVariant::Narrow(variant) = *variant else {
                // The adapters follow the opponent's game on the narrow grid.
                say(&reply::error(
                    true,
                    "rules refused: this adapter plays boards up to 11x11",
                ));
                return Ok(());
            };
            if let Some(why) = opponent
                .refuses_rules(&variant)
                .or_else(|| opponent.refuses_start(&variant.start()))
            {
                say(&reply::error(true, &format!("rules refused: {why}")));
                return Ok(());
            }
            let fresh = table.insert(Table::new(Game::new(&variant)));
            opponent.new_game(link, &fresh.game)
        }
        Command::Finish(code) => {
            if let Some(table) = table.as_ref() {
                eprintln!(
                    "[{}] game over ({code:?}) after {} plies; disagreements reported: {}",
                    O::NAME,
                    table.game.moves().len(),
                    table.disagreements
                );
            }
            Ok(())
        }
        Command::HostError { code, message } => {
            if let Some(table) = table.as_mut() {
                table.pending_caught_up = false;
                if table.pending.take().is_some() {
                    report(
                        table,
                        O::NAME,
                        &format!("the host refused its move (error {code} {message})"),
                    );
                    // The program may have played the move on its own board already.
                    table.stuck = Some("the host refused its move".to_string());
                }
            }
            Ok(())
        }
        Command::Position(_)
        | Command::Side(_)
        | Command::Play(_)
        | Command::Move(_)
        | Command::OpponentMove { .. } => match table.as_mut() {
            Some(table) => handle_in_game(opponent, link, table, clock, command),
            None => {
                say(&reply::error(false, "no game yet: send rules first"));
                Ok(())
            }
        },
        other => {
            say(&reply::error(
                false,
                &format!(
                    "'{}' is not a command of this adapter (an OTEP engine for tafl-match)",
                    other.name()
                ),
            ));
            Ok(())
        }
    }
}

/// A host command about the game under way: `position`, `side`, `play`, `move`,
/// `opponent-move` (other commands do nothing here).
fn handle_in_game<O: Opponent>(
    opponent: &mut O,
    link: &mut Link,
    table: &mut Table,
    clock: Option<&ClockCommand>,
    command: Command,
) -> Result<(), Failure> {
    let position = *table.game.position();
    match command {
        Command::Position(record) => {
            match notation::parse_position_record(
                &record,
                position.rules(),
                position.side_to_move(),
            ) {
                Ok(start) => set_up(opponent, link, table, start),
                Err(error) => {
                    say(&reply::error(
                        false,
                        &format!("bad position record: {error}"),
                    ));
                    Ok(())
                }
            }
        }
        Command::Side(side) => set_up(opponent, link, table, position.with_side_to_move(side)),
        Command::Play(side) => play(opponent, link, table, clock, side),
        Command::Move(record) => {
            let Some(m) = table.pending.take() else {
                say(&reply::error(false, "move: no move of ours is waiting"));
                return Ok(());
            };
            if let Err(error) = table.game.play(m) {
                report(
                    table,
                    O::NAME,
                    &format!("the host accepted {m}, which the referee's rules refuse: {error}"),
                );
                return Err(Failure::Stuck(format!("{m} cannot be played here")));
            }
            if !std::mem::take(&mut table.pending_caught_up) {
                let game = table.game.clone();
                catch_up(opponent, link, table, &game)?;
            }
            compare_with_host(table, O::NAME, &record);
            Ok(())
        }
        Command::OpponentMove { moves, record } => {
            table.pending = None;
            table.pending_caught_up = false;
            for m in moves {
                if let Err(error) = table.game.play(m) {
                    say(&reply::error(false, &format!("illegal move {m}: {error}")));
                    return Ok(());
                }
                let game = table.game.clone();
                catch_up(opponent, link, table, &game)?;
            }
            compare_with_host(table, O::NAME, &record);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A new game from `start` (the rules stay), for `position` and `side`.
fn set_up<O: Opponent>(
    opponent: &mut O,
    link: &mut Link,
    table: &mut Table,
    start: Position,
) -> Result<(), Failure> {
    if let Some(why) = opponent.refuses_start(&start) {
        say(&reply::error(
            false,
            &format!("cannot set up that game: {why}"),
        ));
        return Ok(());
    }
    *table = Table::new(Game::from_position(start));
    opponent.new_game(link, &table.game)
}

/// `play <side>`: the program's move.
fn play<O: Opponent>(
    opponent: &mut O,
    link: &mut Link,
    table: &mut Table,
    clock: Option<&ClockCommand>,
    side: Side,
) -> Result<(), Failure> {
    if let Some(why) = &table.stuck {
        say(&reply::error(
            true,
            &format!("{} cannot go on with this game: {why}", O::NAME),
        ));
        return Ok(());
    }
    let to_move = table.game.position().side_to_move();
    if side != to_move {
        say(&reply::error(
            false,
            &format!("play {side}: it is the {to_move}' move"),
        ));
        return Ok(());
    }
    if let Some(outcome) = table.game.outcome() {
        say(&reply::error(
            false,
            &format!("play: the game is over ({outcome})"),
        ));
        return Ok(());
    }
    match opponent.think(link, &table.game, clock)? {
        Answer::Move { text, read: Ok(m) } => {
            let mut after = table.game.clone();
            match after.play(m) {
                // Compare the game after the move now, before the host has it: the host may
                // end the game at once, and what is reported then belongs to this game's log.
                Ok(_) => {
                    catch_up(opponent, link, table, &after)?;
                    table.pending_caught_up = true;
                }
                // The referee will refuse it; say why here, where the program's view is known.
                Err(error) => report(
                    table,
                    O::NAME,
                    &format!("its move {text} ({m}) is illegal under the referee's rules: {error}"),
                ),
            }
            table.pending = Some(m);
            say(&format!("move {m}"));
        }
        Answer::Move {
            text,
            read: Err(why),
        } => {
            report(table, O::NAME, &format!("unreadable move {text:?}: {why}"));
            say(&reply::error(
                true,
                &format!("{} answered {text:?}, not a move: {why}", O::NAME),
            ));
        }
        Answer::NoMove(why) => {
            report(table, O::NAME, &format!("no move: {why}"));
            say(&reply::error(
                true,
                &format!("{} gives no move: {why}", O::NAME),
            ));
        }
    }
    Ok(())
}

/// Brings the program up to `game` (the table's, or the table's after our pending move) and
/// reports what it sees differently; a program that cannot go on with the game is marked so
/// (and left alone until the next game).
fn catch_up<O: Opponent>(
    opponent: &mut O,
    link: &mut Link,
    table: &mut Table,
    game: &Game,
) -> Result<(), Failure> {
    if table.stuck.is_some() {
        return Ok(());
    }
    let ply = game.moves().len();
    match opponent.catch_up(link, game) {
        Ok(differences) => {
            for difference in differences {
                report_at(table, ply, O::NAME, &difference);
            }
            Ok(())
        }
        Err(Failure::Stuck(why)) => {
            report_at(
                table,
                ply,
                O::NAME,
                &format!("cannot go on with this game: {why}"),
            );
            table.stuck = Some(why);
            Ok(())
        }
        Err(failure) => Err(failure),
    }
}

/// Compares the host's board with ours; reports any difference (the adapter's game goes on from
/// its own board: the host is this crate's referee, so a difference is a bug to look at).
fn compare_with_host(table: &mut Table, name: &str, record: &str) {
    let ours = *table.game.position();
    let host = match notation::parse_position_record(record, ours.rules(), ours.side_to_move()) {
        Ok(host) => host,
        Err(error) => {
            report(
                table,
                name,
                &format!("the host's board does not read: {error}"),
            );
            return;
        }
    };
    let differences = board_differences(&ours, &host);
    if !differences.is_empty() {
        report(
            table,
            name,
            &format!(
                "the host's board differs from the adapter's ({}; theirs = the host's)",
                differences.join("; ")
            ),
        );
    }
}

/// Reports a disagreement: on stderr, and to the host as a `status` line (which `tafl-match`
/// logs).
fn report(table: &mut Table, name: &str, text: &str) {
    let ply = table.game.moves().len();
    report_at(table, ply, name, text);
}

/// [`report`] for the game after `ply` plies.
fn report_at(table: &mut Table, ply: usize, name: &str, text: &str) {
    table.disagreements += 1;
    eprintln!("[{name}] DISAGREEMENT at ply {ply}: {text}");
    say(&reply::status(&format!(
        "{name} disagrees at ply {ply}: {text}"
    )));
}

/// A `status` line for the host that is no disagreement (what the program said it searched).
pub fn note(text: &str) {
    say(&reply::status(text));
}

/// Prints one line for the host.
fn say(line: &str) {
    println!("{line}");
}

/// The program is gone: say so to the host and on stderr, then exit.
fn lost(link: Link, quit: &str, failure: Failure) -> ExitCode {
    match failure {
        Failure::HostLeft => {
            link.close(quit);
            ExitCode::SUCCESS
        }
        Failure::Lost(why) | Failure::Stuck(why) => {
            eprintln!("[{}] giving up: {why}", link.name());
            say(&reply::error(true, &why));
            link.close(quit);
            ExitCode::FAILURE
        }
    }
}

/// Random positions of Copenhagen games, for the adapters' tests: `games` games of up to
/// `plies` random moves from the start, seeded.
#[cfg(test)]
pub fn random_copenhagen_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut state = seed | 1;
    let mut next = move || {
        // xorshift64
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut game = Game::new(&Variant::copenhagen());
        for _ in 0..plies {
            positions.push(*game.position());
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(next() % moves.len() as u64) as usize];
            if game.play(m).is_err() {
                break;
            }
        }
    }
    positions
}
