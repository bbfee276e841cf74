//! An external engine spoken to through the OpenTafl Engine Protocol, the way OpenTafl hosts one:
//! `rules`, then per turn `opponent-move` (every move the engine has not seen, with the board
//! after them), `clock` and `play`; `move <record>` once its move is accepted; `finish` at the
//! end of a game; `goodbye` when the match is over.
//!
//! Nothing an engine writes, or fails to read, can stop the host or make it grow:
//! - its output is read on a thread of its own as bytes (invalid UTF-8 is replaced; a line over
//!   64 KiB is skipped whole, never held), and passed on through a queue of [`EVENT_QUEUE`]
//!   lines: when the host falls behind, the reader waits and the engine's pipe fills, so one
//!   engine's output never takes more than about 4 MiB here;
//! - the host checks its deadline after every line, so an engine that floods its output still
//!   loses on time, and skips at most a queue's worth of old lines before a turn;
//! - its input is written by another thread through a queue of [`INPUT_QUEUE`] lines, so an
//!   engine that does not read cannot block the host: when the queue is full it has crashed;
//! - with `--log`, its stderr is copied to a file up to [`MAX_STDERR_LOG`], the rest read and
//!   dropped.
//!
//! Lines that mean nothing here are logged and skipped, and an engine that dies, hangs or gives
//! up loses the game and is started afresh (its whole process group killed: see `processes`).

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError, TrySendError};
use std::thread;
use std::time::{Duration, Instant};

use tafl_engine::notation;
use tafl_engine::protocol::{Input, LineReader};
use tafl_engine::{Game, Grid, Move};

use crate::log::GameLog;
use crate::processes;
use crate::turn::{Answer, Turn};

/// Lines read from an engine and not yet looked at by the host, at most (each at most 64 KiB,
/// the library's `MAX_LINE_BYTES`).
pub const EVENT_QUEUE: usize = 64;

/// Lines for an engine that it has not read yet, at most (beyond what its pipe holds).
pub const INPUT_QUEUE: usize = 64;

/// The most of an engine's stderr kept in its `--log` file (8 MiB); the rest is dropped.
pub const MAX_STDERR_LOG: u64 = 8 << 20;

/// What the reading thread passes on.
enum Event {
    /// A line, without its line ending, and when it was read.
    Line(String, Instant),
    /// A line over the length limit, skipped: its length in bytes.
    TooLong(usize),
    /// The engine closed its output (it exited, most likely).
    Closed,
}

/// A running engine process.
struct Process {
    child: Child,
    input: SyncSender<String>,
    events: Receiver<Event>,
    /// Set once the process has been killed and reaped.
    ended: bool,
}

impl Process {
    /// Queues a line for the engine; `Err` when it has stopped reading or closed its input.
    fn send(&mut self, line: &str) -> Result<(), String> {
        match self.input.try_send(line.to_string()) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(format!(
                "the engine does not read its input ({INPUT_QUEUE} lines wait for it)"
            )),
            Err(TrySendError::Disconnected(_)) => {
                Err("cannot write to the engine: its input is closed".to_string())
            }
        }
    }

    /// Kills the engine's process group and reaps it.
    fn end(&mut self) {
        if !self.ended {
            self.ended = true;
            processes::end(&mut self.child);
        }
    }

    /// Asks the engine to leave, then makes sure it and its group have.
    fn stop(mut self, polite: bool) {
        if polite && self.send("goodbye").is_ok() {
            let asked = Instant::now();
            while asked.elapsed() < Duration::from_millis(1000) {
                if matches!(self.child.try_wait(), Ok(Some(_))) {
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        self.end();
    }

    /// How the process ended, if it has (waits a moment for the exit to show).
    fn exit_status(&mut self) -> String {
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.to_string();
            }
            thread::sleep(Duration::from_millis(10));
        }
        "still running with its output closed".to_string()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.end();
    }
}

