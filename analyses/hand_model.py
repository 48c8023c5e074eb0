"""A fitted hand model: P(made) and expected net points of each call from the hand's features.

The data are the bid forks of ``kout-sim forks --kind bid`` (:mod:`analyses.bid_forks`): at the
first free bid decision of each hand the deal was played on once per legal call, so the model of
every call is fitted on the **same hands** (the hands where that call was legal), and the models
of two calls differ by the call alone, not by which hands the player chose to make it with.

Features (:func:`features`), all known to the seat before it calls: ``jokers``; ``trumps``, the
length of the hand's long suit (the suit with most cards plus A K Q J, the first such in S H D C
order: the suit the seat would name, so its "trumps"); ``trump_honours``, the A K Q J of that suit;
``side_aces`` and ``side_kings`` outside it; ``voids``; the seat after the dealer (``seat_1`` ..
``seat_3``, dummies against the dealer's seat 0) and ``score``, the seat's team's match score
before the hand, in tens of points.

Models, one per call (statsmodels):

- P(made): logistic regression (``Logit``). The outcome is binary; the coefficients are log odds
  ratios that add up per card, which is what "a joker is worth two trumps" reads from. A
  gradient-boosted model would predict as well or a little better, but gives no coefficient a
  player can read and no interval on it; with a dozen features and one hand per row, a linear
  index is enough (its calibration out of sample is shown to check it).
- Net points: ordinary least squares (``OLS``) with heteroskedasticity-robust (HC1) standard errors.
  Net points are signed (a lost contract is negative), so a Poisson or Gamma GLM does not apply;
  a Gaussian GLM with the identity link is OLS itself. OLS estimates the best linear predictor of
  the mean net points, which is what a bidder compares between calls; HC1 covers the unequal spread
  of points between strong and weak hands.

Validation is out of sample by **hand**: a share of the hands (:func:`split_hands`) is held out, with
every branch of a held-out hand, and the models fitted on the rest are scored on it: the AUC of
P(made) (rank formula, :func:`auc`), the Brier score, the out-of-sample R² of the points, and the
same for the report's hand strength alone (a logistic / linear fit on ``strength``), side by side
(:func:`validation`). :func:`calibration` gives the calibration table by deciles of the predicted
P(made) on the held-out hands.

:func:`worth` reads the coefficients in trumps: each feature's coefficient divided by the trump's,
with a delta-method interval from the fitted covariance (``a / b``: gradient ``(1/b, -a/b²)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import statsmodels.api as sm
from matplotlib.figure import Figure

from kout_sim import cards as C

from ._common import Z95, Frame, collect
from .bid_forks import call_rank, prepare

FEATURES = (
    "jokers",
    "trumps",
    "trump_honours",
    "side_aces",
    "side_kings",
    "voids",
    "seat_1",
    "seat_2",
    "seat_3",
    "score",
)
"""The model's features, in the order of the coefficients (after the constant)."""

OUTCOMES = ("made", "net")
MIN_HANDS = 200
"""Calls legal on fewer training hands than this are not fitted."""


def card_features(seat_cards: np.ndarray) -> dict[str, np.ndarray]:
    """The trump-free features of the hands ``seat_cards`` (card bitmasks of :mod:`kout_sim.cards`):
    ``trumps`` and ``trump_honours`` (length and A K Q J of the long suit, chosen as
    :func:`kout_sim.io.forks.hand_features` does), ``side_aces``, ``side_kings``, ``voids``."""
    cards = np.asarray(seat_cards, dtype=np.int64)
    length = np.zeros((len(cards), C.N_SUITS), dtype=np.int64)
    honours = np.zeros_like(length)
    aces = np.zeros_like(length)
    kings = np.zeros_like(length)
    jack, king, ace = (C.RANKS.index(r) for r in "JKA")
    for s in range(C.N_SUITS):
        for r in range(C.N_RANKS):
            held = (cards >> (s * C.N_RANKS + r)) & 1
            length[:, s] += held
            honours[:, s] += held * (r >= jack)
            aces[:, s] += held * (r == ace)
            kings[:, s] += held * (r == king)
    best = np.argmax(length + honours, axis=1)
    rows = np.arange(len(cards))
    return {
        "trumps": length[rows, best],
        "trump_honours": honours[rows, best],
        "side_aces": aces.sum(axis=1) - aces[rows, best],
        "side_kings": kings.sum(axis=1) - kings[rows, best],
        "voids": (length == 0).sum(axis=1),
    }


