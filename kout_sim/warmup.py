"""Compile (or load from the cache) every kernel entry point the tests use, one process per family.

``python -m kout_sim.warmup`` is what ``make test`` runs first: the kernels are compiled once, the
two families in parallel, and every test process then loads them from the cache instead of
compiling its own copy. The Kout process also compiles the joker and bid fork driver, which shares its
engine and players (compiled once in that process); the Baloot process the double-dummy solver and
the Baloot bid fork driver; each process its family's searches (ISMCTS, PIMC's card play, in Kout
PIMC's ``calls=1`` bids) and the searching entry point that calls them, which the forks of search
line-ups step too (``warm_search_forks``). Users never need it (the first call of an entry
point compiles it), but it moves the wait up front.
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np

from .engine.tables import tables_of

FAMILY_PRESETS = {"kout": "kout_bo_4", "baloot": "baloot"}
"""One warm-up process each: the two game families."""


def warm_forks() -> float:
    """Compile the fork driver (joker and bid forks share one entry point) and the play-on entry
    point; returns the seconds it took."""
    from .drivers import fork as FK
    from .drivers.play import hand_traced
    from .engine import layout as L
    from .engine.game import legal_mask
    from .rules import get_rules
    from .sim.batch import setup_of
    from .sim.bid_fork import bid_fork_records
    from .sim.fork import fork_records, play_on

    started = time.perf_counter()
    rules = get_rules(FAMILY_PRESETS["kout"])
    records = fork_records(rules, 50, 0, "heuristic", workers=1)
    bid_fork_records(rules, 5, 0, "heuristic", every=True, workers=1)
    setup = setup_of(rules, "heuristic")
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    trace = np.zeros(256, dtype=np.int64)
    ply = int(records[0, FK.F_PLY]) if len(records) else rules.n_players + 2
    hands = np.zeros(6, dtype=np.int64)
    hand_traced(setup, 0, 0, hands, trace, trace.copy(), S, limit=ply)
    P, STR = setup.P, setup.STR
    mask = int(legal_mask(S, P, STR, int(P[L.P_FAMILY])))
    play_on(rules, S, (mask & -mask).bit_length() - 1, "heuristic")
    return time.perf_counter() - started


def warm_baloot_forks() -> float:
    """Compile the Baloot family's fork driver (bid forks only); returns the seconds it took."""
    from .rules import get_rules
    from .sim.bid_fork import bid_fork_records

    started = time.perf_counter()
    bid_fork_records(get_rules(FAMILY_PRESETS["baloot"]), 5, 0, "heuristic", workers=1)
    return time.perf_counter() - started


def warm_search_forks(family: str) -> float:
    """Compile what the forks of an ISMCTS line-up add to its batch entry: the record kernels
    the stepped driver (``sim.search_fork``) calls from Python (its play-outs run in the searching
    class's one batch entry, ``drivers.play._search_kernels``, compiled before); returns the seconds it
    took."""
    from .rules import get_rules
    from .sim.bid_fork import bid_fork_records
    from .sim.fork import fork_records

    started = time.perf_counter()
    rules = get_rules(FAMILY_PRESETS[family])
    searching = ["ismcts:iterations=5", "heuristic"]
    if rules.is_kout:
        fork_records(rules, 8, 0, searching, workers=1)
    bid_fork_records(rules, 2, 0, searching, workers=1)
    return time.perf_counter() - started


def warm_solver() -> float:
    """Compile the double-dummy solver's entry points (one compile serves every preset)."""
    from .bench import first_leads
    from .rules import get_rules
    from .solver import Solver

    started = time.perf_counter()
    rules = get_rules(FAMILY_PRESETS["baloot"])
    S = first_leads(rules, 1, tricks=4)[0]
    solver = Solver(rules)
    value = solver.value(S)
    solver.at_least(S, value)
    solver.card_values(S)
    return time.perf_counter() - started


def warm(family: str) -> float:
    """Compile the entry points of ``family``; returns the seconds it took."""
    from .drivers.play import hand_traced
    from .engine import layout as L
    from .players import parse_lineup
    from .players.ismcts import N_INT_ROWS, SEARCH
    from .players.turn import turn_of
    from .rules import get_rules
    from .sim import play_hands, play_matches
    from .sim.batch import setup_of

    started = time.perf_counter()
    rules = get_rules(FAMILY_PRESETS[family])
    P, STR = tables_of(rules)
    for players in ("random", ["heuristic", "random"]):
        play_hands(rules, 4, 0, players, workers=1)
        play_matches(rules, 1, 0, players, workers=1)
    random_setup = setup_of(rules, "random")
    hands = np.zeros(6, dtype=np.int64)
    trace = np.zeros(256, dtype=np.int64)
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    # a whole traced hand, then one stopped a few actions in: S is a position to search
    for limit in (-1, rules.n_players + 2):
        hand_traced(random_setup, 0, 0, hands, trace, trace.copy(), S, limit=limit)
    search = parse_lineup("ismcts:iterations=5", rules.n_players, rules.family)
    row = search.params(rules.family)[0]
    nodes = np.empty((N_INT_ROWS, 8), dtype=np.int64)
    value = np.empty(8, dtype=np.float64)
    rng = np.arange(1, 5, dtype=np.uint64)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    from .engine.game import legal_mask

    mask = int(legal_mask(S, P, STR, int(P[L.P_FAMILY])))
    SEARCH[int(P[L.P_FAMILY])](S.copy(), turn_of(P, STR, MS, rng, row, (nodes, value)), mask)
    searching = ["ismcts:iterations=5", "heuristic"]
    play_hands(rules, 2, 0, searching, workers=1)
    play_matches(rules, 1, 0, searching, workers=1)
    # PIMC runs in the same searching entry points (its kernels passed in by address): this
    # compiles its card kernel and, in Kout, its calls=1 par bids (players.searches)
    pimc = "pimc:samples=1,calls=1" if rules.is_kout else "pimc:samples=1"
    play_hands(rules, 2, 0, [pimc, "heuristic"], workers=1)
    warm_search_forks(family)
    if rules.is_kout:
        warm_forks()
    else:
        warm_solver()  # the other process compiles the Kout forks
        warm_baloot_forks()
    return time.perf_counter() - started


def main() -> None:
    """The command line: warm up the family named, or both families in two processes."""
    if len(sys.argv) > 1:
        seconds = warm(sys.argv[1])
        print(f"kernels of {sys.argv[1]} ready in {seconds:.0f} s", flush=True)
        return
    procs = [
        subprocess.Popen([sys.executable, "-m", "kout_sim.warmup", family])
        for family in FAMILY_PRESETS
    ]
    codes = [p.wait() for p in procs]
    if any(codes):
        sys.exit(1)


if __name__ == "__main__":
    main()
