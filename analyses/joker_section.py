"""The report's section on the joker (:func:`joker_section`): the paired joker forks of
:mod:`analyses.joker_lead`, led by the joker's value by context (:mod:`analyses.joker_context`),
and for Bahraini Kout the forced joker lead of whole matches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl

from kout_sim.commands import short_player

from .joker_context import (
    CONTEXT_KIND,
    HIDDEN,
    LABELS,
    VISIBLE,
    context_cells,
    context_value,
    opportunity_shares,
    same_hands,
    with_context,
)
from .joker_lead import (
    FORKS_KIND,
    figure,
    flips,
    forced_joker_by_holder,
    forced_joker_matches,
    joker_value,
    pairing_gain,
    shown_tricks,
    value_by,
)
from .section import (
    Column,
    Paragraph,
    Plot,
    ReportInput,
    Run,
    Section,
    Table,
    count,
    num,
    pct,
    pct_ci,
    rate_cols,
    text_col,
)

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
    report's preset (:func:`joker_value`, :func:`pairing_gain`, :func:`flips`, :func:`value_by`,
    :func:`figure`) and, for Bahraini Kout, the forced joker lead in its match runs with equal
    players (:func:`forced_joker_matches`, :func:`forced_joker_by_holder`)."""
    lineups = _lineups(inp)
    runs = lineups[0] if lineups else []
    bahraini = inp.family == "kout_bh"
    match_runs = [r for r in inp.match_runs if r.symmetric] if bahraini else []
    if not runs and not match_runs:
        return None
    lead = inp.family == "kout_bo"
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
                f"{' | '.join(dict.fromkeys(run.players))}), the position was played on twice: "
                "with the joker, and with the card the player's own policy picks among its other "
                "cards, from the same deal and with the same random numbers after the fork. The "
                "difference is the joker's value there. Intervals are 95%, with standard errors "
                "clustered by hand; the unpaired interval is what two independent samples of as "
                "many forks would give."
            )
        )
        if lead:
            _context_blocks(inp, section, lineups)
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
        section.blocks.append(
            Paragraph(
                "Points and the made rate move only when the joker changes whether the contract "
                "is made; then they move by a whole contract. The variance of those changes is "
                "the joker's real effect, which no pairing removes: for a two-valued result any "
                "pairing reduces the variance by (p_j(1-p_j) + p_o(1-p_o)) / (flip rate - "
                "(p_j - p_o)^2) (before clustering by hand), shown above. The tricks taken move in almost every fork, and "
                "there the pairing removes most of the variance."
            )
        )
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


# ---- the joker's value by context (Kout Bo) ---------------------------------------------------------

MIN_CELL = 200
"""The fewest forks a context cell needs to be named in the findings (and tested)."""

OTHER_JOKER_WORDS = {
    "in own hand": "holding the other joker too",
    "played by partner": "after the partner played the other joker",
    "played by an opponent": "after an opponent played the other joker",
    "played by self": "after playing the other joker oneself",
    "still out": "with the other joker still unplayed in another hand",
}


MIN_N_BAWAN = 30
"""The fewest Bawan forks for a finding of their own (they are rare: about 0.3% of the forks)."""


def _players(run: Run, family: str) -> str:
    """A run's players as short specs (parameters at their defaults left out)."""
    return " | ".join(dict.fromkeys(short_player(p, family) for p in run.players))


def _lineups(inp: ReportInput) -> list[list[Run]]:
    """The forks runs of the report's preset grouped by line-up, in the order given: runs of
    different players are never pooled."""
    groups: dict[tuple[str, ...], list[Run]] = {}
    for r in inp.other_runs:
        if r.kind == FORKS_KIND and r.preset == inp.preset:
            groups.setdefault(r.lineup_key, []).append(r)
    return list(groups.values())


def _with_context(inp: ReportInput, runs: list[Run]) -> pl.DataFrame | None:
    """The forks of ``runs`` with the context of the context runs played from the same hands;
    None unless every forks run has one."""
    contexts = [r for r in inp.other_runs if r.kind == CONTEXT_KIND]
    parts = []
    for run in runs:
        match = [c for c in contexts if same_hands(run.settings, c.settings)]
        if not match:
            return None
        parts.append(with_context(run.tables["forks"], match[0].tables["context"]))
    return pl.concat(parts, how="diagonal_relaxed")


def _where(r: dict[str, Any]) -> str:
    """A context cell of :func:`context_cells` in a card player's words."""
    contract = str(r["contract_band"])
    bid = "Bawan (contract 9)" if contract.startswith("9") else f"contract {contract}"
    side = "the bidding team" if r["role"] == "bidding team" else "a defender"
    return f"{side} at {bid}, tricks {r['trick_band']}, {OTHER_JOKER_WORDS[str(r['other_joker'])]}"


