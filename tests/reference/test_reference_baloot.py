"""Unit tests of the Baloot reference engine (kout_sim.reference.baloot), from RULES.md §3 and the
binding readings of docs/baloot.md.

Scoring is tested on the scoring function directly (card-point totals built by hand, RULES.md 3.7);
auction, doubling and play rules on hand-built deals; seeded random hands check the invariants.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from kout_sim import reference as R
from kout_sim.reference import baloot as B
from kout_sim.reference.baloot import Project, RefHand, RefMatch, read_projects, score_hand

OPTIONS: dict[str, Any] = {
    "profile": "ksa",
    "sun_before_you": True,
    "second_sun_chance": False,
    "kawesh": False,
    "ace_sun_restriction": "p1_only",
    "doubling": True,
    "mercy": "partner_winning",
    "undertrump_required": False,
    "overtrump_on_trump_lead": "vs_opponent",
    "baloot_on_loss": "owner",
    "tie": "split",
    "kaboot_projects": "all",
    "doubled_projects": "by_level",
    "gahwa": "match",
    "target": 152,
    "first_dealer": "random",
}
OPTION_VALUES: dict[str, list[Any]] = {
    "sun_before_you": [True, False, "opponents"],
    "second_sun_chance": [False, True],
    "kawesh": [False, True],
    "ace_sun_restriction": ["p1_only", "none"],
    "doubling": [True, False],
    "mercy": ["partner_winning", "none"],
    "undertrump_required": [False, True],
    "overtrump_on_trump_lead": ["vs_opponent", "always", "never"],
    "baloot_on_loss": ["owner", "void", "winner"],
    "tie": ["split", "buyer_loses", "buyer_loses_hokum_only"],
    "kaboot_projects": ["all", "own"],
    "doubled_projects": ["by_level", "multiplied"],
    "gahwa": ["match", "bank_152"],
}
BASE_OF = {"sun": 26, "hokum": 16}
DEALER = 3  # so that P1 = seat 0, P2 = seat 1, P3 = seat 2, P4 = seat 3


def opts(**overrides: Any) -> dict[str, Any]:
    """The default (ksa) options with some keys overridden."""
    return {**OPTIONS, **overrides}


def cards_of(text: str) -> list[str]:
    return text.split()


def fill(fixed: Mapping[int, str], void: Mapping[int, str] | None = None) -> list[list[str]]:
    """Four eight-card hands: ``fixed`` cards ("AS KS ...") for some seats, the rest of the deck
    dealt so that seat ``s`` holds no card of the suits in ``void[s]``."""
    void = void or {}
    hands = [cards_of(fixed.get(seat, "")) for seat in range(4)]
    used = {card for hand in hands for card in hand}
    assert len(used) == sum(len(hand) for hand in hands), "a fixed card is given twice"
    rest = [card for card in B.deck() if card not in used]
    constrained = set("".join(void.values()))
    rest.sort(key=lambda card: 0 if card[1] in constrained else 1)
    for card in rest:
        seats = [s for s in range(4) if len(hands[s]) < 8 and card[1] not in void.get(s, "")]
        assert seats, f"cannot place {card}"
        hands[min(seats, key=lambda s: len(hands[s]))].append(card)
    return hands


def split(
    final: Sequence[Sequence[str]], face_up: str, taker: int
) -> tuple[list[list[str]], list[list[str]]]:
    """The first deal (5 cards each) and the completion that give the eight-card ``final`` hands
    when ``taker`` takes the face-up card."""
    assert face_up in final[taker]
    hands: list[list[str]] = []
    completion: list[list[str]] = []
    for seat in range(4):
        own = [card for card in final[seat] if card != face_up]
        hands.append(own[:5])
        completion.append(own[5:])
    return hands, completion


def run(hand: RefHand, actions: Iterable[str]) -> None:
    for action in actions:
        hand.apply(action)


def auction_hand(face_up: str = "9H", dealer: int = DEALER, **overrides: Any) -> RefHand:
    """A hand for auction tests: a fixed first deal, no completion given."""
    rest = [card for card in B.deck() if card != face_up]
    hands = [rest[5 * k : 5 * k + 5] for k in range(4)]
    return RefHand("baloot", opts(**overrides), dealer, hands, face_up=face_up, completion=None)


def give_completion(hand: RefHand) -> None:
    """Answer phase "completion" with the undealt cards (3 each, 2 to the taker)."""
    assert hand.phase == "completion" and hand.taker is not None
    held = {card for cards in hand.hands for card in cards} | {hand.face_up}
    rest = sorted(set(B.deck()) - held)
    hand.complete(B.completion_from(rest, hand.dealer, hand.taker))


def bought_hand(
    final: Sequence[Sequence[str]],
    face_up: str,
    mode: str = "hokum",
    options: Mapping[str, Any] | None = None,
    doubling: Sequence[str] = ("pass", "pass"),
    match_score: Sequence[int] | None = None,
) -> RefHand:
    """Seat 0 (P1, dealer 3) holds ``face_up`` and buys by ``mode`` in round 1 (the others pass;
    Hokum is confirmed); then the ``doubling`` calls; the eight-card hands are ``final``."""
    hands, completion = split(final, face_up, 0)
    hand = RefHand(
        "baloot",
        dict(options or OPTIONS),
        DEALER,
        hands,
        face_up=face_up,
        completion=completion,
        match_score=match_score,
    )
    if mode == "hokum":
        run(hand, ["hokum", "pass", "pass", "pass", "confirm"])
    else:
        run(hand, ["sun"])
    if hand.phase == "doubling":
        for call in doubling:
            if hand.phase != "doubling":
                break
            hand.apply(call)
    assert hand.phase == "play"
    assert [sorted(cards) for cards in hand.hands] == [sorted(cards) for cards in final]
    return hand


def play_randomly(hand: RefHand, rng: random.Random) -> None:
    while hand.phase != "over":
        if hand.phase == "completion":
            give_completion(hand)
        else:
            hand.apply(rng.choice(hand.legal_actions()))


# --------------------------------------------------------------------------------------------------
# RULES.md 3.1: cards, orders and points
# --------------------------------------------------------------------------------------------------


def test_deck_and_points() -> None:
    deck = B.deck()
    assert len(deck) == len(set(deck)) == 32
    assert {card[0] for card in deck} == set("789TJQKA")
    # RULES.md 3.1: suit totals 30, trump suit 62; 130 in Sun and 162 in Hokum with the floor.
    for suit in "SHDC":
        suit_cards = [card for card in deck if card[1] == suit]
        assert sum(B.card_points(card, None) for card in suit_cards) == 30
        assert sum(B.card_points(card, suit) for card in suit_cards) == 62
    assert sum(B.card_points(card, None) for card in deck) + 10 == 130
    assert sum(B.card_points(card, "H") for card in deck) + 10 == 162


@pytest.mark.parametrize(
    ("cards", "trump", "winner"),
    [
        ("KS AS TS 7S", None, 1),  # Sun: A > T > K
        ("KS TS QS JS", None, 1),  # T second
        ("9S AH AD AC", None, 0),  # off-suit cards never win
        ("AH 9H JH TH", "H", 2),  # trump: J > 9 > A > T
        ("AH 9H KH TH", "H", 1),  # 9 second
        ("AS 7H KS TS", "H", 1),  # the lowest trump beats the led suit
        ("AS 7H 8H KS", "H", 2),  # 8 > 7 in trump
        ("TS AD 9C KS", "H", 0),  # no trump: highest of the led suit
    ],
)
def test_trick_winner(cards: str, trump: str | None, winner: int) -> None:
    # RULES.md 3.4.4 with the orders of 3.1.
    assert B.trick_winner_index(cards_of(cards), trump) == winner


# --------------------------------------------------------------------------------------------------
# RULES.md 3.6 / 3.7: scoring
# --------------------------------------------------------------------------------------------------


def score(
    mode: str,
    a_b: int,
    a_o: int,
    *,
    b_projects: Sequence[str] = (),
    o_projects: Sequence[str] = (),
    b_baloot: int = 0,
    o_baloot: int = 0,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> tuple[list[int], bool]:
    """Score with the buyer's team B = team 0 and O = team 1: returns ([B, O] points, made)."""
    result = score_hand(
        mode,
        0,
        [a_b, a_o],
        [list(b_projects), list(o_projects)],
        [b_baloot, o_baloot],
        dict(options or OPTIONS),
        **kwargs,
    )
    return result.points, result.made


