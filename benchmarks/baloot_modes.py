"""Baloot under random bidding and play: how often each mode is bought and how often the buyer fails.

Plays independent random hands of ``baloot`` and prints the share of hands bought in Sun and in
Hokum (and void), the buyer-fail and kaboot rates per mode, and the Ashkal and doubling rates, with
95% Wilson intervals. Usage: ``python benchmarks/baloot_modes.py [--hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse

from selfplay_tables import BALOOT_MODES, mode_counts  # the script's folder is on the path

from kout_sim.engine import layout as L
from kout_sim.rules import get_rules
from kout_sim.sim import play_random_hands
from kout_sim.stats import wilson


def _rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:6.1%} ({lo:.1%}..{hi:.1%})" if n else "-"


def main() -> None:
    """The command line: play random Baloot hands and print how each mode fares."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rows = play_random_hands(get_rules("baloot"), args.hands, args.seed)
    n = len(rows)
    mode = rows[:, L.R_MODE]
    print(f"baloot: {n:,} random hands (seed {args.seed}), random bidding and play")
    print("| mode | bought | buyer fails | kaboot | doubled |")
    print("|---|---:|---:|---:|---:|")
    for code, name in BALOOT_MODES:
        k, failed, kaboot, doubled = mode_counts(rows, code)
        print(
            f"| {name} | {_rate(k, n)} | {_rate(failed, k)} | {_rate(kaboot, k)} | "
            f"{_rate(doubled, k)} |"
        )
    void = int((mode == 0).sum())
    ashkal = int(rows[:, L.R_ASHKAL].sum())
    print(
        f"void (passed twice): {_rate(void, n)}; Ashkal among Sun: {_rate(ashkal, int((mode == 1).sum()))}"
    )
    print(f"hands with counted projects: {_rate(int((rows[:, L.R_PROJ_TEAM] >= 0).sum()), n)}")


if __name__ == "__main__":
    main()
