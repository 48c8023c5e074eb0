"""``simulate``: play matches or hands and write them as a run folder of parquet shards.

A run folder holds ``run.json`` (the settings and the run metadata) and the tables as shards:
``matches/part-NNNNN.parquet``, ``hands/part-NNNNN.parquet`` and, with ``actions=True``,
``actions/part-NNNNN.parquet``. Shard ``k`` always holds the same index range, played on the keyed
random streams of those indices, so its rows never depend on the number of workers or on the
scheduler. The folder is written through :mod:`kout_sim.io.store`: each file to a temporary name
and renamed, each shard then entered in the manifest of ``run.json`` (rows, bytes, SHA-256), the
folder locked while it is written. An interrupted or failed run leaves only complete shards, and
``resume=True`` plays exactly the missing or damaged ones.

The folder may be a local path or an fsspec URL; with ``scheduler`` the shards run as tasks of a
Dask distributed cluster (``"local:N"`` starts a local one with N worker processes).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict
from itertools import islice
from pathlib import Path
from typing import Any, overload

import pyarrow as pa

from ..commands import simulate_command
from ..io.counts import Summary, merge_into, shard_counts, summary_counts
from ..io.manifest import provenance, run_manifest
from ..io.read import load
from ..io.store import (
    TABLES,
    Entry,
    Manifest,
    Store,
    check_files,
    file_entry,
    folder_path,
    one_line,
    opened,
    read_meta,
    remove_run_files,
    shard_number,
)
from ..io.store import (
    write_options as write_options,
)
from ..rules import Rules, get_rules
from .batch import (
    Players,
    check_count,
    check_seed,
    check_workers,
    lineup_of,
    prepare,
)
from .shard import RunSpec as RunSpec
from .shard import Stopped as Stopped
from .shard import check_stop, rows_buffer, run_shard, searching, write_shard
from .shard import play_shard as play_shard

SHARD_MATCHES = 4_096
# Shard sizes are round decimal numbers on purpose: a power of two makes the columns of the
# column-major row buffer a power of two bytes apart, every field of a hand falls in the same cache
# set, and the play runs a quarter slower.
SHARD_HANDS = 250_000  # 128 MB of result rows while a shard is tabulated
SHARD_HANDS_ACTIONS = 100_000  # with the actions table: ~100 decisions a hand
# a searching seat makes a hand thousands of times slower: small shards keep every core busy
SHARD_SEARCH_MATCHES = 16
SHARD_SEARCH_HANDS = 4_000
# a double-dummy solve takes milliseconds a hand: small shards show progress and resume cheaply
SHARD_SOLVE_HANDS = 2_000
SHARD_SOLVE_MATCHES = 100
SETTINGS = (
    "preset",
    "options",
    "players",
    "seed",
    "unit",
    "count",
    "shard_size",
    "actions",
    "solve",
    "par",
)
SETTING_DEFAULTS = {"solve": False, "par": True}
"""Settings added after runs were first written: an older run.json has the default."""


DEFAULT_MATCHES = 10_000
"""What ``simulate`` plays when given neither ``matches`` nor ``hands``."""


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (SIGINT): the queued shards cancelled, the running ones given up at
    their next step (a shard already being written is written whole and entered in the manifest).
    ``out``: the run folder; ``done`` of ``total`` shards are complete, and ``resume=True``
    (``--resume``) plays the rest."""

    def __init__(self, out: str, done: int, total: int) -> None:
        super().__init__(
            f"interrupted: {done:,} of {total:,} shards of {out} are complete; "
            "--resume plays the rest"
        )
        self.out, self.done, self.total = out, done, total