@pytest.mark.parametrize(
    ("mode", "a_b", "a_o", "points", "made"),
    [
        ("hokum", 86, 76, [8, 8], True),  # RULES.md 3.7: Hokum B 86 / O 76: 8-8, made
        ("hokum", 76, 86, [0, 16], False),  # Hokum B 76 / O 86: 0-16
        ("hokum", 97, 65, [10, 6], True),  # Hokum B 97 / O 65: B 10, O 6
        ("hokum", 81, 81, [8, 8], True),  # Hokum 81-81: 8-8
        ("sun", 65, 65, [13, 13], True),  # Sun 65-65: 13-13
        ("sun", 75, 55, [15, 11], True),  # Sun B 75 / O 55: B 15, O 11
        ("sun", 66, 64, [14, 12], True),  # Sun B 66 / O 64: B 14, O 12
    ],
)
def test_worked_checks(mode: str, a_b: int, a_o: int, points: list[int], made: bool) -> None:
    assert score(mode, a_b, a_o) == (points, made)


def test_worked_check_sun_kaboot_with_sira() -> None:
    # RULES.md 3.7: Sun kaboot by B with a Sira: 48.
    assert score("sun", 130, 0, b_projects=["sira"], kaboot=0) == ([48, 0], True)


def test_worked_check_hokum_double_with_sira() -> None:
    # RULES.md 3.7: Hokum Double, B wins 90-72 with a Sira: 16x2 + 2x2 = 36 (the doubler, O, is
    # the last raiser).
    assert score("hokum", 90, 72, b_projects=["sira"], double=2, raiser_team=1) == ([36, 0], True)


def test_worked_check_fifty_held_by_o() -> None:
    # RULES.md 3.7: Hokum with a Fifty held by O: the buyer fails when O's card points reach 57
    # (56 is a tie).
    assert score("hokum", 162 - 57, 57, o_projects=["fifty"]) == ([0, 16 + 5], False)
    # 56 + 50 = 106 = 106: a tie, split (tie = split): O gp(56) = 6 + 5, B 16 - 6 = 10.
    assert score("hokum", 162 - 56, 56, o_projects=["fifty"]) == ([10, 11], True)
    assert score("hokum", 162 - 56, 56, o_projects=["fifty"], options=opts(tie="buyer_loses"))[
        1
    ] is (False)


@pytest.mark.parametrize(
    ("mode", "a_o", "made"),
    [
        # RULES.md 3.6.3: without projects the buyer fails from 66 (Sun) or 82 (Hokum) against him.
        ("sun", 64, True),
        ("sun", 65, True),  # 65-65: a tie, split
        ("sun", 66, False),
        ("hokum", 80, True),
        ("hokum", 81, True),  # 81-81: a tie, split
        ("hokum", 82, False),
    ],
)
def test_buyer_fails_thresholds(mode: str, a_o: int, made: bool) -> None:
    total = 130 if mode == "sun" else 162
    points, got = score(mode, total - a_o, a_o)
    assert got is made
    if not made:
        assert points == [0, 26 if mode == "sun" else 16]


@pytest.mark.parametrize(
    ("tie", "mode", "made"),
    [
        ("split", "sun", True),
        ("split", "hokum", True),
        ("buyer_loses", "sun", False),
        ("buyer_loses", "hokum", False),
        ("buyer_loses_hokum_only", "sun", True),
        ("buyer_loses_hokum_only", "hokum", False),
    ],
)
def test_tie_option(tie: str, mode: str, made: bool) -> None:
    half = 65 if mode == "sun" else 81
    points, got = score(mode, half, half, options=opts(tie=tie))
    assert got is made
    assert points == ([13, 13] if mode == "sun" else [8, 8]) if made else [0, BASE_OF[mode]]


def test_made_hand_adds_projects_after_conversion() -> None:
    # RULES.md 3.6.2: project points are added after conversion; each team adds its own.
    assert score("sun", 90, 40, b_projects=["fifty", "sira"]) == ([18 + 14, 8], True)
    assert score("hokum", 100, 62, o_projects=["sira"]) == ([10, 6 + 2], True)


def test_failed_buyer_gives_all_counted_projects_to_o() -> None:
    # RULES.md 3.6.3: O scores 16 plus all counted projects of both teams (here B's Sira).
    # A[B] = 60 + 20 = 80 < A[O] = 102.
    assert score("hokum", 60, 102, b_projects=["sira"]) == ([0, 16 + 2], False)


def test_baloot_raw_counts_in_the_comparison() -> None:
    # A[B] = 71 + 20 (Baloot) = 91 = A[O]: a tie, split; B adds its Baloot.
    assert score("hokum", 71, 91, b_baloot=1) == ([7 + 2, 9], True)


@pytest.mark.parametrize(
    ("on_loss", "points"),
    [("owner", [2, 16]), ("void", [0, 16]), ("winner", [0, 18])],
)
def test_baloot_on_loss(on_loss: str, points: list[int]) -> None:
    # RULES.md 3.6.3: a failed buyer's Baloot: owner / void / (K) winner.
    result = score_hand("hokum", 0, [60, 102], [[], []], [1, 0], opts(baloot_on_loss=on_loss))
    assert (result.points, result.made) == (points, False)
    assert result.baloot == {"owner": [1, 0], "void": [0, 0], "winner": [0, 1]}[on_loss]


def test_o_keeps_its_own_baloot_when_the_buyer_fails() -> None:
    for on_loss in ("owner", "void", "winner"):
        assert score("hokum", 60, 102, o_baloot=1, options=opts(baloot_on_loss=on_loss)) == (
            [0, 18],
            False,
        )


@pytest.mark.parametrize("double", [1, 2, 3, 4])
def test_kaboot_is_never_multiplied(double: int) -> None:
    # RULES.md 3.6.4: 44 (Sun) / 25 (Hokum), doubling never multiplies a kaboot or its projects.
    extra: dict[str, Any] = {} if double == 1 else {"double": double, "raiser_team": double % 2}
    assert score("hokum", 162, 0, kaboot=0, **extra) == ([25, 0], True)
    assert score("hokum", 0, 162, kaboot=1, **extra) == ([0, 25], False)
    assert score("sun", 130, 0, kaboot=0, b_projects=["hundred"], **extra) == ([64, 0], True)


def test_kaboot_in_a_gahwa_hand_decides_the_gahwa() -> None:
    # Reading (docs/baloot.md): a Gahwa decides the match; a kaboot makes the sweeping team its
    # winner (the kaboot points are not banked).
    for gahwa, points, winner in (("match", [0, 0], 0), ("bank_152", [152, 0], None)):
        result = score_hand(
            "hokum",
            0,
            [162, 0],
            [[], []],
            [0, 0],
            opts(gahwa=gahwa),
            kaboot=0,
            double=4,
            gahwa=True,
        )
        assert (result.points, result.made, result.match_winner) == (points, True, winner)


@pytest.mark.parametrize(
    ("kaboot_projects", "points", "baloot"),
    [("all", [25 + 5 + 2 + 2, 0], [2, 0]), ("own", [25 + 2, 0], [1, 0])],
)
def test_kaboot_projects(kaboot_projects: str, points: list[int], baloot: list[int]) -> None:
    # The sweeping team B; O holds the counted Fifty and ... a Baloot (B one too, for the test).
    result = score_hand(
        "hokum",
        0,
        [162, 0],
        [[], ["fifty"]],
        [1, 1],
        opts(kaboot_projects=kaboot_projects),
        kaboot=0,
    )
    assert (result.points, result.baloot) == (points, baloot)


@pytest.mark.parametrize(
    ("doubled_projects", "double", "points"),
    [
        ("by_level", 2, 32 + 2 * 5),
        ("by_level", 3, 48 + 1 * 5),
        ("by_level", 4, 64 + 1 * 5),
        ("multiplied", 2, 32 + 2 * 5),
        ("multiplied", 3, 48 + 3 * 5),
        ("multiplied", 4, 64 + 4 * 5),
    ],
)
def test_doubled_all_or_nothing(doubled_projects: str, double: int, points: int) -> None:
    # RULES.md 3.6.5: the winner scores base x m + projects x f, the loser 0.
    options = opts(doubled_projects=doubled_projects)
    raiser = 1 if double in (2, 4) else 0  # the doubler's team raises x2 and x4, the buyer x3
    got = score(
        "hokum", 100, 62, b_projects=["fifty"], double=double, raiser_team=raiser, options=options
    )
    assert got == ([points, 0], True)
    # The same hand lost by B: all to O (including B's counted Fifty).
    got = score(
        "hokum", 40, 122, b_projects=["fifty"], double=double, raiser_team=raiser, options=options
    )
    assert got == ([0, points], False)


