//! The protocol's replies to a person's commands, line for line as recorded in
//! `cli/tests/data/golden-protocol.txt` (`> ` what is sent, `< ` each reply, `time` and `nps`
//! masked): `go depth N` gives the same nodes, scores and moves, `show`, `moves`, `perft`,
//! `divide` and the errors the same lines, on 9x9, 11x11, 7x7 and 13x13 games. The file was
//! recorded from the binary before the programs moved into their own crate, so that a rework
//! of the code that should change nothing shows here if it did.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// `line` with the figures that depend on the machine masked.
fn masked(line: &str) -> String {
    let mut words: Vec<String> = line.split(' ').map(String::from).collect();
    for i in 1..words.len() {
        let figure = words[i].bytes().all(|b| b.is_ascii_digit() || b == b'.');
        match words[i - 1].as_str() {
            "time" if figure => words[i] = "T".to_string(),
            "nps" if figure => words[i] = "N".to_string(),
            _ => {}
        }
    }
    words.join(" ")
}

/// Starts the engine with `args`, sends the transcript's `> ` lines and compares each reply with
/// its `< ` line; returns how many replies were compared.
fn replay(args: &[&str], transcript: &str) -> usize {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl-engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut read = || {
        let mut line = String::new();
        stdout.read_line(&mut line).expect("the engine writes");
        assert!(!line.is_empty(), "the engine ended its output");
        line.trim_end().to_string()
    };
    assert_eq!(read(), "hello");
    let mut sent = String::new();
    let mut replies = 0;
    for line in transcript.lines().filter(|l| !l.starts_with('#')) {
        if let Some(command) = line.strip_prefix("> ") {
            // The transcript's own `goodbye` may end the engine: its input may be gone.
            let _ = writeln!(stdin, "{command}").and_then(|()| stdin.flush());
            sent = command.to_string();
        } else if let Some(expected) = line.strip_prefix("< ") {
            assert_eq!(masked(&read()), expected, "after `{sent}`");
            replies += 1;
        } else {
            panic!("a transcript line is `> ` or `< `: {line:?}");
        }
    }
    let _ = writeln!(stdin, "goodbye");
    drop(stdin);
    assert!(child.wait().expect("the engine exits").success());
    replies
}

#[test]
fn a_person_s_commands_give_the_recorded_replies() {
    let replies = replay(
        &["--hash", "16"],
        include_str!("../data/golden-protocol.txt"),
    );
    assert!(replies > 200, "{replies} replies checked");
}

/// Whole OTEP games (Tablut, Copenhagen with its network, hnefatafl.org's 13x13) as OpenTafl's
/// host plays them, the engine's searches capped at depth 3 so that they replay exactly: the
/// same `status` lines (depth, score, nodes, line), moves and analysis.
#[test]
fn whole_otep_games_give_the_recorded_replies() {
    let args = ["--hash", "16", "--depth", "3"];
    for transcript in [
        include_str!("../data/golden-otep-tablut.txt"),
        include_str!("../data/golden-otep-copenhagen.txt"),
        include_str!("../data/golden-otep-13.txt"),
    ] {
        let replies = replay(&args, transcript);
        assert!(replies > 40, "{replies} replies checked");
    }
}
