"""Game: setting up, moves, captures, undo, outcomes, history and the board."""

import copy
import pickle

import numpy as np
import pytest

import tafl_engine as te
from conftest import record

TABLUT_START = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"


def test_variants_are_the_crates_and_each_starts_a_game():
    names = te.variants()
    assert "tablut" in names and "tawlbwrdd" in names
    for name in names:
        game = te.Game(name)
        assert game.side_to_move in ("attackers", "defenders")
        assert game.outcome is None
        assert len(game.legal_moves()) > 0
        assert te.Game(name.upper()).record == game.record


def test_tablut_start():
    game = te.Game("tablut")
    assert game.variant == "tablut" and game.display_name == "Tablut"
    assert game.size == 9
    assert game.side_to_move == "attackers"
    assert game.record == TABLUT_START
    assert game.castle == "e5" and game.king == "e5"
    moves = game.legal_moves()
    assert len(moves) == 80 and len(set(moves)) == 80
    assert "e2-h2" in moves and "d1-d2" in moves
    assert game.ply == 0 and game.moves == [] and game.history == []


def test_tawlbwrdd_start():
    game = te.Game("tawlbwrdd")
    assert game.size == 11
    assert game.castle == "f6"
    assert len(game.legal_moves()) == 136
    assert game.board()[10] == list("....ttt....")


def test_board_rows_start_at_rank_1():
    board = te.Game("tablut").board()
    assert len(board) == 9 and all(len(row) == 9 for row in board)
    assert board[0] == list("...ttt...")
    assert board[4] == list("ttTTKTTtt")
    assert board[1][4] == "t"  # e2


def test_play_returns_captures_and_changes_side():
    game = te.Game.from_record("tablut", record("2t6", "3Tt4", "9", "9", "4K4", "9", "9", "9", "9"))
    assert game.play("c1-c2") == ["d2"]
    assert game.side_to_move == "defenders"
    assert game.board()[1][3] == "."
    assert game.history == [("c1-c2", ["d2"])]


def test_play_reads_full_notation():
    game = te.Game("tablut")
    assert game.play("te2-h2") == []
    assert game.moves == ["e2-h2"]


@pytest.mark.parametrize(
    "move, reason",
    [
        ("a1-a2", "no piece of the attackers on a1"),
        ("e5-e6", "no piece of the attackers on e5"),
        ("d1-d5", "blocked"),
        ("d1-e2", "not a move along a rank or a file"),
        ("", "malformed move"),
        ("e2", "malformed move"),
        ("e2-z9", "malformed move"),
        ("hello", "malformed move"),
    ],
)
def test_illegal_or_malformed_moves_raise_and_change_nothing(move, reason):
    game = te.Game("tablut")
    game.play("e2-h2")
    game.play("e3-h3")
    state = lambda: (game.record, game.side_to_move, game.history, game.legal_moves(), game.hash)
    before = state()
    with pytest.raises(ValueError, match=reason):
        game.play(move)
    assert state() == before


def test_moves_of_the_wrong_side_are_refused():
    game = te.Game("tablut")
    with pytest.raises(ValueError, match="no piece of the attackers on e3"):
        game.play("e3-h3")
    game.play("e2-h2")
    with pytest.raises(ValueError, match="no piece of the defenders on d1"):
        game.play("d1-d2")


def test_castle_is_refused_as_a_destination():
    game = te.Game.from_record("tablut", record("4t4", "9", "9", "9", "9", "9", "9", "1K7", "9"))
    with pytest.raises(ValueError, match="castle"):
        game.play("e1-e5")
    assert game.is_legal("e1-e4")
    assert not game.is_legal("e1-e5")
    with pytest.raises(ValueError, match="malformed"):
        game.is_legal("nonsense")


def test_undo_takes_back_moves_in_order():
    game = te.Game("tablut")
    records = [game.record]
    for m in ["e2-h2", "e3-h3", "d1-d2"]:
        game.play(m)
        records.append(game.record)
    assert game.positions == [
        (r, side) for r, side in zip(records, ["attackers", "defenders"] * 2)
    ]
    assert game.undo() == "d1-d2" and game.record == records[2]
    assert game.undo() == "e3-h3" and game.record == records[1]
    assert game.undo() == "e2-h2" and game.record == records[0]
    assert game.undo() is None
    assert game.side_to_move == "attackers" and game.ply == 0


