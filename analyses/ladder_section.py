"""The report's section "The ladder of players": the rating, then each headline answer per rung with
its verdict (:mod:`analyses.ladder`, :mod:`analyses.ladder_rating`).

It reads the rung runs (``kind`` ``ladder_rung``) and the duels (``ladder_duel``) of a ``kout-sim
study ladder`` folder; without rung runs it is left out. Every figure names the players it comes
from; every verdict follows the rule of :mod:`analyses.ladder`, restated in the section.

Size: over 600 lines on purpose: one report section, whose parts (the rating, the best call by
strength, one table per answer, the findings) share the rung columns, the sentences and the
verdict words defined here; split, the wording of one section would be spread over modules.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from kout_sim.rules import Family

from .bid_forks import call_rank
from .columns import count_col, text_col
from .commands import short_player, with_out
from .fmt import count, num, pct, pct_ci
from .ladder import (
    CONTEXTS,
    DEPENDS,
    HOLDS,
    RUNG_KIND,
    SAME_SIGN,
    TIE,
    TOO_FEW,
    best_by_rung,
    best_call_beats,
    best_call_verdicts,
    calls_by_rung,
    context_by_rung,
    contracts_by_rung,
    is_search,
    joker_by_rung,
    judged,
    length_by_rung,
    points_by_rung,
    ranges_by_rung,
    reference_rung,
    strength_ranges,
)
from .ladder_rating import ANCHOR, DUEL_KIND, deal_outcomes, fit_ratings
from .ladder_rung import rung_tables
from .section import ADVICE_PRIORITY, MIN_N, Column, Paragraph, ReportInput, Run, Section, Table

MAX_SENTENCES = 8
"""An answer with more rows than this is summed up by a count of its verdicts, and only the rows
that depend on the player (from heuristic up) get a sentence, at most this many."""

RULE_TEXT = (
    "How to read a verdict: for each answer the players with at least {min_n} hands (or forks, "
    "or matches) are compared by their 95% intervals. 'Holds' means every player's interval "
    "overlaps every other's (no difference shown at these sample sizes); 'holds from heuristic "
    "up' means the same without the random player; 'same sign' (points and joker values) means "
    "the intervals do not all overlap but all lie on the same side of zero, so the direction of "
    "the advice holds while its size depends on the player; otherwise the answer depends on the "
    "player. All players are dealt the same cards (same seed: hand i is the same deal under "
    "every player; the search players play the first hands of those deals only), and each plays "
    "itself in every seat; the intervals are computed as if the players' samples were "
    "independent, which makes 'holds' a lenient test."
)


def verdict_text(v: str, v_up: str) -> str:
    """A verdict (over every rung, and from the heuristic up) in words. The players compared are
    those with enough observations; a cell of a player left out says so."""
    if v == HOLDS:
        return "holds across the players compared"
    if v_up == HOLDS:
        return "holds from heuristic up (not under random)"
    if v == SAME_SIGN:
        return "same sign under every player compared; the size depends on the player"
    if v_up == SAME_SIGN:
        return "same sign from heuristic up; the size depends on the player"
    if v == TIE:
        return "the best call differs, but no player shows another's best call worse (a tie)"
    if v_up == TIE:
        return (
            "from heuristic up the best call differs, but no player shows another's best call "
            "worse (a tie)"
        )
    if v == TOO_FEW:
        return "too few hands to compare"
    return DEPENDS


def _label(spec: str, family: str) -> str:
    return short_player(spec, family)


def _sizes_text(rung: str, settings: dict[str, Any], family: str) -> str:
    """What one rung played: its hands, the hands forked, its matches per target."""
    parts = [f"{count(settings['count'])} hands"]
    if settings.get("joker_hands"):
        parts.append(f"joker forks of {count(settings['joker_hands'])} hands")
    if settings.get("bid_hands"):
        parts.append(f"bid forks of {count(settings['bid_hands'])} hands")
    if settings.get("matches"):
        parts.append(f"{count(settings['matches'])} matches per target")
    return f"{_label(rung, family)}: " + ", ".join(parts)


def _wide(
    long: pl.DataFrame,
    verdicts: pl.DataFrame,
    keys: Sequence[str],
    rungs: Sequence[str],
    cell: Callable[[dict[str, Any]], str],
) -> pl.DataFrame:
    """One row per key: the verdict columns and one text column ``r<i>`` per rung."""
    rows = []
    for v in verdicts.iter_rows(named=True):
        row = dict(v)
        for i, rung in enumerate(rungs):
            match = long.filter(
                pl.all_horizontal([pl.col(k) == v[k] for k in keys]) & (pl.col("rung") == rung)
            )
            text = cell(match.row(0, named=True)) if len(match) else ""
            if text and rung not in v["rungs"]:
                text += f" (not compared: under {MIN_N})"
            row[f"r{i}"] = text
        row["verdict_text"] = verdict_text(v["verdict"], v["verdict_up"])
        rows.append(row)
    return pl.DataFrame(rows)


def _rate_cell(p: str) -> Callable[[dict[str, Any]], str]:
    return lambda r: (
        f"{pct(r[p + 'rate'])} ({pct_ci(r[p + 'low'], r[p + 'high'])}, n={count(r[p + 'n'])})"
    )


def _mean_cell(
    mean: str, low: str, high: str, n: str, digits: int = 2, signed: bool = True
) -> Callable[[dict[str, Any]], str]:
    return lambda r: (
        f"{num(r[mean], digits, signed)} ({num(r[low], digits)}..{num(r[high], digits)}, "
        f"n={count(r[n])})"
    )


def _rung_columns(rungs: Sequence[str], family: str) -> list[Column]:
    return [text_col(f"r{i}", _label(r, family)) for i, r in enumerate(rungs)]


def _players_of(rungs: Sequence[str], family: str) -> str:
    return ", ".join(_label(r, family) for r in rungs)


def _sentence(
    what: str,
    row: dict[str, Any],
    long: pl.DataFrame,
    keys: Sequence[str],
    family: str,
    value: Callable[[dict[str, Any]], str],
) -> str:
    """One plain sentence for an answer: what holds and under whom, or how it depends."""
    sel = long.filter(pl.all_horizontal([pl.col(k) == row[k] for k in keys]))
    shown = [r for r in sel.iter_rows(named=True) if r["rung"] in row["rungs"]]
    per = "; ".join(f"{value(r)} under {_label(r['rung'], family)}" for r in shown)
    what = what[:1].upper() + what[1:]
    if row["verdict"] == HOLDS:
        return f"{what}: {per}; this holds under every player compared."
    if row["verdict_up"] == HOLDS:
        return f"{what}: {per}; this holds under every player from heuristic up (not under random)."
    if SAME_SIGN in (row["verdict"], row["verdict_up"]):
        return f"{what}: {per}; the sign holds, the size depends on the player."
    return f"{what} depends on the player: {per}."


def _commands(run: Run) -> list[str]:
    """Every command of a ladder run, its ``--out`` placed inside the run's shown folder."""
    out = []
    for cmd in run.settings.get("commands", [run.settings.get("command")]):
        if not cmd:
            continue
        args = shlex.split(str(cmd))
        sub = args[args.index("--out") + 1] if "--out" in args[:-1] else ""
        out.append(with_out(str(cmd), os.path.join(run.shown, sub)))
    return out


