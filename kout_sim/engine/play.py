"""Random play and the batch drivers (independent hands over threads, keyed random streams)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import prange

from ._jit import jit, jit_inline, jit_parallel, nth_bit, popcount
from .baloot import completion_masks
from .deal import deck_cards, first_dealer
from .game import apply_action, legal_mask, start_hand
from .layout import (
    B_ASHKAL,
    B_BALOOT_SEAT,
    B_CARD_PTS,
    B_DOUBLE,
    B_FACE_UP,
    B_GAHWA,
    B_KABOOT,
    B_MODE,
    B_PROJ_GP,
    B_PROJ_TEAM,
    B_TAKER,
    CALL,
    FAMILY_BALOOT,
    FAMILY_KOUT,
    M_DEALER,
    M_N_HANDS,
    M_REASON,
    M_SCORE,
    M_SIZE,
    M_WINNER,
    P_FAMILY,
    P_N_PLAYERS,
    PH_AUCTION,
    PH_OVER,
    PH_PLAY,
    R_ASHKAL,
    R_BALOOT_SEAT,
    R_BIDDER,
    R_CARD_PTS,
    R_CONTRACT,
    R_DEALER,
    R_DOUBLE,
    R_FACE_UP,
    R_FORCED_JOKER,
    R_GAHWA,
    R_HAND,
    R_HAND_IDX,
    R_JOKER_FORCED,
    R_JOKER_LEADS,
    R_KABOOT,
    R_MADE,
    R_MALZOOM,
    R_MATCH,
    R_MATCH_WINNER,
    R_MODE,
    R_N_ACTIONS,
    R_N_DONE,
    R_POINTS,
    R_PROJ_GP,
    R_PROJ_TEAM,
    R_SCORE_AFTER,
    R_SCORE_BEFORE,
    R_TRICKS,
    R_TRUMP,
    S_BIDDER,
    S_DEALER,
    S_FORCED_JOKER,
    S_HIGH_BID,
    S_JOKER_FORCED,
    S_JOKER_LEADS,
    S_MADE,
    S_MALZOOM,
    S_MATCH_WINNER,
    S_N_ACTIONS,
    S_N_DONE,
    S_PHASE,
    S_POINTS,
    S_SIZE,
    S_TRICKS,
    S_TRUMP,
    X_FIRST_DEALER,
    X_MATCH,
    X_N_HANDS,
    X_REASON,
    X_SCORE,
    X_WINNER,
)
from .match import apply_hand, new_match
from .rng import below, seed_stream

BLOCK = 512  # hands per parallel work item


@jit_inline
def play_random(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    rng: np.ndarray,
    actions: np.ndarray,
    legal: np.ndarray,
    pass_permille: int,
    family: int,
) -> int:
    """Play the hand in ``S`` to its end, every decision uniform over the legal set.

    With ``pass_permille >= 0`` an auction seat that may pass does so with that probability (in
    thousandths) and otherwise bids uniformly: low auctions give long hands, which the tests use to
    reach late-hand rules. When ``actions`` and ``legal`` (int64[>= 64]) are non-empty they receive
    each decision's action (card id, or ``CALL + call index``) and phase-relative legal mask.
    Returns the number of actions.
    """
    t = 0
    trace = actions.shape[0] > 0
    while S[S_PHASE] != PH_OVER:
        mask = legal_mask(S, P, STR, family)
        choices = mask
        if pass_permille >= 0 and S[S_PHASE] == PH_AUCTION and (mask & 1) != 0 and mask != 1:
            choices = 1 if below(rng, 1000) < pass_permille else mask ^ 1
        action = nth_bit(choices, below(rng, popcount(choices)))
        if trace:
            actions[t] = action if S[S_PHASE] == PH_PLAY else CALL + action
            legal[t] = mask
        apply_action(S, P, STR, action, family)
        t += 1
    return t


@jit_inline
def record_hand(row: np.ndarray, S: np.ndarray, hands: np.ndarray, n: int, family: int) -> None:
    """Write the result of the finished hand ``S`` dealt as ``hands`` into ``row`` (int64[R_SIZE]).

    For Baloot the recorded hands are the eight cards each seat held after completion.
    """
    row[R_DEALER] = S[S_DEALER]
    row[R_BIDDER] = S[S_BIDDER]
    row[R_CONTRACT] = S[S_HIGH_BID]
    row[R_MALZOOM] = S[S_MALZOOM]
    row[R_TRUMP] = S[S_TRUMP] if S[S_TRUMP] < 4 else -1
    row[R_TRICKS] = S[S_TRICKS]
    row[R_TRICKS + 1] = S[S_TRICKS + 1]
    row[R_N_DONE] = S[S_N_DONE]
    row[R_MADE] = S[S_MADE]
    row[R_POINTS] = S[S_POINTS]
    row[R_POINTS + 1] = S[S_POINTS + 1]
    row[R_MATCH_WINNER] = S[S_MATCH_WINNER]
    row[R_FORCED_JOKER] = S[S_FORCED_JOKER]
    row[R_JOKER_LEADS] = S[S_JOKER_LEADS]
    row[R_JOKER_FORCED] = S[S_JOKER_FORCED]
    row[R_N_ACTIONS] = S[S_N_ACTIONS]
    for seat in range(6):
        row[R_HAND + seat] = hands[seat] if seat < n else 0
    if family == FAMILY_BALOOT:
        row[R_MODE] = S[B_MODE]
        row[R_CARD_PTS] = S[B_CARD_PTS]
        row[R_CARD_PTS + 1] = S[B_CARD_PTS + 1]
        row[R_DOUBLE] = S[B_DOUBLE]
        row[R_GAHWA] = S[B_GAHWA]
        row[R_KABOOT] = S[B_KABOOT]
        row[R_PROJ_TEAM] = S[B_PROJ_TEAM]
        row[R_PROJ_GP] = S[B_PROJ_GP]
        row[R_PROJ_GP + 1] = S[B_PROJ_GP + 1]
        row[R_BALOOT_SEAT] = S[B_BALOOT_SEAT]
        row[R_ASHKAL] = S[B_ASHKAL]
        row[R_FACE_UP] = S[B_FACE_UP]
        if S[B_MODE] != 0:
            completion_masks(S, row, R_HAND)
            row[R_HAND + S[B_TAKER]] |= np.int64(1) << S[B_FACE_UP]


@jit_inline
def _random_hand_block(
    P: np.ndarray,
    STR: np.ndarray,
    seed: int,
    first: int,
    out: np.ndarray,
    lo: int,
    hi: int,
    family: int,
) -> None:
    n = P[P_N_PLAYERS]
    S = np.empty(S_SIZE, dtype=np.int64)
    rng = np.empty(4, dtype=np.uint64)
    hands = np.zeros(6, dtype=np.int64)
    deck = deck_cards(P)
    cards = np.empty_like(deck)
    no_trace = np.empty(0, dtype=np.int64)
    for i in range(lo, hi):
        seed_stream(rng, seed, first + i)
        dealer = below(rng, n)
        start_hand(S, P, rng, dealer, deck, cards, hands, 0, 0, family)
        play_random(S, P, STR, rng, no_trace, no_trace, -1, family)
        record_hand(out[i], S, hands, n, family)
        out[i, R_MATCH] = first + i  # the hand's stream index


@jit_inline
def _random_hand_traced(
    P: np.ndarray,
    STR: np.ndarray,
    seed: int,
    index: int,
    hands: np.ndarray,
    actions: np.ndarray,
    legal: np.ndarray,
    S: np.ndarray,
    pass_permille: int,
    score0: int,
    score1: int,
    family: int,
) -> int:
    """Hand ``index`` of :func:`random_hands`, with its deal, actions and legal masks traced.

    ``pass_permille`` is passed to :func:`play_random` (-1: uniform, the rows of ``random_hands``);
    ``score0``/``score1`` are the match score before the hand (the Baloot Sun doubling gate).
    """
    n = P[P_N_PLAYERS]
    rng = np.empty(4, dtype=np.uint64)
    deck = deck_cards(P)
    cards = np.empty_like(deck)
    seed_stream(rng, seed, index)
    dealer = below(rng, n)
    start_hand(S, P, rng, dealer, deck, cards, hands, score0, score1, family)
    return play_random(S, P, STR, rng, actions, legal, pass_permille, family)


@jit_inline
def _random_matches(
    P: np.ndarray,
    STR: np.ndarray,
    seed: int,
    first: int,
    match_rows: np.ndarray,
    hand_rows: np.ndarray,
    family: int,
) -> int:
    """Play ``len(match_rows)`` whole random matches, match ``m`` on stream ``(seed, first + m)``.

    Each match draws its first dealer by the preset's rule, then plays hands until the match ends.
    ``match_rows`` (int64[n, X_SIZE]) receives one row per match, ``hand_rows`` (int64[cap, R_SIZE])
    one per hand. Returns the number of hand rows written, or -1 if ``hand_rows`` was too small.
    Releases the GIL, so threads can run disjoint ranges in parallel.
    """
    n = P[P_N_PLAYERS]
    S = np.empty(S_SIZE, dtype=np.int64)
    MS = np.empty(M_SIZE, dtype=np.int64)
    rng = np.empty(4, dtype=np.uint64)
    hands = np.zeros(6, dtype=np.int64)
    deck = deck_cards(P)
    cards = np.empty_like(deck)
    no_trace = np.empty(0, dtype=np.int64)
    h = 0
    for m in range(match_rows.shape[0]):
        seed_stream(rng, seed, first + m)
        fd = first_dealer(rng, P, deck)
        new_match(MS, fd)
        while MS[M_WINNER] < 0:
            if h >= hand_rows.shape[0]:
                return -1
            row = hand_rows[h]
            row[R_SCORE_BEFORE] = MS[M_SCORE]
            row[R_SCORE_BEFORE + 1] = MS[M_SCORE + 1]
            row[R_HAND_IDX] = MS[M_N_HANDS]
            dealer = MS[M_DEALER]
            start_hand(S, P, rng, dealer, deck, cards, hands, MS[M_SCORE], MS[M_SCORE + 1], family)
            play_random(S, P, STR, rng, no_trace, no_trace, -1, family)
            apply_hand(MS, S, P)
            record_hand(row, S, hands, n, family)
            row[R_MATCH] = first + m
            row[R_SCORE_AFTER] = MS[M_SCORE]
            row[R_SCORE_AFTER + 1] = MS[M_SCORE + 1]
            h += 1
        out = match_rows[m]
        out[X_MATCH] = first + m
        out[X_FIRST_DEALER] = fd
        out[X_N_HANDS] = MS[M_N_HANDS]
        out[X_WINNER] = MS[M_WINNER]
        out[X_REASON] = MS[M_REASON]
        out[X_SCORE] = MS[M_SCORE]
        out[X_SCORE + 1] = MS[M_SCORE + 1]
    return h


class FamilyKernels(NamedTuple):
    """The batch entry points of one family, each compiled with only that family's rules."""

    random_hands: Callable[..., None]
    random_matches: Callable[..., int]
    random_hand_traced: Callable[..., int]


