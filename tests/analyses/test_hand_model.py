"""The fitted hand model (analyses/hand_model.py): the fits recover known coefficients on
simulated data, the out-of-sample split is by hand, and its tables recomputed the long way on a
tiny bid fork run."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analyses import hand_model as HM
from kout_sim import cards as C
from kout_sim.io.read import load
from kout_sim.sim.bid_fork import write_bid_forks


@pytest.fixture(scope="module")
def bid_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hand-model") / "bids"
    return Path(write_bid_forks(out, "kout_bo_4", 1_500, 23, workers=1))


@pytest.fixture(scope="module")
def forks(bid_run: Path) -> pl.DataFrame:
    return load(bid_run)["bid_forks"].collect()


def _simulated(n: int, seed: int) -> tuple[pl.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = {
        "jokers": rng.integers(0, 3, n).astype(float),
        "trumps": rng.integers(1, 8, n).astype(float),
        "side_aces": rng.integers(0, 4, n).astype(float),
    }
    beta = np.array([-4.0, 1.2, 0.6, 0.8])
    design = np.column_stack([np.ones(n), x["jokers"], x["trumps"], x["side_aces"]])
    eta = design @ beta
    made = (rng.random(n) < 1 / (1 + np.exp(-eta))).astype(float)
    net = 3.0 * eta + rng.normal(0, 4.0, n)
    return pl.DataFrame({**x, "made": made, "net": net, "hand": np.arange(n)}), beta


def test_the_fits_recover_known_coefficients_on_simulated_data() -> None:
    df, beta = _simulated(40_000, 5)
    names = ["jokers", "trumps", "side_aces"]
    logit = HM.fit(df, "made", names)
    params, se = np.asarray(logit.result.params), np.asarray(logit.result.bse)
    assert np.all(np.abs(params - beta) < 4 * se)
    assert np.all(se < 0.05)
    ols = HM.fit(df, "net", names)
    assert np.asarray(ols.result.params) == pytest.approx(3.0 * beta, abs=0.15)
    # the ratio jokers / trumps is 2 by construction; its delta-method interval covers it
    cov = np.asarray(logit.result.cov_params())
    r, r_se = HM.ratio_ci(params[1], params[2], cov[1, 1], cov[2, 2], cov[1, 2])
    assert abs(r - 2.0) < 4 * r_se and r_se < 0.2


def test_a_wrong_model_does_not_recover_them() -> None:
    """The recovery test can fail: with a feature left out, the fitted coefficients are off."""
    df, beta = _simulated(40_000, 6)
    logit = HM.fit(df, "made", ["jokers", "trumps"])
    assert abs(float(np.asarray(logit.result.params)[0]) - beta[0]) > 0.5


def test_the_delta_method_matches_a_numerical_gradient() -> None:
    a, b, va, vb, cab = 1.4, 0.7, 0.04, 0.01, 0.005
    r, se = HM.ratio_ci(a, b, va, vb, cab)
    g = np.array([1 / b, -a / b**2])
    assert r == pytest.approx(2.0)
    assert se == pytest.approx(math.sqrt(g @ np.array([[va, cab], [cab, vb]]) @ g))


def test_auc_is_the_share_of_correctly_ordered_pairs() -> None:
    rng = np.random.default_rng(2)
    y = rng.random(300) < 0.3
    s = rng.integers(0, 10, 300).astype(float) + y
    pairs = [1.0 if sp > sn else 0.5 if sp == sn else 0.0 for sp in s[y] for sn in s[~y]]
    assert HM.auc(y, s) == pytest.approx(sum(pairs) / len(pairs))
    assert math.isnan(HM.auc(np.ones(4, bool), np.arange(4.0)))


def test_the_split_is_by_hand(forks: pl.DataFrame) -> None:
    hands = forks["hand"].to_numpy()
    test = HM.split_hands(hands, 0.3, 0)
    distinct = set(int(h) for h in np.unique(hands))
    assert test <= distinct and len(test) == round(0.3 * len(distinct))
    assert HM.split_hands(hands, 0.3, 0) == test and HM.split_hands(hands, 0.3, 1) != test
    train, held = HM._held_out(forks, 0.3, 0)
    assert set(train["hand"].to_list()).isdisjoint(held["hand"].to_list())
    # every branch of a held-out hand is held out
    per_hand = forks.filter(pl.col("decision") == 0).group_by("hand").len()
    held_counts = held.group_by("hand").len().join(per_hand, on="hand")
    assert (held_counts["len"] == held_counts["len_right"]).all()
    v = HM.validation(forks, 0.3, 0)
    assert (v["train_hands"] + v["test_hands"] <= len(distinct)).all()
    assert all(n <= len(test) for n in v["test_hands"].to_list())


def _long_features(cards: int) -> dict[str, float]:
    suits = [[r for r in range(C.N_RANKS) if cards >> (s * C.N_RANKS + r) & 1] for s in range(4)]
    honours = [sum(r >= C.RANKS.index("J") for r in ranks) for ranks in suits]
    score = [len(ranks) + h for ranks, h in zip(suits, honours)]
    best = score.index(max(score))
    side = [ranks for s, ranks in enumerate(suits) if s != best]
    return {
        "trumps": len(suits[best]),
        "trump_honours": honours[best],
        "side_aces": sum(C.RANKS.index("A") in r for r in side),
        "side_kings": sum(C.RANKS.index("K") in r for r in side),
        "voids": sum(not r for r in suits),
    }


def test_features_recomputed_the_long_way(forks: pl.DataFrame) -> None:
    df = HM.features(forks)
    assert (df["decision"] == 0).all()
    for row in df.head(400).iter_rows(named=True):
        expected = _long_features(int(row["seat_cards"]))
        assert {k: row[k] for k in expected} == expected
        assert row["trumps"] == row["long_suit"] and row["trump_honours"] == row["long_honours"]


def _newton_logit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    b = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ b))
        b = b + np.linalg.solve(x.T @ (x * (p * (1 - p))[:, None]), x.T @ (y - p))
    return b


def test_coefficients_and_worth_recomputed_the_long_way(forks: pl.DataFrame) -> None:
    df = HM.features(forks)
    made = HM.coefficients(forks, "made")
    net = HM.coefficients(forks, "net")
    ratios = HM.worth(forks)
    assert not made.is_empty() and not ratios.is_empty()
    for call in ("5", "6"):
        part = df.filter(pl.col("call") == call)
        names = [n for n in HM.FEATURES if part[n].n_unique() > 1]
        x = np.column_stack([np.ones(len(part)), part.select(names).to_numpy()])
        b_logit = _newton_logit(x, part["made"].to_numpy())
        got = made.filter(pl.col("call") == call)
        assert got["feature"].to_list() == ["const", *names]
        assert got["coef"].to_numpy() == pytest.approx(b_logit, rel=1e-5, abs=1e-7)
        valued = part.filter(pl.col("net").is_not_null())
        xv = np.column_stack([np.ones(len(valued)), valued.select(names).to_numpy()])
        b_ols = np.linalg.lstsq(xv, valued["net"].to_numpy(), rcond=None)[0]
        assert net.filter(pl.col("call") == call)["coef"].to_numpy() == pytest.approx(b_ols)
        here = ratios.filter(pl.col("call") == call)
        j = ["const", *names].index("trumps")
        for row in here.iter_rows(named=True):
            i = ["const", *names].index(row["feature"])
            assert row["ratio"] == pytest.approx(b_logit[i] / b_logit[j], rel=1e-5)


def test_validation_and_calibration_recomputed_the_long_way(forks: pl.DataFrame) -> None:
    df = HM.features(forks)
    test = HM.split_hands(df["hand"].to_numpy(), 0.3, 0)
    held = df.filter(pl.col("hand").is_in(list(test)))
    train = df.filter(~pl.col("hand").is_in(list(test)))
    v = HM.validation(forks, 0.3, 0)
    cal = HM.calibration(forks, 0.3, 0)
    call = "5"
    tr, te = train.filter(pl.col("call") == call), held.filter(pl.col("call") == call)
    names = [n for n in HM.FEATURES if tr[n].n_unique() > 1]
    b = _newton_logit(
        np.column_stack([np.ones(len(tr)), tr.select(names).to_numpy()]), tr["made"].to_numpy()
    )
    p = 1 / (1 + np.exp(-(np.column_stack([np.ones(len(te)), te.select(names).to_numpy()]) @ b)))
    y = te["made"].to_numpy()
    row = v.filter(pl.col("call") == call).row(0, named=True)
    assert row["test_hands"] == len(te) and row["made_rate"] == pytest.approx(y.mean())
    # the model's own predictions are those of the long fit; ties (equal feature rows) are kept
    # as ties by scoring those predictions
    fitted = HM.fit(tr, "made", call=call).predict(te)
    assert fitted == pytest.approx(p, abs=1e-8)
    pos, neg = fitted[y == 1], fitted[y == 0]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    assert row["auc_model"] == pytest.approx(wins / (len(pos) * len(neg)))
    assert row["brier_model"] == pytest.approx(((y - p) ** 2).mean())
    p = fitted
    s = te["strength"].to_numpy()
    sp, sn = s[y == 1], s[y == 0]
    s_wins = (sp[:, None] > sn[None, :]).sum() + 0.5 * (sp[:, None] == sn[None, :]).sum()
    assert row["auc_strength"] == pytest.approx(s_wins / (len(sp) * len(sn)))
    # deciles: the held-out hands sorted by predicted P(made), cut in ten equal parts
    order = np.argsort(p, kind="stable")
    mine = cal.filter(pl.col("call") == call)
    assert mine["n"].sum() == len(te) and mine["decile"].to_list() == list(range(1, 11))
    for k, chunk in enumerate(np.array_split(order, 10)):
        r = mine.row(k, named=True)
        assert r["n"] == len(chunk)
        assert r["predicted"] == pytest.approx(p[chunk].mean(), rel=1e-5)
        assert r["observed"] == pytest.approx(y[chunk].mean())


def test_the_calibration_figure_draws_one_line_per_call(forks: pl.DataFrame) -> None:
    cal = HM.calibration(forks)
    fig = HM.figure(cal)
    assert len(fig.axes[0].containers) == cal["call"].n_unique()


def test_an_unknown_outcome_is_refused() -> None:
    df, _ = _simulated(100, 1)
    with pytest.raises(ValueError, match="unknown outcome"):
        HM.fit(df, "tricks", ["jokers"])


def test_the_report_section_is_built_on_the_bid_forks(bid_run: Path, kout_run: Path) -> None:
    """With a bid fork run the report holds the hand model's section, its tables those of the
    module's functions; without one it is left out."""
    from analyses.hand_model_section import SEED, SHARE
    from analyses.report import build_report
    from analyses.section import ReportInput, expand

    runs, studies = expand([bid_run, kout_run])
    report = build_report(ReportInput.from_runs(runs, studies))
    section = next(s for s in report.sections if s.key == "hand_model")
    first = load(bid_run)["bid_forks"].filter(pl.col("decision") == 0).collect()
    tables = section.tables()
    expected = HM.validation(first, SHARE, SEED)
    shown = tables["validation"].frame
    assert shown["call"].to_list() == expected["call"].to_list()
    assert shown["auc_model"].to_list() == pytest.approx(expected["auc_model"].to_list())
    assert shown["auc_strength"].to_list() == pytest.approx(expected["auc_strength"].to_list())
    ratios = HM.worth(first).filter(pl.col("call") != "pass")
    assert tables["worth_in_trumps"].frame["ratio"].to_list() == pytest.approx(
        ratios["ratio"].to_list()
    )
    assert any(f.startswith("For a bid of ") and "in trumps" in f for f in section.findings)
    text = " ".join(b.text for b in section.blocks if hasattr(b, "text"))
    assert "held out" in text and "same hands" in text
    alone = build_report(ReportInput.from_runs(expand([kout_run])[0]))
    assert all(s.key != "hand_model" for s in alone.sections)


