"""Golden playthroughs: seeded games per preset written out as text and compared exactly.

Two kinds: the first three hands of the random stream of each preset (``<preset>.txt``), and one
whole match per preset and player kind with the legal set at every decision
(``playthroughs/<preset>.<kind>.txt``, see :mod:`tests.golden.playthrough`).

Any change of behaviour (rules, random streams, dealing, a player) changes these files. When a
change is intended, regenerate them with ``python -m tests.golden.regen`` and review the diff like
any other.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.drivers.play import random_hand_traced
from kout_sim.engine import layout as L
from kout_sim.engine.step import NumbaHand, decode_action
from kout_sim.engine.tables import tables_of
from kout_sim.rules import get_rules, preset_names

from . import playthrough as PT

HERE = Path(__file__).parent
SEED = 20261130
N_HANDS = 3


def playthrough(preset: str) -> str:
    """The first hands of the seeded random stream of ``preset``, as text."""
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    baloot = rules.is_baloot
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


def test_every_preset_has_a_whole_match_golden_for_every_player_kind() -> None:
    assert set(PT.KINDS) == {"random", "heuristic", "ismcts", "pimc"}
    assert all(set(PT.kinds_of(p)) >= {"random", "heuristic", "ismcts"} for p in preset_names())
    assert [p for p in preset_names() if "pimc" in PT.kinds_of(p)] == [
        p for p in preset_names() if get_rules(p).n_players == 4
    ]
    assert set(PT.OPTIONS) == set(preset_names())
    present = set(PT.DIR.glob("*.txt"))
    missing = [p.name for p in PT.expected_files() if p not in present]
    stray = [p.name for p in present - set(PT.expected_files())]
    assert not missing and not stray, (missing, stray)


@pytest.mark.parametrize(
    ("preset", "kind"),
    [(preset, kind) for preset in preset_names() for kind in PT.kinds_of(preset)],
)
def test_golden_match_playthrough(preset: str, kind: str) -> None:
    expected = PT.path_of(preset, kind).read_text()
    got = PT.match_playthrough(preset, kind)
    assert got == expected
    # a whole match: several hands, a legal set at every decision, and the end of the match
    assert got.count("\nhand ") >= 2 and "\nmatch over: winner team " in got
    decisions = re.findall(r"^  \d+: .+\n    legal (.+) -> (\S+)$", got, re.MULTILINE)
    assert len(decisions) == len(re.findall(r"^  \d+: ", got, re.MULTILINE)) >= 20
    assert all(action in legal.split() for legal, action in decisions)
