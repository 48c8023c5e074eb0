"""Reading run folders: :func:`load` (every table as a polars LazyFrame), :func:`load_run` (with the
run's ``preset``, ``family`` and ``n_seats`` columns) and the checks made before anything is read.

A run is read only when ``run.json`` says it is complete and its shards are those of its manifest:
each present, with the bytes and the rows the writer entered (:func:`check_run`; the SHA-256 of
every shard with ``hashes=True``, as ``kout-sim verify`` does). A missing or damaged shard is
refused with a one-line :class:`~kout_sim.io.store.DamagedRun` naming it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import polars as pl

from .store import (
    RUN_FILE,
    TABLES,
    DamagedRun,
    Entry,
    RunFolderError,
    Store,
    check_files,
    part_name,
    read_meta,
)


def expected_shards(meta: Mapping[str, Any]) -> list[str] | None:
    """The shard files a complete ``simulate`` run holds (None for another kind of run)."""
    try:
        unit, count, size = meta["unit"], int(meta["count"]), int(meta["shard_size"])
    except (KeyError, TypeError, ValueError):
        return None
    if meta.get("kind") is not None or size < 1:
        return None
    tables = ["hands"] + ["matches"] * (unit == "matches") + ["actions"] * bool(meta.get("actions"))
    n = -(-count // size)
    return [f"{t}/{part_name(k)}" for t in tables for k in range(n)]


def _fix(run: str, meta: Mapping[str, Any]) -> str:
    """What to type to repair ``run``: its ``simulate ... --resume`` command."""
    if meta.get("kind") in ("joker_forks", "bid_forks"):
        return "write it again with kout-sim forks ... --overwrite"
    try:
        from ..commands import simulate_command

        return f"{simulate_command(dict(meta), run)} --resume replays it"
    except (KeyError, TypeError, ValueError):
        return f"kout-sim simulate with the run's settings and --out {run} --resume replays it"


def run_problems(store: Store, meta: Mapping[str, Any], hashes: bool = False) -> list[str]:
    """One line per missing, truncated or altered shard of the run (empty: the run is whole).
    A run written before the manifest existed (no ``"shards"``) is taken as it is."""
    shards: dict[str, Entry] | None = meta.get("shards")
    if shards is None:
        return []
    problems = check_files(store, shards, hashes=hashes)
    expected = expected_shards(meta)
    if expected is not None and meta.get("status") == "complete":
        problems += [
            f"{name}: missing (not in the manifest)" for name in expected if name not in shards
        ]
    return problems


def check_run(run: str | os.PathLike[str], hashes: bool = False) -> dict[str, Any]:
    """The ``run.json`` of a run folder, once the run is known to be complete and whole; else a
    one-line :class:`RunFolderError` (:class:`DamagedRun` naming the first bad shard)."""
    store = Store(run)
    if not store.exists(RUN_FILE):
        raise RunFolderError(f"{run} is not a run folder (no run.json)")
    meta = read_meta(store)
    if meta is None:
        raise RunFolderError(f"{run} is not a run folder: its run.json cannot be read")
    status = meta.get("status", "complete")
    if status != "complete":
        why = f": {meta['error']}" if meta.get("error") else ""
        raise RunFolderError(
            f"run {run} is incomplete (status {status!r}{why}); {_fix(str(run), meta)}"
        )
    problems = run_problems(store, meta, hashes)
    if problems:
        more = (
            f" (and {len(problems) - 1} more; kout-sim verify {run} lists them)"
            if len(problems) > 1
            else ""
        )
        raise DamagedRun(
            f"run {run} is damaged: {problems[0]}{more}; {_fix(str(run), meta)}", problems
        )
    return meta


def load(run: str | os.PathLike[str], *, verify: bool = True) -> dict[str, pl.LazyFrame]:
    """The tables of a run folder as polars LazyFrames: ``hands``, ``matches`` (match runs),
    ``actions`` (runs with the actions table), ``forks`` (``kout-sim forks`` folders) and
    ``bid_forks`` (``kout-sim forks --kind bid``).

    The run is checked first (:func:`check_run`: complete, every shard of its manifest present
    with its bytes and rows); ``verify=False`` reads whatever shards are there."""
    store = Store(run)
    if verify:
        meta = check_run(run)
    elif not store.exists(RUN_FILE):
        raise RunFolderError(f"{run} is not a run folder (no run.json)")
    else:
        meta = read_meta(store) or {}
    base = store.root if store.local else store.url.rstrip("/")
    shards: dict[str, Entry] | None = meta.get("shards") if verify else None
    tables = {}
    for name in TABLES:
        if shards is not None:
            files = sorted(f for f in shards if f.startswith(f"{name}/"))
            if files:
                tables[name] = pl.scan_parquet([f"{base}/{f}" for f in files])
        elif store.parts(name):
            tables[name] = pl.scan_parquet(f"{base}/{name}/*.parquet")
    return tables


def run_settings(run: str | os.PathLike[str]) -> dict[str, Any]:
    """The settings of a run folder (its ``run.json``)."""
    meta = read_meta(Store(run))
    if meta is None:
        raise RunFolderError(f"{run} is not a run folder: no readable run.json")
    return meta


def run_columns(preset: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The constant columns describing a run: ``preset``, ``family``, ``n_seats``."""
    from ..rules import get_rules

    rules = get_rules(preset, dict(options or {}))
    return {"preset": preset, "family": rules.family.value, "n_seats": rules.n_players}


