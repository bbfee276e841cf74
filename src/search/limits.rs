//! What a search may spend: depth, nodes, time, or a game clock.

use std::time::Duration;

use crate::play::Grid;
use crate::rules::{Escape, Rules};

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

    /// Search until about `nodes` positions have been visited (all threads together; the
    /// search checks the count every few thousand nodes, so it may pass it by that much).
    ///
    /// ```
    /// use tafl_engine::search::{Limits, SearchConfig, Searcher};
    /// use tafl_engine::{Game, Variant};
    /// let game = Game::new(&Variant::copenhagen());
    /// let mut searcher = Searcher::new(SearchConfig { hash_mb: 4, ..SearchConfig::default() });
    /// let result = searcher.search_without_info(&game, &Limits::nodes(20_000));
    /// assert!(result.best_move.is_some());
    /// assert!(result.nodes < 40_000, "{} nodes", result.nodes);
    /// ```
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
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
    ///
    /// This is the budget of a game whose king escapes to the edge; the search spends the clock
    /// of a corner-escape game more slowly: [`Limits::time_budget_in`] gives the budget under
    /// given rules, which is what the search uses.
    pub fn time_budget(&self) -> Option<Duration> {
        self.budget(MOVES_TO_GO_EDGE)
    }

    /// The time a search under `rules` may take: [`Limits::time_budget`], with the usual share
    /// of a move taken for as many moves as such games usually last (corner-escape games last
    /// two to three times as long as edge-escape ones, so a move gets a smaller share of the
    /// clock early and the long games keep more of it for later).
    ///
    /// ```
    /// use std::time::Duration;
    /// use tafl_engine::search::{Clock, Limits};
    /// use tafl_engine::Variant;
    ///
    /// let clock = Limits::clock(Clock { remaining: Duration::from_secs(20), ..Clock::default() });
    /// let tablut = Variant::tablut().rules();
    /// let copenhagen = Variant::copenhagen().rules();
    /// assert_eq!(clock.time_budget_in(tablut), clock.time_budget());
    /// assert!(clock.time_budget_in(copenhagen) < clock.time_budget_in(tablut));
    /// ```
    pub fn time_budget_in<B: Grid>(&self, rules: Rules<B>) -> Option<Duration> {
        self.budget(moves_to_go(rules))
    }

    /// After this much time the search starts no new iteration when its result is settled (the
    /// same best move and a steady score): half the usual share of a move. An unsettled search
    /// may start iterations until half of [`Limits::time_budget`]. Like that budget, this is
    /// the limit of an edge-escape game: [`Limits::soft_time_limit_in`] gives it under given
    /// rules.
    pub fn soft_time_limit(&self) -> Option<Duration> {
        self.soft_limit(MOVES_TO_GO_EDGE)
    }

    /// The soft limit of a search under `rules` (see [`Limits::soft_time_limit`] and
    /// [`Limits::time_budget_in`]).
    pub fn soft_time_limit_in<B: Grid>(&self, rules: Rules<B>) -> Option<Duration> {
        self.soft_limit(moves_to_go(rules))
    }

    fn budget(&self, moves_to_go: u32) -> Option<Duration> {
        let from_clock = self
            .clock
            .map(|clock| match clock_share(&clock, moves_to_go) {
                Share::Main(share) => usable((share * 3).min(clock.remaining / 4))
                    .max(usable(share))
                    .max(Duration::from_millis(10)),
                Share::Overtime(period) => period,
            });
        tighter(self.move_time, from_clock)
    }

    fn soft_limit(&self, moves_to_go: u32) -> Option<Duration> {
        let from_clock = self
            .clock
            .map(|clock| match clock_share(&clock, moves_to_go) {
                Share::Main(share) => usable(share).max(Duration::from_millis(10)) / 2,
                Share::Overtime(period) => period / 2,
            });
        tighter(self.move_time.map(|time| time / 2), from_clock)
    }
}

