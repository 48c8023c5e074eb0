"""Bid success: how often each contract is made, and what each bid level is worth.

The report's two sections on bidding, :func:`bid_success_section` and :func:`bid_guide_section`,
are at the end of the module, built from the functions above. They make the module longer than
the project's 600 lines per module: they stay beside the tables whose numbers they show, so that a
change of a table and of the report part that reads it are made in one place.

Input: the ``hands`` table of one or more runs, with the run columns ``preset``, ``family`` and
``n_seats`` (load runs with :func:`analyses._common.load_run`, or add them with
:func:`analyses._common.with_run_columns`). Every table has one row per group with ``k`` (hands
made), ``n`` (hands decided: a Bahraini forced joker lead decides nothing and is left out of ``n``,
counted in ``rows``), ``rate = k / n`` and its 95% Wilson interval ``low``..``high``.

Columns derived per hand (:func:`prepare`):

- ``bid``: the contract bought, as text: ``"5"`` .. ``"9"`` (Kout), ``"sun"`` / ``"hokum"`` (Baloot).
  Void Baloot hands (all passed twice) have no bid and are dropped.
- ``seat_rel``: the bidder's seat counted from the dealer in playing order: 1 is the dealer's right
  (the first to speak), ..., 0 the dealer (the last to speak). In Baloot 1..3, 0 are P1..P3, P4.
- ``forced``: Kout: every other seat passed, so the dealer had to bid (RULES.md 1.3, 2.3). A forced
  bid of exactly 5 in Kout Bo is the Malzoom (``malzoom``), scored 5 either way. Baloot: false.
- ``net_points``: points banked by the bidding team this hand minus those banked by the other team
  (so a failed Kout Bo 6 is -12). Null where the hand's value is not in points: a Bahraini Inzili
  (the match is won or lost at once, the counter does not move; see ``instant_value`` of
  :func:`prepare`), a Bahraini forced joker lead (the match is lost at once) and a Baloot Gahwa.
- ``strength`` and ``strength_bucket``: the hand-strength measure of the bid guide, see
  :func:`strength_expr`.

The **bid guide** (:func:`bid_guide`) reads, for each strength bucket, the bid level whose hands
scored the most net points on average. It conditions on the hands *as they were bid and played*:
each hand appears once, at the contract its auction actually ended on (the players' bidding policy
chose the level, and nobody outbid it), and its strength is measured with the trump the bidder then
named. The expectation of a bid level in a bucket is therefore "what hands of this strength earned
when this level was the one played", not the counterfactual value of bidding that level with every
hand of the bucket; levels the policy rarely chose for a bucket have few hands (see ``n`` and the
interval, and ``min_n``). Forced bids are left out of the guide by default (the dealer had no choice).
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from kout_sim.rules import Family

from ._common import (
    Frame,
    baloot_hand,
    bidder_net_points,
    forced_bid,
    hand_net_points,
    has_bidder,
    instant_hand,
    mean_table,
    pointless_hand,
    rate_table,
    relative_seat,
    require_columns,
    with_wilson,
)
from .columns import mean_cols, rate_cols, text_col
from .fmt import count, mean_text, num, pct, pct_ci, players_text, rate_text, runs_text, seat_label
from .section import ADVICE_PRIORITY, MIN_N, Column, Paragraph, Plot, ReportInput, Section, Table

KOUT_FEATURES = (
    "bidder_trump_length",
    "bidder_jokers",
    "bidder_trump_honours",
    "bidder_side_aces",
    "bidder_voids",
)
"""Hand features of the Kout bidder, each a small integer (docs/data.md)."""

BALOOT_FEATURES = ("mode", "bidder_projects", "bidder_card_points")
"""Hand features of the Baloot buyer: the mode, his best project, his card points (bucketed)."""

PROJECT_ORDER = ("none", "sira", "fifty", "hundred", "four_hundred")
"""Baloot projects from weakest to strongest; a buyer's ``best_project`` is the last he holds."""

CARD_POINTS_STEP = 10
"""Width of the Baloot buyer card-point buckets (``bidder_card_points // 10 * 10``)."""

KOUT_STRENGTH_RANGE = (4, 12)
"""Kout strength values below / above this range are pooled into its ends."""

BALOOT_STRENGTH_RANGE = (20, 80)
"""Baloot strength (card points) buckets below / above this range are pooled into its ends."""


