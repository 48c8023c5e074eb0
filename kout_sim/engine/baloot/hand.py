"""The hand of Saudi Baloot (RULES.md §3; the exact sequences are fixed in docs/baloot.md): its
auction, doubling, projects, cards and scoring. The family's interface is
:mod:`kout_sim.engine.baloot` (the bundle); these are the kernels under it.

Same conventions as :mod:`kout_sim.engine.kout.hand`: state ``S``, rule parameters ``P``, card
tables ``STR``; the trick winner (:mod:`kout_sim.engine.trick`) is every family's, everything else
is Baloot's own.

Size: over 600 lines on purpose. The Baloot auction (RULES.md 3.2-3.3), projects (3.5), play (3.4)
and scoring (3.6) are the family's own kernels and call each other; one file keeps one numba cache
key for them and the clause order of RULES.md section 3.
"""

from __future__ import annotations

import numpy as np

from .. import layout as L
from .._jit import jit, jit_leaf, lowest_bit
from ..trick import trick_winner_idx

ONE = np.int64(1)
PROJ_RAW = (0, 20, 50, 100, 200)  # RULES.md 3.5 raw values by project class
PROJ_GP_HOKUM = (0, 2, 5, 10, 0)
PROJ_GP_SUN = (0, 4, 10, 20, 40)
# RULES.md 3.2.7: the 7s, 8s and 9s of the four suits (rank indices 5, 6, 7 of each suit)
KAWESH_CARDS = np.int64(0b111 << 5 | 0b111 << 18 | 0b111 << 31 | 0b111 << 44)


@jit_leaf
def prio(seat: int, dealer: int) -> int:
    """RULES.md 3.2.2: priority index of a seat (0 = P1 = dealer+1 .. 3 = P4 = the dealer)."""
    return (seat - dealer + 3) % 4


@jit_leaf
def seat_of(p: int, dealer: int) -> int:
    """The seat with priority index ``p``."""
    return (dealer + 1 + p) % 4


@jit
def reset_hand(
    S: np.ndarray, dealer: int, hands: np.ndarray, face_up: int, score0: int, score1: int
) -> None:
    """Reset ``S`` to the auction of a hand: 5-card ``hands``, ``face_up``, the match score."""
    S[:] = 0
    S[L.S_PHASE] = L.PH_AUCTION
    S[L.S_DEALER] = dealer
    S[L.S_TO_ACT] = (dealer + 1) % 4
    S[L.S_BIDDER] = -1
    S[L.S_TRUMP] = -1
    S[L.S_LED] = -1
    S[L.S_MADE] = -1
    S[L.S_MATCH_WINNER] = -1
    S[L.B_FACE_UP] = face_up
    S[L.B_ROUND] = 1
    S[L.B_HOKUM_BIDDER] = -1
    S[L.B_SUN_CALLER] = -1
    S[L.B_TAKER] = -1
    S[L.B_DOUBLER] = -1
    S[L.B_DOUBLE] = 1
    S[L.B_PROJ_TEAM] = -1
    S[L.B_BALOOT_SEAT] = -1
    S[L.B_KABOOT] = -1
    S[L.B_BALOOT_TO] = -1
    S[L.B_MATCH_SCORE] = score0
    S[L.B_MATCH_SCORE + 1] = score1
    for seat in range(4):
        S[L.S_HAND + seat] = hands[seat]
    S[L.S_VOIDS] = 0  # nothing shown yet


# ---- auction (RULES.md 3.2) ----------------------------------------------------------------------


@jit_leaf
def _sun_allowed(S: np.ndarray, P: np.ndarray, seat: int) -> bool:
    # 3.2.4: with a face-up Ace, only P1 may turn a standing Hokum into Sun
    if S[L.B_HOKUM_BIDDER] >= 0 and P[L.P_ACE_P1_ONLY] != 0 and S[L.B_FACE_UP] % 13 == 12:
        return prio(seat, S[L.S_DEALER]) == 0
    return True