def _rating_blocks(duels: list[Run], family: str) -> tuple[list[Any], dict[str, Any], str | None]:
    """The rating table, the duels table, the data and the finding."""
    deals = pl.concat([deal_outcomes(d.folder) for d in duels])
    try:
        ratings = fit_ratings(deals)
    except ValueError as exc:
        return [Paragraph(f"No rating: {exc}.")], {}, None
    shown = ratings.with_columns(
        label=pl.col("player").map_elements(lambda p: _label(p, family), return_dtype=pl.String),
        vs_anchor=1.0 / (1.0 + (-pl.col("rating")).exp()),  # game_win_rate
    )
    table = Table(
        "ladder_rating",
        f"Bradley-Terry rating from duplicate duels (logit scale, {ANCHOR} = 0; a gap of 1.0 is a "
        "73% game win rate). Fitted by statsmodels (binomial GLM, robust standard errors with the "
        "two games of a deal as one unit); one drawn pseudo-deal per duel keeps a rating finite "
        "when a player won every game or none ('bound').",
        shown,
        [
            text_col("label", "player"),
            Column(
                "rating (95% CI)",
                lambda r: f"{num(r['rating'], 2, True)} ({num(r['low'], 2)}..{num(r['high'], 2)})",
            ),
            Column(f"game win rate against {ANCHOR}", lambda r: pct(r["vs_anchor"])),
            Column(
                "games won",
                lambda r: (
                    f"{num(r['wins'], 0 if r['wins'] == int(r['wins']) else 1)} of "
                    f"{count(r['games'])}"
                ),
            ),
            Column("opponents", lambda r: ", ".join(_label(o, family) for o in r["opponents"])),
            Column("note", lambda r: "bound: won all or none of a duel" if r["separated"] else ""),
        ],
    )
    duel_rows = []
    for d in duels:
        info = d.settings.get("duel", {})
        rate = info.get("a_win_rate") or {}
        duel_rows.append(
            {
                "team_a": d.settings["team_a"],
                "team_b": d.settings["team_b"],
                "deals": d.settings["count"],
                "games": info.get("matches"),
                "a_wins": info.get("a_wins"),
                "a_rate": rate.get("mean"),
                "a_low": rate.get("low"),
                "a_high": rate.get("high"),
                "command": _commands(d)[0] if _commands(d) else "",
            }
        )
    duel_table = Table(
        "ladder_duels",
        "The duels (each deal sequence played twice, the teams exchanged; A's match win rate "
        "with its paired 95% interval).",
        pl.DataFrame(duel_rows),
        [
            Column("A", lambda r: _label(r["team_a"], family)),
            Column("B", lambda r: _label(r["team_b"], family)),
            count_col("deals", "deal sequences"),
            Column("A wins", lambda r: f"{count(r['a_wins'])} of {count(r['games'])}"),
            Column(
                "A's win rate (95% CI)",
                lambda r: f"{pct(r['a_rate'])} ({pct_ci(r['a_low'], r['a_high'])})",
            ),
            text_col("command", "command"),
        ],
    )
    rated = ", ".join(
        f"{r['label']} 0 (the anchor)"
        if r["player"] == ANCHOR
        else f"{r['label']} {num(r['rating'], 2, True)} ({num(r['low'], 2)}..{num(r['high'], 2)})"
        for r in shown.iter_rows(named=True)
    )
    finding = (
        f"Ladder rating (Bradley-Terry from {len(duels)} duplicate duels, logit scale, {ANCHOR} "
        f"= 0), strongest first: {rated}."
    )
    return [table, duel_table], {"ratings": ratings.to_dicts()}, finding


