//! The positions the benchmarks run on: for each game, the start, a crowded middlegame, an open
//! endgame, and the king next to the castle with a king capture on the board.

use tafl_engine::{Position, Rules, Side, Variant, notation};

/// A named benchmark position.
pub struct BenchPosition {
    pub name: &'static str,
    pub position: Position,
}

fn parse(record: &str, rules: Rules, side: Side) -> Position {
    // The records below are fixed; a typo in one is a bug in the benchmark, reported at once.
    notation::parse_position_record(record, rules, side).expect("benchmark records are valid")
}

/// The benchmark positions, Tablut first.
pub fn all() -> Vec<BenchPosition> {
    let tablut = Rules::TABLUT;
    let tawlbwrdd = Rules::TAWLBWRDD;
    let (attackers, defenders) = (Side::Attackers, Side::Defenders);
    vec![
        BenchPosition {
            name: "tablut/start",
            position: Variant::tablut().start(),
        },
        BenchPosition {
            name: "tablut/middlegame",
            position: parse(
                "/3t1t3/1t2t4/4T4/t2T1T2t/tt1TK1Ttt/t3T2t1/2T1T4/4t1t2/3tt4/",
                tablut,
                attackers,
            ),
        },
        BenchPosition {
            name: "tablut/endgame",
            position: parse("/9/2t6/9/5T3/1t7/6K2/9/3t3t1/9/", tablut, defenders),
        },
        BenchPosition {
            name: "tablut/king-by-castle",
            position: parse(
                "/3ttt3/4t4/9/9/tt1T2Ttt/t2tKt2t/9/4t4/3ttt3/",
                tablut,
                attackers,
            ),
        },
        BenchPosition {
            name: "tawlbwrdd/start",
            position: Variant::tawlbwrdd().start(),
        },
        BenchPosition {
            name: "tawlbwrdd/middlegame",
            position: parse(
                "/4ttt4/4t1t4/2t8/5T2t2/tt2TTT2tt/t1tTTKTTt1t/tt2TT3tt/5T5/5t1T3/4t1t4/4ttt4/",
                tawlbwrdd,
                attackers,
            ),
        },
        BenchPosition {
            name: "tawlbwrdd/endgame",
            position: parse(
                "/11/3t7/11/8T2/11/2t5K2/11/11/5t3t1/11/11/",
                tawlbwrdd,
                defenders,
            ),
        },
        BenchPosition {
            name: "tawlbwrdd/king-by-castle",
            position: parse(
                "/4ttt4/4t1t4/11/11/tt7tt/t1tT4t1t/tt2tKt2tt/11/5t5/4t1t4/4ttt4/",
                tawlbwrdd,
                attackers,
            ),
        },
    ]
}