def _value(r: dict[str, Any]) -> str:
    return (
        f"{num(r['diff'], 2, True)} points per hand (95% CI {num(r['low'], 2, True)} .. "
        f"{num(r['high'], 2, True)}, n={count(r['n'])} forks)"
    )


def _context_columns(column: str) -> list[Column]:
    return [
        Column("role", lambda r: str(r["role"])),
        text_col(column, LABELS[column]),
        Column("the player's own choice", lambda r: str(r["choice"])),
        Column("forks (share)", lambda r: f"{count(r['n'])} ({pct(r['share'])})"),
        Column("joker", lambda r: num(r["mean_joker"], 3, True)),
        Column("best other card", lambda r: num(r["mean_other"], 3, True)),
        Column(
            "joker minus other (95% CI)",
            lambda r: (
                f"{num(r['diff'], 3, True)} ({num(r['low'], 3, True)} .. {num(r['high'], 3, True)})"
            ),
        ),
    ]


def _sign(r: dict[str, Any] | None) -> int | None:
    """+1 / -1: the interval excludes 0 on that side; 0: it holds 0; None: too few forks."""
    if r is None or r["n"] < MIN_CELL:
        return None
    return 1 if r["low"] > 0 else -1 if r["high"] < 0 else 0


def _across(tables: list[pl.DataFrame], column: str) -> pl.DataFrame:
    """Per role and value of ``column`` (every fork): the value under each line-up and whether
    its sign holds across them."""
    keyed = [
        {(r["role"], r[column]): r for r in t.filter(pl.col("choice") == "all").to_dicts()}
        for t in tables
    ]
    out = []
    for key in sorted(set().union(*keyed), key=lambda k: (str(k[0]), str(k[1]))):
        rows = [k.get(key) for k in keyed]
        signs = [_sign(r) for r in rows]
        if None in signs:
            verdict = f"fewer than {MIN_CELL} forks under a line-up"
        elif all(x == signs[0] != 0 for x in signs):
            verdict = "holds (same sign, every interval excludes 0)"
        elif 1 in signs and -1 in signs:
            verdict = "reverses"
        else:
            verdict = "not separated from 0 under a line-up"
        entry: dict[str, Any] = {"role": key[0], "context": LABELS[column], "value": str(key[1])}
        for i, r in enumerate(rows):
            entry[f"n_{i}"] = None if r is None else r["n"]
            entry[f"diff_{i}"] = None if r is None else r["diff"]
            entry[f"low_{i}"] = None if r is None else r["low"]
            entry[f"high_{i}"] = None if r is None else r["high"]
        entry["sign"] = verdict
        out.append(entry)
    return pl.DataFrame(out, infer_schema_length=None)


def _lineup_cell(i: int) -> Callable[[dict[str, Any]], str]:
    def render(r: dict[str, Any]) -> str:
        if r[f"diff_{i}"] is None:
            return "n/a"
        return (
            f"{num(r[f'diff_{i}'], 2, True)} ({num(r[f'low_{i}'], 2, True)} .. "
            f"{num(r[f'high_{i}'], 2, True)}; {count(r[f'n_{i}'])})"
        )

    return render


