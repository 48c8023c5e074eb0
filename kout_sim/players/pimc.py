"""Perfect-information Monte Carlo (PIMC): sample the hidden hands, solve each sample double dummy.

At a card decision the seat draws ``samples`` deals from the exact determinization sampler (what this
seat knows: its hand, the cards played, every void shown, :mod:`.sampler`), solves each deal with
the double-dummy search of :mod:`kout_sim.engine.dd` after each of its legal cards, and plays the
card whose values summed over the samples are best for its team. The same sampled deals judge every
card (common random numbers). This is the method of the bridge and skat programs (Ginsberg's GIB;
Long et al. on Skat), with their known weakness: each sample is played as if everyone saw every
hand, so the player does not hide information nor gather it.

What a sample's value is (``objective``):

* 0, *towards the contract* (default): the team's tricks (Baloot: card points) capped at what
  makes the contract (the bidding team) or beats it (the defenders): tricks past that are worth
  nothing in the score (RULES.md 1.10, 2.10, 3.6.3);
* 1, *maximise*: the team's tricks (card points), uncapped;
* 2, *make or beat*: 1 if the team makes (beats) the contract in the sample, else 0 (one null-window
  search per card and sample, the cheapest).

Ties (equal sums; with ``objective`` 2 the common case late in a hand) go to the heuristic's card
when it is among the best, else to the lowest card: the search says the cards are equal, and the
heuristic's card play is a sound tie-break. Calls (bids, trump, Baloot buying and doubling) are the
heuristic's. A Bahraini forced joker lead (RULES.md 2.8) in a sample is worth ``-1`` to the team
whose player must lead it and ``N + 1`` to the other (``N`` tricks): worse or better than any
number of tricks, as in :mod:`kout_sim.solver`.

Parameters (slots of the seat's parameter row; slots 16.. hold the heuristic's row):
``samples``, ``objective``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine import dd as K
from ..engine._jit import copy_into, jit, jit_alloc, lowest_bit
from ..engine.baloot import _score as baloot_score
from ..engine.layout import (
    B_CARD_PTS,
    FAMILY_BALOOT,
    FAMILY_KOUT,
    JOKER_LADDER,
    JOKER_SINGLE,
    P_FAMILY,
    P_JOKER_MODEL,
    P_N_PLAYERS,
    P_N_TRICKS,
    PH_PLAY,
    S_BIDDER,
    S_HIGH_BID,
    S_MADE,
    S_N_DONE,
    S_N_IN_TRICK,
    S_PHASE,
    S_POINTS,
    S_SIZE,
    S_TO_ACT,
    S_TRICKS,
)
from .heuristic import choose_heuristic
from .kinds import Param
from .sampler import determinize

PIMC_PARAMS: tuple[Param, ...] = (
    Param("samples", 0, 20, 1, 10_000, "sampled deals solved double dummy per card decision"),
    Param(
        "objective",
        1,
        0,
        0,
        2,
        "0: tricks (Baloot: card points) towards making or beating the contract, "
        "1: tricks (card points), uncapped, 2: the chance of making or beating the contract",
    ),
)
ROLLOUT = 16  # first slot of the heuristic's parameter row (calls and ties)
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
def team_value(C: np.ndarray, total: int, mine: bool) -> int:
    """A bidding-team total (``total_of``) as the value of the seat's team (``mine``: the seat is
    on the bidding team): Kout sentinels -1 / N + 1 turn round with it."""
    if mine:
        return total
    if C[K.C_BALOOT] != 0:
        return C[K.C_TOTAL] - total
    return C[K.C_N_TRICKS] - total


def _make_pimc(family: int) -> Callable[..., int]:
    @jit_alloc
    def pimc(
        S: np.ndarray,
        P: np.ndarray,
        STR: np.ndarray,
        MS: np.ndarray,
        rng: np.ndarray,
        prm: np.ndarray,
        mask: int,
    ) -> int:
        """The card (a bit of ``mask``) PIMC chooses for the seat to act in ``S``; calls are the
        heuristic's (row ``prm[ROLLOUT:]``)."""
        heuristic = choose_heuristic(S, P, STR, MS, rng, prm[ROLLOUT:], mask, family)
        if S[S_PHASE] != PH_PLAY:
            return heuristic
        seat = S[S_TO_ACT]
        samples = max(1, int(prm[0]))
        objective = int(prm[1])
        W = np.zeros((K.W_ROWS, K.W_COLS), dtype=np.int64)
        tt_bits = TT_BITS_6 if P[P_N_PLAYERS] > 4 else TT_BITS_4
        tt = np.zeros((np.int64(1) << tt_bits, K.TT_COLS), dtype=np.int64)
        init_context(P, W, tt_bits)
        C = W[K.R_C]
        D = np.empty(S_SIZE, dtype=np.int64)
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
        for _ in range(samples):
            if determinize(S, P, STR, seat, rng, D) < 0:
                return heuristic
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
                    v = team_value(C, K.total_of(D, C, out[card]), mine)
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
PIMC = {FAMILY_KOUT: pimc_kout, FAMILY_BALOOT: pimc_baloot}
