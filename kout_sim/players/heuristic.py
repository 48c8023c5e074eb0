"""The heuristic policy of either family (the dispatch the searches use for their rollouts)."""

from __future__ import annotations

import numpy as np

from ..engine._jit import jit_leaf
from ..engine.layout import FAMILY_BALOOT
from .baloot_heuristic import choose_baloot
from .kout_heuristic import choose_kout
from .turn import Turn


@jit_leaf
def choose_heuristic(S: np.ndarray, turn: Turn, mask: int, family: int) -> int:
    """The heuristic's action for the seat to act (``family`` chosen at compile time)."""
    if family == FAMILY_BALOOT:
        return choose_baloot(S, turn, mask)
    return choose_kout(S, turn, mask)
