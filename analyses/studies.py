"""Studies: the simulations a question needs, run with sensible defaults into one study folder.

``kout-sim study NAME --preset P`` (or :func:`run_study`) plays every run the study ``NAME`` needs
and writes a study folder (default ``data/studies/NAME-PRESET/``): one run folder per simulation
and ``study.json`` (the study, the preset, the runs with their settings and the commands that
reproduce them). ``kout-sim report --run FOLDER --out FILE.html`` then turns it into a report
(:mod:`analyses.report`); a study folder given to ``--run`` expands to its runs.

Built-in studies (:data:`STUDIES`):

- ``bids``: independent hands, heuristic players in every seat (default 1,000,000 hands): bid
  success, the bid guide, seat effects.
- ``match-length``: whole matches at several targets (:data:`TARGETS`; default 4,000 matches per
  target), the stronger side against a weaker one (:data:`MATCH_LENGTH_PLAYERS`): hands per match,
  end reasons, how often the stronger side wins as the target grows.
- ``seats``: whole matches with the heuristic in every seat at the preset's default target
  (default 20,000 matches): seat and dealer effects, the first dealer's match win rate.
- ``baloot-modes``: Baloot only; independent heuristic hands (default 1,000,000): Sun and Hokum
  beside unsourced human rates.
- ``joker-lead``: Kout presets; the joker decisions of independent heuristic hands forked (``kout-sim
  forks``, default 1,000,000 hands); for Kout Bo also each fork's context (the same hands played
  again with ``--actions``, :mod:`analyses.joker_context`) and the same pair of runs for a second
  line-up (:data:`SECOND_FORK_LINEUP`); for Bahraini Kout the ``seats`` matches (the forced joker
  lead).
- ``bid-forks``: every preset; the first free bid decision of independent heuristic hands played
  on once per legal call (``kout-sim forks --kind bid``, default 200,000 hands; Baloot: every
  buying call): the paired bid guide.
- ``ladder``: the headline answers under a ladder of players (random, heuristic, a differently
  tuned heuristic, ISMCTS, PIMC; ``--players`` gives other rungs, one spec each), and the duels
  that rate them (:mod:`analyses.ladder`, :mod:`analyses.ladder_rating`). Not part of ``all`` (the
  search rungs are slow).
- ``all``: every study that applies to the preset; identical runs are played once.

Every run of a study uses the study seed plus a fixed offset per study (``bids`` and
``baloot-modes`` +0, ``seats`` +1, ``match-length`` +2, ``joker-lead`` +3, ``ladder`` +4,
``bid-forks`` +5; the targets of the sweep share theirs, so
match ``m`` starts from the same deal at every target), so a study folder is reproduced exactly
by its command.

Adding a study: build a :class:`Study` whose ``plan`` returns the :class:`RunPlan` s for the
arguments, and add it to :data:`STUDIES` in this module (a script or a test may also
:func:`register` one). A plan runs ``kout_sim.simulate`` with its ``simulate`` settings, or calls
its own ``runner(folder, workers)`` (which must write a run folder with a ``run.json`` naming the
``preset``; ``command(folder)`` is the shell command that does the same, recorded in
``study.json``).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import kout_sim
from kout_sim.commands import command_line
from kout_sim.io.manifest import run_manifest, runs_under, total_seconds
from kout_sim.io.store import Lock, Store, check_replaceable, one_line, remove_run_files
from kout_sim.rules import Family
from kout_sim.sim.batch import check_count, check_seed

from .bid_forks import BID_FORKS_KIND
from .commands import report_hint, simulate_command, study_command
from .joker_context import CONTEXT_KIND, PLAY_FOLDER, write_context
from .joker_lead import DEFAULT_FORK_HANDS, FORKS_KIND

DEFAULT_HANDS = 1_000_000
"""Independent hands of the ``bids`` and ``baloot-modes`` studies."""

DEFAULT_BID_FORK_HANDS = 200_000
"""Independent hands of the ``bid-forks`` study (six branches each in Kout Bo)."""

DEFAULT_SEAT_MATCHES = 20_000
"""Whole matches of the ``seats`` study."""

DEFAULT_SWEEP_MATCHES = 4_000
"""Whole matches per target of the ``match-length`` study."""

TARGETS: dict[str, tuple[int, ...]] = {
    Family.KOUT_BO: (31, 51, 101, 151, 201),
    Family.KOUT_BH: (26, 31, 51, 101),
    Family.BALOOT: (52, 102, 152, 202),
}
"""Match targets of the ``match-length`` sweep per game family (the presets' ``target`` option:
Kout Bo 101 by default, 51 and 151 common; Bahraini Kout 31, with 26, 51 and 101; Baloot 152)."""

HEURISTIC = ("heuristic",)
MATCH_LENGTH_PLAYERS = ("heuristic", "heuristic:epsilon=0.05")
"""Team 0 (stronger) and team 1 of the ``match-length`` study: the heuristic against the same
heuristic making a uniformly random legal move 5% of the time."""

DEFAULT_SEED = 1


@dataclass(frozen=True)
class StudyArgs:
    """The arguments of a study: preset, seed, and the optional overrides of the command line."""

    preset: str
    family: Family
    seed: int = DEFAULT_SEED
    players: tuple[str, ...] | None = None
    hands: int | None = None
    matches: int | None = None


@dataclass(frozen=True)
class RunPlan:
    """One run of a study: its folder inside the study folder, and how to play it.

    ``simulate``: keyword arguments of :func:`kout_sim.simulate` (without ``out``, ``workers``,
    ``overwrite``); or ``runner(folder, workers)`` writes the run itself and ``command(folder)``
    is the command that does the same from a shell."""

    path: str
    kind: str
    simulate: dict[str, Any] | None = None
    runner: Callable[[Path, int | None], object] | None = None
    command: Callable[[Path], str] | None = None
    studies: tuple[str, ...] = ()

    def key(self) -> str:
        """Identical plans (same simulation) share one run in ``all``."""
        if self.simulate is not None:
            return json.dumps(self.simulate, sort_keys=True, default=str)
        return f"{self.path}:{id(self.runner)}"


@dataclass(frozen=True)
class Study:
    """A named study: what it answers, the runs it needs, the game families it applies to."""

    name: str
    summary: str
    plan: Callable[[StudyArgs], list[RunPlan]]
    families: tuple[str, ...] | None = None
    in_all: bool = True


def _players(args: StudyArgs, default: Sequence[str]) -> list[str]:
    return list(args.players or default)


def _hands_plan(name: str) -> Callable[[StudyArgs], list[RunPlan]]:
    def plan(args: StudyArgs) -> list[RunPlan]:
        return [
            RunPlan(
                name,
                "hands",
                {
                    "preset": args.preset,
                    "players": _players(args, HEURISTIC),
                    "hands": args.hands or DEFAULT_HANDS,
                    "seed": args.seed,
                },
            )
        ]

    return plan


def _seats_plan(args: StudyArgs) -> list[RunPlan]:
    return [
        RunPlan(
            "seats",
            "matches",
            {
                "preset": args.preset,
                "players": _players(args, HEURISTIC),
                "matches": args.matches or DEFAULT_SEAT_MATCHES,
                "seed": args.seed + 1,
            },
        )
    ]


def _match_length_plan(args: StudyArgs) -> list[RunPlan]:
    return [
        RunPlan(
            f"match-length/target-{t}",
            "matches",
            {
                "preset": args.preset,
                "options": {"target": t},
                "players": _players(args, MATCH_LENGTH_PLAYERS),
                "matches": args.matches or DEFAULT_SWEEP_MATCHES,
                "seed": args.seed + 2,
            },
        )
        for t in TARGETS[args.family]
    ]


SECOND_FORK_LINEUP = "heuristic:bid_margin=0"
"""The second line-up of the Kout Bo ``joker-lead`` study (runs ``joker-forks-bid_margin0`` and
``joker-context-bid_margin0``): the joker's value by context is compared across the two."""


