"""Integer actions: the numbering, masks (one game and batched), play_action, and bad input."""

import pickle
import random

import numpy as np
import pytest

import tafl_engine as te

FILES = "abcdefghijklmnopqrs"  # a to s: boards up to 19x19, no letter left out
DIRECTIONS = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}  # north, east, south, west


def action_of(move, n):
    """The documented formula, written from the docs: (from * 4 + direction) * (n - 1) +
    (distance - 1), from = rank * n + file."""
    a, b = move.split("-")
    x0, y0 = FILES.index(a[0]), int(a[1:]) - 1
    x1, y1 = FILES.index(b[0]), int(b[1:]) - 1
    dx, dy = x1 - x0, y1 - y0
    step = (dx // abs(dx) if dx else 0, dy // abs(dy) if dy else 0)
    direction = {v: k for k, v in DIRECTIONS.items()}[step]
    distance = abs(dx) + abs(dy)
    return ((y0 * n + x0) * 4 + direction) * (n - 1) + distance - 1


@pytest.mark.parametrize("size, count", [(5, 400), (7, 1176), (9, 2592), (11, 4840), (19, 25992)])
def test_every_board_size_has_n_n_4_n_minus_1_actions(size, count):
    space = te.ActionSpace(size)
    assert space.size == size and space.num_actions == count


@pytest.mark.parametrize("variant", te.variants())
def test_legal_actions_masks_and_moves_agree_along_random_games(variant):
    rng = random.Random(variant)
    game = te.Game(variant)
    space = game.action_space
    assert space == te.ActionSpace(game.size) and game.num_actions == space.num_actions
    for _ in range(80):
        moves = game.legal_moves()
        actions = game.legal_actions()
        assert actions == sorted(action_of(m, game.size) for m in moves)
        assert [space.action_to_move(a) for a in actions] == sorted(moves, key=lambda m: action_of(m, game.size))
        mask = game.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (space.num_actions,)
        assert list(np.flatnonzero(mask)) == actions
        assert np.array_equal(space.legal_mask(game), mask)
        assert space.legal_actions(game) == actions
        if not actions:
            break
        action = rng.choice(actions)
        move = space.action_to_move(action)
        assert space.move_to_action(move) == action
        copy = game.copy()
        assert game.play_action(action) == copy.play(move)
        assert game == copy
    # Once over, nothing is legal.
    if game.terminated:
        assert game.legal_actions() == [] and not game.legal_action_mask().any()


def test_batched_masks_are_the_single_masks_in_order():
    games = [te.Game("tawlbwrdd") for _ in range(4)]
    rng = random.Random(7)
    for i, game in enumerate(games):
        for _ in range(i * 5):
            game.play_action(rng.choice(game.legal_actions()))
    batch = te.legal_action_masks(games)
    assert batch.shape == (4, 4840) and batch.dtype == np.bool_
    for row, game in zip(batch, games):
        assert np.array_equal(row, game.legal_action_mask())
    assert np.array_equal(te.ActionSpace(11).legal_masks(games), batch)
    with pytest.raises(ValueError, match="one size"):
        te.legal_action_masks([te.Game("tablut"), te.Game("tawlbwrdd")])
    with pytest.raises(ValueError, match="at least one game"):
        te.legal_action_masks([])
    with pytest.raises(ValueError, match="11x11 board, the action space is for 9x9"):
        te.ActionSpace(9).legal_mask(te.Game("tawlbwrdd"))


def test_masks_are_writable_copies():
    game = te.Game("tablut")
    mask = game.legal_action_mask()
    mask[:] = False
    assert game.legal_action_mask().sum() == 80


def test_numpy_integers_are_actions():
    game = te.Game("tablut")
    action = np.flatnonzero(game.legal_action_mask())[0]
    assert isinstance(action, np.integer)
    game.play_action(action)
    game.play_action(np.int32(game.legal_actions()[0]))
    assert game.ply == 2


def test_bad_actions_are_refused_and_change_nothing():
    game = te.Game("tablut")
    space = game.action_space
    before = (game.record, game.ply)
    a1_west = 3 * 8  # from a1 (square 0), west (3), distance 1: off the board
    cases = [
        (-1, ValueError, "action must be from 0 to 2591, not -1"),
        (2592, ValueError, "action must be from 0 to 2591, not 2592"),
        (2**70, ValueError, "action must be from 0 to 2591"),
        ("e2-h2", TypeError, "action must be an integer, not str"),
        (1.5, TypeError, "action must be an integer, not float"),
        (a1_west, ValueError, "lands off the 9x9 board"),
        (action_of("e5-e6", 9), ValueError, "no piece of the attackers on e5"),
    ]
    for action, error, message in cases:
        with pytest.raises(error, match=message):
            game.play_action(action)
        assert (game.record, game.ply) == before
    with pytest.raises(ValueError, match="lands off"):
        space.action_to_move(a1_west)
    with pytest.raises(ValueError, match="not a move along a rank or a file"):
        space.move_to_action("a1-b2")
    with pytest.raises(ValueError, match="j1"):
        space.move_to_action("a1-j1")
    for size in (4, 20, -3):
        with pytest.raises(ValueError, match="size must be from 5 to 19"):
            te.ActionSpace(size)


def test_action_spaces_pickle_and_compare():
    space = te.ActionSpace(11)
    assert pickle.loads(pickle.dumps(space)) == space
    assert space != te.ActionSpace(9)
    assert repr(space) == "ActionSpace(11)"
