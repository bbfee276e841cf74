//! `tafl-match` on boards above 11x11: whole matches on 13x13 (hnefatafl.org's Copenhagen and
//! OpenTafl's Sea Battle), 15x15 (OpenTafl's Tablut) and 19x19 (OpenTafl's Alea Evangelii)
//! between the engine binary and the built-in random player or itself, at short move times.
//! Every game's record is replayed move by move with the library's rules (the referee's own
//! check is not taken on trust), its full notation and result tag checked; and an engine's
//! illegal move on a wide board, or a move off its board, loses the game.

use std::path::{Path, PathBuf};
use std::process::Command;

use tafl_engine::notation::FullMove;
use tafl_engine::{AnyVariant, Game, Side, Wide};

const MATCH: &str = env!("CARGO_BIN_EXE_tafl-match");
const ENGINE: &str = env!("CARGO_BIN_EXE_tafl-engine");

fn engine() -> String {
    format!("otep:'{ENGINE}' --hash 4")
}

fn broken(mode: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/broken.sh");
    format!("otep:sh '{}' {mode}", script.display())
}

/// A unique scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tafl-match-wide-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The rules string of the block `id` of tests/data/opentafl-wide.txt.
fn opentafl_rules(id: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/opentafl-wide.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().skip_while(|l| *l != format!("id {id}"));
    lines
        .find_map(|l| l.strip_prefix("rules "))
        .unwrap_or_else(|| panic!("no block {id}"))
        .to_string()
}

/// Runs a match; its standard output (the test fails on a non-zero exit).
fn run(args: &[&str]) -> String {
    let output = Command::new(MATCH)
        .args(args)
        .output()
        .expect("tafl-match runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}\n{stdout}{stderr}");
    stdout
}

/// `+W =D -L of N` of the last line, as numbers.
fn wdl(stdout: &str) -> [u32; 3] {
    let last = stdout.lines().last().unwrap_or_default();
    let counts = last.split(": ").nth(1).unwrap_or_default();
    let words: Vec<&str> = counts.split_whitespace().collect();
    let number = |word: &str, sign: char| -> u32 {
        word.strip_prefix(sign)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no {sign} count in {last:?}"))
    };
    [
        number(words[0], '+'),
        number(words[1], '='),
        number(words[2], '-'),
    ]
}

/// Replays the record at `path` with the library's rules on the wide grid: every move legal, its
/// full notation (captures, king markers) as the library describes it, the result tag the
/// board's (or the termination's) result. Returns the number of plies.
fn check_record(path: &Path, size: u8) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let tag = |key: &str| -> String {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("[{key}:")))
            .and_then(|v| v.strip_suffix(']'))
            .unwrap_or_else(|| panic!("no {key} tag:\n{text}"))
            .to_string()
    };
    let variant: AnyVariant = tag("rules").parse().unwrap();
    assert_eq!(variant.size(), size, "{text}");
    let AnyVariant::Wide(variant) = variant else {
        panic!("a {size}x{size} game read on the narrow grid:\n{text}")
    };
    let mut game = Game::new(&variant);
    let turns = text.split("\n\n").nth(1).unwrap_or_default();
    for (index, line) in turns.lines().enumerate() {
        let mut words = line.split_whitespace();
        assert_eq!(
            words.next(),
            Some(format!("{}.", index + 1).as_str()),
            "{text}"
        );
        for word in words {
            let read: FullMove<Wide> = word.parse().unwrap_or_else(|e| panic!("{word}: {e}"));
            let described = FullMove {
                piece: None,
                ..FullMove::describe(game.position(), read.mv)
            };
            assert_eq!(described.to_string(), word, "{text}");
            game.play(read.mv)
                .unwrap_or_else(|e| panic!("{word} cannot be played: {e}\n{text}"));
        }
    }
    let termination = tag("termination");
    let winner = match game.outcome() {
        Some(outcome) => outcome.winner(),
        None if termination.starts_with("draw") => None,
        None if termination.starts_with("attackers win") => Some(Side::Attackers),
        None => Some(Side::Defenders),
    };
    let result = match winner {
        Some(Side::Attackers) => "1",
        Some(Side::Defenders) => "-1",
        None => "0",
    };
    assert_eq!(tag("result"), result, "{text}");
    game.moves().len()
}

