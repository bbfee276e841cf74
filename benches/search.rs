//! Search benchmarks: nodes per second on middlegames of Tablut and Tawlbwrdd and of two games
//! under custom rules (OpenTafl's Tablut and Copenhagen), the tactics suite at one second a
//! position, and the speed-up of two threads.
//!
//! `cargo bench --bench search` prints the figures quoted in docs/search.md before criterion's
//! own timings. `cargo bench --bench search -- --quick-figures` prints only the figures.

#[path = "../tests/common/blocks.rs"]
mod blocks;
#[path = "../tests/common/seeded.rs"]
mod seeded;
#[path = "../tests/common/tactics.rs"]
mod tactics;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use seeded::middlegame;
use tafl_engine::search::{Limits, SearchConfig, Searcher};
use tafl_engine::{Game, Variant};

/// Four middlegames after seeded random plies: 16, or 30 on Copenhagen's 11x11 board with
/// corners to reach (so that the king has left his defenders, as in the games it plays).
fn middlegames(variant: &Variant) -> Vec<Game> {
    let plies = if variant.name() == "Copenhagen" {
        30
    } else {
        16
    };
    (1..=4)
        .map(|seed| middlegame(variant, plies, 0x9E37_79B9 * seed))
        .filter(|game| game.outcome().is_none())
        .collect()
}

fn searcher(threads: usize) -> Searcher {
    Searcher::new(SearchConfig {
        threads,
        hash_mb: 64,
    })
}

/// CPU time of the calling thread (Linux: /proc/thread-self/stat, in clock ticks of 10 ms), so
/// that speed on a machine shared with other work can be told apart from waiting for a core.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // After the command name: state is field 3, utime 14 and stime 15 (1-based, man proc).
    let user: u64 = fields.get(11)?.parse().ok()?;
    let system: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((user + system) * 10))
}

/// Nodes per second of one thread searching to a fixed depth on each middlegame.
fn nodes_per_second(label: &str, variant: &Variant, depth: u32) {
    let (mut nodes, mut elapsed, mut cpu) = (0u64, Duration::ZERO, Duration::ZERO);
    let games = middlegames(variant);
    for game in &games {
        let mut searcher = searcher(1);
        let cpu_before = thread_cpu_time();
        let result = searcher.search(game, &Limits::depth(depth), |_| {});
        if let (Some(before), Some(after)) = (cpu_before, thread_cpu_time()) {
            cpu += after.saturating_sub(before);
        }
        nodes += result.nodes;
        elapsed += result.elapsed;
    }
    println!(
        "{}: depth {depth} on {} middlegames: {} nodes in {:.2} s wall ({:.2} M nodes/s), \
         {:.2} s CPU ({:.2} M nodes/s per busy core)",
        label,
        games.len(),
        nodes,
        elapsed.as_secs_f64(),
        nodes as f64 / elapsed.as_secs_f64() / 1e6,
        cpu.as_secs_f64(),
        nodes as f64 / cpu.as_secs_f64().max(1e-3) / 1e6,
    );
}

/// Time to reach a fixed depth with 1 and 2 threads (lazy SMP speed-up).
fn thread_scaling(variant: &Variant, depth: u32) {
    let mut times = [Duration::ZERO; 2];
    for (index, threads) in [1, 2].into_iter().enumerate() {
        for game in middlegames(variant) {
            let mut searcher = searcher(threads);
            let start = Instant::now();
            searcher.search(&game, &Limits::depth(depth), |_| {});
            times[index] += start.elapsed();
        }
    }
    println!(
        "{}: depth {depth} in {:.2} s on 1 thread, {:.2} s on 2 threads: speed-up {:.2}",
        variant.name(),
        times[0].as_secs_f64(),
        times[1].as_secs_f64(),
        times[0].as_secs_f64() / times[1].as_secs_f64()
    );
}

/// The tactics suite, each position searched for at most one second.
fn tactics_suite() {
    let suite = tactics::tactics();
    let (mut solved, mut slowest) = (0, Duration::ZERO);
    for tactic in &suite {
        let position = tactic.position();
        let mut searcher = searcher(1);
        let result = searcher.search(
            &Game::from_position(position),
            &Limits::move_time(Duration::from_secs(1)),
            |_| {},
        );
        let found = result
            .score
            .forced_in()
            .is_some_and(|plies| plies > 0 && (plies as u32) < 2 * tactic.moves);
        if found {
            solved += 1;
            slowest = slowest.max(result.elapsed);
        } else {
            println!("{}: not solved ({})", tactic.id, result.score);
        }
    }
    println!(
        "tactics: {solved}/{} forced wins found within 1 s each (slowest {:.1} ms)",
        suite.len(),
        slowest.as_secs_f64() * 1e3
    );
}

fn figures() {
    nodes_per_second("Tablut", &Variant::tablut(), 8);
    nodes_per_second("Tawlbwrdd", &Variant::tawlbwrdd(), 8);
    nodes_per_second("OpenTafl Tablut", &Variant::opentafl_tablut(), 8);
    nodes_per_second("Copenhagen", &Variant::copenhagen(), 7);
    tactics_suite();
    thread_scaling(&Variant::tablut(), 7);
    thread_scaling(&Variant::tawlbwrdd(), 7);
}

fn search_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, variant) in [
        ("tablut", Variant::tablut()),
        ("tawlbwrdd", Variant::tawlbwrdd()),
        ("copenhagen", Variant::copenhagen()),
    ] {
        let Some(game) = middlegames(&variant).into_iter().next() else {
            continue; // Not reached: the seeded games are the same every run, and unfinished.
        };
        // Each search starts from an empty table, emptied outside the timing: setting up a
        // searcher (its 64 MiB table written in full) would cost more than the search.
        let mut searcher = searcher(1);
        group.bench_function(format!("{name} middlegame depth 5"), |b| {
            b.iter_custom(|iterations| {
                let mut searching = Duration::ZERO;
                for _ in 0..iterations {
                    searcher.clear();
                    let start = Instant::now();
                    black_box(searcher.search(&game, &Limits::depth(5), |_| {}));
                    searching += start.elapsed();
                }
                searching
            })
        });
    }
    group.finish();
}

criterion_group!(benches, search_benches);

fn main() {
    figures();
    if std::env::args().any(|arg| arg == "--quick-figures") {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
