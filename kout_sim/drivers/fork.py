"""Counterfactual forks: play a position on twice, with two different first actions and the same
random numbers for everything after.

:func:`kout_sim.drivers.playout.play_out` is the engine's entry point for one such play (from
Python: :func:`kout_sim.sim.fork.play_on`): from any position ``S``, apply a forced first action for
the seat to act, then let the line-up play the hand to its end, drawing from the random state it is
given. Two calls from copies of one position and one random state differ only by their first action
(common random numbers), so the difference of their results measures that action alone.

:func:`fork_hands` plays independent hands (the deals and the hand's own play are those of
:func:`kout_sim.drivers.play.play_hands` with the same seed) and, at every decision where the seat to
act may play a joker and may also play a non-joker card, forks the position:

* branch 0 plays the joker (the strongest joker the seat may play: ``RJ`` before ``BJ``);
* branch 1 plays the card the seat's own policy picks among its legal non-joker cards.

Both branches then play on from the same state of the fork's own random stream, keyed by
``(seed, hand index, LANE_FORK + fork number)``; the hand itself continues on its play lane as if
nothing had been forked. With ``mode`` :data:`MODE_JOKER_LEAD` only decisions that lead a trick are
forked (a Kout Bo joker lead, RULES.md 1.6); with :data:`MODE_JOKER_ANY` every joker play (shedding
the Bahraini joker before RULES.md 2.8 forces it).

Bid forks (``mode`` :data:`MODE_BID_FIRST` or :data:`MODE_BID_EVERY`) use the same loop and the
same call of the play loop (one call site for every play of a decision, docs/compile.md rule 9): at the first auction decision of a hand where the seat to act has more than one
legal call (or at each such decision), the position is played on once per legal call (every bid
level and the pass; the rest of the auction, the trump choice and the play by the line-up). Every
branch starts from the state of the hand's own play lane *after* the policy drew its choice at that
decision, so the branch of the call the policy made is the hand itself, and the branches differ only
by the forced call (common random numbers). Each branch is one record (:data:`G_CALL` ...).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine._jit import (
    copy_into,
    highest_bit,
    jit_entry,
    jit_leaf,
    lowest_bit,
    popcount,
)
from ..engine.game import apply_observed, legal_mask
from ..engine.layout import (
    CALL,
    FAMILY_BALOOT,
    FAMILY_KOUT,
    M_SCORE,
    P_DECK,
    P_FAMILY,
    P_JOKER_MASK,
    P_SUIT_MASK,
    PH_AUCTION,
    PH_OVER,
    PH_PLAY,
    S_BIDDER,
    S_DEALER,
    S_FORCED_JOKER,
    S_HAND,
    S_HIGH_BID,
    S_MADE,
    S_MATCH_WINNER,
    S_N_ACTIONS,
    S_N_DONE,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_POINTS,
    S_SIZE,
    S_TO_ACT,
    S_TRICK,
    S_TRICKS,
    S_TRUMP,
)
from ..engine.rng import seed_stream
from ..players.kinds import NO_SEARCH
from .loop import (
    ALL,
    NO_SEARCHES,
    Context,
    Setup,
    context,
    deal_alone,
    new_lanes,
    play_hand,
    scratch_row,
)

LANE_FORK = 2
"""Lane of fork ``k`` of a hand: ``LANE_FORK + k`` (lanes 0 and 1 are the deal and the play)."""

MAX_FORKS = 18
"""Room for the forks of one hand: a Kout hand has at most 9 tricks and two joker holders, so the
limit is never reached."""

# ---- one fork record (int64) -------------------------------------------------------------------------
F_HAND = 0  # stream index of the hand
F_DEALER = 1
F_TRICK = 2  # completed tricks before the decision (0: the first trick)
F_SEAT = 3  # seat to act
F_LEADING = 4  # 1: the seat leads the trick
F_BIDDER = 5
F_CONTRACT = 6
F_TRUMP = 7
F_TRUMPS_OUT = 8  # trumps neither played nor in the seat's hand
F_TRUMPS_HELD = 9  # trumps in the seat's hand
F_JOKERS_HELD = 10
F_JOKER = 11  # card of branch 0
F_OTHER = 12  # card of branch 1: the policy's choice among the legal non-joker cards
F_CHOSEN = 13  # card the policy played in the hand itself
F_TEAM_TRICKS = 14  # tricks of the seat's team before the decision
F_PLY = 15  # decisions of the hand before this one (calls included)
F_MADE = 16  # 2 entries (branch 0, branch 1): the bidding team made its contract (-1 forced joker)
F_NET = 18  # 2 entries: points banked by the seat's team minus the other team's
F_TRICKS = 20  # 2 entries: tricks of the seat's team at the end
F_FORCED = 22  # 2 entries: a forced joker lead ended the hand (RULES.md 2.8)
F_MATCH_WINNER = 24  # 2 entries: team that wins the match by the hand alone (-1 none)
F_ILLEGAL = 26  # 1: a policy chose an illegal action in a branch
# the hand itself, played on by the policies from the fork (the player's own choice):
F_ACTUAL_MADE = 28
F_ACTUAL_NET = 29
F_ACTUAL_TRICKS = 30
F_ACTUAL_FORCED = 31
F_SIZE = 32

# ---- one bid fork record: one branch (same int64[F_SIZE] rows; F_HAND, F_DEALER, F_SEAT, F_PLY,
# F_ILLEGAL and F_ACTUAL_* as above; the branch outcome in the first entry of F_MADE .. F_MATCH_WINNER)
G_DECISION = 2  # bid decisions of the hand forked before this one (0: the first forked)
G_HIGH_BID = 4  # standing bid before the decision (0: none)
G_CALL = 5  # the branch's call (phase-relative call index: 0 pass, b a bid of b, Baloot BC_*)
G_CHOSEN = 6  # the call the policy made in the hand itself
G_N_LEGAL = 7  # legal calls at the decision (the branches of the fork)
G_SEAT_HAND = 8  # the seat's cards (bitmask) at the decision
G_BIDDER = 9  # the branch's final bidder (-1: none)
G_CONTRACT = 10  # the branch's contract
G_TRUMP = 11  # the branch's trump suit S_TRUMP (0..3; any other value: none, e.g. Baloot Sun)
G_SCORE_BEFORE = 12  # the seat team's match score before the hand (0 in independent hands)
G_RNG = (13, 14, 17, 19)  # the branches' random state at the fork (uint64[4] as int64 bits)

MODE_JOKER_ANY = 0
"""Fork every joker play."""
MODE_JOKER_LEAD = 1
"""Fork joker leads only."""
MODE_BID_FIRST = 2
"""Fork the first free bid decision of each hand (more than one legal call)."""
MODE_BID_EVERY = 3
"""Fork every free bid decision."""

MAX_BID_FORKS = 64
"""Room for the bid fork records (branches) of one hand with :data:`MODE_BID_EVERY`: a Kout
auction has at most six decisions of at most six calls, a Baloot auction at most a dozen free
decisions of at most five calls; a hand that would overflow it is refused (count -2)."""
MAX_FIRST_BID_FORKS = 16
"""Room for the branches of one hand with :data:`MODE_BID_FIRST`."""


@jit_leaf
def _describe(S: np.ndarray, P: np.ndarray, rec: np.ndarray) -> None:
    """Describe the joker fork position ``S`` in ``rec``."""
    seat = S[S_TO_ACT]
    jokers = P[P_JOKER_MASK]
    hand = S[S_HAND + seat]
    trump = S[S_TRUMP]
    trumps = P[P_SUIT_MASK + trump] if 0 <= trump < 4 else np.int64(0)
    on_table = np.int64(0)
    for j in range(S[S_N_IN_TRICK]):
        on_table |= np.int64(1) << S[S_TRICK + j]
    rec[F_DEALER] = S[S_DEALER]
    rec[F_TRICK] = S[S_N_DONE]
    rec[F_SEAT] = seat
    rec[F_LEADING] = 1 if S[S_N_IN_TRICK] == 0 else 0
    rec[F_BIDDER] = S[S_BIDDER]
    rec[F_CONTRACT] = S[S_HIGH_BID]
    rec[F_TRUMP] = trump
    rec[F_TRUMPS_OUT] = popcount(P[P_DECK] & trumps & ~S[S_PLAYED] & ~on_table & ~hand)
    rec[F_TRUMPS_HELD] = popcount(hand & trumps)
    rec[F_JOKERS_HELD] = popcount(hand & jokers)
    rec[F_TEAM_TRICKS] = S[S_TRICKS + seat % 2]
    rec[F_PLY] = S[S_N_ACTIONS]


@jit_leaf
def _describe_bid(
    S: np.ndarray, MS: np.ndarray, rec: np.ndarray, decision: int, chosen: int, n: int
) -> None:
    """Describe the bid fork position ``S`` in the record ``rec`` of one branch."""
    seat = S[S_TO_ACT]
    rec[F_DEALER] = S[S_DEALER]
    rec[F_SEAT] = seat
    rec[F_PLY] = S[S_N_ACTIONS]
    rec[G_DECISION] = decision
    rec[G_HIGH_BID] = S[S_HIGH_BID]
    rec[G_CHOSEN] = chosen
    rec[G_N_LEGAL] = n
    rec[G_SEAT_HAND] = S[S_HAND + seat]
    rec[G_SCORE_BEFORE] = MS[M_SCORE + seat % 2]


@jit_leaf
def _outcome(B: np.ndarray, rec: np.ndarray, b: int, team: int) -> None:
    """The result of the finished branch ``B`` for the seat's ``team``, in entry ``b``."""
    rec[F_MADE + b] = B[S_MADE]
    rec[F_NET + b] = B[S_POINTS + team] - B[S_POINTS + 1 - team]
    rec[F_TRICKS + b] = B[S_TRICKS + team]
    rec[F_FORCED + b] = B[S_FORCED_JOKER]
    rec[F_MATCH_WINNER + b] = B[S_MATCH_WINNER]


