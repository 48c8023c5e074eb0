"""Kernel ids of the policies (the ``kinds`` array of a line-up) and the parameter record."""

from __future__ import annotations

from dataclasses import dataclass

KIND_RANDOM = 0
KIND_HEURISTIC = 1
KIND_ISMCTS = 2


@dataclass(frozen=True)
class Param:
    """One policy parameter: slot ``index`` of the seat's float64 parameter row."""

    name: str
    index: int
    default: float
    low: float
    high: float
    meaning: str
