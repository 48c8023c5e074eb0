"""The players against the cards: the line-up's contracts and results beside the double-dummy
values of the same hands (runs made with ``--solve``, docs/solver.md).

Input: the ``hands`` table of one or more runs with the run columns (:func:`analyses._common.
load_run`) and the ``dd_*`` columns. Every comparison is paired, hand by hand: the same deal, the
same contract, once as the run's players played it and once solved with all hands known and perfect
play by both sides. What differs is the play alone, so a gap between the two is what the players
(of the run: say which when quoting it) leave on the table, not a difference between hands.

Rates come with ``k``, ``n`` and a 95% Wilson interval; paired differences with a 95% normal
interval over the per-hand differences.
"""

from __future__ import annotations

import polars as pl

from ._common import Z95, Frame, has_bidder, mean_columns, require_columns, with_wilson

DD_COLUMNS = ("dd_made",)


def _solved(hands: Frame) -> pl.LazyFrame:
    lf = hands.lazy()
    require_columns(lf, ("preset", *DD_COLUMNS))
    return lf.filter(has_bidder() & pl.col("dd_made").is_not_null() & pl.col("made").is_not_null())


def play_vs_cards(hands: Frame, by: tuple[str, ...] = ("preset", "contract")) -> pl.DataFrame:
    """Per group: how often the players made the contract and how often it was makeable.

    Columns: ``n`` solved hands (forced joker ends and void hands left out); ``made_rate`` and
    ``dd_rate`` with their Wilson intervals; ``diff`` = made rate - makeable rate with its paired
    95% interval (``diff_low``, ``diff_high``); and the four cells of the paired table: ``both``,
    ``made_only`` (made although perfect defence beats it: the defence let it through),
    ``dd_only`` (makeable but lost: the bidding team's play), ``neither``.
    """
    lf = _solved(hands).with_columns(
        pl.col("made").cast(pl.Int8).alias("_m"), pl.col("dd_made").cast(pl.Int8).alias("_d")
    )
    diff = (pl.col("_m") - pl.col("_d")).cast(pl.Float64)
    _, mean, _, low, high = mean_columns(diff)
    out = (
        lf.group_by(list(by))
        .agg(
            pl.len().cast(pl.Int64).alias("n"),
            pl.col("_m").sum().cast(pl.Int64).alias("made"),
            pl.col("_d").sum().cast(pl.Int64).alias("makeable"),
            ((pl.col("_m") == 1) & (pl.col("_d") == 1)).sum().cast(pl.Int64).alias("both"),
            ((pl.col("_m") == 1) & (pl.col("_d") == 0)).sum().cast(pl.Int64).alias("made_only"),
            ((pl.col("_m") == 0) & (pl.col("_d") == 1)).sum().cast(pl.Int64).alias("dd_only"),
            ((pl.col("_m") == 0) & (pl.col("_d") == 0)).sum().cast(pl.Int64).alias("neither"),
            mean.alias("diff"),
            low.alias("diff_low"),
            high.alias("diff_high"),
        )
        .collect()
    )
    made = with_wilson(out, k="made", n="n").select(
        pl.col("rate").alias("made_rate"),
        pl.col("low").alias("made_low"),
        pl.col("high").alias("made_high"),
    )
    dd = with_wilson(out, k="makeable", n="n").select(
        pl.col("rate").alias("dd_rate"),
        pl.col("low").alias("dd_low"),
        pl.col("high").alias("dd_high"),
    )
    return pl.concat([out, made, dd], how="horizontal").sort(list(by))


def bidding_vs_par(hands: Frame, by: tuple[str, ...] = ("preset", "contract")) -> pl.DataFrame:
    """Kout: the contract the players bid against the highest the bidder's seat could make double
    dummy over the trumps (``dd_par_contract``): shares of hands bid ``under`` par, ``at`` par and
    ``over`` it (par below the contract), each with a Wilson interval, and the mean of par - contract
    with its 95% interval (``gap``). Over par is not always a mistake: the auction does not show the
    cards."""
    lf = hands.lazy()
    require_columns(lf, ("preset", "dd_par_contract"))
    lf = lf.filter(has_bidder() & pl.col("dd_par_contract").is_not_null())
    gap = (pl.col("dd_par_contract").cast(pl.Int16) - pl.col("contract").cast(pl.Int16)).cast(
        pl.Float64
    )
    _, mean, _, low, high = mean_columns(gap)
    out = (
        lf.group_by(list(by))
        .agg(
            pl.len().cast(pl.Int64).alias("n"),
            (gap > 0).sum().cast(pl.Int64).alias("under"),
            (gap == 0).sum().cast(pl.Int64).alias("at"),
            (gap < 0).sum().cast(pl.Int64).alias("over"),
            mean.alias("gap"),
            low.alias("gap_low"),
            high.alias("gap_high"),
        )
        .collect()
    )
    parts = [out]
    for name in ("under", "at", "over"):
        parts.append(
            with_wilson(out, k=name, n="n").select(
                pl.col("rate").alias(f"{name}_rate"),
                pl.col("low").alias(f"{name}_low"),
                pl.col("high").alias(f"{name}_high"),
            )
        )
    return pl.concat(parts, how="horizontal").sort(list(by))


__all__ = ["Z95", "bidding_vs_par", "play_vs_cards"]
