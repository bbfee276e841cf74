//! The Tablut Challenge's framing, as the server's `StreamUtils` writes and reads it: every
//! message, either way, is a 4-byte big-endian length (a Java `int`), then that many bytes of
//! UTF-8.

use std::io::{self, ErrorKind, Read, Write};

use thiserror::Error;

/// The longest message read: 1 MiB. The server's states are under 1 KiB (81 cell names and a
/// turn); a longer length prefix means the stream is not what we think it is.
pub const MAX_MESSAGE_LEN: usize = 1 << 20;

/// Why no message could be read. After any of these the stream's framing is lost (or the stream
/// is gone): nothing more can be read from it.
#[derive(Debug, Error)]
pub enum FrameError {
    /// The connection closed between two messages.
    #[error("the server closed the connection")]
    Closed,
    /// The connection closed inside a message.
    #[error(
        "the server closed the connection in the middle of a message ({got} of its {expected} bytes came)"
    )]
    Truncated {
        /// Bytes of the message (length prefix included) that came.
        got: usize,
        /// Bytes it should have had.
        expected: usize,
    },
    /// A negative length prefix.
    #[error("a message's length prefix is negative ({0})")]
    NegativeLength(i32),
    /// A length prefix over [`MAX_MESSAGE_LEN`].
    #[error("a message's length prefix says {0} bytes, over the limit of {MAX_MESSAGE_LEN}")]
    TooLong(usize),
    /// The server stopped sending inside a message for longer than the read timeout.
    #[error(
        "the server stopped sending in the middle of a message ({got} of its {expected} bytes came, then nothing for {} s)",
        .waited.as_secs()
    )]
    Stalled {
        /// Bytes of the message (length prefix included) that came.
        got: usize,
        /// Bytes it should have had (4 while the length prefix itself is incomplete).
        expected: usize,
        /// The read timeout that ran out.
        waited: std::time::Duration,
    },
    /// The connection failed.
    #[error("reading from the server failed: {0}")]
    Io(#[from] io::Error),
}

/// Reads into `buffer` until it is full; returns how many bytes came before the end of the
/// stream (`buffer.len()` if it did not end). A read that times out (a reader with a read
/// timeout, as the client's socket has) is [`FrameError::Stalled`]: `before` bytes of the
/// message came before `buffer`, which should end at `expected`.
fn read_fully(
    reader: &mut impl Read,
    buffer: &mut [u8],
    before: usize,
    expected: usize,
    timeout: std::time::Duration,
) -> Result<usize, FrameError> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(FrameError::Stalled {
                    got: before + filled,
                    expected,
                    waited: timeout,
                });
            }
            Err(error) => return Err(FrameError::Io(error)),
        }
    }
    Ok(filled)
}

/// Reads one message's bytes (not yet checked to be UTF-8). `timeout` is the reader's read
/// timeout, if it has one, for the message of a stall.
pub fn read_message(
    reader: &mut impl Read,
    timeout: std::time::Duration,
) -> Result<Vec<u8>, FrameError> {
    let mut prefix = [0u8; 4];
    match read_fully(reader, &mut prefix, 0, 4, timeout)? {
        0 => return Err(FrameError::Closed),
        4 => {}
        got => return Err(FrameError::Truncated { got, expected: 4 }),
    }
    let length = i32::from_be_bytes(prefix);
    let length = usize::try_from(length).map_err(|_| FrameError::NegativeLength(length))?;
    if length > MAX_MESSAGE_LEN {
        return Err(FrameError::TooLong(length));
    }
    let mut message = vec![0u8; length];
    let got = read_fully(reader, &mut message, 4, 4 + length, timeout)?;
    if got < length {
        return Err(FrameError::Truncated {
            got: 4 + got,
            expected: 4 + length,
        });
    }
    Ok(message)
}

/// Writes one message (prefix and text in one write) and flushes it.
pub fn write_message(writer: &mut impl Write, text: &str) -> io::Result<()> {
    let length = i32::try_from(text.len())
        .map_err(|_| io::Error::new(ErrorKind::InvalidInput, "message over 2 GiB"))?;
    let mut frame = Vec::with_capacity(4 + text.len());
    frame.extend_from_slice(&length.to_be_bytes());
    frame.extend_from_slice(text.as_bytes());
    writer.write_all(&frame)?;
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_TIMEOUT: std::time::Duration = std::time::Duration::ZERO;

    fn framed(length: i32, body: &[u8]) -> Vec<u8> {
        let mut bytes = length.to_be_bytes().to_vec();
        bytes.extend_from_slice(body);
        bytes
    }

    #[test]
    fn a_written_message_reads_back_and_has_the_servers_layout() {
        let mut wire = Vec::new();
        write_message(&mut wire, "\"taflengine\"").unwrap();
        write_message(&mut wire, "é").unwrap();
        assert_eq!(&wire[..4], &[0, 0, 0, 12]);
        // The length counts UTF-8 bytes, not characters.
        assert_eq!(&wire[16..20], &[0, 0, 0, 2]);
        let mut reader = &wire[..];
        assert_eq!(
            read_message(&mut reader, NO_TIMEOUT).unwrap(),
            b"\"taflengine\""
        );
        assert_eq!(
            read_message(&mut reader, NO_TIMEOUT).unwrap(),
            "é".as_bytes()
        );
        assert!(matches!(
            read_message(&mut reader, NO_TIMEOUT),
            Err(FrameError::Closed)
        ));
    }

    #[test]
    fn an_empty_message_is_a_message() {
        let wire = framed(0, b"");
        assert_eq!(read_message(&mut &wire[..], NO_TIMEOUT).unwrap(), b"");
    }

    #[test]
    fn bad_length_prefixes_are_errors() {
        let wire = framed(-1, b"{}");
        assert!(matches!(
            read_message(&mut &wire[..], NO_TIMEOUT),
            Err(FrameError::NegativeLength(-1))
        ));
        let wire = framed(MAX_MESSAGE_LEN as i32 + 1, b"{}");
        assert!(matches!(
            read_message(&mut &wire[..], NO_TIMEOUT),
            Err(FrameError::TooLong(n)) if n == MAX_MESSAGE_LEN + 1
        ));
        let wire = framed(i32::MAX, b"{}");
        assert!(matches!(
            read_message(&mut &wire[..], NO_TIMEOUT),
            Err(FrameError::TooLong(_))
        ));
    }

    #[test]
    fn a_connection_that_closes_inside_a_message_says_how_much_came() {
        let wire = [0u8, 0];
        assert!(matches!(
            read_message(&mut &wire[..], NO_TIMEOUT),
            Err(FrameError::Truncated {
                got: 2,
                expected: 4
            })
        ));
        let wire = framed(10, b"{\"a\"");
        assert!(matches!(
            read_message(&mut &wire[..], NO_TIMEOUT),
            Err(FrameError::Truncated {
                got: 8,
                expected: 14
            })
        ));
    }
}
