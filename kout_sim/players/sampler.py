"""Exact determinization sampler: deal the cards an observer cannot see, uniformly among the deals
consistent with everything that seat knows (the piece an ISMCTS player needs).

What a seat knows (only public state and its own hand are read, never another seat's hand):

* its own hand, the cards of completed tricks (``S_PLAYED``) and of the current trick;
* how many cards every seat holds (from the trick counters, not from the hands);
* ``S_VOIDS`` (:mod:`kout_sim.engine.layout`): what the plays so far have shown, entered by
  ``engine.game.record_play`` wherever a state may be sampled. The engine derives it from the
  legal-move kernels: failing to follow shows a void (RULES.md 1.5, 2.6, 3.4.1; a joker
  is always legal, so it shows nothing, 1.5/2.6; a permitted joker lead makes trump the led suit,
  1.7), a rankless joker lead shows a hand of unleadable jokers only (1.8), a Hokum player who did
  not trump / overtrump shows no trump / no higher trump (3.4.2, 3.4.3), a trump led in a closed
  hand shows a hand of trumps only (3.3.1);
* Bahraini Kout: the bidder held a trump at the trump choice (2.4), so until he has played one he
  still holds one; a leader of the last trick whose hand did not end on the spot does not hold the
  joker (2.8);
* Baloot: the face-up card is in the taker's hand until played (3.2.6); before the completion the
  eleven undealt cards are a hidden "stock" slot (dealt in uniform order into ``B_STOCK``).

Every such fact is "seat ``s`` holds no card of the set ``X``", or (2.4) "holds at least one of
``X``". So the hidden cards fall into **classes**: cards with the same set of slots allowed to hold
them (and the same membership in the 2.4 set) are interchangeable, and a deal is consistent iff it
respects each slot's hand size and the per-(slot, class) bounds. This is the coarsest partition
that makes the constraints exact (suits split by voids, jokers apart when a rankless lead excluded
them, the Hokum trump suit split into bands by the overtrump facts, a 2.4 class for the bidder).

Sampling (:func:`sample_hidden`) is exact: a deal with allocation matrix ``a[slot, class]`` has
``prod_k n_k! / prod_s a[s, k]!`` realisations, so the allocation is drawn in proportion to that
weight and the cards of each class are then dealt uniformly. Classes allowed to one slot only are
given to it; classes every slot may hold without bounds are merged into one **free** class; the
remaining **constrained** classes go through a dynamic programme **over slots** whose state is the
vector of remaining constrained-class counts: ``V[i, c]`` = sum over allocations of slots ``i..m-1``
using exactly ``c`` of ``prod 1/a! * 1/f!`` (``f`` = free cards the slot takes). The weight factors
over slots because the free class's multinomial ``n_F! / prod_s f_s!`` does too, so the free class
needs no state dimension. The state space is ``prod_k (n_k + 1)`` over the constrained classes only:
voids are few, so it is tiny in practice (kout_bo_4 mid-hand: one or two classes, <= 100 states), and
it is bounded for any preset because a class is a set of slots: with 3 hidden seats there are at
most 3 constrained classes (the pairs; Bahraini: a 2.4 class more), and in Kout at most one class per suit and joker (plus 2.4),
so at most ``prod_suits (n_suit + 1)`` (about 1.2e5 for kout_bo_6 with every suit constrained), which
is also why the DP does not run over classes with the per-seat needs as state (up to 9**5 states for
five hidden seats). Each slot's allocations are enumerated by an odometer capped by its need, and
states that would need more free cards than exist are skipped. With no constrained class the
sampler is a plain shuffle. Measured (one thread, determinize): kout_bo_4 mid-hand 0.9 us (no
constraint), 1.5 us (one constrained class), 2.6 us (two); late positions 1-2.5 us in kout_bo_4,
kout_bh_4 and Baloot; kout_bo_6 mid-hand 3 / 17 / 160 us with one / two / three classes.

What draws nothing is planned once a position (:func:`plan_position`: the constraints, the slots,
the free class and the DP table) and each deal is drawn from the plan (:func:`deal_hidden`, the
same draws as :func:`determinize`): ISMCTS plans once a search. At the lead of the third trick of
kout_bo_4 heuristic hands a determinization took 1.44 us planned each time, and an ISMCTS
iteration about 2.6 us; planned once, with a draw that allocates nothing (its scratch is the
plan's tail, ``PL_COUNTS`` .. ``PL_CARDS``), a search of 1,000 iterations takes about 1.7 ms.

Not modelled: Baloot project declarations (RULES.md 3.5.1) are not used as information (the engine
computes the projects of all seats from the true hands at the completion, and ``S`` does not record
who played which card, so a sampled hand cannot be checked against them).

Probabilities are float64 ratios of exact integer weights; the only departure from exact uniformity
is their rounding (relative 1e-16).

Size: over 600 lines on purpose. The knowledge of a seat, the plan (constraints, slots, classes,
the DP table) and the draw are one algorithm whose parts share the plan's offsets (``PL_*``) and
its scratch; one module keeps them in one numba cache key, and the tests read them together.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..engine._jit import copy_into, jit, jit_alloc, jit_leaf, lowest_bit, popcount
from ..engine.layout import (
    B_FACE_UP,
    B_MODE,
    B_STOCK,
    B_TAKER,
    FAMILY_BALOOT,
    JOKER_SINGLE,
    MODE_HOKUM,
    P_DECK,
    P_FAMILY,
    P_JOKER_MODEL,
    P_N_PLAYERS,
    P_N_TRICKS,
    P_TRUMP_MUST_HOLD,
    PH_AUCTION,
    PH_COMPLETION,
    PH_PLAY,
    S_BIDDER,
    S_HAND,
    S_LEADER,
    S_N_DONE,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_TRICK,
    S_TRUMP,
    S_VOIDS,
)
from ..engine.rng import below, next_u64

MAX_SLOTS = 7
"""Slots that receive hidden cards: seats 0..5 and the Baloot stock."""
STOCK = 6
"""Slot of the Baloot undealt stock (before the completion, RULES.md 3.2.6)."""
MAX_CLASSES = 16
"""Capacity of the class arrays (distinct allowed-slot sets; at most 8 occur)."""
BALOOT_FIRST_DEAL = 5  # RULES.md 3.2.1
BALOOT_STOCK = 11  # 32 - 4 * 5 - the face-up card
JK = 54

_INV_FACT = np.array([1.0 / math.factorial(i) for i in range(64)], dtype=np.float64)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@jit_leaf
def before_completion(S: np.ndarray, P: np.ndarray) -> bool:
    """Baloot, before the completion: five cards each, eleven undealt (RULES.md 3.2.1, 3.2.6)."""
    phase = S[S_PHASE]
    # plain comparisons compile to plain branches (as in kout_sim/engine, SIM109 is off there)
    return P[P_FAMILY] == FAMILY_BALOOT and (phase == PH_AUCTION or phase == PH_COMPLETION)  # noqa: SIM109


@jit_leaf
def hand_size(S: np.ndarray, P: np.ndarray, seat: int) -> int:
    """Number of cards ``seat`` holds, from the public counters only (never from the hands)."""
    phase = S[S_PHASE]
    baloot = P[P_FAMILY] == FAMILY_BALOOT
    if before_completion(S, P):
        return BALOOT_FIRST_DEAL
    if not baloot and phase != PH_PLAY:
        return P[P_N_TRICKS]
    n = P[P_N_PLAYERS]
    pos = seat - S[S_LEADER]
    if pos < 0:
        pos += n
    return P[P_N_TRICKS] - S[S_N_DONE] - (1 if pos < S[S_N_IN_TRICK] else 0)


@jit_alloc
def constraints(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    seat: int,
    known: np.ndarray,
    need: np.ndarray,
    cls: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
) -> int:
    """What ``seat`` knows about the cards it cannot see, as arrays (filled in place).

    Parameters
    ----------
    S, P, STR
        Hand state ``int64[S_SIZE]``, rule parameters and card tables (:mod:`.layout`).
    seat
        The observer.
    known
        ``int64[MAX_SLOTS]`` out: cards known to be in each slot (the observer's hand; the Baloot
        face-up card in the taker's hand until played, RULES.md 3.2.6).
    need
        ``int64[MAX_SLOTS]`` out: how many hidden cards each slot holds (0 for the observer; slot
        ``STOCK`` = the undealt Baloot cards before the completion).
    cls
        ``int64[MAX_CLASSES]`` out: card mask of each class; their union is the hidden cards.
    lo, hi
        ``int64[MAX_SLOTS, MAX_CLASSES]`` out: bounds on how many cards of each class each slot
        holds (``hi`` 0 where the slot has shown it holds none; ``lo`` 1 for the 2.4 class).

    Returns
    -------
    int
        The number of classes, or -1 if the state is inconsistent (card counts do not add up, or
        a hidden card no slot may hold).
    """
    known[:] = 0
    need[:] = 0
    cls[:] = 0
    lo[:, :] = 0
    hi[:, :] = 0
    n = P[P_N_PLAYERS]
    phase = S[S_PHASE]
    baloot = P[P_FAMILY] == FAMILY_BALOOT
    pre = before_completion(S, P)
    one = np.int64(1)
    gone = S[S_PLAYED]
    for i in range(S[S_N_IN_TRICK]):
        gone |= one << S[S_TRICK + i]
    own = S[S_HAND + seat]
    hidden = P[P_DECK] & ~own & ~gone
    known[seat] = own
    for s in range(n):
        if s != seat:
            need[s] = hand_size(S, P, s)
    if baloot:
        face = one << S[B_FACE_UP]
        hidden &= ~face
        if pre:
            need[STOCK] = BALOOT_STOCK
        else:
            taker = S[B_TAKER]
            if taker != seat and (gone & face) == 0:
                known[taker] |= face  # 3.2.6: the face-up card is the taker's until played
                need[taker] -= 1
    total = 0
    for s in range(MAX_SLOTS):
        total += need[s]
    if total != popcount(hidden):
        return -1
    voids = S[S_VOIDS]
    trump = S[S_TRUMP]
    in_play = phase == PH_PLAY
    bands = baloot and in_play and S[B_MODE] == MODE_HOKUM
    lb_seat = -1  # 2.4: the bidder, while he has not played a trump
    jk_seat = -1  # 2.8: the leader of the last trick does not hold the joker
    if not baloot and in_play:
        bidder = S[S_BIDDER]
        if P[P_TRUMP_MUST_HOLD] != 0 and bidder != seat and ((voids >> (bidder * 8 + 7)) & 1) == 0:
            lb_seat = bidder
        leader = S[S_LEADER]
        if (
            P[P_JOKER_MODEL] == JOKER_SINGLE
            and S[S_N_IN_TRICK] == 0
            and leader != seat
            and need[leader] == 1
        ):
            jk_seat = leader
    keys = np.empty(MAX_CLASSES, dtype=np.int64)
    n_cls = 0
    m = hidden
    while m != 0:
        card = lowest_bit(m)
        m &= m - 1
        allowed = np.int64(0)
        for s in range(MAX_SLOTS):
            if need[s] == 0:
                continue
            if s < 6:
                v = voids >> (s * 8)
                if card < 52:
                    suit = card // 13
                    if (v >> suit) & 1:
                        continue  # shown void in the suit (1.5, 2.6, 3.4)
                    if bands and suit == trump and (voids >> (32 + s * 8 + card % 13 - 5)) & 1:
                        continue  # 3.4.2-3: shown to hold no trump this high
                else:
                    if (v >> (4 + card - 52)) & 1:
                        continue  # 1.8: shown to hold no such joker
                    if card == JK and s == jk_seat:
                        continue  # 2.8
            allowed |= one << s
        if allowed == 0:
            return -1
        key = allowed
        if lb_seat >= 0 and card < 52 and card // 13 == trump:
            key |= one << 8
        k = 0
        while k < n_cls and keys[k] != key:
            k += 1
        if k == n_cls:
            if n_cls == MAX_CLASSES:
                return -1
            keys[k] = key
            n_cls += 1
        cls[k] |= one << card
    for k in range(n_cls):
        count = popcount(cls[k])
        for s in range(MAX_SLOTS):
            if (keys[k] >> s) & 1:
                hi[s, k] = count
        if (keys[k] >> 8) & 1:
            lo[lb_seat, k] = 1  # 2.4: the bidder still holds a trump
    return n_cls


@jit_leaf
def _uniform(rng: np.ndarray) -> float:
    """Uniform float64 in [0, 1) from 53 random bits."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * _TO_UNIT


@jit
def _first_alloc(a: np.ndarray, amin: np.ndarray, amax: np.ndarray, K: int, cap: int) -> int:
    """Set ``a[:K]`` to the smallest allocation within ``[amin, amax]`` and return its total, or
    -1 if there is none with total at most ``cap``."""
    taken = 0
    for k in range(K):
        if amin[k] > amax[k]:
            return -1
        a[k] = amin[k]
        taken += a[k]
    return taken if taken <= cap else -1


@jit
def _next_alloc(
    a: np.ndarray, amin: np.ndarray, amax: np.ndarray, K: int, cap: int, taken: int
) -> int:
    """Odometer step of ``a[:K]`` (total ``taken``) to the next allocation within ``[amin, amax]``
    with total at most ``cap``; returns the new total, or -1 after the last one. A digit that
    would break the cap carries at once (every later allocation of the lower digits is larger)."""
    for k in range(K):
        if a[k] < amax[k] and taken < cap:
            a[k] += 1
            return taken + 1
        taken -= a[k] - amin[k]
        a[k] = amin[k]
    return -1


@jit_alloc
def _deal_class(
    rng: np.ndarray, mask: int, counts: np.ndarray, out: np.ndarray, m: int, cards: np.ndarray
) -> None:
    """Deal the cards of ``mask`` uniformly: ``counts[i]`` of them to ``out[i]`` for i < m
    (``cards``: int64[64] scratch)."""
    left = 0
    while mask != 0:
        cards[left] = lowest_bit(mask)
        mask &= mask - 1
        left += 1
    for i in range(m):
        for _ in range(counts[i]):
            r = below(rng, left)
            out[i] |= np.int64(1) << cards[r]
            left -= 1
            cards[r] = cards[left]


# the plan of sample_hidden (int64[PLAN_SIZE]): what the draws of one position share
PL_STATUS = 0  # 0, or -1 when no deal satisfies the bounds
PL_M = 1  # slots that receive hidden cards
PL_K = 2  # constrained classes
PL_T = 3  # states of the DP (mixed radix over the constrained classes' remaining counts)
PL_FREE = 4  # the free class: cards every receiving slot may hold without bounds
PL_SLOTS = 8  # MAX_SLOTS: the receiving slots, in order
PL_REM = PL_SLOTS + MAX_SLOTS  # MAX_SLOTS: hidden cards each slot still takes (by slot)
PL_OUT = PL_REM + MAX_SLOTS  # MAX_SLOTS: the cards of classes only one slot may hold (by slot)
PL_CON = PL_OUT + MAX_SLOTS  # MAX_CLASSES: the constrained class ids
PL_SIZE = PL_CON + MAX_CLASSES  # MAX_CLASSES: cards of each constrained class
PL_STRIDE = PL_SIZE + MAX_CLASSES  # MAX_CLASSES: its stride in the DP state
# the scratch of a draw (overwritten by each draw: one plan serves one thread)
PL_COUNTS = PL_STRIDE + MAX_CLASSES  # MAX_SLOTS: free cards each receiving slot takes
PL_DEALT = PL_COUNTS + MAX_SLOTS  # MAX_SLOTS: the cards dealt to each receiving slot
PL_DRAWN = PL_DEALT + MAX_SLOTS  # MAX_SLOTS: the deal by slot (deal_hidden's)
PL_A = PL_DRAWN + MAX_SLOTS  # MAX_CLASSES: an allocation of the constrained classes
PL_AMIN = PL_A + MAX_CLASSES  # MAX_CLASSES
PL_AMAX = PL_AMIN + MAX_CLASSES  # MAX_CLASSES
PL_ALLOC = PL_AMAX + MAX_CLASSES  # MAX_CLASSES * MAX_SLOTS: each class's cards by receiving slot
PL_CARDS = PL_ALLOC + MAX_CLASSES * MAX_SLOTS  # 64: the cards of a class being dealt
PLAN_SIZE = PL_CARDS + 64


@jit_alloc
def sample_hidden(
    rng: np.ndarray,
    need: np.ndarray,
    cls: np.ndarray,
    n_cls: int,
    lo: np.ndarray,
    hi: np.ndarray,
    out: np.ndarray,
) -> int:
    """Deal the hidden cards to the slots, uniformly among the deals within the bounds.

    Parameters
    ----------
    rng
        ``uint64[4]`` random stream (:mod:`kout_sim.engine.rng`).
    need, cls, n_cls, lo, hi
        As filled by :func:`constraints`.
    out
        ``int64[MAX_SLOTS]`` out: the hidden cards dealt to each slot.

    Returns
    -------
    int
        0, or -1 when no deal satisfies the bounds.
    """
    plan, V = plan_hidden(need, cls, n_cls, lo, hi)
    return draw_hidden(rng, plan, V, cls, lo, hi, out)


@jit_alloc
def plan_hidden(
    need: np.ndarray, cls: np.ndarray, n_cls: int, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The part of :func:`sample_hidden` that draws nothing: the slots, the classes that go to one
    slot, the free class and the DP table ``V`` of the constrained classes. Returns ``(plan, V)``:
    ``plan`` int64[PLAN_SIZE] (the ``PL_`` offsets), ``V`` float64[m + 1, T]. A search drawing
    many deals from one position plans once (:func:`draw_hidden` draws)."""
    plan = np.zeros(PLAN_SIZE, dtype=np.int64)
    V = np.zeros((1, 1), dtype=np.float64)
    m = np.int64(0)  # np.int64: a literal 0 would give the callees a signature of their own
    active = np.int64(0)
    for s in range(MAX_SLOTS):
        plan[PL_REM + s] = need[s]
        if need[s] > 0:
            plan[PL_SLOTS + m] = s
            active |= np.int64(1) << s
            m += 1
    plan[PL_M] = m
    plan[PL_STATUS] = -1
    free = np.int64(0)
    K = np.int64(0)
    for k in range(n_cls):
        count = popcount(cls[k])
        allowed = np.int64(0)
        unbounded = True
        for s in range(MAX_SLOTS):
            if hi[s, k] > 0:
                allowed |= np.int64(1) << s
            if lo[s, k] > 0 or hi[s, k] < count:
                unbounded = False
        if allowed == 0 or (allowed & ~active) != 0:
            return plan, V
        if popcount(allowed) == 1:
            s = lowest_bit(allowed)
            if count < lo[s, k] or count > hi[s, k]:
                return plan, V
            plan[PL_OUT + s] |= cls[k]  # the only slot that may hold them
            plan[PL_REM + s] -= count
            if plan[PL_REM + s] < 0:
                return plan, V
        elif allowed == active and unbounded:
            free |= cls[k]
        else:
            plan[PL_CON + K] = k
            K += 1
    plan[PL_FREE] = free
    plan[PL_K] = K
    if K == 0:
        # a plain shuffle of the free cards into the needs
        left = 0
        for i in range(m):
            left += plan[PL_REM + plan[PL_SLOTS + i]]
        if left != popcount(free):
            return plan, V
        plan[PL_STATUS] = 0
        return plan, V
    # DP over slots, state = remaining counts of the constrained classes (mixed radix)
    T = 1
    for j in range(K):
        plan[PL_SIZE + j] = popcount(cls[plan[PL_CON + j]])
        plan[PL_STRIDE + j] = T
        T *= plan[PL_SIZE + j] + 1
    plan[PL_T] = T
    size = plan[PL_SIZE : PL_SIZE + K]
    stride = plan[PL_STRIDE : PL_STRIDE + K]
    con = plan[PL_CON : PL_CON + K]
    V = np.zeros((m + 1, T), dtype=np.float64)
    V[m, 0] = 1.0
    a = np.empty(K, dtype=np.int64)
    amin = np.empty(K, dtype=np.int64)
    amax = np.empty(K, dtype=np.int64)
    n_free = popcount(free)
    after = 0  # hidden cards of the slots after slot i
    for i in range(m - 1, 0, -1):  # V[0] is only needed at the start state: the pick computes it
        s = plan[PL_SLOTS + i]
        rem_s = plan[PL_REM + s]
        for c in range(T):
            base = V[i + 1, c]
            if base == 0.0:
                continue
            left = 0
            for j in range(K):
                cj = (c // stride[j]) % (size[j] + 1)
                left += cj
                amin[j] = lo[s, con[j]]
                amax[j] = min(hi[s, con[j]], size[j] - cj)
            if after - left > n_free:
                continue  # would need more free cards than exist: never reached from the start
            taken = _first_alloc(a, amin, amax, K, rem_s)
            while taken >= 0:
                w = base * _INV_FACT[rem_s - taken]
                idx = c
                for j in range(K):
                    w *= _INV_FACT[a[j]]
                    idx += a[j] * stride[j]
                V[i, idx] += w
                taken = _next_alloc(a, amin, amax, K, rem_s, taken)
        after += rem_s
    plan[PL_STATUS] = 0
    return plan, V


@jit_alloc
def draw_hidden(
    rng: np.ndarray,
    plan: np.ndarray,
    V: np.ndarray,
    cls: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    out: np.ndarray,
) -> int:
    """Draw one deal of :func:`sample_hidden` from its :func:`plan_hidden` (the same draws from
    ``rng``); 0, or -1 when no deal satisfies the bounds."""
    for s in range(MAX_SLOTS):
        out[s] = plan[PL_OUT + s]
    if plan[PL_STATUS] < 0:
        return -1
    m = plan[PL_M]
    K = plan[PL_K]
    free = plan[PL_FREE]
    counts = plan[PL_COUNTS : PL_COUNTS + MAX_SLOTS]
    dealt = plan[PL_DEALT : PL_DEALT + MAX_SLOTS]
    cards = plan[PL_CARDS : PL_CARDS + 64]
    for i in range(MAX_SLOTS):
        counts[i] = 0
        dealt[i] = 0
    if K == 0:
        for i in range(m):
            counts[i] = plan[PL_REM + plan[PL_SLOTS + i]]
        _deal_class(rng, free, counts, dealt, m, cards)
        for i in range(m):
            out[plan[PL_SLOTS + i]] |= dealt[i]
        return 0
    size = plan[PL_SIZE : PL_SIZE + K]
    stride = plan[PL_STRIDE : PL_STRIDE + K]
    con = plan[PL_CON : PL_CON + K]
    a = plan[PL_A : PL_A + K]
    amin = plan[PL_AMIN : PL_AMIN + K]
    amax = plan[PL_AMAX : PL_AMAX + K]
    state = plan[PL_T] - 1  # all constrained cards still to deal
    for i in range(m):
        s = plan[PL_SLOTS + i]
        rem_s = plan[PL_REM + s]
        for j in range(K):
            cj = (state // stride[j]) % (size[j] + 1)
            amin[j] = lo[s, con[j]]
            amax[j] = min(hi[s, con[j]], cj)
        # two passes: the total weight of the choices, then the pick
        total = 0.0
        for rnd in range(2):
            target = _uniform(rng) * total if rnd == 1 else 0.0
            acc = 0.0
            chosen = False
            taken = _first_alloc(a, amin, amax, K, rem_s)
            while taken >= 0:
                w = _INV_FACT[rem_s - taken]
                idx = state
                for j in range(K):
                    w *= _INV_FACT[a[j]]
                    idx -= a[j] * stride[j]
                acc += w * V[i + 1, idx]
                if rnd == 1 and acc > target:
                    chosen = True
                    break
                taken = _next_alloc(a, amin, amax, K, rem_s, taken)
            if rnd == 0:
                if acc <= 0.0:
                    return -1  # no deal satisfies the bounds
                total = acc
            elif not chosen:
                return -1  # unreachable: rounding cannot exhaust the total
        taken = 0
        for j in range(K):
            plan[PL_ALLOC + j * MAX_SLOTS + i] = a[j]
            taken += a[j]
            state -= a[j] * stride[j]
        counts[i] = rem_s - taken
    _deal_class(rng, free, counts, dealt, m, cards)
    for j in range(K):
        alloc_j = plan[PL_ALLOC + j * MAX_SLOTS : PL_ALLOC + (j + 1) * MAX_SLOTS]
        _deal_class(rng, cls[con[j]], alloc_j, dealt, m, cards)
    for i in range(m):
        out[plan[PL_SLOTS + i]] |= dealt[i]
    return 0


@jit_alloc
def determinize(
    S: np.ndarray, P: np.ndarray, STR: np.ndarray, seat: int, rng: np.ndarray, out_S: np.ndarray
) -> int:
    """Copy ``S`` into ``out_S`` with the cards ``seat`` cannot see dealt by :func:`sample_hidden`.

    ``out_S`` (``int64[S_SIZE]``) gets every other seat's hand replaced by its known cards plus a
    sample. Baloot before the completion: the eleven undealt cards are sampled too and written to
    ``B_STOCK`` in uniformly random order, so the completion that follows is a uniform draw as
    well. Baloot after the completion: ``B_STOCK`` (which would tell who received which undealt
    card) is set to -1. The project fields (``B_PROJ*``, ``B_BALOOT_SEAT``) are copied as they are:
    the engine computes them from the true hands at the completion, so a search scoring Baloot
    hands from ``out_S`` sees the true project owner and Baloot holder (RULES.md 3.5), and the
    sampled hands are not conditioned on the projects (see the module notes).

    Returns
    -------
    int
        0, or -1 if the state is inconsistent (``out_S`` is then a plain copy).
    """
    return deal_hidden(S, P, seat, rng, out_S, plan_position(S, P, STR, seat))


class HiddenPlan(NamedTuple):
    """The hidden cards of one position as a seat sees them, planned for drawing
    (:func:`plan_position`; the arrays of :func:`constraints` and of :func:`plan_hidden`)."""

    known: np.ndarray  # int64[MAX_SLOTS]: the cards known to be in each slot
    need: np.ndarray  # int64[MAX_SLOTS]: how many hidden cards each slot holds
    cls: np.ndarray  # int64[MAX_CLASSES]: the card mask of each class
    lo: np.ndarray  # int64[MAX_SLOTS, MAX_CLASSES]: the fewest cards of a class a slot holds
    hi: np.ndarray  # int64[MAX_SLOTS, MAX_CLASSES]: the most
    plan: np.ndarray  # int64[PLAN_SIZE]: the plan (PL_ offsets; status -1: inconsistent state)
    V: np.ndarray  # float64[m + 1, T]: the DP table of the constrained classes


@jit_alloc
def plan_position(S: np.ndarray, P: np.ndarray, STR: np.ndarray, seat: int) -> HiddenPlan:
    """:func:`constraints` and :func:`plan_hidden` of ``S`` seen by ``seat``: everything
    :func:`deal_hidden` needs that draws nothing (the plan's status -1 when the state is
    inconsistent). A search drawing many deals from one position plans once."""
    known = np.empty(MAX_SLOTS, dtype=np.int64)
    need = np.empty(MAX_SLOTS, dtype=np.int64)
    cls = np.empty(MAX_CLASSES, dtype=np.int64)
    lo = np.empty((MAX_SLOTS, MAX_CLASSES), dtype=np.int64)
    hi = np.empty((MAX_SLOTS, MAX_CLASSES), dtype=np.int64)
    n_cls = constraints(S, P, STR, seat, known, need, cls, lo, hi)
    if n_cls < 0:
        plan = np.zeros(PLAN_SIZE, dtype=np.int64)
        plan[PL_STATUS] = -1
        return HiddenPlan(known, need, cls, lo, hi, plan, np.zeros((1, 1), dtype=np.float64))
    plan, V = plan_hidden(need, cls, n_cls, lo, hi)
    return HiddenPlan(known, need, cls, lo, hi, plan, V)


@jit_alloc
def deal_hidden(
    S: np.ndarray, P: np.ndarray, seat: int, rng: np.ndarray, out_S: np.ndarray, h: HiddenPlan
) -> int:
    """:func:`determinize` from ``h``, the :func:`plan_position` of ``S`` and ``seat``: the same
    draws from ``rng``."""
    known, need, plan = h.known, h.need, h.plan
    copy_into(out_S, S)  # a loop: the slice assignment pulls in numba's shape-error code
    dealt = plan[PL_DRAWN : PL_DRAWN + MAX_SLOTS]
    if draw_hidden(rng, plan, h.V, h.cls, h.lo, h.hi, dealt) < 0:
        return -1
    n = P[P_N_PLAYERS]
    for s in range(n):
        if s != seat:
            out_S[S_HAND + s] = known[s] | dealt[s]
    if P[P_FAMILY] == FAMILY_BALOOT:
        if need[STOCK] > 0:
            cards = plan[PL_CARDS : PL_CARDS + BALOOT_STOCK]  # the draw's scratch, free again
            stock = dealt[STOCK]
            for k in range(BALOOT_STOCK):
                cards[k] = lowest_bit(stock)
                stock &= stock - 1
            for k in range(BALOOT_STOCK - 1, 0, -1):  # Fisher-Yates: a uniform dealing order
                r = below(rng, k + 1)
                tmp = cards[k]
                cards[k] = cards[r]
                cards[r] = tmp
            for k in range(BALOOT_STOCK):
                out_S[B_STOCK + k] = cards[k]
        else:
            for k in range(BALOOT_STOCK):
                out_S[B_STOCK + k] = -1
    return 0