def complete_shards(
    store: Store, spec: RunSpec, shards: dict[str, Entry] | None = None
) -> set[int]:
    """The shards of a run folder that are in place: every table of the shard entered in the
    manifest ``shards`` (default: the one of ``run.json``). A run written before the manifest
    existed: the shards whose marker file is there (one listing of the folder)."""
    if shards is None:
        meta = read_meta(store) or {}
        shards = meta.get("shards")
    if shards is None:
        done = set()
        for name in store.parts(spec.marker):
            k = shard_number(name)
            if k is not None and k < spec.n_shards:
                done.add(k)
        return done
    tables = spec.tables
    per_shard: dict[int, int] = {}
    for name in shards:
        table = name.split("/", 1)[0]
        k = shard_number(name)
        if table in tables and k is not None and k < spec.n_shards:
            per_shard[k] = per_shard.get(k, 0) + 1
    return {k for k, n in per_shard.items() if n == len(tables)}


def _resumable(store: Store, spec: RunSpec, previous: dict[str, Any]) -> dict[str, Entry]:
    """The manifest entries of the shards of an earlier attempt that are whole (sizes and the row
    counts of their footers as entered); the files of damaged or unentered shards are removed so
    that they are played again. A run written before the manifest: its marked shards' files are
    entered now (read once)."""
    shards: dict[str, Entry] | None = previous.get("shards")
    if shards is None:
        shards = {}
        for k in complete_shards(store, spec, None):
            try:
                for table in spec.tables:
                    name = "/".join(store.part(table, k))
                    shards[name] = file_entry(store.fs, store.path(name))
            except (OSError, ValueError, pa.ArrowException):
                for table in spec.tables:
                    shards.pop("/".join(store.part(table, k)), None)
    bad = {line.split(":", 1)[0] for line in check_files(store, shards)}
    good = {name: entry for name, entry in shards.items() if name not in bad}
    done = complete_shards(store, spec, good)
    keep = {"/".join(store.part(t, k)) for k in done for t in spec.tables}
    for table in TABLES:
        for name in store.parts(table):
            if name not in keep:
                store.fs.rm(store.path(name))
    return {name: good[name] for name in keep}


def _progress(total: int, unit: str) -> Any:
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {unit}", unit_scale=True, smoothing=0.1, file=sys.stderr)


@overload
def simulate(
    preset: str = "kout_bo_4",
    *,
    options: dict[str, Any] | None = None,
    players: Players = "heuristic",
    matches: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    out: Path | None = None,
    workers: int | None = None,
    actions: bool = False,
    solve: bool = False,
    par: bool = True,
    scheduler: str | None = None,
    overwrite: bool = False,
    resume: bool = False,
) -> Path: ...


@overload
def simulate(
    preset: str = "kout_bo_4",
    *,
    options: dict[str, Any] | None = None,
    players: Players = "heuristic",
    matches: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    actions: bool = False,
    solve: bool = False,
    par: bool = True,
    scheduler: str | None = None,
    overwrite: bool = False,
    resume: bool = False,
) -> Path | str: ...


