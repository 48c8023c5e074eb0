"""Batch simulation: hands and matches in parallel for any line-up, and runs written to parquet.

The names are imported on first use (PEP 562): the batch drivers (:mod:`kout_sim.sim.batch`) do
not pay for the parquet and dataframe libraries of the runs (:func:`simulate`, :func:`load`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from ..io.read import load
    from .batch import (
        available_workers,
        check_workers,
        play_hands,
        play_matches,
        play_random_hands,
        play_random_matches,
    )
    from .run import simulate

_LAZY = {
    "load": "..io.read",
    "available_workers": ".batch",
    "check_workers": ".batch",
    "play_hands": ".batch",
    "play_matches": ".batch",
    "play_random_hands": ".batch",
    "play_random_matches": ".batch",
    "simulate": ".run",
}

__all__ = [
    "available_workers",
    "check_workers",
    "load",
    "play_hands",
    "play_matches",
    "play_random_hands",
    "play_random_matches",
    "simulate",
]


__getattr__, __dir__ = attach(__name__, _LAZY)
