//! `nnue train`: fits a network to the positions of `nnue datagen`, in floating point with Adam,
//! then quantizes it and writes the file the library reads (`Network::to_bytes`).
//!
//! The target of a position blends what the search said and how the game ended, from the
//! defenders' point of view: `lambda × sigmoid(score / K + offset) + (1 - lambda) × result`
//! (result 1 for a defenders' win, ½ a draw, 0 an attackers' win). `K` (centi-soldiers a logit)
//! and `offset` are fitted to the data first (the scores against the results, as Texel tuning
//! does), unless `--scale` gives K: K becomes the network's scale, so its scores sit on the
//! search's scale. The loss is the cross-entropy between `sigmoid(output)` and the target.
//! Games are split into training and validation by their number (every 20th game validates), so
//! that no game's positions are on both sides; the validation loss is printed each epoch for the
//! float network, and at the end for the quantized one and for the hand-written evaluation (with
//! its own fitted scale and offset), which is what the network has to beat.
//! Same data, same seed, same threads: the same network. The network reads the grid of the
//! variant's board (`--variant`, a name of `AnyVariant::by_name` or a rules string): a network
//! of the narrow grid up to 11x11, of the wide grid above.

use std::fs;
use std::time::Instant;

use tafl_engine::search::eval::{EvalWeights, evaluate};
use tafl_engine::search::nnue::{
    FloatNetwork, HIDDEN, MAX_INPUT_WEIGHT, MAX_OUTPUT_WEIGHT, Network, NetworkGrid, features,
};
use tafl_engine::{AnyVariant, Grid, Position, Side, Variant, notation};

use crate::cli::{Options, Rng};

/// The positions, their inputs packed one after another, on the grid `B`.
struct Samples<B: Grid> {
    /// The active inputs of every position, back to back.
    inputs: Vec<u16>,
    /// Where each position's inputs start in `inputs` (one more entry than positions).
    starts: Vec<u32>,
    /// 0 attackers to move, 1 defenders.
    side: Vec<u8>,
    /// The search's score, centi-soldiers, defenders' view.
    score: Vec<f32>,
    /// 1 defenders won, 0.5 draw, 0 attackers won.
    result: Vec<f32>,
    /// The hand-written evaluation, defenders' view (for the comparison).
    hand: Vec<f32>,
    /// Whether the position is in the validation set.
    validation: Vec<bool>,
    /// How much each position counts in the loss (1 unless the results are balanced).
    weight: Vec<f32>,
    /// What the network's output is added to, as a logit: the hand-written evaluation over the
    /// scale for a network on top of it, else 0.
    base: Vec<f32>,
    /// Which game each position is from (file and game number) and at which ply.
    game: Vec<(u32, u64)>,
    ply: Vec<u32>,
    /// The validation positions themselves, by index, for the quantized network.
    validation_positions: Vec<(usize, Position<B>)>,
}

impl<B: Grid> Samples<B> {
    fn len(&self) -> usize {
        self.side.len()
    }

    fn inputs_of(&self, index: usize) -> &[u16] {
        &self.inputs[self.starts[index] as usize..self.starts[index + 1] as usize]
    }
}

fn defenders_view(side: Side, score: f32) -> f32 {
    match side {
        Side::Defenders => score,
        Side::Attackers => -score,
    }
}

