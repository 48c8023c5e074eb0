"""Any match of a run, replayed alone from its stream index, as a match record.

``match_record(run, k)`` plays match ``k`` again on its keyed streams with the run's players and
turns the traced decisions into the record format of ``docs/records.md``; ``recheck`` replays that
record through the reference engine and compares every hand with the run's rows.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import polars as pl

from .. import cards as C
from ..engine import layout as L
from ..engine.step import decode_action
from ..io.read import check_run, load
from ..rules import Rules, get_rules
from .batch import play_hands, play_matches


def _cards(mask: int) -> list[str]:
    return C.format_mask(int(mask))


def _hand_record(row: np.ndarray, trace: np.ndarray, n: int, baloot: bool) -> dict[str, Any]:
    codes = [int(c) & 0xFF for c in trace[: int(row[L.R_N_ACTIONS])]]
    hand: dict[str, Any] = {"dealer": int(row[L.R_DEALER])}
    calls = [decode_action(c, baloot) for c in codes if c >= L.CALL]
    plays = [C.format_card(c) for c in codes if c < L.CALL]
    if baloot:
        first = [int(row[L.R_FIRST_DEAL + s]) for s in range(4)]
        hand["hands"] = [_cards(m) for m in first]
        hand["face_up"] = C.format_card(int(row[L.R_FACE_UP]))
        if row[L.R_MODE] != 0:
            final = [int(row[L.R_HAND + s]) for s in range(4)]
            face_up = 1 << int(row[L.R_FACE_UP])
            hand["completion"] = [_cards(final[s] & ~first[s] & ~face_up) for s in range(4)]
        hand["match_score"] = [int(row[L.R_SCORE_BEFORE]), int(row[L.R_SCORE_BEFORE + 1])]
        hand["calls"] = calls
    else:
        hand["hands"] = [_cards(row[L.R_HAND + s]) for s in range(n)]
        hand["calls"] = [c for c in calls if not (isinstance(c, str) and c in C.SUITS)]
        trumps = [c for c in calls if isinstance(c, str) and c in C.SUITS]
        if trumps:
            hand["trump"] = trumps[0]
    hand["plays"] = plays
    return hand


def _replayed_run(
    run: str | os.PathLike[str], unit: str, index: int
) -> tuple[dict[str, Any], Rules]:
    """The settings and rules of the run ``run``, checked to be a run of ``unit`` (``match``:
    whole matches, ``hand``: independent hands) that has a ``unit`` ``index``."""
    meta = check_run(run)
    if unit == "match" and meta.get("unit") != "matches":
        raise ValueError(f"{run} is a hands run; replay --match needs a run of whole matches")
    if unit == "hand" and meta.get("unit") != "hands":
        raise ValueError(f"{run} is a matches run; replay --hand needs a run of independent hands")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < meta["count"]:
        raise ValueError(f"{unit} must be an index 0..{meta['count'] - 1}, got {index!r}")
    return meta, get_rules(meta["preset"], meta["options"])


def match_record(run: str | os.PathLike[str], match: int) -> dict[str, Any]:
    """Match ``match`` of a match run, played again alone, as a match record."""
    meta, rules = _replayed_run(run, "match", match)
    match_rows, hand_rows, trace = play_matches(
        rules, 1, meta["seed"], meta["players"], first=match, workers=1, traced=True
    )
    baloot = rules.is_baloot
    return {
        "rules": rules.name,
        "options": dict(rules.options),
        "first_dealer": int(match_rows[0, L.X_FIRST_DEALER]),
        "players": meta["players"],
        "seed": meta["seed"],
        "match": match,
        "hands": [
            _hand_record(hand_rows[h], trace[h], rules.n_players, baloot)
            for h in range(len(hand_rows))
        ],
    }


def hand_record(run: str | os.PathLike[str], hand: int) -> dict[str, Any]:
    """Hand ``hand`` of a hands run (``--hands``), played again alone, as a hand record."""
    meta, rules = _replayed_run(run, "hand", hand)
    trace = np.zeros((1, L.MAX_ACTIONS), np.int32)
    rows = play_hands(rules, 1, meta["seed"], meta["players"], first=hand, workers=1, trace=trace)
    baloot = rules.is_baloot
    record = _hand_record(rows[0], trace[0], rules.n_players, baloot)
    return {
        "rules": rules.name,
        "options": dict(rules.options),
        **record,
        "players": meta["players"],
        "seed": meta["seed"],
        "hand": hand,
    }


def recheck_hand(run: str | os.PathLike[str], hand: int, record: dict[str, Any]) -> list[str]:
    """Replay a hand record of :func:`hand_record` through the reference engine; the differences
    from the run's row of that hand."""
    from ..replay import replay_hand

    ref = replay_hand(
        {k: v for k, v in record.items() if k not in ("players", "seed", "hand")},
        engine="reference",
    )
    row = load(run)["hands"].filter(pl.col("match") == hand).collect()
    if len(row) != 1:
        return [f"the run has {len(row)} rows for hand {hand}"]
    mine = row.row(0, named=True)
    problems = []
    points = [mine["points_team0"], mine["points_team1"]]
    if list(ref["points"]) != points:
        problems.append(f"points {ref['points']} vs run {points}")
    if "".join(str(w) for w in ref["trick_winners"]) != mine["trick_winners"]:
        problems.append("trick winners differ")
    return problems


def recheck(run: str | os.PathLike[str], match: int, record: dict[str, Any]) -> list[str]:
    """Replay ``record`` through the reference engine; the differences from the run's rows."""
    from ..replay import replay_match

    ref = replay_match(
        {k: v for k, v in record.items() if k not in ("players", "seed", "match")},
        engine="reference",
    )
    tables = load(run)
    hands = tables["hands"].filter(pl.col("match") == match).sort("hand").collect()
    row = tables["matches"].filter(pl.col("match") == match).collect()
    problems = []
    if len(hands) != len(ref["hands"]):
        problems.append(f"{len(hands)} hands in the run, {len(ref['hands'])} in the replay")
    for h, (mine, theirs) in enumerate(zip(hands.iter_rows(named=True), ref["hands"])):
        score = [mine["score_after_team0"], mine["score_after_team1"]]
        after = theirs["score_after"]
        if (after if isinstance(after, list) else [after, 0]) != score:
            problems.append(f"hand {h}: score after {theirs['score_after']} vs run {score}")
        # the run stores the trick winners one digit per trick
        if "".join(str(w) for w in theirs["trick_winners"]) != mine["trick_winners"]:
            problems.append(f"hand {h}: trick winners differ")
    if len(row) == 1:
        want = (row["winner"][0], row["reason"][0])
        if (ref["winner"], ref["reason"]) != want:
            problems.append(f"winner/reason {ref['winner']}, {ref['reason']} vs run {want}")
    return problems


def dumps(record: dict[str, Any]) -> str:
    """A match record as JSON text, one line per field of each hand."""
    import json

    head = {k: v for k, v in record.items() if k != "hands"}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append('  "hands": [')
    for i, hand in enumerate(record["hands"]):
        fields = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in hand.items()]
        end = "," if i + 1 < len(record["hands"]) else ""
        lines += ["   {", ",\n".join(fields), "   }" + end]
    lines += ["  ]", "}"]
    return "\n".join(lines)
