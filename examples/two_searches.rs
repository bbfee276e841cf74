//! Two searches on two threads at once: each thread owns its game and its `Searcher` (a
//! searcher is `Send`; `AnyGame` is `Send` and `Clone`), and the main thread collects both
//! results. Any two games by name or rules string.
//!
//! ```text
//! cargo run --release --example two_searches -- tablut copenhagen 5
//! ```

use std::process::ExitCode;
use std::thread;

use tafl_engine::prelude::*;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names = [
        args.first().map_or("tablut", String::as_str),
        args.get(1)
            .map_or("hnefatafl-org-copenhagen-13", String::as_str),
    ];
    let depth = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(4);
    let mut games = Vec::new();
    for name in names {
        match AnyGame::from_name_or_rules(name) {
            Ok(game) => games.push(game),
            Err(error) => {
                eprintln!("two_searches: {error}");
                return ExitCode::from(2);
            }
        }
    }
    let handles: Vec<_> = games
        .into_iter()
        .map(|game| {
            thread::spawn(move || {
                let mut searcher = Searcher::new(SearchConfig {
                    hash_mb: 8,
                    ..SearchConfig::default()
                });
                let result = game.search(&mut searcher, &Limits::depth(depth));
                (game.variant().name().to_string(), result)
            })
        })
        .collect();
    for handle in handles {
        // A search thread panics only on a bug of the library: pass it on.
        let (name, result) = handle.join().expect("a search thread panicked");
        let best = result
            .best_move
            .map_or("none".to_string(), |m| m.to_string());
        println!(
            "{name}: best {best}, score {}, depth {}, {} nodes",
            result.score, result.depth, result.nodes
        );
    }
    ExitCode::SUCCESS
}
