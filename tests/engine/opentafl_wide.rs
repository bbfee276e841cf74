//! Boards above 11x11 (docs/wide-boards.md) against OpenTafl's own counts: every `perft` and
//! `ends` line of tests/data/opentafl-wide.txt (OpenTafl's Sea Battle 13x13 and Tablut 15x15,
//! Alea Evangelii 19x19, Copenhagen's fields on hnefatafl.org's 13x13 start), each string read
//! as a `Variant<Wide>`. And the wide grid's generator against the narrow grid's on every game of
//! tests/data/opentafl-variants.txt: the same string read for both grids gives the same counts.

use crate::common;

use common::ends::finished_leaves;
use common::variant_fixtures::{VariantFixture, variant_fixtures, wide_fixtures};
use tafl_engine::notation::FullMove;
use tafl_engine::{Move, Variant, Wide, perft};

/// Checks the block's lines to `max_depth` on the wide grid; returns how many it checked.
fn check_wide(block: &VariantFixture, max_depth: usize) -> usize {
    let variant: Variant<Wide> = block
        .rules
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", block.id));
    let start = variant.start();
    assert_eq!(start.side_to_move(), block.side(), "{}", block.id);
    let mut checked = 0;
    for &(depth, expected) in block.perft.iter().filter(|l| l.0 <= max_depth) {
        assert_eq!(
            perft::perft(&start, depth as u32),
            expected,
            "{} perft {depth}",
            block.id
        );
        checked += 1;
    }
    for &(depth, attackers, defenders, draws) in block.ends.iter().filter(|l| l.0 <= max_depth) {
        assert_eq!(
            finished_leaves(&start, depth as u32),
            (attackers, defenders, draws),
            "{} ends {depth}",
            block.id
        );
        checked += 1;
    }
    checked
}

/// Every line of the fixture to depth 2; depth 3's perft lines are the next test's (its ends
/// lines play every leaf, 131 million on Alea Evangelii's two blocks: `#[ignore]`d below).
#[test]
fn opentafl_counts_of_boards_above_11x11_to_depth_2() {
    let blocks = wide_fixtures();
    let sizes: Vec<u8> = blocks
        .iter()
        .map(|b| b.rules.parse::<Variant<Wide>>().unwrap().rules().size())
        .collect();
    for size in [13, 15, 19] {
        assert!(sizes.contains(&size), "no {size}x{size} block");
    }
    let checked: usize = blocks.iter().map(|block| check_wide(block, 2)).sum();
    // Two lines (perft and ends) for each of depths 1 and 2 of every block.
    assert_eq!(checked, 4 * blocks.len());
}

/// Depth 3's perft lines of every block (counted in bulk: the last ply's moves are counted,
/// not played).
#[test]
fn opentafl_perft_3_of_boards_above_11x11() {
    let mut checked = 0;
    for block in wide_fixtures() {
        let variant: Variant<Wide> = block.rules.parse().unwrap();
        let start = variant.start();
        for &(_, expected) in block.perft.iter().filter(|l| l.0 == 3) {
            assert_eq!(perft::perft(&start, 3), expected, "{} perft 3", block.id);
            checked += 1;
        }
    }
    assert_eq!(
        checked,
        wide_fixtures().len(),
        "every block has a depth 3 line"
    );
}

/// Every line, depth 3 included: `cargo test --release --test engine -- --ignored opentafl_wide::`.
#[test]
#[ignore = "the ends lines of depth 3 play every leaf: 131 million on Alea Evangelii's blocks"]
fn every_opentafl_count_of_boards_above_11x11() {
    let checked: usize = wide_fixtures()
        .iter()
        .map(|block| check_wide(block, 3))
        .sum();
    assert!(checked > 0);
}

/// The games of 5x5 to 11x11 read for the wide grid count what OpenTafl counts, to depth 3 (the
/// same lines the narrow grid's test checks, tests/engine/opentafl_variants.rs).
#[test]
fn the_narrow_games_read_for_the_wide_grid_count_as_opentafl() {
    let checked: usize = variant_fixtures()
        .iter()
        .map(|block| check_wide(block, 3))
        .sum();
    // Perft and ends lines of depths 1 to 3 of 63 blocks.
    assert_eq!(checked, 2 * 3 * 63);
}

/// Every wide game prints as a rules string that reads back to the same game, and its moves
/// print and read back (squares to `s19`), in full notation with their captures too.
#[test]
fn wide_games_and_moves_read_back_from_their_text() {
    for block in wide_fixtures() {
        let variant: Variant<Wide> = block.rules.parse().unwrap();
        let printed = variant.to_string();
        let again: Variant<Wide> = printed
            .parse()
            .unwrap_or_else(|e| panic!("{}: {printed}: {e}", block.id));
        assert_eq!(again, variant, "{}", block.id);
        let start = variant.start();
        for &m in &start.legal_moves() {
            assert_eq!(m.to_string().parse::<Move<Wide>>(), Ok(m), "{}", block.id);
            let mut after = start;
            let captures = after.play(m).unwrap();
            let full = FullMove {
                piece: start.piece_at(m.from()),
                mv: m,
                captures,
                marker: None,
            };
            assert_eq!(full.to_string().parse::<FullMove<Wide>>(), Ok(full));
        }
    }
    // The narrow grid's reader refuses what lies past it, and says so.
    assert!("s19-s1".parse::<Move>().is_err());
    assert!("s19-s1".parse::<Move<Wide>>().is_ok());
    let refusal = wide_fixtures()[0].rules.parse::<Variant>().unwrap_err();
    assert!(refusal.to_string().contains("Variant<Wide>"), "{refusal}");
}
