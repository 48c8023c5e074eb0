"""``prepare``: the compile notice (issue: a first run must say what it compiles, once)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from kout_sim.drivers.play import play_hands
from kout_sim.engine._jit import cache_root
from kout_sim.rules import get_rules
from kout_sim.sim import batch


def test_notice_when_the_kernels_are_not_ready_in_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def slow_play(*args: Any) -> Any:  # a compile: the drivers are not ready at once
        time.sleep(0.5)
        return play_hands(*args)

    monkeypatch.setattr(batch, "_READY", set())
    monkeypatch.setattr(batch, "_play_hands", slow_play)
    monkeypatch.setattr(batch, "NOTICE_AFTER", 0.05)
    batch.prepare(get_rules("kout_bh_4"), "random", "hands")
    err = capsys.readouterr().err
    assert "kout-sim: compiling the kout engine for hands" in err
    assert f"later runs load it from {cache_root()})" in err  # the folder, named
    assert str(cache_root()) != "."
    assert err.count("\n") == 1  # one line


def test_no_notice_when_the_kernels_load_in_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(batch, "_READY", set())
    monkeypatch.setattr(batch, "NOTICE_AFTER", 600.0)
    batch.prepare(get_rules("kout_bh_4"), "random", "hands")
    assert capsys.readouterr().err == ""
    batch.prepare(get_rules("kout_bh_4"), "random", "hands")  # ready: nothing to wait for
    assert capsys.readouterr().err == ""