def _family_kernels(family: int) -> FamilyKernels:
    """Entry points with ``family`` frozen in: numba prunes the other family's branches.

    (Numba keys its cache of these closures by the value of ``family`` too.)
    """

    @jit_parallel
    def hands_entry(P: np.ndarray, STR: np.ndarray, seed: int, first: int, out: np.ndarray) -> None:
        n_hands = out.shape[0]
        n_blocks = (n_hands + BLOCK - 1) // BLOCK
        for b in prange(n_blocks):
            lo = b * BLOCK
            _random_hand_block(P, STR, seed, first, out, lo, min(n_hands, lo + BLOCK), family)

    @jit
    def matches_entry(
        P: np.ndarray,
        STR: np.ndarray,
        seed: int,
        first: int,
        match_rows: np.ndarray,
        hand_rows: np.ndarray,
    ) -> int:
        return _random_matches(P, STR, seed, first, match_rows, hand_rows, family)

    @jit
    def traced_entry(
        P: np.ndarray,
        STR: np.ndarray,
        seed: int,
        index: int,
        hands: np.ndarray,
        actions: np.ndarray,
        legal: np.ndarray,
        S: np.ndarray,
        pass_permille: int,
        score0: int,
        score1: int,
    ) -> int:
        return _random_hand_traced(
            P, STR, seed, index, hands, actions, legal, S, pass_permille, score0, score1, family
        )

    return FamilyKernels(hands_entry, matches_entry, traced_entry)


