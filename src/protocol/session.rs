//! The engine's state between commands, and what each command does to it.
//!
//! A [`Session`] holds the current game, the host's clock and the bookkeeping that keeps the
//! engine in step with an OTEP host (our move waiting for the host's word, moves the host
//! refused). Commands that take long (searches, perft) become a [`Job`]: the in-process API runs
//! it at once ([`Session::handle_line`]); the binary runs it on a worker thread so that the
//! reader stays responsive, and hands the outcome back with [`Session::finish_job`].
//!
//! The game is on the board type its rules need (docs/wide-boards.md), chosen when `rules` is
//! read: a [`Table<Narrow>`] up to 11x11, a [`Table<Wide>`] above. Commands are read with the
//! wide grid's moves (every narrow board's moves among them) and their moves put on the game's
//! grid when they are carried out; jobs and their outcomes carry their grid with them
//! ([`AnyJob`], [`AnyOutcome`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Narrow, Wide};
use crate::game::Game;
use crate::moves::Move;
use crate::notation;
use crate::perft;
use crate::piece::Side;
use crate::play::Grid;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::evaluator;
use crate::search::nnue::Network;
use crate::search::{
    Features, Limits, MAX_DRAW_COST, PlayingEvaluation, SearchConfig, SearchInfo, SearchResult,
    Searcher,
};
use crate::variant::{AnyVariant, Variant};

use super::command::{ClockCommand, Command, CommandError, GoLimits, parse_command_on};
use super::reply;

/// How a [`Session`] searches and counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Time for a `play` without a `clock`, and for a `go` without limits.
    pub default_move_time: Duration,
    /// Upper bound on every search's time (in-process use: keeps fuzzing fast).
    pub max_search_time: Option<Duration>,
    /// Upper bound on every search's depth (in-process use; the binary's `--depth`).
    pub max_search_depth: Option<u32>,
    /// Deepest `perft`/`divide` accepted; deeper ones get `error 0`.
    pub max_perft_depth: u32,
    /// What a draw costs the side the engine searches for, in hundredths of a soldier
    /// ([`Searcher::set_contempt`]), in every search of the session. The default,
    /// [`MAX_DRAW_COST`] (1500), is as far as the search's own pricing of a draw goes (the
    /// contempt plus the evaluation's deficit, capped at 15 soldiers): the engine plays on
    /// unless every other line is lost or 15 soldiers down, so it does not settle for a
    /// repetition against a weaker opponent (a person, or OpenTafl's AI, which it drew when a
    /// draw cost less: docs/search.md). Scores of lines that end in a draw show that cost. 0
    /// scores a draw as even.
    pub contempt: i32,
    /// How the session's searches evaluate positions: the built-in learned evaluation where the
    /// game has one, the hand-written one, or a network of the user's.
    pub evaluation: Evaluation,
}

/// Which static evaluation a session's searches use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The built-in network of the game's rules where there is one ([`network_for`](crate::search::nnue::network_for)),
    /// else the hand-written evaluation.
    #[default]
    BuiltIn,
    /// The hand-written evaluation in every game ([`Features::learned_eval`] off).
    HandWritten,
    /// This network in every game.
    Network(Arc<Network>),
}

impl Evaluation {
    /// The evaluation a search of a game under `rules` plays with this way.
    pub(crate) fn playing<B: Grid>(&self, rules: Rules<B>) -> PlayingEvaluation {
        let network = match self {
            Evaluation::Network(network) => Some(network),
            _ => None,
        };
        evaluator::choose(!matches!(self, Evaluation::HandWritten), network, rules).1
    }

    /// Sets up `searcher` to evaluate this way.
    pub(crate) fn apply(&self, searcher: &mut Searcher) {
        let features = Features {
            learned_eval: !matches!(self, Evaluation::HandWritten),
            ..*searcher.features()
        };
        searcher.set_features(features);
        searcher.set_network(match self {
            Evaluation::Network(network) => Some(Arc::clone(network)),
            _ => None,
        });
    }
}

impl Default for SessionOptions {
    /// The binary's settings: 64 MiB, one thread, 5 s per move without a clock, perft up to 12,
    /// a draw costing 15 soldiers.
    fn default() -> SessionOptions {
        SessionOptions {
            hash_mb: 64,
            threads: 1,
            default_move_time: Duration::from_secs(5),
            max_search_time: None,
            max_search_depth: None,
            max_perft_depth: 12,
            contempt: MAX_DRAW_COST,
            evaluation: Evaluation::BuiltIn,
        }
    }
}

impl SessionOptions {
    /// Settings for driving a session in-process many times a second (tests, fuzzing): a small
    /// table, searches of at most depth 2 and 20 ms, perft up to depth 2 (and the default
    /// contempt).
    pub fn quick() -> SessionOptions {
        SessionOptions {
            hash_mb: 1,
            threads: 1,
            default_move_time: Duration::from_millis(20),
            max_search_time: Some(Duration::from_millis(20)),
            max_search_depth: Some(2),
            max_perft_depth: 2,
            contempt: MAX_DRAW_COST,
            evaluation: Evaluation::BuiltIn,
        }
    }
}

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `goodbye`: stop.
    Quit,
}

/// What kind of long-running work a [`Job`] is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum JobKind<B: Grid = Narrow> {
    /// OTEP `play`: answer `move`.
    Play {
        /// The side to play for.
        side: Side,
        /// Moves the host refused in this position.
        refused: Vec<Move<B>>,
    },
    /// OTEP `analyze`: answer `analysis`.
    Analyze {
        /// Lines wanted.
        lines: usize,
    },
    /// `go`: `info` lines, then `bestmove`.
    Go,
    /// `perft` or `divide`.
    Perft {
        /// Depth.
        depth: u32,
        /// Print one line per first move too.
        divide: bool,
    },
}

/// Long-running work that a command asked for: a search or a perft count.
#[derive(Clone, Debug)]
pub(crate) struct Job<B: Grid = Narrow> {
    pub(crate) kind: JobKind<B>,
    game: Game<B>,
    limits: Limits,
    /// Time after which the driver stops the search whatever it is doing (watchdog).
    pub(crate) hard_limit: Option<Duration>,
    /// The session's contempt, set on whichever searcher runs the job.
    contempt: i32,
    /// The session's evaluation, likewise.
    evaluation: Evaluation,
    /// Threads a count shares its root moves over (the session's `threads`).
    threads: usize,
}

/// What a job produced.
#[derive(Clone, Debug)]
pub(crate) enum JobOutcome<B: Grid = Narrow> {
    /// A search's result.
    Search(SearchResult<B>),
    /// The search failed (it panicked): answer with any legal move rather than not at all.
    Failed,
    /// A count's lines (per-move lines, then `perft ...`), or `stopped ...` if it was stopped.
    Counted(Vec<String>),
}

impl<B: Grid> Job<B> {
    /// The side a `play` job plays for; `None` for other jobs.
    fn play_side(&self) -> Option<Side> {
        match self.kind {
            JobKind::Play { side, .. } => Some(side),
            _ => None,
        }
    }

    /// Whether the job is a search (stopped, it still answers with a move); the other kind is a
    /// count (stopped, it answers `stopped ...`).
    pub(crate) fn is_search(&self) -> bool {
        !matches!(self.kind, JobKind::Perft { .. })
    }

