//! `Score`: an evaluation or a forced result, from the side to move's point of view.

use std::fmt;

/// A score from the side to move's point of view: positive is good for the side to move.
///
/// Ordinary scores are in hundredths of a soldier. Forced wins and losses lie beyond
/// [`Score::WIN_THRESHOLD`] and say in how many plies they come.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(pub i32);

impl Score {
    /// A draw.
    pub const DRAW: Score = Score(0);
    /// Winning at once.
    pub const WIN: Score = Score(1_000_000);
    /// Scores at or above this (or at or below its negation) are forced results.
    pub const WIN_THRESHOLD: i32 = Score::WIN.0 - 10_000;
    /// Larger than any score.
    pub(crate) const INFINITE: Score = Score(Score::WIN.0 + 1);

    /// A win `plies` plies from now.
    pub const fn win_in(plies: u32) -> Score {
        Score(Score::WIN.0 - plies as i32)
    }

    /// A loss `plies` plies from now.
    pub const fn loss_in(plies: u32) -> Score {
        Score(-Score::WIN.0 + plies as i32)
    }

    /// Whether the score is a forced win or loss.
    pub const fn is_forced(self) -> bool {
        self.0 >= Score::WIN_THRESHOLD || self.0 <= -Score::WIN_THRESHOLD
    }

    /// Plies to a forced result (positive: the side to move wins; negative: it loses).
    pub const fn forced_in(self) -> Option<i32> {
        if self.0 >= Score::WIN_THRESHOLD {
            Some(Score::WIN.0 - self.0)
        } else if self.0 <= -Score::WIN_THRESHOLD {
            Some(-(Score::WIN.0 + self.0))
        } else {
            None
        }
    }

    /// The score as a decimal number of soldiers, as OTEP's `analysis` wants it. Forced results
    /// are given as ±1000 less the number of plies.
    pub fn as_decimal(self) -> f64 {
        match self.forced_in() {
            Some(plies) if plies >= 0 => 1000.0 - f64::from(plies),
            Some(plies) => -1000.0 - f64::from(plies),
            None => f64::from(self.0) / 100.0,
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    /// `0.35`, or `win in 3` / `loss in 4` for forced results.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.forced_in() {
            Some(plies) if plies >= 0 => write!(f, "win in {plies}"),
            Some(plies) => write!(f, "loss in {}", -plies),
            None => write!(f, "{:.2}", self.as_decimal()),
        }
    }
}
