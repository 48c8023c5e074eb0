"""Dealing kernels: the uniform shuffle and deal, and the first-dealer draw."""

from __future__ import annotations

import numpy as np

from ._jit import copy_into, jit, jit_alloc, jit_leaf
from .layout import (
    FIRST_DEALER_LOW_DRAW,
    FIRST_DEALER_RANDOM,
    P_DECK,
    P_DRAW_JOKER_RANK,
    P_FIRST_DEALER,
    P_N_CARDS,
    P_N_PLAYERS,
)
from .rng import below, below_of


@jit_alloc
def deck_cards(P: np.ndarray) -> np.ndarray:
    """The deck's card ids, ascending (int64[n_cards])."""
    out = np.empty(P[P_N_CARDS], dtype=np.int64)
    mask = P[P_DECK]
    k = 0
    for card in range(64):
        if (mask >> card) & 1:
            out[k] = card
            k += 1
    return out


@jit
def shuffle(rng: np.ndarray, cards: np.ndarray) -> None:
    """Fisher-Yates shuffle of ``cards`` in place."""
    for i in range(cards.shape[0] - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


@jit
def deal(
    rng: np.ndarray,
    P: np.ndarray,
    dealer: int,
    deck: np.ndarray,
    cards: np.ndarray,
    hands: np.ndarray,
) -> None:
    """Deal ``deck`` uniformly at random one card at a time from ``dealer+1`` (RULES.md 0.4).

    ``cards`` (int64, same length as ``deck``) is scratch space; ``hands`` (int64[>= n]) receives
    each seat's mask.
    """
    n = P[P_N_PLAYERS]
    copy_into(cards, deck)
    for seat in range(n):
        hands[seat] = 0
    # :func:`shuffle` and the deal of card k to seat dealer + 1 + k in one pass: the Fisher-Yates
    # step i fixes position i, so its card is dealt at once (the same permutation, the same hands,
    # and no second loop over the deck).
    # The stream's state in locals for the whole deal (below_of: the same numbers as below).
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    last = cards.shape[0] - 1
    seat = (dealer + 1 + last) % n
    for i in range(last, 0, -1):
        j, s0, s1, s2, s3 = below_of(s0, s1, s2, s3, i + 1)
        card = cards[j]
        cards[j] = cards[i]
        cards[i] = card
        hands[seat] |= np.int64(1) << card
        seat = seat - 1 if seat > 0 else n - 1
    hands[seat] |= np.int64(1) << cards[0]
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3


@jit_leaf
def _draw_rank(card: int, joker_rank: int) -> int:
    return joker_rank if card >= 52 else 2 + card % 13


@jit_alloc
def first_dealer(rng: np.ndarray, P: np.ndarray, deck: np.ndarray) -> int:
    """First dealer by the preset's rule (RULES.md 1.2, 2.2); see :func:`first_dealer_in`."""
    return first_dealer_in(rng, P, deck, np.empty_like(deck))


@jit
def first_dealer_in(rng: np.ndarray, P: np.ndarray, deck: np.ndarray, cards: np.ndarray) -> int:
    """First dealer by the preset's rule (RULES.md 1.2, 2.2), ``cards`` (as ``deck``) scratch.

    Low draw: every seat draws a card from a shuffled deck, the lowest rank deals (jokers rank
    ``P_DRAW_JOKER_RANK``, above the Ace), tied lowest seats draw again from the rest of the deck.
    """
    n = P[P_N_PLAYERS]
    mode = P[P_FIRST_DEALER]
    if mode == FIRST_DEALER_RANDOM:
        return below(rng, n)
    if mode != FIRST_DEALER_LOW_DRAW:
        return mode
    copy_into(cards, deck)
    shuffle(rng, cards)
    joker_rank = P[P_DRAW_JOKER_RANK]
    drawing = (np.int64(1) << n) - 1  # the seats still drawing, as bits
    k = 0
    while True:
        if k + n > cards.shape[0]:
            shuffle(rng, cards)  # the deck ran out (never in practice): reshuffle it
            k = 0
        # each drawing seat in turn takes the next card: the lowest rank, then who drew it
        low = 99
        j = k
        for seat in range(n):
            if (drawing >> seat) & 1:
                low = min(low, _draw_rank(cards[j], joker_rank))
                j += 1
        tied = np.int64(0)
        n_low = 0
        dealer = 0
        for seat in range(n):
            if (drawing >> seat) & 1:
                if _draw_rank(cards[k], joker_rank) == low:
                    tied |= np.int64(1) << seat
                    n_low += 1
                    dealer = seat
                k += 1
        drawing = tied
        if n_low == 1:
            return dealer
