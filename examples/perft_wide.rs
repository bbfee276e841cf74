//! Perft of a rules string read for the wide grid (boards up to 19x19, docs/wide-boards.md):
//! per-depth counts, time and leaves per second. With `--narrow-too`, a string of a board up to
//! 11x11 is also counted on the narrow grid, one after the other in the same run, for the ratio.
//!
//! ```text
//! cargo run --release --example perft_wide -- "dim:13 name:Sea_Battle_(Parlett) ... start:/.../" 3
//! cargo run --release --example perft_wide -- "$(tafl-engine's Copenhagen string)" 3 --narrow-too
//! ```

use std::process::ExitCode;
use std::time::Instant;

use tafl_engine::{Grid, Position, Variant, Wide, perft};

/// Counts depths 1 to `depth` from `start`, one line each; returns the total time in seconds.
fn count<B: Grid>(label: &str, start: &Position<B>, depth: u32) -> f64 {
    let mut total = 0.0;
    for d in 1..=depth {
        let began = Instant::now();
        let leaves = perft::perft(start, d);
        let seconds = began.elapsed().as_secs_f64();
        total += seconds;
        println!(
            "{label} perft {d}: {leaves} leaves in {seconds:.3} s ({:.0} leaves/s)",
            leaves as f64 / seconds.max(1e-9)
        );
    }
    total
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(rules), Some(depth)) = (args.first(), args.get(1)) else {
        eprintln!("usage: perft_wide <rules string> <depth> [--narrow-too]");
        return ExitCode::from(2);
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("depth {depth}: not a number");
        return ExitCode::from(2);
    };
    let wide: Variant<Wide> = match rules.parse() {
        Ok(variant) => variant,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
    };
    let wide_seconds = count("wide", &wide.start(), depth);
    if args.iter().any(|arg| arg == "--narrow-too") {
        match rules.parse::<Variant>() {
            Ok(narrow) => {
                let narrow_seconds = count("narrow", &narrow.start(), depth);
                println!(
                    "wide/narrow time: {:.2}",
                    wide_seconds / narrow_seconds.max(1e-9)
                );
            }
            Err(error) => eprintln!("not counted on the narrow grid: {error}"),
        }
    }
    ExitCode::SUCCESS
}
