"""The run folder on disk: atomic writes, the shard manifest, the writer's lock, resume and repair.

A run folder is written by ``simulate``, ``forks``, ``duel`` (its ``ab/`` and ``ba/`` runs) and
``study`` (one run folder per simulation) through :class:`Store`, and only so:

- every file is written to a temporary name (``.NAME.tmp-PID``) and renamed into place; the
  temporary file is removed on every error path, and a resume removes those of earlier attempts;
- each shard file renamed into place is entered in the manifest of ``run.json`` (``"shards"``: its
  rows, bytes and SHA-256), so a reader can tell a complete run from one with a missing, truncated
  or altered shard (:func:`kout_sim.io.read.check_run`, ``kout-sim verify``);
- ``run.json`` names the writer (``"writer": "kout-sim"``); ``--overwrite`` replaces only a folder
  whose ``run.json`` names it, and removes only the files of the run (:func:`remove_run_files`);
- a lock file (``.lock``: the writer's pid and host) keeps a second writer out while one writes; a
  lock left by a process that no longer runs on this host is recognised as stale and taken over.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq

WRITER = "kout-sim"
"""The ``writer`` of every ``run.json`` this project writes."""
RUN_FILE = "run.json"
LOCK_FILE = ".lock"
TABLES = ("hands", "matches", "actions", "forks", "bid_forks")
"""The table folders a run folder may hold (``part-NNNNN.parquet`` shards each)."""
MANIFEST_EVERY = 1.0
"""Seconds between two rewrites of ``run.json`` while a run adds shards to its manifest (a shard
renamed into place but not yet entered is replayed by ``--resume``: the rows are the same)."""

STATS_COLUMNS = ("match", "hand", "dealer", "bidder", "contract", "mode", "seat", "ply")
BITMASK_COLUMNS = frozenset(
    [f"hand_seat{s}" for s in range(6)] + ["joker_leads", "joker_forced_leads"]
)
PLAIN_STRING_COLUMNS = frozenset(["trick_winners", "trump"])

Entry = dict[str, Any]
"""A manifest entry: ``{"rows": int, "bytes": int, "sha256": str}``."""


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


class RunFolderError(ValueError):
    """A run folder that cannot be used as asked: not a run, locked, damaged (one-line message)."""


class DamagedRun(RunFolderError):
    """A run with missing, truncated or altered shards. ``problems``: one line per shard."""

    def __init__(self, message: str, problems: list[str]) -> None:
        super().__init__(message)
        self.problems = problems


def one_line(exc: BaseException) -> str:
    """The reason of an error as one line (an ``OSError`` by its ``strerror``)."""
    if isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror + (f": {exc.filename}" if exc.filename else "")
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(text.split())


class _HashingFile:
    """A write-only file that hashes and counts what passes through it to ``raw``."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.sha = hashlib.sha256()
        self.size = 0
        self.closed = False

    def write(self, data: bytes) -> int:
        self.sha.update(data)
        self.size += len(data)
        self.raw.write(data)
        return len(data)

    def flush(self) -> None:
        self.raw.flush()

    def tell(self) -> int:
        return self.size

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def close(self) -> None:
        self.closed = True


def file_entry(fs: Any, path: str) -> Entry:
    """The manifest entry of a file already written (its bytes are read once)."""
    sha = hashlib.sha256()
    size = 0
    with fs.open(path, "rb") as f:
        while chunk := f.read(1 << 22):
            sha.update(chunk)
            size += len(chunk)
    return {"rows": footer_rows(fs, path), "bytes": size, "sha256": sha.hexdigest()}


def footer_rows(fs: Any, path: str) -> int:
    """The row count of a parquet file, from its footer."""
    with fs.open(path, "rb") as f:
        return int(pq.read_metadata(f).num_rows)


