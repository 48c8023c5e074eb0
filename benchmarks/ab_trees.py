"""Two revisions of kout_sim timed in one process, alternating: the comparison that holds on a
shared machine.

    PYTHONPATH=. python benchmarks/ab_trees.py --base REV [--preset kout_bo_4]
        [--players random] [--option k=v ...] [--hands 1000000] [--rounds 12] [--seed 0] [--json]
    PYTHONPATH=. python benchmarks/ab_trees.py --base REV --solver [--preset kout_bo_4]
        [--option k=v ...] [--deals 100] [--repeats 2] [--seed 3] [--json]

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

With ``--solver`` the two packages' double-dummy solvers take turns instead, deal by deal (the
order alternating): full-hand values from the first lead of ``kout-sim bench --solver``'s deals
(the heuristic line-up's contract), each solved ``--repeats`` times by each package, the smallest
thread CPU time kept. The figure is the median of the per-deal ratios (above 1: this checkout is
faster), beside the medians and means of both and their node counts; ``same_values`` says whether
every deal got the same value from both (a speed change must keep them).

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
import contextlib
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
from collections.abc import Iterator
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


def _forget() -> None:
    """Drop the two packages of an earlier comparison in this process from ``sys.modules``: their
    folder went with its temporary directory, so their submodules not yet imported could not be."""
    for name in list(sys.modules):
        if name.split(".")[0] in ("kout_base", "kout_head"):
            del sys.modules[name]


@contextlib.contextmanager
def _both_trees(base: str) -> Iterator[None]:
    """Inside the block, the revision ``base`` imports as ``kout_base`` and the checkout as it
    stands as ``kout_head`` (their folder is removed when it ends; imported modules stay)."""
    _forget()
    with tempfile.TemporaryDirectory(prefix="ab_trees_") as tmp:
        export_base(base, Path(tmp))
        export_checkout(Path(tmp))
        sys.path.insert(0, tmp)
        try:
            yield
        finally:
            sys.path.remove(tmp)


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
    with _both_trees(base):
        impls = {}
        for name, package in (("base", "kout_base"), ("head", "kout_head")):
            rules_mod, batch, play = _modules(package)
            rules = rules_mod.get_rules(preset, options or None)
            lineup = batch.lineup_of(rules, players)
            batch.play_hands(rules, 1000, seed, lineup, workers=1)  # compile, or load the cache
            impls[name] = (batch, rules, lineup, play.new_rows(hands))
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


def compare_solver(
    base: str,
    preset: str,
    deals: int,
    repeats: int,
    seed: int,
    options: dict[str, object] | None = None,
) -> Any:
    """Full-hand double-dummy values of ``deals`` deals by the two packages' solvers, alternating
    deal by deal: the per-deal ratios of CPU time (the smallest of ``repeats`` solves each), the
    node counts, and whether every value agreed."""
    with _both_trees(base):
        solvers = {}
        for name, package in (("base", "kout_base"), ("head", "kout_head")):
            rules = importlib.import_module(package + ".rules").get_rules(preset, options or None)
            bench = importlib.import_module(package + ".bench")
            solver = importlib.import_module(package + ".solver").Solver(rules)
            if name == "head":
                states = bench.first_leads(rules, deals + 1, seed)
            solvers[name] = solver
        for solver in solvers.values():
            solver.value(states[0].copy())  # compile, or load the cache
        cpu: dict[str, list[float]] = {"base": [], "head": []}
        nodes: dict[str, list[int]] = {"base": [], "head": []}
        same_values = True
        for i, state in enumerate(states[1:]):
            values = set()
            for name in ("base", "head") if i % 2 == 0 else ("head", "base"):
                solver = solvers[name]
                best = float("inf")
                for _ in range(repeats):
                    before = solver.nodes
                    start = time.thread_time()
                    values.add(solver.value(state.copy()))
                    best = min(best, time.thread_time() - start)
                cpu[name].append(best)
                nodes[name].append(solver.nodes - before)
            same_values = same_values and len(values) == 1
    ratios = [b / max(h, 1e-9) for b, h in zip(cpu["base"], cpu["head"], strict=True)]

    def ms(xs: list[float]) -> tuple[float, float]:
        return round(1000 * statistics.median(xs), 3), round(1000 * statistics.fmean(xs), 3)

    return {
        "base": base,
        "preset": preset,
        "options": options or {},
        "deals": deals,
        "repeats": repeats,
        "seed": seed,
        "base_cpu_ms_median": ms(cpu["base"])[0],
        "head_cpu_ms_median": ms(cpu["head"])[0],
        "base_cpu_ms_mean": ms(cpu["base"])[1],
        "head_cpu_ms_mean": ms(cpu["head"])[1],
        "ratio_median": round(statistics.median(ratios), 3),
        "base_nodes_median": int(statistics.median(nodes["base"])),
        "head_nodes_median": int(statistics.median(nodes["head"])),
        "base_nodes_mean": round(statistics.fmean(nodes["base"])),
        "head_nodes_mean": round(statistics.fmean(nodes["head"])),
        "same_values": same_values,
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
    parser.add_argument("--seed", type=int, default=None, help="default 0 (--solver: 3)")
    parser.add_argument("--solver", action="store_true", help="time the double-dummy solvers")
    parser.add_argument("--deals", type=int, default=100, help="--solver: deals (default 100)")
    parser.add_argument("--repeats", type=int, default=2, help="--solver: solves a deal (2)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    if args.hands < 1000 or args.rounds < 1:
        parser.error("--hands must be at least 1000 and --rounds at least 1")
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be at least 1")
    options: dict[str, object] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = {"true": True, "false": False}.get(value.lower(), value)
    if args.solver:
        seed = 3 if args.seed is None else args.seed
        found = compare_solver(args.base, args.preset, args.deals, args.repeats, seed, options)
        if args.json:
            print(json.dumps(found))
            return
        print(
            f"{args.preset} solver, {args.deals} deals (seed {seed}), the smallest CPU time of "
            f"{args.repeats} solves a deal: base {args.base} median {found['base_cpu_ms_median']} "
            f"ms (mean {found['base_cpu_ms_mean']}), this checkout {found['head_cpu_ms_median']} "
            f"ms (mean {found['head_cpu_ms_mean']}); per-deal ratio {found['ratio_median']}x "
            f"(median); nodes median {found['base_nodes_median']:,} -> "
            f"{found['head_nodes_median']:,}, mean {found['base_nodes_mean']:,} -> "
            f"{found['head_nodes_mean']:,}; same values: {found['same_values']}"
        )
        return
    args.seed = 0 if args.seed is None else args.seed
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
