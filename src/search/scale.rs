//! The shown score: one scale for every evaluation and every game, calibrated to results
//! ([`ScoreScale`]).

use crate::piece::Side;
use crate::rules::{Escape, Rules};

use super::score::Score;

/// How one evaluation's scores are turned into the shown scale.
///
/// Inside the search, scores are in the playing evaluation's own units (the hand-written
/// evaluation's hundredths of a soldier, or a network's), which the search's margins are
/// measured in. What a search reports ([`SearchResult`](super::SearchResult),
/// [`SearchInfo`](super::SearchInfo), [`RootScores`](super::RootScores),
/// [`Searcher::draw_score`](super::Searcher::draw_score)) is on the **shown scale** instead: a
/// score `s` (in soldiers, [`Score::as_decimal`]) says that the side to move is expected to
/// score `1 / (1 + e^-s)` (a win 1, a draw ½, a loss 0) in this engine's self-play from the
/// position ([`Score::expected_result`]): 0 is an even game, +1 about 73 %, +2 about 88 %, +3
/// about 95 %. Forced wins and losses are passed on unchanged.
///
/// A scale says how many of the evaluation's units make a logit of the expected result, and
/// how far the game leans to the defenders at an evaluation of 0: `shown = 100 × internal /
/// per_logit`, plus the defenders' edge for the defenders to move (minus it for the
/// attackers), in hundredths. Each evaluation's was fitted to self-play game by game
/// (`nnue calibrate`; docs/search.md, "The shown score", has the tables that check them);
/// [`Searcher::score_scale`](super::Searcher::score_scale) gives the one that plays a game.
///
/// ```
/// use tafl_engine::Side;
/// use tafl_engine::search::{Score, ScoreScale};
/// let scale = ScoreScale::new(200, 50);
/// // Two soldiers of the evaluation's units are one logit; the defenders lean half a logit.
/// assert_eq!(scale.show(Score(200), Side::Defenders), Score(150));
/// assert_eq!(scale.show(Score(-200), Side::Attackers), Score(-150));
/// assert_eq!(scale.show(Score::win_in(3), Side::Attackers), Score::win_in(3));
/// assert_eq!(scale.internal(Score(150), Side::Defenders), Score(200));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScoreScale {
    per_logit: i32,
    defenders_edge: i32,
}

/// The largest magnitude of a shown score that is not a forced result: a score beyond it in
/// the evaluation's units is shown as this (it would say that one side is all but certain to
/// win).
const MAX_SHOWN: i32 = 100 * 100;

impl ScoreScale {
    /// The scale of an evaluation that reads `per_logit` of its units (at least 1) as one
    /// logit of the expected result, where the defenders to move at an evaluation of 0 expect
    /// `defenders_edge` hundredths of a logit more than an even game.
    pub const fn new(per_logit: i32, defenders_edge: i32) -> ScoreScale {
        ScoreScale {
            per_logit: if per_logit < 1 { 1 } else { per_logit },
            defenders_edge,
        }
    }

    /// The evaluation's units a logit of the expected result.
    pub const fn per_logit(self) -> i32 {
        self.per_logit
    }

    /// How far the game leans to the defenders at an evaluation of 0, in hundredths of a logit.
    pub const fn defenders_edge(self) -> i32 {
        self.defenders_edge
    }

    /// The edge of `side` to move, in hundredths of a logit.
    const fn edge_of(self, side: Side) -> i64 {
        match side {
            Side::Defenders => self.defenders_edge as i64,
            Side::Attackers => -(self.defenders_edge as i64),
        }
    }

    /// `internal`, a score of the evaluation from the view of `side` to move, on the shown
    /// scale; a forced result as it is.
    pub fn show(self, internal: Score, side: Side) -> Score {
        if internal.is_forced() {
            return internal;
        }
        let scaled = div_round(i64::from(internal.0) * 100, i64::from(self.per_logit));
        let shown =
            (scaled + self.edge_of(side)).clamp(-i64::from(MAX_SHOWN), i64::from(MAX_SHOWN));
        // Within ±MAX_SHOWN, far inside i32.
        Score(shown as i32)
    }

