"""The commands that play: ``simulate``, ``bench``, ``duel``."""

from __future__ import annotations

import json

import click

from ..commands import command_line
from ._base import _fail, _interrupted, _parse_options, main
from ._options import OPTIONS, PRESET, WORKERS, count_option, players_option, seed_option


@main.command()
@PRESET
@OPTIONS
@players_option(
    "Player NAME[:KEY=VALUE,...]: once for every seat, twice for team 0 and team 1, or once "
    "per seat [heuristic; `--players random` for uniformly random calls and cards]. See "
    "`kout-sim players`."
)
@count_option("--matches", "Whole matches, at most 10^10 (1e6 is accepted) [10,000].")
@count_option("--hands", "Play N independent hands instead (not with --matches).")
@seed_option("Run seed, 0 .. 2^63-1.")
@click.option("--out", type=click.Path(), default=None, help="Run folder [data/runs/...].")
@WORKERS
@click.option("--actions", is_flag=True, help="Also write one row per decision (actions table).")
@click.option(
    "--solve",
    is_flag=True,
    help="Also solve every hand double dummy (dd_* columns, docs/solver.md): milliseconds a hand.",
)
@click.option(
    "--no-par",
    is_flag=True,
    help="With --solve: leave the Kout par columns (dd_par_contract, dd_par_trump) null, in less "
    "than half the time.",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run the shards on a Dask cluster: a scheduler address, or local:N for a local one.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Finish an interrupted or failed run (same settings): plays its missing or damaged shards.",
)
@click.option(
    "--overwrite",
    is_flag=True,
    help="Replace an existing run folder (only one kout-sim wrote; other files stay).",
)
def simulate(
    preset: str,
    option: tuple[str, ...],
    players: tuple[str, ...],
    matches: int | None,
    hands: int | None,
    seed: int,
    out: str | None,
    workers: int | None,
    actions: bool,
    solve: bool,
    no_par: bool,
    scheduler: str | None,
    resume: bool,
    overwrite: bool,
) -> None:
    """Play matches (or hands), write parquet shards, print bid success by contract.

    The run folder holds run.json (settings, status and a manifest of every shard) and the shards;
    it is locked while written. Ctrl-C stops the run within a second or two, keeping the complete
    shards, and prints the command that finishes it (--resume). `kout-sim verify DIR` checks every
    shard against the manifest."""
    from analyses.summary import summarize

    from ..sim import simulate as run_simulation
    from ..sim.run import Interrupted

    if no_par and not solve:
        _fail("--no-par goes with --solve")
    try:
        folder = run_simulation(
            preset,
            options=_parse_options(option),
            players=list(players) or "heuristic",
            matches=matches,
            hands=hands,
            seed=seed,
            out=out,
            workers=workers,
            actions=actions,
            solve=solve,
            par=not no_par,
            scheduler=scheduler,
            overwrite=overwrite,
            resume=resume,
        )
    except Interrupted as stop:
        rest = command_line(
            "simulate",
            preset=preset,
            option=option,
            players=players,
            hands=hands,
            matches=matches,
            seed=seed,
            out=stop.out,
            actions=actions,
            solve=solve,
            no_par=no_par,
            scheduler=scheduler or None,
            resume=True,
        )
        _interrupted(stop, rest)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    click.echo(summarize(folder))


@main.command()
@PRESET
@click.option(
    "--players", default="random", show_default=True, metavar="SPEC", help="Player of every seat."
)
@click.option("--workers", type=int, default=1, show_default=True, help="Threads.")
@count_option("--hands", "Hands a repeat.", default=2_000_000)
@click.option("--repeats", type=int, default=5, show_default=True, help="Repeats (median).")
@seed_option()
@click.option("--reference", is_flag=True, help="Also time the reference engine; report speedup.")
@click.option(
    "--solver",
    is_flag=True,
    help="Time double-dummy solves instead: full hands from the first lead of random deals.",
)
@click.option(
    "--deals", type=int, default=1000, show_default=True, help="Deals solved (with --solver)."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench(
    preset: str,
    players: str,
    workers: int,
    hands: int,
    repeats: int,
    seed: int,
    reference: bool,
    solver: bool,
    deals: int,
    as_json: bool,
) -> None:
    """Full hands per second (deal, auction, trump, play, scoring, result row); with --solver,
    milliseconds per double-dummy solve."""
    from ..bench import bench as run_bench
    from ..bench import bench_solver

    try:
        if solver:
            from ..rules import get_rules

            result = bench_solver(get_rules(preset), deals=deals, seed=seed)
        else:
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
@PRESET
@OPTIONS
@click.option("--team-a", required=True, metavar="SPEC", help="Player of team A's seats.")
@click.option("--team-b", required=True, metavar="SPEC", help="Player of team B's seats.")
@count_option("--matches", "Deal sequences [1,000].")
@count_option("--hands", "Duel on N independent hands instead (not with --matches).")
@seed_option("Run seed.")
@click.option("--out", type=click.Path(), default=None, help="Duel folder [data/duels/...].")
@WORKERS
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--overwrite", is_flag=True, help="Replace an existing duel folder (only one kout-sim wrote)."
)
@click.option("--resume", is_flag=True, help="Finish an interrupted duel (same settings).")
def duel(
    preset: str,
    option: tuple[str, ...],
    team_a: str,
    team_b: str,
    matches: int | None,
    hands: int | None,
    seed: int,
    out: str | None,
    workers: int | None,
    as_json: bool,
    overwrite: bool,
    resume: bool,
) -> None:
    """Duplicate duel: every deal sequence played twice with the teams exchanged.

    Reports team A's match win rate and point margin per hand with 95% intervals, the variance
    reduction of the pairing, and bid success by contract per side; the runs and duel.json go
    under --out. With a searching player (ismcts) it first says how long it will take; Ctrl-C
    stops it after the shards being played and prints the command that finishes it (--resume).
    """
    from analyses.duel import duel as run_duel
    from analyses.duel import jsonable, report

    from ..sim.run import Interrupted

    try:
        result = run_duel(
            preset,
            team_a,
            team_b,
            options=_parse_options(option),
            matches=matches,
            hands=hands,
            seed=seed,
            out=out,
            workers=workers,
            overwrite=overwrite,
            resume=resume,
            log=lambda line: click.echo(line, err=True),
        )
    except Interrupted as stop:
        folder = stop.out.rsplit("/", 1)[0]  # the duel folder of the interrupted ab/ or ba/ run
        rest = command_line(
            "duel",
            preset=preset,
            team_a=team_a,
            team_b=team_b,
            option=option,
            hands=hands,
            matches=matches,
            seed=seed,
            out=folder,
            resume=True,
        )
        _interrupted(stop, rest)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    click.echo(json.dumps(jsonable(result)) if as_json else report(result))
