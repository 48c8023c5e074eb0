"""The play loop and the batch drivers (independent hands over threads, keyed random streams).

Each hand or match has two random streams: the deal lane (first dealer, shuffles) and the play lane
(the players' choices), both keyed by the run seed and the stream index of the hand or match.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from ..engine._jit import (
    jit,
    jit_alloc,
    jit_entry,
    jit_entry_free,
    jit_leaf,
    lowest_bit,
    popcount,
)
from ..engine.baloot import completion_masks
from ..engine.deal import deck_cards, first_dealer_in
from ..engine.game import apply_action, legal_mask, start_hand
from ..engine.kout import record_card
from ..engine.layout import (
    B_ASHKAL,
    B_BALOOT_SEAT,
    B_CARD_PTS,
    B_DOUBLE,
    B_FACE_UP,
    B_GAHWA,
    B_KABOOT,
    B_MODE,
    B_PROJ,
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
    MAX_ACTIONS,
    MAX_CALLS,
    P_DECK,
    P_FAMILY,
    P_JOKER_MASK,
    P_N_PLAYERS,
    PH_OVER,
    PH_PLAY,
    R_ASHKAL,
    R_B_CARD_PTS,
    R_B_HONOURS,
    R_B_JOKERS,
    R_B_SIDE_ACES,
    R_B_SIDE_KINGS,
    R_B_TRUMP_LEN,
    R_B_VOIDS,
    R_BALOOT_SEAT,
    R_BIDDER,
    R_BIDDER_PROJ,
    R_CALLS,
    R_CARD_PTS,
    R_CONTRACT,
    R_DEALER,
    R_DOUBLE,
    R_FACE_UP,
    R_FIRST_DEAL,
    R_FORCED_JOKER,
    R_GAHWA,
    R_HAND,
    R_HAND_IDX,
    R_HOLDER,
    R_JOKER_FORCED,
    R_JOKER_LEADS,
    R_KABOOT,
    R_MADE,
    R_MALZOOM,
    R_MATCH,
    R_MATCH_WINNER,
    R_MODE,
    R_N_ACTIONS,
    R_N_CALLS,
    R_N_DONE,
    R_POINTS,
    R_PROJ_GP,
    R_PROJ_TEAM,
    R_SCORE_AFTER,
    R_SCORE_BEFORE,
    R_SIZE,
    R_TRICKS,
    R_TRUMP,
    R_WINNERS,
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
    S_TO_ACT,
    S_TRICKS,
    S_TRUMP,
    S_WINNERS,
    T_POINTS,
    X_FIRST_DEALER,
    X_MATCH,
    X_N_HANDS,
    X_REASON,
    X_SCORE,
    X_SIZE,
    X_WINNER,
)
from ..engine.match import apply_hand, new_match
from ..engine.rng import LANE_DEAL, LANE_PLAY, below, seed_stream
from ..players.ismcts import N_INT_ROWS
from ..players.kinds import KIND_ISMCTS, NO_SEARCH, SEARCH_ISMCTS, search_class
from ..players.policy import choose, workspace
from ..players.registry import N_PARAMS
from ..players.searches import search_pointers

BLOCK = 512  # the fewest hands worth a thread of their own

ALL = np.int64(-1)
"""``allowed`` of :func:`play_hand` that restricts nothing (every bit set)."""

NO_SEARCHES = np.int64(0)
"""``Context.searches`` of a driver without a search (never read there)."""

SEARCHING = SEARCH_ISMCTS
"""The one searching class of the drivers: ISMCTS and PIMC line-ups run the same entry points,
their searches passed in as pointers (:mod:`kout_sim.players.searches`)."""


class Context(NamedTuple):
    """What every decision of a hand reads: the rules' tables and the line-up with its workspace.

    Built inside the kernels (:func:`context`), or by the batch entry points from the scratch of
    :func:`scratch`; numba passes it as one struct, so the drivers take
    one argument where they took six.
    """

    P: np.ndarray  # rule parameters (kout_sim.engine.tables)
    STR: np.ndarray  # card tables
    kinds: np.ndarray  # int64[6]: the policy of each seat (kout_sim.players.kinds)
    params: np.ndarray  # float64[6, N_PARAMS]: its parameters
    nodes: np.ndarray  # int64[N_INT_ROWS, cap]: the search's node pool (kout_sim.players.policy)
    value: np.ndarray  # float64[cap]: the search's node values
    # the search kernels as pointers (kout_sim.players.searches), or NO_SEARCHES
    searches: object


class Lanes(NamedTuple):
    """One thread's scratch for playing hands: states, the two random lanes, the deck."""

    S: np.ndarray  # int64[S_SIZE]: the hand state
    MS: np.ndarray  # int64[M_SIZE]: the match state
    deal: np.ndarray  # uint64[4]: the deal lane (first dealer, shuffles)
    play: np.ndarray  # uint64[4]: the play lane (the players' choices)
    hands: np.ndarray  # int64[6]: the hands as dealt
    deck: np.ndarray  # the preset's cards
    cards: np.ndarray  # shuffle scratch


