"""The search players as kernel pointers: how the drivers call ISMCTS and PIMC.

A searching line-up's drivers take its searches as a tuple of three
:class:`~kout_sim.engine._jit.KernelPointer` (the ISMCTS search, PIMC's card play, PIMC's
``calls=1`` bids) instead of compiling them in: each is compiled once, for :data:`SIGNATURE`, and
every entry point (hands, matches, play-outs, traced hands) calls it through its address
(docs/compile.md, rule 11). A line-up that plays none of one gets :func:`no_search` in its place, so
an ISMCTS line-up never compiles PIMC, nor a PIMC line-up without ``calls=1`` the par bids."""

from __future__ import annotations

import numpy as np
from numba import types

from ..engine._jit import KernelPointer, jit
from ..engine.layout import FAMILY_BALOOT, FAMILY_KOUT
from .ismcts import search_baloot, search_kout
from .kinds import KIND_ISMCTS, KIND_PIMC
from .pimc import CALLS, par_kout, pimc_baloot, pimc_kout
from .turn import TURN_TYPE, Turn

SIGNATURE = types.int64(types.Array(types.int64, 1, "C"), TURN_TYPE, types.int64)
"""The one signature of every search kernel, the policy interface ``(S, turn, mask) -> action``
(:mod:`kout_sim.players.turn`). PIMC's turn carries the node pool too (and leaves it alone), so
both kinds fit one pointer type."""


@jit
def no_search(S: np.ndarray, turn: Turn, mask: int) -> int:
    """The stand-in for a search kind no seat of the line-up plays: never called (the policy
    dispatch calls a kind's search for that kind's seats only); -1, an illegal action, if it were."""
    return -1


_NONE = KernelPointer(no_search, SIGNATURE)
_POINTERS = {
    FAMILY_KOUT: (
        KernelPointer(search_kout, SIGNATURE),
        KernelPointer(pimc_kout, SIGNATURE),
        KernelPointer(par_kout, SIGNATURE),
    ),
    FAMILY_BALOOT: (
        KernelPointer(search_baloot, SIGNATURE),
        KernelPointer(pimc_baloot, SIGNATURE),
        _NONE,  # Baloot's PIMC calls are the heuristic's
    ),
}


def search_pointers(
    family: int, kinds: np.ndarray, params: np.ndarray
) -> tuple[KernelPointer, KernelPointer, KernelPointer]:
    """The searches of the line-up ``kinds``/``params`` in ``family``, for the drivers: ISMCTS,
    PIMC's cards, and PIMC's ``calls=1`` bids (Kout)."""
    ismcts, pimc, par = _POINTERS[family]
    is_pimc = kinds == KIND_PIMC
    return (
        ismcts if (kinds == KIND_ISMCTS).any() else _NONE,
        pimc if is_pimc.any() else _NONE,
        par if (params[: len(kinds)][is_pimc, CALLS] != 0).any() else _NONE,
    )
