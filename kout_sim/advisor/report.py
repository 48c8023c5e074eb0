"""The advisor's summary of the outcomes (intervals, the advised option) and its text table."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..stats import wilson
from .evaluate import Option, Outcomes

OBJECTIVES = ("points", "win", "value")
"""What the advised option maximises: the mean net points of the seat's team (its points minus the
other team's), the probability that its team wins the hand, or its mean tricks / card points."""


def mean_ci(x: np.ndarray) -> tuple[float | None, list[float | None]]:
    """Mean and 95% Student-t interval of the finite entries of ``x`` (None when there are none;
    the interval is [mean, mean] for one value or no spread)."""
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return None, [None, None]
    m = float(x.mean())
    if len(x) == 1:
        return m, [m, m]
    from scipy import stats as st  # here: scipy.stats takes 0.4 s to import, every start

    half = float(st.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))
    return m, [m - half, m + half]


def _prop(k: int, n: int) -> tuple[float | None, list[float | None]]:
    if n == 0:
        return None, [None, None]
    lo, hi = wilson(k, n)
    return k / n, [lo, hi]


def summarize(
    options: list[Option], out: Outcomes, card: bool, objective: str = "points"
) -> tuple[list[dict[str, Any]], int, dict[str, Any]]:
    """One summary row per option, the index of the advised option and its paired figures."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
    n = out.team.shape[0]
    net = (out.team - out.other).astype(float)
    contract = out.made >= 0
    # the seat's team wins the hand: its own contract made, or the other team's beaten
    win = contract & ((out.made == 1) == out.ours)
    rows: list[dict[str, Any]] = []
    for j, option in enumerate(options):
        ours = out.ours[:, j]
        made_ours = int(((out.made[:, j] == 1) & ours).sum())
        row: dict[str, Any] = {"option": option.label, "call": option.call, "samples": n}
        if card:
            row["p_make"], row["p_make_ci"] = _prop(int((out.made[:, j] == 1).sum()), n)
        else:
            row["p_ours"] = float(ours.mean()) if n else None
            row["n_ours"] = int(ours.sum())
            row["p_make"], row["p_make_ci"] = _prop(made_ours, int(ours.sum()))
        row["p_win"], row["p_win_ci"] = _prop(int(win[:, j].sum()), n)
        row["points"], row["points_ci"] = mean_ci(out.team[:, j].astype(float))
        row["net"], row["net_ci"] = mean_ci(net[:, j])
        row["value"], row["value_ci"] = mean_ci(out.value[:, j])
        row["match_decided"] = float((out.match[:, j] >= 0).mean()) if n else 0.0
        rows.append(row)
    score = {
        "points": [r["net"] for r in rows],
        "win": [r["p_win"] for r in rows],
        "value": [r["value"] for r in rows],
    }[objective]
    keyed = [(-math.inf if s is None else s, -j) for j, s in enumerate(score)]
    best = max(range(len(rows)), key=lambda j: keyed[j])
    per_sample = {"points": net, "win": win.astype(float), "value": out.value}[objective]
    for j, row in enumerate(rows):
        diff = per_sample[:, j] - per_sample[:, best]
        row["diff"], row["diff_ci"] = mean_ci(diff)
    if card:
        # how often each card is best on a deal (ties: every tied card counts)
        finite = np.where(np.isfinite(per_sample), per_sample, -np.inf)
        top = finite.max(axis=1, keepdims=True)
        best_share = (finite == top).mean(axis=0)
        for j, row in enumerate(rows):
            row["best_share"] = float(best_share[j])
    return rows, best, {"objective": objective}


def _pct(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:.1f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:+.{digits}f}"


def _ci(ci: list[float | None], pct: bool = False) -> str:
    lo, hi = ci
    if lo is None or hi is None:
        return ""
    if pct:
        return f"({100 * lo:.0f}..{100 * hi:.0f})"
    return f"({lo:+.2f}..{hi:+.2f})"


def format_table(result: dict[str, Any]) -> str:
    """The readable table of an :func:`kout_sim.advise` result."""
    card = result["decision"] == "card"
    lines = [
        f"{result['rules']}: seat {result['seat']} to {'play a card' if card else 'call'} "
        f"({result['phase']} phase); dealer {result['dealer']}",
        f"evaluation: {result['evaluation']}",
        f"{result['samples']} {'known deal' if result['known'] else 'sampled deals'}, seed "
        f"{result['seed']}, {result['ms']:.0f} ms",
        "",
    ]
    value_name = "tricks" if not result["rules"].startswith("baloot") else "card pts"
    head = ["option"]
    if not card:
        head += ["ours", "P(make)"]
    else:
        head += ["P(make)"]
    head += ["P(win hand)", "points", "net points", "net vs advised"]
    if card:
        head += [value_name, "best"]
    rows = [head]
    for r in result["options"]:
        cells = [r["option"] + (" *" if r["option"] == result["advised"] else "")]
        if not card:
            cells += [_pct(r["p_ours"]), f"{_pct(r['p_make'])} {_ci(r['p_make_ci'], True)}"]
        else:
            cells += [f"{_pct(r['p_make'])} {_ci(r['p_make_ci'], True)}"]
        cells += [
            f"{_pct(r['p_win'])} {_ci(r['p_win_ci'], True)}",
            f"{_num(r['points'])} {_ci(r['points_ci'])}",
            f"{_num(r['net'])} {_ci(r['net_ci'])}",
            f"{_num(r['diff'])} {_ci(r['diff_ci'])}",
        ]
        if card:
            cells += [f"{_num(r['value'])} {_ci(r['value_ci'])}", _pct(r["best_share"])]
        rows.append(cells)
    widths = [max(len(row[k]) for row in rows) for k in range(len(head))]
    for row in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    lines.append("")
    lines.append(f"advised: {result['advised']} (highest {result['objective_text']}; * above)")
    lines.extend(f"note: {note}" for note in result["notes"])
    return "\n".join(lines)
