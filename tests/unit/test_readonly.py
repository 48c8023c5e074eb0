"""``_jit.readonly``: a kernel passes workspace rows on typed as the drivers' read-only tables
(docs/compile.md, rule 10), without a copy."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from kout_sim.engine._jit import _readonly_python, readonly


def test_readonly_from_python_is_a_read_only_view_of_the_same_data() -> None:
    a = np.arange(6, dtype=np.int64)
    view = _readonly_python(a)
    assert not view.flags.writeable
    assert np.shares_memory(view, a)
    a[2] = 40
    assert view[2] == 40
    with pytest.raises(ValueError):
        view[0] = 1


@pytest.mark.skipif(bool(getattr(numba.config, "DISABLE_JIT", 0)), reason="typing needs the JIT")
def test_readonly_in_a_kernel_changes_the_type_only() -> None:
    @numba.njit
    def row_sum(W: np.ndarray) -> int:
        t = 0
        row = readonly(W[1])
        for x in row:
            t += x
        return t

    @numba.njit
    def write(W: np.ndarray) -> None:
        row = readonly(W[1])
        row[0] = 1

    W = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert row_sum(W) == 4 + 5 + 6 + 7
    # the row is typed read-only: a kernel that writes to it does not compile
    with pytest.raises(numba.core.errors.TypingError):
        write(W)
    assert W[1, 0] == 4
