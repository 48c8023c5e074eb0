"""The text of the numbers a report shows: shares, intervals, means and counts, and the names of
seats, players and run folders in its sentences.

Every statistic is shown with its count and its 95% interval (Wilson for rates, normal for means;
:mod:`analyses._common`): :func:`rate_text` and :func:`mean_text` write one in a sentence,
:func:`pct`, :func:`pct_ci`, :func:`num` and :func:`count` its parts; a missing value (None or
NaN) is written ``n/a``. The table columns that show them are built in :mod:`analyses.columns`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .commands import short_player
from .section import Run


def _missing(x: Any) -> bool:
    """Whether ``x`` is absent: None or a float NaN."""
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
    """``x`` with ``digits`` decimals (``signed``: with its sign), or ``n/a``."""
    if _missing(x):
        return "n/a"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def count(n: Any) -> str:
    """``n`` as a whole number with thousands separators, or ``n/a``."""
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


def seat_label(rel: int, n_seats: int) -> str:
    """The label of seat ``rel`` (counted from the dealer) at a table of ``n_seats``."""
    if rel == 0:
        return "0 (dealer, speaks last)"
    if rel == 1:
        return "1 (speaks first)"
    return str(rel)


def players_text(runs: Sequence[Run], family: str) -> str:
    """The players of ``runs`` as short specs (parameters at their defaults left out), each
    once, in seat order: ``heuristic`` or ``heuristic | random:pass=0.8``."""
    return " | ".join(dict.fromkeys(short_player(p, family) for r in runs for p in r.players))


def runs_text(runs: Sequence[Run]) -> str:
    """The folders of ``runs``, as the report shows them."""
    return ", ".join(r.shown for r in runs)
