//! The library's Ashton Tablut (`Variant::ashton()`) against the independent reference written
//! from the Tablut Challenge server's Java (tests/common/reference_ashton.rs), move by move along
//! seeded games from the start and from midgames: at every ply the set of legal moves, and for
//! every legal move the squares it captures, the board after it, the outcome after it (wins, a
//! side without a move, the draw by repetition: `Game::outcome` against the reference's draw
//! cache) and the library's incremental hash against one computed from scratch. Then perft at
//! small depths from the start and from midgames.
//!
//! One difference of representation, not of rules, is mapped here: when the king is captured
//! the server leaves him on the board and only sets BLACKWIN, while the library takes him off
//! and lists his square among the captured. So after a reference BLACKWIN by a move, the king's
//! square is added to the reference's captures and removed from its board before comparing.
//!
//! The library is used only through `Variant::ashton`, `Game::{new, from_position,
//! legal_moves, play, outcome, position}`, `Position::{pieces_with_squares, side_to_move, hash,
//! hash_from_scratch}`, `Outcome` and `perft::perft`.

use crate::common;

use std::collections::BTreeSet;

use common::reference::Cell;
use common::reference_ashton::{AshtonBoard, AshtonOutcome, Xy};
use common::seeded::middlegame;
use tafl_engine::{Game, Outcome, Piece, Side, Variant, perft};

type Move = (Xy, Xy);

fn xy(square: tafl_engine::Square) -> Xy {
    (usize::from(square.x()), usize::from(square.y()))
}

fn name((x, y): Xy) -> String {
    format!("{}{}", char::from(b'a' + x as u8), y + 1)
}

