//! The binary's loop over stdin and stdout, with three threads:
//!
//! - a reader turns stdin into lines (capped in length, junk decoded lossily) and sends them on;
//! - a worker owns the [`Searcher`] and runs one [`Job`] at a time;
//! - the main thread owns the [`Session`], reads commands in order and decides what to do with
//!   one that arrives while a job runs.
//!
//! A job is a search or a count (`perft`, `divide`); both can be stopped. While one runs:
//! `stop` stops it (a search answers with its move, a count with `stopped ...`); `goodbye` stops
//! a search at once (its answer dropped) and gives a count until [`CLOSING_COUNT_TIME`], and the
//! program ends within [`CLOSING_LIMIT`]; `clock` is taken at once (and may shorten a `play`);
//! host messages that change the game (`rules`, `position`, `side`, `move`, `opponent-move`,
//! `error`, `finish`, `start`) stop a search, which answers first, and wait behind a count like
//! every other command, so that a script's commands run in the order given. End of input stops
//! nothing: every command read is carried out to its end, then the program ends.
//!
//! Nothing the host sends can make the engine grow: the reader hands lines on through a queue of
//! [`INPUT_QUEUE`] (it waits while the main thread is behind), and when [`MAX_WAITING_COMMANDS`]
//! commands, or [`MAX_WAITING_BYTES`], wait for a job, the reader stops reading until one has
//! been carried out: the rest stay in the host's pipe, nothing is refused. A host that stops
//! reading ends the program: at a failed write, or at once when the program polls its output
//! ([`run_stdio_watching`]).

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::board::Wide;
use crate::search::{SearchConfig, Searcher, StopHandle};

use super::command::{Command, CommandError, MAX_LINE_BYTES, parse_command_on};
use super::reply;
use super::session::{AnyJob, AnyOutcome, Session, SessionOptions, error_reply};

/// One line of input, as the reader hands it on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its line break (`\n` or `\r\n`), decoded as UTF-8 with junk replaced.
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], skipped up to its line break; its length in bytes.
    TooLong(usize),
    /// End of input (or a read error, which means the same to a pipe).
    End,
}

/// Reads lines of at most [`MAX_LINE_BYTES`] from a byte stream without ever holding more.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    ended: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner,
            ended: false,
        }
    }

    /// The next line. A last line without a line break still counts as a line.
    pub fn next_input(&mut self) -> Input {
        if self.ended {
            return Input::End;
        }
        let mut line: Vec<u8> = Vec::new();
        let mut length = 0usize;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if available.is_empty() {
                self.ended = true;
                return match length {
                    0 => Input::End,
                    _ if length > MAX_LINE_BYTES => Input::TooLong(length),
                    _ => Input::Line(decode(&line)),
                };
            }
            let (chunk, found_newline) = match available.iter().position(|&b| b == b'\n') {
                Some(index) => (&available[..index], true),
                None => (available, false),
            };
            length = length.saturating_add(chunk.len());
            if length <= MAX_LINE_BYTES + 1 {
                line.extend_from_slice(chunk);
            }
            let consumed = chunk.len() + usize::from(found_newline);
            self.inner.consume(consumed);
            if found_newline {
                if line.last() == Some(&b'\r') && length <= MAX_LINE_BYTES + 1 {
                    line.pop();
                    length -= 1;
                }
                return if length > MAX_LINE_BYTES {
                    Input::TooLong(length)
                } else {
                    Input::Line(decode(&line))
                };
            }
        }
    }
}

/// The earlier of two optional times.
fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn decode(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes whole lines to stdout from any thread. If stdout is gone, so is the host: exit.
#[derive(Clone)]
struct Printer(Arc<Mutex<io::Stdout>>);

impl Printer {
    fn line(&self, text: &str) {
        let stdout = match self.0.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut stdout = stdout.lock();
        let written = writeln!(stdout, "{text}").and_then(|()| stdout.flush());
        if written.is_err() {
            std::process::exit(0);
        }
    }
}

fn exit_now(printer: &Printer) -> ! {
    let stdout = match printer.0.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    };
    let _ = stdout.lock().flush();
    std::process::exit(0)
}