    /// A count's `stopped ...` line after `time`; `None` for a search.
    fn stopped_line(&self, time: Duration) -> Option<String> {
        match self.kind {
            JobKind::Perft { depth, divide } => Some(stopped_count_line(depth, divide, time)),
            _ => None,
        }
    }

    /// Runs the job if it is a count, which needs no searcher; `None` for a search. The count
    /// gives up soon after `cancel` is set (within milliseconds).
    pub(crate) fn count(&self, cancel: &AtomicBool) -> Option<JobOutcome<B>> {
        match self.kind {
            JobKind::Perft { depth, divide } => Some(JobOutcome::Counted(run_perft(
                &self.game,
                depth,
                divide,
                self.threads,
                cancel,
            ))),
            _ => None,
        }
    }

    /// Runs the job. Progress lines go to `out` while it runs; a search stops early once
    /// `cancel` is set (it is checked after each depth, the searcher's stop flag more often); a
    /// count gives up soon after `cancel` is set (within milliseconds).
    pub(crate) fn run(
        &self,
        searcher: &mut Searcher,
        cancel: &AtomicBool,
        out: &mut dyn FnMut(String),
    ) -> JobOutcome<B> {
        match &self.kind {
            JobKind::Perft { depth, divide } => {
                JobOutcome::Counted(run_perft(&self.game, *depth, *divide, self.threads, cancel))
            }
            kind => {
                searcher.set_contempt(self.contempt);
                self.evaluation.apply(searcher);
                let stop = searcher.stop_handle();
                let mut limits = self.limits;
                if cancel.load(Ordering::Relaxed) {
                    // Stopped before it began: one ply still gives a legal answer.
                    limits = Limits::depth(1);
                }
                let started = Instant::now();
                // Which evaluation plays, before the search's lines.
                let playing = searcher.evaluation(self.game.position().rules());
                match kind {
                    JobKind::Go => out(format!("info string evaluation {playing}")),
                    _ => out(reply::status(&format!("evaluation {playing}"))),
                }
                let mut on_info = |info: &SearchInfo<B>| {
                    if cancel.load(Ordering::Relaxed) {
                        stop.stop();
                        return;
                    }
                    // " pv" and the moves, each after a space (no trailing space without moves).
                    let pv: String = legal_prefix(self.game.position(), &info.pv)
                        .iter()
                        .map(|m| format!(" {m}"))
                        .collect();
                    match kind {
                        JobKind::Play { .. } => out(reply::status(&format!(
                            "depth {} score {} nodes {} nps {} pv{pv}",
                            info.depth,
                            reply::decimal(info.score),
                            info.nodes,
                            info.nodes_per_second(),
                        ))),
                        JobKind::Go => out(format!(
                            "info depth {} score {} nodes {} nps {} time {} pv{pv}",
                            info.depth,
                            reply::decimal(info.score),
                            info.nodes,
                            info.nodes_per_second(),
                            reply::seconds(started.elapsed()),
                        )),
                        _ => {}
                    }
                };
                let result = match kind {
                    JobKind::Play { refused, .. } if !refused.is_empty() => {
                        searcher.search_multi_pv(&self.game, &limits, refused.len() + 1, on_info)
                    }
                    JobKind::Analyze { lines } => {
                        searcher.search_multi_pv(&self.game, &limits, *lines, on_info)
                    }
                    _ => searcher.search(&self.game, &limits, &mut on_info),
                };
                JobOutcome::Search(result)
            }
        }
    }
}

/// A job on the board type of its game.
#[derive(Clone, Debug)]
pub(crate) enum AnyJob {
    /// A game up to 11x11.
    Narrow(Job<Narrow>),
    /// A game above 11x11.
    Wide(Job<Wide>),
}

/// What a job produced, on the board type of its job.
#[derive(Clone, Debug)]
pub(crate) enum AnyOutcome {
    /// Of a game up to 11x11.
    Narrow(JobOutcome<Narrow>),
    /// Of a game above 11x11.
    Wide(JobOutcome<Wide>),
}

impl AnyJob {
    /// [`Job::is_search`].
    pub(crate) fn is_search(&self) -> bool {
        match self {
            AnyJob::Narrow(job) => job.is_search(),
            AnyJob::Wide(job) => job.is_search(),
        }
    }

    /// A count's `stopped ...` line after `time`, for the driver to print when the count has
    /// not answered by the time the program must end; `None` for a search.
    pub(crate) fn stopped_line(&self, time: Duration) -> Option<String> {
        match self {
            AnyJob::Narrow(job) => job.stopped_line(time),
            AnyJob::Wide(job) => job.stopped_line(time),
        }
    }

    /// The time after which the driver stops the job whatever it is doing.
    pub(crate) fn hard_limit(&self) -> Option<Duration> {
        match self {
            AnyJob::Narrow(job) => job.hard_limit,
            AnyJob::Wide(job) => job.hard_limit,
        }
    }

    /// The side a `play` job plays for; `None` for other jobs.
    pub(crate) fn play_side(&self) -> Option<Side> {
        match self {
            AnyJob::Narrow(job) => job.play_side(),
            AnyJob::Wide(job) => job.play_side(),
        }
    }

    /// [`Job::count`].
    pub(crate) fn count(&self, cancel: &AtomicBool) -> Option<AnyOutcome> {
        match self {
            AnyJob::Narrow(job) => job.count(cancel).map(AnyOutcome::Narrow),
            AnyJob::Wide(job) => job.count(cancel).map(AnyOutcome::Wide),
        }
    }

    /// [`Job::run`].
    pub(crate) fn run(
        &self,
        searcher: &mut Searcher,
        cancel: &AtomicBool,
        out: &mut dyn FnMut(String),
    ) -> AnyOutcome {
        match self {
            AnyJob::Narrow(job) => AnyOutcome::Narrow(job.run(searcher, cancel, out)),
            AnyJob::Wide(job) => AnyOutcome::Wide(job.run(searcher, cancel, out)),
        }
    }

    /// The outcome of this job when its search failed (panicked).
    pub(crate) fn failed(&self) -> AnyOutcome {
        match self {
            AnyJob::Narrow(_) => AnyOutcome::Narrow(JobOutcome::Failed),
            AnyJob::Wide(_) => AnyOutcome::Wide(JobOutcome::Failed),
        }
    }
}

/// The answer of a count stopped after `time`: `stopped perft 9 time 0.012`.
fn stopped_count_line(depth: u32, divide: bool, time: Duration) -> String {
    let command = if divide { "divide" } else { "perft" };
    format!("stopped {command} {depth} time {}", reply::seconds(time))
}

