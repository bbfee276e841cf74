//! Texel tuning of the evaluation weights from self-play (see "Tuning (Texel)" in
//! docs/search.md).
//!
//! ```text
//! # 1. self-play games at a fixed node budget, quiet positions with the game's result
//! cargo run --release --example texel -- generate --variants tablut,tawlbwrdd \
//!     --games 100 --nodes 5000 --seed 1 --out edge.tsv
//! # 2. fit K, then tune the weights on those positions
//! cargo run --release --example texel -- tune --data edge.tsv
//! ```
//!
//! `generate` plays `--games` games per variant (40), the searcher playing both sides, each from
//! its own seeded random opening (`--opening-plies` random plies, 6 by default; `--seed` and
//! the variant's name seed them), each move a search of `--nodes` nodes (3000) with one thread and
//! a 4 MiB table, with the default weights (or `--weights w.TERM=V,...`); a game reaching
//! `--max-plies` (200) is a draw. It writes one line per quiet position: the variant's name, the
//! position record, the side to move and the result (`defenders`, `attackers` or `draw`),
//! separated by tabs. A position is kept when it is at least `--skip` plies (4) after the
//! opening, more than `--skip` plies before the game's end, the side to move can neither win nor
//! capture at once and the king has no free line to an edge (the search never evaluates those).
//!
//! `tune` reads such a file (`--variants` keeps only the lines of those variants), checks that
//! the evaluation is linear in its weights on every position, fits K of
//! `sigmoid(K * eval / 100 + offset)` (the evaluation from the defenders' view; result 1 for a
//! defenders' win, 0.5 draw, 0 attackers' win; each variant with its own offset, a constant that
//! does not change which move the search prefers and is not used by the engine) to the default
//! weights, K and the offsets in turn, then minimises the mean squared error by coordinate
//! descent over the integer weights (all but `attacker`, the unit, `king_open_line` and
//! `tempo`), steps 16, 8, 4, 2, 1, refitting the offsets after each step size. `--reg R` adds R times the squared distance from the default weights,
//! in soldiers, to what it minimises; `--fix` holds more terms at their defaults; `--k` sets K.
//! It prints the error before and after and the tuned weights as `tafl-match` engine options.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;

use tafl_engine::notation;
use tafl_engine::search::eval::{self, EvalWeights};
use tafl_engine::search::{Limits, SearchConfig, Searcher};
use tafl_engine::{Game, Move, Outcome, Position, Side, Variant};

const HELP: &str = "usage:
  texel generate --variants a,b,... [--games N] [--nodes N] [--seed S] [--opening-plies N]
                 [--max-plies N] [--skip N] [--weights w.TERM=V,...] --out FILE
  texel tune --data FILE [--variants a,b,...] [--k K] [--reg R] [--fix TERM,TERM...]";

/// How many terms the evaluation has.
const N: usize = EvalWeights::TERMS.len();
/// The terms, by their `tafl-match` names.
const TERMS: [&str; N] = EvalWeights::TERMS;

/// The terms the tuner leaves alone: an attacking soldier is the unit (100) that keeps the
/// scale of the weights, which the search's own margins (futility, contempt, a free line's
/// 150) are measured in; a free king line is never evaluated in a quiet position; the tempo is
/// not a property of the position.
const FIXED: [&str; 3] = ["attacker", "king_open_line", "tempo"];

fn slot<'a>(weights: &'a mut EvalWeights, term: &str) -> &'a mut i32 {
    // Every name given here is one of TERMS (user input is checked against it first), and
    // `term_mut` takes each of them (a library test says so).
    weights
        .term_mut(term)
        .unwrap_or_else(|| panic!("unknown term {term}"))
}

fn get(weights: &EvalWeights, term: &str) -> i32 {
    let mut copy = *weights;
    *slot(&mut copy, term)
}

/// A small xorshift generator: seeded openings without a dependency.
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