KERNELS = {FAMILY_KOUT: _family_kernels(FAMILY_KOUT), FAMILY_BALOOT: _family_kernels(FAMILY_BALOOT)}


def random_hands(P: np.ndarray, STR: np.ndarray, seed: int, first: int, out: np.ndarray) -> None:
    """Play ``len(out)`` independent random hands, hand ``i`` on stream ``(seed, first + i)``.

    Each hand's dealer is a uniformly random seat. ``out`` is int64[n_hands, R_SIZE]. Blocks of
    hands run on numba's threads (``numba.set_num_threads``); rows never depend on the split.
    """
    KERNELS[int(P[P_FAMILY])].random_hands(P, STR, seed, first, out)


def random_matches(
    P: np.ndarray,
    STR: np.ndarray,
    seed: int,
    first: int,
    match_rows: np.ndarray,
    hand_rows: np.ndarray,
) -> int:
    """Whole random matches of any preset (see :func:`_random_matches`)."""
    kernel = KERNELS[int(P[P_FAMILY])].random_matches
    return int(kernel(P, STR, seed, first, match_rows, hand_rows))


def random_hand_traced(
    P: np.ndarray,
    STR: np.ndarray,
    seed: int,
    index: int,
    hands: np.ndarray,
    actions: np.ndarray,
    legal: np.ndarray,
    S: np.ndarray,
    pass_permille: int,
    score0: int = 0,
    score1: int = 0,
) -> int:
    """One traced random hand of any preset (see :func:`_random_hand_traced`)."""
    kernel = KERNELS[int(P[P_FAMILY])].random_hand_traced
    return int(kernel(P, STR, seed, index, hands, actions, legal, S, pass_permille, score0, score1))
