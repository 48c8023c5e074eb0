"""Where the time of a random hand goes: the engine's kernels timed one by one on the same hands.

Two kinds of figures, both for random players on one core (``--preset``, ``--option k=v``):

- **Stages**, cumulative: each stage runs the hands of the one before it plus one more step (seed
  the streams; deal; the auction; the play; the result row written to one reused row; the result row
  written to a column-major batch buffer as ``kout-sim bench`` does). The difference of two stages
  is the cost of the step, per hand, per card or per call.
- **Kernels** on snapshots: the states before every card of a few thousand random hands, each copied
  into a scratch state and given to one kernel (``legal_mask``, the random choice, ``apply_action``,
  the trick winner on full tricks, ``record_hand`` on finished hands); the copy alone is timed too
  and subtracted.

Medians of ``--repeats`` runs, ns. The machine is shared: compare figures of one run.

    python benchmarks/profile_kernels.py [--preset kout_bo_4] [--option play_all_tricks=true]
        [--hands 300000] [--repeats 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

import numba
import numpy as np

from kout_sim.drivers.loop import (
    ALL,
    Context,
    Lanes,
    deal_alone,
    play_hand,
    seed_lanes,
)
from kout_sim.drivers.play import lanes, line_up, new_rows
from kout_sim.engine._jit import _NO_NRT, copy_into
from kout_sim.engine.game import apply_action, legal_mask, record_hand
from kout_sim.engine.layout import (
    FAMILY_KOUT,
    P_N_PLAYERS,
    PH_OVER,
    PH_PLAY,
    R_N_ACTIONS,
    R_N_CALLS,
    R_N_DONE,
    R_SIZE,
    S_HIGH_BID,
    S_N_IN_TRICK,
    S_PHASE,
    S_SIZE,
    S_TO_ACT,
    S_TRICK,
)
from kout_sim.engine.trick import trick_winner_idx
from kout_sim.players.kinds import NO_SEARCH
from kout_sim.players.policy import choose_random
from kout_sim.rules import get_rules
from kout_sim.sim.batch import setup_of

STAGES = ("seed", "deal", "auction", "play", "row (reused)", "row (batch buffer)")
# Compiled in each run, not cached: numba's cache would key these on this file alone, while they
# inline the engine's kernels (an edit of the engine would leave a stale profile).
jit = numba.njit(nogil=True, forceinline=True, **_NO_NRT)
jit_entry_free = numba.njit(nogil=True, _noalias=True, **_NO_NRT)

KERNELS = ("copy", "legal_mask", "choose_random", "apply_action", "trick_winner", "record_hand")


@jit_entry_free
def profile_entry(
    ctx: Context,
    w: Lanes,
    seed: int,
    out: np.ndarray,
    snaps: np.ndarray,
    cards: np.ndarray,
    masks: np.ndarray,
    finals: np.ndarray,
    reps: int,
    stage: int,
) -> int:
    """Stage ``stage`` (0-5: :data:`STAGES` over ``len(out)`` hands; 10: fill the snapshots;
    11-16: :data:`KERNELS` over the snapshots ``reps`` times). Returns a checksum (or a count).

    ``ctx`` and ``w`` are built in Python (:func:`kout_sim.drivers.play.line_up`, ``lanes``), so
    the loops run without numba's reference counts, as the drivers' entry points do (an array
    passed between kernels inlined into a reference-counting function costs an atomic increment
    and decrement)."""
    no_trace, no_packed = w.no_trace, w.no_packed
    family = FAMILY_KOUT
    P, STR = ctx.P, ctx.STR
    S = w.S
    n = P[P_N_PLAYERS]
    total = 0
    if stage < 10:
        for i in range(out.shape[0]):
            if stage == 0:
                seed_lanes(w, seed, i)
                total += np.int64(w.deal[0] & np.uint64(1)) + np.int64(w.play[0] & np.uint64(1))
                continue
            deal_alone(w, ctx, seed, i, family)
            if stage == 1:
                total += S[S_TO_ACT]
                continue
            if stage == 2:
                while S[S_PHASE] != PH_PLAY and S[S_PHASE] != PH_OVER:
                    mask = legal_mask(S, P, STR, family)
                    seat = S[S_TO_ACT]
                    action = choose_random(S, w.play, ctx.params[seat], mask)
                    apply_action(S, P, STR, action, family)
                total += S[S_HIGH_BID]
                continue
            row = out[i] if stage == 5 else out[0]
            t = play_hand(
                S, w.MS, w.play, ctx, row, no_trace, no_trace, no_packed, -1, ALL, NO_SEARCH, family
            )
            total += t
            if stage >= 4:
                record_hand(row, S, P, STR, w.hands, n, family)
        return total
    if stage == 10:  # the states before each card, the card played, and the finished hands
        m = 0
        f = 0
        i = 0
        while m < snaps.shape[0] or f < finals.shape[0]:
            deal_alone(w, ctx, seed, i, family)
            i += 1
            while S[S_PHASE] != PH_OVER:
                mask = legal_mask(S, P, STR, family)
                seat = S[S_TO_ACT]
                action = choose_random(S, w.play, ctx.params[seat], mask)
                if S[S_PHASE] == PH_PLAY and m < snaps.shape[0]:
                    copy_into(snaps[m], S)
                    cards[m] = action
                    masks[m] = mask
                    m += 1
                apply_action(S, P, STR, action, family)
            if f < finals.shape[0]:
                copy_into(finals[f], S)
                f += 1
        return i
    row = out[0]
    k = stage - 11
    seed_lanes(w, seed, 0)  # choose_random draws from the play lane: a seeded one, never zeros
    for _ in range(reps):
        if k == 5:
            for j in range(finals.shape[0]):
                copy_into(S, finals[j])
                record_hand(row, S, P, STR, w.hands, n, family)
                total += row[R_N_DONE]
            continue
        for j in range(snaps.shape[0]):
            copy_into(S, snaps[j])
            if k == 0:
                total += S[S_TO_ACT]
            elif k == 1:
                total += legal_mask(S, P, STR, family)
            elif k == 2:
                total += choose_random(S, w.play, ctx.params[0], masks[j])
            elif k == 3:
                apply_action(S, P, STR, cards[j], family)
                total += S[S_TO_ACT]
            else:
                # the trick as it stands with this card added, as if it were the last one
                t = S[S_N_IN_TRICK]
                S[S_TRICK + t] = cards[j]
                S[S_N_IN_TRICK] = n
                total += trick_winner_idx(S, P, STR)
    return total


def _median_seconds(call: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        call()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


N_SNAPS, N_FINALS = 4096, 1024


def stage_runner(
    preset: str, options: dict[str, object], hands: int, seed: int = 1
) -> tuple[Callable[..., int], np.ndarray]:
    """``run(stage, reps=1)`` calling :func:`profile_entry` on ``hands`` random hands of ``preset``
    (the streams of ``seed``), and the result rows its stages 4 and 5 write."""
    rules = get_rules(preset, options or None)
    if not rules.is_kout:
        raise SystemExit("profile_kernels.py profiles the Kout family")
    setup = setup_of(rules, "random")
    out = new_rows(hands)
    snaps = np.zeros((N_SNAPS, S_SIZE), dtype=np.int64)
    cards = np.zeros(N_SNAPS, dtype=np.int64)
    masks = np.zeros(N_SNAPS, dtype=np.int64)
    finals = np.zeros((N_FINALS, S_SIZE), dtype=np.int64)
    assert out.shape[1] == R_SIZE

    def run(stage: int, reps: int = 1) -> int:
        ctx, w = line_up(setup), lanes(setup.P)
        return int(profile_entry(ctx, w, seed, out, snaps, cards, masks, finals, reps, stage))

    return run, out


def hand_counts(out: np.ndarray) -> dict[str, int]:
    """Actions, calls, tricks and cards played in the result rows ``out``."""
    counts = {
        "actions": int(out[:, R_N_ACTIONS].sum()),
        "calls": int(out[:, R_N_CALLS].sum()),
        "tricks": int(out[:, R_N_DONE].sum()),
    }
    counts["cards"] = counts["actions"] - counts["calls"]
    return counts


def whole_hands(
    preset: str, options: dict[str, object], hands: int, seed: int = 1
) -> tuple[Callable[[], int], int]:
    """The last stage (``hands`` whole random hands written to a batch buffer, as ``kout-sim
    bench``), compiled (or loaded) and warmed up, ready to time; and the cards a call plays."""
    run, out = stage_runner(preset, options, hands, seed)
    run(5)
    return (lambda: run(5)), hand_counts(out)["cards"]


def profile(preset: str, options: dict[str, object], hands: int, repeats: int) -> dict[str, object]:
    """The stage and kernel figures (ns) of ``hands`` random hands of ``preset``."""
    run, out = stage_runner(preset, options, hands)
    n_snaps, n_finals = N_SNAPS, N_FINALS
    run(10)
    run(5)  # compile (or load) and warm up
    counts = hand_counts(out)
    stage_ns = {
        name: _median_seconds(lambda s=s: run(s), repeats) / hands * 1e9
        for s, name in enumerate(STAGES)
    }
    reps = 20
    kernel_ns = {}
    for k, name in enumerate(KERNELS):
        units = (n_finals if name == "record_hand" else n_snaps) * reps
        kernel_ns[name] = _median_seconds(lambda k=k: run(11 + k, reps), repeats) / units * 1e9
    copy = kernel_ns["copy"]
    steps = {
        "seed, per hand": stage_ns["seed"],
        "deal (dealer, shuffle, deal, new_hand), per hand": stage_ns["deal"] - stage_ns["seed"],
        "auction and trump, per call": (stage_ns["auction"] - stage_ns["deal"])
        * hands
        / max(1, counts["calls"]),
        "play, per card": (stage_ns["play"] - stage_ns["auction"])
        * hands
        / max(1, counts["cards"]),
        "result row (compute), per hand": stage_ns["row (reused)"] - stage_ns["play"],
        "result row (memory), per hand": stage_ns["row (batch buffer)"] - stage_ns["row (reused)"],
        "whole hand, per card (all steps)": stage_ns["row (batch buffer)"]
        * hands
        / max(1, counts["cards"]),
    }
    return {
        "preset": preset,
        "options": options,
        "hands": hands,
        "per_hand": {k: round(v / hands, 2) for k, v in counts.items()},
        "stages_ns_per_hand": {k: round(v, 1) for k, v in stage_ns.items()},
        "steps_ns": {k: round(v, 1) for k, v in steps.items()},
        "kernels_ns": {k: round(v - copy if k != "copy" else v, 2) for k, v in kernel_ns.items()},
        "hands_per_second": round(1e9 / stage_ns["row (batch buffer)"]),
    }


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="kout_bo_4")
    parser.add_argument("--option", action="append", default=[], help="rule option k=v")
    parser.add_argument("--hands", type=int, default=300_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options: dict[str, object] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = {"true": True, "false": False}.get(value.lower(), value)
    result = profile(args.preset, options, args.hands, args.repeats)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.preset} {options or ''}: {result['per_hand']} per hand")
    for section in ("stages_ns_per_hand", "steps_ns", "kernels_ns"):
        print(section)
        for key, value in result[section].items():  # type: ignore[attr-defined]
            print(f"  {key:50s} {value:10.1f}")
    print(f"hands per second (last stage): {result['hands_per_second']:,}")


if __name__ == "__main__":
    main()
