"""The columns of a report's tables (:class:`analyses.section.Column`): which field of a row each
shows, under which header, written by :mod:`analyses.fmt`.

A rate takes two columns (:func:`rate_cols`: ``k / n``, then the rate with its 95% Wilson
interval), a mean two (:func:`mean_cols`: ``n``, then the mean with its 95% normal interval); any
other field one (:func:`text_col`, :func:`count_col`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .fmt import count, num, pct, pct_ci
from .section import Column


def text_col(name: str, label: str, fmt: Callable[[Any], str] = str) -> Column:
    """A column showing ``name`` through ``fmt`` (empty where it is null)."""
    return Column(label, lambda r: "" if r[name] is None else fmt(r[name]))


def count_col(name: str, label: str) -> Column:
    """A column showing the count ``name``."""
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
