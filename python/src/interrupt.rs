//! Long calls that Ctrl-C stops: the work runs on a thread of its own with the GIL released,
//! while the calling thread waits and, every [`CHECK_EVERY`], lets Python run its signal
//! handlers. When one raises (SIGINT: `KeyboardInterrupt`), the work is told to stop through
//! its stop flag, the worker is waited for (it stops within milliseconds), and the exception is
//! raised in place of the result.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::prelude::*;

use crate::guard;

/// How often the waiting thread looks for a signal: a Ctrl-C is answered within this and the
/// work's own reaction time.
pub const CHECK_EVERY: Duration = Duration::from_millis(20);

/// Runs `work` on a worker thread with the GIL released and returns its result; on a Python
/// signal whose handler raises, calls `stop` (which must make `work` return soon), waits for the
/// worker and raises the handler's exception. A panic in `work` is a `RuntimeError`.
pub fn run<T: Send>(
    py: Python<'_>,
    stop: impl Fn() + Sync,
    work: impl FnOnce() -> PyResult<T> + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let worker = scope.spawn(move || {
                let result = guard(work);
                let _ = done.send(());
                result
            });
            let mut interrupted: Option<PyErr> = None;
            loop {
                match finished.recv_timeout(CHECK_EVERY) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) if interrupted.is_none() => {
                        if let Err(error) = Python::attach(|py| py.check_signals()) {
                            stop();
                            interrupted = Some(error);
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
            let result = worker.join().unwrap_or_else(|_| {
                // `guard` catches the work's panics; the rest of the thread cannot panic.
                Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "internal error in tafl_engine: a worker thread failed",
                ))
            });
            match interrupted {
                Some(error) => Err(error),
                None => result,
            }
        })
    })
}
