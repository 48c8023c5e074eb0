"""The policy dispatch kernel: the action a seat's player chooses from the legal set.

Every policy reads the hand state ``S`` only through what its seat may know (its own hand, the
calls, the cards played and by whom, the Baloot face-up card) and draws randomness only from the
``rng`` it is given (the match's play lane), so rows stay reproducible.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import jit, jit_inline, lowest_bit, nth_bit, popcount
from ..engine.layout import FAMILY_BALOOT, PH_AUCTION, S_PHASE
from ..engine.rng import below
from .baloot_heuristic import choose_baloot
from .kinds import KIND_HEURISTIC, KIND_RANDOM
from .kout_heuristic import choose_kout


@jit_inline
def choose_random(S: np.ndarray, rng: np.ndarray, prm: np.ndarray, mask: int) -> int:
    """Uniform over the legal set; with ``prm[0] >= 0`` an auction pass has that probability."""
    choices = mask
    if prm[0] >= 0 and S[S_PHASE] == PH_AUCTION and (mask & 1) != 0 and mask != 1:
        choices = 1 if below(rng, 1000) < int(prm[0] * 1000 + 0.5) else mask ^ 1
    return nth_bit(choices, below(rng, popcount(choices)))


@jit
def choose_heuristic(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    MS: np.ndarray,
    rng: np.ndarray,
    prm: np.ndarray,
    mask: int,
    family: int,
) -> int:
    if family == FAMILY_BALOOT:
        return choose_baloot(S, P, STR, MS, rng, prm, mask)
    return choose_kout(S, P, STR, MS, rng, prm, mask)


@jit_inline
def choose(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    MS: np.ndarray,
    rng: np.ndarray,
    kind: int,
    prm: np.ndarray,
    mask: int,
    family: int,
) -> int:
    """The phase-relative action (a bit of ``mask``) chosen by a policy of ``kind``.

    ``MS`` is the match state (score before the hand; zeros for independent hands), ``prm`` the
    seat's float64 parameter row.
    """
    if kind == KIND_RANDOM:
        return choose_random(S, rng, prm, mask)
    if mask & (mask - 1) == 0:
        return lowest_bit(mask)  # one legal action: nothing to decide
    if kind == KIND_HEURISTIC:
        return choose_heuristic(S, P, STR, MS, rng, prm, mask, family)
    return -1