def features(forks: Frame, first_only: bool = True) -> pl.DataFrame:
    """The branches (first forked decision of each hand when ``first_only``) with the measures of
    :func:`analyses.bid_forks.prepare` and the columns of :data:`FEATURES` as floats."""
    lf = prepare(forks)
    if first_only:
        lf = lf.filter(pl.col("decision") == 0)
    df = collect(lf)
    distinct, where = np.unique(df["seat_cards"].to_numpy(), return_inverse=True)
    extra = {k: v[where].astype(float) for k, v in card_features(distinct).items()}
    return df.with_columns(
        *(pl.Series(k, v) for k, v in extra.items()),
        jokers=pl.col("jokers").cast(pl.Float64),
        seat_1=(pl.col("seat_rel") == 1).cast(pl.Float64),
        seat_2=(pl.col("seat_rel") == 2).cast(pl.Float64),
        seat_3=(pl.col("seat_rel") == 3).cast(pl.Float64),
        score=pl.col("score_before").cast(pl.Float64) / 10.0,
    )


def split_hands(hands: Sequence[int] | np.ndarray, share: float = 0.3, seed: int = 0) -> set[int]:
    """The held-out hands: a random ``share`` of the distinct ``hands`` (every branch of a hand is
    on the same side of the split)."""
    distinct = np.unique(np.asarray(hands))
    rng = np.random.default_rng(seed)
    n_test = round(share * len(distinct))
    return set(int(h) for h in rng.choice(distinct, size=n_test, replace=False))


def average_ranks(x: np.ndarray) -> np.ndarray:
    """The ranks of ``x`` from 1, tied values given the mean of their ranks."""
    x = np.asarray(x)
    order = np.argsort(x, kind="stable")
    _, start, counts = np.unique(x[order], return_index=True, return_counts=True)
    mean_rank = start + (counts + 1) / 2.0
    ranks = np.empty(len(x), dtype=float)
    ranks[order] = np.repeat(mean_rank, counts)
    return ranks


