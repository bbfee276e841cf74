//! One paragraph on each built-in game, written for a person choosing what to play (the exact
//! rules are docs/rules.md's, by the clause numbers it gives), with the facts it states; and
//! those facts as the library plays them ([`facts`]), so that a test holds every paragraph, in
//! every language of the page, to its game's rules.

use tafl_engine::{
    AnyVariant, DrawReason, Escape, Grid, Outcome, Piece, Position, RepetitionRule, Side, Square,
    Variant, WinReason,
};

/// What a player must know before choosing a game: where the king escapes, whether there is a
/// castle (throne), whether two attackers on a line capture the king away from it, and who
/// moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// `edge` or `corner`.
    pub escape: &'static str,
    /// The board has a castle (a throne).
    pub castle: bool,
    /// Two attackers on a line capture the king in the open field.
    pub king_by_two: bool,
    /// The side that moves first.
    pub first: Side,
    /// What a repeated position does: `draw`, `maker_loses` (the side whose move made it),
    /// `maker_wins`, `attackers_win`, `forbidden` (the defenders may not recreate one) or
    /// `nothing`.
    pub repetition: &'static str,
    /// What a side to move without a legal move does: `draw` or `loss`.
    pub no_move: &'static str,
}

/// The facts of a built-in game as the library plays it: the escape and the castle from its
/// rules, the first side from its start, the king's capture from a position played (attackers
/// on c3's left, one moving in on its right).
pub fn facts(variant: &AnyVariant) -> Facts {
    match variant {
        AnyVariant::Narrow(v) => facts_on(v),
        AnyVariant::Wide(v) => facts_on(v),
    }
}

fn facts_on<B: Grid>(variant: &Variant<B>) -> Facts {
    let rules = variant.rules();
    let at = |x, y| Square::<B>::at(x, y);
    let far = rules.size() - 2;
    let pieces = [
        (at(2, 2), Piece::King),
        (at(1, 2), Piece::Attacker),
        (at(5, 2), Piece::Attacker),
        (at(far, far), Piece::Defender),
    ];
    let king_by_two = pieces.iter().all(|(square, _)| square.is_some())
        && Position::from_pieces(
            rules,
            Side::Attackers,
            pieces
                .iter()
                .filter_map(|(square, piece)| Some(((*square)?, *piece))),
        )
        .ok()
        .and_then(|mut position| {
            let m = "f3-d3".parse::<tafl_engine::Move<B>>().ok()?;
            position.play(m).ok()?;
            Some(matches!(
                position.outcome(),
                Some(Outcome::Win {
                    reason: WinReason::KingCaptured,
                    ..
                })
            ))
        })
        .unwrap_or(false);
    Facts {
        escape: match rules.escape() {
            Escape::Edge => "edge",
            Escape::Corner => "corner",
        },
        castle: !rules.throne().is_empty(),
        king_by_two,
        first: variant.start().side_to_move(),
        // An exhaustive match: a new repetition rule fails to compile until it is worded.
        repetition: match rules.repetition() {
            RepetitionRule::Ignored => "nothing",
            RepetitionRule::SecondOccurrenceDraws
            | RepetitionRule::ThirdOccurrenceDraws
            | RepetitionRule::SecondOccurrenceDrawsStartUncounted => "draw",
            RepetitionRule::ThirdOccurrenceLosesForMover => "maker_loses",
            RepetitionRule::ThirdOccurrenceWinsForMover => "maker_wins",
            RepetitionRule::ThirdOccurrenceAttackersWin => "attackers_win",
            RepetitionRule::DefendersMayNotRecreate
            | RepetitionRule::DefendersMayNotRecreateStartUncounted => "forbidden",
        },
        no_move: no_move(variant),
    }
}

/// What the library makes of a side to move without a legal move: a lone attacker on a2 walled
/// in by defenders on a3 and b2 and by the corner a1 (a defender there when a1 is no corner),
/// the king far away, the attackers to move.
fn no_move<B: Grid>(variant: &Variant<B>) -> &'static str {
    let rules = variant.rules();
    let at = |x, y| Square::<B>::at(x, y);
    let far = rules.size() - 2;
    let corner_free = rules.corners().is_empty();
    // With no corner, a1 holds a defender too, so that a2 has no square to go to.
    let mut pieces = vec![
        (at(0, 1), Piece::Attacker),
        (at(0, 2), Piece::Defender),
        (at(1, 1), Piece::Defender),
        (at(far, far), Piece::King),
    ];
    if corner_free {
        pieces.push((at(0, 0), Piece::Defender));
    }
    let position = Position::from_pieces(
        rules,
        Side::Attackers,
        pieces
            .into_iter()
            .filter_map(|(square, piece)| Some((square?, piece))),
    );
    match position.ok().and_then(|p| p.outcome()) {
        Some(Outcome::Draw(DrawReason::NoLegalMoves)) => "draw",
        Some(Outcome::Win {
            reason: WinReason::NoLegalMoves,
            ..
        }) => "loss",
        other => panic!("no legal move: {other:?}"),
    }
}

