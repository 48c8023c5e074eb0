"""What each call is worth on the same hands: the paired bid forks of ``kout-sim forks --kind bid``.

The data are bid forks (:func:`kout_sim.sim.bid_fork.bid_forks`): at the first free bid decision of
each hand (or at every one), the deal was played on once per legal call, the rest of the auction,
the trump and the play by the line-up, every branch with the same random numbers after the fork.
One fork is one decision (``hand``, ``ply``); each of its rows is one branch (``call``). What is held
fixed between the branches of a fork: the deal (every hand), the seat and its cards, the calls before
the decision, the players, and the random numbers of everything after it; what differs is the call.

Measures, for the seat's team (the team of the seat that calls):

- ``net``: points banked by the seat's team minus the other team's this hand;
- ``made``: the seat's team bought the contract and made it (a pass is "made" when the partner
  bought and made it; a branch in which the other team bought is not made);
- ``bought``: the seat's team won the auction.

Intervals are 95% normal intervals with standard errors clustered by hand (with ``at="every"`` a
hand holds several forks, which are not independent). A paired difference between two calls is
taken over the forks where both were legal. Its *unpaired* interval is the one two independent
samples of as many forks per call would give (the two means' clustered variances added, no
covariance): the ratio of the widths is what the pairing buys (:func:`pairing_gain`).

:func:`best_calls` reads, per group of hand features (the strength bucket by default), the call
with the highest mean and compares it with every other call by its paired difference, with Holm's
step-down correction over every comparison of the table (every group), so that "the best call is
separated from all others" holds for the guide as a whole at the 5% level. The best call is picked
from the same data, so a best call that is not separated is no more than a tie.

Size: over 600 lines on purpose: the paired statistics and the report section built from them stay
together, as in :mod:`analyses.bid_success`, so that the section shows exactly what the functions
above compute.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import polars as pl

from kout_sim import cards as C
from kout_sim.engine.layout import BALOOT_CALL_NAMES
from kout_sim.rules import Family

from . import bid_success
from ._common import (
    Z95,
    Frame,
    baloot_hand,
    clustered_means,
    collect,
    family_of_preset,
    instant_hand,
)
from .columns import text_col
from .fmt import count, num, pct, pct_ci, players_text
from .section import ADVICE_PRIORITY, MIN_N, Column, Paragraph, ReportInput, Section, Table

MEASURES = ("net", "made", "bought")
KOUT_STRENGTH_RANGE = bid_success.KOUT_STRENGTH_RANGE
"""Strength values below / above this range are pooled into its ends (as the bid guide's)."""

BALOOT_SUN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
"""Card points of a rank in Sun (and off trump), RULES.md 3.1; the other ranks count 0."""

BALOOT_STRENGTH_STEP = 5
"""Width of the Baloot strength buckets (Sun card points of the cards held at the decision)."""

BALOOT_STRENGTH_RANGE = (5, 40)
"""Baloot strength buckets below / above this range are pooled into its ends."""


def strength_range(family: str) -> tuple[int, int]:
    """The first and last strength bucket of ``family`` (the end buckets pool what lies beyond)."""
    return BALOOT_STRENGTH_RANGE if Family(family).is_baloot else KOUT_STRENGTH_RANGE


def sun_points_expr(column: str = "seat_cards") -> pl.Expr:
    """The Sun card points (RULES.md 3.1: A 11, 10 10, K 4, Q 3, J 2) of the card mask ``column``."""
    total = pl.lit(0, pl.Int64)
    for suit in range(C.N_SUITS):
        for rank, points in BALOOT_SUN_POINTS.items():
            bit = C.card_id(suit, C.RANKS.index(rank))
            total = total + (pl.col(column) // (1 << bit)) % 2 * points
    return total


def with_strength(forks: Frame) -> pl.LazyFrame:
    """The bid fork rows with ``family``, the hand's ``strength`` and its ``strength_bucket``.

    Kout: the table's ``strength`` (the long suit's cards, one more for each of its A K Q J, and
    the jokers, counted before any trump is named), clipped to :data:`KOUT_STRENGTH_RANGE`.
    Baloot: the Sun card points of the cards the seat holds at the decision (the five dealt before
    the buying, RULES.md 3.2), floored to :data:`BALOOT_STRENGTH_STEP` and clipped to
    :data:`BALOOT_STRENGTH_RANGE`: a count that names no mode, as the buying decision is taken
    before the mode is.
    """
    klo, khi = KOUT_STRENGTH_RANGE
    blo, bhi = BALOOT_STRENGTH_RANGE
    lf = forks.lazy().with_columns(family=family_of_preset())
    baloot = baloot_hand()
    lf = lf.with_columns(
        strength=pl.when(baloot)
        .then(sun_points_expr())
        .otherwise(pl.col("strength"))
        .cast(pl.Int16)
    )
    step = BALOOT_STRENGTH_STEP
    return lf.with_columns(
        strength_bucket=pl.when(baloot)
        .then((pl.col("strength") // step * step).clip(blo, bhi))
        .otherwise(pl.col("strength").clip(klo, khi))
        .cast(pl.Int16)
    )


_ORDER = ["pass", *(str(b) for b in range(1, 16)), *BALOOT_CALL_NAMES[1:]]


def call_rank(call: str) -> int:
    """Sort key of a call name: pass, the bids by level, then the Baloot calls in their order."""
    return _ORDER.index(call) if call in _ORDER else len(_ORDER)


def prepare(forks: Frame) -> pl.LazyFrame:
    """The bid fork rows with the measures as floats (``net``, ``made``, ``bought``), the fork key
    ``fork`` (hand and ply), ``family``, ``strength`` and ``strength_bucket``
    (:func:`with_strength`). ``net`` is null where the branch's hand has no value in points,
    as in the bid analyses (:func:`analyses._common.hand_net_points`): a Bahraini Inzili (RULES.md
    2.10, the match is won or lost at once and the counter does not move) and a forced joker lead
    (2.8, the match is lost at once)."""
    lf = with_strength(forks)
    pointless = instant_hand() | pl.col("forced_joker").fill_null(False)
    return lf.with_columns(
        net=pl.when(pointless).then(None).otherwise(pl.col("net").cast(pl.Float64)),
        made=(pl.col("bids") & pl.col("made").fill_null(False)).cast(pl.Float64),
        bought=pl.col("bids").cast(pl.Float64),
        fork=pl.struct("hand", "ply"),
    )


def _check_measure(measure: str) -> None:
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}; one of {', '.join(MEASURES)}")


def _clustered(lf: pl.LazyFrame, group: list[str], value: str, name: str) -> pl.LazyFrame:
    """Per group: ``n``, ``hands``, ``<name>`` (the mean of ``value``) and ``se_<name>``, the
    standard error clustered by hand (:func:`analyses._common.clustered_means`)."""
    return clustered_means(lf, group, {"v": value}).rename({"mean_v": name, "se_v": f"se_{name}"})


def _sorted_calls(df: pl.DataFrame, keys: Sequence[str], column: str = "call") -> pl.DataFrame:
    return (
        df.with_columns(pl.col(column).map_elements(call_rank, pl.Int32).alias("_rank"))
        .sort([*keys, "_rank"])
        .drop("_rank")
    )


def call_values(forks: Frame, by: Sequence[str] = ()) -> pl.DataFrame:
    """Per group of ``by`` and call: ``n`` (forks where the call was legal), ``hands``, ``mean``
    net points with ``se``, ``low``, ``high`` over the ``net_n`` branches with a value in points
    (:func:`prepare`); the made rate ``made_rate`` (the seat's team bought
    and made the contract) with ``made_low``, ``made_high``; ``bought_rate``; ``chosen`` (forks in
    which the seat's policy made this call itself) and ``chosen_mean`` (the mean net points of
    those branches: the observational reading of the same hands)."""
    keys = [*by, "call"]
    lf = prepare(forks)
    counts = lf.group_by(keys).agg(
        pl.len().alias("n"),
        pl.col("hand").n_unique().alias("hands"),
        pl.col("bought").mean().alias("bought_rate"),
        pl.col("is_chosen").sum().cast(pl.Int64).alias("chosen"),
        pl.col("net").filter(pl.col("is_chosen")).mean().alias("chosen_mean"),
    )
    valued = lf.filter(pl.col("net").is_not_null())
    net = (
        _clustered(valued, keys, "net", "mean")
        .rename({"se_mean": "se", "n": "net_n"})
        .drop("hands")
    )
    made = _clustered(lf, keys, "made", "made_rate").drop("n", "hands")
    out = (
        counts.join(made, on=keys)
        .join(net, on=keys, how="left")
        .with_columns(
            pl.col("net_n").fill_null(0),
            low=pl.col("mean") - Z95 * pl.col("se"),
            high=pl.col("mean") + Z95 * pl.col("se"),
            made_low=(pl.col("made_rate") - Z95 * pl.col("se_made_rate")).clip(0.0, 1.0),
            made_high=(pl.col("made_rate") + Z95 * pl.col("se_made_rate")).clip(0.0, 1.0),
        )
        .collect()
    )
    return _sorted_calls(out, list(by))


def _wide(forks: Frame, by: Sequence[str], measure: str) -> tuple[pl.DataFrame, list[str]]:
    """One row per fork (the ``by`` columns, ``hand``, ``fork``), one column per call holding the
    branch's ``measure`` (null where the call was not legal), and the calls in order."""
    _check_measure(measure)
    lf = prepare(forks).select(*by, "hand", "fork", "call", measure)
    df = collect(lf)
    calls = sorted(df["call"].unique().to_list(), key=call_rank)
    wide = df.pivot(on="call", index=[*by, "hand", "fork"], values=measure)
    return wide, calls


def _pair_stats(wide: pl.DataFrame, by: list[str], a: str, b: str) -> pl.DataFrame:
    """Per group: the paired difference ``a - b`` over the forks where both calls were legal."""
    lf = (
        wide.lazy()
        .filter(pl.col(a).is_not_null() & pl.col(b).is_not_null())
        .with_columns(_a=pl.col(a), _b=pl.col(b), _d=pl.col(a) - pl.col(b), _all=pl.lit(0))
    )
    group = by or ["_all"]
    diff = _clustered(lf, group, "_d", "diff").rename({"se_diff": "se"})
    mean_a = _clustered(lf, group, "_a", "mean_a").drop("n", "hands")
    mean_b = _clustered(lf, group, "_b", "mean_b").drop("n", "hands")
    out = (
        diff.join(mean_a, on=group)
        .join(mean_b, on=group)
        .with_columns(
            call=pl.lit(a),
            other=pl.lit(b),
            se_unpaired=(pl.col("se_mean_a") ** 2 + pl.col("se_mean_b") ** 2).sqrt(),
        )
        .collect()
    )
    return out.drop([] if by else ["_all"])


def paired_differences(forks: Frame, by: Sequence[str] = (), measure: str = "net") -> pl.DataFrame:
    """Every pair of calls (``call`` before ``other`` in call order) per group of ``by``: ``n``
    (forks where both were legal), ``hands``, ``diff`` (mean of ``call`` minus ``other``) with its
    clustered ``se``, ``low``, ``high``; the branch means ``mean_a``, ``mean_b``; the unpaired
    ``se_unpaired``, ``unpaired_low``, ``unpaired_high`` and ``ratio`` (unpaired over paired
    interval width; null when every pair agreed)."""
    keys = list(by)
    wide, calls = _wide(forks, keys, measure)
    parts = [_pair_stats(wide, keys, a, b) for a, b in combinations(calls, 2)]
    parts = [p for p in parts if not p.is_empty()]
    if not parts:
        return pl.DataFrame()
    out = pl.concat(parts, how="diagonal_relaxed").with_columns(
        low=pl.col("diff") - Z95 * pl.col("se"),
        high=pl.col("diff") + Z95 * pl.col("se"),
        unpaired_low=pl.col("diff") - Z95 * pl.col("se_unpaired"),
        unpaired_high=pl.col("diff") + Z95 * pl.col("se_unpaired"),
        ratio=pl.when(pl.col("se") > 0).then(pl.col("se_unpaired") / pl.col("se")),
    )
    return out.sort(keys) if keys else out


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (same order as ``p_values``): the i-th smallest of m is
    multiplied by ``m - i`` (i from 0), made non-decreasing in that order, capped at 1."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def two_sided_p(diff: float, se: float) -> float:
    """The two-sided normal p-value of ``diff`` with standard error ``se`` (0 or 1 when ``se`` is
    0: a difference every pair agrees on)."""
    if se <= 0:
        return 0.0 if diff != 0 else 1.0
    return math.erfc(abs(diff) / se / math.sqrt(2.0))


def best_calls(
    forks: Frame,
    by: Sequence[str] = ("strength_bucket",),
    measure: str = "net",
    *,
    min_n: int = 30,
    alpha: float = 0.05,
) -> pl.DataFrame:
    """Per group of ``by``: the call with the highest mean ``measure`` among the calls legal in at
    least ``min_n`` forks (for ``net``: with a value in points in at least ``min_n``) (``best_call``, ``mean``, ``low``, ``high``, ``n``, its made rate), the
    runner-up (``runner_up``, ``runner_up_mean``), the paired difference best minus runner-up
    (``diff``, ``diff_low``, ``diff_high``, on the forks where both were legal) with its unpaired
    interval (``unpaired_low``, ``unpaired_high``), ``candidates`` (calls compared) and
    ``p_holm``: the largest Holm-adjusted p-value of the best call against each other call
    (adjusted over every comparison of the table); ``separated`` when it is below ``alpha``."""
    keys = list(by)
    values = call_values(forks, keys)
    value_col = {"net": "mean", "made": "made_rate", "bought": "bought_rate"}[measure]
    pairs = paired_differences(forks, keys, measure)
    rows: list[dict[str, Any]] = []
    tests: list[tuple[int, float]] = []
    enough = pl.col("net_n" if measure == "net" else "n") >= min_n
    for group, cells in values.filter(enough).group_by(keys, maintain_order=True):
        ranked = cells.sort([value_col, "call"], descending=[True, False])
        best = ranked.row(0, named=True)
        others = ranked["call"].to_list()[1:]
        row = {
            **{k: v for k, v in zip(keys, group)},
            "best_call": best["call"],
            "value": best[value_col],
            "mean": best["mean"],
            "low": best["low"],
            "high": best["high"],
            "n": best["net_n" if measure == "net" else "n"],
            "made_rate": best["made_rate"],
            "made_low": best["made_low"],
            "made_high": best["made_high"],
            "candidates": len(ranked),
            "runner_up": others[0] if others else None,
            "runner_up_mean": ranked.row(1, named=True)[value_col] if others else None,
        }
        match = pl.lit(True)
        for k, v in zip(keys, group):
            match = match & (pl.col(k) == v)
        here = pairs.filter(match) if keys else pairs
        for j, other in enumerate(others):
            a, b = sorted((best["call"], other), key=call_rank)
            cell = here.filter((pl.col("call") == a) & (pl.col("other") == b))
            if cell.is_empty():
                continue
            c = cell.row(0, named=True)
            sign = 1.0 if a == best["call"] else -1.0
            tests.append((len(rows), two_sided_p(c["diff"], c["se"])))
            if j == 0:
                d = sign * c["diff"]
                row.update(
                    diff=d,
                    diff_low=d - Z95 * c["se"],
                    diff_high=d + Z95 * c["se"],
                    unpaired_low=d - Z95 * c["se_unpaired"],
                    unpaired_high=d + Z95 * c["se_unpaired"],
                    pair_n=c["n"],
                )
        rows.append(row)
    if not rows:
        return pl.DataFrame()
    adjusted = holm([p for _, p in tests])
    worst: list[float | None] = [None] * len(rows)  # None: no comparison (a single candidate)
    for (i, _), p in zip(tests, adjusted):
        previous = worst[i]
        worst[i] = p if previous is None else max(previous, p)
    for row, top in zip(rows, worst):
        row["p_holm"] = top if row["runner_up"] is not None else None
        row["separated"] = bool(top is not None and row["runner_up"] is not None and top < alpha)
    return pl.DataFrame(rows, infer_schema_length=None).sort(keys) if keys else pl.DataFrame(rows)


def pairing_gain(forks: Frame, by: Sequence[str] = (), measure: str = "net") -> pl.DataFrame:
    """How much the pairing narrows the intervals of the differences between calls, on the same
    forks: over every pair of calls (per group of ``by``), ``pairs`` compared and the ratio of the
    unpaired to the paired interval width (``median_ratio``, ``min_ratio``, ``max_ratio``); the
    variance reduction is its square. Pairs every fork agreed on (no paired variance) are left
    out."""
    diffs = paired_differences(forks, by, measure)
    if diffs.is_empty():
        return pl.DataFrame()
    ratios = diffs.filter(pl.col("ratio").is_not_null())
    agg = [
        pl.len().alias("pairs"),
        pl.col("ratio").median().alias("median_ratio"),
        pl.col("ratio").min().alias("min_ratio"),
        pl.col("ratio").max().alias("max_ratio"),
    ]
    if by:
        return ratios.group_by(list(by)).agg(agg).sort(list(by))
    return ratios.select(agg)


# ---------------------------------------------------------------------------------- the report

BID_FORKS_KIND = "bid_forks"
"""The ``kind`` of a ``kout-sim forks --kind bid`` folder's ``run.json``."""


def _bucket_label(lo: int, hi: int, family: str = "kout_bo") -> str:
    """The strength range of buckets ``lo``..``hi`` (:func:`with_strength`) as text."""
    return bid_success.strength_label(
        lo, hi, family, BALOOT_STRENGTH_RANGE, BALOOT_STRENGTH_STEP, "Sun card points"
    )


def guide_ranges(forks: Frame, *, min_n: int = 30) -> pl.DataFrame:
    """:func:`best_calls` on ranges of consecutive strength buckets that share their best call
    (per bucket first), every number recomputed on the pooled forks of the range (and Holm's
    correction over the comparisons of the ranges). Columns of :func:`best_calls` with ``strength``
    (the range as text), ``from_bucket`` and ``to_bucket``."""
    per_bucket = best_calls(forks, ["strength_bucket"], min_n=min_n)
    if per_bucket.is_empty():
        return per_bucket
    spans: list[tuple[int, int, str]] = []
    for row in per_bucket.sort("strength_bucket").iter_rows(named=True):
        bucket = int(row["strength_bucket"])
        if spans and spans[-1][2] == row["best_call"]:
            spans[-1] = (spans[-1][0], bucket, spans[-1][2])
        else:
            spans.append((bucket, bucket, str(row["best_call"])))
    families = collect(with_strength(forks).select(pl.col("family").unique()))["family"]
    family = str(families[0]) if len(families) == 1 else "kout_bo"
    klo, khi = strength_range(family)
    edges = [
        (klo if i == 0 else lo, khi if i == len(spans) - 1 else hi)
        for i, (lo, hi, _) in enumerate(spans)
    ]
    expr = pl.lit(None, pl.Int16)
    for lo, hi in reversed(edges):
        expr = (
            pl.when(pl.col("strength_bucket").is_between(lo, hi))
            .then(pl.lit(lo, pl.Int16))
            .otherwise(expr)
        )
    lf = (
        with_strength(forks)
        .with_columns(from_bucket=expr)
        .filter(pl.col("from_bucket").is_not_null())
        .drop("family")
    )
    ranged = best_calls(lf, ["from_bucket"], min_n=min_n)
    upper = {lo: hi for lo, hi in edges}
    return ranged.with_columns(
        to_bucket=pl.col("from_bucket").replace_strict(upper, return_dtype=pl.Int16),
        strength=pl.col("from_bucket").map_elements(
            lambda lo: _bucket_label(int(lo), upper[int(lo)], family), pl.String
        ),
    )


def _made_cols(label: str) -> list[Column]:
    return [
        Column(
            f"{label} (95% CI)",
            lambda r: f"{pct(r['made_rate'])} ({pct_ci(r['made_low'], r['made_high'])})",
        )
    ]


def _value_cols(label: str, n: str = "n") -> list[Column]:
    return [
        Column(f"{label}: n", lambda r: count(r[n])),
        Column(
            f"{label} (95% CI)",
            lambda r: f"{num(r['mean'], 2, True)} ({num(r['low'])}..{num(r['high'])})",
        ),
    ]


def _versus(row: dict[str, Any]) -> str:
    if row.get("runner_up") is None:
        return "(the only call with enough hands)"
    return (
        f"{num(row['diff'], 2, True)} ({num(row['diff_low'])}..{num(row['diff_high'])}) "
        f"vs {row['runner_up']}; Holm p {num(row['p_holm'], 3)}"
    )


VERSUS = Column("best minus next best, same hands (95% CI)", _versus)


def bid_guide_section(inp: ReportInput) -> Section | None:
    """The report's bid guide: the paired one of :func:`paired_guide_section` when a bid fork
    run of the report's Kout preset is given, else the observational guide of
    :func:`analyses.bid_success.bid_guide_section`."""
    paired = paired_guide_section(inp)
    return paired if paired is not None else bid_success.bid_guide_section(inp)


def paired_guide_section(inp: ReportInput) -> Section | None:
    """The section "Bid guide" built on the bid forks of ``kout-sim forks --kind bid`` runs of the
    report's preset (Kout: pass and every bid level; Baloot: pass and every buying call): each
    call's value on the same hands (:func:`call_values`),
    the best call per strength range with Holm's correction (:func:`guide_ranges`,
    :func:`best_calls`) and the pairing gain (:func:`pairing_gain`)."""
    runs = [r for r in inp.other_runs if r.kind == BID_FORKS_KIND and r.preset == inp.preset]
    if not runs:
        return None
    forks = pl.concat([r.tables["bid_forks"].collect() for r in runs], how="diagonal_relaxed")
    first = forks.filter(pl.col("decision") == 0)
    if first.is_empty():
        return None
    ranges = guide_ranges(first, min_n=MIN_N)
    buckets = best_calls(first, ["strength_bucket"], min_n=MIN_N)
    overall = call_values(first)
    cells = call_values(first, ["strength_bucket"])
    gain = pairing_gain(first)
    players = players_text(runs[:1], inp.family)
    n_hands = first["hand"].n_unique()
    sec = Section("bid_guide", "Bid guide: every call tried on the same hands")
    baloot = inp.family.is_baloot
    lo, hi = strength_range(inp.family)
    strength_text = (
        "Strength is the Sun card points of the five cards the seat holds when it calls (A 11, "
        "10 10, K 4, Q 3, J 2; RULES.md 3.1 and 3.2), a count that names no mode, as the call is "
        f"made before the mode is; buckets of {BALOOT_STRENGTH_STEP} points, values below {lo} "
        f"and from {hi} up pooled."
        if baloot
        else "Strength is the hand's strongest suit (one point per card and one more for each of "
        "its A, K, Q, J) plus one per joker, counted before any trump is named; values from "
        f"{lo} down and from {hi} up are pooled."
    )
    sec.blocks.append(
        Paragraph(
            f"At the first free bid decision of each of {n_hands:,} hands (players {players}), "
            "the same deal was played on once per legal call: "
            + ("pass and every buying call. " if baloot else "pass and every bid level. ")
            + "What was held fixed between the calls: the same deal, the same seat with the same "
            "cards, the same calls before it, the same players after the fork (they finish the "
            + (
                "auction and play the hand"
                if baloot
                else "auction, name the trump for the contract it ends on and play the hand"
            )
            + ") and the same random numbers in every branch. Only the call differs, so the "
            f"difference between two calls is measured on the very same hands. {strength_text} "
            "Net points are the calling seat's team's points minus the other team's this hand; "
            "made means the seat's team bought the contract and made it."
            + (
                " A hand that decides the match at once has no value in points and is left out of "
                "the points (not of the made rates): an Inzili, made or failed (RULES.md 2.10), "
                "and a forced joker lead (2.8)."
                if inp.family.is_bahraini
                else ""
            )
            + " The best call is compared with every other call on the same "
            "hands, and Holm's correction is applied over all those comparisons: a best call "
            "that is not separated after it is no better than a tie."
        )
    )
    verb = {True: "separated from every other call", False: "not separated from"}
    for r in ranges.iter_rows(named=True):
        tail = (
            verb[True]
            if r["separated"]
            else f"{verb[False]} {r['runner_up']} after the correction (a tie)"
        )
        verb_call = "buy" if baloot else "bid"
        call = "pass" if r["best_call"] == "pass" else f"{verb_call} {r['best_call']}"
        made = (
            f"the partner bought and made a contract in {pct(r['made_rate'])} of them"
            if r["best_call"] == "pass"
            else f"made {pct(r['made_rate'])} of the time"
        )
        sec.advise(
            f"With a hand of {r['strength']}, {call}: {num(r['mean'], 2, True)} points per hand "
            f"({num(r['low'])}..{num(r['high'])}), {made}, over "
            f"{count(r['n'])} hands; on the same hands it beats the next best call "
            f"({r['runner_up']}) by {num(r['diff'], 2, True)} ({num(r['diff_low'])}.."
            f"{num(r['diff_high'])}), {tail}."
            if r["runner_up"] is not None
            else f"With a hand of {r['strength']}, {call} (the only call with enough hands).",
            players,
            priority=ADVICE_PRIORITY["bid_guide"],
        )
    if not gain.is_empty():
        g = gain.row(0, named=True)
        sec.data["pairing_gain"] = g
        pairing = (
            "Pairing: on these forks the 95% interval of the difference between two calls is "
            f"{num(g['median_ratio'], 2)} times narrower (median over {g['pairs']} pairs of "
            f"calls; {num(g['min_ratio'], 2)} to {num(g['max_ratio'], 2)}) than the interval "
            "two independent samples of as many hands per call would give."
        )
        sec.blocks.append(Paragraph(pairing))
        sec.findings.append(pairing)
    shown = (
        ranges.select(
            "strength",
            "best_call",
            "n",
            "mean",
            "low",
            "high",
            "made_rate",
            "made_low",
            "made_high",
            "runner_up",
            "diff",
            "diff_low",
            "diff_high",
            "p_holm",
            "separated",
        )
        if not ranges.is_empty()
        else ranges
    )
    if not ranges.is_empty():
        sec.blocks.append(
            Table(
                "guide_ranges",
                "The guidance: consecutive strength buckets with the same best call pooled, every "
                "number recomputed on the pooled hands.",
                shown,
                [
                    text_col("strength", "hand"),
                    text_col("best_call", "best call"),
                    *_value_cols("net points"),
                    *_made_cols("made"),
                    VERSUS,
                ],
            )
        )
    sec.blocks.append(
        Table(
            "guide",
            "Best call per strength bucket (paired, Holm-corrected over the buckets).",
            buckets,
            [
                text_col("strength_bucket", "strength bucket"),
                text_col("best_call", "best call"),
                *_value_cols("net points"),
                *_made_cols("made"),
                VERSUS,
            ],
        )
    )
    sec.blocks.append(
        Table(
            "call_values",
            "Every call on every hand: net points and made rate, with the player's own choice "
            "(how many hands it made this call, and what those hands alone earned).",
            overall,
            [
                text_col("call", "call"),
                *_value_cols("net points", "net_n"),
                *_made_cols("made"),
                Column("own call: hands", lambda r: count(r["chosen"])),
                Column("own call: net points", lambda r: num(r["chosen_mean"], 2, True)),
            ],
        )
    )
    sec.blocks.append(
        Table(
            "expected_points",
            "Every strength bucket and call.",
            cells,
            [
                text_col("strength_bucket", "strength bucket"),
                text_col("call", "call"),
                *_value_cols("net points", "net_n"),
                *_made_cols("made"),
            ],
        )
    )
    return sec
