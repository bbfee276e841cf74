//! Players: what the referee asks of an engine, and the built-in players that run in process.

use std::time::Instant;

use tafl_engine::search::eval::{self, EvalWeights};
use tafl_engine::search::{Limits, Searcher};
use tafl_engine::{Game, Grid};

use crate::log::GameLog;
use crate::options::Settings;
use crate::otep::OtepEngine;
use crate::rng::Rng;
use crate::spec::{EngineKind, EngineSpec};
use crate::turn::{Answer, Turn};

/// An engine under the referee: built in, or an external OTEP engine.
pub enum Player {
    /// Runs in this process.
    Builtin(Builtin),
    /// Another process, spoken to through OTEP.
    Otep(Box<OtepEngine>),
}

impl Player {
    /// Sets the player up from its specification. `label` is `A` or `B` (for logs), `worker`
    /// the worker thread's number, `seed` the random player's.
    pub fn new(
        spec: &EngineSpec,
        label: &'static str,
        worker: usize,
        seed: u64,
        settings: &Settings,
    ) -> Player {
        match &spec.kind {
            EngineKind::Otep(words) => {
                let stderr_log = settings
                    .log
                    .as_ref()
                    .map(|dir| dir.join(format!("{label}-worker{worker}.stderr")));
                Player::Otep(Box::new(OtepEngine::new(
                    label,
                    words.clone(),
                    stderr_log,
                    settings.hello_timeout,
                    settings.settle,
                )))
            }
            EngineKind::Random => Player::Builtin(Builtin::Random(Rng::new(seed))),
            EngineKind::Greedy => Player::Builtin(Builtin::Greedy),
            EngineKind::Engine(options) => {
                let mut searcher = Searcher::new(options.config.clone());
                searcher.set_eval_weights(options.weights);
                searcher.set_features(options.features);
                searcher.set_network(options.network.clone());
                if let Some(contempt) = options.contempt {
                    searcher.set_contempt(contempt);
                }
                Player::Builtin(Builtin::Engine(Box::new(searcher), options.limits))
            }
        }
    }

    /// Gets ready for a new game under `rules` (an OpenTafl rules string whose start is the
    /// game's start). `Err` when the engine cannot play it (it then loses the game).
    pub fn start_game(&mut self, rules: &str, log: &mut GameLog) -> Result<(), String> {
        match self {
            Player::Builtin(builtin) => {
                builtin.new_game();
                Ok(())
            }
            Player::Otep(engine) => engine.start_game(rules, log),
        }
    }

    /// Asks for a move.
    pub fn play<B: Grid>(&mut self, turn: &Turn<'_, B>, log: &mut GameLog) -> Answer {
        match self {
            Player::Builtin(builtin) => builtin.play(turn),
            Player::Otep(engine) => engine.play(turn, log),
        }
    }

    /// The referee accepted the player's move; `game` is the game after it.
    pub fn accepted<B: Grid>(&mut self, game: &Game<B>, log: &mut GameLog) {
        if let Player::Otep(engine) = self {
            engine.accepted(game, log);
        }
    }

    /// The game is over: `finish` is OTEP's code (0 stopped, 1 draw, 2 attackers won, 3
    /// defenders won). `healthy` is false when the player forfeited: an external engine is then
    /// restarted before its next game.
    pub fn finish(&mut self, finish: u8, healthy: bool, log: &mut GameLog) {
        if let Player::Otep(engine) = self {
            engine.finish(finish, healthy, log);
        }
    }

    /// Whether the player has been started at least once (for external engines: said hello).
    pub fn ever_started(&self) -> bool {
        match self {
            Player::Builtin(_) => true,
            Player::Otep(engine) => engine.ever_started(),
        }
    }

    /// How many times an external engine was restarted after a forfeit or a crash.
    pub fn restarts(&self) -> u32 {
        match self {
            Player::Builtin(_) => 0,
            Player::Otep(engine) => engine.restarts(),
        }
    }
}

/// The players that run in this process.
pub enum Builtin {
    /// A uniformly random legal move.
    Random(Rng),
    /// Wins at once if it can, else the move with the best static evaluation.
    Greedy,
    /// This crate's searcher; the limits hold its own depth or node cap, if any.
    Engine(Box<Searcher>, Limits),
}

impl Builtin {
    fn new_game(&mut self) {
        if let Builtin::Engine(searcher, _) = self {
            searcher.clear();
        }
    }

    fn play<B: Grid>(&mut self, turn: &Turn<'_, B>) -> Answer {
        let started = Instant::now();
        let moves = turn.game.legal_moves();
        let chosen = match self {
            Builtin::Random(rng) => {
                let mut sorted = moves.clone();
                sorted.sort();
                rng.pick(&sorted)
            }
            Builtin::Greedy => {
                let me = turn.game.position().side_to_move();
                moves.iter().copied().max_by_key(|&m| {
                    let mut next = *turn.game.position();
                    next.play_unchecked(m);
                    if next.winner() == Some(me) {
                        i32::MAX
                    } else {
                        -eval::evaluate(&next, &EvalWeights::DEFAULT).0
                    }
                })
            }
            Builtin::Engine(searcher, own) => {
                let mut limits = turn.limits;
                limits.depth = own.depth;
                limits.nodes = own.nodes;
                searcher.search(turn.game, &limits, |_| {}).best_move
            }
        };
        match chosen {
            Some(m) => Answer::Move {
                text: m.to_string(),
                spent: started.elapsed(),
            },
            // Not reached: the referee asks only when a move exists.
            None => Answer::Refused("no legal move".to_string()),
        }
    }
}
