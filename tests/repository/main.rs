//! The tests of the repository rather than the library, one test binary, each former test file
//! a module: every file the Markdown names exists, ARCHITECTURE.md's layers hold, the committed
//! fuzz corpora replay, and the NNUE tools of `examples/nnue` train a network. They read files
//! outside the package (Cargo.toml's `include` leaves this folder out); the library's own tests
//! are `tests/engine/`.

// The learned evaluation's tools that `nnue_training` drives, at the crate's root as in their
// own program (`examples/nnue/main.rs`): they name each other `crate::cli`.
#[path = "../../examples/nnue/cli.rs"]
#[allow(dead_code)]
mod cli;
#[path = "../../examples/nnue/datagen.rs"]
mod datagen;
#[path = "../../examples/nnue/train.rs"]
mod train;

mod docs_links;
mod fuzz_corpus_replay;
mod layers;
mod nnue_training;