    /// The evaluation's score that is shown as `shown` for `side` to move (the inverse of
    /// [`ScoreScale::show`], to within the rounding of one hundredth); a forced result as it is.
    pub fn internal(self, shown: Score, side: Side) -> Score {
        if shown.is_forced() {
            return shown;
        }
        let logits = i64::from(shown.0) - self.edge_of(side);
        let internal = div_round(logits * i64::from(self.per_logit), 100);
        let limit = i64::from(Score::WIN_THRESHOLD - 1);
        // Clamped inside the ordinary scores, so within i32.
        Score(internal.clamp(-limit, limit) as i32)
    }

    /// The hand-written evaluation's scale in games under `rules`, fitted game by game to
    /// self-play (docs/search.md, "The shown score"); games not fitted take the nearest kind's.
    pub(crate) fn hand_written<B: crate::play::Grid>(rules: Rules<B>) -> ScoreScale {
        match (rules.escape(), rules.size()) {
            // Tablut and the other edge-escape games up to 9x9.
            (Escape::Edge, ..=9) => HAND_WRITTEN_EDGE_9,
            // Tawlbwrdd and the other 11x11 edge-escape games.
            (Escape::Edge, 10..=11) => HAND_WRITTEN_EDGE_11,
            // Sea Battle 13x13 and the larger edge-escape games.
            (Escape::Edge, _) => HAND_WRITTEN_EDGE_13,
            // Brandub and Brandubh.
            (Escape::Corner, ..=7) => HAND_WRITTEN_CORNER_7,
            // Copenhagen and the corner-escape 9x9 and 11x11 games.
            (Escape::Corner, 8..=11) => HAND_WRITTEN_CORNER_11,
            // hnefatafl.org's 13x13, whose move limit draws most games, and the larger
            // corner-escape games with a move limit.
            (Escape::Corner, _) if rules.move_limit().is_some() => HAND_WRITTEN_CORNER_13,
            // The larger corner-escape games without one: not fitted; Copenhagen's.
            (Escape::Corner, _) => HAND_WRITTEN_CORNER_11,
        }
    }
}

/// `numerator / denominator` rounded to the nearest integer (halves away from zero);
/// `denominator` > 0.
fn div_round(numerator: i64, denominator: i64) -> i64 {
    let half = denominator / 2;
    if numerator >= 0 {
        (numerator + half) / denominator
    } else {
        (numerator - half) / denominator
    }
}

// The hand-written evaluation's scales, fitted by `nnue calibrate` (docs/search.md, "The shown
// score"): where the game has a network, to the network's self-play (`--rescore`), else to the
// hand-written evaluation's own.
/// Tablut (on the `edge-9` network's games).
const HAND_WRITTEN_EDGE_9: ScoreScale = ScoreScale::new(237, -34);
/// Tawlbwrdd (on the `edge-11` network's games).
const HAND_WRITTEN_EDGE_11: ScoreScale = ScoreScale::new(367, -50);
/// Brandub (on the `corner-7` network's games).
const HAND_WRITTEN_CORNER_7: ScoreScale = ScoreScale::new(97, 153);
/// Copenhagen (on the `corner-11` network's games).
const HAND_WRITTEN_CORNER_11: ScoreScale = ScoreScale::new(528, 197);
/// hnefatafl.org's 13x13 Copenhagen (its own self-play): two games in three reach the move
/// limit's draw, so the evaluation says little about the result and the scale is flat.
const HAND_WRITTEN_CORNER_13: ScoreScale = ScoreScale::new(3414, 39);
/// Sea Battle 13x13 (on the `edge-13` network's games); the other edge-escape games above 11x11
/// take it too.
const HAND_WRITTEN_EDGE_13: ScoreScale = ScoreScale::new(1756, -53);

