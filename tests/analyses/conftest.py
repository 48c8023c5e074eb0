"""Small heuristic runs shared by the analyses tests (one per session; the numba kernels are cached
on disk after their first compilation)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
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


def _heuristic_fixture(
    preset: str, seed: int, folder: str, *, matches: int | None = None, hands: int | None = None
) -> Callable[[Path], Path]:
    """A session fixture: ``preset`` played by heuristic players from ``seed``, ``matches`` whole
    matches or ``hands`` independent hands, written to ``runs_root / folder``; its path."""

    def run(runs_root: Path) -> Path:
        out = runs_root / folder
        made = kout_sim.simulate(
            preset, players="heuristic", matches=matches, hands=hands, seed=seed, out=out
        )
        return Path(made)

    count = f"{matches:,} whole matches" if matches else f"{hands:,} independent hands"
    run.__doc__ = f"{preset}, heuristic players, {count}."
    return pytest.fixture(scope="session")(run)


kout_run = _heuristic_fixture("kout_bo_4", 11, "kout_bo_4", hands=3_000)
kout_matches_run = _heuristic_fixture("kout_bo_4", 12, "kout_bo_4_m", matches=150)  # ~2,000 hands
bh_run = _heuristic_fixture("kout_bh_4", 13, "kout_bh_4", matches=300)  # Inzili, forced jokers
baloot_run = _heuristic_fixture("baloot", 14, "baloot", matches=200)
six_run = _heuristic_fixture("kout_bo_6", 16, "kout_bo_6", matches=60)  # six seats


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
