"""Text in and out: variant names that round-trip, position strings, game records (.otg), the
SVG picture."""

import random
import xml.etree.ElementTree as ElementTree

import pytest

import tafl_engine as te

TABLUT_START = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"


def random_game(variant, plies, seed):
    game = te.Game(variant)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.terminated:
            break
        game.play_action(rng.choice(game.legal_actions()))
    return game


def test_every_variant_comes_back_from_its_variant_name():
    # Iterates over the crate's own list: a variant added there is covered here.
    seen = set()
    for name in te.variants():
        game = te.Game(name)
        assert game.variant == name
        again = te.Game(game.variant)
        assert again.rules == game.rules and again == game
        seen.add(game.rules)
    assert len(seen) == len(te.variants())  # no two names are the same game
    # OpenTafl's Tablut and this project's share a display name, not a variant name.
    ours, theirs = te.Game("tablut"), te.Game("opentafl-tablut")
    assert ours.display_name == theirs.display_name == "Tablut"
    assert (ours.variant, theirs.variant) == ("tablut", "opentafl-tablut")
    assert te.Game("sea-battle").display_name == "Sea Battle"


def test_games_from_rules_strings_come_back_too():
    custom = te.Game.from_rules("dim:7 esc:c cor:a1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
    assert custom.variant == custom.rules
    assert te.Game(custom.variant) == custom
    # A rules string equal to a built-in game's is that game.
    assert te.Game.from_rules(te.Game("copenhagen").rules).variant == "copenhagen"


@pytest.mark.parametrize("variant", te.variants())
def test_position_strings_read_back_exactly(variant):
    game = random_game(variant, 40, variant)
    text = game.position_string
    assert text == f"{game.record} {game.side_to_move[0]}"
    again = te.Game.from_position_string(variant, text)
    assert again.position_string == text and again.hash == game.hash
    assert again.legal_moves() == game.legal_moves() or game.terminated


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "the position string is empty"),
        (TABLUT_START, "no side to move after the record"),
        (TABLUT_START + " w", "'w' at column 53 is not a side to move"),
        (TABLUT_START + " a b", "'b' at column 55"),
        ("/9/9/ a", "the record"),
        (TABLUT_START.replace("K", "Q") + " a", "'Q'"),
    ],
)
def test_bad_position_strings_say_what_and_where(text, message):
    with pytest.raises(ValueError, match=message):
        te.Game.from_position_string("tablut", text)


@pytest.mark.parametrize("variant", te.variants())
def test_game_records_read_back_to_the_same_game(variant):
    game = random_game(variant, 60, variant + "otg")
    text = game.to_otg({"event": "a test [1]", "round": "3"})
    assert "[event:a test (1)]" in text and "[round:3]" in text
    assert f"[variant:{game.display_name}]" in text
    lines = text.splitlines()
    rules = next(i for i, line in enumerate(lines) if line.startswith("[rules:"))
    assert lines[rules + 1] == "" and all(not line.startswith("[") for line in lines[rules + 1 :])
    read, tags = te.read_otg(text)
    assert read == game and read.outcome == game.outcome
    assert read.variant == game.variant
    assert tags["event"] == "a test (1)" and tags["round"] == "3"
    expected = {None: "?", "attackers": "1", "defenders": "-1", "draw": "0"}
    assert tags["result"] == expected[game.outcome[0] if game.outcome else None]
    # Pairs work as tags too.
    assert te.read_otg(game.to_otg([("event", "x")]))[1]["event"] == "x"


def test_a_set_up_game_keeps_its_start_in_its_record():
    game = te.Game.from_position_string("tablut", "/9/9/2K6/9/9/9/t8/9/9/ d")
    game.play("c3-c4")
    read, _ = te.read_otg(game.to_otg())
    assert read == game and read.positions[0] == (game.positions[0][0], "defenders")


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no rules"),
        ("[event:x]\n\n1. e2-h2\n", "no rules"),
        (f"[rules:{te.Game('tablut').rules}]\n\n1. e2-h9\n", "line 3: move 1 'e2-h9' cannot be played"),
        (f"[rules:{te.Game('tablut').rules}]\n\n2. e2-h2\n", "line 3: '2.' is not turn 1"),
        ("[rules:dim:13]\n", "line 1: the rules"),
    ],
)
def test_bad_game_records_name_the_line(text, message):
    with pytest.raises(ValueError, match=message):
        te.read_otg(text)


def test_the_svg_picture_shows_every_piece_and_parses():
    game = random_game("copenhagen", 30, 4)
    svg = game._repr_svg_()
    assert svg == game.svg()
    root = ElementTree.fromstring(svg)  # well-formed XML
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    circles = [c.get("class") for c in root.iter(f"{ns}circle")]
    board = [square for row in game.board() for square in row]
    assert circles.count("attacker") == board.count("t")
    assert circles.count("defender") == board.count("T")
    assert circles.count("king") == board.count("K")
    assert len([r for r in root.iter(f"{ns}rect") if r.get("class") == "square"]) == 121
    assert len([r for r in root.iter(f"{ns}rect") if r.get("class") == "last-move"]) == 2
    assert root.find(f"{ns}title").text == game.position_string
    labels = [t.text for t in root.iter(f"{ns}text")]
    assert "a" in labels and "k" in labels and "11" in labels
    assert "last-move" not in te.Game("tablut").svg()