def _search_text(spec: str, family: str) -> str:
    """What a search rung searches (its ``calls`` parameter) and what its sampler ignores."""
    searched = (
        "the calls and the card play"
        if "calls=1" in spec.replace(" ", "")
        else ("the card play and bids with the heuristic (calls=0)")
    )
    return (
        f"{_label(spec, family)} searches {searched}; its deals of the hidden cards ignore the "
        "auction (a seat that bid 7 is dealt an average hand)."
    )


def ladder_section(inp: ReportInput) -> Section | None:
    """The ladder section: the rating of the rungs, then each headline answer per rung with its
    verdict (bid success by contract, net points by contract, expected points by strength and bid,
    the joker lead's value, hands per match by target)."""
    rung_runs = [r for r in inp.other_runs if r.kind == RUNG_KIND]
    if not rung_runs:
        return None
    duels = [r for r in inp.other_runs if r.kind == DUEL_KIND]
    fam = inp.family
    tables = {str(r.settings["rung"]): rung_tables(r.folder) for r in rung_runs}
    rungs = list(tables)
    sizes = "; ".join(_sizes_text(r, t["settings"], fam) for r, t in tables.items())
    sec = Section("ladder", "The ladder of players")
    sec.blocks.append(
        Paragraph(
            f"The same questions answered under each player of the ladder ({_players_of(rungs, fam)}),"
            f" each player in every seat, on the same deals: {sizes}. "
            + " ".join(_search_text(r, fam) for r in rungs if is_search(r))
        )
    )
    if duels:
        blocks, data, finding = _rating_blocks(duels, fam)
        sec.blocks += blocks
        sec.data.update(data)
        if finding:
            sec.findings.append(finding)
    sec.blocks.append(Paragraph(RULE_TEXT.format(min_n=MIN_N)))
    hands = {r: t["hands"] for r, t in tables.items()}
    _contracts(sec, hands, rungs, fam)
    _points(sec, hands, rungs, fam)
    bid = {r: t["bid_forks"] for r, t in tables.items() if t["bid_forks"] is not None}
    if bid:
        _best_calls(sec, bid, fam, _missing(tables, "bid_forks", fam))
        _answer(
            sec,
            "ladder_calls",
            calls_by_rung(bid),
            "calls",
            ("call",),
            list(bid),
            fam,
            "Each call's value over every hand (the first free bid decision played on once per "
            "legal call, paired: kout-sim forks --kind bid), net points a hand for the calling "
            "seat's team (intervals clustered by hand)." + _missing(tables, "bid_forks", fam),
            _mean_cell("mean", "low", "high", "net_n"),
            lambda row: f"What the call {row['call']} earns over every hand",
            lambda r: f"{num(r['mean'], 2, True)} points",
        )
    forks = {r: t["forks"] for r, t in tables.items() if t["forks"] is not None}
    if forks:
        play = (
            "leading a permitted joker"
            if fam.is_kuwaiti
            else "playing the joker into a trick rather than the best other card"
        )
        _answer(
            sec,
            "ladder_joker",
            joker_by_rung(forks),
            "joker",
            ("role",),
            list(forks),
            fam,
            f"What {play} is worth, in net points a hand, per role (paired forks, intervals "
            "clustered by hand)." + _missing(tables, "joker_forks", fam),
            _mean_cell("diff", "low", "high", "n"),
            lambda row: f"What {play} is worth to the {row['role']}",
            lambda r: f"{num(r['diff'], 2, True)} points ({num(r['low'], 2)}..{num(r['high'], 2)})",
            advice=ADVICE_PRIORITY["ladder"],
        )
        contexts = {r: t["context"] for r, t in tables.items() if t["context"] is not None}
        if contexts:
            _answer(
                sec,
                "ladder_joker_context",
                context_by_rung(forks, contexts),
                "joker_context",
                ("role", "context", "value"),
                [r for r in forks if r in contexts],
                fam,
                f"What {play} is worth by context, as the leader sees it: "
                + " and ".join(CONTEXT_WORDS[c] for c in CONTEXTS)
                + f" (every fork; rows where at least two players have {MIN_N} forks)."
                + _missing(tables, "joker_context", fam),
                _mean_cell("diff", "low", "high", "n"),
                lambda row: (
                    f"What {play} is worth to the {row['role']} ({row['context']}: {row['value']})"
                ),
                lambda r: f"{num(r['diff'], 2, True)} points",
                comparable_only=True,
            )
    matches = {r: t["matches"] for r, t in tables.items() if t["matches"] is not None}
    if matches:
        msizes = ", ".join(
            f"{_label(r, fam)} {count(t['settings']['matches'])}"
            for r, t in tables.items()
            if t["matches"] is not None
        )
        _answer(
            sec,
            "ladder_length",
            length_by_rung(matches),
            "length",
            ("target",),
            list(matches),
            fam,
            f"Hands per match by target, each player against itself (self-play matches per "
            f"target: {msizes}).",
            _mean_cell("mean", "low", "high", "n", 1, False),
            lambda row: f"How many hands a match to {row['target']} lasts",
            lambda r: f"{num(r['mean'], 1)} hands ({num(r['low'], 1)}..{num(r['high'], 1)})",
            advice=ADVICE_PRIORITY["match_length"],
        )
    if finding := _verdict_finding(sec):
        sec.findings.append(finding)
    commands = [{"run": r.shown, "command": c} for r in [*rung_runs, *duels] for c in _commands(r)]
    sec.blocks.append(
        Table(
            "ladder_commands",
            "The commands that play each run of the ladder again.",
            pl.DataFrame(commands),
            [text_col("command", "command")],
        )
    )
    return sec