def test_doubled_tie_goes_against_the_last_raiser() -> None:
    # RULES.md 3.3.3: A[R] must exceed A[other]; 81-81.
    assert score("hokum", 81, 81, double=2, raiser_team=1) == ([32, 0], True)  # O doubled: O loses
    assert score("hokum", 81, 81, double=3, raiser_team=0) == ([0, 48], False)  # B tripled: B loses
    assert score("sun", 65, 65, double=2, raiser_team=1) == ([52, 0], True)


def test_doubled_baloot_stays_with_its_owner() -> None:
    # RULES.md 3.6.5: Baloot stays 2 and stays with its owner, even on the losing side.
    assert score("hokum", 40, 122, b_baloot=1, double=2, raiser_team=1) == ([2, 32], False)


@pytest.mark.parametrize(("a_b", "winner"), [(90, 0), (81, 1), (70, 1)])
def test_gahwa(a_b: int, winner: int) -> None:
    # RULES.md 3.6.5: Gahwa, decided with the buyer as last raiser (a tie against him).
    result = score_hand(
        "hokum", 0, [a_b, 162 - a_b], [[], []], [0, 0], opts(), double=4, gahwa=True
    )
    assert (result.points, result.made, result.match_winner) == ([0, 0], winner == 0, winner)
    # (K) bank_152: the winner banks 152 and the target rule decides.
    result = score_hand(
        "hokum", 0, [a_b, 162 - a_b], [[], []], [0, 0], opts(gahwa="bank_152"), double=4, gahwa=True
    )
    expected = [0, 0]
    expected[winner] = 152
    assert (result.points, result.match_winner) == (expected, None)


@pytest.mark.parametrize(
    ("points", "mode", "gp"),
    [
        (76, "hokum", 8),
        (75, "hokum", 7),
        (65, "hokum", 6),
        (0, "hokum", 0),
        (162, "hokum", 16),
        (55, "sun", 11),
        (64, "sun", 12),
        (66, "sun", 14),
        (65, "sun", 13),
        (130, "sun", 26),
    ],
)
def test_gp(points: int, mode: str, gp: int) -> None:
    # RULES.md 3.6.2.
    assert B.gp(points, mode) == gp


# --------------------------------------------------------------------------------------------------
# RULES.md 3.5: projects and Baloot
# --------------------------------------------------------------------------------------------------


def kinds(cards: str, mode: str = "sun") -> list[tuple[str, str, bool]]:
    return [(p.kind, p.top, p.quad) for p in read_projects(0, cards_of(cards), mode)]


@pytest.mark.parametrize(
    ("cards", "projects"),
    [
        ("AS KS QS 7H 9D 7C JD 8S", [("sira", "A", False)]),
        ("KH QH JH TH 7S 9S 7D 9C", [("fifty", "K", False)]),
        ("JD TD 9D 8D 7D AS QS AH", [("hundred", "J", False)]),
        # a run of 8 is one Hundred (a long run is never split)
        ("AC KC QC JC TC 9C 8C 7C", [("hundred", "A", False)]),
        ("QS JS TS 9D 8D 7D AH 9H", [("sira", "Q", False), ("sira", "9", False)]),
        ("AS KS QS JS TH 9H 8H 7H", [("fifty", "A", False), ("fifty", "T", False)]),
        ("AS QS TS 8S AH QH TH 8H", []),
        ("9S 9H 9D 9C 7S 7H 7D 7C", []),  # four 9s or 7s are no project
    ],
)
def test_sequences(cards: str, projects: list[tuple[str, str, bool]]) -> None:
    assert kinds(cards) == projects
    assert kinds(cards, "hokum") == projects


def test_four_of_a_kind() -> None:
    assert kinds("KS KH KD KC 7S 9H 7D 9C") == [("hundred", "K", True)]
    assert kinds("TS TH TD TC 7S 9H 7D 9C") == [("hundred", "T", True)]
    # Four Aces: a Four Hundred in Sun, a Hundred in Hokum.
    assert kinds("AS AH AD AC 7S 9H 7D 9C", "sun") == [("four_hundred", "A", True)]
    assert kinds("AS AH AD AC 7S 9H 7D 9C", "hokum") == [("hundred", "A", True)]
    assert kinds("AS AH AD AC KS KH KD KC", "sun") == [
        ("four_hundred", "A", True),
        ("hundred", "K", True),
    ]


def test_quads_and_runs_sharing_cards_take_the_higher_total() -> None:
    # RULES.md 3.5.1: each card counts in one project; the reading with the higher total wins.
    # K-Q-J-T-9 of spades alone is a Hundred (100); four Kings + Q-J-T-9 is a Hundred + a Fifty.
    assert kinds("KS QS JS TS 9S KH KD KC") == [("hundred", "K", True), ("fifty", "Q", False)]
    # Four Queens + K, J, T, 9 of hearts: the Queens + J-T-9 (120), not K-Q-J-T-9 (100).
    assert kinds("QH QS QD QC KH JH TH 9H") == [("hundred", "Q", True), ("sira", "J", False)]


def test_equal_totals_take_the_stronger_best_project() -> None:
    # Four Queens + A, K, J, T of hearts: A-K-Q-J-T (a sequence Hundred) or the four Queens (a
    # four-of-a-kind Hundred, the rest no run): 100 each, the sequence is stronger.
    assert kinds("QS QH QD QC AH KH JH TH") == [("hundred", "A", False)]
    assert kinds("QS QH QD QC AS KS JS TS", "hokum") == [("hundred", "A", False)]


def test_project_strength_order() -> None:
    # RULES.md 3.5.1: Four Hundred > Hundred > Fifty > Sira; between Hundreds a sequence beats a
    # four-of-a-kind; four-of-a-kinds A > K > Q > J > T; otherwise the higher top card.
    ladder = [
        Project(0, "four_hundred", "A", True),
        Project(0, "hundred", "A", False),
        Project(0, "hundred", "9", False),  # a sequence Hundred, however low, beats any quad
        Project(0, "hundred", "A", True),
        Project(0, "hundred", "K", True),
        Project(0, "hundred", "Q", True),
        Project(0, "hundred", "J", True),
        Project(0, "hundred", "T", True),
        Project(0, "fifty", "A", False),
        Project(0, "fifty", "T", False),
        Project(0, "sira", "A", False),
        Project(0, "sira", "9", False),
    ]
    strengths = [p.strength() for p in ladder]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)
    assert Project(0, "sira", "K", False).strength() == Project(3, "sira", "K", False).strength()


def seat_projects(spec: Mapping[int, Sequence[Project]]) -> list[list[Project]]:
    return [list(spec.get(seat, [])) for seat in range(4)]


def test_counted_team_strongest_project() -> None:
    sira_a = Project(0, "sira", "A", False)
    fifty_7 = Project(1, "fifty", "T", False)
    projects = seat_projects({0: [sira_a, sira_a, sira_a], 1: [fifty_7]})
    # one Fifty beats three Siras: team 1 counts (not the higher total)
    assert B.counted_team(projects, DEALER) == 1
    assert B.counted_team(seat_projects({}), DEALER) is None
    quad = Project(2, "hundred", "A", True)
    run = Project(3, "hundred", "8", False)
    assert B.counted_team(seat_projects({2: [quad], 3: [run]}), DEALER) == 1


@pytest.mark.parametrize(("dealer", "team"), [(3, 1), (0, 1), (1, 0), (2, 1)])
def test_exact_tie_goes_to_priority(dealer: int, team: int) -> None:
    # Seats 1 and 2 both hold a Sira to the King: the earlier in priority (from dealer + 1) wins.
    projects = seat_projects(
        {1: [Project(1, "sira", "K", False)], 2: [Project(2, "sira", "K", False)]}
    )
    assert B.counted_team(projects, dealer) == team


