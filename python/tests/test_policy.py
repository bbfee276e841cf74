"""Policy targets (issue 42): `Engine.root_scores` scores every legal move, aligned with the
action space, each score that of a separate search of the move one ply shallower; the softmax
`policy_target`; limits, errors and Ctrl-C."""

import math
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import tafl_engine as te


def seen_by_mover(result):
    """The score of a search of the position after a move (`SearchResult`), for the side that
    made the move: negated, a forced result one ply further away (worked out here from the
    documented score scale, 1000 - n for a win in n plies)."""
    if result.forced_in is None:
        return -result.score
    plies = abs(result.forced_in) + 1
    return -(1000.0 - plies) if result.forced_in > 0 else 1000.0 - plies


def random_game(variant, plies, seed):
    rng = np.random.default_rng(seed)
    game = te.Game(variant)
    for _ in range(plies):
        if game.terminated:
            break
        game.play_action(int(rng.choice(game.legal_actions())))
    return game


@pytest.mark.parametrize(
    "variant, plies, depth",
    [("tablut", 0, 3), ("tablut", 10, 3), ("copenhagen", 0, 2), ("hnefatafl-org-copenhagen-13", 0, 2)],
)
def test_each_score_is_a_separate_search_of_its_move(variant, plies, depth):
    # The engine prices draws for the root's side; a separate search of a move prices them for
    # the other side. These positions have no draw within the plies searched (a start, and a
    # seeded game), so the scores must agree exactly.
    game = random_game(variant, plies, 1)
    found = te.Engine(hash_mb=2).root_scores(game, depth=depth)
    assert found.depth == depth
    space = game.action_space
    scores = found.scores
    assert scores.dtype == np.float32 and scores.shape == (space.num_actions,)
    assert np.array_equal(found.legal_mask, game.legal_action_mask())
    assert np.array_equal(~np.isnan(scores), game.legal_action_mask())
    assert sorted(move for move, _ in found.moves) == sorted(game.legal_moves())
    for move, score in found.moves:
        assert scores[space.move_to_action(move)] == np.float32(score)
        child = game.copy()
        child.play(move)
        if child.terminated:
            winner = child.outcome[0]
            expected = 999.0 if winner == game.side_to_move else -999.0 if winner != "draw" else 0.0
        else:
            separate = te.Engine(hash_mb=2).search(child, depth=depth - 1)
            expected = seen_by_mover(separate)
        assert score == pytest.approx(expected, abs=1e-9), move
    best = max(score for _, score in found.moves)
    assert dict(found.moves)[found.best_move] == best


def test_policy_target_is_the_softmax_of_the_scores_over_legal_moves():
    game = random_game("tablut", 6, 2)
    found = te.Engine(hash_mb=1).root_scores(game, depth=2)
    legal = found.legal_mask
    scores = found.scores.astype(np.float64)
    for temperature in (0.1, 1.0, 25.0):
        policy = found.policy_target(temperature)
        assert policy.dtype == np.float32 and policy.shape == scores.shape
        assert np.all(policy[~legal] == 0)
        weights = np.exp((scores[legal] - scores[legal].max()) / temperature)
        np.testing.assert_allclose(policy[legal], weights / weights.sum(), rtol=1e-5, atol=1e-7)
        assert math.isclose(float(policy.sum()), 1.0, rel_tol=1e-5)
    greedy = found.policy_target(0)
    best = scores[legal].max()
    ties = legal & (scores == best)
    np.testing.assert_allclose(greedy[ties], 1 / ties.sum(), rtol=1e-6)
    assert np.all(greedy[~ties] == 0)
    assert greedy[game.action_space.move_to_action(found.best_move)] > 0
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="temperature"):
            found.policy_target(bad)


def test_a_node_limit_gives_the_deepest_depth_all_moves_completed():
    game = te.Game("tablut")
    limited = te.Engine(hash_mb=1).root_scores(game, nodes=30_000)
    assert limited.depth >= 2
    fixed = te.Engine(hash_mb=1).root_scores(game, depth=limited.depth)
    assert limited.moves == fixed.moves
    starved = te.Engine(hash_mb=1).root_scores(game, nodes=5)
    assert starved.depth == 0 and starved.moves == [] and starved.best_move is None
    assert np.all(np.isnan(starved.scores))
    with pytest.raises(ValueError, match="no scores"):
        starved.policy_target()


def test_a_finished_game_has_no_scores():
    game = te.Game.from_record("tablut", "/9/9/9/9/9/9/9/9/4K4/", "attackers")
    while not game.terminated:
        game.play_action(game.legal_actions()[0])
    found = te.Engine(hash_mb=1).root_scores(game, depth=2)
    assert found.moves == [] and found.depth == 0
    assert not found.legal_mask.any()


def test_limits_are_checked():
    engine = te.Engine(hash_mb=1)
    game = te.Game("tablut")
    with pytest.raises(ValueError, match="at least one limit"):
        engine.root_scores(game)
    with pytest.raises(ValueError, match="depth at least 2"):
        engine.root_scores(game, depth=1)
    with pytest.raises(ValueError):
        engine.root_scores(game, depth=0)
    assert "RootScores(depth=2" in repr(engine.root_scores(game, depth=2))


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
@pytest.mark.parametrize(
    "call",
    [
        'te.Engine(hash_mb=1).root_scores(te.Game("tawlbwrdd"), depth=60)',
        "te.Mcts(simulations=10_000_000, batch_size=64).search("
        'te.Game("tablut"), lambda p, m: (m.astype("f4"), np.zeros(len(p), "f4")))',
    ],
)
def test_ctrl_c_stops_root_scores_and_the_mcts(call):
    script = textwrap.dedent(
        f"""
        import signal, time
        import numpy as np
        import tafl_engine as te
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("started", flush=True)
        try:
            {call}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            raise
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "started"
        time.sleep(0.5)
        assert child.poll() is None, "the call ended by itself"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=5)
    finally:
        if child.poll() is None:
            child.kill()
    assert "interrupted" in out, (out, err)
    assert "KeyboardInterrupt" in err


def test_root_scores_pickle_field_for_field():
    import pickle

    result = te.Engine(hash_mb=2).root_scores(random_game("tablut", 6, 3), depth=2)
    again = pickle.loads(pickle.dumps(result))
    assert np.array_equal(again.scores, result.scores, equal_nan=True)
    assert np.array_equal(again.legal_mask, result.legal_mask)
    assert (again.moves, again.best_move, again.depth, again.nodes, again.time_ms) == (
        result.moves,
        result.best_move,
        result.depth,
        result.nodes,
        result.time_ms,
    )
    assert np.array_equal(again.policy_target(0.5), result.policy_target(0.5))
    with pytest.raises(ValueError, match="3 scores against 2 legal-mask entries"):
        te.RootScores._restore([0.0, 1.0, 2.0], [1, 1], [], None, 0, 0, 0.0)
