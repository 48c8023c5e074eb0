"""Dispatch by family: one ``legal_mask`` / ``apply_action`` / ``start_hand`` for every preset.

``family`` (``P[P_FAMILY]``) is a closure constant of each family's entry points; these
dispatchers are inlined (numba IR) up to the entry point, where numba's dead-branch pruning removes
the other family's branch: a Kout driver never types a line of Baloot.
"""

from __future__ import annotations

import numpy as np

from . import baloot, kout
from ._jit import copy_into, jit, jit_leaf
from .deal import deal, shuffle
from .layout import (
    B_STOCK,
    FAMILY_BALOOT,
    PH_COMPLETION,
    PH_PLAY,
    S_PHASE,
    S_TO_ACT,
)


@jit_leaf
def legal_mask(S: np.ndarray, P: np.ndarray, STR: np.ndarray, family: int) -> np.int64:
    """Legal set of the seat to act (phase-relative: card ids in play, call indices else)."""
    if family == FAMILY_BALOOT:
        return baloot.legal_mask(S, P, STR)
    return kout.legal_mask(S, P)


@jit_leaf
def apply_action(S: np.ndarray, P: np.ndarray, STR: np.ndarray, action: int, family: int) -> None:
    """Apply a phase-relative action; in simulation a Baloot completion follows by itself."""
    if family == FAMILY_BALOOT:
        _apply_baloot(S, P, STR, action)
    else:
        kout.apply_action(S, P, STR, action)


@jit_leaf
def record_play(S: np.ndarray, P: np.ndarray, STR: np.ndarray, card: int, family: int) -> None:
    """Enter in ``S[S_VOIDS]`` what ``card``, about to be played by the seat to act, shows of its
    hand (the voids and trump bands the samplers read; call before the card is applied).

    The engine's ``apply_card`` does not: a hand played to its end by line-ups without a search
    is never sampled, and the bookkeeping cost Baloot a sixth of its heuristic hand. Whoever keeps
    a state a sampler will read (a search's real position, a position stopped mid-hand, a replay)
    plays its cards through :func:`apply_observed`.
    """
    if family == FAMILY_BALOOT:
        baloot.record_play(S, P, STR, S[S_TO_ACT], card)
    else:
        kout.record_play(S, P, S[S_TO_ACT], card)


@jit_leaf
def apply_observed(S: np.ndarray, P: np.ndarray, STR: np.ndarray, action: int, family: int) -> None:
    """:func:`apply_action`, a card's public information entered first (:func:`record_play`)."""
    if S[S_PHASE] == PH_PLAY:
        record_play(S, P, STR, action, family)
    apply_action(S, P, STR, action, family)


@jit_leaf
def _apply_baloot(S: np.ndarray, P: np.ndarray, STR: np.ndarray, action: int) -> None:
    baloot.apply_action(S, P, STR, action)
    if S[S_PHASE] == PH_COMPLETION:
        baloot.complete_from_stock(S, P, STR)


@jit_leaf
def start_hand(
    S: np.ndarray,
    P: np.ndarray,
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
        _start_baloot(S, rng, dealer, deck, cards, hands, score0, score1)
    else:
        _start_kout(S, P, rng, dealer, deck, cards, hands)


@jit
def _start_baloot(
    S: np.ndarray,
    rng: np.ndarray,
    dealer: int,
    deck: np.ndarray,
    cards: np.ndarray,
    hands: np.ndarray,
    score0: int,
    score1: int,
) -> None:
    copy_into(cards, deck)
    shuffle(rng, cards)
    hands[:4] = 0
    for k in range(20):  # RULES.md 3.2.1: five cards each from dealer+1
        hands[(dealer + 1 + k) % 4] |= np.int64(1) << cards[k]
    baloot.new_hand(S, dealer, hands, cards[20], score0, score1)
    for k in range(11):
        S[B_STOCK + k] = cards[21 + k]


@jit_leaf
def _start_kout(
    S: np.ndarray,
    P: np.ndarray,
    rng: np.ndarray,
    dealer: int,
    deck: np.ndarray,
    cards: np.ndarray,
    hands: np.ndarray,
) -> None:
    deal(rng, P, dealer, deck, cards, hands)
    kout.new_hand(S, P, dealer, hands)
