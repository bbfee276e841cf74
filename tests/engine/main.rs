//! The library's integration tests, one test binary, each former test file a module: the rules
//! against perft fixtures and independent references (OpenTafl's, hnefatafl.org's, the Tablut
//! Challenge server's, this repository's reference in `tests/common/`), the search, and the
//! protocol's session. One binary rather than one per file: each binary compiled and optimised
//! the library's generic code (the search, the boards) again and was linked on its own, most of
//! the time `cargo test` took to build (issue 53). One file's tests: a filter on its module,
//! `cargo test --test engine -- perft::` (a substring: `search::` also runs `golden_search::`).
//!
//! The tests of the repository rather than the library (its documents, its fuzz corpora, the
//! NNUE tools of `examples/`) are `tests/repository/`, out of the package; `tests/allocations.rs`
//! is a binary of its own, as its counting global allocator would count every other test's.

#[path = "../common/mod.rs"]
mod common;

mod ashton_perft;
mod ashton_rules;
mod custom_rules;
mod differential;
mod differential_ashton;
mod differential_copenhagen;
mod differential_variants;
mod differential_wide;
mod golden_search;
mod hnefatafl_org_perft;
mod hnefatafl_org_rules;
mod opentafl_reference;
mod opentafl_variants;
mod opentafl_wide;
mod perft;
mod properties;
mod protocol_session;
mod reference_ashton_selftest;
mod reference_selftest;
mod root_scores;
mod rules_clauses;
mod search;
mod search_wide;
mod worst_case;
