"""Cold-start benchmark: what the first run of each family costs from an empty numba cache.

Each measurement is a fresh process (``resource.getrusage`` of the child: CPU seconds and peak
memory). A command is run twice on one new ``NUMBA_CACHE_DIR``: the first run compiles, the second
loads the cache; the compile is the difference of their CPU times. Also timed: the test warm-up
(``python -m kout_sim.warmup FAMILY``, each family's process from an empty cache) and a cached
start (import, load the kernels, play the first hand).

    python benchmarks/bench_compile.py [--json] [--skip-warmup]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KOUT_SIM = [sys.executable, "-m", "kout_sim.cli"]

FIRST_RUNS = {
    "kout_bo_4 (default: heuristic matches)": ["simulate", "--matches", "200"],
    "kout_bh_4 heuristic matches": ["simulate", "--preset", "kout_bh_4", "--matches", "200"],
    "baloot heuristic matches": ["simulate", "--preset", "baloot", "--matches", "200"],
    "kout_bo_4 random hands": ["simulate", "--players", "random", "--hands", "100000"],
    "kout_bo_4 ismcts hands": [
        "simulate",
        "--players",
        "ismcts:iterations=20",
        "--players",
        "heuristic",
        "--hands",
        "4",
    ],
    "kout_bo_4 pimc hands": [
        "simulate",
        "--players",
        "pimc:samples=2",
        "--players",
        "heuristic",
        "--hands",
        "4",
    ],
}

CACHED_START = """
import time
t0 = time.perf_counter()
from kout_sim.rules import get_rules
from kout_sim.sim.batch import play_matches, prepare
rules = get_rules("kout_bo_4")
prepare(rules, "heuristic", notice=False)
play_matches(rules, 1, 0, "heuristic", workers=1)
print(time.perf_counter() - t0)
"""


def _child(cmd: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Run ``cmd`` to its end; its wall and CPU seconds and peak memory (``os.wait4``: this child's
    own resource usage)."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{stderr[-2000:]}")
    return {
        "wall": round(wall, 2),
        "cpu": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_mb": round(usage.ru_maxrss / 1024),
        "stdout": stdout,
        "stderr": stderr,
    }


def _env(cache: str) -> dict[str, str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, NUMBA_NUM_THREADS="1")
    env.pop("NUMBA_DISABLE_JIT", None)
    # an installed package has its bytecode written: without it every start compiles the
    # project's sources again (about 0.13 s of the cached start)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def first_run(args: list[str]) -> dict[str, Any]:
    """A command from an empty cache, then again warm: the compile is the CPU difference."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        cmd = [*KOUT_SIM, *args, "--workers", "1", "--out", f"{out}/run"]
        cold = _child(cmd, _env(cache))
        warm = _child([*cmd, "--overwrite"], _env(cache))
    return {
        "compile_cpu": round(cold["cpu"] - warm["cpu"], 1),
        "cold_cpu": cold["cpu"],
        "warm_cpu": warm["cpu"],
        "cold_peak_mb": cold["peak_mb"],
        "notice": next((x for x in cold["stderr"].splitlines() if "compiling" in x), ""),
    }


def warmup() -> dict[str, Any]:
    """The test warm-up, one family process at a time, from an empty cache."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as cache:
        for family in ("kout", "baloot"):
            r = _child([sys.executable, "-m", "kout_sim.warmup", family], _env(cache))
            out[family] = {"cpu": r["cpu"], "wall": r["wall"], "peak_mb": r["peak_mb"]}
        out["total_cpu"] = round(out["kout"]["cpu"] + out["baloot"]["cpu"], 1)
    return out


def cached_start() -> float:
    """Seconds from the import to the end of the first match, kernels in the cache."""
    with tempfile.TemporaryDirectory() as cache:
        _child([sys.executable, "-c", CACHED_START], _env(cache))  # fills the cache
        times = [
            float(_child([sys.executable, "-c", CACHED_START], _env(cache))["stdout"])
            for _ in range(3)
        ]
    return round(sorted(times)[1], 3)


def main() -> None:
    """The command line: time the first run of each family from an empty cache."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--skip-warmup", action="store_true", help="skip the test warm-up")
    ns = parser.parse_args()
    results: dict[str, Any] = {"first_runs": {}}
    for name, args in FIRST_RUNS.items():
        results["first_runs"][name] = first_run(args)
        if not ns.json:
            r = results["first_runs"][name]
            print(
                f"{name:42s} compile {r['compile_cpu']:6.1f} s CPU "
                f"(cold {r['cold_cpu']:.1f}, warm {r['warm_cpu']:.1f}), peak {r['cold_peak_mb']} MB",
                flush=True,
            )
    results["cached_start_seconds"] = cached_start()
    if not ns.json:
        print(f"cached start to the first match: {results['cached_start_seconds']} s", flush=True)
    if not ns.skip_warmup:
        results["warmup"] = warmup()
        if not ns.json:
            w = results["warmup"]
            print(
                f"test warm-up: kout {w['kout']['cpu']} s CPU ({w['kout']['peak_mb']} MB), "
                f"baloot {w['baloot']['cpu']} s CPU ({w['baloot']['peak_mb']} MB), "
                f"total {w['total_cpu']} s CPU",
                flush=True,
            )
    if ns.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
