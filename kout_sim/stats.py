"""Small statistics helpers shared by reports, analyses and benchmark scripts."""

from __future__ import annotations

import math


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of the proportion ``k / n`` (95% for the default ``z``)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_variance(p: float, split: int, both: int, neither: int) -> float:
    """Variance of one pair's mean outcome ``(x1 + x2) / 2`` under the pair model that fits
    ``neither`` / ``split`` / ``both`` pairs (0, 1 or 2 successes of two) best among those whose
    success rate is ``p``: the restricted maximum-likelihood variance of :func:`paired_wilson`.

    A pair model with rate ``p`` is ``P(0) = 1 - p - u``, ``P(1) = 2u``, ``P(2) = p - u`` for
    ``0 <= u <= min(p, 1 - p)``; its log-likelihood is concave in ``u`` and its maximum is the
    smaller root of ``N u² - (neither p + split + both (1 - p)) u + split p (1 - p) = 0``. The
    variance of the pair's mean is then ``p (1 - p) - u / 2``: ``p (1 - p)`` (a pair counts as one
    trial) when no pair is split, down to ``|1/2 - p| min(p, 1 - p)`` when every pair is."""
    n = split + both + neither
    if n <= 0 or p <= 0.0 or p >= 1.0:
        return 0.0
    q = 1.0 - p
    b = neither * p + split + both * q
    disc = max(0.0, b * b - 4.0 * n * split * p * q)
    u = (b - math.sqrt(disc)) / (2.0 * n)
    u = min(max(u, 0.0), min(p, q))
    return max(0.0, p * q - u / 2.0)


def paired_wilson(split: int, both: int, neither: int, z: float = 1.96) -> tuple[float, float]:
    """Score interval (95% for the default ``z``) of the success rate of paired trials: ``both``
    pairs with two successes, ``split`` with one, ``neither`` with none (a duplicate duel's deal
    sequence won twice, once or never by the same team).

    Why this interval: the outcomes are bounded and paired, and the normal interval of the paired
    mean (``mean +- z sd / sqrt(n)``) collapses to a point when every pair is alike (0% or 100% of
    the games won, or every pair split). A bootstrap over the pairs collapses there too: every
    resample of identical pairs is the same. The score interval does not: like Wilson's for a
    single proportion, it keeps every rate ``p`` whose test ``|mean - p| <= z sqrt(V(p) / n)``
    passes, with ``V(p)`` the variance of a pair's mean under the pair model of rate ``p`` that
    fits the counts best (:func:`paired_variance`; the restricted-likelihood score construction
    of Tango's interval for paired proportions). At 0/n and n/n no pair is split and the interval
    is Wilson's on ``n`` pairs, which holds whatever the correlation inside a pair, since a pair
    of two games with rates ``p1``, ``p2`` is lost twice with probability at most ``1 - (p1 + p2)
    / 2``; between the edges the split pairs narrow it as the pairing does the paired mean."""
    n = split + both + neither
    if n <= 0:
        return (0.0, 1.0)
    mean = (split / 2.0 + both) / n

    def outside(p: float) -> bool:
        return (mean - p) ** 2 > z * z * paired_variance(p, split, both, neither) / n

    def bound(inside: float, out: float) -> float:
        # bisection between a rate the interval holds and one it does not
        for _ in range(100):
            mid = (inside + out) / 2.0
            if outside(mid):
                out = mid
            else:
                inside = mid
        return inside

    low = 0.0 if mean <= 0.0 else bound(mean, 0.0)
    high = 1.0 if mean >= 1.0 else bound(mean, 1.0)
    return (low, high)
