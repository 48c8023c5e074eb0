"""The Kout heuristic policy: rule-of-thumb bidding and card play for every Kout preset.

Covers Kuwaiti Kout Bo (RULES.md §1: two jokers on the ladder RJ > trump A > BJ, restricted joker
leads, Malzoom) and Bahraini Kout (§2: one joker JK that wins any trick but can never be led, and
whose forced lead loses the match). Every rule quantity is read from ``P``; nothing is keyed on a
preset name.

Information discipline: a seat reads only its own hand ``S[S_HAND + seat]``, the public calls and
trump, the cards of completed tricks (``S_PLAYED``) and of the current trick, the trick counts and
the match score ``MS``. The hidden cards are everything of the deck outside those sets ("unseen").

Bidding: the hand is valued per candidate trump suit as expected tricks (trump ladder honours with
their guards, trump length, side aces and kings, ruffing values of short suits), plus the expected
tricks of the partners, and the highest legal bid the team estimate clears by a margin is called.
Play: draw trumps with the top trumps as the bidding team, cash sure winners ("boss" cards: no
unseen card can beat them), never overtake a partner who holds the trick, win as cheaply as
possible when the opponents hold it, discard low, and get rid of a joker that could only be led
(§1.8 rankless, §2.8 match-losing) before that can happen.

Kernel arguments: ``S`` int64[S_SIZE] hand state, ``P`` int64[P_SIZE] rules, ``STR`` int64[16, 256]
card strengths, ``MS`` int64[M_SIZE] match state, ``prm`` float64[N_PARAMS] the seat's parameter
row (slots of :data:`KOUT_PARAMS`); a hand, a card set or a legal set is an int64 bitmask (bit =
card id in play, call index in the auction and trump phases).

Size: over 600 lines on purpose: one policy (bids, trump, leads, follows, discards) whose parts
share its hand evaluation and card-counting helpers; split, they would import each other.
"""

from __future__ import annotations

import numpy as np

from ..engine import layout as L
from ..engine._jit import highest_bit, jit, jit_leaf, lowest_bit, nth_bit, popcount
from ..engine.kout.hand import joker_lead_permission
from ..engine.rng import below
from ..engine.trick import suit_of
from .kinds import Param
from .turn import Turn

# parameter slots of the seat's row (see KOUT_PARAMS)
K_BID_MARGIN = 0
K_SUPPORT = 1
K_OVERCALL = 2
K_RAISE = 3
K_MALZOOM = 4
K_INSTANT = 5
K_SCORE_AWARE = 6
K_JOKER_SHED = 7
K_JOKER_LEAD = 8
K_EPSILON = 9
K_LOW_EASE = 10

KOUT_PARAMS: tuple[Param, ...] = (
    Param(
        "bid_margin",
        K_BID_MARGIN,
        1.0,
        -3.0,
        5.0,
        "tricks the team estimate must exceed a bid by before it is called",
    ),
    Param(
        "support",
        K_SUPPORT,
        1.5,
        0.0,
        5.0,
        "tricks the partners are expected to add to the bidder's own (per 9 tricks a hand)",
    ),
    Param(
        "overcall_margin",
        K_OVERCALL,
        0.5,
        0.0,
        5.0,
        "extra margin to outbid an opponent's standing bid (defending it pays double)",
    ),
    Param(
        "raise_margin",
        K_RAISE,
        1.0,
        0.0,
        5.0,
        "extra margin to outbid the partner's standing bid",
    ),
    Param(
        "malzoom_margin",
        K_MALZOOM,
        0.5,
        0.0,
        5.0,
        "extra margin a forced dealer wants before bidding above the Malzoom 5 (RULES.md 1.3)",
    ),
    Param(
        "instant_margin",
        K_INSTANT,
        1.5,
        0.0,
        5.0,
        "extra margin for a bid that decides the match (Inzili, RULES.md 2.10)",
    ),
    Param(
        "score_aware",
        K_SCORE_AWARE,
        1.0,
        0.0,
        1.0,
        "weight of the match-score adjustments (target in reach, Kout 51-0 threat, fatal failure)",
    ),
    Param(
        "joker_shed",
        K_JOKER_SHED,
        3.0,
        0.0,
        9.0,
        "hand size from which an unleadable joker is shed when following (RULES.md 1.8, 2.8)",
    ),
    Param(
        "joker_lead",
        K_JOKER_LEAD,
        1.0,
        0.0,
        1.0,
        "1: lead a permitted boss joker to draw trumps or cash it (RULES.md 1.6-1.7); 0: keep it",
    ),
    Param(
        "epsilon",
        K_EPSILON,
        0.0,
        0.0,
        1.0,
        "probability of a uniformly random legal action instead of the heuristic one",
    ),
    Param(
        "low_bid_ease",
        K_LOW_EASE,
        1.0,
        0.0,
        3.0,
        "margin given back for the lowest bid (Bab 5): partners add most to the easiest contract",
    ),
)

