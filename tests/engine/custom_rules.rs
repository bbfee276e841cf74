//! One or more tests per rule that custom rules add to the classic ones (docs/rules-strings.md,
//! "Custom rules"), each drawn as a board: rank 1 at the bottom, `a` attacker, `d` defender, `K`
//! king, `#` an empty throne, `+` an empty corner or fort, `.` an empty square.

use crate::common;

use common::diagram::{mv, play_checked, position_from_diagram_with_rules, show, sq, squares};
use tafl_engine::{
    Game, IllegalMoveError, Outcome, Position, Rules, Side, Variant, WinReason, perft,
};

fn board(diagram: &str, variant: &Variant, side: Side) -> Position {
    position_from_diagram_with_rules(diagram, variant.rules(), side)
}

fn rules(text: &str) -> Variant {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays `m` and returns what it captured and the outcome on the board after it.
fn play(position: &Position, m: &str) -> (tafl_engine::Bitboard, Option<Outcome>) {
    let (after, captured) = play_checked(position, mv(m));
    (captured, after.outcome())
}

fn win(winner: Side, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

// ---------------------------------------------------------------------------------------------
// Linnaean capture (OpenTafl's Tablut, `linc:y`)

const LINNAEAN: &str = "
    9  . . . . . . . . .
    8  . . . . . . . . .
    7  . . . . . . . . .
    6  . . . . a . . . .
    5  . . . a K a . . .
    4  . . . . d . . . .
    3  . . . . . . . . .
    2  . . . . . . . . .
    1  . . . . a . . a .
       a b c d e f g h i";

#[test]
fn linnaean_a_defender_next_to_the_throne_is_taken_against_the_king_on_it() {
    let position = board(LINNAEAN, &Variant::opentafl_tablut(), Side::Attackers);
    let (captured, _) = play(&position, "e1-e3");
    assert_eq!(captured, squares("e4"), "{}", show(&position));
}

#[test]
fn linnaean_needs_attackers_on_the_throne_s_three_other_sides() {
    let thinner = LINNAEAN.replacen("a . . . .\n", ". . . . .\n", 1);
    let position = board(&thinner, &Variant::opentafl_tablut(), Side::Attackers);
    assert_eq!(position.piece_at(sq("e6")), None, "{}", show(&position));
    let (captured, _) = play(&position, "e1-e3");
    assert!(captured.is_empty(), "{}", show(&position));
}

#[test]
fn linnaean_capture_is_not_a_rule_of_the_classic_games() {
    let position = position_from_diagram_with_rules(LINNAEAN, Rules::TABLUT, Side::Attackers);
    let (captured, _) = play(&position, "e1-e3");
    assert!(captured.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Shieldwalls (Copenhagen `sw:s swf:y`, relaxed `swf:n`)

const WALL: &str = "
    11  + . . . . . . . . . +
    10  . . . . . . . . . . .
     9  . . . . . . . . . . .
     8  . . . . . . . . . . .
     7  . . . . . . . . . . .
     6  . . . . . # . . . . .
     5  . . . . . K . . . . .
     4  . . . . . . . . . . .
     3  . . . . . . . . . . .
     2  . . a a a . . . . . .
     1  + a d d d . . . . . +
        a b c d e f g h i j k";

#[test]
fn shieldwall_a_row_on_the_edge_held_from_inside_is_taken_by_the_closing_bracket() {
    let with_closer = WALL.replacen("4  . . . . . . . . . . .", "4  . . . . . a . . . . .", 1);
    let position = board(&with_closer, &Variant::copenhagen(), Side::Attackers);
    let (captured, _) = play(&position, "f4-f1");
    assert_eq!(captured, squares("c1 d1 e1"), "{}", show(&position));
}

#[test]
fn shieldwall_a_corner_brackets_it_in_copenhagen() {
    // b1 left out: the corner a1 is the other bracket.
    let from_corner = WALL
        .replacen("+ a d d d", "+ d d d d", 1)
        .replacen(". . a a a", ". a a a a", 1)
        .replacen("4  . . . . . . . . . . .", "4  . . . . . a . . . . .", 1);
    // As OpenTafl has it, walls are looked for only while each side has two pieces on an edge:
    // here the closing attacker is the only one.
    let position = board(&from_corner, &Variant::copenhagen(), Side::Attackers);
    let (captured, _) = play(&position, "f4-f1");
    assert!(captured.is_empty(), "{}", show(&position));
    let another_on_the_edge =
        from_corner.replacen("5  . . . . . K . . . . .", "5  . . . . . K . . . . a", 1);
    let position = board(
        &another_on_the_edge,
        &Variant::copenhagen(),
        Side::Attackers,
    );
    let (captured, _) = play(&position, "f4-f1");
    assert_eq!(captured, squares("b1 c1 d1 e1"), "{}", show(&position));
}

#[test]
fn shieldwall_the_king_in_the_row_is_not_taken() {
    let with_king = WALL
        .replacen("K", ".", 1)
        .replacen("+ a d d d", "+ a d K d", 1)
        .replacen("4  . . . . . . . . . . .", "4  . . . . . a . . . . .", 1);
    let position = board(&with_king, &Variant::copenhagen(), Side::Attackers);
    let (captured, _) = play(&position, "f4-f1");
    assert_eq!(captured, squares("c1 e1"), "{}", show(&position));
}

#[test]
fn shieldwall_flanking_means_closing_on_the_edge_relaxed_takes_any_closing_move() {
    // The last inside square, d2, is filled from d5's side: not a flanking move.
    let open_inside = WALL
        .replacen(". . a a a . .", ". . a . a a .", 1)
        .replacen("+ a d d d . .", "+ a d d d a .", 1)
        .replacen("4  . . . . . . . . . . .", "4  . . . a . . . . . . .", 1);
    for (variant, expected) in [
        (Variant::copenhagen(), ""),
        (Variant::copenhagen_relaxed_shieldwall(), "c1 d1 e1"),
    ] {
        let position = board(&open_inside, &variant, Side::Attackers);
        let (captured, _) = play(&position, "d4-d2");
        assert_eq!(
            captured,
            squares(expected),
            "{}\n{}",
            variant.name(),
            show(&position)
        );
    }
}

#[test]
fn shieldwall_custodial_captures_still_happen_beside_it() {
    let position = board(WALL, &Variant::copenhagen(), Side::Attackers);
    // No bracket on f1: no shieldwall; nothing else captured either.
    let (captured, _) = play(&position, "c2-c3");
    assert!(captured.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Shieldwalls by the published Copenhagen rule (C8a, `sw-published:y`): copenhagen-aagenielsen

/// `variant`'s rules string with `field` added before the start.
fn with_field(variant: &Variant, field: &str) -> Variant {
    rules(
        &variant
            .to_string()
            .replacen(" start:", &format!(" {field} start:"), 1),
    )
}

#[test]
fn shieldwall_published_a_corner_brackets_it_whatever_else_stands_on_the_edges() {
    // As in `shieldwall_a_corner_brackets_it_in_copenhagen`: the closing attacker is the
    // attackers' only piece on an edge, which stops OpenTafl's search (C8), not the rule (C8a).
    let from_corner = WALL
        .replacen("+ a d d d", "+ d d d d", 1)
        .replacen(". . a a a", ". a a a a", 1)
        .replacen("4  . . . . . . . . . . .", "4  . . . . . a . . . . .", 1);
    for (variant, expected) in [
        (Variant::copenhagen_aagenielsen(), "b1 c1 d1 e1"),
        (Variant::hnefatafl_org_copenhagen(), "b1 c1 d1 e1"),
        (Variant::copenhagen(), ""),
    ] {
        let position = board(&from_corner, &variant, Side::Attackers);
        let (captured, _) = play(&position, "f4-f1");
        assert_eq!(
            captured,
            squares(expected),
            "{}\n{}",
            variant.name(),
            show(&position)
        );
    }
}

#[test]
fn shieldwall_published_needs_an_enemy_in_front_of_every_member_and_a_flanking_move() {
    let published = Variant::copenhagen_aagenielsen();
    // d2 empty: the row b1-e1 has a member with nobody in front; no wall, whoever closes.
    let gap = WALL.replacen(". . a a a", ". . a . a", 1).replacen(
        "4  . . . . . . . . . . .",
        "4  . . . . . a . . . . .",
        1,
    );
    let position = board(&gap, &published, Side::Attackers);
    assert!(play(&position, "f4-f1").0.is_empty(), "{}", show(&position));
    // Filling the last square in front (d2) from inside is no flanking move: nothing is taken,
    // but with `swf:n` it takes the row.
    let open_inside = WALL
        .replacen(". . a a a . .", ". . a . a a .", 1)
        .replacen("+ a d d d . .", "+ a d d d a .", 1)
        .replacen("4  . . . . . . . . . . .", "4  . . . a . . . . . . .", 1);
    for (variant, expected) in [
        (published.clone(), ""),
        (with_field(&published, "swf:n"), "c1 d1 e1"),
    ] {
        let position = board(&open_inside, &variant, Side::Attackers);
        let (captured, _) = play(&position, "d4-d2");
        assert_eq!(
            captured,
            squares(expected),
            "{variant}\n{}",
            show(&position)
        );
    }
}

#[test]
fn shieldwall_published_the_king_brackets_and_stands_in_front() {
    // The defenders take a row of attackers: the king closes it on f1, defenders in front.
    let attackers_row = "
    11  + . . . . . . . . . +
    10  . . . . . . . . . . .
     9  . . . . . . . . . . .
     8  . . . . . . . . . . .
     7  . . . . . . . . . . .
     6  . . . . . # . . . . .
     5  . . . . . . . . . . .
     4  . . . . . K . . . . .
     3  . . . . . . . . . . a
     2  . . d d K . . . . . .
     1  + d a a a . . . . . +
        a b c d e f g h i j k";
    let attackers_row = attackers_row.replacen("2  . . d d K", "2  . . d d d", 1);
    let position = board(
        &attackers_row,
        &Variant::copenhagen_aagenielsen(),
        Side::Defenders,
    );
    let (captured, _) = play(&position, "f4-f1");
    assert_eq!(captured, squares("c1 d1 e1"), "{}", show(&position));
    // The king in front of a member, a defender closing.
    let king_in_front = attackers_row
        .replacen("4  . . . . . K", "4  . . . . . d", 1)
        .replacen("2  . . d d d", "2  . . d K d", 1);
    let position = board(
        &king_in_front,
        &Variant::copenhagen_aagenielsen(),
        Side::Defenders,
    );
    let (captured, _) = play(&position, "f4-f1");
    assert_eq!(captured, squares("c1 d1 e1"), "{}", show(&position));
}

#[test]
fn shieldwall_published_is_a_field_of_the_rules_string() {
    let published = Variant::copenhagen_aagenielsen();
    assert!(
        published.to_string().contains(" sw:s sw-published:y "),
        "{published}"
    );
    assert_eq!(
        published.to_string().parse::<Variant>().ok(),
        Some(published)
    );
    // Without shieldwalls it changes nothing: the same rules as without it.
    let fetlar = Variant::fetlar();
    assert_eq!(
        with_field(&fetlar, "sw-published:y").rules(),
        fetlar.rules()
    );
    assert!(
        "dim:11 sw:s sw-published:x start:/11/11/11/11/11/5K5/11/11/11/11/11/"
            .parse::<Variant>()
            .is_err()
    );
}

// ---------------------------------------------------------------------------------------------
// Edge forts (Copenhagen `efe:y`)

const FORT: &str = "
    11  + . . . . . . . . . +
    10  . . . . . . . . . . .
     9  . . . . a . . . . . .
     8  . . . . . . . . . . .
     7  . . . . . . . . . . .
     6  . . . . . # . . . . .
     5  . . . . . . . . . . .
     4  . . . . . . . . d . .
     3  . . . . . d . . . . .
     2  . . . . d . d . . . .
     1  + . . . d K d . . . +
        a b c d e f g h i j k";

#[test]
fn edge_fort_the_king_safe_on_the_edge_behind_defenders_wins() {
    let position = board(FORT, &Variant::copenhagen(), Side::Defenders);
    assert_eq!(position.outcome(), None, "{}", show(&position));
    let (_, outcome) = play(&position, "i4-f4");
    assert_eq!(outcome, win(Side::Defenders, WinReason::EdgeFort));
}

#[test]
fn edge_fort_a_wall_piece_open_on_three_sides_can_be_broken() {
    let position = board(FORT, &Variant::copenhagen(), Side::Defenders);
    let (_, outcome) = play(&position, "i4-i5");
    assert_eq!(outcome, None, "f3 is open on e3, g3 and f4");
    // And without the edge-fort rule (Fetlar) the finished fort is no win either.
    let position = board(FORT, &Variant::fetlar(), Side::Defenders);
    let (_, outcome) = play(&position, "i4-f4");
    assert_eq!(outcome, None);
}

// ---------------------------------------------------------------------------------------------
// Encirclement ("surrounding fatal", `surf:y`)

const RING: &str = "
    7  . . . . . . a
    6  . . a . a . .
    5  . a . . . a .
    4  . a d K d a .
    3  . a . . . a .
    2  . . a a a . .
    1  . . . . . . .
       a b c d e f g";

#[test]
fn encircled_defenders_lose_when_the_ring_closes() {
    let ring = rules("dim:7 name:Ring esc:e surf:y cor: start:/7/7/7/3K3/7/7/7/");
    let position = board(RING, &ring, Side::Attackers);
    assert_eq!(position.outcome(), None, "d6 and d7 lead out");
    let (_, outcome) = play(&position, "g7-d7");
    assert_eq!(outcome, win(Side::Attackers, WinReason::Encircled));
    // The record marks no king capture (`++` is OpenTafl's "king captured, game ends"): the
    // king still stands; how the game ended is the record's result and termination.
    let full = tafl_engine::notation::FullMove::describe(&position, mv("g7-d7"));
    assert_eq!(full.marker, None);
    assert_eq!(full.to_string(), "tg7-d7");
    // Without `surrounding fatal` the game goes on.
    let open = rules("dim:7 name:Ring esc:e surf:n cor: start:/7/7/7/3K3/7/7/7/");
    let (_, outcome) = play(&board(RING, &open, Side::Attackers), "g7-d7");
    assert_eq!(outcome, None);
}

// ---------------------------------------------------------------------------------------------
// King strength (`ks`): strong, weak, middleweight; corners hostile to the king

const EDGE_KING: &str = "
    7  + . . . . . +
    6  . . . . . . .
    5  . . . . . . .
    4  . . . # . . .
    3  . . . a . . .
    2  . . . . . . .
    1  + . a K a . +
       a b c d e f g";

#[test]
fn middleweight_king_is_taken_on_the_edge_by_three() {
    let position = board(EDGE_KING, &Variant::magpie(), Side::Attackers);
    let (captured, outcome) = play(&position, "d3-d2");
    assert_eq!(captured, squares("d1"), "{}", show(&position));
    assert_eq!(outcome, win(Side::Attackers, WinReason::KingCaptured));
}

#[test]
fn strong_king_is_never_taken_on_the_edge() {
    let strong = rules("dim:7 name:Strong atkf:y surf:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    // A defender with room to move, or the defenders could not move at all (C9).
    let with_room = EDGE_KING.replacen("5  . . . . . . .", "5  . . . . . d .", 1);
    let position = board(&with_room, &strong, Side::Attackers);
    let (captured, outcome) = play(&position, "d3-d2");
    assert!(captured.is_empty());
    assert_eq!(outcome, None);
}

#[test]
fn weak_king_is_taken_against_a_hostile_corner() {
    let position = board(
        "
    7  + . . . . . +
    6  . . . . . . .
    5  . . . . . . .
    4  . . . # . . .
    3  . . . . . . a
    2  K . . . . . .
    1  + . . . . . +
       a b c d e f g",
        &Variant::brandub(),
        Side::Attackers,
    );
    // a1, a corner, is hostile to the defenders: one attacker on a3 takes the king on a2.
    let (captured, outcome) = play(&position, "g3-a3");
    assert_eq!(captured, squares("a2"), "{}", show(&position));
    assert_eq!(outcome, win(Side::Attackers, WinReason::KingCaptured));
}

// ---------------------------------------------------------------------------------------------
// Speed limits (`spd`): Magpie's king moves one square

const SLOW_KING: &str = "
    7  + . . . . . +
    6  . . . . . . .
    5  . . . . . . .
    4  . a . # . . .
    3  . . . K . . .
    2  . . . . . . .
    1  + . . . . . +
       a b c d e f g";

#[test]
fn speed_limit_the_magpie_king_moves_one_square() {
    let position = board(SLOW_KING, &Variant::magpie(), Side::Defenders);
    let mut destinations: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|m| m.to().to_string())
        .collect();
    destinations.sort();
    // d4 is the throne: the king may stop there (cens defaults to K).
    assert_eq!(
        destinations,
        ["c3", "d2", "d4", "e3"],
        "{}",
        show(&position)
    );
    assert_eq!(
        position.check_move(mv("d3-d1")),
        Err(IllegalMoveError::TooFar(1))
    );
    // The soldiers have no limit.
    let attackers = board(SLOW_KING, &Variant::magpie(), Side::Attackers);
    assert!(attackers.is_legal(mv("b4-b7")));
}

// ---------------------------------------------------------------------------------------------
// Forts and re-entry (Foteviken Tablut: `afor`, `aforre:`, `cenre:`)

#[test]
fn forts_a_piece_that_leaves_one_may_not_go_back_and_defenders_never_enter() {
    let mut game = Game::new(&Variant::foteviken_tablut());
    game.play(mv("e2-c2")).unwrap();
    assert_eq!(
        game.position().check_move(mv("e3-e2")),
        Err(IllegalMoveError::Restricted(sq("e2")))
    );
    game.play(mv("c5-c3")).unwrap();
    assert_eq!(
        game.position().check_move(mv("c2-e2")),
        Err(IllegalMoveError::Restricted(sq("e2")))
    );
    // Within a fort a piece that starts there may move: a5 and b5 are one fort's squares.
    let inside = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  a + . . K . . + +
    4  + . . . . . . . +
    3  . . . . . . . . .
    2  . . . . + . . . .
    1  . . . + + + . . .
       a b c d e f g h i",
        &Variant::foteviken_tablut(),
        Side::Attackers,
    );
    assert!(inside.is_legal(mv("a5-b5")), "{}", show(&inside));
    assert!(inside.is_legal(mv("a5-a4")));
    assert!(inside.is_legal(mv("a5-a3")), "a4 is passed within the fort");
}

#[test]
fn throne_no_piece_passes_the_empty_throne_without_re_entry() {
    let position = board(
        "
    9  . . . + + + . . .
    8  . . . . + . . . .
    7  . . . . . . . . .
    6  + . . . . . . . +
    5  + + . d # . . + +
    4  + . . . K . . . +
    3  . . . . . . . . .
    2  . . . . + . . . .
    1  . . . + + + . . .
       a b c d e f g h i",
        &Variant::foteviken_tablut(),
        Side::Defenders,
    );
    assert!(!position.is_legal(mv("d5-f5")), "{}", show(&position));
    assert!(!position.is_legal(mv("e4-e5")), "the king may not go back");
    // Under the classic rules the empty castle may be passed (R7).
    let classic = position_from_diagram_with_rules(
        "
    9  . . . . . . . . .
    8  . . . . . . . . .
    7  . . . . . . . . .
    6  . . . . . . . . .
    5  . . . d # . . . .
    4  . . . . K . . . .
    3  . . . . . . . . .
    2  . . . . . . . . .
    1  . . . . . . . . .
       a b c d e f g h i",
        Rules::TABLUT,
        Side::Defenders,
    );
    assert!(classic.is_legal(mv("d5-f5")));
}

// ---------------------------------------------------------------------------------------------
// Corner escape, no legal move, immobile defenders, no pieces

#[test]
fn corner_escape_the_king_wins_on_a_corner_only() {
    let position = board(
        "
    7  + . . . . . +
    6  . . . . . . .
    5  . . . . . . .
    4  . . . # . . .
    3  a . . . . . .
    2  . . . . . . .
    1  + K . . . . +
       a b c d e f g",
        &Variant::brandub(),
        Side::Defenders,
    );
    assert_eq!(
        position.outcome(),
        None,
        "b1 is an edge square, not an escape"
    );
    let (_, outcome) = play(&position, "b1-a1");
    assert_eq!(outcome, win(Side::Defenders, WinReason::KingEscaped));
}

#[test]
fn a_side_without_a_legal_move_loses_under_custom_rules() {
    let position = board(
        "
    7  + . . . . . +
    6  . . . . . . .
    5  . . . . . . .
    4  . . . # . . .
    3  d . . K . . .
    2  a d . . . . .
    1  + . . . . . +
       a b c d e f g",
        &Variant::brandub(),
        Side::Attackers,
    );
    assert_eq!(position.legal_moves().len(), 0, "{}", show(&position));
    assert_eq!(
        position.outcome(),
        win(Side::Defenders, WinReason::NoLegalMoves)
    );
    // Under the classic rules it is a draw (R17).
    let classic = position_from_diagram_with_rules(
        "
    7  . . . . . . .
    6  . . . . . . .
    5  . . . . . . .
    4  . . . # . . .
    3  d . . K . . .
    2  a d . . . . .
    1  d . . . . . .
       a b c d e f g",
        common::diagram::rules_for_size(7),
        Side::Attackers,
    );
    assert!(matches!(classic.outcome(), Some(Outcome::Draw(_))));
}

#[test]
fn defenders_that_cannot_move_at_all_lose() {
    let position = board(
        "
    7  + . . . . . +
    6  . . . . . . .
    5  . . . . . . .
    4  . . . # . . .
    3  . a . . . . .
    2  a K a . . . .
    1  + a . . . . +
       a b c d e f g",
        &Variant::brandub(),
        Side::Defenders,
    );
    assert_eq!(
        position.outcome(),
        win(Side::Attackers, WinReason::DefendersImmobile)
    );
}

#[test]
fn capturing_every_attacker_wins_for_the_defenders() {
    let position = board(
        "
    7  + . . . . . +
    6  . . . . . . .
    5  . K . . . . .
    4  . . . # . . .
    3  . . . . d . .
    2  . . . . . . .
    1  + . d a . . +
       a b c d e f g",
        &Variant::brandub(),
        Side::Defenders,
    );
    assert_eq!(position.outcome(), None);
    let (captured, outcome) = play(&position, "e3-e1");
    assert_eq!(captured, squares("d1"));
    assert_eq!(outcome, win(Side::Defenders, WinReason::AllPiecesCaptured));
}

// ---------------------------------------------------------------------------------------------
// Repetition (`tfr`): Copenhagen's third occurrence loses for the side that makes it

#[test]
fn copenhagen_third_repetition_loses_for_the_side_that_makes_it() {
    let mut game = Game::new(&Variant::copenhagen());
    let shuffle = ["d1-d3", "f4-c4", "d3-d1", "c4-f4"];
    for (index, m) in shuffle.iter().cycle().take(8).enumerate() {
        assert_eq!(game.outcome(), None, "before move {index}");
        game.play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    // The start position has occurred a third time, by the defenders' move.
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Side::Attackers,
            reason: WinReason::Repetition
        })
    );
    // OpenTafl's own Tablut draws instead, and this project's Tablut at the first repetition.
    let mut tablut = Game::new(&Variant::tablut());
    for m in ["d1-d3", "c5-c4", "d3-d1", "c4-c5"] {
        tablut.play(mv(m)).unwrap();
    }
    assert!(matches!(tablut.outcome(), Some(Outcome::Draw(_))));
}

#[test]
fn every_named_game_starts_with_the_perft_opentafl_counts() {
    // Depth 2 of each start (the fixture test has all the counts).
    let expected = [
        ("sea-battle", 4400),
        ("fetlar", 6788),
        ("brandub", 960),
        ("opentafl-tawlbwrdd", 7620),
        ("opentafl-tablut", 4400),
        ("magpie", 960),
    ];
    for (name, count) in expected {
        let variant = Variant::by_name(name).unwrap();
        assert_eq!(perft::perft(&variant.start(), 2), count, "{name}");
    }
}
