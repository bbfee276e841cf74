"""Perft through Python: every fixture of tests/data/perft.txt to depth 3."""

import pytest

import tafl_engine as te


def test_every_fixture_up_to_depth_3(perft_fixtures):
    checked = 0
    for fixture in perft_fixtures:
        game = te.Game.from_record(fixture["game"], fixture["position"], fixture["side"])
        assert game.record == fixture["position"], fixture["id"]
        for depth, expected in fixture["counts"]:
            if depth <= 3:
                assert game.perft(depth) == expected, f"{fixture['id']} depth {depth}"
                checked += 1
    assert checked >= 3 * len(perft_fixtures)


def test_every_fixture_game_is_a_variant_name(perft_fixtures):
    names = set(te.variants())
    for fixture in perft_fixtures:
        assert fixture["game"] in names, fixture["id"]


def test_start_positions_by_name():
    assert te.perft("tablut", 0) == 1
    assert te.perft("tablut", 1) == 80
    assert te.perft("tablut", 4) == 19913864
    assert te.perft("tawlbwrdd", 3) == 1042016


def test_perft_of_a_game_is_of_its_current_position():
    game = te.Game("tablut")
    game.play("e2-h2")
    after = te.Game.from_record("tablut", game.record, "defenders")
    assert game.perft(3) == after.perft(3)


def test_threads_give_the_same_count():
    assert te.perft("tablut", 3, threads=2) == 353200
    assert te.Game("tawlbwrdd").perft(3, threads=3) == 1042016


def test_divide_adds_up_to_perft():
    game = te.Game("tablut")
    split = game.divide(3)
    assert len(split) == 80
    assert [m for m, _ in split] == sorted(game.legal_moves())
    assert sum(count for _, count in split) == 353200


def test_perft_by_rules_string():
    rules = te.Game("tablut").rules
    assert te.perft(rules, 2) == 4400


def test_perft_refuses_unknown_variants_and_zero_threads():
    with pytest.raises(ValueError, match="unknown variant 'chess'"):
        te.perft("chess", 1)
    with pytest.raises(ValueError, match="threads"):
        te.perft("tablut", 1, threads=0)
