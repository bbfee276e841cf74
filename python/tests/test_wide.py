"""Boards above 11x11 (13x13 to 19x19): games, actions, planes, symmetries, records, search."""

import pickle

import numpy as np
import pytest

import tafl_engine as te

THIRTEEN = "hnefatafl-org-copenhagen-13"
# OpenTafl's Alea Evangelii (tests/data/opentafl-wide.txt), as OpenTafl sends it to an engine.
ALEA = (
    "dim:19 name:Alea_Evangelii esc:c atkf:y "
    "cor:a1,a2,b1,b2,a18,b18,a19,b19,r1,r2,s1,s2,r18,r19,s18,s19, cens: cenp:tcnkTCNK cenh: "
    "cenhe:tcnkTCNK tfr:w start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/"
    "3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/"
    "7t1t1t7/t4t7t4t/19/2t2t7t2t2/"
)


def test_the_13x13_game_is_a_built_in_name_with_the_servers_counts():
    assert THIRTEEN in te.variants()
    game = te.Game(THIRTEEN)
    assert game.size == 13 and game.variant == THIRTEEN
    assert game.castle == "g7" and game.king == "g7"
    # The counts of hnefatafl.org's server's own code (tests/data/hnefatafl-org-perft.txt).
    assert len(game.legal_moves()) == 180
    assert te.perft(THIRTEEN, 2) == 20348
    assert game.perft(2, threads=2) == 20348
    assert sum(count for _, count in game.divide(2)) == 20348


def test_a_19x19_rules_string_plays_to_s19():
    game = te.Game(ALEA)
    assert game.size == 19 and game.display_name == "Alea Evangelii"
    # OpenTafl's own counts (tests/data/opentafl-wide.txt).
    assert len(game.legal_moves()) == 580
    assert game.perft(2) == 107492
    assert len(game.board()) == 19 and all(len(row) == 19 for row in game.board())
    assert game.diagram().splitlines()[0].startswith("19  + + a")
    far = next(m for m in game.legal_moves() if any(c in m for c in "lmnopqrs"))
    game.play(far)
    assert game.moves == [far] and game.undo() == far and game.redo() == far
    with pytest.raises(ValueError):
        game.play("t1-t5")


def test_actions_masks_and_planes_of_a_13x13_game():
    game = te.Game(THIRTEEN)
    space = game.action_space
    assert space.size == 13 and game.num_actions == 13 * 13 * 4 * 12
    mask = game.legal_action_mask()
    actions = game.legal_actions()
    assert mask.sum() == len(actions) == 180
    assert sorted(space.action_to_move(a) for a in actions) == sorted(game.legal_moves())
    for a in actions[:20]:
        assert space.move_to_action(space.action_to_move(a)) == a
    assert te.legal_action_masks([game, game.copy()]).shape == (2, game.num_actions)
    planes = np.frombuffer(game.planes(), np.uint8).reshape(len(te.PLANES), 13, 13)
    assert planes[te.PLANES.index("king")][6][6] == 1
    assert planes[te.PLANES.index("attackers")].sum() == 32
    both = te.encode_planes([game, game.copy()])
    assert len(both) == 2 * len(te.PLANES) * 13 * 13
    with pytest.raises(ValueError):
        te.encode_planes([game, te.Game("tablut")])
    captured = game.play_action(actions[0])
    assert isinstance(captured, list) and game.ply == 1


def test_symmetries_records_pickles_and_copies_of_a_wide_game():
    game = te.Game(THIRTEEN)
    for move_number in range(20):
        moves = sorted(game.legal_moves())
        game.play(moves[(move_number * 7) % len(moves)])
    assert len(game.symmetries()) == 8
    turned = game.transformed("rotate90")
    assert turned.size == 13 and turned.ply == game.ply
    assert turned.transformed("rotate270") == game
    read, tags = te.read_otg(game.to_otg({"event": "wide"}))
    assert read == game and tags["event"] == "wide"
    assert pickle.loads(pickle.dumps(game)) == game
    assert game.copy() == game and game != te.Game(THIRTEEN)
    assert te.Game.from_position_string(THIRTEEN, game.position_string).record == game.record
    assert "hnefatafl-org-copenhagen-13" in repr(game)


def test_search_and_engine_on_wide_boards():
    for variant in (THIRTEEN, ALEA):
        game = te.Game(variant)
        result = game.search(depth=2)
        assert result.best_move in game.legal_moves()
        engine = te.Engine(hash_mb=8)
        result = engine.search(game, depth=1)
        assert result.best_move in game.legal_moves()
        game.play(result.best_move)
