//! `tafl-engine`: the engine as a program that a tafl GUI (OpenTafl) drives over stdin and
//! stdout. See docs/protocol.md; the work is done in `tafl_engine::protocol`.
//!
//! `tafl-engine tablut-challenge <white|black> ...` instead plays one game in the Tablut
//! Challenge's server over TCP: see `challenge` and docs/tablut-challenge.md.
//! `tafl-engine hnefatafl-org ...` plays on a hnefatafl.org server as a bot account: see
//! `hnefatafl_org` and docs/hnefatafl-org.md.

mod challenge;
mod hnefatafl_org;
mod remote;

use std::sync::Arc;
use std::time::Duration;

use tafl_engine::protocol::{Evaluation, SessionOptions, run_stdio};
use tafl_engine::search::MAX_DRAW_COST;
use tafl_engine::search::nnue::Network;

const USAGE: &str =
    "usage: tafl-engine [--hash <MiB>] [--threads <n>] [--movetime <ms>] [--contempt <n>]
                   [--eval built-in|hand-written] [--network <file>]
       tafl-engine tablut-challenge <white|black> [options]
       tafl-engine hnefatafl-org --user <name> [options]
  --hash <MiB>     transposition table size (default 64)
  --threads <n>    search threads (default 1)
  --movetime <ms>  time per move when the host sends no clock (default 5000)
  --contempt <n>   what a draw costs the engine, in hundredths of a soldier, from 0
                   (a draw is even) to 1500 (play on unless lost; the default)
  --eval <which>   built-in: the learned evaluation where the game has a network
                   (corner-escape games on 11x11 boards), else the hand-written one (the
                   default); hand-written: the hand-written evaluation everywhere
  --network <file> evaluate every game with this network file (docs/nnue.md)
Then type 'help', or let an OTEP host (OpenTafl) talk to it.
'tablut-challenge' plays in the Tablut Challenge's server instead (its options:
'tafl-engine tablut-challenge --help'); 'hnefatafl-org' on a hnefatafl.org server
('tafl-engine hnefatafl-org --help').";

/// Reads the command line; `Err` holds the message for stderr.
fn options(args: impl Iterator<Item = String>) -> Result<SessionOptions, String> {
    let mut options = SessionOptions::default();
    // OpenTafl passes an empty argument when its .ini has no `arguments`: skip empty ones.
    let mut args = args.filter(|arg| !arg.trim().is_empty());
    while let Some(arg) = args.next() {
        let mut number = |name: &str, max: u64| -> Result<u64, String> {
            let value = args
                .next()
                .ok_or_else(|| format!("{name} needs a number"))?;
            match value.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(format!("{name}: '{value}' is not a number from 1 to {max}")),
            }
        };
        match arg.as_str() {
            "--hash" => options.hash_mb = number("--hash", 1 << 16)? as usize,
            "--threads" => options.threads = number("--threads", 256)? as usize,
            "--movetime" => {
                options.default_move_time =
                    Duration::from_millis(number("--movetime", 86_400_000)?);
            }
            "--contempt" => {
                let value = args.next().ok_or("--contempt needs a number")?;
                options.contempt = match value.parse::<i32>() {
                    Ok(n) if (0..=MAX_DRAW_COST).contains(&n) => n,
                    _ => {
                        return Err(format!(
                            "--contempt: '{value}' is not a number from 0 to {MAX_DRAW_COST}"
                        ));
                    }
                };
            }
            "--eval" => {
                let value = args.next().ok_or("--eval needs built-in or hand-written")?;
                options.evaluation = match value.as_str() {
                    "built-in" => Evaluation::BuiltIn,
                    "hand-written" => Evaluation::HandWritten,
                    other => {
                        return Err(format!(
                            "--eval: '{other}' is neither built-in nor hand-written"
                        ));
                    }
                };
            }
            "--network" => {
                let path = args.next().ok_or("--network needs a file")?;
                // Read with a size limit: `--network /dev/zero` is refused, not read whole.
                let network = Network::from_file(&path).map_err(|e| format!("--network {e}"))?;
                options.evaluation = Evaluation::Network(Arc::new(network));
            }
            "--help" | "-h" => return Err(USAGE.to_string()),
            "--version" | "-V" => return Err(format!("tafl-engine {}", env!("CARGO_PKG_VERSION"))),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    Ok(options)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .split_first()
        .map(|(first, rest)| (first.as_str(), rest))
    {
        Some(("tablut-challenge", rest)) => std::process::exit(challenge::main(rest)),
        Some(("hnefatafl-org", rest)) => std::process::exit(hnefatafl_org::main(rest)),
        _ => {}
    }
    match options(args.into_iter()) {
        Ok(options) => run_stdio(options),
        Err(message) => {
            eprintln!("{message}");
            let help = message == USAGE || message.starts_with("tafl-engine ");
            std::process::exit(if help { 0 } else { 2 });
        }
    }
}