def with_run_columns(frame: pl.LazyFrame | pl.DataFrame, preset: str) -> pl.LazyFrame:
    """``frame`` (lazy) with the columns ``preset``, ``family`` and ``n_seats`` added."""
    cols = run_columns(preset)
    return frame.lazy().with_columns(
        pl.lit(cols["preset"]).alias("preset"),
        pl.lit(cols["family"]).alias("family"),
        pl.lit(cols["n_seats"], dtype=pl.Int8).alias("n_seats"),
    )


def load_run(run: str | os.PathLike[str]) -> dict[str, pl.LazyFrame]:
    """:func:`load` of ``run``, every table with ``preset``, ``family`` and ``n_seats``."""
    settings = run_settings(run)
    return {name: with_run_columns(frame, settings["preset"]) for name, frame in load(run).items()}


def run_folders(folder: str | os.PathLike[str]) -> list[str]:
    """``folder`` if it is a run folder, else the run folders below it (a duel or study folder)."""
    store = Store(folder)
    if store.exists(RUN_FILE):
        return [str(folder)]
    if not store.fs.isdir(store.root):
        return []
    found = []
    for path in sorted(store.fs.find(store.root, withdirs=False)):
        if str(path).endswith("/" + RUN_FILE):
            found.append(str(path)[: -len(RUN_FILE) - 1])
    if store.local:
        return found
    return [f"{store.url.split('://', 1)[0]}://{p}" for p in found]


def verify(folder: str | os.PathLike[str]) -> tuple[list[str], list[str]]:
    """Every shard of the run folder ``folder`` (or of each run below it) checked byte for byte
    against its manifest: (the runs checked, one line per problem)."""
    runs = run_folders(folder)
    if not runs:
        raise RunFolderError(f"{folder} is not a run folder and holds none (no run.json)")
    problems = []
    for run in runs:
        store = Store(run)
        meta = read_meta(store)
        if meta is None:
            problems.append(f"{run}/{RUN_FILE}: cannot be read")
            continue
        status = meta.get("status", "complete")
        if status != "complete":
            problems.append(f"{run}: incomplete (status {status!r}); {_fix(run, meta)}")
        if "shards" not in meta:
            problems.append(f"{run}: no shard manifest (written before kout-sim kept one)")
            continue
        problems += [f"{run}/{line}" for line in run_problems(store, meta, hashes=True)]
    return runs, problems
