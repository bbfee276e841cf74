//! Perft 3 and 4 from both start positions, with bulk counting (the last ply counted, not
//! played) and without (every leaf played). `cargo bench --bench perft`.

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
    targets = perft_from_start
}
criterion_main!(benches);
