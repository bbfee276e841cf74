//! Golden outputs of the search (issue 39): for Tablut, Tawlbwrdd, Copenhagen and hnefatafl.org's
//! Copenhagen 13x13, from the start and from two positions a few plies in, the node count, score
//! and best move of a single-threaded fixed-depth search. A change of the rules, the move
//! generator's order, the evaluation or the search shows here as a different count, score or
//! move.

use tafl_engine::search::{Limits, SearchConfig, Searcher};
use tafl_engine::{Game, Grid, Move, Variant, Wide, notation};

/// One search: the game, the moves played from its start, the depth, and what it gave.
struct Golden {
    game: &'static str,
    moves: &'static [&'static str],
    depth: u32,
    nodes: u64,
    score: &'static str,
    best: &'static str,
    /// The position searched, as `notation::position_record` writes it: the moves above lead
    /// there, whatever the generator's order.
    record: &'static str,
}

/// What a search of `game` after `moves` to `depth` on one thread gives: nodes, score, best move,
/// and the position's record.
fn search<B: Grid>(
    variant: &Variant<B>,
    moves: &[&str],
    depth: u32,
) -> (u64, String, String, String) {
    let mut game = Game::new(variant);
    for text in moves {
        let m: Move<B> = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        game.play(m).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    let mut searcher = Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: 16,
    });
    let result = searcher.search(&game, &Limits::depth(depth), |_| {});
    let best = result
        .best_move
        .map_or("none".to_string(), |m| m.to_string());
    (
        result.nodes,
        result.score.to_string(),
        best,
        notation::position_record(game.position()),
    )
}

fn run(golden: &Golden) -> (u64, String, String, String) {
    match golden.game {
        "hnefatafl-org-copenhagen-13" => search(
            &Variant::<Wide>::hnefatafl_org_copenhagen_13(),
            golden.moves,
            golden.depth,
        ),
        name => {
            let variant = Variant::by_name(name).unwrap_or_else(|| panic!("no game {name}"));
            search(&variant, golden.moves, golden.depth)
        }
    }
}

