"""Where the double-dummy solver's time goes: its counters over full-hand solves, and what each
kernel of a node costs.

    PYTHONPATH=. python benchmarks/profile_solver.py [--preset kout_bo_4] [--deals 40] [--seed 3]
        [--trick 4] [--reps 200000] [--json]

**Counters.** The exact value of ``--deals`` deals from the first lead (``kout-sim bench --solver``'s
deals: the heuristic line-up's contract), with the search's own statistics (``engine.dd``'s
``C_NODES``, ``C_STARTS``, ``C_CUT_TT``, ``C_CUT_BOUND``, ``C_PROBES``): nodes a solve, the trick
starts reached inside the window, the share of them a table entry ends and the share a trick-start
bound ends (the rest are searched), nodes a trick start, null-window probes a value, and the CPU
time a solve (median and mean). The node counts are deterministic: a change that keeps the values
and cuts nodes shows here exactly, whatever the machine's load.

**Kernel costs.** At the lead of trick ``--trick`` of 30 such deals (the heuristic line-up's
play up to it), each of the search's per-node kernels called ``--reps`` times in a loop: the legal
cards, the move list (equivalent cards, ordering scores), a play with its save and take-back, the
table's bucket keys (relative ranks, hashes) and the trick-start bounds; median ns a call over the
positions. A trick start pays all of them, a node inside a trick the first three.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from kout_sim.bench import first_leads
from kout_sim.engine import dd as K
from kout_sim.rules import get_rules
from kout_sim.solver import Solver

SCRATCH = K.R_S - 1
"""A row of the workspace no search depth reaches (the deepest ply of a 54-card deal is row 53): the
kernels below write their move lists and saved fields there."""

COUNTERS = {
    "nodes": K.C_NODES,
    "starts": K.C_STARTS,
    "cut_tt": K.C_CUT_TT,
    "cut_bound": K.C_CUT_BOUND,
    "probes": K.C_PROBES,
}


def counters(preset: str, deals: int, seed: int) -> dict[str, Any]:
    """The search's statistics over full-hand values of ``deals`` deals from the first lead."""
    rules = get_rules(preset)
    states = first_leads(rules, deals + 1, seed)
    solver = Solver(rules)
    solver.value(states[0].copy())  # compile, or load the cache
    C = solver.C
    before = {name: int(C[slot]) for name, slot in COUNTERS.items()}
    cpu: list[float] = []
    for state in states[1:]:
        start = time.thread_time()
        solver.value(state.copy())
        cpu.append(time.thread_time() - start)
    total = {name: int(C[slot]) - before[name] for name, slot in COUNTERS.items()}
    starts = max(total["starts"], 1)
    return {
        "preset": preset,
        "deals": deals,
        "seed": seed,
        "nodes_per_solve": round(total["nodes"] / deals),
        "trick_starts_per_solve": round(total["starts"] / deals),
        "ended_by_table": round(total["cut_tt"] / starts, 3),
        "ended_by_bound": round(total["cut_bound"] / starts, 3),
        "searched": round(1 - (total["cut_tt"] + total["cut_bound"]) / starts, 3),
        "nodes_per_trick_start": round(total["nodes"] / starts, 2),
        "probes_per_value": round(total["probes"] / deals, 2),
        "cpu_ms_median": round(1000 * statistics.median(cpu), 3),
        "cpu_ms_mean": round(1000 * statistics.fmean(cpu), 3),
        "ns_per_node": round(1e9 * sum(cpu) / max(total["nodes"], 1), 1),
    }


@numba.njit
def _legal(S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, reps: int) -> int:
    C = W[K.R_C]
    acc = 0
    for _ in range(reps):
        acc += K.legal(S, P, STR, C)
        W[SCRATCH, 0] = acc  # a store the arrays read may alias: the call is not hoisted
    return acc


