"""Duplicate duels: the same deals played twice with the teams exchanged between the seat pairs.

Game ``ab`` seats team A on the even seats (team 0) and team B on the odd seats; game ``ba`` swaps
them. Both games use the same run seed, so match ``m`` (or hand ``i``) is dealt from the same deal
stream in both: hand ``h`` of match ``m`` gives every seat the same cards in both games as long as
both games reach it. This module plays the two runs (:func:`play_duel`) and says beforehand how
long a searching duel will take (:func:`estimate`); the paired statistics of the two runs are
:mod:`analyses.duel`'s.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..commands import command_line, option_args
from ..io.store import RunFolderError, Store, check_replaceable
from ..rules import get_rules
from .batch import (
    check_count,
    check_seed,
    check_workers,
    lineup_of,
    play_hands,
    play_matches,
    prepare,
)
from .run import SHARD_SEARCH_HANDS, SHARD_SEARCH_MATCHES, simulate

DEFAULT_DUEL_MATCHES = 1_000
"""Deal sequences a duel plays when given neither ``matches`` nor ``hands``."""


PROBE_SECONDS = 2.0
"""How long :func:`estimate` plays at most (after the first match or pair of hands) to time a
searching duel."""


def estimate(
    preset: str,
    players: list[str],
    unit: str,
    count: int,
    seed: int,
    workers: int,
    options: dict[str, Any] | None = None,
) -> dict[str, float]:
    """How long the two runs of a duel will take: one match at a time (two hands at a time) of
    the line-up ``players`` is played on one core until :data:`PROBE_SECONDS` have passed (at
    most 3 matches or 8 hands; after the compile, which :func:`prepare` announces), and the time
    per match (hand) is scaled to ``2 * count`` over the workers the shards can keep busy.
    Returns ``seconds`` (the estimate), ``per_unit`` and ``parallel``."""
    rules = get_rules(preset, options)
    prepare(rules, players, unit)
    played, started = 0, time.perf_counter()
    while played < (3 if unit == "matches" else 8):
        if unit == "matches":
            play_matches(rules, 1, seed, players, first=played, workers=1)
            played += 1
        else:
            play_hands(rules, 2, seed, players, first=played, workers=1)
            played += 2
        if time.perf_counter() - started >= PROBE_SECONDS:
            break
    per_unit = (time.perf_counter() - started) / played
    shard = SHARD_SEARCH_MATCHES if unit == "matches" else SHARD_SEARCH_HANDS
    parallel = max(1, min(workers, -(-count // shard)))
    return {"seconds": 2 * count * per_unit / parallel, "per_unit": per_unit, "parallel": parallel}


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


@dataclass(frozen=True)
class DuelRuns:
    """The two runs of a duel (:func:`play_duel`) and what it was played with."""

    ab: Path | str
    """Team A on the even seats."""
    ba: Path | str
    """The teams exchanged: team B on the even seats."""
    preset: str
    team_a: str
    team_b: str
    seed: int
    options: dict[str, Any]
    unit: str
    """``"matches"`` (deal sequences) or ``"hands"``."""
    count: int
    out: str
    """The duel folder, holding ``ab/``, ``ba/`` and ``duel.json``."""
    command: str
    """The ``kout-sim duel`` command that plays the duel again."""
    started: float
    """``time.perf_counter()`` when the first run began (after the estimate)."""


def play_duel(
    preset: str,
    team_a: str,
    team_b: str,
    *,
    options: dict[str, Any] | None = None,
    matches: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    overwrite: bool = False,
    resume: bool = False,
    log: Callable[[str], None] | None = None,
) -> DuelRuns:
    """Play the two runs of a duplicate duel, ``out/ab`` (team A on the even seats) and ``out/ba``
    (the teams exchanged), on the same deals; their statistics are
    :func:`analyses.duel.record_duel`'s (:func:`analyses.duel.duel` does both).

    ``matches`` deal sequences (default 1,000) or ``hands`` independent hands: one, not both.
    ``log``: when a seat searches (ISMCTS, thousands of times slower than the heuristic), it is
    given one line with the estimated time (:func:`estimate`) before the play starts."""
    rules = get_rules(preset, options)
    if hands is not None and matches is not None:
        raise ValueError("give either matches or hands, not both")
    if hands is None and matches is None:
        matches = DEFAULT_DUEL_MATCHES
    a = lineup_of(rules, team_a).seats[0]
    b = lineup_of(rules, team_b).seats[0]
    if out is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        out = Path("data") / "duels" / f"{preset}-seed{seed}-{stamp}"
    base = str(out).rstrip("/")
    unit = "hands" if hands is not None else "matches"
    count = check_count(unit, hands if hands is not None else matches)
    check_seed(seed)
    searching = any(seat.type.searching for seat in (a, b))
    if log is not None and searching:
        cores = check_workers(workers)
        guess = estimate(preset, [str(a), str(b)], unit, count, seed, cores, options)
        log(
            f"duel: 2 x {count:,} {unit} of {rules.name} ({a} vs {b}), a searching seat: about "
            f"{_duration(guess['seconds'])} on {guess['parallel']} worker(s) "
            f"({guess['per_unit']:.2f} s a {'hand' if unit == 'hands' else 'match'} on one core); "
            "Ctrl-C stops it resumably"
        )
    common: dict[str, Any] = dict(
        options=options,
        matches=matches,
        hands=hands,
        seed=seed,
        workers=workers,
        overwrite=overwrite,
        resume=resume,
    )
    _check_duel_folder(Store(base), overwrite, resume)
    started = time.perf_counter()
    ab = simulate(preset, players=[str(a), str(b)], out=f"{base}/ab", **common)
    ba = simulate(preset, players=[str(b), str(a)], out=f"{base}/ba", **common)
    command = command_line(
        "duel",
        preset=rules.name,
        team_a=str(a),
        team_b=str(b),
        option=option_args(options),
        **{unit: count},
        seed=seed,
        out=base,
    )
    return DuelRuns(
        ab,
        ba,
        rules.name,
        str(a),
        str(b),
        seed,
        dict(rules.options),
        unit,
        count,
        base,
        command,
        started,
    )


DUEL_FILES = frozenset(["ab", "ba", "duel.json"])


def _check_duel_folder(store: Store, overwrite: bool, resume: bool) -> None:
    """Refuse (one line) a duel folder that ``overwrite`` or ``resume`` must not touch: a file, or
    a folder holding anything but a duel's ``ab/`` and ``ba/`` runs and ``duel.json``; with
    ``overwrite``, the old ``duel.json`` is removed (the runs are replaced by ``simulate``)."""
    if not store.exists():
        return
    if not store.fs.isdir(store.root):
        raise RunFolderError(f"{store.url} is a file, not a duel folder; not replacing it")
    names = {str(p).rstrip("/").rsplit("/", 1)[-1] for p in store.fs.ls(store.root, detail=False)}
    names = {n for n in names if not n.startswith(".duel.json.tmp-")}
    if not names:
        return
    if not (overwrite or resume):
        raise RunFolderError(f"output folder {store.url} exists; pass --resume or --overwrite")
    if not names <= DUEL_FILES:
        raise RunFolderError(
            f"{store.url} is not a duel folder written by kout-sim (it holds "
            f"{', '.join(sorted(names - DUEL_FILES))}); not replacing it"
        )
    for run in ("ab", "ba"):
        if overwrite and run in names:
            check_replaceable(Store(f"{store.url.rstrip('/')}/{run}"))
    if overwrite and "duel.json" in names:
        store.fs.rm(store.path("duel.json"))
