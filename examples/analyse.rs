//! Searches one position and prints each completed depth.
//!
//! `cargo run --release --example analyse -- [tablut|tawlbwrdd] [record] [attackers|defenders]
//! [--depth N] [--movetime MS] [--threads N] [--random-plies N]`

use std::time::Duration;

use tafl_engine::search::{Limits, SearchConfig, Searcher};
use tafl_engine::{Game, Side, Variant, notation};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut variant = Variant::tablut();
    let mut record = None;
    let mut side = Side::Attackers;
    let mut limits = Limits::default();
    let mut threads = 1;
    let mut random_plies = 0u32;
    let mut index = 0;
    while index < args.len() {
        let arg = args[index].as_str();
        let value = args.get(index + 1).cloned().unwrap_or_default();
        match arg {
            "--depth" => {
                limits.depth = value.parse().ok();
                index += 1;
            }
            "--movetime" => {
                limits.move_time = value.parse().ok().map(Duration::from_millis);
                index += 1;
            }
            "--threads" => {
                threads = value.parse().unwrap_or(1);
                index += 1;
            }
            "--random-plies" => {
                random_plies = value.parse().unwrap_or(0);
                index += 1;
            }
            name if Variant::by_name(name).is_some() => {
                variant = Variant::by_name(name).unwrap_or_else(Variant::tablut);
            }
            name if Side::from_name(name).is_some() => {
                side = Side::from_name(name).unwrap_or(Side::Attackers);
            }
            text => record = Some(text.to_string()),
        }
        index += 1;
    }
    let mut game = match record {
        Some(record) => match notation::parse_position_record(&record, variant.rules(), side) {
            Ok(position) => Game::from_position(position),
            Err(error) => {
                eprintln!("bad record: {error}");
                std::process::exit(2);
            }
        },
        None => Game::new(&variant),
    };
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..random_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let _ = game.play(moves[(seed % moves.len() as u64) as usize]);
    }
    println!("{}", game.position());
    println!("{}", notation::position_record(game.position()));
    let mut searcher = Searcher::new(SearchConfig {
        threads,
        ..SearchConfig::default()
    });
    let result = searcher.search(&game, &limits, |info| {
        let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
        println!(
            "depth {:2} score {:>10} nodes {:>10} nps {:>9} time {:>6}ms pv {}",
            info.depth,
            info.score.to_string(),
            info.nodes,
            info.nodes_per_second(),
            info.elapsed.as_millis(),
            pv.join(" ")
        );
    });
    println!(
        "best {:?} score {} depth {} nodes {} time {}ms",
        result.best_move,
        result.score,
        result.depth,
        result.nodes,
        result.elapsed.as_millis()
    );
}
