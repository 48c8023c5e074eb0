"""Two revisions of kout_sim timed in one process, alternating: the comparison that holds on a
shared machine.

    PYTHONPATH=. python benchmarks/ab_trees.py --base REV [--preset kout_bo_4]
        [--players random] [--option k=v ...] [--hands 1000000] [--rounds 12] [--seed 0] [--json]

``REV`` (any git revision of this repository) is exported into a temporary folder as the package
``kout_base``, and this checkout's ``kout_sim`` as it stands (uncommitted changes included) is
copied beside it as ``kout_head`` (the package imports itself by relative imports on this path):
both sides are renamed copies, imported, compiled and cached alike. Each round plays the same number of independent seeded hands
(``play_hands``, one worker, the result rows written to a reused buffer, as ``kout-sim bench``)
with each package, the order alternating, and takes the ratio of the two rates: the figure is the
median of the rounds' ratios (above 1: this checkout is faster). A round's rate is of the thread's
CPU time (``time.thread_time``: the hands run in the calling thread), so the time this process
waits while other jobs hold the cores does not count; the ratio of wall times is printed beside it.
The two packages' rows of the first round are compared too (``same_rows``): a change meant to keep
the results must keep them.

Why: on this project's 2-core machine the same code timed in separate processes varied by 40-60%
(other jobs, the core a process lands on); two packages in one process, alternating, gave ratios
of 0.98-1.08 for identical code (docs/performance.md, session 20). Each package compiles its own
kernels on first use (a cold copy takes as long as a first ``simulate``); the cache keeps each
copy's apart, under ``~kout_base/`` and ``~kout_head/`` (``kout_sim.engine._jit``). On the slower
machine of session 21, with two other jobs on its two cores, identical code gave 0.97x by CPU time
(rounds 0.68-1.24x): a figure within a few percent of 1 is no difference.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def export_base(rev: str, into: Path) -> None:
    """``kout_sim`` at the git revision ``rev`` as the package ``into / kout_base``."""
    try:
        data = subprocess.run(
            ["git", "archive", "--format=tar", rev, "kout_sim"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        ).stdout
    except subprocess.CalledProcessError as error:
        message = error.stderr.decode(errors="replace").strip().splitlines()
        detail = message[-1] if message else ""
        raise SystemExit(f"ab_trees: no revision {rev!r}: {detail}") from None
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        archive.extractall(into, filter="data")
    shutil.move(str(into / "kout_sim"), str(into / "kout_base"))


def export_checkout(into: Path) -> None:
    """Copy the checkout's ``kout_sim`` as it stands (uncommitted changes included) as the package
    ``into / kout_head``: both sides of a comparison are renamed copies, imported, compiled and
    cached the same way."""
    shutil.copytree(
        ROOT / "kout_sim", into / "kout_head", ignore=shutil.ignore_patterns("__pycache__")
    )


def _modules(package: str) -> tuple[ModuleType, ModuleType, ModuleType]:
    rules = importlib.import_module(package + ".rules")
    batch = importlib.import_module(package + ".sim.batch")
    play = importlib.import_module(package + ".drivers.play")
    return rules, batch, play


def compare(
    base: str,
    preset: str,
    players: str,
    hands: int,
    rounds: int,
    seed: int,
    options: dict[str, object] | None = None,
) -> Any:
    """The rates of the two packages per round, and the median of the rounds' ratios (the rules:
    ``preset`` with the rule ``options``)."""
    same_rows = False
    with tempfile.TemporaryDirectory(prefix="ab_trees_") as tmp:
        export_base(base, Path(tmp))
        export_checkout(Path(tmp))
        sys.path.insert(0, tmp)
        try:
            impls = {}
            for name, package in (("base", "kout_base"), ("head", "kout_head")):
                rules_mod, batch, play = _modules(package)
                rules = rules_mod.get_rules(preset, options or None)
                lineup = batch.lineup_of(rules, players)
                batch.play_hands(rules, 1000, seed, lineup, workers=1)  # compile, or load the cache
                impls[name] = (batch, rules, lineup, play.new_rows(hands))
        finally:
            sys.path.remove(tmp)  # kout_base is imported; its folder goes with the directory
        rates: dict[str, list[float]] = {"base": [], "head": []}
        cpu: dict[str, list[float]] = {"base": [], "head": []}
        for r in range(rounds):
            for name in ("base", "head") if r % 2 == 0 else ("head", "base"):
                batch, rules, lineup, out = impls[name]
                start = time.perf_counter()
                start_cpu = time.thread_time()  # one worker: the hands run in this thread
                batch.play_hands(rules, hands, seed, lineup, first=r * hands, workers=1, out=out)
                cpu[name].append(hands / max(time.thread_time() - start_cpu, 1e-9))
                rates[name].append(hands / (time.perf_counter() - start))
            if r == 0:
                same_rows = bool(np.array_equal(impls["base"][3], impls["head"][3]))
        ratios = [h / b for b, h in zip(cpu["base"], cpu["head"], strict=True)]
        wall = [h / b for b, h in zip(rates["base"], rates["head"], strict=True)]
    return {
        "base": base,
        "preset": preset,
        "players": players,
        "options": options or {},
        "hands": hands,
        "rounds": rounds,
        "base_hands_per_second_median": round(statistics.median(rates["base"])),
        "head_hands_per_second_median": round(statistics.median(rates["head"])),
        "ratio_median": round(statistics.median(ratios), 3),
        "ratio_min": round(min(ratios), 3),
        "ratio_max": round(max(ratios), 3),
        "wall_ratio_median": round(statistics.median(wall), 3),
        "wall_ratio_min": round(min(wall), 3),
        "wall_ratio_max": round(max(wall), 3),
        "same_rows": same_rows,
    }


def main(argv: list[str] | None = None) -> None:
    """The command line (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="git revision to compare this checkout with")
    parser.add_argument("--preset", default="kout_bo_4")
    parser.add_argument("--players", default="random", help="a line-up, as kout-sim bench takes")
    parser.add_argument("--option", action="append", default=[], help="rule option k=v")
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands a round (default 1e6)")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    if args.hands < 1000 or args.rounds < 1:
        parser.error("--hands must be at least 1000 and --rounds at least 1")
    options: dict[str, object] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = {"true": True, "false": False}.get(value.lower(), value)
    result = compare(
        args.base, args.preset, args.players, args.hands, args.rounds, args.seed, options
    )
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{args.preset} {args.players}, {args.hands:,} hands x {args.rounds} rounds: base "
        f"{args.base} {result['base_hands_per_second_median']:,} hands/s, this checkout "
        f"{result['head_hands_per_second_median']:,} (medians, wall); ratio of CPU time "
        f"{result['ratio_median']}x (rounds {result['ratio_min']}-{result['ratio_max']}x), of wall "
        f"time {result['wall_ratio_median']}x (rounds {result['wall_ratio_min']}-"
        f"{result['wall_ratio_max']}x); same rows: {result['same_rows']}"
    )


if __name__ == "__main__":
    main()
