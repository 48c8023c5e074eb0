"""The ``kout-sim`` command line: simulate, duel, bench, replay, study, report, verify, solve,
advise, players, presets.

Bad input exits with status 2 and a one-line ``error:`` message, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from .commands import command_line

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


if TYPE_CHECKING:
    _IntParamType = click.ParamType[int]
else:  # pyproject allows click>=8.1, whose ParamType is not subscriptable at run time
    _IntParamType = click.ParamType


class Count(_IntParamType):
    """A count of matches or hands: an integer, with ``_`` or ``,`` between digit groups or in
    exponent notation (``1e6``, ``2.5e5``) when that is a whole number. The range (1..10^10) is
    checked by the command, so Python callers get the same message."""

    name = "count"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """``value`` as a whole number (a click usage error when it is not one)."""
        if isinstance(value, int):
            return value
        text = str(value).strip().replace("_", "").replace(",", "")
        try:
            number = Decimal(text)
        except InvalidOperation:
            number = Decimal("NaN")
        if not number.is_finite() or number != number.to_integral_value():
            self.fail(f"{value!r} is not a whole number", param, ctx)
        return int(number)


COUNT = Count()


class _Group(click.Group):
    """The command group: a usage error (a value click cannot convert, an unknown option) is one
    ``error:`` line and exit status 2, as every other bad input."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        call = dict(args=args, prog_name=prog_name, complete_var=complete_var, **extra)
        if not standalone_mode:
            return super().main(standalone_mode=False, **call)
        try:
            code = super().main(standalone_mode=False, **call)
        except click.UsageError as exc:
            where = f" (see {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
            _fail(" ".join(exc.format_message().split()) + where)
        except click.Abort:
            click.echo("aborted", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kout-sim")
def main() -> None:
    """Monte-Carlo simulation of Gulf partnership trick-taking card games (Kout Bo, ...).

    Run folders are checked before they are read; `kout-sim verify DIR` checks every shard."""


@main.command()
@click.option("--preset", default="kout_bo_4", show_default=True, help="Rule preset.")
@click.option("--option", "option", multiple=True, metavar="KEY=VALUE", help="Preset option.")
@click.option(
    "--players",
    multiple=True,
    metavar="SPEC",
    help="Player NAME[:KEY=VALUE,...]: once for every seat, twice for team 0 and team 1, or once "
    "per seat [heuristic; `--players random` for uniformly random calls and cards]. See "
    "`kout-sim players`.",
)
@click.option(
    "--matches",
    type=COUNT,
    default=None,
    help="Whole matches, at most 10^10 (1e6 is accepted) [10,000].",
)
@click.option(
    "--hands",
    type=COUNT,
    default=None,
    help="Play N independent hands instead (not with --matches).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Run seed, 0 .. 2^63-1.")
@click.option("--out", type=click.Path(), default=None, help="Run folder [data/runs/...].")
@click.option("--workers", type=int, default=None, help="Parallel workers [all cores].")
@click.option("--actions", is_flag=True, help="Also write one row per decision (actions table).")
@click.option(
    "--solve",
    is_flag=True,
    help="Also solve every hand double dummy (dd_* columns, docs/solver.md): milliseconds a hand.",
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
    scheduler: str | None,
    resume: bool,
    overwrite: bool,
) -> None:
    """Play matches (or hands), write parquet shards, print bid success by contract.

    The run folder holds run.json (settings, status and a manifest of every shard) and the shards;
    it is locked while written. Ctrl-C stops the run within a second or two, keeping the complete
    shards, and prints the command that finishes it (--resume). `kout-sim verify DIR` checks every
    shard against the manifest."""
    from .sim import simulate as run_simulation
    from .sim import summarize
    from .sim.run import Interrupted

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
            scheduler=scheduler or None,
            resume=True,
        )
        click.echo(f"{stop}:\n  {rest}", err=True)
        sys.exit(130)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    click.echo(summarize(folder))


