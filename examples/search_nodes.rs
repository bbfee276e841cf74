//! A search with a node limit, by default on a 13x13 board (hnefatafl.org's Copenhagen 13x13):
//! any game by name or rules string, the best move, its score and the principal variation.
//!
//! ```text
//! cargo run --release --example search_nodes -- hnefatafl-org-copenhagen-13 200000
//! ```

use std::process::ExitCode;

use tafl_engine::prelude::*;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args
        .first()
        .map_or("hnefatafl-org-copenhagen-13", String::as_str);
    let nodes = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let game = match AnyGame::from_name_or_rules(name) {
        Ok(game) => game,
        Err(error) => {
            eprintln!("search_nodes: {error}");
            return ExitCode::from(2);
        }
    };
    let mut searcher = Searcher::new(SearchConfig {
        hash_mb: 16,
        ..SearchConfig::default()
    });
    let result = game.search(&mut searcher, &Limits::nodes(nodes));
    let pv: Vec<String> = result.pv.iter().map(|m| m.to_string()).collect();
    match result.best_move {
        Some(m) => println!(
            "{}x{}: best {m}, score {}, depth {}, {} nodes (limit {nodes}), pv {}",
            game.size(),
            game.size(),
            result.score,
            result.depth,
            result.nodes,
            pv.join(" ")
        ),
        None => println!("the game is over: {:?}", game.outcome()),
    }
    ExitCode::SUCCESS
}
