"""Match length tables on a small target sweep, checked against the parquet files directly."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure

from analyses import match_length as ml
from analyses._common import load_run


def _runs(sweep_runs: dict[int, Path]) -> list[dict[str, pl.LazyFrame]]:
    return [load_run(f) for f in sweep_runs.values()]


def test_sweep_writes_one_run_per_target(sweep_runs: dict[int, Path]) -> None:
    assert sorted(sweep_runs) == [31, 101]
    for target, folder in sweep_runs.items():
        m = pl.read_parquet(folder / "matches" / "*.parquet")
        assert len(m) == 100 and (m["target"] == target).all()
        assert m["players_team0"][0].startswith("heuristic")


def test_hands_per_match_recomputed(sweep_runs: dict[int, Path]) -> None:
    table = ml.hands_per_match(_runs(sweep_runs))
    assert table["target"].to_list() == [31, 101]
    for target, folder in sweep_runs.items():
        n_hands = pl.read_parquet(folder / "matches" / "*.parquet")["n_hands"].to_numpy()
        row = table.filter(pl.col("target") == target).row(0, named=True)
        assert row["n"] == len(n_hands) and row["mean"] == pytest.approx(n_hands.mean())
        assert row["median"] == np.median(n_hands) and row["max"] == n_hands.max()
        assert row["low"] < row["mean"] < row["high"]
        assert row["p10"] <= row["median"] <= row["p90"]
    # a longer target never makes matches shorter on average here (101 vs 31 points)
    assert table["mean"][1] > table["mean"][0]


def test_distribution_and_reasons_add_up(sweep_runs: dict[int, Path]) -> None:
    runs = _runs(sweep_runs)
    dist = ml.length_distribution(runs)
    sums = dist.group_by("target").agg(pl.col("k").sum(), pl.col("n").first(), pl.col("rate").sum())
    assert (sums["k"] == sums["n"]).all() and np.allclose(sums["rate"].to_numpy(), 1)
    reasons = ml.end_reasons(runs)
    assert reasons.height == 2 * len(ml.REASONS)  # zero counts kept
    sums = reasons.group_by("target").agg(pl.col("k").sum(), pl.col("n").first())
    assert (sums["k"] == sums["n"]).all()
    assert (
        reasons.filter(pl.col("reason").is_in(["inzili", "forced_joker", "gahwa"]))["k"].sum() == 0
    )
    ok = reasons.filter(pl.col("n") > 0)
    assert ((ok["low"] <= ok["rate"]) & (ok["rate"] <= ok["high"])).all()
    # kouts recomputed from the raw files
    raw = pl.read_parquet(sweep_runs[31] / "matches" / "*.parquet")
    kouts = reasons.filter((pl.col("target") == 31) & (pl.col("reason") == "kout"))["k"].item()
    assert kouts == (raw["reason"] == "kout").sum()
    with pytest.raises(ValueError, match="not among"):
        ml.end_reasons(runs, ["target"])


def test_stronger_side_wins(sweep_runs: dict[int, Path]) -> None:
    wins = ml.stronger_side_wins(_runs(sweep_runs))
    for target, folder in sweep_runs.items():
        raw = pl.read_parquet(folder / "matches" / "*.parquet")
        row = wins.filter(pl.col("target") == target).row(0, named=True)
        assert row["k"] == (raw["winner"] == 0).sum() and row["n"] == len(raw)
        assert row["low"] <= row["rate"] <= row["high"]
    # heuristic players against near-passive random ones win most matches
    assert (wins["rate"] > 0.5).all()


def test_figure(sweep_runs: dict[int, Path]) -> None:
    runs = _runs(sweep_runs)
    fig = ml.figure(ml.hands_per_match(runs), ml.end_reasons(runs), ml.stronger_side_wins(runs))
    assert isinstance(fig, Figure) and len(fig.axes) == 3
    plt.close(fig)
