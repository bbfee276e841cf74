//! No allocation per node: a counting allocator (this test binary's global allocator) counts
//! every allocation while positions are played, listed, counted and judged, and while the search
//! runs. The rules must allocate nothing at all; the search allocates a little per iteration of
//! its deepening (the root's moves, the principal variation), never per node.

use std::alloc::System;

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use tafl_engine::search::{Limits, SearchConfig, Searcher};
use tafl_engine::{MoveList, Position, Variant, perft};

mod common;

/// The system's allocator, counting what it does.
#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The allocations and reallocations `work` makes (all threads': the test below is this
/// binary's only test, so nothing else runs beside it but the harness, which waits for it).
fn allocations_of<T>(work: impl FnOnce() -> T) -> (usize, T) {
    let region = Region::new(GLOBAL);
    let result = work();
    let change = region.change();
    (change.allocations + change.reallocations, result)
}

/// Positions along seeded games of every named variant (classic and custom rules), gathered
/// before anything is counted.
fn positions() -> Vec<Position> {
    let mut positions = Vec::new();
    for (index, name) in Variant::names().iter().enumerate() {
        let Some(variant) = Variant::by_name(name) else {
            continue;
        };
        for seed in 1..=3u64 {
            let game =
                common::seeded::middlegame(&variant, 40, 0x9E37_79B9 * (seed + index as u64));
            positions.extend(game.positions());
        }
    }
    positions
}

#[test]
fn nothing_allocates_per_node() {
    // The rules: listing, counting, playing each move, judging the result. Nothing at all.
    let positions = positions();
    let mut moves = MoveList::new();
    let (allocations, played) = allocations_of(|| {
        let mut played = 0;
        for position in &positions {
            position.legal_moves_into(&mut moves);
            assert_eq!(position.count_legal_moves() as usize, moves.len());
            for &m in &moves {
                let mut next = *position;
                next.play_unchecked(m);
                let _ = std::hint::black_box((next.winner(), next.outcome()));
                played += 1;
            }
        }
        played
    });
    assert!(played > 10_000, "only {played} moves played");
    assert_eq!(allocations, 0, "{played} moves played");

    // Perft with every leaf played: one list per ply, set up once.
    let start = Variant::copenhagen().start();
    let (allocations, leaves) = allocations_of(|| perft::perft_without_bulk(&start, 3));
    assert_eq!(leaves, 806_344);
    assert_eq!(allocations, 1, "the lists of each ply, once");

    // The search: what it allocates does not grow with the nodes it searches. Two depths of the
    // same middlegame (one thread, the table set up before), the deeper search many times the
    // nodes: the difference stays within a few allocations per extra iteration.
    for variant in [Variant::copenhagen(), Variant::tawlbwrdd()] {
        let game = common::seeded::middlegame(&variant, 20, 0x9E37_79B9 * 2);
        let mut searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: 16,
        });
        let mut search = |depth: u32| {
            searcher.clear();
            allocations_of(|| searcher.search(&game, &Limits::depth(depth), |_| {}).nodes)
        };
        let (shallow, shallow_nodes) = search(2);
        let (deep, deep_nodes) = search(6);
        assert!(
            deep_nodes > 10 * shallow_nodes,
            "{}: {shallow_nodes} then {deep_nodes} nodes",
            variant.name()
        );
        assert!(
            deep <= shallow + 4 * PER_ITERATION,
            "{}: {shallow} allocations to depth 2 ({shallow_nodes} nodes), {deep} to depth 6 \
             ({deep_nodes} nodes)",
            variant.name()
        );
    }
}

/// The most allocations one more iteration of the deepening may make (its root move list, its
/// principal variation, the reports of it: 8 when this test was written).
const PER_ITERATION: usize = 12;
