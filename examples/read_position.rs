//! A parser of user positions: a game (name or rules string), a position string and moves, each
//! read and checked; a bad position or an illegal move is reported with the library's error and
//! the program goes on with the next input.
//!
//! ```text
//! cargo run --example read_position -- tablut "/9/9/2K6/9/9/9/t8/9/9/ d" c3-c4 c4-c9 a3-a1
//! ```

use std::process::ExitCode;

use tafl_engine::{AnyGame, AnyVariant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(name), Some(position)) = (args.first(), args.get(1)) else {
        eprintln!("usage: read_position GAME|RULES POSITION-STRING [MOVE...]");
        return ExitCode::from(2);
    };
    let variant = match AnyGame::from_name_or_rules(name) {
        Ok(game) => game.variant(),
        Err(error) => {
            eprintln!("read_position: {error}");
            return ExitCode::from(2);
        }
    };
    let mut game = match AnyGame::from_position_string(&variant, position) {
        Ok(game) => game,
        Err(error) => {
            println!("position refused: {error}");
            return ExitCode::FAILURE;
        }
    };
    describe(&variant, &game);
    let mut refused = 0;
    for text in &args[2..] {
        match game.play_text(text) {
            Ok((m, captured)) => {
                let captured: Vec<String> = captured.iter().map(|s| s.to_string()).collect();
                println!("{m}: played, captured [{}]", captured.join(" "));
            }
            Err(error) => {
                refused += 1;
                println!("{text}: refused: {error}");
            }
        }
    }
    println!("{game}");
    println!("{} to move; {refused} move(s) refused", game.side_to_move());
    ExitCode::SUCCESS
}

fn describe(variant: &AnyVariant, game: &AnyGame) {
    println!(
        "{} ({}x{}), {} legal moves",
        variant.name(),
        game.size(),
        game.size(),
        game.legal_moves().len()
    );
}
