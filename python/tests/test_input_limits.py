"""Issue 42's three small defects: masks of the wrong length, huge strings quoted whole in error
messages, and action spaces of board sizes no rules have."""

from typing import Any, Callable, List, Tuple

import numpy as np
import pytest

import tafl_engine as te

HUGE = "e" * 10_000_000


@pytest.mark.parametrize("length", [2593, 2591, 5, 0])
def test_transform_mask_refuses_a_mask_of_the_wrong_length(length: int) -> None:
    space = te.ActionSpace(9)
    with pytest.raises(ValueError, match="2592"):
        space.transform_mask(np.zeros(length, dtype=bool), "rotate90")
    with pytest.raises(ValueError, match="2592"):
        space.transform_mask(np.zeros((3, length), dtype=bool), "rotate90")


def test_transform_mask_still_maps_masks_of_any_leading_axes() -> None:
    game = te.Game("tablut")
    space = game.action_space
    mask = game.legal_action_mask()
    image = space.transform_mask(np.stack([mask, mask]), "rotate90")
    assert image.shape == (2, 2592)
    assert np.array_equal(image[1], game.transformed("rotate90").legal_action_mask())


def test_transform_planes_and_actions_refuse_wrong_shapes_too() -> None:
    space = te.ActionSpace(9)
    with pytest.raises(ValueError, match="9"):
        space.transform_planes(np.zeros((12, 9, 10)), "rotate90")
    with pytest.raises(ValueError, match="2591"):
        space.transform_actions(np.array([0, 2592]), "rotate90")


@pytest.mark.parametrize("size", [10, 4, 6, 20, 21, 0, -1])
def test_action_space_refuses_sizes_no_board_has(size: int) -> None:
    with pytest.raises(ValueError, match="size"):
        te.ActionSpace(size)


def test_action_space_accepts_every_odd_size_from_5_to_19() -> None:
    for size in range(5, 20, 2):
        assert te.ActionSpace(size).num_actions == size * size * 4 * (size - 1)


CALLS: List[Tuple[str, Callable[[], Any]]] = [
    ("Game(variant)", lambda: te.Game(HUGE)),
    ("Game(rules string)", lambda: te.Game("dim:9 " + HUGE + ":x")),
    ("Game.from_rules", lambda: te.Game.from_rules(HUGE + ":x")),
    ("Game.play", lambda: te.Game("tablut").play(HUGE)),
    ("Game.is_legal", lambda: te.Game("tablut").is_legal(HUGE)),
    ("Game.reward", lambda: te.Game("tablut").reward(HUGE)),
    ("Game.transformed", lambda: te.Game("tablut").transformed(HUGE)),
    ("Game.from_record", lambda: te.Game.from_record("tablut", "/" + HUGE + "/")),
    ("Game.from_record side", lambda: te.Game.from_record("tablut", "/9/", HUGE)),
    ("Game.from_position_string", lambda: te.Game.from_position_string("tablut", HUGE)),
    ("ActionSpace.move_to_action", lambda: te.ActionSpace(9).move_to_action(HUGE)),
    ("ActionSpace.transform_mask", lambda: te.ActionSpace(9).transform_mask(
        np.zeros(2592, dtype=bool), HUGE)),
    ("perft", lambda: te.perft(HUGE, 1)),
    ("read_otg", lambda: te.read_otg(HUGE)),
    ("BatchEnv", lambda: te.BatchEnv(HUGE)),
    ("BatchEnv dtype", lambda: te.BatchEnv("tablut", dtype=HUGE)),
    ("BatchEnv perspective", lambda: te.BatchEnv("tablut", perspective=HUGE)),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[name for name, _ in CALLS])
def test_a_huge_string_gives_a_short_message(name: str, call: Callable[[], Any]) -> None:
    with pytest.raises(ValueError) as raised:
        call()
    message = str(raised.value)
    assert len(message) < 600, (name, len(message), message[:300])
    # It quotes a few dozen characters of the string at most.
    assert "e" * 50 not in message, (name, message[:300])


def test_a_long_string_is_quoted_by_its_start_and_its_length() -> None:
    with pytest.raises(ValueError) as raised:
        te.Game("tablut").play("a" * 100)
    assert "'" + "a" * 40 + "... (100 characters)'" in str(raised.value)
    with pytest.raises(ValueError, match="'e2-e2x'"):
        te.Game("tablut").play("e2-e2x")  # a short one is quoted whole