/// The tighter of two optional limits (either one alone when the other is unset).
fn tighter(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Keeps a safety margin for the host's latency.
fn usable(time: Duration) -> Duration {
    time.saturating_sub(Duration::from_millis(50))
}

/// The usual share of a clock for one move.
enum Share {
    /// In main time: about 1/16 of it (1/24 in corner-escape games; 1/48 of its last second)
    /// plus most of the increment, at most half of it.
    Main(Duration),
    /// In overtime or about to be: most of one period (already with the safety margin).
    Overtime(Duration),
}

/// In a game whose king escapes to the edge, the usual share of a move is the main time left
/// above [`RESERVE`] divided by this, plus the reserve divided by [`RESERVE_MOVES_TO_GO`]. A
/// settled search stops near half of the share, an unsettled one may go on to one and a half
/// shares. Edge-escape games against OpenTafl's AI last 15 to 40 moves a side (median 17 to 22):
/// at 1/30 of the clock a share this engine ended most of them with half to three quarters of its
/// clock unused, while losing to plans its search saw only a few plies deeper.
const MOVES_TO_GO_EDGE: u32 = 16;

/// [`MOVES_TO_GO_EDGE`] for a game whose king escapes to a corner: Copenhagen's games against
/// OpenTafl's AI last a median 38 to 54 moves a side (up to 160), and at 1/16 two of the three
/// attacking games lost in one run were lost with under 3 s of 20 left, searching 2 to 7 plies.
const MOVES_TO_GO_CORNER: u32 = 24;

/// How many moves the usual share of a move is taken for under `rules`.
fn moves_to_go<B: Grid>(rules: Rules<B>) -> u32 {
    match rules.escape() {
        Escape::Edge => MOVES_TO_GO_EDGE,
        Escape::Corner => MOVES_TO_GO_CORNER,
    }
}

/// The part of the main time spent slowly, so that a game of a hundred moves or more a side
/// still has time for each of them: with all of a 20-second clock spent at 1/16, Copenhagen
/// games of 95 moves a side ended with 0.1 s left. Only the last second: a reserve of 3 s gave
/// the moves at 5 to 10 s left, where Copenhagen's games are lost, a fifth to two fifths less
/// (1 s: a fifteenth to a seventh less; docs/search.md, "Spending the clock").
const RESERVE: Duration = Duration::from_secs(1);

/// The reserve's share of a move is the reserve divided by this.
const RESERVE_MOVES_TO_GO: u32 = 48;

fn clock_share(clock: &Clock, moves_to_go: u32) -> Share {
    let above_reserve = clock.remaining.saturating_sub(RESERVE);
    let reserve = clock.remaining.min(RESERVE);
    let main_share =
        above_reserve / moves_to_go + reserve / RESERVE_MOVES_TO_GO + clock.increment * 3 / 4;
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

    use crate::Variant;

    fn on_clock(remaining: Duration) -> Limits {
        Limits::clock(Clock {
            remaining,
            ..Clock::default()
        })
    }

    fn budgets_in(remaining: Duration, rules: Rules) -> (Duration, Duration) {
        let limits = on_clock(remaining);
        let budget = limits
            .time_budget_in(rules)
            .expect("a clock gives a budget");
        let soft = limits
            .soft_time_limit_in(rules)
            .expect("a clock gives a soft limit");
        (budget, soft)
    }

    fn budgets(remaining: Duration) -> (Duration, Duration) {
        let limits = on_clock(remaining);
        let budget = limits.time_budget().expect("a clock gives a budget");
        let soft = limits
            .soft_time_limit()
            .expect("a clock gives a soft limit");
        // The rules-free figures are those of an edge-escape game.
        assert_eq!(
            (budget, soft),
            budgets_in(remaining, Variant::tablut().rules())
        );
        (budget, soft)
    }

    #[test]
    fn more_time_left_never_gives_a_move_less() {
        for rules in [Variant::tablut().rules(), Variant::copenhagen().rules()] {
            let mut last = (Duration::ZERO, Duration::ZERO);
            for millis in (0..60_000).step_by(37) {
                let now = budgets_in(Duration::from_millis(millis), rules);
                assert!(
                    now.0 >= last.0 && now.1 >= last.1,
                    "{rules:?}, {millis} ms: {now:?} < {last:?}"
                );
                last = now;
            }
        }
    }

    /// Twenty-second games where every move takes its usual share (twice the soft limit): after
    /// 35 moves a side, most of the way through a median Copenhagen game against OpenTafl's AI, a
    /// corner-escape game has kept more of its clock for its next move than an edge-escape one
    /// (a third more at least), having spent less on its first move.
    #[test]
    fn a_corner_escape_game_keeps_more_for_its_long_middlegame() {
        let play = |rules: Rules| {
            let mut remaining = Duration::from_secs(20);
            let mut first = Duration::ZERO;
            for moves in 0..35 {
                let (_, soft) = budgets_in(remaining, rules);
                if moves == 0 {
                    first = soft * 2;
                }
                remaining -= (soft * 2).min(remaining);
            }
            (first, budgets_in(remaining, rules).1 * 2)
        };
        let (edge_first, edge_later) = play(Variant::tablut().rules());
        let (corner_first, corner_later) = play(Variant::copenhagen().rules());
        assert!(corner_first < edge_first, "{corner_first:?} {edge_first:?}");
        assert!(
            corner_later > edge_later * 4 / 3,
            "{corner_later:?} {edge_later:?}"
        );
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
