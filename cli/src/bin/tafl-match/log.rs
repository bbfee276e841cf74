//! The protocol log of one game: every line sent to and read from each engine, with the time
//! since the game started. An engine that floods its output cannot fill the disk through it:
//! a line is logged up to [`MAX_LOGGED_LINE`] bytes, and a game's log stops at
//! [`MAX_LOG_BYTES`], saying so.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

/// The most of one line written to the log; the rest is replaced by its length.
pub const MAX_LOGGED_LINE: usize = 1024;

/// The most one game's log holds: 8 MiB (a game of 400 plies with OpenTafl's AI logs under
/// 1 MiB).
pub const MAX_LOG_BYTES: u64 = 8 << 20;

/// Where one game's protocol talk goes (nowhere without `--log`).
pub struct GameLog {
    out: Option<BufWriter<File>>,
    start: Instant,
    written: u64,
}

impl GameLog {
    /// A log that writes nothing.
    pub fn none() -> GameLog {
        GameLog {
            out: None,
            start: Instant::now(),
            written: 0,
        }
    }

    /// A log written to `path`; on an error creating it, a warning and no log.
    pub fn create(path: &Path) -> GameLog {
        match File::create(path) {
            Ok(file) => GameLog {
                out: Some(BufWriter::new(file)),
                start: Instant::now(),
                written: 0,
            },
            Err(error) => {
                eprintln!("tafl-match: cannot write {}: {error}", path.display());
                GameLog::none()
            }
        }
    }

    /// Logs `line` under `who` (`A>` sent to A, `A<` read from A, `--` the host's own notes).
    pub fn line(&mut self, who: &str, line: &str) {
        let Some(out) = &mut self.out else {
            return;
        };
        let millis = self.start.elapsed().as_millis();
        let text = if line.len() > MAX_LOGGED_LINE {
            let mut cut = MAX_LOGGED_LINE;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            format!(
                "{millis:>8} {who} {}... (cut: {} bytes in all)\n",
                &line[..cut],
                line.len()
            )
        } else {
            format!("{millis:>8} {who} {line}\n")
        };
        self.written += text.len() as u64;
        // A failing log must not stop the match.
        if self.written <= MAX_LOG_BYTES {
            let _ = out.write_all(text.as_bytes());
        } else {
            let _ = writeln!(
                out,
                "{millis:>8} -- the log ends here: it reached {} MiB, the most a game's log holds",
                MAX_LOG_BYTES >> 20
            );
            let _ = out.flush();
            self.out = None;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_a_log_stops_at_its_limit() {
        let path = std::env::temp_dir().join(format!("tafl-match-log-{}.log", std::process::id()));
        let mut log = GameLog::create(&path);
        log.line("A<", &"é".repeat(2000));
        let line = "x".repeat(MAX_LOGGED_LINE);
        for _ in 0..(MAX_LOG_BYTES as usize / MAX_LOGGED_LINE + 10) {
            log.line("A<", &line);
        }
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let first = text.lines().next().unwrap();
        assert!(first.ends_with("... (cut: 4000 bytes in all)"), "{first}");
        assert!(first.len() < MAX_LOGGED_LINE + 60);
        assert!(text.len() as u64 <= MAX_LOG_BYTES + 200, "{}", text.len());
        assert!(
            text.lines()
                .last()
                .unwrap()
                .ends_with("the log ends here: it reached 8 MiB, the most a game's log holds")
        );
    }
}
