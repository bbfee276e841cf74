//! `tafl_engine._core`: the Python extension module of the `tafl_engine` package.
//!
//! It wraps the crate's rules, notation, perft and search for Python: `Game` (a game behind a
//! mutex, so that it can be shared between threads), `Engine` and `SearchResult` (the search,
//! run with the GIL released), `perft`, `variants` and `encode_planes` (positions as bytes for
//! learning code). Text crosses the boundary in OpenTafl notation; every error is a Python
//! exception carrying the crate's message, and a panic inside the crate becomes a
//! `RuntimeError` (see [`guard`], which every call that works in the crate goes through; PyO3
//! turns a panic anywhere else into its own `PanicException`).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod game;
mod planes;
mod search;
mod text;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use tafl_engine::{Position, Variant};

use game::PyGame;

/// Runs `f`, turning a panic into a `RuntimeError` with the panic's message, so that a bug in
/// the crate surfaces as an ordinary Python exception (PyO3 would raise `PanicException`, which
/// `except Exception` does not catch).
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        Err(PyRuntimeError::new_err(format!(
            "internal error in tafl_engine (please report it): {message}"
        )))
    })
}

/// Locks `mutex`. A lock poisoned by a panic (already reported as a `RuntimeError`) is taken
/// all the same: the crate's `Game` and `Searcher` change their state only after the work that
/// could fail, so what they hold is still whole.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Perft of `position` with the GIL released.
pub(crate) fn run_perft(
    py: Python<'_>,
    position: Position,
    depth: u32,
    threads: usize,
) -> PyResult<u64> {
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    py.detach(|| {
        guard(|| {
            Ok(if threads == 1 {
                tafl_engine::perft::perft(&position, depth)
            } else {
                tafl_engine::perft::perft_parallel(&position, depth, threads)
            })
        })
    })
}

/// The names `Game` and `perft` accept, e.g. `["tablut", "tawlbwrdd"]`: every variant the crate
/// knows.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    Variant::names().to_vec()
}

/// Perft (RULES.md P1) from the start position of `variant` (a name from `variants()`, or an
/// OpenTafl rules string): the number of move paths `depth` plies long, on `threads` threads,
/// with the GIL released. `perft("tablut", 4) == 19913864`.
#[pyfunction]
#[pyo3(signature = (variant, depth, threads = 1))]
fn perft(py: Python<'_>, variant: &str, depth: u32, threads: usize) -> PyResult<u64> {
    let start = text::variant_or_rules(variant)?.start();
    run_perft(py, start, depth, threads)
}

/// The current positions of `games` (all on boards of one size n) as one `bytes` object of
/// `len(games) x len(PLANES) x n x n` bytes of 0 and 1, game after game, plane after plane,
/// row 0 = rank 1: `numpy.frombuffer(b, numpy.uint8).reshape(len(games), len(PLANES), n, n)`
/// wraps it without a copy. Raises ValueError for an empty list or mixed board sizes.
#[pyfunction]
fn encode_planes<'py>(
    py: Python<'py>,
    games: Vec<Bound<'py, PyGame>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let positions: Vec<Position> = games.iter().map(|game| game.get().position()).collect();
    let Some(first) = positions.first() else {
        return Err(PyValueError::new_err(
            "encode_planes needs at least one game",
        ));
    };
    let size = first.rules().size();
    if let Some(other) = positions.iter().find(|p| p.rules().size() != size) {
        return Err(PyValueError::new_err(format!(
            "all games must be on boards of one size: {size}x{size} and {0}x{0}",
            other.rules().size()
        )));
    }
    let each = planes::bytes_per_position(size);
    PyBytes::new_with(py, each * positions.len(), |out| {
        guard(|| {
            for (position, chunk) in positions.iter().zip(out.chunks_exact_mut(each)) {
                planes::write(position, chunk);
            }
            Ok(())
        })
    })
}

/// Panics inside the extension, to test that a panic reaches Python as a `RuntimeError`.
#[pyfunction]
fn _panic_for_tests(message: &str) -> PyResult<()> {
    guard(|| panic!("{message}"))
}

/// Exact rules, perft and search for tafl games (Tablut, Tawlbwrdd, ...), from the Rust crate
/// tafl-engine.
#[pymodule]
#[pyo3(name = "_core")]
fn core_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("PLANES", PyTuple::new(module.py(), planes::PLANES)?)?;
    module.add_function(wrap_pyfunction!(variants, module)?)?;
    module.add_function(wrap_pyfunction!(perft, module)?)?;
    module.add_function(wrap_pyfunction!(encode_planes, module)?)?;
    module.add_function(wrap_pyfunction!(_panic_for_tests, module)?)?;
    module.add_class::<PyGame>()?;
    module.add_class::<search::Engine>()?;
    module.add_class::<search::SearchResult>()?;
    Ok(())
}
