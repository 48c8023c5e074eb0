"""Match flow kernels: banking a hand, the match-end checks and the dealer rotation."""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_leaf
from .layout import (
    B_VOID,
    FAMILY_BALOOT,
    M_DEALER,
    M_N_HANDS,
    M_REASON,
    M_SCORE,
    M_WINNER,
    P_BAWAN_FIRST,
    P_FAMILY,
    P_KOUT_AT,
    P_N_PLAYERS,
    P_ROTATION,
    P_SIGNED_SCORE,
    P_TARGET,
    REASON_BAWAN_FIRST,
    REASON_FORCED_JOKER,
    REASON_GAHWA,
    REASON_INZILI,
    REASON_KOUT,
    REASON_NONE,
    REASON_TARGET,
    ROTATE_OWNERSHIP,
    S_BIDDER,
    S_DEALER,
    S_FORCED_JOKER,
    S_HIGH_BID,
    S_MADE,
    S_MATCH_WINNER,
    S_POINTS,
)


@jit_leaf
def new_match(MS: np.ndarray, first_dealer: int) -> None:
    """Reset the match state ``MS`` (int64[M_SIZE]) for a match whose first dealer is given."""
    MS[:] = 0
    MS[M_DEALER] = first_dealer
    MS[M_WINNER] = -1
    MS[M_REASON] = REASON_NONE


@jit_leaf
def next_on_team(seat: int, team: int, n: int) -> int:
    """RULES.md 0.2: the next seat on ``team`` after ``seat``."""
    s1 = (seat + 1) % n
    return s1 if (s1 & 1) == team else (seat + 2) % n


@jit_leaf
def _owner(score: int) -> int:
    """RULES.md 2.12: team owning a signed score (-1 when it is 0)."""
    if score > 0:
        return 0
    if score < 0:
        return 1
    return -1


@jit
def apply_hand(MS: np.ndarray, S: np.ndarray, P: np.ndarray) -> None:
    """Bank the finished hand ``S`` into ``MS``: score, match end, next dealer."""
    first_hand = MS[M_N_HANDS] == 0
    MS[M_N_HANDS] += 1
    n = P[P_N_PLAYERS]
    dealer = S[S_DEALER]
    if S[S_MATCH_WINNER] >= 0:
        # 2.8 forced joker lead, 2.10 Inzili: the hand decides the match, no points move
        MS[M_WINNER] = S[S_MATCH_WINNER]
        if P[P_FAMILY] == FAMILY_BALOOT:
            MS[M_REASON] = REASON_GAHWA  # 3.6.5
        elif S[S_FORCED_JOKER] != 0:
            MS[M_REASON] = REASON_FORCED_JOKER
        else:
            MS[M_REASON] = REASON_INZILI
        return
    p0 = S[S_POINTS]
    p1 = S[S_POINTS + 1]
    round_winner = 0 if p0 > 0 else 1
    target = P[P_TARGET]
    if P[P_SIGNED_SCORE] != 0:
        before = MS[M_SCORE]
        after = before + p0 - p1  # 2.10: team 0 up, team 1 down
        MS[M_SCORE] = after
        if abs(after) >= target:  # 2.11
            MS[M_WINNER] = 0 if after > 0 else 1
            MS[M_REASON] = REASON_TARGET
    else:
        MS[M_SCORE] += p0
        MS[M_SCORE + 1] += p1
        s0 = MS[M_SCORE]
        s1 = MS[M_SCORE + 1]
        kout = P[P_KOUT_AT]
        if (
            first_hand
            and P[P_BAWAN_FIRST] != 0
            and S[S_HIGH_BID] == P[P_BAWAN_FIRST]
            and S[S_MADE] == 1
        ):
            MS[M_WINNER] = S[S_BIDDER] & 1  # 1.12(a)
            MS[M_REASON] = REASON_BAWAN_FIRST
        elif kout != 0 and s0 >= kout and s1 == 0:
            MS[M_WINNER] = 0  # 1.12(b)
            MS[M_REASON] = REASON_KOUT
        elif kout != 0 and s1 >= kout and s0 == 0:
            MS[M_WINNER] = 1
            MS[M_REASON] = REASON_KOUT
        elif s0 >= target or s1 >= target:
            # 1.12(c), 3.6.6: both at the target on the same hand: the higher total; a tie plays on
            if s0 != s1:
                MS[M_WINNER] = 0 if s0 > s1 else 1
                MS[M_REASON] = REASON_TARGET
    if P[P_ROTATION] == ROTATE_OWNERSHIP:
        own_before = _owner(MS[M_SCORE] - p0 + p1)
        own_after = _owner(MS[M_SCORE])
        if own_before >= 0 and own_after >= 0 and own_before != own_after:
            MS[M_DEALER] = next_on_team(dealer, 1 - own_after, n)  # 2.12(a)
        elif round_winner == (dealer & 1) and own_after != round_winner:
            MS[M_DEALER] = dealer  # 2.12(b)
        else:
            MS[M_DEALER] = next_on_team(dealer, 1 - round_winner, n)  # 2.12(c)
    elif P[P_FAMILY] == FAMILY_BALOOT and S[B_VOID] == 2:
        MS[M_DEALER] = dealer  # 3.2.7: after a Kawesh the same dealer redeals
    else:
        MS[M_DEALER] = (dealer + 1) % n  # 1.2
