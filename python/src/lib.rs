//! `tafl_engine._core`: the Python extension module of the `tafl_engine` package.
//!
//! It wraps the crate's rules, notation, perft and search for Python: `Game` (a game behind a
//! mutex, so that it can be shared between threads), `ActionSpace` (moves as integers, masks,
//! symmetries of arrays), `Engine` and `SearchResult` (the search, run with the GIL released),
//! `perft`, `variants`, `encode_planes` and `legal_action_masks` (batches for learning code),
//! `read_otg` (game records). Text crosses the boundary in OpenTafl notation; every error is a
//! Python exception carrying the crate's message, and a panic inside the crate becomes a
//! `RuntimeError` (see [`guard`], which every call that works in the crate goes through; PyO3
//! turns a panic anywhere else into its own `PanicException`). Long calls (perft, divide,
//! search) run on a worker thread that Ctrl-C stops ([`interrupt`]).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod actions;
mod args;
mod arrays;
mod batch;
mod engine;
mod game;
mod interrupt;
mod mcts;
mod numpy_io;
mod planes;
mod policy;
mod search;
mod space;
mod svg;
mod text;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use tafl_engine::actions::ActionSpace as Space;
use tafl_engine::record::{GameRecord, GameRecordError};
use tafl_engine::symmetry::Symmetry;
use tafl_engine::{AnyVariant, Grid, Position, Wide};

use game::PyGame;

/// The deepest perft accepted (as the protocol binary's `perft`): deeper counts take years.
pub const MAX_PERFT_DEPTH: u32 = 12;
/// Most threads a perft or a search may use (more than any machine this runs on has cores).
pub const MAX_THREADS: usize = 256;
/// Perft up to this depth runs on the calling thread: it takes milliseconds at most, and a
/// worker thread would cost more than the count.
const DIRECT_PERFT_DEPTH: u32 = 3;

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

/// A perft depth (0 to [`MAX_PERFT_DEPTH`]) and thread count (1 to [`MAX_THREADS`], 1 when
/// not given), checked.
pub(crate) fn perft_arguments(
    depth: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<(u32, usize)> {
    let depth = args::u32_in(depth, "depth", 0, MAX_PERFT_DEPTH)?;
    let threads = match threads.filter(|t| !t.is_none()) {
        Some(value) => args::usize_in(value, "threads", 1, MAX_THREADS)?,
        None => 1,
    };
    Ok((depth, threads))
}

/// Perft of `position` with the GIL released, on a worker thread that Ctrl-C stops (but for
/// counts of a few milliseconds).
pub(crate) fn run_perft<B: Grid>(
    py: Python<'_>,
    position: Position<B>,
    depth: u32,
    threads: usize,
) -> PyResult<u64> {
    if depth <= DIRECT_PERFT_DEPTH {
        return py.detach(|| guard(|| Ok(tafl_engine::perft::perft(&position, depth))));
    }
    let stop = AtomicBool::new(false);
    let count = interrupt::run(
        py,
        || stop.store(true, Ordering::Relaxed),
        || {
            Ok(if threads == 1 {
                tafl_engine::perft::perft_stoppable(&position, depth, &stop)
            } else {
                tafl_engine::perft::perft_parallel_stoppable(&position, depth, threads, &stop)
            })
        },
    )?;
    // Only a stop ends the count without a result, and a stop comes with its exception.
    count.ok_or_else(|| PyRuntimeError::new_err("perft was stopped"))
}

/// The names `Game` and `perft` accept, e.g. `["tablut", "tawlbwrdd"]`: every variant the crate
/// knows.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    AnyVariant::names().collect()
}

/// Perft from the start position of `variant` (a name from `variants()`, or an OpenTafl rules
/// string): the number of move paths `depth` plies long (0 to `MAX_PERFT_DEPTH`), on `threads`
/// threads (1 to `MAX_THREADS`), with the GIL released; Ctrl-C stops it (KeyboardInterrupt).
/// `perft("tablut", 4) == 19913864`.
#[pyfunction]
#[pyo3(signature = (variant, depth, threads = None))]
fn perft(
    py: Python<'_>,
    variant: &str,
    depth: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let (depth, threads) = perft_arguments(depth, threads)?;
    match text::variant_or_rules(variant)? {
        AnyVariant::Narrow(variant) => run_perft(py, variant.start(), depth, threads),
        AnyVariant::Wide(variant) => run_perft(py, variant.start(), depth, threads),
    }
}

