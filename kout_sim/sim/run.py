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
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import fsspec
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from .. import __version__
from ..engine import layout as L
from ..io.schema import actions_table, hands_table, matches_table
from ..rules import Rules, get_rules
from .batch import (
    Players,
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


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


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

    def shards(self) -> Iterator[tuple[int, int, int]]:
        """(shard k, first index, size) of every shard."""
        for k, start in enumerate(range(0, self.count, self.shard_size)):
            yield k, start, min(self.shard_size, self.count - start)

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


def play_shard(
    spec: RunSpec,
    metadata: dict[str, Any],
    start: int,
    size: int,
    workers: int,
    out: np.ndarray | None = None,
) -> dict[str, pa.Table]:
    """Play one shard and return its tables (``hands``, ``matches`` in match runs, ``actions``).

    ``out``: a result-row buffer for a hands shard (the tables may share its memory)."""
    rules = spec.rules
    family = rules.preset.family
    if spec.unit == "hands":
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
    matches: int | None = 10_000,
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
    """Play ``matches`` whole matches (or ``hands`` independent hands) and write a run folder.

    ``players``: one spec for every seat, two (team 0, team 1) or one per seat, e.g.
    ``"heuristic"`` or ``["heuristic", "random:pass=0.8"]``. ``actions=True`` also writes one row
    per decision. ``solve=True`` adds the double-dummy columns of every hand (``dd_*``, see
    docs/data.md and docs/solver.md; milliseconds a hand). ``scheduler``: a Dask scheduler address, or ``"local:N"``. Returns the run
    folder (a ``Path``, or the URL given as a string). Raises ``ValueError`` (one line) for bad input: unknown
    preset, option, player or parameter, non-positive counts, an existing folder without
    ``overwrite``/``resume``, a ``resume`` with other settings, an unwritable path.
    """
    rules = get_rules(preset, options)
    lineup = lineup_of(rules, players)
    unit = "hands" if hands is not None else "matches"
    count = _count(unit, hands if hands is not None else matches)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if overwrite and resume:
        raise ValueError("pass either resume or overwrite, not both")
    workers = check_workers(workers) if scheduler is None else 1
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
    _prepare(store, settings, overwrite, resume)
    if scheduler is None:
        prepare(
            rules, lineup, unit, solve=bool(solve)
        )  # compile first: "seconds" and the bar measure the play
    started = time.perf_counter()
    pending = [s for s in spec.shards() if not store.exists(*store.part(spec.marker, s[0]))]
    bar = _progress(sum(size for _, _, size in pending), unit)
    counts: list[Summary] | None = None
    try:
        if scheduler is not None:
            _run_dask(scheduler, store, spec, settings, pending, bar)
        else:
            counts = _run_shards(store, spec, settings, pending, workers, bar)
    finally:
        if bar is not None:
            bar.close()
    meta = {**settings, "status": "complete", "seconds": round(time.perf_counter() - started, 3)}
    if counts is not None and len(pending) == len(list(spec.shards())):
        # counted as the shards were played: summarize() need not read the tables again
        meta["summary"] = merge_summaries(counts)
    store.write_json(meta, "run.json")
    return str(out) if "://" in str(out) else Path(out)


SUMMARY_COLUMNS = (
    "malzoom",
    "contract",
    "made",
    "points_team0",
    "points_team1",
    "mode",
    "kaboot_team",
    "calls",  # Baloot: a Kawesh hand (RULES.md 3.2.7) is counted apart from the void ones
)


def _shard_counts(tables: dict[str, pa.Table], family: str) -> Summary:
    """The summary counts of one shard's tables (see :func:`summary_counts`)."""
    hands = tables["hands"]
    hands = hands.select([c for c in SUMMARY_COLUMNS if c in hands.column_names])
    matches = tables.get("matches")
    frame = pl.from_arrow(matches.select(["n_hands", "reason"])) if matches is not None else None
    return summary_counts(pl.from_arrow(hands), frame, family)  # type: ignore[arg-type]


def _run_shards(
    store: Store,
    spec: RunSpec,
    settings: dict[str, Any],
    pending: list[tuple[int, int, int]],
    workers: int,
    bar: Any,
) -> list[Summary]:
    """Every worker thread plays, tabulates and writes whole shards in turn (the kernels, numpy
    and the parquet writer release the GIL), so the writing scales with the workers as the play
    does. Each holds one shard at a time (two more per worker wait, unstarted), so memory stays
    flat. Returns the summary counts of the shards."""
    family = spec.rules.preset.family

    def run(shard: tuple[int, int, int]) -> tuple[int, Summary]:
        k, start, size = shard
        tables = play_shard(spec, settings, start, size, 1, _rows_buffer(spec, size))
        write_shard(store, spec, k, tables)
        return size, _shard_counts(tables, family)

    counts: list[Summary] = []

    def done(result: tuple[int, Summary]) -> None:
        counts.append(result[1])
        if bar is not None:
            bar.update(result[0])

    if workers == 1:
        for shard in pending:
            done(run(shard))
        return counts
    with ThreadPoolExecutor(workers) as pool:
        in_flight: list[Future[tuple[int, Summary]]] = []
        for shard in pending:
            in_flight.append(pool.submit(run, shard))
            if len(in_flight) >= 2 * workers:
                done(in_flight.pop(0).result())
        for future in in_flight:
            done(future.result())
    return counts


def _run_dask(
    scheduler: str,
    store: Store,
    spec: RunSpec,
    settings: dict[str, Any],
    pending: list[tuple[int, int, int]],
    bar: Any,
) -> None:
    """Every pending shard as one task on a Dask cluster; the workers write the files."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - dask is a dependency
        raise ValueError("--scheduler needs dask[distributed]") from None
    cluster = None
    if scheduler.startswith("local:"):
        n = scheduler.removeprefix("local:")
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"scheduler local:N needs a positive N, got {scheduler!r}")
        cluster = LocalCluster(
            n_workers=int(n), threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    try:
        futures = [
            client.submit(run_shard, store.url, spec, settings, k, start, size, pure=False)
            for k, start, size in pending
        ]
        for future in as_completed(futures):
            done = future.result()
            if bar is not None:
                bar.update(done)
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


def summary_counts(
    hands: pl.DataFrame | pl.LazyFrame, matches: pl.DataFrame | pl.LazyFrame | None, family: str
) -> Summary:
    """The counts :func:`summarize` prints, from the hands (and matches) of a run or of one shard.
    Counts of shards add up to the counts of the run (:func:`merge_summaries`)."""
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
            )
            .collect()
        )
        out["modes"] = {row[0]: [int(v) for v in row[1:]] for row in by.iter_rows()}
    else:
        by = (
            lazy.group_by("malzoom", "contract")
            .agg(
                pl.len().alias("n"),
                pl.col("made").sum().cast(pl.Int64).alias("made_k"),
                pl.col("made").count().cast(pl.Int64).alias("made_n"),
                (pl.col("points_team0") + pl.col("points_team1")).sum().cast(pl.Int64).alias("pts"),
            )
            .collect()
        )
        out["contracts"] = {
            f"{int(row[0])}:{row[1]}": [int(v) for v in row[2:]] for row in by.iter_rows()
        }
    if matches is not None:
        m = matches.lazy()
        lengths = m.group_by("n_hands").len().collect()
        reasons = m.group_by("reason").len().collect()
        out["n_hands"] = {str(k): [int(v)] for k, v in lengths.iter_rows()}
        out["reasons"] = {str(k): [int(v)] for k, v in reasons.iter_rows()}
    return out


def merge_summaries(parts: list[Summary]) -> Summary:
    """The counts of several shards added up."""
    total: Summary = {}
    for part in parts:
        for table, groups in part.items():
            into = total.setdefault(table, {})
            for key, counts in groups.items():
                into[key] = [a + b for a, b in zip(into.get(key, [0] * len(counts)), counts)]
    return total


def summarize(run: str | os.PathLike[str]) -> str:
    """A short text summary of a run: bid success by contract (Baloot: modes), and match lengths
    and endings. Read from the counts the run recorded in ``run.json`` as it played, or (a run
    resumed or played on a Dask cluster) computed from its tables."""
    meta = Store(run).read_json("run.json")
    counts: Summary | None = meta.get("summary")
    if counts is None:
        tables = load(run)
        counts = summary_counts(tables["hands"], tables.get("matches"), meta.get("family", ""))
    return format_summary(meta, counts, str(run))


def format_summary(meta: dict[str, Any], counts: Summary, run: str) -> str:
    """The text of :func:`summarize` from the run's settings and counts."""
    if meta.get("family") == "baloot":
        groups = counts.get("modes", {})
    else:
        groups = counts.get("contracts", {})
    total = sum(c[0] for c in groups.values())
    lines = [
        f"run {run}: preset {meta['preset']}, seed {meta['seed']}, {total:,} hands "
        f"in {meta['seconds']} s",
        "",
    ]
    if meta.get("family") == "baloot":
        lines += [
            "modes bought",
            f"{'mode':>8} {'hands':>10} {'share':>7} {'buyer fails':>12} {'kaboot':>7}",
        ]
        for mode in sorted(groups):
            n, fails, fails_n, kaboot = groups[mode]
            lines.append(
                f"{mode:>8} {n:>10,} {n / total:>7.1%} "
                f"{fails / fails_n if fails_n else 0:>12.1%} {kaboot / n:>7.1%}"
            )
    else:
        lines += [
            f"bid success by contract (players {' | '.join(dict.fromkeys(meta['players']))})",
            f"{'contract':>8} {'hands':>10} {'share':>7} {'made':>7} {'mean pts':>9}",
        ]
        labelled = {}
        for key, c in groups.items():
            malzoom, contract = key.split(":")
            labelled["5 forced" if malzoom == "1" else contract] = c
        for label in sorted(labelled):
            n, made, made_n, points = labelled[label]
            lines.append(
                f"{label:>8} {n:>10,} {n / total:>7.1%} "
                f"{made / made_n if made_n else 0:>7.1%} {points / n:>9.2f}"
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
