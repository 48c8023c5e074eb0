"""Play a given position on with a line-up: the advisor's and the search forks' one entry into the
play loop.

:func:`play_out` applies an optional forced first action for the seat to act (a Baloot completion
from the stock follows by itself, as in simulation), then lets the line-up decide up to ``limit``
more decisions (``-1``: to the end of the hand), drawing from the random state it is given. It is
the play of one branch of a fork (:func:`kout_sim.sim.fork.play_on`), for any family and line-up
class (a searching seat included), with a decision limit, so a caller can step a hand one policy
decision at a time from Python. Two more arguments serve the forks of search line-ups
(:mod:`kout_sim.sim.search_fork`): ``allowed`` restricts the legal set of the first decision the
line-up makes (the policy chooses among the legal actions of ``allowed``, e.g. the non-joker cards
of a joker fork), and ``actions`` receives the global action id of each decision made (a card id,
or ``CALL`` + the call).

Without a search, one entry point per family (:class:`kout_sim.drivers.play.FamilyKernels`'
``play_out``), compiled on its first call only; a searching line-up plays out through its class's
one batch entry (``play._search_kernels``), so the search is emitted once for hands, matches and
play-outs. Both run :func:`kout_sim.drivers.loop.play_hand`, the loop every driver runs (the same
decisions and the same draws).
"""

from __future__ import annotations

import numpy as np

from .loop import Setup
from .play import NO_ACTIONS, kernels, lanes, line_up

ALL = -1
"""``allowed`` of :func:`play_out` that restricts nothing (every bit set)."""


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
    entry = kernels(P, kinds).play_out
    w = lanes(P, S=S, MS=MS, play=rng)
    return int(entry(line_up(Setup(P, STR, kinds, params)), w, first, limit, allowed, actions))
