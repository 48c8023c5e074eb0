"""Unit tests of the Kout reference engine (kout_sim.reference), rule by rule from RULES.md §0-§2.

Hand-built positions check each rule; seeded random hands check the invariants. The tests use only
the reference engine's public API (plus its ``deal`` helper) and their own small helpers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest

from kout_sim import reference
from kout_sim.reference import (
    deck,
    draw_first_dealer,
    n_players,
    play_random_hand,
    play_random_match,
)
from kout_sim.reference.kout import RefHand as KoutHand
from kout_sim.reference.kout import RefMatch as KoutMatch
from kout_sim.reference.kout import deal

BO_OPTIONS: dict[str, Any] = {
    "first_dealer": "low_draw",
    "joker_lead_scope": "bidding_team",
    "play_all_tricks": False,
    "target": 101,
}
BH_OPTIONS: dict[str, Any] = {"first_dealer": "low_draw", "target": 31}
PRESETS = ["kout_bo_4", "kout_bo_6", "kout_bh_4", "kout_bh_6"]
JOKERS = {"RJ", "BJ", "JK"}


def RefHand(
    preset: str, options: Mapping[str, Any], dealer: int, hands: Sequence[Sequence[str]]
) -> KoutHand:
    """The public dispatcher's hand of a Kout preset (this file tests Kout presets only)."""
    hand = reference.RefHand(preset, options, dealer, hands)
    assert isinstance(hand, KoutHand)
    return hand


def RefMatch(preset: str, options: Mapping[str, Any], first_dealer: int) -> KoutMatch:
    """The public dispatcher's match of a Kout preset."""
    match = reference.RefMatch(preset, options, first_dealer)
    assert isinstance(match, KoutMatch)
    return match


def bo(**overrides: Any) -> dict[str, Any]:
    """Kout Bo options with some keys overridden."""
    return {**BO_OPTIONS, **overrides}


def bh(**overrides: Any) -> dict[str, Any]:
    """Bahraini Kout options with some keys overridden."""
    return {**BH_OPTIONS, **overrides}


def options_for(preset: str) -> dict[str, Any]:
    return bo() if preset.startswith("kout_bo") else bh()


def suit(card: str) -> str | None:
    return None if card in JOKERS else card[1]


def hands_from(text: dict[int, str]) -> list[list[str]]:
    """Hands written as {seat: "AS KS ..."}."""
    return [text[seat].split() for seat in sorted(text)]


def make_deal(
    preset: str, fixed: Mapping[int, Sequence[str]], void: dict[int, str] | None = None
) -> list[list[str]]:
    """Return a full deal giving ``fixed`` cards to some seats.

    The rest is filled so that seat ``s`` holds no card of the suits in ``void[s]`` (suits with a
    void are placed first, each card to the emptiest seat that may take it).
    """
    void = void or {}
    n = n_players(preset)
    size = len(deck(preset)) // n
    hands = [list(fixed.get(seat, ())) for seat in range(n)]
    used = {card for hand in hands for card in hand}
    rest = [card for card in deck(preset) if card not in used]
    constrained = set("".join(void.values()))
    rest.sort(key=lambda card: 0 if suit(card) in constrained else 1)
    for card in rest:
        card_suit = suit(card)
        seats = [
            s
            for s in range(n)
            if len(hands[s]) < size and (card_suit is None or card_suit not in void.get(s, ""))
        ]
        assert seats, f"cannot place {card}"
        hands[min(seats, key=lambda s: len(hands[s]))].append(card)
    return hands


def run(hand: KoutHand, actions: Iterable[Any]) -> None:
    for action in actions:
        hand.apply(action)


def auction(hand: KoutHand, contract: int, trump: str, bidder: int = 0) -> None:
    """Run an auction where ``bidder`` bids ``contract`` and all others pass; then name trump."""
    while hand.phase == "auction":
        hand.apply(contract if hand.to_act == bidder else "pass")
    hand.apply(trump)


def play_randomly(hand: KoutHand, rng: random.Random) -> None:
    while hand.phase != "over":
        hand.apply(rng.choice(hand.legal_actions()))


# --------------------------------------------------------------------------------------------------
# RULES.md table and 0.x: decks, seats, dealing
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "size", "players", "absent", "present"),
    [
        ("kout_bo_4", 36, 4, {"6H", "6D", "5S", "2C"}, {"6S", "6C", "7H", "7D", "RJ", "BJ"}),
        ("kout_bo_6", 54, 6, {"JK"}, {"2S", "2H", "2D", "2C", "RJ", "BJ"}),
        ("kout_bh_4", 32, 4, {"7D", "6S", "RJ", "BJ"}, {"7S", "7H", "7C", "8D", "JK"}),
        ("kout_bh_6", 48, 6, {"3D", "2S", "RJ"}, {"3S", "3H", "3C", "4D", "JK"}),
    ],
)
def test_deck(preset: str, size: int, players: int, absent: set[str], present: set[str]) -> None:
    cards = deck(preset)
    assert len(cards) == size == len(set(cards))
    assert n_players(preset) == players
    assert not absent & set(cards)
    assert present <= set(cards)
    assert all(
        card in JOKERS or (len(card) == 2 and card[0] in "23456789TJQKA" and card[1] in "SHDC")
        for card in cards
    )


def test_unknown_preset_rejected() -> None:
    with pytest.raises(ValueError):
        deck("baloot")


