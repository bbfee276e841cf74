//! Perft from a game's start position: per-depth counts, time and leaves per second.
//!
//! ```text
//! cargo run --release --example perft -- tablut 5
//! cargo run --release --example perft -- tawlbwrdd 6 --threads 2
//! cargo run --release --example perft -- tablut 5 --no-bulk --only
//! cargo run --release --example perft -- "dim:9 esc:e surf:n ... start:/3ttt3/.../" 4
//! ```
//!
//! Options: `--threads N` splits the root moves over N threads; `--no-bulk` plays every leaf
//! instead of counting the last ply; `--only` runs the given depth alone instead of 1..=depth.
//! Runs of the deepest depths print a progress line on stderr as root moves finish.

use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tafl_engine::{Variant, perft};

struct Options {
    variant: Variant,
    depth: u32,
    threads: usize,
    bulk: bool,
    only: bool,
}

const USAGE: &str = "usage: perft <game: tablut, copenhagen, ... (Variant::names), or a rules string> <depth> [--threads N] [--no-bulk] [--only]";

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut positional = Vec::new();
    let mut threads = 1;
    let mut bulk = true;
    let mut only = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => {
                let value = args.next().ok_or("--threads needs a number")?;
                threads = value
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| format!("--threads {value}: not a positive number"))?;
            }
            "--no-bulk" => bulk = false,
            "--only" => only = true,
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => positional.push(arg),
        }
    }
    if !bulk && threads > 1 {
        return Err("--no-bulk runs on one thread only".to_string());
    }
    let [game, depth] = positional.as_slice() else {
        return Err("expected a game and a depth".to_string());
    };
    // A name, or a rules string (up to 11x11) in one argument.
    let variant = match Variant::by_name(game) {
        Some(variant) => variant,
        None if game.contains(':') => game
            .parse()
            .map_err(|error| format!("rules string {game}: {error}"))?,
        None => return Err(format!("unknown game {game}")),
    };
    let depth = depth
        .parse()
        .map_err(|_| format!("depth {depth}: not a number"))?;
    Ok(Options {
        variant,
        depth,
        threads,
        bulk,
        only,
    })
}

/// The processor time this process has used so far, where the system says (Linux: user and
/// system time in `/proc/self/stat`, in clock ticks of 1/100 s). On a shared machine, wall time
/// also counts the time other programs held the processor; this does not.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces): utime and
    // stime are the 12th and 13th.
    let after_name = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Runs longer than this print progress on stderr.
const PROGRESS_AFTER: Duration = Duration::from_secs(5);

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    let start = options.variant.start();
    println!(
        "{} perft, {} thread(s), {}",
        options.variant.name(),
        options.threads,
        if options.bulk {
            "bulk counting"
        } else {
            "every leaf played"
        }
    );
    let first = if options.only { options.depth } else { 1 };
    for depth in first..=options.depth {
        let cpu_before = cpu_seconds();
        let began = Instant::now();
        // One progress line every PROGRESS_AFTER at most, once the run has taken that long.
        let last_report = Mutex::new(began);
        let progress = |done: usize, total: usize| {
            let Ok(mut last) = last_report.lock() else {
                return;
            };
            if last.elapsed() >= PROGRESS_AFTER {
                *last = Instant::now();
                eprintln!(
                    "  depth {depth}: {done}/{total} root moves done, {:.1} s",
                    began.elapsed().as_secs_f64()
                );
            }
        };
        let leaves = if options.bulk {
            perft::perft_parallel_with_progress(&start, depth, options.threads, progress)
        } else {
            perft::perft_without_bulk(&start, depth)
        };
        let seconds = began.elapsed().as_secs_f64();
        let cpu = cpu_seconds()
            .zip(cpu_before)
            .map(|(now, before)| format!("  (cpu {:.3} s)", now - before))
            .unwrap_or_default();
        println!(
            "perft {depth}: {leaves:>15} leaves  {seconds:>9.3} s  {:>9.1} M leaves/s{cpu}",
            leaves as f64 / seconds.max(1e-9) / 1e6
        );
    }
    ExitCode::SUCCESS
}