def test_baloot_holding() -> None:
    # RULES.md 3.5 / 3.5.2: K and Q of trump, Hokum only, blocked by four Kings or four Queens.
    assert B.has_baloot(cards_of("KH QH 7S 8S 9S 7D 8D 9D"), "H")
    assert not B.has_baloot(cards_of("KH QH 7S 8S 9S 7D 8D 9D"), None)
    assert not B.has_baloot(cards_of("KH QS 7S 8S 9S 7D 8D 9D"), "H")
    assert not B.has_baloot(cards_of("KH QH KS KD KC 7D 8D 9D"), "H")  # four Kings
    assert not B.has_baloot(cards_of("KH QH QS QD QC 7D 8D 9D"), "H")  # four Queens
    assert B.has_baloot(cards_of("KH QH QS QD KC KD 8D 9D"), "H")  # three of each


def test_baloot_block_follows_the_reading_3_5_2() -> None:
    # RULES.md 3.5.2: four Queens beside A K J T of trump read as the run A-K-Q-J-T (a sequence
    # Hundred beats a four-of-a-kind one on equal totals): QS is in the run, the Baloot stands.
    assert B.has_baloot(cards_of("AS KS QS JS TS QH QD QC"), "S")
    # Four Kings + Q-J-T-9 of trump read as the Kings (100) + a Fifty: the Kings block it.
    assert not B.has_baloot(cards_of("KS QS JS TS 9S KH KD KC"), "S")


# --------------------------------------------------------------------------------------------------
# Whole hands: kaboot, projects and Baloot in the result
# --------------------------------------------------------------------------------------------------

# Seat 0 holds the whole heart suit; the others hold alternate ranks (no run, no quad).
SWEEP_HANDS = [
    cards_of("AH KH QH JH TH 9H 8H 7H"),
    cards_of("AS QS TS 8S AC QC TC 8C"),
    cards_of("KS JS 9S 7S AD QD TD 8D"),
    cards_of("KD JD 9D 7D KC JC 9C 7C"),
]


@pytest.mark.parametrize("kaboot_projects", ["all", "own"])
def test_hokum_sweep(kaboot_projects: str) -> None:
    for seed in range(10):
        hand = bought_hand(SWEEP_HANDS, "7H", "hokum", opts(kaboot_projects=kaboot_projects))
        play_randomly(hand, random.Random(seed))
        result = hand.result()
        assert result["trick_winners"] == [0] * 8
        assert result["kaboot"] == 0 and result["made"] is True
        assert result["card_points"] == [162, 0]
        # 25 + a Hundred (run of 8, 10 in Hokum) + Baloot (2).
        assert result["points"] == result["game_points"] == [37, 0]
        assert result["projects"] == [[{"seat": 0, "type": "hundred", "top": "A"}], []]
        assert result["baloot"] == [1, 0]
        assert (result["mode"], result["trump"], result["buyer"], result["bidder"]) == (
            "hokum",
            "H",
            0,
            0,
        )


def test_sun_sweep() -> None:
    hand = bought_hand(SWEEP_HANDS, "7H", "sun")
    play_randomly(hand, random.Random(1))
    result = hand.result()
    assert (result["kaboot"], result["card_points"], result["points"]) == (0, [130, 0], [64, 0])
    assert result["baloot"] == [0, 0] and result["trump"] is None


@pytest.mark.parametrize("gahwa", ["match", "bank_152"])
def test_sweep_after_gahwa(gahwa: str) -> None:
    hand = bought_hand(
        SWEEP_HANDS,
        "7H",
        "hokum",
        opts(gahwa=gahwa),
        doubling=["double", "triple", "four", "gahwa"],
    )
    assert (hand.double, hand.gahwa, hand.closed) == (4, True, False)
    play_randomly(hand, random.Random(2))
    result = hand.result()
    # Reading (docs/baloot.md): a Gahwa decides the match even on a sweep; the sweeping team wins.
    expected = ([0, 0], 0) if gahwa == "match" else ([152, 0], None)
    assert (result["points"], result["match_winner"]) == expected
    assert (result["double"], result["gahwa"], result["kaboot"]) == (4, True, 0)


def test_counted_projects_of_a_whole_team() -> None:
    # Seat 1: four Kings (Hundred); seat 3: a Sira; seat 0: a Fifty. Team 1 counts both its
    # players' projects, team 0 none.
    final = fill(
        {
            0: "AS QS JS TS 9S 7H 8D 7C",
            1: "KS KH KD KC 8S 9H 9D 9C",
            3: "QD JD TD 7S 8H TC 8C JC",
        },
    )
    hand = bought_hand(final, "7H", "hokum")
    assert [p.kind for p in hand.projects[0]] == ["fifty"]
    play_randomly(hand, random.Random(3))
    result = hand.result()
    assert result["projects"] == [
        [],
        [
            {"seat": 1, "type": "hundred", "top": "K"},
            {"seat": 3, "type": "sira", "top": "Q"},
        ],
    ]


# --------------------------------------------------------------------------------------------------
# RULES.md 3.2: the auction, exactly (docs/baloot.md)
# --------------------------------------------------------------------------------------------------


def test_round_one_calls() -> None:
    hand = auction_hand()
    assert (hand.phase, hand.to_act) == ("auction", 0)  # P1 = dealer + 1
    assert hand.legal_actions() == ["pass", "hokum", "sun"]  # no Ashkal for P1
    hand.apply("pass")
    assert hand.legal_actions() == ["pass", "hokum", "sun"]  # nor for P2
    hand.apply("pass")
    assert hand.legal_actions() == ["pass", "hokum", "sun", "ashkal"]  # P3
    hand.apply("hokum")
    # once a Hokum stands there is no second Hokum
    assert (hand.to_act, hand.legal_actions()) == (3, ["pass", "sun", "ashkal"])


def test_hokum_confirmed() -> None:
    hand = auction_hand("9H")
    run(hand, ["pass", "hokum", "pass", "pass"])
    assert (hand.phase, hand.to_act, hand.legal_actions()) == ("auction", 1, ["confirm", "sun"])
    hand.apply("confirm")
    assert (hand.phase, hand.to_act, hand.legal_actions()) == ("completion", None, [])
    assert (hand.buyer, hand.mode, hand.trump, hand.taker, hand.ashkal) == (
        1,
        "hokum",
        "H",
        1,
        False,
    )
    give_completion(hand)
    assert hand.phase == "doubling"
    assert "9H" in hand.hands[1] and all(len(cards) == 8 for cards in hand.hands)
    assert hand.calls == ["pass", "hokum", "pass", "pass", "confirm"]


def test_hokum_switched_to_sun() -> None:
    hand = auction_hand("9H")
    run(hand, ["pass", "pass", "hokum", "pass", "sun"])
    # a switch is final: no claims follow
    assert (hand.phase, hand.buyer, hand.mode, hand.trump) == ("completion", 2, "sun", None)


def test_sun_after_hokum() -> None:
    # P1 passes, P2 bids Hokum, P3 passes, P4 calls Sun: P1 and P3 (who passed) may claim, in
    # priority order; P2 (the Hokum bidder) is not asked.
    hand = auction_hand("9H")
    run(hand, ["pass", "hokum", "pass", "sun"])
    assert (hand.phase, hand.to_act, hand.legal_actions()) == ("auction", 0, ["pass", "sun"])
    hand.apply("pass")
    assert hand.to_act == 2
    hand.apply("pass")
    assert (hand.phase, hand.buyer, hand.mode, hand.ashkal) == ("completion", 3, "sun", False)


def test_sun_right_after_the_hokum_bidder() -> None:
    # P1 bids Hokum, P2 calls Sun: nobody earlier passed, P2 buys at once.
    hand = auction_hand("9H")
    run(hand, ["hokum", "sun"])
    assert (hand.phase, hand.buyer, hand.mode) == ("completion", 1, "sun")


def test_sun_before_you_claim() -> None:
    hand = auction_hand("9H")
    run(hand, ["pass", "pass", "sun"])
    assert (hand.to_act, hand.legal_actions()) == (0, ["pass", "sun"])  # never "ashkal"
    hand.apply("pass")
    assert hand.to_act == 1
    hand.apply("sun")
    assert (hand.phase, hand.buyer, hand.mode, hand.taker) == ("completion", 1, "sun", 1)
    assert hand.calls == ["pass", "pass", "sun", "pass", "sun"]


