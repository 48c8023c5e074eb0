"""How often a forced joker lead ends a Bahraini Kout match under random play (RULES.md 2.8).

Plays whole random matches of ``kout_bh_4`` and ``kout_bh_6`` and prints, per preset, the share of
hands that end in a forced joker lead and the share of matches it decides, with 95% Wilson
intervals, next to the other match endings. Usage: ``python benchmarks/forced_joker_rate.py
[--matches N] [--seed S]``.
"""

from __future__ import annotations

import argparse

import numpy as np

from kout_sim.engine import layout as L
from kout_sim.rules import get_rules
from kout_sim.sim import play_random_matches
from kout_sim.stats import wilson


def main() -> None:
    """The command line: play random Bahraini matches and print the forced-joker rates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for preset in ("kout_bh_4", "kout_bh_6"):
        matches, hands = play_random_matches(get_rules(preset), args.matches, args.seed)
        n_hands, n_matches = len(hands), len(matches)
        forced = int(hands[:, L.R_FORCED_JOKER].sum())
        reasons = np.bincount(matches[:, L.X_REASON], minlength=len(L.REASON_NAMES))
        lo, hi = wilson(forced, n_hands)
        print(f"{preset}: {n_matches:,} random matches, {n_hands:,} hands (seed {args.seed})")
        print(
            f"  hands ending in a forced joker lead: {forced:,} = {forced / n_hands:.3%} "
            f"(95% CI {lo:.3%}..{hi:.3%})"
        )
        for code, name in enumerate(L.REASON_NAMES):
            if name and reasons[code]:
                lo, hi = wilson(int(reasons[code]), n_matches)
                print(
                    f"  matches ended by {name:<13} {reasons[code]:>9,} = "
                    f"{reasons[code] / n_matches:7.3%} (95% CI {lo:.3%}..{hi:.3%})"
                )


if __name__ == "__main__":
    main()