@pytest.mark.parametrize("preset", PRESETS)
def test_deal_one_card_at_a_time_from_dealer_right(preset: str) -> None:
    # RULES.md 0.4: the i-th card of the shuffled deck goes to seat dealer + 1 + i.
    n = n_players(preset)
    for dealer in range(n):
        shuffled = deck(preset)
        random.Random(dealer).shuffle(shuffled)
        hands = deal(preset, dealer, random.Random(dealer))
        for idx, card in enumerate(shuffled):
            assert card in hands[(dealer + 1 + idx) % n]
        assert [len(hand) for hand in hands] == [len(shuffled) // n] * n


def test_bad_deal_rejected() -> None:
    hands = make_deal("kout_bo_4", {})
    hands[0][0] = hands[1][0]
    with pytest.raises(ValueError):
        RefHand("kout_bo_4", bo(), 0, hands)


# --------------------------------------------------------------------------------------------------
# RULES.md 1.2 / 2.2: the first dealer
# --------------------------------------------------------------------------------------------------


class StackedRandom(random.Random):
    """A Random whose shuffle puts a chosen order on top of the deck (the rest in deck order)."""

    def __init__(self, top: Sequence[str]) -> None:
        super().__init__(0)
        self.top = list(top)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        rest = [card for card in x if card not in self.top]
        x[:] = self.top + rest


@pytest.mark.parametrize(
    ("preset", "top", "expected"),
    [
        ("kout_bo_4", ["AS", "7H", "KD", "QC"], 1),  # lowest rank deals
        ("kout_bo_4", ["RJ", "BJ", "AS", "AH"], 2),  # RULES.md 1.2: jokers count above the Ace
        (
            "kout_bo_4",
            ["8S", "AH", "KD", "8C", "9S", "7H"],
            3,
        ),  # seats 0 and 3 tie on 8, redraw: 9 vs 7
        (
            "kout_bo_6",
            ["2S", "2H", "5D", "2C", "3C", "4H", "9S", "9H", "8D"],
            3,
        ),  # three-way tie, then 9 9 8
        (
            "kout_bh_4",
            ["JK", "AS", "AH", "AC", "KS", "KH", "QS"],
            3,
        ),  # RULES.md 2.2: joker is 15; 3 aces tie
        (
            "kout_bh_6",
            ["4S", "3S", "5H", "3H", "6C", "JK", "TS", "9S"],
            3,
        ),  # 3S/3H tie, redraw T vs 9
    ],
)
def test_draw_first_dealer(preset: str, top: list[str], expected: int) -> None:
    assert draw_first_dealer(preset, StackedRandom(top)) == expected


@pytest.mark.parametrize("preset", PRESETS)
def test_draw_first_dealer_covers_every_seat(preset: str) -> None:
    rng = random.Random(7)
    seats = {draw_first_dealer(preset, rng) for _ in range(300)}
    assert seats == set(range(n_players(preset)))


# --------------------------------------------------------------------------------------------------
# RULES.md 1.3: the auction (Kout Bo)
# --------------------------------------------------------------------------------------------------


def test_auction_opens_right_of_dealer_and_bids_rise() -> None:
    hand = RefHand("kout_bo_4", bo(), 2, make_deal("kout_bo_4", {}))
    assert (hand.phase, hand.to_act) == ("auction", 3)
    assert hand.legal_actions() == ["pass", 5, 6, 7, 8, 9]
    hand.apply(6)
    assert hand.to_act == 0
    assert hand.legal_actions() == ["pass", 7, 8, 9]
    for bad in (5, 6, 10, "6", True, "S", 7.0, None):
        with pytest.raises(ValueError):
            hand.apply(bad)
    hand.apply("pass")
    hand.apply(9)
    assert hand.legal_actions() == ["pass"]  # nothing is above Bawan
    hand.apply("pass")  # the dealer may pass: somebody bid
    assert (hand.phase, hand.to_act, hand.bidder, hand.contract, hand.malzoom) == (
        "trump",
        1,
        1,
        9,
        False,
    )


@pytest.mark.parametrize(("preset", "n"), [("kout_bo_4", 4), ("kout_bo_6", 6)])
def test_forced_dealer_and_malzoom(preset: str, n: int) -> None:
    for bid, malzoom in ((5, True), (6, False), (9, False)):
        hand = RefHand(preset, bo(), 0, make_deal(preset, {}))
        for _ in range(n - 1):
            hand.apply("pass")
        assert hand.to_act == 0
        assert hand.legal_actions() == [5, 6, 7, 8, 9]  # RULES.md 1.3: the dealer must bid, no pass
        with pytest.raises(ValueError):
            hand.apply("pass")
        hand.apply(bid)
        assert (hand.bidder, hand.contract, hand.malzoom) == (0, bid, malzoom)


def test_only_the_forced_five_is_malzoom() -> None:
    hand = RefHand("kout_bo_4", bo(), 3, make_deal("kout_bo_4", {}))
    run(hand, ["pass", "pass", "pass", 5])  # seats 0, 1, 2 passed: dealer 3 was forced
    assert hand.malzoom
    hand = RefHand("kout_bo_4", bo(), 3, make_deal("kout_bo_4", {}))
    run(hand, [5, "pass", "pass", "pass"])
    assert (hand.bidder, hand.contract, hand.malzoom) == (0, 5, False)


# --------------------------------------------------------------------------------------------------
# RULES.md 1.4: trump and the first lead (Kout Bo)
# --------------------------------------------------------------------------------------------------


def test_bidder_names_any_suit_and_leads() -> None:
    # The bidder holds no clubs and may still name clubs.
    hands = make_deal("kout_bo_4", {}, void={1: "C"})
    hand = RefHand("kout_bo_4", bo(), 0, hands)
    run(hand, [7, "pass", "pass", "pass"])
    assert (hand.phase, hand.to_act) == ("trump", 1)
    assert hand.legal_actions() == ["S", "H", "D", "C"]
    with pytest.raises(ValueError):
        hand.apply("X")
    hand.apply("C")
    assert (hand.phase, hand.to_act, hand.trump) == (
        "play",
        1,
        "C",
    )  # RULES.md 1.4: the bidder leads


# --------------------------------------------------------------------------------------------------
# RULES.md 1.1 and 1.5: the ladder and following (Kout Bo)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        (["KS", "BJ", "AH", "RJ"], 3),  # RJ > trump A
        (["KS", "BJ", "AH", "7H"], 2),  # trump A > BJ
        (["KS", "BJ", "KH", "7H"], 1),  # BJ > trump K
        (["KS", "QH", "KH", "7H"], 2),  # trumps by rank
        (["KS", "AS", "7H", "AC"], 2),  # the lowest trump beats the led Ace
        (["KS", "AS", "AD", "AC"], 1),  # led suit by rank; other suits never win
        (["9S", "6S", "AD", "TS"], 3),
        (["7C", "BJ", "8C", "AC"], 1),  # BJ over a non-trump Ace
        (["7C", "RJ", "BJ", "AH"], 1),  # RJ over BJ and trump A
    ],
)
def test_ladder(plays: list[str], winner: int) -> None:
    # RULES.md 1.1. Seat 0 bids 5, names hearts and leads; a seat playing off the led suit is void
    # in it.
    led = suit(plays[0])
    assert led is not None
    void = {
        seat: led
        for seat, card in enumerate(plays)
        if seat and card not in JOKERS and suit(card) != led
    }
    hand = RefHand(
        "kout_bo_4", bo(), 3, make_deal("kout_bo_4", {s: [c] for s, c in enumerate(plays)}, void)
    )
    auction(hand, 5, "H")
    run(hand, plays)
    assert hand.trick_winners == [winner]
    assert hand.to_act == winner  # RULES.md 1.9: the trick winner leads the next trick
    assert hand.legal_actions() == [
        c for c in hand.hands[winner] if c not in JOKERS
    ]  # contract 5: no joker lead


def test_follow_suit_jokers_free_no_duty_to_trump() -> None:
    # RULES.md 1.5.
    hands = make_deal("kout_bo_4", {0: ["AS"], 1: ["7S", "RJ"], 2: ["BJ"]}, void={2: "S"})
    hand = RefHand("kout_bo_4", bo(), 3, hands)
    auction(hand, 5, "H")
    hand.apply("AS")
    legal = set(hand.legal_actions())
    assert legal == {c for c in hand.hands[1] if suit(c) == "S"} | {
        "RJ"
    }  # follow spades, or the joker
    hand.apply("7S")
    assert set(hand.legal_actions()) == set(hand.hands[2])  # void in spades: anything, trump or not
    assert any(suit(str(c)) not in ("H", None) for c in hand.legal_actions())


# --------------------------------------------------------------------------------------------------
# RULES.md 1.6 and 1.7: joker leads (Kout Bo)
# --------------------------------------------------------------------------------------------------


def joker_leads(hand: KoutHand) -> set[str]:
    return {card for card in hand.legal_actions() if card in JOKERS}


@pytest.mark.parametrize(
    ("contract", "expected"), [(9, {"RJ", "BJ"}), (8, {"RJ"}), (7, set()), (5, set())]
)
def test_bidder_joker_leads_by_contract(contract: int, expected: set[str]) -> None:
    # RULES.md 1.6(a) and (b).
    hand = RefHand("kout_bo_4", bo(), 3, make_deal("kout_bo_4", {0: ["RJ", "BJ"]}))
    auction(hand, contract, "D")
    assert joker_leads(hand) == expected
    assert len(hand.legal_actions()) == 7 + len(expected)  # every suited card may be led


