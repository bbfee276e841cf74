//! Perft 3 and 4 from both start positions, with bulk counting (the last ply counted, not
//! played) and without (every leaf played); and the same start counted through both paths side
//! by side (`perft/paths`: the classic rules' code and the custom rules' code, which plays every
//! rules string). `cargo bench --bench perft`; `cargo bench --bench perft -- perft/paths` for the
//! paths alone.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tafl_engine::{Variant, perft};

fn perft_from_start(c: &mut Criterion) {
    for (bulk, group_name) in [(true, "perft/bulk"), (false, "perft/every_leaf_played")] {
        let mut group = c.benchmark_group(group_name);
        for variant in [Variant::tablut(), Variant::tawlbwrdd()] {
            let start = variant.start();
            for depth in [3, 4] {
                // Leaves per second, from the known count.
                group.throughput(Throughput::Elements(perft::perft(&start, depth)));
                let id = BenchmarkId::new(variant.name().to_lowercase(), depth);
                group.bench_with_input(id, &depth, |b, &depth| {
                    b.iter(|| {
                        if bulk {
                            perft::perft(black_box(&start), depth)
                        } else {
                            perft::perft_without_bulk(black_box(&start), depth)
                        }
                    })
                });
            }
        }
        group.finish();
    }
}

/// Tawlbwrdd as a rules string without `classic:y`: the same board, start and moves, played by
/// the custom rules' code (its string as docs/rules-strings.md gives it, the engine's own field left out).
fn tawlbwrdd_as_rules_string() -> Variant {
    let text = Variant::tawlbwrdd().to_string().replace(" classic:y", "");
    text.parse()
        .expect("the classic game's string reads as custom rules")
}

/// Tablut as the OpenTafl rules string (Tablut's without `classic:y`).
fn tablut_as_rules_string() -> Variant {
    let text = Variant::tablut().to_string().replace(" classic:y", "");
    text.parse()
        .expect("the classic game's string reads as custom rules")
}

/// The same start counted by the classic path and by the custom one, in one group so that their
/// ratio is measured in one run: Tablut as `tablut`, as `sea-battle` (OpenTafl's built-in, the
/// same start and nearly the same counts) and as a rules string; Tawlbwrdd as `tawlbwrdd` and as
/// its rules string.
fn perft_paths(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft/paths");
    let games = [
        ("tablut/classic", Variant::tablut()),
        ("tablut/sea-battle", Variant::sea_battle()),
        ("tablut/rules-string", tablut_as_rules_string()),
        ("tawlbwrdd/classic", Variant::tawlbwrdd()),
        ("tawlbwrdd/rules-string", tawlbwrdd_as_rules_string()),
    ];
    for (label, variant) in games {
        let start = variant.start();
        assert_eq!(
            start.rules().is_classic(),
            label.ends_with("classic"),
            "{label} takes the path it is named for"
        );
        for depth in [4, 5] {
            group.throughput(Throughput::Elements(perft::perft(&start, depth)));
            group.bench_with_input(BenchmarkId::new(label, depth), &depth, |b, &depth| {
                b.iter(|| perft::perft(black_box(&start), depth))
            });
        }
    }
    group.finish();
}

fn config() -> Criterion {
    // Perft 4 takes up to a second without bulk counting: few samples keep `cargo bench` short.
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = perft_from_start, perft_paths
}
criterion_main!(benches);
