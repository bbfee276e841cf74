//! The evaluation a search plays with, chosen once per search: the built-in network of its
//! rules ([`nnue`](super::nnue)) or the hand-written terms ([`eval`](super::eval)).

use std::sync::Arc;

use crate::board::Narrow;
use crate::play::Board;
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
pub(crate) fn choose<B: Board>(
    learned: bool,
    chosen: Option<&Arc<Network>>,
    rules: Rules<B>,
) -> (Option<Arc<Network>>, PlayingEvaluation) {
    // Networks read the squares of boards up to 11x11: games of the wide grid (boards above
    // that) play with the hand-written terms.
    let narrow_rules = if B::MAX_SIZE <= Narrow::MAX_SIZE {
        rules.on::<Narrow>().ok()
    } else {
        None
    };
    match chosen {
        _ if !learned => (None, PlayingEvaluation::HandWritten),
        _ if narrow_rules.is_none() => (None, PlayingEvaluation::HandWritten),
        Some(network) => (
            Some(Arc::clone(network)),
            PlayingEvaluation::Given(network.description().to_string()),
        ),
        None => match narrow_rules
            .and_then(|rules| Some((nnue::Family::of(rules)?, nnue::network_for(rules)?)))
        {
            Some((family, network)) => (Some(network), PlayingEvaluation::BuiltIn(family)),
            None => (None, PlayingEvaluation::HandWritten),
        },
    }
}

/// The static evaluation a search plays with: the built-in network for its rules when the
/// features ask for it and one exists ([`nnue::network_for`]), else the hand-written terms with
/// the searcher's weights.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator {
    pub(crate) weights: EvalWeights,
    pub(crate) network: Option<Arc<Network>>,
    /// Which evaluation this is, and how its scores are shown.
    pub(crate) playing: PlayingEvaluation,
    pub(crate) scale: ScoreScale,
}

impl Evaluator {
    /// The evaluation for games under `rules`: `chosen` (a network the searcher was given)
    /// or else the built-in one for the rules, when the features ask for a network.
    pub(crate) fn new<B: Board>(
        weights: &EvalWeights,
        features: &Features,
        chosen: Option<&Arc<Network>>,
        rules: Rules<B>,
    ) -> Evaluator {
        let (network, playing) = choose(features.learned_eval, chosen, rules);
        // A network's output is a logit of the expected result times its own scale; the
        // hand-written evaluation's scale is fitted game by game.
        let scale = match &network {
            Some(network) => ScoreScale::new(network.scale(), 0),
            None => ScoreScale::hand_written(rules),
        };
        Evaluator {
            weights: *weights,
            network,
            playing,
            scale,
        }
    }

    /// The score of `position` from the side to move's point of view, computed from scratch.
    pub(crate) fn evaluate<B: Board>(&self, position: &Position<B>) -> Score {
        match (&self.network, B::as_narrow(position)) {
            (Some(network), Some(position)) => Score(network.evaluate(position)),
            _ => evaluate(position, &self.weights),
        }
    }
}
