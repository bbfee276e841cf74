"""BatchEnv against the single-game API (Game, legal_action_mask, planes, play_action, outcome,
reward), move for move over random games with auto-reset and truncation; its options checked
against its own plain observations; bad input refused with nothing changed."""

from typing import Any, Dict, List, Tuple

import numpy as np
import numpy.typing as npt
import pytest

import tafl_engine as te

VARIANTS = ["tablut", "copenhagen", "hnefatafl-org-copenhagen-13"]


def planes_of(game: te.Game) -> npt.NDArray[np.uint8]:
    n = game.size
    return np.frombuffer(game.planes(), np.uint8).reshape(len(te.PLANES), n, n)


def check_observation(obs: Dict[str, Any], infos: Dict[str, Any], games: List[te.Game]) -> None:
    for i, game in enumerate(games):
        assert np.array_equal(obs["observation"][i], planes_of(game)), i
        assert np.array_equal(obs["action_mask"][i], game.legal_action_mask()), i
        assert infos["ply"][i] == game.ply
        assert infos["side_to_move"][i] == (0 if game.side_to_move == "attackers" else 1)


# The caps make some random games end by the rules and others at the cap; hnefatafl.org's 13x13
# game has a move limit of its own (H10), which ends every random game first (a draw,
# `move_limit`): its truncations are checked with a shorter cap.
@pytest.mark.parametrize("variant,cap,steps", [
    ("tablut", 60, 250),
    ("copenhagen", 250, 600),
    ("hnefatafl-org-copenhagen-13", 300, 300),
    ("hnefatafl-org-copenhagen-13", 100, 150),
])
def test_batch_env_matches_single_games_move_for_move(variant: str, cap: int, steps: int) -> None:
    count = 6
    env = te.BatchEnv(variant, count, seed=3, max_plies=cap)
    games = [te.Game(variant, max_plies=cap) for _ in range(count)]
    obs, infos = env.reset()
    assert obs["observation"].dtype == np.uint8 and obs["action_mask"].dtype == np.bool_
    check_observation(obs, infos, games)
    rng = np.random.default_rng(7)
    ended = {"terminated": 0, "truncated": 0}
    for _ in range(steps):
        actions = np.array([rng.choice(g.legal_actions()) for g in games], dtype=np.int64)
        movers = [g.side_to_move for g in games]
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert rewards.dtype == np.float32
        for i, game in enumerate(games):
            game.play_action(int(actions[i]))
            assert terminated[i] == game.terminated
            assert truncated[i] == game.truncated
            over = game.terminated or game.truncated
            assert infos["_final_obs"][i] == over
            if game.terminated:
                outcome = game.outcome
                assert outcome is not None
                assert rewards[i] == game.reward(movers[i])
                assert te.BatchEnv.REASONS[infos["reason"][i]] == outcome[1]
                winner = {"attackers": 1, "defenders": -1, "draw": 0}[outcome[0]]
                assert infos["winner"][i] == winner
                ended["terminated"] += 1
            else:
                assert rewards[i] == 0.0
                assert infos["reason"][i] == 0 and infos["winner"][i] == 0
            if over:
                ended["truncated"] += game.truncated
                assert np.array_equal(infos["final_obs"][i], planes_of(game))
                assert infos["episode_plies"][i] == game.ply
                games[i] = te.Game(variant, max_plies=cap)
            else:
                assert not infos["final_obs"][i].any()
                assert infos["episode_plies"][i] == 0
        check_observation(obs, infos, games)
    # The ends the case is for happened, or the test proved less than it says.
    if variant == "hnefatafl-org-copenhagen-13":
        assert ended["terminated"] > 0 if cap > 141 else ended["truncated"] > 0, ended
    else:
        assert ended["terminated"] > 0 and ended["truncated"] > 0, ended


def run(env: te.BatchEnv, steps: int, seed: int) -> List[Tuple[Any, ...]]:
    """`steps` steps of the environment's own random policy, every result kept."""
    out: List[Tuple[Any, ...]] = [env.reset(seed=seed)]
    for _ in range(steps):
        out.append(env.step(env.sample_legal_actions()))
    return out


