"""Joker and bid forks of line-ups with a searching seat (ISMCTS, PIMC), stepped from Python.

:func:`fork_hands` has the contract of :func:`kout_sim.drivers.fork.fork_hands` (same ``out`` and
``counts``, same records, same modes) and the same semantics as its kernel (the module docstring of
:mod:`kout_sim.drivers.fork`), for any line-up. It plays each hand one decision at a time through
:func:`kout_sim.drivers.playout.play_out`, the play-on entry point the advisor uses, compiled once
per family and search class; a search decision costs milliseconds, so the Python loop around it
costs nothing by comparison, and no fork entry point with the search compiled in is needed.

* The deal of hand ``i`` is that of :func:`kout_sim.drivers.play.play_hands` (the deal lane of
  ``(seed, first + i)``; taken from the traced-hand entry with zero decisions), and the hand's own
  decisions draw from its play lane exactly as there, one ``play_out(limit=1)`` call each: hand
  ``i`` of a forks run is hand ``i`` of ``simulate --hands`` with the same seed and players.
* Joker forks: branch 0 plays the strongest joker the seat may play (``RJ`` before ``BJ``), branch
  1 the card the seat's own policy picks among its legal non-joker cards (``play_out`` with
  ``allowed``: a search player searches those cards only), drawn from a copy of the fork's random
  stream ``(seed, hand, LANE_FORK + fork number)``; both branches play on from that stream's state
  at the fork.
* Bid forks: every legal call is played on from the state of the hand's own play lane after the
  policy drew its choice, so the branch of the call actually made is the hand as played.
"""

from __future__ import annotations

import numpy as np

from ..drivers import fork as FK
from ..drivers.loop import Setup
from ..drivers.play import hand_traced, random_lineup
from ..drivers.playout import play_out
from ..engine import layout as L
from ..engine._jit import highest_bit, popcount
from ..engine.game import legal_mask
from ..engine.rng import LANE_PLAY, seed_stream

SEARCH_CHUNK = 4
"""Hands per chunk (one thread's unit of work) for line-ups with a searching seat: a hand of joker
forks under ``ismcts:iterations=200`` takes seconds, so the chunks stay short."""

_EMPTY = np.zeros(0, dtype=np.int64)


def fork_hands(
    setup: Setup, seed: int, first: int, out: np.ndarray, counts: np.ndarray, mode: int
) -> None:
    """:func:`kout_sim.drivers.fork.fork_hands` for any line-up (see the module docstring)."""
    if int(setup.P[L.P_FAMILY]) == L.FAMILY_BALOOT and mode < FK.MODE_BID_FIRST:
        raise ValueError("joker forks need a Kout preset")
    for i in range(out.shape[0]):
        counts[i] = _fork_hand(setup, seed, first + i, out[i], mode)


