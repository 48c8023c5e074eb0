"""Ctrl-C during `kout-sim simulate`: the queued shards are cancelled, the running ones are written
whole, the command says how to finish the run, and --resume then gives every row."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kout_sim

# Run the real command line in a child, with small shards that each take 0.2 s, so that SIGINT
# arrives while most shards are still queued.
CHILD = """
import sys, time
from kout_sim.sim import run
run.SHARD_MATCHES = 20
play = run.play_shard
def slow(*args, **kwargs):
    time.sleep(0.2)
    return play(*args, **kwargs)
run.play_shard = slow
from kout_sim.cli import run as main
sys.argv = ["kout-sim", *sys.argv[1:]]
main()
"""


def _child(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_ctrl_c_cancels_the_queued_shards_and_prints_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["simulate", "--players", "random", "--matches", "600", "--seed", "3"]
    child = _child(*args, "--workers", "1", "--out", str(out))
    deadline = time.monotonic() + 120
    while not list((out / "matches").glob("part-*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    assert "Traceback" not in stderr + stdout
    written = sorted((out / "matches").glob("part-*.parquet"))
    assert 1 <= len(written) < 30  # the 30 shards were not all played: the queue was dropped
    assert f"{len(written)} of 30 shards of {out} are complete" in stderr
    resume = stderr.strip().splitlines()[-1].strip()
    assert resume.startswith("kout-sim simulate ") and resume.endswith(f"--out {out} --resume")
    assert not list(out.rglob(".*tmp*"))  # nothing half-written
    # the printed command finishes the run: the same rows as a run never interrupted
    finish = _child(*resume.split()[1:], "--workers", "1")
    _, finish_err = finish.communicate(timeout=300)
    assert finish.returncode == 0, finish_err
    whole = kout_sim.simulate(players="random", matches=600, seed=3, out=tmp_path / "whole")
    for table in ("hands", "matches"):
        a = kout_sim.load(out)[table].collect().sort("match", *(["hand"] * (table == "hands")))
        b = kout_sim.load(whole)[table].collect().sort("match", *(["hand"] * (table == "hands")))
        assert a.equals(b)


def _parts(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}


@pytest.mark.slow
def test_three_sigkills_then_resume_give_the_files_of_a_run_never_interrupted(
    tmp_path: Path,
) -> None:
    args = ["simulate", "--players", "random", "--matches", "600", "--seed", "4", "--workers", "2"]
    whole = tmp_path / "whole"
    child = _child(*args, "--out", str(whole))
    child.communicate(timeout=300)
    assert child.returncode == 0
    out = tmp_path / "run"
    for kill in range(3):
        extra = ["--resume"] * (kill > 0)
        child = _child(*args, "--out", str(out), *extra)
        deadline = time.monotonic() + 120
        # killed once a few more shards than before are in place (each kill leaves a stale lock,
        # maybe a temporary file, and shards not yet entered in run.json's manifest)
        while len(list(out.glob("matches/part-*.parquet"))) < 3 * (kill + 1):
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.02)
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=60)
        assert (out / ".lock").exists()
    finish = _child(*args, "--out", str(out), "--resume")
    _, err = finish.communicate(timeout=300)
    assert finish.returncode == 0, err
    assert _parts(out) == _parts(whole)
    meta, want = (json.loads((f / "run.json").read_text()) for f in (out, whole))
    assert meta["shards"] == want["shards"] and meta["summary"] == want["summary"]
    assert not (out / ".lock").exists() and not list(out.rglob(".*tmp*"))
