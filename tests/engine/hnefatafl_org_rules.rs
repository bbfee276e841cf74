//! One or more tests per clause of hnefatafl.org's rules (docs/rules-hosts.md, H1-H12) and of
//! Copenhagen as the community plays it, each drawn as a board: rank 1 at the bottom, `a`
//! attacker, `d` defender, `K` king, `#` an empty throne, `+` an empty corner, `.` an empty
//! square. The server's own counts are checked in tests/engine/hnefatafl_org_perft.rs; these pin down
//! each clause by itself.

use crate::common;

use common::diagram::{mv, play_checked, position_from_diagram_with_rules, show, squares};
use tafl_engine::search::{Limits, SearchConfig, Searcher};
use tafl_engine::{
    DrawReason, Game, Outcome, PlayError, Position, RepetitionRule, Side, Variant, WinReason,
};

fn board(diagram: &str, variant: &Variant, side: Side) -> Position {
    position_from_diagram_with_rules(diagram, variant.rules(), side)
}

fn copenhagen() -> Variant {
    Variant::hnefatafl_org_copenhagen()
}

fn brandubh() -> Variant {
    Variant::hnefatafl_org_brandubh()
}

/// Plays the moves in `game`, each of which must be accepted.
fn play_all(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        game.play(mv(text))
            .unwrap_or_else(|e| panic!("{text}: {e}\n{}", show(game.position())));
    }
}

fn searcher() -> Searcher {
    Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: 4,
    })
}

// ---------------------------------------------------------------------------------------------
// H1, H2: the boards, who moves first, who passes the throne

#[test]
fn h1_the_server_s_starts_and_first_movers() {
    let eleven = copenhagen().start();
    assert_eq!(eleven.side_to_move(), Side::Attackers);
    let same = eleven
        .pieces_with_squares()
        .eq(Variant::copenhagen().start().pieces_with_squares());
    assert!(same, "OpenTafl's Copenhagen start");
    let seven = brandubh().start();
    assert_eq!(seven.side_to_move(), Side::Defenders);
    let same = seven
        .pieces_with_squares()
        .eq(Variant::brandub().start().pieces_with_squares());
    assert!(same, "OpenTafl's Brandub start");
}

const BRANDUBH_THRONE: &str = "
    7  + . . a . . +
    6  . . . . . . .
    5  . . . d . K .
    4  a . . # . . .
    3  . . . d . . .
    2  . . . . . . .
    1  + . . a . . +
       a b c d e f g";

#[test]
fn h2_on_7x7_only_the_king_crosses_the_empty_throne() {
    let attackers = board(BRANDUBH_THRONE, &brandubh(), Side::Attackers);
    assert!(attackers.is_legal(mv("a4-c4")));
    assert!(!attackers.is_legal(mv("a4-e4")), "{}", show(&attackers));
    let defenders = board(BRANDUBH_THRONE, &brandubh(), Side::Defenders);
    assert!(!defenders.is_legal(mv("d5-d2")), "a soldier may not cross");
    assert!(!defenders.is_legal(mv("d5-d4")), "nor stop");
    // The king may: f5-f4, then along rank 4 over the throne.
    let mut king = defenders;
    king.play(mv("f5-f4")).unwrap();
    let mut back = king.with_side_to_move(Side::Defenders);
    assert!(back.play(mv("f4-b4")).is_ok(), "{}", show(&king));
}

// ---------------------------------------------------------------------------------------------
// H4: the king

const KING_BESIDE_THE_THRONE_7: &str = "
    7  + . . . . . +
    6  a . . . . . .
    5  . . . d . . .
    4  . . . # . . .
    3  . . a K . . a
    2  a . . . . . .
    1  + . . . . . +
       a b c d e f g";

