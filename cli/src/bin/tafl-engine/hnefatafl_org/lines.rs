//! The server's lines: newline-ended, read with a cap on their length and a timeout, so that
//! neither a line without end nor a silent server can hold the client.

use std::io::{ErrorKind, Read};

/// The longest line kept, in bytes. The server's longest lines are its lists of games and
/// users (`= initialize_display`, `= games_updated`, `= users_updated`), which grow with a
/// server's accounts; the lines the client acts on are far shorter (a game's record is a few
/// kilobytes). A longer line is read to its end and dropped.
pub const MAX_LINE: usize = 1 << 20;

/// What one read brought.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// A whole line, without its newline (bytes that are not UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`] ended: it was dropped (its length in bytes).
    Dropped(usize),
    /// Nothing more came within the stream's read timeout.
    Nothing,
    /// The server closed the connection.
    Closed,
}

/// Reads lines from a stream whose reads time out (a `TcpStream` with a read timeout).
pub struct LineReader<R> {
    inner: R,
    /// Bytes read and not yet returned.
    pending: Vec<u8>,
    /// The length of a line being dropped so far, while one is.
    dropping: Option<usize>,
}

impl<R: Read> LineReader<R> {
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner,
            pending: Vec::new(),
            dropping: None,
        }
    }

    /// The next line, or what stopped it; `Err` for a read error other than a timeout.
    pub fn next(&mut self) -> std::io::Result<Received> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let rest = self.pending.split_off(end + 1);
                let mut line = std::mem::replace(&mut self.pending, rest);
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if let Some(dropped) = self.dropping.take() {
                    return Ok(Received::Dropped(dropped + line.len()));
                }
                if line.len() > MAX_LINE {
                    return Ok(Received::Dropped(line.len()));
                }
                return Ok(Received::Line(String::from_utf8_lossy(&line).into_owned()));
            }
            if self.pending.len() > MAX_LINE {
                // Too long already: count it and forget it, up to its newline.
                *self.dropping.get_or_insert(0) += self.pending.len();
                self.pending.clear();
            }
            let mut buffer = [0u8; 8192];
            match self.inner.read(&mut buffer) {
                Ok(0) => return Ok(Received::Closed),
                Ok(read) => self.pending.extend_from_slice(&buffer[..read]),
                Err(error)
                    if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    return Ok(Received::Nothing);
                }
                Err(error) if error.kind() == ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that gives its chunks one read at a time, then times out once, then ends.
    struct Chunks(Vec<Vec<u8>>, bool);

    impl Read for Chunks {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                if !self.1 {
                    self.1 = true;
                    return Err(ErrorKind::WouldBlock.into());
                }
                return Ok(0);
            }
            let chunk = self.0.remove(0);
            let n = chunk.len().min(buffer.len());
            buffer[..n].copy_from_slice(&chunk[..n]);
            if n < chunk.len() {
                self.0.insert(0, chunk[n..].to_vec());
            }
            Ok(n)
        }
    }

    #[test]
    fn lines_split_anywhere_come_whole_and_long_ones_are_dropped() {
        let long = vec![b'x'; MAX_LINE + 10];
        let mut bytes = b"= lo".to_vec();
        let mut rest = b"gin\r\ngame 1 gen".to_vec();
        rest.extend_from_slice(&long);
        rest.extend_from_slice(b"\n\xff\xfeok\n");
        bytes.truncate(4);
        let mut reader = LineReader::new(Chunks(vec![bytes, rest], false));
        assert_eq!(
            reader.next().unwrap(),
            Received::Line("= login".to_string())
        );
        assert_eq!(
            reader.next().unwrap(),
            Received::Dropped("game 1 gen".len() + long.len())
        );
        assert_eq!(
            reader.next().unwrap(),
            Received::Line("\u{fffd}\u{fffd}ok".to_string())
        );
        assert_eq!(reader.next().unwrap(), Received::Nothing);
        assert_eq!(reader.next().unwrap(), Received::Closed);
    }
}
