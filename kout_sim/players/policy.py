"""The policy dispatch kernel: the action a seat's player chooses from the legal set.

Every policy reads the hand state ``S`` only through what its seat may know (its own hand, the
calls, the cards played and by whom, the Baloot face-up card) and draws randomness only from the
``rng`` it is given (the match's play lane), so rows stay reproducible.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine._jit import jit_leaf, lowest_bit, nth_bit, popcount
from ..engine.layout import FAMILY_BALOOT, PH_AUCTION, PH_PLAY, S_PHASE
from ..engine.rng import below
from .heuristic import choose_heuristic
from .ismcts import CALLS, N_INT_ROWS, ROLLOUT
from .kinds import KIND_HEURISTIC, KIND_ISMCTS, KIND_PIMC, KIND_RANDOM, NO_SEARCH
from .pimc import CALLS as PIMC_CALLS
from .pimc import ROLLOUT as PIMC_ROLLOUT
from .turn import Turn, with_row


@jit_leaf
def choose_random(S: np.ndarray, rng: np.ndarray, prm: np.ndarray, mask: int) -> int:
    """Uniform over the legal set; with ``prm[0] >= 0`` an auction pass has that probability."""
    choices = mask
    if prm[0] >= 0 and S[S_PHASE] == PH_AUCTION and (mask & 1) != 0 and mask != 1:
        choices = 1 if below(rng, np.int64(1000)) < int(prm[0] * 1000 + 0.5) else mask ^ 1
    return nth_bit(choices, below(rng, popcount(choices)))


@jit_leaf
def choose(
    S: np.ndarray,
    turn: Turn,
    kind: int,
    mask: int,
    searches: tuple[Callable[..., int], ...],
    searching: int,
    family: int,
) -> int:
    """The phase-relative action (a bit of ``mask``) chosen by the seat's policy of ``kind``.

    ``turn`` holds what the policy reads (:class:`~kout_sim.players.turn.Turn`: the tables, the
    match state, the play lane, the seat's parameter row, the node pool of :func:`workspace`),
    ``searches`` the line-up's search kernels as pointers (ISMCTS, PIMC's cards, PIMC's
    ``calls=1`` bids)
    (:func:`kout_sim.players.searches.search_pointers`; anything in a driver without a search).
    ``searching`` (the line-up's search class, :data:`kinds.NO_SEARCH` or not) and ``family`` are
    closure constants of each driver (this dispatcher is inlined up to it): drivers of line-ups
    without a search seat never type a search call, and no driver the other family's policies. The
    searches themselves are compiled once each and called through their address, not compiled
    into the drivers (docs/compile.md, rule 11).
    """
    prm = turn.prm
    if kind == KIND_RANDOM:
        return choose_random(S, turn.rng, prm, mask)
    if mask & (mask - 1) == 0:
        return lowest_bit(mask)  # one legal action: nothing to decide
    calling = S[S_PHASE] != PH_PLAY
    if kind == KIND_HEURISTIC or (
        searching != NO_SEARCH
        and calling
        and (
            (kind == KIND_ISMCTS and prm[CALLS] == 0)
            or (kind == KIND_PIMC and (family == FAMILY_BALOOT or prm[PIMC_CALLS] == 0))
        )
    ):
        # a search seat with calls=0 (PIMC in Baloot always) makes its calls with its heuristic
        # row (the same slot for both). One call site of the heuristic for all (compile time:
        # each call site emits the heuristic again)
        row = prm if kind == KIND_HEURISTIC else prm[ROLLOUT:]
        return choose_heuristic(S, with_row(turn, row), mask, family)
    if searching != NO_SEARCH and kind == KIND_ISMCTS:  # the class test comes first: pruned
        return searches[0](S, turn, mask)
    if searching != NO_SEARCH and kind == KIND_PIMC:
        if calling:  # Kout, calls=1: the par bid
            return searches[2](S, turn, mask)
        return searches[1](S, turn, mask)
    return -1


assert PIMC_ROLLOUT == ROLLOUT  # one heuristic row slot for both search kinds


@jit_leaf
def workspace(kinds: np.ndarray, params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The node pool of a line-up: room for the largest search of its seats."""
    cap = 1
    for seat in range(kinds.shape[0]):
        if kinds[seat] == KIND_ISMCTS:
            cap = max(cap, int(params[seat, 0]) + 2)
    return np.empty((N_INT_ROWS, cap), dtype=np.int64), np.empty(cap, dtype=np.float64)
