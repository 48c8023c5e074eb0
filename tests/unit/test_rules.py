"""Rules as data: presets, decks, options and their errors (RULES.md table, 1.2, 1.6, 1.11, 1.12)."""

import pytest

from kout_sim import cards as C
from kout_sim.rules import RulesError, get_rules, preset_names


def test_kout_bo_4_deck_is_6_to_A_without_red_sixes_plus_two_jokers() -> None:
    rules = get_rules("kout_bo_4")
    deck = C.format_mask(rules.deck_mask)
    assert len(deck) == 36
    assert "6H" not in deck and "6D" not in deck and "6S" in deck and "6C" in deck
    assert "RJ" in deck and "BJ" in deck and "JK" not in deck
    assert rules.n_players * rules.n_tricks == 36


def test_kout_bo_6_deck_is_52_plus_two_jokers() -> None:
    rules = get_rules("kout_bo_6")
    assert bin(rules.deck_mask).count("1") == 54
    assert rules.n_players == 6 and rules.n_tricks == 9


def test_defaults_are_filled() -> None:
    opts = get_rules("kout_bo_4").options
    assert opts == {
        "first_dealer": "low_draw",
        "joker_lead_scope": "bidding_team",
        "play_all_tricks": False,
        "target": 101,
    }


def test_options_accept_valid_values() -> None:
    rules = get_rules(
        "kout_bo_6",
        {"first_dealer": 5, "joker_lead_scope": "anyone", "play_all_tricks": "true", "target": 51},
    )
    assert rules.options["first_dealer"] == 5
    assert rules.options["play_all_tricks"] is True


def test_unknown_preset_lists_presets() -> None:
    with pytest.raises(RulesError, match="kout_bo_4, kout_bo_6"):
        get_rules("kout_bo_5")
    assert "kout_bo_4" in preset_names()


def test_unknown_option_lists_options() -> None:
    with pytest.raises(RulesError, match="valid options: first_dealer, joker_lead_scope"):
        get_rules("kout_bo_4", {"trumps": 1})


@pytest.mark.parametrize(
    ("option", "value", "accepts"),
    [
        ("first_dealer", 4, "low_draw, random, or a seat 0..3"),
        ("first_dealer", "high_draw", "low_draw, random"),
        ("joker_lead_scope", "nobody", "bidding_team, anyone"),
        ("play_all_tricks", "maybe", "true, false"),
        ("target", 0, "positive integer"),
        ("target", True, "positive integer"),
    ],
)
def test_out_of_range_values_say_what_is_valid(option: str, value: object, accepts: str) -> None:
    with pytest.raises(RulesError, match=accepts) as info:
        get_rules("kout_bo_4", {option: value})
    assert option in str(info.value)
    assert "\n" not in str(info.value)