fn names(moves: &BTreeSet<Move>) -> String {
    moves
        .iter()
        .map(|&(a, b)| format!("{}-{}", name(a), name(b)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn library_moves(game: &Game) -> BTreeSet<Move> {
    game.legal_moves()
        .iter()
        .map(|m| (xy(m.from()), xy(m.to())))
        .collect()
}

fn library_cells(game: &Game) -> Vec<Cell> {
    let mut cells = vec![Cell::Empty; 81];
    for (square, piece) in game.position().pieces_with_squares() {
        let (x, y) = xy(square);
        cells[y * 9 + x] = match piece {
            Piece::Attacker => Cell::Attacker,
            Piece::Defender => Cell::Defender,
            Piece::King => Cell::King,
        };
    }
    cells
}

fn library_outcome(game: &Game) -> Option<AshtonOutcome> {
    game.outcome().map(|o| match o {
        Outcome::Win {
            winner: Side::Attackers,
            ..
        } => AshtonOutcome::BlackWin,
        Outcome::Win {
            winner: Side::Defenders,
            ..
        } => AshtonOutcome::WhiteWin,
        Outcome::Draw(_) => AshtonOutcome::Draw,
    })
}

fn library_play(game: &mut Game, (from, to): Move) -> Result<BTreeSet<Xy>, String> {
    let m = game
        .legal_moves()
        .iter()
        .copied()
        .find(|m| xy(m.from()) == from && xy(m.to()) == to)
        .ok_or_else(|| format!("the library does not list {}-{}", name(from), name(to)))?;
    let captured = game.play(m).map_err(|e| format!("library play: {e}"))?;
    Ok(captured.into_iter().map(xy).collect())
}

/// The reference's board and captures as the library shows them: a king captured by this move
/// (the Java sets BLACKWIN and leaves him) is off the board and among the captured.
fn reference_as_library(
    after: &AshtonBoard,
    mut captured: BTreeSet<Xy>,
) -> (Vec<Cell>, BTreeSet<Xy>) {
    let mut cells = after.cells.clone();
    if after.result == Some(AshtonOutcome::BlackWin) {
        let king = cells
            .iter()
            .position(|&c| c == Cell::King)
            .expect("the Java leaves the captured king on the board");
        cells[king] = Cell::Empty;
        captured.insert((king % 9, king / 9));
    }
    (cells, captured)
}

fn check_hash(game: &Game, what: &str) -> Result<(), String> {
    let position = game.position();
    if position.hash() != position.hash_from_scratch() {
        return Err(format!(
            "{what}: incremental hash {:#x}, from scratch {:#x}",
            position.hash(),
            position.hash_from_scratch()
        ));
    }
    Ok(())
}

/// What one game saw, so that the tests can say their games reached every kind of end.
#[derive(Default, Debug, Clone, Copy)]
struct Seen {
    plies: usize,
    captures: usize,
    black_wins: usize,
    white_wins: usize,
    draws: usize,
}

/// Compares the library and the reference in their current state: board, side to move, hash,
/// outcome, legal moves; then for every legal move its captures, the board, the outcome and the
/// hash after it. Returns the legal moves.
fn compare_here(
    game: &Game,
    reference: &AshtonBoard,
    seen: &mut Seen,
) -> Result<Vec<Move>, String> {
    let here = reference.record();
    let (cells, _) = reference_as_library(reference, BTreeSet::new());
    if library_cells(game) != cells {
        return Err(format!("boards differ: reference {here}"));
    }
    let white = game.position().side_to_move() == Side::Defenders;
    if white != reference.white_to_move {
        return Err(format!("side to move differs in {here}"));
    }
    check_hash(game, &here)?;
    if library_outcome(game) != reference.outcome() {
        return Err(format!(
            "outcome differs in {here}: library {:?}, reference {:?}",
            library_outcome(game),
            reference.outcome()
        ));
    }
    let moves = library_moves(game);
    let reference_moves = reference.legal_moves();
    if moves != reference_moves {
        return Err(format!(
            "legal moves differ in {here}\nonly the library: {}\nonly the reference: {}",
            names(&moves.difference(&reference_moves).copied().collect()),
            names(&reference_moves.difference(&moves).copied().collect()),
        ));
    }
    for &m in &reference_moves {
        let what = format!("{}-{} in {here}", name(m.0), name(m.1));
        let mut library_after = game.clone();
        let captured = library_play(&mut library_after, m)?;
        let mut reference_after = reference.clone();
        let reference_captured = reference_after.play(m);
        let (reference_cells, reference_captured) =
            reference_as_library(&reference_after, reference_captured);
        if captured != reference_captured {
            return Err(format!(
                "captures of {what}: library {:?}, reference {:?}",
                captured.iter().map(|&s| name(s)).collect::<Vec<_>>(),
                reference_captured
                    .iter()
                    .map(|&s| name(s))
                    .collect::<Vec<_>>(),
            ));
        }
        if library_cells(&library_after) != reference_cells {
            return Err(format!(
                "board after {what} differs: reference {}",
                reference_after.record()
            ));
        }
        check_hash(&library_after, &what)?;
        let outcome = reference_after.outcome();
        if library_outcome(&library_after) != outcome {
            return Err(format!(
                "outcome after {what}: library {:?}, reference {outcome:?}",
                library_outcome(&library_after),
            ));
        }
        match outcome {
            Some(AshtonOutcome::BlackWin) => seen.black_wins += 1,
            Some(AshtonOutcome::WhiteWin) => seen.white_wins += 1,
            Some(AshtonOutcome::Draw) => seen.draws += 1,
            None => {}
        }
        if !captured.is_empty() {
            seen.captures += 1;
        }
    }
    Ok(reference_moves.into_iter().collect())
}

/// How a seeded game picks its moves.
#[derive(Clone, Copy, Debug)]
enum Style {
    /// Uniformly among the legal moves.
    Random,
    /// Two plies in three, a move that captures or ends the game when there is one.
    Sharp,
    /// Two plies in three, the move that takes back the mover's previous move when it is legal
    /// (so positions repeat and the draw cache is exercised).
    Shuffle,
}

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One seeded game from (game, reference), compared at every ply until it ends or `max_plies`.
fn compare_game(
    mut game: Game,
    mut reference: AshtonBoard,
    seed: u64,
    style: Style,
    max_plies: usize,
) -> Result<Seen, String> {
    let mut rng = Rng::new(seed);
    let mut seen = Seen::default();
    let mut played: Vec<Move> = Vec::new();
    for ply in 0..=max_plies {
        let moves = compare_here(&game, &reference, &mut seen).map_err(|e| {
            let line: Vec<String> = played
                .iter()
                .map(|&(a, b)| format!("{}-{}", name(a), name(b)))
                .collect();
            format!("ply {ply} (after {}): {e}", line.join(" "))
        })?;
        if moves.is_empty() || ply == max_plies {
            break;
        }
        let favoured = rng.below(3) != 0;
        let m = match style {
            Style::Random => None,
            Style::Sharp if favoured => {
                let sharp: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut after = reference.without_cache();
                        !after.play(m).is_empty() || after.result.is_some()
                    })
                    .collect();
                (!sharp.is_empty()).then(|| sharp[rng.below(sharp.len())])
            }
            Style::Shuffle if favoured && played.len() >= 2 => {
                let (from, to) = played[played.len() - 2];
                moves.contains(&(to, from)).then_some((to, from))
            }
            _ => None,
        }
        .unwrap_or_else(|| moves[rng.below(moves.len())]);
        library_play(&mut game, m).map_err(|e| format!("ply {ply}: {e}"))?;
        let captured = reference.play(m);
        if !captured.is_empty() {
            seen.captures += 1;
        }
        played.push(m);
        seen.plies += 1;
    }
    Ok(seen)
}

fn add(total: &mut Seen, one: Seen) {
    total.plies += one.plies;
    total.captures += one.captures;
    total.black_wins += one.black_wins;
    total.white_wins += one.white_wins;
    total.draws += one.draws;
}

/// A midgame: `plies` seeded random moves in the library from the start, as a new game (and a
/// reference with an empty draw cache: the start of a game is never in it).
fn midgame_pair(plies: usize, seed: u64) -> Option<(Game, AshtonBoard)> {
    let played = middlegame(&Variant::ashton(), plies, seed);
    if played.outcome().is_some() {
        return None;
    }
    let game = Game::from_position(*played.position());
    let reference = AshtonBoard {
        cells: library_cells(&game),
        white_to_move: game.position().side_to_move() == Side::Defenders,
        result: None,
        draw_cache: Vec::new(),
    };
    Some((game, reference))
}

#[test]
fn the_start_is_the_servers_start() {
    let game = Game::new(&Variant::ashton());
    let reference = AshtonBoard::start();
    assert_eq!(library_cells(&game), reference.cells);
    assert_eq!(game.position().side_to_move(), Side::Defenders);
    assert_eq!(library_moves(&game), reference.legal_moves());
}

#[test]
fn random_games_from_the_start_match_the_reference() {
    let mut total = Seen::default();
    for seed in 0..4 {
        let seen = compare_game(
            Game::new(&Variant::ashton()),
            AshtonBoard::start(),
            seed,
            Style::Random,
            120,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        add(&mut total, seen);
    }
    assert!(total.captures > 0, "{total:?}");
}

#[test]
fn sharp_games_from_the_start_match_the_reference() {
    let mut total = Seen::default();
    for seed in 0..6 {
        let seen = compare_game(
            Game::new(&Variant::ashton()),
            AshtonBoard::start(),
            100 + seed,
            Style::Sharp,
            160,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        add(&mut total, seen);
    }
    // Every kind of win was among the moves compared.
    assert!(
        total.black_wins > 0 && total.white_wins > 0 && total.captures > 0,
        "{total:?}"
    );
}

#[test]
fn shuffling_games_draw_by_repetition_as_the_server_does() {
    let mut total = Seen::default();
    for seed in 0..6 {
        let seen = compare_game(
            Game::new(&Variant::ashton()),
            AshtonBoard::start(),
            200 + seed,
            Style::Shuffle,
            120,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        add(&mut total, seen);
    }
    assert!(total.draws > 0, "{total:?}");
}

#[test]
fn games_from_midgames_match_the_reference() {
    let mut total = Seen::default();
    let mut started = 0;
    for (i, plies) in [8, 16, 24, 32, 48, 64].into_iter().enumerate() {
        let Some((game, reference)) = midgame_pair(plies, 300 + i as u64) else {
            continue;
        };
        started += 1;
        for (seed, style) in [(0, Style::Random), (1, Style::Sharp), (2, Style::Shuffle)] {
            let seen = compare_game(game.clone(), reference.clone(), seed, style, 80)
                .unwrap_or_else(|e| panic!("midgame {plies} plies, {style:?} seed {seed}: {e}"));
            add(&mut total, seen);
        }
    }
    assert!(started >= 4, "only {started} midgames");
    assert!(total.draws > 0 && total.captures > 0, "{total:?}");
}

/// Two quiet moves (no capture, no end) that, with their two takebacks, bring `reference` back
/// to its board, the first not `not.0` and the second not `not.1`.
fn quiet_cycle(reference: &AshtonBoard, not: Option<(Move, Move)>) -> Option<[Move; 4]> {
    let start = reference.without_cache();
    for first in start.legal_moves() {
        if not.is_some_and(|(a, _)| a == first) {
            continue;
        }
        let mut one = start.clone();
        if !one.play(first).is_empty() || one.result.is_some() {
            continue;
        }
        for second in one.legal_moves() {
            if not.is_some_and(|(_, b)| b == second) {
                continue;
            }
            let cycle = [first, second, (first.1, first.0), (second.1, second.0)];
            let mut r = start.clone();
            let quiet = cycle.iter().all(|&m| {
                r.check_move(m.0, m.1).is_ok() && r.play(m).is_empty() && r.result.is_none()
            });
            if quiet && r.cells == start.cells {
                return Some(cycle);
            }
        }
    }
    None
}

/// A game's first position is never in the server's draw cache: when it comes back the first
/// time the game goes on, the second time it is a draw (here through two different cycles, so
/// that no other state repeats).
#[test]
fn a_game_s_first_position_draws_only_when_it_comes_back_twice() {
    // Not from the start itself: there every black soldier is on a camp, and none can return.
    for (plies, seed) in [(12, 7), (20, 9), (30, 8)] {
        let (mut game, mut reference) = midgame_pair(plies, seed).expect("a midgame in play");
        let mut seen = Seen::default();
        let a = quiet_cycle(&reference, None).expect("a quiet cycle");
        let b = quiet_cycle(&reference, Some((a[0], a[1]))).expect("another quiet cycle");
        let mut outcomes = Vec::new();
        for m in a.into_iter().chain(b) {
            library_play(&mut game, m).unwrap();
            reference.play(m);
            compare_here(&game, &reference, &mut seen)
                .unwrap_or_else(|e| panic!("{plies} plies: {e}"));
            outcomes.push(reference.outcome());
        }
        let mut expected = vec![None; 7];
        expected.push(Some(AshtonOutcome::Draw));
        assert_eq!(outcomes, expected, "{plies} plies: {a:?} then {b:?}");
    }
}

#[test]
fn perft_from_the_start_matches_the_reference() {
    let start = Variant::ashton().start();
    let reference = AshtonBoard::start();
    for depth in 1..=3 {
        assert_eq!(
            perft::perft(&start, depth),
            reference.perft(depth),
            "depth {depth}"
        );
    }
}

#[test]
fn perft_from_midgames_matches_the_reference() {
    let mut compared = 0;
    for (i, plies) in [10, 20, 30, 40, 60].into_iter().enumerate() {
        let Some((game, reference)) = midgame_pair(plies, 400 + i as u64) else {
            continue;
        };
        compared += 1;
        for depth in 1..=2 {
            assert_eq!(
                perft::perft(game.position(), depth),
                reference.perft(depth),
                "midgame {plies} plies {}, depth {depth}",
                reference.record()
            );
        }
    }
    assert!(compared >= 4, "only {compared} midgames");
}