CONTEXT_WORDS = {
    "tricks_needed": "the tricks the leader's team still needs",
    "other_joker": "where the other joker is",
}


def _missing(tables: dict[str, dict[str, Any]], part: str, family: str) -> str:
    """A sentence naming the players without the ``part`` (and why), or ''."""
    left = [(r, t["skipped"][part]) for r, t in tables.items() if part in t["skipped"]]
    if not left:
        return ""
    return " Not under " + "; ".join(f"{_label(r, family)} ({why})" for r, why in left) + "."


def _best_cell(beats: pl.DataFrame) -> Callable[[dict[str, Any]], str]:
    def render(r: dict[str, Any]) -> str:
        call = "pass" if r["best_call"] == "pass" else f"bid {r['best_call']}"
        tail = (
            "separated"
            if r["separated"]
            else (f"tie with {r['runner_up']}" if r["runner_up"] is not None else "only call")
        )
        worse = beats.filter(
            (pl.col("rung") == r["rung"])
            & (pl.col("from_bucket") == r["from_bucket"])
            & (pl.col("low") > 0)
        )["other_call"].to_list()
        shown = f"; beats {', '.join(sorted(worse, key=call_rank))} here" if worse else ""
        return (
            f"{call}: {num(r['mean'], 2, True)} ({num(r['low'], 2)}..{num(r['high'], 2)}, "
            f"n={count(r['n'])}; {tail}{shown})"
        )

    return render


