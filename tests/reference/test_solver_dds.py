"""The double-dummy solver against DDS, an independent solver, where Kout is bridge.

Once its jokers are played, a 4-seat Kout position is a bridge position: follow suit if able, a
void hand plays any card with no duty to trump, the highest trump wins, else the highest card of
the led suit (RULES.md 1.5 / 1.9, 2.6 / 2.7). DDS (Bo Haglund's bridge solver, through endplay, a
dev dependency) must then give the bidding team the same tricks as kout_sim's solver, for every
legal card, at trick starts and inside a trick (``benchmarks/dds_side_by_side.py`` builds the
positions: the jokers fall in the first trick).
"""

from __future__ import annotations

import pytest

from benchmarks.dds_side_by_side import (
    SOLUTIONS_ALL,
    SOLUTIONS_BEST,
    bidding_total,
    dds_deal,
    dds_solve,
    joker_free_positions,
    load_dds,
)
from kout_sim.cards import JOKER_MASK
from kout_sim.engine import layout as L
from kout_sim.rules import get_rules
from kout_sim.solver import solver_for

POSITIONS = 24


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4"])
def test_rules_1_5_and_2_6_card_values_equal_dds_once_the_jokers_are_played(preset: str) -> None:
    rules = get_rules(preset)
    dds = load_dds()
    solver = solver_for(rules)
    states = joker_free_positions(rules, POSITIONS, seed=7, extra=(0, 1, 2, 3))
    assert len(states) == POSITIONS
    in_trick = [int(S[L.S_N_IN_TRICK]) for S in states]
    assert set(in_trick) == {0, 1, 2, 3}
    for S in states:
        assert all(int(S[L.S_HAND + s]) & JOKER_MASK == 0 for s in range(4))
        ours = solver.card_values(S.copy())
        scores, _, _ = dds_solve(dds, dds_deal(dds, S), SOLUTIONS_ALL)
        theirs = {c: bidding_total(S, rules.n_tricks, v) for c, v in scores.items()}
        assert ours == theirs


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4"])
def test_the_value_at_a_trick_start_equals_dds_best_card(preset: str) -> None:
    rules = get_rules(preset)
    dds = load_dds()
    solver = solver_for(rules)
    states = joker_free_positions(rules, POSITIONS, seed=11)
    seen = set()
    for S in states:
        assert int(S[L.S_N_IN_TRICK]) == 0 and int(S[L.S_N_DONE]) == 1
        scores, _, _ = dds_solve(dds, dds_deal(dds, S), SOLUTIONS_BEST)
        (score,) = set(scores.values())  # the best card and its equals
        value = solver.value(S.copy())
        assert value == bidding_total(S, rules.n_tricks, score)
        seen.add(value - int(S[L.S_HIGH_BID]))
    assert len(seen) > 2  # made and beaten contracts alike


def test_dds_deal_refuses_a_position_that_holds_a_joker() -> None:
    from kout_sim.bench import first_leads

    rules = get_rules("kout_bo_4")
    S = first_leads(rules, 1, seed=3)[0]
    assert any(int(S[L.S_HAND + s]) & JOKER_MASK for s in range(4))
    with pytest.raises(ValueError, match="DDS has no jokers"):
        dds_deal(load_dds(), S)
    with pytest.raises(ValueError, match="4-seat Kout preset"):
        joker_free_positions(get_rules("kout_bo_6"), 1)
