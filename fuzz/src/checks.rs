//! The invariants the fuzz targets check, one function per target. Each takes the raw fuzz input
//! and panics (a finding) when an invariant breaks; on any input it must otherwise return.
//!
//! This file is shared: the fuzz targets call it through `tafl_engine_fuzz::checks`, and the main
//! crate's `tests/repository/fuzz_corpus_replay.rs` includes it with `#[path]` to replay the committed corpora
//! in every `cargo test`, without a nightly toolchain. So it depends on `std` and `tafl_engine`
//! only, plus the slow reference rules of `tests/common/reference.rs` (std only as well), the
//! oracle of the differential checks.

use std::collections::{BTreeSet, HashMap};

use tafl_engine::notation::{self, FullMove};
use tafl_engine::position_string;
use tafl_engine::protocol::{
    Flow, Input, LineReader, Session, SessionOptions, is_documented_reply,
};
use tafl_engine::record::GameRecord;
use tafl_engine::{
    Bitboard, DrawReason, Game, Move, Outcome, Piece, Position, RepetitionRule, RuleFlags, Rules,
    Side, Square, Variant, Wide, WinReason, perft,
};

// The path is relative to this file's directory, however this file is itself included.
#[path = "../../tests/common/reference.rs"]
mod reference;

use reference::{Cell, RefBoard, RefOutcome};

/// The fuzz input as text: invalid UTF-8 becomes U+FFFD, so every input reaches the parsers.
fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Every board size the crate plays, with the rules of docs/rules.md.
fn all_rules() -> Vec<Rules> {
    let mut rules = vec![Rules::TABLUT, Rules::TAWLBWRDD];
    for size in [5, 7] {
        if let Ok(small) = Rules::new(
            size,
            RuleFlags::STANDARD,
            RepetitionRule::SecondOccurrenceDraws,
        ) {
            rules.push(small);
        }
    }
    rules
}

/// `position_record`: any text either parses as a position record or is refused with an error.
/// A record that parses prints back to a record that parses to the same position, and the
/// position agrees square by square with a naive reading of the text.
pub fn check_position_record(data: &[u8]) {
    let text = text_of(data);
    // The reference reads records more strictly (slashes at both ends, no `0` runs); what it
    // accepts, the library must accept as the same board.
    let strict = RefBoard::from_record(&text, true).ok();
    for rules in all_rules() {
        if let Some(board) = strict
            .as_ref()
            .filter(|b| b.size == usize::from(rules.size()))
        {
            let position = notation::parse_position_record(&text, rules, Side::Attackers)
                .unwrap_or_else(|e| panic!("{text:?}: the reference reads it, the library: {e}"));
            assert_eq!(&to_reference(&position), board, "{text:?}");
        }
        let mut parsed = Vec::new();
        for side in Side::ALL {
            match notation::parse_position_record(&text, rules, side) {
                Ok(position) => {
                    assert_eq!(position.rules(), rules);
                    assert_eq!(position.side_to_move(), side);
                    let printed = notation::position_record(&position);
                    let again = notation::parse_position_record(&printed, rules, side)
                        .unwrap_or_else(|e| {
                            panic!("{text:?} printed as {printed:?}, refused: {e}")
                        });
                    assert_eq!(again, position, "{text:?} printed as {printed:?}");
                    assert_eq!(notation::position_record(&again), printed);
                    assert_eq!(
                        naive_board(&text),
                        board_rows(&position),
                        "{text:?}: squares differ from a naive reading"
                    );
                    check_position(&position);
                    parsed.push(position.with_side_to_move(Side::Attackers));
                }
                Err(error) => {
                    assert!(!error.to_string().is_empty());
                }
            }
        }
        // The side to move is not part of the record: both sides parse, or neither does.
        assert!(
            parsed.is_empty() || (parsed.len() == 2 && parsed[0] == parsed[1]),
            "{text:?}: the side to move changed what was parsed"
        );
        // The same text as a position string (a record and the side to move): it reads back
        // exactly from what it prints, or is refused with a message.
        match position_string::parse(&text, rules) {
            Ok(position) => {
                assert_eq!(position.rules(), rules);
                let printed = position_string::write(&position);
                assert_eq!(
                    position_string::parse(&printed, rules),
                    Ok(position),
                    "{text:?} printed as {printed:?}"
                );
                check_position(&position);
            }
            Err(error) => assert!(!error.to_string().is_empty()),
        }
    }
}

