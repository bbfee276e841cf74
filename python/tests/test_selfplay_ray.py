"""tafl_engine.selfplay on a local Ray with 2 CPUs (skipped without Ray: `pip install
"./python[ray]"`, or scripts/ray-selfplay-check.sh): the same games as in process, and a worker
killed while it plays a game loses and duplicates none."""

import os
import signal
import threading
import time

import numpy as np
import pytest

from tafl_engine import selfplay
from tafl_engine.selfplay import SelfPlaySettings, load_arrays, play_game, run_selfplay

ray = pytest.importorskip("ray")

# Games of about half a second each on one core, so that a worker is killed inside one.
SETTINGS = SelfPlaySettings("tablut", nodes=12000, opening_plies=6, max_plies=200, seed=21)
OPTIONS = dict(
    nodes=SETTINGS.nodes,
    opening_plies=SETTINGS.opening_plies,
    max_plies=SETTINGS.max_plies,
    seed=SETTINGS.seed,
    progress=None,
)
GAMES = 10


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def expected():
    """The games played in this process, the oracle of every Ray run."""
    return [play_game(SETTINGS, i) for i in range(GAMES)]


def check_output(out, expected):
    """Every game 0..GAMES-1 exactly once, with exactly its positions."""
    assert (out / selfplay.TSV_NAME).read_text() == "".join(g.tsv_lines() for g in expected)
    arrays = load_arrays(out)
    assert sorted(arrays["games_done"].tolist()) == list(range(GAMES))
    assert arrays["game"].tolist() == [g.index for g in expected for _ in g.records]
    assert arrays["records"].tolist() == [r for g in expected for r in g.records]
    assert arrays["actions"].tolist() == [a for g in expected for a in g.actions]
    assert np.array_equal(arrays["planes"], np.concatenate([g.planes for g in expected]))


def test_ray_plays_the_same_games_as_one_process(local_ray, expected, tmp_path):
    summary = run_selfplay("tablut", GAMES, tmp_path / "run", workers=2, **OPTIONS)
    assert summary.games_played == GAMES and summary.workers == 2
    check_output(tmp_path / "run", expected)


def ancestors(pid):
    """The process ids above `pid`, from /proc."""
    seen = []
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                # The name in parentheses may hold spaces: the parent's id follows its ')'.
                pid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        seen.append(pid)
    return seen


def playing_workers():
    """Ray workers of this test's Ray (descendants of this process) playing a game now: Ray
    titles a worker running a task `ray::<task name>`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                title = cmdline.read().decode(errors="replace")
        except OSError:
            continue
        if title.startswith("ray::selfplay_game") and os.getpid() in ancestors(int(entry)):
            found.append(int(entry))
    return found


def run_and_kill_one_worker(out, **options):
    """Runs the games on Ray in a thread; SIGKILLs one worker while it plays a game."""
    outcome = {}

    def run():
        try:
            outcome["summary"] = run_selfplay("tablut", GAMES, out, workers=2, **OPTIONS, **options)
        except BaseException as error:  # reported by the test below
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and thread.is_alive() and time.monotonic() < deadline:
        workers = playing_workers()
        if workers:
            killed = workers[0]
            os.kill(killed, signal.SIGKILL)
        else:
            time.sleep(0.05)
    thread.join(timeout=300)
    assert not thread.is_alive(), "the run did not end"
    assert "error" not in outcome, outcome.get("error")
    assert killed is not None, "no worker was seen playing a game"
    return outcome["summary"]


def test_a_worker_killed_mid_game_is_retried_by_ray(local_ray, expected, tmp_path):
    summary = run_and_kill_one_worker(tmp_path / "run")
    assert summary.games_played == GAMES
    check_output(tmp_path / "run", expected)


def test_a_worker_killed_mid_game_without_retries_is_resubmitted(local_ray, expected, tmp_path):
    # No retries by Ray: the driver sees the worker die and submits the game again, so this
    # also proves that the kill hit a game being played.
    summary = run_and_kill_one_worker(tmp_path / "run", max_retries=0)
    assert summary.progress.resubmitted == 1
    assert summary.games_played == GAMES
    check_output(tmp_path / "run", expected)
