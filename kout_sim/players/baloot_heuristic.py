"""The Baloot heuristic policy: rule-of-thumb buying, doubling and card play (RULES.md §3).

The policy sees only what its seat may know: its own hand ``S[S_HAND + seat]``, the face-up card, the
calls (auction fields, mode, trump, buyer, doubling stage), the current trick and the cards of the
completed tricks (``S_PLAYED``). It never reads another seat's hand or the stock.

Hand strength is a point count (floats, larger = stronger) over a card mask:

* :func:`evaluate_sun` values Aces, Tens behind their Ace, guarded Kings and long suits headed by an
  Ace (Sun has no trump, RULES.md 3.1: A > T > K > Q > J > 9 > 8 > 7);
* :func:`evaluate_hokum` values the trump Jack and Nine (1st and 2nd trump, 20 and 14 points), trump
  length, side Aces and side voids (RULES.md 3.1, 3.4.2: a void player must trump).

The auction compares them with the thresholds of :data:`BALOOT_PARAMS`; card play is a fixed set of
priorities (see :func:`choose_card`). Projects are read and scored by the engine (RULES.md 3.5), and a
Baloot (K+Q of trump) scores once both cards are played, which always happens since all eight tricks are
played: the policy needs no special care to keep it.

Size: over 600 lines on purpose: one policy (buying, doubling, leads, follows) whose parts share
its hand evaluation; see :mod:`kout_sim.players.kout_heuristic`.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import jit, jit_leaf, lowest_bit, nth_bit, popcount
from ..engine.baloot.hand import strength, winning_idx
from ..engine.layout import (
    B_DBL_STAGE,
    B_FACE_UP,
    B_HOKUM_BIDDER,
    B_HOKUM_SUIT,
    B_MODE,
    B_STAGE,
    B_SUN_CALLER,
    B_TAKER,
    BC_ASHKAL,
    BC_CONFIRM,
    BC_DOUBLE,
    BC_FOUR,
    BC_GAHWA,
    BC_HOKUM,
    BC_HOKUM_SUIT,
    BC_KAWESH,
    BC_PASS,
    BC_SUN,
    BC_TRIPLE,
    MODE_HOKUM,
    P_DECK,
    PH_AUCTION,
    PH_DOUBLING,
    S_BIDDER,
    S_HAND,
    S_LEADER,
    S_LED,
    S_N_DONE,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_TO_ACT,
    S_TRICK,
    S_TRICKS,
    S_TRUMP,
    T_ABOVE_LED,
    T_ABOVE_TRUMP,
    T_LED,
    T_POINTS,
)
from ..engine.rng import below
from ..engine.trick import suit_of
from .kinds import Param
from .turn import Turn

# ---- parameters (slots of the seat's float64 parameter row) -------------------------------------
PRM_SUN = 0
PRM_HOKUM = 1
PRM_ASHKAL = 2
PRM_DOUBLE = 3
PRM_RAISE = 4
PRM_EPSILON = 5
PRM_KEEP = 6
PRM_RUFF = 7
PRM_PULL = 8
PRM_SUN_BIAS = 9
PRM_STEAL = 10
PRM_SHORT = 11
PRM_TEAM_PULL = 12
PRM_COVER = 13
PRM_GAMBLE = 14
PRM_CHEAP = 15

BALOOT_PARAMS: tuple[Param, ...] = (
    Param(
        "sun", PRM_SUN, 26.0, 0.0, 200.0, "buy Sun when evaluate_sun(hand + face-up) reaches this"
    ),
    Param(
        "hokum",
        PRM_HOKUM,
        26.0,
        0.0,
        200.0,
        "buy Hokum when evaluate_hokum(hand + face-up, suit) reaches this",
    ),
    Param(
        "ashkal",
        PRM_ASHKAL,
        26.0,
        0.0,
        200.0,
        "P3/P4 call Ashkal when the own 5-card Sun value plus the face-up card's worth reaches this",
    ),
    Param(
        "double",
        PRM_DOUBLE,
        34.0,
        0.0,
        999.0,
        "a buyer's opponent doubles when his 8-card strength in the buyer's mode reaches this "
        "(Four at +12; 999: never double)",
    ),
    Param(
        "raise",
        PRM_RAISE,
        62.0,
        0.0,
        999.0,
        "a doubled Hokum buyer answers Triple when his 8-card Hokum value reaches this "
        "(Gahwa at +15; 999: never)",
    ),
    Param("epsilon", PRM_EPSILON, 0.0, 0.0, 1.0, "probability of a uniformly random legal action"),
    Param(
        "keep",
        PRM_KEEP,
        12.0,
        0.0,
        50.0,
        "points a master card (no unseen card outranks it) is worth keeping rather than "
        "smearing or discarding",
    ),
    Param(
        "ruff",
        PRM_RUFF,
        0.0,
        0.0,
        8.0,
        "Hokum, trumps still out: a side master is trusted to hold only with this many cards of "
        "its suit unseen (fewer: an opponent may ruff)",
    ),
    Param(
        "pull",
        PRM_PULL,
        1.0,
        0.0,
        1.0,
        "1: a Hokum buyer with 3+ trumps and no master trump leads a small trump to pull trumps",
    ),
    Param(
        "sun_bias",
        PRM_SUN_BIAS,
        5.0,
        0.0,
        99.0,
        "when both qualify, Sun is preferred unless the Hokum value clears its threshold by this "
        "much more than the Sun value (99: Sun whenever it qualifies)",
    ),
    Param(
        "steal",
        PRM_STEAL,
        0.0,
        0.0,
        30.0,
        "the Sun threshold is lowered by this while an opponent holds the standing Hokum bid",
    ),
    Param(
        "short",
        PRM_SHORT,
        3.0,
        0.0,
        20.0,
        "Hokum, holding trumps: a side singleton is this much cheaper to discard or lead "
        "(making a void to ruff)",
    ),
    Param(
        "team_pull",
        PRM_TEAM_PULL,
        1.0,
        0.0,
        1.0,
        "1: the Hokum buyer's partner without the master trump leads a small trump to the buyer",
    ),
    Param(
        "cover",
        PRM_COVER,
        0.0,
        0.0,
        99.0,
        "third to play, the partner winning with a card that may be beaten: overtake with a sure "
        "winner when the trick holds this many points",
    ),
    Param(
        "gamble",
        PRM_GAMBLE,
        10.0,
        0.0,
        99.0,
        "third to play, an opponent winning: try a winner that may be beaten when the trick holds "
        "this many points (99: never)",
    ),
    Param(
        "cheap",
        PRM_CHEAP,
        10.0,
        0.0,
        99.0,
        "a trick without points is won only with a card whose keep value (trump or master "
        "worth) is below this, unless nothing else is legal",
    ),
)

ONE = np.int64(1)
SUIT_BITS = 0x1FE0  # ranks 7..A (rank indices 5..12) of suit 0; shift by 13 * suit
RANK7 = 5  # rank index of the 7, the lowest Baloot rank
KEEP_TRUMP = 25.0  # discard/smear penalty of a trump (Hokum)


# ---- hand evaluation -----------------------------------------------------------------------------


@jit_leaf
def _suit_pattern(hand: int, suit: int) -> int:
    """8-bit rank pattern of ``suit`` in ``hand``: bit 0 = 7, 1 = 8, 2 = 9, 3 = T, 4 = J, 5 = Q,
    6 = K, 7 = A."""
    return (hand >> (13 * suit + RANK7)) & 0xFF


def _sun_suit(b: int) -> float:
    """Sun strength of one suit whose 8-bit rank pattern is ``b`` (see :func:`evaluate_sun`)."""
    v = 0.0
    n = popcount(b)
    a = (b >> 7) & 1 != 0
    t = (b >> 3) & 1 != 0
    k = (b >> 6) & 1 != 0
    if a:
        v += 10.0
        if n >= 4:
            v += 2.5 * (n - 3)
    if t:
        if a:
            v += 7.0
        elif n >= 2:
            v += 3.0
    if k:
        if a and t:
            v += 3.0
        elif (a or t) and n >= 3:
            v += 2.0
        elif n >= 3:
            v += 1.0
    return v


def _hokum_trump(tb: int) -> float:
    """Hokum strength of the trump suit whose rank pattern is ``tb`` (see :func:`evaluate_hokum`)."""
    # bit: 7 8 9 T J Q K A
    worth = (2.0, 2.0, 10.0, 5.0, 12.0, 3.0, 3.0, 7.0)
    v = sum(w for i, w in enumerate(worth) if (tb >> i) & 1)
    nt = popcount(tb)
    if nt > 2:
        v += 2.0 * (nt - 2)
    return v


def _hokum_side(b: int, ruffs: bool) -> float:
    """Hokum strength of a side suit whose rank pattern is ``b``, the hand holding two trumps or
    more (``ruffs``) or not (see :func:`evaluate_hokum`)."""
    v = 0.0
    n = popcount(b)
    a = (b >> 7) & 1 != 0
    t = (b >> 3) & 1 != 0
    if a:
        v += 6.0
    if t:
        if a:
            v += 3.0
        elif n >= 2:
            v += 1.0
    if a and t and (b >> 6) & 1 != 0:
        v += 1.0
    if ruffs:
        if n == 0:
            v += 3.0
        elif n == 1 and not a:
            v += 1.0
    return v


# float64 tables by an 8-bit rank pattern (every value a multiple of 0.5: the sums are exact, so
# any order of adding them gives the same float)
SUN_SUIT = np.array([_sun_suit(b) for b in range(256)])
HOKUM_TRUMP = np.array([_hokum_trump(b) for b in range(256)])
HOKUM_SIDE = np.array([[_hokum_side(b, ruffs) for b in range(256)] for ruffs in (False, True)])
# the trump suit's worth less what the same pattern would add as a side suit (the ruffs of its own
# length): a Hokum value is this plus the sum of HOKUM_SIDE over all four suits, one sum of side
# values serving every candidate trump (exact: multiples of 0.5)
HOKUM_TRUMP_NET = np.array(
    [_hokum_trump(b) - _hokum_side(b, bin(b).count("1") >= 2) for b in range(256)]
)


@jit
def evaluate_sun(hand: int) -> float:
    """Sun strength of the card mask ``hand`` (int64, any number of cards; scalar float).

    Per suit (RULES.md 3.1, Sun order A T K Q J 9 8 7): Ace 10; Ten 7 behind its Ace, 3 guarded by
    another card, 0 bare (it falls to the Ace); King 3 behind A+T, 2 with A or T in a suit of 3+,
    1 in a suit of 3+; 2.5 per card beyond three in a suit headed by its Ace (the long suit runs).
    Read from :data:`SUN_SUIT` by each suit's rank pattern.
    """
    return (
        SUN_SUIT[_suit_pattern(hand, 0)]
        + SUN_SUIT[_suit_pattern(hand, 1)]
        + SUN_SUIT[_suit_pattern(hand, 2)]
        + SUN_SUIT[_suit_pattern(hand, 3)]
    )


@jit
def evaluate_hokum(hand: int, trump: int) -> float:
    """Hokum strength of the card mask ``hand`` (int64) with trump suit ``trump`` (0..3; float).

    Trumps (RULES.md 3.1, order J 9 A T K Q 8 7): J 12, 9 10, A 7, T 5, K 3, Q 3, 8 2, 7 2, plus 2 per
    trump beyond two. Side suits: Ace 6, Ten 3 behind its Ace or 1 guarded, King 1 behind A+T; with
    two or more trumps a void side suit is worth 3 and a singleton (not an Ace) 1 (3.4.2: a void
    player ruffs). Read from :data:`HOKUM_TRUMP` and :data:`HOKUM_SIDE` by each suit's rank
    pattern.
    """
    tb = _suit_pattern(hand, trump)
    return HOKUM_TRUMP_NET[tb] + _hokum_sides(hand, 1 if popcount(tb) >= 2 else 0)


@jit
def _hokum_sides(hand: int, ruffs: int) -> float:
    """The sum of :data:`HOKUM_SIDE` ``[ruffs]`` over the four suits of ``hand`` (the trump suit
    too: :data:`HOKUM_TRUMP_NET` takes its share back)."""
    return (
        HOKUM_SIDE[ruffs, _suit_pattern(hand, 0)]
        + HOKUM_SIDE[ruffs, _suit_pattern(hand, 1)]
        + HOKUM_SIDE[ruffs, _suit_pattern(hand, 2)]
        + HOKUM_SIDE[ruffs, _suit_pattern(hand, 3)]
    )


@jit_leaf
def _face_worth(face: int) -> float:
    """What the face-up card adds for the partner after an Ashkal (Sun values of RULES.md 3.1)."""
    r = face % 13
    if r == 12:
        return 10.0
    if r == 8:
        return 4.0
    if r == 11:
        return 2.0
    return 0.0


# ---- calls: auction and doubling -----------------------------------------------------------------


@jit
def choose_call(S: np.ndarray, prm: np.ndarray, mask: int) -> int:
    """An auction call (a set bit of ``mask``, call indices BC_*) for the seat ``S[S_TO_ACT]``.

    ``S`` int64[S_SIZE] hand state, ``prm`` float64[N_PARAMS] the seat's parameters. The buyer takes
    the face-up card in both rounds (RULES.md 3.2.6), so the hand is valued with it; Hokum in round 1
    is the face-up suit, in round 2 any other suit (3.2.3, 3.2.5). Sun outranks Hokum (3.2.3).
    """
    seat = S[S_TO_ACT]
    hand = S[S_HAND + seat]
    face = S[B_FACE_UP]
    h6 = hand | (ONE << face)
    sun_v = evaluate_sun(h6)
    stage = S[B_STAGE]
    if stage == 1:
        # Sun-before-you claim (3.2.3): never take the Sun away from the partner
        caller = S[B_SUN_CALLER]
        if (caller & 1) != (seat & 1) and sun_v >= prm[PRM_SUN] and (mask >> BC_SUN) & 1 != 0:
            return BC_SUN
        return BC_PASS
    if stage == 3:
        # second_sun_chance (3.2.3): take the Sun from an opponent's Hokum only (he passed with
        # this hand once; the steal margin may now make Sun worth it)
        bidder = S[B_HOKUM_BIDDER]
        steal = sun_v >= prm[PRM_SUN] - prm[PRM_STEAL]
        if (bidder & 1) != (seat & 1) and steal and (mask >> BC_SUN) & 1 != 0:
            return BC_SUN
        return BC_PASS
    if stage == 2:
        # the Hokum bidder confirms or switches to Sun (3.2.3)
        hok_v = evaluate_hokum(h6, S[B_HOKUM_SUIT])
        if (mask >> BC_SUN) & 1 != 0 and sun_v - prm[PRM_SUN] > hok_v - prm[PRM_HOKUM] + 4.0:
            return BC_SUN
        return BC_CONFIRM
    if (mask >> BC_KAWESH) & 1 != 0:
        return BC_KAWESH  # 3.2.7: bots call Kawesh whenever they may
    # bidding: Sun, Ashkal, Hokum or pass
    best = -1
    best_v = -1.0
    if (mask >> BC_HOKUM) & 1 != 0:
        best = BC_HOKUM
        best_v = evaluate_hokum(h6, face // 13)
    if (mask >> BC_HOKUM_SUIT) & 15 != 0:
        # evaluate_hokum(h6, suit) of each suit allowed (round 2, 3.2.5): the side values summed
        # once for either length of the trump suit (exact sums: the same floats)
        sides0 = _hokum_sides(h6, np.int64(0))  # int64, not literals: one compiled copy
        sides1 = _hokum_sides(h6, np.int64(1))
        for suit in range(4):
            if (mask >> (BC_HOKUM_SUIT + suit)) & 1 != 0:
                tb = _suit_pattern(h6, suit)
                v = HOKUM_TRUMP_NET[tb] + (sides1 if popcount(tb) >= 2 else sides0)
                if v > best_v:
                    best_v = v
                    best = BC_HOKUM_SUIT + suit
    h_margin = best_v - prm[PRM_HOKUM] if best >= 0 else -1.0
    sun_thr = prm[PRM_SUN]
    bidder = S[B_HOKUM_BIDDER]
    if bidder >= 0 and (bidder & 1) != (seat & 1):
        sun_thr -= prm[PRM_STEAL]  # take the hand from the opponents' Hokum
    s_margin = sun_v - sun_thr
    ash_v = evaluate_sun(hand) + _face_worth(face)  # the partner takes the face-up card
    ashkal_ok = (mask >> BC_ASHKAL) & 1 != 0
    bias = prm[PRM_SUN_BIAS]
    sun_first = s_margin >= 0.0 and (h_margin < 0.0 or s_margin >= h_margin - bias)
    if (mask >> BC_SUN) & 1 != 0 and sun_first:
        if ashkal_ok and ash_v > sun_v:
            return BC_ASHKAL  # the face-up card serves the partner better (3.2.3)
        return BC_SUN
    a_margin = ash_v - prm[PRM_ASHKAL]
    if ashkal_ok and a_margin >= 0.0 and (h_margin < 0.0 or a_margin >= h_margin - bias):
        return BC_ASHKAL
    if h_margin >= 0.0:
        return best
    return BC_PASS


@jit
def choose_double(S: np.ndarray, prm: np.ndarray, mask: int) -> int:
    """A doubling call (RULES.md 3.3, docs/baloot.md) for the seat ``S[S_TO_ACT]`` (8 cards held).

    Opponents double (open) on a strong hand in the buyer's mode; the buyer answers Triple and Gahwa
    on a very strong Hokum; the doubler raises to Four. Everything else passes.
    """
    seat = S[S_TO_ACT]
    hand = S[S_HAND + seat]
    stage = S[B_DBL_STAGE]
    hokum = S[B_MODE] == MODE_HOKUM
    trump = S[S_TRUMP]
    if hokum:
        v = evaluate_hokum(hand, trump)
    else:
        v = evaluate_sun(hand)
    if stage <= 1:
        ok = (mask >> BC_DOUBLE) & 1
        return BC_DOUBLE if ok != 0 and v >= prm[PRM_DOUBLE] else BC_PASS
    if stage == 2:
        ok = (mask >> BC_TRIPLE) & 1
        return BC_TRIPLE if ok != 0 and v >= prm[PRM_RAISE] else BC_PASS
    if stage == 3:
        ok = (mask >> BC_FOUR) & 1
        return BC_FOUR if ok != 0 and v >= prm[PRM_DOUBLE] + 12.0 else BC_PASS
    ok = (mask >> BC_GAHWA) & 1
    return BC_GAHWA if ok != 0 and v >= prm[PRM_RAISE] + 15.0 else BC_PASS


# ---- card play -----------------------------------------------------------------------------------


def _masters_of(unseen: int, order: tuple[int, ...]) -> int:
    """The 8-bit rank pattern of the ranks that no rank of the pattern ``unseen`` outranks by
    ``order`` (the order of each bit's rank, 7 8 9 T J Q K A)."""
    return sum(
        1 << b
        for b in range(8)
        if not any((unseen >> o) & 1 and order[o] > order[b] for o in range(8))
    )


# the masters of a suit by its unseen cards' rank pattern: row 0 the plain order A T K Q J 9 8 7,
# row 1 the trump order J 9 A T K Q 8 7 (RULES.md 3.1); the same test as STR[T_ABOVE_LED] and
# STR[T_ABOVE_TRUMP] for every card of the suit at once
MASTERS = np.array(
    [
        [_masters_of(u, order) for u in range(256)]
        for order in ((1, 2, 3, 7, 4, 5, 6, 8), (1, 2, 7, 5, 8, 3, 4, 6))
    ],
    dtype=np.int64,
)


@jit
def _masters(trow: int, unseen: int) -> int:
    """The card mask of the master cards: those that no unseen card outranks in their suit (the
    trump order for the trump suit ``trow``, 4 or more: none; RULES.md 3.1). A card is master when
    ``unseen & STR[T_ABOVE_LED or T_ABOVE_TRUMP, card] == 0``; the mask answers it for every card,
    once a decision."""
    m0 = MASTERS[1 if trow == 0 else 0, _suit_pattern(unseen, 0)] << RANK7
    m1 = MASTERS[1 if trow == 1 else 0, _suit_pattern(unseen, 1)] << (13 + RANK7)
    m2 = MASTERS[1 if trow == 2 else 0, _suit_pattern(unseen, 2)] << (26 + RANK7)
    m3 = MASTERS[1 if trow == 3 else 0, _suit_pattern(unseen, 3)] << (39 + RANK7)
    return m0 | m1 | m2 | m3


@jit
def _holding(masters: int, trow: int, led: int, unseen: int, n_safe: int) -> int:
    """The card mask of the cards that, winning the trick now, likely stay the winner against the
    unseen cards (``masters``: :func:`_masters`).

    A trump holds when no higher trump is unseen. A card of the led suit holds when no higher card
    of the suit is unseen and, in Hokum, nobody can ruff: no trump is unseen, or at least ``n_safe``
    cards of the led suit are unseen (the remaining players most likely follow suit, RULES.md 3.4.1).
    """
    if trow >= 4:
        return masters
    tmask = SUIT_BITS << (13 * trow)
    if unseen & tmask == 0 or popcount(unseen & (SUIT_BITS << (13 * led))) >= n_safe:
        return masters
    return masters & tmask


@jit
def _keep_value(
    STR: np.ndarray, prm: np.ndarray, trow: int, card: int, hand: int, masters: int
) -> float:
    """How much the seat loses by giving ``card`` away now (points excluded): trumps and masters
    (cards no unseen card outranks, ``masters``: :func:`_masters`) win tricks later; the last
    guard of a Ten that is not master protects it."""
    suit = suit_of(card)
    v = 0.0
    trump = trow < 4 and suit == trow
    if trump:
        order = STR[trow, card]  # the trump order: STR trump values 51..58
        v += KEEP_TRUMP + 0.5 * (order - 50)
    else:
        order = STR[T_LED, card]  # the plain order
        if (masters >> card) & 1 != 0:
            v += prm[PRM_KEEP]
    in_suit = hand & (SUIT_BITS << (13 * suit))
    n_suit = popcount(in_suit)
    if trow < 4 and not trump and n_suit == 1 and hand & (SUIT_BITS << (13 * trow)) != 0:
        v -= prm[PRM_SHORT]  # a void in a side suit lets the trumps ruff (3.4.2)
    ten = 13 * suit + 8
    guard = n_suit == 2 and card != ten and (in_suit >> ten) & 1 != 0
    if guard and (masters >> ten) & 1 == 0:
        v += 5.0  # keep the Ten guarded
    return v + 0.1 * order


@jit
def _dump(STR: np.ndarray, prm: np.ndarray, trow: int, legal: int, hand: int, masters: int) -> int:
    """The legal card cheapest to lose: fewest points plus keep value."""
    best = -1
    best_v = 1e9
    m = legal
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        v = STR[T_POINTS + trow, c] + _keep_value(STR, prm, trow, c, hand, masters)
        if v < best_v:
            best_v = v
            best = c
    return best


@jit
def _smear(STR: np.ndarray, prm: np.ndarray, trow: int, legal: int, hand: int, masters: int) -> int:
    """The legal card to give a trick the partner wins: most points, keeping trumps and masters."""
    best = -1
    best_v = -1e9
    m = legal
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        v = STR[T_POINTS + trow, c] - _keep_value(STR, prm, trow, c, hand, masters)
        if v > best_v:
            best_v = v
            best = c
    return best


@jit
def _weakest(STR: np.ndarray, trow: int, led: int, cards: int) -> int:
    """The card of ``cards`` with the lowest trick strength (the cheapest winner)."""
    return _extreme(STR, trow, led, cards, np.int64(-1))  # int64: one copy for both signs


@jit
def _strongest(STR: np.ndarray, trow: int, led: int, cards: int) -> int:
    """The card of ``cards`` with the highest trick strength."""
    return _extreme(STR, trow, led, cards, np.int64(1))


@jit
def _extreme(STR: np.ndarray, trow: int, led: int, cards: int, sign: int) -> int:
    """The card of ``cards`` whose trick strength times ``sign`` is highest (the lowest card on a
    tie, as the cards are taken from the lowest)."""
    best = -1
    best_v = -(1 << 30)
    m = cards
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        v = sign * strength(STR, trow, led, c)
        if v > best_v:
            best_v = v
            best = c
    return best


@jit
def _lead(
    S: np.ndarray,
    STR: np.ndarray,
    prm: np.ndarray,
    seat: int,
    legal: int,
    hand: int,
    unseen: int,
    trow: int,
    masters: int,
) -> int:
    """The card to lead (RULES.md 3.4): draw trumps as the buying team in Hokum, cash masters,
    else lead low from a long suit (``masters``: :func:`_masters`)."""
    hokum = trow < 4
    tmask = (SUIT_BITS << (13 * trow)) if hokum else 0
    trumps_out = unseen & tmask
    buyer_team = (S[S_BIDDER] & 1) == (seat & 1)
    my_trumps = legal & tmask
    if hokum and buyer_team and my_trumps != 0 and trumps_out != 0:
        # draw the opponents' trumps with the master trump
        top = -1
        top_o = -1
        m = my_trumps
        while m != 0:
            c = lowest_bit(m)
            m &= m - 1
            if STR[trow, c] > top_o:
                top_o = STR[trow, c]
                top = c
        if (masters >> top) & 1 != 0:
            return top
        pull = prm[PRM_PULL] > 0.5 and popcount(hand & tmask) >= 3
        if S[S_BIDDER] == seat and pull:
            return _weakest(STR, trow, trow, my_trumps)  # pull trumps with a small one
    # cash a master of a side suit (an Ace, or the top card left)
    best = -1
    best_v = -1e9
    m = legal & ~tmask & masters
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        n_out = popcount(unseen & (SUIT_BITS << (13 * suit_of(c))))
        if hokum and trumps_out != 0 and n_out < prm[PRM_RUFF]:
            continue  # likely ruffed (3.4.2)
        v = STR[T_POINTS + trow, c] + 1.0 * n_out
        if v > best_v:
            best_v = v
            best = c
    if best >= 0:
        return best
    pull = S[S_BIDDER] == seat or prm[PRM_TEAM_PULL] > 0.5
    if hokum and buyer_team and my_trumps != 0 and trumps_out != 0 and pull:
        return _weakest(STR, trow, trow, my_trumps)
    # lead low, preferably from a long side suit
    best_v = 1e9
    m = legal
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        suit = suit_of(c)
        v = STR[T_POINTS + trow, c] + _keep_value(STR, prm, trow, c, hand, masters)
        v -= 0.7 * popcount(hand & (SUIT_BITS << (13 * suit)))
        if v < best_v:
            best_v = v
            best = c
    return best


@jit
def choose_card(S: np.ndarray, P: np.ndarray, STR: np.ndarray, prm: np.ndarray, mask: int) -> int:
    """A card (a set bit of ``mask``, card ids) for the seat ``S[S_TO_ACT]`` in the play phase.

    ``S`` int64[S_SIZE], ``P`` int64[P_SIZE], ``STR`` int64[T_ROWS, T_COLS], ``prm``
    float64[N_PARAMS]. The legal mask already enforces following suit, trumping and overtrumping
    (RULES.md 3.4). Priorities: leading, see :func:`_lead`; the partner wins the trick safely →
    give him points (smear, keeping trumps and masters); an opponent wins → win with the cheapest
    card that surely holds (last to play: any winner), else play the card cheapest to lose; when
    the opponents have taken every trick so far, win at any price (kaboot, 3.6.4). Trick value
    includes the 10 points of the last trick (3.6.1). Only unseen cards (not in the own hand, not
    played, not the face-up card the partner took) count as threats.
    """
    seat = S[S_TO_ACT]
    hand = S[S_HAND + seat]
    trow = S[S_TRUMP]
    k = S[S_N_IN_TRICK]
    leader = S[S_LEADER]
    trick = 0
    tp = 0
    for i in range(k):
        c = S[S_TRICK + i]
        trick |= 1 << c
        tp += STR[T_POINTS + trow, c]
    if S[S_N_DONE] == 7:
        tp += 10
    unseen = P[P_DECK] & ~(S[S_PLAYED] | hand | trick)
    taker = S[B_TAKER]
    if taker != seat and (taker & 1) == (seat & 1):
        unseen &= ~(ONE << S[B_FACE_UP])  # the face-up card is public: the partner holds it
    n_safe = int(prm[PRM_RUFF])
    masters = _masters(trow, unseen)
    if k == 0:
        return _lead(S, STR, prm, seat, mask, hand, unseen, trow, masters)
    led = S[S_LED]
    best_i, _ = winning_idx(S, STR)
    win_card = S[S_TRICK + best_i]
    partner_wins = (((leader + best_i) % 4) & 1) == (seat & 1)
    last = k == 3
    # the legal cards that beat the winner (strength() above best): higher cards of its suit, and
    # every trump when a card of the led suit wins in Hokum (trump strengths exceed all others)
    tmask = (SUIT_BITS << (13 * trow)) if trow < 4 else 0
    if suit_of(win_card) == trow:
        beats = mask & STR[T_ABOVE_TRUMP, win_card]
    else:
        beats = mask & (STR[T_ABOVE_LED, win_card] | tmask)
    # those that surely hold (_holding): masters, and a led-suit card only when nobody can ruff
    holding = _holding(masters, trow, led, unseen, n_safe)
    sure = beats if last else beats & holding
    if partner_wins:
        if last or (holding >> win_card) & 1 != 0:
            return _smear(STR, prm, trow, mask, hand, masters)
        if sure != 0 and tp >= prm[PRM_COVER]:
            return _weakest(STR, trow, led, sure)
        return _dump(STR, prm, trow, mask, hand, masters)
    # the opponents took every trick so far: stop their kaboot (RULES.md 3.6.4) at any price
    threat = S[S_N_DONE] >= 4 and S[S_TRICKS + (seat & 1)] == 0
    if sure != 0:
        c = _weakest(STR, trow, led, sure)
        # a pointless trick is not worth a trump honour or a master when something else can go
        if (
            threat
            or tp > 0
            or _keep_value(STR, prm, trow, c, hand, masters) < prm[PRM_CHEAP]
            or (mask & ~beats) == 0
        ):
            return c
        return _dump(STR, prm, trow, mask & ~beats, hand, masters)
    if beats != 0 and ((k == 2 and tp >= prm[PRM_GAMBLE]) or threat):
        return _strongest(STR, trow, led, beats)
    return _dump(STR, prm, trow, mask, hand, masters)


@jit
def choose_baloot(S: np.ndarray, turn: Turn, mask: int) -> int:
    """The heuristic's action (a set bit of ``mask``) for the seat ``S[S_TO_ACT]``
    (:class:`~kout_sim.players.turn.Turn`: ``turn.prm`` holds the slots of :data:`BALOOT_PARAMS`;
    ``turn.rng`` is drawn from only when ``epsilon > 0``)."""
    P, STR, rng, prm = turn.P, turn.STR, turn.rng, turn.prm
    eps = prm[PRM_EPSILON]
    if eps > 0.0 and below(rng, np.int64(1_000_000)) < int(eps * 1_000_000.0):
        return nth_bit(mask, int(below(rng, popcount(mask))))
    phase = S[S_PHASE]
    if phase == PH_AUCTION:
        return choose_call(S, prm, mask)
    if phase == PH_DOUBLING:
        return choose_double(S, prm, mask)
    return choose_card(S, P, STR, prm, mask)
