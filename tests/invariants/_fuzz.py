"""Mutated records through both engines: the fuzzer of ``test_fuzz.py``.

Valid hand and match records of every preset are made by playing random hands and matches again
as records (:mod:`kout_sim.sim.records`); a mutation walks into the record and replaces, removes,
duplicates or adds a value (huge and negative integers, floats, strings, cards, lists, objects,
``None``). Each mutated record is replayed by both engines; the outcome is its class: ``result``,
``InvalidRecord`` or ``IllegalAction``, and anything else is a failure of the fuzz.

Run as a script for the figures (records, outcomes per class per engine)::

    python -m tests.invariants._fuzz 20000 [seed]
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Protocol

import numpy as np

from kout_sim import IllegalAction, InvalidRecord, preset_names, replay_hand, replay_match
from kout_sim.engine import layout as L
from kout_sim.rules import get_rules
from kout_sim.sim import play_hands, play_matches
from kout_sim.sim.records import _hand_record

ENGINES = ("numba", "reference")
OUTCOMES = ("result", "InvalidRecord", "IllegalAction")
INTEGERS = (
    -1,
    0,
    1,
    2,
    7,
    13,
    152,
    1_001,
    32_768,
    2**31,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63) - 1,
    10**30,
)
TEXTS = ("", "pass", "AS", "RJ", "JK", "X9", "S", "hokum", "sun", "kawesh", "\u00e9\u00e9", "1e9")


class Chooser(Protocol):
    """Where a mutation's choices come from: hypothesis (``data.draw``) or a seeded random."""

    def integer(self, low: int, high: int) -> int: ...

    def pick(self, items: Sequence[Any]) -> Any: ...


class RandomChooser:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def pick(self, items: Sequence[Any]) -> Any:
        return items[self.rng.randrange(len(items))]


@cache
def valid_records(preset: str, n: int = 6) -> tuple[str, ...]:
    """``n`` valid hand records and ``n // 3`` match records of ``preset`` (JSON text: each
    mutation starts from a fresh copy), played with random players."""
    rules = get_rules(preset)
    baloot = rules.is_baloot
    head = {"rules": rules.name, "options": dict(rules.options)}
    trace = np.zeros((n, L.MAX_ACTIONS), np.int32)
    rows = play_hands(rules, n, 7, "random", workers=1, trace=trace)
    records = [
        {**head, **_hand_record(rows[i], trace[i], rules.n_players, baloot)} for i in range(n)
    ]
    for m in range(max(1, n // 3)):
        match_rows, hand_rows, hand_trace = play_matches(
            rules, 1, 7, "random", first=m, workers=1, traced=True
        )
        hands = [
            _hand_record(hand_rows[h], hand_trace[h], rules.n_players, baloot)
            for h in range(len(hand_rows))
        ][:12]  # a short match prefix is a valid record too
        records.append(
            {**head, "first_dealer": int(match_rows[0, L.X_FIRST_DEALER]), "hands": hands}
        )
    return tuple(json.dumps(r) for r in records)


def _value(choose: Chooser, old: Any) -> Any:
    kind = choose.integer(0, 9)
    if kind <= 2:
        base = old if isinstance(old, int) and not isinstance(old, bool) else 0
        return choose.pick([*INTEGERS, base + 1, base - 1, -base, base * 2**40])
    if kind == 3:
        return choose.pick(TEXTS)
    if kind == 4:
        return choose.pick([None, True, False, 1.5, float("nan"), float("inf")])
    if kind == 5:
        return choose.pick([[], {}, [None], [1, 2], {"x": 1}])
    if kind == 6 and isinstance(old, str):
        return old[: choose.integer(0, len(old))] + choose.pick(["", "S", "0", "\x00"])
    if kind == 7:
        return choose.pick(["AS", "KH", "QD", "JC", "TS", "9H", "8D", "7C", "6S", "BJ", "RJ", "JK"])
    return choose.pick([0, 1, 2, 3, 4, 5, 6, 8, 9, "pass", "S", "H", "D", "C"])


def mutate(record: Any, choose: Chooser) -> Any:
    """One mutation of ``record`` (modified in place where it can be; returns the record)."""
    path: list[Any] = []
    node = record
    # walk down: at each level, stop here or go into a child
    while isinstance(node, dict | list) and node and choose.integer(0, 3) > 0:
        key = (
            choose.pick(sorted(node))
            if isinstance(node, dict)
            else choose.integer(0, len(node) - 1)
        )
        path.append(key)
        node = node[key]
    if not path:
        parent: Any = None
    else:
        parent = record
        for key in path[:-1]:
            parent = parent[key]
    op = choose.integer(0, 5)
    if parent is None:
        if isinstance(record, dict) and op == 0:
            record[choose.pick(["extra", "options", "rules", "dealer", "seed"])] = _value(
                choose, None
            )
            return record
        return _value(choose, record) if op == 1 else record
    key = path[-1]
    if op == 0 and isinstance(parent, dict):
        del parent[key]
    elif op == 1 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif op == 2 and isinstance(parent, list):
        del parent[key:]
    elif op == 3 and isinstance(parent, list) and len(parent) > 1:
        other = choose.integer(0, len(parent) - 1)
        parent[key], parent[other] = parent[other], parent[key]
    else:
        parent[key] = _value(choose, parent[key])
    return record


def mutated(choose: Chooser) -> Any:
    """A valid record of some preset with one to three mutations."""
    preset = choose.pick(preset_names())
    record = json.loads(choose.pick(valid_records(preset)))
    for _ in range(choose.integer(1, 3)):
        record = mutate(record, choose)
    return record


def outcome(record: Any, engine: str) -> str:
    """The class of what replaying ``record`` on ``engine`` gives; any other exception raises."""
    replay: Callable[..., Any] = (
        replay_match
        if isinstance(record, dict) and "hands" in record and "first_dealer" in record
        else replay_hand
    )
    try:
        replay(record, engine=engine)
    except InvalidRecord:
        return "InvalidRecord"
    except IllegalAction:
        return "IllegalAction"
    return "result"


def check(record: Any) -> dict[str, str]:
    """The outcome of ``record`` on both engines, which must agree (AssertionError if not)."""
    got = {engine: outcome(copy.deepcopy(record), engine) for engine in ENGINES}
    assert got["numba"] == got["reference"], (got, json.dumps(record, default=str)[:2000])
    return got


def figures(n: int, seed: int = 0) -> dict[str, Counter[str]]:
    """Outcomes per class per engine of ``n`` mutated records."""
    counts: dict[str, Counter[str]] = {engine: Counter() for engine in ENGINES}
    for i in range(n):
        record = mutated(RandomChooser(seed * 1_000_003 + i))
        for engine, got in check(record).items():
            counts[engine][got] += 1
    return counts


if __name__ == "__main__":  # pragma: no cover
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000
    result = figures(total, int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    print(f"{total:,} mutated records")
    for engine, counts in result.items():
        print(f"  {engine:>9}: " + ", ".join(f"{k} {counts[k]:,}" for k in OUTCOMES))
