//! A smoke test of the learned evaluation's tools (`examples/nnue`): a few self-play games,
//! a short training run on their positions, and the network it writes. The real training runs
//! by hand (scripts/train-nnue.sh, docs/nnue.md); this checks that the code still does what it
//! says on a few hundred positions.

// At the crate's root (tests/repository/main.rs): they name each other `crate::cli`.
use crate::{cli, datagen, train};

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

#[test]
fn a_network_of_the_wide_grid_trains_on_13x13_games_and_reads_back() {
    use tafl_engine::Wide;
    use tafl_engine::search::nnue::{NetworkError, NetworkGrid, WIDE_INPUTS};
    let dir = std::env::temp_dir().join(format!("tafl-nnue-wide-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let data = dir.join("games.tsv");
    let network_path = dir.join("smoke-13.nnue");
    let (data, network_path) = (
        data.to_str().expect("a UTF-8 path"),
        network_path.to_str().expect("a UTF-8 path"),
    );
    // A few short games at few nodes: hnefatafl.org's 13x13 game is on the wide grid.
    datagen::run(&options(&[
        "--variant",
        "hnefatafl-org-copenhagen-13",
        "--games",
        "6",
        "--nodes",
        "150",
        "--threads",
        "2",
        "--seed",
        "4",
        "--opening-plies",
        "4",
        "--max-plies",
        "50",
        "--out",
        data,
        "--hand-eval",
    ]))
    .expect("self-play runs on 13x13");
    let text = std::fs::read_to_string(data).expect("the positions were written");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 100, "{} positions", lines.len());
    let thirteen = tafl_engine::Variant::<Wide>::hnefatafl_org_copenhagen_13();
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 6, "{line}");
        let side = tafl_engine::Side::from_name(fields[2]).expect("a side");
        let position: Position<Wide> =
            tafl_engine::notation::parse_position_record(fields[1], thirteen.rules(), side)
                .expect("a 13x13 position record");
        assert!(position.winner().is_none(), "{line}");
    }
    let report = train::run(&options(&[
        "--variant",
        "hnefatafl-org-copenhagen-13",
        "--data",
        data,
        "--out",
        network_path,
        "--epochs",
        "4",
        "--batch",
        "64",
        "--threads",
        "2",
        "--seed",
        "5",
        "--lr",
        "0.003",
    ]))
    .expect("training runs on 13x13 positions");
    let losses = &report.training_losses;
    assert_eq!(losses.len(), 4);
    assert!(
        losses[3] < losses[0],
        "the training loss did not fall: {losses:?}"
    );
    assert!(
        (report.validation[0] - report.validation[1]).abs() < 0.01,
        "{:?}",
        report.validation
    );
    let bytes = std::fs::read(network_path).expect("the network was written");
    // The header's input count says the grid.
    assert_eq!(&bytes[12..16], &(WIDE_INPUTS as u32).to_le_bytes());
    let network = Network::from_bytes(&bytes).expect("the network reads back");
    assert_eq!(network, report.network);
    assert_eq!(network.grid(), NetworkGrid::Wide);
    assert!(network.evaluate(&thirteen.start()).is_ok());
    assert_eq!(
        network.evaluate(&Variant::copenhagen().start()),
        Err(NetworkError::Grid {
            network: NetworkGrid::Wide,
            game: NetworkGrid::Narrow
        })
    );
    // A searcher given it plays 13x13 games with it (the search's debug check compares every
    // updated accumulator with one from scratch).
    let mut searcher = tafl_engine::search::Searcher::new(tafl_engine::search::SearchConfig {
        threads: 1,
        hash_mb: 1,
    });
    searcher.set_network(Some(std::sync::Arc::new(network)));
    let game = tafl_engine::Game::new(&thirteen);
    let result = searcher.search(&game, &tafl_engine::search::Limits::depth(4), |_| {});
    assert!(result.best_move.is_some());
    // A network of the other grid is refused by datagen, with the reason.
    let refused = datagen::run(&options(&[
        "--variant",
        "copenhagen",
        "--games",
        "1",
        "--network",
        network_path,
        "--out",
        data,
    ]));
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| e.contains("the network reads the 19x19 grid")),
        "{refused:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
