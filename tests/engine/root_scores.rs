//! `Searcher::root_scores`: every legal root move's score is exactly the score of a separate
//! search of that move's position, by a new single-threaded searcher, one ply shallower
//! (negated, a forced result one ply further away), on Tablut, Copenhagen and hnefatafl.org's
//! 13x13; moves that end the game are scored by the rules; draws are priced for the root's side.

use tafl_engine::search::{Limits, RootScores, Score, SearchConfig, Searcher};
use tafl_engine::{Game, Grid, Move, Outcome, Variant, Wide};

use crate::common::seeded;
use seeded::middlegame;

/// The table size of every searcher here: a new searcher of the same size is the oracle.
const HASH_MB: usize = 2;

/// A position of a seeded random game where some legal move ends the game (a win in one, or
/// a draw): the first one at or after `from_plies`.
fn position_with_an_ending_move<B: Grid>(variant: &Variant<B>, seed: u64) -> Option<Game<B>> {
    for plies in 4..400 {
        let game = middlegame(variant, plies, seed);
        if game.outcome().is_some() {
            return None;
        }
        let ends = game.legal_moves().iter().any(|&m| {
            let mut child = game.clone();
            child.play(m).is_ok() && child.outcome().is_some()
        });
        if ends {
            return Some(game);
        }
    }
    None
}

fn searcher(contempt: i32) -> Searcher {
    let mut searcher = Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: HASH_MB,
    });
    searcher.set_contempt(contempt);
    searcher
}

/// The oracle's view of a search of the position after a move, from the mover's side: written
/// here from `Score`'s definition, not taken from the library.
fn seen_by_mover(child_score: Score) -> Score {
    let value = child_score.0;
    if value >= Score::WIN_THRESHOLD {
        // The opponent wins in k plies from the child: the mover loses in k + 1.
        Score(-(value - 1))
    } else if value <= -Score::WIN_THRESHOLD {
        Score(-(value + 1))
    } else {
        Score(-value)
    }
}

/// Checks every root move of `game` at `depth` against a separate search, with the contempt 0.
fn check_against_separate_searches<B: Grid>(name: &str, game: &Game<B>, depth: u32) {
    let scores: RootScores<B> = searcher(0).root_scores(game, &Limits::depth(depth));
    let legal: Vec<Move<B>> = game.legal_moves().iter().copied().collect();
    assert_eq!(scores.depth, depth, "{name}");
    assert_eq!(
        scores
            .moves
            .iter()
            .map(|line| line.first)
            .collect::<Vec<_>>(),
        legal,
        "{name}: one score per legal move, in the game's order"
    );
    for line in &scores.moves {
        let mut child = game.clone();
        child.play(line.first).expect("legal");
        assert_eq!(line.pv.first(), Some(&line.first), "{name} {}", line.first);
        let expected = match child.outcome() {
            Some(Outcome::Win { winner, .. }) if winner == game.position().side_to_move() => {
                Score::win_in(1)
            }
            Some(Outcome::Win { .. }) => Score::loss_in(1),
            // A draw at contempt 0: the evaluation's 0, shown for the root's side.
            Some(Outcome::Draw(_)) => searcher(0).draw_score(game),
            None => {
                let separate = searcher(0).search(&child, &Limits::depth(depth - 1), |_| {});
                assert_eq!(separate.depth, depth - 1, "{name} {}", line.first);
                assert_eq!(&line.pv[1..], &separate.pv[..], "{name} {}", line.first);
                seen_by_mover(separate.score)
            }
        };
        assert_eq!(
            line.score, expected,
            "{name}: move {} at depth {depth}",
            line.first
        );
    }
    let best = scores.best().expect("moves");
    assert!(scores.moves.iter().all(|line| line.score <= best.score));
}

#[test]
fn tablut_root_scores_equal_separate_searches() {
    let tablut = Variant::tablut();
    check_against_separate_searches("tablut start", &Game::new(&tablut), 3);
    for (plies, seed) in [(10, 1), (24, 2)] {
        let game = middlegame(&tablut, plies, seed);
        check_against_separate_searches(&format!("tablut {plies}/{seed}"), &game, 4);
    }
    let ending = position_with_an_ending_move(&tablut, 3).expect("random games end");
    check_against_separate_searches("tablut, a move ends the game", &ending, 3);
}

