"""The shared interval helpers agree with kout_sim.stats.wilson and with numpy."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from analyses._common import mean_table, rate_table, relative_seat, with_wilson
from kout_sim.stats import wilson


def test_wilson_columns_match_the_scalar_helper() -> None:
    cases = [(0, 0), (0, 5), (5, 5), (3, 10), (1, 1000), (999, 1000), (517, 1033)]
    df = with_wilson(pl.DataFrame({"k": [k for k, _ in cases], "n": [n for _, n in cases]}))
    for (k, n), (rate, low, high) in zip(cases, df.select("rate", "low", "high").iter_rows()):
        lo, hi = wilson(k, n)
        assert math.isclose(low, lo, abs_tol=1e-12) and math.isclose(high, hi, abs_tol=1e-12)
        if n == 0:
            assert rate is None
        else:
            assert rate == k / n and low <= rate <= high


def test_rate_and_mean_tables() -> None:
    rng = np.random.default_rng(0)
    g = rng.integers(0, 3, 500)
    ok = rng.random(500) < 0.3
    ok_or_null = [None if i % 50 == 0 else bool(v) for i, v in enumerate(ok)]
    x = rng.normal(2.0, 1.0, 500)
    df = pl.DataFrame({"g": g, "ok": ok_or_null, "x": x})
    rates = rate_table(df, ["g"], pl.col("ok"))
    assert rates["rows"].sum() == 500 and rates["n"].sum() == 490
    means = mean_table(df, ["g"], "x")
    for gi, n, mean, sd, low, high in means.select(
        "g", "n", "mean", "sd", "low", "high"
    ).iter_rows():
        xs = x[g == gi]
        assert n == len(xs) and math.isclose(mean, xs.mean()) and math.isclose(sd, xs.std(ddof=1))
        assert math.isclose(high - mean, 1.96 * xs.std(ddof=1) / math.sqrt(len(xs)))
        assert low < mean < high


def test_relative_seat() -> None:
    df = pl.DataFrame(
        {"seat": [0, 1, 2, 3, 0, 5], "dealer": [0, 0, 3, 3, 5, 5], "n_seats": [4, 4, 4, 4, 6, 6]}
    )
    assert df.select(relative_seat("seat"))["seat"].to_list() == [0, 1, 3, 0, 1, 0]
