"""Baloot mode tables on a small heuristic run, checked against the parquet files directly."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl
import pytest
from matplotlib.figure import Figure

from analyses import baloot_modes as bm

from .conftest import hands_of


def test_mode_shares_add_up(baloot_run: Path) -> None:
    hands = hands_of(baloot_run)
    shares = bm.mode_shares(hands)
    dealt = shares.filter(pl.col("base") == "all hands")
    assert dealt["mode"].to_list() == ["sun", "hokum", "void"]
    assert dealt["k"].sum() == len(hands) and (dealt["n"] == len(hands)).all()
    ashkal = shares.filter(pl.col("mode") == "sun (ashkal)").row(0, named=True)
    assert ashkal["n"] == dealt.filter(pl.col("mode") == "sun")["k"].item()
    assert ((shares["low"] <= shares["rate"]) & (shares["rate"] <= shares["high"])).all()


def test_buyer_fail_and_kaboot_recomputed(baloot_run: Path) -> None:
    results = bm.buyer_results(hands_of(baloot_run))
    raw = pl.read_parquet(baloot_run / "hands" / "*.parquet")
    for mode in bm.MODES:
        sub = raw.filter(pl.col("mode") == mode)
        fails = results.filter((pl.col("measure") == "buyer_fails") & (pl.col("mode") == mode))
        row = fails.row(0, named=True)
        assert row["n"] == len(sub) and row["k"] == (~sub["made"]).sum()
        assert row["human"] == bm.HUMAN_FAIL[mode]
        assert row["human_inside"] == (row["low"] <= row["human"] <= row["high"])
        kab = results.filter((pl.col("measure") == "kaboot") & (pl.col("mode") == mode)).row(
            0, named=True
        )
        assert kab["k"] == sub["kaboot_team"].is_not_null().sum()
        assert kab["human"] == bm.HUMAN_KABOOT[mode]
        split = results.filter(
            pl.col("measure").is_in(["kaboot_buyer", "kaboot_defenders"]) & (pl.col("mode") == mode)
        )
        assert split["k"].sum() == kab["k"]
    ok = results.filter(pl.col("n") > 0)
    assert ((ok["low"] <= ok["rate"]) & (ok["rate"] <= ok["high"])).all()


def test_human_constants() -> None:
    assert bm.HUMAN_FAIL == {"sun": 0.285, "hokum": 0.159}
    assert bm.HUMAN_KABOOT == {"sun": 0.138, "hokum": 0.093}


def test_projects(baloot_run: Path) -> None:
    hands = hands_of(baloot_run)
    proj = bm.projects(hands)
    assert "baloot" not in proj.filter(pl.col("mode") == "sun")["measure"].to_list()
    raw = pl.read_parquet(baloot_run / "hands" / "*.parquet").filter(pl.col("mode") == "hokum")
    row = proj.filter((pl.col("mode") == "hokum") & (pl.col("measure") == "baloot")).row(
        0, named=True
    )
    assert row["k"] == raw["baloot_seat"].is_not_null().sum() and row["n"] == len(raw)
    any_ = proj.filter(pl.col("measure") == "buyer_holds_any")
    sira = proj.filter(pl.col("measure") == "buyer_holds_sira")
    assert (any_["k"] >= sira["k"]).all()
    counted = proj.filter(pl.col("measure").str.starts_with("projects_counted"))
    held = raw.filter(pl.col("project_team").is_not_null())
    assert counted.filter(pl.col("mode") == "hokum")["k"].sum() == len(held)


def test_figure(baloot_run: Path) -> None:
    hands = hands_of(baloot_run)
    fig = bm.figure(bm.mode_shares(hands), bm.buyer_results(hands), bm.projects(hands))
    assert isinstance(fig, Figure) and len(fig.axes) == 3
    plt.close(fig)


def test_a_kout_run_has_no_modes(kout_run: Path) -> None:
    shares = bm.mode_shares(hands_of(kout_run))
    assert shares.filter(pl.col("mode") == "void")["rate"].item() == pytest.approx(1.0)


def test_the_human_rates_are_labelled_unsourced_wherever_they_show(
    baloot_run: Path, tmp_path: Path
) -> None:
    """No source, sample size or definition is known for the human rates: the constants say so,
    and every sentence, table header and figure of the report that shows them says unsourced."""
    from analyses import report as rp
    from analyses.section import Paragraph, Plot

    for constant in ("HUMAN_FAIL", "HUMAN_KABOOT"):
        assert f"{constant} =" in Path(bm.__file__).read_text()
    assert "unsourced" in (bm.__doc__ or "").lower()
    report = rp.write_report([baloot_run], tmp_path / "b.html")
    (sec,) = [s for s in report.sections if s.key == "baloot_modes"]
    shown = [f"{100 * v:.1f}%" for v in (*bm.HUMAN_FAIL.values(), *bm.HUMAN_KABOOT.values())]
    texts = [*sec.findings, *(b.text for b in sec.blocks if isinstance(b, Paragraph))]
    with_rates = [t for t in texts if any(r in t for r in shown)]
    assert with_rates and all("unsourced" in t.lower() for t in with_rates)
    table = sec.tables()["buyer_results"]
    human = [c.label for c in table.columns if "human" in c.label or "unsourced" in c.label]
    assert human and all("unsourced" in label for label in human)
    (plot,) = [b for b in sec.blocks if isinstance(b, Plot)]
    legends = [legend for ax in plot.figure.axes if (legend := ax.get_legend()) is not None]
    labels = [t.get_text() for legend in legends for t in legend.get_texts()]
    assert bm.UNSOURCED in labels and "human" not in labels
    assert "unsourced" in plot.caption
