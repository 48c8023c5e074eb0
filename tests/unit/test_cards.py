"""RULES.md 0.3: card text and the one card encoding."""

import pytest

from kout_sim import cards as C


def test_0_3_every_suited_card_round_trips() -> None:
    for card in range(52):
        assert C.parse_card(C.format_card(card)) == card
    assert C.format_card(C.card_id(0, 12)) == "AS"
    assert C.format_card(C.card_id(2, 8)) == "TD"


def test_0_3_ten_accepted_as_10_and_lower_case() -> None:
    assert C.parse_card("10D") == C.parse_card("TD")
    assert C.parse_card("td") == C.parse_card("TD")


def test_0_3_jokers_have_their_own_ids() -> None:
    assert {C.parse_card(t) for t in ("RJ", "BJ", "JK")} == {C.RJ, C.BJ, C.JK}
    assert C.suit_of(C.RJ) == -1 and C.rank_of(C.BJ) == -1


@pytest.mark.parametrize("bad", ["1S", "AX", "", "JOKER", 5, None])
def test_unknown_card_text_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ValueError, match="card"):
        C.parse_card(bad)


def test_masks_round_trip() -> None:
    cards = [0, 12, 51, C.BJ, C.RJ, C.JK]
    assert C.cards_of(C.mask_of(cards)) == cards
    assert C.format_mask(C.mask_of([C.RJ, 12])) == ["AS", "RJ"]
