//! `Engine` in Python: a searcher that keeps its transposition table between moves, for games
//! (`search`) and for learning code (`root_scores`). The search itself, with the GIL released,
//! is [`crate::search`]'s.

use std::sync::Mutex;

use pyo3::prelude::*;
use tafl_engine::search::{SearchConfig, Searcher, StopHandle};

use crate::game::{AnyGame, PyGame};
use crate::policy::{self, RootScores};
use crate::search::{ENGINE_HASH_MB, SearchResult, config, limits, run};
use crate::{guard, lock};

/// A searcher that keeps what it learnt (its transposition table) from one search to the next:
/// use one per player in a game, or one per process to generate data, rather than
/// `Game.search`, which empties its table before each search.
///
/// `Engine(threads=1, hash_mb=64)`. Safe to share between threads: searches run one at a time
/// (a second waits for the first, without holding the GIL), and `stop()` ends the running one.
/// An engine pickles as its settings: the copy has a new, empty table (so engines can be sent
/// to other processes, e.g. with multiprocessing).
#[pyclass(module = "tafl_engine", name = "Engine", frozen)]
pub struct Engine {
    searcher: Mutex<Searcher>,
    stop: StopHandle,
    config: SearchConfig,
}

#[pymethods]
impl Engine {
    /// A searcher with `threads` search threads (1 to `MAX_THREADS`) and a `hash_mb` MiB
    /// transposition table (1 to 65536; allocated and cleared now, about 25 ms for 64 MiB,
    /// with the GIL released).
    #[new]
    #[pyo3(signature = (threads = None, hash_mb = None))]
    fn new(
        py: Python<'_>,
        threads: Option<&Bound<'_, PyAny>>,
        hash_mb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Engine> {
        let config = config(threads, hash_mb, ENGINE_HASH_MB)?;
        let searcher = py.detach(|| guard(|| Ok(Searcher::new(config.clone()))))?;
        Ok(Engine {
            stop: searcher.stop_handle(),
            searcher: Mutex::new(searcher),
            config,
        })
    }

    /// Searches the current position of `game` within the limits (at least one: time in
    /// milliseconds, depth in plies, nodes) and returns a `SearchResult`. The GIL is released
    /// while it thinks; Ctrl-C stops it (KeyboardInterrupt). Raises ValueError when no limit is
    /// given or one is out of range.
    #[pyo3(signature = (game, *, movetime_ms = None, depth = None, nodes = None))]
    fn search(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyGame>,
        movetime_ms: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SearchResult> {
        let limits = limits(movetime_ms, depth, nodes)?;
        match game.get().game() {
            AnyGame::Narrow(game) => run(py, &self.searcher, &self.stop, &game, &limits),
            AnyGame::Wide(game) => run(py, &self.searcher, &self.stop, &game, &limits),
        }
    }

    /// Scores every legal move of `game`, each searched on its own to the same depth, within
    /// the limits (at least one; `depth` at least 2, the move itself being the first ply), and
    /// returns a `RootScores` (numpy arrays aligned with the game's `ActionSpace`). One thread
    /// searches, whatever `threads` is; each move is searched as on an empty table (the table
    /// is emptied every 64 moves, 16 above 11x11: a small `hash_mb` suits it). The GIL is released; Ctrl-C stops it (KeyboardInterrupt).
    #[pyo3(signature = (game, *, movetime_ms = None, depth = None, nodes = None))]
    fn root_scores(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyGame>,
        movetime_ms: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<RootScores> {
        let limits = limits(movetime_ms, depth, nodes)?;
        match game.get().game() {
            AnyGame::Narrow(game) => policy::run(py, &self.searcher, &self.stop, &game, &limits),
            AnyGame::Wide(game) => policy::run(py, &self.searcher, &self.stop, &game, &limits),
        }
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

    /// How the evaluation that plays `game` turns its own units into the scores searches
    /// report (docs/search.md, "The shown score"): `(per_logit, defenders_edge)`, so many of
    /// its units a logit of the expected result, and how far the game leans to the defenders
    /// at an evaluation of 0, in hundredths of a logit. Waits for a running search to end.
    fn score_scale(&self, py: Python<'_>, game: &Bound<'_, PyGame>) -> PyResult<(i32, i32)> {
        let game = game.get().game();
        py.detach(|| {
            guard(|| {
                let searcher = lock(&self.searcher);
                let scale = match game {
                    AnyGame::Narrow(game) => searcher.score_scale(game.position().rules()),
                    AnyGame::Wide(game) => searcher.score_scale(game.position().rules()),
                };
                Ok((scale.per_logit(), scale.defenders_edge()))
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

    /// Pickling: the settings (the copy starts with an empty table).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (usize, usize))> {
        let config = &slf.get().config;
        Ok((slf.get_type().into_any(), (config.threads, config.hash_mb)))
    }

    /// `Engine(threads=1, hash_mb=64)`.
    fn __repr__(&self) -> String {
        format!(
            "Engine(threads={}, hash_mb={})",
            self.config.threads, self.config.hash_mb
        )
    }
}