class Store:
    """The run folder on any fsspec filesystem, with atomic writes (temporary name, rename)."""

    def __init__(self, url: str | os.PathLike[str]) -> None:
        self.url = str(url)
        self.fs, self.root = fsspec.core.url_to_fs(self.url)

    @property
    def local(self) -> bool:
        """Whether the store is on the local filesystem."""
        protocol = self.fs.protocol
        names = protocol if isinstance(protocol, tuple | list) else (protocol,)
        return "file" in names or "local" in names

    def path(self, *parts: str) -> str:
        """The path of ``parts`` inside the run folder."""
        return "/".join([self.root.rstrip("/"), *parts])

    def exists(self, *parts: str) -> bool:
        """Whether ``parts`` exists in the run folder."""
        return bool(self.fs.exists(self.path(*parts)))

    def _temporary(self, *parts: str) -> str:
        return self.path(*parts[:-1], f".{parts[-1]}.tmp-{os.getpid()}")

    def _remove(self, path: str) -> None:
        with contextlib.suppress(OSError):
            if self.fs.exists(path):
                self.fs.rm(path)

    def write_table(self, table: pa.Table, *parts: str) -> Entry:
        """Write ``table`` as the parquet file ``parts`` atomically (the encodings of
        :func:`write_options`); its manifest entry. The temporary file is removed on any error (a
        full disk, Ctrl-C)."""
        options = write_options(table.schema)
        tmp = self._temporary(*parts)
        try:
            with self.fs.open(tmp, "wb") as raw:
                sink = _HashingFile(raw)
                pq.write_table(table, sink, **options)
            self.fs.mv(tmp, self.path(*parts))
        except BaseException:
            self._remove(tmp)
            raise
        return {"rows": table.num_rows, "bytes": sink.size, "sha256": sink.sha.hexdigest()}

    def write_text(self, text: str, name: str) -> None:
        """Write the text file ``name`` atomically (removing the temporary file on any error)."""
        tmp = self._temporary(name)
        try:
            with self.fs.open(tmp, "w") as f:
                f.write(text)
            self.fs.mv(tmp, self.path(name))
        except BaseException:
            self._remove(tmp)
            raise

    def write_json(self, data: dict[str, Any], name: str) -> None:
        """Write ``data`` as the JSON file ``name``, atomically (:meth:`write_text`)."""
        self.write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n", name)

    def read_json(self, name: str) -> dict[str, Any]:
        """The content of the JSON file ``name``."""
        with self.fs.open(self.path(name), "r") as f:
            data: dict[str, Any] = json.loads(f.read())
        return data

    def part(self, table: str, k: int) -> tuple[str, str]:
        """The path parts of shard ``k`` of ``table``."""
        return table, part_name(k)

    def parts(self, table: str) -> dict[str, int]:
        """The shard files of ``table`` (``table/part-NNNNN.parquet``) and their sizes."""
        if not self.exists(table):
            return {}
        found = {}
        for info in self.fs.ls(self.path(table), detail=True):
            name = str(info["name"]).rstrip("/").rsplit("/", 1)[-1]
            if name.startswith("part-") and name.endswith(".parquet"):
                found[f"{table}/{name}"] = int(info.get("size") or 0)
        return found

    def temporaries(self) -> list[str]:
        """The temporary files of this store's writers (``.NAME.tmp-PID``), at the top and in the
        table folders."""
        found = []
        for folder in ("", *TABLES):
            where = self.path(folder) if folder else self.root
            if not self.fs.isdir(where):
                continue
            for name in self.fs.ls(where, detail=False):
                base = str(name).rstrip("/").rsplit("/", 1)[-1]
                if base.startswith(".") and ".tmp-" in base:
                    found.append(str(name))
        return found

    def remove_temporaries(self) -> None:
        """Remove the temporary files of :meth:`temporaries`."""
        for path in self.temporaries():
            self._remove(path)


def part_name(k: int) -> str:
    """The file name of shard ``k``: ``part-NNNNN.parquet``."""
    return f"part-{k:05d}.parquet"


def shard_number(name: str) -> int | None:
    """``k`` of ``table/part-k.parquet`` (None for another name)."""
    base = name.rsplit("/", 1)[-1]
    number = base.removeprefix("part-").removesuffix(".parquet")
    return int(number) if number.isdigit() else None


def read_meta(store: Store) -> dict[str, Any] | None:
    """The ``run.json`` of ``store`` (None if there is none or it cannot be read as an object)."""
    try:
        meta = store.read_json(RUN_FILE)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return meta if isinstance(meta, dict) else None


def is_run_meta(meta: dict[str, Any] | None) -> bool:
    """Whether ``meta`` is a ``run.json`` this project wrote (older runs: ``preset`` and
    ``version`` without ``writer``)."""
    if meta is None:
        return False
    if "writer" in meta:
        return bool(meta["writer"] == WRITER)
    return "preset" in meta and "version" in meta


# ------------------------------------------------------------------------------------- the lock


