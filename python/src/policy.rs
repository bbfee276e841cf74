//! Policy targets from the search: `Engine.root_scores` scores every legal move of a game, each
//! searched on its own to the same depth (the crate's `Searcher::root_scores`), and hands the
//! scores back as numpy arrays aligned with the game's `ActionSpace`, with a softmax over them
//! (`RootScores.policy_target`).

use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use tafl_engine::actions::ActionSpace as Space;
use tafl_engine::search::{Limits, Searcher, StopHandle};
use tafl_engine::{Game, Grid};

use crate::{arrays, interrupt, lock, numpy_io, space};

/// The scores of every legal move of a game at one depth (`Engine.root_scores`).
///
/// `scores[a]` is the score of action `a` in soldiers, from the point of view of the side to
/// move (the side that would play it), as `SearchResult.score` gives scores: a forced win in n
/// plies is 1000 - n, a forced loss -(1000 - n). Illegal actions are NaN. All legal moves were
/// searched to `depth` plies, the move itself the first.
#[pyclass(module = "tafl_engine", name = "RootScores", frozen)]
pub struct RootScores {
    /// One per action: the score, NaN where the action is not a legal move.
    scores: Vec<f32>,
    /// One per action: 1 where the action is a legal move.
    legal: Vec<u8>,
    /// The legal moves with their scores, in the game's order.
    moves: Vec<(String, f64)>,
    /// The best move: the first of the highest score.
    best_move: Option<String>,
    /// The depth every move was searched to; 0 when no depth was completed.
    depth: u32,
    nodes: u64,
    time_ms: f64,
}

/// What a pickled `RootScores` holds, in `_restore`'s order.
type RootScoresFields = (
    Vec<f32>,
    Vec<u8>,
    Vec<(String, f64)>,
    Option<String>,
    u32,
    u64,
    f64,
);

impl RootScores {
    fn new<B: Grid>(
        game: &Game<B>,
        found: &tafl_engine::search::RootScores<B>,
    ) -> PyResult<RootScores> {
        // The game's rules made its board: 5x5 to 19x19, which have action spaces.
        let space = Space::new(game.position().rules().size()).map_err(space::error)?;
        let mut legal = vec![0u8; space.num_actions()];
        space
            .mask_into(&game.legal_moves(), &mut legal)
            .map_err(space::error)?;
        let mut scores = vec![f32::NAN; space.num_actions()];
        for line in &found.moves {
            let action = space.move_to_action_on(line.first).map_err(space::error)?;
            scores[action] = line.score.as_decimal() as f32;
        }
        Ok(RootScores {
            scores,
            legal,
            moves: found
                .moves
                .iter()
                .map(|line| (line.first.to_string(), line.score.as_decimal()))
                .collect(),
            best_move: found.best().map(|line| line.first.to_string()),
            depth: found.depth,
            nodes: found.nodes,
            time_ms: found.elapsed.as_secs_f64() * 1000.0,
        })
    }
}

/// A softmax of `scores` (soldiers) over the entries `legal` marks, at `temperature` soldiers
/// (0: all the weight on the highest scores, shared evenly); zero elsewhere.
fn softmax(scores: &[f32], legal: &[u8], temperature: f64) -> Vec<f32> {
    let chosen = || scores.iter().zip(legal).filter(|&(_, &l)| l != 0);
    let best = chosen()
        .map(|(&s, _)| f64::from(s))
        .fold(f64::NEG_INFINITY, f64::max);
    let weight = |score: f32| {
        if temperature == 0.0 {
            if f64::from(score) == best { 1.0 } else { 0.0 }
        } else {
            // The best has weight 1: no overflow whatever the scores (forced wins are ~1000).
            ((f64::from(score) - best) / temperature).exp()
        }
    };
    let total: f64 = chosen().map(|(&s, _)| weight(s)).sum();
    scores
        .iter()
        .zip(legal)
        .map(|(&s, &l)| {
            if l == 0 {
                0.0
            } else {
                (weight(s) / total) as f32
            }
        })
        .collect()
}