/// A thread the engine cannot work without could not be started: says so to the host (a critical
/// error: the host ends the game) and on stderr, and exits with status 1.
fn cannot_start(printer: &Printer, what: &str, error: &io::Error) -> ! {
    let message = format!("cannot start the thread for {what}: {error}");
    printer.line(&reply::error(true, &message));
    eprintln!("tafl-engine: {message}");
    std::process::exit(1)
}

/// The worker's searcher. Its table is written in full when it is set up, which takes from
/// milliseconds to seconds (`--hash`): that is done on a thread of its own at start-up, while the
/// main thread reads commands and the worker runs counts, which need no searcher.
struct LazySearcher {
    ready: Option<Searcher>,
    /// A searcher with a small table, for searches stopped while the table is being set up.
    small: Option<Searcher>,
    making: Option<thread::JoinHandle<Searcher>>,
    config: SearchConfig,
    stop_sender: Sender<StopHandle>,
}

impl LazySearcher {
    /// Starts setting up a searcher; its stop handle goes to `stop_sender` once it exists.
    fn start(config: SearchConfig, stop_sender: Sender<StopHandle>) -> LazySearcher {
        let (thread_config, thread_sender) = (config.clone(), stop_sender.clone());
        let making = thread::Builder::new()
            .name("table".into())
            .spawn(move || {
                let searcher = Searcher::new(thread_config);
                let _ = thread_sender.send(searcher.stop_handle());
                searcher
            })
            .ok();
        LazySearcher {
            ready: None,
            small: None,
            making,
            config,
            stop_sender,
        }
    }

    /// The searcher, waiting for its set-up to end if it has not yet.
    fn get(&mut self) -> &mut Searcher {
        let (making, config, stop_sender) = (&mut self.making, &self.config, &self.stop_sender);
        self.ready.get_or_insert_with(|| {
            match making.take().map(thread::JoinHandle::join) {
                Some(Ok(searcher)) => searcher,
                // The set-up thread could not start or failed: set one up here.
                _ => {
                    let searcher = Searcher::new(config.clone());
                    let _ = stop_sender.send(searcher.stop_handle());
                    searcher
                }
            }
        })
    }

    /// The searcher for a search job: the real one, once it is set up; until then, if the job
    /// is stopped (`cancel`), a small one, so that a stopped search answers at once.
    fn for_job(&mut self, cancel: &AtomicBool) -> &mut Searcher {
        while self.ready.is_none() && self.making.as_ref().is_some_and(|h| !h.is_finished()) {
            if cancel.load(Ordering::Relaxed) {
                let config = SearchConfig {
                    hash_mb: 1,
                    ..self.config.clone()
                };
                return self.small.get_or_insert_with(|| Searcher::new(config));
            }
            thread::sleep(Duration::from_millis(1));
        }
        self.get()
    }

    /// Forgets what the searcher learnt; one that has not searched yet has nothing to forget.
    fn clear(&mut self) {
        for searcher in [&mut self.ready, &mut self.small].into_iter().flatten() {
            searcher.clear();
        }
    }
}

/// What the worker thread is asked to do.
enum WorkerMessage {
    /// Run a job and report its outcome.
    Run(u64, Box<AnyJob>, Arc<AtomicBool>),
    /// Forget what the searcher learnt (new rules), while the host is still setting up.
    Clear,
}

enum Event {
    Input(Input),
    Done(u64, AnyOutcome),
}

struct Running {
    id: u64,
    job: AnyJob,
    started: Instant,
    /// The watchdog: stop the search at this time whatever it is doing.
    deadline: Option<Instant>,
    cancel: Arc<AtomicBool>,
}

/// After `goodbye`, a count (`perft`, `divide`) may run this long before it is stopped, so that a
/// script that sends `perft 4` and `goodbye` together still gets its count.
const CLOSING_COUNT_TIME: Duration = Duration::from_millis(40);

/// After `goodbye`, the program ends within this time, whatever is running.
const CLOSING_LIMIT: Duration = Duration::from_millis(80);

/// How often a wanted stop is repeated until the search notices it.
const STOP_REPEAT: Duration = Duration::from_millis(5);

/// How often the output is looked at to see whether anybody still reads it
/// ([`run_stdio_watching`]).
const OUTPUT_WATCH: Duration = Duration::from_millis(100);

/// Lines read and not yet taken by the main thread, at most: past them the reader waits, and the
/// host's writes wait on the pipe.
const INPUT_QUEUE: usize = 64;