/// `perft`/`divide`: the per-move lines, then `perft <depth> <nodes> time <s> nps <n>`; or, if
/// `cancel` is set before the count is done, the one line `stopped perft|divide <depth> time <s>`.
fn run_perft<B: Grid>(
    game: &Game<B>,
    depth: u32,
    divide: bool,
    threads: usize,
    cancel: &AtomicBool,
) -> Vec<String> {
    let started = Instant::now();
    let mut lines = Vec::new();
    let position = game.position();
    // Where the history changes the moves (hnefatafl.org's H10, H12), the game's moves are
    // counted (P3), as `moves` lists them; elsewhere the position's (P1), which is quicker.
    let by_game = perft::history_changes_moves(game);
    let split = match (divide && depth > 0, by_game) {
        (false, _) => None,
        (true, true) => Some(perft::divide_game_stoppable(game, depth, cancel)),
        (true, false) => Some(perft::divide_parallel_stoppable(
            position, depth, threads, cancel,
        )),
    };
    let nodes = if let Some(split) = split {
        split.map(|split| {
            for (m, count) in &split {
                lines.push(format!("{m} {count}"));
            }
            split.iter().map(|(_, count)| count).sum()
        })
    } else if by_game {
        perft::perft_game_stoppable(game, depth, cancel)
    } else {
        perft::perft_parallel_stoppable(position, depth, threads, cancel)
    };
    let time = started.elapsed();
    match nodes {
        Some(nodes) => lines.push(format!(
            "perft {depth} {nodes} time {} nps {}",
            reply::seconds(time),
            reply::nodes_per_second(nodes, time)
        )),
        None => lines = vec![stopped_count_line(depth, divide, time)],
    }
    lines
}

/// The longest prefix of `line` that is a legal sequence of moves from `position`.
fn legal_prefix<B: Grid>(position: &Position<B>, line: &[Move<B>]) -> Vec<Move<B>> {
    let mut current = *position;
    let mut legal = Vec::new();
    for &m in line {
        if current.play(m).is_err() {
            break;
        }
        legal.push(m);
    }
    legal
}

/// Same pieces on the same squares (the side to move aside).
fn same_placement<B: Grid>(a: &Position<B>, b: &Position<B>) -> bool {
    a.attackers() == b.attackers() && a.defenders() == b.defenders() && a.king_set() == b.king_set()
}

/// Plays `moves` on a copy of `game`; `None` if one is illegal on the board. A game that has
/// ended by a draw that depends on the history (R16, R18) goes on from its board alone: the host
/// decides when its game ends.
fn replay<B: Grid>(game: &Game<B>, moves: &[Move<B>]) -> Option<Game<B>> {
    let mut game = game.clone();
    for &m in moves {
        if game.play(m).is_err() {
            if !game.position().is_legal(m) {
                return None;
            }
            game = Game::from_position(*game.position());
            game.play(m).ok()?;
        }
    }
    Some(game)
}

/// The game a search for a move should use: the game itself, or, when the game has ended by a
/// draw that depends on the history (R16, R18) while the board still has moves, the board alone
/// (the host decides when the game ends). `None` when the board has no move.
fn searchable<B: Grid>(game: &Game<B>) -> Option<Game<B>> {
    if !game.legal_moves().is_empty() {
        Some(game.clone())
    } else if !game.position().legal_moves().is_empty() {
        Some(Game::from_position(*game.position()))
    } else {
        None
    }
}

/// The game being played and the bookkeeping that keeps it in step with the host.
#[derive(Clone, Debug)]
struct Table<B: Grid = Narrow> {
    variant: Variant<B>,
    game: Game<B>,
    /// Our last `move`, until the host accepts it (`move <record>`) or refuses it (`error`).
    pending: Option<Move<B>>,
    /// Moves the host refused in the current position: never offered again there.
    refused: Vec<Move<B>>,
}

/// The game on the board type its rules need.
#[derive(Clone, Debug)]
enum AnyTable {
    /// A game up to 11x11.
    Narrow(Table<Narrow>),
    /// A game above 11x11.
    Wide(Table<Wide>),
}

impl AnyTable {
    fn new(variant: AnyVariant) -> AnyTable {
        match variant {
            AnyVariant::Narrow(variant) => AnyTable::Narrow(Table::new(variant)),
            AnyVariant::Wide(variant) => AnyTable::Wide(Table::new(variant)),
        }
    }

    /// Whether the game is played under `variant` (its rules and start).
    fn plays(&self, variant: &AnyVariant) -> bool {
        match (self, variant) {
            (AnyTable::Narrow(table), AnyVariant::Narrow(variant)) => table.variant == *variant,
            (AnyTable::Wide(table), AnyVariant::Wide(variant)) => table.variant == *variant,
            _ => false,
        }
    }
}

impl<B: Grid> Table<B> {
    fn new(variant: Variant<B>) -> Table<B> {
        Table {
            game: Game::new(&variant),
            variant,
            pending: None,
            refused: Vec::new(),
        }
    }

    /// A new game from `position`, with nothing pending.
    fn reset_to(&mut self, position: Position<B>) {
        self.game = Game::from_position(position);
        self.pending = None;
        self.refused.clear();
    }

    /// Makes `side` the side to move (restarting the history there if it changes).
    fn set_side_to_move(&mut self, side: Side) {
        if self.game.position().side_to_move() != side {
            let position = self.game.position().with_side_to_move(side);
            self.reset_to(position);
        }
    }
}

const NO_GAME: &str = "no game yet: send 'rules <name>' (such as 'rules tablut'; 'help' lists the names) or an OpenTafl rules string first";

/// The help text, one `help` line each.
const HELP: &[&str] = &[
    "tafl-engine speaks OTEP (the OpenTafl Engine Protocol) plus commands for people",
    "rules <name> | rules <OpenTafl rules string>: start that game; the names:",
    "  tablut, tawlbwrdd: this project's games (docs/rules.md R1-R18)",
    "  sea-battle, fetlar, copenhagen, copenhagen-relaxed, brandub, opentafl-tawlbwrdd,",
    "  opentafl-tablut, foteviken-tablut, magpie: OpenTafl's built-in games, by its rules",
    "  ashton: Ashton Tablut, the Tablut Challenge's rules (defenders first; docs/rules-hosts.md C12-C14)",
    "  copenhagen-aagenielsen: Copenhagen by its published rules (a third repetition wins for the attackers; shieldwalls as the rules word them)",
    "  hnefatafl-org-copenhagen, hnefatafl-org-brandubh, hnefatafl-org-copenhagen-13: hnefatafl.org's server's rules (docs/rules-hosts.md H1-H12)",
    "  a rules string may give any odd board size from 5 to 19 (dim:13, dim:15, dim:19)",
    "position <record>: set the board (rank 1 first); side <attackers|defenders>: set the side to move",
    "clock <atk-ms>[*] <def-ms>[*] <overtime-s> <atk-periods> <def-periods>: the time left",
    "play <side>: answer 'move <from-to>'; analyze <n> <seconds>: answer 'analysis ...'",
    "move <record>, opponent-move <m1|m2...> <record>, error <code>, finish <code>: host messages",
    "perft <depth>, divide <depth>: count move paths (last line 'perft <depth> <nodes> time <s> nps <n>', or 'stopped ...' after stop)",
    "show: the board; moves: the legal moves; play-move <move>: play a move; undo; new",
    "go [depth <n>] [movetime <ms>] [nodes <n>]: search, print 'info' lines and 'bestmove <move>'",
    "stop: end a search or a count now; goodbye: quit; help: this text",
];

