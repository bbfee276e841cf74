"""Random-policy steps per second of ``tafl_engine.BatchEnv`` (issue 42): batch 256 (or
``--batch``), Tablut, Copenhagen and hnefatafl.org's 13x13, one thread and two.

Each round resets the environment and runs ``--steps`` steps of ``step(sample_legal_actions())``:
the actions are drawn in Rust (``BatchEnv.sample_legal_actions``), not by numpy over the masks,
so the figure is the environment's, with the random policy's small cost included. It prints the
median and range over ``--rounds`` rounds (5) of wall-clock and processor-time steps per second
(processor time: the process's, all threads; on a loaded machine the wall clock measures the
load as much as the code). ``python python/bench/batch_steps.py``
"""

import argparse
import statistics
import time
from typing import List, Tuple

import tafl_engine as te

VARIANTS = ["tablut", "copenhagen", "hnefatafl-org-copenhagen-13"]


def one_round(env: te.BatchEnv, steps: int, seed: int) -> Tuple[float, float]:
    """(wall-clock, processor) steps per second of one round."""
    env.reset(seed=seed)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        env.step(env.sample_legal_actions())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    done = steps * env.num_envs
    return done / wall, done / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--steps", type=int, default=400, help="steps per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--variants", nargs="+", default=VARIANTS)
    parser.add_argument("--max-plies", type=int, default=1000)
    options = parser.parse_args()
    print(f"batch {options.batch}, {options.steps} steps a round, {options.rounds} rounds, "
          f"max_plies {options.max_plies}; steps/s median (range)")
    for variant in options.variants:
        for threads in options.threads:
            env = te.BatchEnv(variant, options.batch, max_plies=options.max_plies,
                              threads=threads)
            one_round(env, 20, seed=0)  # warm up
            rounds: List[Tuple[float, float]] = [
                one_round(env, options.steps, seed=r) for r in range(options.rounds)
            ]
            walls = [w for w, _ in rounds]
            cpus = [c for _, c in rounds]
            print(
                f"{variant:28} threads {threads}: wall {statistics.median(walls) / 1e3:7.0f} k "
                f"({min(walls) / 1e3:.0f}-{max(walls) / 1e3:.0f}), "
                f"processor {statistics.median(cpus) / 1e3:7.0f} k "
                f"({min(cpus) / 1e3:.0f}-{max(cpus) / 1e3:.0f})"
            )


if __name__ == "__main__":
    main()
