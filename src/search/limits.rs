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
    /// In main time: about 1/16 of it (1/48 of its last second) plus most of the increment,
    /// at most half of it.
    Main(Duration),
    /// In overtime or about to be: most of one period (already with the safety margin).
    Overtime(Duration),
}

/// The usual share of a move is the main time left above [`RESERVE`] divided by this, plus the
/// reserve divided by [`RESERVE_MOVES_TO_GO`]. A settled search stops near half of the share,
/// an unsettled one may go on to one and a half shares. Games against OpenTafl's AI last 15 to 40
/// moves a side (up to 100 in Copenhagen): at 1/30 of the clock a share this engine ended most
/// of them with half to three quarters of its clock unused, while losing to plans its search saw
/// only a few plies deeper.
const MOVES_TO_GO: u32 = 16;

/// The part of the main time spent slowly, so that a game of a hundred moves or more a side
/// still has time for each of them: with all of a 20-second clock spent at 1/16, Copenhagen
/// games of 95 moves a side ended with 0.1 s left. Only the last second: a reserve of 3 s gave
/// the moves at 5 to 10 s left, where Copenhagen's games are lost, a fifth to two fifths less
/// (1 s: a fifteenth to a seventh less; docs/search.md, "Spending the clock").
const RESERVE: Duration = Duration::from_secs(1);

/// The reserve's share of a move is the reserve divided by this.
const RESERVE_MOVES_TO_GO: u32 = 48;

fn clock_share(clock: &Clock) -> Share {
    let above_reserve = clock.remaining.saturating_sub(RESERVE);
    let reserve = clock.remaining.min(RESERVE);
    let main_share =
        above_reserve / MOVES_TO_GO + reserve / RESERVE_MOVES_TO_GO + clock.increment * 3 / 4;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn budgets(remaining: Duration) -> (Duration, Duration) {
        let limits = Limits::clock(Clock {
            remaining,
            ..Clock::default()
        });
        let budget = limits.time_budget().expect("a clock gives a budget");
        let soft = limits
            .soft_time_limit()
            .expect("a clock gives a soft limit");
        (budget, soft)
    }

    #[test]
    fn more_time_left_never_gives_a_move_less() {
        let mut last = (Duration::ZERO, Duration::ZERO);
        for millis in (0..60_000).step_by(37) {
            let now = budgets(Duration::from_millis(millis));
            assert!(
                now.0 >= last.0 && now.1 >= last.1,
                "{millis} ms: {now:?} < {last:?}"
            );
            last = now;
        }
    }

    /// A game where every move is unsettled and runs to half the hard limit (where the search
    /// starts no more iterations) and then as long again to finish its last one, on a 20-second
    /// clock without increment: the clock's last second is kept for the long games.
    #[test]
    fn a_long_game_on_a_short_clock_keeps_time_for_its_last_moves() {
        let mut remaining = Duration::from_secs(20);
        for _ in 0..100 {
            let (budget, _) = budgets(remaining);
            remaining -= budget.min(remaining);
        }
        // Without the reserve (all of the clock spent at 1/16) nothing would be left.
        assert!(remaining > Duration::from_millis(200), "{remaining:?}");
    }
}
