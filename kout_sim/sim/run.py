"""``simulate``: play random matches or hands and write them as a run folder of parquet shards.

A run folder holds ``run.json`` (the settings and the run metadata) and the tables as shards:
``matches/part-NNNNN.parquet`` and ``hands/part-NNNNN.parquet``. Shard ``k`` always holds the same
index range, played on the keyed random streams of those indices, so its rows never depend on the
number of workers. Each shard is written to a temporary name and renamed: an interrupted run leaves
only complete shards, and ``resume=True`` plays exactly the missing ones.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq

from .. import __version__
from ..io.schema import hands_table, matches_table
from ..rules import Rules, get_rules
from .batch import check_workers, play_random_hands, play_random_matches

SHARD_MATCHES = 4_096
SHARD_HANDS = 1 << 20
SETTINGS = ("preset", "options", "players", "seed", "unit", "count", "shard_size")


def _git_revision() -> str | None:
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


def _write_atomic(table: Any, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def _write_json(data: dict[str, Any], path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, path)


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


def _prepare(out: Path, settings: dict[str, Any], overwrite: bool, resume: bool) -> None:
    """Create the run folder, or check that an existing one may be resumed or replaced."""
    if out.exists():
        if overwrite:
            shutil.rmtree(out)
        elif resume:
            try:
                previous = json.loads((out / "run.json").read_text())
            except (OSError, ValueError):
                raise ValueError(f"cannot resume {out}: no readable run.json") from None
            for key in SETTINGS:
                if previous.get(key) != settings[key]:
                    raise ValueError(
                        f"cannot resume {out}: it was run with {key}={previous.get(key)!r}, "
                        f"not {settings[key]!r}"
                    )
            return
        else:
            raise ValueError(f"output folder {out} exists; pass --resume or --overwrite")
    try:
        (out / "hands").mkdir(parents=True)
        if settings["unit"] == "matches":
            (out / "matches").mkdir()
    except OSError as exc:
        raise ValueError(f"cannot create the output folder {out}: {exc.strerror}") from None
    _write_json({**settings, "status": "running"}, out / "run.json")


def _shards(count: int, size: int) -> Iterator[tuple[int, int, int]]:
    for k, start in enumerate(range(0, count, size)):
        yield k, start, min(size, count - start)


def _progress(total: int, unit: str) -> Any:
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=f" {unit}", unit_scale=True, smoothing=0.1, file=sys.stderr)


def simulate(
    preset: str = "kout_bo_4",
    *,
    options: dict[str, Any] | None = None,
    matches: int | None = 10_000,
    hands: int | None = None,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    overwrite: bool = False,
    resume: bool = False,
) -> Path:
    """Play ``matches`` whole random matches (or ``hands`` independent hands) and write a run.

    Returns the run folder. Raises ``ValueError`` (one line) for bad input: unknown preset or
    option, non-positive counts, an existing folder without ``overwrite``/``resume``, a ``resume``
    with other settings, an unwritable path.
    """
    rules = get_rules(preset, options)
    unit = "hands" if hands is not None else "matches"
    count = _count(unit, hands if hands is not None else matches)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if overwrite and resume:
        raise ValueError("pass either resume or overwrite, not both")
    workers = check_workers(workers)
    if out is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        out = Path("data") / "runs" / f"{preset}-seed{seed}-{stamp}"
    out = Path(out)
    settings: dict[str, Any] = {
        "preset": rules.name,
        "family": rules.preset.family,
        "options": dict(rules.options),
        "players": "random",
        "seed": seed,
        "unit": unit,
        "count": count,
        "shard_size": SHARD_HANDS if unit == "hands" else SHARD_MATCHES,
        "version": __version__,
        "git_revision": _git_revision(),
    }
    _prepare(out, settings, overwrite, resume)
    started = time.perf_counter()
    pending = [
        shard
        for shard in _shards(count, settings["shard_size"])
        if not (out / unit / f"part-{shard[0]:05d}.parquet").exists()
    ]
    bar = _progress(sum(size for _, _, size in pending), unit)
    try:
        if unit == "hands":
            _run_hand_shards(rules, settings, out, pending, workers, bar)
        else:
            _run_match_shards(rules, settings, out, pending, workers, bar)
    finally:
        if bar is not None:
            bar.close()
    meta = {**settings, "status": "complete", "seconds": round(time.perf_counter() - started, 3)}
    _write_json(meta, out / "run.json")
    return out


def _run_hand_shards(
    rules: Rules,
    settings: dict[str, Any],
    out: Path,
    pending: list[tuple[int, int, int]],
    workers: int,
    bar: Any,
) -> None:
    """Hand shards: each is played on every worker; writing shard k overlaps playing shard k+1."""
    seed = settings["seed"]

    def write(k: int, rows: Any) -> None:
        _write_atomic(hands_table(rows, settings), out / "hands" / f"part-{k:05d}.parquet")

    with ThreadPoolExecutor(1) as writer:
        previous: Future[None] | None = None
        for k, start, size in pending:
            rows = play_random_hands(rules, size, seed, first=start, workers=workers)
            if previous is not None:
                previous.result()  # at most one shard waits to be written: memory stays flat
            previous = writer.submit(write, k, rows)
            if bar is not None:
                bar.update(size)
        if previous is not None:
            previous.result()


def _run_match_shards(
    rules: Rules,
    settings: dict[str, Any],
    out: Path,
    pending: list[tuple[int, int, int]],
    workers: int,
    bar: Any,
) -> None:
    """Match shards on a thread pool (the kernels release the GIL), at most 2 per worker in flight."""
    seed = settings["seed"]

    def run(shard: tuple[int, int, int]) -> int:
        k, start, size = shard
        match_rows, hand_rows = play_random_matches(rules, size, seed, first=start, workers=1)
        _write_atomic(hands_table(hand_rows, settings), out / "hands" / f"part-{k:05d}.parquet")
        # the matches part is written last: it marks the shard complete
        _write_atomic(
            matches_table(match_rows, settings), out / "matches" / f"part-{k:05d}.parquet"
        )
        return size

    with ThreadPoolExecutor(workers) as pool:
        in_flight: list[Future[int]] = []
        for shard in pending:
            in_flight.append(pool.submit(run, shard))
            if len(in_flight) >= 2 * workers:
                done = in_flight.pop(0).result()
                if bar is not None:
                    bar.update(done)
        for future in in_flight:
            done = future.result()
            if bar is not None:
                bar.update(done)


def load(run: str | os.PathLike[str]) -> dict[str, pl.LazyFrame]:
    """The tables of a run folder as polars LazyFrames: ``hands`` and (match runs) ``matches``."""
    run = Path(run)
    if not (run / "run.json").exists():
        raise ValueError(f"{run} is not a run folder (no run.json)")
    tables = {"hands": pl.scan_parquet(run / "hands" / "*.parquet")}
    if (run / "matches").exists():
        tables["matches"] = pl.scan_parquet(run / "matches" / "*.parquet")
    return tables


def summarize(run: str | os.PathLike[str]) -> str:
    """A short text summary of a run: bid success by contract, and match lengths and endings."""
    run = Path(run)
    meta = json.loads((run / "run.json").read_text())
    lazy = load(run)["hands"]
    total = lazy.select(pl.len()).collect().item()
    lines = [
        f"run {run}: preset {meta['preset']}, seed {meta['seed']}, {total:,} hands "
        f"in {meta['seconds']} s",
        "",
        "bid success by contract (random players)",
        f"{'contract':>8} {'hands':>10} {'share':>7} {'made':>7} {'mean pts':>9}",
    ]
    if meta.get("family") == "baloot":
        return "\n".join(lines[:2] + _baloot_summary(lazy, total) + _match_summary(run))
    by = (
        lazy.with_columns(
            malzoom_label=pl.when(pl.col("malzoom"))
            .then(pl.lit("5 forced"))
            .otherwise(pl.col("contract").cast(pl.String))
        )
        .group_by("malzoom_label")
        .agg(
            pl.len().alias("n"),
            pl.col("made").mean().alias("made"),
            (pl.col("points_team0") + pl.col("points_team1")).mean().alias("pts"),
        )
        .sort("malzoom_label")
        .collect()
    )
    for row in by.iter_rows(named=True):
        lines.append(
            f"{row['malzoom_label']:>8} {row['n']:>10,} {row['n'] / total:>7.1%} "
            f"{row['made'] or 0:>7.1%} {row['pts']:>9.2f}"
        )
    return "\n".join(lines + _match_summary(run))


def _baloot_summary(hands: pl.LazyFrame, total: int) -> list[str]:
    lines = [
        "modes bought (random players)",
        f"{'mode':>8} {'hands':>10} {'share':>7} {'buyer fails':>12} {'kaboot':>7}",
    ]
    by = (
        hands.with_columns(pl.col("mode").fill_null("void"))
        .group_by("mode")
        .agg(
            pl.len().alias("n"),
            (pl.col("made") == False).mean().alias("fails"),  # noqa: E712
            pl.col("kaboot_team").is_not_null().mean().alias("kaboot"),
        )
        .sort("mode")
        .collect()
    )
    for row in by.iter_rows(named=True):
        lines.append(
            f"{row['mode']:>8} {row['n']:>10,} {row['n'] / total:>7.1%} "
            f"{row['fails'] or 0:>12.1%} {row['kaboot'] or 0:>7.1%}"
        )
    return lines


def _match_summary(run: Path) -> list[str]:
    lines: list[str] = []
    if (run / "matches").exists():
        matches = load(run)["matches"].collect()
        mean, median, longest = matches.select(
            pl.col("n_hands").mean().alias("mean"),
            pl.col("n_hands").median().alias("median"),
            pl.col("n_hands").max().alias("max"),
        ).row(0)
        lines += [
            "",
            f"{len(matches):,} matches, mean {mean:.2f} hands per match "
            f"(median {median:.0f}, max {longest})",
            "match endings: "
            + ", ".join(
                f"{r['reason']} {r['len'] / len(matches):.1%}"
                for r in matches.group_by("reason").len().sort("reason").iter_rows(named=True)
            ),
        ]
    return lines
