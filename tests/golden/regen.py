"""Rewrite every golden file: ``python -m tests.golden.regen`` from the repository root.

Run it only when a change of behaviour is intended (rules, random streams, dealing, a player), then
review the diff of ``tests/golden/`` like any other change.
"""

from __future__ import annotations

import sys

from kout_sim.rules import preset_names

from . import playthrough as PT
from .test_golden import HERE, playthrough


def main() -> None:
    """Write the three-hand random playthroughs and the whole-match playthroughs."""
    for name in preset_names():
        (HERE / f"{name}.txt").write_text(playthrough(name))
        print(f"wrote {name}.txt", file=sys.stderr)
    PT.DIR.mkdir(exist_ok=True)
    for stale in set(PT.DIR.glob("*.txt")) - set(PT.expected_files()):
        stale.unlink()
    for preset in preset_names():
        for kind in PT.kinds_of(preset):
            path = PT.path_of(preset, kind)
            path.write_text(PT.match_playthrough(preset, kind))
            print(f"wrote {path.relative_to(HERE)}", file=sys.stderr)


if __name__ == "__main__":
    main()
