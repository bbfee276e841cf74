//! OpenTafl's own perft counts for nine of its built-in variants
//! (tests/data/opentafl-variants.txt; its header gives the format): every count, and how many of
//! each depth's leaves are finished games, must match.

use crate::common;

use common::ends::finished_leaves;
use common::variant_fixtures::{VariantFixture, variant_fixtures};
use tafl_engine::{Variant, perft};

fn blocks() -> Vec<VariantFixture> {
    let blocks = variant_fixtures();
    assert_eq!(
        blocks.len(),
        63,
        "nine variants, a start and six samples each"
    );
    blocks
}

fn check(max_depth: usize) {
    let mut checked = 0;
    for block in blocks() {
        let variant: Variant = block
            .rules
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", block.id));
        let start = variant.start();
        assert_eq!(start.side_to_move(), block.side(), "{}", block.id);
        for &(depth, expected) in &block.perft {
            if depth <= max_depth {
                assert_eq!(
                    perft::perft(&start, depth as u32),
                    expected,
                    "{} perft {depth}",
                    block.id
                );
                checked += 1;
            }
        }
        for &(depth, attackers, defenders, draws) in &block.ends {
            if depth <= max_depth {
                let found = finished_leaves(&start, depth as u32);
                assert_eq!(
                    found,
                    (attackers, defenders, draws),
                    "{} ends {depth}",
                    block.id
                );
                checked += 1;
            }
        }
    }
    // 196 perft lines and 196 lines of finished games.
    assert_eq!(checked, 392, "every line of the fixture is checked");
}

/// Every count of the fixture: perft and finished games, to depth 4 for the start positions.
#[test]
fn every_count_of_the_fixture() {
    check(4);
}
