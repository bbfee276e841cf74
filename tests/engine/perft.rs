//! Perft counts of tests/data/perft.txt (docs/rules.md P1, P2).

use crate::common;

use common::fixtures::perft_fixtures;
use tafl_engine::perft;

fn check_up_to(max_depth: u32, min_depth: u32) {
    let mut checked = 0;
    for fixture in perft_fixtures() {
        let position = fixture.position();
        for &(depth, expected) in &fixture.counts {
            if depth > max_depth || depth < min_depth {
                continue;
            }
            assert_eq!(
                perft::perft(&position, depth),
                expected,
                "perft {depth} of fixture {}",
                fixture.id
            );
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "no fixture line had a depth in {min_depth}..={max_depth}"
    );
}

#[test]
fn every_fixture_up_to_depth_3() {
    check_up_to(3, 1);
}

#[test]
fn start_positions_at_depth_4() {
    check_up_to(4, 4);
}

#[test]
#[ignore = "minutes in debug builds; run with --ignored --release"]
fn start_positions_at_depth_5() {
    check_up_to(5, 5);
}

#[test]
fn without_bulk_counting_gives_the_same_counts() {
    for fixture in perft_fixtures() {
        let position = fixture.position();
        for depth in 0..=3 {
            assert_eq!(
                perft::perft_without_bulk(&position, depth),
                perft::perft(&position, depth),
                "fixture {} depth {depth}",
                fixture.id
            );
        }
    }
}

#[test]
fn divide_adds_up_to_perft() {
    for fixture in perft_fixtures() {
        let position = fixture.position();
        let split = perft::divide(&position, 3);
        let total: u64 = split.iter().map(|(_, count)| count).sum();
        assert_eq!(total, perft::perft(&position, 3), "fixture {}", fixture.id);
        assert_eq!(split.len() as u32, position.count_legal_moves());
    }
}
