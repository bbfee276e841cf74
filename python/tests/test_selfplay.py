"""tafl_engine.selfplay without Ray: one game as a pure function of its settings and index, the
positions and targets it keeps checked against the rules, and the driver's output (TSV, numpy
shards, manifest, resuming) with the in-process backend."""

import json
import subprocess
import sys

import numpy as np
import pytest

import tafl_engine as te
from tafl_engine import selfplay
from tafl_engine.selfplay import SelfPlaySettings, load_arrays, play_game, run_selfplay

# Small budgets: these games take a few hundredths of a second each.
BRANDUB = SelfPlaySettings("brandub", nodes=400, attacker_nodes=800, max_plies=120, seed=5)
TABLUT = SelfPlaySettings("tablut", nodes=300, opening_plies=4, max_plies=150, seed=9)


def same_game(a, b):
    assert (a.index, a.winner, a.plies) == (b.index, b.winner, b.plies)
    assert a.records == b.records and a.sides == b.sides and a.ply_of == b.ply_of
    assert a.scores == b.scores and a.actions == b.actions and a.quiet == b.quiet
    assert np.array_equal(a.planes, b.planes) and np.array_equal(a.masks, b.masks)


@pytest.mark.parametrize("settings", [BRANDUB, TABLUT], ids=["brandub", "tablut"])
def test_a_game_depends_on_its_settings_and_index_alone(settings):
    first = play_game(settings, 3)
    # The same engine after another game, and a new engine: the same game.
    engine = te.Engine(threads=1, hash_mb=16)
    play_game(settings, 0, engine)
    same_game(first, play_game(settings, 3, engine))
    # Another index or another seed: another opening.
    assert play_game(settings, 4).records[0] != first.records[0]
    reseeded = SelfPlaySettings(**{**settings.__dict__, "seed": settings.seed + 1})
    assert play_game(reseeded, 3).records[0] != first.records[0]


def king_free_line(game, corners):
    """An oracle of the king's free line, from the board's letters: an empty line from the king
    to an edge square, or with `corners` to a corner (he passes over the empty castle)."""
    board = game.board()
    n = len(board)

    def escapes(r, f):
        if corners:
            return r in (0, n - 1) and f in (0, n - 1)
        return r in (0, n - 1) or f in (0, n - 1)

    king = game.king
    if king is None:
        return False
    rank, file = int(king[1:]) - 1, ord(king[0]) - ord("a")
    for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, f = rank + dr, file + df
        while 0 <= r < n and 0 <= f < n and board[r][f] == ".":
            if escapes(r, f):
                return True
            r, f = r + dr, f + df
    return False


@pytest.mark.parametrize("settings", [BRANDUB, TABLUT], ids=["brandub", "tablut"])
def test_positions_and_targets_agree_with_the_rules(settings):
    quiet_seen = loud_seen = 0
    for index in range(3):
        game = play_game(settings, index)
        count = len(game.records)
        assert count > 0
        start = te.Game(settings.variant)
        assert game.planes.shape == (count, len(te.PLANES), start.size, start.size)
        assert game.masks.shape == (count, start.num_actions)
        assert game.ply_of == list(range(settings.opening_plies, settings.opening_plies + count))
        assert game.plies == settings.opening_plies + count
        for i in range(count):
            # The record reads back as the position searched, with the same planes (but the
            # two counts, which start again in a set-up game) and the same legal actions.
            position = te.Game.from_record(settings.variant, game.records[i], game.sides[i])
            planes = np.frombuffer(position.planes(), np.uint8).reshape(game.planes[i].shape)
            assert np.array_equal(planes[:-2], game.planes[i][:-2])
            assert np.array_equal(position.legal_action_mask(), game.masks[i])
            assert game.masks[i][game.actions[i]]
            # Targets: a forced score is the search's integer, any other is in soldiers x 100
            # and well inside it.
            forced = abs(game.scores[i]) >= 1_000_000 - 10_000
            assert forced or abs(game.scores[i]) < 100 * 200
            captured = position.play_action(game.actions[i])
            if i + 1 < count:
                # The move played leads to the next position kept.
                assert position.record == game.records[i + 1]
                assert position.side_to_move == game.sides[i + 1]
            elif game.winner is not None:
                assert position.outcome is not None and position.outcome[0] == game.winner
            if game.quiet[i]:
                quiet_seen += 1
                assert not forced and captured == []
                before = te.Game.from_record(settings.variant, game.records[i], game.sides[i])
                assert not king_free_line(before, corners=settings.variant == "brandub")
                for move in before.legal_moves():
                    after = before.copy()
                    after.play(move)
                    assert after.outcome is None or after.outcome[0] != game.sides[i]
            else:
                loud_seen += 1
        assert game.winner in (None, "attackers", "defenders")
    # Both kinds occur, so the rule is exercised both ways.
    assert quiet_seen > 0 and loud_seen > 0


