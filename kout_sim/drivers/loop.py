"""The play loop of a hand and the steps of hands and matches around it: the kernels every batch
entry point (:mod:`kout_sim.drivers.play`) and the fork driver inline.

A hand's decisions are made by :func:`play_hand` (one compiled loop per family and line-up class);
:class:`Context` carries the rules' tables and the line-up (with its search pointers), :class:`Lanes`
one thread's scratch and random lanes. The loops over hands, matches and play-outs are the entry
points of :mod:`kout_sim.drivers.play`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..engine._jit import (
    jit,
    jit_alloc,
    jit_leaf,
    popcount,
)
from ..engine.deal import deck_cards
from ..engine.game import (
    apply_action,
    legal_mask,
    new_hand,
    record_hand,
    record_play,
)
from ..engine.kout.hand import record_card
from ..engine.layout import (
    CALL,
    FAMILY_BALOOT,
    FAMILY_KOUT,
    M_DEALER,
    M_N_HANDS,
    M_REASON,
    M_SCORE,
    M_SIZE,
    M_WINNER,
    MAX_CALLS,
    P_N_PLAYERS,
    PH_OVER,
    PH_PLAY,
    R_CALLS,
    R_HAND_IDX,
    R_MATCH,
    R_N_CALLS,
    R_SCORE_AFTER,
    R_SCORE_BEFORE,
    R_SIZE,
    S_PHASE,
    S_SIZE,
    S_TO_ACT,
    X_FIRST_DEALER,
    X_MATCH,
    X_N_HANDS,
    X_REASON,
    X_SCORE,
    X_WINNER,
)
from ..engine.match import apply_hand
from ..engine.rng import LANE_DEAL, LANE_PLAY, below, seed_stream
from ..players.kinds import NO_SEARCH, SEARCH_ISMCTS
from ..players.policy import choose, workspace
from ..players.turn import Turn

ALL = np.int64(-1)
"""``allowed`` of :func:`play_hand` that restricts nothing (every bit set)."""

NO_SEARCHES = np.int64(0)
"""``Context.searches`` of a driver without a search (never read there)."""

SEARCHING = SEARCH_ISMCTS
"""The one searching class of the drivers: ISMCTS and PIMC line-ups run the same entry points,
their searches passed in as pointers (:mod:`kout_sim.players.searches`)."""


class Setup(NamedTuple):
    """What the batch entry points play with: the rules' tables and the line-up's arrays (the first
    four fields of :class:`Context`). :func:`kout_sim.sim.batch.setup_of` makes it from the rules
    and a line-up."""

    P: np.ndarray  # rule parameters (kout_sim.engine.tables)
    STR: np.ndarray  # card tables
    kinds: np.ndarray  # int64[6]: the policy of each seat (kout_sim.players.kinds)
    params: np.ndarray  # float64[6, N_PARAMS]: its parameters


class Context(NamedTuple):
    """What every decision of a hand reads: the rules' tables and the line-up with its workspace.

    Built inside the kernels (:func:`context`), or in Python for the batch entry points
    (:func:`kout_sim.drivers.play.line_up`); numba passes it as one struct, so the drivers take
    one argument where they took seven.
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
    """One thread's scratch for playing hands: states, the two random lanes, the deck, the empty
    traces. Built inside the kernels (:func:`new_lanes`), or in Python for the batch entry points
    (:func:`kout_sim.drivers.play.lanes`)."""

    S: np.ndarray  # int64[S_SIZE]: the hand state
    MS: np.ndarray  # int64[M_SIZE]: the match state
    deal: np.ndarray  # uint64[4]: the deal lane (first dealer, shuffles)
    play: np.ndarray  # uint64[4]: the play lane (the players' choices)
    hands: np.ndarray  # int64[6]: the hands as dealt
    deck: np.ndarray  # the preset's cards
    cards: np.ndarray  # shuffle scratch
    no_trace: np.ndarray  # int64[0]: no actions or legal masks traced
    no_packed: np.ndarray  # int32[0]: no packed decisions traced


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
            turn = Turn(P, STR, MS, rng, ctx.params[seat], ctx.nodes, ctx.value)
            action = choose(S, turn, ctx.kinds[seat], mask, ctx.searches, searching, family)
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
            if is_card and (searching != NO_SEARCH or limit >= 0):
                # a state a sampler reads: a search's position, or one stopped mid-hand
                if searching != NO_SEARCH and family == FAMILY_KOUT:
                    record_card(S, seat, action)
                record_play(S, P, STR, action, family)
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
        np.empty(0, dtype=np.int64),
        np.empty(0, dtype=np.int32),
    )