def test_sun_by_p1_has_no_claims() -> None:
    hand = auction_hand("9H")
    hand.apply("sun")
    assert (hand.phase, hand.buyer) == ("completion", 0)


def test_sun_before_you_opponents_only_3_2_3() -> None:
    # RULES.md 3.2.3 (K): P1, P2 pass, P3 calls Sun: P1 is P3's partner and is not asked; P2 is.
    hand = auction_hand("9H", sun_before_you="opponents")
    run(hand, ["pass", "pass", "sun"])
    assert (hand.to_act, hand.legal_actions()) == (1, ["pass", "sun"])
    hand.apply("pass")
    assert (hand.phase, hand.buyer, hand.mode) == ("completion", 2, "sun")
    # P4's Sun after three passes: P1 and P3 are his opponents (in priority order), P2 is not.
    hand = auction_hand("9H", sun_before_you="opponents")
    run(hand, ["pass", "pass", "pass", "sun", "pass"])
    assert hand.to_act == 2
    hand.apply("sun")
    assert (hand.phase, hand.buyer, hand.mode) == ("completion", 2, "sun")


def test_second_sun_chance_3_2_3() -> None:
    # RULES.md 3.2.3 second_sun_chance: P1, P2 pass, P3 bids Hokum, P4 passes: P1 then P2 are
    # asked for Sun before P3 confirms; P4 (who passed after the Hokum) is not.
    hand = auction_hand("9H", second_sun_chance=True)
    run(hand, ["pass", "pass", "hokum", "pass"])
    assert (hand.phase, hand.to_act, hand.legal_actions()) == ("auction", 0, ["pass", "sun"])
    hand.apply("pass")
    assert (hand.to_act, hand.legal_actions()) == (1, ["pass", "sun"])
    hand.apply("pass")
    assert (hand.to_act, hand.legal_actions()) == (2, ["confirm", "sun"])
    hand.apply("confirm")
    assert (hand.phase, hand.buyer, hand.mode, hand.trump) == ("completion", 2, "hokum", "H")
    # P2 takes Sun at his second chance: he buys, nobody else is asked.
    hand = auction_hand("9H", second_sun_chance=True)
    run(hand, ["pass", "pass", "hokum", "pass", "pass", "sun"])
    assert (hand.phase, hand.buyer, hand.mode) == ("completion", 1, "sun")
    assert hand.calls == ["pass", "pass", "hokum", "pass", "pass", "sun"]


def test_second_sun_chance_not_asked_3_2_3() -> None:
    # A P1 Hokum has no earlier passers: straight to the decision. Off: no second chance.
    hand = auction_hand("9H", second_sun_chance=True)
    run(hand, ["hokum", "pass", "pass", "pass"])
    assert (hand.to_act, hand.legal_actions()) == (0, ["confirm", "sun"])
    hand = auction_hand("9H")
    run(hand, ["pass", "pass", "hokum", "pass"])
    assert (hand.to_act, hand.legal_actions()) == (2, ["confirm", "sun"])
    # Round 2: a Hokum after the first round's four passes has no second chance.
    hand = auction_hand("9H", second_sun_chance=True)
    run(hand, ["pass"] * 4 + ["pass", "hokum:S", "pass", "pass"])
    assert (hand.to_act, hand.legal_actions()) == (1, ["confirm", "sun"])
    # RULES.md 3.2.4: face-up Ace, p1_only: only P1 is asked again, and P2 not at all.
    hand = auction_hand("AH", second_sun_chance=True)
    run(hand, ["pass", "pass", "hokum", "pass", "pass"])
    assert (hand.to_act, hand.legal_actions()) == (2, ["confirm"])


def kawesh_hand(**overrides: Any) -> RefHand:
    """Seat 1 (P2) is dealt 7S 8S 9S 7H 8H: all 7s, 8s and 9s (RULES.md 3.2.7)."""
    hands = [
        cards_of("AS KS QS JS TS"),
        cards_of("7S 8S 9S 7H 8H"),
        cards_of("AH KH QH JH TH"),
        cards_of("AD KD QD JD TD"),
    ]
    return RefHand("baloot", opts(**overrides), DEALER, hands, face_up="9H", completion=None)


def test_kawesh_3_2_7() -> None:
    hand = kawesh_hand(kawesh=True)
    assert "kawesh" not in hand.legal_actions()  # P1 holds no 7, 8, 9
    hand.apply("pass")
    assert hand.legal_actions() == ["pass", "hokum", "sun", "kawesh"]
    hand.apply("kawesh")
    result = hand.result()
    assert (hand.phase, result["void"], result["kawesh"], result["points"]) == (
        "over",
        True,
        True,
        [0, 0],
    )
    off = kawesh_hand()
    off.apply("pass")
    assert "kawesh" not in off.legal_actions()  # option off (profile ksa)
    late = kawesh_hand(kawesh=True)
    run(late, ["pass"] * 5)  # round 2: no Kawesh
    assert "kawesh" not in late.legal_actions()


def test_kawesh_keeps_the_dealer_3_2_7() -> None:
    match = RefMatch("baloot", opts(kawesh=True), 3)
    hand = kawesh_hand(kawesh=True)
    run(hand, ["pass", "kawesh"])
    match.apply_hand(hand.result())
    assert (match.dealer, match.n_hands, match.score) == (3, 1, [0, 0])
    void = kawesh_hand(kawesh=True)
    run(void, ["pass"] * 8)  # passed out twice: the deal passes on
    match.apply_hand(void.result())
    assert match.dealer == 0


def test_sun_before_you_off() -> None:
    hand = auction_hand("9H", sun_before_you=False)
    run(hand, ["pass", "pass", "pass", "sun"])
    assert (hand.phase, hand.buyer, hand.mode) == ("completion", 3, "sun")


def test_ashkal_face_up_card_to_the_partner() -> None:
    hand = auction_hand("9H")
    run(hand, ["pass", "pass", "ashkal", "pass", "pass"])
    assert (hand.phase, hand.buyer, hand.mode, hand.ashkal, hand.taker) == (
        "completion",
        2,
        "sun",
        True,
        0,
    )
    # completion: 2 cards to the partner (seat 0), 3 to the others
    rest = sorted(set(B.deck()) - {c for cards in hand.hands for c in cards} - {"9H"})
    wrong = B.completion_from(rest, DEALER, 2)
    with pytest.raises(ValueError):
        hand.complete(wrong)
    hand.complete(B.completion_from(rest, DEALER, 0))
    assert "9H" in hand.hands[0] and "9H" not in hand.hands[2]
    play_randomly(hand, random.Random(0))
    result = hand.result()
    assert (result["buyer"], result["mode"], result["ashkal"], result["trump"]) == (
        2,
        "sun",
        True,
        None,
    )


def test_ashkal_by_p4_and_claim_turns_it_into_sun() -> None:
    hand = auction_hand("9H")
    run(hand, ["pass", "pass", "pass", "ashkal", "pass", "pass", "sun"])
    # P3 claims the Sun ahead of the Ashkal caller: a plain Sun, P3 takes the face-up card.
    assert (hand.buyer, hand.mode, hand.ashkal, hand.taker) == (2, "sun", False, 2)


def test_face_up_ace_restriction() -> None:
    # RULES.md 3.2.4 (p1_only): once a Hokum stands, nobody but P1 may call Sun or Ashkal.
    hand = auction_hand("AH")
    run(hand, ["pass", "hokum"])
    assert hand.legal_actions() == ["pass"]  # P3
    hand.apply("pass")
    assert hand.legal_actions() == ["pass"]  # P4
    hand.apply("pass")
    assert (hand.to_act, hand.legal_actions()) == (1, ["confirm"])  # P2 may not switch
    hand.apply("confirm")
    assert (hand.buyer, hand.mode, hand.trump) == (1, "hokum", "H")
    # P1's own Hokum may be switched.
    hand = auction_hand("AH")
    run(hand, ["hokum", "pass", "pass", "pass"])
    assert hand.legal_actions() == ["confirm", "sun"]
    # Without a standing Hokum, Sun is open to all.
    hand = auction_hand("AH")
    run(hand, ["pass", "pass"])
    assert hand.legal_actions() == ["pass", "hokum", "sun", "ashkal"]