/// An engine session: state plus the command handlers, without any I/O of its own.
///
/// ```
/// use tafl_engine::protocol::{Session, SessionOptions, is_documented_reply};
/// let mut session = Session::new(SessionOptions::quick());
/// let mut replies = Vec::new();
/// for line in ["rules tablut", "perft 2", "play attackers", "no such command"] {
///     session.handle_line(line, &mut |reply| replies.push(reply));
/// }
/// assert!(replies.iter().all(|r| is_documented_reply(r)));
/// assert!(replies.iter().any(|r| r.starts_with("perft 2 4400 ")));
/// assert!(replies.iter().any(|r| r.starts_with("move ")));
/// assert!(replies.last().unwrap().starts_with("error 0 unknown command"));
/// ```
///
/// Boards above 11x11 too: the rules string says the size.
///
/// ```
/// use tafl_engine::protocol::{Session, SessionOptions};
/// let mut session = Session::new(SessionOptions::quick());
/// let mut replies = Vec::new();
/// for line in ["rules hnefatafl-org-copenhagen-13", "perft 1", "play attackers"] {
///     session.handle_line(line, &mut |reply| replies.push(reply));
/// }
/// assert!(replies.iter().any(|r| r.starts_with("perft 1 ")));
/// assert!(replies.last().unwrap().starts_with("move "));
/// assert!(session.wide_game().is_some() && session.game().is_none());
/// ```
#[derive(Debug)]
pub struct Session {
    options: SessionOptions,
    table: Option<AnyTable>,
    clock: Option<ClockCommand>,
    /// The searcher for in-process searches (the binary's worker thread has its own).
    searcher: Option<Searcher>,
    /// Other rules than before since the last [`Session::take_rules_changed`]: what the
    /// searcher learnt no longer applies. (Only then: clearing the table takes time.)
    rules_changed: bool,
}

impl Session {
    /// A session with no game yet (`rules` starts one).
    pub fn new(options: SessionOptions) -> Session {
        Session {
            options,
            table: None,
            clock: None,
            searcher: None,
            rules_changed: false,
        }
    }

    /// Whether `rules` set up other rules than before since the last call: the searcher's
    /// table should then be cleared before it searches again.
    pub(crate) fn take_rules_changed(&mut self) -> bool {
        std::mem::take(&mut self.rules_changed)
    }

    /// The options.
    pub fn options(&self) -> &SessionOptions {
        &self.options
    }

    /// The search configuration these options ask for.
    pub fn search_config(&self) -> SearchConfig {
        SearchConfig {
            threads: self.options.threads,
            hash_mb: self.options.hash_mb,
        }
    }

    /// The current game, once `rules` has set one up on a board up to 11x11 (`None` for a game
    /// on a larger board: [`Session::wide_game`]).
    pub fn game(&self) -> Option<&Game> {
        match &self.table {
            Some(AnyTable::Narrow(table)) => Some(&table.game),
            _ => None,
        }
    }

    /// The current game, once `rules` has set one up on a board above 11x11.
    pub fn wide_game(&self) -> Option<&Game<Wide>> {
        match &self.table {
            Some(AnyTable::Wide(table)) => Some(&table.game),
            _ => None,
        }
    }

    /// Handles one line of input, searches included (run here and now, within the options'
    /// caps), calling `out` with each reply line. Every reply is one of the documented forms
    /// ([`is_documented_reply`](super::is_documented_reply)); nothing panics, whatever the line.
    pub fn handle_line(&mut self, line: &str, out: &mut impl FnMut(String)) -> Flow {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line
            .trim_matches(|c: char| c.is_ascii_whitespace())
            .is_empty()
        {
            return Flow::Continue;
        }
        let command = match parse_command_on::<Wide>(line) {
            Ok(command) => command,
            Err(error) => {
                out(error_reply(&error));
                return Flow::Continue;
            }
        };
        if command == Command::Goodbye {
            return Flow::Quit;
        }
        if let Some(job) = self.handle_command(command, &mut *out) {
            if self.take_rules_changed() {
                // Another game: what the table learnt does not apply to it. Emptied in place,
                // which is quicker than setting up a new table.
                if let Some(searcher) = &mut self.searcher {
                    searcher.clear();
                }
            }
            let config = self.search_config();
            let searcher = self.searcher.get_or_insert_with(|| Searcher::new(config));
            let outcome = job.run(searcher, &AtomicBool::new(false), &mut *out);
            self.finish_job(&job, outcome, &mut *out);
        }
        Flow::Continue
    }

    /// Carries out `command` (its moves read for the wide grid, which holds every board's:
    /// [`parse_command_on`]), printing its immediate replies; returns the long-running work it
    /// asks for, if any, for the caller to run ([`AnyJob::run`]) and hand back
    /// ([`Session::finish_job`]). `goodbye` is the caller's business and does nothing here.
    pub(crate) fn handle_command(
        &mut self,
        command: Command<Wide>,
        out: &mut dyn FnMut(String),
    ) -> Option<AnyJob> {
        match command {
            Command::Hello | Command::Start | Command::Goodbye | Command::Stop => None,
            Command::Rules(variant) => {
                // A built-in game spelt otherwise (another name, fields spelt otherwise) is
                // played as the built-in, and said: hosts ignore `info` lines (OpenTafl acts on
                // a line that starts with `rules`, so the note must not).
                if let Some(name) = variant.built_in().filter(|_| variant.key().is_none()) {
                    out(format!(
                        "info string rules: the built-in game {name}, played as it"
                    ));
                }
                let variant = Box::new(variant.canonical());
                let other_rules = self
                    .table
                    .as_ref()
                    .is_some_and(|table| !table.plays(&variant));
                self.rules_changed |= other_rules;
                self.table = Some(AnyTable::new(*variant));
                self.clock = None;
                None
            }
            Command::Clock(clock) => {
                self.clock = Some(clock);
                None
            }
            Command::Help => {
                for line in HELP {
                    out(format!("help {line}"));
                }
                None
            }
            command => {
                let settings = Settings {
                    options: &self.options,
                    clock: self.clock,
                };
                match self.table.as_mut() {
                    None => {
                        out(reply::error(false, NO_GAME));
                        None
                    }
                    Some(AnyTable::Narrow(table)) => {
                        table_command(settings, table, command, out).map(AnyJob::Narrow)
                    }
                    Some(AnyTable::Wide(table)) => {
                        table_command(settings, table, command, out).map(AnyJob::Wide)
                    }
                }
            }
        }
    }

    /// The limits of a `play` for `side`, and the time after which the driver stops it for sure.
    pub(crate) fn play_limits(&self, side: Side) -> (Limits, Duration) {
        let settings = Settings {
            options: &self.options,
            clock: self.clock,
        };
        match &self.table {
            Some(AnyTable::Narrow(table)) => {
                settings.play_limits(side, Some(table.variant.rules()))
            }
            Some(AnyTable::Wide(table)) => settings.play_limits(side, Some(table.variant.rules())),
            None => settings.play_limits::<Narrow>(side, None),
        }
    }

    /// Prints the answer of a finished job and records what it changes (our pending move).
    pub(crate) fn finish_job(
        &mut self,
        job: &AnyJob,
        outcome: AnyOutcome,
        out: &mut dyn FnMut(String),
    ) {
        let threads = self.options.threads;
        match (job, outcome) {
            (AnyJob::Narrow(job), AnyOutcome::Narrow(outcome)) => {
                let table = match &mut self.table {
                    Some(AnyTable::Narrow(table)) => Some(table),
                    _ => None,
                };
                finish(job, outcome, table, threads, out);
            }
            (AnyJob::Wide(job), AnyOutcome::Wide(outcome)) => {
                let table = match &mut self.table {
                    Some(AnyTable::Wide(table)) => Some(table),
                    _ => None,
                };
                finish(job, outcome, table, threads, out);
            }
            // Not reached: a job's outcome comes from the job itself (`AnyJob::run`, `count`,
            // `failed`), on its grid. Answer as a failed search would, with a legal move.
            (job, _) => self.finish_job(job, job.failed(), out),
        }
    }
}

