"""Golden playthroughs: a seeded game per preset written out as text and diffed.

Any change of behaviour (rules, random streams, dealing, the random player) changes these files.
When a change is intended, regenerate them with ``python tests/golden/test_golden.py`` and review the
diff like any other.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.drivers.play import random_hand_traced
from kout_sim.engine import layout as L
from kout_sim.engine.step import NumbaHand, decode_action
from kout_sim.engine.tables import tables_of
from kout_sim.rules import get_rules, preset_names

HERE = Path(__file__).parent
SEED = 20261130
N_HANDS = 3


def playthrough(preset: str) -> str:
    """The first hands of the seeded random stream of ``preset``, as text."""
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    baloot = rules.preset.family == "baloot"
    lines = [f"# {preset}, seed {SEED}, random players"]
    for i in range(N_HANDS):
        hands = np.zeros(6, dtype=np.int64)
        actions = np.zeros(128, dtype=np.int64)
        legal = np.zeros(128, dtype=np.int64)
        S = np.zeros(L.S_SIZE, dtype=np.int64)
        k = random_hand_traced(P, STR, SEED, i, hands, actions, legal, S, -1)
        lines.append(f"hand {i}: dealer {int(S[L.S_DEALER])}")
        for seat in range(rules.n_players):
            lines.append(f"  seat {seat}: {' '.join(C.format_mask(int(hands[seat])))}")
        if baloot:
            lines.append(f"  face up: {C.format_card(int(S[L.B_FACE_UP]))}")
        acts = [str(decode_action(int(a), baloot)) for a in actions[:k]]
        for start in range(0, len(acts), 12):
            lines.append("  " + " ".join(acts[start : start + 12]))
        result = NumbaHand.from_state(rules, S).result()
        lines.append("  result: " + ", ".join(f"{key}={value}" for key, value in result.items()))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("preset", preset_names())
def test_golden_playthrough(preset: str) -> None:
    expected = (HERE / f"{preset}.txt").read_text()
    assert playthrough(preset) == expected


if __name__ == "__main__":  # regenerate
    for name in preset_names():
        (HERE / f"{name}.txt").write_text(playthrough(name))
        print(f"wrote {name}.txt", file=sys.stderr)
