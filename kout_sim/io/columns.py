"""Derived columns of the hands table: who bid, the points a hand is worth, a forced bid.

These polars expressions are the one definition of what the ``simulate`` summary, the analyses and
the report count (the analyses re-export them from ``analyses._common``). They read the columns of
:mod:`kout_sim.io.schema` and, where a run mixes presets, ``family`` and ``n_seats``.
"""

from __future__ import annotations

import polars as pl

from ..rules import Family


def has_bidder() -> pl.Expr:
    """The hand had a bidder: not a void Baloot hand (whose ``bidder`` is stored as -1)."""
    return pl.col("bidder").is_not_null() & (pl.col("bidder") >= 0)


def team_points(team: pl.Expr) -> pl.Expr:
    """Points banked this hand by ``team`` (0 or 1), from ``points_team0``/``points_team1``."""
    return (pl.when(team == 0).then(pl.col("points_team0")).otherwise(pl.col("points_team1"))).cast(
        pl.Int32
    )


def bidder_net_points() -> pl.Expr:
    """Points the bidding team banked this hand minus those the other team banked."""
    team = pl.col("bidder").cast(pl.Int16) % 2
    return (team_points(team) - team_points(1 - team)).alias("net_points")


def _family(family: str | None) -> pl.Expr:
    return pl.col("family") if family is None else pl.lit(family)


def baloot_hand(family: str | None = None) -> pl.Expr:
    """A hand of Baloot (RULES.md §3), of the run's ``family``, or None to read the column."""
    return _family(family) == Family.BALOOT.value


def family_of_preset() -> pl.Expr:
    """The family of the column ``preset`` (each preset's name begins with its family's name)."""
    names = "|".join(f.value for f in Family)
    return pl.col("preset").str.extract(f"^({names})", 1)


def forced_bid(n_seats: int | None = None, family: str | None = None) -> pl.Expr:
    """Kout: every other seat passed, so the dealer had to bid (RULES.md 1.3, 2.3); Baloot: false.
    ``n_seats`` and ``family``: the run's, or None to read the columns ``n_seats`` and ``family``."""
    n = pl.col("n_seats") if n_seats is None else pl.lit(n_seats)
    n_pass = pl.col("calls").str.count_matches(r"\bpass\b").cast(pl.Int16)
    return (
        ~baloot_hand(family)
        & (pl.col("bidder") == pl.col("dealer"))
        & (n_pass == n.cast(pl.Int16) - 1)
    ).fill_null(False)


def instant_hand(family: str | None = None) -> pl.Expr:
    """A Bahraini Inzili (RULES.md 2.10): made wins the match at once, failed loses it, and the
    counter does not move, so the hand has no value in points."""
    return ((_family(family) == Family.KOUT_BH.value) & (pl.col("contract") == 8)).fill_null(False)


def pointless_hand() -> pl.Expr:
    """A hand whose result is not in points either way: a Bahraini forced joker lead (RULES.md
    2.8, the match is lost at once) or a Baloot Gahwa (RULES.md 3.6.5, the hand decides the
    match)."""
    return pl.col("gahwa").fill_null(False) | pl.col("forced_joker").fill_null(False)


def hand_net_points(family: str | None = None) -> pl.Expr:
    """:func:`bidder_net_points`, null where the hand has no value in points (an Inzili, a forced
    joker lead, a Gahwa, a void Baloot hand): the ``net_points`` of the bid analyses, the report and the ``simulate``
    summary."""
    lost = instant_hand(family) | pointless_hand() | ~has_bidder()
    return pl.when(lost).then(None).otherwise(bidder_net_points()).alias("net_points")