def _fork_pair(
    args: StudyArgs, players: list[str], suffix: str, hands: int, seed: int
) -> list[RunPlan]:
    """The forks run of ``players`` and, for Kout Bo, its context run (the hands played again
    with ``--actions``, :func:`analyses.joker_context.write_context`)."""
    forks_path = f"joker-forks{suffix}"

    def runner(folder: Path, workers: int | None) -> object:
        from kout_sim.sim.fork import write_forks

        lineup = players or list(HEURISTIC)
        return write_forks(folder, args.preset, hands, seed, lineup, workers=workers)

    def command(folder: Path) -> str:
        return command_line(
            "forks", preset=args.preset, hands=hands, seed=seed, players=players, out=str(folder)
        )

    plans = [RunPlan(forks_path, FORKS_KIND, runner=runner, command=command)]
    if not args.family.is_kuwaiti:
        return plans

    def context_runner(folder: Path, workers: int | None) -> object:
        return write_context(folder, folder.parent / forks_path, workers=workers, overwrite=True)

    def context_command(folder: Path) -> str:
        return command_line(
            "simulate",
            preset=args.preset,
            players=players,
            hands=hands,
            seed=seed,
            actions=True,
            out=str(folder / PLAY_FOLDER),
        )

    plans.append(
        RunPlan(
            f"joker-context{suffix}", CONTEXT_KIND, runner=context_runner, command=context_command
        )
    )
    return plans


