"""One shard of a run: its settings (:class:`RunSpec`), its play and its tables, and its files.

A shard is a fixed range of match or hand indices, played on the keyed random streams of those
indices, so its rows never depend on the worker count nor on which process plays it (a Dask worker
runs :func:`run_shard`). :func:`play_shard` plays one and returns its tables; a searching shard is
played a step at a time so that its progress shows, and a shard that may be stopped (Ctrl-C) in
steps of a fraction of a second. :mod:`kout_sim.sim.run` schedules the shards of a run and keeps
its folder.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from ..drivers.play import new_rows
from ..engine import layout as L
from ..io.schema import actions_table, hands_table, matches_table
from ..io.store import Entry, Store
from ..players.registry import PLAYERS
from ..rules import Rules, get_rules
from .batch import play_hands, play_matches


@dataclass(frozen=True)
class RunSpec:
    """Everything a shard needs (picklable: it travels to Dask workers)."""

    preset: str
    options: dict[str, Any]
    players: list[str]
    seed: int
    unit: str  # "matches" or "hands"
    count: int
    shard_size: int
    actions: bool
    solve: bool = False
    par: bool = True  # with solve: the Kout par columns too

    @property
    def rules(self) -> Rules:
        """The rules of the run's preset and options."""
        return get_rules(self.preset, self.options)

    @property
    def n_shards(self) -> int:
        """The number of shards the run is written in."""
        return -(-self.count // self.shard_size)

    def shard(self, k: int) -> tuple[int, int, int]:
        """(k, first index, size) of shard ``k``."""
        start = k * self.shard_size
        return k, start, min(self.shard_size, self.count - start)

    def shards(self, skip: Iterable[int] = ()) -> Iterator[tuple[int, int, int]]:
        """(shard k, first index, size) of every shard but those of ``skip``, one at a time (a
        run of ten billion hands has 40,000 shards; none is built before it is played)."""
        skipped = set(skip)
        for k in range(self.n_shards):
            if k not in skipped:
                yield self.shard(k)

    @property
    def marker(self) -> str:
        """The table written last in each shard: its file marks the shard complete."""
        return self.unit

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables every shard of the run writes."""
        return ("hands",) + ("matches",) * (self.unit == "matches") + ("actions",) * self.actions


_thread = threading.local()


def rows_buffer(spec: RunSpec, size: int) -> np.ndarray | None:
    """The calling thread's result-row buffer for hand shards of ``spec``'s game family (None for a
    match run, or a shard of another size). Reusing it saves faulting in fresh pages for every shard (a fifth of
    the play time); the kernels rewrite every field a family uses for every hand, so nothing stale
    survives. The tables built from it are written before the thread plays its next shard."""
    if spec.unit != "hands" or size != spec.shard_size:
        return None
    key = (spec.rules.family, size)
    cached = getattr(_thread, "rows", None)
    if cached is None or cached[0] != key:
        cached = (key, new_rows(size))
        _thread.rows = cached
    buffer: np.ndarray = cached[1]
    return buffer


SEARCH_STEP_HANDS = 2
"""Hands per kernel call in a searching hands shard (two keeps the one compiled buffer layout)."""


def searching(spec: RunSpec) -> bool:
    """Whether a seat of the run's line-up searches (ISMCTS, PIMC): its shards play stepwise."""
    return any(PLAYERS[p.split(":", 1)[0]].searching for p in spec.players)


STOP_HANDS = 20_000
"""Hands per kernel call of a shard that may be stopped (a fraction of a second of play)."""
STOP_MATCHES = 256
"""Matches per kernel call of a shard that may be stopped."""


class Stopped(Exception):
    """A shard given up because its run was stopped (Ctrl-C): nothing of it is written."""


def check_stop(stop: threading.Event | None) -> None:
    """Raise :class:`Stopped` once ``stop`` is set (the run was stopped)."""
    if stop is not None and stop.is_set():
        raise Stopped


def _hands_in_steps(
    spec: RunSpec,
    start: int,
    size: int,
    workers: int,
    out: np.ndarray | None,
    trace: np.ndarray | None,
    stop: threading.Event,
) -> np.ndarray:
    """A hands shard played :data:`STOP_HANDS` at a time into ``out`` (a step buffer of the one
    compiled layout, copied in), checking ``stop`` before each step."""
    rows = out if out is not None else new_rows(size)
    step_rows = _step_buffer(STOP_HANDS)
    for i in range(0, size, STOP_HANDS):
        check_stop(stop)
        n = min(STOP_HANDS, size - i)
        part = step_rows if n == STOP_HANDS else new_rows(n)
        play_hands(
            spec.rules,
            n,
            spec.seed,
            spec.players,
            first=start + i,
            workers=workers,
            out=part,
            trace=trace[i : i + n] if trace is not None else None,
        )
        rows[i : i + n] = part
    return rows


def _step_buffer(size: int) -> np.ndarray:
    """The calling thread's row buffer for the steps of a stoppable hands shard."""
    cached = getattr(_thread, "step", None)
    if cached is None or cached.shape[0] != size:
        cached = new_rows(size)
        _thread.step = cached
    buffer: np.ndarray = cached
    return buffer


def _play_stepwise(
    spec: RunSpec, start: int, size: int, progress: Any, stop: threading.Event | None = None
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray | None]:
    """A searching shard played a step at a time (two hands, or one match, per kernel call),
    calling ``progress(n)`` after each step with the hands or matches it played: a searching hand
    takes a tenth of a second or more, so the progress bar moves per hand rather than per shard.
    The rows are those of one call: every hand and match has its own random streams."""
    rules = spec.rules
    if spec.unit == "hands":
        rows = new_rows(size)
        trace = np.zeros((size, L.MAX_ACTIONS), np.int32) if spec.actions else None
        for i in range(0, size, SEARCH_STEP_HANDS):
            check_stop(stop)
            n = min(SEARCH_STEP_HANDS, size - i)
            step_trace = np.zeros((n, L.MAX_ACTIONS), np.int32) if trace is not None else None
            part = play_hands(
                rules, n, spec.seed, spec.players, first=start + i, workers=1, trace=step_trace
            )
            rows[i : i + n] = part
            if trace is not None and step_trace is not None:
                trace[i : i + n] = step_trace
            progress(n)
        return None, rows, trace
    parts = []
    for m in range(size):
        check_stop(stop)
        parts.append(
            play_matches(
                rules, 1, spec.seed, spec.players, first=start + m, workers=1, traced=spec.actions
            )
        )
        progress(1)
    hand_rows = np.concatenate([p[1].T for p in parts], axis=1).T  # stays column by column
    match_rows = np.concatenate([p[0] for p in parts])
    return match_rows, hand_rows, np.concatenate([p[2] for p in parts])


def play_shard(
    spec: RunSpec,
    metadata: dict[str, Any],
    start: int,
    size: int,
    workers: int,
    out: np.ndarray | None = None,
    progress: Any = None,
    stop: threading.Event | None = None,
) -> dict[str, pa.Table]:
    """Play one shard and return its tables (``hands``, ``matches`` in match runs, ``actions``).

    ``out``: a result-row buffer for a hands shard (the tables may share its memory).
    ``progress``: called with the number of hands (matches) played as a searching shard advances
    (see :func:`_play_stepwise`); other shards are played in one call and report nothing.
    ``stop``: the shard is played in steps of a fraction of a second (:data:`STOP_HANDS`,
    :data:`STOP_MATCHES`) and given up with :class:`Stopped` as soon as it is set (Ctrl-C); the
    rows are those of one call (every hand and match has its own random streams)."""
    rules = spec.rules
    family = rules.family
    if progress is not None and searching(spec):
        match_rows, rows, trace = _play_stepwise(spec, start, size, progress, stop)
        tables = {"hands": hands_table(rows, metadata, rules, _dd(spec, rows))}
        if match_rows is not None:
            tables["matches"] = matches_table(match_rows, metadata, rules)
    elif spec.unit == "hands":
        trace = np.zeros((size, L.MAX_ACTIONS), np.int32) if spec.actions else None
        if stop is None or size <= STOP_HANDS:
            rows = play_hands(
                rules,
                size,
                spec.seed,
                spec.players,
                first=start,
                workers=workers,
                out=out,
                trace=trace,
            )
        else:
            rows = _hands_in_steps(spec, start, size, workers, out, trace, stop)
        tables = {"hands": hands_table(rows, metadata, rules, _dd(spec, rows))}
    else:
        step = size if stop is None else STOP_MATCHES
        parts = []
        for first in range(start, start + size, step):
            check_stop(stop)
            parts.append(
                play_matches(
                    rules,
                    min(step, start + size - first),
                    spec.seed,
                    spec.players,
                    first=first,
                    workers=workers,
                    traced=spec.actions,
                )
            )
        if len(parts) == 1:
            match_rows, rows, trace = parts[0]
        else:
            match_rows = np.concatenate([p[0] for p in parts])
            rows = np.concatenate([p[1].T for p in parts], axis=1).T  # stays column by column
            trace = np.concatenate([p[2] for p in parts])
        tables = {
            "hands": hands_table(rows, metadata, rules, _dd(spec, rows)),
            "matches": matches_table(match_rows, metadata, rules),
        }
    if spec.actions and trace is not None:
        tables["actions"] = actions_table(rows, trace, metadata, family)
    return tables


def _dd(spec: RunSpec, rows: np.ndarray) -> dict[str, np.ndarray] | None:
    """The double-dummy columns of a shard's hands (``solve`` runs only)."""
    if not spec.solve:
        return None
    from ..solver import dd_columns

    return dd_columns(rows, spec.rules, par=spec.par)


def write_shard(
    store: Store, spec: RunSpec, k: int, tables: dict[str, pa.Table]
) -> dict[str, Entry]:
    """Write a shard's tables, the marker table last; their manifest entries."""
    entries = {}
    for name in sorted(tables, key=lambda t: t == spec.marker):
        part = store.part(name, k)
        entries["/".join(part)] = store.write_table(tables[name], *part)
    return entries


def run_shard(
    url: str,
    spec: RunSpec,
    metadata: dict[str, Any],
    k: int,
    start: int,
    size: int,
    workers: int = 1,
) -> tuple[int, dict[str, Entry]]:
    """Play and write shard ``k`` (the task a Dask worker runs); its size and manifest entries."""
    tables = play_shard(spec, metadata, start, size, workers, rows_buffer(spec, size))
    return size, write_shard(Store(url), spec, k, tables)
