"""Helpers shared by the analyses: intervals as polars columns, run loading, seat arithmetic.

Every rate in ``analyses`` is reported with its count ``k``, its base ``n`` and a 95% Wilson score
interval (``low``, ``high``), computed here as polars expressions with the same formula as
:func:`kout_sim.stats.wilson`. Every mean is reported with its count, standard deviation and a normal
95% interval (``mean +- 1.96 sd / sqrt(n)``).

The analyses take the tables of :func:`kout_sim.load` (LazyFrames) or collected DataFrames. The
tables do not carry the preset, so :func:`load_run` adds it (and the seat count and game family) as
columns, read from the run's ``run.json``; a frame without them can be given them with
:func:`with_run_columns`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import polars as pl

from kout_sim.io.columns import baloot_hand as baloot_hand
from kout_sim.io.columns import bidder_net_points as bidder_net_points
from kout_sim.io.columns import family_of_preset as family_of_preset
from kout_sim.io.columns import forced_bid as forced_bid
from kout_sim.io.columns import hand_net_points as hand_net_points
from kout_sim.io.columns import has_bidder as has_bidder
from kout_sim.io.columns import instant_hand as instant_hand
from kout_sim.io.columns import pointless_hand as pointless_hand
from kout_sim.io.columns import team_points as team_points
from kout_sim.io.read import load_run as load_run
from kout_sim.io.read import run_columns as run_columns
from kout_sim.io.read import run_settings as run_settings
from kout_sim.io.read import with_run_columns as with_run_columns

Z95 = 1.96

Frame = pl.DataFrame | pl.LazyFrame
"""A run table, lazy or collected."""

Tables = Mapping[str, Frame]
"""The tables of one run, as returned by :func:`kout_sim.load` (``hands``, ``matches``, ...)."""


def collect(frame: Frame) -> pl.DataFrame:
    """A DataFrame, collecting a LazyFrame."""
    return frame.collect() if isinstance(frame, pl.LazyFrame) else frame


def wilson_columns(k: str | pl.Expr = "k", n: str | pl.Expr = "n", z: float = Z95) -> list[pl.Expr]:
    """Expressions ``rate``, ``low``, ``high``: the share ``k / n`` and its Wilson score interval.

    Same formula as :func:`kout_sim.stats.wilson`; for ``n == 0`` the rate is null and the interval
    is ``(0, 1)``.
    """
    kk = (pl.col(k) if isinstance(k, str) else k).cast(pl.Float64)
    nn = (pl.col(n) if isinstance(n, str) else n).cast(pl.Float64)
    p = kk / nn
    z2 = z * z
    centre = (p + z2 / (2 * nn)) / (1 + z2 / nn)
    half = z * (p * (1 - p) / nn + z2 / (4 * nn * nn)).sqrt() / (1 + z2 / nn)
    empty = nn <= 0
    # at k = 0 or k = n the bounds equal the rate up to rounding: keep the rate inside them
    low = pl.min_horizontal(centre - half, p).clip(lower_bound=0.0)
    high = pl.max_horizontal(centre + half, p).clip(upper_bound=1.0)
    return [
        pl.when(empty).then(None).otherwise(p).alias("rate"),
        pl.when(empty).then(0.0).otherwise(low).alias("low"),
        pl.when(empty).then(1.0).otherwise(high).alias("high"),
    ]


def with_wilson(df: pl.DataFrame, k: str = "k", n: str = "n", z: float = Z95) -> pl.DataFrame:
    """``df`` with ``rate``, ``low``, ``high`` added from its count columns ``k`` and ``n``."""
    return df.with_columns(wilson_columns(k, n, z))


def rate_table(
    frame: Frame, by: list[str], success: pl.Expr, *, sort: bool = True, z: float = Z95
) -> pl.DataFrame:
    """Per group of ``by``: ``n`` rows where ``success`` is not null, ``k`` where it is true,
    ``rows`` all rows, and the Wilson columns."""
    out = (
        frame.lazy()
        .group_by(by)
        .agg(
            pl.len().alias("rows"),
            success.count().cast(pl.Int64).alias("n"),
            success.fill_null(False).sum().cast(pl.Int64).alias("k"),
        )
        .collect()
    )
    out = with_wilson(out, z=z)
    return out.sort(by) if sort and by else out


def mean_columns(value: str | pl.Expr, z: float = Z95) -> list[pl.Expr]:
    """Aggregations ``n``, ``mean``, ``sd``, ``low``, ``high`` of ``value`` (normal interval).

    The standard deviation comes from the sums of the values and of their squares: for an
    integer-valued ``value`` (every caller's: points, hands, tricks, differences of flags) those
    sums are exact in floating point, so the figures are the same floats whatever order polars
    adds the rows in (its own ``std`` of a group moves in the last digits from run to run).
    """
    v = (pl.col(value) if isinstance(value, str) else value).cast(pl.Float64)
    n = v.count().cast(pl.Float64)
    s1 = v.sum()
    var = ((v * v).sum() - s1 * s1 / n) / (n - 1.0)
    sd = pl.when(n > 1).then(var.clip(lower_bound=0.0).sqrt())
    half = z * sd / n.sqrt()
    return [
        v.count().cast(pl.Int64).alias("n"),
        v.mean().alias("mean"),
        sd.alias("sd"),
        (v.mean() - half).alias("low"),
        (v.mean() + half).alias("high"),
    ]


def cluster_products(
    lf: pl.LazyFrame,
    group: list[str],
    parts: Mapping[str, pl.Expr],
    pairs: Iterable[tuple[str, str]],
    cluster: str = "hand",
) -> pl.LazyFrame:
    """Per group of ``group``: for each pair ``(a, b)`` of ``pairs``, the sum over the clusters of
    the product of the cluster's sums of ``parts[a]`` and ``parts[b]``, as column ``_q_a_b``.

    With integer-valued parts (values, counts, flags) every one of these sums is an integer, exact
    in floating point in any order: the result is the same float however polars splits and orders
    the rows (it adds floats in an order that varies between runs). :func:`square_sum` turns them
    into the sum over clusters of a squared weighted sum, the heart of a clustered variance."""
    per_cluster = lf.group_by([*group, cluster]).agg(
        **{f"_x_{k}": e.cast(pl.Float64).sum() for k, e in parts.items()}
    )
    return per_cluster.group_by(group).agg(
        **{f"_q_{a}_{b}": (pl.col(f"_x_{a}") * pl.col(f"_x_{b}")).sum() for a, b in pairs}
    )


def pairs_of(names: Iterable[str]) -> list[tuple[str, str]]:
    """Every pair ``(a, b)`` of ``names`` with ``a`` not after ``b``: what :func:`square_sum` of
    weights on those names reads."""
    names = list(names)
    return [(a, b) for i, a in enumerate(names) for b in names[i:]]


def square_sum(weights: Mapping[str, pl.Expr]) -> pl.Expr:
    """The sum over clusters of ``(sum over k of weights[k] * X_k)²``, ``X_k`` the cluster's sum of
    part ``k``, from the columns of :func:`cluster_products` with ``pairs_of(weights)``; the
    weights are per-group expressions (means, counts)."""
    names = list(weights)
    terms = [
        (1.0 if a == b else 2.0) * weights[a] * weights[b] * pl.col(f"_q_{a}_{b}")
        for a, b in pairs_of(names)
    ]
    return pl.sum_horizontal(terms)


def clustered_means(
    lf: pl.LazyFrame, group: list[str], values: Mapping[str, str], cluster: str = "hand"
) -> pl.LazyFrame:
    """Per group: ``n`` (rows), ``hands`` (distinct clusters) and, for every ``name: column`` of
    ``values`` (integer-valued), ``mean_<name>`` and its standard error ``se_<name>`` clustered by
    ``cluster``: the square root of the sum over clusters of the squared summed residuals, over
    ``n``. The same floats whatever the order of the rows (:func:`cluster_products`)."""
    means = lf.group_by(group).agg(
        pl.len().alias("n"),
        pl.col(cluster).n_unique().alias("hands"),
        *(pl.col(c).mean().alias(f"mean_{name}") for name, c in values.items()),
    )
    parts: dict[str, pl.Expr] = {}
    pairs: list[tuple[str, str]] = []
    for name, c in values.items():
        parts[f"s{name}"] = pl.col(c)  # the cluster's sum of the values
        parts[f"c{name}"] = pl.col(c).is_not_null()  # and how many it holds
        pairs += pairs_of([f"s{name}", f"c{name}"])
    squares = cluster_products(lf, group, parts, pairs, cluster)
    # a cluster's summed residual is sum - count * mean
    se = [
        (
            square_sum({f"s{name}": pl.lit(1.0), f"c{name}": -pl.col(f"mean_{name}")})
            .clip(lower_bound=0.0)
            .sqrt()
            / pl.col("n")
        ).alias(f"se_{name}")
        for name in values
    ]
    return (
        means.join(squares, on=group)
        .with_columns(se)
        .select(
            *group,
            "n",
            "hands",
            *(f"mean_{name}" for name in values),
            *(f"se_{name}" for name in values),
        )
    )


def mean_table(frame: Frame, by: list[str], value: str | pl.Expr, z: float = Z95) -> pl.DataFrame:
    """Per group of ``by``: the mean of ``value`` with its count, sd and 95% normal interval."""
    out = frame.lazy().group_by(by).agg(mean_columns(value, z)).collect()
    return out.sort(by) if by else out


# ------------------------------------------------------------------------------------ run loading


# run_settings, run_columns, with_run_columns, load_run: kout_sim.io.read (the one reader)


def concat_tables(runs: Iterable[Tables], name: str) -> pl.LazyFrame:
    """Table ``name`` of several runs stacked (columns as in the first run; missing ones null)."""
    frames = [run[name].lazy() for run in runs if name in run]
    if not frames:
        raise ValueError(f"no run has a {name!r} table")
    return pl.concat(frames, how="diagonal_relaxed")


def require_columns(frame: pl.LazyFrame, names: Iterable[str]) -> None:
    """Raise ``ValueError`` naming the columns of ``names`` that ``frame`` lacks."""
    missing = [c for c in names if c not in frame.collect_schema().names()]
    if missing:
        raise ValueError(
            f"missing columns {missing}: load runs with analyses._common.load_run "
            "or add them with with_run_columns"
        )


def relative_seat(seat: str, dealer: str = "dealer", n_seats: str = "n_seats") -> pl.Expr:
    """Seat counted from the dealer in playing order: 1 = the dealer's right (first to speak),
    ..., 0 = the dealer (last to speak)."""
    n = pl.col(n_seats).cast(pl.Int16)
    return ((pl.col(seat).cast(pl.Int16) - pl.col(dealer).cast(pl.Int16) + n) % n).cast(pl.Int8)
