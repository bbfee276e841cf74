//! The programs' integration tests, one test binary, each former test file a module: the
//! `tafl-engine` binary driven over the OpenTafl Engine Protocol and against fake
//! hnefatafl.org and Tablut Challenge servers, and `tafl-match`. One binary rather than one per
//! file: each linked the library and the programs' dependencies on its own (issue 53). One
//! file's tests: a filter on its module, `cargo test --test cli -- tafl_match::`.

#[path = "../common/mod.rs"]
mod common;

mod golden_protocol;
mod hnefatafl_org;
mod protocol;
mod protocol_perft;
mod tablut_challenge;
mod tafl_match;
mod tafl_match_wide;