fn read_samples<B: Grid>(paths: &str, variant: &Variant<B>) -> Result<Samples<B>, String> {
    let mut samples = Samples {
        inputs: Vec::new(),
        starts: vec![0],
        side: Vec::new(),
        score: Vec::new(),
        result: Vec::new(),
        hand: Vec::new(),
        validation: Vec::new(),
        weight: Vec::new(),
        base: Vec::new(),
        game: Vec::new(),
        ply: Vec::new(),
        validation_positions: Vec::new(),
    };
    for (file_index, path) in paths.split(',').enumerate() {
        let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (line_index, line) in text.lines().enumerate() {
            let at = || format!("{path}:{}", line_index + 1);
            let fields: Vec<&str> = line.split('\t').collect();
            let [game, record, side, score, result, ply] = fields[..] else {
                return Err(format!("{}: wants 6 tab-separated fields", at()));
            };
            let game: u64 = game.parse().map_err(|_| format!("{}: game number", at()))?;
            let ply: u32 = ply.parse().map_err(|_| format!("{}: ply", at()))?;
            let side = Side::from_name(side).ok_or(format!("{}: side {side:?}", at()))?;
            let score: f32 = score.parse().map_err(|_| format!("{}: score", at()))?;
            let result = match result {
                "defenders" => 1.0,
                "attackers" => 0.0,
                "draw" => 0.5,
                other => return Err(format!("{}: result {other:?}", at())),
            };
            let position: Position<B> =
                notation::parse_position_record(record, variant.rules(), side)
                    .map_err(|e| format!("{}: {e}", at()))?;
            samples.inputs.extend(features(&position).map(|f| f as u16));
            samples.starts.push(samples.inputs.len() as u32);
            samples.side.push(u8::from(side == Side::Defenders));
            samples.score.push(defenders_view(side, score));
            samples.result.push(result);
            let hand = evaluate(&position, &EvalWeights::DEFAULT).0 as f32;
            samples.hand.push(defenders_view(side, hand));
            let validates = (game + file_index as u64 * 7) % 20 == 19;
            if validates {
                samples
                    .validation_positions
                    .push((samples.validation.len(), position));
            }
            samples.validation.push(validates);
            samples.weight.push(1.0);
            samples.base.push(0.0);
            samples.game.push((file_index as u32, game));
            samples.ply.push(ply);
        }
    }
    Ok(samples)
}

/// Targets that look ahead in each game (`--td DECAY`): the target of a position is the mean of
/// the search's scores (as probabilities) at it and at the later positions of its game, each
/// weighed by `DECAY` to the power of its distance in plies, with the game's result standing for
/// every ply after the last position kept (the weight left over). So a position some plies
/// before the king broke through already carries what came of it.
fn future_targets<B: Grid>(samples: &Samples<B>, scale: f32, offset: f32, decay: f32) -> Vec<f32> {
    let mut targets = vec![0.0f32; samples.len()];
    // Positions of one game are consecutive in the file, in the order of their plies.
    let mut start = 0;
    while start < samples.len() {
        let mut end = start + 1;
        while end < samples.len() && samples.game[end] == samples.game[start] {
            end += 1;
        }
        // From the last position back: value(i) = (1 - d^gap) × p(i) + d^gap × value(next),
        // where gap is the distance to the next kept position (the result after the last).
        let mut next_value = samples.result[end - 1];
        let mut next_ply = samples.ply[end - 1] + 1;
        for i in (start..end).rev() {
            let gap = next_ply.saturating_sub(samples.ply[i]).max(1);
            let carried = decay.powi(gap as i32);
            let here = sigmoid(samples.score[i] / scale + offset);
            let value = (1.0 - carried) * here + carried * next_value;
            targets[i] = value;
            next_value = value;
            next_ply = samples.ply[i];
        }
        start = end;
    }
    targets
}

