"""The trick winner of every family, read off the card tables ``STR`` (RULES.md 1.1, 1.8, 2.7, 3.4.4).

A family's tables rank its cards (:mod:`kout_sim.engine.tables`); the winner is the same rule in every
family: the highest strength, trump above the led suit, a card of another suit never wins. Kout's
rankless joker (RULES.md 1.8) is the one exception, and a Baloot trick never has one.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_leaf
from .layout import P_N_PLAYERS, S_LED, S_RANKLESS, S_TRICK, S_TRUMP, T_COLS, T_LED


@jit_leaf
def suit_of(card: int) -> int:
    """``card // 13`` (the suit; 4 for a joker) for every card id -1..63, without a signed
    division's floor correction: the multiply and shift every kernel that asks a card's suit in a
    loop shares."""
    return (card * 79) >> 10


@jit
def trick_winner_idx(S: np.ndarray, P: np.ndarray, STR: np.ndarray) -> int:
    """Position in the completed current trick of its winning card (RULES.md 1.1, 1.8, 2.7)."""
    n = P[P_N_PLAYERS]
    trump = S[S_TRUMP]
    led = S[S_LED]
    start = 1 if S[S_RANKLESS] != 0 else 0  # 1.8: the rankless joker never wins
    # The highest strength wins, the earliest card on a tie (only cards of strength 0 tie): the
    # maximum of strength * 8 + (7 - position), without a branch on the random cards. A card of
    # the led suit ranks by STR[T_LED] unless it is trump (trump strengths are above every led
    # strength, so the larger of the two is the card's strength); a joker's suit, 52 // 13 = 4,
    # is never the led suit. A card off the led suit reads the led strength of the column
    # T_COLS - 1, no card's (0): a select of the column, not of the strength, which LLVM would
    # make a branch around the load. Its suit: :func:`suit_of`.
    best = np.int64(-1)
    for i in range(start, n):
        card = S[S_TRICK + i]
        if card < 0:
            break  # never (a trick holds cards): a second exit keeps LLVM from vectorising
        col = card if suit_of(card) == led else T_COLS - 1
        strength = max(STR[trump, card], STR[T_LED, col])
        best = max(best, strength * 8 + 7 - i)
    return 7 - (best & 7)
