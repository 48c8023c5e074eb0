"""Double-dummy search kernels: alpha-beta over card plays, a transposition table at trick starts.

A position is the engine's own hand state ``S`` (:mod:`kout_sim.engine.layout`) in the play phase,
read with the engine's own legality kernels (``kout.hand.legal_cards``, ``baloot.hand.legal_cards``)
and trick winner (:func:`kout_sim.engine.trick.trick_winner_idx`), so the solver plays by exactly the rules the simulator plays by.
Cards are applied and taken back here (a play changes a dozen fields; the engine's ``apply_card``
also scores, stops early and traces what the search must not).

The value of a position is the *future* gain of the bidding team (the buyer in Baloot): tricks
(Kout) or card points with the last trick's 10 (Baloot, RULES.md 3.6.1) taken from the position to
the end of the hand. Every trick is played (the early stop of RULES.md 1.11 / 2.9 does not end the
search). A Bahraini forced joker lead (2.8) while the outcome is still open ends the line with the
sentinel ``-SENT`` (the bidding team's holder loses the match) or ``+SENT`` (a defender's); once the
outcome is fixed (2.9 comes first) a lone joker is led like any card and wins (2.7).

Searches are fail-soft alpha-beta: ``search(lo, hi)`` returns ``g`` with ``g <= lo`` an upper bound,
``g >= hi`` a lower bound, anything between exact. Null windows (``hi = lo + 1``) answer "at least
``hi``?" and :func:`value` bisects with them (MTD-style). Table entries are valid for one
generation (``C[C_GEN]``): a new deal or contract is a new generation, never a cleared table.

Size: one module on purpose. The search, its bounds, its move ordering and its transposition table
are one numba kernel tree that calls itself; split across files, numba's per-file cache keys and
the cross-file inlining would cost compile time and hide the invariants the table relies on.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from ._jit import (
    _NO_NRT,
    data_pointer,
    highest_bit,
    jit,
    lowest_bit,
    popcount,
    readonly,
    rows_at,
)
from .baloot import hand as B
from .kout import hand as K
from .layout import (
    B_CARD_PTS,
    B_CLOSED,
    B_MODE,
    JOKER_LADDER,
    MODE_HOKUM,
    MODE_SUN,
    P_BID_MAX,
    P_BID_MIN,
    P_BJ_LEAD_BID,
    P_DECK,
    P_FIRST_LEAD,
    P_FREE_JOKER_HONOURS,
    P_JOKER_MASK,
    P_JOKER_MODEL,
    P_RJ_LEAD_BID,
    P_SUIT_MASK,
    PH_PLAY,
    S_BIDDER,
    S_DEALER,
    S_HAND,
    S_HIGH_BID,
    S_LEADER,
    S_LED,
    S_MADE,
    S_MATCH_WINNER,
    S_N_CALLS,
    S_N_DONE,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_RANKLESS,
    S_TO_ACT,
    S_TRICK,
    S_TRICKS,
    S_TRUMP,
    S_TRUMP_LEAD,
    T_COLS,
    T_LED,
    T_NO_TRUMP,
    T_POINTS,
    T_ROWS,
)
from .trick import trick_winner_idx

ONE = np.int64(1)
BJ_BIT = ONE << 52
RJ_BIT = ONE << 53
SENT = 64
"""Magnitude of the forced-joker sentinel (more than any trick count)."""
GREEDY = -(1 << 40)
"""The ``guess`` of :func:`probe` that asks it to start from the greedy line's value."""
WIDE = 1 << 20
"""Beyond every value (tricks, card points, the 2.8 sentinels): ``(-WIDE, WIDE)`` is no window."""
SEATS = 6
"""The hands ``S`` holds, the most seats of any preset. The kernels' loops over the hands run to
this constant whatever the preset, so LLVM unrolls them (measured against loops to the context's
seat count: 1.06-1.18x a solve, docs/solver.md). The hands past a preset's seats are empty: the
engine never deals them, and :func:`search` empties them in the searched copy."""

# ---- the search context C (int64) ---------------------------------------------------------------
C_BALOOT = 0  # 1: Baloot (card points), 0: Kout (tricks)
C_N = 1  # seats
C_N_TRICKS = 2
C_TEAM = 3  # the bidding (buying) team
C_FORCED = 4  # 1: the Bahraini forced joker lead applies (RULES.md 2.8)
C_LADDER = 5  # 1: Kout Bo jokers (RULES.md 1.1, 1.6): honours and BJ part the trump suit
C_TOTAL = 6  # Baloot: card points of a hand, the last trick's 10 included
C_GEN = 7  # transposition-table generation of the current search
C_NODES = 8  # nodes visited (statistics)
C_TT_MASK = 9  # table size - 1 (a power of two)
C_ABSOLUTE = 10  # 1: key the table on the cards themselves in Kout too (tests of the reduction)
C_STARTS = 11  # trick starts searched (statistics)
C_CUT_BOUND = 12  # trick starts ended by a bound (statistics)
C_CUT_TT = 13  # trick starts ended by a table entry (statistics)
C_PROBES = 14  # null-window searches of value (statistics)
C_REL = 16  # 6 entries: scratch, the relative-rank hands of a trick start
C_REL_OUT = 24  # the cards the value the last search call returned depends on (winning ranks)
C_QREL = 25  # the cards the trick-start bounds of the last start_bounds call rest on
C_WCARD = 26  # the winning card of the last trick play closed if it beat one of its suit, else 64
C_PLANES = 27  # 3 entries: the holders of the relative ranks as bit planes (bit j of the seat)
C_LENS = 30  # each suit's cards still held (4 bits a suit)
C_ABOVE = 32  # 2 entries: the trumps stronger than BJ (52) and than RJ / JK (53), set by begin
C_GREEDY = 34  # 1: the search plays the greedy line (the first move at each node, no table)
C_SIZE = 35

TT_COLS = 2  # the key (of the position and its relevant ranks' holders), the packed entry
TT_WAYS = 8  # entries per bucket (consecutive rows, one cache line): several relevant sets
FULL_SUIT = (ONE << 13) - 1
# ---- the workspace W (int64[W_ROWS, W_COLS]): everything a search writes, one array -----------------
# Rows 0..55: one per card played from the start of the hand (depth d): columns 0..15 the moves of
# the node, U_BASE.. the fields saved before its play, W_KILLER the last cut-off card (+1).
# Row R_S: the searched state; row R_C: the context C; rows R_Q..R_Q+3: the order table Q;
# row R_IN: a batch's state at the first lead; rows R_P, R_STR..: the rule tables, so that the
# recursive search passes two array descriptors, not four.
R_S = 56
R_C = 57
R_Q = 58
R_IN = 62  # a batch's input state
R_P = 63  # the rule parameters P (copied by begin)
R_STR = 64  # T_ROWS rows: the card tables STR (copied by begin)
Q_COLS = 13
W_ROWS = R_STR + T_ROWS
W_COLS = T_COLS
W_KILLER = 63
_OFF = 512  # bounds are stored offset into 10 bits

make_jit = numba.njit(cache=True, nogil=True, **_NO_NRT)
"""The recursive search cannot be inlined: compiled as a function of its own."""

jit_layer = numba.njit(cache=True, nogil=True, inline="always", **_NO_NRT)
"""The thin layers between the entry points and :func:`_search` (:func:`search`, :func:`probe`,
:func:`value`, :func:`card_values`, :func:`best_contract`, :func:`_kout_par`): inlined into their
callers at numba IR level, so that none is compiled as a function of its own unless Python calls
it. Each function compiled on its own links the machine code of ``_search`` (7,500 lines of
assembly) and emits it again: about 2 s of compile a layer (docs/compile.md). Never for the
kernels below ``_search``: numba re-types an inlined tree in its caller, and inlining those
tripled the solver's compile."""


@jit
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def _relative(S: np.ndarray, P: np.ndarray, C: np.ndarray, W: np.ndarray, held: np.int64) -> None:
    """Each seat's cards with each suit's ranks renumbered among the cards still held (Kout), into
    ``W[R_C, C_REL + seat]``.

    In Kout the future of a trick start depends on the order of the cards left, not on which low
    cards fell before (RULES.md 1.1, 2.7); keying the table on relative ranks lets positions that
    differ only by those share one entry (a double-dummy solver's classic reduction).
    """
    jokers = P[P_JOKER_MASK]
    for s in range(SEATS):
        hand = S[S_HAND + s]
        rel = hand & jokers
        m = hand & ~jokers
        while m != 0:
            card = lowest_bit(m)
            m &= m - 1
            suit = card // 13
            # its rank among the cards of its suit still held (the suit's cards below it held)
            rel |= ONE << (suit * 13 + popcount(held & P[P_SUIT_MASK + suit] & ((ONE << card) - 1)))
        W[R_C, C_REL + s] = rel


