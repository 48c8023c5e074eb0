"""kout_sim's double-dummy solver beside DDS (Bo Haglund's bridge solver), in one process.

DDS, through ``endplay`` (``pip install 'kout_sim[bench]'``, or ``endplay>=0.5``; the dev extra has
it for the tests), is the reference double-dummy solver of bridge: issue 13 quotes "about 16 ms a
52-card deal, one thread". Bridge is Kout without jokers: follow suit if able, a void hand plays
any card with no duty to trump, the highest trump wins, else the highest card of the led suit
(RULES.md 1.5 / 1.9, 2.6 / 2.7). So a 4-seat Kout position once the jokers have been played is a
bridge position, and both solvers can be asked the same question. Two comparisons, each timed
with the thread's CPU clock and alternating the two solvers position by position:

1. **Whole deals from the first lead.** DDS on random bridge deals of 52 cards (13 a hand), 36
   (9 a hand, ranks 6 to A: the size of a kout_bo_4 deal) and 32 (8 a hand, 7 to A: kout_bh_4's),
   a random trump suit and leader, best card and its tricks (``SolveBoard``, target -1, one
   solution); kout_sim's full-hand value of ``kout-sim bench --solver``'s deals (the heuristic
   line-up's contract and trump) of kout_bo_4 and kout_bh_4, which are played with their jokers.
2. **The same positions.** kout_bh_4 and kout_bo_4 deals whose jokers fall in the first trick
   (each held by a seat other than the leader, which plays it; the other seats a seeded random
   legal card), solved at the lead of the second trick by both: the bidding team's tricks from
   both must agree, and the time and node counts are set side by side (DDS counts its nodes its
   own way: compare the times).

    PYTHONPATH=. python benchmarks/dds_side_by_side.py [--deals 200] [--positions 200] [--seed 1]
        [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import time
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from kout_sim.bench import first_leads, heuristic_leads
from kout_sim.cards import JOKER_MASK, format_card, parse_card
from kout_sim.engine import layout as L
from kout_sim.engine.step import NumbaHand
from kout_sim.rules import Rules, get_rules
from kout_sim.solver import Solver

MISSING = (
    "dds_side_by_side.py needs DDS (endplay is not importable): "
    "pip install 'kout_sim[bench]' (endplay>=0.5)"
)
KOUT_PRESETS = ("kout_bo_4", "kout_bh_4")
# bridge deals: (cards a hand, the lowest rank's index 0..12), the kout_sim deal of that size
BRIDGE_DEALS = {"52 cards": (13, 0), "36 cards": (9, 4), "32 cards": (8, 5)}
LIKE = {"36 cards": "kout_bo_4", "32 cards": "kout_bh_4"}
SOLUTIONS_BEST = 1  # DDS: the best card and its score
SOLUTIONS_ALL = 3  # DDS: every legal card and its score
ALWAYS_SEARCH = 1  # DDS mode: search even a forced card


def load_dds() -> ModuleType:
    """The DDS binding of endplay (``endplay._dds``), or a one-line :class:`SystemExit`."""
    try:
        return importlib.import_module("endplay._dds")
    except ImportError:
        raise SystemExit(MISSING) from None


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# ------------------------------------------------------------------------ positions


def _rank_bit(card: int) -> int:
    """DDS's bit of a suited card's rank (bit 2 for the 2 ... bit 14 for the Ace)."""
    return 1 << (card % 13 + 2)


def dds_deal(dds: ModuleType, S: np.ndarray) -> Any:
    """The DDS ``deal`` of a 4-seat Kout play-phase state with no joker left (seats in playing
    order are DDS's hands 0-3 in theirs; teams are seat parity in both; suits S H D C are 0-3 in
    both, RULES.md 0.3)."""
    if int(S[L.S_PHASE]) != L.PH_PLAY:
        raise ValueError("the position is not in the play phase")
    k = int(S[L.S_N_IN_TRICK])
    trick = [int(S[L.S_TRICK + i]) for i in range(k)]
    if any(int(S[L.S_HAND + s]) & JOKER_MASK for s in range(4)) or any(c >= 52 for c in trick):
        raise ValueError("DDS has no jokers: the position holds one")
    deal = dds.deal()
    for hand in range(4):
        for suit in range(4):
            deal.remainCards[hand][suit] = 0
        for card in _bits(int(S[L.S_HAND + hand])):
            deal.remainCards[hand][card // 13] |= _rank_bit(card)
    for i in range(3):
        deal.currentTrickSuit[i] = trick[i] // 13 if i < k else 0
        deal.currentTrickRank[i] = trick[i] % 13 + 2 if i < k else 0
    deal.trump = int(S[L.S_TRUMP])
    deal.first = int(S[L.S_LEADER]) if k else int(S[L.S_TO_ACT])
    return deal


def bidding_total(S: np.ndarray, n_tricks: int, score: int) -> int:
    """The bidding team's tricks at the end of the hand, from DDS's ``score`` (the tricks from
    the current one on of the side to play)."""
    team = int(S[L.S_BIDDER]) & 1
    left = n_tricks - int(S[L.S_N_DONE])
    mine = score if (int(S[L.S_TO_ACT]) & 1) == team else left - score
    return int(S[L.S_TRICKS + team]) + mine


def dds_solve(dds: ModuleType, deal: Any, solutions: int) -> tuple[dict[int, int], int, float]:
    """DDS's ``SolveBoard`` of ``deal``: {card id: score} (``solutions`` 1: the best card only; 3:
    every legal card), its node count and the thread's CPU seconds."""
    fut = dds.futureTricks()
    t0 = time.thread_time()
    dds.SolveBoard(deal, -1, solutions, ALWAYS_SEARCH, fut, 0)
    seconds = time.thread_time() - t0
    scores: dict[int, int] = {}
    for i in range(fut.cards):
        ranks = (1 << fut.rank[i]) | fut.equals[i]
        for rank in range(2, 15):
            if ranks >> rank & 1:
                scores[13 * fut.suit[i] + rank - 2] = int(fut.score[i])
    return scores, int(fut.nodes), seconds


