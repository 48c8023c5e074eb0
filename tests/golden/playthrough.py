"""Playthroughs in the manner of OpenSpiel's: one whole seeded match, every decision written out.

For each preset and player kind, :func:`match_playthrough` plays one match with the batch driver
(``kout_sim.sim.play_matches``, the code simulation runs) and writes, hand by hand, the deal and at
every decision the state summary (phase, seat to act, its hand, the calls or the trick in progress,
the tricks taken), the legal set and the action taken, then the hand's result and the match score.
The legal sets come from stepping the recorded decisions through ``NumbaHand``; every recorded
decision must be legal there, by the seat and with the number of legal actions the driver traced.

``tests/golden/regen.py`` rewrites the files; ``tests/golden/test_golden.py`` compares them exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.engine.step import NumbaHand, NumbaMatch, decode_action
from kout_sim.rules import get_rules, preset_names
from kout_sim.sim import play_matches

DIR = Path(__file__).parent / "playthroughs"
SEED = 20261201
KINDS: dict[str, str] = {
    "random": "random:pass=0.8",  # uniform, but passing more: matches of more than one hand
    "heuristic": "heuristic",
    "ismcts": "ismcts:iterations=40",  # a small search: cheap, and still the search's code path
    "pimc": "pimc:samples=2",  # two sampled deals solved double dummy a card (Kout: auction=1)
}
# PIMC's 6-seat decisions take seconds each at the first tricks (a 54-card deal solved double
# dummy per sample and card): a whole match is too long for the suite, so the 4-seat presets only.
SEATS_OF_KIND: dict[str, int] = {"pimc": 4}
# one option set per preset: shorter matches than the defaults, and options on the way
OPTIONS: dict[str, dict[str, Any]] = {
    "kout_bo_4": {"target": 41, "joker_lead_scope": "anyone"},
    "kout_bo_6": {"target": 41},
    "kout_bh_4": {"target": 26},
    "kout_bh_6": {"target": 26, "first_dealer": "random"},
    "baloot": {"profile": "kammelna", "target": 76},
}


def path_of(preset: str, kind: str) -> Path:
    """The golden file of ``preset`` played by ``kind`` on every seat."""
    return DIR / f"{preset}.{kind}.txt"


def kinds_of(preset: str) -> list[str]:
    """The player kinds with a golden match of ``preset`` (:data:`SEATS_OF_KIND` limits some)."""
    seats = get_rules(preset).n_players
    return [kind for kind in KINDS if SEATS_OF_KIND.get(kind, seats) == seats]


def expected_files() -> list[Path]:
    """Every golden file there must be: one per preset and player kind (:func:`kinds_of`)."""
    return [path_of(preset, kind) for preset in preset_names() for kind in kinds_of(preset)]


def _cards(mask: int) -> str:
    return " ".join(C.format_mask(mask)) or "-"


def _summary(hand: NumbaHand, calls: list[str], baloot: bool) -> str:
    S = hand.S
    seat = int(S[L.S_TO_ACT])
    parts = [f"{hand.phase}, seat {seat}", f"hand {_cards(int(S[L.S_HAND + seat]))}"]
    if hand.phase == "play":
        n_done = int(S[L.S_N_DONE])
        trump = int(S[L.S_TRUMP])
        mode = ""
        if baloot:
            mode = "sun" if int(S[L.B_MODE]) == L.MODE_SUN else f"hokum {C.SUITS[trump]}"
        else:
            mode = f"trump {C.SUITS[trump]}"
        leader = int(S[L.S_LEADER])
        n = hand.rules.n_players
        trick = [
            f"{(leader + k) % n}:{C.format_card(int(S[L.S_TRICK + k]))}"
            for k in range(int(S[L.S_N_IN_TRICK]))
        ]
        parts.append(f"{mode}, trick {n_done + 1}: {' '.join(trick) or '-'}")
        parts.append(f"tricks {int(S[L.S_TRICKS])}-{int(S[L.S_TRICKS + 1])}")
    else:
        parts.append(f"calls {' '.join(calls) or '-'}")
    return " | ".join(parts)


def _completion(row: np.ndarray) -> list[int]:
    """Baloot: each seat's completion cards from the row (eight cards held minus the first five
    and the face-up card)."""
    face_up = 1 << int(row[L.R_FACE_UP])
    return [int(row[L.R_HAND + s]) & ~int(row[L.R_FIRST_DEAL + s]) & ~face_up for s in range(4)]


def match_playthrough(preset: str, kind: str) -> str:
    """The golden text of one seeded match of ``preset`` with ``kind`` on every seat."""
    options = OPTIONS[preset]
    rules = get_rules(preset, options)
    spec = KINDS[kind]
    baloot = rules.is_baloot
    n = rules.n_players
    match_rows, hand_rows, trace = play_matches(rules, 1, SEED, spec, workers=1, traced=True)
    (mrow,) = match_rows
    lines = [
        f"# {preset}, options {options}, players {spec}, seed {SEED}: one whole match",
        "# <decision>: <phase>, seat <s> | hand <its cards> | <calls so far, or the trump/mode"
        " and the trick in progress as seat:card> | tricks <team 0>-<team 1>",
        "#   legal <the legal set> -> <the action taken>",
        f"match: first dealer {int(mrow[L.X_FIRST_DEALER])}",
    ]
    match = NumbaMatch(rules, int(mrow[L.X_FIRST_DEALER]))
    for h, row in enumerate(hand_rows):
        dealer = int(row[L.R_DEALER])
        assert dealer == match.dealer, f"hand {h}: dealer"
        score = match.score
        lines.append(f"hand {h}: dealer {dealer}, score {score}")
        if baloot:
            first = [int(row[L.R_FIRST_DEAL + s]) for s in range(4)]
            face_up = int(row[L.R_FACE_UP])
            before = (int(row[L.R_SCORE_BEFORE]), int(row[L.R_SCORE_BEFORE + 1]))
            hand = NumbaHand(
                rules,
                dealer,
                first,
                face_up=face_up,
                completion=_completion(row),
                match_score=before,
            )
        else:
            first = [int(row[L.R_HAND + s]) for s in range(n)]
            hand = NumbaHand(rules, dealer, first)
        for s in range(n):
            lines.append(f"  seat {s}: {_cards(first[s])}")
        if baloot:
            lines.append(f"  face up: {C.format_card(face_up)}")
        calls: list[str] = []
        for t, packed in enumerate(trace[h]):
            if packed == 0:
                break
            code, seat, n_legal = int(packed) & 0xFF, (int(packed) >> 8) & 0xF, int(packed) >> 12
            legal = hand.legal_actions()
            action = decode_action(code, baloot)
            assert hand.to_act == seat and len(legal) == n_legal and action in legal, (h, t)
            lines.append(f"  {t}: {_summary(hand, calls, baloot)}")
            lines.append(f"    legal {' '.join(map(str, legal))} -> {action}")
            if hand.phase != "play":
                calls.append(f"{seat}:{action}")
            hand.apply(action)
        assert hand.phase == "over", f"hand {h} not over"
        result = hand.result()
        lines.append("  result: " + ", ".join(f"{key}={value}" for key, value in result.items()))
        match.apply_hand(hand)
        after = match.score if isinstance(match.score, list) else [match.score, 0]
        assert after == [int(row[L.R_SCORE_AFTER]), int(row[L.R_SCORE_AFTER + 1])], h
        lines.append(f"  score after: {match.score}")
    assert match.over and match.winner == int(mrow[L.X_WINNER])
    lines.append(f"match over: winner team {match.winner}, reason {match.reason}")
    return "\n".join(lines) + "\n"
