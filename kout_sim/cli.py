"""The ``kout-sim`` command line: simulate, bench, replay, presets.

Bad input exits with status 2 and a one-line ``error:`` message, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            _fail(f"--option expects key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kout-sim")
def main() -> None:
    """Monte-Carlo simulation of Gulf partnership trick-taking card games (Kout Bo, ...)."""


@main.command()
@click.option("--preset", default="kout_bo_4", show_default=True, help="Rule preset.")
@click.option("--option", "option", multiple=True, metavar="KEY=VALUE", help="Preset option.")
@click.option("--players", default="random", show_default=True, help="Player policy.")
@click.option("--matches", type=int, default=10_000, show_default=True, help="Whole matches.")
@click.option("--hands", type=int, default=None, help="Play N independent hands instead.")
@click.option("--seed", type=int, default=0, show_default=True, help="Run seed.")
@click.option("--out", type=click.Path(), default=None, help="Run folder [data/runs/...].")
@click.option("--workers", type=int, default=None, help="Parallel workers [all cores].")
@click.option("--resume", is_flag=True, help="Finish an interrupted run (same settings).")
@click.option("--overwrite", is_flag=True, help="Replace an existing run folder.")
def simulate(
    preset: str,
    option: tuple[str, ...],
    players: str,
    matches: int,
    hands: int | None,
    seed: int,
    out: str | None,
    workers: int | None,
    resume: bool,
    overwrite: bool,
) -> None:
    """Play random matches (or hands), write parquet shards, print bid success by contract."""
    from .sim import simulate as run_simulation
    from .sim import summarize

    if players != "random":
        _fail(f"unknown players {players!r}; valid: random")
    try:
        folder = run_simulation(
            preset,
            options=_parse_options(option),
            matches=matches,
            hands=hands,
            seed=seed,
            out=out,
            workers=workers,
            overwrite=overwrite,
            resume=resume,
        )
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    click.echo(summarize(folder))


@main.command()
@click.option("--preset", default="kout_bo_4", show_default=True, help="Rule preset.")
@click.option("--players", default="random", show_default=True, help="Player policy.")
@click.option("--workers", type=int, default=1, show_default=True, help="Threads.")
@click.option("--hands", type=int, default=2_000_000, show_default=True, help="Hands a repeat.")
@click.option("--repeats", type=int, default=5, show_default=True, help="Repeats (median).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--reference", is_flag=True, help="Also time the reference engine; report speedup.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench(
    preset: str,
    players: str,
    workers: int,
    hands: int,
    repeats: int,
    seed: int,
    reference: bool,
    as_json: bool,
) -> None:
    """Full random hands per second (deal, auction, trump, play, scoring, result row)."""
    from .bench import bench as run_bench

    try:
        result = run_bench(
            preset,
            players=players,
            workers=workers,
            hands=hands,
            repeats=repeats,
            seed=seed,
            reference=reference,
        )
    except ValueError as exc:
        _fail(str(exc))
        return
    if as_json:
        click.echo(json.dumps(result))
    else:
        for key, value in result.items():
            click.echo(f"{key:>28}: {value}")


@main.command()
@click.argument("record_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--engine", type=click.Choice(["numba", "reference"]), default="numba")
def replay(record_file: str, engine: str) -> None:
    """Replay a hand or match record (JSON file) and print the result as JSON."""
    from . import replay_hand, replay_match

    try:
        record = json.loads(Path(record_file).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        _fail(f"cannot read {record_file}: {exc}")
        return
    try:
        if isinstance(record, dict) and "first_dealer" in record:
            result = replay_match(record, engine=engine)
        else:
            result = replay_hand(record, engine=engine)
    except ValueError as exc:
        _fail(str(exc))
        return
    click.echo(json.dumps(result, indent=2))


@main.command()
def presets() -> None:
    """List the presets and their options."""
    from .rules import PRESETS

    for name, preset in sorted(PRESETS.items()):
        click.echo(f"{name}: {preset.title}")
        for opt in preset.options.values():
            click.echo(f"    {opt.name} = {opt.default!r}  ({opt.accepts}): {opt.meaning}")


if __name__ == "__main__":  # pragma: no cover
    main()