@jit_leaf
def _fork_block(
    ctx: Context,
    seed: int,
    first: int,
    out: np.ndarray,
    counts: np.ndarray,
    mode: int,
    lo: int,
    hi: int,
    family: int,
) -> None:
    P = ctx.P
    jokers = P[P_JOKER_MASK]
    bids = mode >= MODE_BID_FIRST
    w = new_lanes(P)
    S, MS = w.S, w.MS
    # a branch, or the copy on which the policy's other card of a joker fork is drawn
    B = np.empty(S_SIZE, dtype=np.int64)
    B0 = np.empty(S_SIZE, dtype=np.int64)  # the position of the decision, before its action
    fork_rng = np.empty(4, dtype=np.uint64)
    branch_rng = np.empty(4, dtype=np.uint64)
    row = scratch_row()
    firsts = np.empty(64, dtype=np.int64)  # the first action of each branch
    step = np.empty(1, dtype=np.int64)  # the action of a one-decision play
    for i in range(lo, hi):
        # the deal and the hand's own play are exactly those of play_hands (same keyed lanes)
        deal_alone(w, ctx, seed, first + i, family)
        k = 0  # records written
        n_bid = 0  # bid decisions forked
        while S[S_PHASE] != PH_OVER:
            mask = legal_mask(S, P, ctx.STR, family)
            n = 0
            other_job = 0  # 1: first draw the policy's card among the non-jokers (a joker fork)
            others = np.int64(0)
            if bids:
                if (
                    S[S_PHASE] == PH_AUCTION
                    and popcount(mask) > 1
                    and (mode == MODE_BID_EVERY or n_bid == 0)
                ):
                    if k + popcount(mask) > out.shape[1]:
                        k = -2
                        break
                    rest = mask
                    while rest != 0:
                        firsts[n] = lowest_bit(rest)
                        rest &= rest - 1
                        n += 1
            elif (
                S[S_PHASE] == PH_PLAY
                and k < out.shape[1]
                and (mask & jokers) != 0
                and (mask & ~jokers) != 0
                and (mode == MODE_JOKER_ANY or S[S_N_IN_TRICK] == 0)
            ):
                rec = out[i, k]
                rec[F_HAND] = first + i
                _describe(S, P, rec)
                rec[F_ILLEGAL] = 0
                seed_stream(fork_rng, seed, first + i, LANE_FORK + k)
                others = mask & ~jokers
                other_job = 1
            # One call site of the play loop for every play of a decision (compile time: each
            # call site emits the whole engine and the policies again, docs/compile.md): job 0 of
            # a joker fork draws the policy's card among the non-jokers on a copy (the fork's own
            # stream), the next job is the hand's own decision (its play lane), then the branches,
            # each from the position before that decision with its forced first action.
            action = np.int64(-1)
            seat = S[S_TO_ACT]
            is_call = S[S_PHASE] != PH_PLAY
            skip = False  # the policy's other card was illegal: no branches
            for j in range(other_job + 1 + (2 if other_job else n)):
                b = j - other_job - 1  # the branch of this job (< 0: not a branch)
                if skip and b >= 0:
                    break
                X = B
                lane = branch_rng
                allowed = ALL
                limit = np.int64(-1)
                if j < other_job:
                    copy_into(B, S)
                    copy_into(branch_rng, fork_rng)
                    allowed = others
                    limit = np.int64(1)
                elif b < 0:
                    copy_into(B0, S)
                    X = S
                    lane = w.play
                    limit = np.int64(1)
                else:
                    if bids and b == 0:
                        # common random numbers: every branch draws the hand's own play lane as
                        # it stands after the policy's choice, so the branch of that choice is
                        # the hand itself
                        copy_into(fork_rng, w.play)
                    copy_into(B, B0)
                    copy_into(branch_rng, fork_rng)  # every branch draws the same stream
                    apply_observed(B, P, ctx.STR, firsts[b], family)
                t = play_hand(
                    X,
                    MS,
                    lane,
                    ctx,
                    row,
                    step,
                    w.no_trace,
                    w.no_packed,
                    limit,
                    allowed,
                    NO_SEARCH,
                    family,
                )
                if j < other_job:
                    if t != 1:
                        out[i, k, F_ILLEGAL] = 1
                        k += 1
                        skip = True  # the hand goes on without branches (n stays 0)
                        continue
                    firsts[0] = highest_bit(mask & jokers)
                    firsts[1] = step[0]
                    out[i, k, F_JOKER] = firsts[0]
                    out[i, k, F_OTHER] = step[0]
                    n = 2
                elif b < 0:
                    if t != 1:
                        break
                    action = step[0] - CALL if is_call else step[0]
                else:
                    rec = out[i, k + b] if bids else out[i, k]
                    if bids:
                        rec[F_HAND] = first + i
                        _describe_bid(B0, MS, rec, n_bid, action, n)
                        rec[G_CALL] = firsts[b]
                        rec[G_BIDDER] = B[S_BIDDER]
                        rec[G_CONTRACT] = B[S_HIGH_BID]
                        rec[G_TRUMP] = B[S_TRUMP]
                        for r in range(4):
                            rec[G_RNG[r]] = np.int64(fork_rng[r])
                        rec[F_ILLEGAL] = 0
                    if t < 0:
                        rec[F_ILLEGAL] = 1
                    _outcome(B, rec, 0 if bids else b, seat % 2)
            if action < 0:
                k = -1
                break
            if n > 0:
                if bids:
                    k += n
                    n_bid += 1
                else:
                    out[i, k, F_CHOSEN] = action
                    k += 1
        for r in range(max(k, 0)):
            team = out[i, r, F_SEAT] % 2
            out[i, r, F_ACTUAL_MADE] = S[S_MADE]
            out[i, r, F_ACTUAL_NET] = S[S_POINTS + team] - S[S_POINTS + 1 - team]
            out[i, r, F_ACTUAL_TRICKS] = S[S_TRICKS + team]
            out[i, r, F_ACTUAL_FORCED] = S[S_FORCED_JOKER]
        counts[i] = k