class Lock:
    """The writer's lock on a run folder: ``.lock`` holding the pid, host and start time.

    Taken with an exclusive create where the filesystem has one (local folders). A lock whose pid
    no longer runs on this host is stale and taken over; any other held lock is refused with a
    one-line :class:`RunFolderError`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.path = store.path(LOCK_FILE)
        self.mine = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}
        self.held = False

    def _holder(self) -> dict[str, Any] | None:
        try:
            with self.store.fs.open(self.path, "r") as f:
                data = json.loads(f.read())
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        return data if isinstance(data, dict) else None

    def _create(self) -> bool:
        text = json.dumps(self.mine) + "\n"
        if self.store.local:
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                return False
            with os.fdopen(fd, "w") as f:
                f.write(text)
            return True
        if self.store.fs.exists(self.path):
            return False
        with self.store.fs.open(self.path, "w") as f:
            f.write(text)
        return True

    def acquire(self) -> None:
        """Take the lock, taking a stale one over; :class:`RunFolderError` when another writer
        holds it."""
        for _ in range(2):
            if self._create():
                self.held = True
                return
            holder = self._holder()
            if holder is None or _stale(holder):
                self.store._remove(self.path)
                continue
            started = holder.get("started")
            when = (
                time.strftime(" since %Y-%m-%d %H:%M:%S UTC", time.gmtime(started))
                if isinstance(started, int | float)
                else ""
            )
            raise RunFolderError(
                f"{self.store.url} is being written by pid {holder.get('pid')} on host "
                f"{holder.get('host')}{when}; wait for it, or remove {self.path} if that "
                "process no longer runs"
            )
        raise RunFolderError(f"cannot take the lock {self.path}")

    def release(self) -> None:
        """Give the lock up: remove ``.lock`` if it is still this writer's."""
        if self.held:
            holder = self._holder()
            if holder is None or (
                holder.get("pid") == self.mine["pid"] and holder.get("host") == self.mine["host"]
            ):
                self.store._remove(self.path)
            self.held = False


def _stale(holder: dict[str, Any]) -> bool:
    """A lock of this host whose process no longer runs."""
    pid = holder.get("pid")
    if holder.get("host") != socket.gethostname() or not isinstance(pid, int) or pid <= 0:
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


# ------------------------------------------------------------------------- opening for writing


def remove_run_files(store: Store, extra: Iterable[str] = ()) -> None:
    """Remove the files of the run in ``store`` (``run.json``, the table shards, temporary files,
    ``extra``), and the table folders left empty. Any other file stays."""
    for name in (RUN_FILE, *extra):
        store._remove(store.path(name))
    store.remove_temporaries()
    for table in TABLES:
        for name in store.parts(table):
            store._remove(store.path(name))
        where = store.path(table)
        with contextlib.suppress(OSError):
            if store.fs.isdir(where) and not store.fs.ls(where):
                store.fs.rmdir(where)


def contents(store: Store) -> list[str]:
    """The names in the folder of ``store`` but its lock and the temporary files of its writers."""
    names = [str(p).rstrip("/").rsplit("/", 1)[-1] for p in store.fs.ls(store.root, detail=False)]
    return sorted(n for n in names if n != LOCK_FILE and not (n.startswith(".") and ".tmp-" in n))


def check_replaceable(store: Store, what: str = "run folder") -> dict[str, Any] | None:
    """Refuse (one line) a path ``--overwrite`` must not replace: a file, or a non-empty folder
    without a ``run.json`` this project wrote. Returns that ``run.json`` (None: an empty folder)."""
    if store.fs.exists(store.root) and not store.fs.isdir(store.root):
        raise RunFolderError(f"{store.url} is a file, not a {what}; not replacing it")
    meta = read_meta(store)
    if is_run_meta(meta):
        return meta
    if contents(store):
        raise RunFolderError(
            f"{store.url} is not a {what} written by kout-sim (no run.json naming it); "
            "not replacing it"
        )
    return None


@contextlib.contextmanager
def opened(
    store: Store, *, overwrite: bool, resume: bool
) -> Iterator[tuple[Lock, dict[str, Any] | None]]:
    """The run folder opened for writing, its lock held: created, or checked for a resume (the
    previous ``run.json``, or None if there is none), or its run files removed (``overwrite``).
    The lock is released on leaving."""
    if overwrite and resume:
        raise ValueError("pass either resume or overwrite, not both")
    previous: dict[str, Any] | None = None
    existed = store.exists()
    if existed:
        if not store.fs.isdir(store.root):
            raise RunFolderError(f"{store.url} is a file, not a run folder; not replacing it")
        if overwrite:
            check_replaceable(store)
        elif resume:
            previous = read_meta(store)
            if previous is not None and not is_run_meta(previous):
                raise RunFolderError(
                    f"cannot resume {store.url}: its run.json is not a kout-sim run"
                )
            if previous is None and contents(store):
                raise RunFolderError(f"cannot resume {store.url}: no readable run.json")
        elif contents(store):
            raise RunFolderError(f"output folder {store.url} exists; pass --resume or --overwrite")
    try:
        store.fs.makedirs(store.root, exist_ok=True)
    except OSError as exc:
        raise RunFolderError(
            f"cannot create the output folder {store.url}: {one_line(exc)}"
        ) from None
    lock = Lock(store)
    lock.acquire()
    try:
        if overwrite:
            remove_run_files(store)
        elif resume:
            store.remove_temporaries()
        yield lock, previous
    finally:
        lock.release()


def folder_path(out: str | os.PathLike[str]) -> Path | str:
    """A folder written, as its writer returns it: an fsspec URL as the string given, a local
    folder as a ``Path``."""
    return str(out) if "://" in str(out) else Path(out)