/// `game_record`: any text either reads as an OpenTafl game record (`.otg`) or is refused with
/// an error naming the line. A record that reads prints to a record that reads to the same game,
/// and prints the same again; every position of the game passes the position checks.
pub fn check_game_record(data: &[u8]) {
    let text = text_of(data);
    match text.parse::<GameRecord>() {
        Ok(record) => {
            let printed = record.to_string();
            let again: GameRecord = printed
                .parse()
                .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, refused: {e}"));
            assert_eq!(again.game, record.game, "{text:?} printed as {printed:?}");
            assert_eq!(again.resigned, record.resigned);
            assert_eq!(again.to_string(), printed, "printing is stable");
            for position in record.game.positions() {
                check_position(position);
            }
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }
}

/// The rows of a record as one char per square, rank 1 first, read the simplest way: digit runs
/// become that many `.`; anything else is kept. Only called on records the library accepted.
fn naive_board(text: &str) -> Vec<String> {
    let text = text.trim();
    let text = text.strip_prefix('/').unwrap_or(text);
    let text = text.strip_suffix('/').unwrap_or(text);
    text.split('/')
        .map(|row| {
            let mut out = String::new();
            let mut run = String::new();
            for c in row.chars().chain(std::iter::once('/')) {
                if c.is_ascii_digit() {
                    run.push(c);
                    continue;
                }
                let empty: usize = if run.is_empty() {
                    0
                } else {
                    run.parse().unwrap_or(usize::MAX)
                };
                out.extend(std::iter::repeat_n('.', empty));
                run.clear();
                if c != '/' {
                    out.push(c);
                }
            }
            out
        })
        .collect()
}

/// The position's rows as record letters and `.`, rank 1 first.
fn board_rows(position: &Position) -> Vec<String> {
    let size = position.rules().size();
    (0..size)
        .map(|y| {
            (0..size)
                .map(|x| {
                    Square::new(x, y)
                        .and_then(|square| position.piece_at(square))
                        .map_or('.', |piece| piece.record_char())
                })
                .collect()
        })
        .collect()
}

/// Invariants of any position, reachable or not: the hash, move generation against the
/// move-by-move legality check, counting, the outcome, and every move played from it.
fn check_position(position: &Position) {
    assert_eq!(
        position.hash(),
        position.hash_from_scratch(),
        "{position:?}"
    );
    let moves = position.legal_moves();
    let generated = MoveTable::new(moves.iter().copied());
    assert_eq!(
        position.count_legal_moves() as usize,
        moves.len(),
        "{position:?}"
    );
    // Every generated move passes the legality check, and every move that passes is generated.
    let board: Vec<Square> = (0..121)
        .filter_map(Square::from_index)
        .filter(|&square| position.rules().contains(square))
        .collect();
    for from in position.pieces(position.side_to_move()) {
        for &to in &board {
            let m = Move::new(from, to);
            assert_eq!(
                position.is_legal(m),
                generated.contains(m),
                "{position:?}: {m} legal by check_move but generated is {}",
                generated.contains(m)
            );
        }
    }
    match position.outcome() {
        Some(Outcome::Win {
            reason: WinReason::NoLegalMoves,
            ..
        }) => {
            // Custom rules: the side to move has no move and loses; nothing is won on the board.
            assert!(!position.rules().is_classic(), "{position:?}");
            assert_eq!(position.winner(), None, "{position:?}");
            assert!(moves.is_empty(), "{position:?}");
        }
        Some(Outcome::Win { winner, .. }) => {
            assert_eq!(position.winner(), Some(winner));
            assert!(moves.is_empty(), "{position:?}: a won position has moves");
        }
        Some(Outcome::Draw(reason)) => {
            assert_eq!(reason, DrawReason::NoLegalMoves, "{position:?}");
            assert!(moves.is_empty());
        }
        None => assert!(!moves.is_empty(), "{position:?}: no moves but no outcome"),
    }
    if position.rules().flags() == RuleFlags::STANDARD {
        check_against_reference(position);
    }
    let diagram = notation::diagram(position);
    assert_eq!(
        diagram.lines().count(),
        usize::from(position.rules().size()) + 1
    );
    for &m in &moves {
        let mut after = *position;
        let captured = after
            .play(m)
            .unwrap_or_else(|e| panic!("{position:?} {m}: {e}"));
        assert_eq!(after.hash(), after.hash_from_scratch(), "{position:?} {m}");
        assert_eq!(position.captures_of(m), captured);
        assert!((captured & position.pieces(position.side_to_move())).is_empty());
        assert!(
            (captured & after.occupied()).is_empty(),
            "{position:?} {m}: captured stays"
        );
        assert_eq!(
            after.occupied().count() + captured.count(),
            position.occupied().count(),
            "{position:?} {m}"
        );
        assert_eq!(after.side_to_move(), position.side_to_move().opponent());
    }
}

/// The two start positions, and one from the middle of a Tablut game, as contexts for moves.
fn move_contexts() -> Vec<Position> {
    let mut contexts = vec![Position::tablut(), Position::tawlbwrdd()];
    let mut middle = Position::tablut();
    for text in ["e2-h2", "e3-h3", "d1-d4", "f5-f2"] {
        if let Ok(m) = text.parse() {
            let _ = middle.play(m);
        }
    }
    contexts.push(middle);
    contexts
}

/// `move_notation`: any text is a simple or full move or is refused. A move that parses prints
/// back to text that parses to the same move; `Move` and `FullMove` agree on what parses; playing
/// it in a position never panics, and the full description of a legal move round-trips too.
pub fn check_move_notation(data: &[u8]) {
    let text = text_of(data);
    // Squares and side names are read with the same care: what is accepted prints back.
    if let Ok(square) = text.parse::<Square>() {
        assert_eq!(square.to_string(), text.to_ascii_lowercase(), "{text:?}");
        assert_eq!(square.to_string().parse::<Square>(), Ok(square));
    }
    if let Some(side) = Side::from_name(&text) {
        assert_eq!(Side::from_name(side.name()), Some(side));
    }
    let full = text.parse::<FullMove>();
    let simple = text.parse::<Move>();
    match (&full, &simple) {
        (Ok(full), Ok(simple)) => {
            assert_eq!(full.mv, *simple);
            let printed = full.to_string();
            assert_eq!(
                printed.parse::<FullMove>().as_ref(),
                Ok(full),
                "{text:?} -> {printed:?}"
            );
            let printed_simple = simple.to_string();
            assert_eq!(printed_simple.parse::<Move>().as_ref(), Ok(simple));
            assert_eq!(
                printed_simple.parse::<FullMove>().map(|f| f.mv).as_ref(),
                Ok(simple)
            );
        }
        (Err(full_error), Err(simple_error)) => {
            assert_eq!(full_error, simple_error);
            assert!(!full_error.to_string().is_empty());
            return;
        }
        _ => panic!("{text:?}: FullMove says {full:?}, Move says {simple:?}"),
    }
    let Ok(m) = simple else { return };
    for position in move_contexts() {
        let legal = position.legal_moves().contains(&m);
        assert_eq!(position.is_legal(m), legal, "{position:?} {m}");
        let mut after = position;
        match after.play(m) {
            Ok(captured) => {
                assert!(legal);
                assert_eq!(after.hash(), after.hash_from_scratch());
                let described = FullMove::describe(&position, m);
                assert_eq!(described.mv, m);
                assert_eq!(described.captures, captured);
                assert_eq!(described.piece, position.piece_at(m.from()));
                let printed = described.to_string();
                assert_eq!(printed.parse::<FullMove>(), Ok(described), "{printed:?}");
            }
            Err(error) => {
                assert!(!legal, "{position:?} {m}: legal but refused: {error}");
                assert_eq!(after, position, "a refused move changed the position");
            }
        }
    }
}

/// `rules_string`: any text is an OpenTafl rules string this engine plays, or is refused with an
/// error. An accepted string prints back to a string that is accepted as the same game, and
/// printing is then stable.
pub fn check_rules_string(data: &[u8]) {
    let text = text_of(data);
    match text.parse::<Variant>() {
        Ok(variant) => {
            let printed = variant.to_string();
            let again: Variant = printed
                .parse()
                .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, refused: {e}"));
            assert_eq!(again, variant, "{text:?} printed as {printed:?}");
            assert_eq!(again.to_string(), printed);
            let start = variant.start();
            assert_eq!(start.rules(), variant.rules());
            check_position(&start);
        }
        Err(error) => {
            assert!(!error.to_string().is_empty());
        }
    }
    check_wide_rules_string(&text);
}

/// The same text read for the wide grid (boards up to 19x19): refused with a message, or a game
/// that prints and reads back to itself, whose start's every legal move plays.
fn check_wide_rules_string(text: &str) {
    match text.parse::<Variant<Wide>>() {
        Ok(variant) => {
            let printed = variant.to_string();
            let again: Variant<Wide> = printed
                .parse()
                .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, refused: {e}"));
            assert_eq!(again, variant, "{text:?} printed as {printed:?}");
            let start = variant.start();
            let moves = start.legal_moves();
            assert_eq!(perft::perft(&start, 1), moves.len() as u64);
            for &m in &moves {
                let mut next = start;
                next.play(m)
                    .unwrap_or_else(|e| panic!("{text:?}: legal move {m} refused: {e}"));
                assert_eq!(next.hash(), next.hash_from_scratch());
            }
        }
        Err(error) => {
            assert!(!error.to_string().is_empty());
        }
    }
}

/// A square as the reference names it: (file, rank - 1).
type RefSquare = (usize, usize);

fn ref_square(square: Square) -> RefSquare {
    (usize::from(square.x()), usize::from(square.y()))
}

/// The reference's square as a library square.
fn square_of(square: RefSquare) -> Square {
    u8::try_from(square.0)
        .ok()
        .zip(u8::try_from(square.1).ok())
        .and_then(|(x, y)| Square::new(x, y))
        .unwrap_or_else(|| panic!("the reference names the square {square:?}, off an 11x11 grid"))
}

/// The reference's captured squares as a set.
fn captured_set(squares: &[RefSquare]) -> Bitboard {
    squares
        .iter()
        .fold(Bitboard::EMPTY, |set, &square| set | square_of(square))
}

/// Legal moves as the set of destinations of each starting square (by square index): two move
/// lists compare without sorting, which keeps the fuzz targets fast under libFuzzer's
/// instrumentation of every comparison.
#[derive(PartialEq, Eq)]
struct MoveTable([Bitboard; 121]);

impl MoveTable {
    fn new(moves: impl IntoIterator<Item = Move>) -> MoveTable {
        let mut table = MoveTable([Bitboard::EMPTY; 121]);
        for m in moves {
            let entry = &mut table.0[usize::from(m.from().index())];
            assert!(!entry.contains(m.to()), "{m} generated twice");
            *entry |= m.to();
        }
        table
    }

    fn of_reference(board: &RefBoard) -> MoveTable {
        MoveTable::new(
            board
                .legal_moves()
                .into_iter()
                .map(|(from, to)| Move::new(square_of(from), square_of(to))),
        )
    }

    fn contains(&self, m: Move) -> bool {
        self.0[usize::from(m.from().index())].contains(m.to())
    }

    fn len(&self) -> usize {
        self.0.iter().map(|set| set.count() as usize).sum()
    }

    /// The moves in a fixed order (by starting square, then destination), whatever order the
    /// generator produced them in, so that a fuzz input keeps choosing the same moves.
    fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        (0..121u8)
            .filter_map(Square::from_index)
            .flat_map(move |from| {
                self.0[usize::from(from.index())]
                    .into_iter()
                    .map(move |to| Move::new(from, to))
            })
    }

    /// The moves one table has and the other lacks, for a failure message.
    fn difference(&self, other: &MoveTable) -> String {
        let only = |a: &MoveTable, b: &MoveTable| -> Vec<String> {
            a.moves()
                .filter(|&m| !b.contains(m))
                .map(|m| m.to_string())
                .collect()
        };
        format!(
            "generated only by the library: {:?}; only by the reference: {:?}",
            only(self, other),
            only(other, self)
        )
    }
}