def _range_text(ranges: pl.DataFrame, rung: str, family: str) -> str:
    mine = ranges.filter(pl.col("rung") == rung).sort("from_bucket")
    parts = [
        f"{'pass' if r['best_call'] == 'pass' else 'bid ' + str(r['best_call'])} with "
        f"{r['strength']}{'' if r['separated'] else ' (a tie)'}"
        for r in mine.iter_rows(named=True)
    ]
    return f"{_label(rung, family)}: " + "; ".join(parts) if parts else ""


def _best_calls(
    sec: Section, bid: dict[str, Any], family: str, missing: str
) -> pl.DataFrame | None:
    """The answer "best call by hand": per strength bucket each player's best call on its own bid
    forks, with the verdict of :func:`analyses.ladder.best_call_verdict`."""
    rungs = list(bid)
    edges = strength_ranges(bid, MIN_N)
    best = best_by_rung(bid, edges, MIN_N)
    if best.is_empty():
        return None
    beats = best_call_beats(bid, best, edges)
    verdicts = best_call_verdicts(best, beats)
    ranges = ranges_by_rung(bid, MIN_N)
    ref = reference_rung(rungs)
    cell = _best_cell(beats)
    rows = []
    for v in verdicts.iter_rows(named=True):
        row = dict(v)
        for i, rung in enumerate(rungs):
            hit = best.filter(
                (pl.col("rung") == rung) & (pl.col("from_bucket") == v["from_bucket"])
            )
            row[f"r{i}"] = cell(hit.row(0, named=True)) if len(hit) else ""
        row["verdict_text"] = verdict_text(v["verdict"], v["verdict_up"])
        rows.append(row)
    wide = pl.DataFrame(rows)
    sec.blocks.append(
        Table(
            "ladder_best_calls",
            f"Best call by hand: per strength range of {_label(ref, family)}'s bid guide "
            "(consecutive strength buckets with the same best call), each player's best call on "
            "its own bid forks (the first free bid decision of each hand played on once per legal "
            "call by that player), its net points a hand, and whether it is separated from every "
            "other call (Holm's correction over the player's ranges) or ties with the next best. "
            "'Beats X "
            "here' names another player's best call that this player's forks show worse than its "
            "own (paired 95% interval above zero). Verdict: 'holds' when every player has the "
            "same best call; 'depends on the player' when some player's forks show another "
            "player's best call worse; 'a tie' otherwise." + missing,
            wide,
            [
                text_col("strength", "hand"),
                *_rung_columns(rungs, family),
                text_col("verdict_text", "verdict"),
            ],
        )
    )
    sentences = []
    for v in verdicts.iter_rows(named=True):
        if v["verdict"] == TOO_FEW:
            continue
        mine = best.filter(pl.col("from_bucket") == v["from_bucket"])
        per = "; ".join(
            f"{'pass' if r['best_call'] == 'pass' else 'bid ' + str(r['best_call'])} "
            f"({num(r['mean'], 2, True)} points{'' if r['separated'] else ', a tie'}) under "
            f"{_label(r['rung'], family)}"
            for r in mine.iter_rows(named=True)
        )
        holds = verdict_text(v["verdict"], v["verdict_up"])
        sentences.append((f"The best call with a hand of {v['strength']}: {per}; {holds}.", holds))
    if sentences:
        sec.blocks.append(Paragraph(" ".join(t for t, _ in sentences)))
        if len(sentences) <= MAX_SENTENCES:
            for text, holds in sentences:
                sec.advise(text, _players_of(rungs, family), holds, ADVICE_PRIORITY["ladder"])
    texts = [t for t in (_range_text(ranges, r, family) for r in rungs) if t]
    up = [r for r in verdicts["verdict_up"].to_list() if r != TOO_FEW]
    tally = {v: up.count(v) for v in (HOLDS, TIE, DEPENDS)}
    summary = (
        f"From heuristic up, the best call holds for {tally[HOLDS]} of {len(up)} strength "
        f"ranges, ties for {tally[TIE]} and depends on the player for {tally[DEPENDS]}."
    )
    sec.blocks.append(
        Paragraph("The bid guide of each player, by strength range: " + ". ".join(texts) + ".")
    )
    sec.blocks.append(Paragraph(summary))
    sec.data["ladder_best_calls"] = {
        "verdicts": verdicts.to_dicts(),
        "from_heuristic_up": tally,
        "rungs": rungs,
        "edges": [list(e) for e in edges],
        "best": best.select(
            "rung",
            "strength",
            "from_bucket",
            "best_call",
            "n",
            "mean",
            "low",
            "high",
            "separated",
            "runner_up",
        ).to_dicts(),
        "beats": beats.to_dicts(),
        "ranges": ranges.select(
            "rung", "strength", "best_call", "n", "mean", "low", "high", "separated"
        ).to_dicts()
        if not ranges.is_empty()
        else [],
    }
    return verdicts


