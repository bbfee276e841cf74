//! Perft from a game's start position: per-depth counts, time and leaves per second.
//!
//! ```text
//! cargo run --release --example perft -- tablut 5
//! cargo run --release --example perft -- tawlbwrdd 6 --threads 2
//! cargo run --release --example perft -- tablut 5 --no-bulk --only
//! ```
//!
//! Options: `--threads N` splits the root moves over N threads; `--no-bulk` plays every leaf
//! instead of counting the last ply; `--only` runs the given depth alone instead of 1..=depth.
//! Runs of the deepest depths print a progress line on stderr as root moves finish.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use tafl_engine::{Variant, perft};

struct Options {
    variant: Variant,
    depth: u32,
    threads: usize,
    bulk: bool,
    only: bool,
}

const USAGE: &str = "usage: perft <tablut|tawlbwrdd> <depth> [--threads N] [--no-bulk] [--only]";

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
    let variant = Variant::by_name(game).ok_or_else(|| format!("unknown game {game}"))?;
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

/// Runs longer than this print progress on stderr.
const PROGRESS_AFTER: Duration = Duration::from_secs(2);

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
        let began = Instant::now();
        let progress = |done: usize, total: usize| {
            let elapsed = began.elapsed();
            if elapsed >= PROGRESS_AFTER {
                eprintln!(
                    "  depth {depth}: {done}/{total} root moves done, {:.1} s",
                    elapsed.as_secs_f64()
                );
            }
        };
        let leaves = if options.bulk {
            perft::perft_parallel_with_progress(&start, depth, options.threads, progress)
        } else {
            perft::perft_without_bulk(&start, depth)
        };
        let seconds = began.elapsed().as_secs_f64();
        println!(
            "perft {depth}: {leaves:>15} leaves  {seconds:>9.3} s  {:>9.1} M leaves/s",
            leaves as f64 / seconds.max(1e-9) / 1e6
        );
    }
    ExitCode::SUCCESS
}
