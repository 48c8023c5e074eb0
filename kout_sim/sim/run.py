"""``simulate``: play matches or hands and write them as a run folder of parquet shards.

A run folder holds ``run.json`` (the settings and the run metadata) and the tables as shards:
``matches/part-NNNNN.parquet``, ``hands/part-NNNNN.parquet`` and, with ``actions=True``,
``actions/part-NNNNN.parquet``. Shard ``k`` always holds the same index range, played on the keyed
random streams of those indices, so its rows never depend on the number of workers or on the
scheduler. Each file is written to a temporary name and renamed; the shard's last file (matches, or
hands in a hands run) marks it complete, so an interrupted run leaves only complete shards and
``resume=True`` plays exactly the missing ones.

The folder may be a local path or an fsspec URL; with ``scheduler`` the shards run as tasks of a
Dask distributed cluster (``"local:N"`` starts a local one with N worker processes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import fsspec
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from .._version import __version__
from ..engine import layout as L
from ..io.schema import actions_table, hands_table, matches_table
from ..rules import Rules, get_rules
from ..stats import wilson
from .batch import (
    Players,
    check_count,
    check_seed,
    check_workers,
    lineup_of,
    new_rows,
    play_hands,
    play_matches,
    prepare,
)

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
STATS_COLUMNS = ("match", "hand", "dealer", "bidder", "contract", "mode", "seat", "ply")
BITMASK_COLUMNS = frozenset(
    [f"hand_seat{s}" for s in range(6)] + ["joker_leads", "joker_forced_leads"]
)
PLAIN_STRING_COLUMNS = frozenset(["trick_winners", "trump"])
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
)
SETTING_DEFAULTS = {"solve": False}
"""Settings added after runs were first written: an older run.json has the default."""


def git_revision() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except OSError:
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


DEFAULT_MATCHES = 10_000
"""What ``simulate`` plays when given neither ``matches`` nor ``hands``."""


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (SIGINT): the shards already running were finished and written,
    the queued ones cancelled. ``out``: the run folder; ``done`` of ``total`` shards are complete,
    and ``resume=True`` (``--resume``) plays the rest."""

    def __init__(self, out: str, done: int, total: int) -> None:
        super().__init__(f"interrupted: {done:,} of {total:,} shards of {out} are complete")
        self.out, self.done, self.total = out, done, total


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

    @property
    def rules(self) -> Rules:
        return get_rules(self.preset, self.options)

    @property
    def n_shards(self) -> int:
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


def write_options(schema: pa.Schema) -> dict[str, Any]:
    """Parquet encodings chosen per column for write speed at a small size (measured on a million
    kout_bo_4 hands: 3.2 ms a small-integer column against 5 ms for lz4 alone or 10 ms for
    dictionary pages, at half the size).

    Small integers: byte-stream split, whose high-byte streams lz4 squeezes at almost no cost.
    Card bitmasks: plain and uncompressed (random bits do not compress). Labels and calls:
    dictionary pages (few distinct values). Trick winners: plain (many distinct strings); the trump
    letter: plain and lz4 (hashing a million one-letter strings costs more than squeezing them).
    Booleans and lists: lz4. Statistics only for the columns one filters on.
    """
    dictionary, encoding, compression = [], {}, {}
    for field in schema:
        name, kind = field.name, field.type
        compression[name] = "lz4"
        if pa.types.is_integer(kind):
            if name in BITMASK_COLUMNS:
                encoding[name] = "PLAIN"
                if name.startswith("hand_seat"):
                    compression[name] = "none"
            else:
                encoding[name] = "BYTE_STREAM_SPLIT"
        elif pa.types.is_string(kind):
            if name in PLAIN_STRING_COLUMNS:
                encoding[name] = "PLAIN"
                compression[name] = "none" if name == "trick_winners" else "lz4"
            else:
                dictionary.append(name)
                compression[name] = "none"
    return {
        "use_dictionary": dictionary,
        "column_encoding": encoding,
        "compression": compression,
        "write_statistics": [n for n in STATS_COLUMNS if n in schema.names],
        # values encoded 64k at a time rather than 1k: less per-batch overhead (7% of a write)
        "write_batch_size": 1 << 16,
    }