/// Panics unless the library's and the reference's legal moves are the same.
fn assert_same_moves(position: &Position, fast: &MoveTable, slow: &MoveTable) {
    if fast != slow {
        panic!(
            "{position:?}: legal moves differ from the reference: {}",
            fast.difference(slow)
        );
    }
}

/// The same position on the reference's board.
fn to_reference(position: &Position) -> RefBoard {
    let record = notation::position_record(position);
    RefBoard::from_record(&record, position.side_to_move() == Side::Attackers)
        .unwrap_or_else(|e| panic!("the reference refuses {record:?}: {e}"))
}

/// Panics unless the library's position and the reference's board hold the same pieces on the
/// same squares with the same side to move (compared square by square: no allocation).
fn assert_same_board(position: &Position, board: &RefBoard, context: &dyn Fn() -> String) {
    let size = usize::from(position.rules().size());
    let same = board.size == size
        && board.attackers_to_move == (position.side_to_move() == Side::Attackers)
        && (0..size).all(|y| {
            (0..size).all(|x| {
                let piece = position.piece_at(square_of((x, y)));
                let expected = match board.get(x, y) {
                    Cell::Empty => None,
                    Cell::Attacker => Some(Piece::Attacker),
                    Cell::Defender => Some(Piece::Defender),
                    Cell::King => Some(Piece::King),
                };
                piece == expected
            })
        });
    if !same {
        panic!(
            "{}: the library has {position:?}, the reference {}",
            context(),
            board.to_record()
        );
    }
}