RJ = 53
BJ = 52
JK = 54
ONE = np.int64(1)
NO_CARD = L.T_COLS - 1
"""A column of ``STR`` that is no card's: its strengths are 0 (tests/unit/test_tables.py)."""


def _honour_value(missing: int) -> float:
    """Expected tricks of a ladder honour with ``missing`` higher ladder cards out."""
    return (1.0, 0.85, 0.55, 0.3, 0.15)[min(missing, 4)]


def _ladder_table(bit_of_rung: tuple[int, ...]) -> np.ndarray:
    """float64[64, 16]: expected trump tricks by held-rung pattern and trump count.

    Rung ``p`` (0 = top of the ladder) is pattern bit ``bit_of_rung[p]``. Each held rung is worth
    :func:`_honour_value` of the rungs above it that are out, cut to 30% without the guards to
    survive them; trumps beyond three win once the others are drawn.
    """
    table = np.zeros((64, 16), dtype=np.float64)
    for pattern in range(64):
        for n_trumps in range(16):
            est, missing, honours = 0.0, 0, 0
            for bit in bit_of_rung:
                if (pattern >> bit) & 1:
                    v = _honour_value(missing)
                    est += v * 0.3 if n_trumps - 1 < missing else v
                    honours += 1
                else:
                    missing += 1
            if n_trumps > 3:
                est += 0.75 * min(n_trumps - honours, n_trumps - 3)
            table[pattern, n_trumps] = est
    return table


# Kout Bo ladder (RULES.md 1.1) RJ, A, BJ, K, Q, J: pattern bits RJ 0, A 1, BJ 2, J 3, Q 4, K 5.
LADDER_VALUE = _ladder_table((0, 1, 2, 5, 4, 3))
# Bahraini (2.7) JK, A, K, Q, J, T: pattern bits JK 0, then T 1, J 2, Q 3, K 4, A 5.
SINGLE_VALUE = _ladder_table((0, 5, 4, 3, 2, 1))


def _side_entry(top: int, length: int, four: bool) -> tuple[float, float]:
    """:func:`side_value` of a side suit whose Q, K, A are the bits 0, 1, 2 of ``top``, with
    ``length`` cards (2: two or more), at four seats (``four``) or six."""
    ace, king, queen = (top >> 2) & 1, (top >> 1) & 1, top & 1
    if length == 0:
        return 0.0, 0.55
    est = 0.0
    if ace != 0:
        est += 0.85 if four else 0.75
    if king != 0:
        if ace != 0:
            est += 0.6 if four else 0.48
        elif length >= 2:
            est += 0.35 if four else 0.28
        else:
            est += 0.1
    if queen != 0 and ace != 0 and king != 0:
        est += 0.3
    ruff = 0.25 if (length == 1 and ace == 0) else 0.0
    return est, ruff


