"""Kernel ids of the policies (the ``kinds`` array of a line-up) and the parameter record."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KIND_RANDOM = 0
KIND_HEURISTIC = 1
KIND_ISMCTS = 2
KIND_PIMC = 3
SEARCH_KINDS = (KIND_ISMCTS, KIND_PIMC)
"""The kinds that search: their line-ups use the drivers compiled with the searches."""


def searches(kinds: np.ndarray) -> bool:
    """Does a seat of the line-up ``kinds`` search (ISMCTS or PIMC)?"""
    return bool(np.isin(kinds, SEARCH_KINDS).any())


@dataclass(frozen=True)
class Param:
    """One policy parameter: slot ``index`` of the seat's float64 parameter row."""

    name: str
    index: int
    default: float
    low: float
    high: float
    meaning: str
