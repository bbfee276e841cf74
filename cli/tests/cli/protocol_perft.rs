//! Every perft fixture of tests/data, counted by the real binary as a script drives it: `rules`,
//! `position`, `side` (or the moves of the game) and `perft N` for every count of the file, and
//! `divide` for each block, whose lines must add up to the total. The library counted right
//! while the binary's protocol counted every rules string up to 11x11 by the classic rules: these
//! tests hold the binary to the same fixtures as the library. The counts come from independent
//! programs (OpenTafl, the Tablut Challenge's server, hnefatafl.org's server), never from this
//! engine.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use common::blocks::keyed_blocks;
use common::fixtures::perft_fixtures;
use common::variant_fixtures::{VariantFixture, ashton_fixtures, variant_fixtures, wide_fixtures};
use tafl_engine::protocol::is_documented_reply;

/// One fixture block as the protocol's lines that set it up, and its counts.
struct Block {
    id: String,
    setup: Vec<String>,
    counts: Vec<(usize, u64)>,
}

/// The engine, counting on two threads (the counts must not depend on it).
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tafl-engine"))
            .args(["--hash", "1", "--threads", "2"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut engine = Engine {
            child,
            stdin,
            stdout,
        };
        assert_eq!(engine.line(), "hello");
        engine
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().expect("the engine reads its input");
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        let read = self.stdout.read_line(&mut line).expect("the engine writes");
        assert!(read > 0, "the engine ended its output");
        let line = line.trim_end().to_string();
        assert!(is_documented_reply(&line), "undocumented reply {line:?}");
        line
    }

    /// Lines up to and including the `perft` line that ends a count; an `error` fails.
    fn count(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            assert!(!line.starts_with("error"), "{command}: {line}");
            let done = line.starts_with("perft ") || line.starts_with("stopped ");
            lines.push(line);
            if done {
                return lines;
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The count a `perft <depth>` line gives.
fn total(line: &str, depth: usize) -> u64 {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[..2], ["perft", &depth.to_string()], "{line}");
    words[2].parse().expect("a count")
}

/// Checks every count of `blocks` through one engine, and a `divide` of each block.
fn check(blocks: &[Block]) {
    let mut engine = Engine::start();
    for block in blocks {
        for line in &block.setup {
            engine.send(line);
        }
        for &(depth, expected) in &block.counts {
            let lines = engine.count(&format!("perft {depth}"));
            assert_eq!(lines.len(), 1, "{}: {lines:?}", block.id);
            assert_eq!(
                total(&lines[0], depth),
                expected,
                "{} perft {depth}",
                block.id
            );
        }
        // divide at the deepest depth of at most 3: its lines add up to the fixture's total.
        let Some(&(depth, expected)) = block.counts.iter().filter(|(d, _)| *d <= 3).max() else {
            continue;
        };
        let lines = engine.count(&format!("divide {depth}"));
        let (last, split) = lines.split_last().expect("a perft line");
        assert_eq!(total(last, depth), expected, "{} divide {depth}", block.id);
        let sum: u64 = split
            .iter()
            .map(|l| {
                l.split_once(' ')
                    .expect("`<move> <count>`")
                    .1
                    .parse::<u64>()
            })
            .map(|count| count.expect("a count"))
            .sum();
        assert_eq!(sum, expected, "{}: divide {depth}'s lines", block.id);
        if let Some(&(1, moves)) = block.counts.first() {
            assert_eq!(split.len() as u64, moves, "{}: one line a move", block.id);
        }
    }
    engine.send("goodbye");
    let status = engine.child.wait().expect("the engine exits");
    assert!(status.success(), "{status:?}");
}

fn rules_blocks(
    fixtures: Vec<VariantFixture>,
    rules_of: impl Fn(&VariantFixture) -> String,
) -> Vec<Block> {
    fixtures
        .iter()
        .map(|fixture| {
            let mut setup = vec![format!("rules {}", rules_of(fixture))];
            if !fixture.position.is_empty() {
                setup.push(format!("position {}", fixture.position));
            }
            setup.push(format!("side {}", fixture.side()));
            Block {
                id: fixture.id.clone(),
                setup,
                counts: fixture.perft.clone(),
            }
        })
        .collect()
}

#[test]
fn the_rules_perft_fixtures_through_the_protocol() {
    let blocks: Vec<Block> = perft_fixtures()
        .iter()
        .map(|fixture| Block {
            id: fixture.id.clone(),
            setup: vec![
                format!("rules {}", fixture.game),
                format!("position {}", fixture.record),
                format!("side {}", fixture.side),
            ],
            counts: fixture
                .counts
                .iter()
                .map(|&(depth, count)| (depth as usize, count))
                .collect(),
        })
        .collect();
    assert!(blocks.len() >= 10);
    check(&blocks);
}

#[test]
fn opentafl_s_counts_of_its_variants_through_the_protocol() {
    let blocks = rules_blocks(variant_fixtures(), |f| f.rules.clone());
    assert!(blocks.len() >= 40);
    check(&blocks);
}

#[test]
fn opentafl_s_counts_on_boards_to_19x19_through_the_protocol() {
    let blocks = rules_blocks(wide_fixtures(), |f| f.rules.clone());
    assert!(blocks.len() >= 10);
    check(&blocks);
}

#[test]
fn the_tablut_challenge_s_counts_of_ashton_tablut_through_the_protocol() {
    let blocks = rules_blocks(ashton_fixtures(), |_| "ashton".to_string());
    assert!(blocks.len() >= 10);
    check(&blocks);
}

/// The position blocks of tests/data/hnefatafl-org-perft.txt: a game from its start and its
/// moves (played with `play-move`, so that the game has the history the server's rules see), or
/// a position set up.
#[test]
fn hnefatafl_org_s_counts_through_the_protocol() {
    #[derive(Default)]
    struct Raw {
        id: String,
        variant: String,
        origin: String,
        moves: Vec<String>,
        position: String,
        side: String,
        perft: Vec<(usize, u64)>,
        game: bool,
    }
    let raw = keyed_blocks(
        include_str!("../../../tests/data/hnefatafl-org-perft.txt"),
        "hnefatafl.org fixture",
        |id| Raw {
            id: id.to_string(),
            ..Raw::default()
        },
        |block, key, value| match key {
            "variant" => block.variant = value.to_string(),
            "origin" => block.origin = value.to_string(),
            "moves" => block.moves = value.split_whitespace().map(String::from).collect(),
            "position" => block.position = value.to_string(),
            "side" => block.side = value.to_string(),
            "perft" => {
                let (depth, count) = value.split_once(' ').expect("perft DEPTH COUNT");
                let depth = depth.parse().expect("a depth");
                block.perft.push((depth, count.parse().expect("a count")));
            }
            "game" => block.game = true,
            _ => {}
        },
    );
    let blocks: Vec<Block> = raw
        .into_iter()
        .filter(|block| !block.game)
        .map(|block| {
            let mut setup = vec![format!("rules {}", block.variant)];
            match block.origin.as_str() {
                "start" => setup.extend(block.moves.iter().map(|m| format!("play-move {m}"))),
                "setup" => {
                    setup.push(format!("position {}", block.position));
                    setup.push(format!("side {}", block.side));
                }
                other => panic!("{}: origin {other}", block.id),
            }
            Block {
                id: block.id,
                setup,
                counts: block.perft,
            }
        })
        .collect();
    assert!(blocks.len() >= 30, "{} blocks", blocks.len());
    check(&blocks);
}

/// `tafl-engine perft` on the command line prints what the protocol prints, and exits 0; a game
/// it does not know is a usage error (2) with the names on stderr.
#[test]
fn the_perft_command_line_counts_the_fixtures() {
    let binary = env!("CARGO_BIN_EXE_tafl-engine");
    for fixture in perft_fixtures().iter().take(6) {
        for &(depth, expected) in fixture.counts.iter().filter(|(d, _)| *d <= 3) {
            for divide in [false, true] {
                let mut command = Command::new(binary);
                command.args(["perft", &fixture.game, &depth.to_string()]);
                command.args(["--position", &fixture.record, "--side"]);
                command.arg(fixture.side.to_string());
                command.args(["--threads", "2"]);
                if divide {
                    command.arg("--divide");
                }
                let output = command.output().expect("the engine runs");
                assert!(output.status.success(), "{:?}", output.status);
                let text = String::from_utf8(output.stdout).expect("ASCII");
                let lines: Vec<&str> = text.lines().collect();
                assert!(lines.iter().all(|l| is_documented_reply(l)), "{lines:?}");
                let last = lines.last().expect("a line");
                assert_eq!(total(last, depth as usize), expected, "{}", fixture.id);
                let moves = fixture.position().legal_moves().len();
                assert_eq!(lines.len(), if divide { moves + 1 } else { 1 });
            }
        }
    }
    let copenhagen = Command::new(binary)
        .args(["perft", "copenhagen", "3"])
        .output()
        .expect("the engine runs");
    let text = String::from_utf8(copenhagen.stdout).expect("ASCII");
    assert!(text.starts_with("perft 3 806344 time "), "{text}");
    let unknown = Command::new(binary)
        .args(["perft", "copenhagen-13", "1"])
        .output()
        .expect("the engine runs");
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        stderr.contains("no game is named 'copenhagen-13'"),
        "{stderr}"
    );
    assert!(stderr.contains("hnefatafl-org-copenhagen-13"), "{stderr}");
}