/// An external OTEP engine, started on demand and restarted after a failure.
pub struct OtepEngine {
    label: &'static str,
    command: Vec<String>,
    stderr_log: Option<PathBuf>,
    hello_timeout: Duration,
    process: Option<Process>,
    /// Set after a forfeit: the engine is started afresh before its next game.
    dirty: bool,
    started_once: bool,
    restarts: u32,
    rules: String,
    /// How many of the game's moves the engine knows about.
    seen: usize,
    /// How long after its own move the engine is left alone.
    settle: Duration,
    /// When the engine's last move arrived.
    moved_at: Option<Instant>,
}

impl OtepEngine {
    /// An engine run as `command` (program and arguments); nothing is started yet.
    pub fn new(
        label: &'static str,
        command: Vec<String>,
        stderr_log: Option<PathBuf>,
        hello_timeout: Duration,
        settle: Duration,
    ) -> OtepEngine {
        OtepEngine {
            label,
            command,
            stderr_log,
            hello_timeout,
            process: None,
            dirty: false,
            started_once: false,
            restarts: 0,
            rules: String::new(),
            seen: 0,
            settle,
            moved_at: None,
        }
    }

    /// Whether the engine has said hello at least once.
    pub fn ever_started(&self) -> bool {
        self.started_once
    }