@main.command()
@click.option("--preset", default="kout_bo_4", show_default=True, help="Rule preset.")
@click.option(
    "--players", default="random", show_default=True, metavar="SPEC", help="Player of every seat."
)
@click.option("--workers", type=int, default=1, show_default=True, help="Threads.")
@click.option("--hands", type=COUNT, default=2_000_000, show_default=True, help="Hands a repeat.")
@click.option("--repeats", type=int, default=5, show_default=True, help="Repeats (median).")
@click.option("--seed", type=int, default=0, show_default=True)
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
    from .bench import bench as run_bench
    from .bench import bench_solver

    try:
        if solver:
            from .rules import get_rules

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
@click.option(
    "--record",
    "record_file",
    type=click.Path(exists=True, dir_okay=False),
    help="A partial hand record (JSON, docs/records.md): the advising seat's hand, the others null.",
)
@click.option("--preset", default=None, help="Short form: the rule preset (instead of --record).")
@click.option("--option", "option", multiple=True, metavar="KEY=VALUE", help="Preset option.")
@click.option(
    "--hand", default=None, help='Short form: the seat\'s cards as dealt, "RJ AS KS ...".'
)
@click.option("--seat", type=int, default=None, help="The advising seat (must be the one to act).")
@click.option("--dealer", type=int, default=None, help="Short form: the dealer's seat.")
@click.option("--calls", default="", help='Short form: the calls so far, "pass 5".')
@click.option("--trump", default=None, help="Short form: the trump suit, once named (Kout).")
@click.option("--plays", default="", help="Short form: the cards played so far, in order.")
@click.option("--face-up", "face_up", default=None, help="Short form, Baloot: the face-up card.")
@click.option("--completion", default=None, help="Short form, Baloot: the seat's completion cards.")
@click.option("--samples", type=COUNT, default=None, help="Sampled deals [about 1 s of a call].")
@click.option(
    "--eval",
    "evaluation",
    type=click.Choice(["dd", "heuristic", "ismcts", "pimc"]),
    default="dd",
    show_default=True,
    help="Double dummy, or play-outs by that player from each sampled deal.",
)
@click.option("--player", default=None, metavar="SPEC", help="Play-out player spec (with --eval).")
@click.option(
    "--objective",
    type=click.Choice(["points", "win", "value"]),
    default="points",
    show_default=True,
    help="What the advised option maximises: net points, P(win the hand), tricks / card points.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sampled deals.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def advise(
    record_file: str | None,
    preset: str | None,
    option: tuple[str, ...],
    hand: str | None,
    seat: int | None,
    dealer: int | None,
    calls: str,
    trump: str | None,
    plays: str,
    face_up: str | None,
    completion: str | None,
    samples: int | None,
    evaluation: str,
    player: str | None,
    objective: str,
    seed: int,
    as_json: bool,
) -> None:
    """What should the seat to act call or play? Every legal call or card, on sampled deals of the
    hidden hands (docs/advise.md)."""
    from .advise import advise as run_advise
    from .advise import format_table, short_record

    try:
        if record_file is not None:
            if preset is not None or hand is not None:
                _fail("give --record or the short form (--preset, --hand, ...), not both")
            record = json.loads(Path(record_file).read_text(encoding="utf-8"))
        else:
            if preset is None or hand is None or seat is None or dealer is None:
                _fail("give --record FILE, or --preset, --hand, --seat and --dealer")
                return
            record = short_record(
                preset, hand, seat, dealer, calls=calls, trump=trump, plays=plays,
                face_up=face_up, completion=completion, options=_parse_options(option),
            )  # fmt: skip
        result = run_advise(
            record, samples=samples, eval=evaluation, seed=seed, seat=seat, player=player,
            objective=objective,
        )  # fmt: skip
    except (OSError, ValueError) as exc:  # InvalidRecord, IllegalAction, JSON errors
        _fail(" ".join(str(exc).split()))
        return
    click.echo(json.dumps(result) if as_json else format_table(result))


