"""The commands that reproduce what the analyses show: ``kout-sim simulate`` from a run's
``run.json``, ``kout-sim study`` and ``kout-sim report`` from their arguments.

Every line is built by :func:`kout_sim.commands.command_line`. Paths are written as a report shows
them (:func:`shown_path`): never an absolute path of the machine that made the report.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from pathlib import Path

from kout_sim.commands import command_line
from kout_sim.commands import players_args as players_args
from kout_sim.commands import short_player as short_player
from kout_sim.commands import simulate_command as simulate_command


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


def report_command(paths: Sequence[str | os.PathLike[str]], out: str, title: str | None) -> str:
    """The ``kout-sim report`` command for these arguments."""
    return command_line(
        "report", run=[shown_path(p) for p in paths], out=shown_path(out), title=title or None
    )


def report_hint(folder: str | os.PathLike[str]) -> str:
    """The report command to run after a study of ``folder``."""
    folder = Path(folder)
    return command_line("report", run=str(folder), out=str(folder / "report.html"))


def study_command(
    name: str,
    preset: str,
    out: str | os.PathLike[str],
    seed: int,
    players: Sequence[str] | None,
    hands: int | None,
    matches: int | None,
) -> str:
    """The ``kout-sim study`` command for these arguments."""
    return command_line(
        "study",
        name,
        preset=preset,
        seed=seed,
        players=list(players or ()),
        hands=hands,
        matches=matches,
        out=str(out),
    )
