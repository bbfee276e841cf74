//! The protocol log of one game: every line sent to and read from each engine, with the time
//! since the game started.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

/// Where one game's protocol talk goes (nowhere without `--log`).
pub struct GameLog {
    out: Option<BufWriter<File>>,
    start: Instant,
}

impl GameLog {
    /// A log that writes nothing.
    pub fn none() -> GameLog {
        GameLog {
            out: None,
            start: Instant::now(),
        }
    }

    /// A log written to `path`; on an error creating it, a warning and no log.
    pub fn create(path: &Path) -> GameLog {
        match File::create(path) {
            Ok(file) => GameLog {
                out: Some(BufWriter::new(file)),
                start: Instant::now(),
            },
            Err(error) => {
                eprintln!("tafl-match: cannot write {}: {error}", path.display());
                GameLog::none()
            }
        }
    }

    /// Logs `line` under `who` (`A>` sent to A, `A<` read from A, `--` the host's own notes).
    pub fn line(&mut self, who: &str, line: &str) {
        if let Some(out) = &mut self.out {
            let millis = self.start.elapsed().as_millis();
            // A failing log must not stop the match.
            let _ = writeln!(out, "{millis:>8} {who} {line}");
        }
    }

    /// Writes out what is buffered.
    pub fn flush(&mut self) {
        if let Some(out) = &mut self.out {
            let _ = out.flush();
        }
    }
}

impl Drop for GameLog {
    fn drop(&mut self) {
        self.flush();
    }
}
