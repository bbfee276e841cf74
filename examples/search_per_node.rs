//! The search's cost a node, for counting instructions: one thread searches eight seeded
//! middlegames (20 random plies, as `benches/custom_rules.rs`) of a game to a fixed depth, each
//! from an emptied table, and prints the nodes searched. Run under callgrind at two depths, the
//! difference of the instructions over the difference of the nodes is the search's cost a node,
//! the setting up (the middlegames, the table) left out; it compares games without the
//! machine's load (docs/performance.md, "The custom-rules path"):
//!
//! ```text
//! cargo build --release --example search_per_node
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/search_per_node copenhagen 6     (and the same with depth 1)
//! ```

#[path = "../tests/common/seeded.rs"]
mod seeded;

use std::process::ExitCode;

use tafl_engine::search::{Limits, SearchConfig, Searcher};
use tafl_engine::{Game, Variant};

/// Random plies from the start to each middlegame, as the benchmark's.
const MIDDLEGAME_PLIES: usize = 20;

/// Seeded middlegames searched: eight, those not already over.
const MIDDLEGAMES: u64 = 8;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(name), Some(depth)) = (args.first(), args.get(1)) else {
        eprintln!("usage: search_per_node GAME DEPTH   (GAME: Variant::names, up to 11x11)");
        return ExitCode::from(2);
    };
    let Some(variant) = Variant::by_name(name) else {
        eprintln!("search_per_node: no game named '{name}'");
        return ExitCode::from(2);
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("search_per_node: the depth must be a number, not '{depth}'");
        return ExitCode::from(2);
    };
    let games: Vec<Game> = (1..=MIDDLEGAMES)
        .map(|seed| seeded::middlegame(&variant, MIDDLEGAME_PLIES, 0x9E37_79B9 * seed))
        .filter(|game| game.outcome().is_none())
        .collect();
    let mut searcher = Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: 64,
    });
    let mut nodes = 0;
    for game in &games {
        searcher.clear();
        nodes += searcher.search(game, &Limits::depth(depth), |_| {}).nodes;
    }
    println!(
        "{name}: depth {depth} on {} middlegames, {nodes} nodes",
        games.len()
    );
    ExitCode::SUCCESS
}
