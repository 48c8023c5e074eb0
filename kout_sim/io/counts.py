"""The ``summary`` of ``run.json``: the counts of bids (Baloot: modes) and match endings that
``simulate`` records as it plays, one shard at a time, added up over the shards.

The text of a summary is :func:`analyses.summary.summarize` (the analysis layer); the counts are
part of the run folder's metadata, so they are defined here, beside the table schema."""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from ..rules import Family
from .columns import forced_bid, hand_net_points

Summary = dict[str, dict[str, list[int]]]
"""Additive counts behind a run's summary: per table, a key (joined group values) -> counts."""

SUMMARY_TABLES = {"kout": "bids", "baloot": "buys"}
"""The table of bid counts in a summary, per family kind. Runs written before the summary showed
the bidding team's net points hold ``contracts`` / ``modes`` instead: they are counted again."""


def summary_counts(
    hands: pl.DataFrame | pl.LazyFrame,
    matches: pl.DataFrame | pl.LazyFrame | None,
    family: str,
    n_seats: int,
) -> Summary:
    """The counts a run's summary prints, from the hands (and matches) of a run or of one shard.
    Counts of shards add up to the counts of the run (:func:`merge_summaries`).

    Per bid (Kout: forced or free, Malzoom, contract; Baloot: mode): hands, made (Baloot: failed),
    the hands with a made/failed result, kaboots (Baloot), and the count, sum and sum of squares of
    the bidding team's net points (``kout_sim.io.columns.hand_net_points``, the report's
    ``net_points``: null for an Inzili, a forced joker lead or a Gahwa), from which the mean and its
    interval follow."""
    net = hand_net_points(family).cast(pl.Int64)
    points = [
        net.count().cast(pl.Int64).alias("net_n"),
        net.sum().cast(pl.Int64).alias("net_sum"),
        (net * net).sum().cast(pl.Int64).alias("net_sq"),
    ]
    lazy = hands.lazy()
    out: Summary = {}
    if Family(family).is_baloot:
        by = (
            lazy.with_columns(
                # RULES.md 3.2.7: a Kawesh hand is void; it is counted apart from the passed-out ones
                pl.when(pl.col("calls").str.contains("kawesh"))
                .then(pl.lit("kawesh"))
                .otherwise(pl.col("mode").fill_null("void"))
                .alias("mode")
            )
            .group_by("mode")
            .agg(
                pl.len().alias("n"),
                (pl.col("made") == False).sum().cast(pl.Int64).alias("fails"),  # noqa: E712
                pl.col("made").count().cast(pl.Int64).alias("fails_n"),
                pl.col("kaboot_team").is_not_null().sum().cast(pl.Int64).alias("kaboot"),
                *points,
            )
            .collect()
        )
        out["buys"] = {row[0]: [int(v) for v in row[1:]] for row in by.iter_rows()}
    else:
        by = (
            lazy.with_columns(forced_bid(n_seats, family).alias("forced"))
            .group_by("forced", "malzoom", "contract")
            .agg(
                pl.len().alias("n"),
                pl.col("made").sum().cast(pl.Int64).alias("made_k"),
                pl.col("made").count().cast(pl.Int64).alias("made_n"),
                *points,
            )
            .collect()
        )
        out["bids"] = {
            f"{int(row[0])}:{int(row[1])}:{row[2]}": [int(v) for v in row[3:]]
            for row in by.iter_rows()
        }
    if matches is not None:
        m = matches.lazy()
        lengths = m.group_by("n_hands").len().collect()
        reasons = m.group_by("reason").len().collect()
        out["n_hands"] = {str(k): [int(v)] for k, v in lengths.iter_rows()}
        out["reasons"] = {str(k): [int(v)] for k, v in reasons.iter_rows()}
    return out


def merge_into(total: Summary, part: Summary) -> None:
    """Add the counts of ``part`` to ``total``."""
    for table, groups in part.items():
        into = total.setdefault(table, {})
        for key, counts in groups.items():
            into[key] = [a + b for a, b in zip(into.get(key, [0] * len(counts)), counts)]


def merge_summaries(parts: list[Summary]) -> Summary:
    """The counts of several shards added up."""
    total: Summary = {}
    for part in parts:
        merge_into(total, part)
    return total


SUMMARY_COLUMNS = (
    "bidder",
    "dealer",
    "calls",  # forced bids; Baloot: a Kawesh hand (RULES.md 3.2.7) is counted apart from the void ones
    "malzoom",
    "contract",
    "made",
    "points_team0",
    "points_team1",
    "mode",
    "kaboot_team",
    "gahwa",
    "forced_joker",
)


def shard_counts(tables: dict[str, pa.Table], family: str, n_seats: int) -> Summary:
    """The summary counts of one shard's tables (see :func:`summary_counts`)."""
    hands = tables["hands"]
    hands = hands.select([c for c in SUMMARY_COLUMNS if c in hands.column_names])
    matches = tables.get("matches")
    frame = pl.from_arrow(matches.select(["n_hands", "reason"])) if matches is not None else None
    return summary_counts(pl.from_arrow(hands), frame, family, n_seats)  # type: ignore[arg-type]
