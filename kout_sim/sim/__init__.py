"""Batch simulation: hands and matches in parallel for any line-up, and runs written to parquet."""

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
from .summary import summarize

__all__ = [
    "available_workers",
    "check_workers",
    "load",
    "play_hands",
    "play_matches",
    "play_random_hands",
    "play_random_matches",
    "simulate",
    "summarize",
]