def test_partner_of_bidder_may_lead_jokers_at_bawan() -> None:
    # RULES.md 1.6(a): "the leader is on the bidding team".
    hands = make_deal("kout_bo_4", {0: ["6S"], 1: ["7S"], 2: ["AS", "RJ", "BJ"], 3: ["8S"]})
    hand = RefHand("kout_bo_4", bo(), 3, hands)
    auction(hand, 9, "H")
    run(hand, ["6S", "7S", "AS", "8S"])
    assert hand.to_act == 2
    assert joker_leads(hand) == {"RJ", "BJ"}


@pytest.mark.parametrize(("scope", "expected"), [("bidding_team", set()), ("anyone", {"RJ"})])
def test_defender_joker_lead_at_contract_8(scope: str, expected: set[str]) -> None:
    # RULES.md 1.6(b) and option joker_lead_scope.
    hands = make_deal("kout_bo_4", {0: ["6S"], 1: ["AS", "RJ", "BJ"], 2: ["7S"], 3: ["8S"]})
    hand = RefHand("kout_bo_4", bo(joker_lead_scope=scope), 3, hands)
    auction(hand, 8, "H")
    run(hand, ["6S", "AS", "7S", "8S"])
    assert (hand.phase, hand.to_act) == ("play", 1)  # defenders need 2 tricks against an 8
    assert joker_leads(hand) == expected


@pytest.mark.parametrize(("scope", "expected"), [("bidding_team", set()), ("anyone", {"RJ", "BJ"})])
def test_defender_joker_lead_at_bawan(scope: str, expected: set[str]) -> None:
    hands = make_deal("kout_bo_4", {0: ["6S"], 1: ["AS", "RJ", "BJ"], 2: ["7S"], 3: ["8S"]})
    hand = RefHand("kout_bo_4", bo(joker_lead_scope=scope), 3, hands)
    auction(hand, 9, "H")
    run(hand, ["6S", "AS", "7S", "8S"])
    # RULES.md 1.11: one defender trick breaks a Bawan, play stops.
    assert (hand.phase, hand.to_act, hand.result()["made"], hand.result()["points"]) == (
        "over",
        None,
        False,
        [0, 18],
    )
    hand = RefHand("kout_bo_4", bo(joker_lead_scope=scope, play_all_tricks=True), 3, hands)
    auction(hand, 9, "H")
    run(hand, ["6S", "AS", "7S", "8S"])
    assert joker_leads(hand) == expected


# Seat 0 (bidder, contract 6, trump spades) runs the four spade honours; after that anyone may lead
# a joker.
HONOURS_DEAL = {
    0: "AS KS QS JS BJ 7C 6C 7H 7D",
    1: "RJ AC TS 9S 8S 7S 6S AH KH",
    2: "QH JH TH AD KD QD JD TD 9D",
    3: "KC QC JC TC 9C 8C 9H 8H 8D",
}


def test_joker_lead_after_trump_honours_and_trump_forcing() -> None:
    hand = RefHand("kout_bo_4", bo(), 3, hands_from(HONOURS_DEAL))
    auction(hand, 6, "S")
    assert set(hand.legal_actions()) == {
        "AS",
        "KS",
        "QS",
        "JS",
        "7C",
        "6C",
        "7H",
        "7D",
    }  # no BJ yet
    hand.apply("AS")
    assert set(hand.legal_actions()) == {"TS", "9S", "8S", "7S", "6S", "RJ"}
    run(hand, ["9S", "9D", "8C"])
    for lead, follows in (("KS", ["8S", "TD", "9C"]), ("QS", ["7S", "JD", "TC"])):
        assert "BJ" not in hand.legal_actions()
        run(hand, [lead, *follows])
    assert "BJ" not in hand.legal_actions()  # A K Q played, J not yet
    run(hand, ["JS", "TS", "QD", "JC"])
    assert hand.trick_winners == [0, 0, 0, 0]
    # RULES.md 1.6(c): trump A, K, Q and J are all in completed tricks.
    assert "BJ" in hand.legal_actions()
    hand.apply("BJ")
    # RULES.md 1.7: a joker lead is a trump lead: seat 1 must play his last spade (or his joker).
    assert set(hand.legal_actions()) == {"6S", "RJ"}
    hand.apply("6S")
    assert set(hand.legal_actions()) == set(hand.hands[2])  # void in trump: anything
    run(hand, ["KD", "8D"])
    assert hand.trick_winners[-1] == 0  # BJ beats a low trump
    run(hand, ["6C", "AC", "QH", "QC"])
    assert (hand.trick_winners[-1], hand.to_act, hand.tricks) == (1, 1, [5, 1])
    # RULES.md 1.6(c) holds for anyone: the defender may lead RJ although the contract is 6.
    assert "RJ" in hand.legal_actions()


def test_legal_joker_lead_forces_trump() -> None:
    # RULES.md 1.7: after RJ led at a Bawan, seat 1 holding trump must play trump (his joker stays
    # legal); seat 2, void in trump, may play anything.
    hands = make_deal("kout_bo_4", {0: ["RJ"], 1: ["BJ", "7H"]}, void={2: "H"})
    hand = RefHand("kout_bo_4", bo(), 3, hands)
    auction(hand, 9, "H")
    hand.apply("RJ")
    assert set(hand.legal_actions()) == {c for c in hand.hands[1] if suit(c) == "H"} | {"BJ"}
    hand.apply("7H")
    assert set(hand.legal_actions()) == set(hand.hands[2])


# --------------------------------------------------------------------------------------------------
# RULES.md 1.8: the unleadable joker (Kout Bo)
# --------------------------------------------------------------------------------------------------

# Seat 0 (bidder, contract 5, trump spades) wins eight tricks with A and K of each suit; QS stays
# out.
SINGLE_JOKER_DEAL = {
    0: "AS KS AH KH AD KD AC KC BJ",
    1: "JS TS QS QH JH QD JD QC JC",
    2: "9S 8S TH 9H TD 9D TC 9C RJ",
    3: "7S 6S 8H 7H 8D 7D 8C 7C 6C",
}
# The first six tricks of SINGLE_JOKER_DEAL and TWO_JOKER_DEAL: seat 0 cashes A and K of spades,
# hearts and diamonds.
SIX_ACE_KING_TRICKS = [
    ["AS", "JS", "9S", "7S"],
    ["KS", "TS", "8S", "6S"],
    ["AH", "QH", "TH", "8H"],
    ["KH", "JH", "9H", "7H"],
    ["AD", "QD", "TD", "8D"],
    ["KD", "JD", "9D", "7D"],
]
SINGLE_JOKER_TRICKS = [
    *SIX_ACE_KING_TRICKS,
    ["AC", "QC", "TC", "8C"],
    ["KC", "JC", "9C", "7C"],
]


