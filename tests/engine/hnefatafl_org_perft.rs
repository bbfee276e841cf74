//! hnefatafl.org's rules against its server's own rule code (tests/data/hnefatafl-org-perft.txt,
//! made by tools/hnefatafl-org-perft from the crate hnefatafl-copenhagen 6.4.1; its header says
//! how): every perft count and count of finished games of the positions, and every seeded game
//! the server played to its end, move by move (the number of legal moves before each move, the
//! squares each captured, the result). The 13x13 game plays on the wide grid (`Variant<Wide>`,
//! its rules string `hnefatafl-org:y` with `dim:13`).

use crate::common;

use common::blocks::keyed_blocks;
use tafl_engine::{Game, Grid, Move, Outcome, Side, Variant, Wide, WinReason, notation, perft};

/// One block of the fixture: a position with its counts, or a game record.
#[derive(Default)]
struct Block {
    id: String,
    variant: String,
    /// The moves from the start that reach the position (`origin start`, then `moves`).
    moves: Vec<String>,
    /// A hand-made position (`origin setup`).
    setup: bool,
    position: String,
    side: String,
    perft: Vec<(u32, u64)>,
    ends: Vec<(u32, [u64; 3])>,
    /// A game record: the moves, each with `x` and its captures.
    game: Vec<String>,
    counts: Vec<usize>,
    result: String,
}

fn number<T: std::str::FromStr>(text: &str, id: &str) -> T {
    text.parse()
        .unwrap_or_else(|_| panic!("{id}: '{text}' is not a number"))
}

fn blocks() -> Vec<Block> {
    keyed_blocks(
        include_str!("../data/hnefatafl-org-perft.txt"),
        "hnefatafl-org fixture",
        |id| Block {
            id: id.to_string(),
            ..Block::default()
        },
        |block, key, value| {
            let words: Vec<&str> = value.split_whitespace().collect();
            let id = block.id.clone();
            match key {
                "variant" => block.variant = value.to_string(),
                "origin" => block.setup = value == "setup",
                "moves" => block.moves = words.iter().map(|w| w.to_string()).collect(),
                "position" => block.position = value.to_string(),
                "side" => block.side = value.to_string(),
                "perft" => block
                    .perft
                    .push((number(words[0], &id), number(words[1], &id))),
                "ends" => block.ends.push((
                    number(words[0], &id),
                    [
                        number(words[1], &id),
                        number(words[2], &id),
                        number(words[3], &id),
                    ],
                )),
                "game" => block.game = words.iter().map(|w| w.to_string()).collect(),
                "counts" => block.counts = words.iter().map(|w| number(w, &id)).collect(),
                "result" => block.result = value.to_string(),
                _ => panic!("{id}: unknown line '{key}'"),
            }
        },
    )
}

/// A move of the fixture (`a1-a2`, captures after `x` left out).
fn parse_move<B: Grid>(text: &str, id: &str) -> Move<B> {
    let plain = text.split('x').next().unwrap_or(text);
    plain
        .parse()
        .unwrap_or_else(|e| panic!("{id}: '{text}': {e}"))
}

/// The game of a position block: replayed from the start, or set up.
fn game_of<B: Grid>(block: &Block, variant: &Variant<B>) -> Game<B> {
    let side = match block.side.as_str() {
        "attackers" => Side::Attackers,
        "defenders" => Side::Defenders,
        other => panic!("{}: side '{other}'", block.id),
    };
    let game = if block.setup {
        let position = notation::parse_position_record(&block.position, variant.rules(), side)
            .unwrap_or_else(|e| panic!("{}: {e}", block.id));
        Game::from_position(position)
    } else {
        let mut game = Game::new(variant);
        for text in &block.moves {
            let m = parse_move(text, &block.id);
            game.play(m)
                .unwrap_or_else(|e| panic!("{}: {text}: {e}", block.id));
        }
        game
    };
    assert_eq!(
        notation::position_record(game.position()),
        block.position,
        "{}: the position",
        block.id
    );
    assert_eq!(game.position().side_to_move(), side, "{}", block.id);
    game
}

/// How a game ended, for the tally of the ways the fixture's games end.
fn reason(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { reason, .. } => format!("{reason:?}"),
        Outcome::Draw(reason) => format!("draw: {reason:?}"),
    }
}

