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
    """Aggregations ``n``, ``mean``, ``sd``, ``low``, ``high`` of ``value`` (normal interval)."""
    v = (pl.col(value) if isinstance(value, str) else value).cast(pl.Float64)
    n = v.count()
    sd = v.std(ddof=1)
    half = z * sd / n.cast(pl.Float64).sqrt()
    return [
        n.cast(pl.Int64).alias("n"),
        v.mean().alias("mean"),
        sd.alias("sd"),
        (v.mean() - half).alias("low"),
        (v.mean() + half).alias("high"),
    ]


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
