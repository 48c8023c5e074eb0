"""The result row of a hand (docs/data.md): the columns every family writes.

Each family's ``record_hand`` (:mod:`kout_sim.engine.kout`, :mod:`kout_sim.engine.baloot`) writes
these and then its own; :func:`kout_sim.engine.game.record_hand` dispatches. The columns are named
in :mod:`kout_sim.engine.layout` (``R_*``) and read by :mod:`kout_sim.io.schema`.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, popcount
from .layout import (
    R_B_HONOURS,
    R_B_SIDE_ACES,
    R_B_SIDE_KINGS,
    R_B_TRUMP_LEN,
    R_B_VOIDS,
    R_BIDDER,
    R_CONTRACT,
    R_DEALER,
    R_FORCED_JOKER,
    R_HAND,
    R_HOLDER,
    R_JOKER_FORCED,
    R_JOKER_LEADS,
    R_MADE,
    R_MALZOOM,
    R_MATCH_WINNER,
    R_N_ACTIONS,
    R_N_DONE,
    R_POINTS,
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
)

SUIT_BITS = np.int64(0x1FFF)
ACES = np.int64((1 << 12) | (1 << 25) | (1 << 38) | (1 << 51))
KINGS = np.int64((1 << 11) | (1 << 24) | (1 << 37) | (1 << 50))
B_FEATURES = 7  # R_B_TRUMP_LEN .. R_B_CARD_PTS: the bidder's hand features (-1: does not apply)


@jit
def record_common(row: np.ndarray, S: np.ndarray, hands: np.ndarray, n: int) -> None:
    """The result columns of every family: the contract, the tricks, the points, the dealt hands."""
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
def bidder_features(row: np.ndarray, S: np.ndarray, n: int, honours: int, contract: bool) -> bool:
    """The joker holders and the bidder's hand features every family has, from the recorded
    hands of ``row`` (write the family's hands first). ``honours``: the top four trumps of a suit
    (bits of suit 0); ``contract``: the hand has a bidder's contract, else the features are -1.

    Returns ``contract``: whether the family's own features apply.
    """
    for j in range(3):
        holder = np.int64(-1)
        for seat in range(n):  # without branches on the random deal: select the holding seat
            held = -((row[R_HAND + seat] >> (52 + j)) & 1)
            holder = (seat & held) | (holder & ~held)
        row[R_HOLDER + j] = holder
    for k in range(B_FEATURES):
        row[R_B_TRUMP_LEN + k] = -1
    if not contract:
        return False
    hand = row[R_HAND + S[S_BIDDER]]
    trump = row[R_TRUMP]
    trump_mask = np.int64(0)
    if trump >= 0:
        trump_mask = SUIT_BITS << (13 * trump)
        row[R_B_TRUMP_LEN] = popcount(hand & trump_mask)
        row[R_B_HONOURS] = popcount(hand & (honours << (13 * trump)))
    row[R_B_SIDE_ACES] = popcount(hand & ACES & ~trump_mask)
    row[R_B_SIDE_KINGS] = popcount(hand & KINGS & ~trump_mask)
    voids = 0
    for suit in range(4):
        voids += np.int64(hand & (SUIT_BITS << (13 * suit)) == 0)
    row[R_B_VOIDS] = voids
    return True
