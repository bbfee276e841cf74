"""Long calls stop on Ctrl-C (SIGINT) with KeyboardInterrupt; arguments out of range are refused
naming the parameter (issue 31, finding 8)."""

import signal
import subprocess
import sys
import textwrap
import time

import pytest

import tafl_engine as te

# Each call takes hours (or a minute, for the searches) unless stopped.
LONG_CALLS = [
    'te.perft("tawlbwrdd", 9)',
    'te.perft("tawlbwrdd", 9, threads=2)',
    'te.Game("tablut").perft(9)',
    'te.Game("tawlbwrdd").divide(9)',
    'te.Game("tawlbwrdd").search(movetime_ms=60000)',
    'te.Engine(hash_mb=8).search(te.Game("tawlbwrdd"), depth=60)',
]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
@pytest.mark.parametrize("call", LONG_CALLS)
def test_ctrl_c_stops_a_long_call_with_keyboard_interrupt(call):
    script = textwrap.dedent(
        f"""
        import signal, sys, time
        import tafl_engine as te
        # Python raises KeyboardInterrupt on SIGINT only if it did not inherit SIGINT ignored,
        # as a shell script's background job (`.ci/run &`) does: ask for it, as a program would.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("started", flush=True)
        began = time.monotonic()
        try:
            {call}
        except KeyboardInterrupt:
            print(f"interrupted after {{time.monotonic() - began:.2f}} s", flush=True)
            raise
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "started"
        time.sleep(0.5)  # well into the call
        assert child.poll() is None, "the call ended by itself"
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=5)
        waited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert "interrupted after" in out, (out, err)
    assert "KeyboardInterrupt" in err
    assert child.returncode != 0
    assert waited < 3, f"{call}: {waited:.2f} s from SIGINT to exit"


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: te.perft("tablut", 99), ValueError, "depth must be from 0 to 12, not 99"),
        (lambda: te.perft("tablut", -1), ValueError, "depth must be from 0 to 12, not -1"),
        (lambda: te.perft("tablut", 2, threads=0), ValueError, "threads must be from 1 to 256, not 0"),
        (lambda: te.perft("tablut", 2, threads=100000), ValueError, "threads must be from 1 to 256"),
        (lambda: te.perft("tablut", 2, threads=-4), ValueError, "threads must be from 1 to 256, not -4"),
        (lambda: te.perft("tablut", "3"), TypeError, "depth must be an integer, not str"),
        (lambda: te.perft("tablut", 2**100), ValueError, "depth must be from 0 to 12"),
        (lambda: te.Game("tablut").perft(-2), ValueError, "depth must be from 0 to 12, not -2"),
        (lambda: te.Game("tablut").divide(13), ValueError, "depth must be from 0 to 12, not 13"),
        (lambda: te.Game("tablut").search(depth=-1), ValueError, "depth must be from 1 to 64, not -1"),
        (lambda: te.Game("tablut").search(depth=65), ValueError, "depth must be from 1 to 64"),
        (lambda: te.Game("tablut").search(movetime_ms=-5), ValueError, "movetime_ms must be from 0"),
        (lambda: te.Game("tablut").search(nodes=-1), ValueError, "nodes must be from 1"),
        (lambda: te.Game("tablut").search(depth=1, threads=-1), ValueError, "threads must be from 1 to 256"),
        (lambda: te.Game("tablut").search(depth=1, hash_mb=-1), ValueError, "hash_mb must be from 1 to 65536"),
        (lambda: te.Engine(threads=-1), ValueError, "threads must be from 1 to 256, not -1"),
        (lambda: te.Engine(hash_mb=2**64), ValueError, "hash_mb must be from 1 to 65536"),
        (lambda: te.Engine().search(te.Game("tablut"), nodes=-3), ValueError, "nodes must be from 1"),
        (lambda: te.Engine().search(te.Game("tablut"), depth="2"), TypeError, "depth must be an integer"),
    ],
)
def test_bad_numbers_are_refused_naming_the_parameter(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_the_caps_are_exported():
    assert te.MAX_PERFT_DEPTH == 12 and te.MAX_THREADS == 256
    assert te.perft("tablut", 4, threads=te.MAX_THREADS) == 19913864
