"""Runs: identical rows whatever the workers, resumable shards, atomic files."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import kout_sim
from kout_sim.engine import layout as L
from kout_sim.rules import get_rules
from kout_sim.sim import available_workers, play_random_hands, run

WORKERS = [1, 2] if available_workers() >= 2 else [1]


def _tables(path: Path) -> dict[str, pl.DataFrame]:
    return {name: frame.collect() for name, frame in kout_sim.load(path).items()}


@pytest.fixture
def small_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "SHARD_MATCHES", 200)
    monkeypatch.setattr(run, "SHARD_HANDS", 1_000)


@pytest.mark.usefixtures("small_shards")
@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "baloot"])
def test_same_rows_with_any_number_of_workers(tmp_path: Path, preset: str) -> None:
    runs = [
        _tables(kout_sim.simulate(preset, matches=1_000, seed=5, out=tmp_path / f"w{w}", workers=w))
        for w in WORKERS
    ]
    for other in runs[1:]:
        for name in ("hands", "matches"):
            assert runs[0][name].equals(other[name])
    assert runs[0]["matches"]["match"].to_list() == list(range(1_000))


@pytest.mark.usefixtures("small_shards")
def test_interrupted_run_resumes_to_the_same_rows(tmp_path: Path) -> None:
    whole = _tables(kout_sim.simulate(matches=1_000, seed=8, out=tmp_path / "whole"))
    part = kout_sim.simulate(matches=1_000, seed=8, out=tmp_path / "part")
    # an interruption leaves some shards missing (never half-written: files are renamed into place)
    for k in (1, 3):
        (part / "matches" / f"part-{k:05d}.parquet").unlink()
    (part / "hands" / "part-00004.parquet").unlink()
    (part / "matches" / "part-00004.parquet").unlink()
    kout_sim.simulate(matches=1_000, seed=8, out=part, resume=True)
    resumed = _tables(part)
    for name in ("hands", "matches"):
        assert whole[name].sort(["match"]).equals(resumed[name].sort(["match"]))
    assert not list(part.rglob(".*tmp*"))


@pytest.mark.usefixtures("small_shards")
def test_hands_mode_rows_match_the_batch_kernel(tmp_path: Path) -> None:
    path = kout_sim.simulate("kout_bo_6", hands=2_500, seed=3, out=tmp_path / "h")
    hands = _tables(path)["hands"]
    assert len(hands) == 2_500 and "matches" not in kout_sim.load(path)
    rows = play_random_hands(get_rules("kout_bo_6"), 2_500, 3)
    assert hands["contract"].to_list() == rows[:, L.R_CONTRACT].tolist()
    assert hands["hand_seat0"].to_list() == rows[:, L.R_HAND].tolist()


def test_resume_with_other_settings_is_refused(tmp_path: Path) -> None:
    path = kout_sim.simulate(matches=50, seed=1, out=tmp_path / "r")
    with pytest.raises(ValueError, match="seed=1"):
        kout_sim.simulate(matches=50, seed=2, out=path, resume=True)
    with pytest.raises(ValueError, match="exists"):
        kout_sim.simulate(matches=50, seed=1, out=path)


def test_load_refuses_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a run folder"):
        kout_sim.load(tmp_path)


def test_data_dictionary_is_current() -> None:
    from kout_sim.io.schema import data_dictionary

    docs = Path(__file__).parents[2] / "docs" / "data.md"
    assert docs.read_text() == data_dictionary(), "regenerate: python -m kout_sim.io.schema"