@jit
def _auction_calls(S: np.ndarray, P: np.ndarray) -> np.int64:
    seat = S[L.S_TO_ACT]
    stage = S[L.B_STAGE]
    if stage == 1 or stage == 3:
        return (ONE << L.BC_PASS) | (ONE << L.BC_SUN)  # a Sun-before-you claim, a second chance
    if stage == 2:
        mask = ONE << L.BC_CONFIRM  # the Hokum bidder confirms or switches
        if _sun_allowed(S, P, seat):
            mask |= ONE << L.BC_SUN
        return mask
    mask = ONE << L.BC_PASS
    if _sun_allowed(S, P, seat):
        mask |= ONE << L.BC_SUN
        if prio(seat, S[L.S_DEALER]) >= 2:
            mask |= ONE << L.BC_ASHKAL  # 3.2.3: Ashkal for P3 and P4 only
    if S[L.B_ROUND] == 1 and P[L.P_KAWESH] != 0 and (S[L.S_HAND + seat] & ~KAWESH_CARDS) == 0:
        mask |= ONE << L.BC_KAWESH  # 3.2.7: his first five are all 7s, 8s and 9s
    if S[L.B_HOKUM_BIDDER] < 0:
        if S[L.B_ROUND] == 1:
            mask |= ONE << L.BC_HOKUM
        else:
            face_suit = S[L.B_FACE_UP] // 13
            for suit in range(4):
                if suit != face_suit:
                    mask |= ONE << (L.BC_HOKUM_SUIT + suit)  # 3.2.5: another suit
    return mask


@jit
def _doubling_calls(S: np.ndarray) -> np.int64:
    stage = S[L.B_DBL_STAGE]
    if stage <= 1:
        mask = (ONE << L.BC_PASS) | (ONE << L.BC_DOUBLE)
        if S[L.B_MODE] == L.MODE_HOKUM:
            mask |= ONE << L.BC_DOUBLE_CLOSED
        return mask
    if stage == 2:
        return (ONE << L.BC_PASS) | (ONE << L.BC_TRIPLE)
    if stage == 3:
        return (ONE << L.BC_PASS) | (ONE << L.BC_FOUR) | (ONE << L.BC_FOUR_CLOSED)
    return (ONE << L.BC_PASS) | (ONE << L.BC_GAHWA)


@jit
def _buy(S: np.ndarray, seat: int, mode: int, ashkal: int, suit: int) -> None:
    S[L.B_MODE] = mode
    S[L.S_BIDDER] = seat
    S[L.B_ASHKAL] = ashkal
    S[L.S_TRUMP] = suit if mode == L.MODE_HOKUM else L.T_NO_TRUMP
    S[L.B_TAKER] = (seat + 2) % 4 if ashkal != 0 else seat  # 3.2.6
    S[L.S_PHASE] = L.PH_COMPLETION
    S[L.S_TO_ACT] = -1


@jit
def _next_second(S: np.ndarray, P: np.ndarray, first: int) -> int:
    """RULES.md 3.2.3 second_sun_chance: the next seat from priority ``first`` that passed before
    the round-1 Hokum and may take Sun (3.2.4: with a face-up Ace and p1_only, P1 only)."""
    dealer = S[L.S_DEALER]
    for p in range(first, prio(S[L.B_HOKUM_BIDDER], dealer)):
        seat = seat_of(p, dealer)
        if _sun_allowed(S, P, seat):
            return seat
    return -1


@jit
def _to_decision(S: np.ndarray, P: np.ndarray, first: int) -> None:
    """After a round with a standing Hokum: the second chance from priority ``first`` (round 1,
    option second_sun_chance), then the Hokum bidder's confirm or switch."""
    if S[L.B_ROUND] == 1 and P[L.P_SECOND_SUN] != 0:
        nxt = _next_second(S, P, first)
        if nxt >= 0:
            S[L.B_STAGE] = 3
            S[L.S_TO_ACT] = nxt
            return
    S[L.B_STAGE] = 2
    S[L.S_TO_ACT] = S[L.B_HOKUM_BIDDER]


@jit
def _end_round(S: np.ndarray, P: np.ndarray) -> None:
    if S[L.B_HOKUM_BIDDER] >= 0:
        _to_decision(S, P, np.int64(0))
    elif S[L.B_ROUND] == 1:
        S[L.B_ROUND] = 2  # 3.2.5: all passed: round two from P1
        S[L.B_PASSED] = 0
        S[L.S_TO_ACT] = (S[L.S_DEALER] + 1) % 4
    else:
        S[L.B_VOID] = 1  # 3.2.5: passed twice: the hand is void
        S[L.S_PHASE] = L.PH_OVER
        S[L.S_TO_ACT] = -1


