//! Ashton Tablut's perft counts from the Tablut Challenge server's own rule code
//! (tests/data/ashton-perft.txt; its header says how they were made, and tools/ashton-perft
//! has the harness): every count, and how many of each depth's leaves are finished games, must
//! match.

use crate::common;

use common::ends::finished_leaves;
use common::variant_fixtures::{VariantFixture, ashton_fixtures};
use tafl_engine::{Position, Variant, notation, perft};

/// A block's position under the Ashton rules.
fn position_of(block: &VariantFixture) -> Position {
    notation::parse_position_record(&block.position, Variant::ashton().rules(), block.side())
        .unwrap_or_else(|e| panic!("{}: {e}", block.id))
}

/// Every count of the fixture, perft and finished games.
#[test]
fn every_count_of_the_server_s_fixture() {
    let blocks = ashton_fixtures();
    assert_eq!(blocks[0].id, "ashton-start");
    assert_eq!(position_of(&blocks[0]), Variant::ashton().start());
    // The start and at least eight midgames, each counted to depth 3 or more.
    assert!(blocks.len() >= 9, "{} blocks", blocks.len());
    let mut checked = 0;
    let mut finished_games = 0;
    for block in &blocks {
        let position = position_of(block);
        assert!(
            block.perft.iter().any(|&(depth, _)| depth >= 3),
            "{}: counted to depth 3 at least",
            block.id
        );
        for &(depth, expected) in &block.perft {
            let found = perft::perft(&position, depth as u32);
            assert_eq!(found, expected, "{} perft {depth}", block.id);
            checked += 1;
        }
        for &(depth, attackers, defenders, draws) in &block.ends {
            let found = finished_leaves(&position, depth as u32);
            assert_eq!(
                found,
                (attackers, defenders, draws),
                "{} ends {depth}",
                block.id
            );
            finished_games += attackers + defenders + draws;
            checked += 1;
        }
    }
    let lines = include_str!("../data/ashton-perft.txt")
        .lines()
        .filter(|line| line.starts_with("perft ") || line.starts_with("ends "))
        .count();
    assert_eq!(checked, lines, "every line of the fixture is checked");
    assert!(
        finished_games > 0,
        "the fixture has won games among its leaves"
    );
}
