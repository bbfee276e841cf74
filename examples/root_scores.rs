//! What a score for every root move costs: one search of the start of Tablut and of
//! Copenhagen, multi-PV over every legal move, and `Searcher::root_scores`, each at the same
//! depth, single-threaded, the median of five runs from a new searcher (docs/python.md,
//! "Policy targets").
//!
//! ```text
//! cargo run --release --example root_scores [hash_mb]
//! ```

use std::time::{Duration, Instant};

use tafl_engine::search::{Limits, SearchConfig, Searcher};
use tafl_engine::{Game, Variant};

/// The median time of five runs of `run`, each with a new searcher.
fn median(hash_mb: usize, mut run: impl FnMut(&mut Searcher)) -> Duration {
    let mut times: Vec<Duration> = (0..5)
        .map(|_| {
            let mut searcher = Searcher::new(SearchConfig {
                threads: 1,
                hash_mb,
            });
            let began = Instant::now();
            run(&mut searcher);
            began.elapsed()
        })
        .collect();
    times.sort();
    times[2]
}

fn main() {
    let hash_mb = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(1);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    for (name, variant, depths) in [
        ("tablut", Variant::tablut(), 3..=5),
        ("copenhagen", Variant::copenhagen(), 3..=4),
    ] {
        let game = Game::new(&variant);
        let moves = game.legal_moves().len();
        for depth in depths {
            let limits = Limits::depth(depth);
            let one = median(hash_mb, |s| {
                s.search(&game, &limits, |_| {});
            });
            let all_lines = median(hash_mb, |s| {
                s.search_multi_pv(&game, &limits, moves, |_| {});
            });
            let root = median(hash_mb, |s| {
                s.root_scores(&game, &limits);
            });
            println!(
                "{name} depth {depth} ({moves} moves, hash {hash_mb} MiB): search {:.1} ms, \
                 multi-PV of every move {:.1} ms ({:.0}x), root_scores {:.1} ms ({:.0}x)",
                ms(one),
                ms(all_lines),
                ms(all_lines) / ms(one),
                ms(root),
                ms(root) / ms(one),
            );
        }
    }
}