def _answer(
    sec: Section,
    key: str,
    long: pl.DataFrame,
    name: str,
    keys: Sequence[str],
    rungs: Sequence[str],
    family: str,
    caption: str,
    cell: Callable[[dict[str, Any]], str],
    what: Callable[[dict[str, Any]], str],
    value: Callable[[dict[str, Any]], str],
    comparable_only: bool = False,
    advice: int | None = None,
) -> pl.DataFrame:
    """Add an answer's table (one row per key, one column per rung, the verdict) and one sentence
    per key (``comparable_only``: the table shows only the keys with a verdict other than "too
    few"; the JSON keeps every verdict); returns the verdicts. ``advice``: the sentences of an
    answer of at most ``MAX_SENTENCES`` rows are also advice of that priority, from every rung,
    with its verdict (:meth:`analyses.section.Section.advise`)."""
    verdicts = judged(name, long, MIN_N)
    wide = _wide(long, verdicts, keys, rungs, cell)
    if comparable_only and not wide.is_empty():
        wide = wide.filter(pl.col("verdict") != TOO_FEW)
    if wide.is_empty():
        return verdicts
    # a key that is the same on every row (free bids: forced is False) is not shown
    key_cols = [
        text_col(k, k.replace("_", " ")) for k in keys if wide[k].n_unique() > 1 or k == keys[0]
    ]
    sec.blocks.append(
        Table(
            key,
            caption,
            wide,
            [*key_cols, *_rung_columns(rungs, family), text_col("verdict_text", "verdict")],
        )
    )
    judged_rows = [row for row in wide.iter_rows(named=True) if row["verdict"] != TOO_FEW]
    sentences = [_sentence(what(row), row, long, keys, family, value) for row in judged_rows]
    if advice is not None and len(sentences) <= MAX_SENTENCES:
        for text, row in zip(sentences, judged_rows):
            holds = verdict_text(row["verdict"], row["verdict_up"])
            sec.advise(text, _players_of(rungs, family), holds, advice)
    if len(sentences) > MAX_SENTENCES:
        tally = {
            t: sum(verdict_text(r["verdict"], r["verdict_up"]) == t for r in judged_rows)
            for t in dict.fromkeys(verdict_text(r["verdict"], r["verdict_up"]) for r in judged_rows)
        }
        depends = [s for s, r in zip(sentences, judged_rows) if r["verdict_up"] == DEPENDS]
        sentences = [
            f"Of the {len(judged_rows)} rows compared: "
            + "; ".join(f"{t}: {n}" for t, n in tally.items())
            + ".",
            *depends[:MAX_SENTENCES],
        ]
    if sentences:
        sec.blocks.append(Paragraph(" ".join(sentences)))
    up = [r["verdict_up"] for r in verdicts.to_dicts() if r["verdict_up"] != TOO_FEW]
    sec.data[key] = {
        "verdicts": verdicts.to_dicts(),
        "from_heuristic_up": {v: up.count(v) for v in (HOLDS, SAME_SIGN, DEPENDS)},
        "rungs": list(rungs),
    }
    return verdicts


