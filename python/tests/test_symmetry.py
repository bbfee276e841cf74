"""The eight symmetries: of games, actions, masks and planes, against each other."""

import random

import numpy as np
import pytest

import tafl_engine as te

LOPSIDED = "dim:7 esc:c cor:a1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"


def planes_of(game):
    n = game.size
    return np.frombuffer(game.planes(), np.uint8).reshape(len(te.PLANES), n, n)


def test_the_eight_symmetries_are_named():
    assert te.SYMMETRIES == (
        "identity", "rotate90", "rotate180", "rotate270",
        "flip_files", "flip_ranks", "transpose", "antitranspose",
    )
    for variant in te.variants():
        assert te.Game(variant).symmetries() == list(te.SYMMETRIES), variant


def test_rotate90_turns_the_board_anticlockwise():
    game = te.Game.from_record("brandub", "/t6/7/7/3K3/7/7/7/")  # an attacker on a1
    turned = game.transformed("rotate90")
    assert turned.board()[0][6] == "t"  # a1 goes to g1, the bottom right corner
    assert turned.king == "d4"


@pytest.mark.parametrize("variant", te.variants())
def test_a_symmetric_position_has_legal_actions_that_map_onto_each_other(variant):
    game = te.Game(variant)
    space = game.action_space
    legal = set(game.legal_actions())
    mask = game.legal_action_mask()
    for symmetry in te.SYMMETRIES:
        # The start positions of the built-in games look the same under every symmetry.
        assert game.transformed(symmetry).record == game.record
        mapped = {int(space.transform_actions(a, symmetry)) for a in legal}
        assert mapped == legal, symmetry
        assert np.array_equal(space.transform_mask(mask, symmetry), mask), symmetry


@pytest.mark.parametrize("variant", ["tablut", "copenhagen", "ashton", "magpie"])
def test_games_actions_masks_and_planes_map_together(variant):
    rng = random.Random(variant)
    game = te.Game(variant)
    for _ in range(25):
        if game.terminated:
            break
        game.play_action(rng.choice(game.legal_actions()))
    space = game.action_space
    planes = planes_of(game)
    mask = game.legal_action_mask()
    for symmetry in te.SYMMETRIES:
        image = game.transformed(symmetry)
        assert image.ply == game.ply and image.outcome == game.outcome
        assert image.repetitions == game.repetitions
        assert image.perft(2) == game.perft(2)
        # The image's legal actions are the images of the game's.
        assert sorted(space.transform_actions(np.array(game.legal_actions()), symmetry).tolist()) == image.legal_actions()
        assert np.array_equal(space.transform_mask(mask, symmetry), image.legal_action_mask())
        # Planes of the image are the planes transformed.
        assert np.array_equal(space.transform_planes(planes, symmetry), planes_of(image)), symmetry
        # The permutations say the same as the transforms.
        permutation = space.action_permutation(symmetry)
        assert sorted(permutation.tolist()) == list(range(space.num_actions))
        direct = np.zeros_like(mask)
        direct[permutation] = mask
        assert np.array_equal(direct, image.legal_action_mask())
        squares = space.square_permutation(symmetry)
        flat = planes.reshape(len(te.PLANES), -1)
        moved = np.zeros_like(flat)
        moved[:, squares] = flat
        assert np.array_equal(moved.reshape(planes.shape), planes_of(image))
        # The inverse undoes it.
        back = {"rotate90": "rotate270", "rotate270": "rotate90"}.get(symmetry, symmetry)
        assert image.transformed(back) == game


def test_batches_transform_along_their_last_axes():
    games = [te.Game("tablut"), te.Game("tablut")]
    games[1].play("e2-h2")
    space = te.ActionSpace(9)
    masks = te.legal_action_masks(games)
    planes = np.frombuffer(te.encode_planes(games), np.uint8).reshape(2, len(te.PLANES), 9, 9)
    for symmetry in te.SYMMETRIES:
        images = [g.transformed(symmetry) for g in games]
        assert np.array_equal(space.transform_mask(masks, symmetry), te.legal_action_masks(images))
        assert np.array_equal(
            space.transform_planes(planes, symmetry),
            np.frombuffer(te.encode_planes(images), np.uint8).reshape(planes.shape),
        )


def test_rules_that_are_not_symmetric_are_refused_naming_a_square():
    game = te.Game.from_rules(LOPSIDED)
    assert game.symmetries() == ["identity", "transpose"]
    with pytest.raises(ValueError, match="rotate90 does not keep these rules: a1"):
        game.transformed("rotate90")
    with pytest.raises(ValueError, match="'spin' is not a symmetry: the symmetries are identity"):
        game.transformed("spin")
    space = te.ActionSpace(9)
    with pytest.raises(ValueError, match="planes must end with two axes of 9"):
        space.transform_planes(np.zeros((3, 7, 7)), "rotate90")
    with pytest.raises(ValueError, match="actions must be from 0 to 2591, not -1"):
        space.transform_actions(np.array([3, -1]), "rotate90")
