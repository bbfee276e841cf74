//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`) through the fuzz targets' own
//! checks, so their invariants run in every `cargo test`, without a nightly toolchain. A file
//! that breaks an invariant fails the test with the file's name; see docs/fuzzing.md.

#[path = "../fuzz/src/checks.rs"]
mod checks;

use std::fs;
use std::panic;
use std::path::PathBuf;

/// Runs `check` on every file of `fuzz/corpus/<target>/` and fails, naming every file that
/// panicked, if any did.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable corpus directory").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "{}: the seed corpus is missing",
        dir.display()
    );
    let mut failures = Vec::new();
    for file in &files {
        let data = fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        if panic::catch_unwind(|| check(&data)).is_err() {
            failures.push(file.display().to_string());
        }
    }
    assert!(
        failures.is_empty(),
        "{target}: {} of {} corpus files break an invariant:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn position_record_corpus() {
    replay("position_record", checks::check_position_record);
}

#[test]
fn move_notation_corpus() {
    replay("move_notation", checks::check_move_notation);
}

#[test]
fn rules_string_corpus() {
    replay("rules_string", checks::check_rules_string);
}

#[test]
fn random_game_corpus() {
    replay("random_game", checks::check_random_game);
}