def simulate(
    preset: str = "kout_bo_4",
    *,
    options: dict[str, Any] | None = None,
    players: Players = "heuristic",
    matches: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    actions: bool = False,
    solve: bool = False,
    par: bool = True,
    scheduler: str | None = None,
    overwrite: bool = False,
    resume: bool = False,
) -> Path | str:
    """Play ``matches`` whole matches (default 10,000) or ``hands`` independent hands (give one,
    not both; at most 10^10) and write a run folder.

    ``players``: one spec for every seat, two (team 0, team 1) or one per seat, e.g.
    ``"heuristic"`` or ``["heuristic", "random:pass=0.8"]``. ``actions=True`` also writes one row
    per decision. ``solve=True`` adds the double-dummy columns of every hand (``dd_*``, see
    docs/data.md and docs/solver.md; milliseconds a hand); with ``par=False`` the Kout par columns
    (``dd_par_contract``, ``dd_par_trump``) stay null, in less than half the time. ``scheduler``: a Dask scheduler address, or ``"local:N"``. Returns the run
    folder (a ``Path``, or the URL given as a string). Raises ``ValueError`` (one line) for bad
    input: unknown preset, option, player or parameter, a count outside 1..10^10 or both counts, a
    seed outside 0..2^63-1, an existing folder without ``overwrite``/``resume``, a ``resume`` with
    other settings, an unwritable path, a malformed scheduler, a path ``overwrite`` must not
    replace (a file, a folder that is not a run), a folder another writer holds (its lock); a
    failure while playing (a full disk) raises :class:`RunFailed` (a ``ValueError``) and leaves
    ``"status": "failed"``. Ctrl-C stops the run within a second or two and raises
    :class:`Interrupted` (a ``KeyboardInterrupt``); an interrupted or failed folder is resumable,
    and ``resume`` plays exactly its missing or damaged shards.
    """
    rules = get_rules(preset, options)
    lineup = lineup_of(rules, players)
    if hands is not None and matches is not None:
        raise ValueError("give either matches or hands, not both")
    if hands is None and matches is None:
        matches = DEFAULT_MATCHES
    unit = "hands" if hands is not None else "matches"
    count = check_count(unit, hands if hands is not None else matches)
    seed = check_seed(seed)
    if overwrite and resume:
        raise ValueError("pass either resume or overwrite, not both")
    if not par and not solve:
        raise ValueError("par=False (no par columns) goes with solve=True")
    workers = check_workers(workers) if scheduler is None else 1
    if scheduler is not None:
        _check_scheduler(scheduler)
    if out is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        out = Path("data") / "runs" / f"{preset}-seed{seed}-{stamp}"
    searching = any(seat.type.searching for seat in lineup.seats)
    if unit == "hands":
        shard_size = SHARD_HANDS_ACTIONS if actions else SHARD_HANDS
        if searching:
            shard_size = SHARD_SEARCH_HANDS
        elif solve:
            shard_size = SHARD_SOLVE_HANDS
    else:
        shard_size = SHARD_SEARCH_MATCHES if searching else SHARD_MATCHES
        if solve and not searching:
            shard_size = SHARD_SOLVE_MATCHES
    spec = RunSpec(
        rules.name,
        dict(rules.options),
        lineup.describe(),
        seed,
        unit,
        count,
        shard_size,
        bool(actions),
        bool(solve),
        bool(par),
    )
    settings: dict[str, Any] = {
        **asdict(spec),
        "family": rules.family.value,
        **provenance(),
    }
    store = Store(out)
    with opened(store, overwrite=overwrite, resume=resume) as (_, previous):
        if previous is not None:
            for key in SETTINGS:
                if previous.get(key, SETTING_DEFAULTS.get(key)) != settings[key]:
                    raise ValueError(
                        f"cannot resume {store.url}: it was run with {key}={previous.get(key)!r}, "
                        f"not {settings[key]!r}"
                    )
        refused = _play_run(store, spec, settings, rules, lineup, previous, workers, scheduler)
    if refused is not None:
        # refused input found late (an unreachable scheduler): no half-made folder stays behind
        remove_run_files(store)
        if not store.fs.ls(store.root, detail=False):
            store.fs.rmdir(store.root)
        raise refused
    return folder_path(out)