def _joker_forks_plan(args: StudyArgs) -> list[RunPlan]:
    hands = args.hands or DEFAULT_FORK_HANDS
    seed = args.seed + 3
    plans = _fork_pair(args, list(args.players or ()), "", hands, seed)
    if args.family.is_kuwaiti and not args.players:
        plans += _fork_pair(args, [SECOND_FORK_LINEUP], "-bid_margin0", hands, seed)
    if args.family.is_bahraini:
        plans += _seats_plan(args)  # the forced joker lead in whole matches
    return plans


def _bid_forks_plan(args: StudyArgs) -> list[RunPlan]:
    hands = args.hands or DEFAULT_BID_FORK_HANDS
    players = list(args.players or HEURISTIC)
    seed = args.seed + 5

    def runner(folder: Path, workers: int | None) -> object:
        from kout_sim.sim.bid_fork import write_bid_forks

        return write_bid_forks(folder, args.preset, hands, seed, players, workers=workers)

    def command(folder: Path) -> str:
        return command_line(
            "forks",
            kind="bid",
            preset=args.preset,
            hands=hands,
            seed=seed,
            players=list(args.players or ()),
            out=str(folder),
        )

    return [RunPlan("bid-forks", BID_FORKS_KIND, runner=runner, command=command)]


def _ladder_plan(args: StudyArgs) -> list[RunPlan]:
    from .ladder_study import ladder_plan

    plans = ladder_plan(args.preset, args.family, args.seed, args.players, args.hands, args.matches)
    return [RunPlan(**plan) for plan in plans]


STUDIES: dict[str, Study] = {
    study.name: study
    for study in (
        Study(
            "bids",
            f"independent hands, heuristic players (default {DEFAULT_HANDS:,}): bid success, the "
            "bid guide, seat effects",
            _hands_plan("bids"),
        ),
        Study(
            "match-length",
            "whole matches at several targets, heuristic against heuristic:epsilon=0.05 (default "
            f"{DEFAULT_SWEEP_MATCHES:,} per target): match length, end reasons, the stronger side",
            _match_length_plan,
        ),
        Study(
            "seats",
            f"whole matches, heuristic in every seat (default {DEFAULT_SEAT_MATCHES:,}): seat and "
            "dealer effects, the first dealer's match win rate",
            _seats_plan,
        ),
        Study(
            "baloot-modes",
            f"Baloot hands, heuristic players (default {DEFAULT_HANDS:,}): Sun and Hokum beside "
            "unsourced human rates",
            _hands_plan("baloot-modes"),
            families=("baloot",),
        ),
        Study(
            "joker-lead",
            f"joker decisions of independent hands forked (default {DEFAULT_FORK_HANDS:,} hands, "
            "heuristic players): what leading (Kout Bo) or shedding (Bahraini) a joker is worth",
            _joker_forks_plan,
            families=("kout_bo", "kout_bh"),
        ),
        Study(
            "bid-forks",
            f"the first free bid decision of independent hands played on once per legal call "
            f"(default {DEFAULT_BID_FORK_HANDS:,} hands, heuristic players): the paired bid guide",
            _bid_forks_plan,
        ),
        Study(
            "ladder",
            "the headline answers under a ladder of players (random, heuristic, "
            "heuristic:bid_margin=0, ismcts, pimc), each with a verdict, and the duels that rate "
            "them",
            _ladder_plan,
            in_all=False,
        ),
    )
}
"""Every study by name, in the order ``all`` plays them (``all`` is handled by
:func:`plan_study`)."""


