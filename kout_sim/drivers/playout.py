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

One entry point per family and line-up class (closure constants, as in
:mod:`kout_sim.drivers.play`), each compiled on its first call only. The entry has its own copy of
the decision loop of :func:`kout_sim.drivers.play.play_hand` (the same ``legal_mask``, ``choose``
and ``apply_action`` calls, so the same decisions and the same draws) with the first decision's
restriction; one ``choose`` call site, so the search is emitted once, as before.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine._jit import jit_alloc
from ..engine.game import apply_action, legal_mask
from ..engine.kout import record_card
from ..engine.layout import (
    CALL,
    FAMILY_BALOOT,
    FAMILY_KOUT,
    P_FAMILY,
    PH_OVER,
    PH_PLAY,
    S_PHASE,
    S_TO_ACT,
)
from ..players.kinds import NO_SEARCH, SEARCH_ISMCTS, SEARCH_PIMC, search_class
from ..players.policy import choose
from .play import context

ALL = -1
"""``allowed`` of :func:`play_out` that restricts nothing (every bit set)."""

NO_ACTIONS = np.zeros(0, dtype=np.int64)


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
        allowed: int,
        actions: np.ndarray,
    ) -> int:
        if first >= 0:
            if searching != NO_SEARCH and family == FAMILY_KOUT and S[S_PHASE] == PH_PLAY:
                record_card(S, S[S_TO_ACT], first)
            apply_action(S, P, STR, first, family)
        ctx = context(P, STR, kinds, params)
        t = 0
        while S[S_PHASE] != PH_OVER and t != limit:
            mask = legal_mask(S, P, STR, family)
            if t == 0:
                mask &= allowed
                if mask == 0:
                    return -2
            seat = S[S_TO_ACT]
            action = choose(
                S,
                P,
                STR,
                MS,
                rng,
                ctx.kinds[seat],
                ctx.params[seat],
                mask,
                ctx.nodes,
                ctx.value,
                searching,
                family,
            )
            if action < 0 or action > 63 or (mask >> action) & 1 == 0:
                return -1
            if t < actions.shape[0]:  # the global action id, as in play_hand's trace
                actions[t] = action if S[S_PHASE] == PH_PLAY else CALL + action
            if searching != NO_SEARCH and family == FAMILY_KOUT and S[S_PHASE] == PH_PLAY:
                record_card(S, seat, action)
            apply_action(S, P, STR, action, family)
            t += 1
        return t

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
    entry = _ENTRIES[int(P[P_FAMILY]), search_class(kinds)]
    return int(entry(S, P, STR, MS, rng, kinds, params, first, limit, allowed, actions))
