#!/usr/bin/env python3
"""Records the protocol transcripts that cli/tests/cli/golden_protocol.rs replays, from an engine
binary, into cli/tests/data/: a person's commands (golden-protocol.txt) and three whole OTEP
games (golden-otep-*.txt). `> line` is what is sent, `< line` each reply; `time` and `nps`
figures are masked. Re-record only when a change is meant to change the engine's replies, and
read the diff:

    cargo build --release && scripts/record-protocol-goldens.py target/release/tafl-engine
"""
import os
import re
import subprocess
import sys

BINARY = sys.argv[1]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli", "tests", "data")
WIDE13 = "hnefatafl-org-copenhagen-13"


def start(args):
    p = subprocess.Popen([BINARY] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)
    assert p.stdout.readline().strip() == "hello"
    return p


def mask(line):
    line = re.sub(r" time [0-9.]+", " time T", line)
    return re.sub(r" nps [0-9]+", " nps N", line)


PERSON_HEADER = """# A person's commands and the engine's replies (scripts/record-protocol-goldens.py); 'time'
# and 'nps' are masked. First recorded from the binary before the workspace split (main f2ebac2);
# recorded again for issue 41: the shown score, the evaluation lines, Tablut's, Tawlbwrdd's and
# Brandub's networks.
"""

OTEP_HEADER = """# A whole OTEP exchange as OpenTafl's host sends it (rules, clock, play, move, opponent-move,
# analyze, finish, goodbye), the engine run with --hash 16 --depth 3; the host's moves came from a
# second engine. 'nps' is masked. Replayed by cli/tests/cli/golden_protocol.rs; recorded by
# scripts/record-protocol-goldens.py.
"""


def person():
    wide13 = WIDE13
    script = [
        ("rules tablut", None), ("help", "help stop"), ("show", "result "), ("moves", "legal-moves"),
        ("perft 3", "perft "), ("divide 2", "perft "), ("play-move e2-h2", None), ("show", "result "),
        ("moves", "legal-moves"), ("undo", None), ("undo", "error"), ("play-move e2-e1", "error"),
        ("new", None), ("go depth 5", "bestmove"), ("go nodes 3000", "bestmove"),
        ("play-move d1-d2", None), ("go depth 4", "bestmove"),
        ("rules tawlbwrdd", None), ("go depth 4", "bestmove"), ("perft 2", "perft "),
        ("position /4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/", None),
        ("side defenders", None), ("show", "result "), ("go depth 4", "bestmove"),
        ("rules copenhagen", None), ("perft 2", "perft "), ("go depth 4", "bestmove"), ("show", "result "),
        ("rules brandub", None), ("go depth 6", "bestmove"), ("moves", "legal-moves"),
        ("rules " + wide13, None), ("show", "result "), ("moves", "legal-moves"), ("perft 2", "perft "),
        ("go depth 3", "bestmove"),
        ("frobnicate", "error"), ("perft", "error"), ("go depth x", "error"),
    ]
    p = start(["--hash", "16"])
    out = []
    for cmd, until in script:
        out.append("> " + cmd)
        p.stdin.write(cmd + "\n")
        p.stdin.flush()
        if until is None:
            continue
        while True:
            line = p.stdout.readline().rstrip("\n")
            out.append("< " + mask(line))
            if line.startswith(until):
                break
    p.stdin.write("goodbye\n")
    p.stdin.flush()
    p.wait()
    return out


def otep_game(rules):
    engine = start(["--hash", "16", "--depth", "3"])
    host = start(["--hash", "16", "--depth", "2"])
    out = []

    def send(cmd):
        out.append("> " + cmd)
        engine.stdin.write(cmd + "\n")
        engine.stdin.flush()

    def until(prefix):
        while True:
            line = engine.stdout.readline().rstrip("\n")
            out.append("< " + mask(line))
            if line.startswith(prefix):
                return line

    def helper(cmd, prefix):
        host.stdin.write(cmd + "\n")
        host.stdin.flush()
        lines = []
        if prefix is None:
            return lines
        while True:
            line = host.stdout.readline().rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def record_and_result():
        lines = helper("show", "result ")
        record = next(line[7:] for line in lines if line.startswith("record "))
        return record, lines[-1][7:]

    helper("rules " + rules, None)
    send("rules " + rules)
    for _ in range(12):
        send("clock 3600000 3600000 10 3 3")
        send("play attackers")
        m = until("move ")[5:]
        helper("play-move " + m, None)
        record, result = record_and_result()
        send("move " + record)
        if result != "none":
            break
        best = helper("go", "bestmove ")[-1][9:]
        helper("play-move " + best, None)
        record, result = record_and_result()
        send("opponent-move %s %s" % (best, record))
        if result != "none":
            break
    send("analyze 3 60")
    until("analysis ")
    send("finish 0")
    send("goodbye")
    engine.wait()
    helper("goodbye", None)
    host.wait()
    return out


def write(name, header, lines):
    with open(os.path.join(DATA, name), "w") as f:
        f.write(header + "\n".join(lines) + "\n")


write("golden-protocol.txt", PERSON_HEADER, person())
for rules, name in [("tablut", "tablut"), ("copenhagen", "copenhagen"), (WIDE13, "13")]:
    write("golden-otep-%s.txt" % name, OTEP_HEADER, otep_game(rules))
