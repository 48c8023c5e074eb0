"""Where the compile time goes: numba's compile events per kernel, from an empty cache.

Runs one warm-up family (``kout_sim.warmup.warm``) in this process with a fresh
``NUMBA_CACHE_DIR`` and numba's ``numba:compile`` events recorded, then prints the kernels by their
own compile time (the time of their compile minus the compiles nested in it), how many signatures
each was compiled for, and the total; then the kernels compiled for a literal argument (a Python
constant passed to a kernel is typed ``Literal[int](0)``, and each constant is one more compiled
copy of the kernel with its callees' code: pass ``np.int64(0)``).

    python benchmarks/profile_compile.py kout [--top 25] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any


def profile(family: str) -> dict[str, Any]:
    """Warm ``family`` from an empty cache, recording every compile event; per kernel: self
    seconds, signatures compiled, and the seconds of its compiles including nested ones."""
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="kout_sim_profile_")
    from numba.core import event

    from kout_sim import warmup

    started = time.process_time()
    with event.install_recorder("numba:compile") as recorder:
        warmup.warm(family)
    cpu = time.process_time() - started

    own: dict[str, float] = defaultdict(float)
    total: dict[str, float] = defaultdict(float)
    signatures: dict[str, int] = defaultdict(int)
    literal: dict[str, list[str]] = defaultdict(list)
    stack: list[tuple[str, float, float]] = []  # (kernel, start, nested seconds)
    for stamp, ev in recorder.buffer:
        dispatcher = ev.data["dispatcher"]
        name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
        if ev.is_start and "Literal[" in str(ev.data["args"]):
            literal[name].append(str(ev.data["args"]))
        if ev.is_start:
            stack.append((name, stamp, 0.0))
            continue
        name, begun, nested = stack.pop()
        spent = stamp - begun
        own[name] += spent - nested
        total[name] += spent
        signatures[name] += 1
        if stack:
            parent, parent_begun, parent_nested = stack[-1]
            stack[-1] = (parent, parent_begun, parent_nested + spent)
    rows: list[dict[str, Any]] = sorted(
        (
            {
                "kernel": k,
                "own_s": round(v, 2),
                "with_nested_s": round(total[k], 2),
                "signatures": signatures[k],
            }
            for k, v in own.items()
        ),
        key=lambda r: -float(r["own_s"]),
    )
    return {"family": family, "cpu_s": round(cpu, 1), "kernels": rows, "literal": dict(literal)}


def main() -> None:
    """The command line: profile one family's compile and list its costliest kernels."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", choices=("kout", "baloot"))
    parser.add_argument("--top", type=int, default=25, help="kernels to list (default 25)")
    parser.add_argument("--json", action="store_true", help="print the whole profile as JSON")
    args = parser.parse_args()
    result = profile(args.family)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    rows = result["kernels"]
    print(f"{args.family}: {result['cpu_s']} s of CPU, {len(rows)} kernels compiled")
    print(f"{'own s':>8} {'nested s':>9} {'sigs':>5}  kernel")
    for r in rows[: args.top]:
        print(f"{r['own_s']:8.2f} {r['with_nested_s']:9.2f} {r['signatures']:5d}  {r['kernel']}")
    print(f"{sum(float(r['own_s']) for r in rows):8.2f} in all compile events", file=sys.stdout)
    for kernel, found in result["literal"].items():
        print(f"compiled for a literal argument: {kernel}: {'; '.join(found)}")


if __name__ == "__main__":
    main()
