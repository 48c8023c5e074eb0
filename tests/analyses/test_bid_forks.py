"""The paired bid fork tables recomputed the long way from the parquet files of a
``kout-sim forks --kind bid`` folder (analyses/bid_forks.py)."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl
import pytest

from analyses import bid_forks as BFA
from kout_sim.io.read import load
from kout_sim.sim.bid_fork import write_bid_forks

if TYPE_CHECKING:
    from analyses.section import Section


@pytest.fixture(scope="module")
def bid_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bid-forks") / "bids"
    return Path(write_bid_forks(out, "kout_bo_4", 1_500, 21, at="every", workers=1))


def _rows(folder: Path) -> list[dict[str, Any]]:
    """The rows of the parquet shards, read without the analysis code."""
    return pl.read_parquet(folder / "bid_forks" / "*.parquet").to_dicts()


def _made(row: dict[str, Any]) -> float:
    return 1.0 if row["bids"] and row["made"] else 0.0


def _clustered(values: list[tuple[int, float]]) -> tuple[float, float]:
    """Mean and hand-clustered standard error of (hand, value) pairs."""
    n = len(values)
    mean = sum(v for _, v in values) / n
    sums: dict[int, float] = defaultdict(float)
    for hand, v in values:
        sums[hand] += v - mean
    return mean, math.sqrt(sum(s * s for s in sums.values())) / n


def test_the_folder_holds_one_fork_per_decision(bid_run: Path) -> None:
    rows = _rows(bid_run)
    forks = {(r["hand"], r["ply"]) for r in rows}
    meta = __import__("json").loads((bid_run / "run.json").read_text())
    assert meta["kind"] == "bid_forks" and meta["forks"] == len(forks)
    assert meta["branches"] == len(rows) and meta["at"] == "every"
    assert "--kind bid" in meta["command"] and "--at every" in meta["command"]
    assert len(load(bid_run)["bid_forks"].collect()) == len(rows)


def test_call_values_recomputed_the_long_way(bid_run: Path) -> None:
    rows = _rows(bid_run)
    table = BFA.call_values(load(bid_run)["bid_forks"])
    assert table["call"].to_list() == sorted(table["call"].to_list(), key=BFA.call_rank)
    for cell in table.iter_rows(named=True):
        mine = [r for r in rows if r["call"] == cell["call"]]
        mean, se = _clustered([(int(r["hand"]), float(r["net"])) for r in mine])
        rate, rate_se = _clustered([(int(r["hand"]), _made(r)) for r in mine])
        assert cell["n"] == len(mine) and cell["hands"] == len({r["hand"] for r in mine})
        assert cell["mean"] == pytest.approx(mean) and cell["se"] == pytest.approx(se)
        assert cell["low"] == pytest.approx(mean - 1.96 * se)
        assert cell["made_rate"] == pytest.approx(rate)
        assert cell["made_high"] == pytest.approx(min(1.0, rate + 1.96 * rate_se))
        assert cell["chosen"] == sum(1 for r in mine if r["is_chosen"])


def test_paired_differences_recomputed_the_long_way(bid_run: Path) -> None:
    rows = _rows(bid_run)
    by_fork: dict[tuple[int, int], dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in rows:
        by_fork[(int(r["hand"]), int(r["ply"]))][str(r["call"])] = r
    table = BFA.paired_differences(load(bid_run)["bid_forks"])
    assert len(table) >= 10
    for cell in table.iter_rows(named=True):
        a, b = cell["call"], cell["other"]
        both = [(k, f) for k, f in by_fork.items() if a in f and b in f]
        diffs = [(k[0], float(f[a]["net"]) - float(f[b]["net"])) for k, f in both]
        mean, se = _clustered(diffs)
        _, se_a = _clustered([(k[0], float(f[a]["net"])) for k, f in both])
        _, se_b = _clustered([(k[0], float(f[b]["net"])) for k, f in both])
        assert cell["n"] == len(both)
        assert cell["diff"] == pytest.approx(mean) and cell["se"] == pytest.approx(se)
        assert cell["se_unpaired"] == pytest.approx(math.hypot(se_a, se_b))
        if se > 0:
            assert cell["ratio"] == pytest.approx(math.hypot(se_a, se_b) / se)


def test_call_values_and_differences_are_the_same_floats_in_any_row_order(bid_run: Path) -> None:
    raw = load(bid_run)["bid_forks"].collect()
    rng = np.random.default_rng(9)
    values = BFA.call_values(raw)
    diffs = BFA.paired_differences(raw)
    for _ in range(3):
        shuffled = raw[rng.permutation(len(raw))]
        assert BFA.call_values(shuffled).equals(values)
        assert BFA.paired_differences(shuffled).equals(diffs)


def test_holm_is_the_step_down_correction() -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 = 0.02, 0.03, 0.06, 0.04 -> monotone 0.06
    assert BFA.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert BFA.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert BFA.two_sided_p(1.96, 1.0) == pytest.approx(0.05, abs=1e-3)


def test_best_calls_pick_the_highest_mean_and_correct_for_every_comparison(bid_run: Path) -> None:
    lf = load(bid_run)["bid_forks"]
    best = BFA.best_calls(lf, min_n=30)
    values = BFA.call_values(lf, ["strength_bucket"])
    pairs = BFA.paired_differences(lf, ["strength_bucket"])
    assert not best.is_empty()
    tests = []
    for row in best.iter_rows(named=True):
        cells = values.filter(
            (pl.col("strength_bucket") == row["strength_bucket"]) & (pl.col("n") >= 30)
        )
        assert row["mean"] == pytest.approx(cells["mean"].max())
        assert row["candidates"] == len(cells)
        for other in cells["call"]:
            if other == row["best_call"]:
                continue
            a, b = sorted((row["best_call"], other), key=BFA.call_rank)
            c = pairs.filter(
                (pl.col("strength_bucket") == row["strength_bucket"])
                & (pl.col("call") == a)
                & (pl.col("other") == b)
            ).row(0, named=True)
            p = math.erfc(abs(c["diff"]) / c["se"] / math.sqrt(2)) if c["se"] > 0 else 0.0
            tests.append((row["strength_bucket"], p))
    m = len(tests)
    order = sorted(range(m), key=lambda i: tests[i][1])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * tests[i][1]))
        adjusted[i] = running
    for row in best.iter_rows(named=True):
        mine = [adjusted[i] for i, t in enumerate(tests) if t[0] == row["strength_bucket"]]
        if mine:
            assert row["p_holm"] == pytest.approx(max(mine))
            assert row["separated"] == (max(mine) < 0.05)


def test_the_pairing_narrows_the_intervals(bid_run: Path) -> None:
    gain = BFA.pairing_gain(load(bid_run)["bid_forks"]).row(0, named=True)
    ratios = BFA.paired_differences(load(bid_run)["bid_forks"])["ratio"].drop_nulls()
    assert gain["pairs"] == len(ratios)
    assert gain["median_ratio"] == pytest.approx(ratios.median())
    assert gain["median_ratio"] > 1.0  # common random numbers: the branches are correlated


def test_unknown_measure_is_refused(bid_run: Path) -> None:
    with pytest.raises(ValueError, match="unknown measure 'points'"):
        BFA.paired_differences(load(bid_run)["bid_forks"], measure="points")


def _paired_bid_guide(fork_run: Path, run: Path) -> tuple[Section, str, pl.DataFrame]:
    """The bid guide of the report on a bid fork run and a heuristic run, checked to be the paired
    one; its text, and the bid fork rows of each hand's first forked decision."""
    from analyses.report import build_report
    from analyses.section import ReportInput, expand

    runs, studies = expand([fork_run, run])
    report = build_report(ReportInput.from_runs(runs, studies))
    section = next(s for s in report.sections if s.key == "bid_guide")
    assert section.title == "Bid guide: every call tried on the same hands"
    text = " ".join(b.text for b in section.blocks if hasattr(b, "text"))
    first = load(fork_run)["bid_forks"].filter(pl.col("decision") == 0).collect()
    return section, text, first


