"""Dispatch by family: one ``new_hand`` / ``legal_mask`` / ``apply_action`` / ``record_play`` /
``record_hand`` for every preset, over the families' kernel bundles (:mod:`kout_sim.engine.kout`,
:mod:`kout_sim.engine.baloot`), which share these signatures.

``family`` (``P[P_FAMILY]``) is a closure constant of each family's entry points; these
dispatchers are inlined (numba IR) up to the entry point, where numba's dead-branch pruning removes
the other family's branch: a Kout driver never types a line of Baloot. A new family is a package
with the same five kernels and one more branch in each dispatcher.
"""

from __future__ import annotations

import numpy as np

from . import baloot, kout
from ._jit import jit_leaf
from .layout import FAMILY_BALOOT, PH_PLAY, S_PHASE


@jit_leaf
def new_hand(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    rng: np.ndarray,
    dealer: int,
    deck: np.ndarray,
    cards: np.ndarray,
    hands: np.ndarray,
    score0: int,
    score1: int,
    family: int,
) -> None:
    """Deal uniformly at random and reset ``S`` to the first decision of the hand.

    ``hands`` receives the dealt hands (Baloot: the five-card first deal).
    """
    if family == FAMILY_BALOOT:
        baloot.new_hand(S, P, STR, rng, dealer, deck, cards, hands, score0, score1)
    else:
        kout.new_hand(S, P, STR, rng, dealer, deck, cards, hands, score0, score1)


@jit_leaf
def legal_mask(S: np.ndarray, P: np.ndarray, STR: np.ndarray, family: int) -> np.int64:
    """Legal set of the seat to act (phase-relative: card ids in play, call indices else)."""
    if family == FAMILY_BALOOT:
        return baloot.legal_mask(S, P, STR)
    return kout.legal_mask(S, P, STR)


@jit_leaf
def apply_action(S: np.ndarray, P: np.ndarray, STR: np.ndarray, action: int, family: int) -> None:
    """Apply a phase-relative action; in simulation a Baloot completion follows by itself."""
    if family == FAMILY_BALOOT:
        baloot.apply_action(S, P, STR, action)
    else:
        kout.apply_action(S, P, STR, action)


@jit_leaf
def record_play(S: np.ndarray, P: np.ndarray, STR: np.ndarray, card: int, family: int) -> None:
    """Enter in ``S[S_VOIDS]`` what ``card``, about to be played by the seat to act, shows of its
    hand (the voids and trump bands the samplers read; call before the card is applied).

    The families' ``apply_action`` does not: a hand played to its end by line-ups without a
    search is never sampled, and the bookkeeping cost Baloot a sixth of its heuristic hand.
    Whoever keeps a state a sampler will read (a search's real position, a position stopped
    mid-hand, a replay) plays its cards through :func:`apply_observed`.
    """
    if family == FAMILY_BALOOT:
        baloot.record_play(S, P, STR, card)
    else:
        kout.record_play(S, P, STR, card)


@jit_leaf
def apply_observed(S: np.ndarray, P: np.ndarray, STR: np.ndarray, action: int, family: int) -> None:
    """:func:`apply_action`, a card's public information entered first (:func:`record_play`)."""
    if S[S_PHASE] == PH_PLAY:
        record_play(S, P, STR, action, family)
    apply_action(S, P, STR, action, family)


@jit_leaf
def record_hand(
    row: np.ndarray,
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    hands: np.ndarray,
    n: int,
    family: int,
) -> None:
    """Write the result of the finished hand ``S`` dealt as ``hands`` into ``row`` (int64[R_SIZE]).

    For Baloot the recorded hands are the eight cards each seat held after completion.
    """
    if family == FAMILY_BALOOT:
        baloot.record_hand(row, S, P, STR, hands, n)
    else:
        kout.record_hand(row, S, P, STR, hands, n)