def test_unleadable_single_joker_is_led_rankless() -> None:
    hand = RefHand("kout_bo_4", bo(play_all_tricks=True), 3, hands_from(SINGLE_JOKER_DEAL))
    auction(hand, 5, "S")
    for trick in SINGLE_JOKER_TRICKS:
        run(hand, trick)
    assert hand.trick_winners == [0] * 8
    assert hand.hands[0] == ["BJ"]
    # Contract 5 (no 1.6(a)/(b)) and QS unplayed (no 1.6(c)): BJ may not be led, but it is all he
    # has.
    assert hand.legal_actions() == ["BJ"]
    run(hand, ["BJ", "QS", "RJ", "6C"])
    # The first non-joker card (QS) set the led suit; the second joker (RJ) keeps its strength and
    # wins.
    assert hand.trick_winners[-1] == 2
    assert hand.result() == {
        "bidder": 0,
        "contract": 5,
        "malzoom": False,
        "trump": "S",
        "trick_winners": [0] * 8 + [2],
        "tricks": [9, 0],
        "made": True,
        "points": [5, 0],
        "match_winner": None,
        "forced_joker_lead": False,
    }


def test_early_stop_without_play_all_tricks() -> None:
    # RULES.md 1.11: the same play stops once the bidding team has its 5 tricks.
    hand = RefHand("kout_bo_4", bo(), 3, hands_from(SINGLE_JOKER_DEAL))
    auction(hand, 5, "S")
    for trick in SINGLE_JOKER_TRICKS[:4]:
        run(hand, trick)
    assert hand.phase == "play"
    run(hand, SINGLE_JOKER_TRICKS[4])
    assert hand.phase == "over"
    assert hand.legal_actions() == []
    with pytest.raises(ValueError):
        hand.apply("KD")
    result = hand.result()
    assert (result["trick_winners"], result["tricks"], result["made"], result["points"]) == (
        [0] * 5,
        [5, 0],
        True,
        [5, 0],
    )


# Seat 0 wins seven tricks and keeps both jokers; QS stays out, so neither joker may be led at
# contract 5.
TWO_JOKER_DEAL = {
    0: "AS KS AH KH AD KD AC RJ BJ",
    1: "QS JS TS QH JH QD JD KC 6C",
    2: "9S 8S TH 9H TD 9D QC TC 9C",
    3: "7S 6S 8H 7H 8D 7D JC 8C 7C",
}
TWO_JOKER_TRICKS = [*SIX_ACE_KING_TRICKS, ["AC", "6C", "TC", "7C"]]


def test_two_unleadable_jokers_either_may_be_led_rankless() -> None:
    hand = RefHand("kout_bo_4", bo(play_all_tricks=True), 3, hands_from(TWO_JOKER_DEAL))
    auction(hand, 5, "S")
    for trick in TWO_JOKER_TRICKS:
        run(hand, trick)
    assert set(hand.legal_actions()) == {"RJ", "BJ"}  # RULES.md 1.8: any of them
    hand.apply("RJ")
    # No led suit yet: seat 1 may play anything (a legal joker lead would force his trump QS).
    assert set(hand.legal_actions()) == {"QS", "KC"}
    hand.apply("KC")
    # KC set the led suit: clubs must be followed.
    assert set(hand.legal_actions()) == {"QC", "9C"}
    run(hand, ["9C", "8C"])
    assert hand.trick_winners[-1] == 1  # the rankless RJ never wins; KC is the best of the rest
    assert hand.to_act == 1
    run(hand, ["QS", "QC", "JC", "BJ"])
    assert hand.trick_winners[-1] == 0  # BJ played later keeps its strength over the trump Q
    assert hand.result()["tricks"] == [8, 1]


def test_rankless_trump_card_sets_led_suit() -> None:
    hand = RefHand("kout_bo_4", bo(play_all_tricks=True), 3, hands_from(TWO_JOKER_DEAL))
    auction(hand, 5, "S")
    for trick in TWO_JOKER_TRICKS:
        run(hand, trick)
    run(hand, ["BJ", "QS"])
    assert set(hand.legal_actions()) == set(hand.hands[2])  # void in spades: anything
    run(hand, ["QC", "JC"])
    assert hand.trick_winners[-1] == 1  # QS, the only trump


def test_leader_with_only_jokers_but_one_leadable_must_lead_it() -> None:
    # Contract 8: RJ may be led (1.6(b)), BJ not; holding only RJ and BJ, only RJ is legal, and it
    # is a trump lead.
    hand = RefHand("kout_bo_4", bo(), 3, hands_from(TWO_JOKER_DEAL))
    auction(hand, 8, "S")
    assert set(hand.legal_actions()) == {"AS", "KS", "AH", "KH", "AD", "KD", "AC", "RJ"}
    for trick in TWO_JOKER_TRICKS:
        run(hand, trick)
    assert hand.legal_actions() == ["RJ"]
    hand.apply("RJ")
    assert hand.legal_actions() == [
        "QS"
    ]  # RULES.md 1.7: trump forced, unlike the rankless lead above


# --------------------------------------------------------------------------------------------------
# RULES.md 1.10: the score of a hand (Kout Bo)
# --------------------------------------------------------------------------------------------------


def find_hand(
    preset: str,
    options: dict[str, Any],
    bids: Sequence[Any],
    want: Callable[[dict[str, Any]], bool],
) -> dict[str, Any]:
    """Return the first wanted result among seeded random hands (dealer 0, scripted auction)."""
    for seed in range(5000):
        rng = random.Random(seed)
        hand = RefHand(preset, options, 0, deal(preset, 0, rng))
        run(hand, bids)
        play_randomly(hand, rng)
        result = hand.result()
        if want(result):
            return result
    raise AssertionError("no such hand found")


@pytest.mark.parametrize(
    ("bids", "made", "points"),
    [
        (["pass", "pass", "pass", 5], True, [5, 0]),  # Malzoom made
        (["pass", "pass", "pass", 5], False, [0, 5]),  # Malzoom failed pays only 5
        (
            ["pass", "pass", "pass", 6],
            False,
            [0, 12],
        ),  # a forced dealer above 5 plays an ordinary contract
        ([5, "pass", "pass", "pass"], False, [10, 0]),  # Bab by seat 1 (team 1)
        (["pass", 6, "pass", "pass"], True, [6, 0]),  # seat 2 (team 0)
        (["pass", "pass", 7, "pass"], True, [0, 7]),  # seat 3 (team 1)
        (["pass", "pass", 7, "pass"], False, [14, 0]),
        ([8, "pass", "pass", "pass"], False, [16, 0]),
        (["pass", 9, "pass", "pass"], False, [0, 18]),  # Bawan failed
    ],
)
def test_hand_score_table(bids: list[Any], made: bool, points: list[int]) -> None:
    result = find_hand("kout_bo_4", bo(), bids, lambda r: r["made"] is made)
    assert result["points"] == points
    assert result["malzoom"] is (bids[:3] == ["pass"] * 3 and bids[3] == 5)


def test_bawan_made_scores_36() -> None:
    # Seat 0 holds RJ, BJ and the seven top trumps: every trick is his whatever the others play.
    hands = make_deal("kout_bo_4", {0: ["RJ", "BJ", "AH", "KH", "QH", "JH", "TH", "9H", "8H"]})
    for seed in range(20):
        hand = RefHand("kout_bo_4", bo(), 3, hands)
        auction(hand, 9, "H")
        play_randomly(hand, random.Random(seed))
        result = hand.result()
        assert (result["trick_winners"], result["made"], result["points"]) == (
            [0] * 9,
            True,
            [36, 0],
        )