/// A built-in game as the page presents it: its key, a name that tells it from every other
/// game, a paragraph on its rules and the facts that paragraph states. The page's other
/// languages have the same name and paragraph in `assets/i18n.js` (`name_KEY`, `sum_KEY`, the
/// key's `-` written `_`); a test holds English's there to these.
pub struct Summary {
    /// `AnyVariant::by_name`'s key.
    pub key: &'static str,
    /// The game's name, unique in the list.
    pub name: &'static str,
    /// The paragraph.
    pub text: &'static str,
    /// The facts the paragraph states, checked against the library's rules.
    pub facts: Facts,
}

/// Each of `AnyVariant::names()`, in that order.
pub const SUMMARIES: [Summary; 16] = [
    Summary {
        key: "tablut",
        name: "Tablut — Linnaeus's rules",
        text: "Linnaeus's Tablut (1732) on 9x9: every piece moves like a rook. No piece may stop on the castle (nor the king, once he has left it), but any piece may pass over it while it is empty. A soldier is captured between two enemies, and the empty castle counts as an enemy to both sides. The king is armed and wins on any edge square; two attackers on a line capture him, three beside the castle, four round it. A repeated position, or a side to move with no legal move, draws.",
        facts: Facts {
            escape: "edge",
            castle: true,
            king_by_two: true,
            first: Side::Attackers,
            repetition: "draw",
            no_move: "draw",
        },
    },
    Summary {
        key: "tawlbwrdd",
        name: "Tawlbwrdd — Bell's rules",
        text: "The Welsh game on 11x11 with exactly Tablut's rules: rook moves; no piece stops on the castle, any passes over it while it is empty; a soldier is captured between two enemies, or an enemy and the empty castle. The armed king wins on any edge square; two attackers on a line capture him, three beside the castle, four round it. A repeated position, or a side to move with no legal move, draws.",
        facts: Facts {
            escape: "edge",
            castle: true,
            king_by_two: true,
            first: Side::Attackers,
            repetition: "draw",
            no_move: "draw",
        },
    },
    Summary {
        key: "sea-battle",
        name: "Sea Battle",
        text: "OpenTafl's Sea Battle on 9x9: no castle (throne) and no corners. The king is unarmed and strong (attackers on all four sides capture him) and wins on any edge square; the attackers also win by encircling all the defenders. A third repetition draws; a side with no legal move loses.",
        facts: Facts {
            escape: "edge",
            castle: false,
            king_by_two: false,
            first: Side::Attackers,
            repetition: "draw",
            no_move: "loss",
        },
    },
    Summary {
        key: "fetlar",
        name: "Fetlar",
        text: "Fetlar on 11x11: the king must reach a corner. The throne (castle) and the corners are the king's alone and hostile to every soldier; the king is armed and strong (attackers on all four sides capture him); encircling all the defenders wins for the attackers. A third repetition draws; a side with no legal move loses.",
        facts: Facts {
            escape: "corner",
            castle: true,
            king_by_two: false,
            first: Side::Attackers,
            repetition: "draw",
            no_move: "loss",
        },
    },
    Summary {
        key: "copenhagen",
        name: "Copenhagen — OpenTafl's",
        text: "Copenhagen Hnefatafl on 11x11 as OpenTafl's string gives it: Fetlar's escape to a corner, throne (castle) for the king alone and strong king, with shieldwall captures along the edge, a win for the king in an edge fort, a win for the attackers by encircling, and a third repetition lost by the side that makes it. A side with no legal move loses.",
        facts: Facts {
            escape: "corner",
            castle: true,
            king_by_two: false,
            first: Side::Attackers,
            repetition: "maker_loses",
            no_move: "loss",
        },
    },
    Summary {
        key: "copenhagen-relaxed",
        name: "Copenhagen — relaxed shieldwall",
        text: "Copenhagen with the relaxed shieldwall: any move that closes a shieldwall along the edge captures it. Otherwise as Copenhagen: escape to a corner, a throne (castle) for the king alone, a strong king, edge forts, encirclement, and a third repetition lost by the side that makes it. A side with no legal move loses.",
        facts: Facts {
            escape: "corner",
            castle: true,
            king_by_two: false,
            first: Side::Attackers,
            repetition: "maker_loses",
            no_move: "loss",
        },
    },
    Summary {
        key: "brandub",
        name: "Brandub",
        text: "Brandub, the Irish game on 7x7: the king escapes to a corner; he is weak (two attackers on a line capture him anywhere) and the throne (castle) is hostile to nobody. A third repetition draws; a side with no legal move loses. A quick game.",
        facts: Facts {
            escape: "corner",
            castle: true,
            king_by_two: true,
            first: Side::Attackers,
            repetition: "draw",
            no_move: "loss",
        },
    },
    Summary {
        key: "opentafl-tawlbwrdd",
        name: "Tawlbwrdd — OpenTafl's",
        text: "OpenTafl's Tawlbwrdd on 11x11: a weak king (two attackers on a line capture him) who escapes to any edge square, no throne and no corners, and the attackers also win by encircling the defenders. A third repetition draws; a side with no legal move loses.",
        facts: Facts {
            escape: "edge",
            castle: false,
            king_by_two: true,
            first: Side::Attackers,
            repetition: "draw",
            no_move: "loss",
        },
    },
    Summary {
        key: "opentafl-tablut",
        name: "Tablut — OpenTafl's",
        text: "OpenTafl's Tablut on 9x9: this project's castle rules (no piece stops on the castle, any passes over it while it is empty), the king captured by two attackers on a line away from the castle and by attackers on his three other sides beside it, escape to any edge square, and a win for the attackers by encircling. A third repetition draws. A side with no legal move loses.",
        facts: Facts {
            escape: "edge",
            castle: true,
            king_by_two: true,
            first: Side::Attackers,
            repetition: "draw",
            no_move: "loss",
        },
    },
    Summary {
        key: "foteviken-tablut",
        name: "Foteviken Tablut",
        text: "Foteviken Tablut on 9x9: the attackers start in forts that nobody may re-enter, nobody passes over the empty throne (castle), two attackers do not capture the king (he must be surrounded), and he escapes to any edge square. A third repetition draws; a side with no legal move loses.",
        facts: Facts {
            escape: "edge",
            castle: true,
            king_by_two: false,
            first: Side::Attackers,
            repetition: "draw",
            no_move: "loss",
        },
    },
    Summary {
        key: "magpie",
        name: "Magpie",
        text: "Magpie on 7x7: Brandub's board and throne (castle) with a middleweight king who moves one square at a time, is captured only when every square beside him is an attacker or hostile, and escapes to a corner. A third repetition draws. A side with no legal move loses.",
        facts: Facts {
            escape: "corner",
            castle: true,
            king_by_two: false,
            first: Side::Attackers,
            repetition: "draw",
            no_move: "loss",
        },
    },
    Summary {
        key: "ashton",
        name: "Ashton Tablut (Tablut Challenge)",
        text: "Ashton Tablut, the University of Bologna's Tablut Challenge, on 9x9: the defenders (white) move first; the attackers start on sixteen camps that they may cross only while still in them; nobody stops on the castle. The king escapes to any edge square and is captured by two attackers on a line, three beside the castle, four round it. A repeated position draws. A side with no legal move loses.",
        facts: Facts {
            escape: "edge",
            castle: true,
            king_by_two: true,
            first: Side::Defenders,
            repetition: "draw",
            no_move: "loss",
        },
    },
    Summary {
        key: "copenhagen-aagenielsen",
        name: "Copenhagen — published rules",
        text: "Copenhagen by its published rules: the third occurrence of a position wins for the attackers, whoever made it, and a shieldwall is taken as the published rule has it (a row along the edge, each piece with an enemy in front of it, bracketed at both ends). Otherwise OpenTafl's Copenhagen: escape to a corner, a throne (castle) for the king alone, a strong armed king, edge forts, encirclement. A side with no legal move loses.",
        facts: Facts {
            escape: "corner",
            castle: true,
            king_by_two: false,
            first: Side::Attackers,
            repetition: "attackers_win",
            no_move: "loss",
        },
    },
    Summary {
        key: "hnefatafl-org-copenhagen",
        name: "Copenhagen — hnefatafl.org's",
        text: "Copenhagen on 11x11 as hnefatafl.org's server plays it: escape to a corner, a throne (castle) for the king alone, a strong king, shieldwalls and edge forts; the defenders may never recreate an earlier position, and a side with no legal move loses.",
        facts: Facts {
            escape: "corner",
            castle: true,
            king_by_two: false,
            first: Side::Attackers,
            repetition: "forbidden",
            no_move: "loss",
        },
    },
    Summary {
        key: "hnefatafl-org-brandubh",
        name: "Brandubh — hnefatafl.org's",
        text: "Brandubh on 7x7 as hnefatafl.org's server plays it: the defenders move first; the unarmed king escapes to a corner and is captured by two attackers on a line, except on the throne (castle), where it takes four; the defenders may never recreate an earlier position. A side with no legal move loses.",
        facts: Facts {
            escape: "corner",
            castle: true,
            king_by_two: true,
            first: Side::Defenders,
            repetition: "forbidden",
            no_move: "loss",
        },
    },
    Summary {
        key: "hnefatafl-org-copenhagen-13",
        name: "Copenhagen 13x13 — hnefatafl.org's",
        text: "hnefatafl.org's Copenhagen on a 13x13 board: escape to a corner, a throne (castle) for the king alone, a strong king, shieldwalls and edge forts, and the defenders may never recreate an earlier position. A side with no legal move loses.",
        facts: Facts {
            escape: "corner",
            castle: true,
            king_by_two: false,
            first: Side::Attackers,
            repetition: "forbidden",
            no_move: "loss",
        },
    },
];

/// The summary of a built-in game, by key.
pub fn summary(key: &str) -> Option<&'static Summary> {
    SUMMARIES.iter().find(|s| s.key == key)
}