def strength_expr() -> pl.Expr:
    """The hand-strength measure of the bid guide, per hand.

    Kout: ``bidder_trump_length + bidder_jokers + bidder_trump_honours``, i.e. one point per trump
    and per joker, and one more for each of the trump A, K, Q, J (honours count twice: as trumps and
    as top trumps). A 9-card Kout Bo hand with five trumps headed by A K and one joker scores 8.
    Baloot: ``bidder_card_points`` (the buyer's eight cards under the mode he bought).
    """
    kout = (
        pl.col("bidder_trump_length").fill_null(0)
        + pl.col("bidder_jokers").fill_null(0)
        + pl.col("bidder_trump_honours").fill_null(0)
    ).cast(pl.Int16)
    return (
        pl.when(baloot_hand())
        .then(pl.col("bidder_card_points").cast(pl.Int16))
        .otherwise(kout)
        .alias("strength")
    )


def strength_bucket_expr() -> pl.Expr:
    """``strength`` pooled into buckets: Kout values clipped to :data:`KOUT_STRENGTH_RANGE`;
    Baloot card points floored to tens, clipped to :data:`BALOOT_STRENGTH_RANGE`. The bucket is
    labelled by its value (an end bucket holds everything beyond it)."""
    klo, khi = KOUT_STRENGTH_RANGE
    blo, bhi = BALOOT_STRENGTH_RANGE
    s = pl.col("strength")
    return (
        pl.when(baloot_hand())
        .then((s // CARD_POINTS_STEP * CARD_POINTS_STEP).clip(blo, bhi))
        .otherwise(s.clip(klo, khi))
        .cast(pl.Int16)
        .alias("strength_bucket")
    )


def prepare(hands: Frame, *, instant_value: float | None = None) -> pl.LazyFrame:
    """The hands with a bid (void Baloot hands dropped), with the derived columns of this module.

    ``instant_value``: if given, a made Bahraini Inzili counts ``+instant_value`` net points and a
    failed one ``-instant_value`` (e.g. the match target, as a rough exchange rate between winning
    the match at once and points); by default its ``net_points`` are null and it stays out of the
    expected-points tables and the guide (its made rate is still reported).
    """
    lf = hands.lazy()
    require_columns(lf, ("family", "n_seats", "preset"))
    is_baloot = baloot_hand()
    if instant_value is None:
        net_value = hand_net_points()
    else:
        value = pl.when(pl.col("made")).then(instant_value).otherwise(-instant_value)
        net_value = (
            pl.when(pointless_hand())
            .then(None)
            .when(instant_hand())
            .then(value)
            .otherwise(bidder_net_points().cast(pl.Float64))
        )
    projects = pl.col("bidder_projects").fill_null([])
    best = pl.lit("none")
    for name in PROJECT_ORDER[1:]:
        best = pl.when(projects.list.contains(name)).then(pl.lit(name)).otherwise(best)
    return (
        lf.filter(has_bidder())
        .with_columns(
            pl.when(is_baloot)
            .then(pl.col("mode"))
            .otherwise(pl.col("contract").cast(pl.String))
            .alias("bid"),
            relative_seat("bidder").alias("seat_rel"),
            forced_bid().alias("forced"),
            pl.col("malzoom").fill_null(False),
            net_value.cast(pl.Float64).alias("net_points"),
            pl.when(is_baloot).then(best).otherwise(None).alias("best_project"),
            strength_expr(),
        )
        .with_columns(strength_bucket_expr())
    )


def _made() -> pl.Expr:
    return pl.col("made")


def success_by(hands: Frame, by: Sequence[str]) -> pl.DataFrame:
    """Made rate per group of ``by`` (columns of :func:`prepare`), with ``rows``, ``k``, ``n``,
    ``rate``, ``low``, ``high``."""
    return rate_table(prepare(hands), list(by), _made())


def by_contract(hands: Frame) -> pl.DataFrame:
    """Made rate per preset, bid and forced-or-not, with the share of all bid hands at that bid
    (``share`` of ``rows`` within the preset) and the mean ``net_points``."""
    lf = prepare(hands)
    rates = rate_table(lf, ["preset", "bid", "forced"], _made())
    points = (
        lf.group_by(["preset", "bid", "forced"])
        .agg(pl.col("net_points").mean().alias("mean_net_points"))
        .collect()
    )
    return (
        rates.join(points, on=["preset", "bid", "forced"], how="left")
        .with_columns(share=pl.col("rows") / pl.col("rows").sum().over("preset"))
        .sort(["preset", "bid", "forced"])
    )


def by_seat(hands: Frame) -> pl.DataFrame:
    """Made rate per preset, bid and the bidder's seat relative to the dealer (``seat_rel``)."""
    return success_by(hands, ["preset", "bid", "seat_rel"])


def by_forced(hands: Frame) -> pl.DataFrame:
    """Made rate of forced and free bids per preset and bid (Kout Bo forced 5 = Malzoom)."""
    return success_by(hands, ["preset", "bid", "forced", "malzoom"])


def _feature_values(feature: str) -> tuple[pl.Expr, pl.Expr]:
    """(label, sort order) of a feature's values."""
    if feature == "bidder_projects":
        order = pl.col("best_project").replace_strict(
            list(PROJECT_ORDER), list(range(len(PROJECT_ORDER))), default=None
        )
        return pl.col("best_project"), order.cast(pl.Int64)
    if feature == "bidder_card_points":
        bucket = pl.col(feature) // CARD_POINTS_STEP * CARD_POINTS_STEP
        label = bucket.cast(pl.String) + "-" + (bucket + CARD_POINTS_STEP - 1).cast(pl.String)
        return label, bucket.cast(pl.Int64)
    if feature == "mode":
        return pl.col("mode"), (pl.col("mode") == "hokum").cast(pl.Int64)
    return pl.col(feature).cast(pl.String), pl.col(feature).cast(pl.Int64)


def by_feature(hands: Frame, features: Sequence[str] | None = None) -> pl.DataFrame:
    """Made rate per preset, bid and value of each bidder hand feature, in long form.

    Columns ``preset``, ``bid``, ``feature``, ``value`` (text; ``order`` sorts it), and the counts
    and interval. ``features`` defaults to :data:`KOUT_FEATURES` for Kout presets and
    :data:`BALOOT_FEATURES` for Baloot (projects as the buyer's best project, card points in
    buckets of :data:`CARD_POINTS_STEP`).
    """
    lf = prepare(hands)
    parts = []
    families = lf.select(pl.col("family").unique()).collect()["family"].to_list()
    for family in families:
        sub = lf.filter(pl.col("family") == family)
        names = features or (BALOOT_FEATURES if Family(family).is_baloot else KOUT_FEATURES)
        for feature in names:
            label, order = _feature_values(feature)
            part = rate_table(
                sub.with_columns(
                    pl.lit(feature).alias("feature"),
                    label.alias("value"),
                    order.alias("order"),
                ),
                ["preset", "bid", "feature", "order", "value"],
                _made(),
            )
            parts.append(part)
    out = pl.concat(parts, how="vertical_relaxed")
    return out.select(
        "preset", "bid", "feature", "value", "order", "rows", "n", "k", "rate", "low", "high"
    ).sort(["preset", "feature", "bid", "order"], nulls_last=True)


def bid_rank(bid: str) -> int:
    """The sort rank of a bid: a Kout contract by its number, the Baloot modes all 0 (then sorted
    by name)."""
    return int(bid) if bid.isdigit() else 0


def _by_bid(frame: pl.DataFrame, *rest: str | pl.Expr) -> pl.DataFrame:
    """``frame`` sorted by preset, bid (:func:`bid_rank`, then its text) and ``rest``."""
    return frame.sort(
        "preset", pl.col("bid").map_elements(bid_rank, return_dtype=pl.Int64), "bid", *rest
    )


def contract_results(hands: Frame) -> pl.DataFrame:
    """Per preset, bid and forced-or-not: the hands ending on it (``rows``); its made rate
    (``made_n``, ``made_k``, ``made_rate``, ``made_low``, ``made_high``); its share of the
    preset's hands with a bid (``share_k`` = ``rows``, ``share_n``, ``share_rate``, ...); and the
    bidding team's net points (``points_n``, ``points_mean``, ``points_sd``, ``points_low``,
    ``points_high``; hands whose value is not in points left out). Rates with their 95% Wilson
    interval, means with their 95% normal interval; sorted by preset, bid, forced."""
    prepared = prepare(hands).collect()
    keys = ["preset", "bid", "forced"]
    made = _prefixed(rate_table(prepared, keys, _made()), "made_", _RATE)
    share = with_wilson(
        made.select(*keys, k="rows", n=pl.col("rows").sum().over("preset").cast(pl.Int64))
    )
    share = _prefixed(share, "share_", _RATE)
    points = _prefixed(mean_table(prepared, keys, "net_points"), "points_", _MEAN)
    out = made.join(share, on=keys).join(points, on=keys, how="left")
    return _by_bid(out, "forced")


_RATE = ("k", "n", "rate", "low", "high")
_MEAN = ("n", "mean", "sd", "low", "high")
_MADE = ("made_n", "made_k", "made_rate", "made_low", "made_high")
_GUIDE = (
    *("best_bid", "n", "mean", "low", "high"),
    *("made_k", "made_n", "made_rate", "made_low", "made_high", "candidates", "runner_up"),
)
"""The columns of a bid guide row from the best bid to the runner-up's call (its figures follow)."""


def _prefixed(df: pl.DataFrame, prefix: str, names: Sequence[str]) -> pl.DataFrame:
    return df.rename({n: prefix + n for n in names if n in df.columns})


def _guide_hands(hands: Frame, include_forced: bool, instant_value: float | None) -> pl.LazyFrame:
    """The hands of the expected-points tables: prepared, with a value in points, free bids unless
    ``include_forced``."""
    lf = prepare(hands, instant_value=instant_value).filter(pl.col("net_points").is_not_null())
    return lf if include_forced else lf.filter(~pl.col("forced"))


def _cells(lf: Frame, keys: list[str]) -> pl.DataFrame:
    """Per group of ``keys``: the mean net points (``n``, ``mean``, ``sd``, ``low``, ``high``) and
    the made rate of the same hands (``made_n``, ``made_k``, ``made_rate``, ``made_low``,
    ``made_high``)."""
    points = mean_table(lf, keys, "net_points")
    made = _prefixed(rate_table(lf, keys, _made()), "made_", _RATE).drop("rows")
    return points.join(made, on=keys, how="left").sort(keys)


def expected_points(
    hands: Frame, *, include_forced: bool = False, instant_value: float | None = None
) -> pl.DataFrame:
    """Mean ``net_points`` of each bid level per strength bucket (preset, strength_bucket, bid),
    with ``n``, ``sd`` and the 95% normal interval ``low``..``high`` of the mean, and the made rate
    of the same hands: ``made_rate`` with ``made_k``, ``made_n`` and its 95% Wilson interval
    ``made_low``..``made_high``. Forced bids are left out unless ``include_forced``; hands whose
    value is not in points (``net_points`` null) are left out; ``instant_value`` gives the
    Bahraini Inzili a value in points (see :func:`prepare`)."""
    lf = _guide_hands(hands, include_forced, instant_value)
    cells = _cells(lf, ["preset", "strength_bucket", "bid"])
    return cells.select(
        "preset",
        "strength_bucket",
        "bid",
        *_MEAN,
        "made_rate",
        "made_k",
        "made_n",
        "made_low",
        "made_high",
    )


def _rank(cells: pl.DataFrame, keys: list[str], min_n: int) -> pl.DataFrame:
    """Per group of ``keys``: the bid of ``cells`` with the highest mean among those with at
    least ``min_n`` hands (ties: the first bid by name), its statistics, the number of bids that
    qualified (``candidates``) and the runner-up's bid, mean, count and interval."""
    made = [c for c in _MADE if c in cells.columns]
    ranked = (
        cells.filter(pl.col("n") >= min_n)
        .sort([*keys, "mean", "bid"], descending=[*([False] * len(keys)), True, False])
        .with_columns(rank=pl.int_range(pl.len()).over(keys))
    )
    best = ranked.filter(pl.col("rank") == 0).select(
        *keys, pl.col("bid").alias("best_bid"), "mean", "low", "high", "n", *made
    )
    second = ranked.filter(pl.col("rank") == 1).select(
        *keys,
        pl.col("bid").alias("runner_up"),
        pl.col("mean").alias("runner_up_mean"),
        pl.col("n").alias("runner_up_n"),
        pl.col("low").alias("runner_up_low"),
        pl.col("high").alias("runner_up_high"),
    )
    count = ranked.group_by(keys).agg(pl.len().cast(pl.Int64).alias("candidates"))
    return best.join(count, on=keys, how="left").join(second, on=keys, how="left").sort(keys)


def bid_guide(ev: pl.DataFrame, *, min_n: int = 30) -> pl.DataFrame:
    """Per preset and strength bucket, the bid with the highest mean net points among the bids
    with at least ``min_n`` hands in :func:`expected_points` ``ev``.

    Columns: ``preset``, ``strength_bucket``, ``best_bid``, ``mean``, ``low``, ``high`` (the 95%
    interval of that mean), ``n``, ``candidates`` (bids that qualified), ``runner_up`` and
    ``runner_up_mean`` (the second best, null if there is none); then the best bid's made rate
    (``made_k``, ``made_n``, ``made_rate``, ``made_low``, ``made_high``, when ``ev`` has them) and
    the runner-up's ``runner_up_n``, ``runner_up_low``, ``runner_up_high``. Buckets with no
    qualifying bid are dropped. What the expectation conditions on: see the module docstring.
    """
    keys = ["preset", "strength_bucket"]
    made = [
        c for c in ("made_k", "made_n", "made_rate", "made_low", "made_high") if c in ev.columns
    ]
    return _rank(ev, keys, min_n).select(
        *keys,
        "best_bid",
        "mean",
        "low",
        "high",
        "n",
        "candidates",
        "runner_up",
        "runner_up_mean",
        *made,
        "runner_up_n",
        "runner_up_low",
        "runner_up_high",
    )


def strength_ranges(guide: pl.DataFrame) -> list[tuple[str, int, int]]:
    """``(preset, from_bucket, to_bucket)``: the runs of consecutive buckets of a
    :func:`bid_guide` table that share their best bid (buckets the guide dropped do not break a
    run: a range spans every bucket from its first to its last)."""
    ranges: list[tuple[str, int, int]] = []
    previous: tuple[str, str] | None = None
    for row in guide.sort("preset", "strength_bucket").iter_rows(named=True):
        here = (str(row["preset"]), str(row["best_bid"]))
        bucket = int(row["strength_bucket"])
        if here == previous:
            ranges[-1] = (ranges[-1][0], ranges[-1][1], bucket)
        else:
            ranges.append((here[0], bucket, bucket))
        previous = here
    return ranges


def guide_ranges(
    hands: Frame,
    guide: pl.DataFrame,
    *,
    min_n: int = 30,
    include_forced: bool = False,
    instant_value: float | None = None,
) -> pl.DataFrame:
    """The guidance over ranges of strength: the :func:`strength_ranges` of ``guide`` (a
    :func:`bid_guide` of the same hands and settings), every number recomputed on the pooled
    hands of the range: per preset, ``from_bucket``, ``to_bucket``, the best bid as
    :func:`bid_guide` picks it (``best_bid``, ``n``, ``mean``, ``low``, ``high``, ``made_k``,
    ``made_n``, ``made_rate``, ``made_low``, ``made_high``, ``candidates``), the runner-up
    (``runner_up``, ``runner_up_n``, ``runner_up_mean``, ``runner_up_low``, ``runner_up_high``)
    and ``separated``: the two 95% intervals do not overlap."""
    lf = (
        _guide_hands(hands, include_forced, instant_value)
        .select("preset", "strength_bucket", "bid", "net_points", "made")
        .collect()
    )
    keys = ["preset", "from_bucket", "to_bucket"]
    parts = []
    for preset, lo, hi in strength_ranges(guide):
        pooled = lf.filter(
            (pl.col("preset") == preset) & pl.col("strength_bucket").is_between(lo, hi)
        ).with_columns(from_bucket=pl.lit(lo), to_bucket=pl.lit(hi))
        parts.append(_rank(_cells(pooled, [*keys, "bid"]), keys, min_n))
    columns = [*keys, *_GUIDE, "runner_up_n", "runner_up_mean", "runner_up_low", "runner_up_high"]
    if not parts:
        text = {"preset", "best_bid", "runner_up"}
        counts = {"from_bucket", "to_bucket", "n", "made_k", "made_n", "candidates", "runner_up_n"}
        schema: dict[str, pl.DataType] = {
            c: pl.String() if c in text else pl.Int64() if c in counts else pl.Float64()
            for c in columns
        }
        return pl.DataFrame(schema={**schema, "separated": pl.Boolean()})
    out = pl.concat(parts, how="diagonal_relaxed").select(columns)
    separated = pl.col("runner_up").is_not_null() & (pl.col("low") > pl.col("runner_up_high"))
    return out.with_columns(separated=separated.fill_null(False))


def strength_label(
    lo: int,
    hi: int,
    family: str,
    baloot: tuple[int, int] = BALOOT_STRENGTH_RANGE,
    step: int = CARD_POINTS_STEP,
    unit: str = "card points",
) -> str:
    """The strength range of buckets ``lo``..``hi`` as text (end buckets pool what lies beyond).
    Baloot buckets are ``step`` points of ``unit`` wide, ``baloot`` their first and last."""
    if Family(family).is_baloot:
        blo, bhi = baloot
        top = hi + step - 1
        if lo == blo and hi == bhi:
            return f"any {unit}"
        if lo == blo:
            return f"up to {top} {unit}"
        if hi == bhi:
            return f"{lo} {unit} or more"
        return f"{lo}-{top} {unit}"
    klo, khi = KOUT_STRENGTH_RANGE
    if lo == klo and hi == khi:
        return "any strength"
    if lo == klo:
        return f"strength {hi} or less"
    if hi == khi:
        return f"strength {lo} or more"
    return f"strength {lo}" if lo == hi else f"strength {lo}-{hi}"


def _bid_order(bids: Sequence[str]) -> list[str]:
    return sorted(bids, key=lambda b: (not b.isdigit(), int(b) if b.isdigit() else 0, b))


def figure(
    contracts: pl.DataFrame,
    ev: pl.DataFrame,
    guide: pl.DataFrame,
    *,
    preset: str | None = None,
    min_n: int = 30,
) -> Figure:
    """Two panels for one preset (default: the first in ``contracts``): the made rate of each bid,
    free and forced, with 95% intervals; and the expected net points of each bid level per strength
    bucket (cells with at least ``min_n`` hands), with the guide's choice circled."""
    preset = preset or str(contracts["preset"].sort()[0])
    c = contracts.filter(pl.col("preset") == preset)
    e = ev.filter(pl.col("preset") == preset, pl.col("n") >= min_n)
    g = guide.filter(pl.col("preset") == preset)
    fig, (ax, ax_ev) = plt.subplots(1, 2, figsize=(12, 4.5))

    bids = _bid_order(c["bid"].unique().to_list())
    for j, forced in enumerate((False, True)):
        part = c.filter(pl.col("forced") == forced)
        if part.is_empty():
            continue
        x = np.array([bids.index(b) for b in part["bid"]]) + (0.12 if forced else -0.12) * (
            part.height > 0
        )
        rate = part["rate"].fill_null(0).to_numpy()
        yerr = np.vstack([rate - part["low"].to_numpy(), part["high"].to_numpy() - rate])
        ax.errorbar(
            x, rate, yerr=yerr, fmt="os"[j], capsize=4, label="forced" if forced else "free"
        )
        for xi, yi, n in zip(x, rate, part["n"]):
            ax.annotate(f"{n:,}", (xi, yi), textcoords="offset points", xytext=(6, -3), fontsize=7)
    ax.set_xticks(range(len(bids)), bids)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("bid")
    ax.set_ylabel("made rate (95% Wilson interval)")
    ax.set_title(f"{preset}: bid success (n beside each point)")
    ax.legend()
    ax.grid(axis="y", alpha=0.3)

    for bid in _bid_order(e["bid"].unique().to_list()):
        part = e.filter(pl.col("bid") == bid).sort("strength_bucket")
        x = part["strength_bucket"].to_numpy()
        m = part["mean"].to_numpy()
        sd = part["sd"].fill_null(0).to_numpy()
        half = 1.96 * sd / np.sqrt(np.maximum(part["n"].to_numpy(), 1))
        ax_ev.errorbar(x, m, yerr=half, marker="o", capsize=3, label=f"bid {bid}", alpha=0.8)
    if not g.is_empty():
        ax_ev.scatter(
            g["strength_bucket"].to_numpy(),
            g["mean"].to_numpy(),
            s=180,
            facecolors="none",
            edgecolors="black",
            linewidths=1.5,
            label="guide: best bid",
            zorder=5,
        )
    ax_ev.axhline(0, color="grey", linewidth=0.8)
    ax_ev.set_xlabel("strength bucket (end buckets pooled)")
    ax_ev.set_ylabel("mean net points of the bidding team")
    ax_ev.set_title(f"expected points per bid and strength (cells with n >= {min_n})")
    ax_ev.legend(fontsize="small")
    ax_ev.grid(alpha=0.3)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------------- report sections


def _bid_label(bid: str, forced: bool, family: str) -> str:
    if not forced:
        return bid
    if Family(family).is_kuwaiti and bid == "5":
        return "5 forced (Malzoom)"
    return f"{bid} forced"


def bid_success_section(inp: ReportInput) -> Section | None:
    """The report section "Bid success": made rate by contract (free and forced/Malzoom), by seat
    from the dealer and by the bidder's hand features, with the bidding team's mean net points per
    contract (:func:`contract_results`, :func:`by_seat`, :func:`by_feature`, :func:`figure`)."""
    source = inp.bid_hands()
    if source is None:
        return None
    hands, runs = source
    contracts = contract_results(hands).drop("preset")
    if contracts.is_empty():
        return None
    total = int(contracts["rows"].sum())
    contracts = contracts.with_columns(
        label=pl.struct("bid", "forced").map_elements(
            lambda s: _bid_label(s["bid"], s["forced"], inp.family), return_dtype=pl.String
        )
    )
    kind = "mode" if inp.family.is_baloot else "contract"
    sec = Section("bid_success", "Bid success")
    sec.blocks.append(
        Paragraph(
            f"{total:,} hands with a {'buyer' if inp.family.is_baloot else 'bidder'} from "
            f"{runs_text(runs)}. A hand is made when the bidding team reached its contract; "
            "'net points' are the points the bidding team banked in the hand minus those of the "
            "other team"
            + (
                " (a Bahraini Inzili, which wins or loses the match at once, and a forced joker "
                "lead have no value in points and are left out of the means)"
                if inp.family.is_bahraini
                else (" (a Gahwa hand is left out of the means)" if inp.family.is_baloot else "")
            )
            + ". A forced bid is the dealer's after every other seat passed."
        )
    )
    sec.blocks.append(
        Table(
            "by_contract",
            f"Made rate and net points by {kind}. 'share': hands ending on this {kind} out of "
            "all hands with a bid.",
            contracts,
            [
                text_col("label", kind),
                *rate_cols("share", "share_"),
                *rate_cols("made", "made_"),
                *mean_cols("net points", "points_"),
            ],
        )
    )
    free = [r for r in contracts.iter_rows(named=True) if not r["forced"] and r["made_n"] >= MIN_N]
    if free:
        if inp.family.is_baloot:
            parts = [f"{r['label'].capitalize()} {rate_text(r, 'made_')}" for r in free]
            sec.findings.append("Buyers make " + "; ".join(parts) + ".")
        else:
            parts = [f"bid {r['label']} {rate_text(r, 'made_')}" for r in free]
            sec.findings.append("Free bids are made: " + "; ".join(parts) + ".")
    forced_rows = [r for r in contracts.iter_rows(named=True) if r["forced"]]
    if forced_rows:
        r = max(forced_rows, key=lambda x: x["share_k"])
        if r["made_n"] >= MIN_N:
            name = (
                "The Malzoom (the dealer's forced 5)"
                if inp.family.is_kuwaiti and r["bid"] == "5"
                else f"The dealer's forced bid of {r['bid']}"
            )
            sec.findings.append(
                f"{name} ends {pct(r['share_rate'])} of auctions "
                f"(95% CI {pct_ci(r['share_low'], r['share_high'])}, n={count(r['share_n'])}) and "
                f"is made {rate_text(r, 'made_')}, for {mean_text(r, 'points_')} net points."
            )
    seat_table = by_seat(hands).with_columns(
        seat=pl.col("seat_rel").map_elements(
            lambda s: seat_label(int(s), inp.n_seats), return_dtype=pl.String
        )
    )
    seat_table = seat_table.sort(
        pl.col("bid").map_elements(bid_rank, return_dtype=pl.Int64),
        "bid",
        (pl.col("seat_rel") == 0),
        "seat_rel",
    )
    sec.blocks.append(
        Table(
            "by_seat",
            "Made rate by bid and the bidder's seat counted from the dealer in playing order "
            "(1 speaks first, 0 is the dealer).",
            seat_table,
            [text_col("bid", kind), text_col("seat", "seat"), *rate_cols("made")],
        )
    )
    features = by_feature(hands).filter(pl.col("rows") > 0)
    for feature in features["feature"].unique(maintain_order=True).to_list():
        part = features.filter(pl.col("feature") == feature)
        part = part.sort(
            pl.col("bid").map_elements(bid_rank, return_dtype=pl.Int64),
            "bid",
            "order",
        )
        sec.blocks.append(
            Table(
                f"feature_{feature}",
                f"Made rate by bid and the bidder's {feature.removeprefix('bidder_')}"
                + (" (buyer's best project)" if feature == "bidder_projects" else "")
                + ".",
                part,
                [text_col("bid", kind), text_col("value", "value"), *rate_cols("made")],
            )
        )
    ev = expected_points(hands)
    guide = bid_guide(ev, min_n=MIN_N)
    sec.blocks.append(
        Plot(
            "bid_success",
            "Left: made rate of each bid, free and forced, with 95% Wilson intervals (n beside each "
            "point). Right: mean net points of each bid per strength bucket (cells with at least "
            f"{MIN_N} hands), the guide's choice circled.",
            figure(contracts_for_figure(contracts, inp.preset), ev, guide, min_n=MIN_N),
        )
    )
    return sec


def contracts_for_figure(contracts: pl.DataFrame, preset: str) -> pl.DataFrame:
    """The :func:`contract_results` of one preset (without its ``preset`` column) in the shape
    :func:`figure` reads."""
    return contracts.select(
        pl.lit(preset).alias("preset"),
        "bid",
        "forced",
        pl.col("made_n").alias("n"),
        pl.col("made_rate").alias("rate"),
        pl.col("made_low").alias("low"),
        pl.col("made_high").alias("high"),
    )


# -------------------------------------------------------------------------------- bid guide


RUNNER_UP = Column(
    "next best net points (95% CI), n",
    lambda r: (
        ""
        if r["runner_up"] is None
        else f"{num(r['runner_up_mean'], 2, True)} ({num(r['runner_up_low'])}.."
        f"{num(r['runner_up_high'])}), n={count(r['runner_up_n'])}"
    ),
)


def _guide_cols(strength: Column) -> list[Column]:
    """The columns of a guide table (:func:`bid_guide`, :func:`guide_ranges`): the ``strength``
    column, the best bid with its net points and made rate, and the next best bid."""
    return [
        strength,
        text_col("best_bid", "best bid"),
        *mean_cols("net points"),
        *rate_cols("made", "made_"),
        text_col("runner_up", "next best"),
        RUNNER_UP,
    ]


def bid_guide_section(inp: ReportInput) -> Section | None:
    """The report section "Bid guide": expected net points of each bid per strength bucket
    (:func:`expected_points`), the best bid per bucket (:func:`bid_guide`), and the guidance over
    ranges of buckets sharing their best bid, recomputed on the pooled range
    (:func:`guide_ranges`)."""
    source = inp.bid_hands()
    if source is None:
        return None
    hands, runs = source
    ev = expected_points(hands)
    if ev.is_empty():
        return None
    guide = bid_guide(ev, min_n=MIN_N)
    if guide.is_empty():
        return None
    cells = ev.select("strength_bucket", "bid", "n", "mean", "sd", "low", "high", *_MADE)
    ranges = guide_ranges(hands, guide, min_n=MIN_N)
    range_rows = [
        {
            "from_bucket": r["from_bucket"],
            "to_bucket": r["to_bucket"],
            "strength": strength_label(r["from_bucket"], r["to_bucket"], inp.family),
            **{k: v for k, v in r.items() if k not in ("preset", "from_bucket", "to_bucket")},
        }
        for r in ranges.iter_rows(named=True)
    ]
    guide = guide.select(
        "strength_bucket",
        *_GUIDE,
        "runner_up_mean",
        "runner_up_low",
        "runner_up_high",
        "runner_up_n",
    )
    sec = Section("bid_guide", "Bid guide: expected points per hand strength")
    strength_def = (
        "the buyer's card points under the mode bought (buckets of 10; the end buckets pool "
        f"everything below {BALOOT_STRENGTH_RANGE[0] + CARD_POINTS_STEP} and from "
        f"{BALOOT_STRENGTH_RANGE[1]} up)"
        if inp.family.is_baloot
        else "one point per trump and per joker in the bidder's hand, plus one more for each of "
        "the trump A, K, Q, J held (measured with the trump the bidder named); values from "
        f"{KOUT_STRENGTH_RANGE[0]} down and from {KOUT_STRENGTH_RANGE[1]} up are pooled"
    )
    sec.blocks.append(
        Paragraph(
            f"Strength is {strength_def}. For every strength bucket and bid, the table gives the "
            "mean net points of the bidding team over the free (not forced) hands that ended on "
            f"that bid, and the made rate of the same hands. The guide picks, among bids with at "
            f"least {MIN_N} hands, the one with the highest mean. What it conditions on: each hand "
            "appears once, at the contract its auction ended on, as the simulated players bid and "
            "played it; it is what hands of this strength earned when this bid was the one played, "
            "not the value of bidding it with every such hand. Bids the players rarely chose have "
            "few hands and wide intervals."
            + (
                " Inzili hands (worth the match, not points) are left out."
                if inp.family.is_bahraini
                else ""
            )
            + (
                " Card points are counted under the mode bought (in Hokum the trump J and 9 count "
                "20 and 14), so a Sun hand and a Hokum hand of the same count are not equally "
                "strong: compare the two modes within a bucket with that in mind."
                if inp.family.is_baloot
                else ""
            )
        )
    )
    if range_rows:
        sec.findings.append(
            "The bid guide below reads what free bids earned as the simulated players bid and "
            "played them (each hand at the contract its auction ended on), not what bidding that "
            "level with every hand of the strength would earn; a rarely chosen bid's edge may come "
            "from hands the strength measure does not see."
        )
    verb = "buy" if inp.family.is_baloot else "bid"
    for r in range_rows:
        if r["runner_up"] is None:
            compare = f"the only {verb} with at least {MIN_N} such hands"
        elif r["separated"]:
            compare = (
                f"clearly ahead of the next best, {r['runner_up']} "
                f"({num(r['runner_up_mean'], 2, True)})"
            )
        else:
            compare = (
                f"not clearly ahead of {r['runner_up']} ({num(r['runner_up_mean'], 2, True)}): "
                "the intervals overlap"
            )
        sec.advise(
            f"With a hand of {r['strength']}, {verb} {r['best_bid']}: made "
            f"{pct(r['made_rate'])} of the time (n={count(r['made_n'])}), "
            f"{num(r['mean'], 2, True)} points per hand ({num(r['low'])}..{num(r['high'])}); "
            f"{compare}.",
            players_text(runs, inp.family),
            priority=ADVICE_PRIORITY["bid_guide"],
        )
    ranges_frame = pl.DataFrame(range_rows) if range_rows else pl.DataFrame()
    if range_rows:
        sec.blocks.append(
            Table(
                "guide_ranges",
                "The guidance: consecutive strength buckets with the same best bid pooled, and "
                "every number recomputed on the pooled hands.",
                ranges_frame,
                _guide_cols(text_col("strength", "hand")),
            )
        )
    sec.blocks.append(
        Table(
            "guide",
            "Best bid per strength bucket.",
            guide,
            _guide_cols(text_col("strength_bucket", "strength bucket")),
        )
    )
    sec.blocks.append(
        Table(
            "expected_points",
            "Every strength bucket and bid (cells below the minimum count are shown but not used "
            "by the guide).",
            cells,
            [
                text_col("strength_bucket", "strength bucket"),
                text_col("bid", "bid"),
                *mean_cols("net points"),
                *rate_cols("made", "made_"),
            ],
        )
    )
    return sec
