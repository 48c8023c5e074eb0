"""The hand state ``S`` of each family as a numpy record type: its fields by name.

The kernels read ``S`` (``int64[S_SIZE]``) by the offsets of :mod:`kout_sim.engine.layout`, which
numba folds into the compiled code. This module names those offsets per family, as a structured
dtype over the same bytes: the fields every family shares (``S_*``, here) and the family's own,
listed by its package (Baloot's ``B_*`` in :mod:`kout_sim.engine.baloot.state`; Kout's public record
``K_*`` in :mod:`kout_sim.engine.kout.state`, which lies where Baloot keeps its stock). Python code reads a
state by name instead of by offset::

    view = state_view(S, rules.family.kind)   # a numpy record over S's memory, no copy
    view["trump"], view["hand"][seat], view["card_points"]

``tests/unit/test_state_dtype.py`` checks that each record type tiles ``S`` as the kernels use it:
every constant of :mod:`~kout_sim.engine.layout` is a field at its offset, no two fields of a family
overlap, and the view reads what the engine wrote. Not imported by any kernel (the names cost the
kernel cache nothing).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from . import layout as L
from .baloot.state import BALOOT_FIELDS
from .kout.state import KOUT_FIELDS

Kind = Literal["kout", "baloot"]

# (field name, layout offset, entries): the state every family shares
_COMMON: tuple[tuple[str, int, int], ...] = (
    ("phase", L.S_PHASE, 1),
    ("dealer", L.S_DEALER, 1),
    ("to_act", L.S_TO_ACT, 1),
    ("n_calls", L.S_N_CALLS, 1),
    ("high_bid", L.S_HIGH_BID, 1),
    ("bidder", L.S_BIDDER, 1),
    ("malzoom", L.S_MALZOOM, 1),
    ("trump", L.S_TRUMP, 1),
    ("leader", L.S_LEADER, 1),
    ("n_in_trick", L.S_N_IN_TRICK, 1),
    ("led", L.S_LED, 1),
    ("trump_lead", L.S_TRUMP_LEAD, 1),
    ("rankless", L.S_RANKLESS, 1),
    ("n_done", L.S_N_DONE, 1),
    ("played", L.S_PLAYED, 1),
    ("made", L.S_MADE, 1),
    ("match_winner", L.S_MATCH_WINNER, 1),
    ("forced_joker", L.S_FORCED_JOKER, 1),
    ("n_actions", L.S_N_ACTIONS, 1),
    ("tricks", L.S_TRICKS, 2),
    ("points", L.S_POINTS, 2),
    ("hand", L.S_HAND, 6),
    ("trick", L.S_TRICK, 6),
    ("winners", L.S_WINNERS, 16),
    ("joker_leads", L.S_JOKER_LEADS, 1),
    ("joker_forced", L.S_JOKER_FORCED, 1),
    ("voids", L.S_VOIDS, 1),
)

FIELDS: dict[Kind, tuple[tuple[str, int, int], ...]] = {
    "kout": _COMMON + KOUT_FIELDS,
    "baloot": _COMMON + BALOOT_FIELDS,
}
"""Each family's fields of ``S``: (name, offset in ``S``, entries)."""


def _record_type(fields: tuple[tuple[str, int, int], ...]) -> np.dtype:
    """A structured dtype of ``int64[S_SIZE]``'s bytes with ``fields`` at their offsets."""
    return np.dtype(
        {
            "names": [name for name, _, _ in fields],
            "formats": [np.int64 if n == 1 else (np.int64, (n,)) for _, _, n in fields],
            "offsets": [8 * offset for _, offset, _ in fields],
            "itemsize": 8 * L.S_SIZE,
        }
    )


STATE_DTYPE: dict[Kind, np.dtype] = {kind: _record_type(f) for kind, f in FIELDS.items()}
"""The record type of the hand state of each family kind (``Rules.family.kind``)."""


def state_view(S: np.ndarray, kind: Kind) -> np.void:
    """The state ``S`` (int64[S_SIZE], C-contiguous) as one record of its family's type: its
    fields by name, over the same memory (writing a field writes ``S``)."""
    if S.dtype != np.int64 or S.shape != (L.S_SIZE,) or not S.flags.c_contiguous:
        raise ValueError(f"a hand state is a contiguous int64[{L.S_SIZE}] array")
    if kind not in STATE_DTYPE:
        raise ValueError(f"unknown family kind {kind!r}: one of {sorted(STATE_DTYPE)}")
    record: np.void = S.view(STATE_DTYPE[kind])[0]
    return record
