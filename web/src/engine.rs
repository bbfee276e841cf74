//! The engine's searches: at most N at once on the blocking thread pool, the others waiting in
//! a queue that is fair between players and puts engine moves first ([`crate::queue`]), whose
//! place each waiter is told; each search has a small table of its own and a time limit; a
//! search whose page left is stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tafl_engine::search::{Limits, Score, SearchConfig, SearchInfo, Searcher, StopHandle};
use tafl_engine::{Game, Grid, Move, Side};
use tokio::sync::{Notify, mpsc, oneshot, watch};

pub use crate::queue::Class;
use crate::queue::Queue;
use crate::table::{Table, on_grid};

/// A named engine level: its time per move.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Level {
    /// The name the page translates.
    pub key: &'static str,
    /// Time per move, in milliseconds.
    pub millis: u64,
}

/// The engine's levels, weakest first.
pub const LEVELS: [Level; 6] = [
    Level {
        key: "instant",
        millis: 100,
    },
    Level {
        key: "quick",
        millis: 500,
    },
    Level {
        key: "casual",
        millis: 1_000,
    },
    Level {
        key: "club",
        millis: 3_000,
    },
    Level {
        key: "strong",
        millis: 8_000,
    },
    Level {
        key: "master",
        millis: 20_000,
    },
];

/// The chance in percent that the side whose score this is wins, a draw counting half: the
/// expected result the shown scale promises ([`Score::expected_result`]: a lead of one soldier
/// is 73 %), 100 and 0 for forced wins and losses.
pub fn win_chance(score: Score) -> f64 {
    100.0 * score.expected_result()
}

/// What a search tells its page while it runs.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Waiting: this many searches come before it.
    Queue {
        /// Place in the queue, from 1.
        place: usize,
    },
    /// The search started.
    Started,
    /// A depth was completed.
    Info(Thought),
}

/// The engine's opinion after a depth.
#[derive(Clone, Debug, Serialize)]
pub struct Thought {
    /// Depth completed.
    pub depth: u32,
    /// Win chance of the person (or of the side to move, in analysis), in percent.
    pub win: f64,
    /// The score from that side's view, in hundredths of a soldier of the shown scale (docs/search.md; forced results: ±100000).
    pub score: i32,
    /// Plies to a forced result, positive when that side wins.
    pub forced: Option<i32>,
    /// The best line.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub millis: u64,
}

/// What a finished search found.
#[derive(Clone, Debug, Serialize)]
pub struct Found {
    /// The best move.
    pub best: Option<String>,
    /// The best lines, best first, each with its opinion.
    pub lines: Vec<Thought>,
}

/// How a page steers its search: stop now (play the best move found) or give up (the page
/// left, or the game changed).
#[derive(Default)]
pub struct Control {
    handle: Mutex<Option<StopHandle>>,
    now: AtomicBool,
    cancelled: AtomicBool,
    woken: Notify,
}

impl Control {
    /// Stops the search and keeps its best move ("move now").
    pub fn stop_now(&self) {
        self.now.store(true, Ordering::SeqCst);
        self.stop_search();
    }

    /// Stops the search and drops its result.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        self.stop_search();
        // Wakes the search if it waits in the queue (the permit is kept if it is not waiting yet).
        self.woken.notify_one();
    }

    /// Whether the search's result is to be dropped.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    fn stop_search(&self) {
        if let Ok(handle) = self.handle.lock()
            && let Some(handle) = handle.as_ref()
        {
            handle.stop();
        }
    }
}

/// Who asks for a search, and what for: its place in the queue ([`crate::queue`]).
#[derive(Clone, Debug)]
pub struct Job {
    /// The player's key: the seat's secret when the game has one, else the game.
    pub player: String,
    /// The engine's move, a hint or analysis, or a background review.
    pub class: Class,
}

/// The queue and the slots, shared with the searches that hold a slot.
struct Slots {
    queue: Mutex<Queue<oneshot::Sender<Slot>>>,
    changed: watch::Sender<u64>,
}

impl Slots {
    /// Starts every waiting search that may start now.
    fn dispatch(self: &Arc<Self>) {
        let Ok(mut queue) = self.queue.lock() else {
            return;
        };
        while let Some((_ticket, class, waiter)) = queue.start_next() {
            let slot = Slot {
                slots: self.clone(),
                class,
                held: true,
            };
            // A waiter that left in the meantime: its slot is free again at once (under this
            // lock, so the slot's drop must not take it).
            if let Err(mut slot) = waiter.send(slot) {
                slot.held = false;
                queue.finished(class);
            }
        }
        drop(queue);
        self.changed.send_modify(|n| *n += 1);
    }
}