@jit
def _keys(
    S: np.ndarray, P: np.ndarray, C: np.ndarray, W: np.ndarray, held: np.int64
) -> tuple[np.uint64, np.uint64]:
    """Two independent 64-bit hashes of a trick-start position's bucket (module doc of
    :func:`_search`); in Kout who holds each relative rank into ``C[C_PLANES:]`` and ``C[C_LENS]``."""
    # Baloot card points depend on the cards themselves; C_ABSOLUTE: the check of this reduction
    relative = _relative_keys(C)
    if relative:
        _relative(S, P, C, W, held)
    extra = 0
    # with every joker played, the cards alone decide the future (what follows serves the jokers)
    jokers_held = (held & P[P_JOKER_MASK]) != 0
    if C[C_LADDER] != 0 and jokers_held:
        # What the relative ranks do not show: how many trump honours are still held (they are
        # the top ones left; 1.6(c) joker leads), and whether the trump Ace is (BJ beats every
        # other trump, 1.1: with the Ace gone the top trump left loses to BJ)
        trump = S[S_TRUMP]
        k = P[P_FREE_JOKER_HONOURS]
        honours = ((ONE << 13) - (ONE << (13 - k))) << (13 * trump)
        ace_held = 1 - ((S[S_PLAYED] >> (13 * trump + 12)) & 1)
        extra = popcount(honours & ~S[S_PLAYED]) + 1 + 8 * ace_held
    if C[C_FORCED] != 0 and jokers_held and not _decided(S, C):
        # 2.8 / 2.9: whether a forced lead ends the hand depends on the tricks taken so far, until
        # the outcome is fixed (then no forced lead ever ends it)
        extra = S[S_TRICKS + C[C_TEAM]] + 1
    if relative:
        # the bucket: each hand's suit lengths and jokers; which ranks it holds is matched entry
        # by entry on the ranks that entry's value depends on (_tt_probe). Packed exactly into two
        # words (16 bits of suit lengths a hand; jokers, leader and extras), then mixed.
        a = np.uint64(0)
        b = np.uint64(S[S_LEADER] | (extra << 3))
        for seat in range(SEATS):
            hand = S[S_HAND + seat]
            word = np.int64(0)
            for suit in range(4):
                word |= popcount(hand & (FULL_SUIT << (13 * suit))) << (4 * suit)
            if seat < 4:
                a |= np.uint64(word) << np.uint64(16 * seat)
            else:
                b |= np.uint64(word) << np.uint64(16 * seat - 48)
            b |= np.uint64((hand >> 52) & 3) << np.uint64(48 + 2 * seat)
        h1 = _mix(_mix(a ^ np.uint64(0x9E3779B97F4A7C15)) ^ b)
        h2 = _mix(_mix(a * np.uint64(0xD1B54A32D192ED03) + np.uint64(1)) + b)
    else:
        h1 = np.uint64(S[S_LEADER]) + np.uint64(0x9E3779B97F4A7C15)
        h2 = np.uint64(S[S_LEADER]) * np.uint64(0xD1B54A32D192ED03) + np.uint64(1)
        for seat in range(C[C_N]):
            hand = S[S_HAND + seat]
            h1 = _mix(h1 ^ np.uint64(hand))
            h2 = _mix(h2 + np.uint64(hand) * np.uint64(0xA24BAED4963EE407))
        h1 = _mix(h1 ^ np.uint64(extra * 77 + 5))
        h2 = _mix(h2 + np.uint64(extra * 91 + 3))
    if relative:
        # who holds each relative rank, as bit planes (bit j of the holder's seat), and each
        # suit's cards held: an entry's key of its relevant ranks' holders (_check)
        lens = np.int64(0)
        for suit in range(4):
            lens |= popcount(held & (FULL_SUIT << (13 * suit))) << (4 * suit)
        C[C_LENS] = lens
        for j in range(3):
            plane = np.int64(0)
            for seat in range(SEATS):
                if (seat >> j) & 1:
                    plane |= C[C_REL + seat]
            C[C_PLANES + j] = plane
    return h1, h2


@jit
def _decided(S: np.ndarray, C: np.ndarray) -> bool:
    """RULES.md 1.11 / 2.9: the hand's outcome is fixed."""
    team = C[C_TEAM]
    contract = S[S_HIGH_BID]
    return S[S_TRICKS + team] >= contract or S[S_TRICKS + 1 - team] >= C[C_N_TRICKS] - contract + 1


@jit
def _forced_end(S: np.ndarray, P: np.ndarray, C: np.ndarray) -> int:
    """At a trick start: the sentinel if the leader must lead his lone joker while the outcome is
    open (RULES.md 2.8, after the early stop of 2.9), else 0."""
    if C[C_FORCED] == 0:
        return 0
    leader = S[S_LEADER]
    hand = S[S_HAND + leader]
    if hand == 0 or (hand & ~P[P_JOKER_MASK]) != 0 or _decided(S, C):
        return 0
    return -SENT if (leader & 1) == C[C_TEAM] else SENT


@jit
def bounds(S: np.ndarray, P: np.ndarray, C: np.ndarray) -> tuple[int, int]:
    """Bounds on the future value of any position (mid-trick too)."""
    if C[C_BALOOT] != 0:
        return 0, _rest(S, C)
    lo = 0
    hi = C[C_N_TRICKS] - S[S_N_DONE]
    if C[C_LADDER] != 0 and hi >= 2 and S[S_N_IN_TRICK] == 0:
        # RULES.md 1.1, 1.5, 1.8: the team holding the top joker takes one more trick at least
        # (played into any trick it wins it; its holder only leads it rankless after winning a
        # trick himself, a lone joker being a last card). The top joker: RJ; once RJ and the trump
        # Ace are gone, BJ (nothing left beats it)
        top = RJ_BIT
        ace = ONE << (13 * S[S_TRUMP] + 12)
        held = np.int64(0)
        for seat in range(SEATS):
            held |= S[S_HAND + seat]
        if (held & (RJ_BIT | ace)) == 0:
            top = BJ_BIT
        for seat in range(SEATS):
            if (S[S_HAND + seat] & top) != 0:
                if (seat & 1) == C[C_TEAM]:
                    lo = 1
                else:
                    hi -= 1
    if C[C_FORCED] != 0 and not _decided(S, C):
        jk = P[P_JOKER_MASK]
        for seat in range(SEATS):
            if (S[S_HAND + seat] & jk) != 0:
                if (seat & 1) == C[C_TEAM]:
                    lo = -SENT
                else:
                    hi = SENT
    return lo, hi


@jit
def second_hand(S: np.ndarray, P: np.ndarray, C: np.ndarray) -> tuple[int, np.int64]:
    """Kout, the second seat of a trick to act: ``(the team that surely takes this trick, or -1;
    the card that rests on, as a mask)`` (DDS's quick trick of the second hand).

    The second seat's team takes the trick when it holds the strongest card of the led suit still
    to come, above the card led, or one of its seats still to play is void in the led suit and
    holds trump; and no opponent still to play holds a joker (it takes any trick it joins, RULES.md
    1.5 / 2.7) or, void in a side suit, holds trump (a ruff, 1.5 / 2.6: every seat follows suit
    if able). Not after a joker lead (1.7, 1.8), and not while a Bahraini joker is held (a forced
    lead could end the match, 2.8).
    """
    lead = S[S_TRICK]
    jk = P[P_JOKER_MASK]
    if C[C_BALOOT] != 0 or lead >= 52 or S[S_TRUMP_LEAD] != 0 or S[S_RANKLESS] != 0:
        return -1, np.int64(0)
    if C[C_FORCED] != 0 and (_held(S, C) & jk) != 0:
        return -1, np.int64(0)
    n = C[C_N]
    leader = S[S_LEADER]
    led = S[S_LED]
    sm = P[P_SUIT_MASK + led]
    trow = S[S_TRUMP]
    tm = P[P_SUIT_MASK + trow] if led != trow else np.int64(0)
    ours = np.int64(0)
    theirs = ONE << lead
    ruff = False
    for i in range(1, n):
        h = S[S_HAND + (leader + i) % n]
        void_trump = (h & sm) == 0 and (h & tm) != 0
        if i & 1:
            ours |= h & sm
            ruff = ruff or void_trump
        elif (h & jk) != 0 or void_trump:
            return -1, np.int64(0)
        else:
            theirs |= h & sm
    team = (leader + 1) & 1
    if ruff:
        return team, np.int64(0)
    if ours != 0 and highest_bit(ours) > highest_bit(theirs):
        return team, ONE << highest_bit(ours)
    return -1, np.int64(0)


@jit
def _rest(S: np.ndarray, C: np.ndarray) -> int:
    """What both teams together still take: tricks, or card points with the last trick's 10."""
    if C[C_BALOOT] != 0:
        return C[C_TOTAL] - S[B_CARD_PTS] - S[B_CARD_PTS + 1]
    return C[C_N_TRICKS] - S[S_N_DONE]


@jit
def legal(S: np.ndarray, P: np.ndarray, STR: np.ndarray, C: np.ndarray) -> np.int64:
    """The engine's legal cards; a lone Bahraini joker after the outcome is fixed (module doc)."""
    if C[C_BALOOT] != 0:
        return B.legal_cards(S, P, STR)
    mask = K.legal_cards(S, P)
    if mask == 0:
        return S[S_HAND + S[S_TO_ACT]]
    return mask


