//! The other program as a child process, and the one stream of events the adapter waits on:
//! lines from the host (our stdin) and lines from the program, each read on a thread of its own.
//!
//! The program runs under a **guard**: this same executable started as `--guard PROGRAM ARGS`,
//! which passes its input on to the program and kills the program when that input ends. The
//! adapter can be killed outright (`tafl-match` kills an engine that forfeited), and then nothing
//! of it runs to stop the program; but its pipe to the guard closes, and the guard does it.
//! Without the guard, `hnefatafl-text-protocol` would be left reading empty lines at full speed
//! forever: it does not stop at the end of its input.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use tafl_engine::protocol::{Input, LineReader};

/// The first argument that makes this program a guard.
const GUARD_FLAG: &str = "--guard";

/// Longest line kept from the program (the rest of a longer line is dropped).
const MAX_LINE: u64 = 1 << 20;

/// Why the adapter cannot go on waiting for the program.
#[derive(Debug)]
pub enum Failure {
    /// The program cannot go on with this game (it refused a move the referee allows, or its
    /// board can no longer be brought in step): the adapter gives the game up at its next turn
    /// and starts afresh at the next `rules`.
    Stuck(String),
    /// The program exited or stopped answering: the adapter reports it and exits.
    Lost(String),
    /// The host said `goodbye` or closed its input while the adapter waited for the program.
    HostLeft,
}

/// What the threads pass to the adapter.
enum Event {
    /// A line (or the end) of the host's input.
    Host(Input),
    /// A line of the program's output, without its line ending.
    Engine(String),
    /// The program closed its output (it exited, most likely).
    EngineClosed,
}

/// The running program and the events from both sides.
pub struct Link {
    name: &'static str,
    guard: Child,
    to_engine: Option<ChildStdin>,
    events: Receiver<Event>,
    /// Host lines that came while the adapter waited for the program, in order.
    deferred: VecDeque<Input>,
    trace: bool,
}

impl Link {
    /// Starts `command` (program and arguments) under a guard, and from now on reads the host's
    /// input too. With `trace`, every line to and from the program is copied to stderr.
    pub fn start(name: &'static str, command: &[String], trace: bool) -> Result<Link, String> {
        let this = std::env::current_exe()
            .map_err(|error| format!("cannot find this program to start the guard: {error}"))?;
        let mut guard = Command::new(this)
            .arg(GUARD_FLAG)
            .args(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| format!("cannot start the guard for {name}: {error}"))?;
        let (Some(to_engine), Some(from_engine)) = (guard.stdin.take(), guard.stdout.take()) else {
            let _ = guard.kill();
            let _ = guard.wait();
            return Err(format!("the pipes to {name} could not be set up"));
        };
        let (sender, events) = mpsc::channel();
        let engine_events = sender.clone();
        thread::spawn(move || read_engine(from_engine, engine_events));
        thread::spawn(move || read_host(sender));
        Ok(Link {
            name,
            guard,
            to_engine: Some(to_engine),
            events,
            deferred: VecDeque::new(),
            trace,
        })
    }

