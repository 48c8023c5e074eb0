"""Every replay error names what is wrong in one line (issue: replay API contract)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import kout_sim
from kout_sim import IllegalAction, InvalidRecord

HANDS = [
    ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S"],
    ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "RJ"],
    ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "BJ"],
    ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C"],
]
# seat 0 bids Bawan in spades, wins trick 1, loses trick 2 to RJ: the hand stops (RULES.md 1.11)
HAND: dict[str, Any] = {
    "rules": "kout_bo_4",
    "dealer": 3,
    "hands": HANDS,
    "calls": [9, "pass", "pass", "pass"],
    "trump": "S",
    "plays": ["AS", "AH", "AD", "AC", "KS", "RJ", "KD", "KC"],
}


def _with(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(HAND)
    record.update(changes)
    return record


def _hands_with(seat: int, idx: int, card: str) -> list[list[str]]:
    hands = copy.deepcopy(HANDS)
    hands[seat][idx] = card
    return hands


def test_the_base_record_replays() -> None:
    result = kout_sim.replay_hand(HAND)
    assert result["trick_winners"] == [0, 1] and result["points"] == [0, 18]


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (_with(hands=_hands_with(0, 0, "ZZ")), ["hands[0]", "'ZZ'"]),
        (_with(hands=_hands_with(0, 0, "AH")), ["duplicate card AH"]),
        (_with(hands=_hands_with(0, 0, "6H")), ["6H", "not in the kout_bo_4 deck"]),
        (_with(hands=[h[:8] for h in HANDS]), ["8 cards", "deals 9"]),
        (_with(hands=HANDS[:3]), ["list of 4 hands"]),
        (_with(rules="kout_bo_5"), ["unknown preset 'kout_bo_5'", "kout_bo_4"]),
        (_with(options={"trumps": "S"}), ["unknown option 'trumps'", "joker_lead_scope"]),
        (_with(options={"target": 0}), ["target", "positive integer"]),
        (_with(dealer=4), ["dealer", "0..3"]),
        (_with(plays=HAND["plays"][:6]), ["incomplete hand"]),
        (_with(plays=[*HAND["plays"], "QS"]), ["plays[8]", "ended"]),
        (_with(calls=[9, "pass", "pass", "pass", "pass"]), ["calls[4]", "auction is over"]),
        (_with(calls=[9, "pass"]), ["trump", "auction is not complete"]),
        (_with(calls=["double"]), ["calls[0]", "'double'"]),
        (_with(trump="X"), ["trump", "'X'"]),
        (_with(plays=["AS", "XX"]), ["plays[1]", "'XX'"]),
        ("not a record", ["JSON object"]),
    ],
)
def test_invalid_records(record: Any, words: list[str]) -> None:
    with pytest.raises(InvalidRecord) as info:
        kout_sim.replay_hand(record)
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_illegal_action_names_index_seat_action_and_legal_set() -> None:
    # seat 1 holds hearts: after the spade lead he is void and may play anything, but seat 0's
    # lead of a joker he does not hold is impossible; use a revoke instead: seat 2 leads nothing.
    record = _with(plays=["AS", "AH", "AD", "AC", "KS", "RJ", "KD", "QC", "QS"])
    record["plays"] = ["AS", "AH", "AD", "AC", "KS", "RJ", "KD"]
    record["plays"].append("QS")  # seat 3's turn: QS is seat 0's card
    with pytest.raises(IllegalAction) as info:
        kout_sim.replay_hand(record)
    err = info.value
    assert err.index.startswith("plays[7]") and err.seat == 3 and err.action == "QS"
    assert "KC" in err.legal and "QS" not in err.legal
    assert "plays[7]" in str(err) and "seat 3" in str(err) and "'QS'" in str(err)


def test_illegal_bid_below_standing_bid() -> None:
    with pytest.raises(IllegalAction) as info:
        kout_sim.legal_actions(_with(calls=[7, 6], trump=None, plays=[]))
    assert info.value.seat == 1 and info.value.legal == ["pass", 8, 9]


def test_forced_dealer_may_not_pass() -> None:
    record = _with(calls=["pass", "pass", "pass"], trump=None, plays=[])
    assert kout_sim.legal_actions(record) == [5, 6, 7, 8, 9]
    with pytest.raises(IllegalAction, match="seat 3"):
        kout_sim.legal_actions(_with(calls=["pass"] * 4, trump=None, plays=[]))


def test_match_actions_after_the_end() -> None:
    # seat 0 bids Bawan and takes every trick with both jokers and the top spades (1.12(a))
    hands = [
        ["RJ", "BJ", "AS", "KS", "QS", "JS", "TS", "9S", "8S"],
        ["7S", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"],
        ["6S", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"],
        ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C"],
    ]
    plays: list[str] = []
    for t in range(9):
        plays += [hands[s][t] for s in range(4)]
    won = {"hands": hands, "calls": [9, "pass", "pass", "pass"], "trump": "S", "plays": plays}
    record = {"rules": "kout_bo_4", "first_dealer": 3, "hands": [won]}
    result = kout_sim.replay_match(record)
    assert result["winner"] == 0 and result["reason"] == "bawan_first_hand"
    assert result["score"] == [36, 0] and result["hands"][0]["dealer"] == 3
    with pytest.raises(InvalidRecord, match=r"hands\[1\].*match already ended"):
        kout_sim.replay_match({**record, "hands": [won, won]})
    with pytest.raises(InvalidRecord, match="dealer is 1 but the rules make seat 3 deal"):
        kout_sim.replay_match({**record, "hands": [{**won, "dealer": 1}]})


@pytest.mark.parametrize(
    ("plays", "where", "why"),
    [
        # seat 0 wins trick 1 and leads trick 2 with a card he does not hold, or one played
        (
            ["AS", "AH", "AD", "AC", "KD"],
            "trick 2, card 1",
            "seat 0 does not hold KD (seat 2 does)",
        ),
        (["AS", "AH", "AD", "AC", "AS"], "trick 2, card 1", "AS was already played (plays[0])"),
    ],
)
def test_illegal_card_says_which_trick_and_why(plays: list[str], where: str, why: str) -> None:
    with pytest.raises(IllegalAction) as info:
        kout_sim.replay_hand(_with(plays=plays))
    message = str(info.value)
    assert where in message and why in message and "\n" not in message
    assert info.value.trick == 2 and info.value.reason == why


def test_revoke_is_named_with_its_rule() -> None:
    hands = copy.deepcopy(HANDS)
    hands[0][1], hands[1][0] = hands[1][0], hands[0][1]  # seat 0: AS AH ..., seat 1: KS KH ...
    with pytest.raises(IllegalAction) as info:
        kout_sim.replay_hand(_with(hands=hands, plays=["AS", "KH"]))  # seat 1 holds KS
    assert info.value.trick == 1
    assert info.value.reason == "the led suit (S) must be followed while held (RULES.md 1.5)"
    assert "trick 1, card 2" in str(info.value)


def test_forbidden_joker_lead_is_named_with_its_rule() -> None:
    # seat 1 buys a 5 in hearts and leads the first trick (RULES.md 1.4): not with RJ (1.6)
    record = _with(calls=["pass", 5, "pass", "pass"], trump="H", plays=["RJ"])
    with pytest.raises(IllegalAction) as info:
        kout_sim.replay_hand(record)
    assert info.value.seat == 1 and info.value.trick == 1
    assert info.value.reason is not None and "(RULES.md 1.6)" in info.value.reason


def test_dealer_forced_to_bid_says_why() -> None:
    with pytest.raises(IllegalAction) as info:
        kout_sim.legal_actions(_with(calls=["pass"] * 4, trump=None, plays=[]))
    assert info.value.reason == "every other seat passed, so the dealer must bid (RULES.md 1.3)"


def test_docs_records_show_the_real_messages() -> None:
    """docs/records.md quotes these errors word for word."""
    from pathlib import Path

    docs = (Path(__file__).parents[2] / "docs" / "records.md").read_text()
    hands = copy.deepcopy(HANDS)
    hands[0][1], hands[1][0] = hands[1][0], hands[0][1]
    records = [
        _with(hands=hands, plays=["AS", "KH"]),
        _with(calls=["pass"] * 4, trump=None, plays=[]),
        _with(calls=["pass", 5, "pass", "pass"], trump="H", plays=["RJ"]),
        _with(hands=_hands_with(3, 0, "6H")),
        _with(plays=[*HAND["plays"], "QS"]),
    ]
    for record in records:
        with pytest.raises(ValueError) as info:
            kout_sim.replay_hand(record)
        assert str(info.value) in docs, str(info.value)