#[test]
fn copenhagen_root_scores_equal_separate_searches() {
    let copenhagen = Variant::copenhagen();
    check_against_separate_searches("copenhagen start", &Game::new(&copenhagen), 3);
    let game = middlegame(&copenhagen, 16, 4);
    check_against_separate_searches("copenhagen 16/4", &game, 3);
    let ending = position_with_an_ending_move(&copenhagen, 5).expect("random games end");
    check_against_separate_searches("copenhagen, a move ends the game", &ending, 2);
}

#[test]
fn thirteen_by_thirteen_root_scores_equal_separate_searches() {
    let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13();
    check_against_separate_searches("13x13 start", &Game::new(&thirteen), 2);
    let game = middlegame(&thirteen, 12, 6);
    check_against_separate_searches("13x13 12/6", &game, 3);
}

/// A root whose legal moves include one that repeats a position (R16: a draw) and others.
fn game_with_a_repeating_move() -> (Game, Move) {
    let start = middlegame(&Variant::tablut(), 8, 7);
    let quiet = |game: &Game| -> Vec<Move> {
        let before = game.position().occupied().count();
        let mut moves: Vec<Move> = game
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                let mut next = game.clone();
                next.play(m).is_ok()
                    && next.outcome().is_none()
                    && next.position().occupied().count() == before
            })
            .collect();
        moves.sort();
        moves
    };
    let back = |m: Move| Move::new(m.to(), m.from());
    for first in quiet(&start) {
        let mut after_first = start.clone();
        after_first.play(first).expect("legal");
        for reply in quiet(&after_first) {
            let mut game = after_first.clone();
            game.play(reply).expect("legal");
            if !quiet(&game).contains(&back(first)) {
                continue;
            }
            game.play(back(first)).expect("legal");
            let mut repeated = game.clone();
            if repeated.play(back(reply)).is_ok() && repeated.outcome().is_some() {
                return (game, back(reply));
            }
        }
    }
    panic!("no repeating pair of moves in the seeded game");
}

#[test]
fn a_move_that_draws_is_priced_for_the_root_side() {
    let (game, repeating) = game_with_a_repeating_move();
    let mut searcher = searcher(tafl_engine::search::DEFAULT_CONTEMPT);
    let draw = searcher.draw_score(&game);
    assert!(
        draw.0 < 0,
        "a positive contempt makes a draw cost the root side"
    );
    let scores = searcher.root_scores(&game, &Limits::depth(2));
    let line = scores
        .moves
        .iter()
        .find(|line| line.first == repeating)
        .expect("the repeating move is legal");
    assert_eq!(line.score, draw);
}

#[test]
fn a_limit_gives_the_deepest_depth_every_move_completed() {
    let game = middlegame(&Variant::tablut(), 12, 8);
    let limited = searcher(0).root_scores(
        &game,
        &Limits {
            nodes: Some(60_000),
            ..Limits::default()
        },
    );
    assert!(limited.depth >= 2, "depth {}", limited.depth);
    assert_eq!(limited.moves.len(), game.legal_moves().len());
    let fixed = searcher(0).root_scores(&game, &Limits::depth(limited.depth));
    assert_eq!(limited.moves, fixed.moves);
    // Too few nodes for one depth of every move: no scores.
    let starved = searcher(0).root_scores(
        &game,
        &Limits {
            nodes: Some(10),
            ..Limits::default()
        },
    );
    assert_eq!((starved.depth, starved.moves.len()), (0, 0));
}

#[test]
fn root_scores_search_on_one_thread_whatever_the_configuration() {
    let game = middlegame(&Variant::copenhagen(), 6, 9);
    let one = searcher(0).root_scores(&game, &Limits::depth(2));
    let mut two = Searcher::new(SearchConfig {
        threads: 2,
        hash_mb: HASH_MB,
    });
    two.set_contempt(0);
    assert_eq!(one.moves, two.root_scores(&game, &Limits::depth(2)).moves);
}

#[test]
fn a_finished_game_has_no_root_scores() {
    let game = position_with_an_ending_move(&Variant::tablut(), 3).expect("random games end");
    let mut ended = game.clone();
    let ending = game
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| {
            let mut child = game.clone();
            child.play(m).is_ok() && child.outcome().is_some()
        })
        .expect("found above");
    ended.play(ending).expect("legal");
    let scores = searcher(0).root_scores(&ended, &Limits::depth(3));
    assert_eq!((scores.depth, scores.moves.len()), (0, 0));
}
