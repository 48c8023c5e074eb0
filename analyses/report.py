"""Strategy reports: one self-contained HTML page of numeric guidance for one preset.

``kout-sim report --run DIR [--run DIR ...] --out FILE.html`` (or :func:`write_report`) reads run
folders (or study folders, which expand to their runs; see :mod:`analyses.studies`), computes the
tables of the ``analyses`` modules, and writes one HTML file: a plain-language summary stating the
guidance as numbers, one part per question with tables and figures (PNG, inline as ``data:`` URIs),
the metadata of every run and the commands that reproduce it. Every statistic is shown with its
count and its 95% interval (Wilson for rates, normal for means; :mod:`analyses._common`), and every
number shown is also embedded as JSON in ``<script type="application/json" id="report-data">``,
keyed by section and table (see :func:`report_data`).

Extending the report: the section contract
-------------------------------------------
A section is a function ``section(inp: ReportInput) -> Section | None`` listed in :data:`SECTIONS`
(the report shows the sections in that order). It returns ``None`` when its data is absent (no
match runs, another game family, ...), and otherwise a :class:`Section`:

- ``key``: a short identifier, unique in the report (the JSON key and the HTML anchor);
- ``title``: the heading;
- ``findings``: plain-language sentences that state the guidance as numbers, each with its count
  and interval; they open the report in its summary, in section order;
- ``blocks``: the body, in order: :class:`Paragraph`, :class:`Table` (a polars DataFrame with the
  :class:`Column` s to show; every row goes to the JSON under ``tables.<key>``) and
  :class:`Plot` (a matplotlib Figure, rendered to PNG and closed);
- ``data``: any other machine-readable numbers (JSON under ``data``).

:class:`ReportInput` gives a section every run, grouped by kind: ``hand_runs`` (independent
hands, ``unit == "hands"``), ``match_runs`` (whole matches) and ``other_runs`` (run folders whose
``run.json`` has a ``kind`` or ``study`` field the report does not know; their tables are every
sub-folder of parquet files, unconverted). Each :class:`Run` carries its folder, its ``run.json``
(``settings``) and its tables (LazyFrames, with the columns ``preset``, ``family`` and ``n_seats``
for the known kinds), plus the study that made it. Helpers select the usual data:
:meth:`ReportInput.bid_hands` (the hands the bidding questions are read from) and
:meth:`ReportInput.match_groups` (match runs grouped by line-up).

A module of the ``analyses`` package adds a section by appending to :data:`SECTIONS` when it is
imported::

    from analyses.report import SECTIONS, ReportInput, Section

    def my_section(inp: ReportInput) -> Section | None:
        runs = [r for r in inp.other_runs if r.kind == "my_kind"]
        if not runs:
            return None
        ...

    SECTIONS.append(my_section)

:func:`build_report` imports every module of the package first (:func:`analyses.load_extensions`),
so nothing else needs registering.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import os
import shlex
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure

import kout_sim
from kout_sim.commands import _option_text as _option_text
from kout_sim.commands import non_default_options as non_default_options
from kout_sim.commands import players_args as players_args
from kout_sim.commands import short_player as short_player
from kout_sim.commands import simulate_command as simulate_command

from . import baloot_modes, load_extensions, match_length, seats
from . import bid_success as bs
from ._common import (
    load_run,
    mean_table,
    rate_table,
    run_settings,
    with_wilson,
)

MIN_N = 30
"""Cells with fewer hands than this are left out of the bid guide (as ``bid_success.bid_guide``)."""

KNOWN_KINDS = ("hands", "matches")
"""Run kinds the built-in sections read; any other ``kind``/``study`` value is passed through."""

DPI = 72
"""Resolution of the inline figures (kept low: the report stays small)."""


# ------------------------------------------------------------------------------------------ runs


@dataclass(frozen=True)
class Run:
    """One run folder: its ``run.json`` settings, its tables, its kind and the study it is from."""

    folder: Path
    settings: dict[str, Any]
    tables: dict[str, pl.LazyFrame]
    kind: str
    study: str | None = None
    shown_as: str | None = None
    """The folder as the report names it (:func:`shown_path`); None: ``folder`` itself."""

    @property
    def shown(self) -> str:
        """The folder as the report shows it: never an absolute path of this machine."""
        return self.shown_as if self.shown_as is not None else shown_path(self.folder)

    @property
    def preset(self) -> str:
        return str(self.settings["preset"])

    @property
    def players(self) -> list[str]:
        return [str(p) for p in self.settings.get("players", [])]

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.settings.get("options", {}))

    @property
    def symmetric(self) -> bool:
        """Every seat plays the same player (seat effects then come from the rules alone)."""
        return len(set(self.players)) <= 1

    @property
    def lineup_key(self) -> tuple[str, ...]:
        return tuple(self.players)

    @property
    def target(self) -> int | None:
        value = self.options.get("target")
        return int(value) if value is not None else None

    def command(self) -> str | None:
        """The ``kout-sim simulate`` command that writes this run again (known kinds only)."""
        if self.kind not in KNOWN_KINDS:
            cmd = self.settings.get("command")
            return with_out(str(cmd), self.shown) if cmd else None
        return simulate_command(self.settings, self.shown)


def _classify(settings: dict[str, Any]) -> str:
    for key in ("kind", "study"):
        value = settings.get(key)
        if value is not None and value not in KNOWN_KINDS:
            return str(value)
    unit = settings.get("unit")
    if unit in KNOWN_KINDS:
        return str(unit)
    raise ValueError(f"run.json has an unknown unit {unit!r}")


def _generic_tables(folder: Path) -> dict[str, pl.LazyFrame]:
    return {
        sub.name: pl.scan_parquet(sub / "*.parquet")
        for sub in sorted(folder.iterdir())
        if sub.is_dir() and any(sub.glob("*.parquet"))
    }


def shown_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a report shows it: a relative path as given; an absolute one relative to the
    current folder when it is inside it, else by its own name (relative to its parent). A report
    names runs the way the commands that made it did, and embeds no path of the machine."""
    p = Path(path)
    if not p.is_absolute():
        return os.path.normpath(p)
    try:
        return os.path.normpath(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return p.name or str(p)


def with_out(command: str, folder: str) -> str:
    """``command`` (a shell command) with the value of its ``--out`` replaced by ``folder``."""
    try:
        args = shlex.split(command)
    except ValueError:
        return command
    if "--out" in args[:-1]:
        args[args.index("--out") + 1] = folder
    return shlex.join(args)


def open_run(
    folder: str | os.PathLike[str], study: str | None = None, shown: str | None = None
) -> Run:
    """A run folder as a :class:`Run` (``ValueError`` if it is not a complete run)."""
    path = Path(folder)
    try:
        settings = run_settings(path)
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is not a run folder: cannot read its run.json ({exc})") from None
    if settings.get("status", "complete") != "complete":
        raise ValueError(
            f"run {path} is incomplete (status {settings.get('status')!r}); finish it with "
            "kout-sim simulate --resume"
        )
    if "preset" not in settings:
        raise ValueError(f"run {path}: run.json names no preset")
    kind = _classify(settings)
    tables = load_run(path) if kind in KNOWN_KINDS else _generic_tables(path)
    return Run(path, settings, tables, kind, study, shown)


def expand(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[Run], list[dict[str, Any]]]:
    """The runs of ``paths`` and the studies they came from.

    A path is a run folder (``run.json``), a study folder (``study.json``: its runs), or a folder
    whose sub-folders are runs (e.g. a ``match_length.sweep`` output). A run given twice counts
    once."""
    runs: list[Run] = []
    studies: list[dict[str, Any]] = []
    seen: set[Path] = set()

    def add(folder: Path, study: str | None, shown: str) -> None:
        key = folder.resolve()
        if key not in seen:
            seen.add(key)
            runs.append(open_run(folder, study, shown))

    for given in paths:
        path = Path(given)
        if not path.is_dir():
            raise ValueError(f"{path} is not a folder")
        shown = shown_path(path)
        if (path / "study.json").exists():
            meta = json.loads((path / "study.json").read_text())
            command = meta.get("command")
            studies.append(
                {**meta, "folder": shown, "command": with_out(command, shown) if command else None}
            )
            for entry in meta.get("runs", []):
                study = ",".join(entry.get("studies", [])) or None
                add(path / entry["path"], study, os.path.join(shown, entry["path"]))
        elif (path / "run.json").exists():
            add(path, None, shown)
        else:
            subs = sorted(p for p in path.iterdir() if (p / "run.json").exists())
            if not subs:
                raise ValueError(f"{path} is neither a run folder nor a study folder")
            for sub in subs:
                add(sub, None, os.path.join(shown, sub.name))
    if not runs:
        raise ValueError("no runs given")
    return runs, studies


@dataclass(frozen=True)
class ReportInput:
    """Everything a section may read: the runs of one preset, grouped by kind, and the studies."""

    preset: str
    family: str
    n_seats: int
    hand_runs: tuple[Run, ...]
    match_runs: tuple[Run, ...]
    other_runs: tuple[Run, ...]
    studies: tuple[dict[str, Any], ...] = ()
    title: str = ""

    @property
    def runs(self) -> tuple[Run, ...]:
        return (*self.hand_runs, *self.match_runs, *self.other_runs)

    @classmethod
    def from_runs(
        cls, runs: Sequence[Run], studies: Sequence[dict[str, Any]] = (), title: str = ""
    ) -> ReportInput:
        """Group ``runs`` by kind; ``ValueError`` if they mix presets."""
        presets = sorted({r.preset for r in runs})
        if len(presets) != 1:
            listing = "; ".join(f"{r.shown}: {r.preset}" for r in runs)
            raise ValueError(
                f"the runs mix presets ({', '.join(presets)}): a report covers one preset "
                f"({listing})"
            )
        rules = kout_sim.get_rules(presets[0])
        return cls(
            preset=presets[0],
            family=rules.preset.family,
            n_seats=rules.n_players,
            hand_runs=tuple(r for r in runs if r.kind == "hands"),
            match_runs=tuple(r for r in runs if r.kind == "matches"),
            other_runs=tuple(r for r in runs if r.kind not in KNOWN_KINDS),
            studies=tuple(studies),
            title=title or f"{presets[0]} strategy report",
        )

    def bid_hands(self) -> tuple[pl.LazyFrame, list[Run]] | None:
        """The hands the bidding and seat questions are read from, and their runs.

        The independent-hand runs if there are any, else the match runs in which every seat plays
        the same player. The chosen runs must share their players and options (a pooled table of
        different line-ups would answer no question); ``ValueError`` otherwise. ``None``: no such
        hands."""
        chosen = list(self.hand_runs) or [r for r in self.match_runs if r.symmetric]
        if not chosen:
            return None
        configs = {(tuple(r.players), json.dumps(r.options, sort_keys=True)) for r in chosen}
        if len(configs) > 1:
            raise ValueError(
                "the hand runs differ in players or options ("
                + ", ".join(r.shown for r in chosen)
                + "); report one configuration at a time"
            )
        frames = [r.tables["hands"] for r in chosen]
        return pl.concat(frames, how="diagonal_relaxed"), chosen

    def match_groups(self) -> list[list[Run]]:
        """The match runs grouped by line-up (players of every seat), largest number of distinct
        targets first, then line-ups with different teams before equal ones."""
        groups: dict[tuple[str, ...], list[Run]] = {}
        for run in self.match_runs:
            groups.setdefault(run.lineup_key, []).append(run)
        return sorted(
            groups.values(),
            key=lambda g: (-len({r.target for r in g}), g[0].symmetric, str(g[0].folder)),
        )


# -------------------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class Column:
    """A column of a shown table: its header and how to render a row (a dict) as text."""

    label: str
    render: Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of plain text (escaped when rendered)."""

    text: str


@dataclass(frozen=True)
class Table:
    """A table: every row of ``frame`` goes to the JSON; ``columns`` say what is shown."""

    key: str
    caption: str
    frame: pl.DataFrame
    columns: list[Column]


@dataclass(frozen=True)
class Plot:
    """A matplotlib figure (rendered to an inline PNG and closed) with its caption."""

    key: str
    caption: str
    figure: Figure


Block = Paragraph | Table | Plot


@dataclass
class Section:
    """One part of the report (see the module docstring for the contract)."""

    key: str
    title: str
    findings: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def tables(self) -> dict[str, Table]:
        return {b.key: b for b in self.blocks if isinstance(b, Table)}


SectionFn = Callable[[ReportInput], Section | None]


# ------------------------------------------------------------------------------------ formatting


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x: Any, digits: int = 1) -> str:
    """A share as a percentage (``61.2%``); two decimals below 1%."""
    if _missing(x):
        return "n/a"
    d = 2 if 0 < abs(x) < 0.01 else digits
    return f"{100 * x:.{d}f}%"


def pct_ci(low: Any, high: Any) -> str:
    """A Wilson interval as ``60.1-62.3%``."""
    if _missing(low) or _missing(high):
        return "n/a"
    d = 2 if (0 < low < 0.01 or 0 < high < 0.01) else 1
    return f"{100 * low:.{d}f}-{100 * high:.{d}f}%"


def num(x: Any, digits: int = 2, signed: bool = False) -> str:
    if _missing(x):
        return "n/a"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def count(n: Any) -> str:
    return "n/a" if _missing(n) else f"{int(n):,}"


def rate_text(row: dict[str, Any], p: str = "") -> str:
    """``61.2% (95% CI 60.1-62.3%, n=8,214)`` from ``rate``, ``low``, ``high``, ``n``."""
    return (
        f"{pct(row[p + 'rate'])} (95% CI {pct_ci(row[p + 'low'], row[p + 'high'])}, "
        f"n={count(row[p + 'n'])})"
    )


def mean_text(row: dict[str, Any], p: str = "", digits: int = 2, signed: bool = True) -> str:
    """``+2.31 (2.10..2.52, n=8,214)`` from ``mean``, ``low``, ``high``, ``n``."""
    return (
        f"{num(row[p + 'mean'], digits, signed)} ({num(row[p + 'low'], digits)}.."
        f"{num(row[p + 'high'], digits)}, n={count(row[p + 'n'])})"
    )


def text_col(name: str, label: str, fmt: Callable[[Any], str] = str) -> Column:
    return Column(label, lambda r: "" if r[name] is None else fmt(r[name]))


def count_col(name: str, label: str) -> Column:
    return Column(label, lambda r: count(r[name]))


def rate_cols(label: str, p: str = "") -> list[Column]:
    """Two columns: ``k / n`` and the rate with its 95% Wilson interval."""
    return [
        Column(f"{label}: k / n", lambda r: f"{count(r[p + 'k'])} / {count(r[p + 'n'])}"),
        Column(
            f"{label} (95% CI)",
            lambda r: f"{pct(r[p + 'rate'])} ({pct_ci(r[p + 'low'], r[p + 'high'])})",
        ),
    ]


def mean_cols(label: str, p: str = "", digits: int = 2, signed: bool = True) -> list[Column]:
    """Two columns: ``n`` and the mean with its 95% normal interval."""
    return [
        Column(f"{label}: n", lambda r: count(r[p + "n"])),
        Column(
            f"{label} (95% CI)",
            lambda r: (
                f"{num(r[p + 'mean'], digits, signed)} "
                f"({num(r[p + 'low'], digits)}..{num(r[p + 'high'], digits)})"
            ),
        ),
    ]


def prefixed(df: pl.DataFrame, prefix: str, names: Sequence[str]) -> pl.DataFrame:
    """``df`` with the columns ``names`` renamed to ``prefix + name``."""
    return df.rename({n: prefix + n for n in names if n in df.columns})


RATE = ("k", "n", "rate", "low", "high")
MEAN = ("n", "mean", "sd", "low", "high")


def seat_label(rel: int, n_seats: int) -> str:
    if rel == 0:
        return "0 (dealer, speaks last)"
    if rel == 1:
        return "1 (speaks first)"
    return str(rel)


def _runs_text(runs: Sequence[Run]) -> str:
    return ", ".join(r.shown for r in runs)


# ------------------------------------------------------------------------------ bid success


def _bid_label(bid: str, forced: bool, family: str) -> str:
    if not forced:
        return bid
    if family == "kout_bo" and bid == "5":
        return "5 forced (Malzoom)"
    return f"{bid} forced"


def _bid_key(bid: str) -> tuple[int, int, str]:
    return (0, int(bid), "") if bid.isdigit() else (1, 0, bid)


def bid_success_section(inp: ReportInput) -> Section | None:
    """Made rate by contract (free and forced/Malzoom), by seat from the dealer and by the
    bidder's hand features, with the bidding team's mean net points per contract."""
    source = inp.bid_hands()
    if source is None:
        return None
    hands, runs = source
    prepared = bs.prepare(hands).collect()
    total = prepared.height
    if total == 0:
        return None
    keys = ["bid", "forced"]
    made = prefixed(rate_table(prepared, keys, pl.col("made")), "made_", RATE)
    share = with_wilson(made.select(*keys, k="rows", n=pl.lit(total, pl.Int64)))
    share = prefixed(share, "share_", RATE)
    points = prefixed(mean_table(prepared, keys, "net_points"), "points_", MEAN)
    contracts = (
        made.join(share, on=keys)
        .join(points, on=keys, how="left")
        .with_columns(
            label=pl.struct("bid", "forced").map_elements(
                lambda s: _bid_label(s["bid"], s["forced"], inp.family), return_dtype=pl.String
            )
        )
    )
    contracts = contracts.sort(
        pl.col("bid").map_elements(lambda b: _bid_key(b)[1], return_dtype=pl.Int64),
        "bid",
        "forced",
    )
    kind = "mode" if inp.family == "baloot" else "contract"
    sec = Section("bid_success", "Bid success")
    sec.blocks.append(
        Paragraph(
            f"{total:,} hands with a {'buyer' if inp.family == 'baloot' else 'bidder'} from "
            f"{_runs_text(runs)}. A hand is made when the bidding team reached its contract; "
            "'net points' are the points the bidding team banked in the hand minus those of the "
            "other team"
            + (
                " (a Bahraini Inzili, which wins or loses the match at once, and a forced joker "
                "lead have no value in points and are left out of the means)"
                if inp.family == "kout_bh"
                else (" (a Gahwa hand is left out of the means)" if inp.family == "baloot" else "")
            )
            + ". A forced bid is the dealer's after every other seat passed."
        )
    )
    sec.blocks.append(
        Table(
            "by_contract",
            f"Made rate and net points by {kind}. 'share': hands ending on this {kind} out of "
            "all hands with a bid.",
            contracts,
            [
                text_col("label", kind),
                *rate_cols("share", "share_"),
                *rate_cols("made", "made_"),
                *mean_cols("net points", "points_"),
            ],
        )
    )
    free = [r for r in contracts.iter_rows(named=True) if not r["forced"] and r["made_n"] >= MIN_N]
    if free:
        if inp.family == "baloot":
            parts = [f"{r['label'].capitalize()} {rate_text(r, 'made_')}" for r in free]
            sec.findings.append("Buyers make " + "; ".join(parts) + ".")
        else:
            parts = [f"bid {r['label']} {rate_text(r, 'made_')}" for r in free]
            sec.findings.append("Free bids are made: " + "; ".join(parts) + ".")
    forced_rows = [r for r in contracts.iter_rows(named=True) if r["forced"]]
    if forced_rows:
        r = max(forced_rows, key=lambda x: x["share_k"])
        if r["made_n"] >= MIN_N:
            name = (
                "The Malzoom (the dealer's forced 5)"
                if inp.family == "kout_bo" and r["bid"] == "5"
                else f"The dealer's forced bid of {r['bid']}"
            )
            sec.findings.append(
                f"{name} ends {pct(r['share_rate'])} of auctions "
                f"(95% CI {pct_ci(r['share_low'], r['share_high'])}, n={count(r['share_n'])}) and "
                f"is made {rate_text(r, 'made_')}, for {mean_text(r, 'points_')} net points."
            )
    by_seat = bs.by_seat(hands).with_columns(
        seat=pl.col("seat_rel").map_elements(
            lambda s: seat_label(int(s), inp.n_seats), return_dtype=pl.String
        )
    )
    by_seat = by_seat.sort(
        pl.col("bid").map_elements(lambda b: _bid_key(b)[1], return_dtype=pl.Int64),
        "bid",
        (pl.col("seat_rel") == 0),
        "seat_rel",
    )
    sec.blocks.append(
        Table(
            "by_seat",
            "Made rate by bid and the bidder's seat counted from the dealer in playing order "
            "(1 speaks first, 0 is the dealer).",
            by_seat,
            [text_col("bid", kind), text_col("seat", "seat"), *rate_cols("made")],
        )
    )
    features = bs.by_feature(hands).filter(pl.col("rows") > 0)
    for feature in features["feature"].unique(maintain_order=True).to_list():
        part = features.filter(pl.col("feature") == feature)
        part = part.sort(
            pl.col("bid").map_elements(lambda b: _bid_key(b)[1], return_dtype=pl.Int64),
            "bid",
            "order",
        )
        sec.blocks.append(
            Table(
                f"feature_{feature}",
                f"Made rate by bid and the bidder's {feature.removeprefix('bidder_')}"
                + (" (buyer's best project)" if feature == "bidder_projects" else "")
                + ".",
                part,
                [text_col("bid", kind), text_col("value", "value"), *rate_cols("made")],
            )
        )
    ev = bs.expected_points(hands)
    guide = bs.bid_guide(ev, min_n=MIN_N)
    sec.blocks.append(
        Plot(
            "bid_success",
            "Left: made rate of each bid, free and forced, with 95% Wilson intervals (n beside each "
            "point). Right: mean net points of each bid per strength bucket (cells with at least "
            f"{MIN_N} hands), the guide's choice circled.",
            bs.figure(contracts_for_figure(contracts, inp.preset), ev, guide, min_n=MIN_N),
        )
    )
    return sec


def contracts_for_figure(contracts: pl.DataFrame, preset: str) -> pl.DataFrame:
    """The contract table in the shape ``bid_success.figure`` reads."""
    return contracts.select(
        pl.lit(preset).alias("preset"),
        "bid",
        "forced",
        pl.col("made_n").alias("n"),
        pl.col("made_rate").alias("rate"),
        pl.col("made_low").alias("low"),
        pl.col("made_high").alias("high"),
    )


# -------------------------------------------------------------------------------- bid guide


def strength_label(lo: int, hi: int, family: str) -> str:
    """The strength range of buckets ``lo``..``hi`` as text (end buckets pool what lies beyond)."""
    if family == "baloot":
        blo, bhi = bs.BALOOT_STRENGTH_RANGE
        top = hi + bs.CARD_POINTS_STEP - 1
        if lo == blo and hi == bhi:
            return "any card points"
        if lo == blo:
            return f"up to {top} card points"
        if hi == bhi:
            return f"{lo} card points or more"
        return f"{lo}-{top} card points"
    klo, khi = bs.KOUT_STRENGTH_RANGE
    if lo == klo and hi == khi:
        return "any strength"
    if lo == klo:
        return f"strength {hi} or less"
    if hi == khi:
        return f"strength {lo} or more"
    return f"strength {lo}" if lo == hi else f"strength {lo}-{hi}"


def _cell_stats(frame: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Per group: mean net points (n, mean, sd, low, high) and made counts (made_k, made_n,
    made_rate, made_low, made_high)."""
    points = mean_table(frame, keys, "net_points")
    made = prefixed(rate_table(frame, keys, pl.col("made")), "made_", RATE).drop("rows")
    return points.join(made, on=keys, how="left").sort(keys)


def _best(cells: pl.DataFrame) -> tuple[dict[str, Any] | None, dict[str, Any] | None, int]:
    ok = cells.filter(pl.col("n") >= MIN_N).sort(["mean", "bid"], descending=[True, False])
    rows = list(ok.iter_rows(named=True))
    return (rows[0] if rows else None), (rows[1] if len(rows) > 1 else None), len(rows)


RUNNER_UP = Column(
    "next best net points (95% CI), n",
    lambda r: (
        ""
        if r["runner_up"] is None
        else f"{num(r['runner_up_mean'], 2, True)} ({num(r['runner_up_low'])}.."
        f"{num(r['runner_up_high'])}), n={count(r['runner_up_n'])}"
    ),
)


def bid_guide_section(inp: ReportInput) -> Section | None:
    """Expected net points of each bid per strength bucket, the best bid per bucket, and the
    guidance over ranges of buckets sharing their best bid (recomputed on the pooled range)."""
    source = inp.bid_hands()
    if source is None:
        return None
    hands, _ = source
    eligible = (
        bs.prepare(hands)
        .filter(pl.col("net_points").is_not_null() & ~pl.col("forced"))
        .select("strength_bucket", "bid", "net_points", "made")
        .collect()
    )
    if eligible.is_empty():
        return None
    cells = _cell_stats(eligible, ["strength_bucket", "bid"])
    per_bucket = []
    for (bucket,), part in cells.group_by(["strength_bucket"], maintain_order=True):
        best, second, k = _best(part)
        if best is None:
            continue
        per_bucket.append(
            {
                "strength_bucket": int(bucket),
                "best_bid": best["bid"],
                "n": best["n"],
                "mean": best["mean"],
                "low": best["low"],
                "high": best["high"],
                "made_k": best["made_k"],
                "made_n": best["made_n"],
                "made_rate": best["made_rate"],
                "made_low": best["made_low"],
                "made_high": best["made_high"],
                "candidates": k,
                "runner_up": second["bid"] if second else None,
                "runner_up_mean": second["mean"] if second else None,
                "runner_up_low": second["low"] if second else None,
                "runner_up_high": second["high"] if second else None,
                "runner_up_n": second["n"] if second else None,
            }
        )
    if not per_bucket:
        return None
    guide = pl.DataFrame(per_bucket).sort("strength_bucket")
    # ranges of consecutive buckets with the same best bid, recomputed on the pooled hands
    ranges: list[tuple[int, int]] = []
    buckets = guide["strength_bucket"].to_list()
    bests = guide["best_bid"].to_list()
    for i, (b, bid) in enumerate(zip(buckets, bests)):
        if i and bid == bests[i - 1]:
            ranges[-1] = (ranges[-1][0], b)
        else:
            ranges.append((b, b))
    range_rows = []
    for lo, hi in ranges:
        pooled = eligible.filter(pl.col("strength_bucket").is_between(lo, hi))
        stats = _cell_stats(pooled.with_columns(pl.lit(0).alias("_all")), ["_all", "bid"])
        best, second, k = _best(stats)
        if best is None:
            continue
        range_rows.append(
            {
                "from_bucket": lo,
                "to_bucket": hi,
                "strength": strength_label(lo, hi, inp.family),
                "best_bid": best["bid"],
                **{c: best[c] for c in ("n", "mean", "low", "high")},
                **{c: best[c] for c in ("made_k", "made_n", "made_rate", "made_low", "made_high")},
                "candidates": k,
                "runner_up": second["bid"] if second else None,
                "runner_up_n": second["n"] if second else None,
                "runner_up_mean": second["mean"] if second else None,
                "runner_up_low": second["low"] if second else None,
                "runner_up_high": second["high"] if second else None,
                "separated": bool(second is not None and best["low"] > second["high"]),
            }
        )
    sec = Section("bid_guide", "Bid guide: expected points per hand strength")
    strength_def = (
        "the buyer's card points under the mode bought (buckets of 10; the end buckets pool "
        f"everything below {bs.BALOOT_STRENGTH_RANGE[0] + bs.CARD_POINTS_STEP} and from "
        f"{bs.BALOOT_STRENGTH_RANGE[1]} up)"
        if inp.family == "baloot"
        else "one point per trump and per joker in the bidder's hand, plus one more for each of "
        "the trump A, K, Q, J held (measured with the trump the bidder named); values from "
        f"{bs.KOUT_STRENGTH_RANGE[0]} down and from {bs.KOUT_STRENGTH_RANGE[1]} up are pooled"
    )
    sec.blocks.append(
        Paragraph(
            f"Strength is {strength_def}. For every strength bucket and bid, the table gives the "
            "mean net points of the bidding team over the free (not forced) hands that ended on "
            f"that bid, and the made rate of the same hands. The guide picks, among bids with at "
            f"least {MIN_N} hands, the one with the highest mean. What it conditions on: each hand "
            "appears once, at the contract its auction ended on, as the simulated players bid and "
            "played it; it is what hands of this strength earned when this bid was the one played, "
            "not the value of bidding it with every such hand. Bids the players rarely chose have "
            "few hands and wide intervals."
            + (
                " Inzili hands (worth the match, not points) are left out."
                if inp.family == "kout_bh"
                else ""
            )
            + (
                " Card points are counted under the mode bought (in Hokum the trump J and 9 count "
                "20 and 14), so a Sun hand and a Hokum hand of the same count are not equally "
                "strong: compare the two modes within a bucket with that in mind."
                if inp.family == "baloot"
                else ""
            )
        )
    )
    if range_rows:
        sec.findings.append(
            "The bid guide below reads what free bids earned as the simulated players bid and "
            "played them (each hand at the contract its auction ended on), not what bidding that "
            "level with every hand of the strength would earn; a rarely chosen bid's edge may come "
            "from hands the strength measure does not see."
        )
    for r in range_rows:
        if r["runner_up"] is None:
            compare = f"the only bid with at least {MIN_N} such hands"
        else:
            compare = (
                f"more than any other bid (next: {r['runner_up']}, "
                f"{num(r['runner_up_mean'], 2, True)} ({num(r['runner_up_low'])}.."
                f"{num(r['runner_up_high'])}, n={count(r['runner_up_n'])})"
                + ("" if r["separated"] else "; the two intervals overlap")
                + ")"
            )
        verb = "buy" if inp.family == "baloot" else "bid"
        sec.findings.append(
            f"With a hand of {r['strength']}, {verb} {r['best_bid']}: it is made "
            f"{pct(r['made_rate'])} of the time (95% CI {pct_ci(r['made_low'], r['made_high'])}, "
            f"n={count(r['made_n'])}) and yields {num(r['mean'], 2, True)} points per hand "
            f"({num(r['low'])}..{num(r['high'])}), {compare}."
        )
    ranges_frame = pl.DataFrame(range_rows) if range_rows else pl.DataFrame()
    if range_rows:
        sec.blocks.append(
            Table(
                "guide_ranges",
                "The guidance: consecutive strength buckets with the same best bid pooled, and "
                "every number recomputed on the pooled hands.",
                ranges_frame,
                [
                    text_col("strength", "hand"),
                    text_col("best_bid", "best bid"),
                    *mean_cols("net points"),
                    *rate_cols("made", "made_"),
                    text_col("runner_up", "next best"),
                    RUNNER_UP,
                ],
            )
        )
    sec.blocks.append(
        Table(
            "guide",
            "Best bid per strength bucket.",
            guide,
            [
                text_col("strength_bucket", "strength bucket"),
                text_col("best_bid", "best bid"),
                *mean_cols("net points"),
                *rate_cols("made", "made_"),
                text_col("runner_up", "next best"),
                RUNNER_UP,
            ],
        )
    )
    sec.blocks.append(
        Table(
            "expected_points",
            "Every strength bucket and bid (cells below the minimum count are shown but not used "
            "by the guide).",
            cells,
            [
                text_col("strength_bucket", "strength bucket"),
                text_col("bid", "bid"),
                *mean_cols("net points"),
                *rate_cols("made", "made_"),
            ],
        )
    )
    return sec


# ----------------------------------------------------------------------------- match length


def _lineup_text(run: Run) -> str:
    family = run.settings.get("family", "")
    specs = [short_player(p, str(family)) for p in run.players]
    if len(set(specs)) == 1:
        return f"{specs[0]} in every seat"
    if len(set(specs[0::2])) == 1 and len(set(specs[1::2])) == 1:
        return f"team 0 {specs[0]} against team 1 {specs[1]}"
    return " / ".join(specs)


def match_length_section(inp: ReportInput) -> Section | None:
    """Hands per match, end reasons and the stronger side's win rate per target, for the match
    runs of one line-up (the one with the most targets)."""
    groups = inp.match_groups()
    if not groups:
        return None
    runs = groups[0]
    matches = pl.concat([r.tables["matches"] for r in runs], how="diagonal_relaxed")
    lengths = match_length.hands_per_match(matches)
    reasons_all = match_length.end_reasons(matches)
    family_reasons = match_length.FAMILY_REASONS.get(inp.family, match_length.REASONS)
    reasons = reasons_all.filter(pl.col("reason").is_in(list(family_reasons)))
    wins = match_length.stronger_side_wins(matches)
    dist = match_length.length_distribution(matches)
    targets = lengths["target"].to_list()
    lineup = _lineup_text(runs[0])
    stronger = not runs[0].symmetric
    sec = Section("match_length", "Match length and the target")
    sec.blocks.append(
        Paragraph(
            f"Whole matches at target{'s' if len(targets) > 1 else ''} "
            f"{', '.join(str(t) for t in targets)}; {lineup} ({_runs_text(runs)}). "
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
    if len(targets) > 1:
        sec.findings.append(
            f"From target {first['target']} to {last['target']} the mean match grows from "
            f"{mean_text(first, digits=1, signed=False)} hands to "
            f"{mean_text(last, digits=1, signed=False)} hands."
        )
    else:
        sec.findings.append(
            f"At target {first['target']} a match lasts {mean_text(first, digits=1, signed=False)} "
            f"hands (median {num(first['median'], 0)}, 10th-90th percentile "
            f"{num(first['p10'], 0)}-{num(first['p90'], 0)})."
        )
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
            match_length.figure(lengths, reasons, wins, title=title),
        )
    )
    sec.blocks.append(
        Plot(
            "length_distribution",
            "Distribution of hands per match at each target (share of matches).",
            _distribution_figure(dist),
        )
    )
    sec.data["length_distribution"] = _records(dist)
    return sec


REASON_TEXT = {
    "kout": "a Kout",
    "bawan_first_hand": "a Bawan made on the first hand",
    "inzili": "an Inzili",
    "forced_joker": "a forced joker lead",
    "gahwa": "a Gahwa",
}


def _distribution_figure(dist: pl.DataFrame) -> Figure:
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


# ----------------------------------------------------------------------------- Baloot modes


def baloot_modes_section(inp: ReportInput) -> Section | None:
    """Sun and Hokum purchases, buyer-fail and kaboot rates beside the human rates, projects."""
    if inp.family != "baloot":
        return None
    source = inp.bid_hands()
    if source is None:
        return None
    hands, runs = source
    shares = baloot_modes.mode_shares(hands)
    results = baloot_modes.buyer_results(hands)
    proj = baloot_modes.projects(hands)
    sec = Section("baloot_modes", "Baloot modes beside human play")
    sec.blocks.append(
        Paragraph(
            f"Hands of {_runs_text(runs)}. The buyer fails when the opponents' total beats his "
            "(RULES.md 3.6.3); a kaboot is all eight tricks to one team. Human rates: Sun fails "
            f"{pct(baloot_modes.HUMAN_FAIL['sun'])}, Hokum "
            f"{pct(baloot_modes.HUMAN_FAIL['hokum'])}; kaboot in Sun "
            f"{pct(baloot_modes.HUMAN_KABOOT['sun'])}, in Hokum "
            f"{pct(baloot_modes.HUMAN_KABOOT['hokum'])} (per hand of the mode)."
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
            f"In {r['mode'].capitalize()}, {what} in {rate_text(r)}, against {pct(r['human'])} in "
            f"human play ({inside} the interval)."
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
            "doubled, Gahwa, beside the human rate where known.",
            results,
            [
                text_col("mode", "mode"),
                text_col("measure", "measure"),
                *rate_cols("rate"),
                text_col("human", "human", pct),
                text_col("human_inside", "human inside the CI", lambda v: "yes" if v else "no"),
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
            "Mode shares; buyer-fail and kaboot rates per mode with the human rates (black "
            "ticks); project frequencies. 95% Wilson intervals.",
            baloot_modes.figure(shares, results, proj),
        )
    )
    return sec


# ------------------------------------------------------------------------------------ seats


def seats_section(inp: ReportInput) -> Section | None:
    """Auction won, made rate and points by seat from the dealer, and the first dealer's team's
    match win rate (match runs with equal players in every seat)."""
    source = inp.bid_hands()
    if source is None:
        return None
    hands, runs = source
    share = seats.bid_share(hands)
    results = seats.bidder_results(hands)
    points = seats.seat_points(hands)
    sym = [r for r in inp.match_runs if r.symmetric]
    if sym:
        matches = pl.concat([r.tables["matches"] for r in sym], how="diagonal_relaxed")
        first = seats.first_dealer_wins(matches)
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
            f"and speaks last. Hands of {_runs_text(runs)}"
            + (f"; matches of {_runs_text(sym)}." if sym else "; no match run with equal players.")
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
    fig = seats.figure(share, results, points, first, preset=preset)
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


SECTIONS: list[SectionFn] = [
    bid_success_section,
    bid_guide_section,
    match_length_section,
    baloot_modes_section,
    seats_section,
]
"""The report's sections, in order; a module adds its own by appending (see the module doc)."""


# ----------------------------------------------------------------------------- commands, meta


def report_command(paths: Sequence[str | os.PathLike[str]], out: str, title: str | None) -> str:
    """The ``kout-sim report`` command for these arguments."""
    args = ["kout-sim", "report"]
    for p in paths:
        args += ["--run", shown_path(p)]
    args += ["--out", shown_path(out)]
    if title:
        args += ["--title", title]
    return shlex.join(args)


def run_metadata(run: Run) -> dict[str, Any]:
    """What the report states about a run (from its ``run.json``), and its command."""
    s = run.settings
    family = str(s.get("family", ""))
    return {
        "folder": run.shown,
        "kind": run.kind,
        "study": run.study,
        "preset": s.get("preset"),
        "options": s.get("options", {}),
        "players": s.get("players", []),
        "players_short": [short_player(p, family) for p in s.get("players", [])],
        "seed": s.get("seed"),
        "unit": s.get("unit"),
        "count": s.get("count"),
        "version": s.get("version"),
        "git_revision": s.get("git_revision"),
        "seconds": s.get("seconds"),
        "command": run.command(),
    }


# --------------------------------------------------------------------------------- the report


@dataclass
class Report:
    """A built report: its input, sections and commands (render with :func:`render_html`)."""

    inp: ReportInput
    sections: list[Section]
    command: str | None = None


def build_report(inp: ReportInput, command: str | None = None) -> Report:
    """Run every section of :data:`SECTIONS` (after importing the package's extension modules)."""
    load_extensions()
    sections: list[Section] = []
    keys: set[str] = set()
    for fn in SECTIONS:
        sec = fn(inp)
        if sec is None:
            continue
        if sec.key in keys:
            raise ValueError(f"two report sections share the key {sec.key!r}")
        keys.add(sec.key)
        sections.append(sec)
    return Report(inp, sections, command)


def _jsonable(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return _jsonable(value.item())
    if isinstance(value, Path):
        return str(value)
    return value


def _records(frame: pl.DataFrame) -> list[dict[str, Any]]:
    return [_jsonable(r) for r in frame.to_dicts()]


def report_data(report: Report) -> dict[str, Any]:
    """The machine-readable content: ``{"preset", "title", "summary", "runs", "studies",
    "commands", "sections": {key: {"title", "findings", "tables": {key: {"caption", "rows"}},
    "data"}}}``; every number the page shows is in it."""
    inp = report.inp
    return _jsonable(
        {
            "preset": inp.preset,
            "family": inp.family,
            "title": inp.title,
            "summary": [f for s in report.sections for f in s.findings],
            "runs": [run_metadata(r) for r in inp.runs],
            "studies": [
                {k: v for k, v in s.items() if k in ("name", "preset", "folder", "command")}
                for s in inp.studies
            ],
            "commands": {
                "runs": [r.command() for r in inp.runs],
                "studies": [s.get("command") for s in inp.studies],
                "report": report.command,
            },
            "sections": {
                s.key: {
                    "title": s.title,
                    "findings": s.findings,
                    "tables": {
                        t.key: {"caption": t.caption, "rows": _records(t.frame)}
                        for t in s.tables().values()
                    },
                    "data": s.data,
                }
                for s in report.sections
            },
        }
    )


def figure_png(fig: Figure) -> str:
    """A figure as a base64 PNG (the figure is closed)."""
    buf = io.BytesIO()
    try:
        fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    finally:
        plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0 1.4em;font-size:.85em}
th,td{border:1px solid #ddd;padding:.25em .55em;text-align:right;vertical-align:top}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
caption{caption-side:top;text-align:left;font-size:.95em;color:#444;padding:.3em 0}
.summary li{margin:.35em 0}img{max-width:100%}figure{margin:1em 0}
figcaption{font-size:.85em;color:#555}code,pre{background:#f6f6f6;font-size:.85em}
pre{padding:.6em;overflow-x:auto;white-space:pre-wrap}
details summary{cursor:pointer;color:#444}
"""


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _table_html(t: Table) -> str:
    head = "".join(f"<th>{_esc(c.label)}</th>" for c in t.columns)
    body = []
    for row in t.frame.iter_rows(named=True):
        body.append(
            "<tr>" + "".join(f"<td>{_esc(c.render(row))}</td>" for c in t.columns) + "</tr>"
        )
    return (
        f'<table id="{_esc(t.key)}"><caption>{_esc(t.caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _block_html(block: Block) -> str:
    if isinstance(block, Paragraph):
        return f"<p>{_esc(block.text)}</p>"
    if isinstance(block, Table):
        if block.frame.height > 40:
            return (
                f"<details><summary>{_esc(block.caption)} ({block.frame.height} rows)</summary>"
                f"{_table_html(block)}</details>"
            )
        return _table_html(block)
    png = figure_png(block.figure)
    return (
        f'<figure><img alt="{_esc(block.caption)}" src="data:image/png;base64,{png}">'
        f"<figcaption>{_esc(block.caption)}</figcaption></figure>"
    )


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page (no external resources)."""
    inp = report.inp
    data = report_data(report)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(inp.title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{_esc(inp.title)}</h1>",
        f"<p>Preset <code>{_esc(inp.preset)}</code>; {len(inp.runs)} run"
        f"{'s' if len(inp.runs) != 1 else ''}. Every rate is shown with its count and a 95% Wilson "
        "interval, every mean with its count and a 95% normal interval. The numbers describe the "
        "simulated players named under 'Runs', not human play, and are reproduced exactly by the "
        "commands listed there.</p>",
        '<h2 id="summary">Summary</h2><ul class="summary">',
    ]
    for sec in report.sections:
        for finding in sec.findings:
            parts.append(
                f'<li>{_esc(finding)} <a href="#{_esc(sec.key)}">[{_esc(sec.title)}]</a></li>'
            )
    if not any(s.findings for s in report.sections):
        parts.append("<li>No section had data to report.</li>")
    parts.append("</ul>")
    for sec in report.sections:
        parts.append(f'<h2 id="{_esc(sec.key)}">{_esc(sec.title)}</h2>')
        parts.extend(_block_html(b) for b in sec.blocks)
    parts.append('<h2 id="runs">Runs and how to reproduce them</h2>')
    for study in inp.studies:
        if study.get("command"):
            parts.append(
                f"<p>Study <code>{_esc(study.get('name'))}</code> in "
                f"<code>{_esc(study.get('folder'))}</code>, made by:</p>"
                f"<pre>{_esc(study['command'])}</pre>"
            )
    for meta in data["runs"]:
        options = ", ".join(f"{k}={v}" for k, v in sorted(meta["options"].items()))
        players = " / ".join(dict.fromkeys(meta["players_short"]))
        parts.append(
            f"<h3>{_esc(meta['folder'])}</h3><table><tbody>"
            + "".join(
                f"<tr><th>{_esc(k)}</th><td>{_esc(v)}</td></tr>"
                for k, v in (
                    ("kind", meta["kind"]),
                    ("study", meta["study"] or ""),
                    ("preset", meta["preset"]),
                    ("options", options),
                    ("players (non-default parameters)", players),
                    ("seed", meta["seed"]),
                    (meta["unit"] or "count", count(meta["count"])),
                    ("version", meta["version"]),
                    ("git revision", meta["git_revision"] or "unknown"),
                    ("seconds", meta["seconds"]),
                )
            )
            + "</tbody></table>"
        )
        if meta["command"]:
            parts.append(f"<pre>{_esc(meta['command'])}</pre>")
        parts.append(
            "<details><summary>players of every seat, every parameter</summary><pre>"
            + _esc("\n".join(meta["players"]))
            + "</pre></details>"
        )
    if report.command:
        parts.append(f"<p>This report:</p><pre>{_esc(report.command)}</pre>")
    blob = json.dumps(data, allow_nan=False, separators=(",", ":")).replace("</", "<\\/")
    parts.append(f'<script type="application/json" id="report-data">{blob}</script>')
    parts.append("</body></html>")
    return "\n".join(parts)


REPORT_MARK = b'<script type="application/json" id="report-data">'
"""What every report this project writes holds: a file without it is never replaced."""


def _check_report_target(target: Path) -> None:
    """Refuse (one line) an output path that is a folder, or a file that is not a report written
    by kout-sim (such a file is left as it is)."""
    if target.is_dir():
        raise ValueError(f"{target} is a folder, not a report file; not replacing it")
    if target.exists():
        try:
            ours = REPORT_MARK in target.read_bytes()
        except OSError as exc:
            raise ValueError(f"cannot read {target}: {exc.strerror or exc}") from None
        if not ours:
            raise ValueError(f"{target} exists and is not a kout-sim report; not replacing it")


def write_report(
    paths: Sequence[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    *,
    title: str | None = None,
) -> Report:
    """Build the report of the runs (or study folders) ``paths`` and write it to ``out``
    atomically (a temporary file in the same folder, then a rename). ``ValueError`` (one line)
    for bad input: a folder that is not a run or study, an incomplete run, mixed presets."""
    _check_report_target(Path(out))
    runs, studies = expand(paths)
    inp = ReportInput.from_runs(runs, studies, title or "")
    report = build_report(inp, report_command(paths, str(out), title))
    text = render_html(report)
    target = Path(out)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(tmp, 0o644)  # mkstemp creates it private; a report is for reading
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise ValueError(f"cannot write {target}: {exc.strerror or exc}") from None
    return report