def test_the_report_bid_guide_is_rebuilt_on_the_bid_forks(bid_run: Path, kout_run: Path) -> None:
    """With a bid fork run, the report's bid guide is the paired one, its tables those of
    guide_ranges / call_values on the first forked decision of each hand, and it says in words what
    was held fixed; without one it stays the observational guide."""
    from analyses.report import build_report
    from analyses.section import ReportInput, expand

    section, text, first = _paired_bid_guide(bid_run, kout_run)
    assert "same deal, the same seat with the same cards" in text and "Holm" in text
    tables = section.tables()
    expected = BFA.guide_ranges(first, min_n=30)
    shown = tables["guide_ranges"].frame
    assert shown["best_call"].to_list() == expected["best_call"].to_list()
    assert shown["mean"].to_list() == pytest.approx(expected["mean"].to_list())
    assert shown["p_holm"].to_list() == pytest.approx(expected["p_holm"].to_list())
    values = BFA.call_values(first)
    assert tables["call_values"].frame["mean"].to_list() == pytest.approx(values["mean"].to_list())
    advice = [a.text for a in section.advice]
    assert len(advice) == len(expected)
    assert all(a.players == "heuristic" for a in section.advice)
    # the pairing gain is a method finding, never advice
    assert [f for f in section.findings if f not in advice] == [
        f for f in section.findings if f.startswith("Pairing:")
    ]
    for finding, row in zip(advice, expected.iter_rows(named=True)):
        assert finding.startswith(f"With a hand of {row['strength']}, ")
        assert ("separated from every other call" in finding) == row["separated"]
    alone = build_report(ReportInput.from_runs(expand([kout_run])[0]))
    observational = next(s for s in alone.sections if s.key == "bid_guide")
    assert observational.title == "Bid guide: expected points per hand strength"


