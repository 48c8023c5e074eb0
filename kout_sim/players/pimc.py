"""Perfect-information Monte Carlo (PIMC): sample the hidden hands, solve each sample double dummy.

At a card decision the seat draws ``samples`` deals from the exact determinization sampler (what this
seat knows: its hand, the cards played, every void shown, :mod:`.sampler`), solves each deal with
the double-dummy search of :mod:`kout_sim.engine.dd` after each of its legal cards, and plays the
card whose values summed over the samples are best for its team. The same sampled deals judge every
card (common random numbers). This is the method of the bridge and skat programs (Ginsberg's GIB;
Long et al. on Skat), with their known weakness: each sample is played as if everyone saw every
hand, so the player does not hide information nor gather it.

What a sample's value is (``objective``):

* 0, *towards the contract*: the team's tricks (Baloot: card points) capped at what
  makes the contract (the bidding team) or beats it (the defenders): tricks past that are worth
  nothing in the score (RULES.md 1.10, 2.10, 3.6.3);
* 1, *maximise*: the team's tricks (card points), uncapped;
* 2, *make or beat* (default): 1 if the team makes (beats) the contract in the sample, else 0 (one
  null-window search per card and sample, the cheapest);
* 3, *points*: the hand's net points for the team (its points minus the other team's),
  the sample's value scored by the engine's own scoring. Kout scores a hand by made or failed only
  (RULES.md 1.10, 2.10), so in Kout this is objective 2 (same card, same cost); Baloot counts the
  card points of a made contract (3.6.2, 3.6.3), so there every card is solved exactly and scored:
  about eight times the cost of objective 2 (a 200-hand Baloot duel at 20 samples: hours).

Calls are the heuristic's, or with ``calls=1`` in Kout the sampled deals' par: the seat bids the
highest contract it makes double dummy as the bidder (over the trumps it may name, RULES.md 1.4 /
2.4) in at least a ``p_make`` share of the samples, and passes when that is below the lowest bid
it may make (the dealer who may not pass bids the lowest, 1.3 / 2.3); as the bidder it names the
trump that makes the contract in the most samples. The other seats' calls are read as
information about their hands only with ``auction=1`` (Kout: each sample agrees with the observed
calls, :mod:`.auction`); by default the samples are the sampler's, uniform over the unseen cards.
Baloot calls are the heuristic's.

Ties (equal sums; with ``objective`` 2 the common case late in a hand) go to the heuristic's card
when it is among the best, else to the lowest card: the search says the cards are equal, and the
heuristic's card play is a sound tie-break. A Bahraini forced joker lead (RULES.md 2.8) in a sample is worth ``-1`` to the team
whose player must lead it and ``N + 1`` to the other (``N`` tricks): worse or better than any
number of tricks, as in :mod:`kout_sim.solver`.

Parameters (slots of the seat's parameter row; slots 16.. hold the heuristic's row):
``samples``, ``objective``, ``calls``, ``p_make``; in Kout ``auction`` and ``auction_tries``
(determinizations that agree with the observed calls, :mod:`.auction`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine import dd as K
from ..engine._jit import copy_into, jit, jit_alloc, jit_leaf, lowest_bit
from ..engine.baloot.hand import _score as baloot_score
from ..engine.kout.hand import may_name_trump
from ..engine.layout import (
    B_CARD_PTS,
    FAMILY_BALOOT,
    FAMILY_KOUT,
    JOKER_LADDER,
    JOKER_SINGLE,
    P_BID_MAX,
    P_BID_MIN,
    P_FAMILY,
    P_JOKER_MODEL,
    P_N_PLAYERS,
    P_N_TRICKS,
    PASS,
    PH_AUCTION,
    PH_PLAY,
    S_BIDDER,
    S_DEALER,
    S_HAND,
    S_HIGH_BID,
    S_MADE,
    S_MATCH_WINNER,
    S_N_DONE,
    S_N_IN_TRICK,
    S_PHASE,
    S_POINTS,
    S_SIZE,
    S_TO_ACT,
    S_TRICKS,
    TRUMP,
)
from .auction import reject_step
from .heuristic import choose_heuristic
from .kinds import Param, auction_params
from .sampler import determinize
from .turn import Turn, with_row

PIMC_PARAMS: tuple[Param, ...] = (
    Param("samples", 0, 20, 1, 10_000, "sampled deals solved double dummy per card decision"),
    Param(
        "objective",
        1,
        2,
        0,
        3,
        "0: tricks (Baloot: card points) towards making or beating the contract, "
        "1: tricks (card points), uncapped, 2: the chance of making or beating the contract, "
        "3: the hand's net points (Kout: as 2, its points follow made or failed)",
    ),
    Param(
        "calls",
        2,
        0,
        0,
        1,
        "1 (Kout): bid and name trump from the sampled deals' par (RULES.md 1.3, 1.4 / 2.3, 2.4); "
        "0: the heuristic's calls",
    ),
    Param(
        "p_make",
        3,
        0.5,
        0.01,
        1,
        "with calls=1: bid the highest contract made double dummy in at least this share of the "
        "samples (else pass)",
    ),
)
PIMC_KOUT_PARAMS = (*PIMC_PARAMS, *auction_params(4, "sample", default=1))
"""Kout: the samples agree with the auction by default (``auction=1``): against ``ismcts`` in
kout_bo_4 it took PIMC from -0.02 (-0.18 .. 0.14) to +0.34 (0.18 .. 0.49) points a hand on the same
1,000 duplicate deals, +0.27 (0.11 .. 0.44) on 1,000 others, at about the same time a hand (README,
"Search players"). Baloot's buying auction is not replayed."""
ROLLOUT = 16  # first slot of the heuristic's parameter row (calls and ties)
CALLS = 2  # the slot of ``calls``
TT_BITS_4 = 16  # transposition table of a 4-seat decision: 2**16 entries (1.5 MB)
TT_BITS_6 = 18  # a 6-seat decision


