"""The kout heuristic policy (work in progress: not registered as a player yet)."""

from __future__ import annotations

import numpy as np

from ..engine._jit import jit, lowest_bit
from .kinds import Param

KOUT_PARAMS: tuple[Param, ...] = ()


@jit
def choose_kout(
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
