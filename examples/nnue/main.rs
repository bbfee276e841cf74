//! The learned evaluation's tools: self-play positions, training, and a look at a network
//! (docs/nnue.md).
//!
//! ```text
//! # 1. self-play: positions with the search's score and the game's result
//! cargo run --release --example nnue -- datagen --variant copenhagen --games 4000 \
//!     --nodes 6000 --threads 2 --seed 1 --out gen1.tsv [--network FILE | --hand-eval]
//! # 2. train a network on them (float, Adam), quantize it, write it
//! cargo run --release --example nnue -- train --data gen1.tsv --out corner-11.nnue \
//!     --epochs 12 --threads 2 --seed 1
//! # 3. what a network says of a position, against the hand-written evaluation
//! cargo run --release --example nnue -- show --network corner-11.nnue --variant copenhagen
//! # 4. does the shown score say what came of self-play games? (docs/search.md)
//! cargo run --release --example nnue -- calibrate --variant copenhagen --data gen1.tsv
//! ```
//!
//! `--variant` takes any name of `AnyVariant::by_name` or a whole OpenTafl rules string (Sea
//! Battle 13x13 has no name): the games up to 11x11 make networks of the narrow grid, the 13x13
//! games networks of the wide grid (docs/nnue.md).
//! `scripts/train-nnue.sh` runs the whole pipeline that made each built-in network.

mod calibrate;
mod cli;
mod datagen;
mod train;

use std::process::ExitCode;

use cli::Options;

const HELP: &str = "usage:
  nnue datagen --variant NAME --out FILE [--games N] [--nodes N] [--attacker-nodes N]
               [--depth N] [--threads N] [--seed S]
               [--opening-plies N] [--max-plies N] [--network FILE | --hand-eval]
  nnue train --data FILE[,FILE...] --out FILE [--epochs N] [--batch N] [--lr X] [--lambda X]
             [--threads N] [--seed S] [--scale X] [--decay X] [--description TEXT] [--balance]
             [--no-augment] [--on-hand-written] [--td DECAY]
  nnue show --network FILE --variant NAME [--record RECORD --side attackers|defenders]
  nnue calibrate --variant NAME --data FILE[,FILE...] [--network FILE | --hand-eval]
                 [--rescore NODES [--save FILE]]";

fn show(options: &Options) -> Result<(), String> {
    use tafl_engine::AnyVariant;
    let name = options.required("variant")?;
    match crate::cli::variant(name)? {
        AnyVariant::Narrow(variant) => show_on(options, &variant),
        AnyVariant::Wide(variant) => show_on(options, &variant),
    }
}

/// `show` on the grid of the variant's board.
fn show_on<B: tafl_engine::Grid>(
    options: &Options,
    variant: &tafl_engine::Variant<B>,
) -> Result<(), String> {
    use tafl_engine::search::eval::{EvalWeights, evaluate};
    use tafl_engine::search::nnue::Network;
    use tafl_engine::{Side, notation};
    let path = options.required("network")?;
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let network = Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
    let position = match options.text("record") {
        Some(record) => {
            let side = options.text("side").unwrap_or("attackers");
            let side = Side::from_name(side).ok_or(format!("unknown side {side}"))?;
            notation::parse_position_record(record, variant.rules(), side)
                .map_err(|e| e.to_string())?
        }
        None => variant.start(),
    };
    println!("{}", network.description());
    println!("{}", notation::diagram(&position));
    println!(
        "network {} centi-soldiers, hand-written {} (side to move's view)",
        network
            .evaluate(&position)
            .map_err(|e| format!("{path}: {e}"))?,
        evaluate(&position, &EvalWeights::DEFAULT).0
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("datagen") => {
            Options::parse(&args[1..], &["hand-eval"], HELP).and_then(|o| datagen::run(&o))
        }
        Some("train") => Options::parse(&args[1..], &["balance", "no-augment", "on-hand-written"], HELP)
            .and_then(|o| train::run(&o))
            .map(|report| {
                let losses = &report.training_losses;
                println!(
                    "{}: training loss {:.5} → {:.5}; validation {:.5} (hand-written {:.5}), on results {:.5} (hand-written {:.5})",
                    report.network.description(),
                    losses.first().copied().unwrap_or(0.0),
                    losses.last().copied().unwrap_or(0.0),
                    report.validation[1],
                    report.validation[2],
                    report.validation_on_results[1],
                    report.validation_on_results[2],
                )
            }),
        Some("show") => Options::parse(&args[1..], &[], HELP).and_then(|o| show(&o)),
        Some("calibrate") => {
            Options::parse(&args[1..], &["hand-eval"], HELP).and_then(|o| calibrate::run(&o))
        }
        _ => Err(HELP.to_string()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("nnue: {message}");
            ExitCode::from(2)
        }
    }
}