/// A running search's slot: dropping it frees the slot and starts the next search.
struct Slot {
    slots: Arc<Slots>,
    class: Class,
    /// False for a slot its waiter never took (already counted free).
    held: bool,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if !self.held {
            return;
        }
        if let Ok(mut queue) = self.slots.queue.lock() {
            queue.finished(self.class);
        }
        self.slots.dispatch();
    }
}

/// The searches: a bounded number at once, the rest waiting in a queue that is fair between
/// players and puts the engine's moves first ([`crate::queue`]).
pub struct Pool {
    slots: Arc<Slots>,
    hash_mb: usize,
    /// The searches waiting or running, so that a server that stops can cancel them all.
    controls: Mutex<Vec<std::sync::Weak<Control>>>,
    /// Set when the server stops: no search starts any more.
    closed: AtomicBool,
}

impl Pool {
    /// A pool running at most `searches` searches at once, each with a table of `hash_mb` MiB.
    pub fn new(searches: usize, hash_mb: usize) -> Pool {
        Pool {
            slots: Arc::new(Slots {
                queue: Mutex::new(Queue::new(searches)),
                changed: watch::channel(0).0,
            }),
            hash_mb: hash_mb.max(1),
            controls: Mutex::new(Vec::new()),
            closed: AtomicBool::new(false),
        }
    }

    /// Cancels every search waiting or running, and every one asked for from now on (the
    /// server stops: an engine's move not played here is searched again where the game is
    /// next read). Returns how many were cancelled.
    pub fn close(&self) -> usize {
        self.closed.store(true, Ordering::SeqCst);
        let controls = self
            .controls
            .lock()
            .map(|mut c| std::mem::take(&mut *c))
            .unwrap_or_default();
        let mut cancelled = 0;
        for control in controls.iter().filter_map(std::sync::Weak::upgrade) {
            control.cancel();
            cancelled += 1;
        }
        cancelled
    }

    /// Notes `control` as a search's, for [`Pool::close`]; false once the pool is closed.
    fn register(&self, control: &Arc<Control>) -> bool {
        let Ok(mut controls) = self.controls.lock() else {
            return false;
        };
        // Under the lock: `close` takes the list under it after setting the flag.
        if self.closed.load(Ordering::SeqCst) {
            return false;
        }
        if controls.len() >= 64 && controls.len().is_power_of_two() {
            controls.retain(|c| c.strong_count() > 0);
        }
        controls.push(Arc::downgrade(control));
        true
    }

    /// Searches waiting, searches running.
    pub fn load(&self) -> (usize, u64) {
        self.slots.queue.lock().map_or((0, 0), |q| {
            let (waiting, running) = q.load();
            (waiting, running as u64)
        })
    }

    /// Waits for a slot for `job`, telling `events` its place; `None` when `control` cancels
    /// it first, or a newer hint of the same player replaces it.
    async fn slot(
        &self,
        job: &Job,
        control: &Control,
        events: &mpsc::UnboundedSender<Event>,
    ) -> Option<Slot> {
        let (sender, mut receiver) = oneshot::channel();
        let ticket = {
            let mut queue = self.slots.queue.lock().ok()?;
            let pushed = queue.push(&job.player, job.class, sender);
            // The replaced search's waiter sees its sender dropped, and gives up.
            drop(pushed.replaced);
            pushed.ticket
        };
        let mut changes = self.slots.changed.subscribe();
        self.slots.dispatch();
        let mut told = usize::MAX;
        loop {
            // A free slot is taken at once, without telling a place in the queue.
            match receiver.try_recv() {
                Ok(slot) => return Some(slot),
                Err(oneshot::error::TryRecvError::Closed) => return None,
                Err(oneshot::error::TryRecvError::Empty) => {}
            }
            if control.is_cancelled() {
                break;
            }
            let place = self.slots.queue.lock().map_or(0, |q| q.place(ticket));
            if place != told {
                told = place;
                let _ = events.send(Event::Queue { place });
            }
            tokio::select! {
                slot = &mut receiver => return slot.ok(),
                _ = changes.changed() => {}
                _ = control.woken.notified() => {}
            }
        }
        // Cancelled while waiting: leave the queue (a slot granted meanwhile is dropped, which
        // frees it for the next).
        let removed = self
            .slots
            .queue
            .lock()
            .ok()
            .and_then(|mut q| q.remove(ticket));
        drop(removed);
        receiver.close();
        drop(receiver.try_recv().ok());
        self.slots.changed.send_modify(|n| *n += 1);
        None
    }

