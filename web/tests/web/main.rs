//! The web server's integration tests, one test binary, each former test file a module: the
//! `tafl-web` binary driven over HTTP, with SQLite or PostgreSQL, behind HAProxy, and the page
//! in real browsers. One binary rather than one per file: each linked the server and its
//! dependencies on its own (issue 53). The tests share one process: each server a test starts
//! has a database of its own (`common::scratch`, named after the test), and PostgreSQL
//! (`TAFL_TEST_DB=postgres`, and the tests that always need it) is one cluster for all of them
//! (`common::database::cluster`; a test that stops its database starts a cluster of its own).
//!
//! One file's tests: a filter on its module, `cargo test --test web -- api::`. The browser
//! tests are `#[ignore]`d in a plain `cargo test` (they need Debian's chromium and
//! chromedriver); `.ci/run` runs them a file at a time: `cargo test --test web -- --ignored browser::`.

#[path = "../common/mod.rs"]
mod common;

mod api;
mod assets;
mod browser;
mod correspondence;
mod draw;
mod faults;
mod friend;
mod languages;
mod learn;
mod ops;
mod players;
mod rematch;
mod review;
mod servers;
mod translations;
mod workers;
