"""What playing a joker is worth, by paired counterfactuals; and what the Bahraini forced joker costs.

The data are joker forks (:func:`kout_sim.sim.fork.joker_forks`, ``kout-sim forks``): at every
decision where a seat may play a joker and may also play another card, the position was played on
twice, the joker against the policy's best other card, with the same deal and the same random
numbers after the fork. Each fork gives a pair of outcomes (``*_joker``, ``*_other``); the value of
the joker is the mean of their difference.

Intervals are 95% normal intervals whose standard errors are clustered by hand (a hand may hold
several forks, which are not independent). Beside the paired interval every table gives the
interval an unpaired comparison on the same number of forks would have (the two branches measured
on independent deals: the variance of each mean added, no covariance), and the variance reduction
``(se_unpaired / se_paired)²`` the pairing buys.

Measures: ``net`` (points banked by the forking seat's team minus the other team's, per hand),
``made`` (the bidding team made its contract; a pair with a forced joker lead in either branch is
left out of this measure), ``tricks`` (the seat's team's tricks), ``match_lost`` (Bahraini Kout: the
hand alone loses the match for the seat's team, i.e. the forced joker lead of RULES.md 2.8) and
``forced_joker``.

For Bahraini Kout, :func:`forced_joker_by_holder` reads ordinary run tables: how often a hand ends
by the forced joker lead, by the joker holder's role and hand at the deal, and
:func:`forced_joker_matches` how often it decides a match.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from ._common import Z95, Frame, collect, wilson_columns

MEASURES = ("net", "made", "tricks", "match_lost", "forced_joker")
ROLE = (
    pl.when(pl.col("bidding_team")).then(pl.lit("bidding team")).otherwise(pl.lit("defenders"))
).alias("role")


def _pairs(forks: Frame, measure: str) -> pl.LazyFrame:
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}; one of {', '.join(MEASURES)}")
    a, b = pl.col(f"{measure}_joker"), pl.col(f"{measure}_other")
    return (
        forks.lazy()
        .filter(a.is_not_null() & b.is_not_null())
        .with_columns(_a=a.cast(pl.Float64), _b=b.cast(pl.Float64))
        .with_columns(_d=pl.col("_a") - pl.col("_b"))
    )


def paired_value(
    forks: Frame, by: Sequence[str] = (), measure: str = "net", z: float = Z95
) -> pl.DataFrame:
    """Per group of ``by``: the mean outcome of each branch and the joker's value (their paired
    difference ``diff``) with its clustered 95% interval (``low``, ``high``), the unpaired
    interval (``unpaired_low``, ``unpaired_high``) and ``variance_reduction``.

    Columns also give ``n`` (forks), ``hands`` (distinct hands, the clusters), ``mean_joker`` and
    ``mean_other`` (the branch means) and their standard errors ``se_joker``, ``se_other``.
    """
    keys = list(by)
    lf = _pairs(forks, measure)
    means = lf.group_by(keys or pl.lit(0).alias("_all")).agg(
        pl.len().alias("n"),
        pl.col("hand").n_unique().alias("hands"),
        pl.col("_a").mean().alias("mean_joker"),
        pl.col("_b").mean().alias("mean_other"),
        pl.col("_d").mean().alias("diff"),
    )
    group = keys or ["_all"]
    with_group = lf.with_columns(pl.lit(0).alias("_all")) if not keys else lf
    # clustered variance of a mean: sum over hands of the squared summed residuals, over n²
    clusters = (
        with_group.join(means, on=group)
        .group_by([*group, "hand"])
        .agg(
            (pl.col("_a") - pl.col("mean_joker")).sum().alias("_ra"),
            (pl.col("_b") - pl.col("mean_other")).sum().alias("_rb"),
            (pl.col("_d") - pl.col("diff")).sum().alias("_rd"),
        )
        .group_by(group)
        .agg(
            (pl.col("_ra") ** 2).sum().alias("_va"),
            (pl.col("_rb") ** 2).sum().alias("_vb"),
            (pl.col("_rd") ** 2).sum().alias("_vd"),
        )
    )
    out = (
        means.join(clusters, on=group)
        .with_columns(
            se_joker=pl.col("_va").sqrt() / pl.col("n"),
            se_other=pl.col("_vb").sqrt() / pl.col("n"),
            se=pl.col("_vd").sqrt() / pl.col("n"),
        )
        .with_columns(se_unpaired=(pl.col("se_joker") ** 2 + pl.col("se_other") ** 2).sqrt())
        .with_columns(
            low=pl.col("diff") - z * pl.col("se"),
            high=pl.col("diff") + z * pl.col("se"),
            unpaired_low=pl.col("diff") - z * pl.col("se_unpaired"),
            unpaired_high=pl.col("diff") + z * pl.col("se_unpaired"),
            # null when every pair agrees (no paired variance to compare with)
            variance_reduction=pl.when(pl.col("se") > 0).then(
                (pl.col("se_unpaired") / pl.col("se")) ** 2
            ),
        )
        .drop("_va", "_vb", "_vd", *([] if keys else ["_all"]))
        .collect()
    )
    return out.sort(keys) if keys else out


def joker_value(forks: Frame, measure: str = "net") -> pl.DataFrame:
    """The joker's value per role (bidding team or defenders): one row each."""
    return paired_value(collect(forks).with_columns(ROLE), ["role"], measure)