# --------------------------------------------------------------------------------------------------
# RULES.md 1.11: play_all_tricks gives the same result as the early stop
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bo_6"])
def test_play_all_tricks_same_result(preset: str) -> None:
    for seed in range(200):
        rng = random.Random(seed)
        hands = deal(preset, seed % 4, rng)
        full = RefHand(preset, bo(play_all_tricks=True), seed % 4, hands)
        play_randomly(full, rng)
        assert len(full.trick_winners) == 9
        # Replay the same actions without play_all_tricks: it must stop at the first fixed trick,
        # same score.
        short = RefHand(preset, bo(), seed % 4, hands)
        for _, action in full.history:
            if short.phase == "over":
                break
            short.apply(action)
        assert short.phase == "over"
        a, b = full.result(), short.result()
        assert (a["made"], a["points"]) == (b["made"], b["points"])
        assert a["trick_winners"][: len(b["trick_winners"])] == b["trick_winners"]


# --------------------------------------------------------------------------------------------------
# RULES.md 1.12 and 1.2: the Kout Bo match
# --------------------------------------------------------------------------------------------------


def hand_result(
    bidder: int,
    contract: int,
    made: bool | None,
    points: list[int],
    winner: int | None = None,
    forced: bool = False,
) -> dict[str, Any]:
    """A hand result as RefHand.result() gives it, for RefMatch.apply_hand (Kout Bo and
    Bahraini)."""
    return {
        "bidder": bidder,
        "contract": contract,
        "malzoom": False,
        "trump": "S",
        "trick_winners": [],
        "tricks": [0, 0],
        "made": made,
        "points": points,
        "match_winner": winner,
        "forced_joker_lead": forced,
    }


def test_match_bawan_on_first_hand() -> None:
    match = RefMatch("kout_bo_4", bo(), 2)
    match.apply_hand(hand_result(1, 9, True, [0, 36]))
    assert (match.over, match.winner, match.reason, match.score, match.n_hands) == (
        True,
        1,
        "bawan_first_hand",
        [0, 36],
        1,
    )
    with pytest.raises(RuntimeError):
        match.apply_hand(hand_result(1, 5, True, [0, 5]))


def test_match_bawan_later_is_only_points() -> None:
    match = RefMatch("kout_bo_4", bo(), 0)
    match.apply_hand(hand_result(0, 5, False, [0, 10]))
    match.apply_hand(hand_result(0, 9, True, [36, 0]))
    assert (match.over, match.score) == (False, [36, 10])
    # A failed Bawan on the first hand is just 18 for the defenders.
    match = RefMatch("kout_bo_4", bo(), 0)
    match.apply_hand(hand_result(0, 9, False, [0, 18]))
    assert (match.over, match.score) == (False, [0, 18])


def test_match_kout() -> None:
    match = RefMatch("kout_bo_6", bo(), 0)
    match.apply_hand(hand_result(1, 8, True, [0, 8]))
    match.apply_hand(hand_result(0, 9, True, [36, 0]))  # 36 on the second hand: no instant win
    match.apply_hand(hand_result(2, 7, True, [7, 0]))
    assert (match.over, match.score) == (False, [43, 8])
    match = RefMatch("kout_bo_6", bo(), 0)
    match.apply_hand(hand_result(0, 8, False, [0, 16]))
    assert not match.over
    match.apply_hand(hand_result(1, 9, True, [0, 36]))  # 52 against exactly 0
    assert (match.over, match.winner, match.reason, match.score) == (True, 1, "kout", [0, 52])


def test_match_no_kout_when_other_team_scored() -> None:
    match = RefMatch("kout_bo_4", bo(), 0)
    match.apply_hand(hand_result(1, 5, True, [0, 5]))
    match.apply_hand(hand_result(0, 9, True, [36, 0]))
    match.apply_hand(hand_result(0, 8, False, [0, 16]))
    match.apply_hand(hand_result(2, 9, True, [36, 0]))
    assert (match.over, match.score) == (False, [72, 21])


def test_match_target_and_kout_order() -> None:
    match = RefMatch("kout_bo_4", bo(), 0)
    for _ in range(14):
        match.apply_hand(hand_result(1, 7, True, [0, 7]))
        match.apply_hand(hand_result(0, 7, True, [7, 0]))
    assert (match.over, match.score) == (False, [98, 98])
    match.apply_hand(hand_result(0, 5, True, [5, 0]))
    assert (match.over, match.winner, match.reason, match.score) == (True, 0, "target", [103, 98])
    # With a target of 51, 51 against 0 is a Kout: RULES.md 1.12(b) is checked before (c).
    match = RefMatch("kout_bo_4", bo(target=51), 0)
    match.apply_hand(hand_result(0, 9, False, [0, 18]))
    match.apply_hand(hand_result(1, 9, True, [0, 36]))
    assert (match.over, match.reason) == (True, "kout")
    match = RefMatch("kout_bo_4", bo(target=26), 0)
    match.apply_hand(hand_result(1, 8, False, [16, 0]))
    match.apply_hand(hand_result(1, 5, False, [10, 0]))
    assert (match.over, match.winner, match.reason, match.score) == (True, 0, "target", [26, 0])


@pytest.mark.parametrize(("preset", "n"), [("kout_bo_4", 4), ("kout_bo_6", 6)])
def test_match_dealer_rotates(preset: str, n: int) -> None:
    # RULES.md 1.2: after every hand the deal passes to dealer + 1.
    match = RefMatch(preset, bo(), n - 2)
    seen = [match.dealer]
    for _ in range(n):
        match.apply_hand(hand_result(0, 5, False, [0, 10]))
        seen.append(match.dealer)
    assert seen == [(n - 2 + k) % n for k in range(n + 1)]


# --------------------------------------------------------------------------------------------------
# RULES.md 2: Bahraini Kout
# --------------------------------------------------------------------------------------------------


def test_bh_auction_and_forced_bab() -> None:
    # RULES.md 2.3: bids 5..8; the dealer must bid when all others passed; a forced Bab is an
    # ordinary Bab.
    hand = RefHand("kout_bh_6", bh(), 5, make_deal("kout_bh_6", {}))
    assert (hand.to_act, hand.legal_actions()) == (0, ["pass", 5, 6, 7, 8])
    with pytest.raises(ValueError):
        hand.apply(9)
    run(hand, ["pass"] * 5)
    assert hand.legal_actions() == [5, 6, 7, 8]
    hand.apply(5)
    assert (hand.bidder, hand.contract, hand.malzoom) == (5, 5, False)
    result = find_hand("kout_bh_4", bh(), ["pass", "pass", "pass", 5], lambda r: r["made"] is False)
    assert (result["malzoom"], result["points"]) == (False, [0, 10])


