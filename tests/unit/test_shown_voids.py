"""What a card shows of its player's hand (``S_VOIDS``, the samplers' input) is in every state a
sampler can read: a position stopped mid-hand by the play loop, and a hand stepped from Python.

The engine's ``apply_card`` does not enter it (a hand played to its end without a search is never
sampled); the play loop does when it may stop (``limit``) or a seat searches, and
``NumbaHand.apply`` always does (``kout_sim.engine.game.record_play``). Checked on heuristic hands of
every preset, ply by ply: a seat that did not follow the led suit is shown void in it (RULES.md 1.5,
2.6, 3.4.1), the facts only grow, and the Python stepping API enters the same facts as the loop.
"""

from __future__ import annotations

import pytest

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.engine.step import NumbaHand
from kout_sim.rules import get_rules, preset_names
from tests.unit._trace import trace

SEED = 11
HANDS = 6


@pytest.mark.parametrize("preset", preset_names())
def test_stopped_positions_show_every_void_1_5_2_6_3_4_1(preset: str) -> None:
    rules = get_rules(preset)
    shown = 0
    for hand in range(HANDS):
        _, actions, _, _ = trace(preset, SEED, hand)
        for t, action in enumerate(actions):
            if action >= L.CALL:
                continue
            before, _, _, _ = trace(preset, SEED, hand, limit=t)
            after, _, _, _ = trace(preset, SEED, hand, limit=t + 1)
            assert before[L.S_PHASE] == L.PH_PLAY
            old, new = int(before[L.S_VOIDS]), int(after[L.S_VOIDS])
            assert old & ~new == 0, f"hand {hand} ply {t}: a shown fact was lost"
            seat, led = int(before[L.S_TO_ACT]), int(before[L.S_LED])
            if before[L.S_N_IN_TRICK] > 0 and led >= 0 and action < 52 and action // 13 != led:
                assert (new >> (seat * 8 + led)) & 1, f"hand {hand} ply {t}: void not shown"
                shown += 1
            stepped = NumbaHand.from_state(rules, before.copy())
            stepped.apply(C.format_card(action))
            assert int(stepped.S[L.S_VOIDS]) == new, (
                f"hand {hand} ply {t}: the stepped hand differs"
            )
    assert shown > 0  # the hands did show voids