#[test]
fn h4_on_7x7_the_king_off_the_throne_is_taken_by_two_in_line() {
    let position = board(KING_BESIDE_THE_THRONE_7, &brandubh(), Side::Attackers);
    let (after, captured) = play_checked(&position, mv("g3-e3"));
    assert_eq!(captured, squares("d3"), "{}", show(&position));
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Side::Attackers,
            reason: WinReason::KingCaptured
        })
    );
    // The empty throne is not hostile to him: d2 and the throne do not take him.
    let (_, captured) = play_checked(&position, mv("a2-d2"));
    assert!(captured.is_empty(), "{}", show(&position));
    // It is to soldiers: d5 between d6 and the empty throne.
    let (_, captured) = play_checked(&position, mv("a6-d6"));
    assert_eq!(captured, squares("d5"));
}

const KING_ON_THE_THRONE_7: &str = "
    7  + . . . . . +
    6  . . . . . . .
    5  . . . a . . .
    4  . . a K . . a
    3  . . . . . . .
    2  . d . . . . .
    1  + . . a . . +
       a b c d e f g";

#[test]
fn h4_on_7x7_the_king_on_the_throne_needs_four() {
    let position = board(KING_ON_THE_THRONE_7, &brandubh(), Side::Attackers);
    // Three round him and a fourth closing: taken.
    let (_, captured) = play_checked(&position, mv("g4-e4"));
    assert!(
        captured.is_empty(),
        "two in line are not enough on the throne"
    );
    let mut three = position;
    three.play(mv("d1-d3")).unwrap();
    let three = three.with_side_to_move(Side::Attackers);
    let (_, captured) = play_checked(&three, mv("g4-e4"));
    assert_eq!(captured, squares("d4"), "{}", show(&three));
}

const KING_BESIDE_THE_THRONE_11: &str = "
    11  + . . . . . . . . . +
    10  . . . . . . . . . . .
     9  . . . . . . . . . . .
     8  . . . . . . . . . . .
     7  . . . . a . . . . . .
     6  . . . a K # . . . . .
     5  . . . . . . . . . . .
     4  . . . . . . a . . . .
     3  . . . . a . . . . . .
     2  . . . . . . . . . . .
     1  + . . . . . . . . . +
        a b c d e f g h i j k";

#[test]
fn h4_on_11x11_the_king_needs_four_sides_the_throne_counting() {
    let position = board(KING_BESIDE_THE_THRONE_11, &copenhagen(), Side::Attackers);
    let (_, captured) = play_checked(&position, mv("e3-e5"));
    assert_eq!(captured, squares("e6"), "{}", show(&position));
}

// ---------------------------------------------------------------------------------------------
// H5: shieldwalls, as the server finds them

const WALLS: &str = "
    11  + . . . . . . . . . +
    10  . . . . . a . . . . .
     9  . . . . . . . . . . .
     8  . . . . . . . . . . .
     7  . a . . . . . . . . .
     6  . . . . . # . . . . .
     5  . . . . . . . . . . .
     4  . . . . . . d . . . .
     3  . . . . . . . . . . .
     2  . . a a a . . a a a .
     1  + . d d d a . . d K +
        a b c d e f g h i j k";

#[test]
fn h5_a_flanking_move_takes_the_wall_but_not_the_king() {
    let position = board(WALLS, &copenhagen(), Side::Attackers);
    let (_, captured) = play_checked(&position, mv("b7-b1"));
    assert_eq!(captured, squares("c1 d1 e1"), "{}", show(&position));
    // Against the corner: i1 is taken, the king on j1 stays.
    let (after, captured) = play_checked(&position, mv("h2-h1"));
    assert_eq!(captured, squares("i1"), "{}", show(&position));
    assert_eq!(after.king(), Some("j1".parse().unwrap()));
    // Not a flanking move: an attacker landing inside takes nothing of the wall.
    let (_, captured) = play_checked(&position, mv("f10-f2"));
    assert!(captured.is_empty());
}

// ---------------------------------------------------------------------------------------------
// H10: the move limit

