"""Shared helpers: the crate's perft fixtures (tests/data/perft.txt), records made from rows."""

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "data" / "perft.txt"


def read_perft_fixtures(path=FIXTURES):
    """The blocks of the perft fixture file, in the format its header gives: `id`, `game`,
    `position`, `side` lines, then `perft DEPTH COUNT` lines. Blocks are separated by blank
    lines; `#` starts a comment line."""
    fixtures = []
    current = None
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            current = {"id": value, "counts": [], "line": number}
            fixtures.append(current)
        elif current is None:
            raise ValueError(f"{path}:{number}: '{key}' before the first id")
        elif key in ("game", "position", "side"):
            current[key] = value
        elif key == "perft":
            depth, count = value.split()
            current["counts"].append((int(depth), int(count)))
        else:
            raise ValueError(f"{path}:{number}: unknown line '{line}'")
    return fixtures


@pytest.fixture(scope="session")
def perft_fixtures():
    fixtures = read_perft_fixtures()
    assert fixtures, f"no fixture in {FIXTURES}"
    return fixtures


def record(*rows):
    """An OpenTafl position record from its rows, rank 1 first."""
    return "/" + "/".join(rows) + "/"
