//! `ActionSpace`: the crate's action numbering of one board size, with masks, permutations and
//! the symmetries of numpy arrays.

use std::collections::HashMap;
use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyEllipsis, PyTuple};
use tafl_engine::actions::{ActionSpace as Space, MAX_ACTION_BOARD_SIZE, MIN_ACTION_BOARD_SIZE};
use tafl_engine::symmetry::Symmetry;

use tafl_engine::Wide;

use crate::game::PyGame;
use crate::space::{PyActionSpace, error};
use crate::{args, arrays, lock, text};

/// A permutation handed to numpy: board size, symmetry, and whether it is of actions (or
/// squares).
type PermutationKey = (u8, Symmetry, bool);

/// The permutations handed to numpy, made once each.
static PERMUTATIONS: Mutex<Option<HashMap<PermutationKey, Py<PyAny>>>> = Mutex::new(None);

impl PyActionSpace {
    /// The numpy index array that applies `symmetry` to an array over actions (`actions`) or
    /// over squares, as `array[..., index]`: the inverse symmetry's permutation.
    fn gather_index<'py>(
        &self,
        py: Python<'py>,
        symmetry: Symmetry,
        actions: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let key = (self.space.size(), symmetry, actions);
        if let Some(index) = lock(&PERMUTATIONS)
            .get_or_insert_with(HashMap::new)
            .get(&key)
        {
            return Ok(index.bind(py).clone());
        }
        // image[p[a]] = original[a], so image[b] = original[q[b]] with q the inverse's p.
        let inverse = symmetry.inverse();
        let values = if actions {
            inverse.action_permutation(self.space)
        } else {
            inverse.square_permutation(self.space.size())
        };
        let index = arrays::index_array(py, &values)?;
        lock(&PERMUTATIONS)
            .get_or_insert_with(HashMap::new)
            .insert(key, index.clone().unbind());
        Ok(index)
    }

    /// `array[..., index]`.
    fn gather<'py>(
        array: &Bound<'py, PyAny>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = array.py();
        let array = arrays::numpy(py)?.call_method1("asarray", (array,))?;
        array.get_item(PyTuple::new(py, [PyEllipsis::get(py).as_any(), index])?)
    }
}

#[pymethods]
impl PyActionSpace {
    /// The action space of a `size` x `size` board: an odd size from 5 to 19, as boards are
    /// (the castle is the centre square). Raises ValueError for any other.
    #[new]
    fn new(size: &Bound<'_, PyAny>) -> PyResult<PyActionSpace> {
        let min = u32::from(MIN_ACTION_BOARD_SIZE);
        let max = u32::from(MAX_ACTION_BOARD_SIZE);
        let size = args::u32_in(size, "size", min, max)?;
        if size % 2 == 0 {
            return Err(PyValueError::new_err(format!(
                "size must be odd (boards have a centre square), from {min} to {max}, not {size}"
            )));
        }
        // In 5..=19, so it fits a u8 and makes a space.
        let space =
            Space::new(u8::try_from(size).unwrap_or(MIN_ACTION_BOARD_SIZE)).map_err(error)?;
        Ok(PyActionSpace { space })
    }

    /// The board's width and height.
    #[getter]
    fn size(&self) -> u8 {
        self.space.size()
    }

    /// How many actions there are: `n * n * 4 * (n - 1)`.
    #[getter]
    fn num_actions(&self) -> usize {
        self.space.num_actions()
    }

    /// The move of `action` in OpenTafl notation (`e2-h2`). Raises ValueError for a number out
    /// of range, or an action that lands off the board (never legal).
    fn action_to_move(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let last = self.space.num_actions() - 1;
        let action = args::usize_in(action, "action", 0, last)?;
        // The wide grid's moves: every board's, up to 19x19 (the text is the same on either).
        self.space
            .action_to_move_on::<Wide>(action)
            .map(|m| m.to_string())
            .map_err(error)
    }

