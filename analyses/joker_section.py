"""The report's section on the joker (:func:`joker_section`): the paired joker forks of
:mod:`analyses.joker_lead`, led by the joker's value by context (:mod:`analyses.joker_context`),
and for Bahraini Kout the forced joker lead of whole matches."""

from __future__ import annotations

from typing import Any

import polars as pl

from .columns import rate_cols, text_col
from .fmt import count, num, pct, pct_ci, players_text
from .joker_context_section import context_blocks
from .joker_lead import (
    FORKS_KIND,
    changes,
    figure,
    flips,
    forced_joker_by_holder,
    forced_joker_matches,
    joker_value,
    pairing_gain,
    shown_tricks,
    value_by,
)
from .section import Column, Paragraph, Plot, ReportInput, Run, Section, Table

REPORT_MEASURES = (("net", "net points per hand", False), ("made", "contract made", True))


def _value_columns(percent: bool) -> list[Column]:
    def fmt(x: Any) -> str:
        return pct(x) if percent else num(x, 3, signed=True)

    def ci(r: dict[str, Any], lo: str, hi: str) -> str:
        if percent:
            return f"{100 * r[lo]:+.2f} .. {100 * r[hi]:+.2f} points of %"
        return f"{num(r[lo], 3, signed=True)} .. {num(r[hi], 3, signed=True)}"

    def diff(r: dict[str, Any]) -> str:
        value = f"{100 * r['diff']:+.2f} points of %" if percent else num(r["diff"], 3, True)
        return f"{value} ({ci(r, 'low', 'high')})"

    return [
        Column("forks (hands)", lambda r: f"{count(r['n'])} ({count(r['hands'])})"),
        Column("joker", lambda r: fmt(r["mean_joker"])),
        Column("best other card", lambda r: fmt(r["mean_other"])),
        Column("paired difference (95% CI)", diff),
        Column("unpaired 95% CI", lambda r: ci(r, "unpaired_low", "unpaired_high")),
        Column(
            "variance reduction",
            lambda r: (
                "n/a" if r["variance_reduction"] is None else f"{r['variance_reduction']:.1f}x"
            ),
        ),
    ]


def _significant(table: pl.DataFrame, column: str, role: str, min_n: int) -> list[dict[str, Any]]:
    rows = table.filter(
        (pl.col("role") == role)
        & (pl.col("n") >= min_n)
        & ((pl.col("low") > 0) | (pl.col("high") < 0))
    )
    return rows.sort("diff").to_dicts()