    /// Restarts after a failure.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    fn note(&self, log: &mut GameLog, text: &str) {
        log.line(&format!("{}-", self.label), text);
    }

    fn send(&mut self, line: &str, log: &mut GameLog) -> Result<(), String> {
        log.line(&format!("{}>", self.label), line);
        let process = self.process.as_mut().ok_or("the engine is not running")?;
        process.send(line)
    }

    /// Logs a line read from the engine.
    fn heard(&self, event: &Event, log: &mut GameLog) {
        let who = format!("{}<", self.label);
        match event {
            Event::Line(line, _) => log.line(&who, line),
            Event::TooLong(length) => log.line(
                &who,
                &format!("(a line of {length} bytes, over the 64 KiB a line may have: skipped)"),
            ),
            Event::Closed => {}
        }
    }

    fn spawn(&mut self, log: &mut GameLog) -> Result<(), String> {
        let (program, arguments) = self.command.split_first().ok_or("an empty command line")?;
        let stderr = if self.stderr_log.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut command = Command::new(program);
        command
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        let mut child = processes::spawn(&mut command)
            .map_err(|error| format!("cannot start {program:?}: {error}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            processes::end(&mut child);
            return Err("the engine's pipes could not be set up".to_string());
        };
        if let (Some(stderr), Some(path)) = (child.stderr.take(), self.stderr_log.clone()) {
            let _ = thread::Builder::new()
                .name("engine stderr".into())
                .spawn(move || copy_stderr(stderr, &path));
        }
        let (sender, events) = mpsc::sync_channel(EVENT_QUEUE);
        let (input, lines) = mpsc::sync_channel(INPUT_QUEUE);
        let reader = thread::Builder::new()
            .name("engine stdout".into())
            .spawn(move || read_lines(stdout, sender));
        let writer = thread::Builder::new()
            .name("engine stdin".into())
            .spawn(move || write_lines(stdin, lines));
        // Dropped on an error here, the process is killed.
        let process = Process {
            child,
            input,
            events,
            ended: false,
        };
        if let Err(error) = reader.and(writer) {
            return Err(format!(
                "cannot start a thread to talk to the engine: {error}"
            ));
        }
        self.process = Some(process);
        self.note(log, &format!("started {:?}", self.command));
        // Wait for hello; OpenTafl prints log lines first.
        let deadline = Instant::now() + self.hello_timeout;
        loop {
            let Some(process) = self.process.as_mut() else {
                return Err("the engine is not running".to_string());
            };
            let left = deadline.saturating_duration_since(Instant::now());
            let event = process.events.recv_timeout(left);
            match event {
                Ok(Event::Line(line, _)) if line.trim() == "hello" => {
                    log.line(&format!("{}<", self.label), &line);
                    self.started_once = true;
                    return Ok(());
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let status = process.exit_status();
                    self.kill();
                    return Err(format!("the engine exited before saying hello ({status})"));
                }
                Ok(other) => self.heard(&other, log),
                Err(RecvTimeoutError::Timeout) => {}
            }
            // Checked after every line, so that a flood of lines cannot hold it off.
            if Instant::now() >= deadline {
                self.kill();
                return Err(format!(
                    "no hello within {} ms",
                    self.hello_timeout.as_millis()
                ));
            }
        }
    }

    fn kill(&mut self) {
        if let Some(process) = self.process.take() {
            process.stop(false);
        }
    }

    /// Starts (or restarts) the process if needed and sets up the game.
    pub fn start_game(&mut self, rules: &str, log: &mut GameLog) -> Result<(), String> {
        let alive = match &mut self.process {
            Some(process) => matches!(process.child.try_wait(), Ok(None)),
            None => false,
        };
        if self.dirty || !alive {
            if self.process.is_some() || self.dirty {
                self.restarts += 1;
                self.note(log, "restarting the engine");
            }
            self.kill();
            self.dirty = false;
            if let Err(error) = self.spawn(log) {
                self.dirty = true;
                return Err(error);
            }
        }
        self.drain(log)?;
        self.rules = rules.to_string();
        self.seen = 0;
        self.moved_at = None;
        let line = format!("rules {rules}");
        self.send(&line, log).inspect_err(|_| self.dirty = true)
    }

    /// Logs what the engine said since we last listened, a queue's worth at most (an engine
    /// that floods cannot keep the host here); `Err` if it has exited or gave up.
    fn drain(&mut self, log: &mut GameLog) -> Result<(), String> {
        for _ in 0..EVENT_QUEUE {
            let Some(process) = self.process.as_mut() else {
                return Err("the engine is not running".to_string());
            };
            let event = process.events.try_recv();
            match event {
                Ok(Event::Closed) | Err(TryRecvError::Disconnected) => {
                    let status = process.exit_status();
                    return Err(format!("the engine exited ({status})"));
                }
                Ok(event) => {
                    self.heard(&event, log);
                    if let Event::Line(line, _) = &event {
                        if let Some(message) = critical_error(line) {
                            return Err(message);
                        }
                    }
                }
                Err(TryRecvError::Empty) => return Ok(()),
            }
        }
        Ok(())
    }

    /// Tells the engine the moves it has not seen, its clock, and asks for a move.
    fn ask<B: Grid>(&mut self, turn: &Turn<'_, B>, log: &mut GameLog) -> Result<Instant, String> {
        let unseen: Vec<String> = turn
            .game
            .moves()
            .skip(self.seen)
            .map(|m: Move<B>| m.to_string())
            .collect();
        if !unseen.is_empty() {
            let record = notation::position_record(turn.game.position());
            self.send(&format!("opponent-move {} {record}", unseen.join("|")), log)?;
            self.seen = turn.game.moves().len();
        }
        // OpenTafl sends the clock right before `play`, and its own engine reads it there.
        self.send(&turn.clock_line, log)?;
        self.send(&format!("play {}", turn.side), log)?;
        Ok(Instant::now())
    }

    /// Asks for a move and waits for it until the time allowed has passed.
    pub fn play<B: Grid>(&mut self, turn: &Turn<'_, B>, log: &mut GameLog) -> Answer {
        // Leave the engine alone for a moment after its last move (not charged to anyone).
        if let Some(moved_at) = self.moved_at.take() {
            let wait = self.settle.saturating_sub(moved_at.elapsed());
            if !wait.is_zero() {
                thread::sleep(wait);
            }
        }
        if let Err(error) = self.drain(log) {
            self.dirty = true;
            return if error.starts_with("the engine exited") {
                Answer::Crashed(error)
            } else {
                Answer::Refused(error)
            };
        }
        let asked = match self.ask(turn, log) {
            Ok(asked) => asked,
            Err(error) => {
                self.dirty = true;
                return Answer::Crashed(error);
            }
        };
        let deadline = asked + turn.allowed;
        let mut rules_resent = false;
        loop {
            let Some(process) = self.process.as_mut() else {
                return Answer::Crashed("the engine is not running".to_string());
            };
            let left = deadline.saturating_duration_since(Instant::now());
            let event = process.events.recv_timeout(left);
            match event {
                Ok(Event::Line(line, at)) => {
                    log.line(&format!("{}<", self.label), &line);
                    let words: Vec<&str> = line.split_whitespace().collect();
                    match words.as_slice() {
                        ["move", text, ..] => {
                            // Its time is judged by when it was read, not by when the host got
                            // to it.
                            self.moved_at = Some(at);
                            return Answer::Move {
                                text: (*text).to_string(),
                                spent: at.saturating_duration_since(asked),
                            };
                        }
                        ["rules"] if !rules_resent => {
                            // The engine asks for the rules again: send the game once more.
                            rules_resent = true;
                            self.seen = 0;
                            let rules = format!("rules {}", self.rules);
                            if let Err(error) = self.send(&rules, log) {
                                self.dirty = true;
                                return Answer::Crashed(error);
                            }
                            if let Err(error) = self.ask(turn, log) {
                                self.dirty = true;
                                return Answer::Crashed(error);
                            }
                        }
                        _ => {
                            if let Some(message) = critical_error(&line) {
                                self.dirty = true;
                                return Answer::Refused(message);
                            }
                        }
                    }
                }
                Ok(event @ Event::TooLong(_)) => self.heard(&event, log),
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let status = process.exit_status();
                    self.dirty = true;
                    return Answer::Crashed(format!("the engine exited ({status})"));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            // Checked after every line, so that a flood of lines cannot hold it off.
            if Instant::now() >= deadline {
                self.dirty = true;
                return Answer::Silence;
            }
        }
    }

    /// Confirms the engine's move with the board after it, as OpenTafl does.
    pub fn accepted<B: Grid>(&mut self, game: &Game<B>, log: &mut GameLog) {
        let record = notation::position_record(game.position());
        if self.send(&format!("move {record}"), log).is_err() {
            self.dirty = true;
        }
        self.seen = game.moves().len();
    }

    /// Ends the game on the engine's side; after a forfeit the engine is stopped, to be started
    /// afresh for its next game.
    pub fn finish(&mut self, finish: u8, healthy: bool, log: &mut GameLog) {
        if self.process.is_some() && self.send(&format!("finish {finish}"), log).is_err() {
            self.dirty = true;
        }
        if !healthy {
            self.dirty = true;
        }
        if self.dirty {
            if self.process.is_some() {
                self.note(log, "stopping the engine after a forfeit");
            }
            self.kill();
        } else {
            let _ = self.drain(log);
        }
    }
}

impl Drop for OtepEngine {
    fn drop(&mut self) {
        if let Some(process) = self.process.take() {
            process.stop(true);
        }
    }
}

/// `error -1 <message>`: the engine gives up (OTEP's critical error).
fn critical_error(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("error")?;
    let rest = rest.trim_start();
    let message = rest.strip_prefix("-1")?;
    if !(message.is_empty() || message.starts_with(char::is_whitespace)) {
        return None;
    }
    Some(format!("the engine gave up: error -1{message}"))
}

/// Reads the engine's output line by line until it closes, whatever the bytes, never holding
/// more than one line of at most 64 KiB; waits while the host's queue is full.
fn read_lines(stdout: impl Read, sender: SyncSender<Event>) {
    let mut reader = LineReader::new(BufReader::new(stdout));
    loop {
        let event = match reader.next_input() {
            Input::Line(line) => Event::Line(line, Instant::now()),
            Input::TooLong(length) => Event::TooLong(length),
            Input::End => break,
        };
        if sender.send(event).is_err() {
            return;
        }
    }
    let _ = sender.send(Event::Closed);
}

/// Writes the host's lines to the engine until the host lets go of it or the engine's input
/// closes. A write blocks while the engine does not read: here, not in the host.
fn write_lines(mut stdin: ChildStdin, lines: Receiver<String>) {
    for mut line in lines {
        line.push('\n');
        if stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Appends the engine's stderr to `path` while the file is under [`MAX_STDERR_LOG`]; reads and
/// drops the rest, so that the engine never waits on it. The file's size is read before each
/// write: the copier of the engine's previous process may still be appending the last of its
/// pipe (seen in the soak test: 70 KB over the limit when each counted only its own bytes).
fn copy_stderr(mut stderr: impl Read, path: &Path) {
    let mut file: Option<File> = OpenOptions::new().create(true).append(true).open(path).ok();
    let size_of = |file: &File| file.metadata().map_or(0, |metadata| metadata.len());
    if file
        .as_ref()
        .is_some_and(|file| size_of(file) >= MAX_STDERR_LOG)
    {
        // Full already, and said so by the engine process that filled it.
        file = None;
    }
    let mut buffer = [0u8; 8192];
    loop {
        let count = match stderr.read(&mut buffer) {
            Ok(0) => return,
            Ok(count) => count,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        if let Some(out) = &mut file {
            let room = MAX_STDERR_LOG.saturating_sub(size_of(out));
            let kept = count.min(usize::try_from(room).unwrap_or(usize::MAX));
            if out.write_all(&buffer[..kept]).is_err() {
                file = None;
                continue;
            }
            if kept < count {
                let _ = writeln!(
                    out,
                    "\n[tafl-match: this file reached {} MiB; the rest of the engine's stderr is \
                     dropped]",
                    MAX_STDERR_LOG >> 20
                );
                file = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_error_minus_one_is_critical() {
        assert!(critical_error("error -1 bad rules").is_some());
        assert!(critical_error("error -1").is_some());
        assert!(critical_error("error 0 unknown command").is_none());
        assert!(critical_error("error -10").is_none());
        assert!(critical_error("status error -1").is_none());
    }

    #[test]
    fn stderr_files_stop_at_their_limit_even_with_two_copiers_at_once() {
        let path = std::env::temp_dir().join(format!("tafl-match-stderr-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let noise = vec![b'x'; 6 << 20];
        thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| copy_stderr(&noise[..], &path));
            }
        });
        let first = std::fs::metadata(&path).unwrap().len();
        // A third engine process finds the file full and adds nothing.
        copy_stderr(&noise[..], &path);
        let last = std::fs::metadata(&path).unwrap().len();
        let _ = std::fs::remove_file(&path);
        // The limit, at most a read's worth each over it (the other's write between a size
        // check and a write), and the note.
        assert!(first <= MAX_STDERR_LOG + 2 * 8192 + 200, "{first}");
        assert!(first >= MAX_STDERR_LOG, "{first}");
        assert_eq!(last, first);
    }

    #[test]
    fn lines_survive_bad_bytes_and_long_lines() {
        let mut input = b"hello\r\n\xff\xfe junk\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100_000));
        input.extend(b"\nmove e1-e2");
        let (sender, events) = mpsc::sync_channel(EVENT_QUEUE);
        read_lines(&input[..], sender);
        let lines: Vec<String> = events
            .iter()
            .filter_map(|event| match event {
                Event::Line(line, _) => Some(line),
                Event::TooLong(length) => Some(format!("too long: {length}")),
                Event::Closed => None,
            })
            .collect();
        assert_eq!(lines[0], "hello");
        assert!(lines[1].ends_with(" junk"));
        assert_eq!(lines[2], "too long: 100000");
        assert_eq!(lines[3], "move e1-e2");
    }
}
