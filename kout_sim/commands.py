"""The ``kout-sim`` command lines the project writes down: in ``run.json`` and ``study.json``, in
reports, and in the hint printed when a run is interrupted.

:func:`command_line` is the one place such a line is built, so that every one is spelled, ordered
and shell-quoted alike. The callers decide what goes in (a run's settings, the arguments a user
typed); the analyses build their commands from run settings with it (:mod:`analyses.commands`).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

PROGRAM = "kout-sim"

OptionValue = str | int | float | bool | None | Sequence[str | int]
"""A value of :func:`command_line`'s keyword options: see there."""


def command_line(subcommand: str, *arguments: str, **options: OptionValue) -> str:
    """``kout-sim SUBCOMMAND ARGUMENTS... --option value ...`` as one shell-quoted line.

    The options are written in the order given, ``team_a`` as ``--team-a``. A value of ``None`` or
    ``False`` leaves the option out, ``True`` writes it as a bare flag, a list or tuple repeats it
    once per item (none for an empty one), anything else is written as ``str(value)``.

    >>> command_line("report", run=["a b", "c"], out="r.html", title=None)
    "kout-sim report --run 'a b' --run c --out r.html"
    """
    args = [PROGRAM, subcommand, *arguments]
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            args.append(flag)
        elif isinstance(value, list | tuple):
            for item in value:
                args += [flag, str(item)]
        else:
            args += [flag, str(value)]
    return shlex.join(args)