/// The outcome on the board (R13, R14, R17) as the reference says it.
fn board_outcome(outcome: Option<Outcome>) -> Option<RefOutcome> {
    match outcome? {
        Outcome::Win {
            winner: Side::Attackers,
            reason: WinReason::KingCaptured,
        } => Some(RefOutcome::AttackersWin),
        Outcome::Win {
            winner: Side::Defenders,
            reason: WinReason::KingEscaped,
        } => Some(RefOutcome::DefendersWin),
        Outcome::Draw(DrawReason::NoLegalMoves) => Some(RefOutcome::DrawNoMoves),
        other => panic!("{other:?} is not an outcome on the board"),
    }
}

/// Differential check against the reference rules (docs/rules.md, standard flags only): the same
/// legal moves, the same outcome, and every move captures the same squares and leads to the
/// same board.
fn check_against_reference(position: &Position) {
    let board = to_reference(position);
    let fast = MoveTable::new(position.legal_moves());
    assert_same_moves(position, &fast, &MoveTable::of_reference(&board));
    assert_eq!(
        board_outcome(position.outcome()),
        board.outcome(),
        "{position:?}"
    );
    for m in position.legal_moves() {
        let mut after = *position;
        let captured = after.play_unchecked(m);
        let (slow_after, slow_captured) = board.play(ref_square(m.from()), ref_square(m.to()));
        assert_eq!(
            captured,
            captured_set(&slow_captured),
            "{position:?} {m}: captures differ from the reference"
        );
        assert_same_board(&after, &slow_after, &|| format!("{position:?} {m}"));
    }
}

