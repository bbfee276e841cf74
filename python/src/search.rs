//! The search from Python: its limits and settings, `SearchResult`, and the tables
//! `Game.search` empties and uses again. Searches run with the GIL released, on a worker thread
//! that Ctrl-C stops. `Engine` (`crate::engine`) is the searcher that keeps its table.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use tafl_engine::search::{Limits, SearchConfig, Searcher, StopHandle};
use tafl_engine::{Game, Grid};

use crate::{MAX_THREADS, args, guard, interrupt, lock};

/// Largest transposition table accepted, in MiB (64 GiB).
pub const MAX_HASH_MB: usize = 1 << 16;
/// The deepest search asked for, in plies (the search goes no deeper: 64).
pub const MAX_SEARCH_DEPTH: u32 = 64;
/// The longest move time accepted: a week, in milliseconds.
const MAX_MOVETIME_MS: u64 = 7 * 24 * 3600 * 1000;
/// The table size of `Game.search`, MiB.
pub const GAME_SEARCH_HASH_MB: usize = 16;
/// The table size of a new `Engine`, MiB.
pub const ENGINE_HASH_MB: usize = 64;
/// Idle searchers kept for `Game.search`, and the largest table kept (MiB): more would hold
/// memory nobody asked to keep.
const POOL_SIZE: usize = 2;
const POOL_MAX_HASH_MB: usize = 64;

/// Searchers `Game.search` used, emptied and ready for the next (see [`pooled_searcher`]).
static IDLE: Mutex<Vec<Searcher>> = Mutex::new(Vec::new());
/// How many transposition tables `Game.search` has set up (for a test of the pool).
static TABLES_MADE: AtomicUsize = AtomicUsize::new(0);

/// The limits of one search, of which at least one must be given: with none, the crate's search
/// would run until stopped.
pub fn limits(
    movetime_ms: Option<&Bound<'_, PyAny>>,
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Limits> {
    let movetime_ms = args::optional_u64(movetime_ms, "movetime_ms", 0, MAX_MOVETIME_MS)?;
    let depth =
        args::optional_u64(depth, "depth", 1, u64::from(MAX_SEARCH_DEPTH))?.map(|d| d as u32); // At most 64.
    let nodes = args::optional_u64(nodes, "nodes", 1, i64::MAX as u64)?;
    if movetime_ms.is_none() && depth.is_none() && nodes.is_none() {
        return Err(PyValueError::new_err(
            "give at least one limit: movetime_ms, depth or nodes",
        ));
    }
    Ok(Limits {
        depth,
        nodes,
        move_time: movetime_ms.map(Duration::from_millis),
        clock: None,
    })
}

/// A searcher configuration, checked; `hash_mb` defaults to `default_hash_mb`.
pub fn config(
    threads: Option<&Bound<'_, PyAny>>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    default_hash_mb: usize,
) -> PyResult<SearchConfig> {
    let threads = match threads.filter(|t| !t.is_none()) {
        Some(value) => args::usize_in(value, "threads", 1, MAX_THREADS)?,
        None => 1,
    };
    let hash_mb = match hash_mb.filter(|h| !h.is_none()) {
        Some(value) => args::usize_in(value, "hash_mb", 1, MAX_HASH_MB)?,
        None => default_hash_mb,
    };
    Ok(SearchConfig { threads, hash_mb })
}

/// A searcher for `Game.search` with `config`: an idle one of that configuration, emptied (a
/// few milliseconds for 16 MiB), or else a new one. Either searches as a fresh one would.
pub fn pooled_searcher(py: Python<'_>, config: SearchConfig) -> PyResult<Searcher> {
    let idle = {
        let mut pool = lock(&IDLE);
        let found = pool.iter().position(|s| *s.config() == config);
        found.map(|index| pool.swap_remove(index))
    };
    py.detach(|| {
        guard(|| {
            Ok(match idle {
                Some(mut searcher) => {
                    searcher.clear();
                    searcher
                }
                None => {
                    TABLES_MADE.fetch_add(1, Ordering::Relaxed);
                    Searcher::new(config)
                }
            })
        })
    })
}

/// Keeps `searcher` for the next `Game.search`, if its table is small enough.
pub fn return_to_pool(searcher: Searcher) {
    if searcher.config().hash_mb > POOL_MAX_HASH_MB {
        return;
    }
    let mut pool = lock(&IDLE);
    pool.push(searcher);
    if pool.len() > POOL_SIZE {
        pool.remove(0);
    }
}

/// How many tables `Game.search` has set up so far (each of the others reused one).
#[pyfunction]
pub fn _search_tables_made() -> usize {
    TABLES_MADE.load(Ordering::Relaxed)
}

/// Searches `game` on a worker thread with the GIL released; Ctrl-C stops the search (through
/// `stop`, the searcher's handle, taken beforehand: the searcher may be busy with another
/// thread's search, and its lock is only waited for without the GIL) and raises
/// KeyboardInterrupt. A panic in the search becomes a `RuntimeError`.
pub fn run<B: Grid>(
    py: Python<'_>,
    searcher: &Mutex<Searcher>,
    stop: &StopHandle,
    game: &Game<B>,
    limits: &Limits,
) -> PyResult<SearchResult> {
    interrupt::run(
        py,
        || stop.stop(),
        || {
            let result = lock(searcher).search(game, limits, |_| {});
            Ok(SearchResult::from(result))
        },
    )
}

/// What a search found.
///
/// `best_move` is None only when the game is over. `score` is from the point of view of the
/// side to move, in soldiers of the engine's calibrated scale (docs/search.md, "The shown
/// score": `expected_result` = 1 / (1 + e^-score)); a forced win in n plies scores 1000 - n, a
/// forced loss in n plies -(1000 - n) (`forced_in` gives n, negative for a loss). Results
/// compare equal field by field, and pickle.
#[pyclass(module = "tafl_engine", name = "SearchResult", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct SearchResult {
    /// The move to play, in OpenTafl simple notation, or None when the game is over.
    #[pyo3(get)]
    best_move: Option<String>,
    /// The score in soldiers, from the side to move's point of view.
    #[pyo3(get)]
    score: f64,
    /// The score as the engine prints it: `0.35`, `win in 3`, `loss in 4`.
    #[pyo3(get)]
    score_text: String,
    /// Plies to a forced result (positive: the side to move wins), or None.
    #[pyo3(get)]
    forced_in: Option<i32>,
    /// The deepest depth completed, in plies.
    #[pyo3(get)]
    depth: u32,
    /// The principal variation, best move first.
    #[pyo3(get)]
    pv: Vec<String>,
    /// Nodes searched.
    #[pyo3(get)]
    nodes: u64,
    /// Time taken, in milliseconds.
    #[pyo3(get)]
    time_ms: f64,
}