def test_undo_restores_captured_pieces():
    game = te.Game.from_record("tablut", record("2t6", "3Tt4", "9", "9", "4K4", "9", "9", "9", "9"))
    start = game.record
    game.play("c1-c2")
    assert game.undo() == "c1-c2"
    assert game.record == start


def test_king_captured():
    game = te.Game.from_record("tablut", record("3t5", "9", "9", "9", "9", "9", "1tK6", "9", "9"))
    assert game.play("d1-d7") == ["c7"]
    assert game.outcome == ("attackers", "king_captured")
    assert game.king is None
    assert game.legal_moves() == []
    with pytest.raises(ValueError, match="the game is over"):
        game.play("b7-b8")
    game.undo()
    assert game.outcome is None and game.king == "c7"


def test_king_escaped():
    game = te.Game.from_record(
        "tablut", record("t8", "9", "2K6", "9", "9", "9", "9", "9", "9"), "defenders"
    )
    game.play("c3-a3")
    assert game.outcome == ("defenders", "king_escaped")


def test_no_legal_moves_is_a_draw():
    game = te.Game.from_record(
        "tablut", record("9", "9", "9", "4t4", "3tKt3", "4t4", "9", "9", "9"), "defenders"
    )
    assert game.outcome == ("draw", "no_legal_moves")
    assert game.legal_moves() == []


def test_hnefatafl_org_defenders_may_not_recreate_a_position():
    # H12: after a4-b4 e5-e3 b4-a4, the defenders' e3-e5 would bring the start's board back.
    game = te.Game("hnefatafl-org-copenhagen")
    for m in ["a4-b4", "e5-e3", "b4-a4"]:
        game.play(m)
    assert "e3-e5" not in game.legal_moves() and "e3-e4" in game.legal_moves()
    actions = game.legal_actions()
    assert game.action_space.move_to_action("e3-e5") not in actions
    assert list(np.flatnonzero(game.legal_action_mask())) == actions
    with pytest.raises(ValueError, match="e3-e5"):
        game.play("e3-e5")
    assert game.ply == 3


def test_repetition_is_a_draw_and_undo_lifts_it():
    game = te.Game("tablut")
    for m in ["e2-h2", "e3-h3", "h2-e2"]:
        game.play(m)
        assert game.repetitions == 1
    game.play("h3-e3")
    assert game.repetitions == 2 == game.repetition_draw_count
    assert game.outcome == ("draw", "repetition")
    assert game.legal_moves() == []
    game.undo()
    assert game.outcome is None and game.repetitions == 1


def test_draw_by_agreement_and_its_undo():
    game = te.Game("tablut")
    game.play("e2-h2")
    game.agree_draw()
    assert game.outcome == ("draw", "agreement")
    assert game.undo() is None
    assert game.outcome is None and game.ply == 1


def test_hash_follows_the_position():
    game = te.Game("tablut")
    start = game.hash
    game.play("e2-h2")
    assert game.hash != start
    game.undo()
    assert game.hash == start
    assert te.Game("tablut").hash == start


