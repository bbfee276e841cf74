//! The engine's text protocol: OTEP (the OpenTafl Engine Protocol) plus commands for people.
//!
//! - [`command`]: a line of input into a [`Command`], or a [`CommandError`] that says what is
//!   wrong with it.
//! - [`Session`]: the engine's state and what each command does to it; usable in-process
//!   ([`Session::handle_line`]), which is how tests and fuzzers drive it.
//! - [`reply`]: the lines the engine prints, and [`is_documented_reply`], which tells whether a
//!   line is one of the documented forms.
//! - [`run_stdio`]: the binary's loop, with the search on its own thread.
//!
//! docs/protocol.md describes every command and reply for GUI authors.

pub mod command;
mod driver;
pub mod reply;
mod session;

pub use command::{
    ClockCommand, Command, CommandError, FinishCode, GoLimits, MAX_LINE_BYTES, SideTime,
    parse_command, parse_command_on,
};
pub use driver::{Input, LineReader, run_stdio, run_stdio_watching};
pub use reply::is_documented_reply;
pub use session::{Evaluation, Flow, Session, SessionOptions, error_reply};
