"""The report as a page: the machine-readable content (:func:`report_data`, embedded as JSON) and
one self-contained HTML page (:func:`render_html`: the CSS inline, figures as PNG ``data:`` URIs,
no external resource)."""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from .commands import short_player
from .fmt import count
from .section import SUMMARY_MAX, Block, Paragraph, Report, Run, Table, jsonable, records

METHOD_TITLE = "How these numbers were made"
"""The heading of the section that holds every finding the summary does not show."""

DPI = 72
"""Resolution of the inline figures (kept low: the report stays small)."""


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


def report_data(report: Report) -> dict[str, Any]:
    """The machine-readable content: ``{"preset", "title", "summary", "summary_items",
    "method", "runs", "studies", "commands", "sections": {key: {"title", "findings", "advice",
    "tables": {key: {"caption", "rows"}}, "data"}}}``; every number the page shows is in it.

    ``summary`` holds the summary's sentences as shown (each advice with its players label),
    ``summary_items`` the same advice item by item (``section``, ``text``, ``players``, ``holds``,
    ``priority``), ``method`` the findings of the section "How these numbers were made"
    (``section``, ``text``)."""
    inp = report.inp
    summary = report.summary()
    data: dict[str, Any] = jsonable(
        {
            "preset": inp.preset,
            "family": inp.family,
            "title": inp.title,
            "summary": [f"{a.text} ({a.label})" for _, a in summary],
            "summary_items": [
                {
                    "section": s.key,
                    "text": a.text,
                    "players": a.players,
                    "holds": a.holds,
                    "priority": a.priority,
                }
                for s, a in summary
            ],
            "method": [{"section": s.key, "text": f} for s, f in report.method()],
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
                    "advice": [
                        {"text": a.text, "players": a.players, "holds": a.holds} for a in s.advice
                    ],
                    "tables": {
                        t.key: {"caption": t.caption, "rows": records(t.frame)}
                        for t in s.tables().values()
                    },
                    "data": s.data,
                }
                for s in report.sections
            },
        }
    )
    return data


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
h1,h2,h3,p,li,caption,figcaption,summary,code,pre{overflow-wrap:anywhere}
.scroll{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;margin:.6em 0 1.4em;font-size:.85em}
th,td{border:1px solid #ddd;padding:.25em .55em;text-align:right;vertical-align:top;
overflow-wrap:break-word}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
caption{caption-side:top;text-align:left;font-size:.95em;color:#444;padding:.3em 0}
.summary li{margin:.45em 0}.players{color:#555;font-size:.9em}.method li{margin:.3em 0}
img{max-width:100%;height:auto}figure{margin:1em 0}
figcaption{font-size:.85em;color:#555}code,pre{background:#f6f6f6;font-size:.85em}
pre{padding:.6em;overflow-x:auto;white-space:pre-wrap}
details summary{cursor:pointer;color:#444}
"""
"""The page's style. Nothing runs off a 1280 px page: long tokens (player specs, folders,
commands) wrap anywhere, every table sits in a ``.scroll`` box that scrolls sideways when it is
wider than the text, figures shrink to the text width, and no width is fixed beyond the text's
1100 px."""

STYLE = " ".join(CSS.split())
""":data:`CSS` as the page carries it: one line (every run of white space, line breaks included,
made one space, which separates the same tokens)."""


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
        f'<div class="scroll"><table id="{_esc(t.key)}"><caption>{_esc(t.caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
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
        # the head on one line: generated, never edited by hand (its stylesheet is CSS above)
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_esc(inp.title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_esc(inp.title)}</h1>",
        f"<p>Preset <code>{_esc(inp.preset)}</code>; {len(inp.runs)} run"
        f"{'s' if len(inp.runs) != 1 else ''}. Every rate is shown with its count and a 95% Wilson "
        "interval, every mean with its count and a 95% normal interval. The numbers describe the "
        "simulated players named under 'Runs', not human play, and are reproduced exactly by the "
        "commands listed there.</p>",
        '<h2 id="summary">Summary</h2><ul class="summary">',
    ]
    summary = report.summary()
    for sec, advice in summary:
        parts.append(
            f'<li>{_esc(advice.text)} <span class="players">({_esc(advice.label)})</span> '
            f'<a href="#{_esc(sec.key)}">[{_esc(sec.title)}]</a></li>'
        )
    if not summary:
        parts.append(
            "<li>No section had advice to give; see "
            '<a href="#method">How these numbers were made</a>.</li>'
        )
    parts.append("</ul>")
    for sec in report.sections:
        parts.append(f'<h2 id="{_esc(sec.key)}">{_esc(sec.title)}</h2>')
        parts.extend(_block_html(b) for b in sec.blocks)
    parts.append(f'<h2 id="method">{_esc(METHOD_TITLE)}</h2>')
    parts.append(
        "<p>What the summary leaves out: how each number was made, what it is conditioned on, how "
        "much the pairing of the forks narrows the intervals, the caveats, and the advice beyond "
        f"the summary's {SUMMARY_MAX} items; by section.</p>"
    )
    method = report.method()
    for sec in report.sections:
        mine = [f for s, f in method if s is sec]
        if mine:
            parts.append(
                f'<h3><a href="#{_esc(sec.key)}">{_esc(sec.title)}</a></h3><ul class="method">'
                + "".join(f"<li>{_esc(f)}</li>" for f in mine)
                + "</ul>"
            )
    parts.append('<h2 id="runs">Runs and how to reproduce them</h2>')
    for study in inp.studies:
        if study.get("command"):
            parts.append(
                f"<p>Study <code>{_esc(study.get('name'))}</code> in "
                f"<code>{_esc(study.get('folder'))}</code>, made by:</p>"
                f"<pre>{_esc(study['command'])}</pre>"
            )
    parts.extend(_run_html(meta, inp.n_seats) for meta in data["runs"])
    if report.command:
        parts.append(f"<p>This report:</p><pre>{_esc(report.command)}</pre>")
    blob = json.dumps(data, allow_nan=False, separators=(",", ":")).replace("</", "<\\/")
    parts.append(f'<script type="application/json" id="report-data">{blob}</script>')
    parts.append("</body></html>")
    return "\n".join(parts)


def seat_groups(players: Sequence[str], n_seats: int) -> list[tuple[str, str]]:
    """The players of a run grouped by spec: each distinct spec once, with the seats that play it
    (counted from 0, as in ``run.json``: ``("seats 0, 2", "heuristic:...")``), in the order of
    their first seat.

    Parameters
    ----------
    players : sequence of str
        The run's ``players``: one spec per seat, or another list (a ladder rung's one player, a
        duel's two teams), whose specs come as they are, with no seats (``("", spec)``).
    n_seats : int
        The seats at the table of the run's preset.

    Returns
    -------
    list of (str, str)
        The seats and the spec, one pair per distinct spec.
    """
    if len(players) != n_seats:
        return [("", str(p)) for p in players]
    seats: dict[str, list[str]] = {}
    for seat, spec in enumerate(players):
        seats.setdefault(str(spec), []).append(str(seat))
    return [(f"seat{'s' if len(s) > 1 else ''} {', '.join(s)}", p) for p, s in seats.items()]


def _run_html(meta: dict[str, Any], n_seats: int) -> str:
    """A run's part of "Runs and how to reproduce them", on one line: its folder, its settings,
    its command and its players with every parameter."""
    options = ", ".join(f"{k}={v}" for k, v in sorted(meta["options"].items()))
    players = " / ".join(dict.fromkeys(meta["players_short"]))
    settings = "".join(
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
    command = f"<pre>{_esc(meta['command'])}</pre>" if meta["command"] else ""
    every = "".join(
        f"<li>{_esc(seats) + ': ' if seats else ''}<code>{_esc(spec)}</code></li>"
        for seats, spec in seat_groups(meta["players"], n_seats)
    )
    return (
        f'<h3>{_esc(meta["folder"])}</h3><div class="scroll"><table><tbody>{settings}'
        f"</tbody></table></div>{command}<details><summary>players of every seat, every parameter"
        f'</summary><ul class="seats">{every}</ul></details>'
    )