@jit
def play(S: np.ndarray, P: np.ndarray, STR: np.ndarray, C: np.ndarray, card: int) -> int:
    """Play ``card`` for the seat to act; the bidding team's gain if it closed a trick, else 0.

    Mirrors the engine's ``apply_card`` (RULES.md 1.5-1.9, 2.6-2.7, 3.4.4, 3.6.1) without scoring,
    early stop or tracing; :func:`unplay` takes it back.
    """
    seat = S[S_TO_ACT]
    bit = ONE << card
    k = S[S_N_IN_TRICK]
    n = C[C_N]
    if k == 0:
        if card >= 52:
            if C[C_BALOOT] == 0 and P[P_JOKER_MODEL] == JOKER_LADDER:
                if (bit & K.joker_lead_permission(S, P, seat)) != 0:
                    S[S_TRUMP_LEAD] = 1  # 1.7: a permitted joker lead is a trump lead
                    S[S_LED] = S[S_TRUMP]
                else:
                    S[S_RANKLESS] = 1  # 1.8: rankless
            # a lone Bahraini joker led after the outcome is fixed sets no suit and wins (2.7)
        else:
            S[S_LED] = card // 13
    elif S[S_LED] < 0 and card < 52:
        S[S_LED] = card // 13  # 1.8: the first non-joker card sets the led suit
    S[S_HAND + seat] ^= bit
    S[S_TRICK + k] = card
    S[S_N_IN_TRICK] = k + 1
    if k + 1 < n:
        S[S_TO_ACT] = 0 if seat + 1 == n else seat + 1
        return 0
    win_idx = trick_winner_idx(S, P, STR)
    # the winning card, when it beat a card of its own suit (else its rank did not decide)
    wcard = S[S_TRICK + win_idx]
    C[C_WCARD] = 64
    if wcard < 52 and C[C_BALOOT] == 0:
        for i in range(n):
            c = S[S_TRICK + i]
            if i != win_idx and c < 52 and c // 13 == wcard // 13:
                C[C_WCARD] = wcard
    winner = S[S_LEADER] + win_idx
    if winner >= n:
        winner -= n
    gain = 1
    if C[C_BALOOT] != 0:
        trow = S[S_TRUMP]
        gain = 0
        for i in range(n):
            gain += STR[T_POINTS + trow, S[S_TRICK + i]]
        if S[S_N_DONE] == C[C_N_TRICKS] - 1:
            gain += 10  # 3.6.1: the last trick
        S[B_CARD_PTS + (winner & 1)] += gain
    for i in range(n):
        S[S_PLAYED] |= ONE << S[S_TRICK + i]
    S[S_TRICKS + (winner & 1)] += 1
    S[S_N_DONE] += 1
    S[S_N_IN_TRICK] = 0
    S[S_LED] = -1
    S[S_TRUMP_LEAD] = 0
    S[S_RANKLESS] = 0
    S[S_LEADER] = winner
    S[S_TO_ACT] = winner
    return gain if (winner & 1) == C[C_TEAM] else 0


_SAVED = (
    S_LED,
    S_TRUMP_LEAD,
    S_RANKLESS,
    S_LEADER,
    S_TO_ACT,
    S_N_IN_TRICK,
    S_N_DONE,
    S_TRICKS,
    S_TRICKS + 1,
    B_CARD_PTS,
    B_CARD_PTS + 1,
)
# W[d, U_BASE]: the played mask before the play at depth d, W[d, U_BASE + 1 + i]: field _SAVED[i],
# W[d, U_TRICK + i]: the trick so far (the plays of later tricks overwrite it)
U_BASE = 16
U_TRICK = U_BASE + 1 + len(_SAVED)
U_REL = 40  # 4 entries at a trick start's row: its C_PLANES and C_LENS


@jit
def save(S: np.ndarray, W: np.ndarray, d: int) -> None:
    """Keep in ``W[d]`` the fields :func:`play` changes (the hands change by one bit)."""
    W[d, U_BASE] = S[S_PLAYED]
    for i in range(len(_SAVED)):
        W[d, U_BASE + 1 + i] = S[_SAVED[i]]
    for i in range(S[S_N_IN_TRICK]):
        W[d, U_TRICK + i] = S[S_TRICK + i]


@jit
def unplay(S: np.ndarray, W: np.ndarray, d: int, seat: int, card: int) -> None:
    """Take back the :func:`play` of ``card`` by ``seat`` saved at depth ``d``."""
    S[S_HAND + seat] |= ONE << card
    S[S_PLAYED] = W[d, U_BASE]
    for i in range(len(_SAVED)):
        S[_SAVED[i]] = W[d, U_BASE + 1 + i]
    for i in range(S[S_N_IN_TRICK]):
        S[S_TRICK + i] = W[d, U_TRICK + i]


@jit
def order_table(P: np.ndarray, STR: np.ndarray, trow: int, Q: np.ndarray) -> None:
    """``Q[suit, i]``: the deck's ``i``-th strongest card of ``suit`` under trump row ``trow``
    (-1 past the last); the order equivalent cards are found in."""
    for suit in range(4):
        row = trow if suit == trow else T_LED
        m = P[P_SUIT_MASK + suit]
        n = 0
        while m != 0:
            card = lowest_bit(m)
            m &= m - 1
            s = STR[row, card]
            j = n
            while j > 0 and STR[row, Q[suit, j - 1]] < s:
                Q[suit, j] = Q[suit, j - 1]
                j -= 1
            Q[suit, j] = card
            n += 1
        for j in range(n, Q.shape[1]):
            Q[suit, j] = -1


@jit
def moves(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    C: np.ndarray,
    Q: np.ndarray,
    mask: np.int64,
    first: int,
    W: np.ndarray,
    d: int,
) -> int:
    """Write into ``W[d, :m]`` the moves worth trying from ``mask`` (one card per set of
    equivalent cards), each as ``score << 8 | card``, ``first`` (a card, or -1) scored highest.

    Equivalent: of one suit, in the mover's hand, no card between them (by strength) in another
    hand or on the table; in Baloot also of equal points. In the Kout Bo trump suit an outstanding
    BJ parts the Ace from the King (1.1), and the honours are never merged with the cards below
    them (which honours have fallen decides joker leads, 1.6(c)).
    """
    seat = S[S_TO_ACT]
    k = S[S_N_IN_TRICK]
    trow = S[S_TRUMP]
    others = np.int64(0)
    for s in range(SEATS):
        if s != seat:
            others |= S[S_HAND + s]
    for i in range(k):
        others |= ONE << S[S_TRICK + i]
    win_i, win_s = B.winning_idx(S, STR)  # the rankless joker lead passed over (1.8)
    partner = k > 0 and ((S[S_LEADER] + win_i) & 1) == (seat & 1)
    led = S[S_LED] if k > 0 else -1
    if C[C_BALOOT] == 0:
        return _kout_moves(S, P, STR, C, mask, first, W, d, others, win_s, partner, led)
    # Baloot: strength is not the card order (3.1), and equivalent cards are also of equal points
    m = 0
    for suit in range(4):
        ms = mask & P[P_SUIT_MASK + suit]
        if ms == 0:
            continue
        in_run = False
        run_pts = -1
        top = True  # no card of this suit in another hand is stronger
        for i in range(Q_COLS):
            card = Q[suit, i]
            if card < 0:
                break
            bit = ONE << card
            if (bit & ms) != 0:
                pts = STR[T_POINTS + trow, card]
                if in_run and pts == run_pts:
                    continue
                in_run = True
                run_pts = pts
                cs = B.strength(STR, trow, led if k > 0 else suit, card)
                score = _move_score(k, np.bool_(top), partner, cs, win_s, pts)
                if card == first:
                    score = 1000
                elif card == W[d, W_KILLER] - 1:
                    score += 50
                W[d, m] = (score << 8) | card
                m += 1
            elif (bit & others) != 0:
                in_run = False
                top = False
    return m


@jit
def _move_score(k: int, top: bool, partner: bool, cs: int, win_s: int, pts: int) -> int:
    """The ordering score of a card of strength ``cs`` (module doc of :func:`moves`)."""
    if k == 0:
        return 300 + cs if top else 100 - cs + pts
    if partner:
        return 100 - cs + 4 * pts
    if cs > win_s:
        return 300 - cs - pts
    return 100 - cs - 4 * pts


LEAD_RUFFED = 60  # a lead's order: a suit an opponent can ruff comes after the other low leads
LEAD_TO_MATE = 30  # and a suit whose strongest card a teammate holds before them


@jit
def _lead_suits(S: np.ndarray, P: np.ndarray) -> tuple[int, int]:
    """Kout, for the leader's move order (4 bits each, a bit a suit): the side suits an opponent
    is void in while holding trump (a low lead there is ruffed, RULES.md 1.5 / 2.6), and the other
    suits whose strongest card still held is a teammate's (a low lead reaches it). Ordering only:
    measured on whole deals, kout_bo_4 -10 to -12% mean nodes, kout_bh_4 -7 to -11%."""
    seat = S[S_TO_ACT]
    trow = S[S_TRUMP]
    tm = P[P_SUIT_MASK + trow]
    ruffed = 0
    mine = np.int64(0)  # the teammates' cards
    theirs = np.int64(0)  # the opponents'
    for s in range(SEATS):
        h = S[S_HAND + s]
        if s == seat:
            continue
        if (s & 1) == (seat & 1):
            mine |= h
        else:
            theirs |= h
            if (h & tm) != 0:
                for suit in range(4):
                    if (h & P[P_SUIT_MASK + suit]) == 0:
                        ruffed |= 1 << suit
    ruffed &= ~(1 << trow)
    mates = 0
    for suit in range(4):
        sm = P[P_SUIT_MASK + suit]
        a = mine & sm
        b = theirs & sm
        if a != 0 and (b == 0 or highest_bit(a) > highest_bit(b)):
            mates |= 1 << suit
    return ruffed, mates & ~ruffed