/// A match of `games` games on `variant` between `a` and `b` with records; checks that no game
/// was lost by forfeit, that the games are counted, and every record. Returns the W/D/L.
fn whole_match(name: &str, variant: &str, size: u8, a: &str, b: &str, extra: &[&str]) -> [u32; 3] {
    let records = scratch(name);
    let mut args = vec![
        "--a",
        a,
        "--b",
        b,
        "--variant",
        variant,
        "--games",
        "2",
        "--movetime",
        "30",
        "--margin",
        "3000",
        "--records",
        records.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let stdout = run(&args);
    assert!(!stdout.contains("forfeit"), "{stdout}");
    let games = stdout.lines().filter(|l| l.starts_with("game ")).count();
    assert_eq!(games, 2, "{stdout}");
    let counts = wdl(&stdout);
    assert_eq!(counts.iter().sum::<u32>(), 2, "{stdout}");
    for game in 1..=2 {
        let plies = check_record(&records.join(format!("game-{game:04}.otg")), size);
        assert!(plies > 0);
    }
    counts
}

#[test]
fn the_engine_beats_a_random_mover_on_hnefatafl_orgs_13x13() {
    let counts = whole_match(
        "org13",
        "hnefatafl-org-copenhagen-13",
        13,
        &engine(),
        "random",
        &[],
    );
    assert_eq!(counts, [2, 0, 0]);
}

#[test]
fn the_engine_beats_a_random_mover_at_opentafls_sea_battle_13x13() {
    let rules = opentafl_rules("sea-battle-13-start");
    let counts = whole_match("sea13", &rules, 13, &engine(), "random", &[]);
    assert_eq!(counts, [2, 0, 0]);
}

#[test]
fn the_engine_beats_a_random_mover_at_opentafls_tablut_15x15() {
    let rules = opentafl_rules("tablut-15-start");
    let counts = whole_match("tablut15", &rules, 15, &engine(), "random", &[]);
    assert_eq!(counts, [2, 0, 0]);
}

#[test]
fn the_engine_plays_itself_at_alea_evangelii_19x19_to_the_ply_cap_or_an_end() {
    let rules = opentafl_rules("alea-evangelii-19-start");
    let engine = engine();
    whole_match(
        "alea19",
        &rules,
        19,
        &engine,
        &engine,
        &["--max-plies", "60"],
    );
}

#[test]
fn openings_from_a_file_are_played_on_13x13() {
    // Moves and a position record of 13x13, and a line that does not fit it (e2 is empty).
    let dir = scratch("openings");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("openings.txt");
    let org13 = AnyVariant::by_name("hnefatafl-org-copenhagen-13").unwrap();
    let AnyVariant::Wide(org13) = org13 else {
        panic!("13x13 on the narrow grid")
    };
    let start = tafl_engine::notation::position_record(&org13.start());
    std::fs::write(&file, format!("e2-h2\nd1-d2\n{start} defenders\n")).unwrap();
    let records = dir.join("records");
    let output = Command::new(MATCH)
        .args([
            "--a",
            "greedy",
            "--b",
            "engine:depth=1",
            "--variant",
            "hnefatafl-org-copenhagen-13",
            "--games",
            "4",
            "--openings",
            file.to_str().unwrap(),
            "--records",
            records.to_str().unwrap(),
            "--max-plies",
            "40",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert!(
        stderr.contains("openings line 1: skipped for Copenhagen"),
        "{stderr}"
    );
    let first = std::fs::read_to_string(records.join("game-0001.otg")).unwrap();
    assert!(first.contains("\n1. d1-d2 "), "{first}");
    let record = std::fs::read_to_string(records.join("game-0003.otg")).unwrap();
    // The set-up position's rules: the defenders move first.
    assert!(record.contains("[rules:dim:13 "), "{record}");
    assert!(record.contains(" atkf:n "), "{record}");
    assert!(record.contains(&format!("start:{start}]")), "{record}");
    for game in 1..=4 {
        check_record(&records.join(format!("game-{game:04}.otg")), 13);
    }
}

/// A broken engine as A against a random mover on hnefatafl.org's 13x13: it loses both games
/// by forfeit for illegal moves, and is restarted.
fn wide_forfeit(mode: &str) {
    let engine = broken(mode);
    let stdout = run(&[
        "--a",
        &engine,
        "--a-name",
        "broken",
        "--b",
        "random",
        "--variant",
        "hnefatafl-org-copenhagen-13",
        "--games",
        "2",
        "--movetime",
        "50",
        "--margin",
        "500",
    ]);
    assert_eq!(
        stdout.lines().last(),
        Some("broken vs random: +0 =0 -2 of 2; score 0.000; Elo -inf ± inf"),
        "{mode}: {stdout}"
    );
    assert!(
        stdout.contains("A lost games by forfeit: 2 illegal moves (restarted 1 times)"),
        "{mode}: {stdout}"
    );
}

#[test]
fn an_illegal_move_on_a_wide_board_loses() {
    wide_forfeit("illegal");
}

#[test]
fn a_move_off_a_13x13_board_loses_as_an_illegal_move() {
    // `s19-s18` reads as a move of the wide grid but has no square on a 13x13 board.
    wide_forfeit("offboard");
}