class Store:
    """The run folder on any fsspec filesystem, with atomic writes (temporary name, rename)."""

    def __init__(self, url: str | os.PathLike[str]) -> None:
        self.url = str(url)
        self.fs, self.root = fsspec.core.url_to_fs(self.url)

    def path(self, *parts: str) -> str:
        return "/".join([self.root.rstrip("/"), *parts])

    def exists(self, *parts: str) -> bool:
        return bool(self.fs.exists(self.path(*parts)))

    def write_table(self, table: pa.Table, *parts: str) -> None:
        final = self.path(*parts)
        tmp = self.path(*parts[:-1], f".{parts[-1]}.tmp-{os.getpid()}")
        with self.fs.open(tmp, "wb") as f:
            pq.write_table(table, f, **write_options(table.schema))
        self.fs.mv(tmp, final)

    def write_json(self, data: dict[str, Any], name: str) -> None:
        tmp = self.path(f".{name}.tmp-{os.getpid()}")
        with self.fs.open(tmp, "w") as f:
            f.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
        self.fs.mv(tmp, self.path(name))

    def read_json(self, name: str) -> dict[str, Any]:
        with self.fs.open(self.path(name), "r") as f:
            data: dict[str, Any] = json.loads(f.read())
        return data

    def part(self, table: str, k: int) -> tuple[str, str]:
        return table, f"part-{k:05d}.parquet"


def complete_shards(store: Store, spec: RunSpec) -> set[int]:
    """The shards of a run folder whose marker file is in place (one listing of the folder)."""
    done = set()
    for path in store.fs.glob(store.path(spec.marker, "part-*.parquet")):
        name = str(path).rsplit("/", 1)[-1]
        number = name.removeprefix("part-").removesuffix(".parquet")
        if number.isdigit() and int(number) < spec.n_shards:
            done.add(int(number))
    return done


def _prepare(store: Store, settings: dict[str, Any], overwrite: bool, resume: bool) -> None:
    """Create the run folder, or check that an existing one may be resumed or replaced."""
    if store.exists():
        if overwrite:
            store.fs.rm(store.root, recursive=True)
        elif resume:
            try:
                previous = store.read_json("run.json")
            except (OSError, ValueError):
                raise ValueError(f"cannot resume {store.url}: no readable run.json") from None
            for key in SETTINGS:
                if previous.get(key, SETTING_DEFAULTS.get(key)) != settings[key]:
                    raise ValueError(
                        f"cannot resume {store.url}: it was run with {key}={previous.get(key)!r}, "
                        f"not {settings[key]!r}"
                    )
            return
        else:
            raise ValueError(f"output folder {store.url} exists; pass --resume or --overwrite")
    try:
        for table in ("hands", "matches", "actions"):
            if table == "matches" and settings["unit"] != "matches":
                continue
            if table == "actions" and not settings["actions"]:
                continue
            store.fs.makedirs(store.path(table), exist_ok=True)
        store.write_json({**settings, "status": "running"}, "run.json")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ValueError(f"cannot create the output folder {store.url}: {reason}") from None


def _progress(total: int, unit: str) -> Any:
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {unit}", unit_scale=True, smoothing=0.1, file=sys.stderr)


_thread = threading.local()


def _rows_buffer(spec: RunSpec, size: int) -> np.ndarray | None:
    """This thread's result-row buffer for hand shards of ``spec``'s game family (None for a
    match run, or a shard of another size). Reusing it saves faulting in fresh pages for every shard (a fifth of
    the play time); the kernels rewrite every field a family uses for every hand, so nothing stale
    survives. The tables built from it are written before the thread plays its next shard."""
    if spec.unit != "hands" or size != spec.shard_size:
        return None
    key = (spec.rules.preset.family, size)
    cached = getattr(_thread, "rows", None)
    if cached is None or cached[0] != key:
        cached = (key, new_rows(size))
        _thread.rows = cached
    buffer: np.ndarray = cached[1]
    return buffer


SEARCH_STEP_HANDS = 2
"""Hands per kernel call in a searching hands shard (two keeps the one compiled buffer layout)."""


def _searching(spec: RunSpec) -> bool:
    return any(p.split(":", 1)[0] == "ismcts" for p in spec.players)


