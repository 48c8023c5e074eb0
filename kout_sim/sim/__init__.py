"""Batch simulation: hands and matches in parallel for any line-up, and runs written to parquet.

The names are imported on first use (PEP 562): the batch drivers (:mod:`kout_sim.sim.batch`) do
not pay for the parquet and dataframe libraries of the runs (:func:`simulate`, :func:`load`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562) and keep it as a module attribute."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kout_sim.sim' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