/// Options as `--flag value` pairs.
fn options(args: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut map = BTreeMap::new();
    let mut iter = args.iter();
    while let Some(flag) = iter.next() {
        let name = flag
            .strip_prefix("--")
            .ok_or(format!("unexpected {flag:?}\n{HELP}"))?;
        let value = iter.next().ok_or(format!("{flag} needs a value"))?;
        map.insert(name.to_string(), value.clone());
    }
    Ok(map)
}

fn number(map: &BTreeMap<String, String>, name: &str, default: u64) -> Result<u64, String> {
    map.get(name).map_or(Ok(default), |text| {
        text.parse()
            .map_err(|_| format!("--{name} wants a number, not {text:?}"))
    })
}

fn variants(text: &str) -> Result<Vec<(String, Variant)>, String> {
    text.split(',')
        .map(|name| {
            Variant::by_name(name)
                .map(|variant| (name.to_ascii_lowercase(), variant))
                .ok_or(format!("unknown variant {name}"))
        })
        .collect()
}

fn parse_weights(text: &str) -> Result<EvalWeights, String> {
    let mut weights = EvalWeights::DEFAULT;
    for option in text.split(',').filter(|o| !o.is_empty()) {
        let (term, value) = option
            .strip_prefix("w.")
            .and_then(|o| o.split_once('='))
            .ok_or(format!("{option:?} is not w.TERM=VALUE"))?;
        if !TERMS.contains(&term) {
            return Err(format!("unknown term {term}"));
        }
        *slot(&mut weights, term) = value
            .parse()
            .map_err(|_| format!("{term} wants a whole number"))?;
    }
    Ok(weights)
}

fn weights_text(weights: &EvalWeights) -> String {
    TERMS
        .iter()
        .map(|term| format!("w.{term}={}", get(weights, term)))
        .collect::<Vec<_>>()
        .join(",")
}

/// Whether the side to move can win with one move, or capture.
fn wins_or_captures_at_once(position: &Position) -> bool {
    let me = position.side_to_move();
    position.legal_moves().iter().any(|&m| {
        let mut next = *position;
        let captured = next.play_unchecked(m);
        next.winner() == Some(me) || !captured.is_empty()
    })
}

/// Free lines from the king to an edge, read from the evaluation with only that term.
fn open_king_lines(position: &Position) -> i32 {
    let only = EvalWeights {
        king_open_line: 1,
        ..zero_weights()
    };
    defenders_view(position, eval::evaluate(position, &only).0)
}

fn zero_weights() -> EvalWeights {
    let mut weights = EvalWeights::DEFAULT;
    for term in TERMS {
        *slot(&mut weights, term) = 0;
    }
    weights
}

fn defenders_view(position: &Position, own_view: i32) -> i32 {
    match position.side_to_move() {
        Side::Defenders => own_view,
        Side::Attackers => -own_view,
    }
}

