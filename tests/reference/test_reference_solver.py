"""Tests of the reference double-dummy solver (kout_sim.reference.solver), rule by rule.

The hand-built endgames fix every seat's cards for the last one or two tricks; the earlier tricks
are filled in by a seeded search: the remaining cards are dealt at random and played at random
(legal plays only, by the reference engine, each seat playing only its filler cards) until the
position has the wanted leader and trick counts. The value of the endgame is then worked out by
hand in the comment on each case of the endgame tables (or in the test's docstring). Random
records from real deals check that the per-card values, the root value and the principal line
agree.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from kout_sim import IllegalAction, InvalidRecord
from kout_sim.reference import baloot as B
from kout_sim.reference import kout as K
from kout_sim.reference.solver import solve_record
from kout_sim.replay import legal_actions, replay_hand
from kout_sim.rules import get_rules


def _solve(record: Mapping[str, Any]) -> dict[str, Any]:
    """The reference's answer, checked against the fast solver's (kout_sim.solver): every
    hand-built endgame here is also a test of the kernels. Errors must be of the same class."""
    from kout_sim.solver import solve

    try:
        slow = solve_record(record)
    except ValueError as exc:
        with pytest.raises(type(exc)):
            solve(record)
        raise
    fast = solve(record)
    assert fast.pop("forced_joker_loser") in (None, 0, 1)
    assert fast == slow, (fast, slow)
    return slow


ATTEMPTS = 20_000  # filler deals tried before a hand-built endgame is declared impossible
DEALER = 3  # seat 0 speaks (Kout) / is P1 (Baloot) first


# --------------------------------------------------------------------------------------------------
# Builders
# --------------------------------------------------------------------------------------------------


def _play_filler(
    hand: K.RefHand | B.RefHand, filler: Sequence[Sequence[str]], tricks: int, rng: random.Random
) -> list[str] | None:
    """Play ``tricks`` tricks at random, every seat playing only its ``filler`` cards; the plays,
    or None when a seat must play an endgame card or the hand ends before the last of them."""
    plays: list[str] = []
    while len(hand.trick_winners) < tricks:
        if hand.phase != "play":
            return None
        seat = hand.to_act
        assert seat is not None
        choices = [str(card) for card in hand.legal_actions() if card in filler[seat]]
        if not choices:
            return None
        card = rng.choice(choices)
        hand.apply(card)
        plays.append(card)
    return plays


def _leader(hand: K.RefHand | B.RefHand) -> int | None:
    """The seat to lead the next trick (the last trick's winner once the hand is over)."""
    if hand.phase == "play":
        return hand.to_act
    return hand.trick_winners[-1] if hand.trick_winners else None


def kout_endgame(
    preset: str,
    *,
    calls: Sequence[int | str],
    trump: str,
    endgame: Mapping[int, str],
    leader: int,
    taken: tuple[int, int] | None = None,
    then: str = "",
    end: str = "play",
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> tuple[dict[str, Any], K.RefHand]:
    """A Kout record whose last tricks are ``endgame`` (``{seat: "AS KH"}``, as held when the
    endgame starts), led by ``leader``, with ``taken`` = tricks per team [team0, team1] before it
    (any when None); ``then`` = cards played in the endgame's first trick. ``end`` is the phase
    of the hand when the endgame starts: "play", or "over" (early stop, or forced joker lead).
    Returns the record and the reference hand at the end of it."""
    options = dict(options or {})
    full_options = dict(get_rules(preset, options).options)
    n = K.n_players(preset)
    n_tricks = len(K.deck(preset)) // n
    held = [endgame[seat].split() for seat in range(n)]
    rest = [card for card in K.deck(preset) if all(card not in cards for cards in held)]
    size = n_tricks - len(held[0])
    assert len(rest) == n * size, "the endgame must give every seat the same number of cards"
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        rng.shuffle(rest)
        filler = [rest[seat * size : (seat + 1) * size] for seat in range(n)]
        hands = [held[seat] + filler[seat] for seat in range(n)]
        hand = K.RefHand(preset, full_options, DEALER, hands)
        try:
            for call in calls:
                hand.apply(call)
            hand.apply(trump)  # RULES.md 2.4: may fail when the bidder holds no card of it
        except ValueError:
            continue
        plays = _play_filler(hand, filler, size, rng)
        if plays is None or hand.phase != end or _leader(hand) != leader:
            continue
        if taken is not None and tuple(hand.tricks) != taken:
            continue
        for card in then.split():
            hand.apply(card)
            plays.append(card)
        record = {
            "rules": preset,
            "options": options,
            "dealer": DEALER,
            "hands": hands,
            "calls": list(calls),
            "trump": trump,
            "plays": plays,
        }
        return record, hand
    raise AssertionError("no filler found for this endgame")


SUN_CALLS = ["sun"]  # P1 (seat 0) buys Sun; no doubling at match score 0 (RULES.md 3.3.2)
HOKUM_CALLS = ["hokum", "pass", "pass", "pass", "confirm", "pass", "pass"]  # seat 0 buys Hokum


def baloot_endgame(
    *,
    mode: str,
    endgame: Mapping[int, str],
    leader: int,
    trump: str | None = None,
    then: str = "",
    calls: Sequence[str] | None = None,
    seed: int = 0,
) -> tuple[dict[str, Any], B.RefHand]:
    """A Baloot record, seat 0 the buyer (Sun, or Hokum in ``trump``: the face-up card is one of
    seat 0's trumps), whose last tricks are ``endgame``, led by ``leader``; ``then`` as in
    :func:`kout_endgame`; ``calls`` replaces the default auction (it must make seat 0 the
    buyer). Returns the record and the reference hand at the end of it."""
    options = dict(get_rules("baloot").options)
    held = [endgame[seat].split() for seat in range(4)]
    rest = [card for card in B.deck() if all(card not in cards for cards in held)]
    size = B.N_TRICKS - len(held[0])
    rng = random.Random(seed)
    if calls is None:
        calls = SUN_CALLS if mode == "sun" else HOKUM_CALLS
    for _ in range(ATTEMPTS):
        rng.shuffle(rest)
        filler = [rest[seat * size : (seat + 1) * size] for seat in range(4)]
        full = [held[seat] + filler[seat] for seat in range(4)]
        candidates = [card for card in full[0] if mode == "sun" or card[1] == trump]
        if not candidates:
            continue
        face_up = candidates[0]
        own = [[card for card in full[seat] if card != face_up] for seat in range(4)]
        first = [cards[: B.FIRST_DEAL] for cards in own]
        completion = [cards[B.FIRST_DEAL :] for cards in own]
        hand = B.RefHand("baloot", options, DEALER, first, face_up=face_up, completion=completion)
        for call in calls:
            hand.apply(call)
        assert hand.phase == "play" and hand.buyer == 0 and hand.trump == trump
        plays = _play_filler(hand, filler, size, rng)
        if plays is None or _leader(hand) != leader:
            continue
        for card in then.split():
            hand.apply(card)
            plays.append(card)
        record = {
            "rules": "baloot",
            "dealer": DEALER,
            "hands": first,
            "face_up": face_up,
            "calls": list(calls),
            "completion": completion,
            "plays": plays,
        }
        return record, hand
    raise AssertionError("no filler found for this endgame")


def random_kout_record(
    preset: str, seed: int, left: int, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A real deal (RULES.md 1.2 / 2.2 draw, 0.4 deal), random legal calls and plays until at
    most ``left`` tricks remain (a hand that stops earlier, RULES.md 2.9, is redrawn)."""
    options = dict(options or {})
    full_options = dict(get_rules(preset, options).options)
    rng = random.Random(seed)
    n_tricks = len(K.deck(preset)) // K.n_players(preset)
    while True:
        dealer = K.draw_first_dealer(preset, rng)
        hands = K.deal(preset, dealer, rng)
        hand = K.RefHand(preset, full_options, dealer, hands)
        actions: list[Any] = []
        while hand.phase != "over" and len(hand.trick_winners) < n_tricks - left:
            action = rng.choice(hand.legal_actions())
            hand.apply(action)
            actions.append(action)
        if n_tricks - len(hand.trick_winners) <= left:
            break
    n = K.n_players(preset)
    return {
        "rules": preset,
        "options": options,
        "dealer": dealer,
        "hands": hands,
        "calls": actions[:n],
        "trump": actions[n],
        "plays": actions[n + 1 :],
    }


def random_baloot_record(seed: int, left: int, mode: str) -> dict[str, Any]:
    """A real Baloot deal (RULES.md 3.2.1, 3.2.6) bought in ``mode`` after random calls, then
    random legal plays until ``left`` tricks remain."""
    options = dict(get_rules("baloot").options)
    rng = random.Random(seed)
    while True:
        dealer = rng.randrange(4)
        first, face_up, rest = B.deal(dealer, rng)
        hand = B.RefHand("baloot", options, dealer, first, face_up=face_up, completion=None)
        calls: list[str] = []
        completion: list[list[str]] = []
        while hand.phase in ("auction", "completion", "doubling"):
            if hand.phase == "completion":
                assert hand.taker is not None
                completion = B.completion_from(rest, dealer, hand.taker)
                hand.complete(completion)
                continue
            call = str(rng.choice(hand.legal_actions()))
            hand.apply(call)
            calls.append(call)
        if hand.phase == "play" and hand.mode == mode:
            break
    plays: list[str] = []
    while len(hand.trick_winners) < B.N_TRICKS - left:
        card = str(rng.choice(hand.legal_actions()))
        hand.apply(card)
        plays.append(card)
    return {
        "rules": "baloot",
        "dealer": dealer,
        "hands": first,
        "face_up": face_up,
        "calls": calls,
        "completion": completion,
        "plays": plays,
    }


def with_play(record: Mapping[str, Any], card: str) -> dict[str, Any]:
    """``record`` with one more card played."""
    return {**record, "plays": [*record["plays"], card]}


# --------------------------------------------------------------------------------------------------
# Hand-built endgames, each with its value worked out by hand
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contract:
    """A Kout auction that makes seat 0 the bidder, and the trump he names."""

    preset: str
    calls: Sequence[int | str]
    trump: str


@dataclass(frozen=True)
class KoutEndgame:
    """A hand-built Kout endgame (the arguments of :func:`kout_endgame`) and its value: the
    bidding team's ``tricks`` and the value of each of ``cards``, the choices of the seat
    ``to_act``. When ``taken`` is None the filler tricks decide how many tricks team 0 (the
    bidding team) took before the endgame, and the values count on top of those. ``name`` is
    the test's id: the RULES.md rule it checks and what happens."""

    name: str
    contract: Contract
    endgame: Mapping[int, str]
    leader: int
    tricks: int
    to_act: int | None
    cards: Mapping[str, int]
    taken: tuple[int, int] | None = None
    then: str = ""
    end: str = "play"
    options: Mapping[str, Any] | None = None
    forced_joker_lead: bool = False

    def check(self) -> tuple[dict[str, Any], K.RefHand]:
        """Build the endgame, check its phase, forced joker lead and solved value; return the
        record and the reference hand."""
        record, hand = kout_endgame(
            self.contract.preset,
            calls=self.contract.calls,
            trump=self.contract.trump,
            endgame=self.endgame,
            leader=self.leader,
            taken=self.taken,
            then=self.then,
            end=self.end,
            options=self.options,
        )
        assert hand.phase == self.end
        assert hand.forced_joker_lead == self.forced_joker_lead
        t = hand.tricks[0] if self.taken is None else 0
        cards = {card: t + value for card, value in self.cards.items()}
        assert _solve(record) == {"tricks": t + self.tricks, "to_act": self.to_act, "cards": cards}
        return record, hand


@dataclass(frozen=True)
class BalootEndgame:
    """A hand-built Baloot endgame (the arguments of :func:`baloot_endgame`) and its value: the
    card ``points`` of the buyer's team 0 and the value of each of ``cards``, the choices of the
    seat ``to_act``, all on top of the card points team 0 captured in the filler tricks.
    ``closed``: the auction ends in a closed Double (RULES.md 3.3.1)."""

    name: str
    mode: str
    endgame: Mapping[int, str]
    leader: int
    points: int
    to_act: int
    cards: Mapping[str, int]
    trump: str | None = None
    then: str = ""
    calls: Sequence[str] | None = None
    closed: bool = False

    def check(self) -> tuple[dict[str, Any], B.RefHand]:
        """Build the endgame, check whether it is closed and its solved value; return the record
        and the reference hand."""
        record, hand = baloot_endgame(
            mode=self.mode,
            endgame=self.endgame,
            leader=self.leader,
            trump=self.trump,
            then=self.then,
            calls=self.calls,
        )
        assert hand.closed == self.closed
        b = hand.card_points[0]
        cards = {card: b + value for card, value in self.cards.items()}
        assert _solve(record) == {"points": b + self.points, "to_act": self.to_act, "cards": cards}
        return record, hand


# --------------------------------------------------------------------------------------------------
# Kout Bo (RULES.md §1)
# --------------------------------------------------------------------------------------------------

# Dealer 3: seat 0 bids 5, team 0 is the bidding team; seat 0 leads trick 1 (RULES.md 1.4).
BO_5: list[int | str] = [5, "pass", "pass", "pass"]
BO_PLAY_ALL = {"play_all_tricks": True}  # lets the filler tricks decide the hand (RULES.md 1.11)
BO_5_SPADES = Contract("kout_bo_4", BO_5, "S")

CASH_THE_ACE = {0: "AS KH", 1: "KS 7C", 2: "7H 8C", 3: "8H 9C"}

# Seat 0 (the bidder) leads the last two tricks holding both jokers; seat 1 holds the trump ace
# (RULES.md 1.1: RJ > trump A > BJ), the trump K Q J fell in the filler tricks.
JOKER_ENDGAME = {0: "RJ BJ", 1: "AS 7H", 2: "8H 9H", 3: "TH QH"}


def joker_endgame(name: str, contract: int, tricks: int, cards: Mapping[str, int]) -> KoutEndgame:
    """:data:`JOKER_ENDGAME` at ``contract``, played to the end (play_all_tricks), seat 0 to lead;
    the values count on top of team 0's tricks before it."""
    return KoutEndgame(
        name,
        Contract("kout_bo_4", [contract, "pass", "pass", "pass"], "S"),
        JOKER_ENDGAME,
        leader=0,
        tricks=tricks,
        to_act=0,
        cards=cards,
        options=BO_PLAY_ALL,
    )


# Contract 5: no joker is leadable (AS is still out, so not 1.6(c)), and seat 0 holds only
# jokers: he must lead one, rankless (1.8), and any card may follow it. RJ led: seat 1 plays
# 7H (which sets hearts), seat 3 wins with a heart, and in the last trick AS beats BJ: t + 0.
# BJ led: it loses whatever seat 1 plays, but RJ wins the last trick as a follower: t + 1.
UNLEADABLE_JOKERS = joker_endgame(
    "1_8_unleadable_jokers_are_led_rankless", 5, tricks=1, cards={"RJ": 0, "BJ": 1}
)

KOUT_BO_ENDGAMES = [
    # One trick left, seat 0 leads AS (trump ace, RULES.md 1.1) and takes it: 4 + 1 = 5.
    KoutEndgame(
        "1_9_last_trick_counts_onto_the_tricks_already_taken",
        BO_5_SPADES,
        {0: "AS", 1: "KS", 2: "7H", 3: "8H"},
        leader=0,
        taken=(4, 4),
        tricks=5,
        to_act=0,
        cards={"AS": 5},
    ),
    # Trump S, seat 0 leads with AS KH. AS first draws seat 1's KS (he must follow suit,
    # RULES.md 1.5), then KH wins: 3 + 2 = 5. KH first: seat 1, void in hearts, ruffs with KS and
    # leads 7C, which seat 0 ruffs: 3 + 1 = 4. The bidding team maximises: 5.
    KoutEndgame(
        "1_5_bidding_team_cashes_the_trump_ace_before_the_void_defender_ruffs",
        BO_5_SPADES,
        CASH_THE_ACE,
        leader=0,
        taken=(3, 4),
        tricks=5,
        to_act=0,
        cards={"AS": 5, "KH": 4},
    ),
    # The same endgame after seat 0 led KH: seat 1 (defence) ruffs with KS (4) rather than
    # discarding 7C (KH wins, then AS pulls KS: 5). The defence minimises: 4.
    KoutEndgame(
        "1_5_defender_to_act_mid_trick_takes_the_minimum",
        BO_5_SPADES,
        CASH_THE_ACE,
        leader=0,
        taken=(3, 4),
        then="KH",
        tricks=4,
        to_act=1,
        cards={"KS": 4, "7C": 5},
    ),
    # Contract 9: both jokers are leadable (1.6(a)) and a joker lead is a trump lead (1.7), so
    # seat 1 must give up AS. RJ first takes AS, then BJ wins: t + 2. BJ first loses to AS, then
    # RJ wins seat 1's 7H lead: t + 1.
    joker_endgame(
        "1_6_a_contract_9_bidding_team_may_lead_either_joker",
        9,
        tricks=2,
        cards={"RJ": 2, "BJ": 1},
    ),
    # Contract 8: only RJ may be led (1.6(b)); it pulls AS (1.7) and wins. Now trump A K Q J
    # have all fallen in completed tricks, so BJ is leadable by 1.6(c) and wins too: t + 2.
    joker_endgame(
        "1_6_b_contract_8_only_rj_is_leadable_then_1_6_c_frees_bj", 8, tricks=2, cards={"RJ": 2}
    ),
    UNLEADABLE_JOKERS,
    # The bidding team reached its 5 after 7 tricks (the record's hand is over, RULES.md
    # 1.11); the two tricks left still count: AS then KH gives 5 + 2 = 7, KH first 6.
    KoutEndgame(
        "1_11_early_stop_does_not_end_the_search",
        BO_5_SPADES,
        CASH_THE_ACE,
        leader=0,
        taken=(5, 2),
        end="over",
        tricks=7,
        to_act=0,
        cards={"AS": 7, "KH": 6},
    ),
    # Contract 8, last trick led by seat 1 (defence) holding only RJ; seat 2 holds trump JS.
    # bidding_team: 1.6(b) is for the bidding team only, so RJ is rankless (1.8) and JS wins for
    # team 0: t + 1. anyone: RJ is a legal lead and wins: t + 0.
    *(
        KoutEndgame(
            f"1_6_joker_lead_scope_decides_whether_a_defender_may_lead_rj-{scope}",
            Contract("kout_bo_4", [8, "pass", "pass", "pass"], "S"),
            {0: "8H", 1: "RJ", 2: "JS", 3: "7H"},
            leader=1,
            options={"joker_lead_scope": scope, "play_all_tricks": True},
            tricks=expected,
            to_act=1,
            cards={"RJ": expected},
        )
        for scope, expected in [("bidding_team", 1), ("anyone", 0)]
    ),
]


def test_1_8_joker_rules_keep_working_after_the_early_stop() -> None:
    """The contract-5 joker endgame in a record that stopped at the early stop (RULES.md 1.11,
    default options): the search plays on, with the same values as with play_all_tricks."""
    record, _ = replace(UNLEADABLE_JOKERS, options={}, end="over").check()
    playing_on = {**record, "options": BO_PLAY_ALL}
    assert _solve(playing_on) == _solve(record)


# --------------------------------------------------------------------------------------------------
# Bahraini Kout (RULES.md §2)
# --------------------------------------------------------------------------------------------------

# Dealer 3: seat 0 bids 5, team 0 is the bidding team; seat 1 leads trick 1 (RULES.md 2.5).
BH_5: list[int | str] = [5, "pass", "pass", "pass"]
BH_5_CLUBS = Contract("kout_bh_4", BH_5, "C")

KOUT_BH_ENDGAMES = [
    # The AS KH endgame of the Kout Bo test in kout_bh_4 (trump S, no joker in it): 3 + 2 = 5
    # with AS first, 4 with KH first.
    KoutEndgame(
        "2_6_bidding_team_cashes_the_trump_ace_kout_bh",
        Contract("kout_bh_4", BH_5, "S"),
        CASH_THE_ACE,
        leader=0,
        taken=(3, 3),
        tricks=5,
        to_act=0,
        cards={"AS": 5, "KH": 4},
    ),
    # Last trick, trump C: seat 1 leads AC, seat 3 plays JK, which wins any trick (2.7); seat 0
    # (bidding team) follows last: the defence takes it, 4 + 0 = 4.
    KoutEndgame(
        "2_7_joker_played_as_a_follower_wins_the_trick",
        BH_5_CLUBS,
        {0: "7H", 1: "AC", 2: "KC", 3: "JK"},
        leader=1,
        taken=(4, 3),
        then="AC KC",
        tricks=4,
        to_act=3,
        cards={"JK": 4},
    ),
    # Trump C, 3-3 after six tricks (contract 5: undecided). Seat 3 leads 9H; seat 0 holds
    # AH JK. AH wins the trick and leaves seat 0 to lead his lone JK with the hand undecided
    # (4-3): forced joker, team 0 loses the match (-1). JK wins the trick instead and AH takes
    # the last one: 3 + 2 = 5.
    KoutEndgame(
        "2_8_forced_joker_lead_loses_for_bidding_team_so_it_is_avoided",
        BH_5_CLUBS,
        {0: "AH JK", 1: "7H 8H", 2: "TH JH", 3: "9H QH"},
        leader=3,
        taken=(3, 3),
        then="9H",
        tricks=5,
        to_act=0,
        cards={"AH": -1, "JK": 5},
    ),
    # Seat 0 leads with AH JK at 3-3: JK may not be led (2.8), AH wins the trick (4-3, still
    # undecided) and seat 0 must then lead the lone JK: -1.
    KoutEndgame(
        "2_8_forced_joker_lead_loses_for_bidding_team_when_unavoidable",
        BH_5_CLUBS,
        {0: "AH JK", 1: "7H 8H", 2: "9H TH", 3: "JH QH"},
        leader=0,
        taken=(3, 3),
        tricks=-1,
        to_act=0,
        cards={"AH": -1},
    ),
    # At 4-2 seat 1 (defence) leads with AH JK: AH must be led and wins (4-3, undecided), then
    # seat 1 must lead the lone JK: the bidding team wins the match, n_tricks + 1 = 9.
    KoutEndgame(
        "2_8_forced_joker_lead_by_a_defender_wins_for_bidding_team",
        BH_5_CLUBS,
        {0: "JH QH", 1: "AH JK", 2: "7H 8H", 3: "9H TH"},
        leader=1,
        taken=(4, 2),
        tricks=9,
        to_act=1,
        cards={"AH": 9},
    ),
    # As above, but seat 3 is void in hearts with 7C (trump) and 8S. After AH 7H, ruffing wins
    # the trick for seat 3, who leads 8S; JK takes the last trick: team 0 stays at 4.
    # Discarding 8S leaves the trick to AH and seat 1 must lead the lone JK: 9. The defence
    # ruffs: 4.
    KoutEndgame(
        "2_8_defence_ruffs_to_avoid_its_forced_joker_lead",
        BH_5_CLUBS,
        {0: "JH QH", 1: "AH JK", 2: "7H 8H", 3: "7C 8S"},
        leader=1,
        taken=(4, 2),
        then="AH 7H",
        tricks=4,
        to_act=3,
        cards={"7C": 4, "8S": 9},
    ),
    # Team 0 made its 5 after six tricks (5-1): the record stops (early stop, 2.9) with seat 0
    # to lead 8H JK. The search plays on: 8H wins (no one else holds a heart above it or a
    # trump), then seat 0 leads the lone JK with the outcome fixed: no forced-joker end, the JK
    # is an ordinary lead and wins (2.7): 5 + 2 = 7, not -1.
    KoutEndgame(
        "2_9_lone_joker_after_the_early_stop_is_an_ordinary_lead_that_wins",
        BH_5_CLUBS,
        {0: "8H JK", 1: "7H 7S", 2: "8S 9S", 3: "TS JS"},
        leader=0,
        taken=(5, 1),
        end="over",
        tricks=7,
        to_act=0,
        cards={"8H": 7},
    ),
    # The record stops at the early stop after seven tricks (team 0 made 5-2, or the defence
    # beat it 3-4) and the next leader holds only JK: he leads it as an ordinary lead and takes
    # the last trick (semantics 3): 6 when he is on the bidding team, 3 when a defender; never a
    # sentinel.
    *(
        KoutEndgame(
            f"2_9_record_stopped_before_a_lone_joker_last_lead-{who}",
            BH_5_CLUBS,
            {**{0: "7H", 1: "8H", 2: "9H", 3: "TH"}, leader: "JK"},
            leader=leader,
            taken=taken,
            end="over",
            tricks=expected,
            to_act=leader,
            cards={"JK": expected},
        )
        for who, leader, taken, expected in [("bidder", 0, (5, 2), 6), ("defender", 1, (3, 4), 3)]
    ),
    # Seat 0 (bidding team) won trick 7 at 4-3 (undecided) and holds only JK: -1.
    KoutEndgame(
        "2_8_record_ending_in_the_bidding_teams_forced_joker_lead_gives_minus_one",
        BH_5_CLUBS,
        {0: "JK", 1: "7H", 2: "8H", 3: "9H"},
        leader=0,
        taken=(4, 3),
        end="over",
        forced_joker_lead=True,
        tricks=-1,
        to_act=None,
        cards={},
    ),
]


@pytest.mark.parametrize("case", KOUT_BO_ENDGAMES + KOUT_BH_ENDGAMES, ids=lambda case: case.name)
def test_kout_endgame_has_its_worked_out_value(case: KoutEndgame) -> None:
    case.check()


DOCS_FORCED_JOKER_TRICKS = [
    "7S 8S 9S AS",
    "KS TS JS QS",
    "AH 7H 8H 9H",
    "KH TH JH QH",
    "7C 8C 9C AC",
    "KC TC JC QC",
    "AD 8D 9D TD",
]


def test_2_8_record_ending_in_a_forced_joker_lead_gives_the_sentinel() -> None:
    """docs/records.md's example: seat 1 (team 1) bid 5; at 3-4 seat 0 (defence) must lead the
    lone JK: the bidding team wins the match: n_tricks + 1 = 9, nothing left to play."""
    record = {
        "rules": "kout_bh_4",
        "dealer": 0,
        "hands": [
            ["9S", "QS", "9H", "QH", "AC", "KC", "AD", "JK"],
            ["AS", "KS", "AH", "KH", "7C", "TC", "8D", "JD"],
            ["7S", "TS", "7H", "TH", "8C", "JC", "9D", "QD"],
            ["8S", "JS", "8H", "JH", "9C", "QC", "TD", "KD"],
        ],
        "calls": [5, "pass", "pass", "pass"],
        "trump": "C",
        "plays": [card for trick in DOCS_FORCED_JOKER_TRICKS for card in trick.split()],
    }
    assert _solve(record) == {"tricks": 9, "to_act": None, "cards": {}}


# --------------------------------------------------------------------------------------------------
# Baloot (RULES.md §3)
# --------------------------------------------------------------------------------------------------

HOKUM_ENDGAME = {0: "JS AH", 1: "9S KD", 2: "7H 8D", 3: "8H 9D"}
CLOSED_ENDGAME = {0: "JS AH", 1: "9S AS", 2: "KS 7H", 3: "QS 8H"}
CLOSED_CALLS = ["hokum", "pass", "pass", "pass", "confirm", "double_closed", "pass"]

# Sun, last trick 7S 7H 9S 8S (no card points, RULES.md 3.1) led by seat 3 and won by seat 1's
# 9S: the buyer's team 0 adds nothing, the floor's 10 goes to team 1.
BLANK_LAST_TRICK = BalootEndgame(
    "3_6_1_last_trick_of_blank_cards_is_worth_ten",
    "sun",
    {0: "7H", 1: "9S", 2: "8S", 3: "7S"},
    leader=3,
    points=0,
    to_act=3,
    cards={"7S": 0},
)

BALOOT_ENDGAMES = [
    # Sun, last trick AS TS KS QS led by seat 0 (the buyer): 11 + 10 + 4 + 3 (RULES.md 3.1)
    # + 10 for the last trick = 38 on top of what team 0 has already captured.
    BalootEndgame(
        "3_6_1_sun_last_trick_counts_its_cards_and_the_ten",
        "sun",
        {0: "AS", 1: "TS", 2: "KS", 3: "QS"},
        leader=0,
        points=38,
        to_act=0,
        cards={"AS": 38},
    ),
    # Sun, seat 0 (buyer) leads with AH 7C; seat 1 holds TH AC. AH first: AH TH 8H 9H (21) for
    # team 0, then AC wins the last trick: +21. 7C first: AC wins 15, then AH takes TH and the
    # floor: 21 + 10 = +31.
    BalootEndgame(
        "3_6_1_sun_the_last_trick_ten_decides_the_lead",
        "sun",
        {0: "AH 7C", 1: "TH AC", 2: "8H 8C", 3: "9H KC"},
        leader=0,
        points=31,
        to_act=0,
        cards={"AH": 21, "7C": 31},
    ),
    # Sun, seat 0 led AH; seat 1, void in hearts, discards AC (AH AC 8H 9H = 22 for team 0,
    # then KC takes TD and the floor) or TD (21 for team 0, then AC wins the last trick). The
    # defence minimises: +21.
    BalootEndgame(
        "3_4_1_sun_defender_discard_takes_the_minimum",
        "sun",
        {0: "AH 7C", 1: "AC TD", 2: "8H 8C", 3: "9H KC"},
        leader=0,
        then="AH",
        points=21,
        to_act=1,
        cards={"AC": 22, "TD": 21},
    ),
    # Hokum in spades, seat 0 (buyer) leads with JS AH. JS first: seat 1 must follow with 9S
    # (3.4.3), JS (20) + 9S (14) for team 0, then AH, KD (11 + 4) and the floor: +59. AH first:
    # seat 1 ruffs with 9S (3.4.2) for 25, then KD is ruffed by JS: 4 + 20 + 10 = +34.
    BalootEndgame(
        "3_1_hokum_trump_points_jack_first",
        "hokum",
        HOKUM_ENDGAME,
        leader=0,
        trump="S",
        points=59,
        to_act=0,
        cards={"JS": 59, "AH": 34},
    ),
    # After AH, seat 1 (void in hearts, partner not winning) must ruff: 9S is his only legal
    # card, worth +34 to team 0.
    BalootEndgame(
        "3_4_2_hokum_void_defender_must_ruff",
        "hokum",
        HOKUM_ENDGAME,
        leader=0,
        trump="S",
        then="AH",
        points=34,
        to_act=1,
        cards={"9S": 34},
    ),
    # Hokum in spades; seat 0 (buyer) leads with JS AH, seat 1 holds 9S AS. AH first: seat 1
    # must ruff (3.4.2) and ruffs with 9S (AH 9S = 25 to team 1), then leads AS, and JS wins
    # AS KS QS and the floor: 20 + 11 + 4 + 3 + 10 = +48. JS first: seat 1 drops AS
    # (JS AS KS QS = 38), then ruffs AH: +38. After seat 1's closed Double (the buyer passes) JS
    # may not be led while seat 0 holds AH, so only AH is legal.
    *(
        BalootEndgame(
            f"3_3_1_closed_double_forbids_leading_trump_while_holding_a_side_card-{kind}",
            "hokum",
            CLOSED_ENDGAME,
            leader=0,
            trump="S",
            calls=CLOSED_CALLS if closed else None,
            closed=closed,
            points=48,
            to_act=0,
            cards={"AH": 48} if closed else {"AH": 48, "JS": 38},
        )
        for kind, closed in [("closed", True), ("open", False)]
    ),
]


@pytest.mark.parametrize("case", BALOOT_ENDGAMES, ids=lambda case: case.name)
def test_baloot_endgame_has_its_worked_out_value(case: BalootEndgame) -> None:
    case.check()


def test_3_6_1_last_trick_of_blank_cards_is_worth_ten() -> None:
    _, hand = BLANK_LAST_TRICK.check()
    # The other team gets the floor: the whole hand's 130 points are shared out.
    assert 130 - hand.card_points[0] == hand.card_points[1] + 10


# --------------------------------------------------------------------------------------------------
# Random positions from real deals: per-card values, root value and principal line agree
# --------------------------------------------------------------------------------------------------


def _owner_team(record: Mapping[str, Any]) -> int:
    """The team that maximises: the bidder's (Kout, RULES.md 1.3 / 2.3) or the buyer's
    (Baloot), read from the record's calls."""
    if record["rules"] == "baloot":
        first = B.RefHand(
            "baloot",
            dict(get_rules("baloot").options),
            record["dealer"],
            record["hands"],
            face_up=record["face_up"],
            completion=None,
        )
        for call in record["calls"]:
            if first.phase != "auction":
                break
            first.apply(call)
        assert first.buyer is not None
        return first.buyer % 2
    # The calls run from dealer + 1; the last bid (not "pass") is the highest.
    last_bid = max(i for i, call in enumerate(record["calls"]) if call != "pass")
    bidder = (int(record["dealer"]) + 1 + last_bid) % K.n_players(record["rules"])
    return bidder % 2


def _check_position(record: Mapping[str, Any], key: str) -> int:
    """Root value = max (maximiser to act) or min of the per-card values; the cards are exactly
    the legal ones; each per-card value is the value of the record with that card played (when
    the record can take it: a Bahraini record over by the early stop cannot, though the search
    plays on). Returns the root value."""
    result = _solve(record)
    cards = result["cards"]
    if not cards:
        assert result["to_act"] is None
        return int(result[key])
    pick = max if result["to_act"] % 2 == _owner_team(record) else min
    assert result[key] == pick(cards.values())
    legal = [str(card) for card in legal_actions(record, engine="reference")]
    if legal:
        assert sorted(cards) == sorted(legal)
        for card, value in cards.items():
            assert _solve(with_play(record, card))[key] == value
    return int(result[key])


def _follow_principal_line(record: dict[str, Any], key: str) -> dict[str, Any]:
    """Play a best card at every step while the record can take it; the value never changes."""
    value = _solve(record)[key]
    while legal_actions(record, engine="reference"):
        result = _solve(record)
        assert result[key] == value
        best = next(card for card, v in result["cards"].items() if v == value)
        record = with_play(record, best)
    assert _solve(record)[key] == value
    return record


def _check_random_endgame(record: dict[str, Any], key: str) -> tuple[int, dict[str, Any], int]:
    """:func:`_check_position`, then the principal line followed to its end: the root value, the
    reference's result of the hand at the end of the line, and the team that maximises."""
    value = _check_position(record, key)
    final = _follow_principal_line(record, key)
    return value, replay_hand(final, engine="reference"), _owner_team(record)


@pytest.mark.parametrize("seed", range(4))
def test_1_kout_bo_random_endgame_values_are_consistent(seed: int) -> None:
    """kout_bo_4 (RULES.md §1), three tricks left of a random hand played to the end
    (play_all_tricks): the per-card values give the root, and the principal line ends with the
    bidding team holding exactly that many tricks."""
    record = random_kout_record("kout_bo_4", seed, 3, BO_PLAY_ALL)
    value, result, team = _check_random_endgame(record, "tricks")
    assert result["tricks"][team] == value


@pytest.mark.parametrize("seed", range(4))
def test_2_kout_bh_random_endgame_values_are_consistent(seed: int) -> None:
    """kout_bh_4 (RULES.md §2), at most three tricks left: per-card values give the root; along
    the principal line the value holds, also when the record stops (early stop, forced joker).
    The value is a trick count or a sentinel (-1, 9)."""
    record = random_kout_record("kout_bh_4", seed, 3)
    value, result, team = _check_random_endgame(record, "tricks")
    assert -1 <= value <= 9
    if len(result["trick_winners"]) == 8:
        assert result["tricks"][team] == value


def test_2_8_random_bh_endgames_meet_the_forced_joker_sentinels() -> None:
    """Over a few random BH endgames of two tricks, some card values are sentinels (-1 or 9)."""
    seen: set[int] = set()
    for seed in range(12):
        record = random_kout_record("kout_bh_4", 100 + seed, 2)
        result = _solve(record)
        seen.update(result["cards"].values())
    assert seen & {-1, 9}, seen


@pytest.mark.parametrize(("seed", "mode"), [(0, "sun"), (1, "hokum"), (2, "sun"), (3, "hokum")])
def test_3_baloot_random_endgame_values_are_consistent(seed: int, mode: str) -> None:
    """Baloot (RULES.md §3), three tricks left: per-card values give the root, and the principal
    line ends with the buyer team holding exactly that many card points (3.6.1)."""
    record = random_baloot_record(seed, 3, mode)
    value, result, team = _check_random_endgame(record, "points")
    assert result["card_points"][team] == value


# --------------------------------------------------------------------------------------------------
# Finished hands and errors
# --------------------------------------------------------------------------------------------------


def test_finished_kout_hand_gives_its_final_tricks_and_no_cards() -> None:
    """A kout_bo_4 hand played to its ninth trick: the bidding team's final count, nothing
    left to choose."""
    record = random_kout_record("kout_bo_4", 7, 0, BO_PLAY_ALL)
    result = replay_hand(record, engine="reference")
    assert len(result["trick_winners"]) == 9
    assert _solve(record) == {
        "tricks": result["tricks"][_owner_team(record)],
        "to_act": None,
        "cards": {},
    }


def test_finished_baloot_hand_gives_its_final_card_points() -> None:
    """A Baloot hand with all 32 plays: the buyer team's card points (3.6.1), no cards."""
    record = random_baloot_record(5, 0, "hokum")
    result = replay_hand(record, engine="reference")
    buyer_team = result["buyer"] % 2
    assert _solve(record) == {
        "points": result["card_points"][buyer_team],
        "to_act": None,
        "cards": {},
    }


def test_1_3_auction_incomplete_raises_invalid_record() -> None:
    record = random_kout_record("kout_bo_4", 0, 3, BO_PLAY_ALL)
    partial = {**record, "calls": record["calls"][:2], "trump": None, "plays": []}
    with pytest.raises(InvalidRecord, match="auction is incomplete"):
        _solve(partial)


def test_1_4_trump_not_named_raises_invalid_record() -> None:
    record = random_kout_record("kout_bo_4", 0, 3, BO_PLAY_ALL)
    with pytest.raises(InvalidRecord, match="not named trump"):
        _solve({**record, "trump": None, "plays": []})


def test_3_2_baloot_auction_incomplete_raises_invalid_record() -> None:
    record = random_baloot_record(0, 3, "sun")
    with pytest.raises(InvalidRecord, match="auction is incomplete"):
        _solve({**record, "calls": [], "plays": []})


def test_0_5_illegal_play_in_the_record_raises_illegal_action() -> None:
    record = random_kout_record("kout_bo_4", 1, 3, BO_PLAY_ALL)
    legal = {str(card) for card in legal_actions(record, engine="reference")}
    held = [card for hand in record["hands"] for card in hand]
    played = set(record["plays"])
    illegal = next(card for card in held if card not in played and card not in legal)
    with pytest.raises(IllegalAction):
        _solve(with_play(record, illegal))


def test_solve_record_leaves_the_record_unchanged() -> None:
    record, _ = kout_endgame(
        "kout_bo_4", calls=BO_5, trump="S", endgame=CASH_THE_ACE, leader=0, taken=(3, 4)
    )
    before = repr(record)
    _solve(record)
    assert repr(record) == before