def test_bh_trump_must_be_held_and_first_lead_is_bidder_right() -> None:
    # RULES.md 2.4 and 2.5.
    hands = make_deal("kout_bh_4", {}, void={2: "HC"})
    hand = RefHand("kout_bh_4", bh(), 0, hands)
    run(hand, ["pass", 6, "pass", "pass"])
    assert hand.to_act == 2
    assert hand.legal_actions() == ["S", "D"]
    with pytest.raises(ValueError):
        hand.apply("H")
    hand.apply("D")
    assert (hand.phase, hand.to_act) == ("play", 3)


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        (["KS", "AS", "7H", "AC"], 2),  # trump (hearts) wins
        (["KS", "AS", "QS", "AC"], 1),  # led suit by rank
        (["KS", "JK", "AH", "AS"], 1),  # RULES.md 2.7: the joker beats the trump Ace
        (["7C", "8H", "JK", "AH"], 2),
    ],
)
def test_bh_trick_winner(plays: list[str], winner: int) -> None:
    # Seat 0 bids, seat 1 leads (RULES.md 2.5); plays are listed from seat 1 on.
    led = suit(plays[0])
    assert led is not None
    void = {
        1 + i: led for i, card in enumerate(plays) if i and card not in JOKERS and suit(card) != led
    }
    void = {seat % 4: s for seat, s in void.items()}
    fixed = {(1 + i) % 4: [card] for i, card in enumerate(plays)}
    fixed[0].append("TH")  # the bidder must hold a heart to name hearts (RULES.md 2.4)
    hand = RefHand("kout_bh_4", bh(), 3, make_deal("kout_bh_4", fixed, void))
    auction(hand, 5, "H")
    assert hand.to_act == 1
    run(hand, plays)
    assert hand.trick_winners == [(1 + winner) % 4]


def test_bh_following_and_joker_never_led_with_other_cards() -> None:
    hands = make_deal("kout_bh_4", {1: ["AS", "JK"], 2: ["7S"]})
    hand = RefHand("kout_bh_4", bh(), 3, hands)
    auction(hand, 5, "D")
    assert hand.to_act == 1
    assert "JK" not in hand.legal_actions()  # RULES.md 2.8
    assert len(hand.legal_actions()) == 7
    hand.apply("AS")
    # RULES.md 2.6: follow spades, the joker always legal.
    assert set(hand.legal_actions()) == {c for c in hand.hands[2] if suit(c) == "S"}


# Seat 0 bids; seat 1 leads; seat 0 ruffs, runs trumps, then loses the 7th trick to seat 1, whose
# last card is JK.
FORCED_JOKER_DEAL = {
    0: "AS KS QS JS TS 9S 8S 7H",
    1: "JK AH AD KD QD JD TD 9D",
    2: "7S KH QH JH TH 9H 8H 8D",
    3: "7C 8C 9C TC JC QC KC AC",
}
FORCED_JOKER_TRICKS = [
    ["AD", "8D", "7C", "8S"],  # seat 1 leads; seat 0 ruffs
    ["AS", "9D", "7S", "8C"],
    ["KS", "TD", "8H", "9C"],
    ["QS", "JD", "9H", "TC"],
    ["JS", "QD", "TH", "JC"],
    ["TS", "KD", "JH", "QC"],
    ["7H", "AH", "QH", "KC"],
]


def test_bh_forced_joker_lead_loses_the_match() -> None:
    hand = RefHand("kout_bh_4", bh(), 3, hands_from(FORCED_JOKER_DEAL))
    run(hand, [7, "pass", "pass", "pass"])
    assert hand.legal_actions() == ["S", "H"]
    hand.apply("S")
    for trick in FORCED_JOKER_TRICKS[:-1]:
        run(hand, trick)
    hand.apply("7H")
    assert set(hand.legal_actions()) == {"AH", "JK"}
    run(hand, FORCED_JOKER_TRICKS[-1][1:])
    # Seven tricks: 6 for the bidders (need 7), 1 for the defenders (need 2): not fixed; seat 1
    # holds only JK.
    assert (hand.phase, hand.legal_actions()) == ("over", [])
    assert hand.result() == {
        "bidder": 0,
        "contract": 7,
        "malzoom": False,
        "trump": "S",
        "trick_winners": [0, 0, 0, 0, 0, 0, 1],
        "tricks": [6, 1],
        "made": None,
        "points": [0, 0],
        "match_winner": 0,  # the other team than the forced leader's
        "forced_joker_lead": True,
    }


def test_bh_early_stop_before_forced_joker() -> None:
    # Same play at Inzili: the defenders' first trick settles the hand before seat 1's forced joker
    # lead.
    hand = RefHand("kout_bh_4", bh(), 3, hands_from(FORCED_JOKER_DEAL))
    auction(hand, 8, "S")
    for trick in FORCED_JOKER_TRICKS:
        run(hand, trick)
    result = hand.result()
    assert (
        result["made"],
        result["match_winner"],
        result["forced_joker_lead"],
        result["points"],
    ) == (
        False,
        1,
        False,
        [0, 0],
    )


def test_bh_forced_joker_found_in_random_play() -> None:
    found = 0
    for seed in range(3000):
        rng = random.Random(seed)
        hand = RefHand("kout_bh_4", bh(), 0, deal("kout_bh_4", 0, rng))
        play_randomly(hand, rng)
        result = hand.result()
        if result["forced_joker_lead"]:
            found += 1
            leader = result["trick_winners"][-1]
            assert hand.hands[leader] == ["JK"]
            assert len(result["trick_winners"]) == 7
            assert result["match_winner"] == 1 - leader % 2
            assert (result["made"], result["points"]) == (None, [0, 0])
    assert found > 0


def bh_match(preset: str, dealer: int, score: int, target: int = 31) -> KoutMatch:
    match = RefMatch(preset, bh(target=target), dealer)
    match.score = score
    return match


@pytest.mark.parametrize(
    ("preset", "dealer", "score", "points", "new_score", "new_dealer"),
    [
        # (c): from 0 is not a flip; dealer's team won but now owns the score: next seat on the team
        # opposite.
        ("kout_bh_4", 0, 0, [5, 0], 5, 1),
        # (b): the dealer's team won and the score is still owned by the other team: the dealer
        # deals again.
        ("kout_bh_4", 0, -10, [5, 0], -5, 0),
        # (b): ... or is 0 (to 0 is not a flip).
        ("kout_bh_4", 0, -5, [5, 0], 0, 0),
        # (a): flip from team 1 to team 0: next seat on team 1 after the dealer.
        ("kout_bh_4", 0, -3, [5, 0], 2, 1),
        ("kout_bh_4", 1, -3, [6, 0], 3, 3),  # dealer 1: next seat on team 1 after 1 is 3
        # (a): flip from team 0 to team 1: next seat on team 0.
        ("kout_bh_4", 1, 3, [0, 10], -7, 2),
        ("kout_bh_4", 0, 3, [0, 10], -7, 2),
        # (c): the other team won: next seat on the team opposite the round winner.
        ("kout_bh_4", 0, 0, [0, 5], -5, 2),
        ("kout_bh_4", 0, 10, [0, 5], 5, 2),
        ("kout_bh_4", 3, 3, [0, 5], -2, 0),
        # (b) for team 1.
        ("kout_bh_4", 3, 10, [0, 6], 4, 3),
        # six seats, wrapping around.
        ("kout_bh_6", 5, -4, [0, 5], -9, 0),
        ("kout_bh_6", 5, 4, [7, 0], 11, 1),
        ("kout_bh_6", 4, 0, [0, 12], -12, 0),
    ],
)
def test_bh_dealer_rotation(
    preset: str, dealer: int, score: int, points: list[int], new_score: int, new_dealer: int
) -> None:
    # RULES.md 2.10 (signed score) and 2.12 (rotation).
    match = bh_match(preset, dealer, score)
    match.apply_hand(hand_result(0, 5, True, points))
    assert (match.score, match.dealer, match.over) == (new_score, new_dealer, False)


