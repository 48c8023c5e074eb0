"""Typed Python wrappers of the batch kernels: random hands and random matches, in parallel.

Work is cut into fixed chunks keyed by stream index, so the rows never depend on the number of
workers: ``workers`` only decides how many chunks run at once (numba threads for hands, GIL-free
kernel calls on a thread pool for matches).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from ..engine import layout as L
from ..engine.play import random_hands, random_matches
from ..rules import Rules

MATCH_CHUNK = 2048


def available_workers() -> int:
    """CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_workers(workers: int | None) -> int:
    """``workers`` validated against the cores available (``None`` means all of them)."""
    cores = min(available_workers(), numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    if workers is None:
        return cores
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if workers > cores:
        raise ValueError(f"workers={workers} exceeds the {cores} cores available")
    return workers


def play_random_hands(
    rules: Rules,
    n_hands: int,
    seed: int,
    *,
    first: int = 0,
    workers: int | None = None,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """``n_hands`` independent uniformly random hands; int64[n_hands, R_SIZE] result rows.

    Hand ``i`` is played on the random stream ``(seed, first + i)`` with a uniformly random dealer.
    ``out`` (int64[n_hands, R_SIZE]) may be given to reuse a buffer.
    """
    workers = check_workers(workers)
    P, STR = rules.tables
    if out is None:
        out = np.zeros((n_hands, L.R_SIZE), dtype=np.int64)
    elif out.shape != (n_hands, L.R_SIZE) or out.dtype != np.int64:
        raise ValueError(f"out must be int64[{n_hands}, {L.R_SIZE}]")
    previous = numba.get_num_threads()
    numba.set_num_threads(workers)
    try:
        random_hands(P, STR, seed, first, out)
    finally:
        numba.set_num_threads(previous)
    return out


def _match_chunk(rules: Rules, seed: int, first: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    P, STR = rules.tables
    match_rows = np.zeros((n, L.X_SIZE), dtype=np.int64)
    capacity = n * 48
    while True:
        hand_rows = np.zeros((capacity, L.R_SIZE), dtype=np.int64)
        n_rows = random_matches(P, STR, seed, first, match_rows, hand_rows)
        if n_rows >= 0:
            return match_rows, hand_rows[:n_rows]
        capacity *= 4


def play_random_matches(
    rules: Rules, n_matches: int, seed: int, *, first: int = 0, workers: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``n_matches`` whole random matches: (match rows int64[n, X_SIZE], hand rows int64[h, R_SIZE]).

    Match ``m`` is played on the random stream ``(seed, first + m)``.
    """
    workers = check_workers(workers)
    starts = list(range(first, first + n_matches, MATCH_CHUNK))
    sizes = [min(MATCH_CHUNK, first + n_matches - s) for s in starts]
    if workers == 1 or len(starts) == 1:
        parts = [_match_chunk(rules, seed, s, k) for s, k in zip(starts, sizes)]
    else:
        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(lambda sk: _match_chunk(rules, seed, *sk), zip(starts, sizes)))
    if not parts:
        return np.zeros((0, L.X_SIZE), np.int64), np.zeros((0, L.R_SIZE), np.int64)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