def _play_stepwise(
    spec: RunSpec, start: int, size: int, progress: Any
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
) -> dict[str, pa.Table]:
    """Play one shard and return its tables (``hands``, ``matches`` in match runs, ``actions``).

    ``out``: a result-row buffer for a hands shard (the tables may share its memory).
    ``progress``: called with the number of hands (matches) played as a searching shard advances
    (see :func:`_play_stepwise`); other shards are played in one call and report nothing."""
    rules = spec.rules
    family = rules.preset.family
    if progress is not None and _searching(spec):
        match_rows, rows, trace = _play_stepwise(spec, start, size, progress)
        tables = {"hands": hands_table(rows, metadata, rules, _dd(spec, rows))}
        if match_rows is not None:
            tables["matches"] = matches_table(match_rows, metadata, rules)
    elif spec.unit == "hands":
        trace = np.zeros((size, L.MAX_ACTIONS), np.int32) if spec.actions else None
        rows = play_hands(
            rules, size, spec.seed, spec.players, first=start, workers=workers, out=out, trace=trace
        )
        tables = {"hands": hands_table(rows, metadata, rules, _dd(spec, rows))}
    else:
        match_rows, rows, trace = play_matches(
            rules,
            size,
            spec.seed,
            spec.players,
            first=start,
            workers=workers,
            traced=spec.actions,
        )
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

    return dd_columns(rows, spec.rules)


def write_shard(store: Store, spec: RunSpec, k: int, tables: dict[str, pa.Table]) -> None:
    """Write a shard's tables, the marker table last."""
    for name in sorted(tables, key=lambda t: t == spec.marker):
        store.write_table(tables[name], *store.part(name, k))


def run_shard(
    url: str,
    spec: RunSpec,
    metadata: dict[str, Any],
    k: int,
    start: int,
    size: int,
    workers: int = 1,
) -> int:
    """Play and write shard ``k`` (the task a Dask worker runs); returns its size."""
    tables = play_shard(spec, metadata, start, size, workers, _rows_buffer(spec, size))
    write_shard(Store(url), spec, k, tables)
    return size


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
    scheduler: str | None = None,
    overwrite: bool = False,
    resume: bool = False,
) -> Path | str:
    """Play ``matches`` whole matches (default 10,000) or ``hands`` independent hands (give one,
    not both; at most 10^10) and write a run folder.

    ``players``: one spec for every seat, two (team 0, team 1) or one per seat, e.g.
    ``"heuristic"`` or ``["heuristic", "random:pass=0.8"]``. ``actions=True`` also writes one row
    per decision. ``solve=True`` adds the double-dummy columns of every hand (``dd_*``, see
    docs/data.md and docs/solver.md; milliseconds a hand). ``scheduler``: a Dask scheduler address, or ``"local:N"``. Returns the run
    folder (a ``Path``, or the URL given as a string). Raises ``ValueError`` (one line) for bad
    input: unknown preset, option, player or parameter, a count outside 1..10^10 or both counts, a
    seed outside 0..2^63-1, an existing folder without ``overwrite``/``resume``, a ``resume`` with
    other settings, an unwritable path, a malformed scheduler. Ctrl-C cancels the queued shards,
    finishes the running ones and raises :class:`Interrupted` (a ``KeyboardInterrupt``): the folder
    is then resumable.
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
    workers = check_workers(workers) if scheduler is None else 1
    if scheduler is not None:
        _check_scheduler(scheduler)
    if out is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        out = Path("data") / "runs" / f"{preset}-seed{seed}-{stamp}"
    searching = any(seat.name == "ismcts" for seat in lineup.seats)
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
    )
    settings: dict[str, Any] = {
        **asdict(spec),
        "family": rules.preset.family,
        "version": __version__,
        "git_revision": git_revision(),
    }
    store = Store(out)
    fresh = not (resume and store.exists())
    _prepare(store, settings, overwrite, resume)
    counts: Summary | None = None
    try:
        if scheduler is None:
            # compile first: "seconds" and the bar measure the play
            prepare(rules, lineup, unit, solve=bool(solve))
        started = time.perf_counter()
        complete = complete_shards(store, spec) if resume else set()
        pending = spec.shards(skip=complete)  # lazily: a shard is made when a worker is free
        bar = _progress(count - sum(spec.shard(k)[2] for k in complete), unit)
        try:
            if scheduler is not None:
                _run_dask(scheduler, store, spec, settings, pending, bar)
            else:
                counts = _run_shards(store, spec, settings, pending, workers, bar)
        finally:
            if bar is not None:
                bar.close()
    except KeyboardInterrupt:
        done = len(complete_shards(store, spec))
        raise Interrupted(str(out), done, spec.n_shards) from None
    except ValueError:
        # refused input found late (an unreachable scheduler): no half-made folder stays behind
        if fresh and not complete_shards(store, spec):
            store.fs.rm(store.root, recursive=True)
        raise
    meta = {**settings, "status": "complete", "seconds": round(time.perf_counter() - started, 3)}
    if counts is not None and not complete:
        # counted as the shards were played: summarize() need not read the tables again
        meta["summary"] = counts
    store.write_json(meta, "run.json")
    return str(out) if "://" in str(out) else Path(out)


SUMMARY_COLUMNS = (
    "bidder",
    "dealer",
    "calls",  # forced bids; Baloot: a Kawesh hand (RULES.md 3.2.7) is counted apart from the void ones
    "malzoom",
    "contract",
    "made",
    "points_team0",
    "points_team1",
    "mode",
    "kaboot_team",
    "gahwa",
    "forced_joker",
)


def _shard_counts(tables: dict[str, pa.Table], family: str, n_seats: int) -> Summary:
    """The summary counts of one shard's tables (see :func:`summary_counts`)."""
    hands = tables["hands"]
    hands = hands.select([c for c in SUMMARY_COLUMNS if c in hands.column_names])
    matches = tables.get("matches")
    frame = pl.from_arrow(matches.select(["n_hands", "reason"])) if matches is not None else None
    return summary_counts(pl.from_arrow(hands), frame, family, n_seats)  # type: ignore[arg-type]


