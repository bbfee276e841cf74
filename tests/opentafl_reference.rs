//! The variant reference (tests/common/reference_variants.rs) against OpenTafl's own counts:
//! every `perft` and `ends` line of tests/data/opentafl-variants.txt.
//!
//! The reference is slow. The default run checks every block to depth 3 (or less where the
//! block stops there); the depth-4 lines of the seven `-start` blocks are `#[ignore]`d: run them
//! with `cargo test --release --test opentafl_reference -- --ignored` (a few minutes).

mod common;

use common::reference_variants::{DepthCounts, VariantBoard};
use common::variant_fixtures::{VariantFixture, variant_fixtures};

/// Checks the block's lines up to `max_depth` and returns how many lines it checked.
fn check_block(fixture: &VariantFixture, max_depth: usize) -> Result<usize, String> {
    let board = VariantBoard::parse(&fixture.rules).map_err(|e| format!("{}: {e}", fixture.id))?;
    if board.attackers_to_move != fixture.attackers_to_move {
        return Err(format!("{}: side to move disagrees with atkf:", fixture.id));
    }
    let depth = fixture.depth().min(max_depth);
    let counts: Vec<DepthCounts> = board.perft_counts(depth);
    let mut checked = 0;
    let mut errors = Vec::new();
    for &(d, expected) in fixture.perft.iter().filter(|l| l.0 <= depth) {
        let got = counts[d - 1].leaves;
        if got != expected {
            errors.push(format!("perft {d}: reference {got}, OpenTafl {expected}"));
        }
        checked += 1;
    }
    for &(d, a, w, dr) in fixture.ends.iter().filter(|l| l.0 <= depth) {
        let c = counts[d - 1];
        let got = (c.attacker_wins, c.defender_wins, c.draws);
        if got != (a, w, dr) {
            errors.push(format!(
                "ends {d}: reference {got:?}, OpenTafl {:?}",
                (a, w, dr)
            ));
        }
        checked += 1;
    }
    if errors.is_empty() {
        Ok(checked)
    } else {
        Err(format!("{}: {}", fixture.id, errors.join("; ")))
    }
}

fn check_all(filter: impl Fn(&VariantFixture) -> bool, max_depth: usize) -> usize {
    let mut failures = Vec::new();
    let mut checked = 0;
    for fixture in variant_fixtures().iter().filter(|f| filter(f)) {
        match check_block(fixture, max_depth) {
            Ok(n) => checked += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
    checked
}

#[test]
fn fixture_has_nine_variants_and_all_lines() {
    let fixtures = variant_fixtures();
    let mut variants: Vec<&str> = fixtures.iter().map(|f| f.variant()).collect();
    variants.dedup();
    assert_eq!(variants.len(), 9, "{variants:?}");
    let lines: usize = fixtures.iter().map(|f| f.perft.len() + f.ends.len()).sum();
    assert_eq!(lines, 392);
}

/// Every line of depth 1 to 3 (all lines of the sample blocks).
#[test]
fn reference_matches_opentafl_to_depth_3() {
    let checked = check_all(|_| true, 3);
    assert_eq!(checked, 392 - 14, "every line but the depth-4 ones");
}

/// The depth-4 lines of the start blocks (about 220 million leaves).
/// Run: `cargo test --release --test opentafl_reference -- --ignored`
#[test]
#[ignore = "minutes: cargo test --release --test opentafl_reference -- --ignored"]
fn reference_matches_opentafl_at_depth_4() {
    let checked = check_all(|f| f.depth() >= 4, 4);
    assert_eq!(checked, 7 * 8);
}
