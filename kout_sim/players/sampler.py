"""Determinizations: the other seats' hidden cards drawn from the searching seat's point of view.

Placeholder until the exact sampler lands: the hidden cards (the other hands, and the Baloot stock
before completion) are shuffled and dealt back in the same counts. Uses only what the seat knows:
the union of the hidden cards and each seat's card count are public.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import jit, lowest_bit
from ..engine.layout import (
    B_MODE,
    B_STOCK,
    FAMILY_BALOOT,
    P_FAMILY,
    P_N_PLAYERS,
    PH_AUCTION,
    S_HAND,
    S_PHASE,
)
from ..engine.rng import below


@jit
def determinize(
    S: np.ndarray, P: np.ndarray, STR: np.ndarray, seat: int, rng: np.ndarray, D: np.ndarray
) -> None:
    """Copy ``S`` into ``D`` (int64[S_SIZE]) with the other seats' hidden cards re-dealt."""
    D[:] = S
    n = P[P_N_PLAYERS]
    cards = np.empty(64, dtype=np.int64)
    k = 0
    for s in range(n):
        if s == seat:
            continue
        rest = S[S_HAND + s]
        while rest != 0:
            cards[k] = lowest_bit(rest)
            rest &= rest - 1
            k += 1
    stock = P[P_FAMILY] == FAMILY_BALOOT and S[B_MODE] == 0 and S[S_PHASE] == PH_AUCTION
    if stock:
        for j in range(11):
            cards[k] = S[B_STOCK + j]
            k += 1
    for i in range(k - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    k = 0
    for s in range(n):
        if s == seat:
            continue
        count = 0
        rest = S[S_HAND + s]
        while rest != 0:
            rest &= rest - 1
            count += 1
        hand = np.int64(0)
        for _ in range(count):
            hand |= np.int64(1) << cards[k]
            k += 1
        D[S_HAND + s] = hand
    if stock:
        for j in range(11):
            D[B_STOCK + j] = cards[k]
            k += 1
