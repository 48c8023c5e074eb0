"""Play a given position on with a line-up: the advisor's and the search forks' one entry into the
play loop.

:func:`play_out` applies an optional forced first action for the seat to act (a Baloot completion
from the stock follows by itself, as in simulation), then lets the line-up decide up to ``limit``
more decisions (``-1``: to the end of the hand), drawing from the random state it is given. It is
:func:`kout_sim.drivers.fork.play_on` for any family and line-up class (a searching seat included)
with a decision limit, so a caller can step a hand one policy decision at a time from Python. Two
more arguments serve the forks of search line-ups (:mod:`kout_sim.sim.search_fork`): ``allowed``
restricts the legal set of the first decision the line-up makes (the policy chooses among the legal
actions of ``allowed``, e.g. the non-joker cards of a joker fork), and ``actions`` receives the
global action id of each decision made (a card id, or ``CALL`` + the call).

Without a search, one entry point per family (a closure constant, as in
:mod:`kout_sim.drivers.play`), compiled on its first call only; a searching line-up plays out
through its class's one batch entry (``play._searching``), so the search is emitted once for
hands, matches and play-outs. Both run :func:`kout_sim.drivers.loop.play_hand`, the loop every
driver runs (the same decisions and the same draws).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine._jit import jit_alloc
from ..engine.game import apply_observed
from ..engine.layout import FAMILY_BALOOT, FAMILY_KOUT, P_FAMILY
from ..players.kinds import NO_SEARCH, search_class
from .loop import (
    MODE_PLAY_OUT,
    NO_SEARCHES,
    SEARCHING,
    context,
    play_hand,
    scratch_row,
)
from .play import (
    KERNELS,
    NO_ACTIONS,
    NO_MATCHES,
    NO_TRACE,
    new_rows,
    scratch,
    searches_of,
)

ALL = -1
"""``allowed`` of :func:`play_out` that restricts nothing (every bit set)."""


def _make_entry(family: int) -> Callable[..., int]:
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
        allowed: int,
        actions: np.ndarray,
    ) -> int:
        if first >= 0:
            apply_observed(S, P, STR, first, family)
        legal = np.empty(0, dtype=np.int64)
        packed = np.empty(0, dtype=np.int32)
        ctx = context(P, STR, kinds, params, NO_SEARCHES)
        row = scratch_row()
        return play_hand(
            S, MS, rng, ctx, row, actions, legal, packed, limit, allowed, NO_SEARCH, family
        )

    return play_out_entry


_ENTRIES = {family: _make_entry(family) for family in (FAMILY_KOUT, FAMILY_BALOOT)}


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
    allowed: int = ALL,
    actions: np.ndarray = NO_ACTIONS,
) -> int:
    """Apply the phase-relative action ``first`` (if ``>= 0``; it must be legal) to ``S`` in place,
    then play up to ``limit`` decisions (``-1``: to the end of the hand) by the line-up
    ``kinds``/``params``, every choice drawn from ``rng`` (uint64[4], advanced in place). ``MS`` is
    the match state (the score before the hand).

    The first of those decisions is made among the legal actions of ``allowed`` only (a bitmask of
    phase-relative actions; :data:`ALL` by default). ``actions`` (int64, may be empty) receives the
    global action id of each decision made after ``first`` (a card id, or
    :data:`~kout_sim.engine.layout.CALL` + the call), as far as it has room. Returns the
    number of decisions played after ``first``, -1 if a policy chose an illegal action, -2 if no
    legal action is ``allowed``."""
    family = int(P[P_FAMILY])
    if search_class(kinds) == NO_SEARCH:
        entry = _ENTRIES[family]
        return int(entry(S, P, STR, MS, rng, kinds, params, first, limit, allowed, actions))
    own = scratch(P, kinds, params)
    nodes, value, _, _, deal, _, hands, deck, cards, no_trace, no_packed = own
    entry = KERNELS[family, SEARCHING].search
    assert entry is not None
    return int(
        entry(
            MODE_PLAY_OUT, P, STR, kinds, params, 0, 0, new_rows(2), NO_MATCHES, NO_TRACE, 0, 0,
            nodes, value, S, MS, deal, rng, hands, deck, cards, no_trace, no_packed,
            first, limit, allowed, actions, searches_of(P, kinds, params),
        )
    )  # fmt: skip