#[test]
fn h10_a_game_not_won_by_its_141st_move_is_drawn() {
    // Seeded playouts until one reaches the limit: the game is on after 140 moves, drawn after
    // 141.
    let variant = copenhagen();
    let mut reached = false;
    for seed in 1..200u64 {
        let mut random = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut game = Game::new(&variant);
        while game.outcome().is_none() {
            let mut moves = game.legal_moves();
            moves.sort_by_key(|m| (m.from().index(), m.to().index()));
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let m = moves[(random % moves.len() as u64) as usize];
            game.play(m).unwrap();
        }
        if game.outcome() == Some(Outcome::Draw(DrawReason::MoveLimit)) {
            assert_eq!(game.moves().len(), 141);
            game.undo();
            assert_eq!(game.outcome(), None, "seed {seed}: on after 140 moves");
            reached = true;
            break;
        }
        assert!(game.moves().len() <= 141);
    }
    assert!(reached, "no playout reached the limit");
}

// ---------------------------------------------------------------------------------------------
// H12: the defenders may not recreate a position

#[test]
fn h12_the_defenders_may_not_move_back_to_an_earlier_board_the_attackers_may() {
    let mut game = Game::new(&copenhagen());
    play_all(&mut game, "a4-b4 e5-e3 b4-a4");
    let back = mv("e3-e5");
    assert!(game.position().is_legal(back), "legal on the board");
    assert!(!game.legal_moves().contains(&back));
    assert_eq!(
        game.play(back),
        Err(PlayError::RecreatesEarlierPosition(back))
    );
    assert_eq!(
        game.position().rules().repetition(),
        RepetitionRule::DefendersMayNotRecreate
    );
    // The attackers may: c4-b4 puts the pieces as after the first move.
    let mut game = Game::new(&copenhagen());
    play_all(&mut game, "a4-b4 e5-e3 b4-c4 e3-e5 c4-b4");
    assert_eq!(game.outcome(), None);
    assert!(
        !game.legal_moves().contains(&mv("e5-e3")),
        "that board was had"
    );
    assert!(game.legal_moves().contains(&mv("e5-e2")));
}

#[test]
fn h12_on_7x7_the_start_is_not_counted() {
    let mut game = Game::new(&brandubh());
    play_all(&mut game, "d5-e5 d7-e7 e5-d5 e7-d7");
    assert!(
        !game.legal_moves().contains(&mv("d5-e5")),
        "the board after the first move is remembered"
    );
    // c6-c4 puts the pieces as at the start: allowed on 7x7, where the start is not counted.
    let mut game = Game::new(&brandubh());
    play_all(&mut game, "c4-c5 a4-a5 c5-c6 a5-a4");
    assert!(game.legal_moves().contains(&mv("c6-c4")));
    play_all(&mut game, "c6-c4");
    let same = game
        .position()
        .pieces_with_squares()
        .eq(brandubh().start().pieces_with_squares());
    assert!(same, "{}", show(game.position()));
}

const STUCK: &str = "
    11  + . . . . . . . . . +
    10  . . . . . . . . . . .
     9  . . . . . . . . . . .
     8  . . . . . . . . . . .
     7  . . . . . a . . . . .
     6  . . . . a K a . . . .
     5  . . . . . a . . . a .
     4  . . . . . . . . . . .
     3  . . . . . . . . . . .
     2  . . a a . . . . . . .
     1  + a d . a . . . . . +
        a b c d e f g h i j k";

#[test]
fn h12_defenders_whose_every_move_recreates_a_position_lose() {
    let start = board(STUCK, &copenhagen(), Side::Attackers);
    let mut game = Game::from_position(start);
    play_all(&mut game, "j5-j6 c1-d1 j6-j5");
    // d1-c1, their one move on the board, would put the pieces as at the start.
    assert_eq!(game.position().legal_moves().as_slice(), &[mv("d1-c1")]);
    assert_eq!(game.position().outcome(), None);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Side::Attackers,
            reason: WinReason::NoLegalMoves
        })
    );
    assert!(game.legal_moves().is_empty());
    // The search, a move earlier, sees it.
    let mut before = Game::from_position(start);
    play_all(&mut before, "j5-j6 c1-d1");
    let result = searcher().search(&before, &Limits::depth(3), |_| {});
    assert!(result.score.is_forced() && result.score.0 > 0, "{result:?}");
}

