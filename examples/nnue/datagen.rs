//! `nnue datagen`: self-play games of the searcher at a fixed node budget, each from its own
//! seeded random opening; every quiet position is written with the search's score and the
//! game's result.
//!
//! One line a position, tab-separated: the game's number, the position record (rank 1 first),
//! the side to move, the search's score in centi-soldiers from the side to move's point of view,
//! the result (`defenders`, `attackers` or `draw`) and the ply. A position is kept when it is
//! after the opening, the game is not over, the score is not a forced result, the move the
//! search chose captures nothing, the side to move cannot win at once and the king has no free
//! line to where he escapes: the positions the search evaluates, not those it searches through.
//! Games are written in the order of their numbers whatever the threads, so a seed gives the
//! same file. Any game of `AnyVariant::by_name`, or of an OpenTafl rules string, plays, on the
//! grid its board needs (13x13 games on the wide one); a `--network` must read that grid.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tafl_engine::search::eval::{EvalWeights, evaluate};
use tafl_engine::search::nnue::Network;
use tafl_engine::search::{Features, Limits, SearchConfig, Searcher};
use tafl_engine::{AnyVariant, Game, Grid, Outcome, Position, Side, Variant, notation};

use crate::cli::{Options, Rng};

/// What one worker needs to play games of the grid `B`.
struct Plan<B: Grid> {
    variant: Variant<B>,
    name: String,
    games: u64,
    nodes: u64,
    /// The attackers' node budget, when they get another than the defenders.
    attacker_nodes: u64,
    /// A depth cap for both sides' searches, besides the nodes.
    depth: Option<u32>,
    seed: u64,
    opening_plies: usize,
    max_plies: usize,
    network: Option<Arc<Network>>,
    hand_eval: bool,
}

/// Whether the side to move can win with one move.
fn wins_at_once<B: Grid>(position: &Position<B>) -> bool {
    let me = position.side_to_move();
    position.legal_moves().iter().any(|&m| {
        let mut next = *position;
        next.play_unchecked(m);
        next.winner() == Some(me)
    })
}

/// Whether the king has a free line to where he escapes: the evaluation with only that term.
fn king_has_open_line<B: Grid>(position: &Position<B>) -> bool {
    let mut only = EvalWeights::BASIC;
    for term in EvalWeights::TERMS {
        if let Some(weight) = only.term_mut(term) {
            *weight = 0;
        }
    }
    only.king_open_line = 1;
    // The term counts free lines; the side to move only flips its sign.
    evaluate(position, &only).0 != 0
}