/// What the commands on a game need of the session besides the game.
#[derive(Clone, Copy)]
struct Settings<'a> {
    options: &'a SessionOptions,
    clock: Option<ClockCommand>,
}

impl Settings<'_> {
    fn job<B: Grid>(
        &self,
        kind: JobKind<B>,
        game: Game<B>,
        limits: Limits,
        hard: Option<Duration>,
    ) -> Job<B> {
        Job {
            kind,
            game,
            limits,
            hard_limit: hard,
            contempt: self.options.contempt,
            evaluation: self.options.evaluation.clone(),
            threads: self.options.threads,
        }
    }

    /// `limits` within the options' caps.
    fn capped(&self, mut limits: Limits) -> Limits {
        if let Some(cap) = self.options.max_search_time {
            limits.move_time = Some(limits.move_time.map_or(cap, |time| time.min(cap)));
        }
        if let Some(cap) = self.options.max_search_depth {
            limits.depth = Some(limits.depth.map_or(cap, |depth| depth.min(cap)));
        }
        limits
    }

    /// The limits of a `play` for `side` in a game of `rules` (none before `rules`), and the
    /// time after which the driver stops it for sure.
    fn play_limits<B: Grid>(&self, side: Side, rules: Option<Rules<B>>) -> (Limits, Duration) {
        let clock = self.clock.and_then(|clock| clock.for_side(side));
        let limits = self.capped(match clock {
            Some(clock) => Limits::clock(clock),
            None => Limits::move_time(self.options.default_move_time),
        });
        // Without a game (no `rules` yet) nothing is played; the edge pace stands in.
        let budget = match rules {
            Some(rules) => limits.time_budget_in(rules),
            None => limits.time_budget(),
        }
        .unwrap_or(self.options.default_move_time);
        let mut hard = budget + budget / 4 + Duration::from_millis(20);
        if let Some(clock) = clock {
            // Never run past the time that would lose the game.
            let available = if clock.in_overtime {
                clock.remaining
            } else if clock.overtime_periods > 0 {
                clock.remaining + clock.overtime
            } else {
                clock.remaining
            };
            hard = hard
                .min(available.saturating_sub(Duration::from_millis(30)))
                .max(budget);
        }
        (limits, hard)
    }
}

/// A move read for the wide grid, on the grid `B` of the game: `None`, with `error 0` said,
/// when it names a square beyond that grid.
fn on_game_grid<B: Grid>(
    command: &'static str,
    m: Move<Wide>,
    out: &mut dyn FnMut(String),
) -> Option<Move<B>> {
    let text = m.to_string();
    match text.parse::<Move<B>>() {
        Ok(m) => Some(m),
        Err(error) => {
            out(error_reply(&CommandError::BadMove {
                command,
                text: super::command::quote(&text),
                error,
            }));
            None
        }
    }
}

/// A command on the game of `table` (every command but those that need no game).
fn table_command<B: Grid>(
    settings: Settings<'_>,
    table: &mut Table<B>,
    command: Command<Wide>,
    out: &mut dyn FnMut(String),
) -> Option<Job<B>> {
    match command {
        Command::Position(record) => {
            let side = table.game.position().side_to_move();
            if let Some(position) = read_record(&record, table, side, out) {
                table.reset_to(position);
            }
            None
        }
        Command::Side(side) => {
            table.set_side_to_move(side);
            None
        }
        Command::Play(side) => play(settings, table, side, out),
        Command::Move(record) => {
            our_move_accepted(table, &record, out);
            None
        }
        Command::OpponentMove { moves, record } => {
            let moves = moves
                .into_iter()
                .map(|m| on_game_grid("opponent-move", m, out))
                .collect::<Option<Vec<Move<B>>>>()?;
            opponent_moved(table, &moves, &record, out);
            None
        }
        Command::Analyze { lines, time } => {
            let Some(game) = searchable(&table.game) else {
                out("analysis 0".to_string());
                return None;
            };
            let margin = (time / 10).max(Duration::from_millis(30));
            let soft = time.saturating_sub(margin);
            let limits = settings.capped(Limits::move_time(soft));
            let hard = time.saturating_sub(Duration::from_millis(15)).max(soft);
            Some(settings.job(JobKind::Analyze { lines }, game, limits, Some(hard)))
        }
        Command::HostError { code, .. } => {
            // 1-4: the host refused our last move (wrong side, illegal).
            if (1..=4).contains(&code) {
                if let Some(m) = table.pending.take() {
                    if !table.refused.contains(&m) {
                        table.refused.push(m);
                    }
                }
            }
            None
        }
        Command::Finish(_) => {
            table.pending = None;
            None
        }
        Command::Perft(depth) | Command::Divide(depth) => {
            let divide = matches!(command, Command::Divide(_));
            if depth > settings.options.max_perft_depth {
                out(reply::error(
                    false,
                    &format!(
                        "depth {depth} is deeper than this engine counts (at most {})",
                        settings.options.max_perft_depth
                    ),
                ));
                return None;
            }
            // The game with its history: where the history changes the moves (H10, H12), the
            // count is the game's (`run_perft`).
            let game = table.game.clone();
            Some(settings.job(
                JobKind::Perft { depth, divide },
                game,
                Limits::default(),
                None,
            ))
        }
        Command::Show => {
            let result = table.game.outcome().map(|outcome| outcome.to_string());
            let name = if table.variant.name().is_empty() {
                "(unnamed)"
            } else {
                table.variant.name()
            };
            let evaluation = settings
                .options
                .evaluation
                .playing(table.game.position().rules());
            for line in reply::show_lines(table.game.position(), result, name, &evaluation) {
                out(line);
            }
            None
        }
        Command::Moves => {
            let mut moves: Vec<String> = table
                .game
                .legal_moves()
                .iter()
                .map(Move::to_string)
                .collect();
            moves.sort();
            let mut line = format!("legal-moves {}", moves.len());
            for m in moves {
                line.push(' ');
                line.push_str(&m);
            }
            out(line);
            None
        }
        Command::PlayMove(m) => {
            let m = on_game_grid::<B>("play-move", m, out)?;
            match table.game.play(m) {
                Ok(_) => {
                    table.pending = None;
                    table.refused.clear();
                }
                Err(error) => out(reply::error(false, &format!("cannot play {m}: {error}"))),
            }
            None
        }
        Command::Undo => {
            match table.game.undo() {
                Some(_) => {
                    table.pending = None;
                    table.refused.clear();
                }
                None => out(reply::error(false, "nothing to undo")),
            }
            None
        }
        Command::New => {
            let start = table.variant.start();
            table.reset_to(start);
            None
        }
        Command::Go(limits) => go(settings, table, limits, out),
        // Handled by the session, without the game.
        Command::Hello
        | Command::Start
        | Command::Goodbye
        | Command::Stop
        | Command::Rules(_)
        | Command::Clock(_)
        | Command::Help => None,
    }
}