/// Most plies one `random_game` input plays: enough for long games, short enough to stay fast.
const MAX_PLIES: usize = 300;

/// `random_game`: the first byte picks the start (bit 0: Tablut or Tawlbwrdd; bit 1: attackers
/// or defenders first), then every two bytes pick one legal move. After every move: the
/// incremental hash equals the hash from scratch; the fast move generator gives the reference's
/// moves; the move captures what the reference captures and leads to the reference's board; piece
/// counts only go down, by what was captured; undo restores the game; and the game's outcome,
/// repetition (R16) included, is the one the reference and the game's own history give.
pub fn check_random_game(data: &[u8]) {
    let Some((&first, choices)) = data.split_first() else {
        return;
    };
    let variant = if first & 1 == 0 {
        Variant::tablut()
    } else {
        Variant::tawlbwrdd()
    };
    let side = if first & 2 == 0 {
        Side::Attackers
    } else {
        Side::Defenders
    };
    let mut game = Game::from_position(variant.start().with_side_to_move(side));
    let mut board = to_reference(game.position());
    // How often each board (with the side to move) has occurred in this game, for R16.
    // Keyed by the reference's record and side to move (hashing the board cell by cell is slow).
    let key = |board: &RefBoard| (board.to_record(), board.attackers_to_move);
    let mut seen: HashMap<(String, bool), usize> = HashMap::from([(key(&board), 1)]);
    for choice in choices.chunks(2).take(MAX_PLIES) {
        let position = *game.position();
        assert_eq!(
            position.hash(),
            position.hash_from_scratch(),
            "{position:?}"
        );

        let fast = MoveTable::new(position.legal_moves());
        assert_same_moves(&position, &fast, &MoveTable::of_reference(&board));
        let move_count = fast.len();
        assert_eq!(position.count_legal_moves() as usize, move_count);

        // R16 from the reference's own history: the current board seen before in this game.
        let repeated = seen.get(&key(&board)).copied().unwrap_or(0) >= 2;
        let expected = match board.outcome() {
            Some(RefOutcome::AttackersWin) => Some(Outcome::Win {
                winner: Side::Attackers,
                reason: WinReason::KingCaptured,
            }),
            Some(RefOutcome::DefendersWin) => Some(Outcome::Win {
                winner: Side::Defenders,
                reason: WinReason::KingEscaped,
            }),
            _ if repeated => Some(Outcome::Draw(DrawReason::Repetition)),
            Some(RefOutcome::DrawNoMoves) => Some(Outcome::Draw(DrawReason::NoLegalMoves)),
            None => None,
        };
        assert_eq!(
            game.outcome(),
            expected,
            "{position:?} after {} moves",
            game.moves().len()
        );
        if let Some(outcome) = expected {
            assert!(
                game.legal_moves().is_empty(),
                "{position:?}: moves after {outcome:?}"
            );
            if let Some(m) = fast.moves().next() {
                assert!(
                    game.play(m).is_err(),
                    "{position:?}: {m} played after {outcome:?}"
                );
            }
            return;
        }

        let index = usize::from(u16::from_le_bytes([
            choice[0],
            *choice.get(1).unwrap_or(&0),
        ]));
        // `fast` is not empty: a game without an outcome has a legal move (R17).
        let Some(m) = fast.moves().nth(index % move_count.max(1)) else {
            panic!("{position:?}: no legal move but no outcome");
        };
        let captured = game
            .play(m)
            .unwrap_or_else(|e| panic!("{position:?}: generated move {m} refused: {e}"));
        let (next_board, slow_captured) = board.play(ref_square(m.from()), ref_square(m.to()));
        assert_eq!(
            captured,
            captured_set(&slow_captured),
            "{position:?} {m}: captures differ from the reference"
        );
        let after = *game.position();
        assert_same_board(&after, &next_board, &|| format!("{position:?} {m}"));
        assert_eq!(after.hash(), after.hash_from_scratch(), "{position:?} {m}");

        // Piece counts only go down, each by what the move captured of it.
        let mover = position.side_to_move();
        let opponent = mover.opponent();
        assert_eq!(after.pieces(mover).count(), position.pieces(mover).count());
        assert_eq!(
            after.pieces(opponent).count() + captured.count(),
            position.pieces(opponent).count(),
            "{position:?} {m}"
        );
        assert!(after.attackers().count() <= position.attackers().count());
        assert!(after.defenders().count() <= position.defenders().count());
        assert!(after.king_set().count() <= position.king_set().count());

        // Undo gives the position back; playing the move again gives the same position.
        let plies = game.moves().len();
        assert_eq!(game.undo(), Some(m));
        assert_eq!(
            (*game.position(), game.moves().len()),
            (position, plies - 1)
        );
        assert_eq!(game.play(m), Ok(captured));
        assert_eq!((*game.position(), game.moves().len()), (after, plies));

        board = next_board;
        *seen.entry(key(&board)).or_insert(0) += 1;
    }
}

