"""Objects shared between Python threads stay consistent, and long calls release the GIL."""

import random
import sys
import threading
import time

import tafl_engine as te


def run_threads(count, target):
    errors = []

    def wrapped(index):
        try:
            target(index)
        except BaseException as error:  # reported to the main thread below
            errors.append(error)

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert errors == []


def test_one_game_shared_by_threads_stays_consistent():
    game = te.Game("tablut")
    played = [0] * 8
    refused = [0] * 8
    undone = [0] * 8

    def work(index):
        rng = random.Random(index)
        for step in range(400):
            moves = game.legal_moves()
            if moves:
                try:
                    game.play(rng.choice(moves))
                    played[index] += 1
                except ValueError:
                    # Another thread moved in between: the move may no longer be legal.
                    refused[index] += 1
            if step % 3 == 0 and game.undo() is not None:
                undone[index] += 1
            game.record, game.board(), game.outcome, game.copy()

    # Switch threads often, so that they interleave between reading the moves and playing one.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        run_threads(8, work)
    finally:
        sys.setswitchinterval(interval)
    assert sum(played) > 0
    assert game.ply == sum(played) - sum(undone)
    # The history replays to the same game from the start.
    replay = te.Game("tablut")
    for m in game.moves:
        replay.play(m)
    assert replay == game


def test_copies_in_threads_play_independent_games():
    start = te.Game("tawlbwrdd")
    finals = {}

    def work(index):
        rng = random.Random(index)
        game = start.copy()
        while game.outcome is None and game.ply < 300:
            game.play(rng.choice(sorted(game.legal_moves())))
        finals[index] = game.moves

    run_threads(4, work)
    assert start.ply == 0
    for index, moves in finals.items():
        game = te.Game("tawlbwrdd")
        rng = random.Random(index)
        while game.outcome is None and game.ply < 300:
            game.play(rng.choice(sorted(game.legal_moves())))
        assert game.moves == moves


class Ticker:
    """A thread that counts while the `with` block runs: if the block held the GIL throughout,
    the count would stay at about one."""

    def __init__(self):
        self.ticks = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._count)

    def _count(self):
        while not self._done.is_set():
            self.ticks += 1
            time.sleep(0.001)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *_):
        self._done.set()
        self._thread.join()


def test_search_releases_the_gil():
    game = te.Game("tablut")
    with Ticker() as ticker:
        game.search(movetime_ms=400)
    assert ticker.ticks > 20


def test_perft_releases_the_gil_and_runs_in_parallel_threads():
    results = {}

    def work(index):
        results[index] = te.perft("tablut", 4)

    run_threads(3, work)
    assert list(results.values()) == [19913864] * 3


def test_one_engine_shared_by_threads():
    engine = te.Engine(hash_mb=8)
    games = [te.Game(name) for name in te.variants()] * 2
    answers = {}

    def work(index):
        answers[index] = (games[index], engine.search(games[index], nodes=2000).best_move)

    run_threads(len(games), work)
    for game, best_move in answers.values():
        assert best_move in game.legal_moves()


def test_a_search_waiting_for_a_busy_engine_does_not_hold_the_gil():
    engine = te.Engine(hash_mb=8)
    game = te.Game("tawlbwrdd")
    first = threading.Thread(target=lambda: engine.search(game, movetime_ms=600))
    first.start()
    time.sleep(0.1)
    # This search waits for the first to end: the other threads must run meanwhile.
    second = threading.Thread(target=lambda: engine.search(game, depth=1))
    second.start()
    time.sleep(0.05)
    with Ticker() as ticker:
        time.sleep(0.3)
    first.join(timeout=10)
    second.join(timeout=10)
    assert not first.is_alive() and not second.is_alive()
    assert ticker.ticks > 20