#[test]
fn h12_the_search_never_plays_a_move_that_recreates_a_position() {
    // The king may move (g6 is free); d1-c1 would take b1 against the corner, but recreates
    // the start's board.
    let mobile = STUCK.replacen(". . . . a K a . . . .", ". . . . a K . . . . .", 1);
    let start = board(&mobile, &copenhagen(), Side::Attackers);
    let mut game = Game::from_position(start);
    play_all(&mut game, "j5-j6 c1-d1 j6-j5");
    let forbidden = mv("d1-c1");
    let mut board_only = *game.position();
    assert_eq!(
        board_only.play(forbidden).unwrap(),
        squares("b1"),
        "a capture"
    );
    assert!(!game.legal_moves().contains(&forbidden));
    for depth in 1..=4 {
        let result = searcher().search(&game, &Limits::depth(depth), |_| {});
        assert_ne!(result.best_move, Some(forbidden), "depth {depth}");
        assert!(
            result
                .best_move
                .is_some_and(|m| game.legal_moves().contains(&m))
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Copenhagen as the community plays it: the third occurrence wins for the attackers

/// A cycle from the start: the position after the first move (the defenders to move) comes
/// back every four moves, its third time by the attackers' ninth move.
const CYCLE: &str = "a4-b4 e5-e3 b4-c4 e3-e5 c4-b4 e5-e3 b4-c4 e3-e5";

#[test]
fn the_third_occurrence_wins_for_the_attackers_whoever_makes_it() {
    let variant = Variant::copenhagen_aagenielsen();
    assert_eq!(
        variant.rules().repetition(),
        RepetitionRule::ThirdOccurrenceAttackersWin
    );
    let win = |winner| {
        Some(Outcome::Win {
            winner,
            reason: WinReason::Repetition,
        })
    };
    // The start (the attackers to move) a third time, made by a defenders' move.
    let shuttle = "a4-b4 e5-e3 b4-a4 e3-e5 a4-b4 e5-e3 b4-a4";
    let mut game = Game::new(&variant);
    play_all(&mut game, shuttle);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "e3-e5");
    assert_eq!(game.outcome(), win(Side::Attackers));
    // OpenTafl's Copenhagen (`tfr:w`) agrees here: the side to move wins.
    let mut opentafl = Game::new(&Variant::copenhagen());
    play_all(&mut opentafl, shuttle);
    play_all(&mut opentafl, "e3-e5");
    assert_eq!(opentafl.outcome(), win(Side::Attackers));
    // A third time made by the attackers' move: a win for them all the same, where OpenTafl's
    // rule gives it to the defenders.
    let mut game = Game::new(&variant);
    play_all(&mut game, CYCLE);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "c4-b4");
    assert_eq!(game.outcome(), win(Side::Attackers));
    let mut opentafl = Game::new(&Variant::copenhagen());
    play_all(&mut opentafl, CYCLE);
    play_all(&mut opentafl, "c4-b4");
    assert_eq!(opentafl.outcome(), win(Side::Defenders));
}

#[test]
fn the_search_scores_the_third_occurrence_as_the_attackers_win() {
    let variant = Variant::copenhagen_aagenielsen();
    // The defenders to move: e3-e5 would make the start's third occurrence.
    let mut game = Game::new(&variant);
    play_all(&mut game, "a4-b4 e5-e3 b4-a4 e3-e5 a4-b4 e5-e3 b4-a4");
    let result = searcher().search(&game, &Limits::depth(2), |_| {});
    assert_ne!(result.best_move, Some(mv("e3-e5")), "{result:?}");
    assert!(
        !(result.score.is_forced() && result.score.0 < 0),
        "{result:?}"
    );
    // The attackers to move: c4-b4 makes a third occurrence, a win.
    let mut game = Game::new(&variant);
    play_all(&mut game, CYCLE);
    let result = searcher().search(&game, &Limits::depth(2), |_| {});
    assert_eq!(result.best_move, Some(mv("c4-b4")), "{result:?}");
    assert!(result.score.is_forced() && result.score.0 > 0, "{result:?}");
}