def joker_section(inp: ReportInput) -> Section | None:
    """The report section "The joker": the paired forks of ``kout-sim forks`` runs of the
    report's preset, those of the first line-up given (runs of different players are never
    pooled): for Kout Bo first by context (:func:`analyses.joker_context_section.context_blocks`,
    with the other line-ups beside it), then :func:`joker_value`, :func:`pairing_gain`,
    :func:`flips`, :func:`value_by`, :func:`figure`; for Bahraini Kout also the forced joker lead
    in its match runs with equal players (:func:`forced_joker_matches`,
    :func:`forced_joker_by_holder`)."""
    lineups = _lineups(inp)
    runs = lineups[0] if lineups else []
    bahraini = inp.family.is_bahraini
    match_runs = [r for r in inp.match_runs if r.symmetric] if bahraini else []
    if not runs and not match_runs:
        return None
    lead = inp.family.is_kuwaiti
    section = Section("joker", "The joker: paired forks" if runs else "The forced joker lead")
    if runs:
        forks = pl.concat([r.tables["forks"].collect() for r in runs], how="diagonal_relaxed")
        run = runs[0]
        what = "lead a joker" if lead else "play the joker into a trick"
        section.blocks.append(
            Paragraph(
                f"At every decision where a seat could {what} and could also play another card "
                f"({len(forks):,} decisions in {forks['hand'].n_unique():,} of "
                f"{sum(int(r.settings['count']) for r in runs):,} hands, players "
                f"{players_text([run], inp.family)}), "
                "the position was played on twice: "
                "with the joker, and with the card the player's own policy picks among its other "
                "cards, from the same deal and with the same random numbers after the fork. The "
                "difference is the joker's value there. Intervals are 95%, with standard errors "
                "clustered by hand; the unpaired interval is what two independent samples of as "
                "many forks would give."
            )
        )
        if lead:
            context_blocks(inp, section, lineups)
        tables = []
        for measure, label, percent in REPORT_MEASURES:
            t = joker_value(forks, measure).with_columns(measure=pl.lit(measure))
            tables.append(t)
            cols = [Column("role", lambda r: str(r["role"])), *_value_columns(percent)]
            section.blocks.append(
                Table(f"value_{measure}", f"Joker vs best other card: {label}", t, cols)
            )
        tricks = joker_value(forks, "tricks")
        gain = pl.concat(
            [
                pairing_gain(forks, m).with_columns(measure=pl.lit(m))
                for m in ("net", "made", "tricks")
            ],
            how="diagonal_relaxed",
        )

        def width(r: dict[str, Any], name: str) -> str:
            scale = 100 if r["measure"] == "made" else 1
            return f"{scale * r[name]:.3f}"

        section.blocks.append(
            Table(
                "pairing_gain",
                "95% interval widths of the joker's value: paired forks against the two unpaired "
                "comparisons on the same forks (made rate in points of %)",
                gain,
                [
                    Column("measure", lambda r: str(r["measure"])),
                    Column("role", lambda r: str(r["role"])),
                    Column("forks", lambda r: count(r["n"])),
                    Column("paired", lambda r: width(r, "width_paired")),
                    Column(
                        "the player's own joker plays vs its other plays (n joker / n other)",
                        lambda r: (
                            f"{width(r, 'width_observed')} ({count(r['n_joker'])} / "
                            f"{count(r['n_other'])})"
                        ),
                    ),
                    Column(
                        "observed / paired",
                        lambda r: (
                            "n/a" if r["ratio_observed"] is None else f"{r['ratio_observed']:.1f}x"
                        ),
                    ),
                    Column("independent deals", lambda r: width(r, "width_independent")),
                    Column(
                        "independent / paired",
                        lambda r: (
                            "n/a"
                            if r["ratio_independent"] is None
                            else f"{r['ratio_independent']:.1f}x"
                        ),
                    ),
                ],
            )
        )
        for r in gain.filter(
            (pl.col("role") == "bidding team") & pl.col("ratio_observed").is_not_null()
        ).to_dicts():
            section.findings.append(
                f"Pairing ({r['measure']}): the paired interval is {r['ratio_observed']:.1f}x "
                "narrower than comparing, on the same hands, the player's own joker plays "
                f"(n={count(r['n_joker'])}) with its other plays (n={count(r['n_other'])}), and "
                f"{r['ratio_independent']:.1f}x narrower than two samples on independent deals."
            )
        flipped = flips(forks)
        section.blocks.append(
            Table(
                "flips",
                "How often the joker changes the result of the hand (made or failed)",
                flipped,
                [
                    Column("role", lambda r: str(r["role"])),
                    *rate_cols("forks where the result changes"),
                    Column(
                        "variance reduction a pairing can give the made rate",
                        lambda r: (
                            "n/a"
                            if r["max_variance_reduction"] is None
                            else f"{r['max_variance_reduction']:.1f}x"
                        ),
                    ),
                ],
            )
        )
        moved = changes(forks)
        n_all, n_tricks = int(moved["n"].sum()), int(moved["tricks_changed"].sum())
        section.blocks.append(
            Paragraph(
                "Points and the made rate move only when the joker changes whether the contract "
                "is made; then they move by a whole contract. The variance of those changes is "
                "the joker's real effect, which no pairing removes: for a two-valued result any "
                "pairing reduces the variance by (p_j(1-p_j) + p_o(1-p_o)) / (flip rate - "
                "(p_j - p_o)^2) (before clustering by hand), shown above. The tricks taken move "
                f"in {count(n_tricks)} of {count(n_all)} forks "
                f"({pct(n_tricks / n_all if n_all else None)}); the pairing removes the variance "
                "of all the others, which is why it narrows the tricks' interval most."
            )
        )
        section.data["tricks_changed"] = {"n": n_all, "k": n_tricks}
        section.blocks.append(
            Table(
                "value_tricks",
                "Joker vs best other card: tricks taken by the seat's team",
                tricks,
                [Column("role", lambda r: str(r["role"])), *_value_columns(False)],
            )
        )
        for column, label in (
            ("contract", "contract"),
            ("trick", "trick (1 = first)"),
            ("trumps_out", "trumps still out"),
        ):
            by = shown_tricks(value_by(forks, column, "net"))
            section.blocks.append(
                Table(
                    f"by_{column}",
                    f"Net points per hand, joker minus best other card, by {label}",
                    by,
                    [
                        Column("role", lambda r: str(r["role"])),
                        text_col(column, label),
                        *_value_columns(False),
                    ],
                )
            )
        section.blocks.append(
            Plot(
                "figure",
                "The joker's value (net points per hand) with 95% intervals",
                figure(forks, "net"),
            )
        )
        net = {r["role"]: r for r in tables[0].to_dicts()}
        made = {r["role"]: r for r in tables[1].to_dicts()}
        tr = {r["role"]: r for r in tricks.to_dicts()}
        for role in ("bidding team", "defenders"):
            if role not in net or net[role]["n"] < 30:
                continue
            rn, rm, rt = net[role], made[role], tr[role]
            verb = "Leading a permitted joker" if lead else "Playing the joker into a trick"
            whose = "the bidding team's" if role == "bidding team" else "the defenders'"
            section.findings.append(
                f"{verb} rather than the best other card changes {whose} net points per hand by "
                f"{num(rn['diff'], 3, True)} (95% CI {num(rn['low'], 3, True)} .. "
                f"{num(rn['high'], 3, True)}, n={count(rn['n'])} forks in {count(rn['hands'])} hands) "
                f"and the bidding team's made rate by {100 * rm['diff']:+.2f} points of % "
                f"({100 * rm['low']:+.2f} .. {100 * rm['high']:+.2f}); the pairing narrows the "
                "interval "
                + (
                    f"{rn['variance_reduction'] ** 0.5:.1f}x for points and "
                    if rn["variance_reduction"] is not None
                    else ""
                )
                + (
                    f"{rt['variance_reduction'] ** 0.5:.1f}x for tricks"
                    if rt["variance_reduction"] is not None
                    else "(every pair agreed)"
                )
                + "."
            )
        by_trick = shown_tricks(value_by(forks, "trick", "net"))
        best = _significant(by_trick, "trick", "bidding team", 200)
        if best:
            hi = best[-1]
            if hi["diff"] > 0:
                section.findings.append(
                    f"The joker pays for the bidding team at trick {hi['trick']}: "
                    f"{num(hi['diff'], 3, True)} points per hand ({num(hi['low'], 3, True)} .. "
                    f"{num(hi['high'], 3, True)}, n={count(hi['n'])})."
                )
            lo = best[0]
            if lo["diff"] < 0:
                section.findings.append(
                    f"It costs the bidding team most at trick {lo['trick']}: "
                    f"{num(lo['diff'], 3, True)} points per hand ({num(lo['low'], 3, True)} .. "
                    f"{num(lo['high'], 3, True)}, n={count(lo['n'])})."
                )
        if bahraini:
            lost = joker_value(forks, "match_lost").filter(pl.col("n") >= 30)
            section.blocks.append(
                Table(
                    "value_match_lost",
                    "Joker vs best other card: the hand loses the match (forced joker lead)",
                    lost,
                    [Column("role", lambda r: str(r["role"])), *_value_columns(True)],
                )
            )
            for r in lost.to_dicts():
                if r["mean_other"] > 0:
                    section.findings.append(
                        f"Keeping the joker ({r['role']}) ends {pct(r['mean_other'], 2)} of these "
                        f"hands with the forced joker lead that loses the match (n={count(r['n'])}); "
                        "shedding it removes that risk."
                    )
        section.data["forks_runs"] = [r.shown for r in runs]
    for run in match_runs[:1]:
        matches = forced_joker_matches(run.tables["matches"])
        holders = forced_joker_by_holder(run.tables["hands"])
        section.blocks.append(
            Table(
                "forced_matches",
                f"Matches ended by the forced joker lead (RULES.md 2.8), target {run.target or 'default'}",
                matches,
                rate_cols("matches"),
            )
        )
        section.blocks.append(
            Table(
                "forced_by_holder",
                "Hands ended by the forced joker lead, by the joker holder's role and trumps dealt",
                holders,
                [
                    Column("holder", lambda r: str(r["holder_role"])),
                    Column("holder's trumps", lambda r: str(r["holder_trumps"])),
                    *rate_cols("hands"),
                ],
            )
        )
        ended = matches.to_dicts()[0]
        section.findings.append(
            f"The forced joker lead ends {pct(ended['rate'])} of matches (95% CI "
            f"{pct_ci(ended['low'], ended['high'])}, n={count(ended['n'])})."
        )
    return section


def _lineups(inp: ReportInput) -> list[list[Run]]:
    """The forks runs of the report's preset grouped by line-up, in the order given: runs of
    different players are never pooled."""
    groups: dict[tuple[str, ...], list[Run]] = {}
    for r in inp.other_runs:
        if r.kind == FORKS_KIND and r.preset == inp.preset:
            groups.setdefault(r.lineup_key, []).append(r)
    return list(groups.values())
