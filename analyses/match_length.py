"""Match length: how many hands a match lasts, why it ends, and how often the stronger side wins,
as the match target grows.

Input: the ``matches`` tables of several runs of one preset, one run per target value (the
``target`` column of each table says which), e.g. from :func:`sweep`. Every share comes with its
count ``k``, base ``n`` and 95% Wilson interval ``low``..``high``; means with ``n``, ``sd`` and a
95% normal interval.

**Stronger side.** Team 0 (the even seats) is taken as the stronger side: run the sweep with
``players=["heuristic", "random:pass=0.8"]`` or two heuristic parameterisations, the stronger one
first. :func:`stronger_side_wins` reports team 0's match win rate per target (and the player specs
of both teams, read from the table, so that a table of equal teams is easy to spot).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure

import kout_sim
from kout_sim.rules import Family

from ._common import Frame, Tables, concat_tables, mean_columns, with_wilson
from .columns import mean_cols, rate_cols, text_col
from .commands import short_player
from .fmt import mean_text, num, rate_text, runs_text
from .section import ADVICE_PRIORITY, Paragraph, Plot, ReportInput, Run, Section, Table, records

REASONS = ("target", "kout", "bawan_first_hand", "inzili", "forced_joker", "gahwa")
"""Every end reason of the matches table; each preset reaches only some of them."""

FAMILY_REASONS: dict[str, tuple[str, ...]] = {
    Family.KOUT_BO: ("target", "kout", "bawan_first_hand"),
    Family.KOUT_BH: ("target", "inzili", "forced_joker"),
    Family.BALOOT: ("target", "gahwa"),
}
"""The end reasons each game family can produce (RULES.md 1.12, 2.8, 2.10-2.11, 3.6)."""


def _matches(runs: Frame | Iterable[Tables]) -> pl.LazyFrame:
    if isinstance(runs, pl.DataFrame | pl.LazyFrame):
        return runs.lazy()
    return concat_tables(runs, "matches")


def hands_per_match(runs: Frame | Iterable[Tables]) -> pl.DataFrame:
    """Per target: ``n`` matches, mean hands per match with ``sd`` and 95% interval ``low``..``high``,
    the median, the 10th and 90th percentiles, the shortest and the longest match."""
    m = _matches(runs)
    h = pl.col("n_hands").cast(pl.Float64)
    return (
        m.group_by("target")
        .agg(
            *mean_columns("n_hands"),
            h.median().alias("median"),
            h.quantile(0.1, "nearest").alias("p10"),
            h.quantile(0.9, "nearest").alias("p90"),
            pl.col("n_hands").min().alias("min"),
            pl.col("n_hands").max().alias("max"),
        )
        .sort("target")
        .collect()
    )


def length_distribution(runs: Frame | Iterable[Tables]) -> pl.DataFrame:
    """Per target and number of hands: ``k`` matches that lasted exactly that many hands out of
    ``n`` matches at that target, with the share and its interval."""
    m = _matches(runs)
    counts = m.group_by(["target", "n_hands"]).agg(pl.len().cast(pl.Int64).alias("k"))
    totals = m.group_by("target").agg(pl.len().cast(pl.Int64).alias("n"))
    out = counts.join(totals, on="target").sort(["target", "n_hands"]).collect()
    return with_wilson(out)


def end_reasons(
    runs: Frame | Iterable[Tables], reasons: Sequence[str] | None = None
) -> pl.DataFrame:
    """Per target and end reason: ``k`` matches ended that way out of ``n``, with the share and its
    interval. Every reason in ``reasons`` (default :data:`REASONS`) gets a row, zero counts
    included, so the shares of a target add up to one."""
    m = _matches(runs)
    names = list(reasons or REASONS)
    totals = m.group_by("target").agg(pl.len().cast(pl.Int64).alias("n"))
    grid = totals.join(pl.LazyFrame({"reason": names}), how="cross")
    counts = m.group_by(["target", "reason"]).agg(pl.len().cast(pl.Int64).alias("k"))
    out = (
        grid.join(counts, on=["target", "reason"], how="left")
        .with_columns(pl.col("k").fill_null(0))
        .with_columns(order=pl.col("reason").replace_strict(names, list(range(len(names)))))
        .sort(["target", "order"])
        .drop("order")
        .collect()
    )
    unknown = set(m.select(pl.col("reason").unique()).collect()["reason"].to_list()) - set(names)
    if unknown:
        raise ValueError(f"end reasons {sorted(unknown)} are not among {names}")
    return with_wilson(out).select("target", "reason", "k", "n", "rate", "low", "high")


def stronger_side_wins(runs: Frame | Iterable[Tables]) -> pl.DataFrame:
    """Per target: ``k`` matches won by team 0 (the stronger side by convention) out of ``n``,
    with the win rate and its interval, and the players of both teams."""
    m = _matches(runs)
    out = (
        m.group_by("target")
        .agg(
            (pl.col("winner") == 0).sum().cast(pl.Int64).alias("k"),
            pl.len().cast(pl.Int64).alias("n"),
            pl.col("players_team0").first(),
            pl.col("players_team1").first(),
            pl.col("players_team0").n_unique().alias("_p0"),
            pl.col("players_team1").n_unique().alias("_p1"),
        )
        .sort("target")
        .collect()
    )
    if (out["_p0"] > 1).any() or (out["_p1"] > 1).any():
        raise ValueError("a target mixes runs with different players")
    return with_wilson(out.drop("_p0", "_p1")).select(
        "target", "k", "n", "rate", "low", "high", "players_team0", "players_team1"
    )


def sweep(
    preset: str,
    targets: Sequence[int],
    matches: int,
    seed: int,
    players: str | Sequence[str],
    out: str | Path,
    *,
    workers: int | None = None,
    options: Mapping[str, object] | None = None,
    overwrite: bool = True,
) -> dict[int, Path]:
    """Play ``matches`` matches of ``preset`` at each target (``options={"target": t}`` plus
    ``options``), each run in ``out/target-<t>``; returns ``{target: run folder}``.

    Every target uses the same ``seed``, so the runs deal from the same streams (match ``m`` starts
    with the same deal at every target)."""
    folders: dict[int, Path] = {}
    for t in targets:
        folder = kout_sim.simulate(
            preset,
            options={**dict(options or {}), "target": int(t)},
            players=players if isinstance(players, str) else list(players),
            matches=matches,
            seed=seed,
            out=Path(out) / f"target-{int(t)}",
            workers=workers,
            overwrite=overwrite,
        )
        folders[int(t)] = Path(folder)
    return folders


def figure(
    lengths: pl.DataFrame,
    reasons: pl.DataFrame,
    wins: pl.DataFrame,
    *,
    title: str = "",
) -> Figure:
    """Three panels against the target: mean hands per match (with the 10th-90th percentile band),
    the share of each end reason, and the stronger side's match win rate, all with 95% intervals.
    ``title`` (e.g. the preset and the players of both sides) goes above the panels."""
    fig, (ax_len, ax_reason, ax_win) = plt.subplots(1, 3, figsize=(14, 4.2))
    t = lengths["target"].to_numpy()
    mean = lengths["mean"].to_numpy()
    ax_len.fill_between(
        t, lengths["p10"].to_numpy(), lengths["p90"].to_numpy(), alpha=0.2, label="10th-90th pct"
    )
    ax_len.errorbar(
        t,
        mean,
        yerr=np.vstack([mean - lengths["low"].to_numpy(), lengths["high"].to_numpy() - mean]),
        marker="o",
        capsize=4,
        label="mean (95% interval)",
    )
    ax_len.set_xlabel("target")
    ax_len.set_ylabel("hands per match")
    ax_len.set_title("match length")
    ax_len.legend(fontsize="small")
    ax_len.grid(alpha=0.3)

    present = reasons.group_by("reason").agg(pl.col("k").sum()).filter(pl.col("k") > 0)
    for reason in [r for r in REASONS if r in present["reason"].to_list()]:
        part = reasons.filter(pl.col("reason") == reason).sort("target")
        rate = part["rate"].fill_null(0).to_numpy()
        yerr = np.vstack([rate - part["low"].to_numpy(), part["high"].to_numpy() - rate])
        ax_reason.errorbar(
            part["target"].to_numpy(), rate, yerr=yerr, marker="o", capsize=3, label=reason
        )
    ax_reason.set_ylim(0, 1.02)
    ax_reason.set_xlabel("target")
    ax_reason.set_ylabel("share of matches")
    ax_reason.set_title("end reason")
    ax_reason.legend(fontsize="small")
    ax_reason.grid(alpha=0.3)

    rate = wins["rate"].fill_null(0).to_numpy()
    yerr = np.vstack([rate - wins["low"].to_numpy(), wins["high"].to_numpy() - rate])
    ax_win.errorbar(wins["target"].to_numpy(), rate, yerr=yerr, marker="o", capsize=4)
    ax_win.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax_win.set_ylim(0, 1.02)
    ax_win.set_xlabel("target")
    ax_win.set_ylabel("team 0 match win rate")
    ax_win.set_title("stronger side (team 0) wins the match")
    ax_win.grid(alpha=0.3)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------------- report section


def _lineup_text(run: Run) -> str:
    """The line-up of a run in words (player parameters at their defaults left out)."""
    family = run.settings.get("family", "")
    specs = [short_player(p, str(family)) for p in run.players]
    if len(set(specs)) == 1:
        return f"{specs[0]} in every seat"
    if len(set(specs[0::2])) == 1 and len(set(specs[1::2])) == 1:
        return f"team 0 {specs[0]} against team 1 {specs[1]}"
    return " / ".join(specs)


def match_length_section(inp: ReportInput) -> Section | None:
    """The report section "Match length and the target": hands per match, end reasons and the
    stronger side's win rate per target (:func:`hands_per_match`, :func:`end_reasons`,
    :func:`stronger_side_wins`, :func:`length_distribution`), for the match runs of one line-up
    (the one with the most targets)."""
    groups = inp.match_groups()
    if not groups:
        return None
    runs = groups[0]
    matches = pl.concat([r.tables["matches"] for r in runs], how="diagonal_relaxed")
    lengths = hands_per_match(matches)
    reasons_all = end_reasons(matches)
    family_reasons = FAMILY_REASONS.get(inp.family, REASONS)
    reasons = reasons_all.filter(pl.col("reason").is_in(list(family_reasons)))
    wins = stronger_side_wins(matches)
    dist = length_distribution(matches)
    targets = lengths["target"].to_list()
    lineup = _lineup_text(runs[0])
    stronger = not runs[0].symmetric
    sec = Section("match_length", "Match length and the target")
    sec.blocks.append(
        Paragraph(
            f"Whole matches at target{'s' if len(targets) > 1 else ''} "
            f"{', '.join(str(t) for t in targets)}; {lineup} ({runs_text(runs)}). "
            + (
                "Team 0 (the even seats) is the stronger side by construction; its match win rate "
                "says how reliably the better play wins as the match gets longer."
                if stronger
                else "Both teams play the same player, so team 0's win rate should be near 50%."
            )
            + (
                " The targets share their seed: match m starts from the same deal at every "
                "target, so the targets are not independent samples of each other."
                if len(targets) > 1 and len({r.settings.get("seed") for r in runs}) == 1
                else ""
            )
        )
    )
    first, last = lengths.row(0, named=True), lengths.row(-1, named=True)
    length_text = (
        f"From target {first['target']} to {last['target']} the mean match grows from "
        f"{mean_text(first, digits=1, signed=False)} hands to "
        f"{mean_text(last, digits=1, signed=False)} hands."
        if len(targets) > 1
        else f"At target {first['target']} a match lasts "
        f"{mean_text(first, digits=1, signed=False)} hands (median {num(first['median'], 0)}, "
        f"10th-90th percentile {num(first['p10'], 0)}-{num(first['p90'], 0)})."
    )
    sec.advise(length_text, _lineup_text(runs[0]), priority=ADVICE_PRIORITY["match_length"])
    w_rows = list(wins.iter_rows(named=True))
    if stronger:
        parts = [f"{rate_text(w)} at target {w['target']}" for w in w_rows]
        sec.findings.append(
            f"The stronger side ({lineup}) wins the match " + "; ".join(parts) + "."
        )
    else:
        parts = [f"{rate_text(w)} at target {w['target']}" for w in w_rows]
        sec.findings.append("With equal teams, team 0 wins " + "; ".join(parts) + ".")
    for reason in family_reasons:
        if reason == "target":
            continue
        rows = list(reasons.filter(pl.col("reason") == reason).iter_rows(named=True))
        if any(r["k"] > 0 for r in rows):
            sec.findings.append(
                f"Matches ending by {REASON_TEXT.get(reason, reason)}: "
                + "; ".join(f"{rate_text(r)} at target {r['target']}" for r in rows)
                + "."
            )
    sec.blocks.append(
        Table(
            "hands_per_match",
            "Hands per match per target: mean with 95% interval, median, 10th and 90th "
            "percentiles, shortest and longest.",
            lengths,
            [
                text_col("target", "target"),
                *mean_cols("hands per match", digits=2, signed=False),
                text_col("median", "median", lambda v: num(v, 0)),
                text_col("p10", "10th pct", lambda v: num(v, 0)),
                text_col("p90", "90th pct", lambda v: num(v, 0)),
                text_col("min", "min"),
                text_col("max", "max"),
            ],
        )
    )
    sec.blocks.append(
        Table(
            "end_reasons",
            "Why the matches ended, per target (every end reason of this game family, zero counts "
            "included).",
            reasons,
            [text_col("target", "target"), text_col("reason", "reason"), *rate_cols("share")],
        )
    )
    sec.blocks.append(
        Table(
            "stronger_side_wins",
            "Team 0's match win rate per target.",
            wins,
            [
                text_col("target", "target"),
                text_col("players_team0", "team 0", lambda v: short_player(v, inp.family)),
                text_col("players_team1", "team 1", lambda v: short_player(v, inp.family)),
                *rate_cols("team 0 wins"),
            ],
        )
    )
    title = f"{inp.preset}: {lineup}"
    sec.blocks.append(
        Plot(
            "match_length",
            "Against the target: mean hands per match (10th-90th percentile band), the share of "
            "each end reason, team 0's match win rate; 95% intervals.",
            figure(lengths, reasons, wins, title=title),
        )
    )
    sec.blocks.append(
        Plot(
            "length_distribution",
            "Distribution of hands per match at each target (share of matches).",
            distribution_figure(dist),
        )
    )
    sec.data["length_distribution"] = records(dist)
    return sec


REASON_TEXT = {
    "kout": "a Kout",
    "bawan_first_hand": "a Bawan made on the first hand",
    "inzili": "an Inzili",
    "forced_joker": "a forced joker lead",
    "gahwa": "a Gahwa",
}


def distribution_figure(dist: pl.DataFrame) -> Figure:
    """The distribution of hands per match at each target (a :func:`length_distribution`)."""
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for (target,), part in dist.group_by(["target"], maintain_order=True):
        part = part.sort("n_hands")
        ax.step(
            part["n_hands"].to_numpy(),
            part["rate"].to_numpy(),
            where="mid",
            label=f"target {target}",
        )
    ax.set_xlabel("hands in the match")
    ax.set_ylabel("share of matches")
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
