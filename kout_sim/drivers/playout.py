"""Play a given position on with a line-up: the advisor's one entry into the play loop.

:func:`play_out` applies an optional forced first action for the seat to act (a Baloot completion
from the stock follows by itself, as in simulation), then lets the line-up decide up to ``limit``
more decisions (``-1``: to the end of the hand), drawing from the random state it is given. It is
:func:`kout_sim.drivers.fork.play_on` for any family and line-up class (a searching seat included)
with a decision limit, so a caller can step a hand one policy decision at a time from Python.

One entry point per family and line-up class (closure constants, as in
:mod:`kout_sim.drivers.play`), each compiled on its first call only.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine._jit import jit_alloc
from ..engine.game import apply_action
from ..engine.layout import FAMILY_BALOOT, FAMILY_KOUT, P_FAMILY
from ..players.kinds import NO_SEARCH, SEARCH_ISMCTS, SEARCH_PIMC, search_class
from .play import context, play_hand, scratch_row


def _make_entry(family: int, searching: int) -> Callable[..., int]:
    @jit_alloc
    def play_out_entry(
        S: np.ndarray,
        P: np.ndarray,
        STR: np.ndarray,
        MS: np.ndarray,
        rng: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        first: int,
        limit: int,
    ) -> int:
        if first >= 0:
            apply_action(S, P, STR, first, family)
        if limit == 0:
            return 0
        row = scratch_row()
        no_trace = np.empty(0, dtype=np.int64)
        no_packed = np.empty(0, dtype=np.int32)
        ctx = context(P, STR, kinds, params)
        return play_hand(
            S, MS, rng, ctx, row, no_trace, no_trace, no_packed, limit, searching, family
        )

    return play_out_entry


_ENTRIES = {
    (family, searching): _make_entry(family, searching)
    for family in (FAMILY_KOUT, FAMILY_BALOOT)
    for searching in (NO_SEARCH, SEARCH_ISMCTS, SEARCH_PIMC)
}


def play_out(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    MS: np.ndarray,
    rng: np.ndarray,
    kinds: np.ndarray,
    params: np.ndarray,
    first: int = -1,
    limit: int = -1,
) -> int:
    """Apply the phase-relative action ``first`` (if ``>= 0``; it must be legal) to ``S`` in place,
    then play up to ``limit`` decisions (``-1``: to the end of the hand) by the line-up
    ``kinds``/``params``, every choice drawn from ``rng`` (uint64[4], advanced in place). ``MS`` is
    the match state (the score before the hand). Returns the number of decisions played after
    ``first``, or -1 if a policy chose an illegal action."""
    entry = _ENTRIES[int(P[P_FAMILY]), search_class(kinds)]
    return int(entry(S, P, STR, MS, rng, kinds, params, first, limit))