@jit
def _kout_moves(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    C: np.ndarray,
    mask: np.int64,
    first: int,
    W: np.ndarray,
    d: int,
    others: np.int64,
    win_s: int,
    partner: bool,
    led: int,
) -> int:
    """:func:`moves` in Kout, on bit masks: a suit's ranks run with the card ids (RULES.md 1.1,
    2.1), so two of the mover's cards are equivalent when no card of another hand or of the table
    lies between their ids (and, in the Kout Bo trump suit, no ladder break, 1.1 / 1.6(c))."""
    k = S[S_N_IN_TRICK]
    trow = S[S_TRUMP]
    m = 0
    ruffed = 0
    mates = 0
    if k == 0:
        ruffed, mates = _lead_suits(S, P)
    for suit in range(4):
        ms = mask & P[P_SUIT_MASK + suit]
        if ms == 0:
            continue
        theirs = others & P[P_SUIT_MASK + suit]
        bonus = 0  # a lead that is no winner: not into a ruff, rather to a teammate's winner
        if (ruffed >> suit) & 1:
            bonus = -LEAD_RUFFED
        elif (mates >> suit) & 1:
            bonus = LEAD_TO_MATE
        # the rank below which a new run starts in the Kout Bo trump suit: under the honours
        # (1.6(c)), and under the Ace while BJ is outstanding (1.1)
        cut_low = -1
        cut_ace = -1
        if C[C_LADDER] != 0 and suit == trow:
            cut_low = 13 * suit + 12 - P[P_FREE_JOKER_HONOURS]
            if (others & BJ_BIT) != 0:
                cut_ace = 13 * suit + 11
        prev = -1  # the mover's card above (the last one seen)
        while ms != 0:
            card = highest_bit(ms)
            ms ^= ONE << card
            if prev >= 0:
                between = ((ONE << prev) - 1) & ~((ONE << (card + 1)) - 1)
                parted = (card <= cut_low < prev) or (card <= cut_ace < prev)
                if (theirs & between) == 0 and not parted:
                    prev = card
                    continue
            prev = card
            top = (theirs >> (card + 1)) == 0
            cs = B.strength(STR, trow, led if k > 0 else suit, card)
            score = _move_score(k, top, partner, cs, win_s, np.int64(0))
            if not top:
                score += bonus
            if card == first:
                score = 1000
            elif card == W[d, W_KILLER] - 1:
                score += 50
            W[d, m] = (score << 8) | card
            m += 1
    jokers = mask & P[P_JOKER_MASK]
    while jokers != 0:
        card = lowest_bit(jokers)
        jokers &= jokers - 1
        score = 200 if (k == 0 or not partner) else 10
        if card == first:
            score = 1000
        W[d, m] = (score << 8) | card
        m += 1
    return m


@jit
def _relative_keys(C: np.ndarray) -> bool:
    return C[C_BALOOT] == 0 and C[C_ABSOLUTE] == 0


@jit
def _key_card(S: np.ndarray, P: np.ndarray, C: np.ndarray, card: int) -> int:
    """A card as the table stores it: under relative-rank keys, its suit and its rank among the
    cards of that suit still held (the entry serves every position with that key)."""
    if card < 0 or card >= 52 or not _relative_keys(C):
        return card
    suit = card // 13
    held = np.int64(0)
    for s in range(SEATS):
        held |= S[S_HAND + s]
    below = held & P[P_SUIT_MASK + suit] & ((ONE << card) - 1)
    return suit * 13 + popcount(below)


@jit
def _from_key_card(S: np.ndarray, P: np.ndarray, C: np.ndarray, code: int) -> int:
    """The card of this position that a stored card stands for (-1: none)."""
    if code < 0 or code >= 52 or not _relative_keys(C):
        return code
    suit = code // 13
    held = np.int64(0)
    for s in range(SEATS):
        held |= S[S_HAND + s]
    m = held & P[P_SUIT_MASK + suit]
    for _ in range(code % 13):
        m &= m - 1
    return lowest_bit(m) if m != 0 else -1


@jit
def _held(S: np.ndarray, C: np.ndarray) -> np.int64:
    held = np.int64(0)
    for s in range(SEATS):
        held |= S[S_HAND + s]
    return held


@jit
def _check(C: np.ndarray, h2: np.uint64, tops: np.int64) -> np.int64:
    """The key of an entry: the position's second key, the generation, the counts ``tops`` (4 bits
    a suit: how many of the suit's top cards held count) and who holds those relative ranks."""
    h = h2 ^ (np.uint64(C[C_GEN]) * np.uint64(0x9E3779B97F4A7C15)) ^ np.uint64(tops)
    rm = np.int64(0)
    lens = C[C_LENS]
    for suit in range(4):
        t = (tops >> (4 * suit)) & 15
        if t != 0:
            rm |= ((ONE << t) - 1) << (13 * suit + ((lens >> (4 * suit)) & 15) - t)
    if rm != 0:
        h = _mix(h ^ np.uint64(C[C_PLANES] & rm))
        h = _mix(h + np.uint64(C[C_PLANES + 1] & rm) * np.uint64(0xA24BAED4963EE407))
        if C[C_N] > 4:
            h = _mix(h + np.uint64(C[C_PLANES + 2] & rm) * np.uint64(0x9FB21C651E98DF25))
    return np.int64(_mix(h))


@jit
def _to_cards(held: np.int64, tops: np.int64) -> np.int64:
    """The cards held that the counts ``tops`` stand for: the top ones of each suit."""
    out = np.int64(0)
    for suit in range(4):
        t = (tops >> (4 * suit)) & 15
        if t == 0:
            continue
        m = held & (FULL_SUIT << (13 * suit))
        for _ in range(popcount(m) - t):
            m &= m - 1
        out |= m
    return out


@jit
def _tops(cards: np.int64) -> np.int64:
    """How many cards of each suit ``cards`` holds (4 bits a suit): of a :func:`_closure`, the
    counts of top cards that decide."""
    out = np.int64(0)
    for suit in range(4):
        out |= popcount(cards & (FULL_SUIT << (13 * suit))) << (4 * suit)
    return out


@jit
def _closure(
    S: np.ndarray, P: np.ndarray, C: np.ndarray, held: np.int64, rel: np.int64
) -> np.int64:
    """The cards a trick start's value depends on, from those its search met (``rel``): in each
    suit every card held from the lowest one met up (the ranks below it only count by their number
    per hand, which the table's bucket holds). In Kout Bo, while a joker is held, also the trump
    honours still held (which of them fell decides joker leads, 1.6(c); BJ beats every trump but
    the Ace, 1.1): the key counts them, the closure keeps their holders."""
    out = np.int64(0)
    if not _relative_keys(C):
        return out  # the table keys every card: nothing to track
    for suit in range(4):
        rs = rel & (FULL_SUIT << (13 * suit))
        if rs != 0:
            out |= held & (FULL_SUIT << (13 * suit)) & ~((ONE << lowest_bit(rs)) - 1)
    if C[C_LADDER] != 0 and (held & P[P_JOKER_MASK]) != 0:
        trump = S[S_TRUMP]
        honours = ((ONE << 13) - (ONE << (13 - P[P_FREE_JOKER_HONOURS]))) << (13 * trump)
        h = held & honours
        if h != 0:
            out |= held & (FULL_SUIT << (13 * trump)) & ~((ONE << lowest_bit(h)) - 1)
    return out


# the packed entry: tops (16 bits), lower and upper bound (10 bits each, offset), best card + 1
# (7 bits), the generation's low 8 bits (which entries are stale), 13 bits of the bucket key
E_LO = 16
E_HI = 26
E_BEST = 36
E_GEN = 43
E_TAG = 51


@jit
def _tag(h1: np.uint64) -> np.int64:
    return np.int64(h1 >> np.uint64(51))


@jit
def _tt_probe(
    tt: np.ndarray, C: np.ndarray, h1: np.uint64, h2: np.uint64, held: np.int64
) -> tuple[bool, int, int, int, np.int64]:
    """The entries of this position in this generation, combined: (found, lower bound, upper
    bound, stored best card, the cards the bounds used rest on). An entry matches when the hands
    hold the same ranks where its value said they count (DDS's winning ranks)."""
    i0 = np.int64(h1 & np.uint64(C[C_TT_MASK])) & ~np.int64(TT_WAYS - 1)
    found = False
    lo = -1000
    hi = 1000
    best = -1
    rel = np.int64(0)
    tag = _tag(h1)
    gen = C[C_GEN] & 255
    for i in range(i0, i0 + TT_WAYS):
        e = tt[i, 1]
        if ((e >> E_TAG) & 8191) != tag or ((e >> E_GEN) & 255) != gen:
            continue
        tops = e & 65535
        if tt[i, 0] != _check(C, h2, tops):
            continue
        found = True
        elo = ((e >> E_LO) & 1023) - _OFF
        ehi = ((e >> E_HI) & 1023) - _OFF
        if elo > lo or ehi < hi or best < 0:
            best = ((e >> E_BEST) & 127) - 1
        lo = max(lo, elo)
        hi = min(hi, ehi)
        rel |= _to_cards(held, tops)
    return found, lo, hi, best, rel


