"""Auction-aware determinization (Kout): sampled deals that agree with the observed calls.

The exact sampler (:mod:`.sampler`) deals the hidden cards uniformly among the deals consistent
with what a seat knows from the play (hand sizes, voids shown), but it ignores the auction: a seat
that bid 7 is dealt an average hand. Here a sampled deal is kept only if the heuristic bidder
(:func:`.kout_heuristic.choose_bid`, :func:`.kout_heuristic.choose_trump`, with the searcher's own
rollout row) would have made every observed call of the other seats from its sampled hand.

**Rejection, not importance weights.** The searches consume one deal per iteration (ISMCTS) or a
fixed number of deals (PIMC) and average over them with equal weights; an importance weight per deal
would have to reach the backups of every tree node (ISMCTS) or the sums over cards (PIMC), and with
a deterministic bidder the weights are 0 or 1 anyway, so the weighted average is the rejection
average with the zero-weight draws wasted the same way. Rejection keeps both searches unchanged:
each accepted deal is an exact draw from the posterior "uniform deal consistent with the play,
conditioned on the heuristic making the observed calls" (the calls of a deterministic heuristic
are a function of the hand, so accepting the deals whose replayed calls match is exact conditioning).
With the rollout row's ``epsilon`` > 0 (a uniformly random legal call with that probability) a
mismatched call has likelihood ``eps / k`` (``k`` legal calls) against ``1 - eps + eps / k`` for
the heuristic's call; the deal is then accepted with the ratio of its likelihood to the largest,
the textbook rejection sampler, still exact.

**What each call depended on.** A Kout auction is one round from ``dealer + 1`` (RULES.md 1.3,
2.3), each seat passes or outbids the standing bid once, the dealer may not pass after three (five)
passes; then the bidder names trump (1.4; 2.4: a suit he holds). The heuristic's call reads its
hand (the seat's sampled current hand plus the cards it has played, ``K_SEAT_PLAYED``), the
standing bid and whether the partner holds it (the calls before it, replayed from ``K_CALL_LOG``),
the legal set (the forced dealer, the bid range), its seat's team and the match score ``MS`` (the
same at the auction as during the hand). A pass is a constraint as well (the hand is below the
heuristic's threshold), a weak one; a call with one legal choice (only a pass left above the top
bid, one namable trump suit) is made without the heuristic and says nothing. The searcher's own
calls are not replayed (its hand is known). A state that does not carry the log (built by hand,
not played from the deal) is not constrained.

**Bounded tries and the fallback.** At most ``tries`` deals are drawn per determinization; if none
is accepted, the deal that agreed with the most observed calls (the first such) is used. The
fallback is biased towards agreement but not exact; the tests and the README report how often it
happens. Baloot is not covered (its buying auction is a different kernel).
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import copy_into, jit, jit_alloc, popcount
from ..engine.kout.hand import apply_call, legal_calls
from ..engine.layout import (
    K_CALL_LOG,
    K_SEAT_PLAYED,
    P_N_PLAYERS,
    PH_AUCTION,
    PH_TRUMP,
    S_BIDDER,
    S_DEALER,
    S_HAND,
    S_HIGH_BID,
    S_MALZOOM,
    S_N_ACTIONS,
    S_N_CALLS,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_TO_ACT,
    S_TRICK,
    S_TRUMP,
    TRUMP,
)
from ..engine.rng import next_u64
from .kout_heuristic import K_EPSILON, choose_bid, choose_trump
from .sampler import determinize


@jit
def _call_ratio(eps: float, mask: int, agree: bool) -> float:
    """Likelihood of an observed call over the largest likelihood of any call: 1 for the
    heuristic's call, ``(eps / k) / (1 - eps + eps / k)`` for another (``k`` legal calls)."""
    if agree:
        return 1.0
    if eps <= 0.0:
        return 0.0
    k = popcount(mask)
    return (eps / k) / (1.0 - eps + eps / k)