/// Commands waiting for a running job: when this many wait, the engine stops reading its input
/// until one has been carried out (the host's writes wait on the pipe).
const MAX_WAITING_COMMANDS: usize = 1000;

/// The waiting commands' lines: when they hold this many bytes (1 MiB), the engine stops
/// reading its input likewise.
const MAX_WAITING_BYTES: usize = 1 << 20;

/// Whether the reader may read on: closed while [`MAX_WAITING_COMMANDS`] or
/// [`MAX_WAITING_BYTES`] wait, so that a script's commands are held back in its pipe rather
/// than refused or held in memory.
struct ReadGate {
    open: Mutex<bool>,
    changed: Condvar,
}

impl ReadGate {
    fn new() -> ReadGate {
        ReadGate {
            open: Mutex::new(true),
            changed: Condvar::new(),
        }
    }

    fn set(&self, open: bool) {
        let mut guard = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if *guard != open {
            *guard = open;
            self.changed.notify_all();
        }
    }

    /// Waits until the gate is open.
    fn wait_open(&self) {
        let guard = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let _open = self
            .changed
            .wait_while(guard, |open| !*open)
            .unwrap_or_else(PoisonError::into_inner);
    }
}

struct Driver {
    session: Session,
    printer: Printer,
    jobs: Sender<WorkerMessage>,
    /// The searcher's stop handle, once the worker has made the searcher.
    stop: Option<StopHandle>,
    stop_receiver: Receiver<StopHandle>,
    running: Option<Running>,
    /// Commands waiting for the running job, with the length of each one's line.
    queue: VecDeque<(Result<Command<Wide>, CommandError>, usize)>,
    /// The sum of those lengths.
    queued_bytes: usize,
    /// Closed while the queue is full.
    gate: Arc<ReadGate>,
    next_id: u64,
    /// End of input seen: carry out every command read, to its end, then exit.
    input_ended: bool,
    /// `goodbye` seen: searches are stopped and not answered, counts get
    /// [`CLOSING_COUNT_TIME`], and the program ends by [`CLOSING_LIMIT`].
    quitting: bool,
    /// After `goodbye`: a count still running at this time is stopped.
    count_until: Option<Instant>,
    /// After `goodbye`: exit at this time even if a job has not answered yet.
    exit_by: Option<Instant>,
}

impl Driver {
    /// Sets the searcher's stop flag (a search that has not begun yet sees its job's cancel
    /// flag instead).
    fn stop_searcher(&mut self) {
        if self.stop.is_none() {
            self.stop = self.stop_receiver.try_recv().ok();
        }
        if let Some(stop) = &self.stop {
            stop.stop();
        }
    }

    /// Ask the running job to stop, now and again until it does. It still answers (a search
    /// with its best move so far, a count with `stopped ...`).
    fn stop_running(&mut self) {
        if let Some(running) = self.running.as_mut() {
            running.cancel.store(true, Ordering::Relaxed);
            running.deadline = Some(Instant::now());
            if running.job.is_search() {
                self.stop_searcher();
            }
        }
    }