def register(study: Study) -> Study:
    """Add (or replace) a study in :data:`STUDIES`."""
    STUDIES[study.name] = study
    return study


def study_names() -> list[str]:
    """Every study name, ``all`` included."""
    return [*STUDIES, "all"]


def plan_study(name: str, args: StudyArgs) -> list[RunPlan]:
    """The runs of study ``name`` (``all``: of every study that applies; identical runs once),
    each tagged with the studies that use it. ``ValueError`` for an unknown study or one that
    does not apply to the preset's family."""
    if name == "all":
        chosen = [
            s
            for s in STUDIES.values()
            if s.in_all and (s.families is None or args.family in s.families)
        ]
    elif name in STUDIES:
        chosen = [STUDIES[name]]
        fams = chosen[0].families
        if fams is not None and args.family not in fams:
            raise ValueError(
                f"study {name!r} applies to {' and '.join(fams)} presets only, not {args.preset}"
            )
    else:
        raise ValueError(f"unknown study {name!r}; valid: {', '.join(study_names())}")
    plans: dict[str, RunPlan] = {}
    for study in chosen:
        for plan in study.plan(args):
            key = plan.key()
            if key in plans:
                old = plans[key]
                plans[key] = replace(old, studies=(*old.studies, study.name))
            else:
                plans[key] = replace(plan, studies=(study.name,))
    return list(plans.values())


MAX_SEED_OFFSET = 5
"""The largest offset a study adds to its seed (``ladder``: +4)."""


def _positive(name: str, value: int | None) -> None:
    if value is not None:
        check_count(name, value)


def default_folder(name: str, preset: str) -> Path:
    """The study folder used when none is given: ``data/studies/NAME-PRESET``."""
    return Path("data") / "studies" / f"{name}-{preset}"


def _prepare_folder(folder: Path, overwrite: bool) -> Lock:
    """Create the study folder, or (``overwrite``) remove the study of an existing one: its
    ``study.json`` and the run files of the runs it lists; any other file stays. A file, or a
    non-empty folder that is not a study folder this project wrote, is refused. Returns the
    folder's lock, held (the caller releases it)."""
    lock = Lock(Store(folder))
    if folder.exists():
        if not overwrite:
            raise ValueError(f"output folder {folder} exists; pass --overwrite to replace it")
        if not folder.is_dir():
            raise ValueError(f"{folder} is a file, not a study folder; not replacing it")
        try:
            previous = json.loads((folder / "study.json").read_text())
        except (OSError, ValueError, UnicodeDecodeError):
            previous = None
        if not isinstance(previous, dict) or "runs" not in previous:
            if any(folder.iterdir()):
                raise ValueError(
                    f"{folder} is not a study folder written by kout-sim (no study.json); "
                    "not replacing it"
                )
            previous = {"runs": []}
        runs = [Store(folder / str(run.get("path"))) for run in previous["runs"] if run.get("path")]
        for run in runs:  # every run is checked before any is removed
            if run.exists():
                check_replaceable(run)
        lock.acquire()
        for run in runs:
            if run.exists():
                remove_run_files(run)
                if not run.fs.ls(run.root, detail=False):
                    run.fs.rmdir(run.root)
        (folder / "study.json").unlink(missing_ok=True)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot create the output folder {folder}: {exc.strerror}") from None
    if not lock.held:
        lock.acquire()
    return lock


def _write_json(folder: Path, data: dict[str, Any]) -> None:
    Store(folder).write_json(data, "study.json")