def joker_free_positions(
    rules: Rules, count: int, seed: int = 0, extra: Sequence[int] = (0,)
) -> list[np.ndarray]:
    """``count`` 4-seat Kout positions with every joker played: heuristic deals and auctions
    (:func:`kout_sim.bench.heuristic_leads`) whose jokers are held one a seat by seats other than
    the first leader; in the first trick each holder plays its joker and every other seat a
    seeded random legal card (RULES.md 1.5 / 2.6: a joker may be played into any trick); then
    ``extra[i % len(extra)]`` random legal cards of the next trick. Deals the engine ends early
    (RULES.md 1.11 / 2.9) are passed over."""
    if rules.n_players != 4 or rules.is_baloot:
        raise ValueError(f"DDS positions need a 4-seat Kout preset, not {rules.name}")
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    for _, S in heuristic_leads(rules, seed):
        if len(out) == count:
            break
        lead = int(S[L.S_TO_ACT])
        holders = [s for s in range(4) for c in _bits(int(S[L.S_HAND + s])) if c >= 52]
        if lead in holders or len(set(holders)) != len(holders):
            continue
        hand = NumbaHand.from_state(rules, S)
        plays = 4 + extra[len(out) % len(extra)]
        for _ in range(plays):
            if hand.phase != "play":
                break
            legal = [parse_card(a) for a in hand.legal_actions()]
            if hand.to_act in holders and int(hand.S[L.S_N_DONE]) == 0:
                card = next(c for c in legal if c >= 52)
            else:
                plain = [c for c in legal if c < 52]
                card = plain[int(rng.integers(len(plain)))]
            hand.apply(format_card(card))
        if hand.phase == "play":
            out.append(hand.S.copy())
    return out


