"""The rules compiled into the kernels' tables: ``(P, STR)`` of :mod:`kout_sim.engine.layout`.

:func:`tables_of` is the one place where the rules as data (:mod:`kout_sim.rules`) become the
arrays the kernels branch on: ``P`` the rule parameters ``int64[P_SIZE]``, ``STR`` the card
tables ``int64[T_ROWS, T_COLS]`` (card strengths, points, the project runs of Baloot). What every
family fixes is set here; each family's own parameters and card tables are compiled by its package
(:func:`kout_sim.engine.kout.tables.kout_tables`, :func:`kout_sim.engine.baloot.tables.baloot_tables`),
from its own frozen preset type.
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..rules import BalootPreset, KoutPreset, Rules
from . import layout as L
from .baloot.tables import baloot_tables
from .kout.tables import kout_tables

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
        kout_tables(pre, opt, P, STR)
    elif isinstance(pre, BalootPreset):
        baloot_tables(pre, opt, P, STR)
    else:
        raise TypeError(f"no tables for a preset of type {type(pre).__name__}")
    P.setflags(write=False)
    STR.setflags(write=False)
    return P, STR
