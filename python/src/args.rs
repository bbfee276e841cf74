//! Integer arguments from Python, checked: a bad one raises a ValueError (out of range) or a
//! TypeError (not an integer) that names the parameter and the range it accepts. (PyO3's own
//! conversion to an unsigned type raises an OverflowError for a negative number, naming no
//! parameter.) Anything with `__index__` is an integer here: numpy's integers too.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// Most characters of a bad value an error repeats.
const SHOWN_CHARS: usize = 30;

/// `value` as an integer in `min..=max`.
pub fn int(value: &Bound<'_, PyAny>, name: &str, min: i64, max: i64) -> PyResult<i64> {
    match value.extract::<i64>() {
        Ok(number) if (min..=max).contains(&number) => Ok(number),
        Ok(number) => Err(out_of_range(name, min, max, &number.to_string())),
        // An integer beyond 64 bits: out of range whatever its sign.
        Err(error) if error.is_instance_of::<PyOverflowError>(value.py()) => {
            let shown = value.str().map(|s| s.to_string()).unwrap_or_default();
            Err(out_of_range(name, min, max, &shown))
        }
        Err(_) => {
            let kind = value
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".to_string());
            Err(PyTypeError::new_err(format!(
                "{name} must be an integer, not {kind}"
            )))
        }
    }
}

fn out_of_range(name: &str, min: i64, max: i64, shown: &str) -> PyErr {
    let mut shown: String = shown.chars().take(SHOWN_CHARS).collect();
    if shown.len() == SHOWN_CHARS {
        shown.push_str("...");
    }
    PyValueError::new_err(format!("{name} must be from {min} to {max}, not {shown}"))
}

/// [`int`] as a `u32`; `max` fits one.
pub fn u32_in(value: &Bound<'_, PyAny>, name: &str, min: u32, max: u32) -> PyResult<u32> {
    let number = int(value, name, i64::from(min), i64::from(max))?;
    // In min..=max, so it fits.
    Ok(u32::try_from(number).unwrap_or(max))
}

/// [`int`] as a `u64`, up to `max` (at most `i64::MAX`).
pub fn u64_in(value: &Bound<'_, PyAny>, name: &str, min: u64, max: u64) -> PyResult<u64> {
    let top = i64::try_from(max).unwrap_or(i64::MAX);
    let number = int(value, name, i64::try_from(min).unwrap_or(0), top)?;
    Ok(u64::try_from(number).unwrap_or(max))
}

/// [`int`] as a `usize`, up to `max`.
pub fn usize_in(value: &Bound<'_, PyAny>, name: &str, min: usize, max: usize) -> PyResult<usize> {
    let top = i64::try_from(max).unwrap_or(i64::MAX);
    let number = int(value, name, i64::try_from(min).unwrap_or(0), top)?;
    Ok(usize::try_from(number).unwrap_or(max))
}

/// An optional [`u64_in`]: `None` stays `None`.
pub fn optional_u64(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    min: u64,
    max: u64,
) -> PyResult<Option<u64>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| u64_in(v, name, min, max))
        .transpose()
}
