"""The shared interval helpers agree with kout_sim.stats.wilson and with numpy."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from analyses._common import (
    clustered_means,
    mean_table,
    rate_table,
    relative_seat,
    with_wilson,
)
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


def _integer_rows(n: int, seed: int) -> pl.DataFrame:
    """Rows of integer outcomes in hands of one to six rows, in three groups; some values null."""
    rng = np.random.default_rng(seed)
    hand = np.sort(rng.integers(0, n // 3, n))
    value = rng.integers(-26, 27, n).astype(float)
    return pl.DataFrame(
        {
            "g": rng.integers(0, 3, n),
            "hand": hand,
            "v": [None if i % 97 == 0 else v for i, v in enumerate(value)],
            "w": rng.integers(0, 2, n),
        }
    )


def test_clustered_means_are_the_clustered_standard_errors_the_long_way() -> None:
    df = _integer_rows(20_000, 1)
    table = clustered_means(df.lazy(), ["g"], {"v": "v", "w": "w"}).collect().sort("g")
    for row in table.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        assert row["n"] == len(part) and row["hands"] == part["hand"].n_unique()
        for name in ("v", "w"):
            values = part.filter(pl.col(name).is_not_null())
            x = values[name].cast(pl.Float64).to_numpy()
            mean = x.mean()
            residual: dict[int, float] = {}
            for h, v in zip(values["hand"], x):
                residual[h] = residual.get(h, 0.0) + (v - mean)
            se = math.sqrt(sum(r * r for r in residual.values())) / len(part)
            assert math.isclose(row[f"mean_{name}"], mean, rel_tol=1e-12)
            assert math.isclose(row[f"se_{name}"], se, rel_tol=1e-9)


def test_clustered_means_and_sds_are_the_same_floats_in_any_row_order() -> None:
    """Polars adds floats in an order that varies from run to run (its own std of a group and a
    sum over a group_by's output moved in the last digits between two reports of the same runs);
    on integer-valued columns these figures are exact sums, the same whatever the row order."""
    df = _integer_rows(50_000, 2)
    rng = np.random.default_rng(3)
    first = clustered_means(df.lazy(), ["g"], {"v": "v", "w": "w"}).collect().sort("g")
    means = mean_table(df, ["g"], "v")
    for _ in range(4):
        shuffled = df[rng.permutation(len(df))]
        again = clustered_means(shuffled.lazy(), ["g"], {"v": "v", "w": "w"}).collect().sort("g")
        assert again.equals(first)
        assert mean_table(shuffled, ["g"], "v").equals(means)


def test_a_mean_of_one_value_has_no_sd() -> None:
    table = mean_table(pl.DataFrame({"g": [0, 1, 1], "x": [4.0, 1.0, 3.0]}), ["g"], "x")
    assert table["sd"].to_list()[0] is None
    assert table["sd"].to_list()[1] == math.sqrt(2.0)
