"""The Baloot heuristic player: decisions with an obvious right answer, and legality at scale.

Positions are data (tests/scenarios/decisions_baloot.json, key ``decisions``): full deals in seat order
(the face-up taker's list includes the face-up card; auction positions give the 5-card first deal),
the calls and plays so far, and the expected action of the seat to act. Rule numbers refer to
RULES.md §3.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.engine.step import NumbaHand
from kout_sim.players import N_PARAMS, parse_lineup
from kout_sim.players.baloot_heuristic import BALOOT_PARAMS, choose_baloot
from kout_sim.players.turn import turn_of
from kout_sim.rules import get_rules
from kout_sim.sim import play_hands, play_matches

DATA = Path(__file__).parent.parent / "scenarios" / "decisions_baloot.json"
RULES = get_rules("baloot")


def _decisions() -> list[Any]:
    doc = json.loads(DATA.read_text())
    return [pytest.param(case, id=case["id"]) for case in doc["decisions"]]


def _position(case: dict[str, Any]) -> NumbaHand:
    """The hand of ``case`` with its calls and plays applied."""
    face = C.parse_card(case["face_up"])
    hands = [[C.parse_card(c) for c in h] for h in case["hands"]]
    if all(len(h) == 5 for h in hands):
        hand = NumbaHand(RULES, case["dealer"], [C.mask_of(h) for h in hands], face_up=face)
    else:
        assert all(len(h) == 8 for h in hands), "give 5-card first deals or 8-card hands"
        rest = [[c for c in h if c != face] for h in hands]
        first = [C.mask_of(h[:5]) for h in rest]
        completion = [C.mask_of(h[5:]) for h in rest]
        hand = NumbaHand(RULES, case["dealer"], first, face_up=face, completion=completion)
    deck = {c for h in hands for c in h} | {face}
    assert len(deck) == sum(len(h) for h in hands) + (0 if any(face in h for h in hands) else 1)
    for action in [*case["calls"], *case["plays"]]:
        hand.apply(action)
    return hand


def _choose(hand: NumbaHand, spec: str = "heuristic") -> str:
    seat = hand.to_act
    assert seat is not None
    prm = parse_lineup(spec, 4, "baloot").params("baloot")[seat]
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    rng[0] = 1
    mask = hand.legal_mask()
    action = int(choose_baloot(hand.S, turn_of(hand.P, hand.STR, MS, rng, prm), mask))
    assert (mask >> action) & 1, f"illegal action {action} for mask {mask:#x}"
    if hand.phase == "play":
        return C.format_card(action)
    return L.BALOOT_CALL_NAMES[action]


@pytest.mark.parametrize("case", _decisions())
def test_decision(case: dict[str, Any]) -> None:
    hand = _position(case)
    got = _choose(hand)
    expect = case["expect"]
    if "action" in expect:
        assert got == expect["action"], case["about"]
    if "one_of" in expect:
        assert got in expect["one_of"], case["about"]
    if "not" in expect:
        assert got not in expect["not"], case["about"]


def test_params_are_well_formed() -> None:
    indices = [p.index for p in BALOOT_PARAMS]
    assert len(set(indices)) == len(indices) and max(indices) < N_PARAMS
    for p in BALOOT_PARAMS:
        assert p.low <= p.default <= p.high and p.meaning


def test_doubling_threshold_999_never_doubles() -> None:
    case = next(c.values[0] for c in _decisions() if "defender" in c.id)
    assert _choose(_position(case), "heuristic:double=999") == "pass"


@pytest.mark.parametrize(
    "players",
    ["heuristic", ["heuristic", "random"], ["random", "heuristic"], "heuristic:epsilon=0.3"],
)
def test_always_legal_over_random_hands(players: Any) -> None:
    # play_hands raises RuntimeError when a policy chooses an illegal action
    rows = play_hands(RULES, 3000, 11, players)
    assert (rows[:, L.R_N_ACTIONS] > 0).all()
    played = rows[:, L.R_MODE] > 0
    assert played.mean() > 0.5
    assert (rows[played, L.R_N_DONE] == 8).all()


def test_always_legal_in_matches() -> None:
    matches, hands, _ = play_matches(RULES, 60, 5, ["heuristic", "random"])
    assert (matches[:, L.X_WINNER] >= 0).all()
    assert len(hands) >= 60


def test_deterministic_without_epsilon() -> None:
    a = play_hands(RULES, 500, 3, "heuristic")
    b = play_hands(RULES, 500, 3, "heuristic")
    assert np.array_equal(a, b)


@pytest.mark.parametrize("calls", [[], ["hokum"]], ids=["first-to-speak", "after-a-hokum"])
def test_kawesh_whenever_it_may_3_2_7(calls: list[str]) -> None:
    # RULES.md 3.2.7 (K): bots call Kawesh whenever they may; seat 1 (P2) holds 7S 8S 9S 7H 8H
    rules = get_rules("baloot", {"profile": "kammelna"})
    deal = ["AS KS QS JS TS", "7S 8S 9S 7H 8H", "AH KH QH JH TH", "AD KD QD JD TD"]
    first = [C.mask_of(C.parse_card(c) for c in h.split()) for h in deal]
    hand = NumbaHand(rules, 0 if not calls else 3, first, face_up=C.parse_card("9H"))
    for action in calls:
        hand.apply(action)
    assert hand.to_act == 1 and "kawesh" in hand.legal_actions()
    assert _choose(hand) == "kawesh"


def test_hand_values_follow_their_rules_on_a_worked_hand() -> None:
    """The hand values behind the heuristic's calls, worked by hand from their rules (RULES.md 3.1
    orders; the values of ``evaluate_sun`` / ``evaluate_hokum``): J♠ 9♠ A♠ A♥ T♥ K♦ 7♣ 8♣."""
    from kout_sim.players.baloot_heuristic import evaluate_hokum, evaluate_sun

    hand = C.mask_of(C.parse_card(c) for c in ["JS", "9S", "AS", "AH", "TH", "KD", "7C", "8C"])
    # Sun: A♠ 10 (three spades: no long-suit bonus); A♥ 10 and T♥ behind its Ace 7; K♦ bare 0
    assert evaluate_sun(hand) == 27.0
    # Hokum spades: J 12 + 9 10 + A 7 and one trump beyond two 2; hearts A 6 and T behind it 3;
    # K♦ a singleton that is not an Ace, with two trumps or more 1; clubs nothing
    assert evaluate_hokum(hand, C.SUITS.index("S")) == 41.0
    # Hokum clubs: 7 2 + 8 2 (two trumps: no bonus); A♠ 6; A♥ 6 and T♥ behind it 3; with two
    # trumps K♦ is a singleton that may ruff later 1
    assert evaluate_hokum(hand, C.SUITS.index("C")) == 2.0 + 2.0 + 6.0 + 6.0 + 3.0 + 1.0


def test_masters_table_agrees_with_the_outranking_rows() -> None:
    """``_masters`` (one mask a decision) says of every card what ``unseen & STR[T_ABOVE_LED or
    T_ABOVE_TRUMP, card] == 0`` says (RULES.md 3.1 orders), for every unseen pattern of a suit."""
    from kout_sim.engine.tables import tables_of
    from kout_sim.players.baloot_heuristic import _masters

    _, STR = tables_of(get_rules("baloot"))
    ids = [13 * s + r for s in range(4) for r in range(5, 13)]
    rng = np.random.default_rng(0)
    unseens = [sum(1 << c for c in ids if (u >> (c % 13 - 5)) & 1) for u in range(256)]
    unseens += [int(sum(1 << c for c in ids if rng.random() < 0.5)) for _ in range(256)]
    for trow in (0, 1, 2, 3, L.T_NO_TRUMP):
        for unseen in unseens:
            masters = _masters(trow, unseen)
            for card in ids:
                row = L.T_ABOVE_TRUMP if card // 13 == trow else L.T_ABOVE_LED
                assert (masters >> card) & 1 == (1 if unseen & STR[row, card] == 0 else 0)
