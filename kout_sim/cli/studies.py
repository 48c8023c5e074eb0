"""The commands of the analyses and run folders: ``forks``, ``study``, ``report``, ``verify``, ``players``, ``presets``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ._base import _fail, _parse_options, main
from ._options import OPTIONS, PRESET, WORKERS, count_option, players_option, seed_option


@main.command()
@click.option(
    "--kind",
    type=click.Choice(["joker", "bid"]),
    default="joker",
    show_default=True,
    help="What to fork: joker plays (Kout) or bid decisions (every preset).",
)
@PRESET
@OPTIONS
@players_option(
    "Players, as for simulate [heuristic]; search players (ismcts, pimc) too, at a few "
    "milliseconds a decision: give them hundreds of hands, not the default million."
)
@count_option("--hands", "Hands to fork.", default=1_000_000)
@seed_option("Run seed.")
@click.option("--out", type=click.Path(), required=True, help="Run folder to write.")
@click.option(
    "--at",
    type=click.Choice(["default", "lead", "any", "first", "every"]),
    default="default",
    show_default=True,
    help="Joker forks: leads only (lead), every joker play (any); default: leads for Kout Bo, "
    "every play for Bahraini Kout (shedding the joker). Bid forks: the first free bid decision "
    "of each hand (first, the default) or every one (every).",
)
@WORKERS
@click.option(
    "--overwrite", is_flag=True, help="Replace an existing forks folder (only one kout-sim wrote)."
)
def forks(
    kind: str,
    preset: str,
    option: tuple[str, ...],
    players: tuple[str, ...],
    hands: int,
    seed: int,
    out: str,
    at: str,
    workers: int | None,
    overwrite: bool,
) -> None:
    """Play every joker decision of N hands on twice (joker / best other card, same random
    numbers after) and print the joker's paired value with its interval; with --kind bid, play
    the first free bid decision of each hand (or every one) on once per legal call and print the
    paired value of each call. Any line-up forks, search players included: hand i is hand i of
    simulate --hands with the same seed and players."""
    if kind == "bid" and at not in ("default", "first", "every"):
        _fail(f"--at {at} is for joker forks; bid forks fork at first or every")
        return
    if kind == "joker" and at in ("first", "every"):
        _fail(f"--at {at} is for --kind bid; joker forks fork at default, lead or any")
        return
    from ..sim.bid_fork import write_bid_forks
    from ..sim.fork import write_forks

    write: Callable[..., str | Path]
    where: dict[str, Any]
    if kind == "bid":
        write, where = write_bid_forks, {"at": "first" if at == "default" else at}
    else:
        write, where = write_forks, {"lead_only": {"default": None, "lead": True, "any": False}[at]}
    try:
        folder = write(
            out,
            preset,
            hands,
            seed,
            list(players) or "heuristic",
            options=_parse_options(option),
            workers=workers,
            overwrite=overwrite,
            **where,
        )
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    if kind == "bid":
        _print_bid_forks(folder, hands)
    else:
        _print_joker_forks(folder, hands)


def _print_joker_forks(folder: str | Path, hands: int) -> None:
    """``kout-sim forks``: each role's paired joker value, the pairing's gain, what changed."""
    from analyses.joker_lead import changes, joker_value, pairing_gain

    from ..io.read import load

    forks_table = load(folder)["forks"].collect()
    table = joker_value(forks_table)
    gain = {r["role"]: r for r in pairing_gain(forks_table, "net").to_dicts()}
    changed = {r["role"]: r for r in changes(forks_table).to_dicts()}
    click.echo(f"{folder}: {int(table['n'].sum()):,} forks of {hands:,} hands")
    click.echo("joker minus best other card, points per hand for the seat's team (95% CI):")
    for row in table.iter_rows(named=True):
        reduction = row["variance_reduction"]
        click.echo(
            f"  {row['role']:<13} {row['diff']:+.3f} ({row['low']:+.3f} .. {row['high']:+.3f}), "
            f"n={row['n']:,}; unpaired interval {row['unpaired_high'] - row['unpaired_low']:.3f} "
            f"wide vs {row['high'] - row['low']:.3f}: "
            + ("every pair agreed" if reduction is None else f"variance reduction {reduction:.1f}x")
        )
        observed = gain.get(row["role"])
        if observed is not None and observed["ratio_observed"] is not None:
            click.echo(
                f"  {'':<13} the player's own joker plays vs its other plays on the same hands: "
                f"{observed['observed_diff']:+.3f} ({observed['observed_low']:+.3f} .. "
                f"{observed['observed_high']:+.3f}), an interval "
                f"{observed['ratio_observed']:.1f}x wider"
            )
        c = changed[row["role"]]
        click.echo(
            f"  {'':<13} the branches differ in tricks in {c['tricks_changed']:,} of {c['n']:,} "
            f"forks ({c['tricks_changed'] / c['n']:.1%}), in the made result in "
            f"{c['made_changed']:,} ({c['made_changed'] / c['n']:.1%})"
        )


def _print_bid_forks(folder: str | Path, hands: int) -> None:
    """``kout-sim forks --kind bid``: each call's paired value and the pairing's gain."""
    from analyses.bid_forks import call_values, pairing_gain

    from ..io.read import load, run_settings

    table = load(folder)["bid_forks"].collect()
    meta = run_settings(folder)
    values = call_values(table)
    seconds = float(meta.get("fork_seconds") or 0.0)
    per_second = meta["forks"] / seconds if seconds > 0 else 0.0
    # search players fork a few a second or less: two significant digits then
    shown = f"{per_second:,.0f}" if per_second >= 10 else f"{per_second:.2g}"
    rate = f", {shown} forks a second" if seconds > 0 else ""
    click.echo(
        f"{folder}: {meta['forks']:,} bid forks ({meta['branches']:,} branches) of "
        f"{hands:,} hands{rate}"
    )
    click.echo(
        "each call played on the same deals, points per hand for the seat's team and how often "
        "its team bought and made the contract (95% CI, clustered by hand):"
    )
    for row in values.iter_rows(named=True):
        points = (
            "no value in points (the hand decides the match at once)"
            if row["mean"] is None
            else f"{row['mean']:+.2f} ({row['low']:+.2f} .. {row['high']:+.2f})"
        )
        click.echo(
            f"  {row['call']:<8} {points}; "
            f"made {row['made_rate']:.1%} ({row['made_low']:.1%} .. {row['made_high']:.1%}); "
            f"n={row['n']:,}, the player's own call in {row['chosen']:,}"
        )
    gain = pairing_gain(table)
    if not gain.is_empty():
        g = gain.row(0, named=True)
        click.echo(
            f"pairing: the intervals of the differences between calls are {g['median_ratio']:.1f}x "
            f"narrower (median over {g['pairs']} call pairs) than unpaired ones on the same data"
        )


@main.command()
@click.argument("name", metavar="NAME")
@click.option("--preset", default=None, help="Rule preset (required).")
@click.option(
    "--out", default=None, type=click.Path(), help="Study folder [data/studies/NAME-PRESET]."
)
@seed_option("Study seed.", default=1)
@WORKERS
@players_option(
    "Line-up of every run instead of the study's (as in simulate; match-length: the "
    "stronger team first)."
)
@count_option("--hands", "Independent hands [1,000,000].")
@count_option("--matches", "Whole matches [seats 20,000; match-length 4,000 per target].")
@click.option(
    "--overwrite", is_flag=True, help="Replace an existing study folder (only one kout-sim wrote)."
)
def study(
    name: str,
    preset: str | None,
    out: str | None,
    seed: int,
    workers: int | None,
    players: tuple[str, ...],
    hands: int | None,
    matches: int | None,
    overwrite: bool,
) -> None:
    """Run the simulations study NAME needs into a study folder, then print the report command.

    \b
    Studies:
      bids          independent heuristic hands: bid success, bid guide, seats
      match-length  matches at several targets, heuristic vs heuristic:epsilon=0.05
                    (Kout Bo 31-201, Bahraini 26-101, Baloot 52-202)
      seats         heuristic matches: seat and dealer effects, first-dealer wins
      baloot-modes  Baloot only: Sun and Hokum beside unsourced human rates
      joker-lead    Kout only: joker decisions forked (kout-sim forks): what a joker lead
                    (Kout Bo) or shedding the joker (Bahraini) is worth
      bid-forks     every preset: the first free bid decision played on once per legal
                    call (kout-sim forks --kind bid): the paired bid guide
      ladder        the headline answers under a ladder of players (random, heuristic,
                    heuristic:bid_margin=0, ismcts, pimc; --players: one rung each) with a
                    verdict each, and the duels that rate them (not in all)
      all           every study that applies to the preset

    The folder holds one run folder per simulation and study.json (the runs, their settings and
    commands). Next: kout-sim report --run FOLDER --out FILE.html.
    """  # noqa: D301 (\b is click's "do not rewrap" marker, so no raw string)
    if preset is None:
        _fail("give --preset (see kout-sim presets)")
        return
    from analyses.commands import report_hint
    from analyses.studies import run_study

    try:
        folder = run_study(
            name,
            preset,
            out=out,
            seed=seed,
            workers=workers,
            players=list(players) or None,
            hands=hands,
            matches=matches,
            overwrite=overwrite,
            log=lambda line: click.echo(f"running {line}", err=True),
        )
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    click.echo(report_hint(folder))


@main.command()
@click.option(
    "--run",
    "runs",
    multiple=True,
    metavar="DIR",
    help="A run folder, a study folder (its runs) or a folder of runs; repeat for more.",
)
@click.option(
    "--out",
    default=None,
    metavar="FILE.html",
    help="The HTML file to write (an existing file is replaced only if it is a kout-sim report).",
)
@click.option("--title", default=None, help="Report title [PRESET strategy report].")
def report(runs: tuple[str, ...], out: str | None, title: str | None) -> None:
    """Write a self-contained HTML strategy report of runs of ONE preset.

    The report opens with the guidance stated as numbers, then bid success (by contract, forced or
    Malzoom, seat from the dealer, the bidder's hand), the bid guide (expected points per hand
    strength and the best bid), match length across targets, Baloot modes beside unsourced human
    rates, and
    seat and dealer effects, each where the runs hold the data; every rate with its count and 95%
    Wilson interval, every mean with its count and 95% interval. It ends with every run's metadata
    and the commands that reproduce it, and embeds every number as JSON
    (script#report-data). Figures are inline; the file needs nothing else.
    """
    if not runs:
        _fail("give at least one --run DIR")
    if not out:
        _fail("give --out FILE.html")
    import matplotlib

    matplotlib.use("Agg")
    from analyses.report import write_report

    try:
        result = write_report(list(runs), str(out), title=title)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    size = Path(str(out)).stat().st_size
    click.echo(
        f"wrote {out} ({size / 1024:,.0f} KiB): {len(result.sections)} sections from "
        f"{len(result.inp.runs)} runs of {result.inp.preset}"
    )
    for _, advice in result.summary():
        click.echo(f"- {advice.text} ({advice.label})")


@main.command()
@click.argument("folder", metavar="DIR")
def verify(folder: str) -> None:
    """Check every shard of a run folder (or of each run in a duel or study folder) byte for byte
    against the manifest in its run.json.

    Prints one line per missing, truncated or altered shard (and per shard the manifest does not
    hold) and exits 1 if there is any; `kout-sim simulate ... --resume` replays them. Exits 0 when
    every shard is whole, 2 when DIR holds no run.
    """
    from ..io.read import verify as verify_runs

    try:
        runs, problems = verify_runs(folder)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    for line in problems:
        click.echo(line)
    if problems:
        click.echo(f"{folder}: {len(problems)} problem(s) in {len(runs)} run(s)", err=True)
        sys.exit(1)
    click.echo(f"{folder}: {len(runs)} run(s), every shard whole")


@main.command()
def players() -> None:
    """List the player types and their parameters."""
    from ..players import player_help

    click.echo(player_help())


@main.command()
def presets() -> None:
    """List the presets and their options."""
    from ..rules import PRESETS

    click.echo("Rule numbers refer to the rule book docs/RULES.md.")
    for name, preset in sorted(PRESETS.items()):
        click.echo(f"{name}: {preset.title}")
        for opt in preset.options.values():
            click.echo(f"    {opt.name} = {opt.default!r}  ({opt.accepts}): {opt.meaning}")