@jit
def _tt_store(
    tt: np.ndarray,
    C: np.ndarray,
    h1: np.uint64,
    h2: np.uint64,
    held: np.int64,
    tops: np.int64,
    lo: int,
    hi: int,
    best: int,
) -> None:
    """Store bounds that hold for every position of this bucket holding the ``tops`` cards as this
    one does."""
    i0 = np.int64(h1 & np.uint64(C[C_TT_MASK])) & ~np.int64(TT_WAYS - 1)
    check = _check(C, h2, tops)
    gen = C[C_GEN] & 255
    slot = -1
    for i in range(i0, i0 + TT_WAYS):
        e = tt[i, 1]
        if ((e >> E_GEN) & 255) != gen:
            if slot < 0:
                slot = i
            continue
        if tt[i, 0] == check and (e & 65535) == tops:
            lo = max(lo, ((e >> E_LO) & 1023) - _OFF)
            hi = min(hi, ((e >> E_HI) & 1023) - _OFF)
            slot = i
            break
    if slot < 0:
        slot = i0 + (C[C_NODES] & (TT_WAYS - 1))
    tt[slot, 0] = check
    tt[slot, 1] = (
        tops
        | ((lo + _OFF) << E_LO)
        | ((hi + _OFF) << E_HI)
        | (np.int64(best + 1) << E_BEST)
        | (gen << E_GEN)
        | (_tag(h1) << E_TAG)
    )


@jit
def _through(C: np.ndarray, gain: int, child: int) -> int:
    """The value of a move: its gain plus the child's value (a sentinel stays a sentinel)."""
    if C[C_FORCED] != 0 and (child <= -SENT or child >= SENT):
        return child
    return gain + child


@jit
def _child_bound(C: np.ndarray, gain: int, t: int) -> int:
    """The child's threshold for the parent's question "is the move worth ``t`` or more?", the
    move worth :func:`_through` of the child's value: ``t - gain``, but a forced-joker sentinel
    takes no gain, so a threshold just above the loss sentinel asks whether the child is not that
    sentinel, and one above the win sentinel is never met (a child's window shifted by the gain
    alone asked "at least the sentinel?" there, always true, and a parent took the answer, the
    sentinel, for a value at most its alpha: RULES.md 2.8)."""
    c = t - gain
    if C[C_FORCED] != 0:
        if t > -SENT and c <= -SENT:
            return -SENT + 1
        if t > SENT and c <= SENT:
            return SENT + 1
    return c


@jit
def _last_trick(
    S: np.ndarray, P: np.ndarray, STR: np.ndarray, C: np.ndarray, W: np.ndarray, d: int
) -> int:
    """The last trick: every seat plays its one card (no choice, no search). ``C[C_REL_OUT]``:
    its winning card (the one rank it depends on), unless a joker."""
    n = C[C_N]
    gain = 0
    for i in range(n):
        seat = S[S_TO_ACT]
        card = lowest_bit(S[S_HAND + seat])
        W[d + i, 0] = seat
        W[d + i, 1] = card
        save(S, W, d + i)
        gain = play(S, P, STR, C, card)
    C[C_REL_OUT] = (ONE << C[C_WCARD]) if C[C_WCARD] < 52 else 0
    for i in range(n - 1, -1, -1):
        unplay(S, W, d + i, W[d + i, 0], W[d + i, 1])
    return gain


@jit
def _kout_winners(mine: np.int64, theirs: np.int64) -> np.int64:
    """Kout: the cards of ``mine`` (one suit) above every card of ``theirs`` (the same suit in the
    other hands): a suit's ranks run with the card ids (RULES.md 1.1, 2.1)."""
    if theirs != 0 and mine != 0:
        mine &= ~((ONE << (highest_bit(theirs) + 1)) - 1)
    return mine


@jit
def _unruffed(S: np.ndarray, opp_trumps: np.int64, sm: np.int64, rounds: int) -> int:
    """The rounds of a side suit (``sm``) a team can cash before an opponent holding trump
    (``opp_trumps``, a seat mask) could be void and ruff: each follows suit while he can (RULES.md
    1.5, 2.6, 3.4.2), so at most his length in the suit."""
    for s in range(SEATS):
        if (opp_trumps >> s) & 1:
            rounds = min(rounds, popcount(S[S_HAND + s] & sm))
    return rounds


@jit
def _partner_entry(
    S: np.ndarray,
    P: np.ndarray,
    leader: int,
    hand: np.int64,
    others: np.int64,
    opp_trumps: np.int64,
    tricks: int,
    left: int,
) -> tuple[int, np.int64]:
    """Kout, after the leader has cashed his own winners (:func:`quick`, ``tricks`` of them): the
    tricks a teammate's winners of one suit add, and those winners.

    The leader leads a card of a suit in which a teammate holds the strongest cards still held;
    the teammate wins with the top one and cashes the rest. Opponents who hold trump follow suit
    in every round counted (their length in the suit bounds the rounds, as in the leader's own
    runs, RULES.md 1.5 / 2.6), so none ruffs, and no opponent holds a joker (:func:`quick` counts
    nothing then). While the leader cashes, the teammate keeps the suit: he holds at least
    ``tricks`` other cards to play, jokers aside. No seat of the team is ever made to play a joker
    (it would take the trick and the lead, 1.5): the others hold a card that is no joker for every
    round counted. The best single suit counts.
    """
    team = leader & 1
    trow = S[S_TRUMP]
    jk = P[P_JOKER_MASK]
    best = 0
    cards = np.int64(0)
    for s in range(SEATS):
        mate = S[S_HAND + s]
        if s == leader or (s & 1) != team or mate == 0:
            continue
        rest = (others & ~mate) | hand  # every other hand's cards (the table is empty)
        rounds = popcount(hand & ~jk)  # the rounds the team's other seats follow without a joker
        for o in range(SEATS):
            h = S[S_HAND + o]
            if o != s and o != leader and (o & 1) == team and h != 0:
                rounds = min(rounds, popcount(h & ~jk))
        for suit in range(4):
            sm = P[P_SUIT_MASK + suit]
            ms = mate & sm
            if (hand & sm) == 0 or ms == 0 or popcount(mate & ~sm & ~jk) < tricks:
                continue
            ms = _kout_winners(ms, rest & sm)
            w = popcount(ms)
            if w == 0:
                continue
            if suit != trow:
                w = _unruffed(S, opp_trumps, sm, w)
            w = min(w, left - tricks, rounds - tricks)
            if w > best:
                best = w
                cards = ms
    return best, cards


@jit
def quick(S: np.ndarray, P: np.ndarray, STR: np.ndarray, C: np.ndarray, Q: np.ndarray) -> int:
    """At a trick start: what the leader's team surely takes by cashing the leader's winners (in
    Kout then a teammate's winners of one suit, :func:`_partner_entry`), in the value's units (a
    lower bound; 0 when there is none).

    A winner is a card of the leader stronger than every card of its suit in another hand; he
    leads them from the top and keeps the lead. A side suit's run stops where an opponent who holds
    trump could be void and ruff (RULES.md 1.5, 2.6, 3.4.2). Nothing is counted while an opponent
    holds a joker (it takes any trick it joins, 1.5 / 2.7) or while a Bahraini joker is held (a
    forced lead could end the match, 2.8); in a closed Baloot hand trump winners are not counted
    (no trump lead while holding another card, 3.3.1). Baloot counts the points of the leader's
    own cashed cards (and the last trick's 10 when the run reaches it).
    """
    leader = S[S_LEADER]
    team = leader & 1
    hand = S[S_HAND + leader]
    others = np.int64(0)
    opp_trumps = np.int64(0)  # the opponents holding trump, as a seat mask
    trow = S[S_TRUMP]
    trump_mask = P[P_SUIT_MASK + trow] if trow < 4 else np.int64(0)
    for s in range(SEATS):
        if s == leader:
            continue
        h = S[S_HAND + s]
        others |= h
        if (s & 1) != team:
            if C[C_BALOOT] == 0 and (h & P[P_JOKER_MASK]) != 0:
                return 0
            if (h & trump_mask) != 0:
                opp_trumps |= ONE << s
    if C[C_FORCED] != 0 and ((hand | others) & P[P_JOKER_MASK]) != 0:
        return 0
    baloot = C[C_BALOOT] != 0
    closed = baloot and S[B_CLOSED] != 0
    left = C[C_N_TRICKS] - S[S_N_DONE]
    tricks = 0
    points = 0
    used = np.int64(0)  # the winners counted (the ranks the bound rests on)
    for suit in range(4):
        if closed and suit == trow:
            continue
        run = 0
        if baloot:
            for i in range(Q_COLS):
                card = Q[suit, i]
                if card < 0:
                    break
                bit = ONE << card
                if (bit & hand) != 0:
                    run += 1
                elif (bit & others) != 0:
                    break
        else:
            mine = _kout_winners(hand & P[P_SUIT_MASK + suit], others & P[P_SUIT_MASK + suit])
            run = popcount(mine)
            used |= mine
        if run == 0:
            continue
        if suit != trow:
            run = _unruffed(S, opp_trumps, P[P_SUIT_MASK + suit], run)
        run = min(run, left - tricks)
        if baloot:
            taken = 0
            for i in range(Q_COLS):
                card = Q[suit, i]
                if taken == run or card < 0:
                    break
                if ((ONE << card) & hand) != 0:
                    points += STR[T_POINTS + trow, card]
                    taken += 1
        tricks += run
        if tricks == left:
            break
    if not baloot and tricks < left:
        more, cards = _partner_entry(S, P, leader, hand, others, opp_trumps, tricks, left)
        tricks += more
        used |= cards
    C[C_QREL] |= used
    if not baloot:
        return tricks
    if tricks == left and tricks > 0:
        points += 10  # 3.6.1: the run takes the last trick
    return points