impl<B: Grid> From<tafl_engine::search::SearchResult<B>> for SearchResult {
    fn from(result: tafl_engine::search::SearchResult<B>) -> SearchResult {
        SearchResult {
            best_move: result.best_move.map(|m| m.to_string()),
            score: result.score.as_decimal(),
            score_text: result.score.to_string(),
            forced_in: result.score.forced_in(),
            depth: result.depth,
            pv: result.pv.iter().map(|m| m.to_string()).collect(),
            nodes: result.nodes,
            time_ms: result.elapsed.as_secs_f64() * 1000.0,
        }
    }
}

/// The fields of a `SearchResult`, in the order `_restore` takes them.
type ResultFields = (
    Option<String>,
    f64,
    String,
    Option<i32>,
    u32,
    Vec<String>,
    u64,
    f64,
);

#[pymethods]
impl SearchResult {
    /// The result the side to move is expected to score (a win 1, a draw 0.5, a loss 0), as
    /// the calibrated score promises it: 1 / (1 + e^-score), 1 or 0 for a forced result.
    #[getter]
    fn expected_result(&self) -> f64 {
        match self.forced_in {
            Some(plies) if plies >= 0 => 1.0,
            Some(_) => 0.0,
            None => 1.0 / (1.0 + (-self.score).exp()),
        }
    }

    /// Pickling: the fields.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let fields: ResultFields = (
            self.best_move.clone(),
            self.score,
            self.score_text.clone(),
            self.forced_in,
            self.depth,
            self.pv.clone(),
            self.nodes,
            self.time_ms,
        );
        let restore = py.get_type::<SearchResult>().getattr("_restore")?;
        Ok((restore, fields.into_pyobject(py)?))
    }

    /// Rebuilds a pickled result (see `__reduce__`).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn _restore(
        best_move: Option<String>,
        score: f64,
        score_text: String,
        forced_in: Option<i32>,
        depth: u32,
        pv: Vec<String>,
        nodes: u64,
        time_ms: f64,
    ) -> SearchResult {
        SearchResult {
            best_move,
            score,
            score_text,
            forced_in,
            depth,
            pv,
            nodes,
            time_ms,
        }
    }

    /// All fields on one line.
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best_move={}, score={} ({}), depth={}, pv=[{}], nodes={}, time_ms={:.1})",
            self.best_move
                .as_deref()
                .map_or_else(|| "None".to_string(), |m| format!("'{m}'")),
            self.score,
            self.score_text,
            self.depth,
            self.pv
                .iter()
                .map(|m| format!("'{m}'"))
                .collect::<Vec<_>>()
                .join(", "),
            self.nodes,
            self.time_ms,
        )
    }
}
