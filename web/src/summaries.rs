//! One paragraph on each built-in game, written for a person choosing what to play; the exact
//! rules are docs/rules.md's (the clause numbers it gives).

/// `(key, summary)` for each of `AnyVariant::names()`.
pub const SUMMARIES: [(&str, &str); 16] = [
    (
        "tablut",
        "Linnaeus's Tablut (1732) on 9x9. Every piece moves like a rook; a soldier is captured between two enemies (the empty castle counts as an enemy). The king is armed and escapes to any edge square; the attackers capture him with four attackers round the castle, three beside it, or two on a line elsewhere. A repeated position or a side without a move draws.",
    ),
    (
        "tawlbwrdd",
        "The Welsh game on 11x11, with Tablut's rules exactly: rook moves, capture between two, an armed king who wins by reaching any edge square and is captured by two attackers on a line away from the castle (four on it, three beside it). A repeated position draws.",
    ),
    (
        "sea-battle",
        "OpenTafl's Sea Battle on 9x9: no throne and no corners, a strong unarmed king who escapes to any edge square; the attackers also win by encircling all the defenders.",
    ),
    (
        "fetlar",
        "Fetlar on 11x11: the king must reach a corner; the throne and the corners are the king's alone and hostile to everyone; the king is strong (surrounded on four sides to be captured); encircling the defenders wins for the attackers.",
    ),
    (
        "copenhagen",
        "Copenhagen Hnefatafl on 11x11 as OpenTafl's string gives it: Fetlar's corners and strong king, with shieldwall captures along the edge, the king winning from an edge fort, and a third repetition lost by the side that makes it.",
    ),
    (
        "copenhagen-relaxed",
        "Copenhagen with the relaxed shieldwall: any move that closes a shieldwall along the edge captures it. Otherwise as Copenhagen: corner escape, a strong king, edge forts, encirclement.",
    ),
    (
        "brandub",
        "Brandub, the Irish game on 7x7: the king escapes to a corner, is weak (two attackers on a line capture him) and the throne is hostile to nobody. A quick game.",
    ),
    (
        "opentafl-tawlbwrdd",
        "OpenTafl's Tawlbwrdd on 11x11: a weak king escaping to any edge, no throne and no corners, and the attackers win by encircling the defenders.",
    ),
    (
        "opentafl-tablut",
        "OpenTafl's Tablut on 9x9: this project's castle rules with a Linnaean capture of the king beside the castle, edge escape and a win by encirclement.",
    ),
    (
        "foteviken-tablut",
        "Foteviken Tablut on 9x9: the attackers start in forts that nobody may re-enter, nobody passes the empty throne, and the king escapes to any edge.",
    ),
    (
        "magpie",
        "Magpie on 7x7: Brandub's board with a middleweight king who moves one square at a time and escapes to a corner.",
    ),
    (
        "ashton",
        "Ashton Tablut, the University of Bologna's Tablut Challenge, on 9x9: the attackers start on sixteen camps that only they may cross while still in them; the king escapes to the edge; the defenders (white) move first.",
    ),
    (
        "copenhagen-aagenielsen",
        "Copenhagen as its published rules end it: the third occurrence of a position is a win for the attackers, whoever made it. Otherwise OpenTafl's Copenhagen: corner escape, strong armed king, shieldwalls, edge forts, encirclement.",
    ),
    (
        "hnefatafl-org-copenhagen",
        "Copenhagen on 11x11 as hnefatafl.org's server plays it: corner escape, a strong king, shieldwalls and edge forts, and the defenders may never recreate an earlier position.",
    ),
    (
        "hnefatafl-org-brandubh",
        "Brandubh on 7x7 as hnefatafl.org's server plays it: an unarmed king who escapes to a corner, with that server's repetition rule.",
    ),
    (
        "hnefatafl-org-copenhagen-13",
        "hnefatafl.org's Copenhagen on a 13x13 board: corner escape, a strong king, shieldwalls and edge forts, on a larger field.",
    ),
];