/// Most lines of one `protocol` input that are handled: searches run in process, so a cap keeps
/// every input well inside libFuzzer's timeout.
const MAX_PROTOCOL_LINES: usize = 64;

/// Session options for fuzzing: the quick settings, with searches cut shorter still.
fn fuzz_session_options() -> SessionOptions {
    SessionOptions {
        max_search_time: Some(std::time::Duration::from_millis(5)),
        ..SessionOptions::quick()
    }
}

/// `protocol`: arbitrary bytes, split into lines the way the binary splits stdin
/// ([`LineReader`]), fed to the in-process command handler ([`Session::handle_line`]). No panic;
/// every reply is one of the documented line forms (docs/protocol.md), both by the library's own
/// [`is_documented_reply`] and by the independent reading below, which also checks what the
/// replies say against the game: moves and lines legal where they are played, `perft` counts
/// equal to the reference's, `record`, `hash` and `to-move` those of the game. A line answered
/// with `error 0` leaves the game as it was.
pub fn check_protocol(data: &[u8]) {
    let mut session = Session::new(fuzz_session_options());
    let mut reader = LineReader::new(data);
    for _ in 0..MAX_PROTOCOL_LINES {
        let line = match reader.next_input() {
            Input::Line(line) => line,
            Input::TooLong(_) => continue,
            Input::End => break,
        };
        let before = session.game().cloned();
        let mut replies = Vec::new();
        let flow = session.handle_line(&line, &mut |reply| replies.push(reply));
        let after = session.game().cloned();
        for reply in &replies {
            assert!(
                is_documented_reply(reply),
                "{line:?}: the library's own check refuses the reply {reply:?}"
            );
            check_reply(reply, before.as_ref(), after.as_ref(), &line);
        }
        if replies.iter().any(|reply| reply.starts_with("error 0 ")) {
            assert_eq!(
                after, before,
                "{line:?} was answered {replies:?} but changed the game"
            );
        }
        if flow == Flow::Quit {
            break;
        }
    }
}

