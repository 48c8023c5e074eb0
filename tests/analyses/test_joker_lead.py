"""The joker-lead analysis: paired values with clustered intervals, recomputed from the parquet
files; the forced-joker tables of Bahraini Kout recomputed from the hands."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analyses import joker_lead as jl
from kout_sim import cards as C
from kout_sim.sim.fork import write_forks

from .conftest import hands_of, matches_of


@pytest.fixture(scope="session")
def forks_run(runs_root: Path) -> Path:
    """kout_bo_4, heuristic players, the joker leads of 4,000 hands."""
    return Path(write_forks(runs_root / "forks", "kout_bo_4", 4_000, 21, workers=1))


def _clustered(values: np.ndarray, hands: np.ndarray) -> tuple[float, float]:
    """(mean, standard error clustered by hand), computed the long way."""
    mean = values.mean()
    sums: dict[int, float] = {}
    for v, h in zip(values, hands):
        sums[h] = sums.get(h, 0.0) + (v - mean)
    return mean, float(np.sqrt(sum(s * s for s in sums.values())) / len(values))


def _mean(column: pl.Series) -> float:
    """The mean of a non-empty column, as a float."""
    mean = column.cast(pl.Float64).mean()
    assert isinstance(mean, float)
    return mean


def test_paired_value_is_the_mean_difference_with_a_clustered_interval(forks_run: Path) -> None:
    raw = pl.read_parquet(forks_run / "forks" / "*.parquet")
    assert len(raw) > 300
    table = jl.joker_value(raw)
    for row in table.iter_rows(named=True):
        part = raw.filter(pl.col("bidding_team") == (row["role"] == "bidding team"))
        a = part["net_joker"].to_numpy().astype(float)
        b = part["net_other"].to_numpy().astype(float)
        hands = part["hand"].to_numpy()
        diff, se = _clustered(a - b, hands)
        _, se_a = _clustered(a, hands)
        _, se_b = _clustered(b, hands)
        assert row["n"] == len(part) and row["hands"] == len(set(hands))
        assert row["diff"] == pytest.approx(diff) and row["se"] == pytest.approx(se)
        assert row["low"] == pytest.approx(diff - 1.96 * se)
        assert row["high"] == pytest.approx(diff + 1.96 * se)
        unpaired = np.hypot(se_a, se_b)
        assert row["unpaired_high"] - row["unpaired_low"] == pytest.approx(2 * 1.96 * unpaired)
        if se > 0:
            assert row["variance_reduction"] == pytest.approx((unpaired / se) ** 2)
        else:
            assert row["variance_reduction"] is None


def test_common_random_numbers_make_the_paired_interval_narrower(forks_run: Path) -> None:
    """Both branches share the deal and the random numbers after the fork, so their outcomes are
    strongly correlated and the paired difference has a much smaller variance."""
    raw = pl.read_parquet(forks_run / "forks" / "*.parquet")
    # measured on this run: about 2x for points and the made rate, about 17x for tricks
    assert jl.paired_value(raw, measure="net")["variance_reduction"][0] > 1.5
    assert jl.paired_value(raw, measure="made")["variance_reduction"][0] > 1.5
    assert jl.paired_value(raw, measure="tricks")["variance_reduction"][0] > 9


def test_value_by_groups_partition_the_forks(forks_run: Path) -> None:
    raw = pl.read_parquet(forks_run / "forks" / "*.parquet")
    for column in ("trick", "trumps_out", "contract"):
        table = jl.value_by(raw, column)
        assert table["n"].sum() == len(raw)
    made = jl.value_by(raw, "contract", "made")
    for row in made.iter_rows(named=True):
        part = raw.filter(
            (pl.col("contract") == row["contract"])
            & (pl.col("bidding_team") == (row["role"] == "bidding team"))
        )
        expected = _mean(part["made_joker"]) - _mean(part["made_other"])
        assert row["diff"] == pytest.approx(expected)
    agree = jl.policy_agreement(raw)
    assert agree["n"].sum() == len(raw) and agree["k"].sum() == raw["chose_joker"].sum()


def test_unknown_measure_is_refused(forks_run: Path) -> None:
    with pytest.raises(ValueError, match="unknown measure"):
        jl.paired_value(pl.read_parquet(forks_run / "forks" / "*.parquet"), measure="score")


def test_forced_joker_by_holder_recomputed_from_the_hands(bh_run: Path) -> None:
    hands = hands_of(bh_run)
    table = jl.forced_joker_by_holder(hands)
    expected: dict[tuple[str, int], list[int]] = {}
    for row in hands.filter(pl.col("bidder") >= 0).iter_rows(named=True):
        holder, bidder = row["jk_holder"], row["bidder"]
        role = (
            "bidder"
            if holder == bidder
            else ("partner" if holder % 2 == bidder % 2 else "defender")
        )
        trump = "SHDC".index(row["trump"])
        cards = C.cards_of(row[f"hand_seat{holder}"])
        key = (role, sum(c < 52 and c // 13 == trump for c in cards))
        counts = expected.setdefault(key, [0, 0])
        counts[0] += 1
        counts[1] += bool(row["forced_joker"])
    got = {(r["holder_role"], r["holder_trumps"]): [r["n"], r["k"]] for r in table.to_dicts()}
    assert got == expected
    assert (table["low"] <= table["rate"]).all() and (table["rate"] <= table["high"]).all()
    matches = jl.forced_joker_matches(matches_of(bh_run))
    raw = matches_of(bh_run)
    assert matches["n"][0] == len(raw)
    assert matches["k"][0] == (raw["reason"] == "forced_joker").sum()


def test_report_joker_section_recomputed_from_the_parquet(forks_run: Path, tmp_path: Path) -> None:
    """The report's joker tables equal the paired differences computed from the forks file."""
    from analyses import report as rp

    from .test_report import blob, rows

    out = tmp_path / "joker.html"
    rp.write_report([forks_run], out)
    data = blob(out.read_text())
    raw = pl.read_parquet(forks_run / "forks" / "*.parquet")
    for measure in ("net", "made", "tricks"):
        for row in rows(data, "joker", f"value_{measure}"):
            part = raw.filter(pl.col("bidding_team") == (row["role"] == "bidding team"))
            a = part[f"{measure}_joker"].cast(pl.Float64).to_numpy()
            b = part[f"{measure}_other"].cast(pl.Float64).to_numpy()
            diff, se = _clustered(a - b, part["hand"].to_numpy())
            assert row["n"] == len(part)
            assert row["diff"] == pytest.approx(diff)
            assert row["low"] == pytest.approx(diff - 1.96 * se)
    contracts = rows(data, "joker", "by_contract")
    assert sum(r["n"] for r in contracts) == len(raw)
    # the report numbers tricks from 1 (the forks table from 0: tricks completed before)
    tricks = rows(data, "joker", "by_trick")
    assert {r["trick"] for r in tricks} == {t + 1 for t in raw["trick"].unique().to_list()}
    assert min(r["trick"] for r in tricks) >= 1
    assert any("Leading a permitted joker" in f for f in data["sections"]["joker"]["findings"])
    # the section says in how many forks the tricks move (not "almost every fork")
    moved = data["sections"]["joker"]["data"]["tricks_changed"]
    assert moved == {"n": len(raw), "k": int((raw["tricks_joker"] != raw["tricks_other"]).sum())}


