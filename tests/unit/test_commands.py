"""``kout_sim.commands.command_line``: the one builder of the ``kout-sim`` lines the project writes
down (run.json, study.json, reports, the hint after an interrupted run)."""

from __future__ import annotations

import shlex

import pytest

from kout_sim.commands import command_line


def test_options_in_the_order_given_with_hyphens() -> None:
    assert command_line("duel", preset="kout_bo_4", team_a="heuristic", team_b="random") == (
        "kout-sim duel --preset kout_bo_4 --team-a heuristic --team-b random"
    )


def test_none_and_false_are_left_out_true_is_a_flag() -> None:
    line = command_line("simulate", hands=None, matches=10, actions=False, solve=True, seed=0)
    assert line == "kout-sim simulate --matches 10 --solve --seed 0"


def test_a_list_repeats_its_option_and_an_empty_one_writes_nothing() -> None:
    line = command_line("simulate", option=[], players=["heuristic", "random:pass=0.8"])
    assert line == "kout-sim simulate --players heuristic --players random:pass=0.8"


def test_positional_arguments_and_quoting_survive_the_shell() -> None:
    line = command_line("study", "all", out="my runs/a b", title="it's")
    assert shlex.split(line) == [
        "kout-sim",
        "study",
        "all",
        "--out",
        "my runs/a b",
        "--title",
        "it's",
    ]


def test_an_interrupted_simulate_prints_the_command_that_finishes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C during ``kout-sim simulate``: the hint is the command typed, with ``--resume``."""
    from click.testing import CliRunner

    import kout_sim.sim as sim
    from kout_sim.cli import main
    from kout_sim.sim.run import Interrupted

    def stop(*args: object, **kwargs: object) -> None:
        raise Interrupted("runs/a b", 2, 5)

    monkeypatch.setattr(sim, "simulate", stop)
    args = ["simulate", "--preset", "kout_bh_4", "--option", "target=51", "--players", "random"]
    args += ["--matches", "20", "--seed", "3", "--out", "runs/a b", "--actions"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130
    hint = result.stderr.splitlines()[-1].strip()
    assert hint == (
        "kout-sim simulate --preset kout_bh_4 --option target=51 --players random --matches 20 "
        "--seed 3 --out 'runs/a b' --actions --resume"
    )
