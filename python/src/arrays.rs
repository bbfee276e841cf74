//! numpy arrays made by the extension, without a numpy dependency at build time: the values are
//! written into a `bytearray` (or `bytes`) and numpy wraps it without a copy
//! (`numpy.frombuffer`). An array over a `bytearray` is writable.

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyModule};

static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// `numpy.frombuffer` and `numpy.bool_`, looked up once: a mask is made at every step of a
/// learning loop.
static BOOL_FROMBUFFER: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();

/// The numpy module, imported once; an ImportError saying what needs it otherwise.
pub fn numpy(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    NUMPY
        .get_or_try_init(py, || {
            py.import("numpy").map(Bound::unbind).map_err(|error| {
                PyImportError::new_err(format!(
                    "tafl_engine's masks, permutations and transforms are numpy arrays: install numpy ({error})"
                ))
            })
        })
        .map(|module| module.bind(py))
}

/// A numpy array of `bool` with `shape` (its product is `len`), filled by `fill` with 0 and 1.
pub fn bool_array<'py>(
    py: Python<'py>,
    shape: &[usize],
    fill: impl FnOnce(&mut [u8]) -> PyResult<()>,
) -> PyResult<Bound<'py, PyAny>> {
    let len = shape.iter().product();
    let (frombuffer, dtype) = BOOL_FROMBUFFER.get_or_try_init(py, || {
        let numpy = numpy(py)?;
        Ok::<_, PyErr>((
            numpy.getattr("frombuffer")?.unbind(),
            numpy.getattr("bool_")?.unbind(),
        ))
    })?;
    let buffer = PyByteArray::new_with(py, len, fill)?;
    let array = frombuffer.bind(py).call1((buffer, dtype.bind(py)))?;
    if shape.len() == 1 {
        Ok(array)
    } else {
        array.call_method1("reshape", (shape.to_vec(),))
    }
}

/// A read-only numpy array of `int64` holding `values`.
pub fn index_array<'py>(py: Python<'py>, values: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let numpy = numpy(py)?;
    let bytes = PyBytes::new_with(py, values.len() * 8, |out| {
        for (chunk, &value) in out.chunks_exact_mut(8).zip(values) {
            // Indices of boards of at most 19x19 fit an i64.
            chunk.copy_from_slice(&(value as i64).to_le_bytes());
        }
        Ok(())
    })?;
    numpy.call_method1("frombuffer", (bytes, "<i8"))
}
