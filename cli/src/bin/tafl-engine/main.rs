//! `tafl-engine`: the engine as a program that a tafl GUI (OpenTafl) drives over stdin and
//! stdout. See docs/protocol.md; the work is done in `tafl_engine::protocol`.
//!
//! `tafl-engine perft <game> <depth>` counts move paths for scripts and exits.
//! `tafl-engine tablut-challenge <white|black> ...` instead plays one game in the Tablut
//! Challenge's server over TCP: see `challenge` and docs/tablut-challenge.md.
//! `tafl-engine hnefatafl-org ...` plays on a hnefatafl.org server as a bot account: see
//! `hnefatafl_org` and docs/hnefatafl-org.md.

mod challenge;
mod hnefatafl_org;
mod remote;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tafl_engine::protocol::{Evaluation, Session, SessionOptions, run_stdio_watching};
use tafl_engine::search::MAX_DRAW_COST;
use tafl_engine::search::nnue::Network;

/// The engine: speaks the OpenTafl Engine Protocol (and commands for people and scripts) on
/// stdin and stdout. Type `help` once it runs, or let an OTEP host (OpenTafl) talk to it.
#[derive(Debug, Parser)]
#[command(name = "tafl-engine", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(flatten)]
    engine: EngineOptions,
    #[command(subcommand)]
    command: Option<Program>,
}

/// The engine's settings on the protocol (docs/protocol.md, "Command line").
#[derive(Debug, Args)]
struct EngineOptions {
    /// Transposition table size in MiB [default: 64]
    #[arg(long, value_name = "MiB", value_parser = clap::value_parser!(u64).range(1..=65_536))]
    hash: Option<u64>,
    /// Search threads, also the threads perft and divide share their first moves over
    /// [default: 1]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Time per move in ms when the host sends no clock, and for `go` without limits
    /// [default: 5000]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: Option<u64>,
    /// Stop every search at this depth (plies): reproducible games, and weaker play [default:
    /// no limit]
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=128))]
    depth: Option<u32>,
    /// What a draw costs the engine, in hundredths of a soldier: 0 (a draw is even) to 1500
    /// (play on unless lost) [default: 1500]
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = clap::value_parser!(i32).range(0..=i64::from(MAX_DRAW_COST)))]
    contempt: Option<i32>,
    /// built-in: the learned evaluation where the game has a network (Tablut, Tawlbwrdd, the
    /// 7x7 and the corner-escape 11x11 games; `show` says which plays), else the hand-written
    /// one; hand-written: the hand-written one everywhere
    #[arg(long, value_enum, default_value_t = EvalChoice::BuiltIn)]
    eval: EvalChoice,
    /// Evaluate every game with this network file (docs/nnue.md)
    #[arg(long, value_name = "FILE", conflicts_with = "eval")]
    network: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EvalChoice {
    BuiltIn,
    HandWritten,
}

