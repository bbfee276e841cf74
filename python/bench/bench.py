"""Benchmark of the Python package: perft against the crate's own binary, and legal moves,
play/undo and random games against a plain pure-Python move generator (pure_tafl.py).

    cargo build --release --example perft      # the crate's own perft, for the comparison
    python python/bench/bench.py [--rounds 7] [--quick]

Before timing, the pure-Python generator is checked against tafl_engine: perft of every fixture
of tests/data/perft.txt to depth 3, and the legal moves, captures and outcome at every ply of
random games. Every figure is the median of --rounds runs; wall time and processor time are
both given, because the machine may be shared (processor time is what the code costs).
"""

import argparse
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import tafl_engine as te

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pure_tafl import PureTafl, move_text, square_text  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "data" / "perft.txt"
# benches/common/mod.rs: "tablut/middlegame", attackers to move (83 legal moves).
MIDDLEGAME = "/3t1t3/1t2t4/4T4/t2T1T2t/tt1TK1Ttt/t3T2t1/2T1T4/4t1t2/3tt4/"
PLY_CAP = 500  # a random game this long counts as finished (both loops stop there)


def fixtures():
    blocks, current = [], None
    for line in FIXTURES.read_text().splitlines():
        key, _, value = line.strip().partition(" ")
        if not key or key.startswith("#"):
            continue
        if key == "id":
            current = {"id": value, "counts": []}
            blocks.append(current)
        elif key == "perft":
            depth, count = value.split()
            current["counts"].append((int(depth), int(count)))
        else:
            current[key] = value
    return blocks


def check_pure_generator(random_games):
    """The pure-Python generator agrees with tafl_engine, or the comparison would be unfair."""
    for fixture in fixtures():
        pure = PureTafl(fixture["position"], fixture["side"] == "attackers")
        for depth, expected in fixture["counts"]:
            if depth <= 3:
                assert pure.perft(depth) == expected, (fixture["id"], depth)
    for seed in range(random_games):
        rng = random.Random(seed)
        name = ("tablut", "tawlbwrdd")[seed % 2]
        game = te.Game(name)
        pure = PureTafl(game.record)
        while True:
            moves = pure.legal_moves() if not pure.over() else []
            texts = sorted(move_text(m, pure.size) for m in moves)
            assert texts == sorted(game.legal_moves()), (seed, game.ply)
            if not texts or game.ply >= PLY_CAP:
                break
            m = rng.choice(moves)
            captured = sorted(square_text(s, pure.size) for s in pure.play(m))
            assert captured == sorted(game.play(move_text(m, pure.size))), (seed, game.ply)
        expected_winner = game.outcome[0] if game.outcome else None
        pure_winner = pure.winner or ("draw" if not moves or pure.over() else None)
        if game.ply < PLY_CAP:
            assert pure_winner == expected_winner, (seed, pure_winner, game.outcome)
        # Undo all the way back, on both.
        while pure.history:
            pure.undo()
            game.undo()
        assert pure.board == PureTafl(game.record).board