@jit
def trump_control(
    S: np.ndarray, P: np.ndarray, STR: np.ndarray, C: np.ndarray, Q: np.ndarray
) -> tuple[int, int]:
    """At a Baloot trick start: (team, the card points it surely takes) from the top of the trump
    ladder (Kout: :func:`kout_trump_tricks`).

    The longest run of the strongest trumps still held (RULES.md 3.4.4) that one team holds: such a
    card, whenever it is played, wins its trick or is beaten by a card of the same team, so the
    team takes at least the card points of the whole run. (0, 0) in Sun.
    """
    trow = S[S_TRUMP]
    if trow >= 4:
        return 0, 0
    held = _held(S, C)
    team = -1
    points = 0
    for i in range(Q_COLS):
        card = Q[trow, i]
        if card < 0:
            break
        if ((held >> card) & 1) == 0:
            continue
        seat = 0
        for s in range(SEATS):
            if (S[S_HAND + s] >> card) & 1:
                seat = s
                break
        if team < 0:
            team = seat & 1
        elif (seat & 1) != team:
            break
        C[C_QREL] |= ONE << card
        points += STR[T_POINTS + trow, card]
    if team < 0:
        return 0, 0
    return team, points


@jit
def kout_trump_tricks(S: np.ndarray, P: np.ndarray, C: np.ndarray) -> tuple[int, int, int, int]:
    """At a Kout trick start: the tricks each team's trumps surely take, ``(team 0's, team 1's,
    the trumps team 0's rests on, team 1's)``, the trumps as masks (for ``C[C_QREL]``).

    One seat's trumps go to different tricks, and each wins its trick unless a stronger card of
    the other team (a trump, or a joker: RULES.md 1.1, 1.5, 2.7) falls in the same trick; one such
    card beats at most one of them. So a seat whose ``k`` strongest trumps face ``m`` stronger
    cards of the other team takes at least ``k - m`` tricks for its team (every trick is played
    out, 1.9). The seat's jokers are not counted: one may have to be led rankless (1.8), and
    counting them less that one lead measured no fewer nodes. The trump ladder (the strongest
    cards still held, of one team: ``m = 0``) is the case most often met; the bound also holds
    where the other team's jokers sit above the trumps (Kout Bo's usual middle game). The trump
    suit's ranks run with the card ids (1.1, 2.1); a joker sits above the trumps
    ``C[C_ABOVE + joker - 52]`` does not hold (set by :func:`begin` from the strengths).
    ``(0, 0, 0, 0)`` without trump, or while a Bahraini joker is held (its forced lead could end
    the match, 2.8)."""
    trow = S[S_TRUMP]
    if trow >= 4:
        return 0, 0, np.int64(0), np.int64(0)
    held = np.int64(0)
    team0 = np.int64(0)  # the cards of team 0
    for s in range(SEATS):
        held |= S[S_HAND + s]
        if (s & 1) == 0:
            team0 |= S[S_HAND + s]
    jh = held & P[P_JOKER_MASK]
    if C[C_FORCED] != 0 and jh != 0:
        return 0, 0, np.int64(0), np.int64(0)
    trumps = held & P[P_SUIT_MASK + trow]
    best0 = 0
    best1 = 0
    rel0 = np.int64(0)
    rel1 = np.int64(0)
    for s in range(SEATS):
        mine = S[S_HAND + s] & trumps
        if mine == 0:
            continue
        theirs = ~team0 if (s & 1) == 0 else team0
        their_trumps = trumps & theirs
        their_jokers = jh & theirs
        best = best0 if (s & 1) == 0 else best1
        k = 0
        while mine != 0:
            card = highest_bit(mine)
            mine &= ~(ONE << card)
            k += 1
            stronger = popcount(their_trumps & ~((ONE << (card + 1)) - 1))
            js = their_jokers
            while js != 0:
                joker = lowest_bit(js)
                js &= js - 1
                if ((C[C_ABOVE + joker - 52] >> card) & 1) == 0:
                    stronger += 1
            if k - stronger > best:
                best = k - stronger
                # the bound rests on who holds the trumps from this one up
                rel = trumps & ~((ONE << card) - 1)
                if (s & 1) == 0:
                    best0 = best
                    rel0 = rel
                else:
                    best1 = best
                    rel1 = rel
    return best0, best1, rel0, rel1


@jit
def start_bounds(
    S: np.ndarray, P: np.ndarray, STR: np.ndarray, C: np.ndarray, Q: np.ndarray, lo: int, hi: int
) -> tuple[int, int]:
    """At a trick start: ``(lo, hi)`` (the bounds of :func:`bounds`) narrowed by the leader's sure
    tricks (:func:`quick`) and the trumps' (Kout :func:`kout_trump_tricks`, Baloot the ladder of
    :func:`trump_control`); ``C[C_QREL]``: the cards those rest on."""
    C[C_QREL] = 0
    sure = quick(S, P, STR, C, Q)
    if sure > 0:
        if (S[S_LEADER] & 1) == C[C_TEAM]:
            lo = max(lo, sure)
        else:
            hi = min(hi, _rest(S, C) - sure)
    if C[C_BALOOT] != 0:
        team, held = trump_control(S, P, STR, C, Q)
        if held > 0:
            if team == C[C_TEAM]:
                lo = max(lo, held)
            else:
                hi = min(hi, _rest(S, C) - held)
        return lo, hi
    t0, t1, rel0, rel1 = kout_trump_tricks(S, P, C)
    if C[C_TEAM] == 0:
        mine, theirs, mine_rel, theirs_rel = t0, t1, rel0, rel1
    else:
        mine, theirs, mine_rel, theirs_rel = t1, t0, rel1, rel0
    if mine > 0 and mine > lo:
        lo = mine
        C[C_QREL] |= mine_rel
    if theirs > 0 and _rest(S, C) - theirs < hi:
        hi = _rest(S, C) - theirs
        C[C_QREL] |= theirs_rel
    return lo, hi


@make_jit
def _search(Wp: Any, ttp: Any, alpha: int, beta: int) -> int:
    """Fail-soft alpha-beta value of the state in ``W[R_S]`` in the window ``(alpha, beta)``
    (module doc). ``Wp`` and ``ttp``: the :data:`data_pointer` of the workspace and of the table
    (the rule tables are rows of ``W``): a recursive call passes two pointers where the arrays
    would pass two descriptors (18 words, most of them on the stack), and the views made here have
    the workspace's shape and the table's row length as constants.

    ``C[C_REL_OUT]`` on return: the cards the result depends on (DDS's winning ranks): the winning
    card of each trick searched that could have lost by rank, and what the bounds and table entries
    used rest on; at a trick start, each suit's cards from the lowest of those up (:func:`_closure`).
    Any position of the same bucket (each hand's suit lengths, the jokers, the leader) holding those
    cards as this one does has the same result: the table stores it under their relative ranks."""
    W = rows_at(Wp, W_ROWS, W_COLS)
    S = W[R_S]
    C = W[R_C]
    tt = rows_at(ttp, C[C_TT_MASK] + 1, TT_COLS)
    Q = W[R_Q : R_Q + 4]
    P = readonly(W[R_P])  # typed as the drivers' tables: one signature for the kernels below
    STR = readonly(W[R_STR : R_STR + T_ROWS])
    C[C_NODES] += 1
    C[C_REL_OUT] = 0
    greedy = C[C_GREEDY] != 0  # the greedy line (:func:`probe`): the first move a node, no table
    k = S[S_N_IN_TRICK]
    done = S[S_N_DONE]
    if k == 0 and done == C[C_N_TRICKS]:
        return 0
    if k == 0:
        end = _forced_end(S, P, C)
        if end != 0:
            return end
        if done == C[C_N_TRICKS] - 1:
            return _last_trick(S, P, STR, C, W, done * C[C_N])
    lo, hi = bounds(S, P, C)
    first = -1
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    rel = np.int64(0)
    held = np.int64(0)
    if k == 0:
        held = _held(S, C)
        if lo >= beta or hi <= alpha:
            C[C_REL_OUT] = _closure(S, P, C, held, rel)
            return lo if lo >= beta else hi
        # the table first (it ends most trick starts), then the sure-trick bounds
        h1, h2 = _keys(S, P, C, W, held)
        for j in range(4):
            W[done * C[C_N], U_REL + j] = C[C_PLANES + j]  # for the store, after the children's
        C[C_STARTS] += 1
        found, tlo, thi, code, trel = _tt_probe(tt, C, h1, h2, held)
        found = found and not greedy
        if found and (tlo >= beta or thi <= alpha or tlo == thi):
            C[C_CUT_TT] += 1
            C[C_REL_OUT] = _closure(S, P, C, held, trel)
            if tlo >= beta:
                return tlo
            if thi <= alpha:
                return thi
            return tlo
        slo, shi = start_bounds(S, P, STR, C, Q, lo, hi)
        if slo >= beta or shi <= alpha:
            C[C_CUT_BOUND] += 1
            C[C_REL_OUT] = _closure(S, P, C, held, C[C_QREL])
            return slo if slo >= beta else shi
        if found:
            first = _from_key_card(S, P, C, code)
            rel = trel
            lo = max(lo, tlo)
            hi = min(hi, thi)
            alpha = max(alpha, tlo)
            beta = min(beta, thi)
    elif lo >= beta or hi <= alpha:
        return lo if lo >= beta else hi
    elif k == 1:
        team, wrel = second_hand(S, P, C)
        if team >= 0:
            if team == C[C_TEAM]:
                lo = max(lo, 1)
            else:
                hi -= 1
            if lo >= beta or hi <= alpha:
                C[C_REL_OUT] = wrel
                return lo if lo >= beta else hi
    seat = S[S_TO_ACT]
    maximise = (seat & 1) == C[C_TEAM]
    d = done * C[C_N] + k
    n = C[C_N]
    mask = legal(S, P, STR, C)
    if k > 0 and (mask & (mask - 1)) == 0:
        # one legal card (no table entry mid-trick): no ordering, no bookkeeping
        card = lowest_bit(mask)
        save(S, W, d)
        gain = play(S, P, STR, C, card)
        wcard = C[C_WCARD]
        lo_c = _child_bound(C, gain, alpha + 1) - 1
        v = _through(C, gain, _search(Wp, ttp, lo_c, _child_bound(C, gain, beta)))
        if k == n - 1 and wcard < 52 and _relative_keys(C):
            C[C_REL_OUT] |= ONE << wcard
        unplay(S, W, d, seat, card)
        return v
    m = moves(S, P, STR, C, Q, mask, first, W, d)
    a = alpha
    b = beta
    g = -1000 if maximise else 1000
    best = -1
    track = _relative_keys(C)  # Baloot keys every card: no ranks to track
    trel = rel  # what the table entry used rests on
    for i in range(m):
        j = i
        for t in range(i + 1, m):
            if W[d, t] > W[d, j]:
                j = t
        mv = W[d, j]
        W[d, j] = W[d, i]
        W[d, i] = mv
        card = mv & 255
        save(S, W, d)
        gain = play(S, P, STR, C, card)
        wcard = C[C_WCARD]
        lo_c = _child_bound(C, gain, a + 1) - 1
        v = _through(C, gain, _search(Wp, ttp, lo_c, _child_bound(C, gain, b)))
        mrel = np.int64(0)
        if track:
            mrel = C[C_REL_OUT]
            if k == n - 1 and wcard < 52:
                mrel |= ONE << wcard  # the trick's winner: a lower card would have lost it
            rel |= mrel
        unplay(S, W, d, seat, card)
        if maximise:
            if v > g:
                g = v
                best = card
                if g > a:
                    a = g
        else:
            if v < g:
                g = v
                best = card
                if g < b:
                    b = g
        if a >= b:
            # a cut-off rests on its own move alone (with the table entry that narrowed the window)
            rel = trel | mrel
            W[d, W_KILLER] = card + 1
            break
        if C[C_GREEDY] != 0:
            break  # read again, not the local: LLVM would unswitch the loop on it (compile time)
    if k == 0 and not greedy:
        rel = _closure(S, P, C, held, rel)
        tops = np.int64(0)
        if _relative_keys(C):
            tops = _tops(rel)
            for j in range(4):
                C[C_PLANES + j] = W[d, U_REL + j]  # the children's keys wrote theirs over these
        best = _key_card(S, P, C, best)
        if g <= alpha:
            _tt_store(tt, C, h1, h2, held, tops, lo, g, best)
        elif g >= beta:
            _tt_store(tt, C, h1, h2, held, tops, g, hi, best)
        else:
            _tt_store(tt, C, h1, h2, held, tops, g, g, best)
    C[C_REL_OUT] = rel
    return g