@jit_leaf
def seed_lanes(w: Lanes, seed: int, index: int) -> None:
    """Key the deal and play lanes of ``w`` to stream ``index`` of the run ``seed``."""
    seed_stream(w.deal, seed, index, LANE_DEAL)
    seed_stream(w.play, seed, index, LANE_PLAY)


@jit_leaf
def deal_hand(w: Lanes, ctx: Context, dealer: int, score0: int, score1: int, family: int) -> None:
    """Deal the next hand of ``w`` by ``dealer`` (the match score ``score0``-``score1`` before it)."""
    new_hand(w.S, ctx.P, ctx.STR, w.deal, dealer, w.deck, w.cards, w.hands, score0, score1, family)


@jit_leaf
def deal_alone(w: Lanes, ctx: Context, seed: int, index: int, family: int) -> None:
    """Hand ``index`` of the independent hands of ``seed``: its lanes keyed, a uniformly random
    dealer drawn from the deal lane, the score 0-0."""
    seed_lanes(w, seed, index)
    deal_hand(w, ctx, below(w.deal, ctx.P[P_N_PLAYERS]), np.int64(0), np.int64(0), family)


@jit_leaf
def match_hand_start(w: Lanes, ctx: Context, row: np.ndarray, family: int) -> None:
    """Deal the next hand of the match in ``w.MS``; its score and index before it go to ``row``."""
    MS = w.MS
    row[R_SCORE_BEFORE] = MS[M_SCORE]
    row[R_SCORE_BEFORE + 1] = MS[M_SCORE + 1]
    row[R_HAND_IDX] = MS[M_N_HANDS]
    deal_hand(w, ctx, MS[M_DEALER], MS[M_SCORE], MS[M_SCORE + 1], family)


@jit_leaf
def match_hand_end(w: Lanes, ctx: Context, row: np.ndarray, index: int, family: int) -> None:
    """Score the finished hand of ``w`` into its match (``index``) and record it in ``row``."""
    P = ctx.P
    MS = w.MS
    apply_hand(MS, w.S, P)
    record_hand(row, w.S, P, ctx.STR, w.hands, P[P_N_PLAYERS], family)
    row[R_MATCH] = index
    row[R_SCORE_AFTER] = MS[M_SCORE]
    row[R_SCORE_AFTER + 1] = MS[M_SCORE + 1]


@jit_leaf
def match_row(out: np.ndarray, MS: np.ndarray, index: int, fd: int) -> None:
    """The result row of the finished match ``index`` (first dealer ``fd``)."""
    out[X_MATCH] = index
    out[X_FIRST_DEALER] = fd
    out[X_N_HANDS] = MS[M_N_HANDS]
    out[X_WINNER] = MS[M_WINNER]
    out[X_REASON] = MS[M_REASON]
    out[X_SCORE] = MS[M_SCORE]
    out[X_SCORE + 1] = MS[M_SCORE + 1]


MODE_HANDS = 0
MODE_MATCHES = 1
MODE_PLAY_OUT = 2
"""What the one entry point of a searching line-up class does
(:func:`kout_sim.drivers.play._search_kernels`)."""
