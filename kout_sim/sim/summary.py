"""Summaries of runs: the counts of bids (Baloot: modes) and match endings that ``simulate``
records in ``run.json`` as it plays, added up over shards, and their text (:func:`summarize`)."""

from __future__ import annotations

import os
from typing import Any

import polars as pl
import pyarrow as pa

from ..io.read import load
from ..io.store import Store
from ..rules import Family, get_rules
from ..stats import wilson

Summary = dict[str, dict[str, list[int]]]
"""Additive counts behind :func:`summarize`: per table, a key (joined group values) -> counts."""

SUMMARY_TABLES = {"kout": "bids", "baloot": "buys"}
"""The table of bid counts in a summary, per family kind. Runs written before the summary showed
the bidding team's net points hold ``contracts`` / ``modes`` instead: they are counted again."""


def summary_counts(
    hands: pl.DataFrame | pl.LazyFrame,
    matches: pl.DataFrame | pl.LazyFrame | None,
    family: str,
    n_seats: int,
) -> Summary:
    """The counts :func:`summarize` prints, from the hands (and matches) of a run or of one shard.
    Counts of shards add up to the counts of the run (:func:`merge_summaries`).

    Per bid (Kout: forced or free, Malzoom, contract; Baloot: mode): hands, made (Baloot: failed),
    the hands with a made/failed result, kaboots (Baloot), and the count, sum and sum of squares of
    the bidding team's net points (``kout_sim.io.columns.hand_net_points``, the report's
    ``net_points``: null for an Inzili, a forced joker lead or a Gahwa), from which the mean and its
    interval follow."""
    from ..io.columns import forced_bid, hand_net_points

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


def summarize(run: str | os.PathLike[str]) -> str:
    """A short text summary of a run: bid success by contract (Baloot: modes) with the bidding
    team's net points, and match lengths and endings. Read from the counts the run recorded in
    ``run.json`` as it played, or (a run resumed, played on a Dask cluster or written by an older
    version) computed from its tables."""
    meta = Store(run).read_json("run.json")
    family = Family(meta.get("family") or get_rules(meta["preset"]).family)
    counts: Summary | None = meta.get("summary")
    if counts is None or SUMMARY_TABLES[family.kind] not in counts:
        tables = load(run)
        n_seats = get_rules(meta["preset"], meta.get("options")).n_players
        counts = summary_counts(tables["hands"], tables.get("matches"), family, n_seats)
    return format_summary({**meta, "family": family}, counts, str(run))


def _mean_ci(n: int, total: int, squares: int) -> tuple[float, float, float] | None:
    """Mean and normal 95% interval of values given by their count, sum and sum of squares (the
    formula of ``analyses._common.mean_columns``)."""
    if n < 1:
        return None
    mean = total / n
    if n < 2:
        return mean, float("nan"), float("nan")
    variance = max(0.0, (squares - total * total / n) / (n - 1))
    half = 1.96 * (variance / n) ** 0.5
    return mean, mean - half, mean + half


def _points_text(n: int, total: int, squares: int) -> str:
    ci = _mean_ci(n, total, squares)
    if ci is None:
        return f"{'-':>8} {'':>15}"
    mean, low, high = ci
    interval = "" if low != low else f"{low:+.2f}..{high:+.2f}"
    return f"{mean:>+8.2f} {interval:>15}"


def _rate_text(k: int, n: int) -> str:
    if n < 1:
        return f"{'-':>7} {'':>13}"
    low, high = wilson(k, n)
    return f"{k / n:>7.1%} {f'{low:.1%}-{high:.1%}':>13}"


