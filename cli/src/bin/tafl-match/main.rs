//! `tafl-match`: plays two engines against each other over many games and reports wins, draws,
//! losses and the Elo difference, as cutechess-cli or fastchess do for chess.
//!
//! Either engine is a built-in player (this crate's searcher, `greedy`, `random`) or any
//! external engine that speaks the OpenTafl Engine Protocol (`otep:<command line>`). The host
//! referees every move with the library's rules: an illegal move, a crash, a critical error or
//! a missing answer loses the game, and a failed engine is started afresh for the next one.
//! The last line printed is always `A vs B: +W =D -L of N; score S; Elo E ± M`.
//!
//! ```text
//! tafl-match --a otep:target/release/tafl-engine --b greedy --variant tablut --games 10
//! ```
//!
//! See `tafl-match --help` and docs/tafl-match.md for every flag.

mod log;
mod openings;
mod options;
mod otep;
mod player;
mod processes;
mod record;
mod referee;
mod rng;
mod schedule;
mod spec;
mod stats;
mod turn;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tafl_engine::{Grid, Side};

use crate::log::GameLog;
use crate::openings::Opening;
use crate::options::Settings;
use crate::player::Player;
use crate::referee::{Ending, ForfeitKind, Played};
use crate::schedule::{GameOpening, Job, Schedule};
use crate::stats::{SprtDecision, Tally};

/// What a worker sends back after a game.
enum Report {
    Game {
        index: usize,
        variant: usize,
        a_side: Side,
        a_won: Option<bool>,
        termination: String,
        plies: usize,
        /// Whether A (`true`) or B forfeited, and how.
        forfeit: Option<(bool, ForfeitKind)>,
    },
    /// How often a worker's engines (A, B) have been restarted so far: sent after each game and
    /// at the end, so that a match stopped by a signal still counts them.
    Restarts { worker: usize, counts: [u32; 2] },
    /// The match cannot go on.
    Fatal(String),
}

/// Prints a line; a closed standard output must not stop the match.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Why the match cannot start.
enum SetupError {
    /// A usage mistake (exit 2) or `--help` (exit 0), as clap says.
    Usage(clap::Error),
    /// Something else: a file that cannot be read, no opening (exit 1).
    Failed(String),
}

/// What the match starts from.
struct Setup {
    settings: Settings,
    schedule: Schedule,
}

