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
    # Defenders to move: the king on c3 reaches a3 at once (R14: an edge square wins).
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
    with pytest.raises(ValueError, match="depth must be from 1 to 64, not 0"):
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


def test_search_results_and_engines_pickle():
    import pickle

    result = te.Game("tablut").search(depth=3)
    again = pickle.loads(pickle.dumps(result))
    assert again == result and again.pv == result.pv and again.score_text == result.score_text
    assert again != te.Game("tablut").search(depth=2)
    engine = te.Engine(threads=2, hash_mb=4)
    copy = pickle.loads(pickle.dumps(engine))
    assert (copy.threads, copy.hash_mb) == (2, 4) and copy is not engine
    assert copy.search(te.Game("tablut"), depth=2).best_move in te.Game("tablut").legal_moves()


def best_move_in_a_process(engine, record):
    """Runs in a worker process of test_multiprocessing_sends_engines_games_and_results."""
    game = te.Game.from_position_string("tablut", record)
    return engine.search(game, depth=3), game


def test_multiprocessing_sends_engines_games_and_results():
    import multiprocessing

    game = te.Game("tablut")
    game.play("e2-h2")
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        answers = pool.starmap(
            best_move_in_a_process, [(te.Engine(hash_mb=4), game.position_string)] * 2
        )
    for result, back in answers:
        assert back == te.Game.from_position_string("tablut", game.position_string)
        assert result.best_move in game.legal_moves()
    assert answers[0][0].pv == answers[1][0].pv  # the same search in each process


def test_game_search_uses_one_table_again_and_searches_as_a_fresh_one():
    game = te.Game("tawlbwrdd")
    game.play("e2-c2")
    first = game.search(depth=4)
    made = te._core._search_tables_made()
    results = [game.search(depth=4) for _ in range(10)]
    # The same table each time (none set up), emptied: the same tree as the first search.
    assert te._core._search_tables_made() == made
    for result in results:
        assert (result.nodes, result.pv, result.score) == (first.nodes, first.pv, first.score)
    # And the same as an engine with a new table of that size.
    fresh = te.Engine(hash_mb=16).search(game, depth=4)
    assert (fresh.nodes, fresh.pv) == (first.nodes, first.pv)
    # Another size is another table.
    game.search(depth=2, hash_mb=2)
    assert te._core._search_tables_made() == made + 1
