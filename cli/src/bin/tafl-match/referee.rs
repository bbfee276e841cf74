//! The referee: plays one game between two players under the library's rules, keeping both
//! clocks. An illegal or unreadable move, a crash, a critical error, or no answer in time loses
//! the game; a game that reaches the ply cap is a draw.

use std::time::Duration;

use tafl_engine::search::{Clock, Limits};
use tafl_engine::{Game, Grid, Move, Narrow, Outcome, Side};

use crate::log::GameLog;
use crate::openings::Opening;
use crate::options::{Settings, TimeControl};
use crate::player::Player;
use crate::turn::{Answer, Turn};

/// Why a side lost without the board deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForfeitKind {
    /// It could not be started or refused the game's rules.
    Start,
    /// It moved illegally or wrote a move that cannot be read.
    IllegalMove,
    /// It gave no move within its time (flag fall), or answered after it.
    Time,
    /// Its process ended.
    Crash,
    /// It gave up with `error -1`.
    Refused,
}

impl ForfeitKind {
    /// All kinds, in the order the summary lists them.
    pub const ALL: [ForfeitKind; 5] = [
        ForfeitKind::Start,
        ForfeitKind::IllegalMove,
        ForfeitKind::Time,
        ForfeitKind::Crash,
        ForfeitKind::Refused,
    ];

    /// A short name for the summary.
    pub fn name(self) -> &'static str {
        match self {
            ForfeitKind::Start => "failed to start",
            ForfeitKind::IllegalMove => "illegal moves",
            ForfeitKind::Time => "time losses",
            ForfeitKind::Crash => "crashes",
            ForfeitKind::Refused => "gave up (error -1)",
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules decided: a win on the board or a draw (R13, R14, R16, R17).
    Board(Outcome),
    /// The ply cap was reached: a draw.
    PlyCap(usize),
    /// A side lost by forfeit.
    Forfeit {
        /// The side that lost.
        loser: Side,
        /// What kind of failure.
        kind: ForfeitKind,
        /// What happened, for people.
        why: String,
    },
}

/// A game played to its end, on its grid.
pub struct Played<B: Grid = Narrow> {
    /// The moves played, from the opening's start.
    pub game: Game<B>,
    /// How it ended.
    pub ending: Ending,
    /// The side A played.
    pub a_side: Side,
    /// Time left on the clocks at the end (attackers, defenders), for clock games.
    pub time_left: [Option<Duration>; 2],
}

impl<B: Grid> Played<B> {
    /// The winning side, if any.
    pub fn winner(&self) -> Option<Side> {
        match &self.ending {
            Ending::Board(outcome) => outcome.winner(),
            Ending::PlyCap(_) => None,
            Ending::Forfeit { loser, .. } => Some(loser.opponent()),
        }
    }

    /// `Some(true)` when A won, `Some(false)` when A lost, `None` for a draw.
    pub fn a_won(&self) -> Option<bool> {
        self.winner().map(|winner| winner == self.a_side)
    }

    /// OTEP's `finish` code: 1 draw, 2 attackers won, 3 defenders won.
    pub fn finish_code(&self) -> u8 {
        match self.winner() {
            None => 1,
            Some(Side::Attackers) => 2,
            Some(Side::Defenders) => 3,
        }
    }

    /// What happened, for people: `attackers win: the king was captured`.
    pub fn termination(&self) -> String {
        match &self.ending {
            Ending::Board(outcome) => outcome.to_string(),
            Ending::PlyCap(plies) => format!("draw: the ply cap ({plies}) was reached"),
            Ending::Forfeit { loser, why, .. } => {
                format!("{} win: the {loser} forfeit ({why})", loser.opponent())
            }
        }
    }
}

fn index(side: Side) -> usize {
    match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    }
}

/// The OTEP `clock` line, as the side to move sees it: both sides' time in milliseconds; a side
/// on a fixed move time is shown in overtime (`ms*`) with one period of that length. With
/// `own_clock`, both figures are the mover's.
fn clock_line(
    mut times: [TimeControl; 2],
    mut left: [Duration; 2],
    mover: Side,
    own_clock: bool,
) -> String {
    if own_clock {
        times = [times[index(mover)]; 2];
        left = [left[index(mover)]; 2];
    }
    let text = |side: Side| match times[index(side)] {
        TimeControl::MoveTime(time) => format!("{}*", time.as_millis()),
        TimeControl::Clock { .. } => left[index(side)].as_millis().to_string(),
    };
    let periods = |side: Side| match times[index(side)] {
        TimeControl::MoveTime(_) => 1,
        TimeControl::Clock { .. } => 0,
    };
    let overtime_seconds = match times[index(mover)] {
        TimeControl::MoveTime(time) => time.as_millis().div_ceil(1000),
        TimeControl::Clock { .. } => 0,
    };
    format!(
        "clock {} {} {overtime_seconds} {} {}",
        text(Side::Attackers),
        text(Side::Defenders),
        periods(Side::Attackers),
        periods(Side::Defenders)
    )
}