@jit
def _next_claimer(S: np.ndarray, P: np.ndarray, first: int) -> int:
    """Earliest seat from priority ``first`` up to the Sun caller that passed this round (with
    sun_before_you = opponents, 3.2.3 (K): an opponent of the caller)."""
    dealer = S[L.S_DEALER]
    caller_seat = S[L.B_SUN_CALLER]
    caller = prio(caller_seat, dealer)
    for p in range(first, caller):
        seat = seat_of(p, dealer)
        if (S[L.B_PASSED] >> seat) & 1:
            if P[L.P_SUN_BEFORE_YOU] == 2 and (seat & 1) == (caller_seat & 1):
                continue
            return seat
    return -1


@jit
def _apply_auction(S: np.ndarray, P: np.ndarray, call: int) -> None:
    seat = S[L.S_TO_ACT]
    stage = S[L.B_STAGE]
    if stage == 1:
        if call == L.BC_SUN:
            _buy(
                S, seat, np.int64(L.MODE_SUN), np.int64(0), np.int64(-1)
            )  # claimed ahead of the caller
            return
        nxt = _next_claimer(S, P, prio(seat, S[L.S_DEALER]) + 1)
        if nxt >= 0:
            S[L.S_TO_ACT] = nxt
        else:
            _buy(S, S[L.B_SUN_CALLER], np.int64(L.MODE_SUN), S[L.B_SUN_ASHKAL], np.int64(-1))
        return
    if stage == 3:
        if call == L.BC_SUN:
            _buy(
                S, seat, np.int64(L.MODE_SUN), np.int64(0), np.int64(-1)
            )  # 3.2.3 second_sun_chance: he takes Sun
        else:
            _to_decision(S, P, prio(seat, S[L.S_DEALER]) + 1)
        return
    if stage == 2:
        if call == L.BC_CONFIRM:
            _buy(S, seat, np.int64(L.MODE_HOKUM), np.int64(0), S[L.B_HOKUM_SUIT])
        else:
            _buy(S, seat, np.int64(L.MODE_SUN), np.int64(0), np.int64(-1))
        return
    if call == L.BC_KAWESH:
        S[L.B_VOID] = 2  # 3.2.7: the hand is void, the same dealer redeals (match.apply_hand)
        S[L.S_PHASE] = L.PH_OVER
        S[L.S_TO_ACT] = -1
        return
    if call == L.BC_SUN or call == L.BC_ASHKAL:
        S[L.B_SUN_CALLER] = seat
        S[L.B_SUN_ASHKAL] = 1 if call == L.BC_ASHKAL else 0
        if P[L.P_SUN_BEFORE_YOU] != 0:
            first = _next_claimer(S, P, np.int64(0))
            if first >= 0:
                S[L.B_STAGE] = 1
                S[L.S_TO_ACT] = first
                return
        _buy(S, seat, np.int64(L.MODE_SUN), S[L.B_SUN_ASHKAL], np.int64(-1))
        return
    if call == L.BC_PASS:
        S[L.B_PASSED] |= ONE << seat
    elif call == L.BC_HOKUM:
        S[L.B_HOKUM_BIDDER] = seat
        S[L.B_HOKUM_SUIT] = S[L.B_FACE_UP] // 13
    else:
        S[L.B_HOKUM_BIDDER] = seat
        S[L.B_HOKUM_SUIT] = call - L.BC_HOKUM_SUIT
    if prio(seat, S[L.S_DEALER]) == 3:
        _end_round(S, P)
    else:
        S[L.S_TO_ACT] = (seat + 1) % 4


# ---- completion, projects, doubling (RULES.md 3.2.6, 3.3, 3.5) -----------------------------------


