"""benchmarks/profile_solver.py: the solver's counters and per-node kernel costs."""

from __future__ import annotations

import json

import pytest

from benchmarks import profile_solver


def test_the_counters_split_every_trick_start_and_count_the_probes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    profile_solver.main(["--preset", "kout_bh_4", "--deals", "3", "--reps", "10", "--json"])
    found = json.loads(capsys.readouterr().out)
    assert found["nodes_per_solve"] > 0 and found["trick_starts_per_solve"] > 0
    # each trick start is ended by the table, by a bound, or searched; every kind occurs
    assert 0 < found["ended_by_table"] < 1 and 0 < found["ended_by_bound"] < 1
    assert found["searched"] > 0 and found["nodes_per_trick_start"] >= 1
    assert found["probes_per_value"] >= 1
    assert set(found["kernel_ns"]) == set(profile_solver.KERNELS)
    assert all(ns > 0 for ns in found["kernel_ns"].values())


def test_no_deals_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as stop:
        profile_solver.main(["--deals", "0"])
    assert stop.value.code == 2
