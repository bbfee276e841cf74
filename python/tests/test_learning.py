"""For learning code: terminated/truncated with a ply cap, rewards, redo, the planes."""

import random

import numpy as np
import pytest

import tafl_engine as te
from conftest import record


def test_rewards_follow_the_outcome_from_each_side():
    game = te.Game.from_record("tablut", record("3t5", "9", "9", "9", "9", "9", "1tK6", "9", "9"))
    assert not game.terminated and not game.truncated
    assert game.reward("attackers") == game.reward("defenders") == 0.0
    game.play("d1-d7")  # captures the king
    assert game.terminated and game.outcome == ("attackers", "king_captured")
    assert game.reward("attackers") == 1.0 and game.reward("defenders") == -1.0
    draw = te.Game("tablut")
    for m in ["e2-h2", "e3-h3", "h2-e2", "h3-e3"]:
        draw.play(m)
    assert draw.terminated and draw.reward("attackers") == draw.reward("defenders") == 0.0
    with pytest.raises(ValueError, match="'white' is not a side"):
        draw.reward("white")


def test_a_ply_cap_truncates_but_does_not_end_the_game():
    game = te.Game("copenhagen", max_plies=3)
    assert game.max_plies == 3
    rng = random.Random(1)
    for ply in range(3):
        assert not game.truncated
        game.play_action(rng.choice(game.legal_actions()))
    assert game.truncated and not game.terminated and game.outcome is None
    game.play_action(rng.choice(game.legal_actions()))  # may be played on
    assert game.truncated
    game.max_plies = None
    assert not game.truncated
    game.max_plies = 100
    assert not game.truncated and game.copy().max_plies == 100
    for bad, error in [(0, ValueError), (-5, ValueError), ("x", TypeError)]:
        with pytest.raises(error, match="max_plies"):
            game.max_plies = bad
        with pytest.raises(error, match="max_plies"):
            te.Game("tablut", max_plies=bad)
    assert game.max_plies == 100


def test_random_games_end_terminated_or_truncated_in_every_variant():
    for variant in te.variants():
        game = te.Game(variant, max_plies=300)
        rng = random.Random(variant)
        while not (game.terminated or game.truncated):
            game.play_action(rng.choice(game.legal_actions()))
        assert game.terminated != game.truncated
        assert game.ply <= 300
        rewards = [game.reward(side) for side in ("attackers", "defenders")]
        assert sum(rewards) == 0 and (game.terminated or rewards == [0, 0])


def test_redo_plays_again_what_undo_took_back():
    game = te.Game("tablut")
    for m in ["e2-h2", "e3-h3", "h2-g2"]:
        game.play(m)
    records = [p for p, _ in game.positions]
    assert game.redo() is None
    assert game.undo() == "h2-g2" and game.undo() == "e3-h3"
    assert game.redo() == "e3-h3" and game.record == records[2]
    assert game.redo() == "h2-g2" and game.record == records[3]
    assert game.redo() is None
    # A new move forgets what undo took back.
    game.undo()
    game.play("d1-d2")
    assert game.redo() is None
    # A draw agreement taken back is agreed again.
    game.agree_draw()
    assert game.undo() is None and game.outcome is None
    assert game.redo() is None and game.outcome == ("draw", "agreement")
    # Redo survives a copy and a pickle.
    game.undo()
    game.undo()
    import pickle
    for clone in (game.copy(), pickle.loads(pickle.dumps(game))):
        assert clone.redo() == "d1-d2"
        assert clone.redo() is None and clone.outcome == ("draw", "agreement")


def planes_of(game):
    n = game.size
    return np.frombuffer(game.planes(), np.uint8).reshape(len(te.PLANES), n, n)


def plane(game, name):
    return planes_of(game)[te.PLANES.index(name)]


def squares(array):
    """The names of the squares where `array` (row = rank) is 1."""
    return sorted(f"{'abcdefghijk'[x]}{y + 1}" for y, x in zip(*np.nonzero(array)))


def test_the_planes_show_special_squares_escape_hostility_and_counts():
    assert te.PLANES == (
        "attackers", "defenders", "king", "castle", "attackers_to_move", "corners", "escape",
        "special", "hostile_to_attackers", "hostile_to_defenders", "repetitions", "ply",
    )
    tablut = te.Game("tablut")
    assert squares(plane(tablut, "castle")) == ["e5"] == squares(plane(tablut, "special"))
    assert squares(plane(tablut, "corners")) == []
    assert plane(tablut, "escape").sum() == 32  # every edge square of 9x9
    # The castle holds the king: hostile to nobody (R10); empty, to both.
    assert plane(tablut, "hostile_to_attackers").sum() == 0
    empty = te.Game.from_record("tablut", record("t8", "1K7", "9", "9", "9", "9", "9", "9", "9"))
    assert squares(plane(empty, "hostile_to_attackers")) == ["e5"]
    assert squares(plane(empty, "hostile_to_defenders")) == ["e5"]
    fetlar = te.Game("fetlar")
    corners = ["a1", "a11", "k1", "k11"]
    assert squares(plane(fetlar, "corners")) == corners == squares(plane(fetlar, "escape"))
    assert squares(plane(fetlar, "special")) == sorted(corners + ["f6"])
    assert squares(plane(fetlar, "hostile_to_defenders")) == corners
    ashton = te.Game("ashton")
    assert plane(ashton, "special").sum() == 17  # 16 camps and the throne
    # Counts: repetitions and plies on every square.
    game = te.Game("opentafl-tablut")
    for m in ["e2-h2", "e3-h3", "h2-e2", "h3-e3"]:
        game.play(m)
    assert (plane(game, "repetitions") == 2).all() and (plane(game, "ply") == 4).all()
    long_game = te.Game("copenhagen", max_plies=400)
    rng = random.Random(2)
    while long_game.ply < 300 and not long_game.terminated:
        long_game.play_action(rng.choice(long_game.legal_actions()))
    assert (plane(long_game, "ply") == min(long_game.ply, 255)).all()
