//! The clauses of docs/rules.md (R1-R18, P1), case by case.
//!
//! Most clauses are pinned down by cases of one form ([`common::cases`]): the clause, a few words
//! saying what the case shows, and boards drawn as docs/rules.md draws them (rank 1 at the bottom,
//! `a` attacker, `d` defender, `K` king, `#` the empty castle, `.` an empty square). A case with a
//! move shows the board before it and the board after it side by side, the side that moves and
//! the move, what it captures (nothing unless stated) and how the game then stands (going on
//! unless stated); a case without one shows a board and what may or may not be played there.
//! `every_case_holds` plays them all and lists every case that fails, by clause and name.
//!
//! The clauses about whole games (repetition, agreement) and perft are ordinary tests below the
//! tables.

use crate::common;

use common::cases::{Case, case, run};
use common::diagram::{mv, position_from_diagram, position_from_diagram_with_rules, show, sq};
use tafl_engine::IllegalMoveError::{
    Blocked, Castle, GameOver, NotStraight, NotYourPiece, OffBoard,
};
use tafl_engine::Side::{Attackers, Defenders};
use tafl_engine::{
    DrawReason, Game, Outcome, PlayError, Position, RepetitionRule, RuleFlags, Rules, Side,
    Variant, WinReason, notation, perft,
};

const KING_CAPTURED: Outcome = Outcome::Win {
    winner: Side::Attackers,
    reason: WinReason::KingCaptured,
};
const KING_ESCAPED: Outcome = Outcome::Win {
    winner: Side::Defenders,
    reason: WinReason::KingEscaped,
};
const NO_LEGAL_MOVES: Outcome = Outcome::Draw(DrawReason::NoLegalMoves);
/// Where a case takes the last attacker, the attackers have no move left: a draw (R17).
const LAST_ATTACKER_TAKEN: Outcome = NO_LEGAL_MOVES;

/// Tablut's start (R1), as docs/rules.md draws it.
const TABLUT_START: &str = "
    9  . . . a a a . . .
    8  . . . . a . . . .
    7  . . . . d . . . .
    6  a . . . d . . . a
    5  a a d d K d d a a
    4  a . . . d . . . a
    3  . . . . d . . . .
    2  . . . . a . . . .
    1  . . . a a a . . .
       a b c d e f g h i
    ";

/// The rules of docs/rules.md on 9x9 less `flags`: the rule choices of other tafl games, which
/// the engine plays from a rules string. Each flag changes exactly the rule it names.
fn standard_without(flags: RuleFlags) -> Rules {
    Rules::new(
        9,
        RuleFlags::STANDARD - flags,
        RepetitionRule::SecondOccurrenceDraws,
    )
    .expect("9x9 with fewer of the standard flags is a valid board")
}

#[test]
fn every_case_holds() {
    run(&[
        moving(),
        capturing_soldiers(),
        capturing_the_king_and_winning(),
        drawing(),
    ]
    .concat());
}

// ---------------------------------------------------------------------------------------------
// Squares, turns and moving (R2a, R4-R7)