def _run_shards(
    store: Store,
    spec: RunSpec,
    settings: dict[str, Any],
    pending: Iterable[tuple[int, int, int]],
    workers: int,
    bar: Any,
) -> Summary:
    """Every worker thread plays, tabulates and writes whole shards in turn (the kernels, numpy
    and the parquet writer release the GIL), so the writing scales with the workers as the play
    does. Each holds one shard at a time (one more per worker waits, unstarted), so memory stays
    flat, and ``pending`` is drawn from only as shards finish. The main thread only waits, so
    Ctrl-C reaches it at once: the queued shards are cancelled, the running ones finish and are
    written whole (``KeyboardInterrupt`` is re-raised after). Returns the summary counts."""
    family, n_seats = spec.rules.preset.family, spec.rules.n_players
    # a searching shard moves the bar as it plays (per hand or match), the others when done
    stepwise = bar is not None and _searching(spec)

    def run(shard: tuple[int, int, int]) -> tuple[int, Summary]:
        k, start, size = shard
        step = bar.update if stepwise else None
        tables = play_shard(spec, settings, start, size, 1, _rows_buffer(spec, size), step)
        write_shard(store, spec, k, tables)
        return size, _shard_counts(tables, family, n_seats)

    counts: Summary = {}

    def done(future: Future[tuple[int, Summary]]) -> None:
        size, part = future.result()
        merge_into(counts, part)
        if bar is not None and not stepwise:
            bar.update(size)

    pool = ThreadPoolExecutor(workers, thread_name_prefix="kout-sim-shard")
    in_flight: deque[Future[tuple[int, Summary]]] = deque()
    try:
        for shard in pending:
            in_flight.append(pool.submit(run, shard))
            if len(in_flight) >= 2 * workers:
                done(in_flight.popleft())
        while in_flight:
            done(in_flight.popleft())
    finally:
        # on an error or Ctrl-C: drop the queued shards, let the running ones finish writing
        pool.shutdown(wait=True, cancel_futures=True)
    return counts


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
            done = future.result()
            queued.discard(future)
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


def load(run: str | os.PathLike[str]) -> dict[str, pl.LazyFrame]:
    """The tables of a run folder as polars LazyFrames: ``hands``, ``matches`` (match runs),
    ``actions`` (runs with the actions table) and ``forks`` (``kout-sim forks`` folders)."""
    store = Store(run)
    if not store.exists("run.json"):
        raise ValueError(f"{run} is not a run folder (no run.json)")
    local = store.fs.protocol in ("file", ("file", "local"), "local") or "file" in store.fs.protocol
    base = store.root if local else store.url.rstrip("/")
    tables = {}
    for name in ("hands", "matches", "actions", "forks"):
        if store.exists(name) and store.fs.glob(store.path(name, "*.parquet")):
            tables[name] = pl.scan_parquet(f"{base}/{name}/*.parquet")
    return tables


Summary = dict[str, dict[str, list[int]]]
"""Additive counts behind :func:`summarize`: per table, a key (joined group values) -> counts."""

SUMMARY_TABLES = {"kout": "bids", "baloot": "buys"}
"""The table of bid counts in a summary, per family kind. Runs written before the summary showed
the bidding team's net points hold ``contracts`` / ``modes`` instead: they are counted again."""


