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
use super::score::Score;

/// The static evaluation a search plays with: the built-in network for its rules when the
/// features ask for it and one exists ([`nnue::network_for`]), else the hand-written terms with
/// the searcher's weights.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator {
    pub(crate) weights: EvalWeights,
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
        // Networks read the squares of boards up to 11x11: games of the wide grid (boards above
        // that) play with the hand-written terms.
        let narrow_rules = if B::MAX_SIZE <= Narrow::MAX_SIZE {
            rules.on::<Narrow>().ok()
        } else {
            None
        };
        let network = match chosen {
            _ if !features.learned_eval => None,
            _ if narrow_rules.is_none() => None,
            Some(network) => Some(Arc::clone(network)),
            None => narrow_rules.and_then(nnue::network_for),
        };
        Evaluator {
            weights: *weights,
            network,
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