fn generate(args: &[String]) -> Result<(), String> {
    let map = options(args)?;
    let list = variants(map.get("variants").ok_or("--variants is required")?)?;
    let games = number(&map, "games", 40)?;
    let nodes = number(&map, "nodes", 3000)?;
    let seed = number(&map, "seed", 1)?;
    let opening_plies = number(&map, "opening-plies", 6)?;
    let max_plies = number(&map, "max-plies", 200)? as usize;
    let skip = number(&map, "skip", 4)? as usize;
    let weights = parse_weights(map.get("weights").map_or("", String::as_str))?;
    let out_path = map.get("out").ok_or("--out is required")?;
    let mut out = fs::File::create(out_path).map_err(|e| format!("{out_path}: {e}"))?;
    let mut searcher = Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: 4,
    });
    searcher.set_eval_weights(weights);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut total = 0;
    for (name, variant) in &list {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ fnv(name) | 1);
        let mut tally = [0u32; 3];
        let mut kept = 0;
        for _ in 0..games {
            let mut game = Game::new(variant);
            for _ in 0..opening_plies {
                let mut moves = game.legal_moves();
                moves.sort();
                if moves.is_empty() || game.outcome().is_some() {
                    break;
                }
                let _ = game.play(rng.pick(&moves));
            }
            let first = game.moves().len();
            searcher.clear();
            while game.outcome().is_none() && game.moves().len() < max_plies {
                let Some(m) = searcher.search(&game, &limits, |_| {}).best_move else {
                    break;
                };
                if game.play(m).is_err() {
                    return Err(format!("the searcher played an illegal move in {name}"));
                }
            }
            let (result, index) = match game.outcome() {
                Some(Outcome::Win {
                    winner: Side::Defenders,
                    ..
                }) => ("defenders", 0),
                Some(Outcome::Win {
                    winner: Side::Attackers,
                    ..
                }) => ("attackers", 2),
                _ => ("draw", 1),
            };
            tally[index] += 1;
            let positions = game.positions();
            let end = positions.len();
            for (ply, position) in positions.iter().enumerate() {
                if ply < first + skip || ply + skip >= end || position.winner().is_some() {
                    continue;
                }
                if wins_or_captures_at_once(position) || open_king_lines(position) != 0 {
                    continue;
                }
                let record = notation::position_record(position);
                let side = position.side_to_move();
                writeln!(out, "{name}\t{record}\t{side}\t{result}").map_err(|e| e.to_string())?;
                kept += 1;
            }
        }
        println!(
            "{name}: {games} games, defenders {} draws {} attackers {}, {kept} positions",
            tally[0], tally[1], tally[2]
        );
        total += kept;
    }
    println!("{total} positions written to {out_path}");
    Ok(())
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
    })
}

/// One position as the tuner sees it: each term's count from the defenders' view (the
/// evaluation is the dot product with the weights), the tempo's sign, the variant (by its index
/// in the tuner's list) and the result.
struct Sample {
    features: [i32; N],
    tempo_sign: i32,
    variant: usize,
    result: f64,
}

/// The positions of `path` and the names of their variants, in order of appearance.
fn load(
    path: &str,
    filter: Option<&[(String, Variant)]>,
) -> Result<(Vec<Sample>, Vec<String>), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut samples = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut cache: BTreeMap<String, Variant> = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [name, record, side, result] = fields[..] else {
            return Err(format!("{path}:{}: not four fields", number + 1));
        };
        if let Some(list) = filter {
            if !list.iter().any(|(n, _)| n == name) {
                continue;
            }
        }
        if !cache.contains_key(name) {
            let variant = Variant::by_name(name).ok_or(format!("unknown variant {name}"))?;
            cache.insert(name.to_string(), variant);
        }
        let rules = cache[name].rules();
        let side = match side {
            "attackers" => Side::Attackers,
            "defenders" => Side::Defenders,
            other => return Err(format!("{path}:{}: side {other:?}", number + 1)),
        };
        let result = match result {
            "defenders" => 1.0,
            "draw" => 0.5,
            "attackers" => 0.0,
            other => return Err(format!("{path}:{}: result {other:?}", number + 1)),
        };
        let position = notation::parse_position_record(record, rules, side)
            .map_err(|e| format!("{path}:{}: {e:?}", number + 1))?;
        let mut features = [0; N];
        for (index, term) in TERMS.iter().enumerate() {
            if *term == "tempo" {
                continue;
            }
            let mut unit = zero_weights();
            *slot(&mut unit, term) = 1;
            features[index] = defenders_view(&position, eval::evaluate(&position, &unit).0);
        }
        let tempo_sign = defenders_view(&position, 1);
        let variant = names.iter().position(|n| n == name).unwrap_or_else(|| {
            names.push(name.to_string());
            names.len() - 1
        });
        let sample = Sample {
            features,
            tempo_sign,
            variant,
            result,
        };
        // The tuner relies on the evaluation being linear in its weights: check it.
        let full = defenders_view(
            &position,
            eval::evaluate(&position, &EvalWeights::DEFAULT).0,
        );
        if dot(&sample, &as_array(&EvalWeights::DEFAULT)) != full {
            return Err(format!(
                "{path}:{}: the evaluation is not linear here",
                number + 1
            ));
        }
        samples.push(sample);
    }
    Ok((samples, names))
}

