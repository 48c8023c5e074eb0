"""A rung of the ladder of players (:mod:`analyses.ladder`) as a run folder: written
(:func:`write_rung`) and read back (:func:`rung_tables`)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import polars as pl

import kout_sim
from kout_sim.commands import command_line, simulate_command
from kout_sim.io.manifest import run_manifest, runs_under, total_seconds
from kout_sim.io.store import WRITER, Store

from ._common import load_run
from .joker_context import play_context, write_context_table
from .ladder import RUNG_KIND, _forked, is_search


def rung_tables(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """The tables of a rung run folder: ``settings`` (its run.json), ``hands`` (LazyFrame),
    ``forks`` (joker forks, LazyFrame or None), ``context`` (their context, DataFrame or None),
    ``bid_forks`` (LazyFrame or None), ``matches`` (the target runs' matches stacked, or None)
    and ``skipped`` (part name -> why the rung has no such part)."""
    root = Path(folder)
    settings = json.loads((root / "run.json").read_text())
    parts = settings.get("parts", {})
    hands = load_run(root / parts.get("hands", "hands"))["hands"]

    def scan(part: str, table: str) -> pl.LazyFrame | None:
        if not parts.get(part):
            return None
        return pl.scan_parquet(root / parts[part] / table / "*.parquet")

    context = scan("joker_context", "context")
    matches = None
    targets = parts.get("match_length") or {}
    if targets:
        frames = [load_run(root / path)["matches"] for path in targets.values()]
        matches = pl.concat(frames, how="diagonal_relaxed")
    return {
        "settings": settings,
        "hands": hands,
        "forks": scan("joker_forks", "forks"),
        "context": context.collect() if context is not None else None,
        "bid_forks": scan("bid_forks", "bid_forks"),
        "matches": matches,
        "skipped": dict(settings.get("skipped") or {}),
    }


def write_rung(
    out: str | os.PathLike[str],
    preset: str,
    spec: str,
    *,
    hands: int,
    seed: int,
    matches: int | None = None,
    targets: Sequence[int] = (),
    workers: int | None = None,
    joker_hands: int | None = None,
    bid_hands: int | None = None,
) -> Path:
    """Play the runs of one rung into ``out``, ``spec`` in every seat, seed ``seed``.

    Hand ``i`` is the same deal in every run and under every rung. The runs:

    - ``hands/``: ``hands`` independent hands (Kout: with ``--actions``, the joker context's
      source);
    - Kout presets, ``joker_hands`` > 0 (default ``hands``, at most ``hands``): ``joker-forks/``
      (``kout-sim forks`` of the first ``joker_hands`` hands) and ``joker-context/`` (each
      fork's context, :func:`analyses.joker_context.play_context`, from ``hands/``);
    - Kout presets, ``bid_hands`` > 0 (default none): ``bid-forks/`` (``kout-sim forks --kind
      bid`` of the first ``bid_hands`` hands: the first free bid decision, every legal call);
    - ``matches``: ``match-length/target-T/`` (``matches`` self-play matches at each of
      ``targets``).

    A search rung whose forks are refused goes without them (:data:`analyses.ladder.SEARCH_FORKS`). Then
    ``run.json`` (``"kind": "ladder_rung"``, the rung, the parts, the sizes, what was skipped
    and the command of each run). Sub-runs are replaced. Returns ``out``."""
    from kout_sim.sim.bid_fork import write_bid_forks
    from kout_sim.sim.fork import write_forks

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    rules = kout_sim.get_rules(preset)
    family = rules.family
    kout = rules.is_kout
    joker_hands = min(hands, hands if joker_hands is None else joker_hands) if kout else 0
    bid_hands = (bid_hands or 0) if kout else 0
    kout_sim.simulate(
        preset,
        players=[spec],
        hands=hands,
        seed=seed,
        out=folder / "hands",
        workers=workers,
        actions=joker_hands > 0,
        overwrite=True,
    )
    commands = [simulate_command(json.loads((folder / "hands" / "run.json").read_text()), "hands")]
    parts: dict[str, Any] = {"hands": "hands"}
    skipped: dict[str, str] = {}
    fork_parts: list[tuple[str, str, Any, int, str | None]] = []
    if joker_hands > 0:
        fork_parts.append(("joker_forks", "joker-forks", write_forks, joker_hands, None))
    if bid_hands > 0:
        fork_parts.append(("bid_forks", "bid-forks", write_bid_forks, min(bid_hands, hands), "bid"))
    for part, path, write, n, kind in fork_parts:
        play = partial(
            write, folder / path, preset, n, seed, [spec], workers=workers, overwrite=True
        )
        if not _forked(spec, part, play, skipped):
            continue
        parts[part] = path
        commands.append(
            command_line(
                "forks", kind=kind, preset=preset, hands=n, seed=seed, players=[spec], out=path
            )
        )
        if part == "joker_forks":
            _write_context(folder, parts, skipped)
    if matches:
        parts["match_length"] = {}
        for t in targets:
            path = f"match-length/target-{int(t)}"
            kout_sim.simulate(
                preset,
                options={"target": int(t)},
                players=[spec],
                matches=matches,
                seed=seed,
                out=folder / path,
                workers=workers,
                overwrite=True,
            )
            parts["match_length"][str(int(t))] = path
            commands.append(
                simulate_command(json.loads((folder / path / "run.json").read_text()), path)
            )
    meta = {
        "kind": RUNG_KIND,
        "preset": rules.name,
        "family": family,
        "options": {},
        "players": [spec],
        "rung": spec,
        "search": is_search(spec),
        "seed": seed,
        "unit": "hands",
        "count": hands,
        "joker_hands": joker_hands if parts.get("joker_forks") else None,
        "bid_hands": min(bid_hands, hands) if parts.get("bid_forks") else None,
        "matches": matches if parts.get("match_length") else None,
        "parts": parts,
        "skipped": skipped,
        "status": "complete",
        "play": "hands",
        "commands": commands,
    }
    meta = run_manifest(meta, commands[0], **total_seconds(runs_under(folder)))
    Store(folder).write_json(meta, "run.json")
    return folder


def _write_context(folder: Path, parts: dict[str, Any], skipped: dict[str, str]) -> None:
    """The joker context of the rung's joker forks (``joker-context/``, from ``hands/`` played
    with ``--actions``), named in ``parts``; why there is none in ``skipped``."""
    try:
        play = load_run(folder / "hands")
        forks = pl.scan_parquet(folder / "joker-forks" / "forks" / "*.parquet")
        context = play_context(forks, play["hands"], play["actions"])
    except ValueError as exc:
        skipped["joker_context"] = f"no context: {exc}"
        return
    meta = {
        "kind": "joker_context_table",
        "forks": len(context),
        "source": "hands",
        "writer": WRITER,
    }
    write_context_table(folder / "joker-context", context, meta)
    parts["joker_context"] = "joker-context"
