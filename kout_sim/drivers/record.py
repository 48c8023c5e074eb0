"""The result row of a hand: what :func:`record_hand` writes when a hand ends (docs/data.md).

The row kernels of every driver (:mod:`kout_sim.drivers.loop`); the columns are named in
:mod:`kout_sim.engine.layout` (``R_*``) and read by :mod:`kout_sim.io.schema`.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import (
    jit,
    jit_leaf,
    lowest_bit,
    popcount,
)
from ..engine.baloot import completion_masks
from ..engine.layout import (
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
    B_TAKER,
    FAMILY_BALOOT,
    P_JOKER_MASK,
    R_ASHKAL,
    R_B_CARD_PTS,
    R_B_HONOURS,
    R_B_JOKERS,
    R_B_SIDE_ACES,
    R_B_SIDE_KINGS,
    R_B_TRUMP_LEN,
    R_B_VOIDS,
    R_BALOOT_SEAT,
    R_BIDDER,
    R_BIDDER_PROJ,
    R_CARD_PTS,
    R_CONTRACT,
    R_DEALER,
    R_DOUBLE,
    R_FACE_UP,
    R_FIRST_DEAL,
    R_FORCED_JOKER,
    R_GAHWA,
    R_HAND,
    R_HOLDER,
    R_JOKER_FORCED,
    R_JOKER_LEADS,
    R_KABOOT,
    R_MADE,
    R_MALZOOM,
    R_MATCH_WINNER,
    R_MODE,
    R_N_ACTIONS,
    R_N_DONE,
    R_POINTS,
    R_PROJ_GP,
    R_PROJ_TEAM,
    R_TRICKS,
    R_TRUMP,
    R_WINNERS,
    S_BIDDER,
    S_DEALER,
    S_FORCED_JOKER,
    S_HIGH_BID,
    S_JOKER_FORCED,
    S_JOKER_LEADS,
    S_MADE,
    S_MALZOOM,
    S_MATCH_WINNER,
    S_N_ACTIONS,
    S_N_DONE,
    S_POINTS,
    S_TRICKS,
    S_TRUMP,
    S_WINNERS,
    T_POINTS,
)


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
    _record_common(row, S, hands, n)
    if family == FAMILY_BALOOT:
        _record_baloot(row, S, hands)
    hand_features(row, S, P, STR, n, family)


@jit
def _record_common(row: np.ndarray, S: np.ndarray, hands: np.ndarray, n: int) -> None:
    """The result columns of every family."""
    row[R_DEALER] = S[S_DEALER]
    row[R_BIDDER] = S[S_BIDDER]
    row[R_CONTRACT] = S[S_HIGH_BID]
    row[R_MALZOOM] = S[S_MALZOOM]
    row[R_TRUMP] = S[S_TRUMP] if S[S_TRUMP] < 4 else -1
    row[R_TRICKS] = S[S_TRICKS]
    row[R_TRICKS + 1] = S[S_TRICKS + 1]
    row[R_N_DONE] = S[S_N_DONE]
    row[R_MADE] = S[S_MADE]
    row[R_POINTS] = S[S_POINTS]
    row[R_POINTS + 1] = S[S_POINTS + 1]
    row[R_MATCH_WINNER] = S[S_MATCH_WINNER]
    row[R_FORCED_JOKER] = S[S_FORCED_JOKER]
    row[R_JOKER_LEADS] = S[S_JOKER_LEADS]
    row[R_JOKER_FORCED] = S[S_JOKER_FORCED]
    row[R_N_ACTIONS] = S[S_N_ACTIONS]
    # the trick winners, one byte each, built in registers (a loop of the hand's random number
    # of tricks writing to the row mispredicted its exit and re-read the row)
    n_done = S[S_N_DONE]
    low = np.int64(0)
    high = np.int64(0)
    for k in range(8):
        low |= ((S[S_WINNERS + k] + 1) & -np.int64(k < n_done)) << (8 * k)
        high |= ((S[S_WINNERS + 8 + k] + 1) & -np.int64(k + 8 < n_done)) << (8 * k)
    row[R_WINNERS] = low
    row[R_WINNERS + 1] = high
    for seat in range(6):
        row[R_HAND + seat] = hands[seat] if seat < n else 0


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
        completion_masks(S, row, np.int64(R_HAND))
        row[R_HAND + S[B_TAKER]] |= np.int64(1) << S[B_FACE_UP]


SUIT_BITS = np.int64(0x1FFF)
ACES = np.int64((1 << 12) | (1 << 25) | (1 << 38) | (1 << 51))
KINGS = np.int64((1 << 11) | (1 << 24) | (1 << 37) | (1 << 50))
KOUT_HONOURS = np.int64(0xF << 9)  # J Q K A of one suit
HOKUM_HONOURS = np.int64((1 << 7) | (1 << 8) | (1 << 9) | (1 << 12))  # 9 T J A (RULES.md 3.1)


@jit
def hand_features(
    row: np.ndarray, S: np.ndarray, P: np.ndarray, STR: np.ndarray, n: int, family: int
) -> None:
    """The bidder's hand features and the joker holders, from the recorded hands of ``row``."""
    for j in range(3):
        holder = np.int64(-1)
        for seat in range(n):  # without branches on the random deal: select the holding seat
            held = -((row[R_HAND + seat] >> (52 + j)) & 1)
            holder = (seat & held) | (holder & ~held)
        row[R_HOLDER + j] = holder
    for k in range(7):
        row[R_B_TRUMP_LEN + k] = -1
    bidder = S[S_BIDDER]
    if bidder < 0 or (family == FAMILY_BALOOT and S[B_MODE] == 0):
        return
    hand = row[R_HAND + bidder]
    trump = row[R_TRUMP]
    trump_mask = np.int64(0)
    if trump >= 0:
        trump_mask = SUIT_BITS << (13 * trump)
        honours = HOKUM_HONOURS if family == FAMILY_BALOOT else KOUT_HONOURS
        row[R_B_TRUMP_LEN] = popcount(hand & trump_mask)
        row[R_B_HONOURS] = popcount(hand & (honours << (13 * trump)))
    row[R_B_SIDE_ACES] = popcount(hand & ACES & ~trump_mask)
    row[R_B_SIDE_KINGS] = popcount(hand & KINGS & ~trump_mask)
    voids = 0
    for suit in range(4):
        voids += np.int64(hand & (SUIT_BITS << (13 * suit)) == 0)
    row[R_B_VOIDS] = voids
    if family == FAMILY_BALOOT:
        table = S[S_TRUMP]
        points = 0
        rest = hand
        while rest != 0:
            card = lowest_bit(rest)
            rest &= rest - 1
            points += STR[T_POINTS + table, card]
        row[R_B_CARD_PTS] = points
    else:
        row[R_B_JOKERS] = popcount(hand & P[P_JOKER_MASK])
