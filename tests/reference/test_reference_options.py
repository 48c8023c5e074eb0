"""The reference resolves the options itself (RULES.md 1.2, 1.6, 1.11, 1.12(c), 2.2, 2.11, §3 (K)),
and gets the values the fast side's ``kout_sim.rules.get_rules`` gets, for every preset, profile
and option set."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from kout_sim.reference import options as RO
from kout_sim.reference.baloot import RefHand as BalootHand
from kout_sim.reference.kout import RefHand as KoutHand
from kout_sim.rules import RulesError, get_rules, preset_names

from .test_reference_baloot import OPTION_VALUES as BALOOT_VALUES

# every value each option accepts, in the forms a record (JSON) or a command line (text) gives
_SEATS = {4: [0, 1, 2, 3, "0", "3"], 6: [0, 5, "5"]}
_YES_NO = [True, False, "true", "False", "yes", "NO", "1", "0"]


def _with_text_forms(values: list[Any]) -> list[Any]:
    """``values`` of a Baloot option as a record or a command line may give them: a yes/no
    option's True and False in their text forms too."""
    if True not in values:
        return values
    return [*_YES_NO, *(value for value in values if not isinstance(value, bool))]


VALUES: dict[str, list[Any]] = {
    "joker_lead_scope": ["bidding_team", "anyone"],
    "play_all_tricks": _YES_NO,
    "target": [1, 26, 31, 51, 101, 152, 500, "77", "+9", " 12 "],
    "profile": ["ksa", "kammelna"],
    # the Baloot options' values as the reference engine's tests deal them out
    **{option: _with_text_forms(values) for option, values in BALOOT_VALUES.items()},
}
INVALID: dict[str, list[Any]] = {
    "joker_lead_scope": ["everyone", 1, None],
    "play_all_tricks": ["maybe", 2, None],
    "target": [0, -5, "0", "ten", 1.5, True, None],
    "first_dealer": [-1, 6, "low", 2.0, True, None, "6"],
    "profile": ["kuwait", None],
    "sun_before_you": ["others", 3],
    "tie": ["draw"],
    "gahwa": ["bank_151"],
}


def values_of(preset: str, option: str) -> list[Any]:
    if option == "first_dealer":
        n = RO.PLAYERS[preset]
        words = ["random"] if preset == "baloot" else ["low_draw", "random"]
        return words + _SEATS[n]
    return VALUES[option]


def option_sets(preset: str) -> list[dict[str, Any]]:
    """No option; each option at each value (under each profile for Baloot); random mixtures."""
    names = RO.option_names(preset)
    profiles: list[dict[str, Any]] = [{}]
    if preset == "baloot":
        profiles += [{"profile": "ksa"}, {"profile": "kammelna"}]
    sets: list[dict[str, Any]] = list(profiles)
    for profile, name in itertools.product(profiles, names):
        for value in values_of(preset, name):
            sets.append({**profile, name: value})
    rng = random.Random(preset)
    for _ in range(300):
        chosen = rng.sample(names, rng.randint(1, len(names)))
        sets.append({name: rng.choice(values_of(preset, name)) for name in chosen})
    return sets


def test_both_sides_know_the_same_options() -> None:
    assert sorted(preset_names()) == sorted(RO.PLAYERS)
    for preset in preset_names():
        assert RO.option_names(preset) == sorted(get_rules(preset).preset.options)


@pytest.mark.parametrize("preset", preset_names())
def test_reference_resolves_every_option_set_as_the_fast_side(preset: str) -> None:
    n = 0
    for given in option_sets(preset):
        fast = dict(get_rules(preset, given).options)
        ref = RO.resolve_options(preset, given)
        assert ref == fast, given
        # the same values of the same types (True is not 1, "3" is the seat 3)
        assert [type(v) for v in ref.values()] == [type(fast[k]) for k in ref], given
        # resolving resolved options changes nothing (the engines resolve what they are handed)
        assert RO.resolve_options(preset, ref) == ref
        n += 1
    assert n > 300


def test_profile_kammelna_reads_the_k_options() -> None:
    # RULES.md §3: the (K) readings; an option given explicitly wins over the profile
    ksa = RO.resolve_options("baloot")
    kammelna = RO.resolve_options("baloot", {"profile": "kammelna"})
    changed = {name for name in ksa if ksa[name] != kammelna[name]} - {"profile"}
    assert changed == set(RO.KAMMELNA)
    assert kammelna["tie"] == "buyer_loses_hokum_only" and kammelna["gahwa"] == "bank_152"
    assert RO.resolve_options("baloot", {"profile": "kammelna", "kawesh": False})["kawesh"] is False


@pytest.mark.parametrize("preset", preset_names())
def test_both_sides_refuse_the_same_values(preset: str) -> None:
    names = RO.option_names(preset)
    cases: list[dict[str, Any]] = [{"no_such_option": 1}]
    cases += [{name: bad} for name, bads in INVALID.items() if name in names for bad in bads]
    if preset == "baloot":
        cases += [{"first_dealer": "low_draw"}, {"first_dealer": 4}]  # Baloot has no draw
    else:
        cases += [{"profile": "ksa"}]  # Kout has no profile
    assert len(cases) > 5
    for given in cases:
        with pytest.raises(RulesError):
            get_rules(preset, given)
        with pytest.raises(RO.OptionError):
            RO.resolve_options(preset, given)


def test_the_engines_resolve_what_they_are_given() -> None:
    # RULES.md 1.11: play_all_tricks defaults to false; 3.6.3 (K): profile kammelna's tie rule
    kout = KoutHand("kout_bo_4", {"target": "51"}, 0, _kout_bo_4_deal())
    assert kout.options == {
        "first_dealer": "low_draw",
        "joker_lead_scope": "bidding_team",
        "play_all_tricks": False,
        "target": 51,
    }
    first = [["7S", "8S", "9S", "TS", "JS"], ["QS", "KS", "AS", "7H", "8H"]]
    first += [["9H", "TH", "JH", "QH", "KH"], ["AH", "7D", "8D", "9D", "TD"]]
    baloot = BalootHand("baloot", {"profile": "kammelna"}, 0, first, face_up="JD", completion=None)
    assert baloot.options["tie"] == "buyer_loses_hokum_only" and baloot.options["kawesh"] is True
    with pytest.raises(RO.OptionError):
        KoutHand("kout_bo_4", {"tie": "split"}, 0, _kout_bo_4_deal())


def _kout_bo_4_deal() -> list[list[str]]:
    from kout_sim.reference.kout import deck

    cards = deck("kout_bo_4")
    return [cards[9 * s : 9 * s + 9] for s in range(4)]