/// The figures: depth 6, one thread, 16 MB of table, the searcher's defaults otherwise. The
/// moves were picked by a seeded walk over each position's sorted legal moves. Written down from
/// the code before the re-cut (commit e0f1c5e), and recorded again for issue 41: the scores are
/// on the shown scale now, and Tablut and Tawlbwrdd play with their networks (Copenhagen's and
/// 13x13's nodes and moves did not change).
const GOLDEN: &[Golden] = &[
    Golden {
        game: "tablut",
        moves: &[],
        depth: 6,
        nodes: 79540,
        score: "-0.12",
        best: "f9-f8",
        record: "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Golden {
        game: "tablut",
        moves: &["e2-f2", "g5-g7", "i4-g4", "e7-d7"],
        depth: 6,
        nodes: 53826,
        score: "0.00",
        best: "h5-h7",
        record: "/3ttt3/5t3/4T4/t3T1t2/ttTTKT1tt/t3T3t/3T2T2/4t4/3ttt3/",
    },
    Golden {
        game: "tablut",
        moves: &[
            "h5-h9", "e4-h4", "d1-b1", "g5-g8", "h9-g9", "d5-d3", "b5-b4", "f5-f3",
        ],
        depth: 6,
        nodes: 75390,
        score: "-0.01",
        best: "b4-g4",
        record: "/1t2tt3/4t4/3TTT3/tt5Tt/t1T1K3t/t3T3t/4T4/4t1T2/3tttt2/",
    },
    Golden {
        game: "tawlbwrdd",
        moves: &[],
        depth: 6,
        nodes: 114060,
        score: "0.05",
        best: "c6-c4",
        record: "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
    },
    Golden {
        game: "tawlbwrdd",
        moves: &["e1-c1", "h6-h7", "f3-g3", "f8-a8"],
        depth: 6,
        nodes: 89236,
        score: "0.23",
        best: "f9-a9",
        record: "/2t2tt4/4t1t4/6t4/5T5/tt2TTT2tt/t1tTTKT1t1t/tt2TTTT1tt/T10/5t5/4t1t4/4ttt4/",
    },
    Golden {
        game: "tawlbwrdd",
        moves: &[
            "f3-j3", "f4-h4", "i6-i8", "d6-d11", "k7-k11", "f8-d8", "b7-c7", "h6-h9",
        ],
        depth: 6,
        nodes: 55220,
        score: "0.33",
        best: "c7-c11",
        record: "/4ttt4/4t1t4/9t1/7T3/tt2TTT2tt/t1t1TKT3t/t1t1TTT2t1/3T4t2/5t1T3/4t1t4/3Tttt3t/",
    },
    Golden {
        game: "copenhagen",
        moves: &[],
        depth: 6,
        nodes: 45893,
        score: "-2.46",
        best: "f10-i10",
        record: "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    },
    Golden {
        game: "copenhagen",
        moves: &["d11-c11", "h6-h2", "f2-f3", "e7-b7"],
        depth: 6,
        nodes: 38461,
        score: "-2.29",
        best: "f3-h3",
        record: "/3ttttt3/7T3/5t5/t4T4t/t3TTT3t/tt1TTKT2tt/tT3TT3t/t4T4t/11/5t5/2t1tttt3/",
    },
    Golden {
        game: "copenhagen",
        moves: &[
            "f2-j2", "f4-d4", "k4-h4", "d4-f4", "a8-b8", "g7-g9", "f1-f2", "g9-g7",
        ],
        depth: 6,
        nodes: 68695,
        score: "-2.34",
        best: "g1-g3",
        record: "/3tt1tt3/5t3t1/11/t4T1t3/t3TTT3t/tt1TTKTT1tt/t3TTT3t/1t3T4t/11/5t5/3ttttt3/",
    },
    Golden {
        game: "hnefatafl-org-copenhagen-13",
        moves: &[],
        depth: 6,
        nodes: 96401,
        score: "-0.49",
        best: "f1-f2",
        record: "/3ttttttt3/6t6/13/t5T5t/t5T5t/t4TTT4t/tt1TTTKTTT1tt/t4TTT4t/t5T5t/t5T5t/13/6t6/3ttttttt3/",
    },
    Golden {
        game: "hnefatafl-org-copenhagen-13",
        moves: &["b7-b13", "g4-f4", "f1-f3", "h8-h10"],
        depth: 6,
        nodes: 34261,
        score: "-0.42",
        best: "a5-f5",
        record: "/3tt1tttt3/6t6/5t7/t4T6t/t5T5t/t4TTT4t/t2TTTKTTT1tt/t4TT5t/t5T5t/t5TT4t/13/6t6/1t1ttttttt3/",
    },
    Golden {
        game: "hnefatafl-org-copenhagen-13",
        moves: &[
            "e13-e8", "h8-k8", "g2-h2", "k8-k5", "j13-j12", "g10-d10", "m6-j6", "g9-g11",
        ],
        depth: 6,
        nodes: 41002,
        score: "-0.42",
        best: "j12-j8",
        record: "/3ttttttt3/7t5/13/t5T5t/t5T3T1t/t4TTT1t3/tt1TTTKTTT1tt/t3tTT5t/t11t/t2T8t/6T6/6t2t3/3t1tttt4/",
    },
];

#[test]
fn fixed_depth_searches_give_the_recorded_nodes_scores_and_moves() {
    let mut differences = Vec::new();
    for golden in GOLDEN {
        let (nodes, score, best, record) = run(golden);
        let expected = (golden.nodes, golden.score, golden.best, golden.record);
        if (nodes, score.as_str(), best.as_str(), record.as_str()) != expected {
            differences.push(format!(
                "{} after {:?}, depth {}: got {nodes} nodes, score {score}, {best}, {record}; \
                 recorded {expected:?}",
                golden.game, golden.moves, golden.depth
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

#[test]
fn the_golden_searches_cover_four_games_from_three_positions_each() {
    for game in [
        "tablut",
        "tawlbwrdd",
        "copenhagen",
        "hnefatafl-org-copenhagen-13",
    ] {
        let plies: Vec<usize> = GOLDEN
            .iter()
            .filter(|golden| golden.game == game)
            .map(|golden| golden.moves.len())
            .collect();
        assert_eq!(plies.len(), 3, "{game}");
        assert!(plies.contains(&0), "{game}: the start");
    }
}