    /// Searches `table`'s position within `limits`, with `lines` best lines; `viewer` is the side
    /// whose win chance is reported. Waits its turn in the queue (`job` says whose and what
    /// for), telling `events` its place; gives up (returns `None`) when `control` cancels it
    /// (the page left, the game changed) or a newer hint of the same player replaces it.
    #[allow(clippy::too_many_arguments)]
    pub async fn search(
        &self,
        job: Job,
        table: Table,
        limits: Limits,
        lines: usize,
        viewer: Side,
        control: Arc<Control>,
        events: mpsc::UnboundedSender<Event>,
    ) -> Option<Found> {
        if !self.register(&control) {
            return None;
        }
        let slot = self.slot(&job, &control, &events).await?;
        let mut searcher = Searcher::new(SearchConfig {
            threads: 1,
            hash_mb: self.hash_mb,
        });
        let stop = searcher.stop_handle();
        if let Ok(mut handle) = control.handle.lock() {
            *handle = Some(stop.clone());
        }
        // After the handle is set, so that a cancel from now on stops the search.
        if control.is_cancelled() {
            return None;
        }
        let _ = events.send(Event::Started);
        let limits = if control.now.load(Ordering::SeqCst) {
            Limits::depth(1)
        } else {
            limits
        };
        let job_events = events.clone();
        let found = tokio::task::spawn_blocking(move || {
            on_grid!(&table, |_variant, game| run(
                &mut searcher,
                game,
                &limits,
                lines,
                viewer,
                &job_events
            ))
        })
        .await
        .ok();
        drop(slot);
        if control.is_cancelled() {
            return None;
        }
        found
    }
}

fn thought<B: Grid>(
    depth: u32,
    score: Score,
    pv: &[Move<B>],
    nodes: u64,
    elapsed: Duration,
    flip: bool,
) -> Thought {
    let score = if flip { -score } else { score };
    Thought {
        depth,
        win: (win_chance(score) * 10.0).round() / 10.0,
        score: if score.is_forced() {
            score.0.signum() * 100_000
        } else {
            score.0
        },
        forced: score.forced_in(),
        pv: pv.iter().map(|m| m.to_string()).collect(),
        nodes,
        millis: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
    }
}

fn run<B: Grid>(
    searcher: &mut Searcher,
    game: &Game<B>,
    limits: &Limits,
    lines: usize,
    viewer: Side,
    events: &mpsc::UnboundedSender<Event>,
) -> Found {
    // Scores are the side to move's; the page wants the viewer's.
    let flip = game.position().side_to_move() != viewer;
    let result = searcher.search_multi_pv(game, limits, lines, |info: &SearchInfo<B>| {
        let _ = events.send(Event::Info(thought(
            info.depth,
            info.score,
            &info.pv,
            info.nodes,
            info.elapsed,
            flip,
        )));
    });
    let best = result
        .best_move
        .or_else(|| game.legal_moves().first().copied())
        .map(|m| m.to_string());
    let mut found_lines: Vec<Thought> = result
        .lines
        .iter()
        .map(|line| {
            thought(
                result.depth,
                line.score,
                &line.moves,
                result.nodes,
                result.elapsed,
                flip,
            )
        })
        .collect();
    if found_lines.is_empty() {
        found_lines.push(thought(
            result.depth,
            result.score,
            &result.pv,
            result.nodes,
            result.elapsed,
            flip,
        ));
    }
    Found {
        best,
        lines: found_lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_chance_is_the_expected_result_of_the_shown_score() {
        assert_eq!(win_chance(Score(0)), 50.0);
        let ahead = win_chance(Score(100));
        assert!((ahead - 73.105).abs() < 0.01, "{ahead}");
        assert!((win_chance(Score(-100)) + ahead - 100.0).abs() < 1e-9);
        assert_eq!(win_chance(Score::win_in(3)), 100.0);
        assert_eq!(win_chance(Score::loss_in(4)), 0.0);
        let mut last = 0.0;
        for cp in (-3000..=3000).step_by(50) {
            let chance = win_chance(Score(cp));
            assert!(chance > last, "not rising at {cp}");
            last = chance;
        }
    }
}
