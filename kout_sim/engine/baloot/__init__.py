"""Saudi Baloot (RULES.md §3): its kernel bundle.

The same five kernels, with the same signatures, as every family package (see
:mod:`kout_sim.engine.kout`): ``new_hand``, ``legal_mask``, ``apply_action``, ``record_play`` and
``record_hand``. The kernels under them (auction, doubling, projects, cards, scoring) are in
:mod:`.hand`; the family's rules are :class:`kout_sim.rules.presets.BalootPreset`, compiled to
``P`` and ``STR`` by :mod:`kout_sim.engine.tables`.
"""

from __future__ import annotations

import numpy as np

from .._jit import copy_into, jit, jit_leaf, lowest_bit
from ..deal import shuffle
from ..layout import (
    B_ASHKAL,
    B_BALOOT_SEAT,
    B_CARD_PTS,
    B_DOUBLE,
    B_FACE_UP,
    B_GAHWA,
    B_KABOOT,
    B_MODE,
    B_PROJ,
    B_PROJ_GP,
    B_PROJ_TEAM,
    B_STOCK,
    B_TAKER,
    PH_COMPLETION,
    R_ASHKAL,
    R_B_CARD_PTS,
    R_BALOOT_SEAT,
    R_BIDDER_PROJ,
    R_CARD_PTS,
    R_DOUBLE,
    R_FACE_UP,
    R_FIRST_DEAL,
    R_GAHWA,
    R_HAND,
    R_KABOOT,
    R_MODE,
    R_PROJ_GP,
    R_PROJ_TEAM,
    S_BIDDER,
    S_PHASE,
    S_TO_ACT,
    S_TRUMP,
    T_POINTS,
)
from ..row import bidder_features, record_common
from . import hand
from .hand import legal_mask

__all__ = ["apply_action", "legal_mask", "new_hand", "record_hand", "record_play"]

# 9 T J A of suit 0 (RULES.md 3.1): the buyer's top Hokum trumps in the result row
HONOURS = np.int64((1 << 7) | (1 << 8) | (1 << 9) | (1 << 12))


@jit
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
    """Shuffle ``deck``, deal the first five cards each into ``hands`` (RULES.md 3.2.1), turn the
    next one face up and keep the rest as the stock; reset ``S`` to the auction. The match score
    (``score0``, ``score1``) gates the Sun doubling (3.3.1)."""
    copy_into(cards, deck)
    shuffle(rng, cards)
    hands[:4] = 0
    for k in range(20):  # RULES.md 3.2.1: five cards each from dealer+1
        hands[(dealer + 1 + k) % 4] |= np.int64(1) << cards[k]
    hand.reset_hand(S, dealer, hands, cards[20], score0, score1)
    for k in range(11):
        S[B_STOCK + k] = cards[21 + k]


@jit_leaf
def apply_action(S: np.ndarray, P: np.ndarray, STR: np.ndarray, action: int) -> None:
    """Apply a phase-relative action; an auction that ends deals its completion from the stock
    (RULES.md 3.2.6), as in simulation. A record with given completion cards applies
    :func:`.hand.apply_action` and :func:`.hand.complete` instead."""
    hand.apply_action(S, P, STR, action)
    if S[S_PHASE] == PH_COMPLETION:
        hand.complete_from_stock(S, P, STR)


@jit
def record_play(S: np.ndarray, P: np.ndarray, STR: np.ndarray, card: int) -> None:
    """Enter in ``S[S_VOIDS]`` what ``card``, about to be played by the seat to act, shows."""
    hand.record_shown(S, P, STR, S[S_TO_ACT], card)


@jit
def record_hand(
    row: np.ndarray, S: np.ndarray, P: np.ndarray, STR: np.ndarray, hands: np.ndarray, n: int
) -> None:
    """Write the result of the finished hand ``S`` into ``row``; ``hands`` is the five-card first
    deal, and the recorded hands are the eight cards each seat held after completion."""
    record_common(row, S, hands, n)
    _record_baloot(row, S, hands)
    buyer = S[S_BIDDER]
    if bidder_features(row, S, n, HONOURS, buyer >= 0 and S[B_MODE] != 0):
        table = S[S_TRUMP]
        points = 0
        rest = row[R_HAND + buyer]
        while rest != 0:
            card = lowest_bit(rest)
            rest &= rest - 1
            points += STR[T_POINTS + table, card]
        row[R_B_CARD_PTS] = points


@jit
def _record_baloot(row: np.ndarray, S: np.ndarray, hands: np.ndarray) -> None:
    """Baloot's own result columns (mode, card points, doubling, projects, the completed hands)."""
    row[R_MODE] = S[B_MODE]
    row[R_CARD_PTS] = S[B_CARD_PTS]
    row[R_CARD_PTS + 1] = S[B_CARD_PTS + 1]
    row[R_DOUBLE] = S[B_DOUBLE]
    row[R_GAHWA] = S[B_GAHWA]
    row[R_KABOOT] = S[B_KABOOT]
    row[R_PROJ_TEAM] = S[B_PROJ_TEAM]
    row[R_PROJ_GP] = S[B_PROJ_GP]
    row[R_PROJ_GP + 1] = S[B_PROJ_GP + 1]
    row[R_BALOOT_SEAT] = S[B_BALOOT_SEAT]
    row[R_ASHKAL] = S[B_ASHKAL]
    row[R_FACE_UP] = S[B_FACE_UP]
    for seat in range(4):
        row[R_FIRST_DEAL + seat] = hands[seat]
    buyer = S[S_BIDDER]
    row[R_BIDDER_PROJ] = S[B_PROJ + 2 * buyer] if buyer >= 0 else 0
    row[R_BIDDER_PROJ + 1] = S[B_PROJ + 2 * buyer + 1] if buyer >= 0 else 0
    if S[B_MODE] != 0:
        hand.completion_masks(S, row, np.int64(R_HAND))
        row[R_HAND + S[B_TAKER]] |= np.int64(1) << S[B_FACE_UP]
