//! An external engine spoken to through the OpenTafl Engine Protocol, the way OpenTafl hosts one:
//! `rules`, then per turn `opponent-move` (every move the engine has not seen, with the board
//! after them), `clock` and `play`; `move <record>` once its move is accepted; `finish` at the
//! end of a game; `goodbye` when the match is over.
//!
//! Nothing an engine writes can stop the host: its output is read on a thread of its own as
//! bytes (invalid UTF-8 is replaced, lines are cut at 64 KiB), lines that mean nothing here
//! are logged and skipped, and an engine that dies, hangs or gives up loses the game and is
//! started afresh for the next one.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use tafl_engine::notation;
use tafl_engine::{Game, Move};

use crate::log::GameLog;
use crate::player::{Answer, Turn};

/// Longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: u64 = 64 * 1024;

/// What the reading thread passes on.
enum Event {
    /// A line, without its line ending, and when it was read.
    Line(String, Instant),
    /// The engine closed its output (it exited, most likely).
    Closed,
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Event>,
}

impl Process {
    fn send(&mut self, line: &str) -> std::io::Result<()> {
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.write_all(b"\n")?;
        self.stdin.flush()
    }

    /// Asks the engine to leave, then makes sure it has.
    fn stop(mut self, polite: bool) {
        if polite {
            let _ = self.send("goodbye");
            let asked = Instant::now();
            while asked.elapsed() < Duration::from_millis(1000) {
                if matches!(self.child.try_wait(), Ok(Some(_))) {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
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
        process
            .send(line)
            .map_err(|error| format!("cannot write to the engine: {error}"))
    }

    fn spawn(&mut self, log: &mut GameLog) -> Result<(), String> {
        let (program, arguments) = self.command.split_first().ok_or("an empty command line")?;
        let stderr = match &self.stderr_log {
            Some(path) => match OpenOptions::new().create(true).append(true).open(path) {
                Ok(file) => Stdio::from(file),
                Err(_) => Stdio::null(),
            },
            None => Stdio::null(),
        };
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|error| format!("cannot start {program:?}: {error}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the engine's pipes could not be set up".to_string());
        };
        let (sender, events) = mpsc::channel();
        thread::spawn(move || read_lines(stdout, sender));
        self.process = Some(Process {
            child,
            stdin,
            events,
        });
        self.note(log, &format!("started {:?}", self.command));
        // Wait for hello; OpenTafl prints log lines first.
        let deadline = Instant::now() + self.hello_timeout;
        loop {
            let Some(process) = self.process.as_mut() else {
                return Err("the engine is not running".to_string());
            };
            let left = deadline.saturating_duration_since(Instant::now());
            match process.events.recv_timeout(left) {
                Ok(Event::Line(line, _)) => {
                    log.line(&format!("{}<", self.label), &line);
                    if line.trim() == "hello" {
                        self.started_once = true;
                        return Ok(());
                    }
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let status = process.exit_status();
                    self.kill();
                    return Err(format!("the engine exited before saying hello ({status})"));
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(format!(
                        "no hello within {} ms",
                        self.hello_timeout.as_millis()
                    ));
                }
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

    /// Logs what the engine said since we last listened; `Err` if it has exited or gave up.
    fn drain(&mut self, log: &mut GameLog) -> Result<(), String> {
        loop {
            let Some(process) = self.process.as_mut() else {
                return Err("the engine is not running".to_string());
            };
            match process.events.try_recv() {
                Ok(Event::Line(line, _)) => {
                    log.line(&format!("{}<", self.label), &line);
                    if let Some(message) = critical_error(&line) {
                        return Err(message);
                    }
                }
                Ok(Event::Closed) | Err(TryRecvError::Disconnected) => {
                    let status = process.exit_status();
                    return Err(format!("the engine exited ({status})"));
                }
                Err(TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// Tells the engine the moves it has not seen, its clock, and asks for a move.
    fn ask(&mut self, turn: &Turn<'_>, log: &mut GameLog) -> Result<Instant, String> {
        let unseen: Vec<String> = turn
            .game
            .moves()
            .skip(self.seen)
            .map(|m: Move| m.to_string())
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
    pub fn play(&mut self, turn: &Turn<'_>, log: &mut GameLog) -> Answer {
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
            match process.events.recv_timeout(left) {
                Ok(Event::Line(line, at)) => {
                    log.line(&format!("{}<", self.label), &line);
                    let words: Vec<&str> = line.split_whitespace().collect();
                    match words.as_slice() {
                        ["move", text, ..] => {
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
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let status = process.exit_status();
                    self.dirty = true;
                    return Answer::Crashed(format!("the engine exited ({status})"));
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.dirty = true;
                    return Answer::Silence;
                }
            }
        }
    }

    /// Confirms the engine's move with the board after it, as OpenTafl does.
    pub fn accepted(&mut self, game: &Game, log: &mut GameLog) {
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

/// Reads the engine's output line by line until it closes, whatever the bytes.
fn read_lines(stdout: impl Read, sender: mpsc::Sender<Event>) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader
            .by_ref()
            .take(MAX_LINE)
            .read_until(b'\n', &mut buffer)
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let complete = buffer.last() == Some(&b'\n');
                if !complete && buffer.len() as u64 >= MAX_LINE {
                    // Too long: skip to the end of this line.
                    let mut rest = Vec::new();
                    let _ = reader.read_until(b'\n', &mut rest);
                }
                let text = String::from_utf8_lossy(&buffer);
                let line = text.trim_end_matches(['\n', '\r']).to_string();
                if sender.send(Event::Line(line, Instant::now())).is_err() {
                    return;
                }
            }
        }
    }
    let _ = sender.send(Event::Closed);
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
    fn lines_survive_bad_bytes_and_long_lines() {
        let mut input = b"hello\r\n\xff\xfe junk\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100_000));
        input.extend(b"\nmove e1-e2");
        let (sender, events) = mpsc::channel();
        read_lines(&input[..], sender);
        let lines: Vec<String> = events
            .iter()
            .filter_map(|event| match event {
                Event::Line(line, _) => Some(line),
                Event::Closed => None,
            })
            .collect();
        assert_eq!(lines[0], "hello");
        assert!(lines[1].ends_with(" junk"));
        assert_eq!(lines[2].len() as u64, MAX_LINE);
        assert_eq!(lines[3], "move e1-e2");
    }
}