fn play<B: Grid>(
    settings: Settings<'_>,
    table: &mut Table<B>,
    side: Side,
    out: &mut dyn FnMut(String),
) -> Option<Job<B>> {
    let (limits, hard) = settings.play_limits(side, Some(table.variant.rules()));
    // The host says who is to move; a new `play` also ends any wait for our last move.
    let mut would_be = table.clone();
    would_be.set_side_to_move(side);
    let Some(game) = searchable(&would_be.game) else {
        let why = would_be
            .game
            .outcome()
            .map_or_else(|| "no legal move".to_string(), |o| o.to_string());
        out(reply::error(
            false,
            &format!("cannot play: the game is over ({why})"),
        ));
        return None;
    };
    table.set_side_to_move(side);
    table.pending = None;
    let refused = table.refused.clone();
    Some(settings.job(JobKind::Play { side, refused }, game, limits, Some(hard)))
}

fn go<B: Grid>(
    settings: Settings<'_>,
    table: &Table<B>,
    go: GoLimits,
    out: &mut dyn FnMut(String),
) -> Option<Job<B>> {
    let Some(game) = searchable(&table.game) else {
        out("bestmove none".to_string());
        return None;
    };
    let mut limits = Limits {
        depth: go.depth,
        nodes: go.nodes,
        move_time: go.move_time,
        clock: None,
    };
    if go == GoLimits::default() {
        limits.move_time = Some(settings.options.default_move_time);
    }
    let limits = settings.capped(limits);
    let hard = limits
        .move_time
        .map(|time| time + time / 4 + Duration::from_millis(50));
    Some(settings.job(JobKind::Go, game, limits, hard))
}

/// `move <record>`: the host played our pending move; its board must be ours after it.
fn our_move_accepted<B: Grid>(table: &mut Table<B>, record: &str, out: &mut dyn FnMut(String)) {
    let Some(pending) = table.pending else {
        out(reply::error(
            false,
            "'move' from the host, but no move of ours is waiting for it",
        ));
        return;
    };
    let mover = table.game.position().side_to_move();
    let Some(host) = read_record(record, table, mover.opponent(), out) else {
        return;
    };
    let ours = replay(&table.game, &[pending]);
    match ours {
        Some(game) if same_placement(game.position(), &host) => {
            table.game = game;
            table.pending = None;
            table.refused.clear();
        }
        _ => {
            table.reset_to(host);
            out(reply::status(&format!(
                "out of step with the host after our move {pending}: took the host's board {}",
                notation::position_record(&host)
            )));
        }
    }
}

/// `opponent-move <moves> <record>`: play the moves, or find how the host's board came about,
/// or take the host's board.
fn opponent_moved<B: Grid>(
    table: &mut Table<B>,
    moves: &[Move<B>],
    record: &str,
    out: &mut dyn FnMut(String),
) {
    let current = *table.game.position();
    let Some(host) = read_record(record, table, current.side_to_move(), out) else {
        return;
    };
    let last = moves.last().copied();
    let last_played = table.game.last_move().map(|(m, _)| m);
    if same_placement(&current, &host) && last.is_some() && last == last_played {
        // Our board is the host's already. OpenTafl resends the last move after refusing
        // ours (`error`, `opponent-move`, `play`): nothing to do, and the refusal stands.
        table.pending = None;
        return;
    }
    // The ways the host's board may have come about, most likely first: the moves on our
    // board; on our board after our own move (if the host never said `move`); on our board
    // with the other side to move (OpenTafl sends `side <engine's side>` before the first
    // move); the whole game from its start (a host that resends every move).
    let mut bases = vec![table.game.clone()];
    if let Some(pending) = table.pending {
        bases.extend(replay(&table.game, &[pending]));
    }
    if table.game.moves().len() == 0 {
        bases.push(Game::from_position(
            current.with_side_to_move(current.side_to_move().opponent()),
        ));
    }
    bases.push(Game::from_position(*table.game.start_position()));
    for base in &bases {
        if let Some(game) = replay(base, moves) {
            if same_placement(game.position(), &host) {
                if game.position() != &current {
                    table.refused.clear();
                }
                table.game = game;
                table.pending = None;
                return;
            }
        }
    }
    if same_placement(&current, &host) {
        let why = match moves.first().map(|&m| (m, current.check_move(m))) {
            Some((m, Err(error))) => format!("illegal move {m}: {error}"),
            _ => "the moves do not lead to the board given".to_string(),
        };
        out(reply::error(
            false,
            &format!("{why}; the board is unchanged"),
        ));
        return;
    }
    // The host's board is the truth: the side to move is the opponent of whoever stands on
    // the last move's destination.
    let mover = last
        .and_then(|m| host.piece_at(m.to()))
        .map_or(current.side_to_move(), |piece| piece.side());
    let adopted = host.with_side_to_move(mover.opponent());
    table.reset_to(adopted);
    let texts: Vec<String> = moves.iter().map(Move::to_string).collect();
    out(reply::status(&format!(
        "out of step with the host after {}: took the host's board {}",
        texts.join("|"),
        notation::position_record(&adopted)
    )));
}

/// Prints the answer of a finished job and records what it changes in `table` (our pending
/// move), the game it was for if the session still plays it; `threads` is how many the
/// options asked for.
fn finish<B: Grid>(
    job: &Job<B>,
    outcome: JobOutcome<B>,
    table: Option<&mut Table<B>>,
    threads: usize,
    out: &mut dyn FnMut(String),
) {
    // A note about the search: a `status` line (OTEP) for the host's `play` and `analyze`, an
    // `info string` line for a person's `go`, whose replies never start with an OTEP word.
    let note = |text: &str| match job.kind {
        JobKind::Go => format!("info string {text}"),
        _ => reply::status(text),
    };
    let result = match outcome {
        JobOutcome::Search(result) => result,
        JobOutcome::Counted(lines) => {
            lines.into_iter().for_each(&mut *out);
            return;
        }
        JobOutcome::Failed => {
            out(note("the search failed; answering with a legal move"));
            SearchResult {
                best_move: None,
                score: crate::search::Score::DRAW,
                pv: Vec::new(),
                lines: Vec::new(),
                depth: 0,
                nodes: 0,
                elapsed: Duration::ZERO,
                threads,
            }
        }
    };
    let wanted = threads;
    if result.threads == 0 {
        out(note(
            "no memory for the search's tables: answering with a legal move, unsearched",
        ));
    } else if result.threads < wanted {
        out(note(&format!(
            "only {} of {wanted} search threads could be started (the system refused the \
             others: memory or a limit on threads); searched with {}",
            result.threads, result.threads
        )));
    }
    let position = *job.game.position();
    // The game's legal moves: its history may forbid some of the board's (H12).
    let legal = job.game.legal_moves();
    match &job.kind {
        JobKind::Play { refused, .. } => {
            let candidates = result
                .lines
                .iter()
                .filter_map(|line| line.moves.first().copied())
                .chain(result.best_move)
                .chain(legal.iter().copied());
            let choice = candidates
                .filter(|m| legal.contains(m))
                .find(|m| !refused.contains(m));
            match choice {
                Some(m) => {
                    out(format!("move {m}"));
                    if let Some(table) = table {
                        table.pending = Some(m);
                    }
                }
                None => out(reply::error(
                    true,
                    "the host refused every legal move in this position",
                )),
            }
        }
        JobKind::Analyze { .. } => {
            let mut pairs: Vec<(Vec<Move<B>>, crate::search::Score)> = result
                .lines
                .iter()
                .map(|line| (legal_prefix(&position, &line.moves), line.score))
                .filter(|(line, _)| !line.is_empty())
                .collect();
            if pairs.is_empty() {
                if let Some(m) = result.best_move.filter(|m| position.is_legal(*m)) {
                    pairs.push((vec![m], result.score));
                }
            }
            // Distinct first moves, best first.
            let mut seen = Vec::new();
            pairs.retain(|(line, _)| {
                let first = line[0];
                let new = !seen.contains(&first);
                seen.push(first);
                new
            });
            pairs.sort_by_key(|pair| std::cmp::Reverse(pair.1));
            let mut line = format!("analysis {}", pairs.len());
            for (moves, score) in pairs {
                line.push(' ');
                line.push_str(&reply::join_moves(&moves, "|"));
                line.push(' ');
                line.push_str(&reply::decimal(score));
            }
            out(line);
        }
        JobKind::Go => match result.best_move.filter(|m| legal.contains(m)) {
            Some(m) => out(format!("bestmove {m}")),
            None => out(match legal.first() {
                Some(m) => format!("bestmove {m}"),
                None => "bestmove none".to_string(),
            }),
        },
        JobKind::Perft { .. } => {}
    }
}

