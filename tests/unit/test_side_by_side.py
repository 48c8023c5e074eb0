"""benchmarks/side_by_side.py: kout_sim against OpenSpiel in one process.

OpenSpiel is an optional benchmark dependency: the kout_sim side and the missing-OpenSpiel message
are tested everywhere, the OpenSpiel side only where ``pyspiel`` is importable."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks import side_by_side as sbs
from kout_sim.rules import get_rules

ROOT = Path(__file__).resolve().parents[2]


def test_without_openspiel_main_stops_with_one_line_before_any_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel raises ImportError
    called: list[str] = []
    monkeypatch.setattr(sbs, "kout_per_card", lambda *a: called.append("kout"))
    with pytest.raises(SystemExit) as stop:
        sbs.main(["--repeats", "1"])
    assert stop.value.code == sbs.MISSING
    assert "\n" not in sbs.MISSING and "open_spiel" in sbs.MISSING
    assert called == []


def test_without_openspiel_the_script_prints_the_message_and_exits_1() -> None:
    code = (
        "import runpy, sys; sys.modules['pyspiel'] = None; "
        "runpy.run_path('benchmarks/side_by_side.py', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == sbs.MISSING
    assert done.stdout == ""


@pytest.mark.slow  # compiles the profiler's own entry point (about 30 s of CPU the warm-up has not)
def test_kout_side_plays_every_card_of_every_hand_with_play_all_tricks() -> None:
    # RULES.md 1.11: with play_all_tricks no hand stops early, so every card of the deal is played
    hands = 200
    timed, cards = sbs.kout_per_card(hands, seed=3)
    rules = get_rules(sbs.PRESET, sbs.OPTIONS)
    assert cards == hands * rules.n_players * rules.n_tricks == hands * 36
    ns = timed()
    assert 0 < ns < 1e6


def test_kout_side_ismcts_times_a_decision() -> None:
    ms = sbs.kout_ismcts(positions=1, seed=1)()
    assert 0 < ms < 10_000


def test_alternate_swaps_the_order_every_round() -> None:
    order: list[str] = []

    def call(name: str, value: float) -> Callable[[], float]:
        def run() -> float:
            order.append(name)
            return value

        return run

    (a, b, e), (c, d) = sbs.alternate(
        [
            (call("a", 1.0), call("b", 2.0), call("e", 5.0)),
            (call("c", 3.0), call("d", 4.0)),
        ],
        3,
    )
    assert order == ["a", "b", "e", "c", "d", "e", "b", "a", "d", "c", "a", "b", "e", "c", "d"]
    assert (a, b, c, d, e) == ([1.0] * 3, [2.0] * 3, [3.0] * 3, [4.0] * 3, [5.0] * 3)


def test_floor_figure_is_each_engine_over_the_floor_of_the_medians() -> None:
    f = sbs.floor_figure([40.0, 50.0, 60.0], [1000.0, 1200.0, 1100.0], [20.0, 30.0, 25.0])
    assert f["floor"] == 25.0
    assert f["kout_sim_over_floor"] == 2.0 and f["openspiel_over_floor"] == 44.0


def test_figure_is_openspiel_over_kout_sim_of_the_medians() -> None:
    f = sbs.figure("x", "ns", [10.0, 50.0, 20.0], [200.0, 300.0, 100.0])
    assert f["kout_sim"] == 20.0 and f["openspiel"] == 200.0
    assert f["ratio"] == 10.0
    assert f["paired_ratios"] == [20.0, 6.0, 5.0]


def test_openspiel_side_in_a_tiny_run() -> None:
    spiel = pytest.importorskip("pyspiel")
    game = sbs.oh_hell(spiel)
    state = game.new_initial_state()
    bots = [spiel.make_uniform_random_bot(p, p) for p in range(4)]
    spiel.evaluate_bots(state, bots, 1)
    assert state.is_terminal() and sbs.cards_played(state) == 32  # 8 tricks of 4 cards
    for first in sbs.first_card_states(spiel, 3, seed=2):
        assert not first.is_chance_node() and not first.is_terminal()
        assert 1 <= len(first.legal_actions()) <= 8  # a card of the 8 in hand
    assert sbs.spiel_per_card(spiel, 3, seed=1)() > 0
    assert sbs.spiel_ismcts(spiel, 1, seed=1)() > 0
    assert sbs.spiel_python_loop(spiel, 2, seed=1)() > 0
    result = sbs.side_by_side(repeats=1, hands=100, games=3, positions=1, seed=1)
    assert result["per_card"]["ratio"] > 0 and result["ismcts"]["ratio"] > 0
    assert result["floor"]["floor"] > 0 and len(result["floor"]["floor_runs"]) == 1
    assert "caveat" in sbs.report(result).lower()
    cost = result["openspiel_call_cost"]
    assert cost["ns_per_call"] > 0 and cost["per_card_net_ns"] < result["per_card"]["openspiel"]