def _play_run(
    store: Store,
    spec: RunSpec,
    settings: dict[str, Any],
    rules: Rules,
    lineup: Any,
    previous: dict[str, Any] | None,
    workers: int,
    scheduler: str | None,
) -> ValueError | None:
    """Play the pending shards of a run folder opened for writing (its lock held), keeping the
    manifest in ``run.json``. Returns a ``ValueError`` to raise once the folder is given up (input
    refused before any shard was written); raises :class:`Interrupted` on Ctrl-C and a one-line
    ``ValueError`` for any other failure, ``run.json`` then saying ``"status": "failed"``."""
    earlier = float((previous or {}).get("seconds") or 0.0)
    shards = _resumable(store, spec, previous) if previous is not None else {}
    command = simulate_command(settings, store.url)
    manifest = Manifest(store, run_manifest(settings, command, status="running"), shards)
    try:
        for table in spec.tables:
            store.fs.makedirs(store.path(table), exist_ok=True)
        manifest.flush(force=True)
    except OSError as exc:
        raise ValueError(f"cannot create the output folder {store.url}: {one_line(exc)}") from None
    complete = complete_shards(store, spec, shards)
    counts: Summary | None = None
    started = time.perf_counter()

    def elapsed() -> float:
        return round(earlier + time.perf_counter() - started, 3)

    try:
        if scheduler is None:
            # compile first: "seconds" and the bar measure the play
            prepare(rules, lineup, spec.unit, solve=spec.solve)
        # the compile (or the cache load) apart from the play: "seconds" is the play alone
        compiled = (
            time.perf_counter() - started + float((previous or {}).get("compile_seconds") or 0)
        )
        manifest.update(compile_seconds=round(compiled, 3))
        started = time.perf_counter()
        pending = spec.shards(skip=complete)  # lazily: a shard is made when a worker is free
        bar = _progress(spec.count - sum(spec.shard(k)[2] for k in complete), spec.unit)
        try:
            if scheduler is not None:
                _run_dask(scheduler, store, spec, settings, pending, bar, manifest)
            else:
                counts = _run_shards(store, spec, settings, pending, workers, bar, manifest)
        finally:
            if bar is not None:
                bar.close()
    except KeyboardInterrupt:
        store.remove_temporaries()
        manifest.update(status="interrupted", seconds=elapsed())
        manifest.flush_last()
        done = len(complete_shards(store, spec, manifest.shards))
        raise Interrupted(store.url, done, spec.n_shards) from None
    except Exception as exc:
        store.remove_temporaries()
        if isinstance(exc, ValueError) and previous is None and not manifest.shards:
            return exc
        reason = one_line(exc)
        manifest.update(status="failed", error=reason, seconds=elapsed())
        manifest.flush_last()
        if isinstance(exc, ValueError):
            raise
        raise RunFailed(
            f"run {store.url} failed: {reason}; "
            f"kout-sim simulate with the same settings and --out {store.url} --resume finishes it"
        ) from exc
    manifest.meta.pop("error", None)
    manifest.update(status="complete", seconds=elapsed())
    if counts is not None and not complete:
        # counted as the shards were played: the summary need not read the tables again
        manifest.update(summary=counts)
    manifest.flush(force=True)
    if counts is None or complete:
        # resumed (or played on a cluster): the counts of the whole run, from its tables
        tables = load(store.url)
        manifest.update(
            summary=summary_counts(
                tables["hands"], tables.get("matches"), rules.family, rules.n_players
            )
        )
        manifest.flush(force=True)
    return None


class RunFailed(ValueError):
    """A run stopped by an error (a full disk, an unwritable folder): one line, and ``run.json``
    says ``"status": "failed"`` with the reason; ``resume=True`` finishes the run."""


