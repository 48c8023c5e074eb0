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
from typing import Any

import kout_sim
from kout_sim.commands import command_line


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


def short_player(spec: str, family: str) -> str:
    """A player spec with the parameters at their defaults left out (``heuristic:epsilon=0.05``).
    Specs that do not parse are returned unchanged."""
    from kout_sim.players.lineup import parse_player
    from kout_sim.players.registry import policy_family

    if " + " in spec:
        return " + ".join(dict.fromkeys(short_player(s, family) for s in spec.split(" + ")))
    try:
        parsed = parse_player(spec, family)
    except ValueError:
        return spec
    defaults = {p.name: p.default for p in parsed.type.params_for(policy_family(family))}
    extra = [f"{k}={v:g}" for k, v in parsed.params if defaults.get(k) != v]
    return parsed.name + (":" + ",".join(extra) if extra else "")


def players_args(players: Sequence[str], family: str) -> list[str]:
    """The ``--players`` values of a line-up: one spec, two (team 0, team 1) or one per seat."""
    specs = [short_player(p, family) for p in players]
    if len(set(specs)) == 1:
        return specs[:1]
    if len(set(specs[0::2])) == 1 and len(set(specs[1::2])) == 1:
        return specs[:2]
    return specs


def non_default_options(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options that differ from the preset's defaults."""
    rules = kout_sim.get_rules(preset)
    return {k: v for k, v in options.items() if rules.options.get(k) != v}


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def simulate_command(settings: dict[str, Any], folder: str | os.PathLike[str]) -> str:
    """The ``kout-sim simulate`` command that writes a run with these ``run.json`` settings.

    Options at their preset defaults (except a match run's ``target``) and player parameters at
    their defaults are left out (the run records every one); ``--workers`` does not change the
    rows and is left out."""
    preset = str(settings["preset"])
    family = str(settings.get("family") or kout_sim.get_rules(preset).preset.family)
    options = settings.get("options", {})
    shown = non_default_options(preset, options)
    if settings.get("unit") == "matches" and "target" in options:
        shown["target"] = options["target"]  # the variable of a sweep: always spelled out
    count: dict[str, Any] = {str(settings["unit"]): settings["count"]}
    return command_line(
        "simulate",
        preset=preset,
        option=[f"{key}={_option_text(value)}" for key, value in sorted(shown.items())],
        players=players_args(settings.get("players", ["random"]), family),
        **count,
        seed=settings["seed"],
        actions=bool(settings.get("actions")),
        out=str(folder),
    )


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