def test_sampled_actions_are_legal_and_seeded() -> None:
    env = te.BatchEnv("copenhagen", 32, seed=1, max_plies=200)
    obs, _ = env.reset(seed=5)
    first = []
    for _ in range(300):
        actions = env.sample_legal_actions()
        assert actions.dtype == np.int64 and actions.shape == (32,)
        assert obs["action_mask"][np.arange(32), actions].all()
        first.append(actions)
        obs = env.step(actions)[0]
    # The same seed gives the same games; another seed others.
    env.reset(seed=5)
    again = []
    for _ in range(300):
        again.append(env.sample_legal_actions())
        env.step(again[-1])
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    env.reset(seed=6)
    assert not np.array_equal(env.sample_legal_actions(), first[0])


@pytest.mark.parametrize("variant", VARIANTS)
def test_threads_give_the_same_steps(variant: str) -> None:
    one = run(te.BatchEnv(variant, 7, max_plies=30), 80, seed=2)
    three = run(te.BatchEnv(variant, 7, max_plies=30, threads=3), 80, seed=2)
    for a, b in zip(one, three):
        for x, y in zip(a, b):
            if isinstance(x, dict):
                assert x.keys() == y.keys()
                assert all(np.array_equal(x[k], y[k]) for k in x)
            else:
                assert np.array_equal(x, y)


@pytest.mark.parametrize("variant", ["tablut", "hnefatafl-org-copenhagen-13"])
def test_side_to_move_perspective_history_and_dtypes(variant: str) -> None:
    """Every option against the plain observation of a twin environment given the same
    actions: side_to_move swaps the attackers' and defenders' planes (0/1, 8/9, and in the
    history) when the defenders are to move; history=k adds the piece planes (0-2) of the
    k-1 positions before (zeros before the game's start); float32 is the same numbers; bool
    the same flags, the repetition count as "seen before" and the ply as "not the start"."""
    count, history = 5, 3
    plain = te.BatchEnv(variant, count, max_plies=25)
    twins = {
        "relative": te.BatchEnv(variant, count, max_plies=25, perspective="side_to_move",
                                history=history),
        "float": te.BatchEnv(variant, count, max_plies=25, dtype="float32"),
        "bool": te.BatchEnv(variant, count, max_plies=25, dtype="bool"),
    }
    assert twins["relative"].num_planes == len(te.PLANES) + 3 * (history - 1)
    assert twins["relative"].plane_names[:2] == ["us", "them"]
    past: List[npt.NDArray[np.uint8]] = []
    obs, infos = plain.reset(seed=4)
    seen = {name: env.reset()[0]["observation"] for name, env in twins.items()}
    for _ in range(120):
        p = obs["observation"]
        past.append(p)
        defenders = infos["side_to_move"] == 1
        relative = seen["relative"]
        expected = p.copy()
        expected[defenders, 0], expected[defenders, 1] = p[defenders, 1], p[defenders, 0]
        expected[defenders, 8], expected[defenders, 9] = p[defenders, 9], p[defenders, 8]
        assert np.array_equal(relative[:, :12], expected)
        for back in range(1, history):
            planes = relative[:, 12 + 3 * (back - 1):12 + 3 * back]
            for i in range(count):
                if infos["ply"][i] < back:
                    assert not planes[i].any()
                else:
                    old = past[-1 - back][i, :3]
                    if defenders[i]:
                        old = old[[1, 0, 2]]
                    assert np.array_equal(planes[i], old)
        assert seen["float"].dtype == np.float32
        assert np.array_equal(seen["float"], p.astype(np.float32))
        flags = p != 0
        flags[:, 10] = p[:, 10] > 1
        assert seen["bool"].dtype == np.bool_ and np.array_equal(seen["bool"], flags)
        actions = plain.sample_legal_actions()
        obs, _, _, _, infos = plain.step(actions)
        seen = {name: env.step(actions)[0]["observation"] for name, env in twins.items()}


