"""The ``kout-sim`` command lines the project writes down: in ``run.json`` and ``study.json``, in
reports, in the hint printed when a run is interrupted and in the refusal of a damaged run.

:func:`command_line` is the one place such a line is built, so that every one is spelled, ordered
and shell-quoted alike. The callers decide what goes in (a run's settings, the arguments a user
typed); the analyses build their commands from run settings with it (:mod:`analyses.commands`).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

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


def option_args(options: Mapping[str, Any] | None) -> list[str]:
    """The ``--option`` values of a command line: ``KEY=VALUE`` per option given, sorted by key."""
    return [f"{key}={value}" for key, value in sorted(dict(options or {}).items())]


# ---- the simulate command of a run (run.json's ``command``, the --resume hints, the reports) ----


def short_player(spec: str, family: str) -> str:
    """A player spec with the parameters at their defaults left out (``heuristic:epsilon=0.05``).
    Specs that do not parse are returned unchanged."""
    from .players.lineup import parse_player
    from .players.registry import policy_family

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


def non_default_options(preset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that differ from the preset's defaults."""
    from .rules import get_rules

    rules = get_rules(preset)
    return {k: v for k, v in options.items() if rules.options.get(k) != v}


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def simulate_command(settings: Mapping[str, Any], folder: str | os.PathLike[str]) -> str:
    """The ``kout-sim simulate`` command that writes a run with these ``run.json`` settings.

    Options at their preset defaults (except a match run's ``target``) and player parameters at
    their defaults are left out (the run records every one); ``--workers`` does not change the
    rows and is left out."""
    from .rules import get_rules

    preset = str(settings["preset"])
    family = str(settings.get("family") or get_rules(preset).family)
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
        solve=bool(settings.get("solve")),
        no_par=bool(settings.get("solve")) and not settings.get("par", True),
        out=str(folder),
    )
