"""Batch simulation: random hands and matches in parallel, and runs written to parquet."""

from .batch import available_workers, check_workers, play_random_hands, play_random_matches
from .run import load, simulate, summarize

__all__ = [
    "available_workers",
    "check_workers",
    "load",
    "play_random_hands",
    "play_random_matches",
    "simulate",
    "summarize",
]
