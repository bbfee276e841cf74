//! The evaluation a search plays with, chosen once per search: the built-in network of its
//! rules ([`nnue`](super::nnue)) or the hand-written terms ([`eval`](super::eval)).

use std::sync::Arc;

use crate::play::Grid;
use crate::position::Position;
use crate::rules::Rules;

use super::eval::{EvalWeights, evaluate};
use super::interface::Features;
use super::nnue::{self, Network};
use super::scale::ScoreScale;
use super::score::Score;

/// Which static evaluation a search plays with ([`Searcher::evaluation`](super::Searcher::evaluation)).
///
/// ```
/// use tafl_engine::Variant;
/// use tafl_engine::search::{Features, PlayingEvaluation, SearchConfig, Searcher};
/// let mut searcher = Searcher::new(SearchConfig { threads: 1, hash_mb: 1 });
/// let copenhagen = Variant::copenhagen().rules();
/// assert_eq!(searcher.evaluation(copenhagen).to_string(), "network corner-11 (built-in)");
/// searcher.set_features(Features { learned_eval: false, ..Features::default() });
/// assert_eq!(searcher.evaluation(copenhagen), PlayingEvaluation::HandWritten);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayingEvaluation {
    /// The hand-written terms ([`eval`](super::eval)).
    HandWritten,
    /// The built-in network of the game's family.
    BuiltIn(nnue::Family),
    /// A network given to the searcher ([`Searcher::set_network`](super::Searcher::set_network)),
    /// by its description.
    Given(String),
}

impl std::fmt::Display for PlayingEvaluation {
    /// `hand-written`, `network corner-11 (built-in)` or `network given: <description>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayingEvaluation::HandWritten => write!(f, "hand-written"),
            PlayingEvaluation::BuiltIn(family) => write!(f, "network {} (built-in)", family.name()),
            PlayingEvaluation::Given(description) => write!(f, "network given: {description}"),
        }
    }
}

/// The network a search of a game under `rules` plays with, if any, and which evaluation that
/// is: `chosen` (a network the searcher was given) or else the built-in one for the rules, when
/// `learned` asks for a network.
pub(crate) fn choose<B: Grid>(
    learned: bool,
    chosen: Option<&Arc<Network>>,
    rules: Rules<B>,
) -> (Option<Arc<Network>>, PlayingEvaluation) {
    // A network reads the squares of one grid: a chosen network of the other grid (11x11
    // boards' network in a 13x13 game, or the reverse) is not used, and the hand-written terms
    // play (docs/nnue.md).
    match chosen {
        _ if !learned => (None, PlayingEvaluation::HandWritten),
        Some(network) if network.reads::<B>() => (
            Some(Arc::clone(network)),
            PlayingEvaluation::Given(network.description().to_string()),
        ),
        Some(_) => (None, PlayingEvaluation::HandWritten),
        None => match (nnue::Family::of(rules), nnue::network_for(rules)) {
            (Some(family), Some(network)) => (Some(network), PlayingEvaluation::BuiltIn(family)),
            _ => (None, PlayingEvaluation::HandWritten),
        },
    }
}

/// The static evaluation a search plays with: the built-in network for its rules when the
/// features ask for it and one exists ([`nnue::network_for`]), else the hand-written terms with
/// the searcher's weights.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator {
    pub(crate) weights: EvalWeights,
    /// A network of the grid of the games searched (`Evaluator::new` keeps no other).
    pub(crate) network: Option<Arc<Network>>,
    /// Which evaluation this is, and how its scores are shown.
    pub(crate) playing: PlayingEvaluation,
    pub(crate) scale: ScoreScale,
}

impl Evaluator {
    /// The evaluation for games under `rules`: `chosen` (a network the searcher was given)
    /// or else the built-in one for the rules, when the features ask for a network.
    pub(crate) fn new<B: Grid>(
        weights: &EvalWeights,
        features: &Features,
        chosen: Option<&Arc<Network>>,
        rules: Rules<B>,
    ) -> Evaluator {
        let (network, playing) = choose(features.learned_eval, chosen, rules);
        // A built-in network's scale and the hand-written evaluation's were fitted to
        // self-play; another network's output is read as what it was trained to be, a logit of
        // the expected result times its own scale.
        let scale = match (&playing, &network) {
            (PlayingEvaluation::BuiltIn(family), _) => {
                nnue::built_in_scale(*family).unwrap_or_else(|| ScoreScale::hand_written(rules))
            }
            (_, Some(network)) => ScoreScale::new(network.scale(), 0),
            (_, None) => ScoreScale::hand_written(rules),
        };
        Evaluator {
            weights: *weights,
            network,
            playing,
            scale,
        }
    }

    /// The score of `position` from the side to move's point of view, computed from scratch.
    pub(crate) fn evaluate<B: Grid>(&self, position: &Position<B>) -> Score {
        match self
            .network
            .as_deref()
            .map(|network| network.evaluate(position))
        {
            Some(Ok(score)) => Score(score),
            _ => evaluate(position, &self.weights),
        }
    }
}
