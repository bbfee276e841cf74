//! A perft runner for any game: per-depth counts of the game named or given as a rules string,
//! with the time and leaves per second, through `AnyGame` (no grid named).
//!
//! ```text
//! cargo run --release --example perft_any -- tablut 4
//! cargo run --release --example perft_any -- hnefatafl-org-copenhagen-13 3
//! cargo run --release --example perft_any -- "dim:7 name:Brandubh ... start:/.../" 4
//! ```

use std::process::ExitCode;
use std::time::Instant;

use tafl_engine::AnyGame;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(game), Some(depth)) = (args.first(), args.get(1)) else {
        eprintln!("usage: perft_any GAME|RULES DEPTH");
        return ExitCode::from(2);
    };
    let game = match AnyGame::from_name_or_rules(game) {
        Ok(game) => game,
        Err(error) => {
            eprintln!("perft_any: {error}");
            return ExitCode::from(2);
        }
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("perft_any: the depth must be a number, not '{depth}'");
        return ExitCode::from(2);
    };
    println!(
        "{} ({}x{})",
        game.variant().name(),
        game.size(),
        game.size()
    );
    for d in 1..=depth {
        let start = Instant::now();
        let count = game.perft(d);
        let seconds = start.elapsed().as_secs_f64();
        let rate = count as f64 / seconds.max(1e-9) / 1e6;
        println!("perft({d}) = {count}  {seconds:.3} s  {rate:.1} M leaves/s");
    }
    ExitCode::SUCCESS
}
