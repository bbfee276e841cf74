//! The search from Python: `Engine` (a searcher that keeps its transposition table between
//! moves) and `SearchResult`. Searches run with the GIL released.

use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tafl_engine::Game;
use tafl_engine::search::{Limits, SearchConfig, Searcher, StopHandle};

use crate::game::PyGame;
use crate::{guard, lock};

/// Most search threads accepted (more than any machine this runs on has cores).
const MAX_THREADS: usize = 256;
/// Largest transposition table accepted, in MiB (64 GiB).
const MAX_HASH_MB: usize = 1 << 16;

/// The limits of one search, of which at least one must be given: with none, the crate's search
/// would run until stopped, and a Python caller could not stop it.
pub fn limits(
    movetime_ms: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
) -> PyResult<Limits> {
    if movetime_ms.is_none() && depth.is_none() && nodes.is_none() {
        return Err(PyValueError::new_err(
            "give at least one limit: movetime_ms, depth or nodes",
        ));
    }
    if depth == Some(0) {
        return Err(PyValueError::new_err("depth must be at least 1"));
    }
    Ok(Limits {
        depth,
        nodes,
        move_time: movetime_ms.map(Duration::from_millis),
        clock: None,
    })
}

/// A searcher configuration, checked.
pub fn config(threads: usize, hash_mb: usize) -> PyResult<SearchConfig> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(PyValueError::new_err(format!(
            "threads must be between 1 and {MAX_THREADS}, not {threads}"
        )));
    }
    if !(1..=MAX_HASH_MB).contains(&hash_mb) {
        return Err(PyValueError::new_err(format!(
            "hash_mb must be between 1 and {MAX_HASH_MB}, not {hash_mb}"
        )));
    }
    Ok(SearchConfig { threads, hash_mb })
}

/// Searches `game` with the GIL released; a panic in the search becomes a `RuntimeError`.
pub fn run(
    py: Python<'_>,
    searcher: &Mutex<Searcher>,
    game: &Game,
    limits: &Limits,
) -> PyResult<SearchResult> {
    py.detach(|| {
        guard(|| {
            let result = lock(searcher).search(game, limits, |_| {});
            Ok(SearchResult::from(result))
        })
    })
}

/// What a search found.
///
/// `best_move` is None only when the game is over. `score` is from the point of view of the
/// side to move, in soldiers (a forced win in n plies is 1000 - n, a forced loss -1000 - n).
#[pyclass(module = "tafl_engine", name = "SearchResult", frozen)]
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

impl From<tafl_engine::search::SearchResult> for SearchResult {
    fn from(result: tafl_engine::search::SearchResult) -> SearchResult {
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

#[pymethods]
impl SearchResult {
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

/// A searcher that keeps what it learnt (its transposition table) from one search to the next:
/// use one per player in a game, rather than `Game.search`, which sets up a fresh one each time.
///
/// `Engine(threads=1, hash_mb=64)`. Safe to share between threads: searches run one at a time
/// (a second waits for the first, without holding the GIL), and `stop()` ends the running one.
#[pyclass(module = "tafl_engine", name = "Engine", frozen)]
pub struct Engine {
    searcher: Mutex<Searcher>,
    stop: StopHandle,
    config: SearchConfig,
}

#[pymethods]
impl Engine {
    /// A searcher with `threads` search threads and a `hash_mb` MiB transposition table
    /// (allocated and cleared now, about 25 ms for 64 MiB, with the GIL released).
    #[new]
    #[pyo3(signature = (threads = 1, hash_mb = 64))]
    fn new(py: Python<'_>, threads: usize, hash_mb: usize) -> PyResult<Engine> {
        let config = config(threads, hash_mb)?;
        let searcher = py.detach(|| guard(|| Ok(Searcher::new(config.clone()))))?;
        Ok(Engine {
            stop: searcher.stop_handle(),
            searcher: Mutex::new(searcher),
            config,
        })
    }

    /// Searches the current position of `game` within the limits (at least one: time in
    /// milliseconds, depth in plies, nodes) and returns a `SearchResult`. The GIL is released
    /// while it thinks. Raises ValueError when no limit is given.
    #[pyo3(signature = (game, *, movetime_ms = None, depth = None, nodes = None))]
    fn search(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyGame>,
        movetime_ms: Option<u64>,
        depth: Option<u32>,
        nodes: Option<u64>,
    ) -> PyResult<SearchResult> {
        let limits = limits(movetime_ms, depth, nodes)?;
        let game = game.get().game();
        run(py, &self.searcher, &game, &limits)
    }

    /// Asks the running search, if any, to stop as soon as it can; it then returns its best move
    /// so far. A search started after this call is not affected.
    fn stop(&self) {
        self.stop.stop();
    }

    /// Forgets what earlier searches learnt (call between unrelated games). Waits for a running
    /// search to end.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| {
            guard(|| {
                lock(&self.searcher).clear();
                Ok(())
            })
        })
    }

    /// Search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.config.threads
    }

    /// Transposition table size asked for, in MiB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.config.hash_mb
    }

    /// `Engine(threads=1, hash_mb=64)`.
    fn __repr__(&self) -> String {
        format!(
            "Engine(threads={}, hash_mb={})",
            self.config.threads, self.config.hash_mb
        )
    }
}