def test_tsv_lines_are_the_trainers_fields():
    game = play_game(BRANDUB, 1)
    lines = game.tsv_lines().splitlines()
    assert len(lines) == sum(game.quiet) > 0
    for line in lines:
        number, record, side, score, result, ply = line.split("\t")
        assert int(number) == 1
        assert side in ("attackers", "defenders")
        assert result == ("draw" if game.winner is None else game.winner)
        i = game.records.index(record)
        assert (game.sides[i], game.scores[i], game.ply_of[i]) == (side, int(score), int(ply))
        te.Game.from_record(BRANDUB.variant, record, side)


def test_the_trainers_score_is_in_the_evaluations_own_units():
    # Tablut plays with its network: the shown score is the network's units through its scale.
    engine = te.Engine(threads=1)
    game = te.Game("tablut")
    for _ in range(6):
        result = engine.search(game, depth=3)
        per_logit, edge = engine.score_scale(game)
        side = game.side_to_move
        units = selfplay.score_units(result, (per_logit, edge), side)
        shown_again = units * 100 / per_logit + (edge if side == "defenders" else -edge)
        assert abs(shown_again - result.score * 100) <= 1, (units, result.score)
        game.play(result.best_move)
    assert engine.score_scale(te.Game("tablut")) != engine.score_scale(te.Game("opentafl-tablut"))


def test_the_score_is_the_searchs_in_hundredths():
    game = te.Game("tablut")
    result = te.Engine(threads=1).search(game, depth=3)
    assert selfplay.score_units(result) == round(result.score * 100)
    won = te.Game.from_record("brandub", "/3t3/7/7/K6/7/7/3t3/", "defenders")
    forced = te.Engine(threads=1).search(won, depth=3)
    assert forced.forced_in == 1
    assert selfplay.score_units(forced) == 1_000_000 - 1


def written_tsv(out):
    return (out / selfplay.TSV_NAME).read_text()


def test_a_local_run_writes_every_game_once(tmp_path):
    out = tmp_path / "run"
    summary = run_selfplay("brandub", 5, out, backend="local", nodes=400, attacker_nodes=800,
                           max_plies=120, seed=5, shard_games=2, progress=None)
    assert summary.games_played == 5 and summary.progress.games_done == 5
    expected = [play_game(BRANDUB, i) for i in range(5)]
    assert written_tsv(out) == "".join(g.tsv_lines() for g in expected)
    arrays = load_arrays(out)
    assert sorted(arrays["games_done"].tolist()) == list(range(5))
    assert arrays["game"].tolist() == [g.index for g in expected for _ in g.records]
    assert np.array_equal(arrays["planes"], np.concatenate([g.planes for g in expected]))
    assert np.array_equal(arrays["masks"], np.concatenate([g.masks for g in expected]))
    assert arrays["actions"].tolist() == [a for g in expected for a in g.actions]
    assert arrays["scores"].tolist() == [s for g in expected for s in g.scores]
    assert arrays["quiet"].tolist() == [q for g in expected for q in g.quiet]
    assert arrays["records"].tolist() == [r for g in expected for r in g.records]
    for row in range(len(arrays["game"])):
        game = expected[arrays["game"][row]]
        side = ("attackers", "defenders")[arrays["sides"][row]]
        want = 0 if game.winner is None else (1 if game.winner == side else -1)
        assert arrays["results"][row] == want
    assert summary.progress.positions == len(arrays["game"])
    assert summary.progress.quiet_positions == len(written_tsv(out).splitlines())
    manifest = json.loads((out / selfplay.MANIFEST_NAME).read_text())
    assert manifest["settings"]["seed"] == 5 and manifest["games_written"] == 5


