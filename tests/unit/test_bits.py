"""The bit kernels of ``engine._jit`` (LLVM intrinsics in kernels, Python bodies outside): the same
answers both ways, ``highest_bit(0) == -1`` included (``players.kout_heuristic.boss_mask`` reads a
suit with no unseen card through it)."""

from __future__ import annotations

import numba
import numpy as np

from kout_sim.engine._jit import highest_bit, lowest_bit, popcount


@numba.njit
def _in_kernel(xs: np.ndarray, out: np.ndarray) -> None:
    for i in range(xs.shape[0]):
        out[i, 0] = popcount(xs[i])
        out[i, 1] = highest_bit(xs[i])
        out[i, 2] = lowest_bit(xs[i]) if xs[i] != 0 else -1


def test_kernel_and_python_bit_functions_agree_and_highest_bit_of_zero_is_minus_one() -> None:
    rng = np.random.default_rng(7)
    xs = np.concatenate(
        [
            np.array([0, 1, -1, 1 << 62, -(1 << 63), (1 << 52) | (1 << 53)], dtype=np.int64),
            rng.integers(-(2**63), 2**63 - 1, size=500, dtype=np.int64),
            np.int64(1) << rng.integers(0, 63, size=100, dtype=np.int64),
        ]
    )
    got = np.zeros((xs.shape[0], 3), dtype=np.int64)
    _in_kernel(xs, got)
    for x, (pc, hb, lb) in zip(xs.tolist(), got.tolist(), strict=True):
        assert pc == popcount(x) == bin(x & (2**64 - 1)).count("1")
        assert hb == highest_bit(x) == (x & (2**64 - 1)).bit_length() - 1
        assert lb == (lowest_bit(x) if x else -1)
    assert highest_bit(0) == -1
    assert got[0, 1] == -1
