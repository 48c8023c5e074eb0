"""The Kout family (Kuwaiti Kout Bo, RULES.md §1; Bahraini Kout, §2): its kernel bundle.

Every family package of :mod:`kout_sim.engine` exports the same five kernels, with the same
signature, and :mod:`kout_sim.engine.game` dispatches over them (``tests/unit/test_family_bundle.py``
checks the names and signatures):

- ``new_hand(S, P, STR, rng, dealer, deck, cards, hands, score0, score1)``: deal uniformly at
  random from the deal lane ``rng`` and reset ``S`` to the first decision of the hand;
- ``legal_mask(S, P, STR)``: the legal set of the seat to act (phase-relative bits);
- ``apply_action(S, P, STR, action)``: apply a phase-relative action;
- ``record_play(S, P, STR, card)``: enter what ``card``, about to be played, shows of its
  player's hand (``S[S_VOIDS]``, for the samplers);
- ``record_hand(row, S, P, STR, hands, n)``: the result row of the finished hand.

The kernels under them (calls, cards, scoring) are in :mod:`.hand`; the family's rules are
:class:`kout_sim.rules.presets.KoutPreset`, compiled to ``P`` and ``STR`` by
:mod:`kout_sim.engine.tables`.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_leaf, popcount
from ..deal import deal
from ..layout import P_JOKER_MASK, PH_PLAY, R_B_JOKERS, R_HAND, S_BIDDER, S_PHASE, S_TO_ACT
from ..row import bidder_features, record_common
from . import hand

HONOURS = np.int64(0xF << 9)  # J Q K A of suit 0: the bidder's trump honours in the result row


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
) -> None:
    """Deal ``deck`` uniformly at random into ``hands`` (RULES.md 0.4) and reset ``S`` to the
    auction. The match score plays no part in a Kout hand."""
    deal(rng, P, dealer, deck, cards, hands)
    hand.reset_hand(S, P, dealer, hands)


@jit_leaf
def legal_mask(S: np.ndarray, P: np.ndarray, STR: np.ndarray) -> np.int64:
    """Legal set of the seat to act, relative to the phase (cards in play, call indices else)."""
    if S[S_PHASE] == PH_PLAY:
        return hand.legal_cards(S, P)
    return hand.legal_calls(S, P)


@jit_leaf
def apply_action(S: np.ndarray, P: np.ndarray, STR: np.ndarray, action: int) -> None:
    """Apply a phase-relative action index (a card id in play, a call index else)."""
    if S[S_PHASE] == PH_PLAY:
        hand.apply_card(S, P, STR, action)
    else:
        hand.apply_call(S, P, action)


@jit
def record_play(S: np.ndarray, P: np.ndarray, STR: np.ndarray, card: int) -> None:
    """Enter in ``S[S_VOIDS]`` what ``card``, about to be played by the seat to act, shows."""
    hand.record_shown(S, P, S[S_TO_ACT], card)


@jit
def record_hand(
    row: np.ndarray, S: np.ndarray, P: np.ndarray, STR: np.ndarray, hands: np.ndarray, n: int
) -> None:
    """Write the result of the finished hand ``S``, dealt as ``hands``, into ``row``."""
    record_common(row, S, hands, n)
    bidder = S[S_BIDDER]
    if bidder_features(row, S, n, HONOURS, bidder >= 0):
        row[R_B_JOKERS] = popcount(row[R_HAND + bidder] & P[P_JOKER_MASK])
