"""``simulate``: play a batch of random matches or hands and write it as a run folder of parquet.

A run folder holds ``hands.parquet``, ``matches.parquet`` (whole-match runs) and ``run.json`` with
the run metadata; each file is written to a temporary name and renamed, so a folder never holds a
half-written table.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq

from .. import __version__
from ..io.schema import hands_table, matches_table
from ..rules import get_rules
from .batch import check_workers, play_random_hands, play_random_matches


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
) -> Path:
    """Play ``matches`` whole random matches (or ``hands`` independent hands) and write a run.

    Returns the run folder. Raises ``ValueError`` (one line) for bad input: unknown preset or
    option, non-positive counts, an existing folder without ``overwrite``.
    """
    rules = get_rules(preset, options)
    if hands is not None:
        matches = None
    count = hands if hands is not None else matches
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        what = "hands" if hands is not None else "matches"
        raise ValueError(f"{what} must be a positive integer, got {count!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    workers = check_workers(workers)
    if out is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        out = Path("data") / "runs" / f"{preset}-seed{seed}-{stamp}"
    out = Path(out)
    if out.exists():
        if not overwrite:
            raise ValueError(f"output folder {out} exists; pass overwrite=True (--overwrite)")
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp_dir = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    if tmp_dir.exists():
        shutil.rmtree(tmp_dir)
    tmp_dir.mkdir()
    meta: dict[str, Any] = {
        "preset": rules.name,
        "family": rules.preset.family,
        "options": dict(rules.options),
        "players": "random",
        "seed": seed,
        "matches": matches,
        "hands": hands,
        "workers": workers,
        "version": __version__,
        "git_revision": _git_revision(),
    }
    started = time.perf_counter()
    if hands is not None:
        hand_rows = play_random_hands(rules, hands, seed, workers=workers)
        _write_atomic(hands_table(hand_rows, meta), tmp_dir / "hands.parquet")
    else:
        assert matches is not None
        match_rows, hand_rows = play_random_matches(rules, matches, seed, workers=workers)
        _write_atomic(hands_table(hand_rows, meta), tmp_dir / "hands.parquet")
        _write_atomic(matches_table(match_rows, meta), tmp_dir / "matches.parquet")
    meta["seconds"] = round(time.perf_counter() - started, 3)
    meta["n_hand_rows"] = len(hand_rows)
    (tmp_dir / "run.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    os.replace(tmp_dir, out)
    return out


def summarize(run: str | os.PathLike[str]) -> str:
    """A short text summary of a run: bid success by contract, and match lengths and endings."""
    run = Path(run)
    meta = json.loads((run / "run.json").read_text())
    hands = pl.read_parquet(run / "hands.parquet")
    lines = [
        f"run {run}: preset {meta['preset']}, seed {meta['seed']}, {len(hands):,} hands "
        f"in {meta['seconds']} s",
        "",
        "bid success by contract (random players)",
        f"{'contract':>8} {'hands':>10} {'share':>7} {'made':>7} {'mean pts':>9}",
    ]
    if meta.get("family") == "baloot":
        return "\n".join(lines[:2] + _baloot_summary(hands) + _match_summary(run))
    by = (
        hands.with_columns(
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
    )
    total = len(hands)
    for row in by.iter_rows(named=True):
        lines.append(
            f"{row['malzoom_label']:>8} {row['n']:>10,} {row['n'] / total:>7.1%} "
            f"{row['made'] or 0:>7.1%} {row['pts']:>9.2f}"
        )
    return "\n".join(lines + _match_summary(run))


def _baloot_summary(hands: pl.DataFrame) -> list[str]:
    lines = [
        "modes bought (random players)",
        f"{'mode':>8} {'hands':>10} {'share':>7} {'buyer fails':>12} {'kaboot':>7}",
    ]
    total = len(hands)
    by = (
        hands.with_columns(pl.col("mode").fill_null("void"))
        .group_by("mode")
        .agg(
            pl.len().alias("n"),
            (pl.col("made") == False).mean().alias("fails"),  # noqa: E712
            pl.col("kaboot_team").is_not_null().mean().alias("kaboot"),
        )
        .sort("mode")
    )
    for row in by.iter_rows(named=True):
        lines.append(
            f"{row['mode']:>8} {row['n']:>10,} {row['n'] / total:>7.1%} "
            f"{row['fails'] or 0:>12.1%} {row['kaboot'] or 0:>7.1%}"
        )
    return lines


def _match_summary(run: Path) -> list[str]:
    lines: list[str] = []
    if (run / "matches.parquet").exists():
        matches = pl.read_parquet(run / "matches.parquet")
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
