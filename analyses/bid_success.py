"""Bid success: how often each contract is made, and what each bid level is worth.

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

from ._common import (
    Frame,
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
)

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
        pl.when(pl.col("family") == "baloot")
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
        pl.when(pl.col("family") == "baloot")
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
    is_baloot = pl.col("family") == "baloot"
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
        names = features or (BALOOT_FEATURES if family == "baloot" else KOUT_FEATURES)
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


def expected_points(
    hands: Frame, *, include_forced: bool = False, instant_value: float | None = None
) -> pl.DataFrame:
    """Mean ``net_points`` of each bid level per strength bucket (preset, strength_bucket, bid),
    with ``n``, ``sd`` and the 95% normal interval ``low``..``high`` of the mean, and the made rate
    ``made_rate`` of the same hands. Forced bids are left out unless ``include_forced``; hands
    whose value is not in points (``net_points`` null) are left out; ``instant_value`` gives the
    Bahraini Inzili a value in points (see :func:`prepare`)."""
    lf = prepare(hands, instant_value=instant_value).filter(pl.col("net_points").is_not_null())
    if not include_forced:
        lf = lf.filter(~pl.col("forced"))
    keys = ["preset", "strength_bucket", "bid"]
    ev = mean_table(lf, keys, "net_points")
    made = lf.group_by(keys).agg(pl.col("made").mean().alias("made_rate")).collect()
    return ev.join(made, on=keys, how="left").sort(keys)


def bid_guide(ev: pl.DataFrame, *, min_n: int = 30) -> pl.DataFrame:
    """Per preset and strength bucket, the bid with the highest mean net points among the bids
    with at least ``min_n`` hands in :func:`expected_points` ``ev``.

    Columns: ``preset``, ``strength_bucket``, ``best_bid``, ``mean``, ``low``, ``high`` (the 95%
    interval of that mean), ``n``, ``candidates`` (bids that qualified), ``runner_up`` and
    ``runner_up_mean`` (the second best, null if there is none). Buckets with no qualifying bid are
    dropped. What the expectation conditions on: see the module docstring.
    """
    keys = ["preset", "strength_bucket"]
    ranked = (
        ev.filter(pl.col("n") >= min_n)
        .sort([*keys, "mean", "bid"], descending=[False, False, True, False])
        .with_columns(rank=pl.int_range(pl.len()).over(keys))
    )
    best = ranked.filter(pl.col("rank") == 0).select(
        *keys,
        pl.col("bid").alias("best_bid"),
        "mean",
        "low",
        "high",
        "n",
    )
    second = ranked.filter(pl.col("rank") == 1).select(
        *keys, pl.col("bid").alias("runner_up"), pl.col("mean").alias("runner_up_mean")
    )
    count = ranked.group_by(keys).agg(pl.len().cast(pl.Int64).alias("candidates"))
    return (
        best.join(count, on=keys, how="left")
        .join(second, on=keys, how="left")
        .sort(keys)
        .select(
            *keys,
            "best_bid",
            "mean",
            "low",
            "high",
            "n",
            "candidates",
            "runner_up",
            "runner_up_mean",
        )
    )


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