@main.command()
@click.option(
    "--record",
    "record_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="A hand record (JSON, docs/records.md) whose auction is complete.",
)
@click.option(
    "--par",
    "par_table",
    is_flag=True,
    help="Print the deal's double-dummy table instead: what each seat makes as bidder (buyer) in "
    "each trump.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve(record_file: str, par_table: bool, as_json: bool) -> None:
    """Double-dummy value of a hand record: all hands known, perfect play by both sides.

    Prints the bidding team's tricks (Baloot: the buyer team's card points) at the end of the hand,
    and the same value after each legal card of the seat to act.
    """
    from .solver import par
    from .solver import solve as run_solve

    try:
        record = json.loads(Path(record_file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        _fail(f"cannot read {record_file}: {' '.join(str(exc).split())}")
        return
    try:
        result: dict[str, Any] = par(record) if par_table else run_solve(record)
    except ValueError as exc:
        _fail(str(exc))
        return
    if as_json:
        click.echo(json.dumps(result))
        return
    if par_table:
        baloot = "sun" in result
        what = "card points of the buyer's team" if baloot else "highest contract made"
        click.echo(f"double-dummy table ({what}; rows: trump, columns: the bidder's seat)")
        click.echo(
            "         "
            + "".join(f"{f'seat {s}':>8}" for s in range(len(result["sun" if baloot else "S"])))
        )
        for name, row in result.items():
            cells = "".join(f"{'-' if v is None else v:>8}" for v in row)
            click.echo(f"{name:>9}{cells}")
        return
    key = "points" if "points" in result else "tricks"
    what = "buyer team's card points" if key == "points" else "bidding team's tricks"
    click.echo(f"double dummy: the {what} at the end of the hand: {result[key]}")
    if result["forced_joker_loser"] is not None:
        click.echo(
            f"  the perfect line ends in a forced joker lead: team {result['forced_joker_loser']} "
            "loses the match (RULES.md 2.8)"
        )
    if result["to_act"] is not None:
        click.echo(f"  seat {result['to_act']} to act; each legal card -> value after it:")
        for card, value in result["cards"].items():
            click.echo(f"    {card:>3}: {value}")


@main.command()
@click.argument("record_file", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--engine", type=click.Choice(["numba", "reference"]), default="numba")
@click.option("--run", "run_dir", default=None, help="A run folder (with --match or --hand).")
@click.option("--match", "match", type=int, default=None, help="Match index in a match run.")
@click.option("--hand", "hand", type=int, default=None, help="Hand index in a hands run.")
def replay(
    record_file: str | None, engine: str, run_dir: str | None, match: int | None, hand: int | None
) -> None:
    """Replay a hand or match record (JSON file) and print the result as JSON.

    With --run DIR --match K (a run of matches) or --run DIR --hand K (a run of --hands): play
    match or hand K of the run again alone, print it as a record and re-check it through the
    reference engine (exit 1 if they differ).
    """
    from . import replay_hand, replay_match

    if run_dir is not None or match is not None or hand is not None:
        if record_file is not None or run_dir is None or (match is None) == (hand is None):
            _fail("give either RECORD_FILE, or --run DIR with --match K or --hand K")
        if hand is not None:
            _replay_run_hand(str(run_dir), int(hand))
        else:
            _replay_run(str(run_dir), int(match or 0))
        return
    if record_file is None:
        _fail("give a RECORD_FILE, or --run DIR --match K (--hand K)")
        return
    try:
        record = json.loads(Path(record_file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        _fail(f"cannot read {record_file}: {' '.join(str(exc).split())}")
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


def _replay_run_hand(run_dir: str, hand: int) -> None:
    from .sim.records import hand_record, recheck_hand

    try:
        record = hand_record(run_dir, hand)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    click.echo(json.dumps(record, indent=2))
    problems = recheck_hand(run_dir, hand, record)
    if problems:
        click.echo("reference re-check FAILED: " + "; ".join(problems), err=True)
        sys.exit(1)
    click.echo(f"reference re-check: hand {hand} agrees", err=True)


def _replay_run(run_dir: str, match: int) -> None:
    from .sim.records import dumps, match_record, recheck

    try:
        record = match_record(run_dir, match)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    click.echo(dumps(record))
    problems = recheck(run_dir, match, record)
    if problems:
        click.echo("reference re-check FAILED: " + "; ".join(problems), err=True)
        sys.exit(1)
    click.echo(f"reference re-check: match {match} agrees ({len(record['hands'])} hands)", err=True)


@main.command()
@click.option("--preset", default="kout_bo_4", show_default=True, help="Rule preset.")
@click.option("--option", "option", multiple=True, metavar="KEY=VALUE", help="Preset option.")
@click.option("--team-a", required=True, metavar="SPEC", help="Player of team A's seats.")
@click.option("--team-b", required=True, metavar="SPEC", help="Player of team B's seats.")
@click.option("--matches", type=COUNT, default=None, help="Deal sequences [1,000].")
@click.option(
    "--hands",
    type=COUNT,
    default=None,
    help="Duel on N independent hands instead (not with --matches).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Run seed.")
@click.option("--out", type=click.Path(), default=None, help="Duel folder [data/duels/...].")
@click.option("--workers", type=int, default=None, help="Parallel workers [all cores].")
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
    from .sim.duel import _jsonable, report
    from .sim.duel import duel as run_duel
    from .sim.run import Interrupted

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
        click.echo(f"{stop}:\n  {rest}", err=True)
        sys.exit(130)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    click.echo(json.dumps(_jsonable(result)) if as_json else report(result))


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
@click.argument("name", metavar="NAME")
@click.option("--preset", default=None, help="Rule preset (required).")
@click.option(
    "--out", default=None, type=click.Path(), help="Study folder [data/studies/NAME-PRESET]."
)
@click.option("--seed", type=int, default=1, show_default=True, help="Study seed.")
@click.option("--workers", type=int, default=None, help="Parallel workers [all cores].")
@click.option(
    "--players",
    multiple=True,
    metavar="SPEC",
    help="Line-up of every run instead of the study's (as in simulate; match-length: the "
    "stronger team first).",
)
@click.option("--hands", type=COUNT, default=None, help="Independent hands [1,000,000].")
@click.option(
    "--matches",
    type=COUNT,
    default=None,
    help="Whole matches [seats 20,000; match-length 4,000 per target].",
)
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
      bid-forks     Kout only: the first free bid decision played on once per legal call
                    (kout-sim forks --kind bid): the paired bid guide
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
    "--kind",
    type=click.Choice(["joker", "bid"]),
    default="joker",
    show_default=True,
    help="What to fork: joker plays (Kout) or bid decisions (every preset).",
)
@click.option("--preset", default="kout_bo_4", show_default=True, help="Rule preset.")
@click.option("--option", "option", multiple=True, metavar="KEY=VALUE", help="Preset option.")
@click.option(
    "--players",
    multiple=True,
    metavar="SPEC",
    help="Players, as for simulate [heuristic]; search players (ismcts, pimc) too, at a few "
    "milliseconds a decision: give them hundreds of hands, not the default million.",
)
@click.option("--hands", type=COUNT, default=1_000_000, show_default=True, help="Hands to fork.")
@click.option("--seed", type=int, default=0, show_default=True, help="Run seed.")
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
@click.option("--workers", type=int, default=None, help="Parallel workers [all cores].")
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
    if kind == "bid":
        if at not in ("default", "first", "every"):
            _fail(f"--at {at} is for joker forks; bid forks fork at first or every")
            return
        _bid_forks(preset, option, players, hands, seed, out, at, workers, overwrite)
        return
    if at in ("first", "every"):
        _fail(f"--at {at} is for --kind bid; joker forks fork at default, lead or any")
        return
    from analyses.joker_lead import changes, joker_value, pairing_gain

    from .io.read import load
    from .sim.fork import write_forks

    lead_only = {"default": None, "lead": True, "any": False}[at]
    try:
        folder = write_forks(
            out,
            preset,
            hands,
            seed,
            list(players) or "heuristic",
            options=_parse_options(option),
            lead_only=lead_only,
            workers=workers,
            overwrite=overwrite,
        )
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
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


def _bid_forks(
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
    """``kout-sim forks --kind bid``: write the folder, print each call's paired value."""
    from analyses.bid_forks import call_values, pairing_gain

    from .io.read import load, run_settings
    from .sim.bid_fork import write_bid_forks

    try:
        folder = write_bid_forks(
            out,
            preset,
            hands,
            seed,
            list(players) or "heuristic",
            options=_parse_options(option),
            at="first" if at == "default" else at,
            workers=workers,
            overwrite=overwrite,
        )
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
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
@click.argument("folder", metavar="DIR")
def verify(folder: str) -> None:
    """Check every shard of a run folder (or of each run in a duel or study folder) byte for byte
    against the manifest in its run.json.

    Prints one line per missing, truncated or altered shard (and per shard the manifest does not
    hold) and exits 1 if there is any; `kout-sim simulate ... --resume` replays them. Exits 0 when
    every shard is whole, 2 when DIR holds no run.
    """
    from .io.read import verify as verify_runs

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
    from .players import player_help

    click.echo(player_help())


@main.command()
def presets() -> None:
    """List the presets and their options."""
    from .rules import PRESETS

    click.echo("Rule numbers refer to the rule book docs/RULES.md.")
    for name, preset in sorted(PRESETS.items()):
        click.echo(f"{name}: {preset.title}")
        for opt in preset.options.values():
            click.echo(f"    {opt.name} = {opt.default!r}  ({opt.accepts}): {opt.meaning}")


if __name__ == "__main__":  # pragma: no cover
    main()


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
