"""Double-dummy solver benchmark: full-hand solves from the first lead, one core, every preset.

For each preset, ``kout-sim bench --solver`` in-process: random deals, the heuristic line-up's
contract and trump, the exact value of every deal (every trick counted); median, max and mean
milliseconds per solve and the median node count. Also the rate of ``simulate --solve`` (value,
``dd_made`` and the Kout par over the four trumps) on heuristic hands, one worker.

    python benchmarks/bench_solver.py [--deals 1000] [--presets kout_bo_4,baloot] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from kout_sim.bench import bench_solver
from kout_sim.rules import get_rules, preset_names
from kout_sim.sim import play_hands
from kout_sim.solver import dd_columns


def simulate_solve_rate(preset: str, hands: int, seed: int = 0) -> float:
    """Hands per second of the ``simulate --solve`` columns (the play excluded)."""
    rules = get_rules(preset)
    rows = play_hands(rules, hands + 1, seed, "heuristic", workers=1)
    dd_columns(rows[:1], rules)  # compile (or load the cache)
    t0 = time.perf_counter()
    dd_columns(rows[1:], rules)
    return hands / (time.perf_counter() - t0)


def main() -> None:
    """The command line: time full-hand solves of every preset given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--presets", default=",".join(preset_names()))
    parser.add_argument("--rate-hands", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: list[dict[str, Any]] = []
    for preset in args.presets.split(","):
        result = bench_solver(get_rules(preset), deals=args.deals)
        result["simulate_solve_hands_per_second"] = round(
            simulate_solve_rate(preset, args.rate_hands), 1
        )
        results.append(result)
        if not args.json:
            print(
                f"{preset:>10}: median {result['ms_per_solve_median']:8.2f} ms "
                f"({result['cpu_ms_per_solve_median']:.2f} ms CPU), "
                f"max {result['ms_per_solve_max']:9.1f} ms, mean {result['ms_per_solve_mean']:8.2f}"
                f" ms, {result['nodes_median']:>9,} nodes; simulate --solve "
                f"{result['simulate_solve_hands_per_second']:.1f} hands/s",
                flush=True,
            )
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
