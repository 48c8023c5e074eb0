"""Kernels handed to kernels by address (engine._jit.KernelPointer), and the search pointers."""

from __future__ import annotations

import warnings
from typing import Any, cast

import numba
import numpy as np
from numba import types
from numba.core.errors import NumbaExperimentalFeatureWarning

from kout_sim.engine._jit import KernelPointer, quiet_first_class_warning
from kout_sim.engine.layout import FAMILY_BALOOT, FAMILY_KOUT
from kout_sim.players.ismcts import search_baloot, search_kout
from kout_sim.players.kinds import KIND_HEURISTIC, KIND_ISMCTS, KIND_PIMC
from kout_sim.players.pimc import CALLS, par_kout, pimc_baloot, pimc_kout
from kout_sim.players.registry import N_PARAMS
from kout_sim.players.searches import SIGNATURE, no_search, search_pointers
from kout_sim.rules import get_rules
from kout_sim.sim import play_hands

_SIG = types.int64(types.Array(types.int64, 1, "C"), types.int64)


@numba.njit
def _weighted(a: np.ndarray, k: int) -> int:
    total = 0
    for i in range(a.shape[0]):
        total += (i + k) * a[i]
    return int(total)


@numba.njit
def _negated(a: np.ndarray, k: int) -> int:
    return int(-_weighted(a, k))


@numba.njit
def _twice(f: KernelPointer, a: np.ndarray) -> int:
    return int(f(a, 1) + f(a, 2))


def test_a_pointer_calls_its_kernel_from_a_kernel_and_from_python() -> None:
    a = np.arange(5, dtype=np.int64)
    for kernel in (_weighted, _negated):
        pointer = KernelPointer(kernel, _SIG)
        assert cast(Any, numba).typeof(pointer) == types.FunctionType(_SIG)
        assert _twice(pointer, a) == kernel(a, 1) + kernel(a, 2)
        assert pointer(a, 3) == kernel(a, 3)
    # one caller compiled for both pointers: the callee is an argument, not part of the caller
    assert len(_twice.signatures) == 1


def test_a_line_up_points_only_to_the_searches_its_seats_play() -> None:
    kinds = np.array([KIND_ISMCTS, KIND_HEURISTIC, KIND_ISMCTS, KIND_HEURISTIC, 0, 0])
    params = np.zeros((6, N_PARAMS))
    ismcts, pimc, par = search_pointers(FAMILY_KOUT, kinds, params)
    assert ismcts.kernel is search_kout and pimc.kernel is par.kernel is no_search
    kinds[1] = KIND_PIMC
    params[1, CALLS] = 1
    ismcts, pimc, par = search_pointers(FAMILY_BALOOT, kinds, params)
    assert ismcts.kernel is search_baloot and pimc.kernel is pimc_baloot
    assert par.kernel is no_search  # Baloot's PIMC calls are the heuristic's
    kinds[0] = kinds[2] = KIND_HEURISTIC
    ismcts, pimc, par = search_pointers(FAMILY_KOUT, kinds, params)
    assert ismcts.kernel is no_search and pimc.kernel is pimc_kout and par.kernel is par_kout
    params[1, CALLS] = 0
    assert search_pointers(FAMILY_KOUT, kinds, params)[2].kernel is no_search
    assert all(p.signature() == SIGNATURE for p in (ismcts, pimc, par))


def test_searching_hands_run_the_search_compiled_for_its_one_signature() -> None:
    rules = get_rules("kout_bh_4")
    kernels = [cast(Any, k) for k in (search_kout, pimc_kout)]
    before = {k: set(k.signatures) for k in kernels}
    play_hands(rules, 2, 0, ["ismcts:iterations=5", "heuristic"], workers=1)
    play_hands(rules, 2, 0, ["pimc:samples=1", "heuristic"], workers=1)
    for kernel, seen in before.items():
        assert SIGNATURE.args in kernel.signatures
        assert set(kernel.signatures) - seen <= {SIGNATURE.args}


def test_numbas_first_class_note_is_silenced_where_numba_issues_it() -> None:
    """Numba issues its "experimental" note with the compiled kernel's file as the location (a
    ``kout_sim`` source, not a numba module): the filter must hold there, or a first run with a
    search prints the note once per line of every kernel that takes a search pointer. Other
    notes of numba still show."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.resetwarnings()
        warnings.simplefilter("always")
        quiet_first_class_warning()
        for text, file in (
            ("First-class function type feature is experimental", "/x/kout_sim/drivers/fork.py"),
            ("another note", "/x/kout_sim/drivers/fork.py"),
        ):
            warnings.warn_explicit(text, NumbaExperimentalFeatureWarning, file, 186)
    assert [str(w.message) for w in seen] == ["another note"]