#[rustfmt::skip] // a table of cases, laid out to be read
fn moving() -> Vec<Case> {
    vec![
        case("R2a", "pieces on a diagonal are not neighbours and do not capture")
            .play(Attackers, "e1-e3")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . a . # . . . .    . . a . # . . . .
                4  . . . d . . . . .    . . . d . . . . .
                3  . . . . . . . . .    . . . . a . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . a . . . .    . . . . . . . . .
            "),
        case("R4", "the attackers open the game and may not move twice")
            .refuses("e3-h3", NotYourPiece { square: sq("e3"), side: Attackers })
            .play(Attackers, "e2-h2")
            .then_refuses("h2-h3", NotYourPiece { square: sq("h2"), side: Defenders })
            .board("
                9  . . . a a a . . .    . . . a a a . . .
                8  . . . . a . . . .    . . . . a . . . .
                7  . . . . d . . . .    . . . . d . . . .
                6  a . . . d . . . a    a . . . d . . . a
                5  a a d d K d d a a    a a d d K d d a a
                4  a . . . d . . . a    a . . . d . . . a
                3  . . . . d . . . .    . . . . d . . . .
                2  . . . . a . . . .    . . . . . . . a .
                1  . . . a a a . . .    . . . a a a . . .
            "),
        case("R4", "then the defenders move, then the attackers")
            .play(Defenders, "e3-h3")
            .board("
                9  . . . a a a . . .    . . . a a a . . .
                8  . . . . a . . . .    . . . . a . . . .
                7  . . . . d . . . .    . . . . d . . . .
                6  a . . . d . . . a    a . . . d . . . a
                5  a a d d K d d a a    a a d d K d d a a
                4  a . . . d . . . a    a . . . d . . . a
                3  . . . . d . . . .    . . . . . . . d .
                2  . . . . . . . a .    . . . . . . . a .
                1  . . . a a a . . .    . . . a a a . . .
            "),
        // Up to the attacker on c7, down to the edge, left to the edge, right to the defender
        // on f3.
        case("R5", "pieces move like rooks and cannot jump")
            .side_to_move(Defenders)
            .board("
                9  . . . . . . . . .
                8  . . . . . . . . .
                7  . . a . . . . . .
                6  . . . . . . . . .
                5  . . . . # . K . .
                4  . . . . . . . . .
                3  . . d . . d . . .
                2  . . . . . . . . .
                1  . . . . . . . . .
                   a b c d e f g h i
            ")
            .moves_from("c3", "c4 c5 c6 c2 c1 b3 a3 d3 e3")
            .refuses("c3-c8", Blocked(sq("c7")))
            .refuses("c3-c7", Blocked(sq("c7")))
            .refuses("c3-g3", Blocked(sq("f3")))
            .refuses("c3-d4", NotStraight(mv("c3-d4")))
            .refuses("c3-c3", NotStraight(mv("c3-c3"))),
        case("R5", "the king moves like a rook too")
            .side_to_move(Defenders)
            .board("
                9  . . . . . . . . .
                8  . . . . . . . . .
                7  . . . . . . . . .
                6  . . . . . . d . .
                5  . . . . # . . . .
                4  . . . . . . . . .
                3  . . . . . . K . a
                2  . . . . . . . . .
                1  . . . . . . . . .
                   a b c d e f g h i
            ")
            .moves_from("g3", "g4 g5 g2 g1 h3 f3 e3 d3 c3 b3 a3"),
        case("R5", "squares off a small board are refused")
            .side_to_move(Attackers)
            .board(TABLUT_START)
            .refuses("a4-j4", OffBoard(sq("j4"))),
        // The empty castle stops no one passing over it (R7), but no soldier ends there.
        case("R6", "no defending soldier may stop on the castle")
            .side_to_move(Defenders)
            .board("
                9  . . . . . . . . .
                8  . . . . . . . . .
                7  . . . . . . K . .
                6  . . . . . . . . .
                5  a . . . # . . . .
                4  . . . . . . . . .
                3  . . . . d . . . .
                2  . . . . . . . . .
                1  . . . . . . . . .
                   a b c d e f g h i
            ")
            .refuses("e3-e5", Castle(sq("e5")))
            .moves_from("e3", "e4 e6 e7 e8 e9 e2 e1 a3 b3 c3 d3 f3 g3 h3 i3")
            .moves_onto("e5", ""),
        case("R6", "no attacking soldier may stop on the castle")
            .side_to_move(Attackers)
            .board("
                9  . . . . . . . . .
                8  . . . . . . . . .
                7  . . . . . . K . .
                6  . . . . . . . . .
                5  a . . . # . . . .
                4  . . . . . . . . .
                3  . . . . d . . . .
                2  . . . . . . . . .
                1  . . . . . . . . .
                   a b c d e f g h i
            ")
            .refuses("a5-e5", Castle(sq("e5")))
            .moves_from("a5", "b5 c5 d5 f5 g5 h5 i5 a6 a7 a8 a9 a4 a3 a2 a1")
            .moves_onto("e5", ""),
        // He may still pass over it (R7).
        case("R6", "the king may not return to the castle")
            .side_to_move(Defenders)
            .board("
                9  . . . . . . . . .
                8  . . . . . . . . .
                7  . . . . . . . . .
                6  . . . . K . . . .
                5  . . . . # . . . .
                4  . . . . . . . . .
                3  . . . . . . . . .
                2  . . . . . . . . .
                1  . . . . a . . . .
                   a b c d e f g h i
            ")
            .refuses("e6-e5", Castle(sq("e5")))
            .moves_from("e6", "e7 e8 e9 e4 e3 e2 a6 b6 c6 d6 f6 g6 h6 i6"),
        case("R6", "the king may leave the castle")
            .side_to_move(Defenders)
            .board("
                9  . . . . . . . . .
                8  . . . . . . . . .
                7  . . . . . . . . .
                6  . . . . . . . . .
                5  . . . . K . . . .
                4  . . . . . . . . .
                3  . . . . . . . . .
                2  . . . . . . . . .
                1  a . . . . . . . .
                   a b c d e f g h i
            ")
            .moves_from("e5", "e6 e7 e8 e9 e4 e3 e2 e1 a5 b5 c5 d5 f5 g5 h5 i5"),
        case("R7", "an attacker passes over the empty castle")
            .play(Attackers, "e2-e8")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . a . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . K . # . . . .    . . K . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . a . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R7", "the king passes over the empty castle")
            .play(Defenders, "c5-g5")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . K . # . . . .    . . . . # . K . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . a . . . .    . . . . a . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R7", "no defender passes over the occupied castle")
            .side_to_move(Defenders)
            .board("
                9  . . . . . . . . .
                8  . . . . . . . . .
                7  . . . . . . . . .
                6  . . . . . . . . .
                5  a . . . K . . . .
                4  . . . . . . . . .
                3  . . . . d . . . .
                2  . . . . . . . . .
                1  . . . . . . . . .
                   a b c d e f g h i
            ")
            .refuses("e3-e7", Blocked(sq("e5")))
            .moves_from("e3", "e4 e2 e1 a3 b3 c3 d3 f3 g3 h3 i3"),
        case("R7", "no attacker passes over the occupied castle")
            .side_to_move(Attackers)
            .board("
                9  . . . . . . . . .
                8  . . . . . . . . .
                7  . . . . . . . . .
                6  . . . . . . . . .
                5  a . . . K . . . .
                4  . . . . . . . . .
                3  . . . . d . . . .
                2  . . . . . . . . .
                1  . . . . . . . . .
                   a b c d e f g h i
            ")
            .refuses("a5-i5", Blocked(sq("e5")))
            .moves_from("a5", "b5 c5 d5 a6 a7 a8 a9 a4 a3 a2 a1"),
    ]
}

// ---------------------------------------------------------------------------------------------
// Capturing soldiers (R8-R12)

// Boards that cases of R9 and R10 share, played under different rules.

/// The king closes on e3 from f7: the attacker there stands between him and the defender on d3.
const KING_AS_HAMMER: &str = "
    9  . . . . . . . . .    . . . . . . . . .
    8  . . . . . . . . .    . . . . . . . . .
    7  . . . . . K . . .    . . . . . . . . .
    6  . . . . . . . . .    . . . . . . . . .
    5  . . . . # . . . .    . . . . # . . . .
    4  . . . . . . . . .    . . . . . . . . .
    3  . . . d a . . . .    . . . d . K . . .
    2  . . . . . . . . .    . . . . . . . . .
    1  . . . . . . . . .    . . . . . . . . .
    ";
/// [`KING_AS_HAMMER`] under rules where the king is no hammer: the attacker stays.
const KING_AS_NO_HAMMER: &str = "
    9  . . . . . . . . .    . . . . . . . . .
    8  . . . . . . . . .    . . . . . . . . .
    7  . . . . . K . . .    . . . . . . . . .
    6  . . . . . . . . .    . . . . . . . . .
    5  . . . . # . . . .    . . . . # . . . .
    4  . . . . . . . . .    . . . . . . . . .
    3  . . . d a . . . .    . . . d a K . . .
    2  . . . . . . . . .    . . . . . . . . .
    1  . . . . . . . . .    . . . . . . . . .
    ";
/// A defender closes on d3 from e1: the attacker there stands between it and the king.
const KING_AS_ANVIL: &str = "
    9  . . . . . . . . .    . . . . . . . . .
    8  . . . . . . . . .    . . . . . . . . .
    7  . . . . . . . . .    . . . . . . . . .
    6  . . . . . . . . .    . . . . . . . . .
    5  . . . . # . . . .    . . . . # . . . .
    4  . . . . . . . . .    . . . . . . . . .
    3  . . K a . . . . .    . . K . d . . . .
    2  . . . . . . . . .    . . . . . . . . .
    1  . . . . d . . . .    . . . . . . . . .
    ";
/// [`KING_AS_ANVIL`] under rules where the king is no anvil: the attacker stays.
const KING_AS_NO_ANVIL: &str = "
    9  . . . . . . . . .    . . . . . . . . .
    8  . . . . . . . . .    . . . . . . . . .
    7  . . . . . . . . .    . . . . . . . . .
    6  . . . . . . . . .    . . . . . . . . .
    5  . . . . # . . . .    . . . . # . . . .
    4  . . . . . . . . .    . . . . . . . . .
    3  . . K a . . . . .    . . K a d . . . .
    2  . . . . . . . . .    . . . . . . . . .
    1  . . . . d . . . .    . . . . . . . . .
    ";
/// An attacker lands on c5, next to the defender on d5 with the empty castle behind it.
const ATTACKER_TO_C5: &str = "
    9  . . . . . . . . .    . . . . . . . . .
    8  . . . . . . . . .    . . . . . . . . .
    7  . . . . . . K . .    . . . . . . K . .
    6  . . . . . . . . .    . . . . . . . . .
    5  . . . d # a . . .    . . a . # a . . .
    4  . . . . . . . . .    . . . . . . . . .
    3  . . . . . . . . .    . . . . . . . . .
    2  . . . . . . . . .    . . . . . . . . .
    1  . . a . . . d . .    . . . . . . d . .
    ";
/// [`ATTACKER_TO_C5`] where the castle is not hostile to defenders: d5 stays.
const ATTACKER_TO_C5_TAKING_NOTHING: &str = "
    9  . . . . . . . . .    . . . . . . . . .
    8  . . . . . . . . .    . . . . . . . . .
    7  . . . . . . K . .    . . . . . . K . .
    6  . . . . . . . . .    . . . . . . . . .
    5  . . . d # a . . .    . . a d # a . . .
    4  . . . . . . . . .    . . . . . . . . .
    3  . . . . . . . . .    . . . . . . . . .
    2  . . . . . . . . .    . . . . . . . . .
    1  . . a . . . d . .    . . . . . . d . .
    ";
/// A defender lands on g5, next to the attacker on f5 with the empty castle behind it.
const DEFENDER_TO_G5: &str = "
    9  . . . . . . . . .    . . . . . . . . .
    8  . . . . . . . . .    . . . . . . . . .
    7  . . . . . . K . .    . . . . . . K . .
    6  . . . . . . . . .    . . . . . . . . .
    5  . . . d # a . . .    . . . d # . d . .
    4  . . . . . . . . .    . . . . . . . . .
    3  . . . . . . . . .    . . . . . . . . .
    2  . . . . . . . . .    . . . . . . . . .
    1  . . a . . . d . .    . . a . . . . . .
    ";
/// [`DEFENDER_TO_G5`] where the castle is not hostile to attackers: f5 stays.
const DEFENDER_TO_G5_TAKING_NOTHING: &str = "
    9  . . . . . . . . .    . . . . . . . . .
    8  . . . . . . . . .    . . . . . . . . .
    7  . . . . . . K . .    . . . . . . K . .
    6  . . . . . . . . .    . . . . . . . . .
    5  . . . d # a . . .    . . . d # a d . .
    4  . . . . . . . . .    . . . . . . . . .
    3  . . . . . . . . .    . . . . . . . . .
    2  . . . . . . . . .    . . . . . . . . .
    1  . . a . . . d . .    . . a . . . . . .
    ";

#[rustfmt::skip] // a table of cases, laid out to be read
fn capturing_soldiers() -> Vec<Case> {
    vec![
        case("R8", "an attacker may move between two defenders")
            .play(Attackers, "d1-d3")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . d . d . . . .    . . d a d . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . a . . . . .    . . . . . . . . .
            "),
        case("R8", "a defender may move between two attackers")
            .play(Defenders, "d1-d3")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . a . a . . . .    . . a d a . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . d . . . . .    . . . . . . . . .
            "),
        // The defender on d3 stands between two attackers (set up so), and stays there whatever
        // either side does elsewhere.
        case("R8", "a move elsewhere by the defenders captures nothing")
            .play(Defenders, "g7-g8")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . K . .
                7  . . . . . . K . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . a d a . . . .    . . a d a . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . a    . . . . . . . . a
            "),
        case("R8", "a move elsewhere by the attackers captures nothing")
            .play(Attackers, "i1-i2")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . a d a . . . .    . . a d a . . . .
                2  . . . . . . . . .    . . . . . . . . a
                1  . . . . . . . . a    . . . . . . . . .
            "),
        case("R8", "passing next to an enemy captures nothing")
            .play(Attackers, "a4-g4")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . a . . . . . .    . . a . . . . . .
                5  . . d . # . . . .    . . d . # . . . .
                4  a . . . . . . . .    . . . . . . a . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R8", "stopping next to it captures")
            .play(Attackers, "a4-c4")
            .captures("c5")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . a . . . . . .    . . a . . . . . .
                5  . . d . # . . . .    . . . . # . . . .
                4  a . . . . . . . .    . . a . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R9", "a defender between the attacker that moves and another is captured")
            .play(Attackers, "d1-d3")
            .captures("c3")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . a d . . . . . .    . a . a . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . a . . . . .    . . . . . . . . .
            "),
        case("R9", "an attacker between the defender that moves and another is captured")
            .play(Defenders, "g1-g4")
            .captures("g5")
            .ends(LAST_ATTACKER_TAKEN)
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . d . .    . . . . . . d . .
                5  . . . . # . a . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . d . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . d . .    . . . . . . . . .
            "),
        case("R9", "the king is a hammer")
            .play(Defenders, "f7-f3")
            .captures("e3")
            .ends(LAST_ATTACKER_TAKEN)
            .board(KING_AS_HAMMER),
        case("R9", "the king is an anvil")
            .play(Defenders, "e1-e3")
            .captures("d3")
            .ends(LAST_ATTACKER_TAKEN)
            .board(KING_AS_ANVIL),
        // Nothing lies beyond a4.
        case("R9", "the edge behind a defender is not hostile")
            .play(Attackers, "b1-b4")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  d . . . . . . . .    d a . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . a . . . . . . .    . . . . . . . . .
            "),
        // Nothing lies below d1.
        case("R9", "the edge behind an attacker is not hostile")
            .play(Defenders, "h2-d2")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . d .    . . . d . . . . .
                1  . . . a . . . . .    . . . a . . . . .
            "),
        // Rules strings can disarm the king (RuleFlags::KING_HAMMER, KING_ANVIL): each flag
        // takes away exactly its half. (The standard flags are the cases above: the rules
        // `standard_without(RuleFlags::empty())` are Tablut's: see
        // r1_tablut_is_9x9_and_tawlbwrdd_11x11_with_the_castle_in_the_centre.)
        case("R9", "a king that is no hammer captures nothing")
            .under(standard_without(RuleFlags::KING_HAMMER))
            .play(Defenders, "f7-f3")
            .board(KING_AS_NO_HAMMER),
        case("R9", "a king that is no hammer is still an anvil")
            .under(standard_without(RuleFlags::KING_HAMMER))
            .play(Defenders, "e1-e3")
            .captures("d3")
            .ends(LAST_ATTACKER_TAKEN)
            .board(KING_AS_ANVIL),
        case("R9", "a king that is no anvil is still a hammer")
            .under(standard_without(RuleFlags::KING_ANVIL))
            .play(Defenders, "f7-f3")
            .captures("e3")
            .ends(LAST_ATTACKER_TAKEN)
            .board(KING_AS_HAMMER),
        case("R9", "a king that is no anvil helps capture nothing")
            .under(standard_without(RuleFlags::KING_ANVIL))
            .play(Defenders, "e1-e3")
            .board(KING_AS_NO_ANVIL),
        case("R9", "an unarmed king is no hammer")
            .under(standard_without(RuleFlags::KING_HAMMER | RuleFlags::KING_ANVIL))
            .play(Defenders, "f7-f3")
            .board(KING_AS_NO_HAMMER),
        case("R9", "an unarmed king is no anvil")
            .under(standard_without(RuleFlags::KING_HAMMER | RuleFlags::KING_ANVIL))
            .play(Defenders, "e1-e3")
            .board(KING_AS_NO_ANVIL),
        case("R10", "the empty castle is hostile to defenders")
            .play(Attackers, "c1-c5")
            .captures("d5")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . d # . . . .    . . a . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . a . . . . . .    . . . . . . . . .
            "),
        case("R10", "the empty castle is hostile to attackers too")
            .play(Defenders, "g1-g5")
            .captures("f5")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # a . . .    . . . . # . d . .
                4  . . . . a . . . .    . . . . a . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . d . d . .    . . . . d . . . .
            "),
        case("R10", "the empty castle is hostile to an attacker below it")
            .play(Defenders, "e1-e3")
            .captures("e4")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # a . . .    . . . . # a . . .
                4  . . . . a . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . d . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . d . d . .    . . . . . . d . .
            "),
        case("R10", "the empty castle is hostile on the 11x11 board")
            .play(Attackers, "b8-f8")
            .captures("f7")
            .board("
                11  . . . . . . . . . . .    . . . . . . . . . . .
                10  . . . . . . . . . . .    . . . . . . . . . . .
                 9  . . . . . . . . K . .    . . . . . . . . K . .
                 8  . a . . . . . . . . .    . . . . . a . . . . .
                 7  . . . . . d . . . . .    . . . . . . . . . . .
                 6  . . . . . # . . . . .    . . . . . # . . . . .
                 5  . . . . . . . . . . .    . . . . . . . . . . .
                 4  . . . . . . . . . . .    . . . . . . . . . . .
                 3  . . . . . . . . . . .    . . . . . . . . . . .
                 2  . . . . . . . . . . .    . . . . . . . . . . .
                 1  . . . . . . . . . . .    . . . . . . . . . . .
            "),
        case("R10", "the occupied castle is not hostile")
            .play(Attackers, "c1-c5")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . d K . . . .    . . a d K . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . a . . . . . .    . . . . . . . . .
            "),
        case("R10", "the king on the castle still captures as an anvil")
            .play(Defenders, "c1-c5")
            .captures("d5")
            .ends(LAST_ATTACKER_TAKEN)
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . a K . . . .    . . d . K . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . d . . . . . .    . . . . . . . . .
            "),
        // Rules strings can make the empty castle hostile to one side only
        // (RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS, ..._TO_ATTACKERS): an attacker lands on
        // c5 next to the defender on d5, or a defender on g5 next to the attacker on f5, and
        // each is captured only where the castle is hostile to its side.
        case("R10", "a defender against the castle hostile to both sides")
            .play(Attackers, "c1-c5")
            .captures("d5")
            .board(ATTACKER_TO_C5),
        case("R10", "an attacker against the castle hostile to both sides")
            .play(Defenders, "g1-g5")
            .captures("f5")
            .board(DEFENDER_TO_G5),
        case("R10", "a defender against the castle hostile to attackers only")
            .under(standard_without(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS))
            .play(Attackers, "c1-c5")
            .board(ATTACKER_TO_C5_TAKING_NOTHING),
        case("R10", "an attacker against the castle hostile to attackers only")
            .under(standard_without(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_DEFENDERS))
            .play(Defenders, "g1-g5")
            .captures("f5")
            .board(DEFENDER_TO_G5),
        case("R10", "a defender against the castle hostile to defenders only")
            .under(standard_without(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS))
            .play(Attackers, "c1-c5")
            .captures("d5")
            .board(ATTACKER_TO_C5),
        case("R10", "an attacker against the castle hostile to defenders only")
            .under(standard_without(RuleFlags::EMPTY_CASTLE_HOSTILE_TO_ATTACKERS))
            .play(Defenders, "g1-g5")
            .board(DEFENDER_TO_G5_TAKING_NOTHING),
        case("R11", "one move captures three soldiers")
            .play(Attackers, "e4-e3")
            .captures("d3 f3 e2")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . a . . . .    . . . . . . . . .
                3  . . a d . d a . .    . . a . a . a . .
                2  . . . . d . . . .    . . . . . . . . .
                1  . . . . a . . . .    . . . . a . . . .
            "),
        case("R11", "one move captures against pieces and the empty castle together")
            .play(Attackers, "a5-c5")
            .captures("c6 d5 c4")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . a . . . K . .    . . a . . . K . .
                6  . . d . . . . . .    . . . . . . . . .
                5  a . . d # . . . .    . . a . # . . . .
                4  . . d . . . . . .    . . . . . . . . .
                3  . . a . . . . . .    . . a . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        // Three attackers stand next to e3. d3 has a defender behind it, e4 the empty castle:
        // both go. f3 has a friend behind it: it stays. (Every case checks that `play` reports
        // exactly the pieces it removed, and that `captures_of` agrees.)
        case("R11", "each soldier next to the landing square is captured or not on its own")
            .play(Defenders, "e1-e3")
            .captures("d3 e4")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . a . . . .    . . . . . . . . .
                3  . . d a . a a . .    . . d . d a a . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . d . . . .    . . . . . . . . .
            "),
        case("R12", "the king is not captured against the empty castle by one attacker")
            .play(Attackers, "c1-c5")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . K # . . . .    . . a K # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . a . . . . . .    . . . . . . . . .
            "),
    ]
}

// ---------------------------------------------------------------------------------------------
// Capturing the king, and winning (R13-R15)

#[rustfmt::skip] // a table of cases, laid out to be read
fn capturing_the_king_and_winning() -> Vec<Case> {
    vec![
        case("R13", "the king on the castle is captured by four attackers")
            .play(Attackers, "e2-e4")
            .captures("e5")
            .ends(KING_CAPTURED)
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . . a . . . .    . . . . a . . . .
                5  . . . a K a . . .    . . . a # a . . .
                4  . . . . . . . . .    . . . . a . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . a . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R13", "the king on the castle is safe with a defender on the fourth side")
            .play(Attackers, "e2-e4")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . . d . . . .    . . . . d . . . .
                5  . . . a K a . . .    . . . a K a . . .
                4  . . . . . . . . .    . . . . a . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . a . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R13", "the king on the castle is safe with the fourth side empty")
            .play(Attackers, "e2-e4")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . a K a . . .    . . . a K a . . .
                4  . . . . . . . . .    . . . . a . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . a . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R13", "the king next to the castle is captured by three attackers")
            .play(Attackers, "d1-d4")
            .captures("d5")
            .ends(KING_CAPTURED)
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . a . . . . .    . . . a . . . . .
                5  . . a K # . . . .    . . a . # . . . .
                4  . . . . . . . . .    . . . a . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . a . . . . .    . . . . . . . . .
            "),
        case("R13", "the king below the castle is captured by three, the last from the side")
            .play(Attackers, "i4-f4")
            .captures("e4")
            .ends(KING_CAPTURED)
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . a K . . . a    . . . a . a . . .
                3  . . . . a . . . .    . . . . a . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R13", "the king next to the castle is safe between two attackers in line")
            .play(Attackers, "d1-d4")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . a . . . . .    . . . a . . . . .
                5  . . . K # . . . .    . . . K # . . . .
                4  . . . . . . . . .    . . . a . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . a . . . . .    . . . . . . . . .
            "),
        case("R13", "the king next to the castle is safe with a defender on the third side")
            .play(Attackers, "d1-d4")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . . .    . . . . . . . . .
                6  . . . a . . . . .    . . . a . . . . .
                5  . . d K # . . . .    . . d K # . . . .
                4  . . . . . . . . .    . . . a . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . a . . . . .    . . . . . . . . .
            "),
        case("R13", "the king next to the castle needs three attackers on the 11x11 board")
            .play(Attackers, "k7-g7")
            .captures("f7")
            .ends(KING_CAPTURED)
            .board("
                11  . . . . . . . . . . .    . . . . . . . . . . .
                10  . . . . . . . . . . .    . . . . . . . . . . .
                 9  . . . . . . . . . . .    . . . . . . . . . . .
                 8  . . . . . a . . . . .    . . . . . a . . . . .
                 7  . . . . a K . . . . a    . . . . a . a . . . .
                 6  . . . . . # . . . . .    . . . . . # . . . . .
                 5  . . . . . . . . . . .    . . . . . . . . . . .
                 4  . . . . . . . . . . .    . . . . . . . . . . .
                 3  . . . . . . . . . . .    . . . . . . . . . . .
                 2  . . . . . . . . . . .    . . . . . . . . . . .
                 1  . . . . . . . . . . .    . . . . . . . . . . .
            "),
        case("R13", "the king elsewhere is captured by two attackers in line")
            .play(Attackers, "d1-d7")
            .captures("c7")
            .ends(KING_CAPTURED)
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . a K . . . . . .    . a . a . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . a . . . . .    . . . . . . . . .
            "),
        case("R13", "two attackers at right angles do not capture the king")
            .play(Attackers, "d1-d7")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . a . . . . . .    . . a . . . . . .
                7  . . K . . . . . .    . . K a . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . a . . . . .    . . . . . . . . .
            "),
        case("R13", "the king may move between two attackers")
            .play(Defenders, "c4-c7")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . a . a . . . . .    . a K a . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . K . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        // The king stands between b7 and d7 (he moved there, safely). An attacker closing in
        // from above is not in line with another attacker: the king lives.
        case("R13", "the moving attacker must be one of the two in line")
            .play(Attackers, "i8-c8")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . a    . . a . . . . . .
                7  . a K a . . . . .    . a K a . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R13", "a captured king wins the game for the attackers")
            .play(Attackers, "d1-d7")
            .captures("c7")
            .ends(KING_CAPTURED)
            .then_refuses("e3-e4", GameOver(KING_CAPTURED))
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . a K . . . . . .    . a . a . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . d . . . .    . . . . d . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . a . . . . .    . . . . . . . . .
            "),
        case("R14", "the king wins on the top edge")
            .play(Defenders, "c7-c9")
            .ends(KING_ESCAPED)
            .then_refuses("i1-i2", GameOver(KING_ESCAPED))
            .board("
                9  . . . . . . . . .    . . K . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . K . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . a    . . . . . . . . a
            "),
        case("R14", "the king wins on the left edge")
            .play(Defenders, "c7-a7")
            .ends(KING_ESCAPED)
            .then_refuses("i1-i2", GameOver(KING_ESCAPED))
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . K . . . . . .    K . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . a    . . . . . . . . a
            "),
        case("R14", "the king wins on the right edge")
            .play(Defenders, "c7-i7")
            .ends(KING_ESCAPED)
            .then_refuses("i1-i2", GameOver(KING_ESCAPED))
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . K . . . . . .    . . . . . . . . K
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . a    . . . . . . . . a
            "),
        case("R14", "the king wins on the bottom edge")
            .play(Defenders, "c7-c1")
            .ends(KING_ESCAPED)
            .then_refuses("i1-i2", GameOver(KING_ESCAPED))
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . K . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . a    . . K . . . . . a
            "),
        case("R14", "one step short of the edge is no escape")
            .play(Defenders, "c7-c8")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . K . . . . . .
                7  . . K . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . a    . . . . . . . . a
            "),
        case("R14", "the king escapes and captures on the same move")
            .play(Defenders, "c7-c9")
            .captures("b9 d9")
            .ends(KING_ESCAPED)
            .board("
                9  d a . a d . . . .    d . K . d . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . K . . . . . .    . . . . . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . a    . . . . . . . . a
            "),
        case("R14", "a defending soldier on the edge wins nothing")
            .play(Defenders, "d3-d1")
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . K . .    . . . . . . K . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . d . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . a    . . . d . . . . a
            "),
        case("R15", "one attacker move captures a soldier and the king")
            .play(Attackers, "d1-d7")
            .captures("c7 d8")
            .ends(KING_CAPTURED)
            .board("
                9  . . . a . . . . .    . . . a . . . . .
                8  . . . d . . . . .    . . . . . . . . .
                7  . a K . . . . . .    . a . a . . . . .
                6  . . . . . . . . .    . . . . . . . . .
                5  . . . . # . . . .    . . . . # . . . .
                4  . . . . . . . . .    . . . . . . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . a . . . . .    . . . . . . . . .
            "),
    ]
}

// ---------------------------------------------------------------------------------------------
// Draws on the board (R17); the draws of a game's history are tests below.

#[rustfmt::skip] // a table of cases, laid out to be read
fn drawing() -> Vec<Case> {
    vec![
        // Neither the king nor the defender on e6 can move after it. (The defender on e6 is
        // not captured: the occupied castle is not hostile, R10.)
        case("R17", "the side to move without a legal move draws")
            .play(Attackers, "h7-e7")
            .ends(NO_LEGAL_MOVES)
            .board("
                9  . . . . . . . . .    . . . . . . . . .
                8  . . . . . . . . .    . . . . . . . . .
                7  . . . . . . . a .    . . . . a . . . .
                6  . . . a d a . . .    . . . a d a . . .
                5  . . . a K a . . .    . . . a K a . . .
                4  . . . . a . . . .    . . . . a . . . .
                3  . . . . . . . . .    . . . . . . . . .
                2  . . . . . . . . .    . . . . . . . . .
                1  . . . . . . . . .    . . . . . . . . .
            "),
        case("R17", "attackers without pieces draw")
            .side_to_move(Attackers)
            .ends(NO_LEGAL_MOVES)
            .board(KING_ALONE),
        case("R17", "the king alone can move")
            .side_to_move(Defenders)
            .board(KING_ALONE),
    ]
}

const KING_ALONE: &str = "
    9  . . . . . . . . .
    8  . . . . . . . . .
    7  . . . . . . . . .
    6  . . . . . . . . .
    5  . . . . K . . . .
    4  . . . . . . . . .
    3  . . . . . . . . .
    2  . . . . . . . . .
    1  . . . . . . . . .
    ";

// ---------------------------------------------------------------------------------------------
// Grid, squares, sides, start (R1-R4): facts about the library's constants and coordinates.

#[test]
fn r1_tablut_is_9x9_and_tawlbwrdd_11x11_with_the_castle_in_the_centre() {
    assert_eq!(Rules::TABLUT.size(), 9);
    assert_eq!(Rules::TABLUT.castle(), sq("e5"));
    assert_eq!(Rules::TAWLBWRDD.size(), 11);
    assert_eq!(Rules::TAWLBWRDD.castle(), sq("f6"));
    assert_eq!(Variant::tablut().rules(), Rules::TABLUT);
    assert_eq!(Variant::tawlbwrdd().rules(), Rules::TAWLBWRDD);
    // The cases under `standard_without(...)` vary one flag of exactly these rules.
    assert_eq!(standard_without(RuleFlags::empty()), Rules::TABLUT);
}

#[test]
fn r1_start_positions_are_the_diagrams_of_rules_md() {
    let tablut = position_from_diagram(TABLUT_START, Side::Attackers);
    assert_eq!(Position::tablut(), tablut, "{}", show(&Position::tablut()));
    assert_eq!(Variant::by_name("tablut").map(|v| v.start()), Some(tablut));

    let tawlbwrdd = position_from_diagram(
        "
        11  . . . . a a a . . . .
        10  . . . . a . a . . . .
         9  . . . . . a . . . . .
         8  . . . . . d . . . . .
         7  a a . . d d d . . a a
         6  a . a d d K d d a . a
         5  a a . . d d d . . a a
         4  . . . . . d . . . . .
         3  . . . . . a . . . . .
         2  . . . . a . a . . . .
         1  . . . . a a a . . . .
            a b c d e f g h i j k
        ",
        Side::Attackers,
    );
    assert_eq!(
        Position::tawlbwrdd(),
        tawlbwrdd,
        "{}",
        show(&Position::tawlbwrdd())
    );
    assert_eq!(
        Variant::by_name("Tawlbwrdd").map(|v| v.start()),
        Some(tawlbwrdd)
    );
}

#[test]
fn r1_start_positions_have_the_records_of_rules_md() {
    assert_eq!(
        notation::position_record(&Position::tablut()),
        "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    );
    assert_eq!(
        notation::position_record(&Position::tawlbwrdd()),
        "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/"
    );
}

#[test]
fn r2_a1_is_bottom_left_and_files_and_ranks_count_from_it() {
    let drawn = "\
9  . . . . . . . . d
8  . . . . . . . . .
7  . . . . . . . . .
6  . . . . . . . . .
5  . . . . # . . . .
4  . . . . . . . . .
3  . . . . K . . . .
2  . a . . . . . . .
1  a . . . . . . . .
   a b c d e f g h i
";
    let position = position_from_diagram(drawn, Side::Attackers);
    let a1 = sq("a1");
    assert_eq!((a1.x(), a1.y()), (0, 0));
    let b2 = sq("b2");
    assert_eq!((b2.x(), b2.y()), (1, 1));
    assert_eq!(position.piece_at(a1), Some(tafl_engine::Piece::Attacker));
    assert_eq!(position.piece_at(b2), Some(tafl_engine::Piece::Attacker));
    assert_eq!(
        position.piece_at(sq("i9")),
        Some(tafl_engine::Piece::Defender)
    );
    assert_eq!(position.king(), Some(sq("e3")));
    // The library draws the board the same way.
    assert_eq!(notation::diagram(&position), drawn);
}

#[test]
fn r3_the_king_plays_for_the_defenders_but_is_not_a_soldier() {
    let start = Position::tablut();
    assert_eq!(start.attackers().count(), 16);
    assert_eq!(
        start.defenders().count(),
        8,
        "defenders() is the soldiers only"
    );
    assert_eq!(start.king(), Some(sq("e5")));
    assert_eq!(
        start.pieces(Side::Defenders).count(),
        9,
        "the king counts as a defender"
    );
    assert!(start.pieces(Side::Defenders).contains(sq("e5")));
    assert_eq!(tafl_engine::Piece::King.side(), Side::Defenders);
    let start = Position::tawlbwrdd();
    assert_eq!(start.attackers().count(), 24);
    assert_eq!(start.defenders().count(), 12);
}

#[test]
fn r4_both_games_start_with_the_attackers_to_move() {
    for variant in [Variant::tablut(), Variant::tawlbwrdd()] {
        assert_eq!(variant.start().side_to_move(), Side::Attackers);
    }
}

// ---------------------------------------------------------------------------------------------
// Draws of a game's history (R16, R18)

fn play_all(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        assert_eq!(
            game.outcome(),
            None,
            "the game ended before {text} ({:?})",
            game.outcome()
        );
        let captured = game
            .play(mv(text))
            .unwrap_or_else(|e| panic!("{text}: {e}\n{}", show(game.position())));
        assert!(captured.is_empty(), "{text} captured {captured:?}");
    }
}

#[test]
fn r16_second_occurrence_draws() {
    let mut game = Game::new(&Variant::tablut());
    play_all(&mut game, "e2-h2 e3-h3 h2-e2");
    assert_eq!(game.outcome(), None);
    assert_eq!(game.repetitions(), 1);
    play_all(&mut game, "h3-e3");
    assert_eq!(game.position(), &Position::tablut());
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.play(mv("e2-h2")),
        Err(PlayError::GameOver(Outcome::Draw(DrawReason::Repetition)))
    );
    // Taking the move back takes the draw back.
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn r16_repetition_reached_through_a_different_move_order() {
    // After ply 3 the attackers stand on h2 and h8, a defender on h3, defenders to move. The
    // game returns there at ply 7, with the two attacker moves made in the other order.
    let mut game = Game::new(&Variant::tablut());
    play_all(&mut game, "e2-h2 e3-h3 e8-h8");
    let first = *game.position();
    play_all(&mut game, "h3-e3 h2-e2 e3-h3");
    assert_eq!(game.outcome(), None, "no position has repeated yet");
    play_all(&mut game, "e2-h2");
    assert_eq!(game.position(), &first);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn r16_the_same_placement_with_the_other_side_to_move_is_no_repetition() {
    // The attacker on e2 goes round e2-g2-h2-e2 in three moves while a defender goes there and
    // back in two: the start placement returns with the defenders to move.
    let mut game = Game::new(&Variant::tablut());
    play_all(&mut game, "e2-g2 e3-h3 g2-h2 h3-e3 h2-e2");
    let position = game.position();
    assert_eq!(position.occupied(), Position::tablut().occupied());
    assert_eq!(position.side_to_move(), Side::Defenders);
    assert_eq!(game.repetitions(), 1);
    assert_eq!(game.outcome(), None);
}

#[test]
fn r16_repetitions_count_from_the_set_up_position() {
    let start = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . a . . . . . .
        ",
        Side::Attackers,
    );
    let mut game = Game::from_position(start);
    play_all(&mut game, "c1-c2 g7-g6 c2-c1");
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "g6-g7");
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn r16_other_repetition_rules_draw_on_the_third_occurrence_or_never() {
    let board = "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . K . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . a . . . . . .
        ";
    let shuffle = "c1-c2 g7-g6 c2-c1 g6-g7";
    for (repetition, drawn_after) in [
        (RepetitionRule::SecondOccurrenceDraws, Some(1)),
        (RepetitionRule::ThirdOccurrenceDraws, Some(2)),
        (RepetitionRule::Ignored, None),
    ] {
        let rules = Rules::new(9, RuleFlags::STANDARD, repetition)
            .expect("the standard 9x9 rules take any repetition rule");
        let mut game = Game::from_position(position_from_diagram_with_rules(
            board,
            rules,
            Side::Attackers,
        ));
        for round in 1..=3 {
            play_all(&mut game, shuffle);
            let expected = match drawn_after {
                Some(n) if round >= n => Some(Outcome::Draw(DrawReason::Repetition)),
                _ => None,
            };
            assert_eq!(
                game.outcome(),
                expected,
                "{repetition:?} after round {round}"
            );
            assert_eq!(game.repetitions(), round + 1);
            if expected.is_some() {
                break;
            }
        }
    }
}

#[test]
fn r18_the_players_may_agree_to_a_draw() {
    let mut game = Game::new(&Variant::tawlbwrdd());
    game.play(mv("e2-c2")).unwrap();
    game.agree_draw();
    let agreed = Some(Outcome::Draw(DrawReason::Agreement));
    assert_eq!(game.outcome(), agreed);
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.play(mv("f4-h4")),
        Err(PlayError::GameOver(Outcome::Draw(DrawReason::Agreement)))
    );
    // The board itself is not drawn.
    assert_eq!(game.position().outcome(), None);
}

#[test]
fn r18_no_agreement_once_the_game_is_won() {
    let mut game = Game::from_position(position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . K . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
        Side::Defenders,
    ));
    game.play(mv("c7-c9")).unwrap();
    game.agree_draw();
    assert_eq!(game.outcome(), Some(KING_ESCAPED));
}

#[test]
fn r18_undo_after_an_agreement_takes_back_only_the_agreement() {
    let mut game = Game::new(&Variant::tablut());
    game.play(mv("e2-h2")).unwrap();
    let before = game.clone();
    game.agree_draw();
    game.undo();
    assert_eq!(game, before, "the move e2-h2 should still be on the board");
    assert_eq!(game.outcome(), None);
    assert_eq!(
        game.undo(),
        Some(mv("e2-h2")),
        "the next undo takes back the move"
    );
}

// ---------------------------------------------------------------------------------------------
// Perft (P1)

/// P1 word for word: no bulk counting, each move played with `play` (which checks legality).
fn perft_by_definition(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    position
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut next = *position;
            next.play(m).expect("a generated move is legal");
            perft_by_definition(&next, depth - 1)
        })
        .sum()
}

#[test]
fn p1_perft_is_the_sum_over_the_legal_moves() {
    let position = position_from_diagram(
        "
        9  . . . a . . . . .
        8  . . . d . . . . .
        7  . a K . . . d . .
        6  . . . . . . . . .
        5  a . . d # . . . .
        4  . . d . . . . . a
        3  . . a . . . . . .
        2  . . . . . . a . .
        1  . . . a . . . . .
        ",
        Side::Attackers,
    );
    for depth in 0..=3 {
        assert_eq!(
            perft::perft(&position, depth),
            perft_by_definition(&position, depth),
            "depth {depth}"
        );
    }
    assert_eq!(perft::perft(&Position::tablut(), 0), 1);
}

#[test]
fn p1_a_won_position_counts_one_at_depth_zero_and_nothing_below() {
    let escaped = position_from_diagram(
        "
        9  . . K . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . . . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
        Side::Attackers,
    );
    let captured = position_from_diagram(
        "
        9  . . . . . . . . .
        8  . . . . . . . . .
        7  . . . . . . . . .
        6  . . . . . . . . .
        5  . . . . # . . . .
        4  . . . . . . . . .
        3  . . . . d . . . .
        2  . . . . . . . . .
        1  . . . . . . . . a
        ",
        Side::Defenders,
    );
    for won in [escaped, captured] {
        assert_eq!(perft::perft(&won, 0), 1);
        for depth in 1..=3 {
            assert_eq!(perft::perft(&won, depth), 0, "{}", show(&won));
            assert_eq!(perft::perft_without_bulk(&won, depth), 0);
        }
    }
}

/// Move paths of `depth` plies that a `Game` lets be played: it stops at a draw by repetition.
fn game_paths(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    game.legal_moves()
        .iter()
        .map(|&m| {
            let mut next = game.clone();
            next.play(m).expect("a legal move of the game");
            game_paths(&next, depth - 1)
        })
        .sum()
}

#[test]
fn p1_perft_ignores_repetition() {
    // A king and an attacker on a 5x5 board: they can shuffle back to the start in four plies,
    // which a game calls drawn (R16). Perft goes on counting after that.
    let position = position_from_diagram(
        "
        5  . . . . .
        4  . . . K .
        3  . . # . .
        2  . . . . .
        1  a . . . .
           a b c d e
        ",
        Side::Attackers,
    );
    let game = Game::from_position(position);
    assert_eq!(
        game_paths(&game, 4),
        perft::perft(&position, 4),
        "no draw before ply 4"
    );
    let perft5 = perft::perft(&position, 5);
    assert_eq!(perft5, perft_by_definition(&position, 5));
    assert!(
        game_paths(&game, 5) < perft5,
        "some 5-ply paths pass a repetition at ply 4, and perft counts them"
    );
}
