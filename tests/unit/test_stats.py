"""Wilson intervals used by the reports and scripts."""

import pytest

from kout_sim.stats import wilson


def test_wilson_known_value() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)


def test_wilson_edges_stay_in_unit_interval() -> None:
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def _bounds_the_long_way(split: int, both: int, neither: int) -> tuple[float, float]:
    """The rates a fine grid keeps: ``|mean - p| <= 1.96 sqrt(V(p) / n)``."""
    import numpy as np

    from kout_sim.stats import paired_variance

    n = split + both + neither
    mean = (split / 2 + both) / n
    grid = np.linspace(0.0, 1.0, 40_001)
    kept = [
        p
        for p in grid
        if (mean - p) ** 2 <= 1.96**2 * paired_variance(float(p), split, both, neither) / n
    ]
    return min(kept), max(kept)


def test_paired_wilson_at_the_edges_is_wilson_on_the_pairs() -> None:
    from kout_sim.stats import paired_wilson

    # no game won (or every game won): no pair is split, and a pair counts as one trial
    assert paired_wilson(0, 0, 40) == pytest.approx(wilson(0, 40))
    assert paired_wilson(0, 40, 0) == pytest.approx(wilson(40, 40))
    low, high = paired_wilson(0, 0, 40)
    assert low == 0.0 and high == pytest.approx(1.96**2 / (40 + 1.96**2))
    assert paired_wilson(0, 0, 0) == (0.0, 1.0)


def test_paired_wilson_is_the_set_the_score_test_keeps() -> None:
    from kout_sim.stats import paired_wilson

    for counts in [(0, 0, 30), (30, 0, 0), (3, 1, 26), (12, 9, 9), (1, 29, 0), (7, 0, 3)]:
        low, high = paired_wilson(*counts)
        grid_low, grid_high = _bounds_the_long_way(*counts)
        assert low == pytest.approx(grid_low, abs=3e-5) and high == pytest.approx(
            grid_high, abs=3e-5
        )


def test_split_pairs_narrow_the_interval_and_alike_pairs_widen_it() -> None:
    from kout_sim.stats import paired_wilson

    # 50 of 100 games won: all in split pairs (negative correlation), or in pairs won twice
    split_low, split_high = paired_wilson(50, 0, 0)
    alike_low, alike_high = paired_wilson(0, 25, 25)
    games_low, games_high = wilson(50, 100)
    assert split_low < 0.5 < split_high  # proper, though every pair is split
    assert split_high - split_low < games_high - games_low < alike_high - alike_low
    assert (alike_low, alike_high) == pytest.approx(wilson(25, 50))


def test_paired_wilson_covers_the_truth_in_simulated_duels() -> None:
    """Simulated duels of 40 deal sequences from known pair models (rates 1% and 99%, where
    many duels end 0/80 or 80/80, and a negatively correlated 60%): the interval is never a
    point, holds the true rate in every duel at the edges and in at least 90% of all (a score
    interval's coverage swings a few points around 95% with the rate, as Wilson's does)."""
    import numpy as np

    from kout_sim.stats import paired_wilson

    rng = np.random.default_rng(15)
    for p, rho in ((0.01, 0.0), (0.99, 0.3), (0.6, -0.5)):
        q = 1 - p
        both, neither = p * p + rho * p * q, q * q + rho * p * q
        probs = [1 - both - neither, both, neither]  # split, both, neither
        counts = rng.multinomial(40, probs, size=2_000)
        covered, edges = 0, 0
        for split, two, none in counts:
            low, high = paired_wilson(int(split), int(two), int(none))
            assert high > low
            inside = low <= p <= high
            covered += inside
            if split == 0 and (two == 0 or none == 0):
                edges += 1
                assert inside
        assert covered / len(counts) >= 0.90
        if p != 0.6:
            assert edges > 500  # the edges are a large part of these duels
