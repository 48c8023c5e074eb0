"""Seat and dealer tables on small heuristic runs, checked against the parquet files directly."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure

from analyses import seats

from .conftest import hands_of, matches_of


def test_bid_share_recomputed(kout_matches_run: Path, baloot_run: Path) -> None:
    for folder in (kout_matches_run, baloot_run):
        hands = hands_of(folder)
        share = seats.bid_share(hands)
        raw = pl.read_parquet(folder / "hands" / "*.parquet").filter(pl.col("bidder") >= 0)
        rel = (raw["bidder"].to_numpy().astype(int) - raw["dealer"].to_numpy()) % 4
        assert share["seat_rel"].to_list() == [0, 1, 2, 3]
        assert share["k"].to_list() == [int((rel == s).sum()) for s in range(4)]
        assert (share["n"] == len(raw)).all() and share["rate"].sum() == pytest.approx(1)
        assert ((share["low"] <= share["rate"]) & (share["rate"] <= share["high"])).all()


def test_bidder_results_and_seat_points(kout_matches_run: Path) -> None:
    hands = hands_of(kout_matches_run)
    res = seats.bidder_results(hands)
    assert res["n"].sum() == len(hands) and res["k"].sum() == hands["made"].sum()
    assert (
        (res["points_low"] <= res["points_mean"]) & (res["points_mean"] <= res["points_high"])
    ).all()
    pts = seats.seat_points(hands)
    assert (pts["n"] == len(hands)).all()
    # every hand: the four seats' team points add up to twice the hand's points
    total = (hands["points_team0"].cast(pl.Int64) + hands["points_team1"]).to_numpy()
    assert pts["mean"].sum() == pytest.approx(2 * total.mean())


def test_first_dealer_wins_recomputed(kout_matches_run: Path) -> None:
    first = seats.first_dealer_wins(matches_of(kout_matches_run))
    raw = pl.read_parquet(kout_matches_run / "matches" / "*.parquet")
    won = raw["winner"].to_numpy() == raw["first_dealer"].to_numpy() % 2
    anyrow = first.filter(pl.col("first_dealer_team") == "any").row(0, named=True)
    assert anyrow["n"] == len(raw) == 150 and anyrow["k"] == won.sum()
    teams = first.filter(pl.col("first_dealer_team") != "any")
    assert teams["n"].sum() == 150 and teams["k"].sum() == anyrow["k"]
    team0 = raw["first_dealer"].to_numpy() % 2 == 0
    assert teams.filter(pl.col("first_dealer_team") == "0")["k"].item() == np.sum(won & team0)


def test_figure(kout_matches_run: Path) -> None:
    hands = hands_of(kout_matches_run)
    fig = seats.figure(
        seats.bid_share(hands),
        seats.bidder_results(hands),
        seats.seat_points(hands),
        seats.first_dealer_wins(matches_of(kout_matches_run)),
    )
    assert isinstance(fig, Figure) and len(fig.axes) == 4
    plt.close(fig)


def test_six_seats(six_run: Path) -> None:
    hands = hands_of(six_run)
    share = seats.bid_share(hands)
    assert share["seat_rel"].to_list() == list(range(6)) and share["k"].sum() == len(hands)
    assert share["even"].to_list() == [pytest.approx(1 / 6)] * 6
    pts = seats.seat_points(hands)
    total = (hands["points_team0"].cast(pl.Int64) + hands["points_team1"]).to_numpy()
    assert pts["mean"].sum() == pytest.approx(3 * total.mean())
    fig = seats.figure(
        share, seats.bidder_results(hands), pts, seats.first_dealer_wins(matches_of(six_run))
    )
    assert len(fig.axes) == 4
    plt.close(fig)