impl Score {
    /// The result the side to move is expected to score, from 0 (a loss) to 1 (a win), when
    /// this is a shown score (what searches report; see [`ScoreScale`]): `1 / (1 + e^-s)` for
    /// `s` soldiers, 1 or 0 for a forced win or loss.
    ///
    /// ```
    /// use tafl_engine::search::Score;
    /// assert_eq!(Score(0).expected_result(), 0.5);
    /// assert!((Score(100).expected_result() - 0.731).abs() < 0.001);
    /// assert_eq!(Score::win_in(5).expected_result(), 1.0);
    /// assert_eq!(Score::loss_in(2).expected_result(), 0.0);
    /// ```
    pub fn expected_result(self) -> f64 {
        match self.forced_in() {
            Some(plies) if plies >= 0 => 1.0,
            Some(_) => 0.0,
            None => 1.0 / (1.0 + (-f64::from(self.0) / 100.0).exp()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn show_and_internal_are_inverse_to_within_rounding() {
        for scale in [
            ScoreScale::new(215, 0),
            ScoreScale::new(682, -40),
            ScoreScale::new(1, 90),
        ] {
            for side in [Side::Attackers, Side::Defenders] {
                for internal in (-5000..=5000).step_by(7) {
                    let shown = scale.show(Score(internal), side);
                    if shown.0.abs() == MAX_SHOWN {
                        continue; // Beyond the shown scale's end: not invertible.
                    }
                    let back = scale.internal(shown, side);
                    let slack = scale.per_logit() / 200 + 1;
                    assert!(
                        (back.0 - internal).abs() <= slack,
                        "{scale:?} {side:?}: {internal} → {shown:?} → {back:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn shown_scores_keep_the_order_and_the_sides_mirror() {
        let scale = ScoreScale::new(300, 70);
        for side in [Side::Attackers, Side::Defenders] {
            let mut last = i32::MIN;
            for internal in -3000..3000 {
                let shown = scale.show(Score(internal), side).0;
                assert!(shown >= last, "{internal}");
                last = shown;
                let other = scale.show(Score(-internal), !side).0;
                assert!(
                    (shown + other).abs() <= 1,
                    "{internal}: {shown} and {other}"
                );
            }
        }
    }

    #[test]
    fn each_game_takes_its_kind_s_hand_written_scale() {
        use crate::board::Wide;
        use crate::variant::Variant;
        let of = |variant: Variant| ScoreScale::hand_written(variant.rules());
        assert_eq!(of(Variant::tablut()), HAND_WRITTEN_EDGE_9);
        assert_eq!(of(Variant::tawlbwrdd()), HAND_WRITTEN_EDGE_11);
        assert_eq!(of(Variant::brandub()), HAND_WRITTEN_CORNER_7);
        assert_eq!(of(Variant::copenhagen()), HAND_WRITTEN_CORNER_11);
        let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13();
        assert_eq!(
            ScoreScale::hand_written(thirteen.rules()),
            HAND_WRITTEN_CORNER_13
        );
        // The same board without hnefatafl.org's move limit is another kind of game.
        let unlimited: Variant<Wide> =
            "dim:13 esc:c start:/13/13/13/13/13/13/6K6/13/13/13/13/13/t12/"
                .parse()
                .expect("a rules string");
        assert_eq!(
            ScoreScale::hand_written(unlimited.rules()),
            HAND_WRITTEN_CORNER_11
        );
        let sea_battle: Variant<Wide> =
            "dim:13 esc:e start:/13/13/13/13/13/13/6K6/13/13/13/13/13/t12/"
                .parse()
                .expect("a rules string");
        assert_eq!(
            ScoreScale::hand_written(sea_battle.rules()),
            HAND_WRITTEN_EDGE_13
        );
    }

    #[test]
    fn forced_results_and_extremes() {
        let scale = ScoreScale::new(50, 0);
        for forced in [Score::win_in(1), Score::loss_in(7), Score::win_in(9000)] {
            assert_eq!(scale.show(forced, Side::Attackers), forced);
            assert_eq!(scale.internal(forced, Side::Defenders), forced);
        }
        let huge = Score(Score::WIN_THRESHOLD - 1);
        assert_eq!(scale.show(huge, Side::Attackers), Score(MAX_SHOWN));
        assert!(!scale.show(-huge, Side::Defenders).is_forced());
        assert_eq!(ScoreScale::new(0, 0).per_logit(), 1);
    }
}