# float64[2, 24, 2]: [four seats or fewer?, 3 * Q-K-A bits + min(length, 2)] -> (tricks, ruff)
SIDE_VALUE = np.array(
    [[_side_entry(i // 3, i % 3, four) for i in range(24)] for four in (True, False)]
)


@jit
def side_value(P: np.ndarray, hand: int, suit: int) -> tuple[float, float]:
    """(expected tricks, ruffing value) of ``hand``'s cards of ``suit`` when it is not trump.

    Side aces and kings (weaker at six players: more hands to ruff them); a void or a low
    singleton can ruff once trumps are to spare. Read from :data:`SIDE_VALUE` by the suit's
    queen, king and ace and its length (a table: no branch on the cards).
    """
    cs = hand & P[L.P_SUIT_MASK + suit]
    top = (cs >> (13 * suit + 10)) & 7
    i = 3 * top + min(popcount(cs), 2)
    six = 0 if P[L.P_N_PLAYERS] <= 4 else 1
    return SIDE_VALUE[six, i, 0], SIDE_VALUE[six, i, 1]


@jit
def trump_value(P: np.ndarray, hand: int, trump: int) -> tuple[float, int]:
    """(expected tricks, trump count) of ``hand``'s trump ladder cards with ``trump`` (0..3).

    Reads :data:`LADDER_VALUE` / :data:`SINGLE_VALUE` (float64[64, 16]) by the held rungs.
    """
    base = 13 * trump
    n_trumps = popcount(hand & P[L.P_SUIT_MASK + trump]) + popcount(hand & P[L.P_JOKER_MASK])
    if P[L.P_JOKER_MODEL] == L.JOKER_LADDER:
        pattern = (
            ((hand >> RJ) & 1)
            | (((hand >> (base + 12)) & 1) << 1)
            | (((hand >> BJ) & 1) << 2)
            | (((hand >> (base + 9)) & 7) << 3)
        )
        return LADDER_VALUE[pattern, min(n_trumps, 15)], n_trumps
    pattern = ((hand >> JK) & 1) | (((hand >> (base + 8)) & 31) << 1)
    return SINGLE_VALUE[pattern, min(n_trumps, 15)], n_trumps


@jit
def evaluate_hand(P: np.ndarray, hand: int, suits: int) -> tuple[float, int]:
    """Best (expected own tricks, trump suit) of ``hand`` (int64 mask) over the trump suits in
    ``suits`` (bit s = suit s may be named); ``P`` is the int64[P_SIZE] rule table.

    Trump ladder value plus the side values of the other suits, and the ruffing value of their
    voids and singletons while trumps are to spare.
    """
    sv0, sr0 = side_value(P, hand, np.int64(0))
    sv1, sr1 = side_value(P, hand, np.int64(1))
    sv2, sr2 = side_value(P, hand, np.int64(2))
    sv3, sr3 = side_value(P, hand, np.int64(3))
    side_all = sv0 + sv1 + sv2 + sv3
    ruff_all = sr0 + sr1 + sr2 + sr3
    best = -1.0
    best_suit = 0
    for s in range(4):
        if ((suits >> s) & 1) == 0:
            continue
        est, n_trumps = trump_value(P, hand, s)
        if s == 0:
            est += side_all - sv0
            ruff = ruff_all - sr0
        elif s == 1:
            est += side_all - sv1
            ruff = ruff_all - sr1
        elif s == 2:
            est += side_all - sv2
            ruff = ruff_all - sr2
        else:
            est += side_all - sv3
            ruff = ruff_all - sr3
        if n_trumps > 2:
            est += min(ruff, 0.6 * (n_trumps - 2))
        if est > best:
            best = est
            best_suit = s
    return best, best_suit


@jit_leaf
def namable_suits(P: np.ndarray, hand: int) -> int:
    """Suits the hand's holder may name as trump (RULES.md 1.4: any; 2.4: a suit he holds)."""
    if P[L.P_TRUMP_MUST_HOLD] == 0:
        return 15
    out = 0
    for s in range(4):
        if (hand & P[L.P_SUIT_MASK + s]) != 0:
            out |= 1 << s
    return out


@jit
def score_adjust(P: np.ndarray, MS: np.ndarray, team: int, bid: int, weight: float) -> float:
    """Change of the bid margin for ``bid`` from the match score ``MS`` (int64[M_SIZE]).

    Lower it when a made bid wins the match (target, RULES.md 1.12(c) / 2.11; Kout 1.12(b)) or
    when the team at 0 faces a Kout; raise it when failing hands the opponents the match.
    """
    if weight == 0.0:
        return 0.0
    target = P[L.P_TARGET]
    adj = 0.0
    if P[L.P_SIGNED_SCORE] != 0:
        if P[L.P_INSTANT_BID] != 0 and bid == P[L.P_INSTANT_BID]:
            return 0.0  # 2.10: Inzili decides the match, the counter does not matter
        mine = MS[L.M_SCORE] if team == 0 else -MS[L.M_SCORE]
        if mine + P[L.P_MADE + bid] >= target:
            adj -= 0.5
        if mine - P[L.P_FAILED + bid] <= -target:
            adj += 0.5
        return adj * weight
    mine = MS[L.M_SCORE + team]
    theirs = MS[L.M_SCORE + 1 - team]
    if mine + P[L.P_MADE + bid] >= target:
        adj -= 0.5
    if theirs + P[L.P_FAILED + bid] >= target:
        adj += 0.5
    kout = P[L.P_KOUT_AT]
    if kout != 0:
        if theirs == 0 and mine + P[L.P_MADE + bid] >= kout:
            adj -= 0.5  # 1.12(b): a made bid wins 51-0
        elif mine == 0 and 2 * theirs >= kout:
            adj -= 0.3  # get on the board before a Kout
    return adj * weight


@jit
def choose_bid(
    S: np.ndarray, P: np.ndarray, MS: np.ndarray, prm: np.ndarray, mask: int, seat: int
) -> int:
    """Call index (0 pass, b bid) of the auction (RULES.md 1.3, 2.3) from the hand's value.

    ``prm`` is the seat's float64 parameter row, ``mask`` the legal calls.
    """
    hand = S[L.S_HAND + seat]
    team = seat & 1
    own, _ = evaluate_hand(P, hand, namable_suits(P, hand))
    est = own + prm[K_SUPPORT] * P[L.P_N_TRICKS] / 9.0
    margin = prm[K_BID_MARGIN]
    high = S[L.S_HIGH_BID]
    if high > 0:
        margin += prm[K_RAISE] if (S[L.S_BIDDER] & 1) == team else prm[K_OVERCALL]
    forced = (mask & 1) == 0
    bid_min = P[L.P_BID_MIN]
    if est < bid_min + margin - prm[K_LOW_EASE] - prm[K_SCORE_AWARE]:
        # below every need even with the largest score bonus (-1 x score_aware)
        return lowest_bit(mask) if forced else 0
    top = P[L.P_BID_MAX]
    weight = prm[K_SCORE_AWARE]
    if weight >= 0.0 and prm[K_MALZOOM] >= 0.0 and prm[K_INSTANT] >= 0.0:
        # skip the bids above the estimate whatever the score: score_adjust is at least -weight
        # and the other terms add to the need (the lowest bid, which gives some back, is kept)
        while top > bid_min and est < top + margin - weight:
            top -= 1
    best = 0
    for b in range(top, bid_min - 1, -1):  # the highest bid whose need the hand meets
        if ((mask >> b) & 1) == 0:
            continue
        need = b + margin + score_adjust(P, MS, team, b, prm[K_SCORE_AWARE])
        if b == bid_min:
            need -= prm[K_LOW_EASE]
        elif forced and P[L.P_MALZOOM] != 0:
            need += prm[K_MALZOOM]  # 1.3: a forced 5 is Malzoom, above it failure pays double
        if b == P[L.P_INSTANT_BID]:
            need += prm[K_INSTANT]  # 2.10: Inzili wins or loses the match
        if est >= need:
            best = b
            break
    if best == 0 and forced:
        best = lowest_bit(mask)  # 1.3 / 2.3: the dealer may not pass
    return best


@jit_leaf
def choose_trump(S: np.ndarray, P: np.ndarray, mask: int, seat: int) -> int:
    """Trump call index (TRUMP + suit) of the best-valued legal suit (RULES.md 1.4, 2.4)."""
    _, suit = evaluate_hand(P, S[L.S_HAND + seat], (mask >> L.TRUMP) & 15)
    return L.TRUMP + suit


@jit
def beaters(P: np.ndarray, trump: int, ladder: bool, card: int) -> np.int64:
    """Cards that beat ``card`` when it heads a trick of its own suit (ruffs not counted).

    Kout Bo (RULES.md 1.1): RJ beats all, trump A all but RJ, BJ the trump K and below. Bahraini
    (2.7): JK beats everything; it is left out, as no card could ever be a sure winner otherwise.
    """
    if card >= 52:
        if ladder and card == BJ:
            return (ONE << RJ) | (ONE << (13 * trump + 12))
        return np.int64(0)
    suit = suit_of(card)
    higher = P[L.P_SUIT_MASK + suit] & ~((ONE << (card + 1)) - 1)
    if ladder and suit == trump:
        if card == 13 * trump + 12:
            return ONE << RJ
        return higher | P[L.P_JOKER_MASK]
    return higher


@jit
def beat_in_trick(P: np.ndarray, trump: int, ladder: bool, card: int) -> np.int64:
    """Cards that beat ``card`` (-1: none played yet) where it now wins the trick.

    RULES.md 1.1 / 2.7: a led-suit card loses to a higher one of its suit, to any trump and to
    the jokers; a trump to higher trumps and the jokers above it; BJ to RJ and the trump A.
    """
    if card < 0:
        return P[L.P_DECK]
    beat = beaters(P, trump, ladder, card)
    if card >= 52 or (ladder and card == 13 * trump + 12):
        return beat  # a joker, or the trump A under the ladder: as when it heads a trick
    beat |= P[L.P_JOKER_MASK]  # in Bahraini the JK too (beaters leaves it out)
    if suit_of(card) == trump:
        return beat
    return beat | P[L.P_SUIT_MASK + trump]


SUITS = (1 << 52) - 1
"""The 52 suit cards: suit ``s`` is bits 13s..13s+12, by rank."""
LANE_BELOW = tuple(
    sum(((1 << (13 - shift)) - 1) << (13 * s) for s in range(4)) for shift in (1, 2, 4, 8)
)
"""The cards ``shift`` ranks or more below the top of their suit (``shift`` 1, 2, 4, 8): a card
shifted down by ``shift`` stays in its suit."""


@jit
def boss_mask(P: np.ndarray, trump: int, ladder: bool, unseen: int) -> np.int64:
    """Cards of the deck that no ``unseen`` card beats when led (sure winners, ruffs aside).

    Per suit: the cards above the highest unseen card. Kout Bo (RULES.md 1.1): an unseen joker
    leaves no trump a sure winner but the A (beaten by RJ only); RJ always wins, BJ once RJ and
    the trump A are out. Bahraini: the unseen JK is ignored (see :func:`beaters`).
    """
    jm = P[L.P_JOKER_MASK]
    # Per suit, the cards above its highest unseen one (all of a suit none is out): the unseen
    # cards smeared down their suit's 13 bits, four suits at once, and the rest of the deck.
    down = unseen & SUITS
    down |= (down >> 1) & LANE_BELOW[0]
    down |= (down >> 2) & LANE_BELOW[1]
    down |= (down >> 4) & LANE_BELOW[2]
    down |= (down >> 8) & LANE_BELOW[3]
    out = P[L.P_DECK] & SUITS & ~down
    if ladder:
        tm = P[L.P_SUIT_MASK + trump]
        ju = unseen & jm
        if (ju & (ONE << RJ)) != 0:
            out &= ~tm
        elif ju != 0:
            out &= ~tm | (ONE << (13 * trump + 12))
        out |= jm & (ONE << RJ)
        if (unseen & ((ONE << RJ) | (ONE << (13 * trump + 12)))) == 0:
            out |= jm & (ONE << BJ)
    else:
        out |= jm
    return out


@jit_leaf
def power(STR: np.ndarray, trump: int, led: int, card: int) -> int:
    """Strength of ``card`` in a trick whose led suit is ``led`` (-1: the card would set it)."""
    v = STR[trump, card]
    if v == 0 and card < 52 and (led < 0 or suit_of(card) == led):
        v = STR[L.T_LED, card]
    return v


@jit
def cheapest(P: np.ndarray, trump: int, ladder: bool, cards: int | np.int64) -> int:
    """The card of ``cards`` weakest on the ladder: side cards (lowest), trumps, BJ, trump A, RJ.

    RULES.md 1.1: in Kout Bo BJ ranks between the trump K and A; 2.7: JK above everything.
    """
    jm = P[L.P_JOKER_MASK]
    suit_t = P[L.P_SUIT_MASK + trump]
    side = cards & ~(suit_t | jm)
    if side != 0:
        return lowest_bit(side)
    tr = cards & suit_t
    if ladder:
        low = tr & ~(ONE << (13 * trump + 12))
        if low != 0:
            return lowest_bit(low)
        if (cards & (ONE << BJ)) != 0:
            return BJ
    if tr != 0:
        return lowest_bit(tr)
    return lowest_bit(int(cards))


@jit
def discard(
    P: np.ndarray, trump: int, hand: int, cards: int | np.int64, boss: int | np.int64
) -> int:
    """The least valuable card of ``cards``: low side cards of short suits first, then sure
    winners (``boss``), then trumps, jokers last."""
    jm = P[L.P_JOKER_MASK]
    suit_t = P[L.P_SUIT_MASK + trump]
    side = cards & ~(suit_t | jm)
    if side != 0:
        if (side & ~P[L.P_SUIT_MASK + suit_of(lowest_bit(side))]) == 0:  # one suit: following
            low = side & ~boss
            return lowest_bit(low if low != 0 else side)
        best = -1
        best_v = 1 << 30
        for s in range(4):
            # by selects (which suit is cheapest is a coin toss for a branch); a suit without
            # side cards is valued too (lowest_bit(0) is 64) and never taken
            cs = side & P[L.P_SUIT_MASK + s]
            low = cs & ~boss
            c = lowest_bit(low if low != 0 else cs)
            v = (0 if low != 0 else 200) + 8 * (c - 13 * s) + popcount(hand & P[L.P_SUIT_MASK + s])
            take = (cs != 0) & (v < best_v)
            best_v = v if take else best_v
            best = c if take else best
        return best
    tr = cards & suit_t
    if tr != 0:
        return lowest_bit(tr)
    return lowest_bit(int(cards))


@jit
def side_lead(P: np.ndarray, trump: int, cards: int, shortest: bool) -> int:
    """Lowest card of the shortest (or longest) non-trump suit of ``cards``; else the lowest card."""
    best_suit = -1
    best_len = 0
    for s in range(4):
        if s == trump:
            continue
        length = popcount(cards & P[L.P_SUIT_MASK + s])
        if length == 0:
            continue
        if best_suit < 0 or (length < best_len if shortest else length > best_len):
            best_suit = s
            best_len = length
    if best_suit < 0:
        return lowest_bit(cards)
    return lowest_bit(cards & P[L.P_SUIT_MASK + best_suit])


@jit
def choose_lead(
    S: np.ndarray, P: np.ndarray, prm: np.ndarray, mask: int, seat: int, unseen: int
) -> int:
    """Card to lead a trick (RULES.md 1.6-1.8, 2.8)."""
    trump = S[L.S_TRUMP]
    ladder = P[L.P_JOKER_MODEL] == L.JOKER_LADDER
    jm = P[L.P_JOKER_MASK]
    hand = S[L.S_HAND + seat]
    plain = mask & ~jm
    if plain == 0:
        return lowest_bit(mask)  # 1.8: only unleadable jokers: one goes rankless (keep RJ)
    boss = boss_mask(P, trump, ladder, unseen)
    if (hand & jm & ~mask) != 0 and popcount(hand) <= prm[K_JOKER_SHED] + 1:
        # 1.8 / 2.8: lead the card likeliest to lose, so the joker can be shed when following
        return discard(P, trump, hand, plain, boss)
    suit_t = P[L.P_SUIT_MASK + trump]
    trumps = plain & suit_t
    side = plain & ~suit_t
    # trump-ranked cards out against us: jokers count in Kout Bo (1.7: a joker lead draws trump)
    out_trumps = unseen & (suit_t | jm) if ladder else unseen & suit_t
    boss &= mask
    bidding = (seat & 1) == (S[L.S_BIDDER] & 1)
    jokers_ok = boss & jm
    if bidding:
        if jokers_ok != 0 and prm[K_JOKER_LEAD] > 0.5 and out_trumps != 0:
            return highest_bit(jokers_ok)  # 1.6(a)(b), 1.7: the joker lead draws trumps
        if trumps != 0 and out_trumps != 0:
            if (boss & trumps) != 0:
                return highest_bit(boss & trumps)
            if popcount(trumps) >= 3:
                return lowest_bit(trumps)  # long trumps: draw with the small ones
        if (boss & side) != 0:
            return lowest_bit(boss & side)
        if trumps != 0 and (out_trumps == 0 or side == 0):
            return highest_bit(trumps)
        return side_lead(P, trump, side if side != 0 else plain, np.bool_(False))
    # defenders: take every sure trick at once, then play for ruffs
    if (boss & side) != 0:
        return lowest_bit(boss & side)
    if jokers_ok != 0 and prm[K_JOKER_LEAD] > 0.5:
        return highest_bit(jokers_ok)  # 1.6(c)
    if (boss & trumps) != 0:
        return highest_bit(boss & trumps)
    if side == 0:
        return lowest_bit(trumps)
    return side_lead(P, trump, side, trumps != 0)


@jit
def choose_follow(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    prm: np.ndarray,
    mask: int,
    seat: int,
) -> int:
    """Card to play into a trick already opened (RULES.md 1.5, 1.8, 2.6)."""
    n = P[L.P_N_PLAYERS]
    trump = S[L.S_TRUMP]
    ladder = P[L.P_JOKER_MODEL] == L.JOKER_LADDER
    jm = P[L.P_JOKER_MASK]
    hand = S[L.S_HAND + seat]
    k = S[L.S_N_IN_TRICK]
    led = S[L.S_LED]
    start = 1 if S[L.S_RANKLESS] != 0 else 0  # 1.8: the rankless joker never wins
    # The card winning so far: the maximum of power * 8 + (7 - position) (the earliest on a tie),
    # without a branch on the cards, as the engine's trick winner. ``power`` without its branch:
    # a trump's or joker's strength is above every led strength, a joker's suit (4) is never the
    # led suit; ``led`` < 0 only when every card so far is a joker (RULES.md 1.8).
    key = np.int64(-1)
    trick = np.int64(0)
    for i in range(k):
        card = S[L.S_TRICK + i]
        if card < 0:
            break  # never (a trick holds cards): a second exit keeps LLVM from vectorising
        trick |= ONE << card
        # a card off the led suit reads the led strength of a column no card has (0): a select
        # of the column, not of the strength, which LLVM would make a branch around the load
        col = card if suit_of(card) == led else NO_CARD
        v = max(STR[trump, card], STR[L.T_LED, col]) * 8 + 7 - i
        key = max(key, v if i >= start else np.int64(-1))
    best = key >> 3 if key >= 0 else np.int64(-1)
    best_i = 7 - (key & 7) if key >= 0 else np.int64(-1)
    unseen = P[L.P_DECK] & ~(hand | S[L.S_PLAYED] | trick)
    partner_wins = False
    wcard = -1
    if best_i >= 0:
        wseat = S[L.S_LEADER] + best_i
        if wseat >= n:
            wseat -= n
        partner_wins = (wseat & 1) == (seat & 1)
        wcard = S[L.S_TRICK + best_i]
    last = k == n - 1
    winners = mask & beat_in_trick(P, trump, ladder, wcard)
    suit_t = P[L.P_SUIT_MASK + trump]
    boss = boss_mask(P, trump, ladder, unseen)
    if partner_wins:
        if last or (beaters(P, trump, ladder, wcard) & unseen) == 0:
            choice = discard(P, trump, hand, mask, boss)
        else:
            # overtake only with a sure winner of the led suit, which costs nothing
            cheap = winners & boss & ~(suit_t | jm)
            if cheap != 0:
                choice = lowest_bit(cheap)
            else:
                choice = discard(P, trump, hand, mask, boss)
    elif winners == 0:
        choice = discard(P, trump, hand, mask, boss)
    elif last:
        choice = cheapest(P, trump, ladder, winners)
    else:
        sure = winners & boss
        side = winners & ~(suit_t | jm)
        if sure != 0:
            choice = cheapest(P, trump, ladder, sure)
        elif side != 0:
            if k <= n - 3:
                choice = discard(P, trump, hand, mask, boss)  # second hand low: partner to come
            else:
                choice = highest_bit(side)  # third hand high
        else:
            # only trumps (or jokers) win: trump in with the cheapest (RULES.md 1.5: a void
            # player may play any card)
            plain = winners & ~jm
            choice = cheapest(P, trump, ladder, plain if plain != 0 else winners)
    jokers = hand & jm & mask
    if jokers != 0 and choice < 52:
        if ladder:
            stuck = jokers & ~joker_lead_permission(S, P, seat)
            if stuck != 0 and popcount(hand & ~jm) <= prm[K_JOKER_SHED] - 1:
                # 1.8: winning with a plain card could leave only rankless joker leads
                top = highest_bit(jokers)
                if power(STR, trump, led, choice) > best and power(STR, trump, led, top) > best:
                    choice = top
        else:
            # 2.8: shed the joker while following is possible: when the hand is short, or when
            # every other card may win a trick and leave the joker to be led alone
            size = popcount(hand)
            losers = hand & ~(jm | boss | suit_t)
            if size <= prm[K_JOKER_SHED] or (losers == 0 and size <= prm[K_JOKER_SHED] + 3):
                choice = highest_bit(jokers)
    return choice


@jit_leaf
def choose_card(
    S: np.ndarray, P: np.ndarray, STR: np.ndarray, prm: np.ndarray, mask: int, seat: int
) -> int:
    """Card id to play for ``seat`` from the legal cards ``mask``."""
    if S[L.S_N_IN_TRICK] == 0:
        unseen = P[L.P_DECK] & ~(S[L.S_HAND + seat] | S[L.S_PLAYED])
        return choose_lead(S, P, prm, mask, seat, unseen)
    return choose_follow(S, P, STR, prm, mask, seat)


@jit
def choose_kout(S: np.ndarray, turn: Turn, mask: int) -> int:
    """The heuristic's phase-relative action (a set bit of ``mask``) for the seat to act in ``S``
    (:class:`~kout_sim.players.turn.Turn`: ``turn.prm`` holds the slots of :data:`KOUT_PARAMS`)."""
    P, STR, MS, rng, prm = turn.P, turn.STR, turn.MS, turn.rng, turn.prm
    if prm[K_EPSILON] > 0.0 and below(rng, np.int64(1_000_000)) < prm[K_EPSILON] * 1_000_000:
        return nth_bit(mask, int(below(rng, popcount(mask))))
    seat = S[L.S_TO_ACT]
    phase = S[L.S_PHASE]
    if phase == L.PH_AUCTION:
        return choose_bid(S, P, MS, prm, mask, seat)
    if phase == L.PH_TRUMP:
        return choose_trump(S, P, mask, seat)
    return choose_card(S, P, STR, prm, mask, seat)
