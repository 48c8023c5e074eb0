"""The Kout heuristic player: documented parameters, obvious decisions, legality and sanity.

The decision cases live in ``tests/scenarios/decisions_kout.json``: each builds a position through
the replay vocabulary and names the acceptable choices of the seat to act.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.engine.rng import LANE_PLAY, seed_stream
from kout_sim.engine.step import NumbaHand, actions_of_mask
from kout_sim.engine.tables import tables_of
from kout_sim.players import PLAYERS, parse_lineup
from kout_sim.players.kout_heuristic import KOUT_PARAMS, choose_kout, score_adjust
from kout_sim.players.registry import N_PARAMS
from kout_sim.players.turn import turn_of
from kout_sim.rules import get_rules
from kout_sim.sim import play_hands, play_matches

KOUT_PRESETS = ["kout_bo_4", "kout_bo_6", "kout_bh_4", "kout_bh_6"]
CASES = json.loads(
    (Path(__file__).parent.parent / "scenarios" / "decisions_kout.json").read_text()
)["cases"]


def _decide(record: dict[str, Any], spec: str = "heuristic") -> tuple[Any, list[Any]]:
    """The heuristic's choice in the position of ``record``, and the legal actions there."""
    rules = get_rules(record["rules"])
    hands = [C.mask_of(C.parse_card(c) for c in h) for h in record["hands"]]
    hand = NumbaHand(rules, record["dealer"], hands)
    for call in record.get("calls", []):
        hand.apply(call)
    if "trump" in record:
        hand.apply(record["trump"])
    for card in record.get("plays", []):
        hand.apply(card)
    lineup = parse_lineup(spec, rules.n_players, rules.family)
    prm = lineup.params(rules.family)[0]
    rng = np.empty(4, dtype=np.uint64)
    seed_stream(rng, 0, 0, LANE_PLAY)
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    mask = hand.legal_mask()
    action = int(choose_kout(hand.S, turn_of(hand.P, hand.STR, MS, rng, prm), mask))
    assert (mask >> action) & 1, "the heuristic chose an illegal action"
    return actions_of_mask(hand.phase, 1 << action)[0], hand.legal_actions()


# ---- parameters ---------------------------------------------------------------------------------


def test_params_are_documented_and_registered() -> None:
    assert PLAYERS["heuristic"].params_for("kout") == KOUT_PARAMS
    slots = [p.index for p in KOUT_PARAMS]
    assert len(set(slots)) == len(slots) and all(0 <= s < N_PARAMS for s in slots)
    assert len({p.name for p in KOUT_PARAMS}) == len(KOUT_PARAMS)
    for p in KOUT_PARAMS:
        assert p.low <= p.default <= p.high, p.name
        assert p.meaning and "\n" not in p.meaning, p.name


def test_param_override_parses() -> None:
    lineup = parse_lineup("heuristic:bid_margin=0.5,epsilon=0.1", 4, "kout_bo")
    row = lineup.params("kout_bo")[0]
    slot = {p.name: p.index for p in KOUT_PARAMS}
    assert row[slot["bid_margin"]] == 0.5 and row[slot["epsilon"]] == 0.1


# ---- obvious decisions ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_decision(case: dict[str, Any]) -> None:
    choice, legal = _decide(case["record"])
    expected = case["expect"]["in"]
    assert all(e in legal for e in expected), f"expected actions must be legal: {legal}"
    assert choice in expected, f"{case['about']} -- chose {choice!r}, legal {legal}"


def test_decisions_file_ids_start_with_a_rule_number() -> None:
    for case in CASES:
        assert case["id"][0].isdigit(), case["id"]


# ---- legality over many hands -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", KOUT_PRESETS)
@pytest.mark.parametrize(
    "players",
    [
        "heuristic",
        ["heuristic", "random"],
        ["random", "heuristic"],
        "heuristic:epsilon=0.3",
        "heuristic:joker_lead=0,joker_shed=0,bid_margin=-3,score_aware=0",
    ],
    ids=["self", "vs-random", "random-vs", "epsilon", "extreme"],
)
def test_always_legal_hands(preset: str, players: Any) -> None:
    """play_hands raises RuntimeError on an illegal choice."""
    rows = play_hands(get_rules(preset), 3000, 17, players)
    assert (rows[:, L.R_N_ACTIONS] > 0).all()