def value_by(forks: Frame, column: str, measure: str = "net") -> pl.DataFrame:
    """The joker's value per role and value of ``column`` (``contract``, ``trick``,
    ``trumps_out``, ``jokers_held`` ...)."""
    return paired_value(collect(forks).with_columns(ROLE), ["role", column], measure)


def policy_agreement(forks: Frame) -> pl.DataFrame:
    """Per role: how often the player played the joker itself (``k`` of ``n`` forks, Wilson
    interval), and how often that was the branch with the better ``net`` result."""
    df = collect(forks).with_columns(ROLE)
    better = pl.col("net_joker") > pl.col("net_other")
    return (
        df.group_by("role")
        .agg(
            pl.len().alias("n"),
            pl.col("chose_joker").sum().alias("k"),
            better.sum().alias("joker_better"),
            (pl.col("net_joker") < pl.col("net_other")).sum().alias("other_better"),
        )
        .with_columns(wilson_columns("k", "n"))
        .sort("role")
    )


def figure(forks: Frame, measure: str = "net", min_n: int = 200) -> Figure:
    """The joker's value (paired difference, 95% interval) by trick, by trumps still out and by
    contract, one line per role; groups with fewer than ``min_n`` forks are left out."""
    df = collect(forks)
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharey=True)
    for ax, column, label in zip(
        axes,
        ("trick", "trumps_out", "contract"),
        ("trick (0 = first)", "trumps still out", "contract"),
    ):
        table = value_by(df, column, measure).filter(pl.col("n") >= min_n)
        for dx, role in ((-0.08, "bidding team"), (0.08, "defenders")):
            part = table.filter(pl.col("role") == role)
            if part.is_empty():
                continue
            x = part[column].to_numpy().astype(float) + dx
            y = part["diff"].to_numpy()
            err = np.vstack([y - part["low"].to_numpy(), part["high"].to_numpy() - y])
            ax.errorbar(x, y, yerr=err, marker="o", ms=4, capsize=3, label=role)
        ax.axhline(0, color="0.6", lw=0.8)
        ax.set_xlabel(label)
    axes[0].set_ylabel(f"joker minus other card ({measure})")
    axes[0].legend(loc="best", fontsize=8)
    fig.suptitle("Value of playing the joker: paired forks, 95% intervals clustered by hand")
    fig.tight_layout()
    return fig


# ---- Bahraini Kout: the forced joker lead (RULES.md 2.8) --------------------------------------------------


def _holder_hand() -> pl.Expr:
    """The dealt hand (card bitmask) of the joker holder."""
    expr = pl.lit(None, dtype=pl.Int64)
    for seat in range(6):
        expr = pl.when(pl.col("jk_holder") == seat).then(pl.col(f"hand_seat{seat}")).otherwise(expr)
    return expr


def _suit_mask() -> pl.Expr:
    """Bitmask of the trump suit's thirteen card ids."""
    suit = pl.col("trump").replace_strict(["S", "H", "D", "C"], [0, 1, 2, 3], default=None)
    return pl.lit(0x1FFF, dtype=pl.Int64) * (pl.lit(2, dtype=pl.Int64) ** (13 * suit)).cast(
        pl.Int64
    )


def forced_joker_by_holder(hands: Frame) -> pl.DataFrame:
    """Bahraini hands with a bid: how often the forced joker lead ends the hand (``k`` of ``n``,
    Wilson interval), by the joker holder's role (``bidder``, ``partner``, ``defender``) and the
    number of trumps dealt to the holder."""
    lf = hands.lazy().filter(pl.col("jk_holder").is_not_null() & (pl.col("bidder") >= 0))
    holder = pl.col("jk_holder").cast(pl.Int16)
    bidder = pl.col("bidder").cast(pl.Int16)
    role = (
        pl.when(holder == bidder)
        .then(pl.lit("bidder"))
        .when(holder % 2 == bidder % 2)
        .then(pl.lit("partner"))
        .otherwise(pl.lit("defender"))
    )
    trumps = (_holder_hand() & _suit_mask()).bitwise_count_ones().cast(pl.Int16)
    return (
        lf.with_columns(holder_role=role, holder_trumps=trumps)
        .group_by("holder_role", "holder_trumps")
        .agg(pl.len().alias("n"), pl.col("forced_joker").sum().cast(pl.Int64).alias("k"))
        .with_columns(wilson_columns("k", "n"))
        .sort("holder_role", "holder_trumps")
        .collect()
    )


def forced_joker_matches(matches: Frame) -> pl.DataFrame:
    """How often a match ends by a forced joker lead (``k`` of ``n`` matches, Wilson interval)."""
    return (
        matches.lazy()
        .select(
            pl.len().alias("n"),
            (pl.col("reason") == "forced_joker").sum().cast(pl.Int64).alias("k"),
        )
        .with_columns(wilson_columns("k", "n"))
        .collect()
    )