def format_summary(meta: dict[str, Any], counts: Summary, run: str) -> str:
    """The text of :func:`summarize` from the run's settings and counts."""
    family = Family(meta.get("family") or get_rules(meta["preset"]).family)
    groups = counts.get(SUMMARY_TABLES[family.kind], {})
    total = sum(c[0] for c in groups.values())
    lines = [
        f"run {run}: preset {meta['preset']}, seed {meta['seed']}, {total:,} hands "
        f"in {meta['seconds']} s",
        f"players {' | '.join(dict.fromkeys(meta['players']))}",
        "",
    ]
    points_header = f"{'net pts':>8} {'95% CI':>15}"
    if family.is_baloot:
        lines += [
            "modes bought (buyer fails, kaboot: rates with 95% Wilson intervals; net pts: the "
            "buyer team's points minus the other team's, a hand)",
            f"{'mode':>8} {'hands':>10} {'share':>7} {'buyer fails':>12} {'95% CI':>13} "
            f"{'kaboot':>7} {points_header}",
        ]
        for mode in sorted(groups):
            n, fails, fails_n, kaboot, net_n, net_sum, net_sq = groups[mode]
            lines.append(
                f"{mode:>8} {n:>10,} {n / total:>7.1%} {_rate_text(fails, fails_n):>26} "
                f"{kaboot / n:>7.1%} {_points_text(net_n, net_sum, net_sq)}"
            )
    else:
        rows = []
        for key, c in groups.items():
            forced, malzoom, contract = key.split(":")
            if forced == "1":
                label = f"{contract} Malzoom" if malzoom == "1" else f"{contract} forced"
            else:
                label = contract
            rows.append((forced == "1", int(contract), label, c))  # free bids first
        lines += [
            "bid success by contract, and the bidding team's net points a hand (its points minus "
            "the other team's), with 95% intervals",
            f"{'contract':>10} {'hands':>10} {'share':>7} {'made':>7} {'95% CI':>13} "
            f"{points_header}",
        ]
        shown_forced = False
        for is_forced, _, label, c in sorted(rows):
            if is_forced and not shown_forced:
                lines.append(
                    "forced: the dealer's bid after every other seat passed (RULES.md 1.3, 2.3)"
                )
                shown_forced = True
            n, made, made_n, net_n, net_sum, net_sq = c
            lines.append(
                f"{label:>10} {n:>10,} {n / total:>7.1%} {_rate_text(made, made_n)} "
                f"{_points_text(net_n, net_sum, net_sq)}"
            )
        if family.is_bahraini:
            lines.append(
                "an Inzili (8) wins or loses the match at once and a forced joker lead loses it: "
                "no net points (RULES.md 2.8, 2.10)"
            )
    if "n_hands" in counts:
        lengths = sorted((int(k), c[0]) for k, c in counts["n_hands"].items())
        n_matches = sum(c for _, c in lengths)
        mean = sum(k * c for k, c in lengths) / n_matches
        lines += [
            "",
            f"{n_matches:,} matches, mean {mean:.2f} hands per match "
            f"(median {_median(lengths, n_matches):.0f}, max {lengths[-1][0]})",
            "match endings: "
            + ", ".join(
                f"{reason} {c[0] / n_matches:.1%}"
                for reason, c in sorted(counts["reasons"].items())
            ),
        ]
    return "\n".join(lines)


def _median(histogram: list[tuple[int, int]], n: int) -> float:
    """The median of the values of a sorted (value, count) histogram of ``n`` values."""

    def nth(i: int) -> int:
        seen = 0
        for value, c in histogram:
            seen += c
            if i < seen:
                return value
        return histogram[-1][0]

    return (nth((n - 1) // 2) + nth(n // 2)) / 2


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


def _shard_counts(tables: dict[str, pa.Table], family: str, n_seats: int) -> Summary:
    """The summary counts of one shard's tables (see :func:`summary_counts`)."""
    hands = tables["hands"]
    hands = hands.select([c for c in SUMMARY_COLUMNS if c in hands.column_names])
    matches = tables.get("matches")
    frame = pl.from_arrow(matches.select(["n_hands", "reason"])) if matches is not None else None
    return summary_counts(pl.from_arrow(hands), frame, family, n_seats)  # type: ignore[arg-type]
