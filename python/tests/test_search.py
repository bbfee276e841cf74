"""Search from Python: legal answers, limits, finished games, the Engine and stopping it."""

import threading
import time

import pytest

import tafl_engine as te
from conftest import record


@pytest.mark.parametrize("variant", te.variants())
def test_search_answers_a_legal_move(variant):
    game = te.Game(variant)
    result = game.search(depth=3)
    assert result.best_move in game.legal_moves()
    assert result.pv[0] == result.best_move
    assert result.depth == 3
    assert result.nodes > 0 and result.time_ms >= 0
    replay = game.copy()
    for m in result.pv:
        replay.play(m)


def test_search_by_time_returns_in_time():
    game = te.Game("tablut")
    game.play("e2-h2")
    start = time.perf_counter()
    result = game.search(movetime_ms=100)
    elapsed = time.perf_counter() - start
    assert result.best_move in game.legal_moves()
    assert elapsed < 1.0
    assert "best_move=" in repr(result)


def test_search_by_nodes():
    result = te.Game("tawlbwrdd").search(nodes=5000)
    assert result.best_move in te.Game("tawlbwrdd").legal_moves()


def test_search_finds_the_kings_escape():
    # Defenders to move: the king on c3 reaches a3 at once (RULES.md R14).
    game = te.Game.from_record(
        "tablut", record("t8", "9", "2K6", "9", "9", "9", "9", "9", "9"), "defenders"
    )
    result = game.search(depth=2)
    game.play(result.best_move)
    assert game.outcome == ("defenders", "king_escaped")
    assert result.forced_in == 1
    assert result.score_text == "win in 1"


def test_search_of_a_finished_game_has_no_move():
    game = te.Game.from_record(
        "tablut", record("9", "9", "9", "4t4", "3tKt3", "4t4", "9", "9", "9"), "defenders"
    )
    result = game.search(depth=2)
    assert result.best_move is None and result.pv == []


def test_search_needs_a_limit_and_sane_settings():
    game = te.Game("tablut")
    with pytest.raises(ValueError, match="at least one limit"):
        game.search()
    with pytest.raises(ValueError, match="depth must be at least 1"):
        game.search(depth=0)
    with pytest.raises(ValueError, match="threads"):
        game.search(depth=1, threads=0)
    with pytest.raises(ValueError, match="hash_mb"):
        te.Engine(hash_mb=0)
    with pytest.raises(TypeError):
        game.search(100)  # limits are keyword arguments


def test_engine_plays_a_game_against_itself():
    engine = te.Engine(hash_mb=8)
    assert engine.threads == 1 and engine.hash_mb == 8
    game = te.Game("tablut")
    for _ in range(10):
        if game.outcome is not None:
            break
        result = engine.search(game, nodes=3000)
        game.play(result.best_move)
    assert game.ply > 0
    engine.clear()
    assert engine.search(game, depth=1).depth >= 1 or game.outcome is not None


def test_engine_stop_ends_a_long_search():
    engine = te.Engine(hash_mb=8)
    game = te.Game("tawlbwrdd")
    results = []
    worker = threading.Thread(target=lambda: results.append(engine.search(game, movetime_ms=20000)))
    start = time.perf_counter()
    worker.start()
    time.sleep(0.3)
    engine.stop()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert time.perf_counter() - start < 5
    assert results[0].best_move in game.legal_moves()
