//! Ashton Tablut's perft counts from the Tablut Challenge server's own rule code
//! (tests/data/ashton-perft.txt; its header says how they were made, and tools/ashton-perft
//! has the harness): every count, and how many of each depth's leaves are finished games, must
//! match.

mod common;

use common::ends::finished_leaves;
use tafl_engine::{Position, Side, Variant, notation, perft};

/// One block of the fixture.
struct Block {
    id: String,
    position: Position,
    perft: Vec<(u32, u64)>,
    /// `(depth, attacker wins, defender wins, draws)` among that depth's leaves.
    ends: Vec<(u32, u64, u64, u64)>,
}

fn blocks() -> Vec<Block> {
    let text = include_str!("data/ashton-perft.txt");
    let rules = Variant::ashton().rules();
    let mut blocks: Vec<Block> = Vec::new();
    let mut record = String::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("fixture lines are `key value`");
        if key == "id" {
            blocks.push(Block {
                id: value.to_string(),
                position: Variant::ashton().start(),
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
            "position" => record = value.to_string(),
            "side" => {
                let side = Side::from_name(value).expect("attackers|defenders");
                block.position = notation::parse_position_record(&record, rules, side)
                    .unwrap_or_else(|e| panic!("{}: {e}", block.id));
            }
            "perft" => block.perft.push((numbers[0] as u32, numbers[1])),
            "ends" => block
                .ends
                .push((numbers[0] as u32, numbers[1], numbers[2], numbers[3])),
            other => panic!("unknown fixture key {other}"),
        }
    }
    blocks
}

/// Every count of the fixture, perft and finished games.
#[test]
fn every_count_of_the_server_s_fixture() {
    let blocks = blocks();
    assert_eq!(blocks[0].id, "ashton-start");
    assert_eq!(blocks[0].position, Variant::ashton().start());
    // The start and at least eight midgames, each counted to depth 3 or more.
    assert!(blocks.len() >= 9, "{} blocks", blocks.len());
    let mut checked = 0;
    let mut finished_games = 0;
    for block in &blocks {
        assert!(
            block.perft.iter().any(|&(depth, _)| depth >= 3),
            "{}: counted to depth 3 at least",
            block.id
        );
        for &(depth, expected) in &block.perft {
            let found = perft::perft(&block.position, depth);
            assert_eq!(found, expected, "{} perft {depth}", block.id);
            checked += 1;
        }
        for &(depth, attackers, defenders, draws) in &block.ends {
            let found = finished_leaves(&block.position, depth);
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
    let lines = include_str!("data/ashton-perft.txt")
        .lines()
        .filter(|line| line.starts_with("perft ") || line.starts_with("ends "))
        .count();
    assert_eq!(checked, lines, "every line of the fixture is checked");
    assert!(
        finished_games > 0,
        "the fixture has won games among its leaves"
    );
}
