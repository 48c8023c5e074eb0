"""Throughput benchmark of full random hands: deal, auction, trump, play, scoring, result row.

The numba engine and (optionally) the reference engine are measured in the same process, so the
speedup is a ratio taken under the same machine load. Rates are medians over repeats.
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from . import __version__
from .drivers.play import new_rows
from .engine import layout as L
from .engine.tables import tables_of
from .players import Lineup
from .rules import Rules, get_rules
from .sim.batch import check_seed, check_workers, lineup_of, play_hands, setup_of

MAX_BENCH_HANDS = 20_000_000
"""The most hands one bench repeat plays: its result rows (10 GB at this size) are held at once."""


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
    check_seed(seed)
    if isinstance(repeats, bool) or not isinstance(repeats, int) or not 1 <= repeats <= 1_000:
        raise ValueError(f"repeats must be an integer in 1..1,000, got {repeats!r}")
    if any(spec.type.searching for spec in lineup.seats):
        return bench_search(rules, lineup, positions=repeats * 4, seed=seed)
    workers = check_workers(workers)
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= MAX_BENCH_HANDS:
        raise ValueError(
            f"hands must be an integer in 1..{MAX_BENCH_HANDS:,} (every hand of a repeat is held "
            f"in memory, {L.R_SIZE * 8} bytes each), got {hands!r}"
        )
    if repeats < 1:
        raise ValueError("repeats must be positive")
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
        opts = dict(rules.given)  # the reference resolves the options itself
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


MID_HAND_TRICK = 2  # the bench's search positions: the lead of the third trick


def bench_search(
    rules: Rules, lineup: Lineup, *, positions: int = 20, seed: int = 0
) -> dict[str, Any]:
    """Time one search decision at mid-hand positions: the lead of trick 3 of heuristic hands.

    Each position is searched twice (the first call compiles or warms up); the figure is the median
    over positions of milliseconds per decision, and the iterations per second it implies.
    """
    from .engine.game import legal_mask
    from .players.ismcts import N_INT_ROWS, SEARCH
    from .players.pimc import PIMC
    from .players.turn import turn_of

    P, STR = tables_of(rules)
    spec = next(s for s in lineup.seats if s.type.searching)
    family = rules.family
    prm = Lineup((spec,)).params(family)[0]
    iterations = int(prm[0])
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    nodes = np.empty((N_INT_ROWS, iterations + 2), dtype=np.int64)
    value = np.empty(iterations + 2, dtype=np.float64)
    rng = np.zeros(4, dtype=np.uint64)
    fam = int(P[L.P_FAMILY])
    turn = turn_of(P, STR, MS, rng, prm, (nodes, value))
    if spec.name == "pimc":
        pimc = PIMC[fam]

        def decide(S: np.ndarray, mask: int) -> None:
            pimc(S, turn, mask)

    else:
        search = SEARCH[fam]

        def decide(S: np.ndarray, mask: int) -> None:
            search(S, turn, mask)

    times: list[float] = []
    for index, S in heuristic_leads(rules, seed, MID_HAND_TRICK):
        if len(times) == positions:
            break
        mask = int(legal_mask(S, P, STR, fam))
        if mask & (mask - 1) == 0:
            continue
        rng[:] = np.arange(1, 5, dtype=np.uint64) * np.uint64(index)
        decide(S.copy(), mask)  # compile / warm up
        t0 = time.perf_counter()
        decide(S.copy(), mask)
        times.append(time.perf_counter() - t0)
    per = statistics.median(times)
    return {
        "preset": rules.name,
        "players": lineup.describe(),
        "position": f"lead of trick {MID_HAND_TRICK + 1}, heuristic play before it",
        "positions": positions,
        ("samples" if spec.name == "pimc" else "iterations"): iterations,
        "ms_per_decision": round(per * 1000, 3),
        "ms_per_decision_max": round(max(times) * 1000, 3),
        ("samples_per_second" if spec.name == "pimc" else "iterations_per_second"): round(
            iterations / per
        ),
        "version": __version__,
    }


def heuristic_leads(
    rules: Rules, seed: int = 0, tricks: int = 0
) -> Iterator[tuple[int, np.ndarray]]:
    """``(stream index, state)`` at the first lead (or the lead of trick ``tricks + 1``) of random
    deals, the heuristic line-up's auction (and, in Baloot, its completion and doubling) and play
    before it; hands voided or ended before that lead are skipped. Each state is a fresh array."""
    from .drivers.play import hand_traced

    heuristic = setup_of(rules, "heuristic")
    hands = np.zeros(6, dtype=np.int64)
    trace = np.zeros(256, dtype=np.int64)
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    index = 0
    while True:
        index += 1
        n = hand_traced(heuristic, seed, index, hands, trace, trace.copy(), S)
        calls = int(np.sum(trace[:n] >= L.CALL))
        stop = calls + tricks * rules.n_players
        hand_traced(heuristic, seed, index, hands, trace, trace.copy(), S, limit=stop)
        if S[L.S_PHASE] == L.PH_PLAY and S[L.S_N_DONE] == tricks and S[L.S_N_IN_TRICK] == 0:
            yield index, S.copy()


def first_leads(rules: Rules, count: int, seed: int = 0, tricks: int = 0) -> list[np.ndarray]:
    """The first ``count`` states of :func:`heuristic_leads`."""
    return [S for _, S in itertools.islice(heuristic_leads(rules, seed, tricks), count)]


def bench_solver(rules: Rules, *, deals: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Time full-hand double-dummy solves from the first lead of random deals, one core.

    The contract is the one the heuristic line-up bid; the figure is the exact value (every
    trick, RULES.md 1.11 ignored) of each deal, median and max milliseconds per solve: of wall
    time (``ms_per_solve_*``) and of this process's CPU time (``cpu_ms_per_solve_*``, the figure
    that holds on a machine other work shares).
    """
    from .solver import Solver

    check_seed(seed)
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= 1_000_000:
        raise ValueError(f"deals must be an integer in 1..1,000,000, got {deals!r}")
    states = first_leads(rules, deals + 1, seed)
    solver = Solver(rules)
    solver.value(states[0].copy())  # compile (or load the cache) first
    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    for S in states[1:]:
        before = solver.nodes
        t0 = time.perf_counter()
        c0 = time.process_time()
        solver.value(S)
        cpu.append(time.process_time() - c0)
        times.append(time.perf_counter() - t0)
        nodes.append(solver.nodes - before)
    return {
        "preset": rules.name,
        "position": "first lead, contract and trump of the heuristic line-up",
        "deals": deals,
        "ms_per_solve_median": round(statistics.median(times) * 1000, 3),
        "ms_per_solve_max": round(max(times) * 1000, 3),
        "ms_per_solve_mean": round(statistics.fmean(times) * 1000, 3),
        "cpu_ms_per_solve_median": round(statistics.median(cpu) * 1000, 3),
        "cpu_ms_per_solve_max": round(max(cpu) * 1000, 3),
        "nodes_median": int(statistics.median(nodes)),
        "version": __version__,
    }