def _make_play_hand(family: int, searching: int) -> Callable[..., int]:
    """The play loop of one family and line-up class, compiled once as a function of its own.

    ``family`` and ``searching`` are closure constants, so numba prunes the other family's policies
    and rules (and the search when no seat searches) before typing. Every driver calls the same
    compiled loop (through :func:`play_hand`) instead of re-typing it inlined: the loop and the
    policy dispatch below it are typed once per variant, not once per entry point.
    """
    decorate = jit_alloc if searching else jit  # the search allocates its own scratch

    @decorate
    def play_hand_of(
        S: np.ndarray,
        MS: np.ndarray,
        rng: np.ndarray,
        ctx: Context,
        row: np.ndarray,
        actions: np.ndarray,
        legal: np.ndarray,
        packed: np.ndarray,
        limit: int,
        allowed: int,
    ) -> int:
        P, STR = ctx.P, ctx.STR
        t = 0
        n_calls = 0
        word = np.int64(0)  # the calls of the current group of 8, one byte each
        for k in range(4):
            row[R_CALLS + k] = 0
        while S[S_PHASE] != PH_OVER and t != limit:
            mask = legal_mask(S, P, STR, family)
            if t == 0:
                mask &= allowed
                if mask == 0:
                    t = -2
                    break
            seat = S[S_TO_ACT]
            action = choose(
                S,
                P,
                STR,
                MS,
                rng,
                ctx.kinds[seat],
                ctx.params[seat],
                mask,
                ctx.nodes,
                ctx.value,
                ctx.searches,
                searching,
                family,
            )
            if action < 0 or action > 63 or (mask >> action) & 1 == 0:
                t = -1
                break
            is_card = S[S_PHASE] == PH_PLAY
            code = action if is_card else CALL + action
            if not is_card and n_calls < MAX_CALLS:
                word |= np.int64(action + 1) << (8 * (n_calls % 8))
                n_calls += 1
                if n_calls % 8 == 0:
                    row[R_CALLS + n_calls // 8 - 1] = word
                    word = np.int64(0)
            if t < actions.shape[0]:
                actions[t] = code
            if t < legal.shape[0]:
                legal[t] = mask
            if t < packed.shape[0]:
                packed[t] = code | (seat << 8) | (popcount(mask) << 12)
            if searching != NO_SEARCH and family == FAMILY_KOUT and is_card:
                record_card(S, seat, action)
            apply_action(S, P, STR, action, family)
            t += 1
        if n_calls % 8 != 0:
            row[R_CALLS + n_calls // 8] = word
        row[R_N_CALLS] = n_calls
        return t

    return play_hand_of


# One module global per variant (a closure over a dispatcher is never a cache hit: rule 4 of
# docs/compile.md); the dispatcher below picks one by its closure-constant arguments.
_PLAY_KOUT = _make_play_hand(FAMILY_KOUT, NO_SEARCH)
_PLAY_KOUT_SEARCHING = _make_play_hand(FAMILY_KOUT, SEARCHING)
_PLAY_BALOOT = _make_play_hand(FAMILY_BALOOT, NO_SEARCH)
_PLAY_BALOOT_SEARCHING = _make_play_hand(FAMILY_BALOOT, SEARCHING)


@jit_leaf
def play_hand(
    S: np.ndarray,
    MS: np.ndarray,
    rng: np.ndarray,
    ctx: Context,
    row: np.ndarray,
    actions: np.ndarray,
    legal: np.ndarray,
    packed: np.ndarray,
    limit: int,
    allowed: int,
    searching: int,
    family: int,
) -> int:
    """Play the hand in ``S`` to its end (or ``limit`` decisions, if >= 0), each decision made by
    the acting seat's policy, the first among the legal actions of ``allowed`` only (a bitmask of
    phase-relative actions; ``ALL`` restricts nothing).

    ``ctx`` holds the tables and the line-up (:class:`Context`), ``MS`` the match state (the score
    before the hand), ``rng`` the play lane. The calls go to ``row[R_CALLS:]``.
    Non-empty traces receive each decision: ``actions`` / ``legal`` (int64) the global action id and
    the phase-relative legal mask, ``packed`` (int32) action | seat << 8 | n legal << 12.
    Returns the number of decisions, -1 if a policy chose an illegal action, -2 if no legal action
    is ``allowed``.
    """
    if family == FAMILY_BALOOT:
        if searching != NO_SEARCH:
            return _PLAY_BALOOT_SEARCHING(
                S, MS, rng, ctx, row, actions, legal, packed, limit, allowed
            )
        return _PLAY_BALOOT(S, MS, rng, ctx, row, actions, legal, packed, limit, allowed)
    if searching != NO_SEARCH:
        return _PLAY_KOUT_SEARCHING(S, MS, rng, ctx, row, actions, legal, packed, limit, allowed)
    return _PLAY_KOUT(S, MS, rng, ctx, row, actions, legal, packed, limit, allowed)


@jit_leaf
def record_hand(
    row: np.ndarray,
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    hands: np.ndarray,
    n: int,
    family: int,
) -> None:
    """Write the result of the finished hand ``S`` dealt as ``hands`` into ``row`` (int64[R_SIZE]).

    For Baloot the recorded hands are the eight cards each seat held after completion.
    """
    _record_common(row, S, hands, n)
    if family == FAMILY_BALOOT:
        _record_baloot(row, S, hands)
    hand_features(row, S, P, STR, n, family)


@jit
def _record_common(row: np.ndarray, S: np.ndarray, hands: np.ndarray, n: int) -> None:
    """The result columns of every family."""
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
    # the trick winners, one byte each, built in registers (a loop of the hand's random number
    # of tricks writing to the row mispredicted its exit and re-read the row)
    n_done = S[S_N_DONE]
    low = np.int64(0)
    high = np.int64(0)
    for k in range(8):
        low |= ((S[S_WINNERS + k] + 1) & -np.int64(k < n_done)) << (8 * k)
        high |= ((S[S_WINNERS + 8 + k] + 1) & -np.int64(k + 8 < n_done)) << (8 * k)
    row[R_WINNERS] = low
    row[R_WINNERS + 1] = high
    for seat in range(6):
        row[R_HAND + seat] = hands[seat] if seat < n else 0


@jit
def _record_baloot(row: np.ndarray, S: np.ndarray, hands: np.ndarray) -> None:
    """Baloot's own result columns (mode, card points, doubling, projects, the completed hands)."""
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
    for seat in range(4):
        row[R_FIRST_DEAL + seat] = hands[seat]
    buyer = S[S_BIDDER]
    row[R_BIDDER_PROJ] = S[B_PROJ + 2 * buyer] if buyer >= 0 else 0
    row[R_BIDDER_PROJ + 1] = S[B_PROJ + 2 * buyer + 1] if buyer >= 0 else 0
    if S[B_MODE] != 0:
        completion_masks(S, row, np.int64(R_HAND))
        row[R_HAND + S[B_TAKER]] |= np.int64(1) << S[B_FACE_UP]


SUIT_BITS = np.int64(0x1FFF)
ACES = np.int64((1 << 12) | (1 << 25) | (1 << 38) | (1 << 51))
KINGS = np.int64((1 << 11) | (1 << 24) | (1 << 37) | (1 << 50))
KOUT_HONOURS = np.int64(0xF << 9)  # J Q K A of one suit
HOKUM_HONOURS = np.int64((1 << 7) | (1 << 8) | (1 << 9) | (1 << 12))  # 9 T J A (RULES.md 3.1)


@jit
def hand_features(
    row: np.ndarray, S: np.ndarray, P: np.ndarray, STR: np.ndarray, n: int, family: int
) -> None:
    """The bidder's hand features and the joker holders, from the recorded hands of ``row``."""
    for j in range(3):
        holder = np.int64(-1)
        for seat in range(n):  # without branches on the random deal: select the holding seat
            held = -((row[R_HAND + seat] >> (52 + j)) & 1)
            holder = (seat & held) | (holder & ~held)
        row[R_HOLDER + j] = holder
    for k in range(7):
        row[R_B_TRUMP_LEN + k] = -1
    bidder = S[S_BIDDER]
    if bidder < 0 or (family == FAMILY_BALOOT and S[B_MODE] == 0):
        return
    hand = row[R_HAND + bidder]
    trump = row[R_TRUMP]
    trump_mask = np.int64(0)
    if trump >= 0:
        trump_mask = SUIT_BITS << (13 * trump)
        honours = HOKUM_HONOURS if family == FAMILY_BALOOT else KOUT_HONOURS
        row[R_B_TRUMP_LEN] = popcount(hand & trump_mask)
        row[R_B_HONOURS] = popcount(hand & (honours << (13 * trump)))
    row[R_B_SIDE_ACES] = popcount(hand & ACES & ~trump_mask)
    row[R_B_SIDE_KINGS] = popcount(hand & KINGS & ~trump_mask)
    voids = 0
    for suit in range(4):
        voids += np.int64(hand & (SUIT_BITS << (13 * suit)) == 0)
    row[R_B_VOIDS] = voids
    if family == FAMILY_BALOOT:
        table = S[S_TRUMP]
        points = 0
        rest = hand
        while rest != 0:
            card = lowest_bit(rest)
            rest &= rest - 1
            points += STR[T_POINTS + table, card]
        row[R_B_CARD_PTS] = points
    else:
        row[R_B_JOKERS] = popcount(hand & P[P_JOKER_MASK])


@jit_leaf
def scratch_row() -> np.ndarray:
    """A result row nobody keeps, laid out like a row of the batch buffers: a column of a
    column-major buffer, which numba types as a non-contiguous array, so the play loop and the
    row kernels compile once for both (a plain ``np.zeros(R_SIZE)`` would give them a second,
    contiguous signature)."""
    return np.zeros((R_SIZE, 1), dtype=np.int64)[:, 0]


@jit_leaf
def context(
    P: np.ndarray, STR: np.ndarray, kinds: np.ndarray, params: np.ndarray, searches: object
) -> Context:
    """The :class:`Context` of a line-up, with a search workspace for its largest search and its
    ``searches`` (:data:`NO_SEARCHES` without a search)."""
    nodes, value = workspace(kinds, params)
    return Context(P, STR, kinds, params, nodes, value, searches)


@jit_leaf
def new_lanes(P: np.ndarray) -> Lanes:
    """Fresh scratch for one thread's hands (:class:`Lanes`)."""
    deck = deck_cards(P)
    return Lanes(
        np.empty(S_SIZE, dtype=np.int64),
        np.zeros(M_SIZE, dtype=np.int64),
        np.empty(4, dtype=np.uint64),
        np.empty(4, dtype=np.uint64),
        np.zeros(6, dtype=np.int64),
        deck,
        np.empty_like(deck),
    )


@jit_leaf
def seed_lanes(w: Lanes, seed: int, index: int) -> None:
    """Key the deal and play lanes of ``w`` to stream ``index`` of the run ``seed``."""
    seed_stream(w.deal, seed, index, LANE_DEAL)
    seed_stream(w.play, seed, index, LANE_PLAY)


@jit_leaf
def deal_hand(w: Lanes, P: np.ndarray, dealer: int, score0: int, score1: int, family: int) -> None:
    """Deal the next hand of ``w`` by ``dealer`` (the match score ``score0``-``score1`` before it)."""
    start_hand(w.S, P, w.deal, dealer, w.deck, w.cards, w.hands, score0, score1, family)


@jit_leaf
def deal_alone(w: Lanes, P: np.ndarray, seed: int, index: int, family: int) -> None:
    """Hand ``index`` of the independent hands of ``seed``: its lanes keyed, a uniformly random
    dealer drawn from the deal lane, the score 0-0."""
    seed_lanes(w, seed, index)
    deal_hand(w, P, below(w.deal, P[P_N_PLAYERS]), np.int64(0), np.int64(0), family)


@jit_leaf
def _hand_block(
    ctx: Context,
    w: Lanes,
    seed: int,
    first: int,
    out: np.ndarray,
    trace: np.ndarray,
    lo: int,
    hi: int,
    no_trace: np.ndarray,
    no_packed: np.ndarray,
    searching: int,
    family: int,
) -> None:
    P = ctx.P
    for i in range(lo, hi):
        deal_alone(w, P, seed, first + i, family)
        packed = trace[i] if trace.shape[0] > 0 else no_packed
        row = out[i]
        t = play_hand(
            w.S,
            w.MS,
            w.play,
            ctx,
            row,
            no_trace,
            no_trace,
            packed,
            np.int64(-1),
            ALL,
            searching,
            family,
        )
        record_hand(row, w.S, P, ctx.STR, w.hands, P[P_N_PLAYERS], family)
        if t < 0:
            row[R_N_ACTIONS] = -1
        row[R_MATCH] = first + i  # the hand's stream index


@jit_leaf
def _hand_traced(
    ctx: Context,
    seed: int,
    index: int,
    hands: np.ndarray,
    actions: np.ndarray,
    legal: np.ndarray,
    S: np.ndarray,
    score0: int,
    score1: int,
    limit: int,
    searching: int,
    family: int,
) -> int:
    """Hand ``index`` of :func:`play_hands`, with its deal, actions and legal masks traced.

    ``score0``/``score1`` are the match score before the hand (the Baloot Sun doubling gate);
    with ``limit >= 0`` the hand stops after that many decisions (``S`` is then the position).
    """
    P = ctx.P
    w = new_lanes(P)
    w.MS[M_SCORE] = score0
    w.MS[M_SCORE + 1] = score1
    seed_lanes(w, seed, index)
    dealer = below(w.deal, P[P_N_PLAYERS])
    start_hand(S, P, w.deal, dealer, w.deck, w.cards, hands, score0, score1, family)
    row = scratch_row()
    no_packed = np.empty(0, dtype=np.int32)
    return play_hand(
        S, w.MS, w.play, ctx, row, actions, legal, no_packed, limit, ALL, searching, family
    )


@jit_leaf
def _match_hand_start(w: Lanes, P: np.ndarray, row: np.ndarray, family: int) -> None:
    """Deal the next hand of the match in ``w.MS``; its score and index before it go to ``row``."""
    MS = w.MS
    row[R_SCORE_BEFORE] = MS[M_SCORE]
    row[R_SCORE_BEFORE + 1] = MS[M_SCORE + 1]
    row[R_HAND_IDX] = MS[M_N_HANDS]
    deal_hand(w, P, MS[M_DEALER], MS[M_SCORE], MS[M_SCORE + 1], family)


@jit_leaf
def _match_hand_end(w: Lanes, ctx: Context, row: np.ndarray, index: int, family: int) -> None:
    """Score the finished hand of ``w`` into its match (``index``) and record it in ``row``."""
    P = ctx.P
    MS = w.MS
    apply_hand(MS, w.S, P)
    record_hand(row, w.S, P, ctx.STR, w.hands, P[P_N_PLAYERS], family)
    row[R_MATCH] = index
    row[R_SCORE_AFTER] = MS[M_SCORE]
    row[R_SCORE_AFTER + 1] = MS[M_SCORE + 1]


@jit_leaf
def _match_row(out: np.ndarray, MS: np.ndarray, index: int, fd: int) -> None:
    """The result row of the finished match ``index`` (first dealer ``fd``)."""
    out[X_MATCH] = index
    out[X_FIRST_DEALER] = fd
    out[X_N_HANDS] = MS[M_N_HANDS]
    out[X_WINNER] = MS[M_WINNER]
    out[X_REASON] = MS[M_REASON]
    out[X_SCORE] = MS[M_SCORE]
    out[X_SCORE + 1] = MS[M_SCORE + 1]


@jit_leaf
def _matches(
    ctx: Context,
    w: Lanes,
    seed: int,
    first: int,
    match_rows: np.ndarray,
    hand_rows: np.ndarray,
    trace: np.ndarray,
    no_trace: np.ndarray,
    no_packed: np.ndarray,
    searching: int,
    family: int,
) -> int:
    """Play ``len(match_rows)`` whole matches, match ``m`` on the streams of ``(seed, first + m)``.

    Each match draws its first dealer by the preset's rule, then plays hands until the match ends.
    ``match_rows`` (int64[n, X_SIZE]) receives one row per match, ``hand_rows`` (int64[cap, R_SIZE])
    one per hand, ``trace`` (int32[cap, MAX_ACTIONS] or empty) each hand's packed decisions.
    Returns the number of hand rows written, -1 if ``hand_rows`` was too small, -2 if a policy
    chose an illegal action. Releases the GIL, so threads can run disjoint ranges in parallel.
    """
    P = ctx.P
    MS = w.MS
    h = 0
    for m in range(match_rows.shape[0]):
        seed_lanes(w, seed, first + m)
        fd = first_dealer_in(w.deal, P, w.deck, w.cards)
        new_match(MS, fd)
        while MS[M_WINNER] < 0:
            if h >= hand_rows.shape[0]:
                return -1
            row = hand_rows[h]
            _match_hand_start(w, P, row, family)
            packed = trace[h] if trace.shape[0] > 0 else no_packed
            t = play_hand(
                w.S,
                MS,
                w.play,
                ctx,
                row,
                no_trace,
                no_trace,
                packed,
                np.int64(-1),
                ALL,
                searching,
                family,
            )
            if t < 0:
                return -2
            _match_hand_end(w, ctx, row, first + m, family)
            h += 1
        _match_row(match_rows[m], MS, first + m, fd)
    return h


MODE_HANDS = 0
MODE_MATCHES = 1
MODE_PLAY_OUT = 2
"""What the one entry point of a searching line-up class does (:func:`_searching`)."""


@jit_leaf
def _searching(
    ctx: Context,
    w: Lanes,
    mode: int,
    seed: int,
    first: int,
    rows: np.ndarray,
    match_rows: np.ndarray,
    trace: np.ndarray,
    lo: int,
    hi: int,
    no_trace: np.ndarray,
    no_packed: np.ndarray,
    action: int,
    limit: int,
    allowed: int,
    actions: np.ndarray,
    searching: int,
    family: int,
) -> int:
    """The hands, matches or play-out of a searching line-up, with one call of :func:`play_hand`.

    Every entry point emits the machine code of everything below it, and a search is the largest
    code there is, so a searching line-up class has one entry point (docs/compile.md) where the
    others have one per task. ``mode`` selects the task:

    - ``MODE_HANDS``: hands ``lo..hi-1`` as :func:`_hand_block` (``rows`` the hand rows); returns 0;
    - ``MODE_MATCHES``: ``len(match_rows)`` matches as :func:`_matches` (``rows`` the hand rows);
      returns what it does;
    - ``MODE_PLAY_OUT``: the position in ``w.S`` as :func:`kout_sim.drivers.playout.play_out`
      (the forced ``action`` if ``>= 0``, then up to ``limit`` decisions, the first among
      ``allowed``, their ids to ``actions``; ``rows[0]`` a scratch row); returns what
      :func:`play_hand` does.

    The hands and matches draw exactly what the entry points of the other classes draw.
    """
    P = ctx.P
    MS = w.MS
    i = lo if mode == MODE_HANDS else 0  # the next hand (hands) or match (matches)
    h = 0  # hand rows written (matches)
    fd = np.int64(0)
    in_match = False
    while True:
        packed = no_packed
        if mode == MODE_HANDS:
            if i >= hi:
                return 0
            deal_alone(w, P, seed, first + i, family)
            row = rows[i]
            if trace.shape[0] > 0:
                packed = trace[i]
        elif mode == MODE_MATCHES:
            if not in_match:
                if i >= match_rows.shape[0]:
                    return h
                seed_lanes(w, seed, first + i)
                fd = first_dealer_in(w.deal, P, w.deck, w.cards)
                new_match(MS, fd)
                in_match = True
            if h >= rows.shape[0]:
                return -1
            row = rows[h]
            if trace.shape[0] > 0:
                packed = trace[h]
            _match_hand_start(w, P, row, family)
        else:
            row = rows[0]
            if action >= 0:
                if family == FAMILY_KOUT and w.S[S_PHASE] == PH_PLAY:
                    record_card(w.S, w.S[S_TO_ACT], action)
                apply_action(w.S, P, ctx.STR, action, family)
        t = play_hand(
            w.S, MS, w.play, ctx, row, actions, no_trace, packed, limit, allowed, searching, family
        )
        if mode == MODE_HANDS:
            record_hand(row, w.S, P, ctx.STR, w.hands, P[P_N_PLAYERS], family)
            if t < 0:
                row[R_N_ACTIONS] = -1
            row[R_MATCH] = first + i
            i += 1
        elif mode == MODE_MATCHES:
            if t < 0:
                return -2
            _match_hand_end(w, ctx, row, first + i, family)
            h += 1
            if MS[M_WINNER] >= 0:
                _match_row(match_rows[i], MS, first + i, fd)
                i += 1
                in_match = False
        else:
            return t


class FamilyKernels(NamedTuple):
    """The batch entry points of one family, each compiled with only that family's rules."""

    hands: Callable[..., None]
    matches: Callable[..., int]
    hand_traced: Callable[..., int]
    search: Callable[..., int] | None  # a searching class's one batch entry (_searching)


def _family_kernels(family: int, searching: int) -> FamilyKernels:
    """Entry points with ``family`` and ``searching`` frozen in: numba prunes the other family's
    branches, and the search when no seat searches (it is by far the largest code to compile).

    Without a search, independent hands and whole matches have an entry point each: one entry
    point for both saved one engine's compile in the test warm-up but made the first ``simulate``
    of matches (the default) compile the hands loop too, 3-7 s more of CPU (docs/compile.md). A
    searching class has one entry point for hands, matches and play-outs (:func:`_searching`): the
    search below it costs far more to emit than the loops. (Numba keys its cache of these closures
    by the values of the frozen variables too.)
    """
    traced = _traced_entry(family, searching)
    if searching != NO_SEARCH:
        return _search_kernels(family, searching, traced)

    # The entry points of line-ups without a search allocate nothing (their scratch comes from
    # the Python wrappers), so they run without numba's reference counts: an array passed
    # between the kernels inlined into a reference-counting function took an atomic increment
    # and decrement, dozens per hand.
    @jit_entry_free
    def hands_entry(
        P: np.ndarray,
        STR: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        seed: int,
        first: int,
        out: np.ndarray,
        trace: np.ndarray,
        lo: int,
        hi: int,
        nodes: np.ndarray,
        value: np.ndarray,
        S: np.ndarray,
        MS: np.ndarray,
        deal: np.ndarray,
        play: np.ndarray,
        hands: np.ndarray,
        deck: np.ndarray,
        cards: np.ndarray,
        no_trace: np.ndarray,
        no_packed: np.ndarray,
    ) -> None:
        ctx = Context(P, STR, kinds, params, nodes, value, NO_SEARCHES)
        w = Lanes(S, MS, deal, play, hands, deck, cards)
        _hand_block(ctx, w, seed, first, out, trace, lo, hi, no_trace, no_packed, searching, family)

    @jit_entry_free
    def matches_entry(
        P: np.ndarray,
        STR: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        seed: int,
        first: int,
        match_rows: np.ndarray,
        hand_rows: np.ndarray,
        trace: np.ndarray,
        nodes: np.ndarray,
        value: np.ndarray,
        S: np.ndarray,
        MS: np.ndarray,
        deal: np.ndarray,
        play: np.ndarray,
        hands: np.ndarray,
        deck: np.ndarray,
        cards: np.ndarray,
        no_trace: np.ndarray,
        no_packed: np.ndarray,
    ) -> int:
        ctx = Context(P, STR, kinds, params, nodes, value, NO_SEARCHES)
        w = Lanes(S, MS, deal, play, hands, deck, cards)
        return _matches(
            ctx,
            w,
            seed,
            first,
            match_rows,
            hand_rows,
            trace,
            no_trace,
            no_packed,
            searching,
            family,
        )

    return FamilyKernels(hands_entry, matches_entry, traced, None)


def _traced_entry(family: int, searching: int) -> Callable[..., int]:
    """The entry point of one traced hand (:func:`hand_traced`) of a family and line-up class."""

    @jit_alloc
    def traced_entry(
        P: np.ndarray,
        STR: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        seed: int,
        index: int,
        hands: np.ndarray,
        actions: np.ndarray,
        legal: np.ndarray,
        S: np.ndarray,
        score0: int,
        score1: int,
        limit: int,
        searches: object,
    ) -> int:
        return _hand_traced(
            context(P, STR, kinds, params, searches),
            seed,
            index,
            hands,
            actions,
            legal,
            S,
            score0,
            score1,
            limit,
            searching,
            family,
        )

    return traced_entry


def _search_kernels(family: int, searching: int, traced: Callable[..., int]) -> FamilyKernels:
    """The batch entry of a searching line-up class (:func:`_searching`: hands, matches and
    play-out in one entry point), behind the call shapes of the other classes' entry points."""

    @jit_entry
    def search_entry(
        mode: int,
        P: np.ndarray,
        STR: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        seed: int,
        first: int,
        rows: np.ndarray,
        match_rows: np.ndarray,
        trace: np.ndarray,
        lo: int,
        hi: int,
        nodes: np.ndarray,
        value: np.ndarray,
        S: np.ndarray,
        MS: np.ndarray,
        deal: np.ndarray,
        play: np.ndarray,
        hands: np.ndarray,
        deck: np.ndarray,
        cards: np.ndarray,
        no_trace: np.ndarray,
        no_packed: np.ndarray,
        action: int,
        limit: int,
        allowed: int,
        actions: np.ndarray,
        searches: tuple[Callable[..., int], ...],
    ) -> int:
        ctx = Context(P, STR, kinds, params, nodes, value, searches)
        w = Lanes(S, MS, deal, play, hands, deck, cards)
        return _searching(
            ctx,
            w,
            mode,
            seed,
            first,
            rows,
            match_rows,
            trace,
            lo,
            hi,
            no_trace,
            no_packed,
            action,
            limit,
            allowed,
            actions,
            searching,
            family,
        )

    def hands(
        P: np.ndarray,
        STR: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        seed: int,
        first: int,
        out: np.ndarray,
        trace: np.ndarray,
        lo: int,
        hi: int,
        *own: np.ndarray,
    ) -> None:
        search_entry(
            MODE_HANDS, P, STR, kinds, params, seed, first, out, NO_MATCHES, trace, lo, hi,
            *own, -1, -1, ALL, NO_ACTIONS, search_pointers(family, kinds, params),
        )  # fmt: skip

    def matches(
        P: np.ndarray,
        STR: np.ndarray,
        kinds: np.ndarray,
        params: np.ndarray,
        seed: int,
        first: int,
        match_rows: np.ndarray,
        hand_rows: np.ndarray,
        trace: np.ndarray,
        *own: np.ndarray,
    ) -> int:
        return int(
            search_entry(
                MODE_MATCHES, P, STR, kinds, params, seed, first, hand_rows, match_rows, trace,
                0, 0, *own, -1, -1, ALL, NO_ACTIONS, search_pointers(family, kinds, params),
            )
        )  # fmt: skip

    return FamilyKernels(hands, matches, traced, search_entry)


KERNELS = {
    (family, searching): _family_kernels(family, searching)
    for family in (FAMILY_KOUT, FAMILY_BALOOT)
    for searching in (NO_SEARCH, SEARCHING)
}
"""The entry points of each family, without a search and with (``SEARCHING``: ISMCTS and PIMC
line-ups alike, their searches passed in)."""


def kernels(P: np.ndarray, kinds: np.ndarray) -> FamilyKernels:
    """The entry points for the preset of ``P`` and the line-up ``kinds``."""
    return KERNELS[int(P[P_FAMILY]), NO_SEARCH if search_class(kinds) == NO_SEARCH else SEARCHING]


def searches_of(P: np.ndarray, kinds: np.ndarray, params: np.ndarray) -> object:
    """The ``searches`` argument of the entry points for the line-up ``kinds``/``params``
    (:class:`Context`)."""
    if search_class(kinds) == NO_SEARCH:
        return NO_SEARCHES
    return search_pointers(int(P[P_FAMILY]), kinds, params)


NO_TRACE = np.zeros((0, MAX_ACTIONS), dtype=np.int32)
NO_MATCHES = np.zeros((0, X_SIZE), dtype=np.int64)
NO_ACTIONS = np.zeros(0, dtype=np.int64)


def new_rows(n: int) -> np.ndarray:
    """A zeroed int64[n, R_SIZE] row buffer stored column by column (each field contiguous), the
    layout every hands and match entry point is compiled for.

    Numba types a buffer of fewer than two rows as C-contiguous (it is both), which would compile a
    second copy of every hands driver: callers play such counts in a two-row buffer (see
    :func:`kout_sim.sim.batch.play_hands`)."""
    return np.zeros((R_SIZE, n), dtype=np.int64).T


def scratch(P: np.ndarray, kinds: np.ndarray, params: np.ndarray) -> tuple[np.ndarray, ...]:
    """The scratch arrays of one call of a batch entry point, allocated here so that the entry
    points of line-ups without a search allocate nothing: the search workspace (as
    :func:`kout_sim.players.policy.workspace`), the arrays of :class:`Lanes` (as :func:`new_lanes`)
    and the two empty traces. Distinct arrays: the entry points' ``noalias`` contract."""
    cap = 1
    for seat in range(kinds.shape[0]):
        if kinds[seat] == KIND_ISMCTS:
            cap = max(cap, int(params[seat, 0]) + 2)
    mask = int(P[P_DECK])
    deck = np.array([c for c in range(64) if (mask >> c) & 1], dtype=np.int64)
    return (
        np.empty((N_INT_ROWS, cap), dtype=np.int64),
        np.empty(cap, dtype=np.float64),
        np.zeros(S_SIZE, dtype=np.int64),
        np.zeros(M_SIZE, dtype=np.int64),
        np.zeros(4, dtype=np.uint64),
        np.zeros(4, dtype=np.uint64),
        np.zeros(6, dtype=np.int64),
        deck,
        np.zeros_like(deck),
        np.empty(0, dtype=np.int64),
        np.empty(0, dtype=np.int32),
    )


def play_hands(
    P: np.ndarray,
    STR: np.ndarray,
    kinds: np.ndarray,
    params: np.ndarray,
    seed: int,
    first: int,
    out: np.ndarray,
    trace: np.ndarray = NO_TRACE,
    threads: int = 1,
) -> None:
    """Play ``len(out)`` independent hands, hand ``i`` on the streams of ``(seed, first + i)``.

    Each hand's dealer is a uniformly random seat, the score before it 0-0. ``out`` is
    int64[n_hands, R_SIZE]; ``trace`` int32[n_hands, MAX_ACTIONS] or empty. With ``threads > 1``
    the hands are split into that many contiguous ranges played at once on a thread pool (the
    kernel releases the GIL); rows never depend on the split. A row whose ``R_N_ACTIONS`` is -1 met
    an illegal choice of a policy.
    """
    kernel = kernels(P, kinds).hands
    n = out.shape[0]
    threads = max(1, min(threads, n // BLOCK))
    if threads == 1:
        kernel(P, STR, kinds, params, seed, first, out, trace, 0, n, *scratch(P, kinds, params))
        return
    bounds = [n * k // threads for k in range(threads + 1)]

    def part(k: int) -> None:
        own = scratch(P, kinds, params)  # each thread its own
        kernel(P, STR, kinds, params, seed, first, out, trace, bounds[k], bounds[k + 1], *own)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(part, range(threads)))


def play_matches(
    P: np.ndarray,
    STR: np.ndarray,
    kinds: np.ndarray,
    params: np.ndarray,
    seed: int,
    first: int,
    match_rows: np.ndarray,
    hand_rows: np.ndarray,
    trace: np.ndarray = NO_TRACE,
) -> int:
    """Whole matches of any preset (see :func:`_matches`)."""
    kernel = kernels(P, kinds).matches
    own = scratch(P, kinds, params)
    return int(kernel(P, STR, kinds, params, seed, first, match_rows, hand_rows, trace, *own))


def hand_traced(
    P: np.ndarray,
    STR: np.ndarray,
    kinds: np.ndarray,
    params: np.ndarray,
    seed: int,
    index: int,
    hands: np.ndarray,
    actions: np.ndarray,
    legal: np.ndarray,
    S: np.ndarray,
    score0: int = 0,
    score1: int = 0,
    limit: int = -1,
) -> int:
    """One traced hand of any preset (see :func:`_hand_traced`)."""
    kernel = kernels(P, kinds).hand_traced
    searches = searches_of(P, kinds, params)
    return int(
        kernel(
            P, STR, kinds, params, seed, index, hands, actions, legal, S, score0, score1, limit,
            searches,
        )
    )  # fmt: skip


def random_lineup(pass_probability: float = -1.0) -> tuple[np.ndarray, np.ndarray]:
    """``kinds``/``params`` of random players on every seat (``pass_probability``: see random)."""
    params = np.zeros((6, N_PARAMS), dtype=np.float64)
    params[:, 0] = pass_probability
    return np.zeros(6, dtype=np.int64), params


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
    """:func:`hand_traced` with random players; ``pass_permille >= 0`` biases auction passes."""
    kinds, params = random_lineup(pass_permille / 1000 if pass_permille >= 0 else -1.0)
    return hand_traced(P, STR, kinds, params, seed, index, hands, actions, legal, S, score0, score1)