@jit_layer
def search(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    W: np.ndarray,
    tt: np.ndarray,
    alpha: int,
    beta: int,
) -> int:
    """Fail-soft alpha-beta value of ``S`` in the window ``(alpha, beta)`` (``S`` is copied in)."""
    R = W[R_S]
    for i in range(S.shape[0]):
        R[i] = S[i]
    for seat in range(W[R_C, C_N], SEATS):
        R[S_HAND + seat] = 0  # the loops over the hands run to SEATS
    return _search(data_pointer(W), data_pointer(tt), alpha, beta)


@jit_layer
def value(S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, tt: np.ndarray) -> int:
    """Exact future value of ``S`` by null-window probes, each reusing the table (:func:`probe`):
    in Kout the first asks for one trick more than the greedy line takes; Baloot bisects its
    bounds."""
    return probe(S, P, STR, W, tt, np.int64(GREEDY))  # int64, not a literal: one compiled probe


@jit_layer
def probe(
    S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, tt: np.ndarray, guess: int
) -> int:
    """Exact future value of ``S`` by null-window probes from ``guess`` (Kout), as MTD(f) does: each
    next probe asks for one trick more than a probe proved, or for the bound a failed probe
    returned (fail-soft: usually the value). Baloot bisects the bounds (``guess`` unused).

    ``guess`` :data:`GREEDY` asks for one trick more than the greedy line takes: every seat plays
    the move the search tries first (winners first when leading, the cheapest winner or the
    lowest discard when following), no table read or written. The search plays that line itself
    (``C[C_GREEDY]``) from the one call site below: each call site, and each literal type of
    ``guess``, is one more compiled copy of the search. Measured against a guess of two tricks
    above the contract (kout_bo_4, 80 deals, two seeds, values identical): mean CPU time a
    full-hand value 1.064x and 1.065x less, mean nodes -9% and -4%; kout_bh_4 1.01x
    (docs/solver.md)."""
    C = W[R_C]
    lo, hi = bounds(S, P, C)
    line = C[C_BALOOT] == 0 and guess == GREEDY and lo < hi
    while lo < hi:
        if C[C_BALOOT] != 0:
            mid = (lo + hi + 1) // 2
        else:
            mid = min(max(guess, lo + 1), hi)
        C[C_GREEDY] = line
        g = search(S, P, STR, W, tt, -WIDE if line else mid - 1, WIDE if line else mid)
        if line:
            C[C_GREEDY] = 0
            line = False
            guess = g + 1
            continue
        C[C_PROBES] += 1
        if g >= mid:
            lo = g
            guess = g + 1
        else:
            hi = g
            guess = g
    return lo


@jit_layer
def card_values(
    S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, tt: np.ndarray, out: np.ndarray
) -> np.int64:
    """``out[card]``: the future value of ``S`` after each legal card; returns the legal mask.
    ``S`` is left as it was. Kout: the first card is probed from one trick above the greedy
    line's value (:func:`probe`), each next one from the value of the card before it (one seat's
    cards are worth nearly the same: measured 7% fewer nodes than a guess from the contract for
    every card at the lead of trick 3, kout_bo_4 and kout_bh_4). Baloot bisects each card's
    bounds."""
    C = W[R_C]
    mask = legal(S, P, STR, C)
    seat = S[S_TO_ACT]
    d = S[S_N_DONE] * C[C_N] + S[S_N_IN_TRICK]
    guess = GREEDY  # the first card from its greedy line (Baloot bisects whatever the guess)
    m = mask
    while m != 0:
        card = lowest_bit(m)
        m &= m - 1
        save(S, W, d)
        gain = play(S, P, STR, C, card)
        future = probe(S, P, STR, W, tt, guess if guess == GREEDY else guess - gain)
        out[card] = _through(C, gain, future)
        if C[C_FORCED] == 0 or -SENT < future < SENT:
            guess = gain + future
        unplay(S, W, d, seat, card)
    return mask


# ---- batches: the solve columns of a simulation ---------------------------------------------------
# X (int64[h, X_SIZE]): one hand per row, as the result rows give it
X_DEALER = 0
X_BIDDER = 1  # -1: no contract (a void Baloot hand)
X_CONTRACT = 2
X_TRUMP = 3  # trump suit, -1 in Sun
X_MODE = 4  # Baloot mode (1 Sun, 2 Hokum)
X_CLOSED = 5  # Baloot: the hand is played closed (RULES.md 3.3.1)
X_HAND = 6  # 6 entries: the hands at the first lead (Baloot: after completion)
X_SIZE = 12
# out (int64[h, O_SIZE])
O_VALUE = 0  # the bidding team's tricks (Baloot: card points) at the end, double dummy
O_PAR = 1  # Kout: the highest contract makeable by the bidder's seat over the trumps (0: none)
O_PAR_TRUMP = 2  # its trump (-1: none)
O_SIZE = 4
NO_CONTRACT = -99
NO_CLASS = np.int64(-1)  # best_contract: no class of contracts whose value is known


@jit
def begin(S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray) -> None:
    """A new search generation for the deal and contract of ``S`` (the rule tables ``P`` and
    ``STR`` copied into ``W``: the searches after it read them there)."""
    C = W[R_C]
    for i in range(P.shape[0]):
        W[R_P, i] = P[i]
    for r in range(T_ROWS):
        for j in range(T_COLS):
            W[R_STR + r, j] = STR[r, j]
    C[C_GEN] += 1
    C[C_TEAM] = S[S_BIDDER] & 1
    trow = S[S_TRUMP]
    if C[C_BALOOT] != 0:
        total = 10  # 3.6.1: the last trick
        m = P[P_DECK]
        while m != 0:
            card = lowest_bit(m)
            m &= m - 1
            total += STR[T_POINTS + trow, card]
        C[C_TOTAL] = total
    order_table(P, STR, trow, W[R_Q : R_Q + 4])
    for joker in range(52, 54):
        # the trumps stronger than each joker (kout_trump_tricks)
        above = np.int64(0)
        if trow < 4 and ((P[P_JOKER_MASK] >> joker) & 1) != 0:
            m = P[P_SUIT_MASK + trow]
            while m != 0:
                card = lowest_bit(m)
                m &= m - 1
                if STR[trow, card] > STR[trow, joker]:
                    above |= ONE << card
        C[C_ABOVE + joker - 52] = above


