"""The Kout Bo part of the report's joker section: the joker's value by context
(:mod:`analyses.joker_context`), first in the section, its findings first in the summary; and the
same context tables under every other line-up of the report, with whether each sign holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl

from .columns import text_col
from .fmt import count, num, pct, players_text
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
from .joker_lead import joker_value, paired_value
from .section import ADVICE_PRIORITY, Column, Paragraph, ReportInput, Run, Section, Table

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


CELL_KEYS = ("role", "contract_band", "trick_band", "other_joker")
"""The columns that name a cell of :func:`context_cells`."""


def _cell_holds(r: dict[str, Any], others: list[tuple[str, pl.DataFrame]]) -> str | None:
    """Whether the joker's value in the cell ``r`` holds under the other line-ups ``others``
    (their names and :func:`context_cells`), in words: ``holds under X (+0.80, 95% CI ...)``
    when that line-up's interval excludes 0 on the same side, else what it shows there; None
    when there is no other line-up."""
    if not others:
        return None
    parts = []
    sign = 1 if r["diff"] > 0 else -1
    for name, cells in others:
        same = cells.filter(*(pl.col(k) == r[k] for k in CELL_KEYS)).to_dicts()
        if not same or same[0]["n"] < MIN_CELL:
            parts.append(f"too few forks under {name} to check")
            continue
        o = same[0]
        if (o["low"] > 0 and sign > 0) or (o["high"] < 0 and sign < 0):
            word = "holds under"
        elif (o["high"] < 0 and sign > 0) or (o["low"] > 0 and sign < 0):
            word = "reverses under"
        else:
            word = "not separated from 0 under"
        parts.append(f"{word} {name}: {_value(o)}")
    return "; ".join(parts)


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
        elif all(r is not None and r["low"] == r["high"] == 0 for r in rows):
            verdict = "no effect (every pair of branches equal under every line-up)"
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


def context_blocks(inp: ReportInput, section: Section, lineups: list[list[Run]]) -> None:
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
    players = players_text(lineups[0][:1], inp.family)
    shares = opportunity_shares(df)
    overall = {r["role"]: r for r in joker_value(df).to_dicts()}
    own = context_value(df, "permission")
    choices = paired_value(df, ["role", "choice"])
    cells = context_cells(df, min_n=MIN_CELL)
    tested = cells.filter(pl.col("holm"))
    helps = tested.filter(pl.col("diff") > 0).sort("diff", descending=True)
    hurts = tested.filter(pl.col("diff") < 0).sort("diff")
    others = []
    for runs in lineups[1:]:
        other = _with_context(inp, runs)
        if other is not None:
            others.append((runs, other))
    other_cells = [
        (players_text(runs[:1], inp.family), context_cells(o, min_n=MIN_CELL)) for runs, o in others
    ]
    for r in helps.head(2).to_dicts():
        section.advise(
            f"Lead the joker ({_where(r)}): {_value(r)}.",
            players,
            _cell_holds(r, other_cells),
            ADVICE_PRIORITY["joker"],
        )
    for r in hurts.head(2).to_dicts():
        section.advise(
            f"Do not lead the joker ({_where(r)}): {_value(r)}.",
            players,
            _cell_holds(r, other_cells),
            ADVICE_PRIORITY["joker"],
        )
    findings: list[str] = []
    bawan = [
        r
        for r in own.filter(
            (pl.col("choice") == "all") & (pl.col("role") == "bidding team")
        ).to_dicts()
        if r["permission"] == "contract 9 (Bawan)" and r["n"] >= MIN_N_BAWAN
    ]
    for r in bawan:
        verb = "Lead" if r["low"] > 0 else "Do not lead" if r["high"] < 0 else "Either way"
        section.advise(
            f"{verb} the joker at Bawan (contract 9, the bidding team; a rare position, "
            f"{pct(r['share'])} of its forks): {_value(r)}.",
            players,
            priority=ADVICE_PRIORITY["joker_rare"],
        )
    bt = shares.get("bidding team")
    if bt and "bidding team" in overall:
        o = overall["bidding team"]
        mine = {r["choice"]: r for r in choices.to_dicts() if r["role"] == "bidding team"}
        text = (
            f"The average, {num(o['diff'], 2, True)} points per hand for the bidding team "
            f"(n={count(o['n'])} forks), is an average over every legal joker lead on the "
            f"path of the line-up {players}: {pct(bt['honours_only'])} of them are legal only because trump "
            f"A K Q J have all been played; in {pct(bt['one_trick'])} the team needs one more "
            f"trick (there the joker changed the points in {count(bt['one_trick_changed'])} of "
            f"{count(bt['one_trick_n'])} forks), "
            f"and in {pct(bt['no_change'])} in all the two branches end with the same points"
        )
        if "led it" in mine:
            text += (
                f"; for the {pct(bt['led'])} of leads the player itself chose it is "
                f"{_value(mine['led it'])}"
            )
        if "declined" in mine:
            text += f", for the leads it declined {_value(mine['declined'])}"
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
    section.blocks.append(
        Table(
            "context_choice",
            "The player's own choice: the joker's value in the leads it made and in the ones it "
            "declined (net points per hand, joker minus best other card)",
            choices,
            [
                Column("role", lambda r: str(r["role"])),
                Column("the player's own choice", lambda r: str(r["choice"])),
                Column("forks (hands)", lambda r: f"{count(r['n'])} ({count(r['hands'])})"),
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
    if not others:
        return
    names = [players, *(players_text(r[:1], inp.family) for r, _ in others)]
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
    averages = [
        joker_value(d).filter(pl.col("role") == "bidding team").to_dicts()
        for d in (df, *(o for _, o in others))
    ]
    verdicts = across["sign"].to_list()

    def n_of(prefix: str) -> int:
        return sum(v.startswith(prefix) for v in verdicts)

    tested_rows = len(verdicts) - n_of("fewer")
    section.findings.append(
        f"Across the line-ups ({'; '.join(names[1:])} beside {names[0]}, the same deals), of "
        f"{tested_rows} contexts with at least {MIN_CELL} forks under each the sign of the "
        f"joker's value holds in {n_of('holds')}, reverses in {n_of('reverses')}, is not "
        f"separated from 0 under a line-up in {n_of('not separated')}, and is exactly 0 under "
        f"all in {n_of('no effect')}; the overall average moves with the line-up, because the "
        "positions it reaches differ: "
        + "; ".join(f"{name}: {_value(a[0])}" for name, a in zip(names, averages) if a)
        + "."
    )
    section.data["sign_across_lineups"] = {
        "contexts": tested_rows,
        "holds": n_of("holds"),
        "reverses": n_of("reverses"),
        "not_separated": n_of("not separated"),
        "no_effect": n_of("no effect"),
    }
    section.data["lineups"] = names