def test_face_up_ace_restriction_off() -> None:
    hand = auction_hand("AH", ace_sun_restriction="none")
    run(hand, ["pass", "hokum"])
    assert hand.legal_actions() == ["pass", "sun", "ashkal"]
    run(hand, ["pass", "pass"])
    assert hand.legal_actions() == ["confirm", "sun"]


def test_face_up_ace_restriction_in_round_two() -> None:
    hand = auction_hand("AH")
    run(hand, ["pass"] * 4 + ["pass", "hokum:S"])
    assert hand.legal_actions() == ["pass"]
    hand = auction_hand("AH")
    run(hand, ["pass"] * 4 + ["hokum:S", "pass", "pass", "pass"])
    assert hand.legal_actions() == ["confirm", "sun"]  # P1


def test_no_ace_restriction_on_other_face_up_cards() -> None:
    hand = auction_hand("KH")
    run(hand, ["pass", "hokum"])
    assert hand.legal_actions() == ["pass", "sun", "ashkal"]


def test_round_two_hokum_in_another_suit() -> None:
    hand = auction_hand("9H")
    run(hand, ["pass"] * 4)
    assert (hand.round, hand.to_act) == (2, 0)
    assert hand.legal_actions() == ["pass", "hokum:S", "hokum:D", "hokum:C", "sun"]
    run(hand, ["pass", "pass"])
    assert hand.legal_actions() == ["pass", "hokum:S", "hokum:D", "hokum:C", "sun", "ashkal"]
    hand.apply("hokum:D")
    assert hand.legal_actions() == ["pass", "sun", "ashkal"]
    run(hand, ["pass", "confirm"])
    assert (hand.buyer, hand.mode, hand.trump, hand.taker) == (2, "hokum", "D", 2)
    give_completion(hand)
    assert "9H" in hand.hands[2]  # the buyer takes the face-up card, whatever the trump


def test_round_two_sun_claim() -> None:
    hand = auction_hand("9H")
    run(hand, ["pass"] * 4 + ["pass", "sun"])
    assert (hand.to_act, hand.legal_actions()) == (0, ["pass", "sun"])
    hand.apply("sun")
    assert (hand.buyer, hand.mode) == (0, "sun")


def test_double_pass_out_is_void() -> None:
    hand = auction_hand("9H")
    run(hand, ["pass"] * 8)
    assert (hand.phase, hand.to_act, hand.legal_actions()) == ("over", None, [])
    result = hand.result()
    assert result["void"] is True
    assert (result["bidder"], result["buyer"], result["mode"], result["made"]) == (
        None,
        None,
        None,
        None,
    )
    assert result["points"] == result["game_points"] == [0, 0]
    assert (result["trick_winners"], result["tricks"], result["card_points"]) == (
        [],
        [0, 0],
        [0, 0],
    )
    assert (result["projects"], result["baloot"], result["kaboot"]) == ([[], []], [0, 0], None)
    assert (result["contract"], result["malzoom"], result["forced_joker_lead"]) == (
        None,
        False,
        False,
    )
    with pytest.raises(ValueError):
        hand.apply("pass")


def test_completion_given_at_construction() -> None:
    final = fill({})
    face_up = final[1][0]
    hands, completion = split(final, face_up, 1)
    hand = RefHand("baloot", opts(), DEALER, hands, face_up=face_up, completion=completion)
    run(hand, ["pass", "hokum", "pass", "pass", "confirm"])
    assert hand.phase == "doubling"  # "completion" is never visible
    assert [sorted(c) for c in hand.hands] == [sorted(c) for c in final]
    # Completion sizes that do not fit the taker: ValueError when the auction ends.
    hand = RefHand("baloot", opts(), DEALER, hands, face_up=face_up, completion=completion)
    with pytest.raises(ValueError):
        run(hand, ["hokum", "pass", "pass", "pass", "confirm"])


def test_bad_deals_rejected() -> None:
    final = fill({})
    hands, completion = split(final, final[0][0], 0)
    with pytest.raises(ValueError):
        RefHand(
            "baloot",
            opts(),
            DEALER,
            [*hands[:3], hands[3][:4]],
            face_up=final[0][0],
            completion=None,
        )
    with pytest.raises(ValueError):
        RefHand("baloot", opts(), DEALER, hands, face_up=hands[1][0], completion=None)
    with pytest.raises(ValueError):
        RefHand("baloot", opts(), DEALER, hands, face_up="XX", completion=None)
    with pytest.raises(ValueError):
        RefHand("baloot", opts(), 4, hands, face_up=final[0][0], completion=None)
    with pytest.raises(ValueError):  # a completion card repeated
        bad = [list(c) for c in completion]
        bad[1][0] = bad[2][0]
        RefHand("baloot", opts(), DEALER, hands, face_up=final[0][0], completion=bad)
    with pytest.raises(ValueError):
        RefHand("kout_bo_4", opts(), DEALER, hands, face_up=final[0][0], completion=None)
    hand = RefHand("baloot", opts(), DEALER, hands, face_up=final[0][0], completion=None)
    with pytest.raises(ValueError):
        hand.complete(completion)  # not in phase "completion"
    with pytest.raises(ValueError):
        hand.apply("confirm")
    with pytest.raises(ValueError):
        hand.apply("hokum:H")


# --------------------------------------------------------------------------------------------------
# RULES.md 3.3: doubling, exactly
# --------------------------------------------------------------------------------------------------


def doubling_hand(mode: str, match_score: Sequence[int] | None = None, **overrides: Any) -> RefHand:
    """Seat 1 (P2) buys by ``mode``; the completion is given; the hand waits at doubling (or
    play)."""
    final = fill({1: "9H"})
    hands, completion = split(final, "9H", 1)
    hand = RefHand(
        "baloot",
        opts(**overrides),
        DEALER,
        hands,
        face_up="9H",
        completion=completion,
        match_score=match_score,
    )
    if mode == "hokum":
        run(hand, ["pass", "hokum", "pass", "pass", "confirm"])
    else:
        run(hand, ["pass", "sun", "pass"])  # P1 declines to claim
    return hand


def test_hokum_ladder() -> None:
    hand = doubling_hand("hokum")
    # The buyer (seat 1)'s opponents in priority order: seat 0 (P1), then seat 2 (P3).
    assert (hand.phase, hand.to_act, hand.legal_actions()) == (
        "doubling",
        0,
        ["pass", "double", "double_closed"],
    )
    hand.apply("pass")
    assert hand.to_act == 2
    hand.apply("double_closed")
    assert (hand.double, hand.closed, hand.doubler, hand.to_act) == (2, True, 2, 1)
    assert hand.legal_actions() == ["pass", "triple"]
    hand.apply("triple")
    assert (hand.double, hand.closed, hand.to_act) == (3, False, 2)
    assert hand.legal_actions() == ["pass", "four", "four_closed"]
    hand.apply("four_closed")
    assert (hand.double, hand.closed, hand.to_act) == (4, True, 1)
    assert hand.legal_actions() == ["pass", "gahwa"]
    hand.apply("gahwa")
    assert (hand.phase, hand.double, hand.gahwa, hand.closed, hand.to_act) == (
        "play",
        4,
        True,
        False,
        0,
    )
    assert hand.calls[-5:] == ["pass", "double_closed", "triple", "four_closed", "gahwa"]


@pytest.mark.parametrize(
    ("calls", "double", "closed"),
    [
        (["pass", "pass"], 1, False),
        (["double", "pass"], 2, False),
        (["double_closed", "pass"], 2, True),
        (["double", "triple", "pass"], 3, False),
        (["double_closed", "triple", "pass"], 3, False),
        (["double", "triple", "four", "pass"], 4, False),
        (["pass", "double", "triple", "four_closed", "pass"], 4, True),
    ],
)
def test_ladder_stops_at_a_pass(calls: list[str], double: int, closed: bool) -> None:
    hand = doubling_hand("hokum")
    run(hand, calls)
    assert (hand.phase, hand.double, hand.closed, hand.gahwa) == ("play", double, closed, False)
    play_randomly(hand, random.Random(5))
    assert (hand.result()["double"], hand.result()["closed"]) == (double, closed)


def test_first_double_ends_the_opponents_turns() -> None:
    hand = doubling_hand("hokum")
    hand.apply("double")
    assert (hand.doubler, hand.to_act) == (0, 1)  # the buyer answers; seat 2 is not asked


