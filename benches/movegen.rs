//! Move generation, counting, copy-make and capture resolution on fixed positions of both games.
//!
//! `cargo bench --bench movegen`; each group reports per position (per move for make and
//! captures, through criterion's element throughput).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tafl_engine::{Move, MoveList};

mod common;

use common as positions;

/// `legal_moves`, which sets up a list and returns it by value. The list is handed to
/// `std::hint::black_box` by reference and only its length returned: criterion's own `black_box`,
/// applied to the routine's result, copies its argument with a volatile read, which for an
/// 840-byte list costs more than generating it.
fn legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for bench in positions::all() {
        group.bench_function(bench.name, |b| {
            b.iter(|| {
                let moves = black_box(&bench.position).legal_moves();
                black_box(&moves);
                moves.len()
            })
        });
    }
    group.finish();
}

/// Generation into one list kept from call to call (`legal_moves_into`): the generator alone,
/// without setting up a fresh list and returning it by value (about 840 bytes each).
fn legal_moves_into(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves_into");
    for bench in positions::all() {
        let mut moves = MoveList::new();
        group.bench_function(bench.name, |b| {
            b.iter(|| {
                black_box(&bench.position).legal_moves_into(&mut moves);
                black_box(&moves);
                moves.len()
            })
        });
    }
    group.finish();
}

fn count_legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("count_legal_moves");
    for bench in positions::all() {
        group.bench_function(bench.name, |b| {
            b.iter(|| black_box(&bench.position).count_legal_moves())
        });
    }
    group.finish();
}

/// Copy-make (the API copies a `Position` and plays on the copy) of each move of `moves`.
fn bench_copy_make(
    c: &mut Criterion,
    group_name: &str,
    select: impl Fn(&tafl_engine::Position, Move) -> bool,
) {
    let mut group = c.benchmark_group(group_name);
    for bench in positions::all() {
        let moves: Vec<Move> = bench
            .position
            .legal_moves()
            .into_iter()
            .filter(|&m| select(&bench.position, m))
            .collect();
        if moves.is_empty() {
            continue;
        }
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(bench.name),
            &moves,
            |b, moves| {
                b.iter(|| {
                    for &m in moves {
                        let mut next = *black_box(&bench.position);
                        black_box(next.play_unchecked(m));
                        black_box(&next);
                    }
                })
            },
        );
    }
    group.finish();
}

fn copy_make(c: &mut Criterion) {
    bench_copy_make(c, "copy_make/all_moves", |_, _| true);
}

fn captures(c: &mut Criterion) {
    // Capture resolution: only the moves that take something (R9-R13).
    bench_copy_make(c, "copy_make/capturing_moves", |position, m| {
        position.captures_of(m).any()
    });
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion_group! {
    name = benches;
    config = config();
    targets = legal_moves, legal_moves_into, count_legal_moves, copy_make, captures
}
criterion_main!(benches);
