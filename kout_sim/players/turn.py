"""The policy interface: what a seat's player is given besides the state and the legal set.

Every policy kernel has the one signature ``(S, turn, mask) -> action``: ``S`` the hand state,
``mask`` the legal actions (phase-relative bits) and ``turn`` a :class:`Turn`, the rest of what a
decision may read. The drivers build the turn of each decision from their context (the tables, the
seat's parameter row, the search pool) and the lanes (the match state, the play lane); numba passes
a named tuple as its members. Measured against the arrays passed one by one: the same rows at the
same speed (`benchmarks/ab_trees.py`, heuristic kout_bo_4 1.009x, Baloot 1.025x), the kout_bo_4
heuristic hands entry point 5,767 instructions against 5,711.
The search kernels handed to the drivers by address (:mod:`kout_sim.players.searches`) take the
same three arguments, typed :data:`TURN_TYPE`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

from ..engine._jit import jit_leaf


class Turn(NamedTuple):
    """What a policy reads besides the state ``S`` and the legal set ``mask``."""

    P: np.ndarray  # int64[P_SIZE]: the rule parameters (kout_sim.engine.tables)
    STR: np.ndarray  # int64[rows, cols]: the card tables
    MS: np.ndarray  # int64[M_SIZE]: the match state (the score before the hand; zeros alone)
    rng: np.ndarray  # uint64[4]: the play lane, the only randomness a policy may draw
    prm: np.ndarray  # float64[N_PARAMS]: the seat's parameter row (its kind's slots)
    nodes: np.ndarray  # int64[N_INT_ROWS, cap]: the search node pool (ISMCTS; others ignore it)
    value: np.ndarray  # float64[cap]: its node values


# numba's type classes carry no annotations: the one untyped call
TURN_TYPE = types.NamedTuple(  # type: ignore[no-untyped-call]
    (
        types.Array(types.int64, 1, "C", readonly=True),  # P, read-only as tables_of gives it
        types.Array(types.int64, 2, "C", readonly=True),  # STR
        types.Array(types.int64, 1, "C"),  # MS
        types.Array(types.uint64, 1, "C"),  # rng
        types.Array(types.float64, 1, "C"),  # prm
        types.Array(types.int64, 2, "C"),  # nodes
        types.Array(types.float64, 1, "C"),  # value
    ),
    Turn,
)
"""The numba type of a :class:`Turn` as the drivers build it (the search signature's argument)."""


@jit_leaf
def with_row(turn: Turn, prm: np.ndarray) -> Turn:
    """``turn`` with the parameter row ``prm`` (a search seat's heuristic row, ``prm[ROLLOUT:]``)."""
    return Turn(turn.P, turn.STR, turn.MS, turn.rng, prm, turn.nodes, turn.value)


def turn_of(
    P: np.ndarray,
    STR: np.ndarray,
    MS: np.ndarray,
    rng: np.ndarray,
    prm: np.ndarray,
    pool: tuple[np.ndarray, np.ndarray] | None = None,
) -> Turn:
    """A :class:`Turn` built in Python (tests, benches, the warm-up), with an empty node pool
    unless ``pool`` (``nodes, value``) is given: a PIMC or heuristic decision needs none. The
    arrays have the types of :data:`TURN_TYPE`, so a search called from Python runs the kernel the
    drivers point to."""
    if pool is None:
        pool = np.empty((0, 0), dtype=np.int64), np.empty(0, dtype=np.float64)
    nodes, value = pool
    return Turn(P, STR, MS, rng, prm, nodes, value)
