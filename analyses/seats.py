"""Seat and dealer effects: who wins the auction, who makes it and who scores, by seat relative to
the dealer; and whether the first dealer's team wins the match more often.

Input: the ``hands`` and ``matches`` tables of one or more runs with the run columns ``preset``,
``family`` and ``n_seats`` (:func:`analyses._common.load_run`). Seats are counted from the dealer in
playing order (``seat_rel``): 1 is the dealer's right, the first to speak (Baloot: P1, who also
leads the first trick), ..., 0 is the dealer, the last to speak (Baloot: P4). Rates come with ``k``,
``n`` and a 95% Wilson interval; means with ``n``, ``sd`` and a 95% normal interval.

With equal players in every seat (one player spec for the run) any difference between seats comes
from the rules: the order of speaking, the dealer's forced bid, who leads first.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ._common import (
    Frame,
    bidder_net_points,
    has_bidder,
    instant_hand,
    mean_columns,
    mean_table,
    relative_seat,
    require_columns,
    team_points,
    with_wilson,
)
from .columns import mean_cols, rate_cols, text_col
from .fmt import pct, rate_text, runs_text, seat_label
from .section import Paragraph, Plot, ReportInput, Section, Table


def bid_share(hands: Frame) -> pl.DataFrame:
    """Per preset and seat relative to the dealer: ``k`` hands in which that seat won the auction
    out of the ``n`` hands with a bidder (Baloot void hands left out), with the share and its
    interval. Equal seats would each have ``1 / n_seats``."""
    lf = hands.lazy()
    require_columns(lf, ("preset", "n_seats"))
    lf = lf.filter(has_bidder()).with_columns(relative_seat("bidder").alias("seat_rel"))
    counts = lf.group_by(["preset", "n_seats", "seat_rel"]).agg(pl.len().cast(pl.Int64).alias("k"))
    totals = lf.group_by("preset").agg(pl.len().cast(pl.Int64).alias("n"))
    seats = (
        lf.select("preset", "n_seats")
        .unique()
        .with_columns(seat_rel=pl.int_ranges(0, pl.col("n_seats").cast(pl.Int64)))
        .explode("seat_rel")
        .with_columns(pl.col("seat_rel").cast(pl.Int8))
    )
    out = (
        seats.join(counts, on=["preset", "n_seats", "seat_rel"], how="left")
        .join(totals, on="preset")
        .with_columns(pl.col("k").fill_null(0))
        .sort(["preset", "seat_rel"])
        .collect()
    )
    return with_wilson(out).with_columns(even=1.0 / pl.col("n_seats"))


def bidder_results(hands: Frame) -> pl.DataFrame:
    """Per preset and the bidder's seat relative to the dealer: made rate (``k``, ``n``, ``rate``,
    ``low``, ``high``; a Bahraini forced joker lead is left out of ``n``) and the bidding team's
    mean net points (``points_mean``, ``points_low``, ``points_high``, ``points_n``; Inzili,
    forced-joker and Gahwa hands, whose value is not in points, left out)."""
    lf = hands.lazy()
    require_columns(lf, ("preset", "n_seats", "family"))
    lf = lf.filter(has_bidder()).with_columns(
        relative_seat("bidder").alias("seat_rel"),
        bidder_net_points(),
        (
            instant_hand()
            | pl.col("forced_joker").fill_null(False)
            | pl.col("gahwa").fill_null(False)
        ).alias("_not_points"),
    )
    net = pl.when(pl.col("_not_points")).then(None).otherwise(pl.col("net_points"))
    points_n, mean, _, low, high = mean_columns(net)
    out = (
        lf.group_by(["preset", "seat_rel"])
        .agg(
            pl.col("made").fill_null(False).sum().cast(pl.Int64).alias("k"),
            pl.col("made").count().cast(pl.Int64).alias("n"),
            points_n.alias("points_n"),
            mean.alias("points_mean"),
            low.alias("points_low"),
            high.alias("points_high"),
        )
        .sort(["preset", "seat_rel"])
        .collect()
    )
    return with_wilson(out)


def seat_points(hands: Frame) -> pl.DataFrame:
    """Per preset and seat relative to the dealer: mean points banked per hand by that seat's team
    (bidding or defending), with ``n``, ``sd`` and interval, over every hand (Baloot void hands
    count as 0)."""
    lf = hands.lazy()
    require_columns(lf, ("preset", "n_seats"))
    n_max = int(lf.select(pl.col("n_seats").max()).collect().item())
    parts = []
    for rel in range(n_max):
        seat = (pl.col("dealer").cast(pl.Int16) + rel) % pl.col("n_seats").cast(pl.Int16)
        parts.append(
            lf.filter(pl.col("n_seats") > rel).select(
                "preset",
                pl.lit(rel, dtype=pl.Int8).alias("seat_rel"),
                team_points(seat % 2).fill_null(0).cast(pl.Float64).alias("points"),
            )
        )
    return mean_table(pl.concat(parts), ["preset", "seat_rel"], "points")


def first_dealer_wins(matches: Frame) -> pl.DataFrame:
    """Per preset: ``k`` matches won by the first dealer's team (``first_dealer % 2``) out of ``n``,
    with the rate and its interval (0.5 means no first-deal advantage), and the same split by the
    first dealer's team (``first_dealer_team`` 0 or 1, or ``"any"``), which shows whether the
    players of the two teams differ."""
    lf = matches.lazy()
    require_columns(lf, ("preset",))
    lf = lf.with_columns(
        (pl.col("first_dealer") % 2).cast(pl.String).alias("first_dealer_team"),
        (pl.col("winner") == pl.col("first_dealer") % 2).alias("_won"),
    )
    keys = ["preset", "first_dealer_team"]
    by_team = lf.group_by(keys).agg(
        pl.col("_won").sum().cast(pl.Int64).alias("k"), pl.len().cast(pl.Int64).alias("n")
    )
    overall = lf.group_by("preset").agg(
        pl.lit("any").alias("first_dealer_team"),
        pl.col("_won").sum().cast(pl.Int64).alias("k"),
        pl.len().cast(pl.Int64).alias("n"),
    )
    out = pl.concat([overall.select(*keys, "k", "n"), by_team.select(*keys, "k", "n")])
    return with_wilson(out.sort(keys).collect())


def _err(ax: Axes, x: np.ndarray, df: pl.DataFrame, label: str, dx: float = 0.0) -> None:
    rate = df["rate"].fill_null(0).to_numpy()
    yerr = np.vstack([rate - df["low"].to_numpy(), df["high"].to_numpy() - rate])
    ax.errorbar(x + dx, rate, yerr=yerr, fmt="o", capsize=4, label=label)


def _seat_labels(n: int) -> list[str]:
    return [f"{r}\n(dealer)" if r == 0 else f"{r}" for r in [*range(1, n), 0]]


def figure(
    share: pl.DataFrame,
    results: pl.DataFrame,
    points: pl.DataFrame,
    first: pl.DataFrame,
    *,
    preset: str | None = None,
) -> Figure:
    """Four panels for one preset (default: the first): auction won, made rate, the bidding team's
    net points and every seat's team points per hand, by seat relative to the dealer (first to
    speak on the left, the dealer on the right); and the first dealer's team's match win rate."""
    preset = preset or str(share["preset"].sort()[0])
    s = share.filter(pl.col("preset") == preset)
    n = int(s["n_seats"][0])
    order = [*range(1, n), 0]

    def arranged(df: pl.DataFrame) -> pl.DataFrame:
        df = df.filter(pl.col("preset") == preset)
        return pl.DataFrame({"seat_rel": order}, schema={"seat_rel": pl.Int8}).join(
            df, on="seat_rel", how="left", maintain_order="left"
        )

    x = np.arange(n)
    fig, axes = plt.subplots(1, 4, figsize=(16, 4), gridspec_kw={"width_ratios": [3, 3, 3, 2]})
    ax_share, ax_made, ax_pts, ax_first = axes
    _err(ax_share, x, arranged(share), "won the auction")
    ax_share.axhline(1 / n, color="grey", linestyle="--", linewidth=0.8, label="1 / seats")
    ax_share.set_title(f"{preset}: who buys the contract")
    ax_share.set_ylabel("share of hands")
    ax_share.legend(fontsize="small")

    _err(ax_made, x, arranged(results), "made rate")
    ax_made.set_title("bidder makes the contract")
    ax_made.set_ylabel("made rate")
    ax_made.set_ylim(0, 1.02)

    r = arranged(results)
    m = r["points_mean"].fill_null(0).to_numpy()
    ax_pts.errorbar(
        x - 0.1,
        m,
        yerr=np.vstack([m - r["points_low"].to_numpy(), r["points_high"].to_numpy() - m]),
        fmt="o",
        capsize=4,
        label="bidding team's net points",
    )
    p = arranged(points)
    pm = p["mean"].fill_null(0).to_numpy()
    ax_pts.errorbar(
        x + 0.1,
        pm,
        yerr=np.vstack([pm - p["low"].to_numpy(), p["high"].to_numpy() - pm]),
        fmt="s",
        capsize=4,
        label="seat's team points, every hand",
    )
    ax_pts.axhline(0, color="grey", linewidth=0.8)
    ax_pts.set_title("points per hand")
    ax_pts.legend(fontsize="small")
    for ax in (ax_share, ax_made, ax_pts):
        ax.set_xticks(x, _seat_labels(n))
        ax.set_xlabel("seat from the dealer (1 = speaks first)")
        ax.grid(axis="y", alpha=0.3)

    f = first.filter(pl.col("preset") == preset)
    labels = f["first_dealer_team"].to_list()
    _err(ax_first, np.arange(len(labels)), f, "first dealer's team")
    ax_first.axhline(0.5, color="grey", linestyle="--", linewidth=0.8)
    ax_first.set_xticks(np.arange(len(labels)), [f"team {t}" if t != "any" else t for t in labels])
    ax_first.set_xlabel("first dealer's team")
    ax_first.set_ylabel("match win rate of the first dealer's team")
    ax_first.set_ylim(0, 1.02)
    ax_first.set_title("first deal and the match")
    ax_first.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------------- report section


def seats_section(inp: ReportInput) -> Section | None:
    """The report section "Seats and the dealer": auction won, made rate and points by seat from
    the dealer (:func:`bid_share`, :func:`bidder_results`, :func:`seat_points`), and the first
    dealer's team's match win rate (:func:`first_dealer_wins`, match runs with equal players in
    every seat)."""
    source = inp.bid_hands()
    if source is None:
        return None
    hands, runs = source
    share = bid_share(hands)
    results = bidder_results(hands)
    points = seat_points(hands)
    sym = [r for r in inp.match_runs if r.symmetric]
    if sym:
        matches = pl.concat([r.tables["matches"] for r in sym], how="diagonal_relaxed")
        first = first_dealer_wins(matches)
    else:
        first = pl.DataFrame(
            schema={
                "preset": pl.String,
                "first_dealer_team": pl.String,
                "k": pl.Int64,
                "n": pl.Int64,
                "rate": pl.Float64,
                "low": pl.Float64,
                "high": pl.Float64,
            }
        )
    label = pl.col("seat_rel").map_elements(
        lambda s: seat_label(int(s), inp.n_seats), return_dtype=pl.String
    )
    order = [(pl.col("seat_rel") == 0), "seat_rel"]
    share = share.with_columns(seat=label).sort(order)
    results = results.with_columns(seat=label).sort(order)
    points = points.with_columns(seat=label).sort(order)
    sec = Section("seats", "Seats and the dealer")
    sec.blocks.append(
        Paragraph(
            f"Seats are counted from the dealer in playing order: 1 speaks first, 0 is the dealer "
            f"and speaks last. Hands of {runs_text(runs)}"
            + (f"; matches of {runs_text(sym)}." if sym else "; no match run with equal players.")
        )
    )
    rows = {r["seat_rel"]: r for r in share.iter_rows(named=True)}
    if 1 in rows and 0 in rows:
        sec.findings.append(
            f"The first seat to speak wins the auction in {rate_text(rows[1])} of the hands, the "
            f"dealer in {rate_text(rows[0])} (equal seats would each have "
            f"{pct(1 / inp.n_seats)})."
        )
    res = {r["seat_rel"]: r for r in results.iter_rows(named=True)}
    if 1 in res and 0 in res:
        sec.findings.append(
            f"Bidders make their contract {rate_text(res[1])} from the first seat and "
            f"{rate_text(res[0])} from the dealer's seat."
        )
    anyrow = [r for r in first.iter_rows(named=True) if r["first_dealer_team"] == "any"]
    if anyrow:
        sec.findings.append(
            f"The first dealer's team wins {rate_text(anyrow[0])} of the matches (50% would mean "
            "no first-deal advantage)."
        )
    sec.blocks.append(
        Table(
            "bid_share",
            "Who wins the auction, by seat from the dealer (out of the hands with a bid).",
            share,
            [text_col("seat", "seat"), *rate_cols("won the auction")],
        )
    )
    sec.blocks.append(
        Table(
            "bidder_results",
            "The bidder's made rate and his team's net points, by his seat.",
            results,
            [
                text_col("seat", "seat"),
                *rate_cols("made"),
                *mean_cols("net points", "points_"),
            ],
        )
    )
    sec.blocks.append(
        Table(
            "seat_points",
            "Points banked per hand by each seat's team (bidding or defending), every hand.",
            points,
            [text_col("seat", "seat"), *mean_cols("team points", signed=False)],
        )
    )
    if sym:
        sec.blocks.append(
            Table(
                "first_dealer_wins",
                "Match win rate of the first dealer's team (overall, and by which team dealt "
                "first).",
                first,
                [text_col("first_dealer_team", "first dealer's team"), *rate_cols("wins")],
            )
        )
    sec.blocks.append(
        Plot(
            "seats",
            "By seat from the dealer: auction won, made rate, points per hand; and the first "
            "dealer's team's match win rate. 95% intervals.",
            _seats_figure(share, results, points, first, inp.preset),
        )
    )
    return sec


def _seats_figure(
    share: pl.DataFrame,
    results: pl.DataFrame,
    points: pl.DataFrame,
    first: pl.DataFrame,
    preset: str,
) -> Figure:
    fig = figure(share, results, points, first, preset=preset)
    if first.is_empty():
        fig.axes[-1].text(
            0.5,
            0.5,
            "no match run with\nequal players",
            ha="center",
            va="center",
            transform=fig.axes[-1].transAxes,
        )
    return fig