/// The leaves at `depth` that are finished games: attacker wins, defender wins, draws; each
/// one's reason counted in `reasons`.
fn finished_leaves<B: Grid>(
    game: &mut Game<B>,
    depth: u32,
    reasons: &mut Vec<(String, u64)>,
) -> [u64; 3] {
    if depth == 0 {
        let Some(outcome) = game.outcome() else {
            return [0, 0, 0];
        };
        let why = reason(outcome);
        match reasons.iter_mut().find(|(known, _)| *known == why) {
            Some((_, count)) => *count += 1,
            None => reasons.push((why, 1)),
        }
        return match outcome.winner() {
            Some(Side::Attackers) => [1, 0, 0],
            Some(Side::Defenders) => [0, 1, 0],
            None => [0, 0, 1],
        };
    }
    let mut total = [0; 3];
    for &m in &game.legal_moves() {
        if game.play(m).is_ok() {
            let found = finished_leaves(game, depth - 1, reasons);
            game.undo();
            for (sum, count) in total.iter_mut().zip(found) {
                *sum += count;
            }
        }
    }
    total
}

/// The variant a block names, or `None` for the 13x13 game (a `Variant<Wide>`).
fn variant_of(block: &Block) -> Option<Variant> {
    if block.variant.ends_with("-13") {
        return None;
    }
    Some(
        Variant::by_name(&block.variant)
            .unwrap_or_else(|| panic!("{}: no variant {}", block.id, block.variant)),
    )
}

/// The 13x13 game.
fn copenhagen_13() -> Variant<Wide> {
    Variant::<Wide>::hnefatafl_org_copenhagen_13()
}

/// The lines a quick run checks: those of at most this many leaves (by the fixture's own
/// perft count at that depth); the others are checked by `--ignored` (in `--release`).
const QUICK_LEAVES: u64 = 400_000;

/// Checks one position block's lines of at most `most` leaves, on `variant`'s grid; returns how
/// many lines it checked and its finished leaves (attacker wins, defender wins, draws).
fn check_block<B: Grid>(
    block: &Block,
    variant: &Variant<B>,
    most: u64,
    reasons: &mut Vec<(String, u64)>,
) -> (usize, [u64; 3]) {
    let mut checked = 0;
    let mut finished = [0u64; 3];
    let mut game = game_of(block, variant);
    let leaves = |depth: u32| {
        block
            .perft
            .iter()
            .find(|&&(d, _)| d == depth)
            .map_or(u64::MAX, |&(_, count)| count)
    };
    for &(depth, expected) in block.perft.iter().filter(|&&(d, _)| leaves(d) <= most) {
        assert_eq!(
            perft::perft_game(&game, depth),
            expected,
            "{} perft {depth}",
            block.id
        );
        checked += 1;
    }
    for &(depth, expected) in block.ends.iter().filter(|&&(d, _)| leaves(d) <= most) {
        let found = finished_leaves(&mut game, depth, reasons);
        assert_eq!(found, expected, "{} ends {depth}", block.id);
        for (sum, count) in finished.iter_mut().zip(found) {
            *sum += count;
        }
        checked += 1;
    }
    (checked, finished)
}

/// Checks the positions' lines of at most `most` leaves; returns how many lines were checked
/// and the reasons of the finished leaves counted.
fn check_positions(most: u64) -> (usize, Vec<(String, u64)>) {
    let mut checked = 0;
    let mut finished = [0u64; 3];
    let mut positions = 0;
    let mut reasons = Vec::new();
    for block in blocks().iter().filter(|block| block.game.is_empty()) {
        positions += 1;
        let found = match variant_of(block) {
            Some(variant) => check_block(block, &variant, most, &mut reasons),
            None => check_block(block, &copenhagen_13(), most, &mut reasons),
        };
        checked += found.0;
        for (sum, count) in finished.iter_mut().zip(found.1) {
            *sum += count;
        }
    }
    // The start of both boards, midgames, hand-made positions.
    assert!(positions >= 20, "{positions} positions");
    assert!(
        finished.iter().all(|&count| count > 0),
        "won by each side and drawn among the leaves: {finished:?}"
    );
    // The leaves end in every way the server's rules end a game, each counted alike in both
    // programs: the clauses are not checked by counts that never reach them.
    for why in [
        WinReason::KingEscaped,
        WinReason::KingCaptured,
        WinReason::EdgeFort,
        WinReason::Encircled,
        WinReason::CannotEscape,
        WinReason::NoLegalMoves,
    ] {
        let why = format!("{why:?}");
        assert!(
            reasons.iter().any(|(known, _)| *known == why),
            "no leaf ended {why}: {reasons:?}"
        );
    }
    assert!(
        reasons.iter().any(|(known, _)| known == "draw: MoveLimit"),
        "{reasons:?}"
    );
    (checked, reasons)
}

#[test]
fn the_server_s_counts_of_positions_up_to_a_few_hundred_thousand_leaves() {
    let (checked, _) = check_positions(QUICK_LEAVES);
    assert!(checked >= 100, "{checked} counts");
}

