//! `nnue calibrate`: does the shown score say what came of the games?
//!
//! It reads self-play positions (`nnue datagen`'s lines: each position's search score in the
//! evaluation's own units, from the side to move's view, and its game's result), shows each
//! score on the engine's scale for that evaluation and game ([`Searcher::score_scale`]), and
//! prints, bin by bin of the shown score, the expected result the scale promises beside the
//! result the side to move scored (a win 1, a draw ½, a loss 0). It also fits the scale that
//! suits the data best (units a logit and the defenders' edge, by maximum likelihood): the
//! numbers `ScoreScale`'s tables in the library were given.
//!
//! With `--rescore NODES`, each position is searched again with the evaluation asked for (at
//! `NODES` nodes, one thread) and that score is shown instead of the one in the data: so one
//! evaluation is calibrated on the games of another (the hand-written evaluation on the games
//! of a game's network, which is what every score of that game promises); `--save FILE` writes
//! the data with those scores, to calibrate again without searching.

use std::fs;

use tafl_engine::search::nnue::Network;
use tafl_engine::search::{Features, Limits, Score, ScoreScale, SearchConfig, Searcher};
use tafl_engine::{AnyVariant, Game, Grid, Side, Variant, notation};

use crate::cli::Options;

/// One position: the evaluation's score and the result, both from the side to move's view.
struct Sample {
    record: String,
    side: Side,
    score: i32,
    result: f64,
}

fn read(paths: &str) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths.split(',') {
        let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (index, line) in text.lines().enumerate() {
            let at = || format!("{path}:{}", index + 1);
            let fields: Vec<&str> = line.split('\t').collect();
            let [_, record, side, score, result, _] = fields[..] else {
                return Err(format!("{}: wants 6 tab-separated fields", at()));
            };
            let side = Side::from_name(side).ok_or(format!("{}: side {side:?}", at()))?;
            let score = score.parse().map_err(|_| format!("{}: score", at()))?;
            let result = match (result, side) {
                ("draw", _) => 0.5,
                ("defenders", Side::Defenders) | ("attackers", Side::Attackers) => 1.0,
                ("defenders", _) | ("attackers", _) => 0.0,
                (other, _) => return Err(format!("{}: result {other:?}", at())),
            };
            samples.push(Sample {
                record: record.to_string(),
                side,
                score,
                result,
            });
        }
    }
    Ok(samples)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean cross-entropy of the scale's promises against the results.
fn loss(samples: &[Sample], scale: ScoreScale) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = scale
                .show(Score(s.score), s.side)
                .expected_result()
                .clamp(1e-9, 1.0 - 1e-9);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale that fits the samples best: units a logit by a search over its logarithm, the
/// defenders' edge by Newton's steps at each.
fn fit(samples: &[Sample]) -> ScoreScale {
    let best_edge = |per_logit: f64| {
        let mut edge = 0.0f64;
        for _ in 0..25 {
            let (mut gradient, mut curvature) = (0.0, 0.0);
            for s in samples {
                let sign = if s.side == Side::Defenders { 1.0 } else { -1.0 };
                let p = sigmoid(f64::from(s.score) / per_logit + sign * edge);
                gradient += (p - s.result) * sign;
                curvature += (p * (1.0 - p)).max(1e-9);
            }
            edge = (edge - gradient / curvature).clamp(-5.0, 5.0);
        }
        edge
    };
    let scale_of = |log_k: f64| {
        let k = log_k.exp();
        ScoreScale::new(k.round() as i32, (best_edge(k) * 100.0).round() as i32)
    };
    let (mut low, mut high) = (20f64.ln(), 5000f64.ln());
    for _ in 0..40 {
        let a = low + (high - low) / 3.0;
        let b = high - (high - low) / 3.0;
        if loss(samples, scale_of(a)) < loss(samples, scale_of(b)) {
            high = b;
        } else {
            low = a;
        }
    }
    scale_of((low + high) / 2.0)
}

/// The bins of shown scores, in hundredths: each bin is `[low, high)`.
const BINS: [(i32, i32); 10] = [
    (i32::MIN, -300),
    (-300, -200),
    (-200, -100),
    (-100, -50),
    (-50, 0),
    (0, 50),
    (50, 100),
    (100, 200),
    (200, 300),
    (300, i32::MAX),
];

fn bin_name(low: i32, high: i32) -> String {
    match (low, high) {
        (i32::MIN, high) => format!("below {:.1}", f64::from(high) / 100.0),
        (low, i32::MAX) => format!("{:.1} and above", f64::from(low) / 100.0),
        (low, high) => format!(
            "{:.1} to {:.1}",
            f64::from(low) / 100.0,
            f64::from(high) / 100.0
        ),
    }
}

