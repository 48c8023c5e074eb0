"""The package's public names (kout_sim.__all__) and their lazy import."""

from __future__ import annotations

import subprocess
import sys

import pytest

import kout_sim


def test_every_public_name_resolves() -> None:
    for name in kout_sim.__all__:
        assert getattr(kout_sim, name) is not None, name
    assert kout_sim.solve.__module__ == "kout_sim.solver"
    assert kout_sim.simulate.__module__.startswith("kout_sim.sim")


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        getattr(kout_sim, "no_such_name")  # noqa: B009


def test_importing_the_rules_loads_no_dataframe_library_or_jit() -> None:
    code = "import sys, kout_sim.rules; print(sorted({'polars', 'numba', 'kout_sim.advisor'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_run_loads_its_kernels_without_importing_scipy_linalg() -> None:
    """The cached start skips numba's BLAS probe (engine._jit): a heuristic hand is played, and
    numba's own probe is back in place for any kernel that uses linear algebra."""
    code = (
        "import sys\n"
        "from kout_sim.rules import get_rules\n"
        "from kout_sim.sim import play_hands\n"
        "play_hands(get_rules('kout_bo_4'), 2, 0, 'heuristic', workers=1)\n"
        "import numba.np.arraymath as am, numba.np.linalg as la\n"
        "print('scipy.linalg' in sys.modules, am._HAVE_BLAS, la.ensure_blas.__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "numba.np.linalg"]
