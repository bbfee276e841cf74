//! The evaluation a search plays with, chosen once per search: the built-in network of its
//! rules ([`nnue`](super::nnue)) or the hand-written terms ([`eval`](super::eval)).

use std::sync::Arc;

use crate::play::Board;
use crate::position::Position;
use crate::rules::Rules;

use super::eval::{EvalWeights, evaluate};
use super::interface::Features;
use super::nnue::{self, Network};
use super::score::Score;

/// The static evaluation a search plays with: the built-in network for its rules when the
/// features ask for it and one exists ([`nnue::network_for`]), else the hand-written terms with
/// the searcher's weights.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator {
    pub(crate) weights: EvalWeights,
    /// A network of the grid of the games searched (`Evaluator::new` keeps no other).
    pub(crate) network: Option<Arc<Network>>,
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
        // A network reads the squares of one grid: a chosen network of the other grid (11x11
        // boards' network in a 13x13 game, or the reverse) is not used, and the hand-written
        // terms play (docs/nnue.md).
        let network = match chosen {
            _ if !features.learned_eval => None,
            Some(network) => network.reads::<B>().then(|| Arc::clone(network)),
            None => nnue::network_for(rules),
        };
        Evaluator {
            weights: *weights,
            network,
        }
    }

    /// The score of `position` from the side to move's point of view, computed from scratch.
    pub(crate) fn evaluate<B: Board>(&self, position: &Position<B>) -> Score {
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