/// A markdown table of promised against scored results, bin by bin.
fn table(samples: &[Sample], scale: ScoreScale) -> String {
    let mut out = String::from(
        "| shown score | positions | promised | scored | ± (95 %) |\n|---|---|---|---|---|\n",
    );
    for (low, high) in BINS {
        let members: Vec<(f64, f64)> = samples
            .iter()
            .filter_map(|s| {
                let shown = scale.show(Score(s.score), s.side);
                (low <= shown.0 && shown.0 < high).then(|| (shown.expected_result(), s.result))
            })
            .collect();
        if members.is_empty() {
            continue;
        }
        let n = members.len() as f64;
        let promised = members.iter().map(|m| m.0).sum::<f64>() / n;
        let scored = members.iter().map(|m| m.1).sum::<f64>() / n;
        let spread = (members.iter().map(|m| (m.1 - scored).powi(2)).sum::<f64>() / n).sqrt();
        out.push_str(&format!(
            "| {} | {} | {:.3} | {:.3} | {:.3} |\n",
            bin_name(low, high),
            members.len(),
            promised,
            scored,
            1.96 * spread / n.sqrt(),
        ));
    }
    out
}

/// Searches every sample's position again with `searcher` at `nodes` nodes, and keeps that
/// score, in the evaluation's own units.
fn rescore<B: Grid>(
    samples: &mut [Sample],
    variant: &Variant<B>,
    searcher: &mut Searcher,
    nodes: u64,
) -> Result<(), String> {
    let scale = searcher.score_scale(variant.rules());
    for sample in samples.iter_mut() {
        let position =
            notation::parse_position_record(&sample.record, variant.rules(), sample.side)
                .map_err(|e| format!("{}: {e}", sample.record))?;
        searcher.clear();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let result = searcher.search(&Game::from_position(position), &limits, |_| {});
        sample.score = scale.internal(result.score, sample.side).0;
    }
    Ok(())
}

pub fn run(options: &Options) -> Result<(), String> {
    let name = options.required("variant")?;
    let variant = crate::cli::variant(name)?;
    let mut samples = read(options.required("data")?)?;
    if samples.is_empty() {
        return Err("no positions in the data".to_string());
    }
    let mut searcher = Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: 1,
    });
    searcher.set_features(Features {
        learned_eval: !options.has("hand-eval"),
        ..Features::default()
    });
    if let Some(path) = options.text("network") {
        let network = Network::from_file(path).map_err(|e| e.to_string())?;
        searcher.set_network(Some(std::sync::Arc::new(network)));
    }
    if let Some(nodes) = options.text("rescore") {
        let nodes = nodes
            .parse()
            .map_err(|_| format!("--rescore wants a number of nodes, not {nodes:?}"))?;
        match &variant {
            AnyVariant::Narrow(v) => rescore(&mut samples, v, &mut searcher, nodes)?,
            AnyVariant::Wide(v) => rescore(&mut samples, v, &mut searcher, nodes)?,
        }
        // Forced results are not what a scale is fitted to (the data has none either).
        samples.retain(|s| !Score(s.score).is_forced());
        if let Some(path) = options.text("save") {
            // The data again, with the new scores: calibrating it again needs no search.
            let text: String = samples
                .iter()
                .map(|s| {
                    // The result as `read` took it in: 1, 0 or ½ for the side to move.
                    let result = if s.result > 0.75 {
                        s.side.name()
                    } else if s.result < 0.25 {
                        s.side.opponent().name()
                    } else {
                        "draw"
                    };
                    format!(
                        "0\t{}\t{}\t{}\t{result}\t0\n",
                        s.record,
                        s.side.name(),
                        s.score
                    )
                })
                .collect();
            fs::write(path, text).map_err(|e| format!("{path}: {e}"))?;
        }
    }
    let (scale, evaluation) = match &variant {
        AnyVariant::Narrow(v) => (
            searcher.score_scale(v.rules()),
            searcher.evaluation(v.rules()),
        ),
        AnyVariant::Wide(v) => (
            searcher.score_scale(v.rules()),
            searcher.evaluation(v.rules()),
        ),
    };
    let fitted = fit(&samples);
    let text = format!(
        "{name}, evaluation {evaluation}: {} positions; its scale: {} units a logit, defenders' edge {:.2} (mean loss {:.5}); fitted: {} units a logit, defenders' edge {:.2} (mean loss {:.5})\n\nthe engine's scale:\n{}\nthe fitted scale:\n{}",
        samples.len(),
        scale.per_logit(),
        f64::from(scale.defenders_edge()) / 100.0,
        loss(&samples, scale),
        fitted.per_logit(),
        f64::from(fitted.defenders_edge()) / 100.0,
        loss(&samples, fitted),
        table(&samples, scale),
        table(&samples, fitted),
    );
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
    Ok(())
}
