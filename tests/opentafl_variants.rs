//! OpenTafl's own perft counts for nine of its built-in variants
//! (tests/data/opentafl-variants.txt; its header gives the format): every count, and how many of
//! each depth's leaves are finished games, must match.

mod common;

use common::ends::finished_leaves;
use tafl_engine::{Side, Variant, perft};

/// One block of the fixture.
struct Block {
    id: String,
    rules: String,
    side: Side,
    perft: Vec<(u32, u64)>,
    /// `(depth, attacker wins, defender wins, draws)` among that depth's leaves.
    ends: Vec<(u32, u64, u64, u64)>,
}

fn blocks() -> Vec<Block> {
    let text = include_str!("data/opentafl-variants.txt");
    let mut blocks: Vec<Block> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("fixture lines are `key value`");
        if key == "id" {
            blocks.push(Block {
                id: value.to_string(),
                rules: String::new(),
                side: Side::Attackers,
                perft: Vec::new(),
                ends: Vec::new(),
            });
            continue;
        }
        let block = blocks.last_mut().expect("a block starts with id");
        let numbers: Vec<u64> = value
            .split(' ')
            .filter_map(|word| word.parse().ok())
            .collect();
        match key {
            "rules" => block.rules = value.to_string(),
            "side" => block.side = Side::from_name(value).expect("attackers|defenders"),
            "perft" => block.perft.push((numbers[0] as u32, numbers[1])),
            "ends" => block
                .ends
                .push((numbers[0] as u32, numbers[1], numbers[2], numbers[3])),
            other => panic!("unknown fixture key {other}"),
        }
    }
    assert_eq!(
        blocks.len(),
        63,
        "nine variants, a start and six samples each"
    );
    blocks
}

fn check(max_depth: u32) {
    let mut checked = 0;
    for block in blocks() {
        let variant: Variant = block
            .rules
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", block.id));
        let start = variant.start();
        assert_eq!(start.side_to_move(), block.side, "{}", block.id);
        for &(depth, expected) in &block.perft {
            if depth <= max_depth {
                assert_eq!(
                    perft::perft(&start, depth),
                    expected,
                    "{} perft {depth}",
                    block.id
                );
                checked += 1;
            }
        }
        for &(depth, attackers, defenders, draws) in &block.ends {
            if depth <= max_depth {
                let found = finished_leaves(&start, depth);
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
