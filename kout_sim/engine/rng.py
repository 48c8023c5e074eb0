"""Counter-keyed random streams: xoshiro256** seeded by SplitMix64 from (seed, stream index).

Every match (or independent hand) gets its own stream keyed by ``(seed, index)``, so any one can be
replayed alone and results never depend on how the work is split over threads or processes.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit, jit_leaf

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)
_LANE = np.uint64(0x8CB92BA72F3D8DD7)
LANE_DEAL = 0
LANE_PLAY = 1
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_MASK32 = np.uint64(0xFFFFFFFF)


@jit_leaf
def _mix64(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _U30)) * _M1
    z = (z ^ (z >> _U27)) * _M2
    return z ^ (z >> _U31)


@jit_leaf
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@jit_leaf
def seed_stream(rng: np.ndarray, seed: int, index: int, lane: int) -> None:
    """Key the 4-word state ``rng`` (uint64[4]) to stream ``(seed, index, lane)``.

    ``lane`` separates the uses of one match's randomness: ``LANE_DEAL`` (first dealer, shuffles)
    and ``LANE_PLAY`` (the players' choices), so the deals of a match never depend on how it was
    played (the duplicate duels replay the same deals with other players).
    """
    key = _mix64(np.uint64(seed) ^ _GAMMA) ^ (np.uint64(index) * _STREAM)
    key = _mix64(key ^ (np.uint64(lane) * _LANE))
    for i in range(4):
        key = key + _GAMMA
        rng[i] = _mix64(key)


@jit_leaf
def next_u64(rng: np.ndarray) -> np.uint64:
    """Next 64 random bits (xoshiro256**)."""
    result, s0, s1, s2, s3 = next_u64_of(rng[0], rng[1], rng[2], rng[3])
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return result


@jit_leaf
def next_u64_of(
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """:func:`next_u64` on a state held in four locals: (the 64 bits, the new state)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@jit
def below_of(
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64, n: int
) -> tuple[np.int64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """:func:`below` on a state held in four locals: (the integer, the new state). A loop that
    draws many numbers (the shuffle) keeps the state in registers this way, instead of a round
    trip through the state array per number; the numbers are the same."""
    un = np.uint64(n)
    bits, s0, s1, s2, s3 = next_u64_of(s0, s1, s2, s3)
    product = (bits >> _U32) * un
    low = product & _MASK32
    if low < un:
        threshold = (np.uint64(0x100000000) - un) % un
        while low < threshold:
            bits, s0, s1, s2, s3 = next_u64_of(s0, s1, s2, s3)
            product = (bits >> _U32) * un
            low = product & _MASK32
    return np.int64(product >> _U32), s0, s1, s2, s3


@jit
def below(rng: np.ndarray, n: int) -> np.int64:
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32``.

    Lemire's multiply-shift on the top 32 bits, with the rejection step that makes it exact; the
    division is only computed in the rare case that needs it.
    """
    un = np.uint64(n)
    product = (next_u64(rng) >> _U32) * un
    low = product & _MASK32
    if low < un:
        threshold = (np.uint64(0x100000000) - un) % un
        while low < threshold:
            product = (next_u64(rng) >> _U32) * un
            low = product & _MASK32
    return np.int64(product >> _U32)