def test_bh_target_and_hand_ending_matches() -> None:
    # RULES.md 2.11: |score| reaching the target ends the match.
    match = bh_match("kout_bh_4", 0, -24)
    match.apply_hand(hand_result(1, 7, True, [0, 7]))
    assert (match.over, match.winner, match.reason, match.score) == (True, 1, "target", -31)
    match = bh_match("kout_bh_4", 0, 20, target=26)
    match.apply_hand(hand_result(1, 5, False, [10, 0]))
    assert (match.over, match.winner, match.reason, match.score) == (True, 0, "target", 30)
    match = bh_match("kout_bh_4", 0, 24)
    match.apply_hand(hand_result(0, 6, True, [6, 0]))
    assert (match.over, match.score) == (False, 30)
    # RULES.md 2.10: Inzili made / failed decides the match; the counter does not move.
    match = bh_match("kout_bh_6", 2, 17)
    match.apply_hand(hand_result(3, 8, True, [0, 0], winner=1))
    assert (match.over, match.winner, match.reason, match.score) == (True, 1, "inzili", 17)
    match = bh_match("kout_bh_6", 2, -17)
    match.apply_hand(hand_result(3, 8, False, [0, 0], winner=0))
    assert (match.over, match.winner, match.reason, match.score) == (True, 0, "inzili", -17)
    # RULES.md 2.8: a forced joker lead.
    match = bh_match("kout_bh_4", 1, 0)
    match.apply_hand(hand_result(2, 6, None, [0, 0], winner=0, forced=True))
    assert (match.over, match.winner, match.reason, match.score) == (True, 0, "forced_joker", 0)


# --------------------------------------------------------------------------------------------------
# Random play: invariants at every step (2,000 hands per preset)
# --------------------------------------------------------------------------------------------------


def expected_points(preset: str, result: dict[str, Any]) -> list[int]:
    """RULES.md 1.10 / 2.10, written out again independently."""
    contract, made, bidding = result["contract"], result["made"], result["bidder"] % 2
    if preset.startswith("kout_bo"):
        table = {5: (5, 10), 6: (6, 12), 7: (7, 14), 8: (8, 16), 9: (36, 18)}
        made_value, failed_value = (5, 5) if result["malzoom"] else table[contract]
    else:
        if contract == 8 or result["forced_joker_lead"]:
            return [0, 0]
        made_value, failed_value = contract, 2 * contract
    points = [0, 0]
    if made:
        points[bidding] = made_value
    else:
        points[1 - bidding] = failed_value
    return points


def checked_random_hand(
    preset: str,
    options: dict[str, Any],
    dealer: int,
    rng: random.Random,
    low_bidding: bool = False,
    stats: Counter[str] | None = None,
) -> dict[str, Any]:
    """Play one random hand, checking invariants at every step; return its result.

    Play is uniform among the legal actions. With ``low_bidding`` the auction instead passes with
    probability 0.7 and otherwise makes the lowest legal bid, which gives longer hands (more
    late-hand joker situations).
    """
    stats = Counter() if stats is None else stats
    n = n_players(preset)
    n_tricks = 9 if preset.startswith("kout_bo") else 8
    hands = deal(preset, dealer, rng)
    held = [list(hand) for hand in hands]
    hand = RefHand(preset, options, dealer, hands)
    spoken: list[tuple[int, Any]] = []
    plays: list[tuple[int, str]] = []  # every card play, in order
    tricks: list[list[tuple[int, str]]] = []
    rankless_tricks: set[int] = set()
    while hand.phase != "over":
        seat = hand.to_act
        assert seat is not None
        legal = hand.legal_actions()
        assert legal
        assert len(legal) == len(set(legal))
        if hand.phase == "auction":
            assert seat == (dealer + 1 + len(spoken)) % n
            standing = max([a for _, a in spoken if a != "pass"], default=4)
            max_bid = 9 if n_tricks == 9 else 8
            assert all(
                a == "pass" or (isinstance(a, int) and standing < a <= max_bid) for a in legal
            )
            assert ("pass" in legal) is not (len(spoken) == n - 1 and standing == 4)
        elif hand.phase == "trump":
            assert seat == max((a, s) for s, a in spoken if a != "pass")[1]
        else:
            cards = [str(c) for c in legal]
            assert set(cards) <= set(held[seat])  # legal is a subset of the hand
            trick = plays[len(tricks) * n :]
            if not trick:
                expected_leader = hand.trick_winners[-1] if hand.trick_winners else None
                if expected_leader is not None:
                    assert seat == expected_leader
            else:
                assert seat == (trick[-1][0] + 1) % n
                lead = trick[0][1]
                if lead not in JOKERS and any(suit(c) == suit(lead) for c in held[seat]):
                    # RULES.md 1.5 / 2.6: following a suited lead while holding the suit: only that
                    # suit, or jokers.
                    assert all(c in JOKERS or suit(c) == suit(lead) for c in cards)
                if (
                    lead in JOKERS
                    and not hand.rankless_lead
                    and any(suit(c) == hand.trump for c in held[seat])
                ):
                    # RULES.md 1.7: after a legal joker lead, a player holding trump plays trump (or
                    # a joker).
                    assert all(c in JOKERS or suit(c) == hand.trump for c in cards)
                if hand.rankless_lead and all(c in JOKERS for _, c in trick):
                    # RULES.md 1.8: no led suit before the first non-joker card.
                    assert set(cards) == set(held[seat])
        if low_bidding and hand.phase == "auction":
            bids = [a for a in legal if isinstance(a, int)]
            action = "pass" if "pass" in legal and (not bids or rng.random() < 0.7) else min(bids)
        else:
            action = rng.choice(legal)
        is_lead = hand.phase == "play" and not hand.trick
        # An illegal action is refused and changes nothing.
        if hand.phase == "play":
            outsider = next((c for c in deck(preset) if c not in legal), None)
            if outsider is not None and rng.random() < 0.05:
                with pytest.raises(ValueError):
                    hand.apply(outsider)
        hand.apply(action)
        if is_lead and action in ("RJ", "BJ"):
            if hand.rankless_lead:
                # RULES.md 1.8: only a leader holding nothing but jokers leads one he may not lead.
                assert all(c in JOKERS for c in held[seat])
                stats["rankless_lead"] += 1
                rankless_tricks.add(len(tricks))
            else:
                stats["joker_lead"] += 1
        if len(spoken) < n:
            spoken.append((seat, action))
        elif isinstance(action, str) and len(action) == 2:
            plays.append((seat, action))
            held[seat].remove(action)
            if len(plays) % n == 0:
                tricks.append(plays[-n:])
    result = hand.result()
    # Each card played once; one card per seat per trick; the cards not played are still held.
    cards_played = [c for _, c in plays]
    assert len(cards_played) == len(set(cards_played)) == n * len(result["trick_winners"])
    assert sorted(cards_played + [c for h in held for c in h]) == sorted(deck(preset))
    assert hand.hands == held
    for idx, trick in enumerate(tricks):
        assert sorted(s for s, _ in trick) == list(range(n))
        winner = result["trick_winners"][idx]
        seat_of = {c: s for s, c in trick}
        if "JK" in seat_of:
            assert winner == seat_of["JK"]  # RULES.md 2.7
        if "RJ" in seat_of and trick[0][1] != "RJ":
            # RULES.md 1.1: RJ tops the ladder (unless it was led rankless, 1.8).
            assert winner == seat_of["RJ"]
        if idx in rankless_tricks:
            assert winner != trick[0][0]  # RULES.md 1.8: the rankless joker never wins
    # Tricks per team and the early stop (RULES.md 1.11 / 2.9).
    bidding = result["bidder"] % 2
    contract = result["contract"]
    counts = [0, 0]
    fixed_at = None
    for idx, winner in enumerate(result["trick_winners"]):
        counts[winner % 2] += 1
        if fixed_at is None and (
            counts[bidding] >= contract or counts[1 - bidding] >= n_tricks - contract + 1
        ):
            fixed_at = idx + 1
    assert counts == result["tricks"]
    if result["forced_joker_lead"]:
        assert fixed_at is None and len(result["trick_winners"]) == n_tricks - 1
        assert (
            result["made"] is None and result["match_winner"] == 1 - result["trick_winners"][-1] % 2
        )
    elif options.get("play_all_tricks"):
        assert len(result["trick_winners"]) == n_tricks
        assert result["made"] is (counts[bidding] >= contract)
    else:
        assert fixed_at == len(result["trick_winners"])
        assert result["made"] is (counts[bidding] >= contract)
    # Exactly one team scores (except the match-deciding Bahraini hands).
    assert result["points"] == expected_points(preset, result)
    if result["match_winner"] is None:
        assert sorted(p > 0 for p in result["points"]) == [False, True]
    else:
        assert not preset.startswith("kout_bo")
        assert result["points"] == [0, 0]
        if not result["forced_joker_lead"]:
            assert contract == 8
            assert result["match_winner"] == (bidding if result["made"] else 1 - bidding)
    assert result["malzoom"] is (
        preset.startswith("kout_bo")
        and all(a == "pass" for _, a in spoken[:-1])
        and spoken[-1][1] == 5
    )
    stats["hands"] += 1
    stats["malzoom"] += result["malzoom"]
    stats["made"] += result["made"] is True
    stats["failed"] += result["made"] is False
    stats["forced_joker_lead"] += result["forced_joker_lead"]
    stats["inzili"] += result["match_winner"] is not None and not result["forced_joker_lead"]
    return result


