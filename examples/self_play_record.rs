//! Self-play of any game with a saved and re-read record: the engine plays both sides at a
//! fixed depth, the game is written as an OpenTafl `.otg` record, read back and checked to be
//! the same game.
//!
//! ```text
//! cargo run --release --example self_play_record -- brandub 3 target/brandub.otg
//! cargo run --release --example self_play_record -- "dim:13 ... start:/.../" 2
//! ```
//!
//! Arguments: the game (a name or a rules string), the search depth (default 2), the record's
//! file (default: the record is printed). At most 200 moves are played.

use std::process::ExitCode;

use tafl_engine::prelude::*;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!("usage: self_play_record GAME|RULES [DEPTH] [FILE]");
        return ExitCode::from(2);
    };
    let mut game = match AnyGame::from_name_or_rules(name) {
        Ok(game) => game,
        Err(error) => {
            eprintln!("self_play_record: {error}");
            return ExitCode::from(2);
        }
    };
    let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(2);
    let mut searcher = Searcher::new(SearchConfig {
        hash_mb: 16,
        ..SearchConfig::default()
    });
    while game.outcome().is_none() && game.moves().len() < 200 {
        let result = game.search(&mut searcher, &Limits::depth(depth));
        // A game that is not over has a legal move, and the search returns one.
        let m = result.best_move.expect("a game not over has a best move");
        game.play(m).expect("the search's move is legal");
    }
    let record = game.to_record();
    let read = match AnyGame::from_record(&record) {
        Ok(read) => read,
        Err(error) => {
            eprintln!("self_play_record: the record does not read back: {error}");
            return ExitCode::FAILURE;
        }
    };
    if read.moves() != game.moves() || read.outcome() != game.outcome() {
        eprintln!("self_play_record: the record read back is another game");
        return ExitCode::FAILURE;
    }
    match args.get(2) {
        Some(file) => {
            if let Err(error) = std::fs::write(file, &record) {
                eprintln!("self_play_record: {file}: {error}");
                return ExitCode::FAILURE;
            }
            let text = std::fs::read_to_string(file).unwrap_or_default();
            let again = AnyGame::from_record(&text).map(|g| g.moves());
            if again.as_ref().ok() != Some(&game.moves()) {
                eprintln!("self_play_record: {file} does not read back as the game");
                return ExitCode::FAILURE;
            }
            println!("saved {file}");
        }
        None => print!("{record}"),
    }
    let end = game
        .outcome()
        .map_or("stopped after 200 moves".to_string(), |o| o.to_string());
    println!(
        "{} moves, {end}; the record reads back as the same game",
        game.moves().len()
    );
    ExitCode::SUCCESS
}
