//! The match runner: plays two players against each other over many games, both sides of both
//! games, from seeded random openings, and reports wins, draws, losses and an Elo difference with
//! its 95% margin. Every strength figure in the README comes from it.
//!
//! ```text
//! cargo run --release --example match -- --a engine:movetime=100 --b greedy --openings 10
//! ```
//!
//! Players (`--a`, `--b`):
//! - `random`: a uniformly random legal move;
//! - `greedy`: wins at once if it can, else the move with the best static evaluation (one ply);
//! - `first[:depth=N|movetime=MS]`: the project's first search (see `first_version.rs`), 100 ms
//!   a move by default;
//! - `engine[:option,option...]`: this crate's searcher. Options: `depth=N`, `movetime=MS`,
//!   `nodes=N`, `threads=N`, `hash=MB`, `eval=default|basic`, `no-null`, `no-lmr`,
//!   `no-futility`, `no-reverse-futility`, `no-lmp`, `no-quiescence`, `no-aspiration`,
//!   `threat-extension`, `no-threat-extension`, and `w.TERM=VALUE` to set one
//!   evaluation weight (`w.king_fork_square=150`). Without a limit it plays 100 ms a move.
//!
//! Each opening is a few random plies from a start position (seeded, so both players and
//! every run see the same ones), played twice with the colours swapped. A game that reaches the
//! move cap (200 plies by default) is scored a draw.

mod first_version;

use std::time::Duration;

use first_version::FirstVersion;

use tafl_engine::search::eval::{self, EvalWeights};
use tafl_engine::search::{Features, Limits, SearchConfig, Searcher};
use tafl_engine::{Game, Move, Outcome, Side, Variant};

const HELP: &str = "usage: match --a PLAYER --b PLAYER [--openings N] [--opening-plies N] \
[--seed N] [--max-plies N] [--games tablut,tawlbwrdd] [--verbose]
PLAYER: random | greedy | first[:depth=N|movetime=MS] | engine[:depth=N,movetime=MS,nodes=N,threads=N,hash=MB,eval=default|basic,\
no-null,no-lmr,no-futility,no-reverse-futility,no-lmp,no-quiescence,no-aspiration,threat-extension,\
no-threat-extension,w.TERM=VALUE]";

/// A small xorshift generator: deterministic openings and random moves without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick(&mut self, moves: &[Move]) -> Move {
        moves[(self.next() % moves.len() as u64) as usize]
    }
}

enum Player {
    Random(Rng),
    Greedy,
    First(Box<FirstVersion>),
    Engine(Box<Searcher>, Limits),
}

