"""The one run manifest (kout_sim.io.manifest): simulate, forks (joker and bid), duel and study
folders each say the command that makes them again, the version, the git revision, the writer, and
the compile seconds apart from the play seconds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import kout_sim
from kout_sim.io.manifest import MANIFEST_KEYS, run_manifest, runs_under, total_seconds
from kout_sim.io.store import WRITER


def _read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _check(meta: dict[str, Any], subcommand: str) -> None:
    assert set(MANIFEST_KEYS) <= set(meta), set(MANIFEST_KEYS) - set(meta)
    assert meta["command"].startswith(f"kout-sim {subcommand} ")
    assert meta["version"] == kout_sim.__version__ and meta["writer"] == WRITER
    assert meta["git_revision"] is None or len(meta["git_revision"]) == 40
    assert meta["compile_seconds"] >= 0 and meta["seconds"] >= 0


def test_run_manifest_adds_the_provenance_to_the_settings() -> None:
    meta = run_manifest({"preset": "kout_bo_4", "seed": 3}, "kout-sim simulate", status="running")
    assert meta["preset"] == "kout_bo_4" and meta["status"] == "running"
    assert {"command", "version", "git_revision", "writer"} <= set(meta)
    parts = [{"compile_seconds": 1.25, "seconds": 2.0}, {"seconds": 0.5}, {}]
    assert total_seconds(parts) == {"compile_seconds": 1.25, "seconds": 2.5}


def test_runs_under_counts_each_run_of_shards_once(tmp_path: Path) -> None:
    """A folder made of runs (a rung, a joker context) has a run.json without shards: its runs are
    counted, not it."""
    for path, meta in (
        ("run.json", {"seconds": 100}),  # the folder itself
        ("a/run.json", {"seconds": 1.0, "compile_seconds": 2.0, "shards": {}}),
        ("b/run.json", {"seconds": 3.0}),  # made of runs: b/c
        ("b/c/run.json", {"seconds": 3.0, "compile_seconds": 0.5, "shards": {}}),
    ):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(json.dumps(meta))
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "run.json").write_text("not json")
    assert total_seconds(runs_under(tmp_path)) == {"compile_seconds": 2.5, "seconds": 4.0}


def test_simulate_and_forks_write_the_manifest_as_run_json(tmp_path: Path) -> None:
    from kout_sim.sim.bid_fork import write_bid_forks
    from kout_sim.sim.fork import write_forks

    run = kout_sim.simulate("kout_bo_4", players="random", hands=200, out=tmp_path / "r")
    _check(_read(Path(run) / "run.json"), "simulate")
    forks = write_forks(tmp_path / "f", "kout_bh_4", hands=30, players="random")
    meta = _read(Path(forks) / "run.json")
    _check(meta, "forks")
    assert meta["kind"] == "joker_forks" and meta["status"] == "complete"
    bids = write_bid_forks(tmp_path / "b", "kout_bo_4", hands=30, players="random")
    meta = _read(Path(bids) / "run.json")
    _check(meta, "forks")
    assert meta["kind"] == "bid_forks" and "--kind bid" in meta["command"]


def test_a_duel_writes_the_manifest_with_the_seconds_of_its_runs(tmp_path: Path) -> None:
    from analyses.duel import duel

    result = duel("kout_bo_4", "random", "heuristic", hands=100, seed=2, out=tmp_path / "d")
    meta = _read(tmp_path / "d" / "duel.json")
    _check(meta, "duel")
    runs = [_read(tmp_path / "d" / side / "run.json") for side in ("ab", "ba")]
    assert meta["seconds"] == pytest.approx(sum(r["seconds"] for r in runs), abs=1e-3)
    assert meta["compile_seconds"] == pytest.approx(
        sum(r["compile_seconds"] for r in runs), abs=1e-3
    )
    assert meta["wall_seconds"] == result["seconds"]
    assert (meta["unit"], meta["count"]) == ("hands", 100)
    assert meta["options"] == dict(kout_sim.get_rules("kout_bo_4").options)
    assert "--hands 100" in meta["command"] and "--team-b heuristic" in meta["command"]
    # the statistics stay in duel.json as before
    assert meta["paired_hands"] == result["paired_hands"] and meta["team_a"] == result["team_a"]


def test_a_study_writes_the_manifest_as_study_json(tmp_path: Path) -> None:
    from analyses.studies import run_study

    folder = run_study("seats", "kout_bo_4", out=tmp_path / "s", matches=2)
    meta = _read(folder / "study.json")
    _check(meta, "study")
    assert meta["status"] == "complete" and meta["wall_seconds"] >= meta["seconds"]
    runs = runs_under(folder)
    assert runs and all("shards" in r for r in runs)
    assert meta["seconds"] == pytest.approx(sum(r["seconds"] for r in runs), abs=1e-3)