@jit
def init_context(P: np.ndarray, W: np.ndarray, tt_bits: int) -> None:
    """The search context ``W[R_C]`` for the rules of ``P`` (as :class:`kout_sim.solver.Solver`
    sets it), with a table of ``2 ** tt_bits`` entries."""
    C = W[K.R_C]
    for i in range(K.C_SIZE):
        C[i] = 0
    baloot = P[P_FAMILY] == FAMILY_BALOOT
    C[K.C_BALOOT] = 1 if baloot else 0
    C[K.C_N] = P[P_N_PLAYERS]
    C[K.C_N_TRICKS] = P[P_N_TRICKS]
    C[K.C_FORCED] = 1 if (not baloot and P[P_JOKER_MODEL] == JOKER_SINGLE) else 0
    C[K.C_LADDER] = 1 if (not baloot and P[P_JOKER_MODEL] == JOKER_LADDER) else 0
    C[K.C_TT_MASK] = (np.int64(1) << tt_bits) - 1


@jit_alloc
def _workspace(P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The solver's workspace ``W`` and transposition table for one decision under ``P``."""
    W = np.zeros((K.W_ROWS, K.W_COLS), dtype=np.int64)
    tt_bits = TT_BITS_6 if P[P_N_PLAYERS] > 4 else TT_BITS_4
    tt = np.zeros((np.int64(1) << tt_bits, K.TT_COLS), dtype=np.int64)
    init_context(P, W, tt_bits)
    return W, tt


@jit
def baloot_threshold(S: np.ndarray, P: np.ndarray, total: int, T: np.ndarray) -> int:
    """The fewest card points with which the buyer's team makes the contract of ``S`` (RULES.md
    3.6.3 and the raised contracts of 3.3.3, the projects and Baloot as the engine counted them),
    read off the engine's own scoring of a finished hand (``T``: scratch state); ``total + 1``
    if none does."""
    buyer = S[S_BIDDER] & 1
    for p in range(total + 1):
        copy_into(T, S)
        T[B_CARD_PTS + buyer] = p
        T[B_CARD_PTS + 1 - buyer] = total - p
        T[S_TRICKS] = 4  # no kaboot (3.6.4): the card points decide
        T[S_TRICKS + 1] = 4
        T[S_POINTS] = 0
        T[S_POINTS + 1] = 0
        baloot_score(T, P)
        if T[S_MADE] == 1:
            return p
    return total + 1


@jit
def baloot_net(S: np.ndarray, P: np.ndarray, total: int, p: int, team: int, T: np.ndarray) -> int:
    """The net game points of ``team`` (its points minus the other team's) when the buyer's team
    ends the hand of ``S`` with ``p`` card points, by the engine's scoring (RULES.md 3.6; a kaboot,
    3.6.4, read as one team taking every card point; ``T``: scratch state)."""
    copy_into(T, S)
    buyer = S[S_BIDDER] & 1
    T[B_CARD_PTS + buyer] = p
    T[B_CARD_PTS + 1 - buyer] = total - p
    won = 8 if p == total else (0 if p == 0 else 4)
    T[S_TRICKS + buyer] = won
    T[S_TRICKS + 1 - buyer] = 8 - won
    T[S_POINTS] = 0
    T[S_POINTS + 1] = 0
    T[S_MATCH_WINNER] = -1
    baloot_score(T, P)
    if T[S_MATCH_WINNER] >= 0:  # a Gahwa decides the match (3.6.5): worth more than any hand
        return 1000 if T[S_MATCH_WINNER] == team else -1000
    return T[S_POINTS + team] - T[S_POINTS + 1 - team]


@jit
def team_value(C: np.ndarray, total: int, mine: bool) -> int:
    """A bidding-team total (``total_of``) as the value of the seat's team (``mine``: the seat is
    on the bidding team): Kout sentinels -1 / N + 1 turn round with it."""
    if mine:
        return total
    if C[K.C_BALOOT] != 0:
        return C[K.C_TOTAL] - total
    return C[K.C_N_TRICKS] - total


@jit_leaf
def par_counts(
    P: np.ndarray,
    STR: np.ndarray,
    W: np.ndarray,
    tt: np.ndarray,
    D: np.ndarray,
    F: np.ndarray,
    x: np.ndarray,
    seat: int,
    floor: int,
    counts: np.ndarray,
) -> None:
    """Add to ``counts[trump, c]`` the sampled deal ``D`` if ``seat``, bidding, makes contract
    ``c >= floor`` with ``trump`` double dummy (``F``, ``x``: scratch state and solver row)."""
    C = W[K.R_C]
    for i in range(K.X_SIZE):
        x[i] = 0
    x[K.X_DEALER] = D[S_DEALER]
    x[K.X_BIDDER] = seat
    x[K.X_CONTRACT] = floor
    for s in range(P[P_N_PLAYERS]):
        x[K.X_HAND + s] = D[S_HAND + s]
    K.first_lead(F, P, C, x)
    for t in range(4):
        if not may_name_trump(P, D[S_HAND + seat], t):
            continue
        best = K.best_contract(F, P, STR, W, tt, t, floor, K.NO_CLASS, K.NO_CLASS)
        for c in range(floor, best + 1):
            counts[t, c] += 1


def _make_pimc(family: int) -> Callable[..., int]:
    @jit_alloc
    def pimc(S: np.ndarray, turn: Turn, mask: int) -> int:
        """The card (a bit of ``mask``) PIMC plays for the seat to act in ``S``; at a call, the
        heuristic's call (row ``prm[ROLLOUT:]``). The ``calls=1`` bids are :func:`par_kout`'s:
        the drivers call that kernel for them (:func:`kout_sim.players.policy.choose`), and
        :data:`PIMC` picks it from Python.

        The turn's node pool (ISMCTS's) is not used."""
        P, STR, MS, rng, prm = turn.P, turn.STR, turn.MS, turn.rng, turn.prm
        heuristic = choose_heuristic(S, with_row(turn, prm[ROLLOUT:]), mask, family)
        if S[S_PHASE] != PH_PLAY:
            return heuristic
        seat = S[S_TO_ACT]
        samples = max(1, int(prm[0]))
        objective = int(prm[1])
        if objective == 3 and family != FAMILY_BALOOT:
            objective = 2  # Kout's points follow made or failed (RULES.md 1.10, 2.10)
        W, tt = _workspace(P)
        C = W[K.R_C]
        D = np.empty(S_SIZE, dtype=np.int64)
        T = np.empty(S_SIZE, dtype=np.int64)
        out = np.zeros(64, dtype=np.int64)
        sums = np.zeros(64, dtype=np.int64)
        K.begin(S, P, STR, W)  # C_TEAM and C_TOTAL: the contract is public
        mine = (seat & 1) == C[K.C_TEAM]
        if family == FAMILY_BALOOT:
            n_all = C[K.C_TOTAL]
            target = baloot_threshold(S, P, n_all, D)
        else:
            n_all = C[K.C_N_TRICKS]
            target = S[S_HIGH_BID]
        # what the seat's team needs: the bidding team the target, the defenders one more than
        # the bidding team may take without making it
        need_mine = target if mine else n_all - target + 1
        taken_field = (B_CARD_PTS if family == FAMILY_BALOOT else S_TRICKS) + C[K.C_TEAM]
        d = S[S_N_DONE] * C[K.C_N] + S[S_N_IN_TRICK]
        tries = max(1, int(prm[5])) if prm[4] != 0 else 0  # 0: the exact sampler alone
        R = np.empty(S_SIZE, dtype=np.int64)  # scratch of the auction-aware sampler
        for _ in range(samples):
            t = 0
            top = np.int64(-1)
            while True:  # with auction=1 (Kout): rejection against the calls (.auction)
                if determinize(S, P, STR, seat, rng, D) < 0:
                    return heuristic
                t += 1
                if family == FAMILY_BALOOT:  # pruned: no auction replay in Baloot
                    break
                if tries == 0:
                    break
                top = reject_step(D, S, P, MS, prm[ROLLOUT:], seat, rng, tries, t, top, T, R)
                if top < 0:
                    break
            K.begin(D, P, STR, W)
            if objective == 2:
                m = mask
                while m != 0:
                    card = lowest_bit(m)
                    m &= m - 1
                    taken = D[taken_field]
                    K.save(D, W, d)
                    gain = K.play(D, P, STR, C, card)
                    need = target - taken - gain  # the bidding team's future need
                    g = K.search(D, P, STR, W, tt, need - 1, need)
                    K.unplay(D, W, d, seat, card)
                    made = g >= need
                    sums[card] += 1 if made == mine else 0
            else:
                K.card_values(D, P, STR, W, tt, out)
                m = mask
                while m != 0:
                    card = lowest_bit(m)
                    m &= m - 1
                    total = K.total_of(D, C, out[card])
                    if family == FAMILY_BALOOT and objective == 3:  # the family first: pruned
                        sums[card] += baloot_net(D, P, n_all, total, seat & 1, T)
                        continue
                    v = team_value(C, total, mine)
                    if objective == 0 and v > need_mine:
                        v = need_mine
                    sums[card] += v
        best = -1
        m = mask
        while m != 0:
            card = lowest_bit(m)
            m &= m - 1
            if best < 0 or sums[card] > sums[best]:
                best = card
        if (mask >> heuristic) & 1 and sums[heuristic] == sums[best]:
            return heuristic
        return best

    return pimc


pimc_kout = _make_pimc(FAMILY_KOUT)
pimc_baloot = _make_pimc(FAMILY_BALOOT)


@jit_alloc
def par_kout(S: np.ndarray, turn: Turn, mask: int) -> int:
    """A Kout PIMC seat's call with ``calls=1``: from the par of ``samples`` sampled deals (module
    notes), a bid, a pass or the trump; the heuristic's call (drawn first, as the card kernel
    draws it) where the par says nothing. A kernel of its own, so that the card kernel and the
    drivers of line-ups without ``calls=1`` do not compile the par search. The turn's node pool is
    not used."""
    P, STR, MS, rng, prm = turn.P, turn.STR, turn.MS, turn.rng, turn.prm
    heuristic = choose_heuristic(S, with_row(turn, prm[ROLLOUT:]), mask, FAMILY_KOUT)
    seat = S[S_TO_ACT]
    auction = S[S_PHASE] == PH_AUCTION
    floor = max(S[S_HIGH_BID] + 1, P[P_BID_MIN]) if auction else S[S_HIGH_BID]
    if floor > P[P_BID_MAX]:
        return heuristic  # nothing left to bid: before the solver's workspace is allocated
    W, tt = _workspace(P)
    D = np.empty(S_SIZE, dtype=np.int64)
    F = np.empty(S_SIZE, dtype=np.int64)
    samples = max(1, int(prm[0]))
    counts = np.zeros((4, 64), dtype=np.int64)
    x = np.zeros(K.X_SIZE, dtype=np.int64)
    tries = max(1, int(prm[5])) if prm[4] != 0 else 0  # the auction so far; 0: exact sampler
    R = np.empty(D.shape[0], dtype=np.int64)
    for _ in range(samples):
        t = 0
        top = np.int64(-1)
        while True:  # with auction=1: rejection against the calls so far (.auction)
            if determinize(S, P, STR, seat, rng, D) < 0:
                return heuristic
            t += 1
            if tries == 0:
                break
            top = reject_step(D, S, P, MS, prm[ROLLOUT:], seat, rng, tries, t, top, F, R)
            if top < 0:
                break
        par_counts(P, STR, W, tt, D, F, x, seat, floor, counts)
    if not auction:  # the trump that makes the contract in the most samples
        best = -1
        for t in range(4):
            if (mask >> (TRUMP + t)) & 1 and (best < 0 or counts[t, floor] > counts[best, floor]):
                best = t
        h = heuristic - TRUMP
        if 0 <= h < 4 and (mask >> heuristic) & 1 and counts[h, floor] == counts[best, floor]:
            return heuristic
        return TRUMP + best
    need = prm[3] * samples
    bid = 0
    for c in range(floor, P[P_BID_MAX] + 1):
        for t in range(4):
            if counts[t, c] > 0 and counts[t, c] >= need:
                bid = c
    if bid > 0 and (mask >> bid) & 1:
        return bid
    if (mask >> PASS) & 1:
        return PASS
    return lowest_bit(mask)  # 1.3 / 2.3: the dealer may not pass: the lowest bid


def _decision(family: int) -> Callable[..., int]:
    card = pimc_baloot if family == FAMILY_BALOOT else pimc_kout

    def decide(S: np.ndarray, turn: Turn, mask: int) -> int:
        """PIMC's decision for the seat to act in ``S``, called from Python: the par call of
        ``calls=1`` at a Kout call, else the card kernel (as the drivers choose)."""
        if family == FAMILY_KOUT and S[S_PHASE] != PH_PLAY and turn.prm[CALLS] != 0:
            return int(par_kout(S, turn, mask))
        return int(card(S, turn, mask))

    return decide


PIMC = {FAMILY_KOUT: _decision(FAMILY_KOUT), FAMILY_BALOOT: _decision(FAMILY_BALOOT)}
"""PIMC's decision per family, called from Python (tests, the bench): the kernel the drivers
call for it."""
