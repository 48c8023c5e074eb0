"""Baloot modes: how often Sun and Hokum are bought, how often the buyer fails or a kaboot happens
in each, and how often projects are held and counted, set beside unsourced human rates.

Input: the ``hands`` table of a ``baloot`` run (with or without the run columns of
:func:`analyses._common.load_run`). Every rate comes with its count ``k``, base ``n`` and 95% Wilson
interval ``low``..``high``.

Definitions, per hand with a buyer (``mode`` not null; void hands, where all four passed twice,
count only in :func:`mode_shares`):

- **buyer fails**: ``made`` is false (RULES.md 3.6.3: the opponents' total beat the buyer's; in a
  doubled hand the last raiser's team is judged as the buyer). An exact tie is not a failure under
  the default ``tie = split``.
- **kaboot**: one team took all eight tricks (``kaboot_team`` not null), by either side;
  ``kaboot_buyer`` / ``kaboot_defenders`` split it by who took them.
- **projects**: ``buyer_holds_*``: the buyer's eight cards hold at least one project of that kind
  (``bidder_projects``); ``projects_counted_buyer`` / ``..._defenders``: the team whose projects
  counted (``project_team``); ``baloot``: some seat held the K and Q of trump (Hokum only).

The human rates (:data:`HUMAN_FAIL`, :data:`HUMAN_KABOOT`) are **unsourced**: the project has
them without a source, a sample size or a definition (which tables, which rules, what counts as a
failure or a kaboot), so they are no evidence about human play and no interval can be put on them.
They are read here as per hand of the mode, the kaboot as one by either side, and every table,
figure and sentence that shows them labels them unsourced.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ._common import Frame, rate_table, with_wilson
from .columns import rate_cols, text_col
from .fmt import pct, rate_text, runs_text
from .section import MIN_N, Paragraph, Plot, ReportInput, Section, Table

MODES = ("sun", "hokum")

HUMAN_FAIL = {"sun": 0.285, "hokum": 0.159}
"""Share of hands of each mode in which the buyer failed, said to be from human play: unsourced (no
source, sample size or definition is known)."""

HUMAN_KABOOT = {"sun": 0.138, "hokum": 0.093}
"""Share of hands of each mode that ended in a kaboot, said to be from human play: unsourced (no
source, sample size or definition is known)."""

UNSOURCED = "unsourced human rate"
"""How every table, figure and sentence labels :data:`HUMAN_FAIL` and :data:`HUMAN_KABOOT`."""

PROJECTS = ("sira", "fifty", "hundred", "four_hundred")


def _bought(hands: Frame) -> pl.LazyFrame:
    return hands.lazy().filter(pl.col("mode").is_not_null())


def mode_shares(hands: Frame) -> pl.DataFrame:
    """Share of all hands dealt in which Sun was bought, Hokum was bought, or nobody bought
    (``void``), and the share of Sun hands bought by Ashkal (``mode = "sun (ashkal)"``, out of
    the Sun hands)."""
    lf = hands.lazy().with_columns(pl.col("mode").fill_null("void"))
    total = lf.select(pl.len()).collect().item()
    counts = lf.group_by("mode").agg(pl.len().cast(pl.Int64).alias("k")).collect()
    grid = pl.DataFrame({"mode": [*MODES, "void"]})
    out = (
        grid.join(counts, on="mode", how="left")
        .with_columns(pl.col("k").fill_null(0), n=pl.lit(total, dtype=pl.Int64))
        .with_columns(base=pl.lit("all hands"))
    )
    sun = lf.filter(pl.col("mode") == "sun")
    ashkal = pl.DataFrame(
        {
            "mode": ["sun (ashkal)"],
            "k": [int(sun.select(pl.col("ashkal").fill_null(False).sum()).collect().item())],
            "n": [int(sun.select(pl.len()).collect().item())],
            "base": ["sun hands"],
        },
        schema={"mode": pl.String, "k": pl.Int64, "n": pl.Int64, "base": pl.String},
    )
    out = pl.concat([out.select("mode", "k", "n", "base"), ashkal])
    return with_wilson(out)


def buyer_results(hands: Frame) -> pl.DataFrame:
    """Per mode and measure (``buyer_fails``, ``kaboot``, ``kaboot_buyer``, ``kaboot_defenders``,
        ``doubled``, ``gahwa``): ``k`` hands out of the ``n`` hands of the mode, with the rate, its
        interval, the unsourced human rate (``human``, where there is one; :data:`HUMAN_FAIL`) and
    whether it lies inside the interval."""
    lf = _bought(hands).with_columns(buyer_team=pl.col("bidder").cast(pl.Int16) % 2)
    kaboot = pl.col("kaboot_team")
    measures = {
        "buyer_fails": ~pl.col("made"),
        "kaboot": kaboot.is_not_null(),
        "kaboot_buyer": kaboot.is_not_null() & (kaboot == pl.col("buyer_team")),
        "kaboot_defenders": kaboot.is_not_null() & (kaboot != pl.col("buyer_team")),
        "doubled": pl.col("double").fill_null(1) > 1,
        "gahwa": pl.col("gahwa").fill_null(False),
    }
    parts = [
        rate_table(lf, ["mode"], expr).with_columns(pl.lit(name).alias("measure"))
        for name, expr in measures.items()
    ]
    human = pl.DataFrame(
        [("buyer_fails", m, v) for m, v in HUMAN_FAIL.items()]
        + [("kaboot", m, v) for m, v in HUMAN_KABOOT.items()],
        schema={"measure": pl.String, "mode": pl.String, "human": pl.Float64},
        orient="row",
    )
    out = pl.concat(parts).join(human, on=["measure", "mode"], how="left")
    out = out.with_columns(
        pl.when(pl.col("human").is_null())
        .then(None)
        .otherwise((pl.col("low") <= pl.col("human")) & (pl.col("human") <= pl.col("high")))
        .alias("human_inside")
    )
    order = {m: i for i, m in enumerate(measures)}
    return (
        out.with_columns(_o=pl.col("measure").replace_strict(order))
        .sort(["_o", "mode"])
        .select("mode", "measure", "k", "n", "rate", "low", "high", "human", "human_inside")
    )


def projects(hands: Frame) -> pl.DataFrame:
    """Per mode and measure: how often the buyer holds each project (``buyer_holds_sira`` ..),
    any project (``buyer_holds_any``), whose projects counted (``projects_counted_buyer``,
    ``projects_counted_defenders``), and (Hokum) how often some seat held a Baloot, each out of the
    ``n`` hands of the mode."""
    lf = _bought(hands).with_columns(
        buyer_team=pl.col("bidder").cast(pl.Int16) % 2,
        _p=pl.col("bidder_projects").fill_null([]),
    )
    measures: dict[str, pl.Expr] = {
        f"buyer_holds_{p}": pl.col("_p").list.contains(p) for p in PROJECTS
    }
    measures["buyer_holds_any"] = pl.col("_p").list.len() > 0
    team = pl.col("project_team")
    measures["projects_counted_buyer"] = team.is_not_null() & (team == pl.col("buyer_team"))
    measures["projects_counted_defenders"] = team.is_not_null() & (team != pl.col("buyer_team"))
    measures["baloot"] = pl.col("baloot_seat").is_not_null()
    parts = [
        rate_table(lf, ["mode"], expr).with_columns(pl.lit(name).alias("measure"))
        for name, expr in measures.items()
    ]
    order = {m: i for i, m in enumerate(measures)}
    out = pl.concat(parts).filter(~((pl.col("measure") == "baloot") & (pl.col("mode") == "sun")))
    return (
        out.with_columns(_o=pl.col("measure").replace_strict(order))
        .sort(["_o", "mode"])
        .select("mode", "measure", "k", "n", "rate", "low", "high")
    )


def _bars(ax: Axes, table: pl.DataFrame, measures: list[str], human: bool) -> None:
    width = 0.38
    x = np.arange(len(measures))
    for j, mode in enumerate(MODES):
        rows = [table.filter((pl.col("measure") == m) & (pl.col("mode") == mode)) for m in measures]
        rate = np.array(
            [r["rate"][0] if r.height and r["rate"][0] is not None else 0 for r in rows]
        )
        low = np.array([r["low"][0] if r.height else 0 for r in rows])
        high = np.array([r["high"][0] if r.height else 0 for r in rows])
        xs = x + (j - 0.5) * width
        ax.bar(xs, rate, width, yerr=np.vstack([rate - low, high - rate]), capsize=3, label=mode)
        if human:
            hv = [r["human"][0] if r.height else None for r in rows]
            pts = [(xi, h) for xi, h in zip(xs, hv) if h is not None]
            if pts:
                ax.scatter(
                    [p[0] for p in pts],
                    [p[1] for p in pts],
                    marker="_",
                    s=400,
                    color="black",
                    linewidths=2.5,
                    zorder=5,
                    label=UNSOURCED if j == 0 else None,
                )
    ax.set_xticks(x, [m.replace("_", "\n") for m in measures], fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small")


def figure(shares: pl.DataFrame, results: pl.DataFrame, proj: pl.DataFrame) -> Figure:
    """Three panels: the share of hands bought in each mode; buyer-fail and kaboot rates per mode
    beside the unsourced human rates (black ticks); project frequencies per mode. Error bars: 95% Wilson."""
    fig, (ax_s, ax_r, ax_p) = plt.subplots(
        1, 3, figsize=(15, 4.2), gridspec_kw={"width_ratios": [2, 3, 4]}
    )
    s = shares.filter(pl.col("base") == "all hands")
    rate = s["rate"].fill_null(0).to_numpy()
    ax_s.bar(
        s["mode"].to_list(),
        rate,
        yerr=np.vstack([rate - s["low"].to_numpy(), s["high"].to_numpy() - rate]),
        capsize=3,
        color=["C0", "C1", "C7"][: s.height],
    )
    for i, (r, k) in enumerate(zip(rate, s["k"])):
        ax_s.annotate(f"{r:.1%}\n({k:,})", (i, r), ha="center", va="bottom", fontsize="small")
    ax_s.set_ylim(0, max(1.0, float(rate.max()) * 1.2))
    ax_s.set_ylabel("share of hands dealt")
    ax_s.set_title("mode bought")
    ax_s.grid(axis="y", alpha=0.3)

    _bars(ax_r, results, ["buyer_fails", "kaboot", "kaboot_buyer", "kaboot_defenders"], True)
    ax_r.set_ylabel("share of hands of the mode")
    ax_r.set_title("buyer fails and kaboot (black: unsourced human rate)")

    _bars(
        ax_p,
        proj,
        [
            "buyer_holds_any",
            "buyer_holds_sira",
            "buyer_holds_fifty",
            "buyer_holds_hundred",
            "projects_counted_buyer",
            "projects_counted_defenders",
            "baloot",
        ],
        False,
    )
    ax_p.set_ylabel("share of hands of the mode")
    ax_p.set_title("projects")
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------------- report section


def baloot_modes_section(inp: ReportInput) -> Section | None:
    """The report section "Baloot modes": Sun and Hokum purchases
    (:func:`mode_shares`), buyer-fail and kaboot rates beside the unsourced human rates
    (:func:`buyer_results`), projects (:func:`projects`)."""
    if not inp.family.is_baloot:
        return None
    source = inp.bid_hands()
    if source is None:
        return None
    hands, runs = source
    shares = mode_shares(hands)
    results = buyer_results(hands)
    proj = projects(hands)
    sec = Section("baloot_modes", "Baloot modes")
    sec.blocks.append(
        Paragraph(
            f"Hands of {runs_text(runs)}. The buyer fails when the opponents' total beats his "
            "(RULES.md 3.6.3); a kaboot is all eight tricks to one team. Unsourced human rates (no source, "
            "sample size or definition is known for them; shown for comparison only, not as "
            "evidence about human play): Sun fails "
            f"{pct(HUMAN_FAIL['sun'])}, Hokum "
            f"{pct(HUMAN_FAIL['hokum'])}; kaboot in Sun "
            f"{pct(HUMAN_KABOOT['sun'])}, in Hokum "
            f"{pct(HUMAN_KABOOT['hokum'])} (per hand of the mode)."
        )
    )
    by = {(r["mode"]): r for r in shares.iter_rows(named=True)}
    if all(m in by for m in ("sun", "hokum", "void")):
        sec.findings.append(
            f"Sun is bought in {rate_text(by['sun'])} of the hands dealt, Hokum in "
            f"{rate_text(by['hokum'])}; nobody buys in {rate_text(by['void'])}."
        )
    for r in results.filter(pl.col("human").is_not_null()).iter_rows(named=True):
        if r["n"] < MIN_N:
            continue
        what = "the buyer fails" if r["measure"] == "buyer_fails" else "a kaboot happens"
        inside = "inside" if r["human_inside"] else "outside"
        sec.findings.append(
            f"In {r['mode'].capitalize()}, {what} in {rate_text(r)}, against an unsourced human "
            f"rate of {pct(r['human'])} ({inside} the interval)."
        )
    sec.blocks.append(
        Table(
            "mode_shares",
            "Mode bought, out of all hands dealt (Ashkal: out of the Sun hands).",
            shares,
            [text_col("mode", "mode"), text_col("base", "out of"), *rate_cols("share")],
        )
    )
    sec.blocks.append(
        Table(
            "buyer_results",
            "Per mode: buyer fails, kaboot (by either side, by the buyer, by the defenders), "
            "doubled, Gahwa, beside the unsourced human rate where there is one.",
            results,
            [
                text_col("mode", "mode"),
                text_col("measure", "measure"),
                *rate_cols("rate"),
                text_col("human", "human (unsourced)", pct),
                text_col(
                    "human_inside", "unsourced rate inside the CI", lambda v: "yes" if v else "no"
                ),
            ],
        )
    )
    sec.blocks.append(
        Table(
            "projects",
            "Projects per mode: held by the buyer, counted for either side, Baloot held.",
            proj,
            [text_col("mode", "mode"), text_col("measure", "measure"), *rate_cols("rate")],
        )
    )
    sec.blocks.append(
        Plot(
            "baloot_modes",
            "Mode shares; buyer-fail and kaboot rates per mode with the unsourced human rates (black "
            "ticks); project frequencies. 95% Wilson intervals.",
            figure(shares, results, proj),
        )
    )
    return sec