@pytest.mark.parametrize(
    ("match_score", "gate"),
    [
        ([0, 0], False),
        ([101, 100], True),
        ([100, 50], False),
        ([120, 101], False),
        ([0, 140], False),
    ],
)
def test_sun_doubling_gate(match_score: list[int], gate: bool) -> None:
    # RULES.md 3.3.2: the buyer is seat 1 (team 1); match_score is [team0, team1].
    hand = doubling_hand("sun", match_score=[match_score[1], match_score[0]])
    assert hand.phase == ("doubling" if gate else "play")
    if gate:
        assert (hand.to_act, hand.legal_actions()) == (0, ["pass", "double"])
        hand.apply("double")
        # the Sun ladder ends after the double
        assert (hand.phase, hand.double, hand.closed) == ("play", 2, False)


def test_doubling_off() -> None:
    assert doubling_hand("hokum", doubling=False).phase == "play"
    assert doubling_hand("sun", [150, 0], doubling=False).phase == "play"


# --------------------------------------------------------------------------------------------------
# RULES.md 3.4: play
# --------------------------------------------------------------------------------------------------

# Trump is hearts (face-up 7H, bought by seat 0 = P1, who leads the first trick).
SEAT0 = "AS 7H 7D 8D 9D 7C 8C 9C"


def hokum_play(final_text: Mapping[int, str], plays: Sequence[str], **overrides: Any) -> RefHand:
    final = fill(final_text)
    hand = bought_hand(final, "7H", "hokum", opts(**overrides))
    run(hand, plays)
    return hand


def test_follow_suit() -> None:
    hand = hokum_play({0: SEAT0, 1: "KS 8S 9H 8H AD KD QD JD"}, ["AS"])
    assert sorted(hand.legal_actions()) == ["8S", "KS"]


def test_void_must_trump_when_no_trump_played() -> None:
    for mercy in ("partner_winning", "none"):
        hand = hokum_play({0: SEAT0, 1: "9H 8H AD KD QD JD AC KC"}, ["AS"], mercy=mercy)
        assert sorted(hand.legal_actions()) == ["8H", "9H"]


@pytest.mark.parametrize(("mercy", "free"), [("partner_winning", True), ("none", False)])
def test_mercy_partner_winning(mercy: str, free: bool) -> None:
    hand = hokum_play(
        {0: SEAT0, 1: "7S 8S 9S TS JS QS KS 9H", 2: "JH KH AD KD QD JD AC KC"},
        ["AS", "8S"],
        mercy=mercy,
    )
    assert hand.to_act == 2
    expected = hand.hands[2] if free else ["JH", "KH"]
    assert sorted(hand.legal_actions()) == sorted(expected)


@pytest.mark.parametrize("undertrump", [False, True])
def test_must_overtrump_an_opponent(undertrump: bool) -> None:
    hand = hokum_play(
        {0: SEAT0, 1: "9H 8H AD KD QD JD AC KC", 2: "JH KH AH QH TD TC QC JC"},
        ["AS", "9H"],
        undertrump_required=undertrump,
    )
    assert hand.legal_actions() == ["JH"]  # only J beats 9


@pytest.mark.parametrize(("undertrump", "only_trumps"), [(False, False), (True, True)])
def test_unable_to_overtrump(undertrump: bool, only_trumps: bool) -> None:
    hand = hokum_play(
        {0: SEAT0, 1: "9H 8H AD KD QD JD AC KC", 2: "KH AH QH TH TD TC QC JC"},
        ["AS", "9H"],
        undertrump_required=undertrump,
    )
    expected = ["KH", "AH", "QH", "TH"] if only_trumps else hand.hands[2]
    assert sorted(hand.legal_actions()) == sorted(expected)


@pytest.mark.parametrize(("mercy", "free"), [("partner_winning", True), ("none", False)])
def test_partner_trump_winning(mercy: str, free: bool) -> None:
    # Seat 1 trumps with QH; seat 3 (his partner) is void in spades: with mercy, any card; with
    # mercy = none, any trump (no duty to overtrump the partner: 8H is allowed).
    hand = hokum_play(
        {
            0: SEAT0,
            1: "QH AD KD QD JD AC KC QC",
            2: "KS QS JS TS 9S 8S 7S TH",
            3: "AH KH JH 9H 8H TD TC JC",
        },
        ["AS", "QH", "7S"],
        mercy=mercy,
    )
    expected = hand.hands[3] if free else ["AH", "KH", "JH", "9H", "8H"]
    assert sorted(hand.legal_actions()) == sorted(expected)


@pytest.mark.parametrize(
    ("rule", "legal"), [("vs_opponent", ["9H"]), ("always", ["9H"]), ("never", ["8H", "9H"])]
)
def test_trump_lead_against_an_opponent(rule: str, legal: list[str]) -> None:
    # Seat 0 leads AH (trump); seat 1 holds 9H (beats A) and 8H.
    hand = hokum_play(
        {0: "AH 7H 7D 8D 9D 7C 8C 9C", 1: "9H 8H AD KD QD JD AC KC"},
        ["AH"],
        overtrump_on_trump_lead=rule,
    )
    assert sorted(hand.legal_actions()) == legal


@pytest.mark.parametrize(
    ("rule", "legal"),
    [("vs_opponent", ["JH", "KH"]), ("always", ["JH"]), ("never", ["JH", "KH"])],
)
def test_trump_lead_partner_winning(rule: str, legal: list[str]) -> None:
    # Seat 0 leads AH; seat 1 cannot beat it (TH, 8H: any trump); seat 2 (partner) holds JH, KH.
    hand = hokum_play(
        {
            0: "AH 7H 7D 8D 9D 7C 8C 9C",
            1: "TH 8H AD KD QD JD AC KC",
            2: "JH KH AS KS QS JS TS 9S",
        },
        ["AH"],
        overtrump_on_trump_lead=rule,
    )
    assert sorted(hand.legal_actions()) == ["8H", "TH"]
    hand.apply("8H")
    assert sorted(hand.legal_actions()) == sorted(legal)


def test_trump_lead_void_in_trump() -> None:
    hand = hokum_play(
        {0: "AH 7H 7D 8D 9D 7C 8C 9C", 1: "9H 8H AD KD QD JD AC KC", 2: "AS KS QS JS TS 9S 8S 7S"},
        ["AH", "9H"],
    )
    assert sorted(hand.legal_actions()) == sorted(hand.hands[2])


def test_sun_follow_or_anything() -> None:
    final = fill({0: "AS 7H 7D 8D 9D 7C 8C 9C", 1: "KS 9H 8H AD KD QD JD AC"}, {2: "S"})
    hand = bought_hand(final, "7H", "sun")
    hand.apply("AS")
    assert hand.legal_actions() == ["KS"]  # follow
    hand.apply("KS")
    assert sorted(hand.legal_actions()) == sorted(hand.hands[2])  # void: any card, no trump


def test_first_trick_led_by_p1_whoever_bought() -> None:
    for dealer in range(4):
        hand = auction_hand("9H", dealer=dealer)
        run(hand, ["pass", "pass", "hokum", "pass", "confirm"])
        give_completion(hand)
        run(hand, ["pass", "pass"])
        assert (hand.phase, hand.to_act) == ("play", (dealer + 1) % 4)


@pytest.mark.parametrize(
    ("calls", "closed"),
    [
        (["double_closed", "pass"], True),
        (["double", "pass"], False),
        (["double_closed", "triple", "pass"], False),
        (["double", "triple", "four_closed", "pass"], True),
        (["double", "triple", "four_closed", "gahwa"], False),
    ],
)
def test_closed_hand_lead_restriction(calls: list[str], closed: bool) -> None:
    # RULES.md 3.3.1: closed: nobody may lead a trump while holding a non-trump card.
    final = fill({0: "AH 7H 7D 8D 9D 7C 8C 9C"})
    hand = bought_hand(final, "7H", "hokum", doubling=calls)
    assert hand.closed is closed
    expected = ["7D", "8D", "9D", "7C", "8C", "9C"] if closed else hand.hands[0]
    assert sorted(hand.legal_actions()) == sorted(expected)


def test_closed_hand_only_trumps() -> None:
    final = fill({0: "AH KH QH JH TH 9H 8H 7H"})
    hand = bought_hand(final, "7H", "hokum", doubling=["double_closed", "pass"])
    assert sorted(hand.legal_actions()) == sorted(final[0])


