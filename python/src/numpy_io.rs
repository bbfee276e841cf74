//! numpy arrays of numbers in and out, for the policy targets and the batched MCTS: arrays made
//! from bytes (`numpy.frombuffer` over a `bytearray`, writable, no copy), and arrays a Python
//! callback returns read back as `f32`s with their shape and values checked.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use crate::arrays::numpy;

/// A writable numpy array of `dtype` (a little-endian numpy type string, e.g. `"<f4"`) and
/// `shape`, over `bytes` (as many as the shape's elements take).
pub fn array_from_bytes<'py>(
    py: Python<'py>,
    dtype: &str,
    shape: &[usize],
    bytes: &[u8],
) -> PyResult<Bound<'py, PyAny>> {
    let buffer = PyByteArray::new(py, bytes);
    numpy(py)?
        .call_method1("frombuffer", (buffer, dtype))?
        .call_method1("reshape", (shape.to_vec(),))
}

/// A float32 numpy array of `shape` holding `values`.
pub fn f32_array<'py>(
    py: Python<'py>,
    shape: &[usize],
    values: &[f32],
) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    array_from_bytes(py, "<f4", shape, &bytes)
}

/// An int32 numpy array of `shape` holding `values`.
pub fn i32_array<'py>(
    py: Python<'py>,
    shape: &[usize],
    values: &[i32],
) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    array_from_bytes(py, "<i4", shape, &bytes)
}

/// A shape as Python writes it: `(8, 2592)`, `(8,)`.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `value` (anything `numpy.asarray` takes) as a numpy array, when it has exactly `shape` and
/// holds real numbers (floats or integers); a ValueError naming `name`, the expected and the
/// found shape or type otherwise. The values themselves are not checked here.
pub fn checked_array<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let array = numpy(value.py())?.call_method1("asarray", (value,))?;
    let found: Vec<usize> = array.getattr("shape")?.extract()?;
    if found != shape {
        return Err(PyValueError::new_err(format!(
            "{name} must have shape {}, got {}",
            shape_text(shape),
            shape_text(&found)
        )));
    }
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "f" | "i" | "u") {
        return Err(PyValueError::new_err(format!(
            "{name} must be real numbers (a float or integer dtype), got dtype {}",
            dtype.str()?
        )));
    }
    Ok(array)
}

/// The elements of a numpy array (from [`checked_array`]) as `f32`s in C order.
pub fn all_f32(array: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
    let converted = numpy(array.py())?.call_method1("ascontiguousarray", (array, "<f4"))?;
    f32s_of(&converted)
}

/// The elements `array[rows[k], columns[k]]` of a two-dimensional numpy array as `f32`s: only
/// those are converted and copied (a batch of priors is mostly illegal actions).
pub fn gather_f32(array: &Bound<'_, PyAny>, rows: &[i64], columns: &[i64]) -> PyResult<Vec<f32>> {
    let py = array.py();
    let as_array = |values: &[i64]| {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        array_from_bytes(py, "<i8", &[values.len()], &bytes)
    };
    let picked = array.get_item((as_array(rows)?, as_array(columns)?))?;
    let converted = numpy(py)?.call_method1("ascontiguousarray", (picked, "<f4"))?;
    f32s_of(&converted)
}

/// The bytes of a contiguous little-endian float32 array, as `f32`s.
fn f32s_of(converted: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
    let bytes = converted.call_method0("tobytes")?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    Ok(bytes
        .chunks_exact(4)
        // `chunks_exact(4)`: every chunk is 4 bytes.
        .map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
        .collect())
}
