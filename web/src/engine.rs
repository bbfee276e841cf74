//! The engine's searches: at most N at once on the blocking thread pool, the others waiting in
//! a fair (first come, first served) queue whose place each waiter is told; each search has a
//! small table of its own and a time limit; a search whose page left is stopped.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tafl_engine::search::{Limits, Score, SearchConfig, SearchInfo, Searcher, StopHandle};
use tafl_engine::{Board, Game, Move, Side};
use tokio::sync::{Notify, Semaphore, mpsc, watch};

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

/// The searches: a bounded number at once, a fair queue for the rest.
pub struct Pool {
    permits: Arc<Semaphore>,
    waiting: Mutex<VecDeque<u64>>,
    next_ticket: AtomicU64,
    changed: watch::Sender<u64>,
    hash_mb: usize,
    running: AtomicU64,
}

impl Pool {
    /// A pool running at most `searches` searches at once, each with a table of `hash_mb` MiB.
    pub fn new(searches: usize, hash_mb: usize) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(searches.max(1))),
            waiting: Mutex::new(VecDeque::new()),
            next_ticket: AtomicU64::new(0),
            changed: watch::channel(0).0,
            hash_mb: hash_mb.max(1),
            running: AtomicU64::new(0),
        }
    }

    /// Searches waiting, searches running.
    pub fn load(&self) -> (usize, u64) {
        let waiting = self.waiting.lock().map(|w| w.len()).unwrap_or(0);
        (waiting, self.running.load(Ordering::SeqCst))
    }

    fn leave_queue(&self, ticket: u64) {
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.retain(|&t| t != ticket);
        }
        self.changed.send_modify(|n| *n += 1);
    }

    fn place(&self, ticket: u64) -> usize {
        self.waiting
            .lock()
            .ok()
            .and_then(|w| w.iter().position(|&t| t == ticket))
            .map_or(0, |p| p + 1)
    }

    /// Searches `table`'s position within `limits`, with `lines` best lines; `viewer` is the side
    /// whose win chance is reported. Waits its turn in the queue, telling `events` its place;
    /// gives up (returns `None`) when `control` cancels it (the page left, the game changed).
    pub async fn search(
        &self,
        table: Table,
        limits: Limits,
        lines: usize,
        viewer: Side,
        control: Arc<Control>,
        events: mpsc::UnboundedSender<Event>,
    ) -> Option<Found> {
        let ticket = self.next_ticket.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.push_back(ticket);
        }
        let mut changes = self.changed.subscribe();
        // One acquire future for the whole wait: the semaphore is FIFO, so the place holds.
        let acquire = self.permits.clone().acquire_owned();
        tokio::pin!(acquire);
        let mut told = usize::MAX;
        let permit = loop {
            // A free slot is taken at once, without telling a place in the queue.
            tokio::select! {
                biased;
                permit = &mut acquire => break permit.ok(),
                _ = std::future::ready(()) => {}
            }
            let place = self.place(ticket);
            if place != told {
                told = place;
                let _ = events.send(Event::Queue { place });
            }
            tokio::select! {
                permit = &mut acquire => break permit.ok(),
                _ = changes.changed() => {}
                _ = control.woken.notified() => if control.is_cancelled() { break None },
            }
        };
        self.leave_queue(ticket);
        let permit = permit?;
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
        // Counted as running before the page is told it started.
        self.running.fetch_add(1, Ordering::SeqCst);
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
        self.running.fetch_sub(1, Ordering::SeqCst);
        drop(permit);
        if control.is_cancelled() {
            return None;
        }
        found
    }
}

fn thought<B: Board>(
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

fn run<B: Board>(
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
