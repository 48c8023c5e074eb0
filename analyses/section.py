"""The report's section model: what a section reads (:class:`ReportInput`, its :class:`Run` s)
and what it returns (a :class:`Section` of :class:`Paragraph`, :class:`Table` and :class:`Plot`
blocks), and the built report (:class:`Report`, its JSON through :func:`jsonable`). The text of
the numbers a section shows is written by :mod:`analyses.fmt`, its tables' columns are built by
:mod:`analyses.columns`.

The section contract
--------------------
A section is a function ``section(inp: ReportInput) -> Section | None``, written in the module of
the analysis whose numbers it shows (``analyses/bid_success.py`` holds ``bid_success_section``
and ``bid_guide_section``, ...) and built from that module's public functions; the report shows
the sections of :data:`analyses.report.SECTIONS` in that order. It returns ``None`` when its data
is absent (no match runs, another game family, ...), and otherwise a :class:`Section`:

- ``key``: a short identifier, unique in the report (the JSON key and the HTML anchor);
- ``title``: the heading;
- ``findings``: plain-language sentences that state the section's numbers, each with its count
  and interval, in the order shown;
- ``advice``: the findings that are a piece of advice to a card player (:class:`Advice`, added by
  :meth:`Section.advise`: the sentence, the players it comes from, whether it holds across other
  players, a priority). The report's summary keeps the :data:`SUMMARY_MAX` advice items of highest
  priority (section order within a priority); every other finding (the method, the pairing gains,
  the caveats, the advice left out) goes to the section "How these numbers were made";
- ``blocks``: the body, in order: :class:`Paragraph`, :class:`Table` (a polars DataFrame with the
  :class:`Column` s to show; every row goes to the JSON under ``tables.<key>``) and
  :class:`Plot` (a matplotlib Figure, rendered to PNG and closed);
- ``data``: any other machine-readable numbers (JSON under ``data``).

:class:`ReportInput` gives a section every run, grouped by kind: ``hand_runs`` (independent
hands, ``unit == "hands"``), ``match_runs`` (whole matches) and ``other_runs`` (run folders whose
``run.json`` has a ``kind`` or ``study`` field the report does not know, such as ``kout-sim
forks`` folders; their tables are every sub-folder of parquet files, unconverted). Each
:class:`Run` carries its folder, its ``run.json`` (``settings``) and its tables (LazyFrames, with
the columns ``preset``, ``family`` and ``n_seats`` for the known kinds), plus the study that made
it. Helpers select the usual data: :meth:`ReportInput.bid_hands` (the hands the bidding questions
are read from) and :meth:`ReportInput.match_groups` (match runs grouped by line-up).

Every statistic is shown with its count and its 95% interval (Wilson for rates, normal for means;
:mod:`analyses._common`): :func:`analyses.columns.rate_cols` and
:func:`analyses.columns.mean_cols` show them in a table, :func:`analyses.fmt.rate_text` and
:func:`analyses.fmt.mean_text` in a sentence.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure

import kout_sim
from kout_sim.rules import Family

from ._common import load_run, run_settings
from .commands import shown_path, simulate_command, with_out

MIN_N = 30
"""The fewest hands a cell needs to be read as guidance (the bid guide's ``min_n``, the findings)."""

SUMMARY_MAX = 8
"""The most advice items the report's summary shows (the rest go to the method section)."""

ADVICE_PRIORITY = {
    "bid_guide": 3,
    "hand_model": 2,
    "joker": 2,
    "ladder": 2,
    "joker_rare": 1,
    "match_length": 1,
}
"""The priority of each kind of advice in the summary (:class:`Advice`): what to bid first, then
where to lead the joker and the ladder's made rates and joker values (each with its verdict
across the players), then rare positions and how long a match lasts."""

KNOWN_KINDS = ("hands", "matches")
"""Run kinds the built-in sections read; any other ``kind``/``study`` value is passed through."""


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
        """The preset the run was played with."""
        return str(self.settings["preset"])

    @property
    def players(self) -> list[str]:
        """The players of the run's settings, as text."""
        return [str(p) for p in self.settings.get("players", [])]

    @property
    def options(self) -> dict[str, Any]:
        """The rule options the run was played with."""
        return dict(self.settings.get("options", {}))

    @property
    def symmetric(self) -> bool:
        """Every seat plays the same player (seat effects then come from the rules alone)."""
        return len(set(self.players)) <= 1

    @property
    def lineup_key(self) -> tuple[str, ...]:
        """The players as a key: runs of different line-ups are never pooled."""
        return tuple(self.players)

    @property
    def target(self) -> int | None:
        """The match target of the run's options (None: the preset's default)."""
        value = self.options.get("target")
        return int(value) if value is not None else None

    def command(self) -> str | None:
        """The ``kout-sim simulate`` command that writes this run again (known kinds only)."""
        if self.kind not in KNOWN_KINDS:
            cmd = self.settings.get("command")
            # a run whose command writes a sub-folder of it (a joker context run: its play/)
            sub = self.settings.get("play")
            out = os.path.join(self.shown, str(sub)) if sub else self.shown
            return with_out(str(cmd), out) if cmd else None
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
    family: Family
    n_seats: int
    hand_runs: tuple[Run, ...]
    match_runs: tuple[Run, ...]
    other_runs: tuple[Run, ...]
    studies: tuple[dict[str, Any], ...] = ()
    title: str = ""

    @property
    def runs(self) -> tuple[Run, ...]:
        """Every run of the report: the hand runs, the match runs, then the others."""
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
            family=rules.family,
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


@dataclass(frozen=True)
class Advice:
    """A finding that is a piece of advice to a card player.

    Attributes
    ----------
    text : str
        The sentence: the advice, its condition and its number (one of the section's findings).
    players : str
        The players it comes from (short specs, e.g. ``heuristic``).
    holds : str or None
        Whether it holds under the other players of the report's runs (a ladder, a second
        line-up), in words; None: the runs hold no other player to check it against.
    priority : int
        Higher first in the summary; within a priority, section order then the section's order.
    """

    text: str
    players: str
    holds: str | None = None
    priority: int = 0

    @property
    def label(self) -> str:
        """Which players the advice comes from and whether it holds across them, in words."""
        across = self.holds or "not checked under other players (no other line-up in these runs)"
        return f"players: {self.players}; {across}"


@dataclass
class Section:
    """One part of the report (see the module docstring for the contract)."""

    key: str
    title: str
    findings: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    advice: list[Advice] = field(default_factory=list)

    def tables(self) -> dict[str, Table]:
        """The section's tables by key, in the order they are shown."""
        return {b.key: b for b in self.blocks if isinstance(b, Table)}

    def advise(self, text: str, players: str, holds: str | None = None, priority: int = 0) -> None:
        """Add the finding ``text`` and mark it as advice (:class:`Advice`) from ``players``.

        Parameters
        ----------
        text : str
            The sentence, with its number and its condition.
        players : str
            The players it comes from.
        holds : str or None
            Whether it holds across the other players of the runs, in words (None: none to
            check it against).
        priority : int
            Higher first in the summary.
        """
        self.findings.append(text)
        self.advice.append(Advice(text, players, holds, priority))


SectionFn = Callable[[ReportInput], Section | None]


# ---------------------------------------------------------------------------------- the report


@dataclass
class Report:
    """A built report: its input, sections and command (rendered by :mod:`analyses.render`)."""

    inp: ReportInput
    sections: list[Section]
    command: str | None = None

    def summary(self) -> list[tuple[Section, Advice]]:
        """The advice the summary shows: the :data:`SUMMARY_MAX` items of highest priority,
        in section order (and each section's own order) within a priority."""
        items = [(s, a) for s in self.sections for a in s.advice]
        ranked = sorted(range(len(items)), key=lambda i: (-items[i][1].priority, i))
        return [items[i] for i in sorted(ranked[:SUMMARY_MAX])]

    def method(self) -> list[tuple[Section, str]]:
        """Every finding the summary does not show (the method, the pairing gains, the caveats,
        the advice left out), in section order: the section "How these numbers were made"."""
        shown = {(s.key, a.text) for s, a in self.summary()}
        return [(s, f) for s in self.sections for f in s.findings if (s.key, f) not in shown]


def jsonable(value: Any) -> Any:
    """``value`` with NaN and infinities as None, numpy scalars as Python ones, paths as text."""
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, Path):
        return str(value)
    return value


def records(frame: pl.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``frame`` as JSON-ready dicts."""
    return [jsonable(r) for r in frame.to_dicts()]