/// The board size all `games` share, or a ValueError.
fn common_size(games: &[Bound<'_, PyGame>]) -> PyResult<u8> {
    let sizes: Vec<u8> = games.iter().map(|game| game.get().size()).collect();
    let Some(&size) = sizes.first() else {
        return Err(PyValueError::new_err("give at least one game"));
    };
    if let Some(&other) = sizes.iter().find(|&&s| s != size) {
        return Err(PyValueError::new_err(format!(
            "all games must be on boards of one size: {size}x{size} and {other}x{other}"
        )));
    }
    Ok(size)
}

/// The current positions of `games` (all on boards of one size n) as one `bytes` object of
/// `len(games) x len(PLANES) x n x n` bytes, game after game, plane after plane, row 0 = rank
/// 1: `numpy.frombuffer(b, numpy.uint8).reshape(len(games), len(PLANES), n, n)` wraps it
/// without a copy. Raises ValueError for an empty list or mixed board sizes.
#[pyfunction]
fn encode_planes<'py>(
    py: Python<'py>,
    games: Vec<Bound<'py, PyGame>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let size = common_size(&games)?;
    let snapshots: Vec<planes::AnySnapshot> =
        games.iter().map(|game| game.get().snapshot()).collect();
    let each = planes::bytes_per_position(size);
    PyBytes::new_with(py, each * snapshots.len(), |out| {
        guard(|| {
            for (snapshot, chunk) in snapshots.iter().zip(out.chunks_exact_mut(each)) {
                snapshot.write(chunk);
            }
            Ok(())
        })
    })
}

/// The legal masks of `games` in `space`, as a numpy array of `len(games) x num_actions` bools.
pub(crate) fn legal_masks<'py>(
    py: Python<'py>,
    space: Space,
    games: &[Bound<'py, PyGame>],
) -> PyResult<Bound<'py, PyAny>> {
    let width = space.num_actions();
    arrays::bool_array(py, &[games.len(), width], |out| {
        guard(|| {
            for (game, row) in games.iter().zip(out.chunks_exact_mut(width)) {
                game.get().write_legal_mask(space, row)?;
            }
            Ok(())
        })
    })
}

/// The legal moves of `games` (all on boards of one size) as one numpy array of `len(games) x
/// num_actions` bools, row `i` game `i`'s (`Game.legal_action_mask`). Raises ValueError for an
/// empty list or mixed board sizes.
#[pyfunction]
fn legal_action_masks<'py>(
    py: Python<'py>,
    games: Vec<Bound<'py, PyGame>>,
) -> PyResult<Bound<'py, PyAny>> {
    let size = common_size(&games)?;
    // The games' rules made them: 5 to 19, which have action spaces.
    let space = Space::new(size).map_err(space::error)?;
    legal_masks(py, space, &games)
}

/// Reads an OpenTafl game record (`.otg` text: tags, the rules, `1. e2-h2 e3-h3` turns) and
/// returns `(game, tags)`: the game with every move played, and the tags as a dict (without
/// the rules). Raises ValueError naming the line for a malformed record or an illegal move.
#[pyfunction]
fn read_otg<'py>(py: Python<'py>, text: &str) -> PyResult<(PyGame, Bound<'py, PyDict>)> {
    let bad = |error: &dyn std::fmt::Display| {
        PyValueError::new_err(text::clipped(format!("bad game record: {error}")))
    };
    // A record of a board up to 11x11 reads on the narrow grid; one that the narrow grid
    // refuses for its rules (a larger board, or rules refused anyway) is read on the wide one,
    // whose error is the one said.
    let (game, record_tags) = guard(|| match text.parse::<GameRecord>() {
        Ok(record) => Ok((record.tags.clone(), PyGame::from_record_file(record))),
        Err(GameRecordError::Rules { .. }) => match text.parse::<GameRecord<Wide>>() {
            Ok(record) => Ok((record.tags.clone(), PyGame::from_record_file(record))),
            Err(error) => Err(bad(&error)),
        },
        Err(error) => Err(bad(&error)),
    })
    .map(|(tags, game)| (game, tags))?;
    let tags = PyDict::new(py);
    for (key, value) in &record_tags {
        tags.set_item(key, value)?;
    }
    Ok((game, tags))
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
    let py = module.py();
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("PLANES", PyTuple::new(py, planes::PLANES)?)?;
    module.add("SYMMETRIES", PyTuple::new(py, Symmetry::NAMES)?)?;
    module.add("MAX_PERFT_DEPTH", MAX_PERFT_DEPTH)?;
    module.add("MAX_THREADS", MAX_THREADS)?;
    module.add_function(wrap_pyfunction!(variants, module)?)?;
    module.add_function(wrap_pyfunction!(perft, module)?)?;
    module.add_function(wrap_pyfunction!(encode_planes, module)?)?;
    module.add_function(wrap_pyfunction!(legal_action_masks, module)?)?;
    module.add_function(wrap_pyfunction!(read_otg, module)?)?;
    module.add_function(wrap_pyfunction!(_panic_for_tests, module)?)?;
    module.add_function(wrap_pyfunction!(search::_search_tables_made, module)?)?;
    module.add_class::<PyGame>()?;
    module.add_class::<space::PyActionSpace>()?;
    module.add_class::<engine::Engine>()?;
    module.add_class::<search::SearchResult>()?;
    module.add_class::<policy::RootScores>()?;
    module.add_class::<mcts::Mcts>()?;
    module.add_class::<batch::BatchEnv>()?;
    Ok(())
}