impl Player {
    fn parse(spec: &str, seed: u64) -> Result<Player, String> {
        let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
        match kind {
            "random" => Ok(Player::Random(Rng(seed | 1))),
            "greedy" => Ok(Player::Greedy),
            "first" => {
                let (key, value) = options.split_once('=').unwrap_or((options, ""));
                let number: Option<u64> = value.parse().ok();
                let (depth, time) = match (key, number) {
                    ("depth", Some(depth)) => (Some(depth as u32), None),
                    ("movetime", Some(ms)) => (None, Some(Duration::from_millis(ms))),
                    ("", _) => (None, Some(Duration::from_millis(100))),
                    _ => return Err(format!("first wants depth=N or movetime=MS, not {options}")),
                };
                Ok(Player::First(Box::new(FirstVersion::new(depth, time))))
            }
            "engine" => {
                let mut config = SearchConfig {
                    threads: 1,
                    hash_mb: 16,
                };
                let mut limits = Limits::default();
                let mut weights = EvalWeights::DEFAULT;
                let mut features = Features::default();
                for option in options.split(',').filter(|o| !o.is_empty()) {
                    let (key, value) = option.split_once('=').unwrap_or((option, ""));
                    let number = || -> Result<u64, String> {
                        value
                            .parse()
                            .map_err(|_| format!("{key} wants a number, not {value:?}"))
                    };
                    match key {
                        "depth" => limits.depth = Some(number()? as u32),
                        "movetime" => limits.move_time = Some(Duration::from_millis(number()?)),
                        "nodes" => limits.nodes = Some(number()?),
                        "threads" => config.threads = number()? as usize,
                        "hash" => config.hash_mb = number()? as usize,
                        "eval" => {
                            weights = match value {
                                "default" => EvalWeights::DEFAULT,
                                "basic" => EvalWeights::BASIC,
                                other => return Err(format!("unknown eval {other}")),
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
                        term if term.starts_with("w.") => {
                            let value: i32 = value
                                .parse()
                                .map_err(|_| format!("{term} wants a number"))?;
                            set_weight(&mut weights, &term[2..], value)?;
                        }
                        other => return Err(format!("unknown engine option {other}")),
                    }
                }
                if limits.depth.is_none() && limits.move_time.is_none() && limits.nodes.is_none() {
                    limits.move_time = Some(Duration::from_millis(100));
                }
                let mut searcher = Searcher::new(config);
                searcher.set_eval_weights(weights);
                searcher.set_features(features);
                Ok(Player::Engine(Box::new(searcher), limits))
            }
            other => Err(format!("unknown player {other}")),
        }
    }

    fn new_game(&mut self) {
        match self {
            Player::Engine(searcher, _) => searcher.clear(),
            Player::First(first) => first.clear(),
            _ => {}
        }
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        match self {
            Player::Random(rng) => Some(rng.pick(&moves)),
            Player::Greedy => {
                let me = game.position().side_to_move();
                moves.iter().copied().max_by_key(|&m| {
                    let mut next = *game.position();
                    next.play_unchecked(m);
                    if next.winner() == Some(me) {
                        i32::MAX
                    } else {
                        -eval::evaluate(&next, &EvalWeights::DEFAULT).0
                    }
                })
            }
            Player::First(first) => first.choose(game),
            Player::Engine(searcher, limits) => searcher.search(game, limits, |_| {}).best_move,
        }
    }
}

fn set_weight(weights: &mut EvalWeights, term: &str, value: i32) -> Result<(), String> {
    let slot = weights
        .term_mut(term)
        .ok_or_else(|| format!("unknown evaluation term {term}"))?;
    *slot = value;
    Ok(())
}

/// Wins, draws and losses of player A.
#[derive(Clone, Copy, Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The Elo difference and its 95% margin, from the score and its standard error (the
    /// per-game results' variance), both turned to Elo with the logistic curve.
    fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let score = (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n;
        let variance = (f64::from(self.wins) * (1.0 - score).powi(2)
            + f64::from(self.draws) * (0.5 - score).powi(2)
            + f64::from(self.losses) * score.powi(2))
            / n;
        let error = (variance / n).sqrt();
        let to_elo = |s: f64| {
            let s = s.clamp(0.001, 0.999);
            -400.0 * (1.0 / s - 1.0).log10()
        };
        let low = to_elo(score - 1.96 * error);
        let high = to_elo(score + 1.96 * error);
        (to_elo(score), (high - low) / 2.0)
    }

    fn line(&self, label: &str) -> String {
        let (elo, margin) = self.elo();
        let n = f64::from(self.games().max(1));
        let score = (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n;
        // A clean sweep has no finite Elo estimate; say so instead of printing the clamp.
        let elo = if self.wins == self.games() {
            "Elo: A won every game".to_string()
        } else if self.losses == self.games() {
            "Elo: A lost every game".to_string()
        } else {
            format!("Elo {elo:+.0} ± {margin:.0}")
        };
        format!(
            "{label:<16} +{} ={} -{}  ({} games, score {:.1}%)  {elo}",
            self.wins,
            self.draws,
            self.losses,
            self.games(),
            score * 100.0,
        )
    }
}

struct Settings {
    a: String,
    b: String,
    openings: u32,
    opening_plies: u32,
    seed: u64,
    max_plies: usize,
    games: Vec<Variant>,
    verbose: bool,
}

fn parse_args() -> Result<Settings, String> {
    let mut settings = Settings {
        a: "engine".into(),
        b: "greedy".into(),
        openings: 10,
        opening_plies: 4,
        seed: 1,
        max_plies: 200,
        games: vec![Variant::tablut(), Variant::tawlbwrdd()],
        verbose: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut index = 0;
    while index < args.len() {
        let flag = args[index].as_str();
        if flag == "--help" || flag == "-h" {
            return Err(HELP.into());
        }
        if flag == "--verbose" {
            settings.verbose = true;
            index += 1;
            continue;
        }
        let value = args
            .get(index + 1)
            .ok_or_else(|| format!("{flag} needs a value\n{HELP}"))?
            .clone();
        let number = || -> Result<u64, String> {
            value
                .parse()
                .map_err(|_| format!("{flag} wants a number, not {value:?}"))
        };
        match flag {
            "--a" => settings.a = value.clone(),
            "--b" => settings.b = value.clone(),
            "--openings" => settings.openings = number()? as u32,
            "--opening-plies" => settings.opening_plies = number()? as u32,
            "--seed" => settings.seed = number()?,
            "--max-plies" => settings.max_plies = number()? as usize,
            "--games" => {
                settings.games = value
                    .split(',')
                    .map(|name| Variant::by_name(name).ok_or(format!("unknown game {name}")))
                    .collect::<Result<_, _>>()?;
            }
            other => return Err(format!("unknown flag {other}\n{HELP}")),
        }
        index += 2;
    }
    Ok(settings)
}

/// Plays one game; returns the winner (`None` for a draw, including the move cap).
fn play(
    game: &mut Game,
    attackers: &mut Player,
    defenders: &mut Player,
    max_plies: usize,
) -> Option<Side> {
    attackers.new_game();
    defenders.new_game();
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let player = match game.position().side_to_move() {
            Side::Attackers => &mut *attackers,
            Side::Defenders => &mut *defenders,
        };
        let Some(m) = player.choose(game) else { break };
        if game.play(m).is_err() {
            // A player that returns an illegal move forfeits.
            return Some(game.position().side_to_move().opponent());
        }
    }
    match game.outcome() {
        Some(Outcome::Win { winner, .. }) => Some(winner),
        _ => None,
    }
}

fn main() {
    let settings = match parse_args() {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let players = Player::parse(&settings.a, settings.seed.wrapping_mul(31) + 7).and_then(|a| {
        Player::parse(&settings.b, settings.seed.wrapping_mul(17) + 3).map(|b| (a, b))
    });
    let (mut a, mut b) = match players {
        Ok(players) => players,
        Err(message) => {
            eprintln!("{message}\n{HELP}");
            std::process::exit(2);
        }
    };
    println!(
        "A = {}, B = {}; {} openings x 2 colours per game, {} random plies, seed {}, cap {} plies",
        settings.a,
        settings.b,
        settings.openings,
        settings.opening_plies,
        settings.seed,
        settings.max_plies
    );
    let mut total = Tally::default();
    let mut as_side = [Tally::default(); 2];
    for variant in &settings.games {
        let mut tally = Tally::default();
        let mut openings = Rng(settings.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for opening_index in 0..settings.openings {
            let mut opening = Game::new(variant);
            for _ in 0..settings.opening_plies {
                // Sorted, so that openings do not change with the generator's order.
                let mut moves = opening.legal_moves();
                moves.sort();
                if moves.is_empty() {
                    break;
                }
                let _ = opening.play(openings.pick(&moves));
            }
            for a_side in Side::ALL {
                let mut game = opening.clone();
                let winner = match a_side {
                    Side::Attackers => play(&mut game, &mut a, &mut b, settings.max_plies),
                    Side::Defenders => play(&mut game, &mut b, &mut a, settings.max_plies),
                };
                let result = match winner {
                    Some(side) if side == a_side => Tally {
                        wins: 1,
                        ..Tally::default()
                    },
                    Some(_) => Tally {
                        losses: 1,
                        ..Tally::default()
                    },
                    None => Tally {
                        draws: 1,
                        ..Tally::default()
                    },
                };
                tally.add(result);
                as_side[usize::from(a_side == Side::Defenders)].add(result);
                if settings.verbose {
                    println!(
                        "{} opening {opening_index} A as {a_side}: {} after {} plies",
                        variant.name(),
                        game.outcome()
                            .map_or("draw (move cap)".to_string(), |o| o.to_string()),
                        game.moves().len()
                    );
                }
            }
        }
        println!("{}", tally.line(variant.name()));
        total.add(tally);
    }
    println!("{}", as_side[0].line("A as attackers"));
    println!("{}", as_side[1].line("A as defenders"));
    println!("{}", total.line("total"));
}