def _run_shards(
    store: Store,
    spec: RunSpec,
    settings: dict[str, Any],
    pending: Iterable[tuple[int, int, int]],
    workers: int,
    bar: Any,
    manifest: Manifest,
) -> Summary:
    """Every worker thread plays, tabulates and writes whole shards in turn (the kernels, numpy
    and the parquet writer release the GIL), so the writing scales with the workers as the play
    does. Each holds one shard at a time (one more per worker waits, unstarted), so memory stays
    flat, and ``pending`` is drawn from only as shards finish. The main thread only waits (waking
    every :data:`WAKE_SECONDS`), so Ctrl-C reaches it at once: the queued shards are cancelled,
    the running ones given up at their next step (``KeyboardInterrupt`` is re-raised after). Each
    finished shard is entered in ``manifest``. Returns the summary counts."""
    family, n_seats = spec.rules.family, spec.rules.n_players
    # a searching shard moves the bar as it plays (per hand or match), the others when done
    stepwise = bar is not None and searching(spec)

    stop = threading.Event()

    def run(shard: tuple[int, int, int]) -> tuple[int, Summary, dict[str, Entry]]:
        k, start, size = shard
        step = bar.update if stepwise else None
        buffer = rows_buffer(spec, size)
        tables = play_shard(spec, settings, start, size, 1, buffer, step, stop=stop)
        # counted before the write: polars may raise KeyboardInterrupt in this thread after a
        # Ctrl-C, and a shard once written must come back with its manifest entries
        counts = shard_counts(tables, family, n_seats)
        check_stop(stop)
        return size, counts, write_shard(store, spec, k, tables)

    counts: Summary = {}

    def done(future: Future[tuple[int, Summary, dict[str, Entry]]]) -> None:
        size, part, entries = _result(future)
        merge_into(counts, part)
        manifest.add(entries)
        manifest.flush()
        if bar is not None and not stepwise:
            bar.update(size)

    pool = ThreadPoolExecutor(workers, thread_name_prefix="kout-sim-shard")
    in_flight: deque[Future[tuple[int, Summary, dict[str, Entry]]]] = deque()
    try:
        for shard in pending:
            in_flight.append(pool.submit(run, shard))
            if len(in_flight) >= 2 * workers:
                done(in_flight[0])
                in_flight.popleft()
        while in_flight:
            done(in_flight[0])  # popped once entered: a Ctrl-C while waiting keeps it listed
            in_flight.popleft()
    except BaseException:
        # an error or Ctrl-C: the queued shards are dropped, the running ones given up at their
        # next step (a fraction of a second); a shard already being written is written whole and
        # entered in the manifest
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        for future in in_flight:
            if not future.cancelled() and future.exception() is None:
                manifest.add(future.result()[2])
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return counts


WAKE_SECONDS = 0.1
"""How often the main thread wakes while it waits for a shard: a Ctrl-C (SIGINT) delivered to a
worker thread is acted on by the main thread only when it runs, so it must not sleep for a whole
shard."""


def _result(future: Future[Any]) -> Any:
    """``future.result()``, waking every :data:`WAKE_SECONDS` so that a Ctrl-C is seen at once."""
    while True:
        try:
            return future.result(timeout=WAKE_SECONDS)
        except TimeoutError:
            continue


def _check_scheduler(scheduler: str) -> None:
    """A malformed ``local:N`` is refused before the run folder is made."""
    if scheduler.startswith("local:"):
        n = scheduler.removeprefix("local:")
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"scheduler local:N needs a positive N, got {scheduler!r}")


def _run_dask(
    scheduler: str,
    store: Store,
    spec: RunSpec,
    settings: dict[str, Any],
    pending: Iterable[tuple[int, int, int]],
    bar: Any,
    manifest: Manifest,
) -> None:
    """Every pending shard as one task on a Dask cluster; the workers write the files. Two tasks
    per worker thread are queued at a time (``pending`` is drawn from as they finish); Ctrl-C
    cancels the queued ones."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask is a dependency
        raise ValueError("--scheduler needs dask[distributed]") from None
    cluster = None
    if scheduler.startswith("local:"):
        _check_scheduler(scheduler)
        n = scheduler.removeprefix("local:")
        cluster = LocalCluster(
            n_workers=int(n), threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    queued: set[Any] = set()
    try:
        shards = iter(pending)

        def submit(shard: tuple[int, int, int]) -> Any:
            k, start, size = shard
            future = client.submit(run_shard, store.url, spec, settings, k, start, size, pure=False)
            queued.add(future)
            return future

        window = 2 * max(1, sum(client.nthreads().values()))
        running = as_completed([submit(s) for s in islice(shards, window)])
        for future in running:
            done, entries = future.result()
            queued.discard(future)
            manifest.add(entries)
            manifest.flush()
            if bar is not None:
                bar.update(done)
            following = next(shards, None)
            if following is not None:
                running.add(submit(following))
    except KeyboardInterrupt:
        client.cancel(list(queued))
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
