"""The rules of Baloot (RULES.md §3) as the kernels' tables: its options as codes in ``P``, the card
orders and points of 3.1 and the project runs of 3.5 in ``STR`` (:mod:`kout_sim.engine.layout`).
Called by :func:`kout_sim.engine.tables.compile_tables`, which sets what every family fixes.

Not imported by the family's kernels (importing the rules there would put them in the kernels'
cache key, docs/compile.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ... import cards as C
from ...rules import BalootPreset
from .. import layout as L

# Baloot options as kernel parameters: (option, P index, value -> code)
_BALOOT_CODES: tuple[tuple[str, int, Mapping[Any, int]], ...] = (
    ("sun_before_you", L.P_SUN_BEFORE_YOU, {True: 1, False: 0, "opponents": 2}),
    ("second_sun_chance", L.P_SECOND_SUN, {True: 1, False: 0}),
    ("kawesh", L.P_KAWESH, {True: 1, False: 0}),
    ("ace_sun_restriction", L.P_ACE_P1_ONLY, {"p1_only": 1, "none": 0}),
    ("doubling", L.P_DOUBLING, {True: 1, False: 0}),
    ("mercy", L.P_MERCY, {"partner_winning": 1, "none": 0}),
    ("undertrump_required", L.P_UNDERTRUMP, {True: 1, False: 0}),
    ("overtrump_on_trump_lead", L.P_OVERTRUMP_LEAD, {"vs_opponent": 0, "always": 1, "never": 2}),
    ("baloot_on_loss", L.P_BALOOT_ON_LOSS, {"owner": 0, "void": 1, "winner": 2}),
    ("tie", L.P_TIE, {"split": 0, "buyer_loses": 1, "buyer_loses_hokum_only": 2}),
    ("kaboot_projects", L.P_KABOOT_ALL, {"all": 1, "own": 0}),
    ("doubled_projects", L.P_DOUBLED_PROJ_MULT, {"by_level": 0, "multiplied": 1}),
    ("gahwa", L.P_GAHWA_BANK, {"match": 0, "bank_152": 152}),
)

# RULES.md 3.1: (order in the trump suit, order in Sun / non-trump, points as trump, points else)
_BALOOT_RANKS = {
    "J": (8, 4, 20, 2),
    "9": (7, 3, 14, 0),
    "A": (6, 8, 11, 11),
    "T": (5, 7, 10, 10),
    "K": (4, 6, 4, 4),
    "Q": (3, 5, 3, 3),
    "8": (2, 2, 0, 0),
    "7": (1, 1, 0, 0),
}


def _run_codes(pattern: int) -> list[int]:
    """Project codes of the maximal runs (>= 3) of an 8-bit rank pattern (bit 0 = 7 .. bit 7 = A)."""
    codes = []
    i = 0
    while i < 8:
        if (pattern >> i) & 1:
            j = i
            while j + 1 < 8 and (pattern >> (j + 1)) & 1:
                j += 1
            length = j - i + 1
            if length >= 3:
                cls = (
                    L.PROJ_SIRA if length == 3 else L.PROJ_FIFTY if length == 4 else L.PROJ_HUNDRED
                )
                codes.append(
                    cls * 1000 + 100 + j
                )  # RULES.md 3.5: a run longer than five is a Hundred
            i = j + 1
        else:
            i += 1
    return sorted(codes, reverse=True)


# Baloot's kernels never read these parameters (RULES.md 3.2.6: P1, after the dealer, leads the
# first trick; option first_dealer: the first dealer is random or a fixed seat, never drawn); they
# keep the values the one preset type of every family gave them, so Baloot's tables stay as they were.
_BALOOT_UNREAD = ((L.P_FIRST_LEAD, 1), (L.P_DRAW_JOKER_RANK, 15))


def baloot_tables(
    pre: BalootPreset, opt: Mapping[str, Any], P: np.ndarray, STR: np.ndarray
) -> None:
    """Baloot's options as codes, the card orders and points of RULES.md 3.1, the runs of 3.5."""
    for name, index, values in _BALOOT_CODES:
        if name in opt:
            P[index] = values[opt[name]]
    for index, value in _BALOOT_UNREAD:
        P[index] = value
    for suit in range(C.N_SUITS):
        for rank, (trump_order, plain_order, trump_pts, plain_pts) in _BALOOT_RANKS.items():
            card = C.card_id(suit, C.RANKS.index(rank))
            STR[L.T_LED, card] = plain_order
            STR[L.T_POINTS + L.T_NO_TRUMP, card] = plain_pts
            for trump in range(C.N_SUITS):
                STR[L.T_POINTS + trump, card] = trump_pts if suit == trump else plain_pts
            STR[suit, card] = L.STRENGTH_TRUMP_BASE + trump_order
        ids = [C.card_id(suit, C.RANKS.index(rank)) for rank in _BALOOT_RANKS]
        for card in ids:
            for other in ids:
                if STR[L.T_LED, other] > STR[L.T_LED, card]:
                    STR[L.T_ABOVE_LED, card] |= 1 << other
                if STR[suit, other] > STR[suit, card]:
                    STR[L.T_ABOVE_TRUMP, card] |= 1 << other
    for pattern in range(256):
        codes = [*_run_codes(pattern), 0, 0]
        STR[L.T_RUN1, pattern] = codes[0]
        STR[L.T_RUN2, pattern] = codes[1]