def _context_blocks(inp: ReportInput, section: Section, lineups: list[list[Run]]) -> None:
    """The context part of the joker section, first in it (its findings first too)."""
    df = _with_context(inp, lineups[0])
    if df is None:
        section.blocks.append(
            Paragraph(
                "No context run (the forks' hands played again with --actions, "
                "analyses.joker_context.write_context) was given: the joker's value is shown by "
                "contract, trick and trumps out only."
            )
        )
        return
    players = _players(lineups[0][0], inp.family)
    shares = opportunity_shares(df)
    overall = {r["role"]: r for r in joker_value(df).to_dicts()}
    own = context_value(df, "permission")
    cells = context_cells(df, min_n=MIN_CELL)
    tested = cells.filter(pl.col("holm"))
    helps = tested.filter(pl.col("diff") > 0).sort("diff", descending=True)
    hurts = tested.filter(pl.col("diff") < 0).sort("diff")
    findings: list[str] = []
    for r in helps.head(2).to_dicts():
        findings.append(f"Lead the joker ({_where(r)}): {_value(r)}.")
    for r in hurts.head(2).to_dicts():
        findings.append(f"Do not lead the joker ({_where(r)}): {_value(r)}.")
    bawan = [
        r
        for r in own.filter(
            (pl.col("choice") == "all") & (pl.col("role") == "bidding team")
        ).to_dicts()
        if r["permission"] == "contract 9 (Bawan)" and r["n"] >= MIN_N_BAWAN
    ]
    for r in bawan:
        verb = "Lead" if r["low"] > 0 else "Do not lead" if r["high"] < 0 else "Either way"
        findings.append(
            f"{verb} the joker at Bawan (contract 9, the bidding team; a rare position, "
            f"{pct(r['share'])} of its forks): {_value(r)}."
        )
    bt = shares.get("bidding team")
    if bt and "bidding team" in overall:
        o = overall["bidding team"]
        by_choice = {
            r["choice"]: r
            for r in own.filter(pl.col("role") == "bidding team").to_dicts()
            if r["permission"] == "trump A K Q J all played"
        }
        led = joker_value(df.filter(pl.col("choice") == "led it")).to_dicts()
        led_bt = [r for r in led if r["role"] == "bidding team"]
        text = (
            f"The average, {num(o['diff'], 2, True)} points per hand for the bidding team "
            f"(n={count(o['n'])} forks), is an average over every legal joker lead on the "
            f"heuristic's path: {pct(bt['honours_only'])} of them are legal only because trump "
            f"A K Q J have all been played, and in {pct(bt['no_change'])} the two branches end "
            "with the same points"
        )
        if led_bt:
            text += (
                f"; for the {pct(bt['led'])} of leads the player itself chose it is "
                f"{_value(led_bt[0])}"
            )
        if "declined" in by_choice:
            text += (
                f", for the leads it declined after A K Q J fell {_value(by_choice['declined'])}"
            )
        findings.append(text + ".")
    section.findings.extend(findings)
    section.blocks.append(
        Paragraph(
            f"These are the figures of one line-up, the players {players} in every seat: the "
            "positions are those its bidding and play reach, and the play after the fork is its "
            "own. What a leader can see at the fork (the contract, the tricks his team still "
            "needs, the trick, where the other joker went, the trump A K Q J not yet played) is "
            "read from the same hands played again with their decisions recorded; which seat "
            "holds an unplayed other joker is a fact of the deal he cannot see, and is shown "
            "apart, labelled hidden. 'The player's own choice' splits the forks by what the "
            "player did in the hand itself: the leads it made and the ones it declined."
        )
    )
    section.blocks.append(
        Table(
            "context_cells",
            "Where leading the joker helps and where it hurts: net points per hand, joker minus "
            "best other card, by contract, trick (in threes) and where the other joker is; cells "
            f"of at least {MIN_CELL} forks whose sign survives Holm's correction over all such "
            "cells, best first",
            pl.concat([helps, hurts]),
            [
                Column("where", _where),
                Column(
                    "forks (share of the role's)", lambda r: f"{count(r['n'])} ({pct(r['share'])})"
                ),
                Column(
                    "joker minus other (95% CI)",
                    lambda r: (
                        f"{num(r['diff'], 3, True)} ({num(r['low'], 3, True)} .. "
                        f"{num(r['high'], 3, True)})"
                    ),
                ),
            ],
        )
    )
    tables = {}
    for column in (*VISIBLE, *HIDDEN):
        table = context_value(df, column)
        tables[column] = table
        hidden = " (a hidden fact: the leader cannot see it)" if column in HIDDEN else ""
        section.blocks.append(
            Table(
                f"context_{column}",
                f"The joker's value by {LABELS[column]}{hidden}: every fork, and split by the "
                "player's own choice",
                table,
                _context_columns(column),
            )
        )
    section.data["opportunity_shares"] = shares
    if len(lineups) < 2:
        return
    others = []
    for runs in lineups[1:]:
        other = _with_context(inp, runs)
        if other is not None:
            others.append((runs, other))
    if not others:
        return
    names = [players, *(_players(r[0], inp.family) for r, _ in others)]
    across = pl.concat(
        [
            _across([tables[c], *(context_value(o, c) for _, o in others)], c)
            for c in ("contract", "tricks_needed", "trick", "other_joker", "honours_left")
        ],
        how="diagonal_relaxed",
    )
    cols = [
        Column("role", lambda r: str(r["role"])),
        Column("context", lambda r: f"{r['context']}: {r['value']}"),
    ]
    for i in range(len(names)):
        cols.append(Column(f"line-up {i + 1} (n)", _lineup_cell(i)))
    cols.append(Column("sign across line-ups", lambda r: str(r["sign"])))
    section.blocks.append(
        Paragraph(
            "The same context tables under other line-ups (same deals, same seed): "
            + "; ".join(f"line-up {i + 1}: {n}" for i, n in enumerate(names))
            + ". A sign 'holds' when every line-up's interval excludes 0 on the same side."
        )
    )
    section.blocks.append(
        Table("context_lineups", "The joker's value by context across line-ups", across, cols)
    )
    held = across.filter(pl.col("sign").str.starts_with("holds")).height
    tested_rows = across.filter(~pl.col("sign").str.starts_with("fewer")).height
    section.findings.append(
        f"Across the line-ups ({'; '.join(names[1:])} beside the heuristic), the sign of the "
        f"joker's value holds in {held} of {tested_rows} contexts with at least {MIN_CELL} forks "
        f"under each, and reverses in {across.filter(pl.col('sign') == 'reverses').height}."
    )
    section.data["lineups"] = names
