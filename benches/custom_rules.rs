//! The custom-rules path beside the classic one, like for like: Copenhagen (OpenTafl's rules
//! string, played by the custom code: corner escape, throne and corners restricted and hostile,
//! strong king, shieldwalls, edge forts, encirclement) and Tawlbwrdd (this project's classic
//! rules, R1-R18), both 11x11, measured in the same run.
//!
//! `cargo bench --bench custom_rules` prints the figures docs/performance.md quotes, then runs
//! the criterion benchmarks: perft with every leaf played, depth 3, from the start and from a
//! seeded middlegame (throughput in leaves), and a search to depth 6 on four seeded middlegames
//! (throughput in nodes, so criterion prints nodes per second).
//! `cargo bench --bench custom_rules -- --quick-figures` prints only the figures: the median of
//! five runs of each game, the two games run by turns, and the ratio of the medians.

#[path = "../tests/common/seeded.rs"]
mod seeded;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use seeded::middlegame;
use tafl_engine::search::{Limits, SearchConfig, Searcher};
use tafl_engine::{Game, Position, Variant, perft};

/// Random plies from the start to each middlegame: the king is out among the pieces in both.
const MIDDLEGAME_PLIES: usize = 20;

/// The search depth of the search benchmarks.
const SEARCH_DEPTH: u32 = 6;

/// The custom-rules game and its classic counterpart, each with its name.
fn games() -> [(&'static str, Variant); 2] {
    [
        ("copenhagen", Variant::copenhagen()),
        ("tawlbwrdd", Variant::tawlbwrdd()),
    ]
}

/// Four seeded middlegames of `variant` (those not already over).
fn middlegames(variant: &Variant) -> Vec<Game> {
    (1..=4)
        .map(|seed| middlegame(variant, MIDDLEGAME_PLIES, 0x9E37_79B9 * seed))
        .filter(|game| game.outcome().is_none())
        .collect()
}

/// The position of the first seeded middlegame.
fn middlegame_position(variant: &Variant) -> Position {
    *middlegame(variant, MIDDLEGAME_PLIES, 0x9E37_79B9).position()
}

fn searcher() -> Searcher {
    Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: 64,
    })
}

/// Searches each game to `depth` from an emptied table; returns the nodes and the time spent
/// searching (the emptying is not timed).
fn search_all(searcher: &mut Searcher, games: &[Game], depth: u32) -> (u64, Duration) {
    let (mut nodes, mut elapsed) = (0, Duration::ZERO);
    for game in games {
        searcher.clear();
        let start = Instant::now();
        let result = searcher.search(game, &Limits::depth(depth), |_| {});
        elapsed += start.elapsed();
        nodes += black_box(result).nodes;
    }
    (nodes, elapsed)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Runs `measure` (which returns items done and the time taken) five times for each game, the
/// games by turns, and prints each game's median rate and the ratio of the classic game's to the
/// custom game's.
fn compare(what: &str, unit: &str, mut measure: impl FnMut(usize) -> (u64, Duration)) {
    const RUNS: usize = 5;
    let mut rates = [Vec::new(), Vec::new()];
    for _ in 0..RUNS {
        for (index, rates) in rates.iter_mut().enumerate() {
            let (items, elapsed) = measure(index);
            rates.push(items as f64 / elapsed.as_secs_f64() / 1e6);
        }
    }
    let [custom, classic] = rates.map(median);
    let names = games().map(|(name, _)| name);
    println!(
        "{what}: {} {custom:.2} M {unit}/s, {} {classic:.2} M {unit}/s \
         (medians of {RUNS} runs by turns): classic / custom = {:.2}",
        names[0],
        names[1],
        classic / custom
    );
}

fn figures() {
    let variants = games().map(|(_, variant)| variant);
    let starts = variants.clone().map(|variant| variant.start());
    compare(
        "perft 4 from the start, every leaf played",
        "leaves",
        |index| {
            let start = Instant::now();
            let leaves = perft::perft_without_bulk(&starts[index], 4);
            (leaves, start.elapsed())
        },
    );
    let middle = variants
        .clone()
        .map(|variant| middlegame_position(&variant));
    compare(
        &format!("perft 3 from a middlegame ({MIDDLEGAME_PLIES} plies), every leaf played"),
        "leaves",
        |index| {
            let start = Instant::now();
            let leaves = perft::perft_without_bulk(&middle[index], 3);
            (leaves, start.elapsed())
        },
    );
    let games = variants.map(|variant| middlegames(&variant));
    let mut searchers = [searcher(), searcher()];
    compare(
        &format!(
            "search to depth {SEARCH_DEPTH} on 4 middlegames ({MIDDLEGAME_PLIES} plies), one thread"
        ),
        "nodes",
        |index| search_all(&mut searchers[index], &games[index], SEARCH_DEPTH),
    );
}

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("custom_rules/perft_3_every_leaf");
    for (name, variant) in games() {
        for (place, position) in [
            ("start", variant.start()),
            ("middlegame", middlegame_position(&variant)),
        ] {
            group.throughput(Throughput::Elements(perft::perft(&position, 3)));
            group.bench_with_input(BenchmarkId::new(name, place), &position, |b, position| {
                b.iter(|| perft::perft_without_bulk(black_box(position), 3))
            });
        }
    }
    group.finish();
}

fn search_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("custom_rules/search_depth_{SEARCH_DEPTH}"));
    group.sample_size(10);
    for (name, variant) in games() {
        let games = middlegames(&variant);
        let mut searcher = searcher();
        // One thread from an emptied table: the same nodes every time.
        let (nodes, _) = search_all(&mut searcher, &games, SEARCH_DEPTH);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new(name, "4 middlegames"), |b| {
            b.iter_custom(|iterations| {
                (0..iterations)
                    .map(|_| search_all(&mut searcher, &games, SEARCH_DEPTH).1)
                    .sum()
            })
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = perft_benches, search_benches
}

fn main() {
    figures();
    if std::env::args().any(|arg| arg == "--quick-figures") {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