/// Whether `text` is a move in simple notation, exactly as the engine prints it.
fn simple_move(text: &str) -> Option<Move> {
    text.parse::<Move>().ok().filter(|m| m.to_string() == text)
}

/// Whether `moves` can be played one after the other from `position`.
fn legal_line(position: &Position, moves: &[&str]) -> bool {
    let mut position = *position;
    moves
        .iter()
        .all(|text| simple_move(text).is_some_and(|m| position.play(m).is_ok()))
}

fn is_digits(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

/// A decimal number: `-1.25`, `0.00`, `3`.
fn is_decimal_number(word: &str) -> bool {
    let unsigned = word.strip_prefix('-').unwrap_or(word);
    match unsigned.split_once('.') {
        Some((whole, fraction)) => is_digits(whole) && is_digits(fraction),
        None => is_digits(unsigned),
    }
}

/// A line of `show`'s diagram: `9  . . a ...` (rank, then one symbol per square) or the files.
fn is_diagram_row(reply: &str, size: usize) -> bool {
    let words: Vec<&str> = reply.split_whitespace().collect();
    let files: String = (b'a'..).take(size).map(char::from).collect();
    let files_line = words.concat() == files && words.len() == size;
    let rank_line = words.len() == size + 1
        && words[0]
            .parse::<usize>()
            .is_ok_and(|rank| (1..=size).contains(&rank))
        && words[1..]
            .iter()
            .all(|w| matches!(*w, "." | "#" | "+" | "a" | "d" | "K"));
    files_line || rank_line
}

/// One reply, read independently of the library's checker: its form, and what it says about
/// the game before and after the line that caused it.
fn check_reply(reply: &str, before: Option<&Game>, after: Option<&Game>, line: &str) {
    let context = || format!("{line:?} -> {reply:?}");
    assert!(
        !reply.is_empty() && reply.chars().all(|c| c == ' ' || c.is_ascii_graphic()),
        "{}: not one line of printable ASCII",
        context()
    );
    let words: Vec<&str> = reply.split(' ').collect();
    let rest = &words[1..];
    // The position the reply talks about: replies to queries and searches leave the game as it
    // was, except `play`, which may first set the side to move.
    let positions: Vec<Position> = [before, after]
        .into_iter()
        .flatten()
        .map(|game| *game.position())
        .collect();
    let current = after.map(|game| *game.position());
    let legal_somewhere =
        |moves: &[&str]| positions.iter().any(|position| legal_line(position, moves));
    match words[0] {
        "hello" => assert!(rest.is_empty(), "{}", context()),
        "move" => assert!(
            rest.len() == 1 && legal_somewhere(rest),
            "{}: not a legal simple move",
            context()
        ),
        "bestmove" => assert!(
            rest == ["none"] && positions.iter().any(|p| p.legal_moves().is_empty())
                || rest.len() == 1 && legal_somewhere(rest),
            "{}",
            context()
        ),
        "analysis" => {
            let count = rest.first().and_then(|w| w.parse::<usize>().ok());
            let pairs = &rest[1.min(rest.len())..];
            assert!(
                count == Some(pairs.len() / 2) && pairs.len() % 2 == 0,
                "{}: wrong count",
                context()
            );
            let mut first_moves = BTreeSet::new();
            for pair in pairs.chunks(2) {
                let moves: Vec<&str> = pair[0].split('|').collect();
                assert!(legal_somewhere(&moves), "{}: illegal line", context());
                assert!(
                    first_moves.insert(moves[0]),
                    "{}: first move twice",
                    context()
                );
                assert!(is_decimal_number(pair[1]), "{}: bad evaluation", context());
            }
        }
        "info" if rest.first() == Some(&"string") => {
            assert!(rest.len() >= 2, "{}: an empty note", context());
        }
        "info" => {
            let labels = ["depth", "score", "nodes", "nps", "time", "pv"];
            assert!(rest.len() >= 11, "{}", context());
            for (i, label) in labels.iter().enumerate() {
                assert_eq!(rest[2 * i], *label, "{}", context());
            }
            assert!(
                is_digits(rest[1]) && is_decimal_number(rest[3]),
                "{}",
                context()
            );
            assert!(is_digits(rest[5]) && is_digits(rest[7]), "{}", context());
            assert!(is_decimal_number(rest[9]), "{}", context());
            assert!(legal_somewhere(&rest[11..]), "{}: illegal pv", context());
        }
        "perft" => {
            assert!(
                rest.len() == 6
                    && is_digits(rest[0])
                    && is_digits(rest[1])
                    && rest[2] == "time"
                    && is_decimal_number(rest[3])
                    && rest[4] == "nps"
                    && is_digits(rest[5]),
                "{}",
                context()
            );
            // The count itself, against the reference's perft of the same position (P1).
            let depth: u32 = rest[0].parse().unwrap_or(u32::MAX);
            let standard = |p: &Position| p.rules().flags() == RuleFlags::STANDARD;
            if let Some(position) = current.filter(|p| standard(p) && depth <= 2) {
                let expected = to_reference(&position).perft(depth);
                assert_eq!(rest[1], expected.to_string(), "{}: perft count", context());
            }
        }
        "status" | "help" | "variant" | "evaluation" | "result" => {
            assert!(!rest.concat().trim().is_empty(), "{}: no text", context());
        }
        "error" => {
            assert!(
                rest.len() >= 2 && matches!(rest[0], "0" | "-1"),
                "{}: not error 0|-1 <text>",
                context()
            );
            assert!(!rest[1..].concat().is_empty(), "{}: no text", context());
        }
        "to-move" => {
            let side = current.map(|p| p.side_to_move().name());
            assert!(rest.len() == 1 && side == Some(rest[0]), "{}", context());
        }
        "hash" => {
            let hash = current.map(|p| format!("{:016x}", p.hash()));
            assert!(
                rest.len() == 1 && hash.as_deref() == Some(rest[0]),
                "{}",
                context()
            );
        }
        "record" => {
            let record = current.map(|p| notation::position_record(&p));
            assert!(
                rest.len() == 1 && record.as_deref() == Some(rest[0]),
                "{}",
                context()
            );
        }
        "legal-moves" => {
            let count = rest.first().and_then(|w| w.parse::<usize>().ok());
            assert_eq!(count, Some(rest.len() - 1), "{}: wrong count", context());
            let game = after.unwrap_or_else(|| panic!("{}: no game", context()));
            let listed: BTreeSet<&str> = rest[1..].iter().copied().collect();
            let legal: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
            let legal: BTreeSet<&str> = legal.iter().map(String::as_str).collect();
            assert_eq!(listed, legal, "{}", context());
        }
        first => {
            let size = current.map_or(0, |p| usize::from(p.rules().size()));
            let divide_line = rest.len() == 1
                && is_digits(rest[0])
                && simple_move(first).is_some()
                && legal_somewhere(&[first]);
            assert!(
                divide_line || is_diagram_row(reply, size),
                "{}: not a documented reply",
                context()
            );
        }
    }
}