@pytest.mark.parametrize("preset", KOUT_PRESETS)
def test_always_legal_matches(preset: str) -> None:
    """Whole matches exercise the score-aware bidding (target, Kout 51-0, RULES.md 1.12, 2.11)."""
    m, _, _ = play_matches(get_rules(preset), 200, 5, ["heuristic", "random"])
    assert (m[:, L.X_WINNER] >= 0).all()
    m, _, _ = play_matches(get_rules(preset), 50, 6, "heuristic")
    assert (m[:, L.X_WINNER] >= 0).all()


# ---- sanity of the play -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", KOUT_PRESETS)
def test_beats_random_players(preset: str) -> None:
    """Duplicate matches (same deals, teams swapped): the heuristic team wins almost all."""
    rules = get_rules(preset)
    m1, _, _ = play_matches(rules, 200, 3, ["heuristic", "random"])
    m2, _, _ = play_matches(rules, 200, 3, ["random", "heuristic"])
    wins = (m1[:, L.X_WINNER] == 0).sum() + (m2[:, L.X_WINNER] == 1).sum()
    assert wins >= 0.95 * 400


@pytest.mark.parametrize("preset", KOUT_PRESETS)
def test_self_play_contracts_are_mostly_made(preset: str) -> None:
    rows = play_hands(get_rules(preset), 20000, 9, "heuristic")
    made = rows[:, L.R_MADE] == 1
    voluntary = rows[:, L.R_MALZOOM] == 0
    assert made.mean() > 0.65
    assert made[voluntary].mean() > 0.65


@pytest.mark.parametrize("preset", ["kout_bh_4", "kout_bh_6"])
def test_self_play_sheds_the_joker_in_time(preset: str) -> None:
    """RULES.md 2.8: a forced joker lead loses the match; the heuristic all but never meets it."""
    rows = play_hands(get_rules(preset), 20000, 9, "heuristic")
    assert rows[:, L.R_FORCED_JOKER].mean() < 0.002


def test_bo_joker_is_never_wasted_by_a_rankless_lead_often() -> None:
    """RULES.md 1.8: a joker led without permission cannot win; the heuristic sheds it first."""
    rows = play_hands(get_rules("kout_bo_4"), 20000, 9, "heuristic")
    assert (rows[:, L.R_JOKER_FORCED] != 0).mean() < 0.05


def test_bawan_and_inzili_are_rare_in_self_play() -> None:
    """Top bids (Bawan 9, RULES.md 1.10; Inzili 8 decides the match, 2.10) need exceptional hands."""
    for preset in ("kout_bo_4", "kout_bh_4"):
        rules = get_rules(preset)
        rows = play_hands(rules, 20000, 9, "heuristic")
        assert (rows[:, L.R_CONTRACT] == tables_of(rules)[0][L.P_BID_MAX]).mean() < 0.01


# ---- match-score awareness ------------------------------------------------------------------------


def _adjust(preset: str, score: tuple[int, int], team: int, bid: int) -> float:
    P, _ = tables_of(get_rules(preset))
    MS = np.zeros(L.M_SIZE, dtype=np.int64)
    MS[L.M_SCORE], MS[L.M_SCORE + 1] = score
    return float(score_adjust(P, MS, team, bid, 1.0))


def test_score_adjust_kout_bo() -> None:
    assert _adjust("kout_bo_4", (10, 12), 0, 5) == 0.0
    assert _adjust("kout_bo_4", (97, 12), 0, 5) < 0  # 1.12(c): a made Bab reaches 101
    assert _adjust("kout_bo_4", (12, 92), 0, 5) > 0  # a failed Bab gives them 101
    assert _adjust("kout_bo_4", (46, 0), 0, 5) < 0  # 1.12(b): a made Bab wins 51-0
    assert _adjust("kout_bo_4", (0, 40), 0, 5) < 0  # at 0 facing a Kout: get on the board


def test_score_adjust_kout_bh_signed() -> None:
    assert _adjust("kout_bh_4", (27, 0), 0, 5) < 0  # 2.11: team 0 reaches +31
    assert _adjust("kout_bh_4", (-27, 0), 1, 5) < 0  # team 1 reaches -31
    assert _adjust("kout_bh_4", (22, 0), 1, 5) > 0  # a failed Bab takes team 0 to 32
    assert _adjust("kout_bh_4", (27, 0), 0, 8) == 0.0  # 2.10: Inzili ignores the counter
