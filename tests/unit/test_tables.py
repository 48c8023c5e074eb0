"""The rules compiled into the kernel tables (``tables_of``): the bytes every kernel reads.

The digests below were taken from the tables as compiled before the presets became one dataclass
per family; any change of a preset, an option's code or the compile step that moves a single
byte of ``P`` or ``STR`` shows here (RULES.md §1, §2, §3). Rows added since are left out of the
digest (:data:`ADDED_ROWS`) and checked against the rules on their own.
"""

import hashlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from kout_sim.engine import layout as L
from kout_sim.engine.tables import compile_tables, tables_of
from kout_sim.rules import get_rules, preset_names

_EVERY_BALOOT_OPTION = {
    "sun_before_you": "opponents",
    "second_sun_chance": True,
    "kawesh": True,
    "ace_sun_restriction": "none",
    "doubling": False,
    "mercy": "none",
    "undertrump_required": True,
    "overtrump_on_trump_lead": "always",
    "baloot_on_loss": "void",
    "tie": "buyer_loses",
    "kaboot_projects": "own",
    "doubled_projects": "multiplied",
    "gahwa": "bank_152",
    "target": 500,
}

# (preset, options, sha256 of P's bytes then STR's bytes, first 16 hex digits)
CASES: list[tuple[str, Mapping[str, Any], str]] = [
    ("baloot", {}, "57d2ced558d83d64"),
    ("kout_bh_4", {}, "810031f98495af16"),
    ("kout_bh_6", {}, "c0ad3431b2ffc7a6"),
    ("kout_bo_4", {}, "af1b11b9f5b4b5a7"),
    ("kout_bo_6", {}, "6d9cde2d2f6430c2"),
    (
        "kout_bo_4",
        {"joker_lead_scope": "anyone", "play_all_tricks": True, "target": 51, "first_dealer": 2},
        "c8c33e7de2b0afc0",
    ),
    ("kout_bo_6", {"first_dealer": "random", "target": 151}, "af6ad0291fde2cb8"),
    ("kout_bh_4", {"first_dealer": 3, "target": 26}, "19099b17138f0ff6"),
    ("kout_bh_6", {"first_dealer": "random", "target": 101}, "500096000f8f8b52"),
    ("baloot", {"profile": "kammelna"}, "3930b8caaa174468"),
    ("baloot", {"profile": "kammelna", "tie": "split", "first_dealer": 1}, "40e5846efe0f6d00"),
    ("baloot", _EVERY_BALOOT_OPTION, "6cdedf52e4cac940"),
]


ADDED_ROWS = (L.T_ABOVE_LED, L.T_ABOVE_TRUMP)
"""Rows of ``STR`` added after the digests were recorded (zero in every table then)."""


def _digest(P: np.ndarray, STR: np.ndarray) -> str:
    old = STR.copy()
    old[list(ADDED_ROWS)] = 0
    return hashlib.sha256(P.tobytes() + old.tobytes()).hexdigest()[:16]


@pytest.mark.parametrize(("preset", "options", "digest"), CASES)
def test_tables_are_byte_identical_to_the_recorded_digest(
    preset: str, options: Mapping[str, Any], digest: str
) -> None:
    P, STR = compile_tables(get_rules(preset, options))
    assert P.dtype == STR.dtype == np.int64
    assert P.shape == (L.P_SIZE,) and STR.shape == (L.T_ROWS, L.T_COLS)
    assert _digest(P, STR) == digest


def test_every_preset_has_a_recorded_digest() -> None:
    assert {preset for preset, options, _ in CASES if not options} == set(preset_names())


def test_tables_of_is_cached_and_read_only() -> None:
    rules = get_rules("kout_bo_4")
    P, STR = tables_of(rules)
    assert tables_of(get_rules("kout_bo_4"))[0] is P
    assert not P.flags.writeable and not STR.flags.writeable


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_6", "baloot"])
def test_family_code_is_the_kernel_family(preset: str) -> None:
    P, _ = compile_tables(get_rules(preset))
    expected = L.FAMILY_BALOOT if preset == "baloot" else L.FAMILY_KOUT
    assert P[L.P_FAMILY] == expected


@pytest.mark.parametrize("preset", sorted(preset_names()))
def test_the_last_column_is_no_cards_and_ranks_nothing(preset: str) -> None:
    """The trick winners read the led strength of a card off the led suit in the column
    ``T_COLS - 1`` (no card's id): it must be 0 under every trump and in the led row."""
    _, STR = compile_tables(get_rules(preset))
    assert STR[: L.T_LED + 1, L.T_COLS - 1].tolist() == [0] * (L.T_LED + 1)


# RULES.md 3.1, from the highest: a plain suit (Sun, or not trump) and the trump suit in Hokum
_PLAIN_ORDER = "ATKQJ987"
_TRUMP_ORDER = "J9ATKQ87"


@pytest.mark.parametrize("options", [{}, {"profile": "kammelna"}, _EVERY_BALOOT_OPTION], ids=str)
def test_baloot_rows_of_the_cards_that_outrank_each_card_follow_the_rank_orders(
    options: Mapping[str, Any],
) -> None:
    """RULES.md 3.1: ``STR[T_ABOVE_LED, card]`` holds the cards of its suit above it in a plain
    suit's order, ``STR[T_ABOVE_TRUMP, card]`` in the trump order; no other card. Kout tables leave
    both rows empty."""
    from kout_sim import cards as C

    _P, STR = tables_of(get_rules("baloot", dict(options) or None))
    for suit in range(C.N_SUITS):
        for row, order in ((L.T_ABOVE_LED, _PLAIN_ORDER), (L.T_ABOVE_TRUMP, _TRUMP_ORDER)):
            for i, rank in enumerate(order):
                card = C.card_id(suit, C.RANKS.index(rank))
                above = sum(1 << C.card_id(suit, C.RANKS.index(r)) for r in order[:i])
                assert int(STR[row, card]) == above, (C.format_card(card), row)
    for preset in ("kout_bo_4", "kout_bh_6"):
        _P, STR = tables_of(get_rules(preset))
        assert not STR[list(ADDED_ROWS)].any()