/// Weighs the positions so that the attackers' wins and the defenders' wins count alike (draws
/// as one each), the mean weight staying 1: self-play results lean far to one side (Copenhagen's
/// defenders win most games), and a network trained on them as they are learns little of what
/// the other side's wins look like.
fn balance<B: Grid>(samples: &mut Samples<B>) {
    let count = |result: f32| samples.result.iter().filter(|&&r| r == result).count() as f32;
    let (defenders, attackers) = (count(1.0), count(0.0));
    if defenders == 0.0 || attackers == 0.0 {
        return;
    }
    let each = (defenders + attackers) / 2.0;
    for (weight, &result) in samples.weight.iter_mut().zip(&samples.result) {
        *weight = match result {
            1.0 => each / defenders,
            0.0 => each / attackers,
            _ => 1.0,
        };
    }
    let mean = samples.weight.iter().sum::<f32>() / samples.weight.len() as f32;
    for weight in &mut samples.weight {
        *weight /= mean;
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of a predicted probability against a target.
fn cross_entropy(p: f32, target: f32) -> f32 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// Fits `sigmoid(value / k + offset)` to the results of the training positions: K by a search
/// over its logarithm, the offset by Newton's steps at each K.
fn fit_scale<B: Grid>(values: &[f32], samples: &Samples<B>) -> (f32, f32) {
    let loss = |k: f32, offset: f32| {
        let mut total = 0.0f64;
        for i in (0..samples.len()).filter(|&i| !samples.validation[i]) {
            total += f64::from(cross_entropy(
                sigmoid(values[i] / k + offset),
                samples.result[i],
            ));
        }
        total
    };
    let best_offset = |k: f32| {
        let mut offset = 0.0f32;
        for _ in 0..30 {
            let (mut gradient, mut curvature) = (0.0f64, 0.0f64);
            for i in (0..samples.len()).filter(|&i| !samples.validation[i]) {
                let p = sigmoid(values[i] / k + offset);
                gradient += f64::from(p - samples.result[i]);
                curvature += f64::from(p * (1.0 - p)).max(1e-9);
            }
            offset -= (gradient / curvature) as f32;
            offset = offset.clamp(-8.0, 8.0);
        }
        offset
    };
    let (mut low, mut high) = (30f32.ln(), 5000f32.ln());
    for _ in 0..40 {
        let a = low + (high - low) / 3.0;
        let b = high - (high - low) / 3.0;
        let (ka, kb) = (a.exp(), b.exp());
        if loss(ka, best_offset(ka)) < loss(kb, best_offset(kb)) {
            high = b;
        } else {
            low = a;
        }
    }
    let k = ((low + high) / 2.0).exp();
    (k, best_offset(k))
}

/// The float network and one set of gradients have the same shape.
#[derive(Clone)]
struct Parameters {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: [f32; 2],
}

impl Parameters {
    /// Zeros for a network of `inputs` inputs.
    fn zeros(inputs: usize) -> Parameters {
        Parameters {
            w1: vec![0.0; inputs * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: [0.0; 2],
        }
    }

    fn random(rng: &mut Rng, inputs: usize, offset: f32) -> Parameters {
        Parameters {
            w1: (0..inputs * HIDDEN)
                .map(|_| rng.symmetric() * 0.08)
                .collect(),
            b1: (0..HIDDEN).map(|_| 0.1 + rng.symmetric() * 0.05).collect(),
            w2: (0..2 * HIDDEN).map(|_| rng.symmetric() * 0.2).collect(),
            b2: [offset; 2],
        }
    }

    fn slices_mut(&mut self) -> [&mut [f32]; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2]
    }

    fn add(&mut self, other: &Parameters) {
        let mut theirs = other.clone();
        for (mine, theirs) in self.slices_mut().into_iter().zip(theirs.slices_mut()) {
            for (a, b) in mine.iter_mut().zip(theirs.iter()) {
                *a += b;
            }
        }
    }

    /// The network's logit for a position (defenders' view) and its hidden sums.
    fn forward(&self, inputs: &[u16], side: usize, hidden: &mut [f32; HIDDEN]) -> f32 {
        hidden.copy_from_slice(&self.b1);
        for &input in inputs {
            let row = &self.w1[input as usize * HIDDEN..(input as usize + 1) * HIDDEN];
            for (h, w) in hidden.iter_mut().zip(row) {
                *h += w;
            }
        }
        let out = &self.w2[side * HIDDEN..(side + 1) * HIDDEN];
        hidden
            .iter()
            .zip(out)
            .map(|(h, w)| h.clamp(0.0, 1.0) * w)
            .sum::<f32>()
            + self.b2[side]
    }
}

/// Adds to `gradients` the cross-entropy's gradient over `batch`, and returns its loss.
fn gradient<B: Grid>(
    parameters: &Parameters,
    samples: &Samples<B>,
    targets: &[f32],
    batch: &[(u32, u8)],
    symmetries: &Symmetries,
    scale: f32,
    gradients: &mut Parameters,
) -> f64 {
    let mut hidden = [0.0f32; HIDDEN];
    let mut loss = 0.0f64;
    let mut inputs: Vec<u16> = Vec::with_capacity(64);
    for &(index, symmetry) in batch {
        let index = index as usize;
        inputs.clear();
        inputs.extend(
            samples
                .inputs_of(index)
                .iter()
                .map(|&input| symmetries.map(symmetry, input)),
        );
        let inputs = &inputs[..];
        let side = usize::from(samples.side[index]);
        let logit = parameters.forward(inputs, side, &mut hidden) + samples.base[index];
        let p = sigmoid(logit);
        let weight = samples.weight[index];
        loss += f64::from(weight * cross_entropy(p, targets[index]));
        let g = (p - targets[index]) * scale * weight;
        gradients.b2[side] += g;
        let out = &parameters.w2[side * HIDDEN..(side + 1) * HIDDEN];
        let out_gradient = &mut gradients.w2[side * HIDDEN..(side + 1) * HIDDEN];
        let mut delta = [0.0f32; HIDDEN];
        for h in 0..HIDDEN {
            let x = hidden[h];
            out_gradient[h] += g * x.clamp(0.0, 1.0);
            delta[h] = if x > 0.0 && x < 1.0 { g * out[h] } else { 0.0 };
        }
        for (b, d) in gradients.b1.iter_mut().zip(&delta) {
            *b += d;
        }
        for &input in inputs {
            let row = &mut gradients.w1[input as usize * HIDDEN..(input as usize + 1) * HIDDEN];
            for (w, d) in row.iter_mut().zip(&delta) {
                *w += d;
            }
        }
    }
    loss
}

/// A map of the square (x, y) of a board whose last file and rank are `last`.
type Transform = fn(usize, usize, usize) -> (usize, usize);

/// The 8 symmetries of the square board, as maps of the inputs: a position turned or mirrored
/// is as good for each side as before (every built-in corner-escape game is symmetric), so each
/// training position is shown in a random one of its 8 forms each epoch.
struct Symmetries {
    /// For each symmetry, the input each input goes to (the grid's inputs).
    maps: Vec<Vec<u16>>,
}

impl Symmetries {
    /// The maps for a `size` x `size` board on `grid`; with `augment` off, the identity alone.
    fn new(grid: NetworkGrid, size: usize, augment: bool) -> Symmetries {
        let squares = grid.squares();
        let stride = grid.width();
        let last = size - 1;
        let transforms: [Transform; 8] = [
            |x, y, _| (x, y),
            |x, y, l| (l - y, x),
            |x, y, l| (l - x, l - y),
            |x, y, l| (y, l - x),
            |x, y, l| (l - x, y),
            |x, y, l| (x, l - y),
            |x, y, _| (y, x),
            |x, y, l| (l - y, l - x),
        ];
        let count = if augment { 8 } else { 1 };
        let maps = transforms[..count]
            .iter()
            .map(|transform| {
                let mut map = vec![0u16; grid.inputs()];
                for (input, slot) in map.iter_mut().enumerate() {
                    let (kind, square) = (input / squares, input % squares);
                    let (x, y) = (square % stride, square / stride);
                    *slot = if x < size && y < size {
                        let (x, y) = transform(x, y, last);
                        (kind * squares + y * stride + x) as u16
                    } else {
                        input as u16
                    };
                }
                map
            })
            .collect();
        Symmetries { maps }
    }

    fn count(&self) -> usize {
        self.maps.len()
    }

    fn map(&self, symmetry: u8, input: u16) -> u16 {
        self.maps[usize::from(symmetry)][usize::from(input)]
    }
}

/// Adam's moments.
struct Adam {
    first: Parameters,
    second: Parameters,
    steps: i32,
}

impl Adam {
    fn step(
        &mut self,
        parameters: &mut Parameters,
        gradients: &mut Parameters,
        rate: f32,
        decay: f32,
    ) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        self.steps += 1;
        let correction1 = 1.0 - BETA1.powi(self.steps);
        let correction2 = 1.0 - BETA2.powi(self.steps);
        let limits = [
            MAX_INPUT_WEIGHT,
            MAX_INPUT_WEIGHT,
            MAX_OUTPUT_WEIGHT,
            f32::INFINITY,
        ];
        // Decoupled weight decay on the weights, not the biases.
        let decays = [decay, 0.0, decay, 0.0];
        let parts = parameters
            .slices_mut()
            .into_iter()
            .zip(gradients.slices_mut())
            .zip(self.first.slices_mut())
            .zip(self.second.slices_mut())
            .zip(limits)
            .zip(decays);
        for (((((values, grads), first), second), limit), decay) in parts {
            for i in 0..values.len() {
                let g = grads[i];
                first[i] = BETA1 * first[i] + (1.0 - BETA1) * g;
                second[i] = BETA2 * second[i] + (1.0 - BETA2) * g * g;
                let m = first[i] / correction1;
                let v = second[i] / correction2;
                let decayed = values[i] * (1.0 - rate * decay);
                values[i] = (decayed - rate * m / (v.sqrt() + 1e-8)).clamp(-limit, limit);
            }
        }
    }
}

/// The mean loss of the float network over the validation positions.
fn validation_loss<B: Grid>(parameters: &Parameters, samples: &Samples<B>, targets: &[f32]) -> f64 {
    let mut hidden = [0.0f32; HIDDEN];
    let (mut total, mut weights) = (0.0f64, 0.0f64);
    for i in (0..samples.len()).filter(|&i| samples.validation[i]) {
        let logit = parameters.forward(
            samples.inputs_of(i),
            usize::from(samples.side[i]),
            &mut hidden,
        ) + samples.base[i];
        let weight = f64::from(samples.weight[i]);
        total += weight * f64::from(cross_entropy(sigmoid(logit), targets[i]));
        weights += weight;
    }
    total / weights.max(1e-9)
}

/// What a training run measured.
#[derive(Debug)]
pub struct Report {
    /// The mean training loss of each epoch.
    pub training_losses: Vec<f64>,
    /// On the validation positions, against the targets: the float network, the quantized
    /// network, the hand-written evaluation.
    pub validation: [f64; 3],
    /// The same against the results alone.
    pub validation_on_results: [f64; 3],
    /// The network written.
    pub network: Network,
}

pub fn run(options: &Options) -> Result<Report, String> {
    let variant = crate::cli::variant(options.text("variant").unwrap_or("copenhagen"))?;
    let name = variant.key().unwrap_or(variant.name()).to_string();
    match variant {
        AnyVariant::Narrow(variant) => run_on(options, &name, &variant),
        AnyVariant::Wide(variant) => run_on(options, &name, &variant),
    }
}

/// `run` on the grid of the variant's board.
fn run_on<B: Grid>(options: &Options, name: &str, variant: &Variant<B>) -> Result<Report, String> {
    let grid = NetworkGrid::of::<B>();
    let inputs = grid.inputs();
    let data = options.required("data")?;
    let out_path = options.required("out")?;
    let epochs: usize = options.number("epochs", 12)?;
    let batch_size: usize = options.number("batch", 4096)?;
    let rate: f32 = options.number("lr", 0.001)?;
    let lambda: f32 = options.number("lambda", 0.5)?;
    let threads: usize = options.number::<usize>("threads", 1)?.max(1);
    let seed: u64 = options.number("seed", 1)?;
    let decay: f32 = options.number("decay", 0.0)?;
    let symmetries = Symmetries::new(
        grid,
        usize::from(variant.rules().size()),
        !options.has("no-augment"),
    );
    let started = Instant::now();
    let mut samples = read_samples(data, variant)?;
    if options.has("balance") {
        balance(&mut samples);
    }
    let training: Vec<u32> = (0..samples.len() as u32)
        .filter(|&i| !samples.validation[i as usize])
        .collect();
    if training.is_empty() {
        return Err(format!("{data}: no training positions"));
    }
    println!(
        "{} positions ({} training, {} validation) read in {:.1} s",
        samples.len(),
        training.len(),
        samples.len() - training.len(),
        started.elapsed().as_secs_f64()
    );
    let (scale, offset) = match options.text("scale") {
        Some(text) => (
            text.parse::<f32>()
                .map_err(|_| format!("--scale wants a number, not {text:?}"))?,
            0.0,
        ),
        None => fit_scale(&samples.score, &samples),
    };
    println!(
        "search scores against results: K = {scale:.1} centi-soldiers a logit, offset {offset:.3}"
    );
    let on_hand_written = options.has("on-hand-written");
    if on_hand_written {
        for (base, hand) in samples.base.iter_mut().zip(&samples.hand) {
            *base = hand / scale;
        }
    }
    let td: Option<f32> = options
        .text("td")
        .map(|text| {
            text.parse()
                .map_err(|_| format!("--td wants a number, not {text:?}"))
        })
        .transpose()?;
    let targets: Vec<f32> = match td {
        Some(decay) => future_targets(&samples, scale, offset, decay),
        None => (0..samples.len())
            .map(|i| {
                lambda * sigmoid(samples.score[i] / scale + offset)
                    + (1.0 - lambda) * samples.result[i]
            })
            .collect(),
    };
    let mut rng = Rng::new(seed);
    let mut parameters = Parameters::random(&mut rng, inputs, offset);
    let mut adam = Adam {
        first: Parameters::zeros(inputs),
        second: Parameters::zeros(inputs),
        steps: 0,
    };
    let training_weight: f64 = training
        .iter()
        .map(|&i| f64::from(samples.weight[i as usize]))
        .sum();
    let mut order = training.clone();
    let mut training_losses = Vec::with_capacity(epochs);
    let mut best: Option<(f64, usize, Parameters)> = None;
    for epoch in 0..epochs {
        // Fisher-Yates with the seeded generator.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        // Step decay: the last 40 % of the epochs at a tenth... and a hundredth for the last 15 %.
        let progress = epoch as f32 / epochs as f32;
        let epoch_rate = if progress >= 0.85 {
            rate * 0.01
        } else if progress >= 0.6 {
            rate * 0.1
        } else {
            rate
        };
        let mut train_loss = 0.0f64;
        let shown: Vec<(u32, u8)> = order
            .iter()
            .map(|&index| (index, rng.below(symmetries.count()) as u8))
            .collect();
        for batch in shown.chunks(batch_size) {
            let scale = 1.0 / batch.len() as f32;
            let per_thread = batch.len().div_ceil(threads);
            let results: Vec<(Parameters, f64)> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(per_thread)
                    .map(|part| {
                        let (parameters, samples, targets, symmetries) =
                            (&parameters, &samples, &targets, &symmetries);
                        scope.spawn(move || {
                            let mut gradients = Parameters::zeros(inputs);
                            let loss = gradient(
                                parameters,
                                samples,
                                targets,
                                part,
                                symmetries,
                                scale,
                                &mut gradients,
                            );
                            (gradients, loss)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|handle| handle.join().expect("a training thread does not panic"))
                    .collect()
            });
            let mut gradients = Parameters::zeros(inputs);
            for (part, loss) in &results {
                gradients.add(part);
                train_loss += loss;
            }
            adam.step(&mut parameters, &mut gradients, epoch_rate, decay);
        }
        training_losses.push(train_loss / training_weight);
        let validated = validation_loss(&parameters, &samples, &targets);
        println!(
            "epoch {:2}: rate {epoch_rate:.5}, training loss {:.5}, validation loss {validated:.5} ({:.0} s)",
            epoch + 1,
            train_loss / training_weight,
            started.elapsed().as_secs_f64()
        );
        if best.as_ref().is_none_or(|(loss, _, _)| validated < *loss) {
            best = Some((validated, epoch + 1, parameters.clone()));
        }
    }
    // The epoch that validated best (the last one when there is no validation set).
    if let Some((loss, epoch, kept)) = best.filter(|_| samples.validation.contains(&true)) {
        println!("kept epoch {epoch} (validation loss {loss:.5})");
        parameters = kept;
    }
    let float = FloatNetwork {
        grid,
        input_weights: parameters.w1.clone(),
        input_biases: parameters.b1.clone(),
        output_weights: parameters.w2.clone(),
        output_biases: parameters.b2,
        scale,
        adds_hand_written: on_hand_written,
        description: options
            .text("description")
            .map(str::to_string)
            .unwrap_or_else(|| {
                // The target the network learnt: TD's look-ahead, or the blend of score and result.
                let target = match td {
                    Some(decay) => format!("td {decay}"),
                    None => format!("lambda {lambda}"),
                };
                format!(
                    "{name}: {} positions of {data}, {epochs} epochs, {target}, seed {seed}",
                    samples.len()
                )
            }),
    };
    let network = Network::quantize(&float);
    // On the validation positions: the quantized network (its centi-soldiers turned back into a
    // logit by its scale) and the hand-written evaluation (read with its own fitted scale and
    // offset), against the targets and against the results alone.
    let validation = &samples.validation_positions;
    let mean = |loss: &dyn Fn(usize, &Position<B>) -> f64| {
        let weight = |i: usize| f64::from(samples.weight[i]);
        let total: f64 = validation
            .iter()
            .map(|(i, p)| weight(*i) * loss(*i, p))
            .sum();
        total
            / validation
                .iter()
                .map(|(i, _)| weight(*i))
                .sum::<f64>()
                .max(1e-9)
    };
    let quantized = |position: &Position<B>| {
        let side = position.side_to_move();
        // The network is of the positions' grid: it evaluates them.
        let score = network.evaluate(position).unwrap_or(0);
        defenders_view(side, score as f32) / network.scale() as f32
    };
    let (hand_scale, hand_offset) = fit_scale(&samples.hand, &samples);
    let hand = |i: usize| sigmoid(samples.hand[i] / hand_scale + hand_offset);
    let float_logit = |i: usize| {
        let mut hidden = [0.0f32; HIDDEN];
        parameters.forward(
            samples.inputs_of(i),
            usize::from(samples.side[i]),
            &mut hidden,
        ) + samples.base[i]
    };
    let ce = |p: f32, t: f32| f64::from(cross_entropy(p, t));
    let validation = [
        mean(&|i, _| ce(sigmoid(float_logit(i)), targets[i])),
        mean(&|i, p| ce(sigmoid(quantized(p)), targets[i])),
        mean(&|i, _| ce(hand(i), targets[i])),
    ];
    let validation_on_results = [
        mean(&|i, _| ce(sigmoid(float_logit(i)), samples.result[i])),
        mean(&|i, p| ce(sigmoid(quantized(p)), samples.result[i])),
        mean(&|i, _| ce(hand(i), samples.result[i])),
    ];
    println!(
        "validation against the targets: network {:.5} (quantized {:.5}), hand-written {:.5} (K = {hand_scale:.1}, offset {hand_offset:.3})",
        validation[0], validation[1], validation[2]
    );
    println!(
        "validation against the results alone: network {:.5} (quantized {:.5}), hand-written {:.5}",
        validation_on_results[0], validation_on_results[1], validation_on_results[2]
    );
    fs::write(out_path, network.to_bytes()).map_err(|e| format!("{out_path}: {e}"))?;
    println!(
        "{out_path}: written ({:.0} s)",
        started.elapsed().as_secs_f64()
    );
    Ok(Report {
        training_losses,
        validation,
        validation_on_results,
        network,
    })
}
