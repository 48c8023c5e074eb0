"""The baloot heuristic policy (work in progress: not registered as a player yet)."""

from __future__ import annotations

import numpy as np

from ..engine._jit import jit, lowest_bit
from .kinds import Param

BALOOT_PARAMS: tuple[Param, ...] = ()


@jit
def choose_baloot(
    S: np.ndarray,
    P: np.ndarray,
    STR: np.ndarray,
    MS: np.ndarray,
    rng: np.ndarray,
    prm: np.ndarray,
    mask: int,
) -> int:
    """Placeholder until the heuristic lands: the lowest legal action."""
    return lowest_bit(mask)
