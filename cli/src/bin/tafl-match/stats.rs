//! Wins, draws and losses; the Elo difference with its 95% margin; the sequential probability
//! ratio test (SPRT) that stops a match once it has decided.

/// Wins, draws and losses of engine A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games A won.
    pub wins: u32,
    /// Games drawn (the ply cap included).
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

impl Tally {
    /// Adds one game: `Some(true)` A won, `Some(false)` A lost, `None` a draw.
    pub fn add(&mut self, a_won: Option<bool>) {
        match a_won {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score as a fraction of the games (a draw is half a point); 0.5 with no games.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games())
    }

    /// The variance of one game's result around the mean score.
    fn variance(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        let score = self.score();
        (f64::from(self.wins) * (1.0 - score).powi(2)
            + f64::from(self.draws) * (0.5 - score).powi(2)
            + f64::from(self.losses) * score.powi(2))
            / n
    }

    /// The Elo difference (A minus B) and the half-width of its 95% interval, from the score and
    /// its standard error, both turned to Elo by the logistic curve. A clean sweep either way has
    /// no finite estimate: `(±inf, inf)`.
    pub fn elo(&self) -> (f64, f64) {
        let games = self.games();
        if games == 0 {
            return (0.0, f64::INFINITY);
        }
        if self.wins == games {
            return (f64::INFINITY, f64::INFINITY);
        }
        if self.losses == games {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let score = self.score();
        let error = (self.variance() / f64::from(games)).sqrt();
        let low = elo_of_score(score - 1.96 * error);
        let high = elo_of_score(score + 1.96 * error);
        (elo_of_score(score), (high - low) / 2.0)
    }

    /// `Elo +35 ± 60` (`Elo +inf ± inf` for a clean sweep).
    pub fn elo_text(&self) -> String {
        let (elo, margin) = self.elo();
        format!("Elo {} ± {}", signed(elo), unsigned(margin))
    }

    /// `+W =D -L`.
    pub fn wdl(&self) -> String {
        format!("+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// The Elo difference that gives `score` on the logistic curve (scores near 0 or 1 are clamped,
/// so that an interval's end stays finite).
pub fn elo_of_score(score: f64) -> f64 {
    let score = score.clamp(0.0005, 0.9995);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a side that is `elo` points stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn signed(value: f64) -> String {
    if value.is_infinite() {
        if value > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{value:+.0}")
    }
}

fn unsigned(value: f64) -> String {
    if value.is_infinite() {
        "inf".to_string()
    } else {
        format!("{value:.0}")
    }
}

/// A sequential probability ratio test of H0: "A is `elo0` stronger" against H1: "A is `elo1`
/// stronger" (logistic Elo), with error rates `alpha` (accepting H1 when H0 holds) and `beta`.
///
/// The log-likelihood ratio is the usual normal approximation over game results (as fishtest's
/// trinomial "GSPRT"): `LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)`, with `m` the mean score, `v`
/// the variance of one game's score and `s0`, `s1` the scores the two hypotheses expect.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H0 accepted: A is not `elo1` stronger.
    AcceptH0,
    /// H1 accepted: A is at least about `elo1` stronger.
    AcceptH1,
}

impl Sprt {
    /// Reads `elo0 elo1 alpha beta`; the error rates must lie strictly between 0 and 1 and
    /// `elo0 < elo1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let rate = |x: f64| x > 0.0 && x < 1.0;
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("--sprt: elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        if !rate(alpha) || !rate(beta) {
            return Err(format!(
                "--sprt: alpha ({alpha}) and beta ({beta}) must lie between 0 and 1"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds `(lower, upper)` of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results so far.
    pub fn llr(&self, tally: &Tally) -> f64 {
        let n = f64::from(tally.games());
        if n == 0.0 {
            return 0.0;
        }
        let s0 = score_of_elo(self.elo0);
        let s1 = score_of_elo(self.elo1);
        // A run of identical results has no spread yet: the variance is taken with half a win
        // and half a loss more (a weak prior), so that it is never zero and a handful of
        // equal results cannot decide the test on their own.
        let score = tally.score();
        let variance = ((f64::from(tally.wins) + 0.5) * (1.0 - score).powi(2)
            + f64::from(tally.draws) * (0.5 - score).powi(2)
            + (f64::from(tally.losses) + 0.5) * score.powi(2))
            / (n + 1.0);
        n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    /// Whether the test has decided.
    pub fn decision(&self, tally: &Tally) -> SprtDecision {
        let (lower, upper) = self.bounds();
        let llr = self.llr(tally);
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn an_even_score_is_zero_elo() {
        let (elo, margin) = tally(10, 10, 10).elo();
        assert!(elo.abs() < 1e-9);
        assert!(margin > 50.0 && margin < 200.0, "{margin}");
    }

    #[test]
    fn three_quarters_is_about_191_elo() {
        let (elo, _) = tally(15, 0, 5).elo();
        assert!((elo - 190.85).abs() < 0.1, "{elo}");
    }

    #[test]
    fn a_sweep_prints_as_infinite() {
        assert_eq!(tally(4, 0, 0).elo_text(), "Elo +inf ± inf");
        assert_eq!(tally(0, 0, 3).elo_text(), "Elo -inf ± inf");
        assert_eq!(tally(3, 1, 0).wdl(), "+3 =1 -0");
    }

    #[test]
    fn sprt_accepts_h1_for_a_much_stronger_engine_and_h0_for_an_equal_one() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert_eq!(sprt.decision(&tally(2, 0, 0)), SprtDecision::Continue);
        assert_eq!(sprt.decision(&tally(6, 0, 0)), SprtDecision::Continue);
        assert_eq!(sprt.decision(&tally(40, 0, 0)), SprtDecision::AcceptH1);
        assert_eq!(sprt.decision(&tally(300, 0, 100)), SprtDecision::AcceptH1);
        assert_eq!(
            sprt.decision(&tally(3000, 3000, 3000)),
            SprtDecision::AcceptH0
        );
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    }
}