def run_study(
    name: str,
    preset: str,
    *,
    out: str | Path | None = None,
    seed: int = DEFAULT_SEED,
    workers: int | None = None,
    players: Sequence[str] | None = None,
    hands: int | None = None,
    matches: int | None = None,
    overwrite: bool = False,
    log: Callable[[str], object] = lambda _: None,
) -> Path:
    """Play every run of study ``name`` for ``preset`` into a study folder; returns the folder.

    ``players``: the line-up of every run instead of the study's (one spec, two for the teams, or
    one per seat); ``hands`` / ``matches``: the sizes instead of the defaults (``matches`` is per
    target in ``match-length``). ``log`` receives one line per run before it starts. Raises
    ``ValueError`` (one line) for bad input: unknown study or preset, a study that does not apply
    to the preset, non-positive counts, a bad player spec, an existing folder without
    ``overwrite``."""
    from kout_sim.sim.batch import lineup_of

    rules = kout_sim.get_rules(preset)
    check_seed(seed)
    # every run's seed (the study seed plus its offset) must be valid too, before any run starts
    check_seed(seed + MAX_SEED_OFFSET, f"seed + {MAX_SEED_OFFSET} (the bid-forks study's seed)")
    _positive("hands", hands)
    _positive("matches", matches)
    args = StudyArgs(
        rules.name,
        rules.family,
        seed,
        tuple(players) if players else None,
        hands,
        matches,
    )
    plans = plan_study(name, args)
    for plan in plans:
        if plan.simulate is not None:
            lineup_of(
                kout_sim.get_rules(preset, plan.simulate.get("options")), plan.simulate["players"]
            )
    folder = Path(out) if out is not None else default_folder(name, rules.name)
    command = study_command(name, rules.name, folder, seed, players, hands, matches)
    lock = _prepare_folder(folder, overwrite)
    try:
        settings: dict[str, Any] = {
            "name": name,
            "preset": rules.name,
            "seed": seed,
            "report_command": report_hint(folder),
            "runs": [
                {"path": p.path, "kind": p.kind, "studies": list(p.studies), "settings": p.simulate}
                for p in plans
            ],
        }
        meta = run_manifest(settings, command, status="running")
        _write_json(folder, meta)
        started = time.perf_counter()
        try:
            _run_plans(folder, meta, plans, rules.name, workers, log)
        except BaseException as exc:
            failed = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
            meta.update(status=failed, error=one_line(exc))
            with contextlib.suppress(OSError):
                _write_json(folder, meta)
            raise
        # the manifest's seconds: the compile and the play of every run under the folder;
        # wall_seconds: the whole study
        meta.update(
            status="complete",
            wall_seconds=round(time.perf_counter() - started, 3),
            **total_seconds(runs_under(folder)),
        )
        _write_json(folder, meta)
        return folder
    finally:
        lock.release()


def _run_plans(
    folder: Path,
    meta: dict[str, Any],
    plans: list[RunPlan],
    preset: str,
    workers: int | None,
    log: Callable[[str], object],
) -> None:
    """Play every run of a study into its folder, recording each run's command in ``meta``."""
    for entry, plan in zip(meta["runs"], plans):
        target = folder / plan.path
        if plan.simulate is not None:
            log(
                f"{plan.path}: {simulate_command({**_settings(plan.simulate), 'preset': preset}, target)}"
            )
            kout_sim.simulate(**plan.simulate, out=target, workers=workers)
            settings = json.loads((target / "run.json").read_text())
            entry["command"] = simulate_command(settings, target)
        else:
            assert plan.runner is not None
            shown = plan.command(target) if plan.command else ""
            log(f"{plan.path}: {shown or '(custom runner)'}")
            plan.runner(target, workers)
            entry["command"] = shown


def _settings(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``run.json``-like settings of ``simulate`` keyword arguments (for the log line)."""
    rules = kout_sim.get_rules(kwargs["preset"], kwargs.get("options"))
    unit = "hands" if kwargs.get("hands") is not None else "matches"
    return {
        "preset": rules.name,
        "family": rules.family.value,
        "options": dict(rules.options),
        "players": kwargs["players"],
        "unit": unit,
        "count": kwargs[unit],
        "seed": kwargs["seed"],
    }