def test_illegal_card_rejected() -> None:
    hand = hokum_play({0: SEAT0, 1: "KS 8S 9H 8H AD KD QD JD"}, ["AS"])
    with pytest.raises(ValueError):
        hand.apply("9H")  # must follow spades
    with pytest.raises(ValueError):
        hand.apply("AS")  # not his card
    with pytest.raises(ValueError):
        hand.apply(7)


# --------------------------------------------------------------------------------------------------
# RULES.md 3.6.6: the match
# --------------------------------------------------------------------------------------------------


def fake(points: list[int], match_winner: int | None = None) -> dict[str, Any]:
    return {"points": points, "match_winner": match_winner}


def test_match_target_and_rotation() -> None:
    match = RefMatch("baloot", opts(), 2)
    match.apply_hand(fake([0, 0]))  # a void hand: the deal still passes
    assert (match.dealer, match.n_hands, match.over) == (3, 1, False)
    match.apply_hand(fake([151, 10]))
    assert (match.dealer, match.over) == (0, False)
    match.apply_hand(fake([1, 0]))
    assert (match.score, match.winner, match.reason, match.over) == ([152, 10], 0, "target", True)
    with pytest.raises(RuntimeError):
        match.apply_hand(fake([1, 0]))


def test_match_both_reach_the_target() -> None:
    match = RefMatch("baloot", opts(), 0)
    match.apply_hand(fake([150, 140]))
    match.apply_hand(fake([10, 20]))  # 160-160: an exact tie plays on
    assert (match.over, match.score) == (False, [160, 160])
    match.apply_hand(fake([0, 2]))
    assert (match.winner, match.reason) == (1, "target")
    match = RefMatch("baloot", opts(), 0)
    match.apply_hand(fake([140, 150]))
    match.apply_hand(fake([20, 5]))  # 160-155: the higher total wins
    assert (match.winner, match.reason) == (0, "target")


def test_match_gahwa() -> None:
    match = RefMatch("baloot", opts(), 1)
    match.apply_hand(fake([20, 6]))
    match.apply_hand(fake([0, 0], match_winner=1))
    assert (match.winner, match.reason, match.score, match.dealer) == (1, "gahwa", [20, 6], 3)


def test_match_other_target() -> None:
    match = RefMatch("baloot", opts(target=50), 0)
    match.apply_hand(fake([26, 0]))
    match.apply_hand(fake([26, 0]))
    assert (match.winner, match.reason) == (0, "target")


@pytest.mark.parametrize("seed", range(5))
def test_random_matches(seed: int) -> None:
    rng = random.Random(seed)
    options = opts(gahwa="bank_152" if seed % 2 else "match", first_dealer=seed % 4)
    played = R.play_random_match("baloot", options, rng)
    assert played["first_dealer"] == seed % 4
    assert played["winner"] in (0, 1)
    if played["reason"] == "target":
        assert played["score"][played["winner"]] >= 152
        assert played["score"][played["winner"]] > played["score"][1 - played["winner"]]
    else:
        assert played["reason"] == "gahwa" and played["hands"][-1]["match_winner"] is not None
    totals = [sum(h["points"][t] for h in played["hands"]) for t in (0, 1)]
    assert totals == played["score"]


# --------------------------------------------------------------------------------------------------
# Dispatch from kout_sim.reference
# --------------------------------------------------------------------------------------------------


def test_dispatch() -> None:
    final = fill({})
    hands, _ = split(final, final[0][0], 0)
    hand = R.RefHand("baloot", opts(), DEALER, hands, face_up=final[0][0])
    assert isinstance(hand, RefHand) and hand.phase == "auction"
    assert isinstance(R.RefMatch("baloot", opts(), 0), RefMatch)
    assert R.n_players("baloot") == 4
    result = R.play_random_hand("baloot", opts(), 0, random.Random(0), [0, 0])
    assert result["void"] or sum(result["card_points"]) in (130, 162)
    with pytest.raises(ValueError):
        R.RefHand("kout_bo_4", {}, 0, hands, face_up="AS")


# --------------------------------------------------------------------------------------------------
# Invariants over random hands
# --------------------------------------------------------------------------------------------------


def random_options(rng: random.Random) -> dict[str, Any]:
    return opts(**{key: rng.choice(values) for key, values in OPTION_VALUES.items()})


def choose(phase: str, legal: Sequence[str], style: int, rng: random.Random) -> str:
    """A random action; styles 1 and 3 bias the auction so that the rare paths occur: 1 passes
    mostly (void hands), 3 bids and keeps Hokum (Hokum play rules, doubling ladders)."""
    if phase == "auction" and style == 1 and "pass" in legal and rng.random() < 0.8:
        return "pass"
    if phase == "auction" and style == 3:
        hokum = [call for call in legal if call.startswith("hokum") or call == "confirm"]
        if hokum:
            return rng.choice(hokum)
        if "pass" in legal and rng.random() < 0.9:
            return "pass"
    return rng.choice(legal)


def test_random_hands_invariants() -> None:
    rng = random.Random(2026)
    seen: Counter[Any] = Counter()
    for i in range(2000):
        options = random_options(rng)
        dealer = i % 4
        hands, face_up, rest = B.deal(dealer, rng)
        score = [rng.randrange(160), rng.randrange(160)]
        hand = RefHand(
            "baloot", options, dealer, hands, face_up=face_up, completion=None, match_score=score
        )
        plays = 0
        while hand.phase != "over":
            if hand.phase == "completion":
                assert hand.taker is not None and hand.legal_actions() == []
                hand.complete(B.completion_from(rest, dealer, hand.taker))
                assert sorted(c for cards in hand.hands for c in cards) == sorted(B.deck())
                continue
            legal = [str(action) for action in hand.legal_actions()]
            assert legal and len(set(legal)) == len(legal)
            if hand.phase == "play":
                seat = hand.to_act
                assert seat is not None
                held = hand.hands[seat]
                assert set(legal) <= set(held)  # legal is a subset of the hand
                if hand.trick:
                    led = hand.trick[0][1][1]
                    if any(card[1] == led for card in held):
                        assert all(card[1] == led for card in legal)  # RULES.md 3.4.1
                elif hand.closed and any(card[1] != hand.trump for card in held):
                    assert all(card[1] != hand.trump for card in legal)  # RULES.md 3.3.1
                plays += 1
            hand.apply(choose(hand.phase, legal, i % 4, rng))
        result = hand.result()
        if result["kawesh"]:
            # RULES.md 3.2.7: round 1 passes, then the Kawesh of a five of 7s, 8s and 9s
            assert hand.calls[-1] == "kawesh" and set(hand.calls[:-1]) <= {"pass", "hokum"}
            assert plays == 0 and result["void"] and len(hand.calls) <= 4
            continue
        if result["void"]:
            assert hand.calls == ["pass"] * 8 and plays == 0
            seen["void"] += 1
            continue
        assert plays == len(hand.plays) == 32 and sorted(hand.plays) == sorted(B.deck())
        assert len(result["trick_winners"]) == 8 and sum(result["tricks"]) == 8
        total = 162 if result["mode"] == "hokum" else 130
        assert sum(result["card_points"]) == total  # incl. the last trick's 10
        assert (result["kaboot"] is not None) == (8 in result["tricks"])
        assert result["points"] == result["game_points"] and min(result["points"]) >= 0
        assert (result["trump"] is None) == (result["mode"] == "sun")
        assert result["bidder"] == result["buyer"] is not None
        assert not (result["projects"][0] and result["projects"][1])
        assert result["closed"] is False or result["mode"] == "hokum"
        assert result["double"] in (1, 2, 3, 4)
        if result["match_winner"] is not None:
            assert result["gahwa"] and options["gahwa"] == "match" and result["points"] == [0, 0]
        seen[(result["mode"], result["double"], result["gahwa"], result["kaboot"] is not None)] += 1
        seen["ashkal"] += result["ashkal"]
        seen["closed"] += result["closed"]
        seen["projects"] += bool(result["projects"][0] or result["projects"][1])
        seen["baloot"] += sum(result["baloot"])
    # the random games reach the rare paths too
    assert seen["void"] > 0 and seen["ashkal"] > 0 and seen["closed"] > 0
    assert seen[("sun", 2, False, False)] > 0 and seen[("hokum", 4, True, False)] > 0
    assert seen["projects"] > 100 and seen["baloot"] > 0