def random_bridge_deal(dds: ModuleType, rng: np.random.Generator, per_hand: int, low: int) -> Any:
    """A random DDS deal: ``per_hand`` cards a hand from the ranks ``low``..A of each suit, a
    random trump suit and leader."""
    deck = [13 * suit + rank for suit in range(4) for rank in range(low, 13)]
    picked = rng.permutation(len(deck))[: 4 * per_hand]
    deal = dds.deal()
    for hand in range(4):
        for suit in range(4):
            deal.remainCards[hand][suit] = 0
    for i, index in enumerate(picked):
        card = deck[int(index)]
        deal.remainCards[i % 4][card // 13] |= _rank_bit(card)
    for i in range(3):
        deal.currentTrickSuit[i] = 0
        deal.currentTrickRank[i] = 0
    deal.trump = int(rng.integers(4))
    deal.first = int(rng.integers(4))
    return deal


# ------------------------------------------------------------------------ the comparisons


def _solve_kout(solver: Solver, S: np.ndarray) -> tuple[int, int, float]:
    """kout_sim's full value of ``S``, its nodes and the thread's CPU seconds."""
    before = solver.nodes
    t0 = time.thread_time()
    value = solver.value(S)
    return value, solver.nodes - before, time.thread_time() - t0


def _summary(seconds: list[float], nodes: list[int]) -> dict[str, Any]:
    return {
        "ms_median": round(statistics.median(seconds) * 1000, 3),
        "ms_mean": round(statistics.fmean(seconds) * 1000, 3),
        "nodes_median": int(statistics.median(nodes)),
    }


def whole_deals(dds: ModuleType, deals: int, seed: int) -> dict[str, Any]:
    """Comparison 1 (module doc): DDS's whole bridge deals and kout_sim's whole Kout deals,
    alternating deal by deal (52-card deals: one in four)."""
    rng = np.random.default_rng(seed)
    states = {p: first_leads(get_rules(p), deals + 1, seed) for p in KOUT_PRESETS}
    solvers = {p: Solver(get_rules(p)) for p in KOUT_PRESETS}
    for p in KOUT_PRESETS:
        solvers[p].value(states[p][0])  # compile (or load the cache) first
    times: dict[str, list[float]] = {k: [] for k in (*BRIDGE_DEALS, *KOUT_PRESETS)}
    nodes: dict[str, list[int]] = {k: [] for k in times}
    for i in range(deals):
        for name, (per_hand, low) in BRIDGE_DEALS.items():
            if per_hand == 13 and i % 4:
                continue
            _, n, seconds = dds_solve(dds, random_bridge_deal(dds, rng, per_hand, low), 1)
            times[name].append(seconds)
            nodes[name].append(n)
        for p in KOUT_PRESETS:
            _, n, seconds = _solve_kout(solvers[p], states[p][i + 1])
            times[p].append(seconds)
            nodes[p].append(n)
    result: dict[str, Any] = {}
    for name in BRIDGE_DEALS:
        result[f"dds {name}"] = {**_summary(times[name], nodes[name]), "deals": len(times[name])}
    for p in KOUT_PRESETS:
        result[f"kout_sim {p}"] = {**_summary(times[p], nodes[p]), "deals": deals}
    for name, p in LIKE.items():
        result[f"ratio {p} / dds {name}"] = round(
            statistics.median(times[p]) / statistics.median(times[name]), 2
        )
    return result


def same_positions(dds: ModuleType, preset: str, positions: int, seed: int) -> dict[str, Any]:
    """Comparison 2 (module doc) for ``preset``: both solvers on the same joker-free positions at
    the lead of the second trick, alternating position by position."""
    rules = get_rules(preset)
    solver = Solver(rules)
    states = joker_free_positions(rules, positions + 1, seed)
    solver.value(states[0])  # compile (or load the cache) first
    agree = 0
    kt: list[float] = []
    dt: list[float] = []
    kn: list[int] = []
    dn: list[int] = []
    for S in states[1:]:
        value, n, seconds = _solve_kout(solver, S)
        kt.append(seconds)
        kn.append(n)
        scores, n, seconds = dds_solve(dds, dds_deal(dds, S), SOLUTIONS_BEST)
        dt.append(seconds)
        dn.append(n)
        agree += bidding_total(S, rules.n_tricks, max(scores.values())) == value
    ratios = [a / b for a, b in zip(kt, dt, strict=True) if b > 0]
    return {
        "position": "lead of trick 2, the jokers played in trick 1",
        "positions": len(kt),
        "values_agree": agree,
        "kout_sim": _summary(kt, kn),
        "dds": _summary(dt, dn),
        "ratio_median": round(statistics.median(ratios), 2),
    }


def side_by_side(deals: int, positions: int, seed: int) -> dict[str, Any]:
    """Both comparisons (module doc)."""
    from importlib.metadata import version

    dds = load_dds()
    return {
        "endplay_version": version("endplay"),
        "clock": "thread CPU time",
        "whole_deals": whole_deals(dds, deals, seed),
        "same_positions": {p: same_positions(dds, p, positions, seed) for p in KOUT_PRESETS},
    }


def report(result: dict[str, Any]) -> str:
    """The result as lines of text."""
    lines = [f"DDS (endplay {result['endplay_version']}) and kout_sim, {result['clock']}"]
    lines.append("whole deals from the first lead (median / mean ms, median nodes):")
    for name, f in result["whole_deals"].items():
        if isinstance(f, dict):
            lines.append(
                f"  {name:>18}: {f['ms_median']:9.3f} / {f['ms_mean']:9.3f} ms, "
                f"{f['nodes_median']:>8,} nodes ({f['deals']} deals)"
            )
        else:
            lines.append(f"  {name}: {f}x")
    for preset, f in result["same_positions"].items():
        k, d = f["kout_sim"], f["dds"]
        lines.append(
            f"{preset}, {f['positions']} positions ({f['position']}): values agree "
            f"{f['values_agree']}/{f['positions']}; kout_sim {k['ms_median']:.3f} ms "
            f"({k['nodes_median']:,} nodes), DDS {d['ms_median']:.3f} ms ({d['nodes_median']:,} "
            f"nodes), per-position ratio {f['ratio_median']}x"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="whole deals of each kind")
    parser.add_argument("--positions", type=int, default=200, help="same positions a preset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for name in ("deals", "positions"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be positive")
    if args.seed < 0:
        parser.error("--seed must not be negative")
    load_dds()  # before any compile
    result = side_by_side(args.deals, args.positions, args.seed)
    print(json.dumps(result) if args.json else report(result))


if __name__ == "__main__":
    main()