@pytest.mark.parametrize("preset", PRESETS)
def test_random_hands_invariants(preset: str) -> None:
    rng = random.Random(f"invariants-{preset}")
    n = n_players(preset)
    variants = (
        [
            bo(),
            bo(play_all_tricks=True),
            bo(joker_lead_scope="anyone"),
            bo(joker_lead_scope="anyone", play_all_tricks=True),
        ]
        if preset.startswith("kout_bo")
        else [bh()]
    )
    stats: Counter[str] = Counter()
    for idx in range(2000):
        checked_random_hand(
            preset,
            variants[idx % len(variants)],
            idx % n,
            rng,
            low_bidding=idx % 2 == 1,
            stats=stats,
        )
    # The random hands reached the situations the rules care about.
    assert stats["hands"] == 2000
    assert stats["made"] > 0 and stats["failed"] > 0
    if preset.startswith("kout_bo"):
        assert stats["malzoom"] > 0 and stats["joker_lead"] > 0 and stats["rankless_lead"] > 0
    else:
        assert stats["forced_joker_lead"] > 0 and stats["inzili"] > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_play_random_hand_is_reproducible(preset: str) -> None:
    options = options_for(preset)
    a = [play_random_hand(preset, options, 1, random.Random(s)) for s in range(20)]
    b = [play_random_hand(preset, options, 1, random.Random(s)) for s in range(20)]
    assert a == b


@pytest.mark.parametrize("preset", PRESETS)
def test_random_matches(preset: str) -> None:
    rng = random.Random(f"matches-{preset}")
    is_bo = preset.startswith("kout_bo")
    reasons: set[str] = set()
    for idx in range(60):
        first = ("low_draw", "random", idx % n_players(preset))[idx % 3]
        options = bo(first_dealer=first) if is_bo else bh(first_dealer=first)
        match = play_random_match(preset, options, rng)
        if isinstance(first, int):
            assert match["first_dealer"] == first
        assert 0 <= match["first_dealer"] < n_players(preset)
        hands = match["hands"]
        assert hands
        reasons.add(match["reason"])
        if is_bo:
            total = [sum(h["points"][t] for h in hands) for t in (0, 1)]
            assert match["score"] == total
            assert match["reason"] in {"target", "kout", "bawan_first_hand"}
            if match["reason"] == "bawan_first_hand":
                assert len(hands) == 1
        else:
            assert match["score"] == sum(h["points"][0] - h["points"][1] for h in hands)
            assert match["reason"] in {"target", "inzili", "forced_joker"}
            assert all(h["match_winner"] is None for h in hands[:-1])
        # The match ended on its last hand and not before.
        replay = RefMatch(preset, options, match["first_dealer"])
        for hand in hands[:-1]:
            replay.apply_hand(hand)
            assert not replay.over
        replay.apply_hand(hands[-1])
        assert (replay.over, replay.winner, replay.reason) == (
            True,
            match["winner"],
            match["reason"],
        )
    # Uniform random bidding nearly always reaches a Bawan / Inzili; in Bahraini Kout the Inzili
    # ends the match.
    assert reasons & ({"target", "kout"} if is_bo else {"inzili"})


@pytest.mark.parametrize("preset", ["kout_bh_4", "kout_bh_6"])
def test_bh_matches_to_the_target(preset: str) -> None:
    # Bahraini matches where the seat after the dealer always bids Bab (no Inzili): the signed score
    # walks to the target; the dealer follows RULES.md 2.12 and the match ends exactly when |score|
    # reaches the target.
    n = n_players(preset)
    rng = random.Random(f"bh-target-{preset}")
    for _ in range(20):
        match = RefMatch(preset, bh(), 0)
        score = 0
        while not match.over:
            dealer = match.dealer
            hand = RefHand(preset, bh(), dealer, deal(preset, dealer, rng))
            run(hand, [5] + ["pass"] * (n - 1))
            play_randomly(hand, rng)
            result = hand.result()
            before = score
            score += result["points"][0] - result["points"][1]
            match.apply_hand(result)
            assert match.score == score
            # RULES.md 2.11 (target) or 2.8 (a forced joker lead ends the match whatever the score).
            assert match.over is (abs(score) >= 31 or result["forced_joker_lead"])
            if result["forced_joker_lead"]:
                assert (match.reason, match.winner) == ("forced_joker", result["match_winner"])
                break
            round_winner = 0 if result["points"][0] else 1
            flipped = before * score < 0
            if flipped:
                expected = next(
                    s % n
                    for s in (dealer + 1, dealer + 2)
                    if (s % n) % 2 != (0 if score > 0 else 1)
                )
            elif round_winner == dealer % 2 and (score == 0 or (score > 0) != (dealer % 2 == 0)):
                expected = dealer
            else:
                expected = next(
                    s % n for s in (dealer + 1, dealer + 2) if (s % n) % 2 != round_winner
                )
            assert match.dealer == expected
        else:
            assert (match.reason, match.winner) == ("target", 0 if score > 0 else 1)
