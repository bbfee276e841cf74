//! What a search may spend: depth, nodes, time, or a game clock.

use std::time::Duration;

/// A game clock as OTEP's `clock` command gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Main time left (or, when `in_overtime`, what is left of the current overtime period).
    pub remaining: Duration,
    /// Whether the side is in overtime.
    pub in_overtime: bool,
    /// Length of one overtime period.
    pub overtime: Duration,
    /// Overtime periods left.
    pub overtime_periods: u32,
    /// Added at the start of each turn.
    pub increment: Duration,
}

/// Limits of one search. With no limit set, the search runs until stopped (or until it has
/// proved the result).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Limits {
    /// Deepest depth, in plies.
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// Longest time to think.
    pub move_time: Option<Duration>,
    /// The clock of the side to move: the search budgets its own time from it.
    pub clock: Option<Clock>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn move_time(time: Duration) -> Limits {
        Limits {
            move_time: Some(time),
            ..Limits::default()
        }
    }

    /// Play from a game clock.
    pub fn clock(clock: Clock) -> Limits {
        Limits {
            clock: Some(clock),
            ..Limits::default()
        }
    }

    /// The time this search may take, if any bound applies: the move time, or a share of the
    /// clock that never risks running out. This is the hard limit: the search stops when it is
    /// reached.
    ///
    /// On a clock in main time it allows up to three times the usual share of a move (never more
    /// than a quarter of what is left), which the search spends only when its result is
    /// unsettled ([`Limits::soft_time_limit`]); in overtime and with a fixed move time, the
    /// usual share is also the limit.
    pub fn time_budget(&self) -> Option<Duration> {
        let from_clock = self.clock.map(|clock| match clock_share(&clock) {
            Share::Main(share) => usable((share * 3).min(clock.remaining / 4))
                .max(usable(share))
                .max(Duration::from_millis(10)),
            Share::Overtime(period) => period,
        });
        match (self.move_time, from_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// After this much time the search starts no new iteration when its result is settled (the
    /// same best move and a steady score): half the usual share of a move. An unsettled search
    /// may start iterations until half of [`Limits::time_budget`].
    pub fn soft_time_limit(&self) -> Option<Duration> {
        let from_clock = self.clock.map(|clock| match clock_share(&clock) {
            Share::Main(share) => usable(share).max(Duration::from_millis(10)) / 2,
            Share::Overtime(period) => period / 2,
        });
        match (self.move_time.map(|time| time / 2), from_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Keeps a safety margin for the host's latency.
fn usable(time: Duration) -> Duration {
    time.saturating_sub(Duration::from_millis(50))
}

/// The usual share of a clock for one move.
enum Share {
    /// In main time: about 1/30 of it plus most of the increment, at most half of it.
    Main(Duration),
    /// In overtime or about to be: most of one period (already with the safety margin).
    Overtime(Duration),
}

fn clock_share(clock: &Clock) -> Share {
    let main_share = clock.remaining / 30 + clock.increment * 3 / 4;
    if clock.in_overtime || clock.remaining < clock.overtime && clock.overtime_periods > 0 {
        let period = if clock.in_overtime {
            clock.remaining.min(clock.overtime.max(clock.remaining))
        } else {
            clock.overtime
        };
        Share::Overtime(usable(period * 3 / 4).max(Duration::from_millis(10)))
    } else {
        Share::Main(main_share.min(clock.remaining / 2))
    }
}
