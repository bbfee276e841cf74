"""The batched MCTS (issue 42): whole games of three variants with a uniform numpy "network"
and never an illegal move (python/examples/mcts_uniform.py); a one-move win found with uniform
priors; the callback's batches; its answers checked with clear errors."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import tafl_engine as te

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mcts_uniform.py"
spec = importlib.util.spec_from_file_location("mcts_uniform", EXAMPLE)
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)

THREE = ["tablut", "copenhagen", "hnefatafl-org-copenhagen-13"]


def uniform(planes, masks):
    return masks.astype(np.float32), np.zeros(len(planes), dtype=np.float32)


@pytest.mark.parametrize("variant", THREE)
def test_the_example_plays_a_whole_game_of_legal_moves(variant):
    game = example.play(variant, simulations=32, batch_size=8, max_plies=120, seed=3)
    assert game.terminated or game.truncated
    assert game.ply > 0
    # Replayed from the start, every move of the game is legal where it was played.
    replay = te.Game(variant)
    for move in game.moves:
        assert replay.is_legal(move)
        replay.play(move)


@pytest.mark.parametrize("variant", THREE)
@pytest.mark.parametrize("batch_size", [1, 5, 64])
def test_visits_fall_on_legal_moves_only_and_count_the_simulations(variant, batch_size):
    game = example.play(variant, simulations=8, batch_size=4, max_plies=6, seed=1)
    game.max_plies = None
    seen = []

    def checked(planes, masks):
        assert planes.dtype == np.uint8 and masks.dtype == np.bool_
        assert planes.shape[1:] == (len(te.PLANES), game.size, game.size)
        assert masks.shape == (len(planes), game.num_actions)
        assert 1 <= len(planes) <= batch_size
        # Leaves whose game is over are valued by the rules: every leaf has moves.
        assert masks.any(axis=1).all()
        seen.append(len(planes))
        # Large priors on illegal actions must be ignored.
        priors = np.where(masks, 1.0, 1e6).astype(np.float32)
        return priors, np.zeros(len(planes), dtype=np.float32)

    before = game.position_string
    visits, value = te.Mcts(simulations=100, batch_size=batch_size).search(game, checked)
    assert game.position_string == before
    assert visits.dtype == np.int32 and visits.shape == (game.num_actions,)
    assert np.all(visits[~game.legal_action_mask()] == 0)
    # Every simulation but the first (which evaluates the root) goes through a root move.
    assert visits.sum() == 99
    assert sum(seen) <= 100 and isinstance(value, float) and -1 <= value <= 1


def find_one_move_win(variant, seed):
    """A position of a random game where the side to move wins with one move (and which)."""
    rng = np.random.default_rng(seed)
    for _ in range(200):
        game = te.Game(variant)
        while not game.terminated:
            wins = []
            for action in game.legal_actions():
                child = game.copy()
                child.play_action(action)
                if child.outcome and child.outcome[0] == game.side_to_move:
                    wins.append(action)
            if wins and len(wins) < len(game.legal_actions()):
                return game, set(wins)
            game.play_action(int(rng.choice(game.legal_actions())))
    raise AssertionError("no one-move win in 200 random games")


@pytest.mark.parametrize("variant, seed", [("tablut", 1), ("copenhagen", 2)])
def test_finds_a_one_move_win_with_uniform_priors(variant, seed):
    game, wins = find_one_move_win(variant, seed)
    visits, value = te.Mcts(simulations=800, batch_size=8).search(game, uniform)
    assert int(np.argmax(visits)) in wins
    assert value > 0.5


def test_a_list_of_games_is_searched_together():
    games = [example.play("tablut", 4, 2, max_plies=n, seed=n) for n in (1, 2, 3)]
    for game in games:
        game.max_plies = None
    calls = []

    def counting(planes, masks):
        calls.append(len(planes))
        return uniform(planes, masks)

    visits, values = te.Mcts(simulations=50, batch_size=16).search(games, counting)
    assert visits.shape == (3, 2592) and visits.dtype == np.int32
    assert values.shape == (3,) and values.dtype == np.float32
    assert list(visits.sum(axis=1)) == [49, 49, 49]
    assert max(calls) > 3, "leaves of the three trees share batches"
    for game, row in zip(games, visits):
        assert np.all(row[~game.legal_action_mask()] == 0)
    with pytest.raises(ValueError, match="one size"):
        te.Mcts().search([te.Game("tablut"), te.Game("copenhagen")], uniform)
    with pytest.raises(ValueError, match="at least one game"):
        te.Mcts().search([], uniform)


def test_a_finished_game_needs_no_callback():
    game, wins = find_one_move_win("tablut", 1)
    game.play_action(min(wins))

    def never(planes, masks):
        raise AssertionError("called")

    visits, value = te.Mcts(simulations=10).search(game, never)
    assert visits.sum() == 0 and value == -1.0


def answer(priors=None, values=None):
    def evaluate(planes, masks):
        p = masks.astype(np.float32) if priors is None else priors(masks)
        v = np.zeros(len(planes), np.float32) if values is None else values(len(planes))
        return p, v

    return evaluate


@pytest.mark.parametrize(
    "evaluate, error, message",
    [
        (answer(priors=lambda m: np.ones((len(m), 10), np.float32)), ValueError, r"priors must have shape \(1, 2592\), got \(1, 10\)"),
        (answer(values=lambda b: np.zeros((b, 1), np.float32)), ValueError, r"values must have shape \(1,\), got \(1, 1\)"),
        (answer(priors=lambda m: np.where(m, np.nan, 0).astype(np.float32)), ValueError, "finite number at least 0, got NaN"),
        (answer(priors=lambda m: -m.astype(np.float32)), ValueError, "at least 0, got -1"),
        (answer(values=lambda b: np.full(b, 2.0)), ValueError, r"values\[0\] must be a number in \[-1, 1\], got 2"),
        (answer(values=lambda b: np.full(b, np.nan)), ValueError, r"in \[-1, 1\], got NaN"),
        (answer(priors=lambda m: m.astype(str)), ValueError, "real numbers"),
        (lambda planes, masks: None, TypeError, "must return a pair"),
        (lambda planes, masks: 1 / 0, ZeroDivisionError, "division"),
    ],
)
def test_bad_answers_of_the_evaluator_are_clear_errors(evaluate, error, message):
    with pytest.raises(error, match=message):
        te.Mcts(simulations=5, batch_size=1).search(te.Game("tablut"), evaluate)


def test_nan_priors_of_illegal_actions_are_ignored_and_zero_priors_mean_uniform():
    game = te.Game("tablut")
    nan_elsewhere = answer(priors=lambda m: np.where(m, 1.0, np.nan))
    visits, _ = te.Mcts(simulations=30, batch_size=4).search(game, nan_elsewhere)
    assert visits.sum() == 29
    zeros = answer(priors=lambda m: np.zeros(m.shape))
    visits, _ = te.Mcts(simulations=30, batch_size=4).search(game, zeros)
    assert visits.sum() == 29 and np.all(visits[~game.legal_action_mask()] == 0)


def test_settings_are_checked():
    assert repr(te.Mcts()) == "Mcts(c_puct=1.5, simulations=100, batch_size=8)"
    for bad in (dict(c_puct=-1.0), dict(c_puct=float("nan")), dict(simulations=0), dict(batch_size=0)):
        with pytest.raises(ValueError):
            te.Mcts(**bad)
    with pytest.raises(TypeError, match="Game or a list"):
        te.Mcts().search("tablut", uniform)
