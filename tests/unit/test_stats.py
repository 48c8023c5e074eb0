"""Wilson intervals used by the reports and scripts."""

import pytest

from kout_sim.stats import wilson


def test_wilson_known_value() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)


def test_wilson_edges_stay_in_unit_interval() -> None:
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