/// One self-play game: its lines of output and its result.
fn play_game<B: Grid>(
    plan: &Plan<B>,
    searcher: &mut Searcher,
    index: u64,
) -> (String, Option<Side>) {
    let mut rng = Rng::new(plan.seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut game = Game::new(&plan.variant);
    for _ in 0..plan.opening_plies {
        let mut moves = game.legal_moves();
        moves.sort();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        // A legal move of the game: it plays.
        let _ = game.play(moves[rng.below(moves.len())]);
    }
    searcher.clear();
    let limits_for = |side: Side| Limits {
        nodes: Some(match side {
            Side::Attackers => plan.attacker_nodes,
            Side::Defenders => plan.nodes,
        }),
        depth: plan.depth,
        ..Limits::default()
    };
    let mut kept: Vec<(usize, String, Side, i32)> = Vec::new();
    while game.outcome().is_none() && game.moves().len() < plan.max_plies {
        let limits = limits_for(game.position().side_to_move());
        let result = searcher.search(&game, &limits, |_| {});
        let Some(best) = result.best_move else {
            break;
        };
        let position = *game.position();
        let mut after = position;
        let quiet = !result.score.is_forced()
            && after.play_unchecked(best).is_empty()
            && !wins_at_once(&position)
            && !king_has_open_line(&position);
        if quiet {
            let record = notation::position_record(&position);
            kept.push((
                game.moves().len(),
                record,
                position.side_to_move(),
                // The trainer learns the evaluation's own units (its margins are the search's),
                // not the shown scale the search reports.
                searcher
                    .score_scale(position.rules())
                    .internal(result.score, position.side_to_move())
                    .0,
            ));
        }
        if game.play(best).is_err() {
            // The searcher only plays legal moves; stop the game rather than write a wrong one.
            eprintln!("nnue datagen: game {index}: the searcher's move {best} was refused");
            break;
        }
    }
    let winner = game.outcome().and_then(Outcome::winner);
    let result = match winner {
        Some(Side::Defenders) => "defenders",
        Some(Side::Attackers) => "attackers",
        None => "draw",
    };
    let mut text = String::new();
    for (ply, record, side, score) in kept {
        text.push_str(&format!(
            "{index}\t{record}\t{side}\t{score}\t{result}\t{ply}\n"
        ));
    }
    (text, winner)
}

pub fn run(options: &Options) -> Result<(), String> {
    let variant = crate::cli::variant(options.required("variant")?)?;
    let name = variant.key().unwrap_or(variant.name()).to_string();
    match variant {
        AnyVariant::Narrow(variant) => run_on(options, variant, name),
        AnyVariant::Wide(variant) => run_on(options, variant, name),
    }
}

/// `run` on the grid of the variant's board.
fn run_on<B: Grid>(options: &Options, variant: Variant<B>, name: String) -> Result<(), String> {
    let network = match options.text("network") {
        Some(path) => {
            let bytes = fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let network = Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
            network
                .check_grid::<B>()
                .map_err(|e| format!("{path}: {e}"))?;
            Some(Arc::new(network))
        }
        None => None,
    };
    let plan = Arc::new(Plan {
        variant,
        name,
        games: options.number("games", 1000)?,
        nodes: options.number("nodes", 6000)?,
        attacker_nodes: options.number("attacker-nodes", options.number("nodes", 6000)?)?,
        depth: options
            .text("depth")
            .map(|text| {
                text.parse()
                    .map_err(|_| format!("--depth wants a number, not {text:?}"))
            })
            .transpose()?,
        seed: options.number("seed", 1)?,
        opening_plies: options.number("opening-plies", 8)?,
        max_plies: options.number("max-plies", 400)?,
        network,
        hand_eval: options.has("hand-eval"),
    });
    let threads: usize = options.number("threads", 1)?;
    let out_path = options.required("out")?;
    let file = fs::File::create(out_path).map_err(|e| format!("{out_path}: {e}"))?;
    // Finished games wait here until every game before them is written.
    struct Output {
        writer: BufWriter<fs::File>,
        waiting: BTreeMap<u64, String>,
        next: u64,
        tally: [u64; 3],
        lines: u64,
    }
    let output = Arc::new(Mutex::new(Output {
        writer: BufWriter::new(file),
        waiting: BTreeMap::new(),
        next: 0,
        tally: [0; 3],
        lines: 0,
    }));
    let counter = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..threads.max(1))
        .map(|_| {
            let (plan, output, counter) = (plan.clone(), output.clone(), counter.clone());
            std::thread::spawn(move || -> Result<(), String> {
                let mut searcher = Searcher::new(SearchConfig {
                    threads: 1,
                    hash_mb: 16,
                });
                searcher.set_features(Features {
                    learned_eval: !plan.hand_eval,
                    ..Features::default()
                });
                searcher.set_network(plan.network.clone());
                loop {
                    let index = counter.fetch_add(1, Ordering::Relaxed);
                    if index >= plan.games {
                        return Ok(());
                    }
                    let (text, winner) = play_game(&plan, &mut searcher, index);
                    let mut out = output.lock().map_err(|_| "a worker failed".to_string())?;
                    out.tally[match winner {
                        Some(Side::Defenders) => 0,
                        None => 1,
                        Some(Side::Attackers) => 2,
                    }] += 1;
                    out.lines += text.lines().count() as u64;
                    out.waiting.insert(index, text);
                    loop {
                        let next = out.next;
                        let Some(text) = out.waiting.remove(&next) else {
                            break;
                        };
                        out.writer
                            .write_all(text.as_bytes())
                            .map_err(|e| e.to_string())?;
                        out.next += 1;
                    }
                    let done = out.next;
                    if done > 0 && done % 100 == 0 && out.waiting.is_empty() {
                        eprintln!(
                            "{} {done} games ({:.0} s): defenders {} draws {} attackers {}, {} positions",
                            plan.name,
                            started.elapsed().as_secs_f64(),
                            out.tally[0],
                            out.tally[1],
                            out.tally[2],
                            out.lines
                        );
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker
            .join()
            .map_err(|_| "a worker panicked".to_string())??;
    }
    let mut out = output.lock().map_err(|_| "a worker failed".to_string())?;
    out.writer.flush().map_err(|e| e.to_string())?;
    println!(
        "{}: {} games in {:.0} s: defenders {} draws {} attackers {}; {} positions written to {out_path}",
        plan.name,
        plan.games,
        started.elapsed().as_secs_f64(),
        out.tally[0],
        out.tally[1],
        out.tally[2],
        out.lines
    );
    Ok(())
}
