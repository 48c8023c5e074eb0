"""Small heuristic runs shared by the analyses tests (one per session; the numba kernels are cached
on disk after their first compilation)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

import kout_sim
from analyses import match_length
from analyses._common import load_run


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    """Close the figures a test's sections drew without rendering them (a report built but not
    written keeps its figures open; more than 20 at once is a matplotlib warning, an error here)."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture(scope="session")
def runs_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("analyses-runs")


def _heuristic_run(
    runs_root: Path,
    preset: str,
    *,
    seed: int,
    folder: str,
    matches: int | None = None,
    hands: int | None = None,
) -> Path:
    """A run of ``preset`` by heuristic players, of ``matches`` or ``hands``, in ``runs_root``."""
    out = runs_root / folder
    run = kout_sim.simulate(
        preset, players="heuristic", matches=matches, hands=hands, seed=seed, out=out
    )
    return Path(run)


@pytest.fixture(scope="session")
def kout_run(runs_root: Path) -> Path:
    """kout_bo_4, heuristic players, 3,000 independent hands."""
    return _heuristic_run(runs_root, "kout_bo_4", hands=3_000, seed=11, folder="kout_bo_4")


@pytest.fixture(scope="session")
def kout_matches_run(runs_root: Path) -> Path:
    """kout_bo_4, heuristic players, 150 whole matches (a couple of thousand hands)."""
    return _heuristic_run(runs_root, "kout_bo_4", matches=150, seed=12, folder="kout_bo_4_m")


@pytest.fixture(scope="session")
def bh_run(runs_root: Path) -> Path:
    """kout_bh_4, heuristic players, 300 whole matches (Inzili, forced joker leads)."""
    return _heuristic_run(runs_root, "kout_bh_4", matches=300, seed=13, folder="kout_bh_4")


@pytest.fixture(scope="session")
def baloot_run(runs_root: Path) -> Path:
    """baloot, heuristic players, 200 whole matches."""
    return _heuristic_run(runs_root, "baloot", matches=200, seed=14, folder="baloot")


@pytest.fixture(scope="session")
def sweep_runs(runs_root: Path) -> dict[int, Path]:
    """kout_bo_4, heuristic (team 0) against random:pass=0.8, 100 matches at targets 31 and 101."""
    return match_length.sweep(
        "kout_bo_4",
        [31, 101],
        matches=100,
        seed=15,
        players=["heuristic", "random:pass=0.8"],
        out=runs_root / "sweep",
    )


def hands_of(folder: Path) -> pl.DataFrame:
    return load_run(folder)["hands"].collect()


def matches_of(folder: Path) -> pl.DataFrame:
    return load_run(folder)["matches"].collect()


@pytest.fixture(scope="session")
def six_run(runs_root: Path) -> Path:
    """kout_bo_6, heuristic players, 60 whole matches (six seats)."""
    return _heuristic_run(runs_root, "kout_bo_6", matches=60, seed=16, folder="kout_bo_6")