@jit
def total_of(S: np.ndarray, C: np.ndarray, future: int) -> int:
    """A future value as the whole hand's (what was taken before included; Kout sentinels as
    -1 and n_tricks + 1)."""
    team = S[S_BIDDER] & 1
    if C[C_BALOOT] != 0:
        return S[B_CARD_PTS + team] + future
    if future <= -SENT:
        return -1
    if future >= SENT:
        return C[C_N_TRICKS] + 1
    return S[S_TRICKS + team] + future


@jit
def first_lead(S: np.ndarray, P: np.ndarray, C: np.ndarray, x: np.ndarray) -> None:
    """``S``: the state at the first lead of the hand ``x`` (a row of X)."""
    for j in range(S.shape[0]):
        S[j] = 0
    n = C[C_N]
    bidder = x[X_BIDDER]
    S[S_PHASE] = PH_PLAY
    S[S_DEALER] = x[X_DEALER]
    S[S_BIDDER] = bidder
    S[S_HIGH_BID] = x[X_CONTRACT]
    S[S_N_CALLS] = n
    S[S_LED] = -1
    S[S_MADE] = -1
    S[S_MATCH_WINNER] = -1
    for seat in range(n):
        S[S_HAND + seat] = x[X_HAND + seat]
    if C[C_BALOOT] != 0:
        S[B_MODE] = x[X_MODE]
        S[S_TRUMP] = x[X_TRUMP] if x[X_MODE] == MODE_HOKUM else T_NO_TRUMP
        S[B_CLOSED] = x[X_CLOSED]
        leader = x[X_DEALER] + 1  # 3.2.6: P1 leads
    else:
        S[S_TRUMP] = x[X_TRUMP]
        leader = bidder + P[P_FIRST_LEAD]  # 1.4: the bidder; 2.5: bidder + 1
    leader %= n
    S[S_LEADER] = leader
    S[S_TO_ACT] = leader


@jit
def _rules_class(P: np.ndarray, C: np.ndarray, contract: int) -> int:
    """Contracts of one class are one game: the same search, the same table entries. Kout Bo: the
    joker leads the contract allows (RULES.md 1.6(a)(b)); Bahraini: the contract itself (it fixes
    the early-stop point that decides a forced joker lead, 2.9)."""
    if C[C_FORCED] != 0:
        return contract
    return (1 if contract >= P[P_BJ_LEAD_BID] else 0) + (2 if contract >= P[P_RJ_LEAD_BID] else 0)


@jit
def _ascending_group(P: np.ndarray, C: np.ndarray, contract: int) -> int:
    """Contracts of one group are made or not in order: whoever makes one makes every lower one
    of the group. Kout Bo: a class (:func:`_rules_class`), one game; across classes a higher
    contract gives joker leads (RULES.md 1.6(a)(b)) and may be made where a lower one is not.
    Bahraini: every contract is one group. A line that makes ``c + 1`` makes ``c`` too: where
    the two games part, a forced joker lead (2.8) ends the line under ``c + 1`` while the outcome
    is still open there but the bidders already hold ``c`` tricks (made under ``c``), or it ends the
    line under ``c`` where ``c + 1`` can no longer be reached (a line that makes ``c + 1`` never
    gets there)."""
    if C[C_FORCED] != 0:
        return 0
    return _rules_class(P, C, contract)


@jit_layer
def best_contract(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    W: np.ndarray,
    tt: np.ndarray,
    trump: int,
    floor: int,
    known_class: int,
    known_total: int,
) -> int:
    """The highest contract from ``floor`` up that the bidder of ``S`` makes with ``trump``, double
    dummy (0: none).

    The groups of contracts (:func:`_ascending_group`) are taken from the top; in each, the
    contracts from its lowest up until one fails, one null-window search each (one search
    generation per class of contracts, :func:`_rules_class`), a search that succeeds in a Kout Bo
    group skipping the contracts its fail-soft bound makes too; the first group that makes one
    holds the answer. Most trumps of a par fail their lowest contract at once: one search. The
    contracts of class ``known_class`` (-1: none) are answered by ``known_total``, the exact value
    of that class's game with this trump, without a search."""
    C = W[R_C]
    low = max(P[P_BID_MIN], floor)
    top = P[P_BID_MAX]
    S[S_TRUMP] = trump
    while top >= low:
        group = _ascending_group(P, C, top)
        bottom = top
        while bottom > low and _ascending_group(P, C, bottom - 1) == group:
            bottom -= 1
        made = 0
        last = -1
        c = bottom
        while c <= top:
            cls = _rules_class(P, C, c)
            if cls == known_class:
                reach = known_total
            else:
                S[S_HIGH_BID] = c
                if cls != last:
                    begin(S, P, STR, W)
                    last = cls
                reach = search(S, P, STR, W, tt, c - 1, c)  # fail-soft: a bound
            if reach < c:
                break
            # a Kout Bo group is one game, whose value is at least ``reach``: every contract of
            # the group up to it is made; a Bahraini contract is a game of its own
            made = min(reach, top) if C[C_FORCED] == 0 else c
            c = made + 1
        if made != 0:
            return made
        top = bottom - 1
    return 0


@jit_layer
def _kout_par(
    S: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, tt: np.ndarray, total: int
) -> tuple[int, int]:
    """The highest contract the bidder's seat can make double dummy over the trumps it may name
    (RULES.md 1.4 / 2.4), and that trump (the first of S H D C on a tie); (0, -1) if none.

    ``total`` is the exact value of the contract and trump of ``S`` (:func:`value`): it answers
    that contract's class with that trump, without a search. That trump is taken first (the
    bidder's choice is usually the best), so the others ask only whether they beat it (or tie
    it, for a trump earlier in S H D C), which most fail at their first search. (Measured against
    taking the trumps in S H D C order from the played class's best: 10% fewer nodes in
    kout_bo_4, 6% in kout_bh_4.)"""
    C = W[R_C]
    bidder = S[S_BIDDER]
    played = S[S_TRUMP]
    played_class = _rules_class(P, C, S[S_HIGH_BID])
    best = 0
    best_trump = -1
    for k in range(5):
        t = played if k == 0 else k - 1
        if (k == 0 and not 0 <= t < 4) or (k > 0 and t == played):
            continue
        if not K.may_name_trump(P, S[S_HAND + bidder], t):
            continue
        floor = best if t < best_trump else best + 1  # ties: the first of S H D C
        known = played_class if t == played else NO_CLASS
        c = best_contract(S, P, STR, W, tt, t, floor, known, total)
        if c > best or (c != 0 and c == best and t < best_trump):
            best = c
            best_trump = t
    return best, best_trump


@jit
def solve_rows(
    X: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    W: np.ndarray,
    tt: np.ndarray,
    out: np.ndarray,
    par: bool,
) -> None:
    """Solve every hand of ``X`` from its first lead into ``out`` (see ``O_*``)."""
    C = W[R_C]
    S = W[R_IN]
    for i in range(X.shape[0]):
        x = X[i]
        if x[X_BIDDER] < 0:
            out[i, O_VALUE] = NO_CONTRACT
            out[i, O_PAR] = 0
            out[i, O_PAR_TRUMP] = -1
            continue
        first_lead(S, P, C, x)
        begin(S, P, STR, W)
        out[i, O_VALUE] = total_of(S, C, value(S, P, STR, W, tt))
        if par and C[C_BALOOT] == 0:
            best, trump = _kout_par(S, P, STR, W, tt, out[i, O_VALUE])
            out[i, O_PAR] = best
            out[i, O_PAR_TRUMP] = trump
        else:
            out[i, O_PAR] = 0
            out[i, O_PAR_TRUMP] = -1


@jit
def par_table(
    x: np.ndarray, P: np.ndarray, STR: np.ndarray, W: np.ndarray, tt: np.ndarray, out: np.ndarray
) -> None:
    """The double-dummy table of the deal ``x`` (a row of X; its bidder, contract and trump are
    ignored). Kout: ``out[trump, seat]`` the highest contract ``seat`` makes as bidder with that
    trump (0: not even the lowest bid; -1: a trump he may not name, RULES.md 2.4). Baloot:
    ``out[0, seat]`` the card points of ``seat``'s team as buyer in Sun, ``out[1 + suit, seat]`` in
    Hokum with that trump."""
    C = W[R_C]
    S = W[R_IN]
    n = C[C_N]
    for seat in range(n):
        x[X_BIDDER] = seat
        if C[C_BALOOT] != 0:
            for row in range(5):
                x[X_MODE] = MODE_SUN if row == 0 else MODE_HOKUM
                x[X_TRUMP] = row - 1
                x[X_CLOSED] = 0
                first_lead(S, P, C, x)
                begin(S, P, STR, W)
                out[row, seat] = total_of(S, C, value(S, P, STR, W, tt))
            continue
        x[X_CONTRACT] = P[P_BID_MIN]
        first_lead(S, P, C, x)
        for t in range(4):
            if not K.may_name_trump(P, S[S_HAND + seat], t):
                out[t, seat] = -1
            else:
                out[t, seat] = best_contract(S, P, STR, W, tt, t, 0, NO_CLASS, NO_CLASS)