fn as_array(weights: &EvalWeights) -> [i32; N] {
    TERMS.map(|term| get(weights, term))
}

/// The evaluation from the defenders' view with weights `w`.
fn dot(sample: &Sample, w: &[i32; N]) -> i32 {
    let tempo = TERMS.iter().position(|t| *t == "tempo").unwrap_or(12);
    sample
        .features
        .iter()
        .zip(w)
        .map(|(f, w)| f * w)
        .sum::<i32>()
        + sample.tempo_sign * w[tempo]
}

/// The mean squared error of `sigmoid(k * eval / 100 + bias[variant])` against the results.
fn error(samples: &[Sample], w: &[i32; N], bias: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|sample| {
            let eval = f64::from(dot(sample, w)) / 100.0;
            let predicted = 1.0 / (1.0 + (-(k * eval + bias[sample.variant])).exp());
            (sample.result - predicted).powi(2)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The K that fits these weights best: a golden-section search over 0.01..10.
fn fit_k(samples: &[Sample], w: &[i32; N], bias: &[f64]) -> f64 {
    golden(0.01, 10.0, |k| error(samples, w, bias, k))
}

/// The minimum of `f` over `low..high` by golden-section search.
fn golden(mut low: f64, mut high: f64, f: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..50 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if f(a) < f(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Fits each variant's offset (in the sigmoid's units, -8..8) to the weights and K.
fn fit_offsets(samples: &[Sample], w: &[i32; N], bias: &mut [f64], k: f64) {
    for (v, offset) in bias.iter_mut().enumerate() {
        let own: Vec<&Sample> = samples.iter().filter(|s| s.variant == v).collect();
        let error_of = |offset: f64| -> f64 {
            own.iter()
                .map(|sample| {
                    let eval = f64::from(dot(sample, w)) / 100.0;
                    let predicted = 1.0 / (1.0 + (-(k * eval + offset)).exp());
                    (sample.result - predicted).powi(2)
                })
                .sum()
        };
        *offset = golden(-8.0, 8.0, error_of);
    }
}

fn tune(args: &[String]) -> Result<(), String> {
    let map = options(args)?;
    let path = map.get("data").ok_or("--data is required")?;
    let filter = map.get("variants").map(|text| variants(text)).transpose()?;
    let (samples, names) = load(path, filter.as_deref())?;
    if samples.is_empty() {
        return Err("no positions".into());
    }
    let mut results = [0usize; 3];
    for sample in &samples {
        results[(sample.result * 2.0) as usize] += 1;
    }
    println!(
        "{} positions (from games won by the attackers {}, drawn {}, won by the defenders {})",
        samples.len(),
        results[0],
        results[1],
        results[2]
    );
    let start = as_array(&EvalWeights::DEFAULT);
    // Each variant's own offset: a constant does not change which move the search prefers, but
    // without it the material weights would have to absorb how the variants' results differ.
    let mut bias = vec![0.0; names.len()];
    let given_k = match map.get("k") {
        Some(text) => Some(text.parse().map_err(|_| format!("--k: {text:?}"))?),
        None => None,
    };
    // K and the offsets are fitted in turn (they pull on each other), from the K that fits
    // without offsets.
    let mut k = given_k.unwrap_or_else(|| fit_k(&samples, &start, &bias));
    for _ in 0..100 {
        fit_offsets(&samples, &start, &mut bias, k);
        if given_k.is_none() {
            k = fit_k(&samples, &start, &bias);
        }
    }
    let mut w = start;
    let before = error(&samples, &start, &bias, k);
    println!("K = {k:.4}; error with the default weights {before:.6}");
    let fixed: Vec<&str> = map
        .get("fix")
        .map_or(Vec::new(), |t| t.split(',').collect());
    let reg: f64 = match map.get("reg") {
        Some(text) => text.parse().map_err(|_| format!("--reg: {text:?}"))?,
        None => 0.0,
    };
    let tunable: Vec<usize> = (0..TERMS.len())
        .filter(|&i| !FIXED.contains(&TERMS[i]) && !fixed.contains(&TERMS[i]))
        .collect();
    let best = descend(
        &samples,
        &mut w,
        &mut bias,
        k,
        &tunable,
        &[16, 8, 4, 2, 1],
        reg,
    );
    let offsets: Vec<String> = names
        .iter()
        .zip(&bias)
        .map(|(name, b)| format!("{name} {b:+.3}"))
        .collect();
    println!(
        "variant offsets (not used by the engine): {}",
        offsets.join(", ")
    );
    let mut tuned = EvalWeights::DEFAULT;
    for (term, value) in TERMS.iter().zip(w) {
        *slot(&mut tuned, term) = value;
    }
    println!("error before {before:.6}, after {best:.6}");
    println!("term                     default  tuned");
    for term in TERMS {
        println!(
            "{term:<24} {:>7} {:>6}",
            get(&EvalWeights::DEFAULT, term),
            get(&tuned, term)
        );
    }
    println!("engine:{}", weights_text(&tuned));
    let changed: Vec<String> = TERMS
        .iter()
        .filter(|term| get(&tuned, term) != get(&EvalWeights::DEFAULT, term))
        .map(|term| format!("w.{term}={}", get(&tuned, term)))
        .collect();
    println!("changed: engine:{}", changed.join(","));
    Ok(())
}

/// Coordinate descent over the weights `tunable` with shrinking steps, the offsets refitted
/// after each step size; every weight stays at zero or above. Returns the error reached.
fn descend(
    samples: &[Sample],
    w: &mut [i32; N],
    bias: &mut [f64],
    k: f64,
    tunable: &[usize],
    steps: &[i32],
    reg: f64,
) -> f64 {
    let start = as_array(&EvalWeights::DEFAULT);
    // The objective: the error, plus `reg` times the squared distance from the default weights
    // in soldiers (100 hundredths), which keeps the weights near what matches confirmed.
    let penalty = |w: &[i32; N]| -> f64 {
        reg * w
            .iter()
            .zip(&start)
            .map(|(a, b)| (f64::from(a - b) / 100.0).powi(2))
            .sum::<f64>()
    };
    let mut best = error(samples, w, bias, k) + penalty(w);
    let report = !tunable.is_empty();
    for &step in steps {
        loop {
            let mut improved = false;
            for &i in tunable {
                for delta in [step, -step] {
                    let mut trial = *w;
                    trial[i] += delta;
                    // Every term is a bonus for the side it names: keep the signs.
                    if trial[i] < 0 {
                        continue;
                    }
                    let e = error(samples, &trial, bias, k) + penalty(&trial);
                    if e < best {
                        best = e;
                        *w = trial;
                        improved = true;
                        break;
                    }
                }
            }
            if !improved {
                break;
            }
        }
        fit_offsets(samples, w, bias, k);
        best = error(samples, w, bias, k) + penalty(w);
        if report {
            println!(
                "step {step:>2}: error {:.6} (objective {best:.6})",
                error(samples, w, bias, k)
            );
        }
    }
    error(samples, w, bias, k)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("generate") => generate(&args[1..]),
        Some("tune") => tune(&args[1..]),
        _ => Err(HELP.to_string()),
    };
    if let Err(message) = outcome {
        eprintln!("texel: {message}");
        std::process::exit(2);
    }
}
