//! A smoke test of the learned evaluation's tools (`examples/nnue`): a few self-play games,
//! a short training run on their positions, and the network it writes. The real training runs
//! by hand (scripts/train-nnue.sh, docs/nnue.md); this checks that the code still does what it
//! says on a few hundred positions.

#[path = "../examples/nnue/cli.rs"]
#[allow(dead_code)]
mod cli;
#[path = "../examples/nnue/datagen.rs"]
mod datagen;
#[path = "../examples/nnue/train.rs"]
mod train;

use tafl_engine::search::nnue::Network;
use tafl_engine::{Position, Variant};

fn options(words: &[&str]) -> cli::Options {
    let args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    cli::Options::parse(&args, &["hand-eval"], "").expect("valid options")
}

#[test]
fn self_play_positions_train_a_network_that_reads_back() {
    let dir = std::env::temp_dir().join(format!("tafl-nnue-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let data = dir.join("games.tsv");
    let network_path = dir.join("smoke.nnue");
    let (data, network_path) = (
        data.to_str().expect("a UTF-8 path"),
        network_path.to_str().expect("a UTF-8 path"),
    );
    datagen::run(&options(&[
        "--variant",
        "brandub",
        "--games",
        "24",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--seed",
        "3",
        "--opening-plies",
        "4",
        "--out",
        data,
        "--hand-eval",
    ]))
    .expect("self-play runs");
    let text = std::fs::read_to_string(data).expect("the positions were written");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 100, "{} positions", lines.len());
    // Every line: game, position record, side, score, result, ply; the record reads back.
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 6, "{line}");
        let side = tafl_engine::Side::from_name(fields[2]).expect("a side");
        let position: Position = tafl_engine::notation::parse_position_record(
            fields[1],
            Variant::brandub().rules(),
            side,
        )
        .expect("a position record");
        assert!(position.winner().is_none(), "{line}");
        assert!(
            ["defenders", "attackers", "draw"].contains(&fields[4]),
            "{line}"
        );
        fields[3].parse::<i32>().expect("a score");
    }
    let report = train::run(&options(&[
        "--variant",
        "brandub",
        "--data",
        data,
        "--out",
        network_path,
        "--epochs",
        "6",
        "--batch",
        "64",
        "--threads",
        "2",
        "--seed",
        "5",
        "--lr",
        "0.003",
    ]))
    .expect("training runs");
    let losses = &report.training_losses;
    assert_eq!(losses.len(), 6);
    assert!(
        losses[5] < losses[0],
        "the training loss did not fall: {losses:?}"
    );
    // Quantization changes the validation loss by little.
    assert!(
        (report.validation[0] - report.validation[1]).abs() < 0.01,
        "{:?}",
        report.validation
    );
    assert!(
        report
            .validation_on_results
            .iter()
            .all(|loss| loss.is_finite() && *loss > 0.0),
        "{:?}",
        report.validation_on_results
    );
    let bytes = std::fs::read(network_path).expect("the network was written");
    let network = Network::from_bytes(&bytes).expect("the network reads back");
    assert_eq!(network, report.network);
    assert!(network.scale() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}
