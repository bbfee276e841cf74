//! The `ActionSpace` class (its Python methods are in `crate::actions`), and action errors as
//! Python exceptions: what `Game` needs of the action space, below it.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tafl_engine::Grid;
use tafl_engine::actions::{ActionError, ActionSpace as Space};

/// An action error as a ValueError with the crate's message.
pub fn error<B: Grid>(error: ActionError<B>) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The actions of one board size: `index = (from * 4 + direction) * (n - 1) + (distance - 1)`,
/// `from = rank * n + file` (both from 0), directions north (up the ranks), east, south, west,
/// distance 1 to n - 1; `n * n * 4 * (n - 1)` actions (2592 on 9x9, 4840 on 11x11). Every legal
/// move has one action; most actions are never legal, which the masks say.
#[pyclass(module = "tafl_engine", name = "ActionSpace", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyActionSpace {
    pub(crate) space: Space,
}

impl PyActionSpace {
    pub fn of(space: Space) -> PyActionSpace {
        PyActionSpace { space }
    }

    pub fn space(&self) -> Space {
        self.space
    }
}