/// Plays `opening` to its end with A on `a_side`, on the opening's grid.
pub fn play_game<B: Grid>(
    opening: &Opening<B>,
    a_side: Side,
    a: &mut Player,
    b: &mut Player,
    settings: &Settings,
    log: &mut GameLog,
) -> Played<B> {
    let mut game = opening.game.clone();
    // Players, time controls and labels by side: attackers first.
    let (times, labels) = if a_side == Side::Attackers {
        ([settings.a_time, settings.b_time], ["A", "B"])
    } else {
        ([settings.b_time, settings.a_time], ["B", "A"])
    };
    let mut left = times.map(|time| match time {
        TimeControl::MoveTime(_) => Duration::ZERO,
        TimeControl::Clock { base, .. } => base,
    });
    let players: [&mut Player; 2] = if a_side == Side::Attackers {
        [a, b]
    } else {
        [b, a]
    };
    log.line("--", &format!("rules {}", opening.rules));
    log.line("--", &format!("{}; A plays the {a_side}", opening.label));

    let mut ending = None;
    // A first, so that when both fail, A's failure is the one counted.
    let order = if a_side == Side::Attackers {
        [Side::Attackers, Side::Defenders]
    } else {
        [Side::Defenders, Side::Attackers]
    };
    for side in order {
        if let Err(why) = players[index(side)].start_game(&opening.rules, log) {
            ending = Some(Ending::Forfeit {
                loser: side,
                kind: ForfeitKind::Start,
                why: format!("{} could not start the game: {why}", labels[index(side)]),
            });
            break;
        }
    }

    while ending.is_none() {
        if let Some(outcome) = game.outcome() {
            ending = Some(Ending::Board(outcome));
            break;
        }
        let plies = game.moves().len();
        if plies >= settings.max_plies {
            ending = Some(Ending::PlyCap(settings.max_plies));
            break;
        }
        let side = game.position().side_to_move();
        let me = index(side);
        let (limits, allowed) = match times[me] {
            TimeControl::MoveTime(time) => (Limits::move_time(time), time + settings.margin),
            TimeControl::Clock { increment, .. } => (
                Limits::clock(Clock {
                    remaining: left[me],
                    increment,
                    ..Clock::default()
                }),
                left[me] + settings.margin,
            ),
        };
        let turn = Turn {
            game: &game,
            side,
            clock_line: clock_line(times, left, side, settings.own_clock),
            limits,
            allowed,
        };
        let forfeit = |kind: ForfeitKind, why: String| Ending::Forfeit {
            loser: side,
            kind,
            why: format!("{} {why}", labels[me]),
        };
        let answer = players[me].play(&turn, log);
        let (text, spent) = match answer {
            Answer::Move { text, spent } => (text, spent),
            Answer::Silence => {
                ending = Some(forfeit(
                    ForfeitKind::Time,
                    format!("gave no move within {} ms", allowed.as_millis()),
                ));
                break;
            }
            Answer::Crashed(why) => {
                ending = Some(forfeit(ForfeitKind::Crash, format!("crashed: {why}")));
                break;
            }
            Answer::Refused(why) => {
                ending = Some(forfeit(ForfeitKind::Refused, why));
                break;
            }
        };
        if spent > allowed {
            ending = Some(forfeit(
                ForfeitKind::Time,
                format!(
                    "took {} ms with {} ms allowed",
                    spent.as_millis(),
                    allowed.as_millis()
                ),
            ));
            break;
        }
        // Read on the game's grid: a square off its board (`s19` on 9x9 or 13x13) is not a
        // move there, and is refused as unreadable or illegal, never played.
        let parsed = text.parse::<Move<B>>();
        let m = match parsed {
            Ok(m) if game.position().is_legal(m) => m,
            Ok(_) => {
                ending = Some(forfeit(
                    ForfeitKind::IllegalMove,
                    format!("played the illegal move {text:?}"),
                ));
                break;
            }
            Err(error) => {
                ending = Some(forfeit(
                    ForfeitKind::IllegalMove,
                    format!("sent a move that cannot be read, {text:?}: {error}"),
                ));
                break;
            }
        };
        if let TimeControl::Clock { increment, .. } = times[me] {
            left[me] = left[me].saturating_sub(spent) + increment;
        }
        if let Err(error) = game.play(m) {
            // Not reached: legality was checked above.
            ending = Some(forfeit(ForfeitKind::IllegalMove, error.to_string()));
            break;
        }
        players[me].accepted(&game, log);
    }
    let ending = ending.unwrap_or(Ending::PlyCap(settings.max_plies));
    let loser = match &ending {
        Ending::Forfeit { loser, .. } => Some(*loser),
        _ => None,
    };
    let played = Played {
        game,
        ending,
        a_side,
        time_left: [0, 1].map(|i| match times[i] {
            TimeControl::Clock { .. } => Some(left[i]),
            TimeControl::MoveTime(_) => None,
        }),
    };
    log.line("--", &played.termination());
    let finish = played.finish_code();
    for side in [Side::Attackers, Side::Defenders] {
        players[index(side)].finish(finish, loser != Some(side), log);
    }
    played
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_lines_show_move_times_as_overtime() {
        let clock = TimeControl::Clock {
            base: Duration::from_secs(20),
            increment: Duration::ZERO,
        };
        let fixed = TimeControl::MoveTime(Duration::from_millis(1500));
        let left = [Duration::from_millis(12_345), Duration::ZERO];
        assert_eq!(
            clock_line([clock, fixed], left, Side::Attackers, false),
            "clock 12345 1500* 0 0 1"
        );
        assert_eq!(
            clock_line([fixed, fixed], left, Side::Defenders, false),
            "clock 1500* 1500* 2 1 1"
        );
        assert_eq!(
            clock_line([clock, clock], left, Side::Defenders, true),
            "clock 0 0 0 0 0"
        );
        assert_eq!(
            clock_line([clock, clock], left, Side::Attackers, true),
            "clock 12345 12345 0 0 0"
        );
    }
}