def auc(y: np.ndarray, score: np.ndarray) -> float:
    """Area under the ROC curve of ``score`` for the binary ``y`` by the rank (Mann-Whitney)
    formula, ties counted half; NaN without both classes."""
    y = np.asarray(y, dtype=bool)
    n1, n0 = int(y.sum()), int((~y).sum())
    if n1 == 0 or n0 == 0:
        return float("nan")
    ranks = average_ranks(score)
    return float((ranks[y].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def _usable(names: Sequence[str], df: pl.DataFrame) -> list[str]:
    """The features of ``names`` that vary in ``df`` (a constant column cannot be fitted)."""
    return [n for n in names if df[n].n_unique() > 1]


@dataclass
class Fit:
    """One fitted model: the call, the outcome, the feature names and the statsmodels result."""

    call: str
    outcome: str
    names: list[str]
    result: Any

    def predict(self, df: pl.DataFrame) -> np.ndarray:
        """The model's prediction (P(made) or mean net points) on the rows of ``df``."""
        x = sm.add_constant(df.select(self.names).to_numpy(), has_constant="add")
        return np.asarray(self.result.predict(x))


def fit(df: pl.DataFrame, outcome: str, names: Sequence[str] = FEATURES, call: str = "") -> Fit:
    """Fit ``outcome`` (``made``: logistic regression; ``net``: OLS, HC1 errors) on the features
    ``names`` that vary in ``df`` (rows with a null outcome left out)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}; one of {', '.join(OUTCOMES)}")
    df = df.filter(pl.col(outcome).is_not_null())
    used = _usable(names, df)
    x = sm.add_constant(df.select(used).to_numpy(), has_constant="add")
    y = df[outcome].to_numpy().astype(float)
    if outcome == "made":
        result = sm.Logit(y, x).fit(disp=0, maxiter=200)
    else:
        result = sm.OLS(y, x).fit(cov_type="HC1")
    return Fit(call, outcome, used, result)


def _calls(df: pl.DataFrame, min_hands: int) -> list[str]:
    counts = df.group_by("call").agg(pl.col("hand").n_unique().alias("h"))
    calls = counts.filter(pl.col("h") >= min_hands)["call"].to_list()
    return sorted(calls, key=call_rank)


def fits(
    df: pl.DataFrame, outcome: str, names: Sequence[str] = FEATURES, min_hands: int = MIN_HANDS
) -> dict[str, Fit]:
    """One :func:`fit` per call with the outcome known on at least ``min_hands`` hands of ``df``
    (the net points are null where the hand decides the match at once, RULES.md 2.8 / 2.10: in
    Bahraini Kout every hand of some calls); for ``made`` the calls where both outcomes occur."""
    out = {}
    for call in _calls(df, min_hands):
        part = df.filter(pl.col("call") == call)
        known = part.filter(pl.col(outcome).is_not_null())
        if known["hand"].n_unique() < min_hands:
            continue
        y = known[outcome]
        if outcome == "made" and y.n_unique() < 2:
            continue
        out[call] = fit(part, outcome, names, call)
    return out


def coefficients(forks: Frame, outcome: str = "made", min_hands: int = MIN_HANDS) -> pl.DataFrame:
    """Per call and feature (``const`` first), fitted on every hand: ``coef``, ``se``, ``low``,
    ``high`` (95%), ``p`` and ``hands`` (for ``made`` the coefficients are log odds ratios)."""
    df = features(forks)
    rows = []
    for call, f in fits(df, outcome, min_hands=min_hands).items():
        r = f.result
        for i, name in enumerate(["const", *f.names]):
            rows.append(
                {
                    "call": call,
                    "feature": name,
                    "coef": float(r.params[i]),
                    "se": float(r.bse[i]),
                    "low": float(r.params[i] - Z95 * r.bse[i]),
                    "high": float(r.params[i] + Z95 * r.bse[i]),
                    "p": float(r.pvalues[i]),
                    "hands": int(r.nobs),
                }
            )
    return pl.DataFrame(rows)


def ratio_ci(a: float, b: float, var_a: float, var_b: float, cov: float) -> tuple[float, float]:
    """The ratio ``a / b`` and its delta-method standard error."""
    r = a / b
    var = var_a / b**2 + a**2 * var_b / b**4 - 2 * a * cov / b**3
    return r, float(np.sqrt(max(var, 0.0)))


def worth(
    forks: Frame, outcome: str = "made", unit: str = "trumps", min_hands: int = MIN_HANDS
) -> pl.DataFrame:
    """Each feature's coefficient in units of ``unit``'s (for one call): ``call``, ``feature``,
    ``ratio`` ("one of this is worth ``ratio`` trumps"), ``se``, ``low``, ``high`` (95%, delta
    method), ``coef`` and ``unit_coef``. Calls where ``unit``'s coefficient is not separated from
    0 at the 5% level are left out (a ratio over a coefficient that may be 0 is unbounded)."""
    df = features(forks)
    rows = []
    for call, f in fits(df, outcome, min_hands=min_hands).items():
        if unit not in f.names:
            continue
        names = ["const", *f.names]
        params, cov = np.asarray(f.result.params), np.asarray(f.result.cov_params())
        j = names.index(unit)
        if abs(params[j]) < Z95 * np.sqrt(cov[j, j]):
            continue
        for i, name in enumerate(names):
            if name in ("const", unit):
                continue
            r, se = ratio_ci(params[i], params[j], cov[i, i], cov[j, j], cov[i, j])
            rows.append(
                {
                    "call": call,
                    "feature": name,
                    "ratio": r,
                    "se": se,
                    "low": r - Z95 * se,
                    "high": r + Z95 * se,
                    "coef": float(params[i]),
                    "unit_coef": float(params[j]),
                }
            )
    return pl.DataFrame(rows)


def _held_out(forks: Frame, share: float, seed: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    df = features(forks)
    test = split_hands(df["hand"].to_numpy(), share, seed)
    is_test = pl.col("hand").is_in(list(test))
    return df.filter(~is_test), df.filter(is_test)


def _r2(y: np.ndarray, pred: np.ndarray, train_mean: float) -> float:
    """Out-of-sample R²: 1 - SSE / the squared error of the training mean."""
    return float(1 - ((y - pred) ** 2).sum() / ((y - train_mean) ** 2).sum())


def validation(
    forks: Frame, share: float = 0.3, seed: int = 0, min_hands: int = MIN_HANDS
) -> pl.DataFrame:
    """Per call, fitted on the training hands and scored on the held-out ``share`` of hands:
    ``train_hands``, ``test_hands``, ``made_rate`` (held out); ``auc_model`` and ``auc_strength``
    (the AUC of P(made) by the model and by the report's hand strength, whose ranking is its own
    AUC), ``brier_model``, ``brier_strength`` (a logistic fit on strength alone); ``r2_model`` and
    ``r2_strength`` (out-of-sample R² of the net points, OLS on the features / on strength)."""
    train, test = _held_out(forks, share, seed)
    rows = []
    made = fits(train, "made", min_hands=min_hands)
    for call in _calls(train, min_hands):
        tr = train.filter(pl.col("call") == call)
        te = test.filter(pl.col("call") == call)
        if te.is_empty():
            continue
        row: dict[str, Any] = {
            "call": call,
            "train_hands": tr["hand"].n_unique(),
            "test_hands": te["hand"].n_unique(),
            "made_rate": float(te["made"].mean()),  # type: ignore[arg-type]
        }
        y = te["made"].to_numpy()
        if call in made:
            p = made[call].predict(te)
            ps = fit(tr, "made", ["strength"], call).predict(te)
            row.update(
                auc_model=auc(y, p),
                auc_strength=auc(y, te["strength"].to_numpy()),
                brier_model=float(((y - p) ** 2).mean()),
                brier_strength=float(((y - ps) ** 2).mean()),
            )
        trn, ten = tr.filter(pl.col("net").is_not_null()), te.filter(pl.col("net").is_not_null())
        if len(trn) >= min_hands and len(ten) > 1:
            yn, m = ten["net"].to_numpy(), float(trn["net"].mean())  # type: ignore[arg-type]
            row.update(
                r2_model=_r2(yn, fit(trn, "net", call=call).predict(ten), m),
                r2_strength=_r2(yn, fit(trn, "net", ["strength"], call).predict(ten), m),
            )
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)


def calibration(
    forks: Frame, share: float = 0.3, seed: int = 0, bins: int = 10, min_hands: int = MIN_HANDS
) -> pl.DataFrame:
    """Calibration of P(made) on the held-out hands: per call and decile of the predicted
    probability (``decile`` 1..``bins``, by rank among the call's held-out hands), ``n``,
    ``predicted`` (mean P(made)) and ``observed`` (made rate) with a 95% normal ``low``, ``high``."""
    train, test = _held_out(forks, share, seed)
    parts = []
    for call, f in fits(train, "made", min_hands=min_hands).items():
        te = test.filter(pl.col("call") == call)
        if len(te) < bins:
            continue
        p = f.predict(te)
        order = np.empty(len(p), dtype=np.int64)
        order[np.argsort(p, kind="stable")] = np.arange(len(p))
        decile = (order * bins // len(p)) + 1
        parts.append(
            pl.DataFrame({"call": call, "decile": decile, "p": p, "y": te["made"].to_numpy()})
        )
    if not parts:
        return pl.DataFrame()
    obs = pl.col("y").mean()
    se = (obs * (1 - obs) / pl.len()).sqrt()
    out = (
        pl.concat(parts)
        .group_by("call", "decile")
        .agg(
            pl.len().alias("n"),
            pl.col("p").mean().alias("predicted"),
            obs.alias("observed"),
            (obs - Z95 * se).clip(0, 1).alias("low"),
            (obs + Z95 * se).clip(0, 1).alias("high"),
        )
    )
    return (
        out.with_columns(pl.col("call").map_elements(call_rank, pl.Int32).alias("_r"))
        .sort("_r", "decile")
        .drop("_r")
    )


def figure(table: pl.DataFrame) -> Figure:
    """The calibration plot of a :func:`calibration` table: observed made rate (95% interval)
    against the mean predicted P(made), one line per call, on the diagonal when calibrated."""
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="calibrated")
    for (call,), part in table.group_by("call", maintain_order=True):
        x, y = part["predicted"].to_numpy(), part["observed"].to_numpy()
        err = np.vstack([y - part["low"].to_numpy(), part["high"].to_numpy() - y])
        ax.errorbar(x, y, yerr=err, marker="o", ms=3, capsize=2, lw=1, label=str(call))
    ax.set_xlabel("predicted P(made), held-out hands (deciles)")
    ax.set_ylabel("observed made rate")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig
