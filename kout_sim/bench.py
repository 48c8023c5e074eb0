"""Throughput benchmark of full random hands: deal, auction, trump, play, scoring, result row.

The numba engine and (optionally) the reference engine are measured in the same process, so the
speedup is a ratio taken under the same machine load. Rates are medians over repeats.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from . import __version__
from .rules import get_rules
from .sim.batch import check_workers, lineup_of, new_rows, play_hands


def bench(
    preset: str,
    *,
    players: str = "random",
    workers: int = 1,
    hands: int = 2_000_000,
    repeats: int = 5,
    seed: int = 0,
    reference: bool = False,
    reference_seconds: float = 5.0,
) -> dict[str, Any]:
    """Measure hands per second; returns a JSON-compatible dict (see ``kout-sim bench --help``)."""
    rules = get_rules(preset)
    lineup = lineup_of(rules, players)
    workers = check_workers(workers)
    if hands < 1 or repeats < 1:
        raise ValueError("hands and repeats must be positive")
    play_hands(rules, 1000, seed, lineup, workers=workers)  # compile (or load the cache) first
    rows = new_rows(hands)  # one result buffer, written every repeat
    play_hands(rules, hands, seed, lineup, workers=workers, out=rows)  # warm-up pass
    rates = []
    for r in range(repeats):
        t0 = time.perf_counter()
        first = (r + 1) * hands
        play_hands(rules, hands, seed, lineup, first=first, workers=workers, out=rows)
        rates.append(hands / (time.perf_counter() - t0))
    rate = statistics.median(rates)
    out: dict[str, Any] = {
        "preset": preset,
        "players": lineup.describe(),
        "workers": workers,
        "hands": hands,
        "repeats": repeats,
        "seconds": round(hands / rate, 4),
        "hands_per_second": round(rate),
        "rates": [round(x) for x in rates],
        "version": __version__,
    }
    if reference:
        from . import reference as R

        rng = random.Random(seed)
        opts = dict(rules.options)
        n_players = rules.n_players
        ref_rates = []
        for _ in range(3):
            n = 0
            t0 = time.perf_counter()
            while (elapsed := time.perf_counter() - t0) < reference_seconds / 3 or n < 100:
                R.play_random_hand(preset, opts, rng.randrange(n_players), rng)
                n += 1
            ref_rates.append(n / elapsed)
        ref_rate = statistics.median(ref_rates)
        out["reference_hands_per_second"] = round(ref_rate, 1)
        out["speedup"] = round(rate / ref_rate, 1)
    return out
