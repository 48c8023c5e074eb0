"""The commands on one hand or position: ``advise``, ``solve``, ``replay``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ._base import _fail, _parse_options, main
from ._options import OPTIONS, count_option, seed_option


@main.command()
@click.option(
    "--record",
    "record_file",
    type=click.Path(exists=True, dir_okay=False),
    help="A partial hand record (JSON, docs/records.md): the advising seat's hand, the others null.",
)
@click.option("--preset", default=None, help="Short form: the rule preset (instead of --record).")
@OPTIONS
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
@count_option("--samples", "Sampled deals [about 1 s of a call].")
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
@seed_option("Seed of the sampled deals.")
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
    from ..advisor import advise as run_advise
    from ..advisor import format_table, short_record

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
    from ..solver import par
    from ..solver import solve as run_solve

    record = _read_record(record_file)
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
    from .. import replay_hand, replay_match

    if run_dir is not None or match is not None or hand is not None:
        if record_file is not None or run_dir is None or (match is None) == (hand is None):
            _fail("give either RECORD_FILE, or --run DIR with --match K or --hand K")
        if hand is not None:
            _replay_run(str(run_dir), "hand", int(hand))
        else:
            _replay_run(str(run_dir), "match", int(match or 0))
        return
    if record_file is None:
        _fail("give a RECORD_FILE, or --run DIR --match K (--hand K)")
        return
    record = _read_record(record_file)
    try:
        if isinstance(record, dict) and "first_dealer" in record:
            result = replay_match(record, engine=engine)
        else:
            result = replay_hand(record, engine=engine)
    except ValueError as exc:
        _fail(str(exc))
        return
    click.echo(json.dumps(result, indent=2))


def _replay_run(run_dir: str, unit: str, index: int) -> None:
    """``kout-sim replay --run DIR --match K`` (``unit`` ``match``) or ``--hand K`` (``hand``):
    print the record, re-check it through the reference engine (exit 1 if they differ)."""
    from ..sim.records import dumps, hand_record, match_record, recheck, recheck_hand

    by_match = unit == "match"
    try:
        record = match_record(run_dir, index) if by_match else hand_record(run_dir, index)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
        return
    click.echo(dumps(record) if by_match else json.dumps(record, indent=2))
    check = recheck if by_match else recheck_hand
    problems = check(run_dir, index, record)
    if problems:
        click.echo("reference re-check FAILED: " + "; ".join(problems), err=True)
        sys.exit(1)
    hands = f" ({len(record['hands'])} hands)" if by_match else ""
    click.echo(f"reference re-check: {unit} {index} agrees{hands}", err=True)


def _read_record(record_file: str) -> Any:
    """The JSON record in ``record_file``; a file that cannot be read or parsed is one
    ``error:`` line naming it (exit status 2)."""
    try:
        return json.loads(Path(record_file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        _fail(f"cannot read {record_file}: {' '.join(str(exc).split())}")
