"""The rules compiled into the kernels' tables: ``(P, STR)`` of :mod:`kout_sim.engine.layout`.

:func:`tables_of` is the one place where the rules as data (:mod:`kout_sim.rules`) become the
arrays the kernels branch on: ``P`` the rule parameters ``int64[P_SIZE]``, ``STR`` the card
tables ``int64[T_ROWS, T_COLS]`` (card strengths, points, the project runs of Baloot).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import cards as C
from ..rules import BalootPreset, KoutPreset, Rules
from . import layout as L

_JOKER_MODELS = {"ladder": L.JOKER_LADDER, "single": L.JOKER_SINGLE}
_ROTATIONS = {"next": L.ROTATE_NEXT, "ownership": L.ROTATE_OWNERSHIP}
_CACHE: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def tables_of(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``(P, STR)`` of ``rules``, read-only, compiled once per distinct rules (:attr:`Rules.key`)."""
    tables = _CACHE.get(rules.key)
    if tables is None:
        tables = _CACHE[rules.key] = compile_tables(rules)
    return tables


def compile_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Compile ``rules`` into the kernel tables (see :mod:`kout_sim.engine.layout`)."""
    pre, opt = rules.preset, rules.options
    P = np.zeros(L.P_SIZE, dtype=np.int64)
    STR = np.zeros((L.T_ROWS, L.T_COLS), dtype=np.int64)
    P[L.P_FAMILY] = L.FAMILY_BALOOT if pre.family.is_baloot else L.FAMILY_KOUT
    P[L.P_N_PLAYERS] = pre.n_players
    P[L.P_N_TRICKS] = pre.n_tricks
    P[L.P_MALZOOM_MADE] = 5
    P[L.P_MALZOOM_FAILED] = 5
    P[L.P_RJ_LEAD_BID] = 8  # RULES.md 1.6(b)
    P[L.P_BJ_LEAD_BID] = 9  # RULES.md 1.6(a)
    P[L.P_FREE_JOKER_HONOURS] = 4  # RULES.md 1.6(c): trump A K Q J
    P[L.P_TARGET] = int(opt["target"])
    P[L.P_DECK] = pre.deck_mask
    P[L.P_N_CARDS] = bin(pre.deck_mask).count("1")
    for s in range(C.N_SUITS):
        P[L.P_SUIT_MASK + s] = pre.deck_mask & C.suit_mask(s)
    P[L.P_JOKER_MASK] = pre.deck_mask & C.JOKER_MASK
    fd = opt.get("first_dealer", "low_draw")
    P[L.P_FIRST_DEALER] = (
        L.FIRST_DEALER_LOW_DRAW
        if fd == "low_draw"
        else L.FIRST_DEALER_RANDOM
        if fd == "random"
        else int(fd)
    )
    if isinstance(pre, KoutPreset):
        _kout_tables(pre, opt, P, STR)
    elif isinstance(pre, BalootPreset):
        _baloot_tables(opt, P, STR)
    else:
        raise TypeError(f"no tables for a preset of type {type(pre).__name__}")
    P.setflags(write=False)
    STR.setflags(write=False)
    return P, STR


def _kout_tables(pre: KoutPreset, opt: Mapping[str, Any], P: np.ndarray, STR: np.ndarray) -> None:
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


def _baloot_tables(opt: Mapping[str, Any], P: np.ndarray, STR: np.ndarray) -> None:
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
