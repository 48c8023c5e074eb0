"""The hand of the Kout family (Kuwaiti Kout Bo, RULES.md §1; Bahraini Kout, §2): its calls,
cards and scoring, step by step. The family's interface is :mod:`kout_sim.engine.kout` (the
bundle); these are the kernels under it.

State is the ``int64`` array ``S`` of :mod:`kout_sim.engine.layout`; rules are the tables ``P`` (parameters) and
``STR`` (strengths) compiled by :mod:`kout_sim.rules`. Every kernel here computes on those arrays
only; validation and messages live in the Python callers.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit, jit_leaf
from ..layout import (
    JOKER_LADDER,
    JOKER_SINGLE,
    K_CALL_LOG,
    K_SEAT_PLAYED,
    P_BID_MAX,
    P_BID_MIN,
    P_BJ_LEAD_BID,
    P_FAILED,
    P_FIRST_LEAD,
    P_FREE_JOKER_HONOURS,
    P_INSTANT_BID,
    P_JOKER_MASK,
    P_JOKER_MODEL,
    P_JOKER_SCOPE_ANYONE,
    P_MADE,
    P_MALZOOM,
    P_MALZOOM_FAILED,
    P_MALZOOM_MADE,
    P_N_PLAYERS,
    P_N_TRICKS,
    P_PLAY_ALL,
    P_RJ_LEAD_BID,
    P_SUIT_MASK,
    P_TRUMP_MUST_HOLD,
    PASS,
    PH_AUCTION,
    PH_OVER,
    PH_PLAY,
    PH_TRUMP,
    S_BIDDER,
    S_DEALER,
    S_FORCED_JOKER,
    S_HAND,
    S_HIGH_BID,
    S_JOKER_FORCED,
    S_JOKER_LEADS,
    S_LEADER,
    S_LED,
    S_MADE,
    S_MALZOOM,
    S_MATCH_WINNER,
    S_N_ACTIONS,
    S_N_CALLS,
    S_N_DONE,
    S_N_IN_TRICK,
    S_PHASE,
    S_PLAYED,
    S_POINTS,
    S_RANKLESS,
    S_TO_ACT,
    S_TRICK,
    S_TRICKS,
    S_TRUMP,
    S_TRUMP_LEAD,
    S_VOIDS,
    S_WINNERS,
    TRUMP,
)
from ..trick import trick_winner_idx

BJ_BIT = np.int64(1) << np.int64(52)
RJ_BIT = np.int64(1) << np.int64(53)


@jit_leaf
def next_seat(seat: int, n: int) -> int:
    """RULES.md 0.1: the seat after ``seat`` (no division: this is on the hot path)."""
    return 0 if seat + 1 == n else seat + 1


@jit
def reset_hand(S: np.ndarray, P: np.ndarray, dealer: int, hands: np.ndarray) -> None:
    """Reset ``S`` to the start of a hand dealt as ``hands`` (int64[n] masks) by ``dealer``."""
    S[:] = 0
    n = P[P_N_PLAYERS]
    S[S_PHASE] = PH_AUCTION
    S[S_DEALER] = dealer
    S[S_TO_ACT] = (dealer + 1) % n  # RULES.md 1.3 / 2.3: the auction opens at dealer+1
    S[S_HIGH_BID] = 0
    S[S_BIDDER] = -1
    S[S_TRUMP] = -1
    S[S_LED] = -1
    S[S_MADE] = -1
    S[S_MATCH_WINNER] = -1
    for seat in range(n):
        S[S_HAND + seat] = hands[seat]
    S[S_VOIDS] = 0  # nothing shown yet


@jit_leaf
def may_name_trump(P: np.ndarray, hand: int, suit: int) -> bool:
    """RULES.md 1.4: the bidder names any suit; 2.4: a suit he holds a card of."""
    return P[P_TRUMP_MUST_HOLD] == 0 or (hand & P[P_SUIT_MASK + suit]) != 0


@jit
def legal_calls(S: np.ndarray, P: np.ndarray) -> np.int64:
    """Legal calls of the seat to act, as a mask of call indices (auction or trump choice)."""
    if S[S_PHASE] == PH_AUCTION:
        lo = max(S[S_HIGH_BID] + 1, P[P_BID_MIN])
        hi = P[P_BID_MAX]
        # bits lo .. hi (none when lo > hi), without a loop of a random length
        bids = ((np.int64(2) << hi) - (np.int64(1) << lo)) if lo <= hi else np.int64(0)
        # RULES.md 1.3 / 2.3: when all earlier seats passed, the dealer may not pass
        if S[S_N_CALLS] == P[P_N_PLAYERS] - 1 and S[S_HIGH_BID] == 0:
            return bids
        return bids | (np.int64(1) << PASS)
    if S[S_PHASE] == PH_TRUMP:
        hand = S[S_HAND + S[S_BIDDER]]
        suits = np.int64(0)
        for s in range(4):
            if may_name_trump(P, hand, s):
                suits |= np.int64(1) << (TRUMP + s)
        return suits
    return np.int64(0)


@jit
def apply_call(S: np.ndarray, P: np.ndarray, call: int) -> None:
    """Apply call index ``call`` (assumed legal) for the seat to act."""
    n = P[P_N_PLAYERS]
    seat = S[S_TO_ACT]
    S[S_N_ACTIONS] += 1
    if S[S_PHASE] == PH_AUCTION:
        # the public call log (one byte per call; n <= 6 calls, RULES.md 1.3 / 2.3: one round)
        S[K_CALL_LOG] |= np.int64(call + 1) << (8 * S[S_N_CALLS])
        if call != PASS:
            forced = S[S_N_CALLS] == n - 1 and S[S_HIGH_BID] == 0
            S[S_HIGH_BID] = call
            S[S_BIDDER] = seat
            # RULES.md 1.3: a forced dealer bid of exactly 5 is Malzoom
            S[S_MALZOOM] = 1 if (forced and P[P_MALZOOM] != 0 and call == P[P_BID_MIN]) else 0
        S[S_N_CALLS] += 1
        if S[S_N_CALLS] == n:
            S[S_PHASE] = PH_TRUMP
            S[S_TO_ACT] = S[S_BIDDER]
        else:
            S[S_TO_ACT] = next_seat(seat, n)
    else:
        S[S_TRUMP] = call - TRUMP
        S[S_PHASE] = PH_PLAY
        # RULES.md 1.4: the bidder leads; 2.5: bidder+1 leads
        leader = (S[S_BIDDER] + P[P_FIRST_LEAD]) % n
        S[S_LEADER] = leader
        S[S_TO_ACT] = leader


@jit
def joker_lead_permission(S: np.ndarray, P: np.ndarray, seat: int) -> np.int64:
    """Mask of the jokers ``seat`` may lead now with permission (RULES.md 1.6; none in 2.8)."""
    if P[P_JOKER_MODEL] != JOKER_LADDER:
        return np.int64(0)
    trump = S[S_TRUMP]
    k = P[P_FREE_JOKER_HONOURS]
    honours = ((np.int64(1) << 13) - (np.int64(1) << (13 - k))) << (13 * trump)
    if (S[S_PLAYED] & honours) == honours:
        return P[P_JOKER_MASK]  # 1.6(c): trump A K Q J fell in completed tricks
    if P[P_JOKER_SCOPE_ANYONE] == 0 and (seat & 1) != (S[S_BIDDER] & 1):
        return np.int64(0)
    allowed = np.int64(0)
    contract = S[S_HIGH_BID]
    if contract >= P[P_BJ_LEAD_BID]:
        allowed |= BJ_BIT  # 1.6(a)
    if contract >= P[P_RJ_LEAD_BID]:
        allowed |= RJ_BIT  # 1.6(a), 1.6(b)
    return allowed


@jit
def legal_cards(S: np.ndarray, P: np.ndarray) -> np.int64:
    """Mask of the cards the seat to act may play."""
    seat = S[S_TO_ACT]
    hand = S[S_HAND + seat]
    jokers = hand & P[P_JOKER_MASK]
    if S[S_N_IN_TRICK] == 0:
        plain = hand ^ jokers
        if P[P_JOKER_MODEL] == JOKER_SINGLE:
            return (
                plain  # 2.8: never led while holding another card (the forced lead ends the hand)
            )
        legal = plain | (jokers & joker_lead_permission(S, P, seat))
        # 1.8: holding only unleadable jokers, one of them must be led
        return legal if legal != 0 else hand
    led = S[S_LED]
    if led < 0:
        return hand  # 1.8: no card has set the led suit yet
    follow = hand & P[P_SUIT_MASK + led]
    if follow != 0:
        return follow | jokers  # 1.5 / 2.6: follow suit; a joker is always allowed
    return hand


@jit
def _score_hand(S: np.ndarray, P: np.ndarray) -> None:
    """Close the hand: made flag and the points of RULES.md 1.10 / 2.10."""
    contract = S[S_HIGH_BID]
    team = S[S_BIDDER] & 1
    made = S[S_TRICKS + team] >= contract
    S[S_MADE] = 1 if made else 0
    S[S_PHASE] = PH_OVER
    S[S_TO_ACT] = -1
    if P[P_INSTANT_BID] != 0 and contract == P[P_INSTANT_BID]:
        # 2.10: Inzili decides the match; the counter does not move
        S[S_MATCH_WINNER] = team if made else 1 - team
    elif S[S_MALZOOM] != 0:
        if made:
            S[S_POINTS + team] = P[P_MALZOOM_MADE]
        else:
            S[S_POINTS + 1 - team] = P[P_MALZOOM_FAILED]
    elif made:
        S[S_POINTS + team] = P[P_MADE + contract]
    else:
        S[S_POINTS + 1 - team] = P[P_FAILED + contract]


@jit
def _end_trick(S: np.ndarray, P: np.ndarray, STR: np.ndarray) -> None:
    n = P[P_N_PLAYERS]
    winner = S[S_LEADER] + trick_winner_idx(S, P, STR)
    if winner >= n:
        winner -= n
    done = S[S_N_DONE]
    S[S_WINNERS + done] = winner
    S[S_TRICKS + (winner & 1)] += 1
    S[S_N_DONE] = done + 1
    played = S[S_PLAYED]
    for i in range(n):
        played |= np.int64(1) << S[S_TRICK + i]
    S[S_PLAYED] = played
    S[S_N_IN_TRICK] = 0
    S[S_LED] = -1
    S[S_TRUMP_LEAD] = 0
    S[S_RANKLESS] = 0
    S[S_LEADER] = winner  # 1.9: the trick winner leads
    S[S_TO_ACT] = winner
    contract = S[S_HIGH_BID]
    team = S[S_BIDDER] & 1
    n_tricks = P[P_N_TRICKS]
    decided = S[S_TRICKS + team] >= contract or S[S_TRICKS + 1 - team] >= n_tricks - contract + 1
    if done + 1 == n_tricks or (decided and P[P_PLAY_ALL] == 0):
        _score_hand(S, P)  # 1.11 / 2.9: early stop, checked before a forced joker lead
        return
    if P[P_JOKER_MODEL] == JOKER_SINGLE:
        hand = S[S_HAND + winner]
        if hand == (hand & P[P_JOKER_MASK]):
            # 2.8: the leader holds only the joker: the other team wins the match at once
            S[S_FORCED_JOKER] = 1
            S[S_MATCH_WINNER] = 1 - (winner & 1)
            S[S_PHASE] = PH_OVER
            S[S_TO_ACT] = -1


@jit
def record_shown(S: np.ndarray, P: np.ndarray, seat: int, card: int) -> None:
    """Add to ``S[S_VOIDS]`` what the play of ``card`` by ``seat`` shows about its hand, read off
    :func:`legal_cards` (call before the card is applied; public information only). Not called by
    :func:`apply_card`: only a state a sampler will read needs it, see
    :func:`kout_sim.engine.game.apply_observed`."""
    base = seat * 8
    shown = np.int64(0)
    if card < 52:
        # as flags, not branches (whether a random card is trump or follows is not predictable)
        suit = card // 13
        trump = np.int64(suit == S[S_TRUMP])
        shown |= trump << (base + 7)  # 2.4: the bidder's duty is visibly fulfilled
        led = S[S_LED]
        off = np.int64((S[S_N_IN_TRICK] > 0) & (led >= 0) & (suit != led))
        shown |= off << (base + max(led, 0))  # 1.5 / 2.6 (1.7: a joker lead sets led = trump)
    elif S[S_N_IN_TRICK] == 0 and P[P_JOKER_MODEL] == JOKER_LADDER:
        permitted = joker_lead_permission(S, P, seat)
        if ((np.int64(1) << card) & permitted) == 0:
            # 1.8: a rankless lead is legal only holding nothing but unleadable jokers
            shown |= np.int64(15) << base
            shown |= (permitted >> 52) << (base + 4)
    S[S_VOIDS] |= shown


@jit_leaf
def record_card(S: np.ndarray, seat: int, card: int) -> None:
    """Enter ``card`` as played by ``seat`` in the hand's public record (``K_SEAT_PLAYED``: who
    played which card). Kout only. The searching play loops write it, before they apply the card,
    for the auction-aware sampler (:mod:`kout_sim.players.auction`); the engine itself does not,
    so a line-up without a search pays nothing for it. A state whose record does not hold every
    card played is not constrained by the auction."""
    S[K_SEAT_PLAYED + seat] |= np.int64(1) << card


@jit
def apply_card(S: np.ndarray, P: np.ndarray, STR: np.ndarray, card: int) -> None:
    """Play ``card`` (assumed legal) for the seat to act; closes tricks and the hand."""
    seat = S[S_TO_ACT]
    bit = np.int64(1) << card
    k = S[S_N_IN_TRICK]
    S[S_N_ACTIONS] += 1
    if k == 0:
        if (bit & P[P_JOKER_MASK]) != 0:
            if (bit & joker_lead_permission(S, P, seat)) != 0:
                S[S_TRUMP_LEAD] = 1  # 1.7: a permitted joker lead is a trump lead
                S[S_LED] = S[S_TRUMP]
                S[S_JOKER_LEADS] |= bit
            else:
                S[S_RANKLESS] = 1  # 1.8: the unleadable joker is led rankless
                S[S_JOKER_FORCED] |= bit
        else:
            S[S_LED] = card // 13
    elif S[S_LED] < 0 and card < 52:
        S[S_LED] = card // 13  # 1.8: the first non-joker card sets the led suit
    S[S_HAND + seat] ^= bit
    S[S_TRICK + k] = card
    S[S_N_IN_TRICK] = k + 1
    if k + 1 == P[P_N_PLAYERS]:
        _end_trick(S, P, STR)
    else:
        S[S_TO_ACT] = next_seat(seat, P[P_N_PLAYERS])