# ------------------------------------------------------------------------------- the manifest


class Manifest:
    """The shard entries of a run being written, kept in ``run.json`` (``"shards"``).

    :meth:`add` enters the files of a shard once they are in place; :meth:`flush` rewrites
    ``run.json`` at most every :data:`MANIFEST_EVERY` seconds (``force``: now)."""

    def __init__(
        self, store: Store, meta: dict[str, Any], shards: dict[str, Entry] | None = None
    ) -> None:
        self.store = store
        self.meta = meta
        self.shards: dict[str, Entry] = dict(shards or {})
        self.written = 0.0
        self.dirty = True

    def add(self, entries: dict[str, Entry]) -> None:
        """Enter the files of a shard now in place."""
        self.shards.update(entries)
        self.dirty = True

    def drop(self, names: Iterable[str]) -> None:
        """Forget the shard entries ``names``."""
        for name in names:
            self.shards.pop(name, None)
        self.dirty = True

    def update(self, **fields: Any) -> None:
        """Set fields of the run's metadata (written at the next flush)."""
        self.meta.update(fields)
        self.dirty = True

    def flush(self, force: bool = False) -> None:
        """Rewrite ``run.json`` if it changed, at most every :data:`MANIFEST_EVERY` seconds
        (``force``: now)."""
        now = time.monotonic()
        if not self.dirty or (not force and now - self.written < MANIFEST_EVERY):
            return
        self.store.write_json(self.document(), RUN_FILE)
        self.written, self.dirty = now, False

    def flush_last(self) -> None:
        """Write the final status of a run that stops on an error, even on a full disk: atomically
        when there is room, else (a local folder) in place over the old ``run.json``, padded with
        spaces to its size, so that no new block is needed and the file is never half-written.
        Nothing is raised: the error that stopped the run is the one the caller reports."""
        try:
            self.flush(force=True)
            return
        except OSError:
            pass
        from fsspec.implementations.local import LocalFileSystem

        if not isinstance(self.store.fs, LocalFileSystem):
            return
        path = self.store.path(RUN_FILE)
        with contextlib.suppress(OSError, ValueError):
            size = os.path.getsize(path)
            doc = self.document()
            with open(path, "rb") as f:
                # the file on disk with only the status changed: its shard list may be older (a
                # resume checks the shard files against it), but compact it fits in the indented room
                on_disk = json.loads(f.read())
            status = {k: self.meta[k] for k in ("status", "error", "seconds") if k in self.meta}
            candidates = (
                json.dumps(doc, indent=2, sort_keys=True, default=str),
                json.dumps(doc, default=str),
                json.dumps({**on_disk, **status}, default=str),
            )
            for text in candidates:
                data = text.encode()
                if len(data) < size:
                    with open(path, "r+b") as f:
                        f.write(data + b" " * (size - len(data) - 1) + b"\n")
                    self.dirty = False
                    return

    def document(self) -> dict[str, Any]:
        """The content of ``run.json``: the metadata, the writer and the shard entries."""
        return {**self.meta, "writer": WRITER, "shards": dict(sorted(self.shards.items()))}


def check_files(store: Store, shards: dict[str, Entry], hashes: bool = False) -> list[str]:
    """One line per shard of the manifest ``shards`` that is missing, truncated or altered, and per
    shard file the manifest does not hold. Sizes and the row counts of the parquet footers are
    checked; ``hashes``: the SHA-256 of every file too (reads every byte)."""
    problems = []
    present: dict[str, int] = {}
    for table in {name.split("/", 1)[0] for name in shards} | set(TABLES):
        present.update(store.parts(table))
    for name, entry in sorted(shards.items()):
        if name not in present:
            problems.append(f"{name}: missing")
            continue
        size, want = present[name], int(entry.get("bytes", -1))
        if size != want:
            how = "truncated" if size < want else "altered"
            problems.append(f"{name}: {how} ({size:,} bytes, the manifest says {want:,})")
            continue
        try:
            rows = footer_rows(store.fs, store.path(name))
        except (OSError, pa.ArrowException, ValueError):
            problems.append(f"{name}: damaged (not a readable parquet file)")
            continue
        if rows != entry.get("rows"):
            problems.append(
                f"{name}: altered ({rows:,} rows, the manifest says {entry.get('rows')})"
            )
            continue
        if hashes:
            try:
                digest = file_entry(store.fs, store.path(name))["sha256"]
            except (OSError, pa.ArrowException, ValueError) as exc:
                problems.append(f"{name}: damaged ({one_line(exc)})")
                continue
            if digest != entry.get("sha256"):
                problems.append(f"{name}: altered (its SHA-256 differs from the manifest's)")
    for name in sorted(set(present) - set(shards)):
        problems.append(f"{name}: not in the manifest (not written by this run)")
    return problems