def test_an_illegal_action_names_the_game_and_steps_none() -> None:
    env = te.BatchEnv("tablut", 4, seed=1)
    twin = te.BatchEnv("tablut", 4, seed=1)
    obs, _ = env.reset()
    twin.reset()
    actions = env.sample_legal_actions()
    illegal = actions.copy()
    illegal[2] = int(np.flatnonzero(~obs["action_mask"][2])[0])
    with pytest.raises(ValueError, match="game 2: action"):
        env.step(illegal)
    for bad, error in [
        (np.array([0, 0, 0, 2592]), ValueError),
        (np.array([0, 0, -1, 0]), ValueError),
        (np.array([0, 0, 0]), ValueError),
        (np.zeros((2, 2), dtype=np.int64), ValueError),
        (np.array([0.0, 1.0, 2.0, 3.0]), TypeError),
        (np.array([2**64 - 1] * 4, dtype=np.uint64), ValueError),
    ]:
        with pytest.raises(error):
            env.step(bad)
    # Nothing changed: the same step as the twin that never saw the bad calls.
    a = env.step(actions)
    b = twin.step(actions)
    assert np.array_equal(a[0]["observation"], b[0]["observation"])
    assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
    assert (a[4]["ply"] == 1).all()


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="one size"):
        te.BatchEnv(["tablut", "copenhagen"])
    mixed = te.BatchEnv(["copenhagen", "tawlbwrdd"])
    assert mixed.num_envs == 2 and mixed.size == 11
    assert mixed.variants == ["copenhagen", "tawlbwrdd"]
    with pytest.raises(ValueError, match="num_envs"):
        te.BatchEnv(["tablut", "tablut"], 3)
    for kwargs in [{"num_envs": 0}, {"history": 0}, {"history": 17}, {"threads": 0},
                   {"max_plies": 0}, {"dtype": "int16"}, {"perspective": "mine"}]:
        with pytest.raises(ValueError):
            te.BatchEnv("tablut", **kwargs)
    with pytest.raises(ValueError, match="unknown variant"):
        te.BatchEnv("x" * 10_000_000)
    try:
        te.BatchEnv("x" * 10_000_000)
    except ValueError as error:
        assert len(str(error)) < 1000
    # A rules string can set up a finished game (no attackers: all captured); such games could
    # never be stepped, so the environment refuses them, and a playable one of the same board.
    over = "dim:5 esc:e start:/5/5/2K2/5/5/"
    assert te.Game(over).outcome == ("defenders", "all_pieces_captured")
    with pytest.raises(ValueError, match="is over at its start"):
        te.BatchEnv(over)
    with pytest.raises(ValueError, match="is over at its start"):
        te.BatchEnv(["dim:5 esc:e start:/5/5/2K2/5/2t2/", over])
    assert te.BatchEnv("dim:5 esc:e start:/5/5/2K2/5/2t2/").num_envs == 1


def test_returned_arrays_are_fresh() -> None:
    env = te.BatchEnv("tablut", 3, seed=0)
    obs, _ = env.reset()
    kept = obs["observation"].copy()
    env.step(env.sample_legal_actions())
    assert np.array_equal(obs["observation"], kept)
    obs["action_mask"][:] = False  # writable, and the environment's own state is untouched
    assert env.step(env.sample_legal_actions())[0]["action_mask"].any()


def test_a_step_releases_the_gil() -> None:
    import threading
    import time

    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    env = te.BatchEnv("hnefatafl-org-copenhagen-13", 4096, seed=0)
    env.reset()
    actions = env.sample_legal_actions()
    thread = threading.Thread(target=count)
    thread.start()
    time.sleep(0.01)
    before = ticks
    started = time.perf_counter()
    env.step(actions)  # one call of about 40 ms of processor time
    elapsed = time.perf_counter() - started
    after = ticks
    done.set()
    thread.join()
    # Held throughout, the GIL would let the counter tick about once during the call.
    assert after - before > min(10, elapsed * 1000 / 4), (after - before, elapsed)
