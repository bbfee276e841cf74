#!/usr/bin/env python3
"""Checks each crate's `rust-version` against the language features its code uses.

No older toolchain can be installed here, so a crate's minimum supported Rust version (MSRV) is
checked in two halves, both run by .ci/run:

- the standard library's items: clippy's `incompatible_msrv` lint reads `rust-version` from each
  manifest and, with `-D warnings`, fails on any item stabilised after it;
- the language: this script. It knows the features stabilised after 1.85 (the floor: edition
  2024) that code of this kind meets, and fails when a crate whose `rust-version` is older uses
  one. Today that is let chains (`if let .. && ..`, stable since 1.88).

Usage: python3 scripts/msrv-check.py  (from the repository's root; prints one line a crate).
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Crate folders and the source folders that belong to each.
CRATES = {
    ".": ["src", "tests", "benches", "examples"],
    "cli": ["src", "tests"],
    "web": ["src", "tests"],
    "python": ["src"],
    "fuzz": ["src", "fuzz_targets"],
}
LET_CHAINS = (1, 88)


def version(manifest: pathlib.Path) -> tuple[int, ...]:
    match = re.search(r'^rust-version\s*=\s*"([0-9.]+)"', manifest.read_text(), re.M)
    if not match:
        sys.exit(f"{manifest}: no rust-version")
    return tuple(int(x) for x in match.group(1).split("."))


def code_only(text: str) -> str:
    """The text with comments, strings and character literals blanked (lengths kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif (m := re.match(r'b?r(#*)"', text[i:])) and (i == 0 or not text[i - 1].isalnum()):
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i : j + 1]))
            i = j + 1
        elif c == "'" and (m := re.match(r"'(\\.[^']*|[^'\\])'", text[i:])):
            out.append(" " * m.end())
            i += m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def let_chains(code: str) -> list[int]:
    """Lines where an `if` or `while` condition has both `let` and `&&` outside any brackets."""
    lines = []
    for m in re.finditer(r"\b(if|while)\b", code):
        depth, j = 0, m.end()
        has_let = has_and = False
        while j < len(code):
            c = code[j]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
                if depth < 0:
                    break
            elif c in "{;" and depth == 0:
                break
            elif depth == 0 and code.startswith("&&", j):
                has_and = True
            elif depth == 0 and re.match(r"\blet\b", code[j:]) and not code[j - 1].isalnum():
                has_let = True
            j += 1
        if has_let and has_and:
            lines.append(code.count("\n", 0, m.start()) + 1)
    return lines


def main() -> int:
    failed = False
    for crate, folders in CRATES.items():
        msrv = version(ROOT / crate / "Cargo.toml")
        found = []
        for folder in folders:
            for path in sorted((ROOT / crate / folder).rglob("*.rs")):
                for line in let_chains(code_only(path.read_text())):
                    found.append(f"{path.relative_to(ROOT)}:{line}")
        shown = ".".join(map(str, msrv))
        if found and msrv < LET_CHAINS:
            failed = True
            print(f"{crate}: rust-version {shown}, but let chains (1.88) at {', '.join(found)}")
        else:
            print(f"{crate}: rust-version {shown}; let chains used {len(found)} times")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