#[derive(Debug, Subcommand)]
enum Program {
    /// Count move paths from a game's start (or a position) and exit: the protocol's `perft`
    /// and `divide` lines
    Perft(PerftArgs),
    /// Play one game in the Tablut Challenge's server (docs/tablut-challenge.md; its options:
    /// `tafl-engine tablut-challenge --help`)
    #[command(disable_help_flag = true)]
    TablutChallenge {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
    /// Play on a hnefatafl.org server as a bot account (docs/hnefatafl-org.md; its options:
    /// `tafl-engine hnefatafl-org --help`)
    #[command(disable_help_flag = true)]
    HnefataflOrg {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
}

/// `tafl-engine perft`: what `rules`, `position`, `side` and `perft` (or `divide`) print on the
/// protocol, for scripts.
#[derive(Debug, Args)]
struct PerftArgs {
    /// A game's name (`tablut`, `copenhagen`, ...: the protocol's `help` lists them) or a whole
    /// OpenTafl rules string, quoted
    game: String,
    /// Plies to count, 0 to 12
    #[arg(value_parser = clap::value_parser!(u32).range(0..=12))]
    depth: u32,
    /// Print each first move's count too (`divide`), before the total
    #[arg(long)]
    divide: bool,
    /// Threads to share the first moves over [default: 1]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Count from this position record (`/3ttt3/...`) instead of the game's start
    #[arg(long, value_name = "RECORD")]
    position: Option<String>,
    /// The side to move in that position
    #[arg(long, value_enum)]
    side: Option<SideChoice>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SideChoice {
    Attackers,
    Defenders,
}

impl EngineOptions {
    /// The session's options; `Err` holds the message for stderr (a network file that cannot
    /// be read).
    fn session_options(&self) -> Result<SessionOptions, String> {
        let mut options = SessionOptions::default();
        if let Some(hash) = self.hash {
            options.hash_mb = hash as usize;
        }
        if let Some(threads) = self.threads {
            options.threads = threads as usize;
        }
        if let Some(movetime) = self.movetime {
            options.default_move_time = Duration::from_millis(movetime);
        }
        options.max_search_depth = self.depth;
        if let Some(contempt) = self.contempt {
            options.contempt = contempt;
        }
        options.evaluation = match (&self.network, self.eval) {
            // Read with a size limit: `--network /dev/zero` is refused, not read whole.
            (Some(path), _) => Evaluation::Network(Arc::new(
                Network::from_file(path).map_err(|e| format!("--network {e}"))?,
            )),
            (None, EvalChoice::BuiltIn) => Evaluation::BuiltIn,
            (None, EvalChoice::HandWritten) => Evaluation::HandWritten,
        };
        Ok(options)
    }
}

/// Runs `tafl-engine perft`: the same session the protocol runs, fed the lines a script would
/// send. A refused game, position or side is an error on stderr and exit status 2.
fn perft(args: &PerftArgs) -> ExitCode {
    let options = SessionOptions {
        // A count needs no table.
        hash_mb: 1,
        threads: args.threads.map_or(1, |n| n as usize),
        ..SessionOptions::default()
    };
    let mut session = Session::new(options);
    let mut lines = vec![format!("rules {}", args.game)];
    lines.extend(
        args.position
            .iter()
            .map(|record| format!("position {record}")),
    );
    lines.extend(args.side.map(|side| match side {
        SideChoice::Attackers => "side attackers".to_string(),
        SideChoice::Defenders => "side defenders".to_string(),
    }));
    let command = if args.divide { "divide" } else { "perft" };
    lines.push(format!("{command} {}", args.depth));
    for line in &lines {
        let mut refused = None;
        session.handle_line(line, &mut |reply| {
            if reply.starts_with("error ") {
                refused.get_or_insert(reply);
            } else {
                println!("{reply}");
            }
        });
        if let Some(error) = refused {
            eprintln!("tafl-engine perft: {error}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// Whether nobody reads the engine's output any more: `poll` reports an error or a hang-up on
/// it once the reader of a pipe or socket has closed its end.
#[cfg(unix)]
fn output_closed() -> bool {
    use rustix::event::{PollFd, PollFlags, poll};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    let zero = rustix::event::Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    match poll(&mut fds, Some(&zero)) {
        Ok(_) => fds[0]
            .revents()
            .intersects(PollFlags::ERR | PollFlags::HUP | PollFlags::NVAL),
        Err(_) => false,
    }
}

/// A panic prints its message and place on stderr, without a backtrace: under a memory limit
/// (`ulimit -v`) a thread may fail to start inside the standard library, and printing a
/// backtrace of that panic needs memory too; running out there hangs the program on the
/// standard library's backtrace lock instead of ending the thread. The worker catches a
/// search's panic and answers with a legal move (docs/protocol.md).
fn print_panics_without_backtrace() {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("tafl-engine: {info}");
    }));
}

fn main() -> ExitCode {
    print_panics_without_backtrace();
    let mut args: Vec<OsString> = std::env::args_os().collect();
    // OpenTafl passes an empty argument when its .ini has no `arguments`: the engine's options
    // skip empty ones. A subcommand's are its own (`--password ""` is a password).
    let subcommand = args
        .get(1)
        .and_then(|first| first.to_str())
        .is_some_and(|first| {
            ["perft", "tablut-challenge", "hnefatafl-org", "help"].contains(&first)
        });
    if !subcommand {
        args.retain(|arg| !arg.to_string_lossy().trim().is_empty());
    }
    let cli = Cli::parse_from(args);
    match cli.command {
        Some(Program::Perft(args)) => perft(&args),
        Some(Program::TablutChallenge { args }) => exit_code(challenge::main(&args)),
        Some(Program::HnefataflOrg { args }) => exit_code(hnefatafl_org::main(&args)),
        None => match cli.engine.session_options() {
            Ok(options) => {
                #[cfg(unix)]
                let watch: Option<fn() -> bool> = Some(output_closed);
                #[cfg(not(unix))]
                let watch: Option<fn() -> bool> = None;
                run_stdio_watching(options, watch)
            }
            Err(message) => {
                eprintln!("tafl-engine: {message}");
                ExitCode::from(2)
            }
        },
    }
}

/// A client's exit status as the process's.
fn exit_code(status: i32) -> ExitCode {
    ExitCode::from(u8::try_from(status).unwrap_or(1))
}
