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
    jit_alloc,
    jit_entry,
    jit_entry_free,
)
from ..engine.layout import (
    FAMILY_BALOOT,
    FAMILY_KOUT,
    M_SIZE,
    MAX_ACTIONS,
    P_DECK,
    P_FAMILY,
    R_SIZE,
    S_SIZE,
    X_SIZE,
)
from ..players.ismcts import N_INT_ROWS
from ..players.kinds import KIND_ISMCTS, NO_SEARCH, search_class
from ..players.registry import N_PARAMS
from ..players.searches import search_pointers
from .loop import (
    ALL,
    MODE_HANDS,
    MODE_MATCHES,
    NO_SEARCHES,
    SEARCHING,
    Context,
    Lanes,
    _hand_block,
    _hand_traced,
    _matches,
    _searching,
    context,
)

BLOCK = 512  # the fewest hands worth a thread of their own


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
