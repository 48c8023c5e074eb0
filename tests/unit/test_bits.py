"""The bit kernels of ``engine._jit`` (LLVM intrinsics in kernels, Python bodies outside): the same
answers both ways, ``highest_bit(0) == -1`` included (``players.kout_heuristic.boss_mask`` reads a
suit with no unseen card through it); ``nth_bit`` (every random choice) in both its forms."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from kout_sim.engine._jit import (
    FAST_PDEP,
    _nth_bit_pdep,
    highest_bit,
    lowest_bit,
    nth_bit,
    nth_bit_broadword,
    popcount,
)


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


def _nth_python(mask: int, k: int) -> int:
    """The ``k``-th set bit of ``mask`` (two's complement), counted from the lowest."""
    bits = [i for i in range(64) if (mask >> i) & 1]
    return bits[k]


@numba.njit
def _nth_in_kernel(masks: np.ndarray, ks: np.ndarray, out: np.ndarray) -> None:
    for i in range(masks.shape[0]):
        out[i, 0] = nth_bit(masks[i], ks[i])
        out[i, 1] = nth_bit_broadword(masks[i], ks[i])


def _masks_and_ks() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    dense = rng.integers(-(2**63), 2**63 - 1, size=400, dtype=np.int64)
    sparse = np.zeros(400, dtype=np.int64)
    for i in range(400):  # a hand's legal set: a few bits of 64 (the jokers at 52, 53; bit 63)
        for b in rng.choice(64, size=int(rng.integers(1, 10)), replace=False).tolist():
            sparse[i] |= np.int64(1) << np.int64(b)
    masks = np.concatenate([dense, sparse, np.array([1, -1, -(1 << 63)], dtype=np.int64)])
    counts = [bin(int(m) & (2**64 - 1)).count("1") for m in masks.tolist()]
    ks = np.array([int(rng.integers(0, c)) for c in counts], dtype=np.int64)
    ks[-2], ks[-1] = 63, 0  # the top bit of -1, the sign bit alone
    return masks, ks


def test_nth_bit_is_the_kth_set_bit_in_both_forms() -> None:
    masks, ks = _masks_and_ks()
    got = np.zeros((masks.shape[0], 2), dtype=np.int64)
    _nth_in_kernel(masks, ks, got)
    want = [_nth_python(m, k) for m, k in zip(masks.tolist(), ks.tolist(), strict=True)]
    assert got[:, 0].tolist() == want  # the form this target's kernels run
    assert got[:, 1].tolist() == want  # the broadword select (targets without a fast PDEP)
    assert want[-2:] == [63, 63]


@pytest.mark.skipif(not FAST_PDEP, reason="no fast PDEP here: nth_bit is the broadword select")
def test_nth_bit_is_pdep_where_the_target_has_a_fast_one() -> None:
    assert nth_bit is _nth_bit_pdep
    masks, ks = _masks_and_ks()
    got = [int(_nth_bit_pdep(m, k)) for m, k in zip(masks.tolist(), ks.tolist(), strict=True)]
    assert got == [_nth_python(m, k) for m, k in zip(masks.tolist(), ks.tolist(), strict=True)]