@jit_leaf
def completion_masks(S: np.ndarray, out: np.ndarray, offset: int) -> None:
    """Add to ``out[offset + seat]`` the cards each seat receives from the stock ``S[B_STOCK:]``,
    dealt in priority order (the face-up taker receives two, the others three). A leaf: its two
    callers pass ``out`` as the state (C-contiguous) and as a result row (strided), which made
    two compiled signatures of a kernel of a few lines."""
    dealer = S[L.S_DEALER]
    k = 0
    for p in range(4):
        seat = seat_of(p, dealer)
        need = 2 if seat == S[L.B_TAKER] else 3
        for _ in range(need):
            out[offset + seat] |= ONE << S[L.B_STOCK + k]
            k += 1


@jit
def _reading(hand: int, STR: np.ndarray, sun: bool) -> tuple[int, int, int, int]:
    """A player's project reading (RULES.md 3.5.1): (best code, second code, raw total, the
    four-of-a-kinds it counts as a mask of bits ``r`` = 3 (T) .. 7 (A))."""
    quads = 0
    for r in range(3, 8):  # four of a kind: T J Q K A
        rank_idx = r + 5
        if (
            (hand >> rank_idx)
            & (hand >> (13 + rank_idx))
            & (hand >> (26 + rank_idx))
            & (hand >> (39 + rank_idx))
            & 1
        ):
            quads |= 1 << r
    best_raw = -1
    best1 = 0
    best2 = 0
    best_sub = 0
    sub = quads
    while True:
        rest = hand
        c1 = 0
        c2 = 0
        q = sub
        while q != 0:
            r = lowest_bit(q)
            q &= q - 1
            rest &= ~((ONE << (r + 5)) * ((ONE << 0) | (ONE << 13) | (ONE << 26) | (ONE << 39)))
            cls = L.PROJ_FOUR_HUNDRED if (sun and r == 7) else L.PROJ_HUNDRED
            code = cls * 1000 + r
            if code > c1:
                c2 = c1
                c1 = code
            elif code > c2:
                c2 = code
        for suit in range(4):
            pattern = (rest >> (13 * suit + 5)) & 0xFF
            for row in (L.T_RUN1, L.T_RUN2):
                code = STR[row, pattern]
                if code > c1:
                    c2 = c1
                    c1 = code
                elif code > c2:
                    c2 = code
        raw = PROJ_RAW[c1 // 1000] + PROJ_RAW[c2 // 1000]
        if raw > best_raw or (raw == best_raw and c1 > best1):
            best_raw = raw
            best1 = c1
            best2 = c2
            best_sub = sub
        if sub == 0:
            break
        sub = (sub - 1) & quads
    return best1, best2, best_raw, best_sub


@jit
def _projects(S: np.ndarray, STR: np.ndarray) -> None:
    sun = S[L.B_MODE] == L.MODE_SUN
    dealer = S[L.S_DEALER]
    best_seat = -1
    best_code = 0
    kq_quads = 0  # seats whose reading counts four Kings or four Queens (3.5.2)
    for p in range(4):
        seat = seat_of(p, dealer)
        c1, c2, _, sub = _reading(S[L.S_HAND + seat], STR, sun)
        if (sub >> 5) & 3 != 0:  # bit 5 = Q, bit 6 = K
            kq_quads |= 1 << seat
        S[L.B_PROJ + 2 * seat] = c1
        S[L.B_PROJ + 2 * seat + 1] = c2
        if c1 > best_code:  # strict: an exact tie stays with the earlier priority
            best_code = c1
            best_seat = seat
    if best_seat >= 0:
        team = best_seat & 1
        S[L.B_PROJ_TEAM] = team
        for seat in (team, team + 2):
            for k in range(2):
                cls = S[L.B_PROJ + 2 * seat + k] // 1000
                S[L.B_PROJ_RAW + team] += PROJ_RAW[cls]
                S[L.B_PROJ_GP + team] += PROJ_GP_SUN[cls] if sun else PROJ_GP_HOKUM[cls]
    if not sun:
        trump = S[L.S_TRUMP]
        king = ONE << (13 * trump + 11)
        queen = ONE << (13 * trump + 10)
        for seat in range(4):
            hand = S[L.S_HAND + seat]
            if (hand & king) != 0 and (hand & queen) != 0 and (kq_quads >> seat) & 1 == 0:
                # 3.5.2: four Kings or Queens block it only when the reading counts them
                S[L.B_BALOOT_SEAT] = seat


@jit_leaf
def _start_play(S: np.ndarray) -> None:
    S[L.S_PHASE] = L.PH_PLAY
    leader = (S[L.S_DEALER] + 1) % 4  # 3.2.6: P1 leads the first trick
    S[L.S_LEADER] = leader
    S[L.S_TO_ACT] = leader


@jit_leaf
def complete(S: np.ndarray, P: np.ndarray, STR: np.ndarray, completion: np.ndarray) -> None:
    """Give each seat its completion cards (int64[4] masks, without the face-up card)."""
    for seat in range(4):
        S[L.S_HAND + seat] |= completion[seat]
    _after_completion(S, P, STR)


@jit
def _after_completion(S: np.ndarray, P: np.ndarray, STR: np.ndarray) -> None:
    S[L.S_HAND + S[L.B_TAKER]] |= ONE << S[L.B_FACE_UP]
    _projects(S, STR)
    buyer_team = S[L.S_BIDDER] & 1
    can_double = P[L.P_DOUBLING] != 0
    if S[L.B_MODE] == L.MODE_SUN:
        # 3.3.2: Sun doubling only with the buyer's team above 100 and the other at 100 or less
        can_double = (
            can_double
            and S[L.B_MATCH_SCORE + buyer_team] > 100
            and S[L.B_MATCH_SCORE + 1 - buyer_team] <= 100
        )
    if not can_double:
        _start_play(S)
        return
    S[L.S_PHASE] = L.PH_DOUBLING
    S[L.B_DBL_STAGE] = 0
    dealer = S[L.S_DEALER]
    for p in range(4):
        seat = seat_of(p, dealer)
        if (seat & 1) != buyer_team:
            S[L.S_TO_ACT] = seat  # the first opponent in priority order
            return


@jit_leaf
def complete_from_stock(S: np.ndarray, P: np.ndarray, STR: np.ndarray) -> None:
    """Completion from the shuffled stock (simulation)."""
    completion_masks(S, S, np.int64(L.S_HAND))
    _after_completion(S, P, STR)


@jit
def _apply_doubling(S: np.ndarray, call: int) -> None:
    seat = S[L.S_TO_ACT]
    stage = S[L.B_DBL_STAGE]
    if call == L.BC_PASS:
        if stage == 0:
            S[L.B_DBL_STAGE] = 1
            S[L.S_TO_ACT] = (seat + 2) % 4  # the other opponent
        else:
            _start_play(S)
        return
    if call == L.BC_DOUBLE or call == L.BC_DOUBLE_CLOSED:
        S[L.B_DOUBLER] = seat
        S[L.B_DOUBLE] = 2
        S[L.B_CLOSED] = 1 if call == L.BC_DOUBLE_CLOSED else 0
        if S[L.B_MODE] == L.MODE_SUN:
            _start_play(S)  # 3.3.2: Sun stops at Double
        else:
            S[L.B_DBL_STAGE] = 2
            S[L.S_TO_ACT] = S[L.S_BIDDER]
    elif call == L.BC_TRIPLE:
        S[L.B_DOUBLE] = 3
        S[L.B_CLOSED] = 0
        S[L.B_DBL_STAGE] = 3
        S[L.S_TO_ACT] = S[L.B_DOUBLER]
    elif call == L.BC_FOUR or call == L.BC_FOUR_CLOSED:
        S[L.B_DOUBLE] = 4
        S[L.B_CLOSED] = 1 if call == L.BC_FOUR_CLOSED else 0
        S[L.B_DBL_STAGE] = 4
        S[L.S_TO_ACT] = S[L.S_BIDDER]
    else:
        S[L.B_GAHWA] = 1
        S[L.B_CLOSED] = 0
        _start_play(S)


# ---- play (RULES.md 3.4) ---------------------------------------------------------------------------


@jit_leaf
def strength(STR: np.ndarray, trow: int, led: int, card: int) -> int:
    """Strength of ``card`` in a trick led in suit ``led`` under table row ``trow`` (0: cannot win)."""
    s = STR[trow, card]
    if s == 0 and card // 13 == led:
        s = STR[L.T_LED, card]
    return s


@jit
def winning_idx(S: np.ndarray, STR: np.ndarray) -> tuple[int, int]:
    """(position in the current trick of the card winning it so far, that card's strength); a
    rankless Kout joker lead (RULES.md 1.8, ``S_RANKLESS``; never in Baloot) is passed over."""
    trow = S[L.S_TRUMP]
    led = S[L.S_LED]
    best = -1
    best_idx = 0
    for i in range(S[L.S_RANKLESS], S[L.S_N_IN_TRICK]):
        s = strength(STR, trow, led, S[L.S_TRICK + i])
        if s > best:
            best = s
            best_idx = i
    return best_idx, best


@jit
def _higher_trumps(mask: int, STR: np.ndarray, trow: int, than: int) -> np.int64:
    out = np.int64(0)
    m = mask
    while m != 0:
        card = lowest_bit(m)
        m &= m - 1
        if STR[trow, card] > than:
            out |= ONE << card
    return out


@jit
def legal_cards(S: np.ndarray, P: np.ndarray, STR: np.ndarray) -> np.int64:
    """Mask of the cards the seat to act may play."""
    seat = S[L.S_TO_ACT]
    hand = S[L.S_HAND + seat]
    trow = S[L.S_TRUMP]
    hokum = S[L.B_MODE] == L.MODE_HOKUM
    k = S[L.S_N_IN_TRICK]
    if k == 0:
        if hokum and S[L.B_CLOSED] != 0:
            trumps = hand & P[L.P_SUIT_MASK + trow]
            other = hand ^ trumps
            return other if other != 0 else hand  # 3.3.1: closed, no trump lead
        return hand
    led = S[L.S_LED]
    best_idx, _ = winning_idx(S, STR)
    win_card = S[L.S_TRICK + best_idx]
    partner_wins = ((S[L.S_LEADER] + best_idx) & 1) == (seat & 1)
    follow = hand & P[L.P_SUIT_MASK + led]
    if follow != 0:
        if hokum and led == trow:
            rule = P[L.P_OVERTRUMP_LEAD]  # 3.4.3
            if rule == 2 or (rule == 0 and partner_wins):
                return follow
            higher = _higher_trumps(follow, STR, trow, STR[trow, win_card])
            return higher if higher != 0 else follow
        return follow  # 3.4.1
    if not hokum:
        return hand  # 3.4.1: Sun, void: any card
    if P[L.P_MERCY] != 0 and partner_wins:
        return hand  # 3.4.2: the partner wins the trick
    trumps = hand & P[L.P_SUIT_MASK + trow]
    if trumps == 0:
        return hand
    if STR[trow, win_card] > 0 and not partner_wins:
        higher = _higher_trumps(trumps, STR, trow, STR[trow, win_card])
        if higher != 0:
            return higher  # 3.4.2: overtrump an opponent's trump
        return trumps if P[L.P_UNDERTRUMP] != 0 else hand
    return trumps  # 3.4.2: must trump


@jit_leaf
def _gp(x: int, sun: bool) -> int:
    """RULES.md 3.6.2: card points to game points."""
    rounded = x // 10 + (1 if x % 10 >= 6 else 0)
    if sun:
        return x // 5 if x % 10 == 5 else 2 * rounded
    return rounded


@jit
def _score(S: np.ndarray, P: np.ndarray) -> None:
    """RULES.md 3.6: the hand's game points, kaboot, Gahwa."""
    S[L.S_PHASE] = L.PH_OVER
    S[L.S_TO_ACT] = -1
    sun = S[L.B_MODE] == L.MODE_SUN
    base = 26 if sun else 16
    buyer = S[L.S_BIDDER] & 1
    other = 1 - buyer
    bal_team = S[L.B_BALOOT_SEAT] & 1 if S[L.B_BALOOT_SEAT] >= 0 else -1
    gp_all = S[L.B_PROJ_GP] + S[L.B_PROJ_GP + 1]
    # A[T]: card points + raw projects + 20 per Baloot
    big0 = S[L.B_CARD_PTS] + S[L.B_PROJ_RAW] + (20 if bal_team == 0 else 0)
    big1 = S[L.B_CARD_PTS + 1] + S[L.B_PROJ_RAW + 1] + (20 if bal_team == 1 else 0)
    winner = -1
    if S[L.S_TRICKS] == 8 or S[L.S_TRICKS + 1] == 8:
        winner = 0 if S[L.S_TRICKS] == 8 else 1  # 3.6.4: kaboot, never multiplied
        S[L.B_KABOOT] = winner
        if S[L.B_GAHWA] == 0:
            all_ = P[L.P_KABOOT_ALL] != 0
            pts = (44 if sun else 25) + (gp_all if all_ else S[L.B_PROJ_GP + winner])
            if bal_team >= 0 and (all_ or bal_team == winner):
                pts += 2
                S[L.B_BALOOT_TO] = winner
            S[L.S_POINTS + winner] = pts
    elif S[L.B_DOUBLE] > 1 or S[L.B_GAHWA] != 0:
        # 3.3.3: the last raiser's team is judged like a buyer, a tie goes against it
        m = S[L.B_DOUBLE]
        raiser = buyer if (S[L.B_GAHWA] != 0 or m == 3) else other
        raiser_wins = big0 > big1 if raiser == 0 else big1 > big0
        winner = raiser if raiser_wins else 1 - raiser
        if S[L.B_GAHWA] == 0:
            f = m if P[L.P_DOUBLED_PROJ_MULT] != 0 else (2 if m == 2 else 1)
            S[L.S_POINTS + winner] = base * m + gp_all * f  # 3.6.5: all or nothing
            if bal_team >= 0:
                S[L.S_POINTS + bal_team] += 2  # Baloot stays 2 with its owner
                S[L.B_BALOOT_TO] = bal_team
    else:
        big_buyer = big0 if buyer == 0 else big1
        big_other = big1 if buyer == 0 else big0
        fail = big_other > big_buyer  # 3.6.3
        if big_other == big_buyer:
            tie = P[L.P_TIE]
            fail = tie == 1 or (tie == 2 and not sun)
        if fail:
            winner = other
            S[L.S_POINTS + other] = base + gp_all
            if bal_team == other:
                S[L.S_POINTS + other] += 2
                S[L.B_BALOOT_TO] = other
            elif bal_team == buyer:
                rule = P[L.P_BALOOT_ON_LOSS]
                if rule == 0:
                    S[L.S_POINTS + buyer] += 2
                    S[L.B_BALOOT_TO] = buyer
                elif rule == 2:
                    S[L.S_POINTS + other] += 2
                    S[L.B_BALOOT_TO] = other
        else:
            winner = buyer
            g_other = _gp(S[L.B_CARD_PTS + other], sun)
            S[L.B_BALOOT_TO] = bal_team
            S[L.S_POINTS + other] = (
                g_other + S[L.B_PROJ_GP + other] + (2 if bal_team == other else 0)
            )
            S[L.S_POINTS + buyer] = (
                base - g_other + S[L.B_PROJ_GP + buyer] + (2 if bal_team == buyer else 0)
            )
    S[L.S_MADE] = 1 if winner == buyer else 0
    if S[L.B_GAHWA] != 0:
        if P[L.P_GAHWA_BANK] == 0:
            S[L.S_MATCH_WINNER] = winner  # 3.6.5: the hand decides the match
        else:
            S[L.S_POINTS + winner] = P[L.P_GAHWA_BANK]


@jit
def record_shown(S: np.ndarray, P: np.ndarray, STR: np.ndarray, seat: int, card: int) -> None:
    """Add to ``S[S_VOIDS]`` what the play of ``card`` by ``seat`` shows about its hand, read off
    :func:`legal_cards` (call before the card is applied; public information only). Not called by
    :func:`apply_card`: only a state a sampler will read needs it, see
    :func:`kout_sim.engine.game.apply_observed`."""
    k = S[L.S_N_IN_TRICK]
    trow = S[L.S_TRUMP]
    hokum = S[L.B_MODE] == L.MODE_HOKUM
    base = seat * 8
    suit = card // 13
    shown = np.int64(0)
    if suit == trow:
        shown |= ONE << (base + 7)
    if k == 0:
        if hokum and S[L.B_CLOSED] != 0 and suit == trow:
            shown |= (np.int64(15) ^ (ONE << trow)) << base  # 3.3.1: only trumps were held
        S[L.S_VOIDS] |= shown
        return
    led = S[L.S_LED]
    best_idx, _ = winning_idx(S, STR)
    win = STR[trow, S[L.S_TRICK + best_idx]] if hokum else 0  # > 0: a trump wins the trick
    partner_wins = ((S[L.S_LEADER] + best_idx) & 1) == (seat & 1)
    no_higher = False  # no trump above the winning one was held
    if suit == led:
        if hokum and led == trow:
            rule = P[L.P_OVERTRUMP_LEAD]  # 3.4.3
            if not (rule == 2 or (rule == 0 and partner_wins)) and STR[trow, card] <= win:
                no_higher = True
    else:
        shown |= ONE << (base + led)  # 3.4.1: void in the led suit
        if hokum and not (P[L.P_MERCY] != 0 and partner_wins):
            if win > 0 and not partner_wins:
                if suit != trow or STR[trow, card] <= win:
                    no_higher = True  # 3.4.2: did not overtrump the opponent's trump
                if suit != trow and P[L.P_UNDERTRUMP] != 0:
                    shown |= ONE << (base + trow)
            elif suit != trow:
                shown |= ONE << (base + trow)  # 3.4.2: must trump when able
    if no_higher:
        for r in range(8):
            if STR[trow, trow * 13 + 5 + r] > win:
                shown |= ONE << (32 + base + r)
    S[L.S_VOIDS] |= shown


@jit
def apply_card(S: np.ndarray, P: np.ndarray, STR: np.ndarray, card: int) -> None:
    """Play ``card`` (assumed legal) for the seat to act; closes tricks and the hand."""
    seat = S[L.S_TO_ACT]
    k = S[L.S_N_IN_TRICK]
    S[L.S_N_ACTIONS] += 1
    if k == 0:
        S[L.S_LED] = card // 13
    S[L.S_HAND + seat] ^= ONE << card
    S[L.S_TRICK + k] = card
    S[L.S_N_IN_TRICK] = k + 1
    if k < 3:
        S[L.S_TO_ACT] = 0 if seat == 3 else seat + 1
        return
    winner = (S[L.S_LEADER] + trick_winner_idx(S, P, STR)) % 4  # 3.4.4
    trow = S[L.S_TRUMP]
    points = 0
    for i in range(4):
        c = S[L.S_TRICK + i]
        points += STR[L.T_POINTS + trow, c]
        S[L.S_PLAYED] |= ONE << c
    done = S[L.S_N_DONE]
    if done == 7:
        points += 10  # 3.6.1: the last trick
    S[L.B_CARD_PTS + (winner & 1)] += points
    S[L.S_WINNERS + done] = winner
    S[L.S_TRICKS + (winner & 1)] += 1
    S[L.S_N_DONE] = done + 1
    S[L.S_N_IN_TRICK] = 0
    S[L.S_LED] = -1
    S[L.S_LEADER] = winner
    S[L.S_TO_ACT] = winner
    if done == 7:
        _score(S, P)


@jit_leaf
def legal_mask(S: np.ndarray, P: np.ndarray, STR: np.ndarray) -> np.int64:
    """Legal set of the seat to act, relative to the phase."""
    phase = S[L.S_PHASE]
    if phase == L.PH_PLAY:
        return legal_cards(S, P, STR)
    if phase == L.PH_AUCTION:
        return _auction_calls(S, P)
    if phase == L.PH_DOUBLING:
        return _doubling_calls(S)
    return np.int64(0)


@jit_leaf
def apply_action(S: np.ndarray, P: np.ndarray, STR: np.ndarray, action: int) -> None:
    """Apply a phase-relative action index. An auction that ends here leaves the hand in
    ``PH_COMPLETION`` (the completion is the caller's: :func:`complete` with given cards, or the
    bundle's :func:`kout_sim.engine.baloot.apply_action`, which deals it from the stock)."""
    phase = S[L.S_PHASE]
    if phase == L.PH_PLAY:
        apply_card(S, P, STR, action)
    elif phase == L.PH_AUCTION:
        S[L.S_N_ACTIONS] += 1
        _apply_auction(S, P, action)
    else:
        S[L.S_N_ACTIONS] += 1
        _apply_doubling(S, action)