def _contracts(sec: Section, hands: dict[str, Any], rungs: list[str], family: Family) -> None:
    long = contracts_by_rung(hands)
    free = long.filter(~pl.col("forced"))

    def label(bid: str) -> str:
        return f"a Kout {bid}" if family.is_kout else bid.capitalize()

    _answer(
        sec,
        "ladder_contracts",
        free,
        "contracts",
        ("bid", "forced"),
        rungs,
        family,
        "How often each contract (free bids) is made under each player (95% Wilson intervals).",
        _rate_cell("made_"),
        lambda row: f"How often {label(row['bid'])} bid is made",
        lambda r: f"{pct(r['made_rate'])} ({pct_ci(r['made_low'], r['made_high'])})",
        advice=ADVICE_PRIORITY["ladder"],
    )
    _answer(
        sec,
        "ladder_contract_points",
        free,
        "contract_points",
        ("bid", "forced"),
        rungs,
        family,
        "The bidding team's net points a hand per contract (free bids) under each player.",
        _mean_cell("points_mean", "points_low", "points_high", "points_n"),
        lambda row: f"What {label(row['bid'])} bid earns its team a hand",
        lambda r: f"{num(r['points_mean'], 2, True)} points a hand",
    )


def _points(sec: Section, hands: dict[str, Any], rungs: list[str], family: str) -> None:
    long = points_by_rung(hands)
    _answer(
        sec,
        "ladder_points",
        long,
        "points",
        ("strength_bucket", "bid"),
        rungs,
        family,
        "Expected net points of each bid level by hand strength (free bids, the hands as each "
        "player bid and played them) under each player; rows where at least two players have "
        f"{MIN_N} hands.",
        _mean_cell("mean", "low", "high", "n"),
        lambda row: f"What bidding {row['bid']} with strength {row['strength_bucket']} earns",
        lambda r: f"{num(r['mean'], 2, True)} points",
        comparable_only=True,
    )


ANSWER_NAMES = {
    "ladder_contracts": "bid success by contract",
    "ladder_contract_points": "net points by contract",
    "ladder_points": "expected points by strength and bid",
    "ladder_best_calls": "the best call by strength",
    "ladder_calls": "each call's value over every hand",
    "ladder_joker": "the joker's value by role",
    "ladder_joker_context": "the joker's value by context",
    "ladder_length": "hands per match by target",
}


def _verdict_finding(sec: Section) -> str | None:
    """One sentence: per answer, how many of its rows hold from heuristic up."""
    parts = []
    for key, name in ANSWER_NAMES.items():
        tally = sec.data.get(key, {}).get("from_heuristic_up")
        if not tally or not sum(tally.values()):
            continue
        total = sum(tally.values())
        other = (
            f"ties for {tally[TIE]}"
            if TIE in tally
            else f"has the same sign for {tally[SAME_SIGN]}"
        )
        parts.append(
            f"{name} holds for {tally[HOLDS]} of {total} rows, {other}, depends on the player "
            f"for {tally[DEPENDS]}"
        )
    if not parts:
        return None
    return "Across the ladder's players from heuristic up (same deals): " + "; ".join(parts) + "."