def test_figure_axes_number_tricks_from_1_and_show_whole_contracts(forks_run: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    raw = pl.read_parquet(forks_run / "forks" / "*.parquet")
    fig = jl.figure(raw, min_n=1)
    trick_ax, _, contract_ax = fig.axes
    assert trick_ax.get_xlabel() == "trick (1 = first)"
    xs = [
        x
        for line in trick_ax.lines
        if line.get_marker() == "o"
        for x in np.asarray(line.get_xdata())
    ]
    assert xs and min(xs) > 0.5  # the first trick is drawn at 1
    fig.canvas.draw()
    for ax in (trick_ax, contract_ax):
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks  # no 5.5, 6.5
    matplotlib.pyplot.close(fig)


def test_flips_count_the_forks_whose_result_changes(forks_run: Path) -> None:
    raw = pl.read_parquet(forks_run / "forks" / "*.parquet")
    table = jl.flips(raw)
    for row in table.iter_rows(named=True):
        part = raw.filter(pl.col("bidding_team") == (row["role"] == "bidding team"))
        a = part["made_joker"].cast(pl.Float64).to_numpy()
        b = part["made_other"].cast(pl.Float64).to_numpy()
        assert row["n"] == len(part) and row["k"] == int((a != b).sum())
        flip = (a != b).mean()
        spread = flip - (a.mean() - b.mean()) ** 2
        if spread > 0:
            # the unclustered variance reduction of the paired made rate, computed directly
            direct = (a.var() + b.var()) / (a - b).var()
            assert row["max_variance_reduction"] == pytest.approx(direct)


def test_observed_value_compares_the_players_own_choices(forks_run: Path) -> None:
    raw = pl.read_parquet(forks_run / "forks" / "*.parquet")
    table = jl.observed_value(raw, ["bidding_team"], "net")
    for row in table.iter_rows(named=True):
        part = raw.filter(pl.col("bidding_team") == row["bidding_team"])
        arms = []
        for chose in (True, False):
            arm = part.filter(pl.col("chose_joker") == chose)
            values = arm["net_actual"].cast(pl.Float64).to_numpy()
            arms.append((len(arm), *_clustered(values, arm["hand"].to_numpy())))
        (nj, mj, sej), (no, mo, seo) = arms
        assert (row["n_joker"], row["n_other"]) == (nj, no)
        assert row["diff"] == pytest.approx(mj - mo)
        # the standard error of the difference clustered by hand, the long way: per hand, the
        # joker residuals over n_joker minus the other residuals over n_other
        sums: dict[int, float] = {}
        for h, chose, v in zip(part["hand"], part["chose_joker"], part["net_actual"]):
            r = (v - mj) / nj if chose else -(v - mo) / no
            sums[h] = sums.get(h, 0.0) + r
        se = float(np.sqrt(sum(x * x for x in sums.values())))
        assert row["se"] == pytest.approx(se)
        assert row["high"] - row["low"] == pytest.approx(2 * 1.96 * se)
        assert row["se_separate"] == pytest.approx(np.hypot(sej, seo))
    gain = jl.pairing_gain(raw, "tricks")
    for row in gain.iter_rows(named=True):
        assert row["width_paired"] == pytest.approx(row["high"] - row["low"])
        assert row["ratio_observed"] == pytest.approx(row["width_observed"] / row["width_paired"])


def test_the_values_are_the_same_floats_in_any_row_order(forks_run: Path) -> None:
    # integer outcomes: every sum behind a mean and a clustered error is exact, so polars'
    # varying order of addition cannot move a digit (two reports of the same runs are equal)
    raw = pl.read_parquet(forks_run / "forks" / "*.parquet")
    rng = np.random.default_rng(8)
    paired = jl.paired_value(raw, ["bidding_team"], "net")
    observed = jl.observed_value(raw, ["bidding_team"], "net")
    for _ in range(3):
        shuffled = raw[rng.permutation(len(raw))]
        assert jl.paired_value(shuffled, ["bidding_team"], "net").equals(paired)
        assert jl.observed_value(shuffled, ["bidding_team"], "net").equals(observed)


def _synthetic_forks(hands: int, seed: int, both_arms: bool) -> pl.DataFrame:
    """Two forks a hand, from a model whose standard errors are known: the hand adds ``a`` (sd
    3) to every outcome of the hand, each fork ``e`` (sd 1) to both its branches, the joker -1
    and ``eta`` (sd 0.5). The player plays the joker at the first fork of every hand
    (``both_arms``), or at both forks of every other hand (no hand holds both arms)."""
    rng = np.random.default_rng(seed)
    hand = np.repeat(np.arange(hands), 2)
    a = np.repeat(rng.normal(0.0, 3.0, hands), 2)
    e = rng.normal(0.0, 1.0, 2 * hands)
    eta = rng.normal(0.0, 0.5, 2 * hands)
    other = a + e
    joker = other - 1.0 + eta
    chose = np.arange(2 * hands) % 2 == 0 if both_arms else hand % 2 == 0
    return pl.DataFrame(
        {
            "hand": hand,
            "bidding_team": np.ones(2 * hands, dtype=bool),
            "chose_joker": chose,
            "net_joker": joker,
            "net_other": other,
            "net_actual": np.where(chose, joker, other),
        }
    )


def test_the_observed_comparison_counts_the_hands_both_arms_share() -> None:
    """Every hand holds one joker play and one other play: the hand's own effect cancels in the
    difference of the two arms' means, whose variance is (1 + 1 + 0.25) / hands, not the
    (10.25 + 10) / hands of two arms from different hands."""
    hands = 20_000
    row = jl.observed_value(_synthetic_forks(hands, 3, True)).row(0, named=True)
    assert row["n_joker"] == row["n_other"] == hands
    assert row["se"] ** 2 * hands == pytest.approx(2.25, rel=0.05)
    assert row["se_separate"] ** 2 * hands == pytest.approx(20.25, rel=0.05)
    # the truth, -1, lies in the interval
    assert row["low"] < -1.0 < row["high"]


def test_without_shared_hands_the_observed_error_is_the_two_arms_added() -> None:
    row = jl.observed_value(_synthetic_forks(2_000, 4, False)).row(0, named=True)
    assert row["se"] == pytest.approx(row["se_separate"])


def test_the_observed_interval_holds_the_truth_as_often_as_it_says() -> None:
    """1,000 synthetic samples of 200 hands: the spread of the observed differences is the
    known (1 + 1 + 0.25) / 200, the standard errors the function gives average to it, and the
    95% interval holds the true -1 about 95% of the time (the sum of the two arms' variances,
    ``se_separate``, holds it every time: it is three times too wide)."""
    table = jl.observed_value(
        _synthetic_forks(200 * 1_000, 100, True).with_columns(rep=pl.col("hand") // 200), ["rep"]
    )
    assert len(table) == 1_000
    diff_var = table["diff"].cast(pl.Float64).to_numpy().var(ddof=1)
    se_sq = (table["se"].cast(pl.Float64).to_numpy() ** 2).mean()
    assert diff_var * 200 == pytest.approx(2.25, rel=0.15)
    assert se_sq * 200 == pytest.approx(2.25, rel=0.05)
    covered = ((table["low"] < -1.0) & (table["high"] > -1.0)).cast(pl.Float64).to_numpy().mean()
    assert 0.93 <= covered <= 0.97
    assert ((table["diff"] + 1.0).abs() < 1.96 * table["se_separate"]).all()


def test_pairing_gain_on_synthetic_forks_gives_the_known_ratios() -> None:
    """On the model of :func:`_synthetic_forks` (both arms in every hand), per hand: the paired
    difference has variance 2 x 0.25 over 2 forks, the observed difference (1 + 1 + 0.25), the
    two branches on independent deals (4 x 9 + 2 x 1.25) + (4 x 9 + 2 x 1): the observed interval
    is sqrt(2.25 / 0.125) = 4.24 times as wide as the paired, the independent one
    sqrt(19.125 / 0.125) = 12.4 times."""
    gain = jl.pairing_gain(_synthetic_forks(20_000, 5, True), "net").row(0, named=True)
    assert gain["ratio_observed"] == pytest.approx(np.sqrt(2.25 / 0.125), rel=0.05)
    assert gain["ratio_independent"] == pytest.approx(np.sqrt(19.125 / 0.125), rel=0.05)


def test_changes_counts_the_forks_whose_branches_differ(forks_run: Path) -> None:
    raw = pl.read_parquet(forks_run / "forks" / "*.parquet")
    for row in jl.changes(raw).iter_rows(named=True):
        part = raw.filter(pl.col("bidding_team") == (row["role"] == "bidding team"))
        assert row["n"] == len(part)
        assert row["tricks_changed"] == int((part["tricks_joker"] != part["tricks_other"]).sum())
        assert row["made_changed"] == int((part["made_joker"] != part["made_other"]).sum())
        assert row["net_changed"] == int((part["net_joker"] != part["net_other"]).sum())
