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


@pytest.fixture(scope="session")
def kout_run(runs_root: Path) -> Path:
    """kout_bo_4, heuristic players, 3,000 independent hands."""
    return Path(
        kout_sim.simulate(
            "kout_bo_4", players="heuristic", hands=3_000, seed=11, out=runs_root / "kout_bo_4"
        )
    )


@pytest.fixture(scope="session")
def kout_matches_run(runs_root: Path) -> Path:
    """kout_bo_4, heuristic players, 150 whole matches (a couple of thousand hands)."""
    return Path(
        kout_sim.simulate(
            "kout_bo_4", players="heuristic", matches=150, seed=12, out=runs_root / "kout_bo_4_m"
        )
    )


@pytest.fixture(scope="session")
def bh_run(runs_root: Path) -> Path:
    """kout_bh_4, heuristic players, 300 whole matches (Inzili, forced joker leads)."""
    return Path(
        kout_sim.simulate(
            "kout_bh_4", players="heuristic", matches=300, seed=13, out=runs_root / "kout_bh_4"
        )
    )


@pytest.fixture(scope="session")
def baloot_run(runs_root: Path) -> Path:
    """baloot, heuristic players, 200 whole matches."""
    return Path(
        kout_sim.simulate(
            "baloot", players="heuristic", matches=200, seed=14, out=runs_root / "baloot"
        )
    )


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
    return Path(
        kout_sim.simulate(
            "kout_bo_6", players="heuristic", matches=60, seed=16, out=runs_root / "kout_bo_6"
        )
    )
