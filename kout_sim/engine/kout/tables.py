"""The rules of a Kout preset (RULES.md §1, §2) as the kernels' tables: its parameters in ``P`` and
its card strengths in ``STR`` (:mod:`kout_sim.engine.layout`). Called by
:func:`kout_sim.engine.tables.compile_tables`, which sets what every family fixes.

Not imported by the family's kernels (importing the rules there would put them in the kernels'
cache key, docs/compile.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ... import cards as C
from ...rules import KoutPreset
from .. import layout as L

_JOKER_MODELS = {"ladder": L.JOKER_LADDER, "single": L.JOKER_SINGLE}
_ROTATIONS = {"next": L.ROTATE_NEXT, "ownership": L.ROTATE_OWNERSHIP}


def kout_tables(pre: KoutPreset, opt: Mapping[str, Any], P: np.ndarray, STR: np.ndarray) -> None:
    """The parameters of a Kout preset (RULES.md §1, §2) and its card strengths."""
    P[L.P_BID_MIN] = pre.bid_min
    P[L.P_BID_MAX] = pre.bid_max
    P[L.P_MALZOOM] = int(pre.malzoom)
    P[L.P_TRUMP_MUST_HOLD] = int(pre.trump_must_hold)
    P[L.P_FIRST_LEAD] = pre.first_lead_offset
    P[L.P_JOKER_MODEL] = _JOKER_MODELS[pre.joker_model]
    P[L.P_JOKER_SCOPE_ANYONE] = int(opt.get("joker_lead_scope") == "anyone")
    P[L.P_PLAY_ALL] = int(bool(opt.get("play_all_tricks", False)))
    P[L.P_SIGNED_SCORE] = int(pre.signed_score)
    P[L.P_ROTATION] = _ROTATIONS[pre.rotation]
    P[L.P_BAWAN_FIRST] = pre.bawan_first_hand
    P[L.P_KOUT_AT] = pre.kout_at
    P[L.P_INSTANT_BID] = pre.instant_bid
    P[L.P_DRAW_JOKER_RANK] = pre.draw_joker_rank
    for b, pts in pre.made.items():
        P[L.P_MADE + b] = pts
    for b, pts in pre.failed.items():
        P[L.P_FAILED + b] = pts
    for card in range(52):
        STR[L.T_LED, card] = 1 + card % C.N_RANKS  # RULES.md 1.1, 2.7: by rank in the led suit
    for trump in range(C.N_SUITS):
        for r in range(C.N_RANKS):
            STR[trump, C.card_id(trump, r)] = L.STRENGTH_TRUMP_BASE + r
        if pre.joker_model == "ladder":
            # RULES.md 1.1: RJ > trump A > BJ > trump K ...
            ace = L.STRENGTH_TRUMP_BASE + 12
            STR[trump, C.card_id(trump, 12)] = ace + 1
            STR[trump, C.BJ] = ace
            STR[trump, C.RJ] = ace + 2
        else:
            # RULES.md 2.7: the joker wins any trick it is played to
            STR[trump, C.JK] = L.STRENGTH_TRUMP_BASE + 20