def summary_counts(
    hands: pl.DataFrame | pl.LazyFrame,
    matches: pl.DataFrame | pl.LazyFrame | None,
    family: str,
    n_seats: int,
) -> Summary:
    """The counts :func:`summarize` prints, from the hands (and matches) of a run or of one shard.
    Counts of shards add up to the counts of the run (:func:`merge_summaries`).

    Per bid (Kout: forced or free, Malzoom, contract; Baloot: mode): hands, made (Baloot: failed),
    the hands with a made/failed result, kaboots (Baloot), and the count, sum and sum of squares of
    the bidding team's net points (``kout_sim.io.columns.hand_net_points``, the report's
    ``net_points``: null for an Inzili, a forced joker lead or a Gahwa), from which the mean and its
    interval follow."""
    from ..io.columns import forced_bid, hand_net_points

    net = hand_net_points(family).cast(pl.Int64)
    points = [
        net.count().cast(pl.Int64).alias("net_n"),
        net.sum().cast(pl.Int64).alias("net_sum"),
        (net * net).sum().cast(pl.Int64).alias("net_sq"),
    ]
    lazy = hands.lazy()
    out: Summary = {}
    if family == "baloot":
        by = (
            lazy.with_columns(
                # RULES.md 3.2.7: a Kawesh hand is void; it is counted apart from the passed-out ones
                pl.when(pl.col("calls").str.contains("kawesh"))
                .then(pl.lit("kawesh"))
                .otherwise(pl.col("mode").fill_null("void"))
                .alias("mode")
            )
            .group_by("mode")
            .agg(
                pl.len().alias("n"),
                (pl.col("made") == False).sum().cast(pl.Int64).alias("fails"),  # noqa: E712
                pl.col("made").count().cast(pl.Int64).alias("fails_n"),
                pl.col("kaboot_team").is_not_null().sum().cast(pl.Int64).alias("kaboot"),
                *points,
            )
            .collect()
        )
        out["buys"] = {row[0]: [int(v) for v in row[1:]] for row in by.iter_rows()}
    else:
        by = (
            lazy.with_columns(forced_bid(n_seats, family).alias("forced"))
            .group_by("forced", "malzoom", "contract")
            .agg(
                pl.len().alias("n"),
                pl.col("made").sum().cast(pl.Int64).alias("made_k"),
                pl.col("made").count().cast(pl.Int64).alias("made_n"),
                *points,
            )
            .collect()
        )
        out["bids"] = {
            f"{int(row[0])}:{int(row[1])}:{row[2]}": [int(v) for v in row[3:]]
            for row in by.iter_rows()
        }
    if matches is not None:
        m = matches.lazy()
        lengths = m.group_by("n_hands").len().collect()
        reasons = m.group_by("reason").len().collect()
        out["n_hands"] = {str(k): [int(v)] for k, v in lengths.iter_rows()}
        out["reasons"] = {str(k): [int(v)] for k, v in reasons.iter_rows()}
    return out


def merge_into(total: Summary, part: Summary) -> None:
    """Add the counts of ``part`` to ``total``."""
    for table, groups in part.items():
        into = total.setdefault(table, {})
        for key, counts in groups.items():
            into[key] = [a + b for a, b in zip(into.get(key, [0] * len(counts)), counts)]


def merge_summaries(parts: list[Summary]) -> Summary:
    """The counts of several shards added up."""
    total: Summary = {}
    for part in parts:
        merge_into(total, part)
    return total


def summarize(run: str | os.PathLike[str]) -> str:
    """A short text summary of a run: bid success by contract (Baloot: modes) with the bidding
    team's net points, and match lengths and endings. Read from the counts the run recorded in
    ``run.json`` as it played, or (a run resumed, played on a Dask cluster or written by an older
    version) computed from its tables."""
    meta = Store(run).read_json("run.json")
    family = meta.get("family") or get_rules(meta["preset"]).preset.family
    kind = "baloot" if family == "baloot" else "kout"
    counts: Summary | None = meta.get("summary")
    if counts is None or SUMMARY_TABLES[kind] not in counts:
        tables = load(run)
        n_seats = get_rules(meta["preset"], meta.get("options")).n_players
        counts = summary_counts(tables["hands"], tables.get("matches"), family, n_seats)
    return format_summary({**meta, "family": family}, counts, str(run))


def _mean_ci(n: int, total: int, squares: int) -> tuple[float, float, float] | None:
    """Mean and normal 95% interval of values given by their count, sum and sum of squares (the
    formula of ``analyses._common.mean_columns``)."""
    if n < 1:
        return None
    mean = total / n
    if n < 2:
        return mean, float("nan"), float("nan")
    variance = max(0.0, (squares - total * total / n) / (n - 1))
    half = 1.96 * (variance / n) ** 0.5
    return mean, mean - half, mean + half


