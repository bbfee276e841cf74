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
    /// clock that never risks running out.
    pub fn time_budget(&self) -> Option<Duration> {
        let from_clock = self.clock.map(|clock| {
            // Keep a safety margin for the host's latency; spend about 1/30 of main time plus
            // most of the increment, or most of one overtime period when main time is short.
            let margin = Duration::from_millis(50);
            let usable = |time: Duration| time.saturating_sub(margin);
            let main_share = clock.remaining / 30 + clock.increment * 3 / 4;
            if clock.in_overtime || clock.remaining < clock.overtime && clock.overtime_periods > 0 {
                let period = if clock.in_overtime {
                    clock.remaining.min(clock.overtime.max(clock.remaining))
                } else {
                    clock.overtime
                };
                usable(period * 3 / 4).max(Duration::from_millis(10))
            } else {
                usable(main_share.min(clock.remaining / 2)).max(Duration::from_millis(10))
            }
        });
        match (self.move_time, from_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