def test_a_run_resumes_and_skips_what_is_written(tmp_path):
    out = tmp_path / "run"
    options = dict(backend="local", nodes=300, opening_plies=4, max_plies=150, seed=9,
                   progress=None)
    run_selfplay("tablut", 3, out, **options)
    # A line of a game no shard holds (a run stopped between the TSV and the shard): dropped.
    with open(out / selfplay.TSV_NAME, "a") as tsv:
        tsv.write("4\t/9/9/9/9/9/9/9/9/9/\tattackers\t0\tdraw\t4\n")
    summary = run_selfplay("tablut", 6, out, **options)
    assert summary.games_played == 3
    expected = "".join(play_game(TABLUT, i).tsv_lines() for i in range(6))
    assert written_tsv(out) == expected
    assert sorted(load_arrays(out)["games_done"].tolist()) == list(range(6))
    again = run_selfplay("tablut", 6, out, **options)
    assert again.games_played == 0 and written_tsv(out) == expected


def test_a_run_stopped_part_way_keeps_what_it_wrote_and_resumes(tmp_path):
    out = tmp_path / "run"
    options = dict(backend="local", nodes=400, attacker_nodes=800, max_plies=120, seed=5,
                   shard_games=2)
    seen = []

    def stop_after_three(progress):
        seen.append(progress.games_done)
        if progress.games_done == 3:
            raise KeyboardInterrupt  # as Ctrl-C would, between two games

    with pytest.raises(KeyboardInterrupt):
        run_selfplay("brandub", 6, out, progress=stop_after_three, progress_seconds=0, **options)
    # The three games written are kept (the third in a shard of its own, written on the way out).
    assert sorted(load_arrays(out)["games_done"].tolist()) == [0, 1, 2]
    summary = run_selfplay("brandub", 6, out, progress=None, **options)
    assert summary.games_played == 3
    expected = [play_game(BRANDUB, i) for i in range(6)]
    assert written_tsv(out) == "".join(g.tsv_lines() for g in expected)
    assert load_arrays(out)["game"].tolist() == [g.index for g in expected for _ in g.records]


def test_bad_settings_are_refused_and_change_nothing(tmp_path):
    out = tmp_path / "run"
    for bad in (dict(nodes=0), dict(depth=-1), dict(max_plies=0), dict(opening_plies=-2),
                dict(workers=0), dict(shard_games=0), dict(backend="threads")):
        with pytest.raises(ValueError):
            run_selfplay("tablut", 2, out, **{"backend": "local", **bad})
    with pytest.raises(ValueError):
        run_selfplay("no-such-game", 2, out, backend="local")
    with pytest.raises(ValueError):
        run_selfplay("tablut", -1, out, backend="local")
    assert not out.exists()
    run_selfplay("brandub", 1, out, backend="local", nodes=200, progress=None)
    before = written_tsv(out)
    with pytest.raises(ValueError, match="other settings"):
        run_selfplay("brandub", 2, out, backend="local", nodes=300, progress=None)
    assert written_tsv(out) == before
    with pytest.raises(ValueError):
        play_game(BRANDUB, -1)


def test_the_package_imports_without_ray_and_says_what_is_missing(tmp_path):
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import tafl_engine.selfplay as s\n"
        "try:\n"
        "    s.run_selfplay('brandub', 1, sys.argv[1])\n"
        "except ImportError as e:\n"
        "    print('ImportError', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "x")], capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith("ImportError") and "[ray]" in out
    code = "import tafl_engine.selfplay, sys; print('ray' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout
    assert loaded.strip() == "False"


def test_the_command_line(tmp_path, capsys):
    out = tmp_path / "cli"
    assert selfplay.main(["--variant", "brandub", "--games", "2", "--out", str(out), "--local",
                          "--nodes", "200", "--seed", "3"]) == 0
    assert "2 games played" in capsys.readouterr().out
    assert written_tsv(out).splitlines()
    assert selfplay.main(["--variant", "nonesuch", "--games", "2", "--out", str(tmp_path / "b"),
                          "--local"]) == 2
    assert "selfplay:" in capsys.readouterr().err