/// The reply to a line that is not a command: `error 0 <why>`, or `error -1 <why>` for a rules
/// string the engine cannot play.
pub fn error_reply(error: &CommandError) -> String {
    reply::error(error.is_critical(), &error.to_string())
}

/// A position record from the host, for the table's rules with `side` to move; a record that
/// does not read gets `error 0 bad position record: ...` and `None`.
fn read_record<B: Grid>(
    record: &str,
    table: &Table<B>,
    side: Side,
    out: &mut dyn FnMut(String),
) -> Option<Position<B>> {
    match notation::parse_position_record(record, table.variant.rules(), side) {
        Ok(position) => Some(position),
        Err(error) => {
            out(reply::error(
                false,
                &format!("bad position record: {error}"),
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::is_documented_reply;
    use crate::search::Score;

    fn run(session: &mut Session, line: &str) -> Vec<String> {
        let mut replies = Vec::new();
        session.handle_line(line, &mut |reply| replies.push(reply));
        for reply in &replies {
            assert!(is_documented_reply(reply), "{line:?} -> {reply:?}");
        }
        replies
    }

    fn tablut() -> Session {
        let mut session = Session::new(SessionOptions::quick());
        assert!(run(&mut session, "rules tablut").is_empty());
        session
    }

    #[test]
    fn the_options_contempt_prices_the_draws_of_every_search() {
        // Attackers to move; e1-e3 leaves the defenders without a move, a draw (R17). The
        // analysis scores that line with what a draw costs the attackers: nothing with contempt
        // 0, 15 soldiers with the default (whatever the evaluation says), and with contempt 1 soldier
        // that much more than the evaluation says they are behind (the game starts here).
        const RECORD: &str = "/2t1t4/1tTt5/1tKT5/2tt5/9/9/9/9/9/";
        let walled_in = |contempt: i32| {
            let mut session = Session::new(SessionOptions {
                contempt,
                ..SessionOptions::quick()
            });
            for line in [
                "rules tablut",
                &format!("position {RECORD}"),
                "side attackers",
            ] {
                assert!(run(&mut session, line).is_empty(), "{line}");
            }
            let replies = run(&mut session, "analyze 400 1");
            let words: Vec<&str> = replies
                .last()
                .expect("analyze answers")
                .split(' ')
                .collect();
            let at = words
                .iter()
                .position(|word| word.starts_with("e1-e3"))
                .expect("every move gets a line");
            let soldiers: f64 = words[at + 1].parse().expect("an evaluation");
            (soldiers * 100.0).round() as i32
        };
        let position =
            notation::parse_position_record(RECORD, crate::Rules::TABLUT, Side::Attackers)
                .expect("valid record");
        // What the library's searcher with that contempt prices the draw at, on the shown scale.
        let game = Game::from_position(position);
        let mut searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: 1,
        });
        let scale = searcher.score_scale(position.rules());
        let mut draw_score = |contempt: i32| {
            searcher.set_contempt(contempt);
            searcher.draw_score(&game).0
        };
        assert_eq!(walled_in(0), draw_score(0));
        assert_eq!(walled_in(0), scale.show(Score::DRAW, Side::Attackers).0);
        let full = SessionOptions::default().contempt;
        assert_eq!(walled_in(full), draw_score(full));
        assert_eq!(walled_in(full), scale.show(Score(-1500), Side::Attackers).0);
        assert_eq!(walled_in(100), draw_score(100));
        assert!(walled_in(100) <= scale.show(Score(-100), Side::Attackers).0);
    }

    #[test]
    fn show_and_every_search_say_which_evaluation_plays() {
        let evaluation_line = |session: &mut Session| -> String {
            let replies = run(session, "show");
            replies
                .into_iter()
                .find(|line| line.starts_with("evaluation "))
                .expect("show has an evaluation line")
        };
        let mut session = tablut();
        assert_eq!(
            evaluation_line(&mut session),
            "evaluation network edge-9 (built-in)"
        );
        let go = run(&mut session, "go depth 2");
        assert_eq!(go[0], "info string evaluation network edge-9 (built-in)");
        assert!(go[1].starts_with("info depth 1 "), "{go:?}");
        let play = run(&mut session, "play attackers");
        assert_eq!(play[0], "status evaluation network edge-9 (built-in)");
        assert!(play.last().is_some_and(|line| line.starts_with("move ")));
        // A game without a network: OpenTafl's Tablut plays other rules than this project's.
        assert!(run(&mut session, "rules opentafl-tablut").is_empty());
        assert_eq!(evaluation_line(&mut session), "evaluation hand-written");
        let go = run(&mut session, "go depth 1");
        assert_eq!(go[0], "info string evaluation hand-written");
        // The wide grid: Sea Battle 13x13 has a network, hnefatafl.org's 13x13 has none.
        let sea_battle_13 = "rules dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/";
        assert!(run(&mut session, sea_battle_13).is_empty());
        assert_eq!(
            evaluation_line(&mut session),
            "evaluation network edge-13 (built-in)"
        );
        assert!(run(&mut session, "rules hnefatafl-org-copenhagen-13").is_empty());
        assert_eq!(evaluation_line(&mut session), "evaluation hand-written");
        // The hand-written evaluation asked for everywhere.
        let mut session = Session::new(SessionOptions {
            evaluation: Evaluation::HandWritten,
            ..SessionOptions::quick()
        });
        assert!(run(&mut session, "rules copenhagen").is_empty());
        assert_eq!(evaluation_line(&mut session), "evaluation hand-written");
    }

    #[test]
    fn help_names_every_game_that_rules_takes() {
        let mut session = Session::new(SessionOptions::quick());
        let help = run(&mut session, "help").join("\n");
        for name in AnyVariant::names() {
            let listed = help
                .split(|c: char| c == ',' || c == ':' || c.is_whitespace())
                .any(|word| word == name);
            assert!(listed, "help does not list {name}");
            assert!(
                run(&mut session, &format!("rules {name}")).is_empty(),
                "{name}"
            );
            let perft = run(&mut session, "perft 2");
            assert!(
                perft
                    .last()
                    .is_some_and(|line| line.starts_with("perft 2 ")),
                "{name}"
            );
        }
    }

    fn record(session: &Session) -> String {
        notation::position_record(session.game().unwrap().position())
    }

    #[test]
    fn commands_before_rules_are_refused() {
        let mut session = Session::new(SessionOptions::quick());
        for line in [
            "play attackers",
            "perft 1",
            "show",
            "position /9/9/9/9/9/9/9/9/9/",
        ] {
            let replies = run(&mut session, line);
            assert_eq!(replies.len(), 1, "{line}");
            assert!(replies[0].starts_with("error 0 no game yet"), "{replies:?}");
        }
    }

    #[test]
    fn a_refused_rules_string_keeps_the_game() {
        let mut session = tablut();
        run(&mut session, "play-move e2-h2");
        let before = record(&session);
        let string = Variant::tawlbwrdd().to_string().replace("ks:c", "ks:w");
        let replies = run(&mut session, &format!("rules {string}"));
        assert_eq!(replies.len(), 1);
        assert!(replies[0].starts_with("error -1 ") && replies[0].contains("ks"));
        assert_eq!(record(&session), before);
    }

    #[test]
    fn opponent_move_plays_and_keeps_in_step() {
        let mut session = tablut();
        let mut expected = Position::tablut();
        expected.play("e2-h2".parse().unwrap()).unwrap();
        let line = format!(
            "opponent-move e2-h2 {}",
            notation::position_record(&expected)
        );
        assert!(run(&mut session, &line).is_empty());
        assert_eq!(session.game().unwrap().position(), &expected);
        // The same message again (OpenTafl after refusing our move): nothing changes.
        assert!(run(&mut session, &line).is_empty());
        assert_eq!(session.game().unwrap().position(), &expected);
    }

    #[test]
    fn a_different_host_board_is_adopted_with_a_status_line() {
        let mut session = tablut();
        let mut host = Position::tablut();
        host.play("e2-h2".parse().unwrap()).unwrap();
        host.play("e3-h3".parse().unwrap()).unwrap();
        // The host claims e2-h2 led to a board where e3-h3 has been played as well.
        let replies = run(
            &mut session,
            &format!("opponent-move e2-h2 {}", notation::position_record(&host)),
        );
        assert_eq!(replies.len(), 1);
        assert!(replies[0].starts_with("status out of step"), "{replies:?}");
        assert_eq!(record(&session), notation::position_record(&host));
        // The host says the attackers' e2-h2 came last (an attacker stands on h2): defenders
        // to move.
        assert_eq!(
            session.game().unwrap().position().side_to_move(),
            Side::Defenders
        );
    }

    #[test]
    fn an_illegal_opponent_move_on_an_unchanged_board_is_an_error() {
        let mut session = tablut();
        let before = record(&session);
        let replies = run(&mut session, &format!("opponent-move e5-e1 {before}"));
        assert_eq!(replies.len(), 1);
        assert!(
            replies[0].starts_with("error 0 illegal move e5-e1"),
            "{replies:?}"
        );
        assert_eq!(record(&session), before);
    }

    #[test]
    fn play_answers_a_legal_move_and_a_refused_move_is_not_offered_again() {
        let mut session = tablut();
        let first = run(&mut session, "play attackers");
        let answer = first
            .last()
            .unwrap()
            .strip_prefix("move ")
            .unwrap()
            .to_string();
        let m: Move = answer.parse().unwrap();
        assert!(Position::tablut().is_legal(m));
        run(&mut session, "error 2");
        let second = run(&mut session, "play attackers");
        let again = second
            .last()
            .unwrap()
            .strip_prefix("move ")
            .unwrap()
            .to_string();
        assert_ne!(again, answer);
    }

    #[test]
    fn move_from_the_host_confirms_our_move() {
        let mut session = tablut();
        let replies = run(&mut session, "play attackers");
        let m: Move = replies.last().unwrap()[5..].parse().unwrap();
        let mut after = Position::tablut();
        after.play(m).unwrap();
        assert!(
            run(
                &mut session,
                &format!("move {}", notation::position_record(&after))
            )
            .is_empty()
        );
        assert_eq!(session.game().unwrap().position(), &after);
        // A second confirmation has nothing to confirm.
        let replies = run(
            &mut session,
            &format!("move {}", notation::position_record(&after)),
        );
        assert!(replies[0].starts_with("error 0 "));
    }

    #[test]
    fn analyze_gives_distinct_first_moves_best_first() {
        let mut session = tablut();
        let replies = run(&mut session, "analyze 3 0.2");
        let line = replies.last().unwrap();
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[0], "analysis");
        assert_eq!(words[1], "3");
        let firsts: Vec<&str> = words[2..]
            .chunks(2)
            .map(|p| p[0].split('|').next().unwrap())
            .collect();
        assert_eq!(firsts.len(), 3);
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        let evals: Vec<f64> = words[2..]
            .chunks(2)
            .map(|p| p[1].parse().unwrap())
            .collect();
        assert!(evals.windows(2).all(|w| w[0] >= w[1]), "{evals:?}");
    }

    #[test]
    fn the_host_may_play_on_after_a_repetition_draw() {
        let mut session = tablut();
        // R16: the start position with attackers to move occurs again after four moves.
        for m in ["e2-h2", "e3-h3", "h2-e2"] {
            run(&mut session, &format!("play-move {m}"));
        }
        let mut board = *session.game().unwrap().position();
        board.play("h3-e3".parse().unwrap()).unwrap();
        let record = notation::position_record(&board);
        assert!(run(&mut session, &format!("opponent-move h3-e3 {record}")).is_empty());
        assert!(session.game().unwrap().outcome().is_some());
        // The host plays on: the engine answers a move, and takes the host's word for it.
        let replies = run(&mut session, "play attackers");
        let m: Move = replies.last().unwrap()["move ".len()..].parse().unwrap();
        board.play(m).unwrap();
        let confirm = format!("move {}", notation::position_record(&board));
        assert!(run(&mut session, &confirm).is_empty(), "no status: in step");
        assert_eq!(session.game().unwrap().position(), &board);
    }

    #[test]
    fn perft_and_divide_agree_with_the_library() {
        let mut session = tablut();
        let replies = run(&mut session, "perft 2");
        assert!(replies.last().unwrap().starts_with("perft 2 4400 time "));
        let replies = run(&mut session, "divide 1");
        assert_eq!(replies.len(), 81);
        assert!(replies.last().unwrap().starts_with("perft 1 80 "));
        let replies = run(&mut session, "perft 3");
        assert!(replies[0].starts_with("error 0 depth 3"), "{replies:?}");
    }

    #[test]
    fn goodbye_quits_and_blank_lines_are_ignored() {
        let mut session = tablut();
        let mut replies = Vec::new();
        assert_eq!(
            session.handle_line("   ", &mut |r| replies.push(r)),
            Flow::Continue
        );
        assert_eq!(
            session.handle_line("goodbye\r\n", &mut |r| replies.push(r)),
            Flow::Quit
        );
        assert!(replies.is_empty());
    }
}