def median_time(run, rounds):
    """Medians of wall and processor seconds of `run()` over `rounds` runs."""
    walls, cpus = [], []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def per_call(rounds, calls):
    game = te.Game.from_record("tablut", MIDDLEGAME, "attackers")
    pure = PureTafl(MIDDLEGAME)
    te_moves = game.legal_moves()
    pure_moves = pure.legal_moves()
    assert len(te_moves) == len(pure_moves) == 83

    def te_generate():
        for _ in range(calls):
            game.legal_moves()

    def te_play_undo():
        for _ in range(calls // len(te_moves) + 1):
            for m in te_moves:
                game.play(m)
                game.undo()

    def pure_generate():
        for _ in range(calls):
            pure.legal_moves()

    def pure_play_undo():
        for _ in range(calls // len(pure_moves) + 1):
            for m in pure_moves:
                pure.play(m)
                pure.undo()

    pairs = (calls // len(te_moves) + 1) * len(te_moves)
    rows = []
    for label, te_run, pure_run, count in [
        ("legal_moves() (83 moves)", te_generate, pure_generate, calls),
        ("play() + undo()", te_play_undo, pure_play_undo, pairs),
    ]:
        te_wall, te_cpu = median_time(te_run, rounds)
        pure_wall, pure_cpu = median_time(pure_run, rounds)
        rows.append((label, te_cpu / count, pure_cpu / count, te_wall / count, pure_wall / count))
    return rows


def te_random_games(count, seed):
    rng = random.Random(seed)
    plies = 0
    for _ in range(count):
        game = te.Game("tablut")
        moves = game.legal_moves()
        while moves and game.ply < PLY_CAP:
            game.play(rng.choice(moves))
            moves = game.legal_moves()
        plies += game.ply
    return plies


def pure_random_games(count, seed):
    rng = random.Random(seed)
    plies = 0
    start = te.Game("tablut").record
    for _ in range(count):
        game = PureTafl(start)
        moves = game.legal_moves()
        while moves and len(game.history) < PLY_CAP and not game.over():
            game.play(rng.choice(moves))
            moves = game.legal_moves()
        plies += len(game.history)
    return plies


def random_games(rounds, te_games, pure_games):
    results = {}
    for label, run, count in [
        ("tafl_engine", te_random_games, te_games),
        ("pure Python", pure_random_games, pure_games),
    ]:
        plies = []
        wall, cpu = median_time(lambda: plies.append(run(count, seed=len(plies))), rounds)
        results[label] = (count / cpu, count / wall, statistics.mean(plies) / count)
    return results


def crate_perft(binary, variant, depth):
    """The crate's own perft (examples/perft.rs, one thread): (leaves, wall s, cpu s). The wall
    time is the binary's own; the processor time is the child's, from getrusage (the binary's
    own figure has the 10 ms resolution of /proc), so it includes the process start, a
    millisecond or so, against the package."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = subprocess.run(
        [str(binary), variant, str(depth), "--only"], capture_output=True, text=True, check=True
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    match = re.search(r"perft \d+:\s+(\d+) leaves\s+([\d.]+) s", output)
    if not match:
        raise RuntimeError(f"unexpected output of {binary}: {output}")
    return int(match[1]), float(match[2]), cpu


def perft_against_crate(binary, rounds, variant, depth):
    walls = {"crate": [], "python": []}
    cpus = {"crate": [], "python": []}
    leaves = None
    for _ in range(rounds):  # interleaved, so that both see the same machine load
        count, wall, cpu = crate_perft(binary, variant, depth)
        walls["crate"].append(wall)
        cpus["crate"].append(cpu)
        began, began_cpu = time.perf_counter(), time.process_time()
        leaves = te.perft(variant, depth)
        walls["python"].append(time.perf_counter() - began)
        cpus["python"].append(time.process_time() - began_cpu)
        assert leaves == count
    return leaves, {k: statistics.median(v) for k, v in walls.items()}, {
        k: statistics.median(v) for k, v in cpus.items()
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="fewer calls and games")
    parser.add_argument("--perft-only", action="store_true", help="only perft against the crate")
    parser.add_argument(
        "--perft-binary", type=Path, default=ROOT / "target" / "release" / "examples" / "perft"
    )
    args = parser.parse_args()
    calls = 2000 if args.quick else 20000
    te_games, pure_games = (200, 10) if args.quick else (2000, 60)

    if args.perft_only:
        perft_report(args)
        return
    began = time.perf_counter()
    check_pure_generator(random_games=6 if args.quick else 30)
    print(f"pure-Python generator checked against tafl_engine ({time.perf_counter() - began:.1f} s)")

    print(f"\nPer call, Tablut middlegame, medians of {args.rounds} runs (processor time; wall)")
    for label, te_cpu, pure_cpu, te_wall, pure_wall in per_call(args.rounds, calls):
        print(
            f"  {label:26s} tafl_engine {te_cpu * 1e6:7.2f} us ({te_wall * 1e6:7.2f})"
            f"   pure Python {pure_cpu * 1e6:8.2f} us ({pure_wall * 1e6:8.2f})"
            f"   x{pure_cpu / te_cpu:.0f} faster"
        )

    print(f"\nRandom Tablut games (cap {PLY_CAP} plies), medians of {args.rounds} runs")
    results = random_games(args.rounds, te_games, pure_games)
    for label, (per_cpu_second, per_second, plies) in results.items():
        print(
            f"  {label:12s} {per_cpu_second:9.1f} games per processor second"
            f" ({per_second:9.1f} per wall second), {plies:.0f} plies a game on average"
        )
    ratio = results["tafl_engine"][0] / results["pure Python"][0]
    print(f"  tafl_engine plays x{ratio:.0f} the games of pure Python")

    start = te.Game("tablut").record
    pure = PureTafl(start)
    assert pure.perft(3) == te.perft("tablut", 3) == 353200
    _, pure_cpu = median_time(lambda: pure.perft(3), max(1, args.rounds // 2))
    _, te_cpu = median_time(lambda: te.perft("tablut", 3), args.rounds)
    print(f"\nPerft 3 of Tablut (353200 leaves, bulk counting in both), processor time")
    print(f"  tafl_engine {te_cpu * 1e3:.2f} ms   pure Python {pure_cpu * 1e3:.0f} ms"
          f"   x{pure_cpu / te_cpu:.0f} faster")

    perft_report(args)


def perft_report(args):
    depth = 5
    if args.perft_binary.exists():
        leaves, walls, cpus = perft_against_crate(args.perft_binary, args.rounds, "tablut", depth)
        print(f"\nPerft {depth} of Tablut ({leaves} leaves), one thread, medians of {args.rounds}")
        for who in ("crate", "python"):
            print(
                f"  {who:7s} {cpus[who]:.3f} s processor ({walls[who]:.3f} s wall)"
                f"  {leaves / cpus[who] / 1e6:7.0f} M leaves per processor second"
            )
        print(
            f"  through Python: {100 * (cpus['python'] / cpus['crate'] - 1):+.1f} % processor"
            f" time, {100 * (walls['python'] / walls['crate'] - 1):+.1f} % wall time"
        )
    else:
        print(f"\n(no {args.perft_binary}: `cargo build --release --example perft` for perft)")


if __name__ == "__main__":
    main()