def test_from_record_and_from_rules():
    game = te.Game.from_record("tablut", TABLUT_START, "defenders")
    assert game.side_to_move == "defenders"
    assert "e3-h3" in game.legal_moves()
    rules = te.Game("tawlbwrdd").rules
    assert rules.startswith("dim:11")
    again = te.Game.from_rules(rules)
    assert again.size == 11 and again.record == te.Game("tawlbwrdd").record
    custom = te.Game.from_record(rules, te.Game("tawlbwrdd").record, "attackers")
    assert len(custom.legal_moves()) == 136


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: te.Game("chess"), "unknown variant 'chess': the variants are tablut, tawlbwrdd"),
        (lambda: te.Game.from_rules("dim:9 ber:m"), "ber:m"),
        (lambda: te.Game.from_rules("dim:9 bogus:1"), "unknown field 'bogus'"),
        (lambda: te.Game.from_rules("hello"), "not a key:value field"),
        (lambda: te.Game.from_record("tablut", "/9/9/", "attackers"), "bad position record"),
        (lambda: te.Game.from_record("tablut", "/7/7/7/7/7/7/7/", "attackers"), "7 rows"),
        (lambda: te.Game.from_record("tablut", "/K8/9/9/9/9/9/9/9/8K/"), "second king"),
        (lambda: te.Game.from_record("tablut", TABLUT_START, "white"), "'white' is not a side"),
        (lambda: te.Game.from_record("tablut", "/9/9/9/9/9/9/9/9/8x/"), "'x'"),
    ],
)
def test_setup_errors_carry_the_crates_reason(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_type_errors_for_wrong_argument_types():
    with pytest.raises(TypeError):
        te.Game(9)
    with pytest.raises(TypeError):
        te.Game("tablut").play(None)


def test_copy_is_independent():
    game = te.Game("tablut")
    game.play("e2-h2")
    for clone in (game.copy(), copy.copy(game), copy.deepcopy(game)):
        assert clone == game and clone is not game
        clone.play("e3-h3")
        assert clone != game
        assert game.ply == 1


def test_pickle_round_trip_keeps_history_and_result():
    game = te.Game("tablut")
    for m in ["e2-h2", "e3-h3", "h2-e2", "h3-e3"]:
        game.play(m)
    restored = pickle.loads(pickle.dumps(game))
    assert restored == game
    assert restored.outcome == ("draw", "repetition")
    assert restored.history == game.history
    agreed = te.Game.from_record("tablut", TABLUT_START, "defenders")
    agreed.agree_draw()
    again = pickle.loads(pickle.dumps(agreed))
    assert again.outcome == ("draw", "agreement")
    assert again.side_to_move == "defenders"


def test_games_are_not_hashable_but_compare():
    with pytest.raises(TypeError):
        hash(te.Game("tablut"))
    assert te.Game("tablut") == te.Game("tablut")
    assert te.Game("tablut") != te.Game("tawlbwrdd")
    assert te.Game("tablut") != "tablut"


def test_text_forms():
    game = te.Game("tablut")
    assert str(game) == game.diagram()
    assert game.diagram().startswith("9  . . . a a a . . .")
    assert repr(game).startswith("Game('tablut', record='/3ttt3/")
    assert "side_to_move='attackers'" in repr(game)


def test_planes_of_one_game():
    game = te.Game("tablut")
    data = game.planes()
    n, planes = 9, len(te.PLANES)
    assert te.PLANES[:5] == ("attackers", "defenders", "king", "castle", "attackers_to_move")
    assert isinstance(data, bytes) and len(data) == planes * n * n
    plane = lambda p: [data[p * n * n + row * n : p * n * n + (row + 1) * n] for row in range(n)]
    board = game.board()
    for row in range(n):
        for col in range(n):
            assert plane(0)[row][col] == (board[row][col] == "t")
            assert plane(1)[row][col] == (board[row][col] == "T")
            assert plane(2)[row][col] == (board[row][col] == "K")
            assert plane(3)[row][col] == (row == 4 and col == 4)
    to_move = te.PLANES.index("attackers_to_move")
    assert set(data[to_move * n * n : (to_move + 1) * n * n]) == {1}
    game.play("e2-h2")
    assert set(game.planes()[to_move * n * n : (to_move + 1) * n * n]) == {0}


def test_encode_planes_batches_games_in_order():
    games = [te.Game("tablut") for _ in range(3)]
    games[1].play("e2-h2")
    batch = te.encode_planes(games)
    each = len(te.PLANES) * 81
    assert len(batch) == 3 * each
    for i, game in enumerate(games):
        assert batch[i * each : (i + 1) * each] == game.planes()
    with pytest.raises(ValueError, match="one size"):
        te.encode_planes([te.Game("tablut"), te.Game("tawlbwrdd")])
    with pytest.raises(ValueError, match="at least one game"):
        te.encode_planes([])


def test_numpy_wraps_planes_without_a_copy():
    np = pytest.importorskip("numpy")
    games = [te.Game("tawlbwrdd"), te.Game("tawlbwrdd")]
    data = te.encode_planes(games)
    array = np.frombuffer(data, dtype=np.uint8).reshape(2, len(te.PLANES), 11, 11)
    assert not array.flags.owndata
    assert array[0, 2, 5, 5] == 1  # the king on f6
    assert array[:, 0].sum() == 2 * 24


def test_a_panic_in_the_extension_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="internal error in tafl_engine.*boom"):
        te._core._panic_for_tests("boom")
    assert len(te.Game("tablut").legal_moves()) == 80