def _fork_hand(setup: Setup, seed: int, index: int, out: np.ndarray, mode: int) -> int:
    """Fork hand ``index`` into the records ``out`` (int64[room, F_SIZE]); returns their number,
    -1 if a policy chose an illegal action in the hand itself, -2 if the room is too small."""
    P, STR, kinds, params = setup
    family = int(P[L.P_FAMILY])
    jokers = int(P[L.P_JOKER_MASK])
    bids = mode >= FK.MODE_BID_FIRST
    room = out.shape[0]
    # the deal of play_hands (deal lane of (seed, index)); the play lane untouched before play
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    dealt = np.zeros(6, dtype=np.int64)
    hand_traced(Setup(P, STR, *random_lineup()), seed, index, dealt, _EMPTY, _EMPTY, S, limit=0)
    play = np.empty(4, dtype=np.uint64)
    seed_stream(play, seed, index, LANE_PLAY)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    fork_rng = np.empty(4, dtype=np.uint64)
    chosen = np.zeros(1, dtype=np.int64)

    def branch(position: np.ndarray, action: int, allowed: int = -1, limit: int = -1) -> int:
        """Play ``position`` (a copy) on from the fork's random state; ``action`` forced first."""
        stream = fork_rng.copy()
        trace = chosen if limit == 1 else _EMPTY
        return play_out(position, P, STR, MS, stream, kinds, params, action, limit, allowed, trace)

    def step() -> int:
        """The hand's own next decision, on its play lane; its phase-relative action, or -1 if a
        policy chose an illegal action."""
        call = S[L.S_PHASE] != L.PH_PLAY
        t = play_out(S, P, STR, MS, play, kinds, params, -1, 1, -1, chosen)
        if t != 1:
            return -1
        return int(chosen[0]) - (L.CALL if call else 0)

    k = 0  # records written
    n_bid = 0  # bid decisions forked
    while S[L.S_PHASE] != L.PH_OVER:
        mask = int(legal_mask(S, P, STR, family))
        seat = int(S[L.S_TO_ACT])
        if bids:
            n = popcount(mask)
            if S[L.S_PHASE] == L.PH_AUCTION and n > 1 and (mode == FK.MODE_BID_EVERY or n_bid == 0):
                if k + n > room:
                    return -2
                before = S.copy()
                action = step()
                if action < 0:
                    return -1
                # common random numbers: the hand's own play lane after the policy's choice
                fork_rng[:] = play
                calls = [c for c in range(64) if (mask >> c) & 1]
                for b, call in enumerate(calls):
                    B = before.copy()
                    t = branch(B, call)
                    rec = out[k + b]
                    rec[FK.F_HAND] = index
                    FK._describe_bid(before, MS, rec, n_bid, action, n)
                    rec[FK.G_CALL] = call
                    rec[FK.G_BIDDER] = B[L.S_BIDDER]
                    rec[FK.G_CONTRACT] = B[L.S_HIGH_BID]
                    rec[FK.G_TRUMP] = B[L.S_TRUMP]
                    rec[list(FK.G_RNG)] = fork_rng.view(np.int64)
                    rec[FK.F_ILLEGAL] = 1 if t < 0 else 0
                    FK._outcome(B, rec, 0, seat % 2)
                k += n
                n_bid += 1
                continue
        elif (
            S[L.S_PHASE] == L.PH_PLAY
            and k < room
            and mask & jokers
            and mask & ~jokers
            and (mode == FK.MODE_JOKER_ANY or S[L.S_N_IN_TRICK] == 0)
        ):
            rec = out[k]
            rec[FK.F_HAND] = index
            FK._describe(S, P, rec)
            rec[FK.F_ILLEGAL] = 0
            seed_stream(fork_rng, seed, index, FK.LANE_FORK + k)
            others = mask & ~jokers
            # the policy's choice among the non-joker cards, from a copy of the fork's stream
            t = branch(S.copy(), -1, others, 1)
            forked = t == 1
            if forked:
                cards = (highest_bit(mask & jokers), int(chosen[0]))
                rec[FK.F_JOKER], rec[FK.F_OTHER] = cards
                for b, card in enumerate(cards):
                    B = S.copy()
                    if branch(B, card) < 0:
                        rec[FK.F_ILLEGAL] = 1
                    FK._outcome(B, rec, b, seat % 2)
            else:
                rec[FK.F_ILLEGAL] = 1
            action = step()
            if action < 0:
                return -1
            if forked:
                rec[FK.F_CHOSEN] = action
            k += 1
            continue
        if step() < 0:
            return -1
    for r in range(k):
        team = int(out[r, FK.F_SEAT]) % 2
        out[r, FK.F_ACTUAL_MADE] = S[L.S_MADE]
        out[r, FK.F_ACTUAL_NET] = S[L.S_POINTS + team] - S[L.S_POINTS + 1 - team]
        out[r, FK.F_ACTUAL_TRICKS] = S[L.S_TRICKS + team]
        out[r, FK.F_ACTUAL_FORCED] = S[L.S_FORCED_JOKER]
    return k