@jit
def auction_agreement(
    D: np.ndarray,
    S: np.ndarray,
    P: np.ndarray,
    MS: np.ndarray,
    prm: np.ndarray,
    seat: int,
    R: np.ndarray,
) -> tuple[float, int]:
    """How well the deal ``D`` (a determinization of ``S`` for ``seat``) explains the calls of ``S``.

    Replays the auction of ``S`` (``K_CALL_LOG``; RULES.md 1.3 / 2.3) on the scratch state ``R``
    (int64[S_SIZE]) with each seat's hand as dealt in ``D`` (its cards in ``D`` plus the cards it
    has played, ``K_SEAT_PLAYED``), asking the heuristic (row ``prm``) for every call of a seat
    other than ``seat`` that had more than one legal choice, then the trump choice (1.4 / 2.4).

    Returns
    -------
    tuple[float, int]
        The likelihood ratio in [0, 1] (1: the heuristic makes every observed call; with its
        ``epsilon`` 0 the ratio is 0 or 1) and the number of replayed calls the heuristic makes.
        A state whose log does not match its call count, or whose record of who played which
        card (``K_SEAT_PLAYED``, written by the searching play loops) does not hold every card
        played, gives (1.0, 0): no constraint.
    """
    n = P[P_N_PLAYERS]
    made = S[S_N_CALLS]
    log = S[K_CALL_LOG]
    if made == 0 or (log >> (8 * made)) != 0 or ((log >> (8 * (made - 1))) & 255) == 0:
        return 1.0, 0
    recorded = np.int64(0)  # the public record must hold every card played (record_card)
    for s in range(n):
        recorded |= S[K_SEAT_PLAYED + s]
    played = S[S_PLAYED]
    for k in range(S[S_N_IN_TRICK]):
        played |= np.int64(1) << S[S_TRICK + k]
    if recorded != played:
        return 1.0, 0
    eps = prm[K_EPSILON]
    dealer = S[S_DEALER]
    R[S_PHASE] = PH_AUCTION
    R[S_DEALER] = dealer
    R[S_TO_ACT] = dealer + 1 if dealer + 1 < n else 0
    R[S_N_CALLS] = 0
    R[S_HIGH_BID] = 0
    R[S_BIDDER] = -1
    R[S_MALZOOM] = 0
    R[S_N_ACTIONS] = 0
    R[K_CALL_LOG] = 0
    for s in range(n):
        R[S_HAND + s] = D[S_HAND + s] | S[K_SEAT_PLAYED + s]
    ratio = 1.0
    agreed = 0
    for i in range(made):
        call = ((log >> (8 * i)) & 255) - 1
        s = R[S_TO_ACT]
        if s != seat:
            mask = legal_calls(R, P)
            if mask & (mask - 1) != 0:
                ok = choose_bid(R, P, MS, prm, mask, s) == call
                agreed += 1 if ok else 0
                ratio *= _call_ratio(eps, mask, ok)
        apply_call(R, P, call)
    bidder = S[S_BIDDER]
    # the trump choice (1.4 / 2.4), once it is made (play phase or later) and not by ``seat``
    if (
        R[S_PHASE] == PH_TRUMP
        and S[S_PHASE] != PH_AUCTION
        and S[S_PHASE] != PH_TRUMP
        and bidder != seat
    ):
        mask = legal_calls(R, P)
        if mask & (mask - 1) != 0:
            ok = choose_trump(R, P, mask, bidder) == TRUMP + S[S_TRUMP]
            agreed += 1 if ok else 0
            ratio *= _call_ratio(eps, mask, ok)
    return ratio, agreed


@jit
def reject_step(
    D: np.ndarray,
    S: np.ndarray,
    P: np.ndarray,
    MS: np.ndarray,
    prm: np.ndarray,
    seat: int,
    rng: np.ndarray,
    tries: int,
    t: int,
    top: int,
    best: np.ndarray,
    R: np.ndarray,
) -> int:
    """One step of the rejection loop, after the ``t``-th draw ``D`` (``t`` from 1).

    Accepts ``D`` with probability :func:`auction_agreement`'s ratio (1 or 0 for a deterministic
    heuristic); else keeps it in ``best`` if it agrees with more calls than ``top`` (the best so
    far, -1 before any), and after the last of ``tries`` draws copies ``best`` into ``D``. Returns
    -1 when ``D`` is accepted, -2 when the tries are spent (``D`` is then the fallback deal), else
    the new ``top`` (>= 0: draw again).

    The loop itself (draw, then this step) is written out in each search around its one call
    of :func:`.sampler.determinize` (and in :func:`determinize_auction`): a wrapper holding the
    sampler would make numba emit the sampler's machine code once more per search entry point.
    """
    ratio, agreed = auction_agreement(D, S, P, MS, prm, seat, R)
    if ratio >= 1.0:
        return -1
    if ratio > 0.0 and np.float64(next_u64(rng) >> np.uint64(11)) * (2.0**-53) < ratio:
        return -1
    if agreed > top:
        top = agreed
        copy_into(best, D)
    if t >= tries:
        copy_into(D, best)
        return -2
    return top


@jit_alloc
def determinize_auction(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    MS: np.ndarray,
    seat: int,
    rng: np.ndarray,
    out_S: np.ndarray,
    prm: np.ndarray,
    tries: int,
    best: np.ndarray,
    R: np.ndarray,
) -> int:
    """:func:`.sampler.determinize` by rejection against the observed Kout calls (module notes):
    the searches' loop (draw, :func:`reject_step`), for callers from Python and the tests.

    Draws up to ``tries`` deals into ``out_S`` (heuristic row ``prm``); ``best`` and ``R`` are
    int64[S_SIZE] scratch rows. ``tries`` 0: one plain :func:`.sampler.determinize`.

    Returns
    -------
    int
        The number of deals drawn when one was accepted (1 with ``tries`` 0); ``0`` when none was
        and ``out_S`` holds the first deal that agreed with the most calls; -1 if the state is
        inconsistent (as :func:`.sampler.determinize`).
    """
    top = np.int64(-1)
    t = 0
    while True:
        if determinize(S, P, STR, seat, rng, out_S) < 0:
            return -1
        t += 1
        if tries <= 0:
            return 1
        top = reject_step(out_S, S, P, MS, prm, seat, rng, tries, t, top, best, R)
        if top < 0:
            return t if top == -1 else 0
