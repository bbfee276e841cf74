//! Players: what the referee asks of an engine, and the built-in players that run in process.

use std::time::{Duration, Instant};

use tafl_engine::search::eval::{self, EvalWeights};
use tafl_engine::search::{Features, Limits, SearchConfig, Searcher};
use tafl_engine::{Board, Game, Narrow, Side};

use crate::log::GameLog;
use crate::otep::OtepEngine;

/// One turn as the referee puts it to a player, on the game's grid.
pub struct Turn<'a, B: Board = Narrow> {
    /// The game so far; the side to move is the player's.
    pub game: &'a Game<B>,
    /// The side to play.
    pub side: Side,
    /// The OTEP `clock` command for this turn (both sides' time, as OpenTafl gives it).
    pub clock_line: String,
    /// The player's own time as search limits (for players in process).
    pub limits: Limits,
    /// How long the referee waits for the answer before the player loses on time.
    pub allowed: Duration,
}

/// A player's answer to a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move as text (checked by the referee), and the time it took.
    Move {
        /// The move as the player wrote it.
        text: String,
        /// From the request to the answer.
        spent: Duration,
    },
    /// No move within the time allowed.
    Silence,
    /// The engine's process ended, or could not be written to.
    Crashed(String),
    /// The engine gave up with a critical error (`error -1 ...`).
    Refused(String),
}

/// An engine under the referee: built in, or an external OTEP engine.
pub enum Player {
    /// Runs in this process.
    Builtin(Builtin),
    /// Another process, spoken to through OTEP.
    Otep(Box<OtepEngine>),
}

impl Player {
    /// Sets the player up from its command-line specification. `label` is `A` or `B` (for logs),
    /// `worker` the worker thread's number.
    pub fn from_spec(
        spec: &str,
        label: &'static str,
        worker: usize,
        seed: u64,
        settings: &crate::options::Settings,
    ) -> Result<Player, String> {
        if let Some(command) = spec.strip_prefix("otep:") {
            let words = crate::options::split_command_line(command)?;
            if words.is_empty() {
                return Err(format!("{spec:?}: no command after otep:"));
            }
            let stderr_log = settings
                .log
                .as_ref()
                .map(|dir| dir.join(format!("{label}-worker{worker}.stderr")));
            return Ok(Player::Otep(Box::new(OtepEngine::new(
                label,
                words,
                stderr_log,
                settings.hello_timeout,
                settings.settle,
            ))));
        }
        Builtin::parse(spec, seed).map(Player::Builtin)
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
    pub fn play<B: Board>(&mut self, turn: &Turn<'_, B>, log: &mut GameLog) -> Answer {
        match self {
            Player::Builtin(builtin) => builtin.play(turn),
            Player::Otep(engine) => engine.play(turn, log),
        }
    }

    /// The referee accepted the player's move; `game` is the game after it.
    pub fn accepted<B: Board>(&mut self, game: &Game<B>, log: &mut GameLog) {
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

/// A small xorshift generator: seeded openings and random moves without a dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Rng {
        // Splitmix the seed so that nearby seeds give unrelated streams; never zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// One of `items`, `None` if there is none.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        Some(items[(self.next_u64() % items.len() as u64) as usize])
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
    /// Reads `random`, `greedy` or `engine[:options]`.
    pub fn parse(spec: &str, seed: u64) -> Result<Builtin, String> {
        let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
        match kind {
            "random" => Ok(Builtin::Random(Rng::new(seed))),
            "greedy" => Ok(Builtin::Greedy),
            "engine" => {
                let mut config = SearchConfig {
                    threads: 1,
                    hash_mb: 16,
                };
                let mut limits = Limits::default();
                let mut weights = EvalWeights::DEFAULT;
                let mut features = Features::default();
                let mut contempt = None;
                let mut network = None;
                for option in options.split(',').filter(|o| !o.is_empty()) {
                    let (key, value) = option.split_once('=').unwrap_or((option, ""));
                    let number = || -> Result<u64, String> {
                        value.parse().map_err(|_| {
                            format!("engine option {key} wants a number, not {value:?}")
                        })
                    };
                    match key {
                        "depth" => limits.depth = Some(number()?.clamp(1, 1000) as u32),
                        "nodes" => limits.nodes = Some(number()?),
                        "contempt" => {
                            contempt = Some(value.parse::<i32>().map_err(|_| {
                                format!("contempt wants a whole number, not {value:?}")
                            })?)
                        }
                        "threads" => config.threads = number()?.clamp(1, 256) as usize,
                        "hash" => config.hash_mb = number()?.clamp(1, 1 << 16) as usize,
                        "eval" => {
                            weights = match value {
                                "default" => EvalWeights::DEFAULT,
                                "basic" => EvalWeights::BASIC,
                                other => return Err(format!("unknown eval {other:?}")),
                            }
                        }
                        "no-null" => features.null_move = false,
                        "no-lmr" => features.late_move_reductions = false,
                        "no-futility" => features.futility = false,
                        "no-reverse-futility" => features.reverse_futility = false,
                        "no-lmp" => features.late_move_pruning = false,
                        "no-quiescence" => features.quiescence = false,
                        "no-aspiration" => features.aspiration = false,
                        "no-threat-extension" => features.threat_extension = false,
                        "threat-extension" => features.threat_extension = true,
                        "hand-eval" => features.learned_eval = false,
                        "network" => {
                            // Read with a size limit: `network=/dev/zero` is refused, not
                            // read until memory runs out.
                            let read = tafl_engine::search::nnue::Network::from_file(value)
                                .map_err(|e| format!("engine option network: {e}"))?;
                            network = Some(std::sync::Arc::new(read));
                        }
                        term if term.starts_with("w.") => {
                            let value: i32 = value
                                .parse()
                                .map_err(|_| format!("{term} wants a whole number"))?;
                            set_weight(&mut weights, &term[2..], value)?;
                        }
                        other => return Err(format!("unknown engine option {other:?}")),
                    }
                }
                let mut searcher = Searcher::new(config);
                searcher.set_eval_weights(weights);
                searcher.set_features(features);
                searcher.set_network(network);
                if let Some(contempt) = contempt {
                    searcher.set_contempt(contempt);
                }
                Ok(Builtin::Engine(Box::new(searcher), limits))
            }
            other => Err(format!(
                "unknown engine {other:?}: use otep:<command>, engine[:options], greedy or random"
            )),
        }
    }

    fn new_game(&mut self) {
        if let Builtin::Engine(searcher, _) = self {
            searcher.clear();
        }
    }

    fn play<B: Board>(&mut self, turn: &Turn<'_, B>) -> Answer {
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

fn set_weight(weights: &mut EvalWeights, term: &str, value: i32) -> Result<(), String> {
    let slot = weights
        .term_mut(term)
        .ok_or_else(|| format!("unknown evaluation term {term:?}"))?;
    *slot = value;
    Ok(())
}