def test_a_hand_that_decides_the_match_has_no_value_in_points() -> None:
    """Bahraini Kout: an Inzili (RULES.md 2.10) wins or loses the match at once and its counter
    does not move, so its branches are left out of the points (as in the bid analyses), not out
    of the made rates; so is a forced joker lead (2.8)."""
    from kout_sim.sim.bid_fork import bid_forks

    forks = bid_forks("kout_bh_4", 400, 5, workers=1)
    values = BFA.call_values(forks)
    inzili = values.filter(pl.col("call") == "8").row(0, named=True)
    assert inzili["n"] == 400 and inzili["net_n"] == 0 and inzili["mean"] is None
    assert inzili["made_rate"] > 0  # made Inzilis still count as made
    pointless = (pl.col("contract") == 8) | pl.col("forced_joker")
    for row in values.filter(pl.col("call") != "8").iter_rows(named=True):
        mine = forks.filter(pl.col("call") == row["call"])
        valued = mine.filter(~pointless)
        assert row["net_n"] == len(valued) < row["n"] + 1
        assert row["mean"] == pytest.approx(valued["net"].cast(pl.Float64).mean())
    pairs = BFA.paired_differences(forks)
    assert "8" not in set(pairs["call"]) | set(pairs["other"])
    assert all(r["best_call"] != "8" for r in BFA.best_calls(forks, min_n=5).iter_rows(named=True))


@pytest.fixture(scope="module")
def baloot_bid_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bid-forks-baloot") / "bids"
    return Path(write_bid_forks(out, "baloot", 1_500, 22, workers=1))


def _sun_points(mask: int) -> int:
    """RULES.md 3.1, Sun column, from the card names."""
    from kout_sim import cards as C

    points = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
    return sum(points.get(C.format_card(c)[:-1].replace("10", "T"), 0) for c in C.cards_of(mask))


def test_baloot_strength_is_the_sun_points_of_the_cards_held(baloot_bid_run: Path) -> None:
    """RULES.md 3.1 / 3.2: a Baloot fork's strength is the Sun card points of the five cards the
    seat holds when it calls, bucketed by 5 and pooled below 5 and from 40 up."""
    rows = _rows(baloot_bid_run)
    assert {r["call"] for r in rows} >= {"pass", "hokum", "sun"}
    prepared = BFA.prepare(load(baloot_bid_run)["bid_forks"]).collect()
    for row, mine in zip(prepared.iter_rows(named=True), rows):
        assert row["seat_cards"] == mine["seat_cards"]
        assert bin(mine["seat_cards"]).count("1") == 5
        points = _sun_points(mine["seat_cards"])
        assert row["strength"] == points
        assert row["strength_bucket"] == min(max(points // 5 * 5, 5), 40)


def test_the_baloot_report_bid_guide_is_paired(baloot_bid_run: Path, baloot_run: Path) -> None:
    """With a Baloot bid fork run, the report's guide is the paired one: every buying call on the
    same hands, the strength in Sun card points, the advice worded as buying."""
    section, text, first = _paired_bid_guide(baloot_bid_run, baloot_run)
    assert "every buying call" in text and "Sun card points of the five cards" in text
    expected = BFA.guide_ranges(first, min_n=30)
    assert section.tables()["guide_ranges"].frame["best_call"].to_list() == (
        expected["best_call"].to_list()
    )
    for finding, row in zip([a.text for a in section.advice], expected.iter_rows(named=True)):
        assert finding.startswith(f"With a hand of {row['strength']}, ")
        assert "Sun card points" in row["strength"]
        verb = "pass" if row["best_call"] == "pass" else f"buy {row['best_call']}"
        assert f", {verb}:" in finding
