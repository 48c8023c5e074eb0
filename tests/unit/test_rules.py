"""Rules as data: presets, decks, options and their errors (RULES.md table, 1.2, 1.6, 1.11, 1.12)."""

import json
from dataclasses import fields, replace

import pytest

from kout_sim import cards as C
from kout_sim.rules import (
    BalootPreset,
    Family,
    KoutPreset,
    Preset,
    RulesError,
    get_rules,
    preset_names,
)


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


@pytest.mark.parametrize(
    ("preset", "family", "baloot", "kuwaiti", "bahraini", "kind"),
    [
        ("kout_bo_4", "kout_bo", False, True, False, "kout"),
        ("kout_bo_6", "kout_bo", False, True, False, "kout"),
        ("kout_bh_4", "kout_bh", False, False, True, "kout"),
        ("kout_bh_6", "kout_bh", False, False, True, "kout"),
        ("baloot", "baloot", True, False, False, "baloot"),
    ],
)
def test_family_checks_of_every_preset(
    preset: str, family: str, baloot: bool, kuwaiti: bool, bahraini: bool, kind: str
) -> None:
    """RULES.md §1 Kout Bo, §2 Bahraini Kout, §3 Baloot: the rules answer what they are."""
    rules = get_rules(preset)
    assert rules.family is Family(family) and rules.family == family
    assert (rules.is_baloot, rules.is_kout) == (baloot, not baloot)
    assert (rules.is_kuwaiti, rules.is_bahraini) == (kuwaiti, bahraini)
    assert rules.family.kind == kind
    assert isinstance(rules.preset, BalootPreset if baloot else KoutPreset)


def test_a_family_reads_back_from_its_recorded_name() -> None:
    """A run's settings hold the family as text; it is the family's own name."""
    assert [Family(str(f)) for f in Family] == list(Family)
    assert json.dumps({"family": Family.KOUT_BH}) == '{"family": "kout_bh"}'
    with pytest.raises(ValueError):
        Family("kout")


def test_baloot_preset_holds_no_kout_field() -> None:
    """RULES.md §3: no auction of contracts, no jokers, no score table of contracts."""
    kout_only = {f.name for f in fields(KoutPreset)} - {f.name for f in fields(Preset)}
    assert {"bid_min", "made", "joker_model", "draw_joker_rank"} <= kout_only
    assert not kout_only & {f.name for f in fields(BalootPreset)}


def test_a_preset_type_refuses_another_family() -> None:
    with pytest.raises(ValueError, match="KoutPreset of family baloot"):
        replace(get_rules("kout_bo_4").preset, family=Family.BALOOT)
    with pytest.raises(ValueError, match="BalootPreset of family kout_bo"):
        replace(get_rules("baloot").preset, family=Family.KOUT_BO)