@numba.njit
def _moves(S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, reps: int) -> int:
    C = W[K.R_C]
    Q = W[K.R_Q : K.R_Q + 4]
    mask = K.legal(S, P, STR, C)
    acc = 0
    for _ in range(reps):
        acc += K.moves(S, P, STR, C, Q, mask, -1, W, SCRATCH)
    return acc


@numba.njit
def _play(S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, reps: int) -> int:
    C = W[K.R_C]
    mask = K.legal(S, P, STR, C)
    card = 0
    while (mask >> card) & 1 == 0:
        card += 1
    seat = S[K.S_TO_ACT]
    acc = 0
    for _ in range(reps):
        K.save(S, W, SCRATCH)
        acc += K.play(S, P, STR, C, card)
        K.unplay(S, W, SCRATCH, seat, card)
    return acc


@numba.njit
def _keys(S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, reps: int) -> int:
    C = W[K.R_C]
    held = K._held(S, C)
    acc = np.uint64(0)
    for _ in range(reps):
        h1, _h2 = K._keys(S, P, C, W, held)
        acc ^= h1
    return int(acc & np.uint64(1))


@numba.njit
def _bounds(S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, reps: int) -> int:
    C = W[K.R_C]
    Q = W[K.R_Q : K.R_Q + 4]
    acc = 0
    for _ in range(reps):
        lo, hi = K.bounds(S, P, C)
        a, b = K.start_bounds(S, P, STR, C, Q, lo, hi)
        acc += a + b
    return acc


KERNELS: dict[str, Callable[..., int]] = {
    "legal": _legal,
    "moves": _moves,
    "save_play_unplay": _play,
    "table_keys": _keys,
    "trick_start_bounds": _bounds,
}


def kernel_costs(preset: str, trick: int, reps: int, seed: int) -> dict[str, float]:
    """Median ns a call of each per-node kernel at the lead of ``trick`` of 30 deals."""
    rules = get_rules(preset)
    solver = Solver(rules)
    states = first_leads(rules, 30, seed, tricks=trick)
    times: dict[str, list[float]] = {name: [] for name in KERNELS}
    for i, state in enumerate(states):
        S = state.copy()
        solver._begin(S)
        for name, kernel in KERNELS.items():
            args = (S, solver.P, solver.STR, solver.W)
            if i == 0:
                kernel(*args, 10)  # compile
            start = time.perf_counter()
            kernel(*args, reps)
            times[name].append((time.perf_counter() - start) / reps * 1e9)
    return {name: round(statistics.median(ts), 1) for name, ts in times.items()}


def main(argv: list[str] | None = None) -> None:
    """The command line (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="kout_bo_4")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--trick", type=int, default=4, help="kernel costs at this trick's lead")
    parser.add_argument("--reps", type=int, default=200_000, help="calls a kernel and position")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.reps < 1 or args.trick < 0:
        parser.error("--deals and --reps must be at least 1, --trick at least 0")
    found = counters(args.preset, args.deals, args.seed)
    found["kernel_ns"] = kernel_costs(args.preset, args.trick, args.reps, args.seed)
    found["kernel_trick"] = args.trick
    if args.json:
        print(json.dumps(found))
        return
    print(
        f"{args.preset}, {args.deals} full-hand values (seed {args.seed}): "
        f"{found['nodes_per_solve']:,} nodes and {found['trick_starts_per_solve']:,} trick starts "
        f"a solve; of the trick starts the table ends {found['ended_by_table']:.1%}, a bound "
        f"{found['ended_by_bound']:.1%}, {found['searched']:.1%} searched; "
        f"{found['nodes_per_trick_start']} nodes a trick start, {found['probes_per_value']} probes "
        f"a value; CPU {found['cpu_ms_median']} ms median, {found['cpu_ms_mean']} ms mean, "
        f"{found['ns_per_node']} ns a node"
    )
    costs = ", ".join(f"{name} {ns} ns" for name, ns in found["kernel_ns"].items())
    print(f"kernels at the lead of trick {args.trick} (median a call): {costs}")


if __name__ == "__main__":
    main()
