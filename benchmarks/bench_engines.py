"""Engine throughput for every preset: the figures of the README's benchmark table.

Runs ``kout-sim bench`` in-process for each preset, on one worker with the reference engine timed in
the same run (speedup), then on every core. Prints one JSON object per line and a Markdown table.
Usage: ``python benchmarks/bench_engines.py [--hands N]``.
"""

from __future__ import annotations

import argparse
import json

from kout_sim.bench import bench
from kout_sim.rules import preset_names
from kout_sim.sim import available_workers


def main() -> None:
    """The command line: measure every preset's throughput and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000, help="hands per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rows = []
    cores = min(2, available_workers())
    for preset in preset_names():
        one = bench(preset, workers=1, hands=args.hands, repeats=args.repeats, reference=True)
        all_ = bench(preset, workers=cores, hands=2 * args.hands, repeats=args.repeats)
        print(json.dumps(one))
        print(json.dumps(all_))
        rows.append((preset, one, all_))
    print()
    print(
        f"| preset | hands/s, 1 worker | hands/s, {cores} workers | reference hands/s | speedup |"
    )
    print("|---|---:|---:|---:|---:|")
    for preset, one, all_ in rows:
        print(
            f"| `{preset}` | {one['hands_per_second']:,} | {all_['hands_per_second']:,} | "
            f"{one['reference_hands_per_second']:,.0f} | {one['speedup']:.0f}x |"
        )


if __name__ == "__main__":
    main()
