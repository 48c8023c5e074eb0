"""Strategy reports: one self-contained HTML page of numeric guidance for one preset.

``kout-sim report --run DIR [--run DIR ...] --out FILE.html`` (or :func:`write_report`) reads run
folders (or study folders, which expand to their runs; see :mod:`analyses.studies`), runs every
section of :data:`SECTIONS` on them, and writes one HTML file: a summary of at most eight pieces of
advice, each with its number and the players it comes from (:meth:`analyses.section.Report.summary`),
one part per question with tables and figures, the section "How these numbers were made" (every
other finding: the method, the pairing gains, the caveats), the metadata of every run and the
commands that reproduce it. Every number shown is also embedded as JSON in
``<script type="application/json" id="report-data">``, keyed by section and table (see
:func:`analyses.render.report_data`).

The report is put together from four places:

- :mod:`analyses.section`: the section model (what a section reads and returns; the contract is
  in its docstring) and the formatting of numbers;
- the analysis modules: each writes the sections of its own numbers beside the functions that
  compute them (``bid_success.bid_success_section``, ``match_length.match_length_section``, ...);
- :mod:`analyses.render`: the JSON content and the HTML page;
- :mod:`analyses.commands`: the commands that reproduce the runs, the studies and the report.

A new section is a function ``ReportInput -> Section | None`` in its analysis module, added to
:data:`SECTIONS` at the place it should appear (docs/analyses.md).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from . import (
    baloot_modes,
    bid_forks,
    bid_success,
    hand_model_section,
    joker_section,
    ladder_section,
    match_length,
    seats,
)
from .commands import report_command
from .render import render_html
from .section import Report, ReportInput, Section, SectionFn, expand

SECTIONS: tuple[SectionFn, ...] = (
    bid_success.bid_success_section,
    bid_forks.bid_guide_section,
    hand_model_section.hand_model_section,
    match_length.match_length_section,
    baloot_modes.baloot_modes_section,
    seats.seats_section,
    joker_section.joker_section,
    ladder_section.ladder_section,
)
"""The report's sections, in the order the report shows them."""


def build_report(
    inp: ReportInput, command: str | None = None, sections: Sequence[SectionFn] = SECTIONS
) -> Report:
    """Run every section of ``sections`` (default :data:`SECTIONS`) on ``inp``; the sections
    without data (None) are left out. ``ValueError`` if two sections share a key."""
    built: list[Section] = []
    keys: set[str] = set()
    for fn in sections:
        sec = fn(inp)
        if sec is None:
            continue
        if sec.key in keys:
            raise ValueError(f"two report sections share the key {sec.key!r}")
        keys.add(sec.key)
        built.append(sec)
    return Report(inp, built, command)


REPORT_MARK = b'<script type="application/json" id="report-data">'
"""What every report this project writes holds (:func:`analyses.render.render_html`): a file
without it is never replaced."""


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
    sections: Sequence[SectionFn] = SECTIONS,
) -> Report:
    """Build the report of the runs (or study folders) ``paths`` with ``sections`` and write it
    to ``out`` atomically (a temporary file in the same folder, then a rename). ``ValueError``
    (one line) for bad input: a folder that is not a run or study, an incomplete run, mixed
    presets; an ``out`` that is a folder or a file other than a kout-sim report."""
    _check_report_target(Path(out))
    runs, studies = expand(paths)
    inp = ReportInput.from_runs(runs, studies, title or "")
    report = build_report(inp, report_command(paths, str(out), title), sections)
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