#[pymethods]
impl RootScores {
    /// The scores, a float32 array of `num_actions` (NaN for illegal actions; all NaN when no
    /// depth was completed).
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        numpy_io::f32_array(py, &[self.scores.len()], &self.scores)
    }

    /// The legal moves, a bool array of `num_actions` (as `Game.legal_action_mask()`).
    #[getter]
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        arrays::bool_array(py, &[self.legal.len()], |out| {
            out.copy_from_slice(&self.legal);
            Ok(())
        })
    }

    /// The legal moves with their scores, `[("e2-h2", 0.35), ...]`, in the game's order.
    #[getter]
    fn moves(&self) -> Vec<(String, f64)> {
        self.moves.clone()
    }

    /// The move with the highest score (the first of equals), or None.
    #[getter]
    fn best_move(&self) -> Option<String> {
        self.best_move.clone()
    }

    /// The depth every move was searched to, in plies (the move itself the first); 0 when no
    /// depth was completed within the limits.
    #[getter]
    fn depth(&self) -> u32 {
        self.depth
    }

    /// Nodes searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Time taken, in milliseconds.
    #[getter]
    fn time_ms(&self) -> f64 {
        self.time_ms
    }

    /// A policy target: the softmax of the scores over the legal moves at `temperature`
    /// soldiers (`exp(score / temperature)`, normalised), 0 on illegal actions; a float32 array
    /// of `num_actions` summing to 1. `temperature` 0 puts all the weight on the best moves
    /// (shared evenly among equals). Raises ValueError for a negative or non-finite temperature,
    /// or when there are no scores (the game is over, or no depth was completed).
    #[pyo3(signature = (temperature = 1.0))]
    fn policy_target<'py>(&self, py: Python<'py>, temperature: f64) -> PyResult<Bound<'py, PyAny>> {
        if !temperature.is_finite() || temperature < 0.0 {
            return Err(PyValueError::new_err(format!(
                "temperature must be a finite number at least 0, got {temperature}"
            )));
        }
        if self.moves.is_empty() {
            return Err(PyValueError::new_err(
                "no scores to make a policy of: the game is over, or no depth was completed",
            ));
        }
        let policy = softmax(&self.scores, &self.legal, temperature);
        numpy_io::f32_array(py, &[policy.len()], &policy)
    }

    /// Pickling: the fields (so that a result can come back from another process, a Ray task
    /// or a `multiprocessing` pool).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let fields: RootScoresFields = (
            self.scores.clone(),
            self.legal.clone(),
            self.moves.clone(),
            self.best_move.clone(),
            self.depth,
            self.nodes,
            self.time_ms,
        );
        let restore = py.get_type::<RootScores>().getattr("_restore")?;
        Ok((restore, fields.into_pyobject(py)?))
    }

    /// Rebuilds a pickled result (see `__reduce__`). Raises ValueError when the arrays' lengths
    /// differ, as no result of `Engine.root_scores` has them.
    #[staticmethod]
    fn _restore(
        scores: Vec<f32>,
        legal: Vec<u8>,
        moves: Vec<(String, f64)>,
        best_move: Option<String>,
        depth: u32,
        nodes: u64,
        time_ms: f64,
    ) -> PyResult<RootScores> {
        if scores.len() != legal.len() {
            return Err(PyValueError::new_err(format!(
                "RootScores: {} scores against {} legal-mask entries",
                scores.len(),
                legal.len()
            )));
        }
        Ok(RootScores {
            scores,
            legal,
            moves,
            best_move,
            depth,
            nodes,
            time_ms,
        })
    }

    /// `RootScores(depth=3, moves=80, best_move='e2-h2', nodes=..., time_ms=...)`.
    fn __repr__(&self) -> String {
        format!(
            "RootScores(depth={}, moves={}, best_move={}, nodes={}, time_ms={:.1})",
            self.depth,
            self.moves.len(),
            self.best_move
                .as_deref()
                .map_or_else(|| "None".to_string(), |m| format!("'{m}'")),
            self.nodes,
            self.time_ms
        )
    }
}

/// Scores every legal move of `game` on a worker thread with the GIL released; Ctrl-C stops it
/// (KeyboardInterrupt). A depth below 2 is refused: the move itself is the first ply.
pub fn run<B: Grid>(
    py: Python<'_>,
    searcher: &Mutex<Searcher>,
    stop: &StopHandle,
    game: &Game<B>,
    limits: &Limits,
) -> PyResult<RootScores> {
    if limits.depth.is_some_and(|depth| depth < 2) {
        return Err(PyValueError::new_err(
            "root_scores needs depth at least 2 (the move itself is the first ply)",
        ));
    }
    interrupt::run(
        py,
        || stop.stop(),
        || {
            let found = lock(searcher).root_scores(game, limits);
            RootScores::new(game, &found)
        },
    )
}
