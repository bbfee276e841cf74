//! The search on boards above 11x11 (docs/wide-boards.md): on the wide grid it plays with the
//! hand-written evaluation and the same alpha-beta as on the narrow one.
//!
//! Three oracles: every game of tests/data/opentafl-variants.txt (5x5 to 11x11) read for both
//! grids, searched to the same depth on one thread without order-dependent pruning, gives the
//! same score on both (the narrow grid's search being checked by tests/engine/search.rs); along seeded
//! random games of
//! tests/data/opentafl-wide.txt (13x13, 15x15, 19x19) the search reports a win next move exactly
//! when playing every move finds one, and its move is such a win; and whole games between two
//! searchers on 13x13 (hnefatafl.org's rules) and 19x19 play only legal moves.

use crate::common;

use common::variant_fixtures::{variant_fixtures, wide_fixtures};
use tafl_engine::search::{Features, Limits, SearchConfig, SearchResult, Searcher};
use tafl_engine::{Game, Grid, Narrow, Position, Side, Variant, Wide};

fn searcher() -> Searcher {
    let mut searcher = Searcher::new(SearchConfig {
        threads: 1,
        hash_mb: 16,
    });
    // The wide grid has no network: compare the hand-written evaluation on both grids.
    searcher.set_features(Features {
        learned_eval: false,
        ..Features::default()
    });
    searcher
}

/// A fixture's game: its rules string, with the side to move the block gives.
fn game_of<B: Grid>(rules: &str, side: Side) -> Game<B>
where
    Variant<B>: std::str::FromStr<Err: std::fmt::Debug>,
{
    let variant: Variant<B> = rules.parse().expect("the fixture's rules string reads");
    let start = variant.start().with_side_to_move(side);
    Game::from_position(start)
}

/// A result's moves as text, comparable across grids.
fn line<B: Grid>(result: &SearchResult<B>) -> Vec<String> {
    result.pv.iter().map(ToString::to_string).collect()
}

/// A searcher whose result does not hang on the order it tries moves in: no pruning that
/// depends on a move's place in the list or on a bound found by the moves before it, so its
/// score is the minimax value of the same tree (quiescence included) on either grid.
fn order_free_searcher() -> Searcher {
    let mut searcher = searcher();
    searcher.set_features(Features {
        null_move: false,
        late_move_reductions: false,
        futility: false,
        reverse_futility: false,
        late_move_pruning: false,
        learned_eval: false,
        ..Features::default()
    });
    searcher
}

#[test]
fn both_grids_search_every_variant_alike() {
    let (mut narrow_searcher, mut wide_searcher) = (order_free_searcher(), order_free_searcher());
    let mut compared = 0;
    for fixture in variant_fixtures() {
        if fixture.rules.is_empty() {
            continue;
        }
        let narrow: Game<Narrow> = game_of(&fixture.rules, fixture.side());
        let wide: Game<Wide> = game_of(&fixture.rules, fixture.side());
        narrow_searcher.clear();
        wide_searcher.clear();
        let depth = 3;
        let a = narrow_searcher.search(&narrow, &Limits::depth(depth), |_| {});
        let b = wide_searcher.search(&wide, &Limits::depth(depth), |_| {});
        // The scores agree; the moves may not where two score alike (the grids generate moves
        // in different orders, and each keeps the first of equals it meets).
        assert_eq!(
            (a.score, a.depth),
            (b.score, b.depth),
            "{}: the narrow grid's search and the wide grid's differ (lines {:?} and {:?})",
            fixture.id,
            line(&a),
            line(&b)
        );
        compared += 1;
    }
    assert!(compared >= 9, "only {compared} variants compared");
}

/// Whether the side to move wins with one of its moves, by playing them all.
fn wins_next_move(position: &Position<Wide>) -> bool {
    let me = position.side_to_move();
    position.legal_moves().into_iter().any(|m| {
        let mut next = *position;
        next.play(m).expect("generated moves are legal");
        next.outcome().and_then(|outcome| outcome.winner()) == Some(me)
    })
}

/// A xorshift64 sequence for the random games.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn the_search_sees_a_win_next_move_on_large_boards_exactly_when_there_is_one() {
    let mut searcher = searcher();
    let (mut wins, mut positions) = (0, 0);
    for (index, fixture) in wide_fixtures().iter().enumerate() {
        let mut random = XorShift(0x9e37_79b9_7f4a_7c15 ^ index as u64);
        let mut position = game_of::<Wide>(&fixture.rules, fixture.side())
            .position()
            .to_owned();
        for _ in 0..60 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            searcher.clear();
            let result = searcher.search(&Game::from_position(position), &Limits::depth(1), |_| {});
            let best = result.best_move.expect("a position with moves");
            assert!(
                position.is_legal(best),
                "{}: {best} is not legal",
                fixture.id
            );
            let expected = wins_next_move(&position);
            assert_eq!(
                result.score.forced_in() == Some(1),
                expected,
                "{}: {position:?} scored {}",
                fixture.id,
                result.score
            );
            if expected {
                let mut next = position;
                next.play(best).expect("legal");
                assert_eq!(
                    next.outcome().and_then(|outcome| outcome.winner()),
                    Some(position.side_to_move()),
                    "{}: {best} does not win",
                    fixture.id
                );
                wins += 1;
            }
            positions += 1;
            // Random games, but take a win when there is one half the time: more won ends.
            let m = moves[random.below(moves.len())];
            position.play(m).expect("generated moves are legal");
            if position.outcome().is_some() {
                break;
            }
        }
    }
    assert!(positions >= 300, "only {positions} positions searched");
    assert!(wins >= 3, "only {wins} positions with a win next move");
}

/// Plays a game between two searchers at `depth` for at most `plies` plies; every move the
/// game refuses fails the test. Returns the plies played.
fn self_play(rules: &str, depth: u32, plies: usize) -> usize {
    let variant: Variant<Wide> = rules.parse().expect("the rules read");
    let mut game = Game::new(&variant);
    let (mut attackers, mut defenders) = (searcher(), searcher());
    // With the network setting of the default too: on the wide grid it has no effect.
    defenders.set_features(Features::default());
    let mut played = 0;
    while game.outcome().is_none() && played < plies {
        let searcher = match game.position().side_to_move() {
            Side::Attackers => &mut attackers,
            Side::Defenders => &mut defenders,
        };
        let result = searcher.search(&game, &Limits::depth(depth), |info| {
            assert!(!info.pv.is_empty(), "an empty line at depth {}", info.depth);
        });
        let best = result.best_move.expect("a game not over has a move");
        // The line is a sequence of legal moves from the position.
        let mut walk = *game.position();
        for &m in &result.pv {
            walk.play(m)
                .unwrap_or_else(|e| panic!("{rules}: pv {:?}: {e}", result.pv));
            if walk.outcome().is_some() {
                break;
            }
        }
        game.play(best)
            .unwrap_or_else(|e| panic!("{rules}: move {played}: {best}: {e}"));
        played += 1;
    }
    played
}

#[test]
fn searchers_play_whole_games_on_thirteen_and_nineteen_squares() {
    let thirteen = Variant::<Wide>::hnefatafl_org_copenhagen_13();
    assert!(self_play(&thirteen.to_string(), 2, 400) > 10);
    let alea = wide_fixtures()
        .into_iter()
        .find(|fixture| fixture.rules.contains("dim:19"))
        .expect("a 19x19 block");
    assert!(self_play(&alea.rules, 1, 60) > 10);
}