    /// The program's name, for messages.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Sends the program one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        if self.trace {
            eprintln!("{}> {line}", self.name);
        }
        let written = match self.to_engine.as_mut() {
            Some(pipe) => writeln!(pipe, "{line}").and_then(|()| pipe.flush()),
            None => Err(io::Error::other("its input is closed")),
        };
        match written {
            Ok(()) => Ok(()),
            Err(error) => {
                let name = self.name;
                let exit = self.exit_text();
                Err(Failure::Lost(format!(
                    "cannot write to {name}: {error}; {exit}"
                )))
            }
        }
    }

    /// The program's next line, within `within` if given. Host lines that come meanwhile wait
    /// their turn ([`Link::host_input`]); but a wait without a time limit (a program thinking
    /// as long as it likes) ends at once at `goodbye` or the end of the host's input.
    pub fn engine_line(&mut self, within: Option<Duration>) -> Result<String, Failure> {
        let deadline = within.map(|within| Instant::now() + within);
        loop {
            let event = match deadline {
                Some(deadline) => {
                    match self
                        .events
                        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                    {
                        Ok(event) => event,
                        Err(RecvTimeoutError::Timeout) => {
                            return Err(Failure::Lost(format!(
                                "{} gave no answer within {} ms",
                                self.name,
                                within.unwrap_or_default().as_millis()
                            )));
                        }
                        Err(RecvTimeoutError::Disconnected) => Event::EngineClosed,
                    }
                }
                None => self.events.recv().unwrap_or(Event::EngineClosed),
            };
            match event {
                Event::Engine(line) => {
                    if self.trace {
                        eprintln!("{}< {line}", self.name);
                    }
                    return Ok(line);
                }
                Event::EngineClosed => return Err(Failure::Lost(self.exit_text())),
                Event::Host(input) => {
                    if within.is_none() && is_leaving(&input) {
                        return Err(Failure::HostLeft);
                    }
                    self.deferred.push_back(input);
                }
            }
        }
    }

    /// The program's lines up to and including the first one for which `last` holds.
    pub fn lines_until(
        &mut self,
        last: impl Fn(&str) -> bool,
        within: Option<Duration>,
    ) -> Result<Vec<String>, Failure> {
        let deadline = within.map(|within| Instant::now() + within);
        let mut lines = Vec::new();
        loop {
            let left = deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
            let line = self.engine_line(left)?;
            let done = last(&line);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    /// The host's next input. Lines the program prints meanwhile are dropped (copied to stderr
    /// with `trace`); its exit is a failure.
    pub fn host_input(&mut self) -> Result<Input, Failure> {
        if let Some(input) = self.deferred.pop_front() {
            return Ok(input);
        }
        loop {
            match self.events.recv().unwrap_or(Event::EngineClosed) {
                Event::Host(input) => return Ok(input),
                Event::Engine(line) => {
                    if self.trace {
                        eprintln!("{}< {line}", self.name);
                    }
                }
                Event::EngineClosed => return Err(Failure::Lost(self.exit_text())),
            }
        }
    }

    /// Asks the program to leave with `quit`, then closes its input (so the guard stops it in
    /// any case) and waits a moment for the guard to go.
    pub fn close(mut self, quit: &str) {
        let _ = self.send(quit);
        self.to_engine = None;
        let asked = Instant::now();
        while asked.elapsed() < Duration::from_millis(1000) {
            if matches!(self.guard.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.guard.kill();
        let _ = self.guard.wait();
    }

    /// How the program ended, as far as can be told (the guard prints its status on stderr).
    fn exit_text(&mut self) -> String {
        for _ in 0..50 {
            if let Ok(Some(status)) = self.guard.try_wait() {
                return format!(
                    "{} exited ({status}; its last words are on stderr)",
                    self.name
                );
            }
            thread::sleep(Duration::from_millis(10));
        }
        format!("{} closed its output", self.name)
    }
}

/// `goodbye`, or the end of the host's input.
fn is_leaving(input: &Input) -> bool {
    match input {
        Input::End => true,
        Input::Line(line) => line.split_whitespace().next() == Some("goodbye"),
        Input::TooLong(_) => false,
    }
}

/// Reads the host's lines (stdin) until it ends.
fn read_host(sender: Sender<Event>) {
    let mut reader = LineReader::new(io::stdin().lock());
    loop {
        let input = reader.next_input();
        let end = input == Input::End;
        if sender.send(Event::Host(input)).is_err() || end {
            return;
        }
    }
}

/// Reads the program's lines until it closes its output, whatever the bytes.
fn read_engine(output: impl Read, sender: Sender<Event>) {
    let mut reader = BufReader::new(output);
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
                let text = String::from_utf8_lossy(&buffer);
                let line = text.trim_end_matches(['\n', '\r']).to_string();
                if sender.send(Event::Engine(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = sender.send(Event::EngineClosed);
}

/// If this program was started as a guard (`--guard PROGRAM ARGS...`), runs the guard and exits
/// with the program's status; otherwise returns at once.
pub fn run_guard_if_asked() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    if arguments.first().map(String::as_str) == Some(GUARD_FLAG) {
        std::process::exit(guard(&arguments[1..]));
    }
}

/// Runs `command` with this process's output and error output, passing it this process's input;
/// when that input ends, gives the program a moment to leave and then kills it.
fn guard(command: &[String]) -> i32 {
    let Some((program, arguments)) = command.split_first() else {
        eprintln!("{GUARD_FLAG}: no program to run");
        return 2;
    };
    let mut child = match Command::new(program)
        .args(arguments)
        .stdin(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => {
            eprintln!("cannot start {program}: {error}");
            return 127;
        }
    };
    let Some(mut to_child) = child.stdin.take() else {
        let _ = child.kill();
        return 1;
    };
    let (ended, input_ended) = mpsc::channel();
    thread::spawn(move || {
        let _ = io::copy(&mut io::stdin().lock(), &mut to_child);
        drop(to_child);
        let _ = ended.send(());
    });
    let mut ended_at: Option<Instant> = None;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                if !status.success() {
                    eprintln!("{program} exited: {status}");
                }
                return status.code().unwrap_or(1);
            }
            Ok(None) => {}
            Err(_) => return 1,
        }
        if ended_at.is_none() && input_ended.recv_timeout(Duration::from_millis(20)).is_ok() {
            ended_at = Some(Instant::now());
        }
        if ended_at.is_some_and(|at| at.elapsed() > Duration::from_millis(300)) {
            let _ = child.kill();
            let _ = child.wait();
            return 0;
        }
        if ended_at.is_some() {
            thread::sleep(Duration::from_millis(10));
        }
    }
}
