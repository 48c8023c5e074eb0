"""Bid success tables on small heuristic runs, checked against the parquet files directly."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure

from analyses import bid_success as bs

from .conftest import hands_of


def _intervals_hold(df: pl.DataFrame) -> None:
    rated = df.filter(pl.col("n") > 0)
    assert (rated["low"] <= rated["rate"]).all() and (rated["rate"] <= rated["high"]).all()
    assert ((rated["k"] >= 0) & (rated["k"] <= rated["n"])).all()


def test_by_contract_counts_add_up_and_match_the_parquet(kout_run: Path) -> None:
    hands = hands_of(kout_run)
    table = bs.by_contract(hands)
    _intervals_hold(table)
    assert table["rows"].sum() == len(hands) == 3_000
    assert abs(float(table["share"].sum()) - 1) < 1e-9
    # recompute from the parquet files with plain polars + numpy
    raw = pl.read_parquet(kout_run / "hands" / "*.parquet")
    calls = raw["calls"].to_list()
    forced = np.array(
        [b == d and c.count("pass") == 3 for b, d, c in zip(raw["bidder"], raw["dealer"], calls)]
    )
    assert (forced & (raw["contract"].to_numpy() == 5) == raw["malzoom"].to_numpy()).all()
    contract = raw["contract"].to_numpy()
    made = raw["made"].to_numpy()
    for bid, is_forced, rows, k, n, rate in table.select(
        "bid", "forced", "rows", "k", "n", "rate"
    ).iter_rows():
        sel = (contract == int(bid)) & (forced == is_forced)
        assert rows == n == sel.sum() and k == made[sel].sum()
        assert rate == pytest.approx(made[sel].mean())
    # the malzoom split agrees with the forced one in Kout Bo
    f = bs.by_forced(hands)
    assert f.filter(pl.col("malzoom"))["rows"].sum() == raw["malzoom"].sum()


def test_by_seat_matches_numpy(kout_run: Path) -> None:
    hands = hands_of(kout_run)
    table = bs.by_seat(hands)
    _intervals_hold(table)
    rel = (hands["bidder"].to_numpy().astype(int) - hands["dealer"].to_numpy()) % 4
    for seat in range(4):
        assert table.filter(pl.col("seat_rel") == seat)["rows"].sum() == (rel == seat).sum()


def test_by_feature_partitions_every_bid(kout_run: Path, baloot_run: Path) -> None:
    for folder, features in ((kout_run, bs.KOUT_FEATURES), (baloot_run, bs.BALOOT_FEATURES)):
        hands = hands_of(folder)
        per_bid = bs.by_contract(hands).group_by("bid").agg(pl.col("rows").sum())
        table = bs.by_feature(hands)
        _intervals_hold(table)
        assert set(table["feature"].unique()) == set(features)
        sums = table.group_by("feature", "bid").agg(pl.col("rows").sum())
        for feature in features:
            got = sums.filter(pl.col("feature") == feature).drop("feature").sort("bid")
            assert got.equals(per_bid.sort("bid")), feature


def test_baloot_bids_are_modes(baloot_run: Path) -> None:
    hands = hands_of(baloot_run)
    table = bs.by_contract(hands)
    assert set(table["bid"]) <= {"sun", "hokum"} and not table["forced"].any()
    assert table["rows"].sum() == hands["mode"].is_not_null().sum()
    projects = bs.by_feature(hands, ["bidder_projects"])
    assert set(projects["value"]) <= set(bs.PROJECT_ORDER)


def test_expected_points_recomputed_and_the_guide_takes_the_argmax(kout_run: Path) -> None:
    hands = hands_of(kout_run)
    ev = bs.expected_points(hands)
    assert ((ev["low"] <= ev["mean"]) & (ev["mean"] <= ev["high"])).all() or (ev["n"] < 2).any()
    # one cell from the raw columns: strength = trumps + jokers + honours, clipped to the range
    raw = pl.read_parquet(kout_run / "hands" / "*.parquet")
    strength = (
        raw["bidder_trump_length"].to_numpy()
        + raw["bidder_jokers"].to_numpy()
        + raw["bidder_trump_honours"].to_numpy()
    ).clip(*bs.KOUT_STRENGTH_RANGE)
    team = raw["bidder"].to_numpy() % 2
    p0, p1 = raw["points_team0"].to_numpy(), raw["points_team1"].to_numpy()
    net = np.where(team == 0, p0 - p1, p1 - p0)
    calls = raw["calls"].to_list()
    forced = np.array(
        [b == d and c.count("pass") == 3 for b, d, c in zip(raw["bidder"], raw["dealer"], calls)]
    )
    free = ~forced
    top = ev.sort("n", descending=True).row(0, named=True)
    sel = (
        (strength == top["strength_bucket"])
        & (raw["contract"].to_numpy() == int(top["bid"]))
        & free
    )
    assert top["n"] == sel.sum() and top["mean"] == pytest.approx(net[sel].mean())
    assert top["sd"] == pytest.approx(net[sel].std(ddof=1))
    assert ev["n"].sum() == free.sum()

    guide = bs.bid_guide(ev, min_n=20)
    assert guide.height > 0
    for row in guide.iter_rows(named=True):
        cands = ev.filter(
            (pl.col("strength_bucket") == row["strength_bucket"]) & (pl.col("n") >= 20)
        )
        assert row["mean"] == cands["mean"].max() and row["candidates"] == cands.height
        assert row["best_bid"] in cands.filter(pl.col("mean") == row["mean"])["bid"].to_list()
        assert row["low"] <= row["mean"] <= row["high"] and row["n"] >= 20
        if row["runner_up"] is not None:
            assert row["runner_up_mean"] <= row["mean"]


def test_inzili_and_forced_jokers_are_not_points(bh_run: Path) -> None:
    hands = hands_of(bh_run)
    prepared = bs.prepare(hands).collect()
    inzili = prepared.filter(pl.col("bid") == "8")
    assert inzili["net_points"].null_count() == inzili.height
    assert (
        prepared.filter(pl.col("forced_joker"))["net_points"].null_count()
        == hands["forced_joker"].sum()
    )
    valued = bs.prepare(hands, instant_value=31).collect().filter(pl.col("bid") == "8")
    assert set(valued["net_points"].to_list()) <= {31.0, -31.0}
    table = bs.by_contract(hands)
    _intervals_hold(table)
    # forced joker leads decide nothing: counted in rows, not in n
    assert (table["rows"] - table["n"]).sum() == hands["made"].null_count()


def test_figure(kout_run: Path) -> None:
    hands = hands_of(kout_run)
    ev = bs.expected_points(hands)
    fig = bs.figure(bs.by_contract(hands), ev, bs.bid_guide(ev))
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    plt.close(fig)


def test_six_seats_forced_bids_and_seats(six_run: Path) -> None:
    hands = hands_of(six_run)
    raw = pl.read_parquet(six_run / "hands" / "*.parquet")
    forced = np.array(
        [
            b == d and c.count("pass") == 5
            for b, d, c in zip(raw["bidder"], raw["dealer"], raw["calls"].to_list())
        ]
    )
    table = bs.by_forced(hands)
    assert table.filter(pl.col("forced"))["rows"].sum() == forced.sum()
    assert table.filter(pl.col("malzoom"))["rows"].sum() == raw["malzoom"].sum()
    seats_seen = bs.by_seat(hands)["seat_rel"].unique().sort().to_list()
    assert seats_seen == list(range(6))


def test_missing_run_columns_are_named(kout_run: Path) -> None:
    raw = pl.read_parquet(kout_run / "hands" / "*.parquet")
    with pytest.raises(ValueError, match="missing columns"):
        bs.by_contract(raw)
    from analyses._common import with_run_columns

    assert bs.by_contract(with_run_columns(raw, "kout_bo_4"))["rows"].sum() == len(raw)


def test_guide_ranges_pool_consecutive_buckets_with_the_same_best_bid(kout_run: Path) -> None:
    """A range spans guide buckets that follow each other with one best bid; its numbers are those
    of the pooled hands (counts add up over the buckets of the range)."""
    hands = hands_of(kout_run)
    ev = bs.expected_points(hands)
    guide = bs.bid_guide(ev, min_n=20)
    ranges = bs.guide_ranges(hands, guide, min_n=20)
    assert ranges.height > 0
    best = dict(zip(guide["strength_bucket"].to_list(), guide["best_bid"].to_list()))
    covered: list[int] = []
    previous_bid = None
    for r in ranges.iter_rows(named=True):
        inside = [b for b in best if r["from_bucket"] <= b <= r["to_bucket"]]
        assert inside[0] == r["from_bucket"] and inside[-1] == r["to_bucket"]
        assert len({best[b] for b in inside}) == 1 and best[inside[0]] != previous_bid
        previous_bid = best[inside[0]]
        covered += inside
        pooled = ev.filter(
            pl.col("strength_bucket").is_between(r["from_bucket"], r["to_bucket"])
            & (pl.col("bid") == r["best_bid"])
        )
        assert r["n"] == pooled["n"].sum() and r["made_k"] == pooled["made_k"].sum()
        assert r["separated"] == (r["runner_up"] is not None and r["low"] > r["runner_up_high"])
    assert covered == sorted(best)


def test_contract_results_share_made_and_points(kout_run: Path) -> None:
    hands = hands_of(kout_run)
    table = bs.contract_results(hands)
    prepared = bs.prepare(hands).collect()
    assert table["rows"].sum() == prepared.height and (table["share_n"] == prepared.height).all()
    for r in table.iter_rows(named=True):
        sel = prepared.filter((pl.col("bid") == r["bid"]) & (pl.col("forced") == r["forced"]))
        assert (r["share_k"], r["made_n"], r["made_k"]) == (
            sel.height,
            sel.height,
            sel["made"].sum(),
        )
        assert r["points_mean"] == pytest.approx(sel["net_points"].mean())
    assert [bs.bid_rank(b) for b in table["bid"]] == sorted(bs.bid_rank(b) for b in table["bid"])
