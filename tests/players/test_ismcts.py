"""ISMCTS: legal in every preset, no information leak, sensible in clear positions."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.engine.game import legal_mask
from kout_sim.engine.step import NumbaHand, actions_of_mask
from kout_sim.engine.tables import tables_of
from kout_sim.players import parse_lineup
from kout_sim.players.ismcts import N_INT_ROWS, SEARCH
from kout_sim.players.turn import turn_of
from kout_sim.rules import get_rules
from kout_sim.sim import play_hands

from .test_sampler import PRESETS, hidden_swaps, random_positions, rng_of

ITERATIONS = 200


def _search(preset: str, S: np.ndarray, rng: np.ndarray, spec: str = "ismcts") -> int:
    rules = get_rules(preset)
    P, STR = tables_of(rules)
    full = f"{spec}{',' if ':' in spec else ':'}iterations={ITERATIONS}"
    prm = parse_lineup(full, rules.n_players, rules.family)
    row = prm.params(rules.family)[0]
    fam = int(P[L.P_FAMILY])
    mask = int(legal_mask(S, P, STR, fam))
    nodes = np.empty((N_INT_ROWS, ITERATIONS + 2), dtype=np.int64)
    value = np.empty(ITERATIONS + 2, dtype=np.float64)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    action = int(SEARCH[fam](S.copy(), turn_of(P, STR, MS, rng, row, (nodes, value)), mask))
    assert (mask >> action) & 1, "the search chose an illegal action"
    return action


@pytest.mark.parametrize("preset", PRESETS)
def test_search_chooses_legal_actions_in_every_preset(preset: str) -> None:
    decided = 0
    for i, pos in enumerate(random_positions(preset, 30, 11)):
        P, STR = tables_of(pos.rules)
        if legal_mask(pos.S, P, STR, int(P[L.P_FAMILY])) != 0:  # a decision is due
            _search(preset, pos.S, rng_of(4, i))  # asserts legality
            decided += 1
    assert decided >= 20


def test_search_plugs_into_the_batch_driver() -> None:
    # RULES.md 0.5: play_hands raises if a policy chose an illegal action
    rows = play_hands(
        get_rules("kout_bo_4"), 6, 3, ["ismcts:iterations=30", "heuristic"], workers=1
    )
    assert (rows[:, L.R_N_ACTIONS] > 0).all()


def check_hidden_swaps(preset: str, decide: Callable[[np.ndarray, np.ndarray], int]) -> None:
    """Permuting the other seats' hidden cards within what the deciding seat knows (same class,
    both seats allowed to hold it) changes neither its information nor ``decide(S, rng)``."""
    rnd = random.Random(5)
    checked = 0
    for i, pos in enumerate(random_positions(preset, 40, 77)):
        S = pos.S
        if S[L.S_PHASE] == L.PH_OVER:
            continue
        seat = int(S[L.S_TO_ACT])
        P, STR = tables_of(pos.rules)
        mask = int(legal_mask(S, P, STR, int(P[L.P_FAMILY])))
        if mask & (mask - 1) == 0:
            continue
        S2 = next(hidden_swaps(pos, S, seat, rnd), None)  # the first swap only
        if S2 is not None:
            one = decide(S, rng_of(13, i))
            two = decide(S2, rng_of(13, i))
            assert one == two, f"position {i}: decision {one} became {two}"
            checked += 1
        if checked >= 8:
            break
    assert checked >= 5


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "baloot"])
def test_decision_ignores_hidden_cards_the_seat_cannot_know(preset: str) -> None:
    check_hidden_swaps(preset, lambda S, rng: _search(preset, S, rng))


# ---- positions with one clearly right move ------------------------------------------------------

CLEAR = {
    # the only card that wins the trick against the trump Ace (RULES.md 1.1)
    "1.1-last-seat-takes-the-trump-ace-with-RJ": "RJ",
    # ruffing would strand the joker as the last card to lead and lose the match (RULES.md 2.8)
    "2.8-joker-and-a-trump-that-would-win-play-the-joker": "JK",
    "2.8-joker-and-a-trump-against-a-led-ace-play-the-joker": "JK",
}


def clear_position(case_id: str) -> tuple[str, NumbaHand]:
    """The preset and the hand of a scenario of ``decisions_kout.json`` at its decision."""
    cases = json.loads(
        (Path(__file__).parent.parent / "scenarios" / "decisions_kout.json").read_text()
    )["cases"]
    record = next(c for c in cases if c["id"] == case_id)["record"]
    rules = get_rules(record["rules"])
    hands = [C.mask_of(C.parse_card(c) for c in h) for h in record["hands"]]
    hand = NumbaHand(rules, record["dealer"], hands)
    for action in [*record.get("calls", []), record["trump"], *record.get("plays", [])]:
        hand.apply(action)
    return record["rules"], hand


@pytest.mark.parametrize("case_id", sorted(CLEAR))
def test_search_finds_the_clearly_right_move(case_id: str) -> None:
    preset, hand = clear_position(case_id)
    action = _search(preset, hand.S, rng_of(21, 0), "ismcts:reward=2")
    assert actions_of_mask(hand.phase, 1 << action)[0] == CLEAR[case_id]
