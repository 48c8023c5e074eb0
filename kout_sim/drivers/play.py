"""The batch drivers: the entry points of each family and line-up class (each the loop over its
hands, matches or play-out around :func:`kout_sim.drivers.loop.play_hand`) and their Python
wrappers (independent hands over threads, keyed random streams).

Each hand or match has two random streams: the deal lane (first dealer, shuffles) and the play lane
(the players' choices), both keyed by the run seed and the stream index of the hand or match. Every
entry point takes the line-up as a :class:`~kout_sim.drivers.loop.Context` and one thread's scratch
as :class:`~kout_sim.drivers.loop.Lanes`, both built here in Python (:func:`line_up`,
:func:`lanes`), so that the entry points of line-ups without a search allocate nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from ..engine._jit import jit_alloc, jit_entry, jit_entry_free
from ..engine.deal import first_dealer_in
from ..engine.game import apply_observed, record_hand
from ..engine.kout.hand import record_card
from ..engine.layout import (
    FAMILY_BALOOT,
    FAMILY_KOUT,
    M_SCORE,
    M_SIZE,
    M_WINNER,
    MAX_ACTIONS,
    P_DECK,
    P_FAMILY,
    P_N_PLAYERS,
    PH_PLAY,
    R_MATCH,
    R_N_ACTIONS,
    R_SIZE,
    S_PHASE,
    S_SIZE,
    S_TO_ACT,
    X_SIZE,
)
from ..engine.match import new_match
from ..engine.rng import below
from ..players.ismcts import N_INT_ROWS
from ..players.kinds import KIND_ISMCTS, NO_SEARCH, searches
from ..players.registry import N_PARAMS
from ..players.searches import search_pointers
from .loop import (
    ALL,
    MODE_HANDS,
    MODE_MATCHES,
    MODE_PLAY_OUT,
    NO_SEARCHES,
    SEARCHING,
    Context,
    Lanes,
    Setup,
    deal_alone,
    deal_hand,
    match_hand_end,
    match_hand_start,
    match_row,
    play_hand,
    scratch_row,
    seed_lanes,
)

BLOCK = 512  # the fewest hands worth a thread of their own


class FamilyKernels(NamedTuple):
    """The batch entry points of one family and line-up class, each compiled with only that
    family's rules. Each takes the line-up (:class:`Context`) and one thread's scratch
    (:class:`Lanes`) first; the Python wrappers below build both (:func:`line_up`,
    :func:`lanes`)."""

    hands: Callable[..., None]  # (ctx, w, seed, first, out, trace, lo, hi)
    matches: Callable[..., int]  # (ctx, w, seed, first, match_rows, hand_rows, trace)
    hand_traced: Callable[..., int]  # (ctx, w, seed, index, actions, legal, limit)
    play_out: Callable[..., int]  # (ctx, w, first, limit, allowed, actions)


def _family_kernels(family: int, searching: int) -> FamilyKernels:
    """Entry points with ``family`` and ``searching`` frozen in: numba prunes the other family's
    branches, and the search when no seat searches (it is by far the largest code to compile).

    Without a search, independent hands and whole matches have an entry point each: one entry
    point for both saved one engine's compile in the test warm-up but made the first ``simulate``
    of matches (the default) compile the hands loop too, 3-7 s more of CPU (docs/compile.md). A
    searching class has one entry point for hands, matches and play-outs (:func:`_search_kernels`):
    the search below it costs far more to emit than the loops. (Numba keys its cache of these
    closures by the values of the frozen variables too.)
    """
    traced = _traced_entry(family, searching)
    if searching != NO_SEARCH:
        return _search_kernels(family, searching, traced)

    # The hands and matches entry points allocate nothing (their scratch comes from the Python
    # wrappers), so they run without numba's reference counts: an array passed between the
    # kernels inlined into a reference-counting function took an atomic increment and
    # decrement, dozens per hand.
    @jit_entry_free
    def hands_entry(
        ctx: Context,
        w: Lanes,
        seed: int,
        first: int,
        out: np.ndarray,
        trace: np.ndarray,
        lo: int,
        hi: int,
    ) -> None:
        P = ctx.P
        for i in range(lo, hi):
            deal_alone(w, ctx, seed, first + i, family)
            packed = trace[i] if trace.shape[0] > 0 else w.no_packed
            row = out[i]
            t = play_hand(
                w.S, w.MS, w.play, ctx, row, w.no_trace, w.no_trace, packed, np.int64(-1), ALL,
                searching, family,
            )  # fmt: skip
            record_hand(row, w.S, P, ctx.STR, w.hands, P[P_N_PLAYERS], family)
            if t < 0:
                row[R_N_ACTIONS] = -1
            row[R_MATCH] = first + i  # the hand's stream index

    @jit_entry_free
    def matches_entry(
        ctx: Context,
        w: Lanes,
        seed: int,
        first: int,
        match_rows: np.ndarray,
        hand_rows: np.ndarray,
        trace: np.ndarray,
    ) -> int:
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
                match_hand_start(w, ctx, row, family)
                packed = trace[h] if trace.shape[0] > 0 else w.no_packed
                t = play_hand(
                    w.S, MS, w.play, ctx, row, w.no_trace, w.no_trace, packed, np.int64(-1), ALL,
                    searching, family,
                )  # fmt: skip
                if t < 0:
                    return -2
                match_hand_end(w, ctx, row, first + m, family)
                h += 1
            match_row(match_rows[m], MS, first + m, fd)
        return h

    @jit_alloc
    def play_out_entry(
        ctx: Context, w: Lanes, first: int, limit: int, allowed: int, actions: np.ndarray
    ) -> int:
        if first >= 0:
            apply_observed(w.S, ctx.P, ctx.STR, first, family)
        row = scratch_row()
        return play_hand(
            w.S, w.MS, w.play, ctx, row, actions, w.no_trace, w.no_packed, limit, allowed,
            searching, family,
        )  # fmt: skip

    return FamilyKernels(hands_entry, matches_entry, traced, play_out_entry)


def _traced_entry(family: int, searching: int) -> Callable[..., int]:
    """The entry point of one traced hand (:func:`hand_traced`) of a family and line-up class: the
    hand of ``(seed, index)`` of :func:`play_hands` (its dealer a random seat), dealt into ``w.S``
    and ``w.hands`` and played with the match score of ``w.MS`` before it (the Baloot Sun
    doubling gate); with ``limit >= 0`` it stops after that many decisions (``w.S`` is then the
    position)."""

    @jit_alloc
    def traced_entry(
        ctx: Context,
        w: Lanes,
        seed: int,
        index: int,
        actions: np.ndarray,
        legal: np.ndarray,
        limit: int,
    ) -> int:
        seed_lanes(w, seed, index)
        MS = w.MS
        dealer = below(w.deal, ctx.P[P_N_PLAYERS])
        deal_hand(w, ctx, dealer, MS[M_SCORE], MS[M_SCORE + 1], family)
        row = scratch_row()
        return play_hand(
            w.S, MS, w.play, ctx, row, actions, legal, w.no_packed, limit, ALL, searching, family
        )

    return traced_entry


def _search_kernels(family: int, searching: int, traced: Callable[..., int]) -> FamilyKernels:
    """The one batch entry of a searching line-up class, behind the call shapes of the other
    classes' entry points.

    Every entry point emits the machine code of everything below it, and a search is the largest
    code there is, so a searching line-up class has one entry point (docs/compile.md) where the
    others have one per task. ``mode`` selects the task:

    - ``MODE_HANDS``: hands ``lo..hi-1`` as the hands entry point (``rows`` the hand rows);
      returns 0;
    - ``MODE_MATCHES``: ``len(match_rows)`` matches as the matches entry point (``rows`` the hand
      rows); returns what it does;
    - ``MODE_PLAY_OUT``: the position in ``w.S`` as :func:`kout_sim.drivers.playout.play_out`
      (the forced ``action`` if ``>= 0``, then up to ``limit`` decisions, the first among
      ``allowed``, their ids to ``actions``; ``rows[0]`` a scratch row); returns what
      :func:`~kout_sim.drivers.loop.play_hand` does.

    The hands and matches draw exactly what the entry points of the other classes draw.
    """

    @jit_entry
    def search_entry(
        mode: int,
        ctx: Context,
        w: Lanes,
        seed: int,
        first: int,
        rows: np.ndarray,
        match_rows: np.ndarray,
        trace: np.ndarray,
        lo: int,
        hi: int,
        action: int,
        limit: int,
        allowed: int,
        actions: np.ndarray,
    ) -> int:
        P = ctx.P
        MS = w.MS
        i = lo if mode == MODE_HANDS else 0  # the next hand (hands) or match (matches)
        h = 0  # hand rows written (matches)
        fd = np.int64(0)
        in_match = False
        while True:
            packed = w.no_packed
            if mode == MODE_HANDS:
                if i >= hi:
                    return 0
                deal_alone(w, ctx, seed, first + i, family)
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
                match_hand_start(w, ctx, row, family)
            else:
                row = rows[0]
                if action >= 0:
                    if family == FAMILY_KOUT and w.S[S_PHASE] == PH_PLAY:
                        record_card(w.S, w.S[S_TO_ACT], action)
                    apply_observed(w.S, P, ctx.STR, action, family)
            t = play_hand(
                w.S, MS, w.play, ctx, row, actions, w.no_trace, packed, limit, allowed, searching,
                family,
            )  # fmt: skip
            if mode == MODE_HANDS:
                record_hand(row, w.S, P, ctx.STR, w.hands, P[P_N_PLAYERS], family)
                if t < 0:
                    row[R_N_ACTIONS] = -1
                row[R_MATCH] = first + i
                i += 1
            elif mode == MODE_MATCHES:
                if t < 0:
                    return -2
                match_hand_end(w, ctx, row, first + i, family)
                h += 1
                if MS[M_WINNER] >= 0:
                    match_row(match_rows[i], MS, first + i, fd)
                    i += 1
                    in_match = False
            else:
                return t

    def hands(
        ctx: Context,
        w: Lanes,
        seed: int,
        first: int,
        out: np.ndarray,
        trace: np.ndarray,
        lo: int,
        hi: int,
    ) -> None:
        search_entry(
            MODE_HANDS, ctx, w, seed, first, out, NO_MATCHES, trace, lo, hi, -1, -1, ALL, NO_ACTIONS
        )

    def matches(
        ctx: Context,
        w: Lanes,
        seed: int,
        first: int,
        match_rows: np.ndarray,
        hand_rows: np.ndarray,
        trace: np.ndarray,
    ) -> int:
        return int(
            search_entry(
                MODE_MATCHES, ctx, w, seed, first, hand_rows, match_rows, trace, 0, 0, -1, -1, ALL,
                NO_ACTIONS,
            )
        )  # fmt: skip

    def play_out(
        ctx: Context, w: Lanes, first: int, limit: int, allowed: int, actions: np.ndarray
    ) -> int:
        return int(
            search_entry(
                MODE_PLAY_OUT, ctx, w, 0, 0, new_rows(2), NO_MATCHES, NO_TRACE, 0, 0, first, limit,
                allowed, actions,
            )
        )  # fmt: skip

    return FamilyKernels(hands, matches, traced, play_out)


NO_TRACE = np.zeros((0, MAX_ACTIONS), dtype=np.int32)
NO_MATCHES = np.zeros((0, X_SIZE), dtype=np.int64)
NO_ACTIONS = np.zeros(0, dtype=np.int64)


KERNELS = {
    (family, searching): _family_kernels(family, searching)
    for family in (FAMILY_KOUT, FAMILY_BALOOT)
    for searching in (NO_SEARCH, SEARCHING)
}
"""The entry points of each family, without a search and with (``SEARCHING``: ISMCTS and PIMC
line-ups alike, their searches passed in)."""


def kernels(P: np.ndarray, kinds: np.ndarray) -> FamilyKernels:
    """The entry points for the preset of ``P`` and the line-up ``kinds``."""
    return KERNELS[int(P[P_FAMILY]), SEARCHING if searches(kinds) else NO_SEARCH]


def searches_of(P: np.ndarray, kinds: np.ndarray, params: np.ndarray) -> object:
    """The ``searches`` argument of the entry points for the line-up ``kinds``/``params``
    (:class:`Context`)."""
    if not searches(kinds):
        return NO_SEARCHES
    return search_pointers(int(P[P_FAMILY]), kinds, params)


def new_rows(n: int) -> np.ndarray:
    """A zeroed int64[n, R_SIZE] row buffer stored column by column (each field contiguous), the
    layout every hands and match entry point is compiled for.

    Numba types a buffer of fewer than two rows as C-contiguous (it is both), which would compile a
    second copy of every hands driver: callers play such counts in a two-row buffer (see
    :func:`kout_sim.sim.batch.play_hands`)."""
    return np.zeros((R_SIZE, n), dtype=np.int64).T


def line_up(setup: Setup) -> Context:
    """The :class:`Context` of ``setup`` for the entry points: the tables, the line-up, a search
    workspace for its largest search (as :func:`kout_sim.players.policy.workspace`) and its
    searches (:func:`searches_of`)."""
    P, STR, kinds, params = setup
    cap = 1
    for seat in range(kinds.shape[0]):
        if kinds[seat] == KIND_ISMCTS:
            cap = max(cap, int(params[seat, 0]) + 2)
    nodes = np.empty((N_INT_ROWS, cap), dtype=np.int64)
    value = np.empty(cap, dtype=np.float64)
    return Context(P, STR, kinds, params, nodes, value, searches_of(P, kinds, params))


@functools.cache
def _deck(mask: int) -> np.ndarray:
    """The card ids of the deck ``mask``, ascending: one array a deck, shared (the kernels only
    read it: the shuffles copy it into the lanes' ``cards`` first)."""
    return np.array([c for c in range(64) if (mask >> c) & 1], dtype=np.int64)


def lanes(
    P: np.ndarray,
    S: np.ndarray | None = None,
    MS: np.ndarray | None = None,
    play: np.ndarray | None = None,
    hands: np.ndarray | None = None,
) -> Lanes:
    """One thread's scratch for an entry point (:class:`Lanes`, as
    :func:`~kout_sim.drivers.loop.new_lanes` makes it in a kernel), allocated here so that the
    entry points of line-ups without a search allocate nothing. ``S``, ``MS``, ``play`` and
    ``hands``, where given, are the caller's (the position, the match state, the play lane, the
    hands as dealt), used in place. Distinct arrays: the entry points' ``noalias`` contract."""
    deck = _deck(int(P[P_DECK]))
    return Lanes(
        np.zeros(S_SIZE, dtype=np.int64) if S is None else S,
        np.zeros(M_SIZE, dtype=np.int64) if MS is None else MS,
        np.zeros(4, dtype=np.uint64),
        np.zeros(4, dtype=np.uint64) if play is None else play,
        np.zeros(6, dtype=np.int64) if hands is None else hands,
        deck,
        np.zeros_like(deck),
        np.empty(0, dtype=np.int64),
        np.empty(0, dtype=np.int32),
    )


def play_hands(
    setup: Setup,
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
    kernel = kernels(setup.P, setup.kinds).hands
    n = out.shape[0]
    threads = max(1, min(threads, n // BLOCK))
    bounds = [n * k // threads for k in range(threads + 1)]

    def part(k: int) -> None:
        # each thread its own line-up workspace and scratch
        kernel(line_up(setup), lanes(setup.P), seed, first, out, trace, *bounds[k : k + 2])

    if threads == 1:
        part(0)
        return
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(part, range(threads)))


def play_matches(
    setup: Setup,
    seed: int,
    first: int,
    match_rows: np.ndarray,
    hand_rows: np.ndarray,
    trace: np.ndarray = NO_TRACE,
) -> int:
    """Play ``len(match_rows)`` whole matches of any preset, match ``m`` on the streams of
    ``(seed, first + m)``.

    Each match draws its first dealer by the preset's rule, then plays hands until the match ends.
    ``match_rows`` (int64[n, X_SIZE]) receives one row per match, ``hand_rows`` (int64[cap,
    R_SIZE]) one per hand, ``trace`` (int32[cap, MAX_ACTIONS] or empty) each hand's packed
    decisions. Returns the number of hand rows written, -1 if ``hand_rows`` was too small, -2 if a
    policy chose an illegal action. The kernel releases the GIL, so threads can run disjoint
    ranges in parallel.
    """
    kernel = kernels(setup.P, setup.kinds).matches
    return int(kernel(line_up(setup), lanes(setup.P), seed, first, match_rows, hand_rows, trace))


def hand_traced(
    setup: Setup,
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
    """Hand ``index`` of :func:`play_hands` (its dealer a random seat), with its deal and each
    decision traced: ``hands`` receives the hands as dealt, ``actions`` / ``legal`` (int64) the
    global action id and the phase-relative legal mask of each decision, ``S`` the state.

    ``score0``/``score1`` are the match score before the hand (the Baloot Sun doubling gate);
    with ``limit >= 0`` the hand stops after that many decisions (``S`` is then the position).
    Returns the number of decisions, -1 if a policy chose an illegal action.
    """
    kernel = kernels(setup.P, setup.kinds).hand_traced
    MS = np.zeros(M_SIZE, dtype=np.int64)
    MS[M_SCORE : M_SCORE + 2] = score0, score1
    w = lanes(setup.P, S=S, MS=MS, hands=hands)
    return int(kernel(line_up(setup), w, seed, index, actions, legal, limit))


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
    setup = Setup(P, STR, kinds, params)
    return hand_traced(setup, seed, index, hands, actions, legal, S, score0, score1)
