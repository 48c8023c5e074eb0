"""``kout-sim study`` and ``kout-sim report``: bad input exits 2 with one ``error:`` line and writes
nothing; the study registry plans the runs each study needs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyses import studies
from kout_sim.cli import main
from kout_sim.rules import Family


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_help_lists_study_and_report() -> None:
    code, out, _ = _run("--help")
    assert code == 0 and "study" in out and "report" in out
    code, out, _ = _run("study", "--help")
    assert code == 0
    for name in ("bids", "match-length", "seats", "baloot-modes", "all"):
        assert name in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["study", "nope", "--preset", "kout_bo_4"], "unknown study 'nope'; valid: bids"),
        (["study", "bids", "--preset", "nope"], "unknown preset 'nope'"),
        (["study", "bids"], "give --preset"),
        (["study", "baloot-modes", "--preset", "kout_bo_4"], "baloot presets only"),
        (["study", "bids", "--preset", "kout_bo_4", "--hands", "0"], "hands must be a positive"),
        (["study", "seats", "--preset", "baloot", "--matches", "-5"], "matches must be a positive"),
        (["study", "bids", "--preset", "kout_bo_4", "--seed", "-1"], "seed must be"),
        (["study", "bids", "--preset", "kout_bo_4", "--players", "genius"], "unknown player"),
        (["report", "--out", "x.html"], "give at least one --run"),
        (["report", "--run", "."], "give --out"),
        (["report", "--run", "/no/such/run", "--out", "x.html"], "is not a folder"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], words: str) -> None:
    code, stdout, stderr = _run(*args)
    assert code == 2
    assert stderr.startswith("error: ") and words in stderr, stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr + stdout


def test_study_refuses_an_existing_folder(tmp_path: Path) -> None:
    out = tmp_path / "study"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    code, _, stderr = _run("study", "bids", "--preset", "kout_bo_4", "--out", str(out))
    assert code == 2 and "exists; pass --overwrite" in stderr
    # --overwrite replaces study folders only
    code, _, stderr = _run(
        "study", "bids", "--preset", "kout_bo_4", "--out", str(out), "--overwrite"
    )
    assert code == 2 and "not a study folder" in stderr
    assert (out / "keep.txt").read_text() == "mine"


def test_report_refuses_a_folder_without_runs(tmp_path: Path) -> None:
    code, _, stderr = _run("report", "--run", str(tmp_path), "--out", str(tmp_path / "r.html"))
    assert code == 2 and "neither a run folder nor a study folder" in stderr
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.json").write_text(
        json.dumps({"preset": "kout_bo_4", "status": "running", "unit": "hands"})
    )
    code, _, stderr = _run("report", "--run", str(tmp_path / "run"), "--out", "r.html")
    assert code == 2 and "incomplete" in stderr and "--resume" in stderr


def test_study_plans() -> None:
    args = studies.StudyArgs("kout_bh_4", Family.KOUT_BH, seed=7)
    plans = studies.plan_study("match-length", args)
    assert [p.simulate["options"]["target"] for p in plans if p.simulate] == [26, 31, 51, 101]
    assert all(p.simulate and p.simulate["seed"] == 9 for p in plans)
    assert all(
        p.simulate and p.simulate["players"] == list(studies.MATCH_LENGTH_PLAYERS) for p in plans
    )
    bids = studies.plan_study("bids", args)[0]
    assert bids.simulate == {
        "preset": "kout_bh_4",
        "players": ["heuristic"],
        "hands": studies.DEFAULT_HANDS,
        "seed": 7,
    }
    # all: Baloot's bids and baloot-modes are the same simulation, played once for both
    baloot = studies.plan_study(
        "all", studies.StudyArgs("baloot", Family.BALOOT, hands=10, matches=5)
    )
    hands = [p for p in baloot if p.kind == "hands"]
    assert len(hands) == 1 and hands[0].studies == ("bids", "baloot-modes")
    assert [
        p.simulate["options"]["target"]
        for p in baloot
        if p.simulate and p.path.startswith("match-length")
    ] == [
        52,
        102,
        152,
        202,
    ]
    kout = studies.plan_study("all", studies.StudyArgs("kout_bo_4", Family.KOUT_BO))
    assert "baloot-modes" not in {s for p in kout for s in p.studies}


def test_a_registered_study_is_runnable_by_name(tmp_path: Path) -> None:
    def plan(args: studies.StudyArgs) -> list[studies.RunPlan]:
        return [
            studies.RunPlan(
                "tiny",
                "hands",
                {"preset": args.preset, "players": ["random"], "hands": 50, "seed": args.seed},
            )
        ]

    studies.register(studies.Study("tiny", "a test study", plan, in_all=False))
    try:
        code, stdout, stderr = _run(
            "study", "tiny", "--preset", "kout_bo_4", "--out", str(tmp_path / "s")
        )
    finally:
        del studies.STUDIES["tiny"]
    assert code == 0, stderr
    assert stdout.startswith("kout-sim report --run ")
    meta = json.loads((tmp_path / "s" / "study.json").read_text())
    assert meta["runs"][0]["path"] == "tiny" and (tmp_path / "s" / "tiny" / "run.json").exists()
