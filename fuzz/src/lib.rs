//! Fuzz targets for tafl-engine. The invariants live in [`checks`], shared with the main crate's
//! `tests/repository/fuzz_corpus_replay.rs`, which replays the committed corpora in every `cargo test`.

pub mod checks;
