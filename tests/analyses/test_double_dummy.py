"""analyses.double_dummy: the players' results beside the double-dummy values of the same hands."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analyses import double_dummy as dd
from analyses._common import load_run
from kout_sim import simulate


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    out = tmp_path_factory.mktemp("dd") / "run"
    simulate("kout_bh_4", hands=80, seed=4, solve=True, out=out, workers=1)
    return load_run(Path(out))["hands"].collect()


def test_play_vs_cards_pairs_each_hand(solved: pl.DataFrame) -> None:
    table = dd.play_vs_cards(solved)
    hands = solved.filter(pl.col("made").is_not_null())
    assert table["n"].sum() == len(hands)
    cells = table["both"] + table["made_only"] + table["dd_only"] + table["neither"]
    assert (cells == table["n"]).all()
    for row in table.iter_rows(named=True):
        group = hands.filter(pl.col("contract") == row["contract"])
        made = group["made"].cast(pl.Int8)
        makeable = group["dd_made"].cast(pl.Int8)
        assert row["made"] == made.sum() and row["makeable"] == makeable.sum()
        assert row["diff"] == pytest.approx((made - makeable).mean())
        assert row["made_rate"] == pytest.approx(row["made"] / row["n"])
        if row["n"] >= 2 and row["diff_low"] is not None:
            assert row["diff_low"] <= row["diff"] <= row["diff_high"]


def test_bidding_vs_par_shares(solved: pl.DataFrame) -> None:
    table = dd.bidding_vs_par(solved)
    assert ((table["under"] + table["at"] + table["over"]) == table["n"]).all()
    gaps = (solved["dd_par_contract"].cast(pl.Int16) - solved["contract"].cast(pl.Int16)).to_list()
    assert table["under"].sum() == sum(g > 0 for g in gaps)
    assert table["over"].sum() == sum(g < 0 for g in gaps)


def test_a_run_without_solve_is_refused_clearly(tmp_path: Path) -> None:
    out = tmp_path / "plain"
    simulate("kout_bh_4", hands=10, seed=1, out=out, workers=1)
    hands = load_run(out)["hands"]
    assert dd.play_vs_cards(hands)["n"].sum() == 0  # no solved hand: an empty comparison
