"""What playing a joker is worth, by paired counterfactuals; and what the Bahraini forced joker costs.

The report's section on the joker is :func:`analyses.joker_section.joker_section`, built from the
functions here and from the context tables of :mod:`analyses.joker_context`.

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
from matplotlib.ticker import MaxNLocator

from ._common import (
    Z95,
    Frame,
    cluster_products,
    clustered_means,
    collect,
    pairs_of,
    square_sum,
    wilson_columns,
)

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
    group = keys or ["_all"]
    lf = _pairs(forks, measure).with_columns(_all=pl.lit(0))
    out = (
        clustered_means(lf, group, {"joker": "_a", "other": "_b", "diff": "_d"})
        .rename({"mean_diff": "diff", "se_diff": "se"})
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
        .drop([] if keys else ["_all"])
        .collect()
    )
    return out.sort(keys) if keys else out


def observed_value(forks: Frame, by: Sequence[str] = (), measure: str = "net") -> pl.DataFrame:
    """The comparison the hands alone allow, without forks: at the same decisions, the hands in
    which the player itself played the joker against those in which it played another card
    (``*_actual``). Per group of ``by``: ``n_joker``, ``n_other`` (decisions), the two means, their
    difference ``diff`` and its 95% interval (``low``, ``high``). It mixes the joker with whatever
    made the player choose it, and splits the decisions unevenly; set beside :func:`paired_value`
    on the same forks it is the unpaired comparison on the same hands.

    The two arms are drawn from the same hands (a hand may hold a joker play of the player's and
    one of its other plays), so their means are correlated: ``se`` is the standard error of the
    difference clustered by hand, the square root of the sum over hands of
    ``(sum of the hand's joker residuals / n_joker - sum of its other residuals / n_other)²``,
    which holds the covariance of the two means. ``se_separate`` is what adding the two means'
    clustered variances would give, right only when no hand holds both arms."""
    if measure not in MEASURES or measure == "match_lost":
        raise ValueError(f"no observed outcome for measure {measure!r}")
    keys = list(by)
    group = keys or ["_all"]
    value = pl.col(f"{measure}_actual").cast(pl.Float64)
    lf = (
        forks.lazy()
        .filter(value.is_not_null())
        .with_columns(_v=value, _arm=pl.col("chose_joker"), _all=pl.lit(0))
    )
    arms = clustered_means(lf, [*group, "_arm"], {"v": "_v"})
    joker = arms.filter(pl.col("_arm")).select(
        *group,
        pl.col("n").alias("n_joker"),
        pl.col("mean_v").alias("observed_joker"),
        pl.col("se_v").alias("_sej"),
    )
    other = arms.filter(~pl.col("_arm")).select(
        *group,
        pl.col("n").alias("n_other"),
        pl.col("mean_v").alias("observed_other"),
        pl.col("se_v").alias("_seo"),
    )
    both = joker.join(other, on=group, how="inner")
    # a hand's share of the difference of the two means: (A - K mean_joker) / n_joker -
    # (B - L mean_other) / n_other, from its joker decisions' sum A and count K and its other
    # decisions' B and L (exact sums: the same floats in any row order)
    arm = pl.col("_arm")
    parts = {
        "a": pl.when(arm).then(pl.col("_v")).otherwise(0.0),
        "k": arm,
        "b": pl.when(arm).then(0.0).otherwise(pl.col("_v")),
        "l": ~arm,
    }
    weights = {
        "a": 1.0 / pl.col("n_joker"),
        "k": -pl.col("observed_joker") / pl.col("n_joker"),
        "b": -1.0 / pl.col("n_other"),
        "l": pl.col("observed_other") / pl.col("n_other"),
    }
    variance = cluster_products(lf, group, parts, pairs_of(parts))
    out = (
        both.join(variance, on=group)
        .with_columns(_var=square_sum(weights).clip(lower_bound=0.0))
        .with_columns(
            diff=pl.col("observed_joker") - pl.col("observed_other"),
            se=pl.col("_var").sqrt(),
            se_separate=(pl.col("_sej") ** 2 + pl.col("_seo") ** 2).sqrt(),
        )
        .with_columns(
            low=pl.col("diff") - Z95 * pl.col("se"), high=pl.col("diff") + Z95 * pl.col("se")
        )
        .drop("_sej", "_seo", "_var", *([] if keys else ["_all"]))
        .select(pl.exclude("^_q_.*$"))
        .collect()
    )
    return out.sort(keys) if keys else out


def pairing_gain(forks: Frame, measure: str = "net") -> pl.DataFrame:
    """Per role, how much narrower the paired interval is than two unpaired comparisons on the
    same forks, as ratios of 95% interval widths (the variance reduction is their square).

    - ``width_paired``: the paired forks, both branches on every fork (:func:`paired_value`).
    - ``width_observed`` and ``ratio_observed``: the hands as the player played them, its joker
      plays (``n_joker``) against its other plays (``n_other``) at the same decisions
      (:func:`observed_value`). Both arms come from the same hands, so the standard error of
      their difference is clustered by hand with the covariance of the two means in it
      (``observed_se``; ``observed_se_separate`` leaves the covariance out). The ratio compares
      the two designs as they are: it holds the pairing and the uneven split of the decisions
      (few joker plays), not the pairing alone.
    - ``width_independent`` and ``ratio_independent``: a hypothetical, the two branches measured
      on independent deals with as many forks each, in hands like these: the two branch means'
      clustered variances added, no covariance (``se_unpaired`` of :func:`paired_value`). This
      ratio is the pairing's gain alone, at equal sample sizes.

    With the observed difference and its interval."""
    df = collect(forks).with_columns(ROLE)
    paired = paired_value(df, ["role"], measure)
    observed = observed_value(df, ["role"], measure).rename(
        {
            "diff": "observed_diff",
            "low": "observed_low",
            "high": "observed_high",
            "se": "observed_se",
            "se_separate": "observed_se_separate",
        }
    )
    return (
        paired.select("role", "n", "hands", "diff", "low", "high", "se", "se_unpaired")
        .join(observed, on="role", how="inner")
        .with_columns(
            width_paired=2 * Z95 * pl.col("se"),
            width_independent=2 * Z95 * pl.col("se_unpaired"),
            width_observed=2 * Z95 * pl.col("observed_se"),
        )
        .with_columns(
            ratio_independent=pl.when(pl.col("se") > 0).then(
                pl.col("width_independent") / pl.col("width_paired")
            ),
            ratio_observed=pl.when(pl.col("se") > 0).then(
                pl.col("width_observed") / pl.col("width_paired")
            ),
        )
        .sort("role")
    )


def joker_value(forks: Frame, measure: str = "net") -> pl.DataFrame:
    """The joker's value per role (bidding team or defenders): one row each."""
    return paired_value(collect(forks).with_columns(ROLE), ["role"], measure)


def shown_tricks(table: pl.DataFrame) -> pl.DataFrame:
    """``table`` with its ``trick`` column (if any) numbered from 1 for the reader: the forks
    table counts tricks from 0 (docs/data.md), the report and the figure from 1."""
    if "trick" not in table.columns:
        return table
    return table.with_columns(pl.col("trick") + 1)


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


def changes(forks: Frame) -> pl.DataFrame:
    """Per role: in how many of the ``forks`` (``n``) the two branches differ in the tricks the
    seat's team took (``tricks_changed``), in whether the contract was made (``made_changed``,
    over the pairs with both results) and in the net points (``net_changed``)."""
    df = collect(forks).with_columns(ROLE)
    return (
        df.group_by("role")
        .agg(
            pl.len().alias("n"),
            (pl.col("tricks_joker") != pl.col("tricks_other")).sum().alias("tricks_changed"),
            (pl.col("made_joker") != pl.col("made_other")).sum().alias("made_changed"),
            (pl.col("net_joker") != pl.col("net_other")).sum().alias("net_changed"),
        )
        .sort("role")
    )


def flips(forks: Frame) -> pl.DataFrame:
    """Per role: in how many forks (``k`` of ``n``, Wilson interval) the joker changes whether the
    contract is made, the made rate of each branch (``p_joker``, ``p_other``) and the variance
    reduction a pairing can give a two-valued result at that flip rate,
    ``(p_j (1 - p_j) + p_o (1 - p_o)) / (flip rate - (p_j - p_o)²)``: the pairing cannot remove
    the variance of the flips themselves, which is the joker's effect."""
    df = collect(forks).with_columns(ROLE)
    a, b = pl.col("made_joker").cast(pl.Float64), pl.col("made_other").cast(pl.Float64)
    table = (
        df.filter(pl.col("made_joker").is_not_null() & pl.col("made_other").is_not_null())
        .group_by("role")
        .agg(
            pl.len().alias("n"),
            (pl.col("made_joker") != pl.col("made_other")).sum().cast(pl.Int64).alias("k"),
            a.mean().alias("p_joker"),
            b.mean().alias("p_other"),
        )
        .with_columns(wilson_columns("k", "n"))
    )
    pj, po = pl.col("p_joker"), pl.col("p_other")
    spread = pl.col("rate") - (pj - po) ** 2
    bound = pl.when(spread > 0).then((pj * (1 - pj) + po * (1 - po)) / spread)
    return table.with_columns(bound.alias("max_variance_reduction")).sort("role")


def figure(forks: Frame, measure: str = "net", min_n: int = 200) -> Figure:
    """The joker's value (paired difference, 95% interval) by trick, by trumps still out and by
    contract, one line per role; groups with fewer than ``min_n`` forks are left out."""
    df = collect(forks)
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharey=True)
    for ax, column, label in zip(
        axes,
        ("trick", "trumps_out", "contract"),
        ("trick (1 = first)", "trumps still out", "contract"),
    ):
        table = shown_tricks(value_by(df, column, measure)).filter(pl.col("n") >= min_n)
        for dx, role in ((-0.08, "bidding team"), (0.08, "defenders")):
            part = table.filter(pl.col("role") == role)
            if part.is_empty():
                continue
            x = part[column].to_numpy().astype(float) + dx
            y = part["diff"].to_numpy()
            err = np.vstack([y - part["low"].to_numpy(), part["high"].to_numpy() - y])
            ax.errorbar(x, y, yerr=err, marker="o", ms=4, capsize=3, label=role)
        ax.axhline(0, color="0.6", lw=0.8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # tricks, trumps, contracts
        ax.set_xlabel(label)
    axes[0].set_ylabel(f"joker minus other card ({measure})")
    if axes[0].get_legend_handles_labels()[0]:
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


# ---- the study and report constants ---------------------------------------------------------------------------------

FORKS_KIND = "joker_forks"
"""The ``kind`` of a ``kout-sim forks`` folder's ``run.json``."""
DEFAULT_FORK_HANDS = 1_000_000
"""Independent hands of the ``joker-lead`` study (:mod:`analyses.studies`)."""