    /// The action of `move` (OpenTafl notation). Raises ValueError for text that is not a move,
    /// a move off this board or not along a rank or a file.
    #[pyo3(signature = (r#move))]
    fn move_to_action(&self, r#move: &str) -> PyResult<usize> {
        let m = text::parse_move::<Wide>(r#move)?;
        self.space.move_to_action_on(m).map_err(error)
    }

    /// The legal moves of `game` as a numpy array of `num_actions` bools (all False once the
    /// game is over). Raises ValueError for a game on a board of another size.
    fn legal_mask<'py>(&self, game: &Bound<'py, PyGame>) -> PyResult<Bound<'py, PyAny>> {
        game.get().legal_action_mask_in(game.py(), self.space)
    }

    /// The legal masks of `games` as one numpy array of `len(games) x num_actions` bools, row
    /// `i` game `i`'s. Raises ValueError for a game on a board of another size.
    fn legal_masks<'py>(
        &self,
        py: Python<'py>,
        games: Vec<Bound<'py, PyGame>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::legal_masks(py, self.space, &games)
    }

    /// The actions of `game`'s legal moves, in increasing order.
    fn legal_actions(&self, game: &Bound<'_, PyGame>) -> PyResult<Vec<usize>> {
        game.get().legal_actions_in(self.space)
    }

    /// The permutation of the actions under `symmetry` (a name of `SYMMETRIES`), as a numpy
    /// array of int64: entry `a` is the image of action `a`.
    fn action_permutation<'py>(
        &self,
        py: Python<'py>,
        symmetry: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let symmetry = text::symmetry(symmetry)?;
        arrays::index_array(py, &symmetry.action_permutation(self.space))
    }

    /// The permutation of the squares under `symmetry`, by index `rank * n + file`, as a numpy
    /// array of int64: entry `i` is the index of the image of square `i`.
    fn square_permutation<'py>(
        &self,
        py: Python<'py>,
        symmetry: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let symmetry = text::symmetry(symmetry)?;
        arrays::index_array(py, &symmetry.square_permutation(self.space.size()))
    }

    /// The image of one action under `symmetry` (an int), or of an array of actions (a numpy
    /// array of the same shape).
    fn transform_actions<'py>(
        &self,
        actions: &Bound<'py, PyAny>,
        symmetry: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = actions.py();
        let symmetry = text::symmetry(symmetry)?;
        let last = self.space.num_actions() - 1;
        if actions.extract::<i64>().is_ok() {
            let action = args::usize_in(actions, "action", 0, last)?;
            let image = symmetry.map_action(self.space, action).map_err(error)?;
            return Ok(image.into_pyobject(py)?.into_any());
        }
        let numpy = arrays::numpy(py)?;
        let actions = numpy.call_method1("asarray", (actions,))?;
        if actions.getattr("size")?.extract::<usize>()? > 0 {
            let (low, high): (i64, i64) = (
                actions.call_method0("min")?.extract()?,
                actions.call_method0("max")?.extract()?,
            );
            if low < 0 || high > last as i64 {
                let bad = if low < 0 { low } else { high };
                return Err(PyValueError::new_err(format!(
                    "actions must be from 0 to {last}, not {bad}"
                )));
            }
        }
        let permutation = arrays::index_array(py, &symmetry.action_permutation(self.space))?;
        permutation.get_item(actions)
    }

    /// `mask` (or a policy, or anything over actions on its last axis, any leading axes) as it
    /// is for the image position under `symmetry`: `image[..., p[a]] = mask[..., a]`.
    fn transform_mask<'py>(
        &self,
        mask: &Bound<'py, PyAny>,
        symmetry: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = mask.py();
        let symmetry = text::symmetry(symmetry)?;
        let array = arrays::numpy(py)?.call_method1("asarray", (mask,))?;
        let shape: Vec<usize> = array.getattr("shape")?.extract()?;
        let expected = self.space.num_actions();
        if shape.last() != Some(&expected) {
            return Err(PyValueError::new_err(format!(
                "a mask of a {n}x{n} board has {expected} values on its last axis, not the shape {shape:?}",
                n = self.space.size()
            )));
        }
        let index = self.gather_index(py, symmetry, true)?;
        Self::gather(&array, &index)
    }

    /// `planes` (anything over the board on its last two axes, `... x n x n`, row = rank) as
    /// they are for the image position under `symmetry`.
    fn transform_planes<'py>(
        &self,
        planes: &Bound<'py, PyAny>,
        symmetry: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = planes.py();
        let symmetry = text::symmetry(symmetry)?;
        let n = usize::from(self.space.size());
        let array = arrays::numpy(py)?.call_method1("asarray", (planes,))?;
        let shape: Vec<usize> = array.getattr("shape")?.extract()?;
        if shape.len() < 2 || shape[shape.len() - 2..] != [n, n] {
            return Err(PyValueError::new_err(format!(
                "planes must end with two axes of {n}, not the shape {shape:?}"
            )));
        }
        let mut flat = shape[..shape.len() - 2].to_vec();
        flat.push(n * n);
        let index = self.gather_index(py, symmetry, false)?;
        let moved = Self::gather(&array.call_method1("reshape", (flat,))?, &index)?;
        moved.call_method1("reshape", (shape,))
    }

    /// `ActionSpace(9)`.
    fn __repr__(&self) -> String {
        format!("ActionSpace({})", self.space.size())
    }

    /// Pickling: the size.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (u8,))> {
        Ok((slf.get_type().into_any(), (slf.get().space.size(),)))
    }
}