def _points_text(n: int, total: int, squares: int) -> str:
    ci = _mean_ci(n, total, squares)
    if ci is None:
        return f"{'-':>8} {'':>15}"
    mean, low, high = ci
    interval = "" if low != low else f"{low:+.2f}..{high:+.2f}"
    return f"{mean:>+8.2f} {interval:>15}"


def _rate_text(k: int, n: int) -> str:
    if n < 1:
        return f"{'-':>7} {'':>13}"
    low, high = wilson(k, n)
    return f"{k / n:>7.1%} {f'{low:.1%}-{high:.1%}':>13}"


def format_summary(meta: dict[str, Any], counts: Summary, run: str) -> str:
    """The text of :func:`summarize` from the run's settings and counts."""
    family = meta.get("family", "")
    groups = counts.get(SUMMARY_TABLES["baloot" if family == "baloot" else "kout"], {})
    total = sum(c[0] for c in groups.values())
    lines = [
        f"run {run}: preset {meta['preset']}, seed {meta['seed']}, {total:,} hands "
        f"in {meta['seconds']} s",
        f"players {' | '.join(dict.fromkeys(meta['players']))}",
        "",
    ]
    points_header = f"{'net pts':>8} {'95% CI':>15}"
    if family == "baloot":
        lines += [
            "modes bought (buyer fails, kaboot: rates with 95% Wilson intervals; net pts: the "
            "buyer team's points minus the other team's, a hand)",
            f"{'mode':>8} {'hands':>10} {'share':>7} {'buyer fails':>12} {'95% CI':>13} "
            f"{'kaboot':>7} {points_header}",
        ]
        for mode in sorted(groups):
            n, fails, fails_n, kaboot, net_n, net_sum, net_sq = groups[mode]
            lines.append(
                f"{mode:>8} {n:>10,} {n / total:>7.1%} {_rate_text(fails, fails_n):>26} "
                f"{kaboot / n:>7.1%} {_points_text(net_n, net_sum, net_sq)}"
            )
    else:
        rows = []
        for key, c in groups.items():
            forced, malzoom, contract = key.split(":")
            if forced == "1":
                label = f"{contract} Malzoom" if malzoom == "1" else f"{contract} forced"
            else:
                label = contract
            rows.append((forced == "1", int(contract), label, c))  # free bids first
        lines += [
            "bid success by contract, and the bidding team's net points a hand (its points minus "
            "the other team's), with 95% intervals",
            f"{'contract':>10} {'hands':>10} {'share':>7} {'made':>7} {'95% CI':>13} "
            f"{points_header}",
        ]
        shown_forced = False
        for is_forced, _, label, c in sorted(rows):
            if is_forced and not shown_forced:
                lines.append(
                    "forced: the dealer's bid after every other seat passed (RULES.md 1.3, 2.3)"
                )
                shown_forced = True
            n, made, made_n, net_n, net_sum, net_sq = c
            lines.append(
                f"{label:>10} {n:>10,} {n / total:>7.1%} {_rate_text(made, made_n)} "
                f"{_points_text(net_n, net_sum, net_sq)}"
            )
        if family == "kout_bh":
            lines.append(
                "an Inzili (8) wins or loses the match at once and a forced joker lead loses it: "
                "no net points (RULES.md 2.8, 2.10)"
            )
    if "n_hands" in counts:
        lengths = sorted((int(k), c[0]) for k, c in counts["n_hands"].items())
        n_matches = sum(c for _, c in lengths)
        mean = sum(k * c for k, c in lengths) / n_matches
        lines += [
            "",
            f"{n_matches:,} matches, mean {mean:.2f} hands per match "
            f"(median {_median(lengths, n_matches):.0f}, max {lengths[-1][0]})",
            "match endings: "
            + ", ".join(
                f"{reason} {c[0] / n_matches:.1%}"
                for reason, c in sorted(counts["reasons"].items())
            ),
        ]
    return "\n".join(lines)


def _median(histogram: list[tuple[int, int]], n: int) -> float:
    """The median of the values of a sorted (value, count) histogram of ``n`` values."""

    def nth(i: int) -> int:
        seen = 0
        for value, c in histogram:
            seen += c
            if i < seen:
                return value
        return histogram[-1][0]

    return (nth((n - 1) // 2) + nth(n // 2)) / 2
