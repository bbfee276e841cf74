//! Replays the committed fuzz corpora (`fuzz/corpus/<target>/`) through the fuzz targets' own
//! checks, so their invariants run in every `cargo test`, without a nightly toolchain. A file
//! that breaks an invariant fails the test with the file's name; see docs/fuzzing.md.
#![cfg(feature = "protocol")]

#[path = "../../fuzz/src/checks.rs"]
mod checks;

use std::fs;
use std::panic;
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

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
fn protocol_corpus() {
    replay("protocol", checks::check_protocol);
}

#[test]
fn random_game_corpus() {
    replay("random_game", checks::check_random_game);
}

#[test]
fn game_record_corpus() {
    replay("game_record", checks::check_game_record);
}

/// The per-input timeout of scripts/fuzz.sh (libFuzzer's `-timeout`): an input that keeps a check
/// busy this long is a hang. Not a speed test: every input below needs milliseconds when parsing
/// is linear.
const HANG: Duration = Duration::from_secs(10);

/// Runs `check` on `data` and fails if it panics or is still running after [`HANG`].
fn assert_no_hang(what: &str, check: fn(&[u8]), data: Vec<u8>) {
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        check(&data);
        let _ = done.send(());
    });
    match finished.recv_timeout(HANG) {
        Ok(()) => {}
        Err(RecvTimeoutError::Timeout) => panic!("{what}: still running after {HANG:?}"),
        Err(RecvTimeoutError::Disconnected) => panic!("{what}: the check panicked"),
    }
}

// Inputs far longer than libFuzzer's 4 KB, which the fuzzer itself never tries: a protocol line
// from a host can be any length.

#[test]
fn long_records_and_moves_are_read_without_a_hang() {
    let runs = format!("/{}/", "1".repeat(1_000_000));
    assert_no_hang(
        "a 1 MB digit run",
        checks::check_position_record,
        runs.into_bytes(),
    );
    let slashes = "/".repeat(1_000_000);
    assert_no_hang(
        "1 MB of slashes",
        checks::check_position_record,
        slashes.into_bytes(),
    );
    let captures = format!("te1-e2{}", "xe3/e4".repeat(150_000));
    assert_no_hang(
        "a 900 KB capture list",
        checks::check_move_notation,
        captures.into_bytes(),
    );
}

#[test]
fn a_rules_string_with_100_000_fields_is_refused_without_a_hang() {
    let fields: String = (0..100_000).map(|i| format!("k{i}:v ")).collect();
    assert_no_hang(
        "100 000 distinct fields",
        checks::check_rules_string,
        fields.into_bytes(),
    );
    let name = format!("name:{}", "a ".repeat(500_000));
    assert_no_hang(
        "a 500 000-word name",
        checks::check_rules_string,
        name.into_bytes(),
    );
}