fn main() -> ExitCode {
    // Before anything that may wait (an openings file or a network file that is a FIFO, a
    // slow disk), so that a signal is honoured from the start.
    let signals = processes::watch_signals();
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let setup = match set_up_watched(args, &signals) {
        Ok(setup) => setup,
        Err(SetupError::Usage(error)) => error.exit(),
        Err(SetupError::Failed(message)) => {
            eprintln!("tafl-match: {message}");
            return ExitCode::FAILURE;
        }
    };
    match run(&setup.settings, setup.schedule, &signals) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tafl-match: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Sets the match up on a thread of its own while this one watches for signals: reading a file
/// can block for good (a FIFO nobody writes), and a signal must still end the program. Where no
/// thread can be started (a thread limit), the setup runs here.
fn set_up_watched(
    args: Vec<std::ffi::OsString>,
    signals: &AtomicUsize,
) -> Result<Setup, SetupError> {
    let (sender, result) = mpsc::channel();
    // Shared, not moved into the thread: a spawn that fails drops its closure, and the setup
    // then needs the arguments here.
    let shared = Arc::new(Mutex::new(Some(args)));
    let taken = Arc::clone(&shared);
    let spawned = std::thread::Builder::new()
        .name("setup".into())
        .spawn(move || {
            let args = take(&taken);
            let _ = sender.send(set_up(args));
        });
    if spawned.is_err() {
        return set_up(take(&shared));
    }
    loop {
        match result.recv_timeout(SIGNAL_POLL) {
            Ok(setup) => return setup,
            Err(RecvTimeoutError::Timeout) => {}
            // Not reached: the thread sends before it ends, unless it panicked.
            Err(RecvTimeoutError::Disconnected) => {
                return Err(SetupError::Failed("the setup failed".to_string()));
            }
        }
        let signal = signals.load(Ordering::Relaxed);
        if signal != 0 {
            let killed = processes::kill_all();
            eprintln!(
                "tafl-match: stopped by {} before the games started; {killed} engine process \
                 groups killed",
                processes::signal_name(signal)
            );
            std::process::exit(128 + i32::try_from(signal).unwrap_or(0));
        }
    }
}

/// The arguments, taken once.
fn take(args: &Mutex<Option<Vec<std::ffi::OsString>>>) -> Vec<std::ffi::OsString> {
    args.lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take()
        .unwrap_or_default()
}

/// Reads the command line, makes the output directories and reads the openings.
fn set_up(args: Vec<std::ffi::OsString>) -> Result<Setup, SetupError> {
    let settings = options::parse(args).map_err(SetupError::Usage)?;
    create_dir(settings.log.as_deref()).map_err(SetupError::Failed)?;
    create_dir(settings.records.as_deref()).map_err(SetupError::Failed)?;
    let text = match &settings.openings {
        Some(path) => Some(Arc::from(
            openings::read_file(path).map_err(SetupError::Failed)?,
        )),
        None => None,
    };
    let schedule = Schedule::new(&settings, text, &mut |warning| {
        eprintln!("tafl-match: {warning}")
    })
    .map_err(SetupError::Failed)?;
    Ok(Setup { settings, schedule })
}

fn create_dir(dir: Option<&Path>) -> Result<(), String> {
    match dir {
        Some(dir) => std::fs::create_dir_all(dir)
            .map_err(|error| format!("cannot create {}: {error}", dir.display())),
        None => Ok(()),
    }
}

fn run(settings: &Settings, schedule: Schedule, signals: &AtomicUsize) -> Result<(), String> {
    let games = schedule.total();
    let names: Vec<&str> = settings.variants.iter().map(|v| v.name()).collect();
    say(&format!(
        "tafl-match: A = {}, B = {}; {} games of {} ({} a variant); A {}, B {}; cap {} plies; \
         concurrency {}; seed {}",
        settings.a_name,
        settings.b_name,
        games,
        names.join(", "),
        settings.games,
        settings.a_time,
        settings.b_time,
        settings.max_plies,
        settings.concurrency,
        settings.seed
    ));

    let schedule = Mutex::new(schedule);
    let stop = AtomicBool::new(false);
    let (sender, reports) = mpsc::channel();
    let mut results = Results::new(settings);
    let mut fatal = None;
    std::thread::scope(|scope| {
        let wanted = settings.concurrency.min(games);
        let mut started = 0;
        let mut refused = None;
        for worker in 0..wanted {
            let sender = sender.clone();
            let (schedule, stop) = (&schedule, &stop);
            let spawned = std::thread::Builder::new()
                .name(format!("worker {worker}"))
                .spawn_scoped(scope, move || {
                    work(worker, settings, schedule, stop, &sender)
                });
            match spawned {
                Ok(_) => started += 1,
                Err(error) => {
                    // A thread limit (`ulimit -u`): play with the workers there are.
                    refused = Some(error);
                    break;
                }
            }
        }
        drop(sender);
        if let Some(error) = refused {
            if started == 0 {
                fatal = Some(format!(
                    "cannot start a thread to play the games: {error} (is the limit of \
                     processes and threads, ulimit -u, too low?)"
                ));
                return;
            }
            eprintln!(
                "tafl-match: only {started} of {wanted} workers could be started ({error}): \
                 playing {started} games at a time"
            );
        }
        loop {
            let signal = signals.load(Ordering::Relaxed);
            if signal != 0 {
                interrupted(signal, settings, &results);
            }
            let report = match reports.recv_timeout(SIGNAL_POLL) {
                Ok(report) => report,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            match report {
                Report::Fatal(message) => {
                    stop.store(true, Ordering::Relaxed);
                    fatal.get_or_insert(message);
                }
                Report::Restarts { worker, counts } => {
                    if results.restarts.len() <= worker {
                        results.restarts.resize(worker + 1, [0; 2]);
                    }
                    results.restarts[worker] = counts;
                }
                Report::Game {
                    index,
                    variant,
                    a_side,
                    a_won,
                    termination,
                    plies,
                    forfeit,
                } => {
                    results.add(variant, a_side, a_won, forfeit);
                    let total = &results.total;
                    if !settings.quiet {
                        let verdict = match a_won {
                            Some(true) => "A wins",
                            Some(false) => "B wins",
                            None => "draw",
                        };
                        let mut line = format!(
                            "game {}/{} {} A={a_side}: {verdict} ({termination}) in {plies} plies | \
                             {} {}",
                            index + 1,
                            games,
                            settings.variants[variant].name(),
                            total.wdl(),
                            total.elo_text()
                        );
                        if let Some(sprt) = &settings.sprt {
                            let (lower, upper) = sprt.bounds();
                            line.push_str(&format!(
                                " | LLR {:.2} ({lower:.2}, {upper:.2})",
                                sprt.llr(total)
                            ));
                        }
                        say(&line);
                    }
                    if let Some(sprt) = &settings.sprt {
                        let decision = sprt.decision(total);
                        if decision != SprtDecision::Continue && results.sprt_verdict.is_none() {
                            results.sprt_verdict = Some((decision, sprt.llr(total), total.games()));
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        }
    });
    if let Some(message) = fatal {
        return Err(message);
    }
    results.print(settings);
    Ok(())
}

/// How often the main thread looks for a signal while it waits for games.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// SIGINT, SIGTERM or SIGHUP came: kills every engine, says how far the match got, and exits
/// with 128 + the signal's number, as a shell reports a process a signal ended.
fn interrupted(signal: usize, settings: &Settings, results: &Results) -> ! {
    let killed = processes::kill_all();
    eprintln!(
        "tafl-match: stopped by {} after {} games; {killed} engine process groups killed",
        processes::signal_name(signal),
        results.total.games()
    );
    results.print(settings);
    std::process::exit(128 + i32::try_from(signal).unwrap_or(0))
}

/// The match's results so far.
struct Results {
    total: Tally,
    by_variant: Vec<Tally>,
    by_side: [Tally; 2],
    /// By engine (A, B), then by kind as `ForfeitKind::ALL` lists them.
    forfeits: [[u32; ForfeitKind::ALL.len()]; 2],
    /// By worker: its engines' restarts (A, B).
    restarts: Vec<[u32; 2]>,
    sprt_verdict: Option<(SprtDecision, f64, u32)>,
}

impl Results {
    fn new(settings: &Settings) -> Results {
        Results {
            total: Tally::default(),
            by_variant: vec![Tally::default(); settings.variants.len()],
            by_side: [Tally::default(); 2],
            forfeits: [[0; ForfeitKind::ALL.len()]; 2],
            restarts: Vec::new(),
            sprt_verdict: None,
        }
    }

    fn add(
        &mut self,
        variant: usize,
        a_side: Side,
        a_won: Option<bool>,
        forfeit: Option<(bool, ForfeitKind)>,
    ) {
        self.total.add(a_won);
        self.by_variant[variant].add(a_won);
        self.by_side[usize::from(a_side == Side::Defenders)].add(a_won);
        if let Some((by_a, kind)) = forfeit {
            let slot = ForfeitKind::ALL
                .iter()
                .position(|&k| k == kind)
                .unwrap_or(0);
            self.forfeits[usize::from(!by_a)][slot] += 1;
        }
    }

    /// The summary; its last line is always `A vs B: +W =D -L of N; ...`.
    fn print(&self, settings: &Settings) {
        for (variant, tally) in settings.variants.iter().zip(&self.by_variant) {
            if settings.variants.len() > 1 {
                say(&summary(variant.name(), tally));
            }
        }
        say(&summary("A as attackers", &self.by_side[0]));
        say(&summary("A as defenders", &self.by_side[1]));
        for (who, name) in [(0, "A"), (1, "B")] {
            let restarts: u32 = self.restarts.iter().map(|counts| counts[who]).sum();
            let counted: Vec<String> = ForfeitKind::ALL
                .iter()
                .zip(&self.forfeits[who])
                .filter(|(_, count)| **count > 0)
                .map(|(kind, count)| format!("{count} {}", kind.name()))
                .collect();
            if !counted.is_empty() || restarts > 0 {
                say(&format!(
                    "{name} lost games by forfeit: {} (restarted {} times)",
                    if counted.is_empty() {
                        "none".to_string()
                    } else {
                        counted.join(", ")
                    },
                    restarts
                ));
            }
        }
        let total = &self.total;
        if let Some(sprt) = &settings.sprt {
            let (lower, upper) = sprt.bounds();
            match self.sprt_verdict {
                Some((decision, llr, games)) => say(&format!(
                    "SPRT [{}, {}]: {} after {games} games (LLR {llr:.2}, bounds {lower:.2} {upper:.2})",
                    sprt.elo0,
                    sprt.elo1,
                    if decision == SprtDecision::AcceptH1 {
                        "H1 accepted"
                    } else {
                        "H0 accepted"
                    }
                )),
                None => say(&format!(
                    "SPRT [{}, {}]: no decision (LLR {:.2}, bounds {lower:.2} {upper:.2})",
                    sprt.elo0,
                    sprt.elo1,
                    sprt.llr(total)
                )),
            }
        }
        say(&format!(
            "{} vs {}: {} of {}; score {:.3}; {}",
            settings.a_name,
            settings.b_name,
            total.wdl(),
            total.games(),
            total.score(),
            total.elo_text()
        ));
    }
}

fn summary(label: &str, tally: &Tally) -> String {
    format!(
        "{label:<16} {} of {}; score {:.3}; {}",
        tally.wdl(),
        tally.games(),
        tally.score(),
        tally.elo_text()
    )
}

/// One worker: its own two players, playing jobs until none are left or the match stops.
fn work(
    worker: usize,
    settings: &Settings,
    schedule: &Mutex<Schedule>,
    stop: &AtomicBool,
    sender: &mpsc::Sender<Report>,
) {
    let seed = settings
        .seed
        .wrapping_mul(1_000_003)
        .wrapping_add(worker as u64);
    let mut a = Player::new(&settings.a, "A", worker, seed, settings);
    let mut b = Player::new(&settings.b, "B", worker, seed ^ 0x5555, settings);
    while !stop.load(Ordering::Relaxed) {
        // A worker that panicked while holding the lock left the schedule whole.
        let next = schedule
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .next_game();
        let (job, opening) = match next {
            None => break,
            Some(Ok(next)) => next,
            Some(Err(message)) => {
                let _ = sender.send(Report::Fatal(message));
                return;
            }
        };
        let job = &job;
        let mut log = match &settings.log {
            Some(dir) => GameLog::create(&dir.join(format!("game-{:04}.log", job.index + 1))),
            None => GameLog::none(),
        };
        // The game's one choice of grid: from here on its code is generic.
        let played = match &opening {
            GameOpening::Narrow(opening) => {
                play_job(opening, job, &mut a, &mut b, settings, &mut log)
            }
            GameOpening::Wide(opening) => {
                play_job(opening, job, &mut a, &mut b, settings, &mut log)
            }
        };
        log.flush();
        let forfeit = match &played.ending {
            Ending::Forfeit { loser, kind, why } => {
                let by_a = *loser == job.a_side;
                let player = if by_a { &a } else { &b };
                if *kind == ForfeitKind::Start && !player.ever_started() {
                    let _ = sender.send(Report::Fatal(format!(
                        "engine {} ({}) cannot be started: {why}",
                        if by_a { "A" } else { "B" },
                        if by_a { &settings.a } else { &settings.b }
                    )));
                    return;
                }
                Some((by_a, *kind))
            }
            _ => None,
        };
        if let (Some(dir), Some(text)) = (&settings.records, &played.record) {
            write_record(dir, job, text);
        }
        let report = Report::Game {
            index: job.index,
            variant: job.variant,
            a_side: job.a_side,
            a_won: played.a_won,
            termination: played.termination,
            plies: played.plies,
            forfeit,
        };
        let restarts = Report::Restarts {
            worker,
            counts: [a.restarts(), b.restarts()],
        };
        if sender.send(report).is_err() || sender.send(restarts).is_err() {
            return;
        }
    }
    let _ = sender.send(Report::Restarts {
        worker,
        counts: [a.restarts(), b.restarts()],
    });
}

/// What the match keeps of a game once it is played, whatever its grid.
struct GameDone {
    ending: Ending,
    a_won: Option<bool>,
    termination: String,
    plies: usize,
    /// Its game record, with `--records`.
    record: Option<String>,
}

/// Plays one job's game from `opening`, on the opening's grid.
fn play_job<B: Grid>(
    opening: &Opening<B>,
    job: &Job,
    a: &mut Player,
    b: &mut Player,
    settings: &Settings,
    log: &mut GameLog,
) -> GameDone {
    let played = referee::play_game(opening, job.a_side, a, b, settings, log);
    GameDone {
        a_won: played.a_won(),
        termination: played.termination(),
        plies: played.game.moves().len(),
        record: settings
            .records
            .as_ref()
            .map(|_| game_record(job, opening, &played, settings)),
        ending: played.ending,
    }
}

/// The game record of a job's game.
fn game_record<B: Grid>(
    job: &Job,
    opening: &Opening<B>,
    played: &Played<B>,
    settings: &Settings,
) -> String {
    let (attackers, defenders) = match job.a_side {
        Side::Attackers => (&settings.a_name, &settings.b_name),
        Side::Defenders => (&settings.b_name, &settings.a_name),
    };
    let (attackers_time, defenders_time) = match job.a_side {
        Side::Attackers => (settings.a_time, settings.b_time),
        Side::Defenders => (settings.b_time, settings.a_time),
    };
    let info = record::RecordInfo {
        round: job.index + 1,
        variant: settings.variants[job.variant].name(),
        attackers,
        defenders,
        attackers_time: attackers_time.record_tag(),
        defenders_time: defenders_time.record_tag(),
    };
    record::game_record(opening, played, &info)
}

fn write_record(dir: &Path, job: &Job, text: &str) {
    let path = dir.join(format!("game-{:04}.otg", job.index + 1));
    if let Err(error) = std::fs::write(&path, text) {
        eprintln!("tafl-match: cannot write {}: {error}", path.display());
    }
}
