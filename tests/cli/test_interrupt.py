"""Ctrl-C during `kout-sim simulate`: the queued shards are cancelled, the running ones are written
whole, the command says how to finish the run, and --resume then gives every row."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

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
