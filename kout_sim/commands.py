"""The ``kout-sim`` command lines that write a run again, from its ``run.json`` settings: what a
report shows beside each run, what ``simulate`` records as ``command`` and what a refused damaged
run says to type (its ``--resume``)."""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from typing import Any

from .rules import get_rules


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
    """``--players`` arguments for a line-up: one spec, two (team 0, team 1) or one per seat."""
    specs = [short_player(p, family) for p in players]
    if len(set(specs)) == 1:
        chosen = specs[:1]
    elif len(set(specs[0::2])) == 1 and len(set(specs[1::2])) == 1:
        chosen = specs[:2]
    else:
        chosen = specs
    out: list[str] = []
    for s in chosen:
        out += ["--players", s]
    return out


def non_default_options(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options that differ from the preset's defaults."""
    rules = get_rules(preset)
    return {k: v for k, v in options.items() if rules.options.get(k) != v}


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def simulate_command(settings: dict[str, Any], folder: str | os.PathLike[str]) -> str:
    """The ``kout-sim simulate`` command that writes a run with these ``run.json`` settings.

    Options at their preset defaults (except a match run's ``target``) and player parameters at
    their defaults are left out (the run records every one); ``--workers`` does not change the
    rows and is left out."""
    preset = str(settings["preset"])
    family = str(settings.get("family") or get_rules(preset).preset.family)
    args = ["kout-sim", "simulate", "--preset", preset]
    options = settings.get("options", {})
    shown = non_default_options(preset, options)
    if settings.get("unit") == "matches" and "target" in options:
        shown["target"] = options["target"]  # the variable of a sweep: always spelled out
    for key, value in sorted(shown.items()):
        args += ["--option", f"{key}={_option_text(value)}"]
    args += players_args(settings.get("players", ["random"]), family)
    args += [f"--{settings['unit']}", str(settings["count"]), "--seed", str(settings["seed"])]
    if settings.get("actions"):
        args.append("--actions")
    if settings.get("solve"):
        args.append("--solve")
    args += ["--out", str(folder)]
    return shlex.join(args)