/// Every line, the start to depth 4 (11x11), 5 (7x7) and 3 (13x13) among them: a few minutes
/// in `--release`.
#[test]
#[ignore]
fn every_count_of_the_server_s_positions() {
    let all = include_str!("../data/hnefatafl-org-perft.txt")
        .lines()
        .filter(|line| line.starts_with("perft ") || line.starts_with("ends "))
        .count();
    let (checked, reasons) = check_positions(u64::MAX);
    assert_eq!(checked, all, "every line is checked, the 13x13 ones too");
    eprintln!("finished leaves by reason: {reasons:?}");
}

/// Replays a game block on `variant`'s grid, checking every move against the server's; returns
/// how the game stands at its end.
fn replay<B: Grid>(block: &Block, variant: &Variant<B>) -> Option<Outcome> {
    let mut game = Game::new(variant);
    assert_eq!(
        block.counts.len(),
        block.game.len() + 1,
        "{}: a count before each move and after the last",
        block.id
    );
    for (ply, text) in block.game.iter().enumerate() {
        let legal = game.legal_moves();
        assert_eq!(
            legal.len(),
            block.counts[ply],
            "{} ply {ply}: the number of legal moves",
            block.id
        );
        let m = parse_move(text, &block.id);
        assert!(
            legal.contains(&m),
            "{} ply {ply}: {text} is legal",
            block.id
        );
        let captured = game
            .play(m)
            .unwrap_or_else(|e| panic!("{} ply {ply}: {text}: {e}", block.id));
        let expected: Vec<&str> = text.split('x').skip(1).collect();
        let found: Vec<String> = captured.into_iter().map(|s| s.to_string()).collect();
        assert_eq!(found, expected, "{} ply {ply}: {text} captures", block.id);
    }
    assert_eq!(
        game.legal_moves().len(),
        block.counts[block.game.len()],
        "{}: moves after the last",
        block.id
    );
    game.outcome()
}

#[test]
fn every_game_the_server_played_is_played_alike() {
    let mut games = 0;
    let mut wide_games = 0;
    let mut reasons: Vec<String> = Vec::new();
    for block in blocks().iter().filter(|block| !block.game.is_empty()) {
        games += 1;
        let outcome = match variant_of(block) {
            Some(variant) => replay(block, &variant),
            None => {
                wide_games += 1;
                replay(block, &copenhagen_13())
            }
        };
        let result = match outcome {
            Some(Outcome::Win {
                winner: Side::Attackers,
                ..
            }) => "attackers",
            Some(Outcome::Win {
                winner: Side::Defenders,
                ..
            }) => "defenders",
            Some(Outcome::Draw(_)) => "draw",
            None => "ongoing",
        };
        assert_eq!(result, block.result, "{}: {outcome:?}", block.id);
        let why = outcome.map_or("ongoing".to_string(), reason);
        if !reasons.contains(&why) {
            reasons.push(why);
        }
    }
    assert!(wide_games >= 5, "{wide_games} games on 13x13");
    assert!(games >= 65, "{games} games");
    // The games end in the usual ways, each seen (the rarer ends are in the positions' leaves).
    for why in [
        format!("{:?}", WinReason::KingEscaped),
        format!("{:?}", WinReason::KingCaptured),
        "draw: MoveLimit".to_string(),
    ] {
        assert!(reasons.contains(&why), "no game ended {why}: {reasons:?}");
    }
}

/// The 13x13 lines are whole and start from the server's 13x13 start (the tests above check
/// them against the engine).
#[test]
fn the_13x13_lines_are_whole() {
    let all = blocks();
    let wide: Vec<&Block> = all
        .iter()
        .filter(|block| block.variant.ends_with("-13"))
        .collect();
    let start = wide
        .iter()
        .find(|block| block.id.ends_with("-start"))
        .expect("a 13x13 start");
    let rows: Vec<&str> = start.position.trim_matches('/').split('/').collect();
    assert_eq!(rows.len(), 13);
    let count = |letter: char| start.position.chars().filter(|&c| c == letter).count();
    assert_eq!((count('t'), count('T'), count('K')), (32, 16, 1));
    assert!(start.perft.len() >= 3, "perft to depth 3");
    for block in &wide {
        assert!(
            !block.perft.is_empty() || !block.game.is_empty(),
            "{}",
            block.id
        );
        assert_eq!(
            block.counts.len(),
            block.game.len() + usize::from(!block.game.is_empty())
        );
    }
    assert!(wide.iter().filter(|block| !block.game.is_empty()).count() >= 5);
}