    fn start(&mut self, job: AnyJob) {
        if self.quitting && job.is_search() {
            // After goodbye nobody reads a search's answer: none is started.
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let started = Instant::now();
        let mut deadline = job.hard_limit().map(|limit| started + limit);
        if self.quitting {
            // A count has what is left of its time.
            deadline = earliest(deadline, self.count_until);
        }
        let message = WorkerMessage::Run(id, Box::new(job.clone()), Arc::clone(&cancel));
        if self.jobs.send(message).is_err() {
            // The worker is gone (it cannot be, short of a panic): nothing more can be done.
            exit_now(&self.printer);
        }
        self.running = Some(Running {
            id,
            job,
            started,
            deadline,
            cancel,
        });
    }

    /// A command, in input order, when no job runs.
    fn process(&mut self, item: Result<Command<Wide>, CommandError>) {
        match item {
            Err(error) => self.printer.line(&error_reply(&error)),
            Ok(Command::Goodbye) => exit_now(&self.printer),
            Ok(command) => {
                let printer = self.printer.clone();
                let mut out = |line: String| printer.line(&line);
                let job = self.session.handle_command(command, &mut out);
                if self.session.take_rules_changed() {
                    // Cleared now, on the worker, rather than on the clock of the next `play`.
                    let _ = self.jobs.send(WorkerMessage::Clear);
                }
                if let Some(job) = job {
                    self.start(job);
                }
            }
        }
    }

    /// Whether the waiting commands fill the queue: the reader then waits.
    fn queue_full(&self) -> bool {
        self.queue.len() >= MAX_WAITING_COMMANDS || self.queued_bytes >= MAX_WAITING_BYTES
    }

    /// Puts a command behind the running job. When the queue is full the reader stops reading
    /// (the lines it had read already still come, at most [`INPUT_QUEUE`]).
    fn enqueue(&mut self, item: Result<Command<Wide>, CommandError>, bytes: usize) {
        self.queued_bytes += bytes;
        self.queue.push_back((item, bytes));
        if self.queue_full() {
            self.gate.set(false);
        }
    }

    /// The next waiting command.
    fn dequeue(&mut self) -> Option<Result<Command<Wide>, CommandError>> {
        let (item, bytes) = self.queue.pop_front()?;
        self.queued_bytes -= bytes;
        if !self.queue_full() {
            self.gate.set(true);
        }
        Some(item)
    }

    /// A command that arrives while a job runs; `bytes` is its line's length.
    fn arrive_while_running(&mut self, item: Result<Command<Wide>, CommandError>, bytes: usize) {
        let search = self.running.as_ref().is_some_and(|r| r.job.is_search());
        match &item {
            Ok(Command::Goodbye) => self.quit(),
            Ok(Command::Stop) => self.stop_running(),
            Ok(Command::Clock(_)) => {
                if let Ok(command) = item {
                    let mut out = |line: String| self.printer.line(&line);
                    let _ = self.session.handle_command(command, &mut out);
                }
                // A clock after `play` (as the OTEP text orders it) may shorten that search.
                if let Some(running) = self.running.as_mut() {
                    if let Some(side) = running.job.play_side() {
                        let (_, hard) = self.session.play_limits(side);
                        let new_deadline = running.started + hard;
                        if running.deadline.is_none_or(|old| new_deadline < old) {
                            running.deadline = Some(new_deadline);
                        }
                    }
                }
            }
            Ok(
                Command::Rules(_)
                | Command::Position(_)
                | Command::Side(_)
                | Command::Move(_)
                | Command::OpponentMove { .. }
                | Command::HostError { .. }
                | Command::Finish(_)
                | Command::Start,
            ) if search => {
                // A GUI's message outranks the search it interrupts: the search answers now
                // (its best move so far), then the message is carried out.
                self.enqueue(item, bytes);
                self.stop_running();
            }
            // Everything else, and every command during a count (a GUI never counts: these are
            // a script's), waits its turn.
            _ => self.enqueue(item, bytes),
        }
    }

    /// `goodbye`: stop thinking and exit. A search is stopped and not answered; a count gets
    /// until [`CLOSING_COUNT_TIME`] and is then stopped (printing `stopped ...`); commands that
    /// wait are carried out until [`CLOSING_LIMIT`], when the program ends whatever runs.
    fn quit(&mut self) {
        self.quitting = true;
        let now = Instant::now();
        self.count_until = earliest(self.count_until, Some(now + CLOSING_COUNT_TIME));
        self.exit_by = earliest(self.exit_by, Some(now + CLOSING_LIMIT));
        match self.running.as_ref().map(|running| running.job.is_search()) {
            Some(true) => self.stop_running(),
            Some(false) => {
                if let Some(running) = self.running.as_mut() {
                    running.deadline = earliest(running.deadline, self.count_until);
                }
            }
            None => {}
        }
        if self.running.is_none() && self.queue.is_empty() {
            exit_now(&self.printer);
        }
    }

    fn on_input(&mut self, input: Input) {
        if self.quitting {
            // Nothing after goodbye counts.
            return;
        }
        let (item, bytes) = match input {
            Input::End => {
                // Every command read is carried out to its end, then the program ends.
                self.input_ended = true;
                if self.running.is_none() && self.queue.is_empty() {
                    exit_now(&self.printer);
                }
                return;
            }
            // The line itself is not kept: it counts for little.
            Input::TooLong(length) => (Err(CommandError::TooLong(length)), 0),
            Input::Line(line) => {
                if line
                    .trim_matches(|c: char| c.is_ascii_whitespace())
                    .is_empty()
                {
                    return;
                }
                (parse_command_on::<Wide>(&line), line.len())
            }
        };
        if self.running.is_some() {
            self.arrive_while_running(item, bytes);
        } else if item == Ok(Command::Goodbye) {
            self.quit();
        } else {
            self.process(item);
        }
    }

    fn on_done(&mut self, id: u64, outcome: AnyOutcome) {
        let Some(running) = self.running.take_if(|running| running.id == id) else {
            return;
        };
        // After goodbye nobody reads a search's answer; a count's lines (`stopped ...` too)
        // are still printed.
        if !(self.quitting && running.job.is_search()) {
            let printer = self.printer.clone();
            let mut out = |line: String| printer.line(&line);
            self.session.finish_job(&running.job, outcome, &mut out);
        }
        while self.running.is_none() {
            // After goodbye, what still waits at the closing limit is dropped.
            if self
                .exit_by
                .is_some_and(|exit_by| Instant::now() >= exit_by)
            {
                exit_now(&self.printer);
            }
            match self.dequeue() {
                Some(item) => self.process(item),
                None => break,
            }
        }
        let done = self.input_ended || self.quitting;
        if done && self.running.is_none() && self.queue.is_empty() {
            exit_now(&self.printer);
        }
    }

    /// When the main loop must wake up without input: a watchdog or the closing limit.
    fn wake_at(&self) -> Option<Instant> {
        let running = self.running.as_ref()?;
        earliest(running.deadline, self.exit_by)
    }

    fn on_timeout(&mut self) {
        let now = Instant::now();
        let closing = self.exit_by.is_some_and(|exit_by| now >= exit_by);
        if let (Some(running), true) = (&self.running, closing) {
            // The job did not answer in time: the host asked us to go, so go. A count still
            // says it was stopped (a machine too busy to run its thread in time must not leave
            // a command unanswered); a search is not answered after goodbye.
            if let Some(line) = running.job.stopped_line(now - running.started) {
                self.printer.line(&line);
            }
            exit_now(&self.printer);
        }
        if let Some(running) = self.running.as_mut() {
            if running.deadline.is_some_and(|deadline| now >= deadline) {
                running.cancel.store(true, Ordering::Relaxed);
                running.deadline = Some(now + STOP_REPEAT);
                if running.job.is_search() {
                    self.stop_searcher();
                }
            }
        }
    }

    fn run(&mut self, events: Receiver<Event>) -> ! {
        loop {
            let event = match self.wake_at() {
                Some(at) => {
                    let wait = at.saturating_duration_since(Instant::now());
                    match events.recv_timeout(wait) {
                        Ok(event) => Some(event),
                        Err(RecvTimeoutError::Timeout) => None,
                        Err(RecvTimeoutError::Disconnected) => exit_now(&self.printer),
                    }
                }
                None => match events.recv() {
                    Ok(event) => Some(event),
                    Err(_) => exit_now(&self.printer),
                },
            };
            match event {
                None => self.on_timeout(),
                Some(Event::Input(input)) => self.on_input(input),
                Some(Event::Done(id, outcome)) => self.on_done(id, outcome),
            }
        }
    }
}

/// Runs the engine on stdin and stdout until `goodbye` or the end of input; never returns.
/// Prints `hello` first, before anything that takes time. At the end of input every command
/// read is carried out to its end first. A host that stops reading is seen when a write fails;
/// [`run_stdio_watching`] also sees it while nothing is written.
pub fn run_stdio(options: SessionOptions) -> ! {
    run_stdio_watching(options, None)
}

/// [`run_stdio`], asking `output_closed` every 100 ms whether anybody still reads the output:
/// when it says no one does, the engine exits at once (status 0), whatever runs or waits. The
/// library has no portable way to ask; a program passes its system's (on Unix, `poll` on the
/// output reports an error or hang-up once the reader has closed a pipe or socket).
pub fn run_stdio_watching(options: SessionOptions, output_closed: Option<fn() -> bool>) -> ! {
    let printer = Printer(Arc::new(Mutex::new(io::stdout())));
    printer.line("hello");

    let (events_in, events) = mpsc::sync_channel::<Event>(INPUT_QUEUE);

    if let Some(output_closed) = output_closed {
        let spawned = thread::Builder::new().name("output".into()).spawn(move || {
            loop {
                thread::sleep(OUTPUT_WATCH);
                if output_closed() {
                    // Nobody reads: nothing to flush, nothing to finish.
                    std::process::exit(0);
                }
            }
        });
        // Without the watch a closed output is still seen at the next write.
        drop(spawned);
    }

    let gate = Arc::new(ReadGate::new());
    let reader_gate = Arc::clone(&gate);
    let reader_events = events_in.clone();
    let spawned = thread::Builder::new().name("stdin".into()).spawn(move || {
        let mut reader = LineReader::new(io::stdin().lock());
        loop {
            // While the queue of waiting commands is full, the lines stay in the pipe.
            reader_gate.wait_open();
            let input = reader.next_input();
            let end = input == Input::End;
            if reader_events.send(Event::Input(input)).is_err() || end {
                return;
            }
        }
    });
    if let Err(error) = spawned {
        cannot_start(&printer, "its input", &error);
    }

    let session = Session::new(options);
    let config = session.search_config();
    let (jobs, job_queue) = mpsc::channel::<WorkerMessage>();
    let (stop_sender, stop_receiver) = mpsc::channel::<StopHandle>();
    let worker_printer = printer.clone();
    let worker_events = events_in;
    let spawned = thread::Builder::new().name("search".into()).spawn(move || {
        let mut searcher = LazySearcher::start(config, stop_sender);
        for message in job_queue {
            let (id, job, cancel) = match message {
                WorkerMessage::Clear => {
                    searcher.clear();
                    continue;
                }
                WorkerMessage::Run(id, job, cancel) => (id, job, cancel),
            };
            let mut out = |line: String| worker_printer.line(&line);
            // A bug in the search must not leave the host without an answer.
            let run = panic::catch_unwind(AssertUnwindSafe(|| match job.count(&cancel) {
                Some(counted) => counted,
                None => job.run(searcher.for_job(&cancel), &cancel, &mut out),
            }));
            let outcome = run.unwrap_or_else(|_| {
                // The searcher may be half-updated: forget what it learnt.
                searcher.clear();
                job.failed()
            });
            if worker_events.send(Event::Done(id, outcome)).is_err() {
                return;
            }
        }
    });
    if let Err(error) = spawned {
        cannot_start(&printer, "the search", &error);
    }

    let mut driver = Driver {
        session,
        printer,
        jobs,
        stop: None,
        stop_receiver,
        running: None,
        queue: VecDeque::new(),
        queued_bytes: 0,
        gate,
        next_id: 0,
        input_ended: false,
        quitting: false,
        count_until: None,
        exit_by: None,
    };
    driver.run(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(bytes: &[u8]) -> Vec<Input> {
        let mut reader = LineReader::new(io::BufReader::with_capacity(7, bytes));
        let mut all = Vec::new();
        loop {
            let input = reader.next_input();
            let end = input == Input::End;
            all.push(input);
            if end {
                return all;
            }
        }
    }

    #[test]
    fn lines_are_split_and_crlf_dropped() {
        assert_eq!(
            inputs(b"hello\r\nperft 1\n\nlast"),
            [
                Input::Line("hello".into()),
                Input::Line("perft 1".into()),
                Input::Line(String::new()),
                Input::Line("last".into()),
                Input::End
            ]
        );
    }

    #[test]
    fn long_lines_are_skipped_whole_and_junk_is_decoded() {
        let mut bytes = vec![b'x'; MAX_LINE_BYTES + 10];
        bytes.extend_from_slice(b"\nshow\n\xff\xfe\x00\n");
        let all = inputs(&bytes);
        assert_eq!(all[0], Input::TooLong(MAX_LINE_BYTES + 10));
        assert_eq!(all[1], Input::Line("show".into()));
        assert_eq!(all[2], Input::Line("\u{fffd}\u{fffd}\u{0}".into()));
        assert_eq!(all[3], Input::End);
        // A line of exactly the limit is still a line.
        let mut bytes = vec![b'y'; MAX_LINE_BYTES];
        bytes.push(b'\n');
        assert!(matches!(&inputs(&bytes)[0], Input::Line(l) if l.len() == MAX_LINE_BYTES));
    }
}
