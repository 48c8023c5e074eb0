"""The ``kout-sim`` command line: simulate, duel, bench, replay, study, report, verify, solve,
advise, forks, players, presets.

Bad input exits with status 2 and a one-line ``error:`` message, never a traceback. The group and
its one-line errors are in :mod:`._base`, the options several commands spell alike in
:mod:`._options`; the commands in :mod:`.runs` (simulate, bench, duel), :mod:`.records` (advise,
solve, replay) and :mod:`.studies` (forks, study, report, verify, players, presets), each
registered on the group when its module is imported below.
"""

from __future__ import annotations

import os
import sys

import click

from . import records, runs, studies  # noqa: F401  (each module registers its commands on main)
from ._base import main

__all__ = ["main", "run"]


def run() -> None:
    """The ``kout-sim`` console entry point: :func:`main`, then a fast exit.

    Tearing the interpreter down after numba has loaded compiled kernels takes about 0.3 s
    (llvmlite finalizes every compiled module). By the time a command returns, every file it wrote
    is closed and in place and every worker pool is shut down, so the process flushes its output
    and exits without the teardown. An exception other than an exit keeps its traceback.
    """
    try:
        main()
    except SystemExit as done:
        code = done.code
    else:  # pragma: no cover - click always exits in standalone mode
        code = 0
    if isinstance(code, str):
        click.echo(code, err=True)
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)
