"""Where a heuristic hand's time goes: the heuristic's decisions timed alone, by kind.

The heuristic line-up plays hands of ``--preset`` (one core); the state before each decision with
more than one legal action is kept, a few thousand of each kind (calls, leads, following cards).
Each kind's snapshots are then copied one by one into a scratch state and given to the heuristic
(``players.heuristic.choose_heuristic``); the copy alone is timed too and subtracted. Printed: ns a
decision of each kind, how many such decisions a hand makes, and their product, ns a hand, beside
``kout-sim bench``'s whole heuristic hand (deal, auction, play, scoring, result row).

Medians of ``--repeats`` runs. The machine is shared: compare revisions in one run, alternating.

    python benchmarks/profile_heuristic.py [--preset kout_bo_4] [--repeats 7] [--json]

The profiling entry point is compiled in each run (numba's cache would key it on this file alone,
not on the kernels it inlines); the kernels below it load from the project's cache.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

import numba
import numpy as np
from profile_kernels import _median_seconds  # the script's folder is on the path

from kout_sim.drivers.loop import NO_SEARCHES, context, deal_alone, new_lanes
from kout_sim.engine._jit import copy_into
from kout_sim.engine.game import apply_action, legal_mask
from kout_sim.engine.layout import (
    FAMILY_BALOOT,
    FAMILY_KOUT,
    PH_OVER,
    PH_PLAY,
    S_N_IN_TRICK,
    S_PHASE,
    S_SIZE,
    S_TO_ACT,
)
from kout_sim.engine.tables import tables_of
from kout_sim.players.heuristic import choose_heuristic
from kout_sim.players.turn import Turn
from kout_sim.rules import get_rules
from kout_sim.sim.batch import lineup_of

KINDS = ("call", "lead", "follow")
N_SNAPS = 4096
REPS = 20


def _make_entry(family: int) -> Callable[..., int]:
    """The profiling entry point of ``family`` (a closure constant, as in the drivers)."""

    @numba.njit(nogil=True, _noalias=True)
    def entry(
        P: np.ndarray,
        STR: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        seed: int,
        snaps: np.ndarray,
        masks: np.ndarray,
        counts: np.ndarray,
        kind: int,
        reps: int,
        timed: bool,
    ) -> int:
        """``kind < 0``: play hands until every kind has ``snaps.shape[1]`` snapshots, counting
        the decisions with a choice (``counts``); returns the hands played. Else ``reps`` passes
        over the snapshots of ``kind``, each copied into the state and (``timed``) decided."""
        ctx = context(P, STR, kinds, params, NO_SEARCHES)
        w = new_lanes(P)
        S = w.S
        total = 0
        if kind < 0:
            n = snaps.shape[1]
            kept = np.zeros(3, dtype=np.int64)
            hands = 0
            while kept.min() < n:
                deal_alone(w, ctx, seed, hands, family)
                hands += 1
                while S[S_PHASE] != PH_OVER:
                    mask = legal_mask(S, P, STR, family)
                    seat = S[S_TO_ACT]
                    if mask & (mask - 1) != 0:
                        k = 0 if S[S_PHASE] != PH_PLAY else (1 if S[S_N_IN_TRICK] == 0 else 2)
                        counts[k] += 1
                        if kept[k] < n:
                            copy_into(snaps[k, kept[k]], S)
                            masks[k, kept[k]] = mask
                            kept[k] += 1
                    turn = Turn(P, STR, w.MS, w.play, ctx.params[seat], ctx.nodes, ctx.value)
                    action = choose_heuristic(S, turn, mask, family)
                    apply_action(S, P, STR, action, family)
            return hands
        for _ in range(reps):
            for j in range(snaps.shape[1]):
                copy_into(S, snaps[kind, j])
                if timed:
                    seat = S[S_TO_ACT]
                    turn = Turn(P, STR, w.MS, w.play, ctx.params[seat], ctx.nodes, ctx.value)
                    total += choose_heuristic(S, turn, masks[kind, j], family)
                else:
                    total += S[S_TO_ACT]
        return total

    return entry


def profile(preset: str, repeats: int, seed: int = 1) -> dict[str, object]:
    """The heuristic's cost (ns a decision and a hand) for each decision kind of ``preset``."""
    rules = get_rules(preset)
    family = FAMILY_KOUT if rules.is_kout else FAMILY_BALOOT
    P, STR = tables_of(rules)
    lineup = lineup_of(rules, "heuristic")
    kinds, params = lineup.kinds, lineup.params(rules.family)
    snaps = np.zeros((3, N_SNAPS, S_SIZE), dtype=np.int64)
    masks = np.zeros((3, N_SNAPS), dtype=np.int64)
    counts = np.zeros(3, dtype=np.int64)
    entry = _make_entry(family)
    hands = entry(P, STR, kinds, params, seed, snaps, masks, counts, -1, 1, False)
    per_hand = counts / hands
    out: dict[str, object] = {"preset": preset, "hands_sampled": int(hands)}
    total = 0.0
    for k, name in enumerate(KINDS):
        units = N_SNAPS * REPS

        def run(timed: bool, k: int = k) -> int:
            return int(entry(P, STR, kinds, params, seed, snaps, masks, counts, k, REPS, timed))

        copy = _median_seconds(lambda: run(False), repeats) / units * 1e9
        full = _median_seconds(lambda: run(True), repeats) / units * 1e9
        ns = full - copy
        total += ns * per_hand[k]
        out[name] = {
            "ns_a_decision": round(ns, 1),
            "decisions_a_hand": round(float(per_hand[k]), 2),
            "ns_a_hand": round(ns * per_hand[k], 1),
        }
    out["heuristic_ns_a_hand"] = round(total, 1)
    return out


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="kout_bo_4")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = profile(args.preset, args.repeats)
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{args.preset}: the heuristic's decisions with a choice ({result['hands_sampled']} hands)"
    )
    for name in KINDS:
        r = result[name]
        assert isinstance(r, dict)
        print(
            f"  {name:7s} {r['ns_a_decision']:7.1f} ns a decision x {r['decisions_a_hand']:5.2f}"
            f" a hand = {r['ns_a_hand']:7.1f} ns a hand"
        )
    print(f"  all     {result['heuristic_ns_a_hand']:7.1f} ns a hand")


if __name__ == "__main__":
    main()