def test_misweighted_reads_the_intervals_against_the_strength_weights() -> None:
    from analyses.hand_model_section import misweighted

    by = {
        "jokers": {"low": 2.1, "high": 2.5},
        "trump_honours": {"low": 0.6, "high": 0.7},
        "side_aces": {"low": -0.1, "high": 0.2},
    }
    assert misweighted(by) == (["jokers"], ["trump_honours"])


def test_a_call_whose_points_are_never_known_gets_no_points_model() -> None:
    """RULES.md 2.8 / 2.10: a Bahraini Kout (bid 8) decides the match at once, so its net points are
    null on every hand; the points model skips that call (a fit on no rows failed the kout_bh_4
    report), while the made model still fits it."""
    df, _ = _simulated(4_000, 7)
    names = ["jokers", "trumps", "side_aces"]
    five = df.with_columns(pl.lit("5").alias("call"))
    kout = df.with_columns(pl.lit("8").alias("call"), pl.lit(None, dtype=pl.Float64).alias("net"))
    both = pl.concat([five, kout])
    assert sorted(HM.fits(both, "net", names, min_hands=200)) == ["5"]
    assert sorted(HM.fits(both, "made", names, min_hands=200)) == ["5", "8"]
    # a call with its points known on too few hands is skipped as well
    few = kout.with_columns(pl.when(pl.col("hand") < 100).then(1.0).otherwise(None).alias("net"))
    assert sorted(HM.fits(pl.concat([five, few]), "net", names, min_hands=200)) == ["5"]