def _make_entry(family: int) -> Callable[..., None]:
    """The fork driver with ``family`` frozen in (see
    ``play._family_kernels``); only the Kout family has jokers (Baloot forks its calls only)."""

    @jit_entry
    def forks_entry(
        P: np.ndarray,
        STR: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        seed: int,
        first: int,
        out: np.ndarray,
        counts: np.ndarray,
        mode: int,
    ) -> None:
        # a plain entry point, not parallel=True: its callers split the hands over a thread pool
        # (the GIL is released), and numba's parfor passes cost 60-70 s of compile here
        ctx = context(P, STR, kinds, params, NO_SEARCHES)
        _fork_block(ctx, seed, first, out, counts, mode, 0, out.shape[0], family)

    return forks_entry


_FORKS = _make_entry(FAMILY_KOUT)
_BALOOT_FORKS = _make_entry(FAMILY_BALOOT)  # compiled on its first call only


def fork_hands(
    setup: Setup, seed: int, first: int, out: np.ndarray, counts: np.ndarray, mode: int
) -> None:
    """Fork the joker plays (``mode`` :data:`MODE_JOKER_ANY` or :data:`MODE_JOKER_LEAD`) or the
    bid decisions (:data:`MODE_BID_FIRST`, :data:`MODE_BID_EVERY`) of ``len(out)`` independent
    hands (see the module docstring).

    ``out`` is int64[n_hands, room, F_SIZE] (room: :data:`MAX_FORKS` joker forks, or
    :data:`MAX_FIRST_BID_FORKS` / :data:`MAX_BID_FORKS` bid branches); ``counts`` (int64[n_hands])
    receives the number of records of each hand, -1 if a policy chose an illegal action in the hand
    itself, -2 if the bid branches of a hand overflow the room. Joker forks need a Kout preset. The
    kernel releases the GIL (callers run chunks on threads); records never depend on the split.
    """
    if int(setup.P[P_FAMILY]) == FAMILY_BALOOT:
        if mode < MODE_BID_FIRST:
            raise ValueError("joker forks need a Kout preset")
        _BALOOT_FORKS(*setup, seed, first, out, counts, mode)
    else:
        _FORKS(*setup, seed, first, out, counts, mode)
