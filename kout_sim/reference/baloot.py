"""Reference engine for Saudi Baloot (RULES.md §3, with the binding readings of docs/baloot.md).

This is the executable specification that the fast engine is compared against, action by action. It
is plain, slow, obvious Python written directly from ``shared/RULES.md`` §0 and §3 and from
``docs/baloot.md``; it shares no code with the rest of the package (only ``_cards``, the reference
engine's own card helper).

Conventions (RULES.md 0.1, 0.2): seats ``0..3`` in playing order, the next seat after ``s`` is
``(s + 1) % 4``, team = seat parity. Cards are canonical strings (``"AS"``, ``"TD"``, ``"7H"``).
Priority order from the dealer ``d`` (RULES.md 3.2.2): P1 = ``d+1``, P2 = ``d+2``, P3 = ``d+3``,
P4 = ``d``. Actions are the call strings of docs/baloot.md (``"pass"``, ``"hokum"``, ``"hokum:S"``,
``"sun"``, ``"ashkal"``, ``"confirm"``, ``"double"``, ``"double_closed"``, ``"triple"``, ``"four"``,
``"four_closed"``, ``"gahwa"``, ``"kawesh"``) in the auction and doubling phases, and card strings in play.

A hand goes through the phases ``"auction"`` (bids, Sun claims, the Hokum bidder's confirm/switch),
``"completion"`` (only visible when the completion cards were not given at construction: the engine
waits for :meth:`RefHand.complete`), ``"doubling"`` (skipped when no doubling call is possible),
``"play"`` (all eight tricks) and ``"over"``. A void hand (all passed twice) goes from the auction
straight to ``"over"``.

Readings chosen where RULES.md and docs/baloot.md leave something open are marked "Reading:" in the
comments below and summarised in ``READINGS``.

Size: one module on purpose. It is the rulebook of RULES.md section 3 written once, clause by clause,
as the independent twin of the numba engine; a split would scatter the clause order that lets a
reader check it against RULES.md.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._cards import SUITS, suited_cards
from ._match import MatchState
from .options import resolve_options

Action = str | int  # the type of an action in the shared engine API; Baloot actions are all str

PRESET = "baloot"
N_PLAYERS = 4
N_TRICKS = 8
FIRST_DEAL = 5  # RULES.md 3.2.1: five cards each in the first deal
COMPLETION_TAKER = 2  # RULES.md 3.2.6: the face-up card's taker gets two more cards
COMPLETION_OTHER = 3  # RULES.md 3.2.6: everyone else gets three

# Phases of a hand.
AUCTION = "auction"
COMPLETION = "completion"
DOUBLING = "doubling"
PLAY = "play"
OVER = "over"

# Calls (docs/baloot.md "Calls").
PASS = "pass"
HOKUM = "hokum"  # round 1: trump = the face-up card's suit; round 2: "hokum:X"
SUN = "sun"
ASHKAL = "ashkal"
CONFIRM = "confirm"
DOUBLE = "double"
DOUBLE_CLOSED = "double_closed"
TRIPLE = "triple"
FOUR = "four"
FOUR_CLOSED = "four_closed"
GAHWA = "gahwa"
KAWESH = "kawesh"  # RULES.md 3.2.7: a first five of 7s, 8s and 9s voids the hand
KAWESH_RANKS = "789"

# Modes.
MODE_SUN = "sun"
MODE_HOKUM = "hokum"

# Match-end reasons.
REASON_TARGET = "target"
REASON_GAHWA = "gahwa"

# RULES.md 3.1: the orders, weakest first (a higher index is stronger), and the card points.
PLAIN_ORDER = "789JQKTA"  # Sun and non-trump: A 1st, T 2nd, K, Q, J, 9, 8, 7
TRUMP_ORDER = "78QKTA9J"  # Hokum trump: J 1st, 9 2nd, A, T, K, Q, 8, 7
PLAIN_POINTS: dict[str, int] = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP_POINTS: dict[str, int] = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
LAST_TRICK_BONUS = 10  # RULES.md 3.1 / 3.6.1: "the floor"
# RULES.md 3.1 / 3.5: sequences always use A K Q J T 9 8 7 (strongest first).
SEQUENCE_ORDER = "AKQJT987"
QUAD_RANKS = "AKQJT"  # RULES.md 3.5: four of A/K/Q/J/T are a project

# RULES.md 3.5: the projects, their raw values and game points per mode.
SIRA = "sira"
FIFTY = "fifty"
HUNDRED = "hundred"
FOUR_HUNDRED = "four_hundred"
PROJECT_RAW: dict[str, int] = {SIRA: 20, FIFTY: 50, HUNDRED: 100, FOUR_HUNDRED: 200}
PROJECT_GAME_POINTS: dict[str, dict[str, int]] = {
    MODE_HOKUM: {SIRA: 2, FIFTY: 5, HUNDRED: 10},  # Four Hundred does not exist in Hokum
    MODE_SUN: {SIRA: 4, FIFTY: 10, HUNDRED: 20, FOUR_HUNDRED: 40},
}
PROJECT_TYPE_RANK: dict[str, int] = {SIRA: 1, FIFTY: 2, HUNDRED: 3, FOUR_HUNDRED: 4}
BALOOT_RAW = 20  # RULES.md 3.5: Baloot counts 20 raw in A[T] ...
BALOOT_GAME_POINTS = 2  # ... and 2 game points, never multiplied

# RULES.md 3.6.2-3.6.5: the base value of a hand, the kaboot values, and Gahwa's bank.
BASE: dict[str, int] = {MODE_HOKUM: 16, MODE_SUN: 26}
KABOOT: dict[str, int] = {MODE_HOKUM: 25, MODE_SUN: 44}
GAHWA_BANK = 152
SUN_DOUBLING_GATE = 100  # RULES.md 3.3.2: buyer's team above 100, the other team 100 or less

# The readings this engine chose where RULES.md and docs/baloot.md leave something open.
READINGS: tuple[str, ...] = (
    "The Hokum bidder's decision (docs rule 4) is always asked, even when 'confirm' is his only "
    "legal call (face-up Ace, p1_only, bidder not P1).",
    "A Kaboot is never multiplied, but a Gahwa still decides the match: the sweeping team is the "
    "Gahwa's winner (docs/baloot.md).",
    "Result field 'double' is 4 in a Gahwa hand (the last numeric level reached).",
    "Gahwa: gahwa = match banks nothing at all (Baloot included); gahwa = bank_152 "
    "banks exactly 152 to the winner and nothing else (no projects, no Baloot) to either team.",
    "When the buyer fails, the other team O always scores its own Baloot; baloot_on_loss only "
    "governs the buyer's team's Baloot.",
    "Result field 'baloot' counts each Baloot under the team whose points include it.",
    "An exact tie under tie = split counts as made (made = true).",
    "Baloot is blocked only when the holder's project reading counts four Kings or four Queens "
    "as a four-of-a-kind (RULES.md 3.5.2); in Hokum, so four Aces never matter.",
    "Two projects of the same type compare by top card only (a run of 6 and a run of 5 with the "
    "same top are equal); an exact tie goes to the earlier seat in priority.",
    "Readings with equal totals and equally strong best projects would be further ordered by "
    "their next strongest projects (checked exhaustively: no eight cards ever need it).",
    "A completion given for a hand that turns out void is ignored.",
)


def deck() -> list[str]:
    """Return the 32 Baloot cards (RULES.md 3.1: 7..A of S H D C), suit by suit, low to high."""
    return suited_cards("7")


DECK: frozenset[str] = frozenset(deck())


def team_of(seat: int) -> int:
    """Return the team of ``seat``: seat parity (RULES.md 0.2)."""
    return seat % 2


def partner_of(seat: int) -> int:
    """Return the partner of ``seat`` (RULES.md 0.2: partners sit opposite)."""
    return (seat + 2) % N_PLAYERS


def priority_order(dealer: int) -> list[int]:
    """Return the seats P1, P2, P3, P4 (RULES.md 3.2.2: ``d+1``, ``d+2``, ``d+3``, ``d``)."""
    return [(dealer + k) % N_PLAYERS for k in (1, 2, 3, 4)]


def suit_of(card: str) -> str:
    """Return the suit letter of ``card``."""
    return card[1]


def rank_of(card: str) -> str:
    """Return the rank letter of ``card``."""
    return card[0]


def card_points(card: str, trump: str | None) -> int:
    """RULES.md 3.1: the card points of ``card`` (trump column when it is of the trump suit)."""
    if trump is not None and suit_of(card) == trump:
        return TRUMP_POINTS[rank_of(card)]
    return PLAIN_POINTS[rank_of(card)]


def trump_strength(card: str) -> int:
    """RULES.md 3.1: the order of a trump card, 0 (7) .. 7 (J)."""
    return TRUMP_ORDER.index(rank_of(card))


def plain_strength(card: str) -> int:
    """RULES.md 3.1: the order of a card in Sun or in a non-trump suit, 0 (7) .. 7 (A)."""
    return PLAIN_ORDER.index(rank_of(card))


def trick_winner_index(cards: Sequence[str], trump: str | None) -> int:
    """RULES.md 3.4.4: index in ``cards`` (led first) of the winning card.

    The highest trump wins, else the highest card of the led suit.
    """
    trumps = [i for i, card in enumerate(cards) if trump is not None and suit_of(card) == trump]
    if trumps:
        return max(trumps, key=lambda i: trump_strength(cards[i]))
    led = suit_of(cards[0])
    following = [i for i, card in enumerate(cards) if suit_of(card) == led]
    return max(following, key=lambda i: plain_strength(cards[i]))


def gp(points: int, mode: str) -> int:
    """RULES.md 3.6.2: convert the other team's card points to game points."""
    if mode == MODE_HOKUM:
        return points // 10 + (1 if points % 10 >= 6 else 0)
    if points % 10 == 5:
        return points // 5
    return 2 * (points // 10 + (1 if points % 10 >= 6 else 0))


# --------------------------------------------------------------------------------------------------
# Projects (RULES.md 3.5)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Project:
    """One project: its holder, type (``sira``/``fifty``/``hundred``/``four_hundred``), the rank
    letter of its top card in sequence order (or of the four-of-a-kind), and whether it is a
    four-of-a-kind."""

    seat: int
    kind: str
    top: str
    quad: bool

    def strength(self) -> tuple[int, int, int]:
        """RULES.md 3.5.1: a comparable strength, larger is stronger.

        Four Hundred > Hundred > Fifty > Sira; between Hundreds a sequence beats a four-of-a-kind;
        four-of-a-kinds rank A > K > Q > J > T; otherwise the higher top card (sequence order).
        """
        sequence_flag = 0 if self.quad else 1
        top_value = len(SEQUENCE_ORDER) - SEQUENCE_ORDER.index(self.top)  # A 8 .. 7 1
        return (PROJECT_TYPE_RANK[self.kind], sequence_flag, top_value)

    def as_dict(self) -> dict[str, Any]:
        """The result form of docs/baloot.md: ``{"seat", "type", "top"}``."""
        return {"seat": self.seat, "type": self.kind, "top": self.top}


def _runs(cards: Sequence[str]) -> list[list[str]]:
    """RULES.md 3.5: every maximal run of three or more consecutive cards (A K Q J T 9 8 7) in one
    suit among ``cards``, each as its ranks from the top down."""
    runs: list[list[str]] = []
    for suit in SUITS:
        held = {rank_of(card) for card in cards if suit_of(card) == suit}
        current: list[str] = []
        for rank in SEQUENCE_ORDER:
            if rank in held:
                current.append(rank)
                continue
            if len(current) >= 3:
                runs.append(current)
            current = []
        if len(current) >= 3:
            runs.append(current)
    return runs


def _reading(seat: int, cards: Sequence[str], quads: Sequence[str], mode: str) -> list[Project]:
    """The projects of one reading: the chosen four-of-a-kinds, then the maximal runs among the
    remaining cards (docs/baloot.md "Projects")."""
    projects: list[Project] = []
    for rank in quads:
        # RULES.md 3.5: four Aces are a Four Hundred in Sun, a Hundred in Hokum; other quads
        # are Hundreds.
        kind = FOUR_HUNDRED if rank == "A" and mode == MODE_SUN else HUNDRED
        projects.append(Project(seat, kind, rank, quad=True))
    rest = [card for card in cards if rank_of(card) not in quads]
    for run in _runs(rest):
        # RULES.md 3.5: 3 = Sira, 4 = Fifty, 5 or more = Hundred (a long run is one Hundred).
        kind = SIRA if len(run) == 3 else FIFTY if len(run) == 4 else HUNDRED
        projects.append(Project(seat, kind, run[0], quad=False))
    return sorted(projects, key=lambda p: p.strength(), reverse=True)


def read_projects(seat: int, cards: Sequence[str], mode: str) -> list[Project]:
    """RULES.md 3.5.1: the projects of ``seat`` holding the eight ``cards`` in ``mode``.

    Every subset of the four-of-a-kinds held is tried; the reading with the highest total raw value
    wins, on equal totals the one whose best project is stronger (Reading: then the next strongest,
    and so on). Returned strongest first.
    """
    held_quads = [
        rank for rank in QUAD_RANKS if sum(1 for card in cards if rank_of(card) == rank) == 4
    ]
    best: list[Project] = []
    best_key: tuple[int, list[tuple[int, int, int]]] = (0, [])
    for size in range(len(held_quads) + 1):
        for quads in itertools.combinations(held_quads, size):
            projects = _reading(seat, cards, quads, mode)
            key = (
                sum(PROJECT_RAW[p.kind] for p in projects),
                [p.strength() for p in projects],  # strongest first
            )
            if key > best_key:
                best, best_key = projects, key
    return best


def counted_team(projects: Sequence[Sequence[Project]], dealer: int) -> int | None:
    """RULES.md 3.5.1: the team whose projects count (None when nobody has a project).

    The player holding the strongest project overall gives his team the projects; an exact tie
    goes to the player earlier in priority order.
    """
    best_seat: int | None = None
    best_strength: tuple[int, int, int] | None = None
    for seat in priority_order(dealer):
        if not projects[seat]:
            continue
        strongest = max(p.strength() for p in projects[seat])
        # Strictly stronger only: on an exact tie the earlier seat in priority keeps it.
        if best_strength is None or strongest > best_strength:
            best_seat, best_strength = seat, strongest
    return None if best_seat is None else team_of(best_seat)


def has_baloot(cards: Sequence[str], trump: str | None) -> bool:
    """RULES.md 3.5 / 3.5.2: K and Q of trump (Hokum only). Four Kings or four Queens block it only
    when the holder's project reading (3.5.1) counts them as a four-of-a-kind."""
    if trump is None:
        return False
    if "K" + trump not in cards or "Q" + trump not in cards:
        return False
    reading = read_projects(0, cards, MODE_HOKUM)
    return not any(p.quad and p.top in "KQ" for p in reading)


# --------------------------------------------------------------------------------------------------
# Scoring (RULES.md 3.6)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandScore:
    """The outcome of scoring: game points per team, whether the buyer's team won the hand, the
    team that wins the match by this hand alone (Gahwa with ``gahwa = match``), and the Baloots
    counted in each team's points."""

    points: list[int]
    made: bool
    match_winner: int | None
    baloot: list[int]


def score_hand(
    mode: str,
    buyer_team: int,
    card_pts: Sequence[int],
    counted: Sequence[Sequence[str]],
    baloots: Sequence[int],
    options: Mapping[str, Any],
    *,
    kaboot: int | None = None,
    double: int = 1,
    raiser_team: int | None = None,
    gahwa: bool = False,
) -> HandScore:
    """RULES.md 3.6: score one played hand.

    ``card_pts`` is ``a[T]`` per team (card points with the last-trick 10), ``counted`` the types
    of each team's counted projects (one side at most is non-empty), ``baloots`` the Baloots held
    per team, ``kaboot`` the team that took all eight tricks, ``double`` the multiplier (1..4),
    ``raiser_team`` the last raiser's team when doubled, ``gahwa`` whether the buyer called Gahwa.
    Reads options ``tie``, ``baloot_on_loss``, ``kaboot_projects``, ``doubled_projects``, ``gahwa``.
    """
    b = buyer_team
    o = 1 - b
    base = BASE[mode]
    project_gp = [sum(PROJECT_GAME_POINTS[mode][kind] for kind in counted[t]) for t in (0, 1)]
    project_raw = [sum(PROJECT_RAW[kind] for kind in counted[t]) for t in (0, 1)]
    # RULES.md 3.6.3: A[T] = a[T] + raw points of T's counted projects + 20 per Baloot.
    total = [card_pts[t] + project_raw[t] + BALOOT_RAW * baloots[t] for t in (0, 1)]
    points = [0, 0]
    baloot_scored = [0, 0]

    def score_baloot(owner: int, to_team: int) -> None:
        points[to_team] += BALOOT_GAME_POINTS * baloots[owner]
        baloot_scored[to_team] += baloots[owner]

    if kaboot is not None and not gahwa:
        # RULES.md 3.6.4: a kaboot scores 44 (Sun) / 25 (Hokum) plus the projects and Baloots,
        # never multiplied, whatever was doubled; the other team 0. (A Gahwa still decides the
        # match: its sweeping team is simply the hand's winner, below.)
        points[kaboot] = KABOOT[mode]
        if options["kaboot_projects"] == "all":
            points[kaboot] += project_gp[0] + project_gp[1]
            score_baloot(0, kaboot)
            score_baloot(1, kaboot)
        else:  # "own"
            points[kaboot] += project_gp[kaboot]
            score_baloot(kaboot, kaboot)
        return HandScore(points, kaboot == b, None, baloot_scored)

    if gahwa:
        # RULES.md 3.6.5 / docs: Gahwa is decided like a doubled hand with the buyer as the last
        # raiser (a tie goes against him, RULES.md 3.3.3).
        if kaboot is not None:
            winner = kaboot
        else:
            winner = b if total[b] > total[o] else o
        if options["gahwa"] == "match":
            # The winner wins the match at once; no points are banked.
            return HandScore([0, 0], winner == b, winner, [0, 0])
        # (K) bank_152: the winner banks 152 and the target rule decides.
        points[winner] = GAHWA_BANK
        return HandScore(points, winner == b, None, [0, 0])

    if double > 1:
        # RULES.md 3.3.3 / 3.6.5: all or nothing; the last raiser's team R wins only if
        # A[R] > A[other]; the winner scores base x m + all counted project points x f.
        assert raiser_team is not None
        r = raiser_team
        winner = r if total[r] > total[1 - r] else 1 - r
        if options["doubled_projects"] == "multiplied":
            factor = double  # (K)
        else:  # "by_level": 2 at Double, 1 at Triple and Four
            factor = 2 if double == 2 else 1
        points[winner] = base * double + (project_gp[0] + project_gp[1]) * factor
        # Baloot stays 2 and stays with its owner.
        score_baloot(0, 0)
        score_baloot(1, 1)
        return HandScore(points, winner == b, None, baloot_scored)

    # RULES.md 3.6.3: undoubled. The buyer fails when A[O] > A[B]; an exact tie by option tie.
    tie_rule = options["tie"]
    tie_loses = tie_rule == "buyer_loses" or (
        tie_rule == "buyer_loses_hokum_only" and mode == MODE_HOKUM
    )
    failed = total[o] > total[b] or (total[o] == total[b] and tie_loses)
    if failed:
        # O scores 16 / 26 plus all counted projects of both teams (and, Reading, its own Baloot).
        points[o] = base + project_gp[0] + project_gp[1]
        score_baloot(o, o)
        on_loss = options["baloot_on_loss"]
        if on_loss == "owner":
            score_baloot(b, b)
        elif on_loss == "winner":
            score_baloot(b, o)
        # "void": nobody scores the buyer's team's Baloot.
        return HandScore(points, False, None, baloot_scored)
    # Made (or a split tie): RULES.md 3.6.2, conversion on O, B gets the rest; projects and Baloot
    # are added after conversion.
    points[o] = gp(card_pts[o], mode)
    points[b] = base - points[o]
    for t in (0, 1):
        points[t] += project_gp[t]
        score_baloot(t, t)
    return HandScore(points, True, None, baloot_scored)


# --------------------------------------------------------------------------------------------------
# One hand
# --------------------------------------------------------------------------------------------------

# Sub-steps of the auction and of the doubling ladder.
_BID = "bid"  # docs rules 1-2: the seats of the round, P1..P4
_CLAIM = "claim"  # docs rule 3: the Sun-before-you claims
_SECOND = "second"  # docs rule 4: second_sun_chance, the passers before a round-1 Hokum
_DECIDE = "decide"  # docs rule 4: the Hokum bidder's confirm / switch
_ASK_DOUBLE = "ask_double"  # doubling rule 1: the buyer's opponents
_ASK_TRIPLE = "ask_triple"  # doubling rule 2: the buyer
_ASK_FOUR = "ask_four"  # doubling rule 2: the doubler
_ASK_GAHWA = "ask_gahwa"  # doubling rule 2: the buyer


def _validate_cards(cards: Sequence[str], what: str) -> None:
    for card in cards:
        if not isinstance(card, str) or card not in DECK:
            raise ValueError(f"{what}: {card!r} is not a Baloot card")


class RefHand:
    """One hand of Baloot, from the auction to the end of play.

    Parameters
    ----------
    preset
        ``"baloot"``.
    options
        The options as given (``resolve_options`` fills in the defaults and the profile's).
    dealer
        The dealer's seat.
    hands
        The first deal: four lists of five cards, seat order (RULES.md 3.2.1).
    face_up
        The card turned face up.
    completion
        The cards each seat receives after the auction, not counting the face-up card (3, or 2 for
        the seat that takes the face-up card). ``None`` (or ``[]``): the hand stops in phase
        ``"completion"`` when the auction ends, until :meth:`complete` is called.
    match_score
        ``[team0, team1]`` match points before the hand, for the Sun doubling gate (RULES.md 3.3.2).

    Public state (read-only by convention): ``phase``, ``to_act``, ``hands`` (cards still held),
    ``calls`` and ``plays`` (in order), ``history`` (every ``(seat, action)``), ``round``,
    ``buyer``, ``mode``, ``trump``, ``ashkal``, ``taker`` (seat that takes the face-up card),
    ``void``, ``double``, ``doubler``, ``gahwa``, ``closed``, ``trick`` (the ``(seat, card)`` plays
    of the trick in progress), ``trick_winners``, ``tricks`` and ``card_points`` per team,
    ``projects`` (per seat, once completed).
    """

    def __init__(
        self,
        preset: str,
        options: Mapping[str, Any],
        dealer: int,
        hands: Sequence[Sequence[str]],
        *,
        face_up: str,
        completion: Sequence[Sequence[str]] | None,
        match_score: Sequence[int] | None = None,
    ) -> None:
        if preset != PRESET:
            raise ValueError(f"the Baloot reference engine plays preset 'baloot', not {preset!r}")
        self.preset: str = PRESET
        self.options: dict[str, Any] = resolve_options(PRESET, options)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < N_PLAYERS:
            raise ValueError(f"dealer must be a seat 0..3, got {dealer!r}")
        self.dealer: int = dealer
        self.order: list[int] = priority_order(dealer)  # P1..P4 (RULES.md 3.2.2)

        # The deal (RULES.md 3.2.1, 3.2.6).
        if len(hands) != N_PLAYERS or any(len(hand) != FIRST_DEAL for hand in hands):
            raise ValueError("Baloot deals four hands of five cards first")
        for seat, hand in enumerate(hands):
            _validate_cards(hand, f"hands[{seat}]")
        _validate_cards([face_up], "face_up")
        dealt = [card for hand in hands for card in hand] + [face_up]
        if len(set(dealt)) != len(dealt):
            raise ValueError("a card is dealt twice")
        self.hands: list[list[str]] = [list(hand) for hand in hands]
        self.face_up: str = face_up
        self._undealt: frozenset[str] = DECK - set(dealt)  # the 11 completion cards
        self._given_completion: list[list[str]] | None = None
        if completion:  # None or [] means "not given yet"
            self._given_completion = self._check_completion_cards(completion)

        score = [0, 0] if match_score is None else [int(x) for x in match_score]
        if len(score) != 2:
            raise ValueError(f"match_score must be [team0, team1], got {match_score!r}")
        self.match_score: list[int] = score

        self.calls: list[str] = []
        self.plays: list[str] = []
        self.history: list[tuple[int, str]] = []

        # Auction state (RULES.md 3.2.3-3.2.5, docs "The auction, exactly").
        self.round: int = 1
        self._step: str = _BID
        self._index: int = 0  # position in the round (0 = P1)
        self._round_passed: list[int] = []  # seats that passed in this round
        self._hokum_bidder: int | None = None
        self._hokum_suit: str | None = None
        self._sun_caller: int | None = None
        self._sun_call: str | None = None  # "sun" or "ashkal"
        self._claimers: list[int] = []
        self._second: list[int] = []  # RULES.md 3.2.3 second_sun_chance: still to be asked

        # Outcome of the auction.
        self.buyer: int | None = None
        self.mode: str | None = None
        self.trump: str | None = None
        self.ashkal: bool = False
        self.taker: int | None = None
        self.void: bool = False
        self.kawesh: bool = False  # RULES.md 3.2.7: voided by a Kawesh call (the dealer redeals)

        # Doubling state (RULES.md 3.3, docs "Doubling, exactly").
        self._double_askers: list[int] = []
        self.double: int = 1
        self.doubler: int | None = None
        self.last_raiser: int | None = None
        self.gahwa: bool = False
        self.closed: bool = False

        # Projects (RULES.md 3.5), read from the eight cards once completed.
        self.projects: list[list[Project]] = [[], [], [], []]
        self.baloot_holders: list[int] = []

        # Play state.
        self.trick: list[tuple[int, str]] = []
        self.trick_winners: list[int] = []
        self.tricks: list[int] = [0, 0]
        self.card_points: list[int] = [0, 0]
        self._score: HandScore | None = None

        self.phase: str = AUCTION
        self.to_act: int | None = self.order[0]  # RULES.md 3.2.3: P1 speaks first

    # -- small helpers -----------------------------------------------------------------------------

    def _check_completion_cards(self, completion: Sequence[Sequence[str]]) -> list[list[str]]:
        """Light checks: four lists, each card once, together the 11 cards not yet dealt."""
        if len(completion) != N_PLAYERS:
            raise ValueError("the completion must give a list of cards to each of the four seats")
        for seat, cards in enumerate(completion):
            _validate_cards(cards, f"completion[{seat}]")
            if len(cards) not in (COMPLETION_TAKER, COMPLETION_OTHER):
                raise ValueError(f"completion[{seat}] has {len(cards)} cards, expected 2 or 3")
        given = [card for cards in completion for card in cards]
        if len(given) != len(set(given)) or set(given) != self._undealt:
            raise ValueError("hands, face_up and completion are not the whole deck, each card once")
        return [list(cards) for cards in completion]

    def _position(self, seat: int) -> int:
        """The priority number of ``seat``: 1 for P1 .. 4 for P4 (RULES.md 3.2.2)."""
        return self.order.index(seat) + 1

    def _ace_restricted(self) -> bool:
        """RULES.md 3.2.4: a face-up Ace under option ``ace_sun_restriction = p1_only``."""
        return rank_of(self.face_up) == "A" and self.options["ace_sun_restriction"] == "p1_only"

    def _trump_suit(self) -> str | None:
        return self.trump if self.mode == MODE_HOKUM else None

    # -- legal actions -----------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Return the legal actions of the seat to act ([] in "completion" and "over").

        Calls in a fixed order (``pass`` first); cards in the order the player holds them.
        """
        if self.phase == AUCTION:
            return list(self._legal_auction())
        if self.phase == DOUBLING:
            return list(self._legal_doubling())
        if self.phase == PLAY:
            return list(self._legal_cards())
        return []

    def _legal_auction(self) -> list[str]:
        assert self.to_act is not None
        seat = self.to_act
        if self._step in (_CLAIM, _SECOND):
            # docs rules 3 and 4: a claim or a second chance is always "sun" (never "ashkal"),
            # or "pass".
            return [PASS, SUN]
        if self._step == _DECIDE:
            # docs rule 4: confirm, or switch to Sun (with a face-up Ace and p1_only, P1 only).
            if self._ace_restricted() and self._position(seat) != 1:
                return [CONFIRM]
            return [CONFIRM, SUN]
        # docs rules 1-2 (RULES.md 3.2.3-3.2.5): a seat of the round.
        position = self._position(seat)
        legal = [PASS]
        if self._hokum_bidder is None:
            face_suit = suit_of(self.face_up)
            if self.round == 1:
                legal.append(HOKUM)  # RULES.md 3.2.3: trump = the face-up card's suit
            else:
                # RULES.md 3.2.5: round 2, Hokum in a suit other than the face-up suit.
                legal.extend(f"{HOKUM}:{suit}" for suit in SUITS if suit != face_suit)
        # docs rule 2 / RULES.md 3.2.4: once a Hokum stands, with a face-up Ace and p1_only, no
        # seat but P1 may call Sun or Ashkal.
        if self._hokum_bidder is None or not self._ace_restricted() or position == 1:
            legal.append(SUN)
            if position in (3, 4):
                legal.append(ASHKAL)  # RULES.md 3.2.3: P3 and P4 only
        if (
            self.options["kawesh"]
            and self.round == 1
            and all(rank_of(card) in KAWESH_RANKS for card in self.hands[seat])
        ):
            # RULES.md 3.2.7: at his turn of round 1, a first five of 7s, 8s and 9s only
            # (Reading: whether or not a Hokum stands).
            legal.append(KAWESH)
        return legal

    def _legal_doubling(self) -> list[str]:
        if self._step == _ASK_DOUBLE:
            # docs doubling rule 1 (RULES.md 3.3.1-3.3.2): a closed Double exists in Hokum only.
            if self.mode == MODE_HOKUM:
                return [PASS, DOUBLE, DOUBLE_CLOSED]
            return [PASS, DOUBLE]
        if self._step == _ASK_TRIPLE:
            return [PASS, TRIPLE]
        if self._step == _ASK_FOUR:
            return [PASS, FOUR, FOUR_CLOSED]
        assert self._step == _ASK_GAHWA
        return [PASS, GAHWA]

    def _legal_cards(self) -> list[str]:
        assert self.to_act is not None
        seat = self.to_act
        hand = self.hands[seat]
        trump = self._trump_suit()
        if not self.trick:
            # RULES.md 3.3.1: in a closed hand nobody may lead a trump while holding a non-trump.
            if self.closed and trump is not None:
                non_trumps = [card for card in hand if suit_of(card) != trump]
                if non_trumps:
                    return non_trumps
            return list(hand)
        led = suit_of(self.trick[0][1])
        following = [card for card in hand if suit_of(card) == led]
        if trump is None:
            # RULES.md 3.4.1: follow the led suit if able; in Sun a void player plays any card.
            return following if following else list(hand)
        trumps = [card for card in hand if suit_of(card) == trump]
        played = [card for _, card in self.trick]
        winner_index = trick_winner_index(played, trump)
        winner_seat, winning_card = self.trick[winner_index]
        winner_is_partner = winner_seat == partner_of(seat)
        if led == trump:
            # RULES.md 3.4.3: trump led: follow with trump ...
            if not trumps:
                return list(hand)
            rule = self.options["overtrump_on_trump_lead"]
            must_beat = rule == "always" or (rule == "vs_opponent" and not winner_is_partner)
            if must_beat:
                # ... and beat the current winning trump if able.
                higher = [c for c in trumps if trump_strength(c) > trump_strength(winning_card)]
                if higher:
                    return higher
            return trumps
        if following:
            return following  # RULES.md 3.4.1: follow the led suit if able
        # RULES.md 3.4.2: Hokum, void in the led (non-trump) suit.
        if winner_is_partner and self.options["mercy"] == "partner_winning":
            return list(hand)  # the partner is winning: any card
        if not trumps:
            return list(hand)  # void in the led suit and in trump: any card
        if suit_of(winning_card) == trump and not winner_is_partner:
            # An opponent's trump is winning: overtrump if able ...
            higher = [c for c in trumps if trump_strength(c) > trump_strength(winning_card)]
            if higher:
                return higher
            # ... unable: any card (undertrump_required = true: any trump).
            return trumps if self.options["undertrump_required"] else list(hand)
        # No trump played yet (or, with mercy = none, the partner's trump wins): any trump.
        return trumps

    # -- applying actions --------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply ``action`` for the seat to act.

        Raises ValueError if it is not in ``legal_actions()``: a forbidden play is an error, never
        silently corrected (RULES.md 0.5).
        """
        if self.phase in (COMPLETION, OVER):
            raise ValueError(f"no action is possible in phase {self.phase!r}")
        legal = self.legal_actions()
        if not isinstance(action, str) or action not in legal:
            raise ValueError(
                f"illegal action {action!r} in phase {self.phase!r} for seat {self.to_act}; "
                f"legal: {legal}"
            )
        seat = self.to_act
        assert seat is not None
        self.history.append((seat, action))
        if self.phase == AUCTION:
            self.calls.append(action)
            self._apply_auction(seat, action)
        elif self.phase == DOUBLING:
            self.calls.append(action)
            self._apply_doubling(seat, action)
        else:
            self.plays.append(action)
            self._apply_card(seat, action)

    def _apply_auction(self, seat: int, call: str) -> None:
        if self._step in (_CLAIM, _SECOND):
            if call == SUN:
                # A claimer (docs rule 3) or a seat given the second chance (RULES.md 3.2.3
                # second_sun_chance: nobody who passed ahead of him is left to claim it, they were
                # asked first) becomes the buyer, by Sun; the auction ends.
                self._buy(seat, MODE_SUN, trump=None, ashkal=False)
            elif self._step == _CLAIM:
                self._ask_next_claimer()
            else:
                self._ask_second_chance()
            return
        if self._step == _DECIDE:
            if call == CONFIRM:
                self._buy(seat, MODE_HOKUM, trump=self._hokum_suit, ashkal=False)
            else:
                # docs rule 4: a switch to Sun is final, no claims follow.
                self._buy(seat, MODE_SUN, trump=None, ashkal=False)
            return
        # A seat of the round (docs rules 1-3).
        if call == KAWESH:
            # RULES.md 3.2.7: the hand is void; the same dealer redeals (RefMatch).
            self.void = True
            self.kawesh = True
            self._end_hand()
            return
        if call == PASS:
            self._round_passed.append(seat)
        elif call.startswith(HOKUM):
            self._hokum_bidder = seat
            # Round 1: the face-up card's suit (RULES.md 3.2.3); round 2: the named suit (3.2.5).
            self._hokum_suit = suit_of(self.face_up) if call == HOKUM else call.split(":")[1]
        else:
            # docs rule 3 (RULES.md 3.2.3): a Sun or Ashkal call ends the round.
            self._sun_caller = seat
            self._sun_call = call
            if self.options["sun_before_you"]:
                # Every seat earlier in priority than the Sun caller that passed in this round, in
                # priority order (a seat that bid Hokum did not pass, so it is not asked).
                earlier = self.order[: self._index]
                self._claimers = [s for s in earlier if s in self._round_passed]
                if self.options["sun_before_you"] == "opponents":
                    # RULES.md 3.2.3 (K): only the Sun caller's opponents may claim.
                    self._claimers = [s for s in self._claimers if team_of(s) != team_of(seat)]
            self._step = _CLAIM
            self._ask_next_claimer()
            return
        self._index += 1
        if self._index < N_PLAYERS:
            self.to_act = self.order[self._index]
            return
        # The round is over without a Sun call.
        if self._hokum_bidder is not None:
            if self.round == 1 and self.options["second_sun_chance"]:
                # RULES.md 3.2.3 second_sun_chance: the seats that passed before the round-1
                # Hokum are asked again, in priority order, whether they take Sun (with a face-up
                # Ace and p1_only, RULES.md 3.2.4, only P1 may turn the Hokum into Sun).
                before = self.order[: self._position(self._hokum_bidder) - 1]
                self._second = [
                    s for s in before if not self._ace_restricted() or self._position(s) == 1
                ]
                self._step = _SECOND
                self._ask_second_chance()
                return
            # docs rule 4: the Hokum bidder confirms or switches.
            self._step = _DECIDE
            self.to_act = self._hokum_bidder
        elif self.round == 1:
            # RULES.md 3.2.5: all four passed round 1: round 2 starts at P1.
            self.round = 2
            self._index = 0
            self._round_passed = []
            self.to_act = self.order[0]
        else:
            # RULES.md 3.2.5: all passed twice: the hand is void.
            self.void = True
            self._end_hand()

    def _ask_second_chance(self) -> None:
        """Docs rule 4: ask the next seat of the second chance, or go on to the Hokum bidder's
        decision when none is left."""
        if self._second:
            self.to_act = self._second.pop(0)
            return
        self._step = _DECIDE
        self.to_act = self._hokum_bidder

    def _ask_next_claimer(self) -> None:
        """Docs rule 3: ask the next claimer, or let the Sun caller buy when nobody claimed."""
        if self._claimers:
            self.to_act = self._claimers.pop(0)
            return
        assert self._sun_caller is not None
        self._buy(self._sun_caller, MODE_SUN, trump=None, ashkal=self._sun_call == ASHKAL)

    def _buy(self, buyer: int, mode: str, *, trump: str | None, ashkal: bool) -> None:
        """The auction ends: record the buyer; the face-up card goes to its taker (RULES.md
        3.2.6: the buyer, or after Ashkal the buyer's partner); then completion."""
        self.buyer = buyer
        self.mode = mode
        self.trump = trump
        self.ashkal = ashkal
        self.taker = partner_of(buyer) if ashkal else buyer
        self.phase = COMPLETION
        self.to_act = None
        if self._given_completion is not None:
            self.complete(self._given_completion)

    def complete(self, completion: Sequence[Sequence[str]]) -> None:
        """Give the completion cards (RULES.md 3.2.6): 3 to every seat, 2 to the taker of the
        face-up card. Moves the hand on to doubling (or play).

        Raises ValueError outside phase "completion", or for wrong sizes or cards.
        """
        if self.phase != COMPLETION:
            raise ValueError(f"completion is given in phase 'completion', not {self.phase!r}")
        cards = self._check_completion_cards(completion)
        assert self.taker is not None
        for seat in range(N_PLAYERS):
            expected = COMPLETION_TAKER if seat == self.taker else COMPLETION_OTHER
            if len(cards[seat]) != expected:
                raise ValueError(
                    f"completion[{seat}] has {len(cards[seat])} cards, expected {expected} "
                    f"(the face-up card goes to seat {self.taker})"
                )
        self.hands[self.taker].append(self.face_up)
        for seat in range(N_PLAYERS):
            self.hands[seat].extend(cards[seat])
        self._read_projects()
        self._start_doubling()

    def _read_projects(self) -> None:
        """RULES.md 3.5: every player's projects and Baloot, from his eight cards."""
        assert self.mode is not None
        for seat in range(N_PLAYERS):
            self.projects[seat] = read_projects(seat, self.hands[seat], self.mode)
        self.baloot_holders = [
            seat for seat in range(N_PLAYERS) if has_baloot(self.hands[seat], self._trump_suit())
        ]

    def _start_doubling(self) -> None:
        """Docs "Doubling, exactly": who may double, if anyone (RULES.md 3.3.2, 3.3.4)."""
        assert self.buyer is not None
        buyer_team = team_of(self.buyer)
        if not self.options["doubling"]:
            self._start_play()
            return
        if self.mode == MODE_SUN:
            # RULES.md 3.3.2: Sun doubling only when the buyer's team has more than 100 match points
            # and the other team 100 or less.
            gate = (
                self.match_score[buyer_team] > SUN_DOUBLING_GATE
                and self.match_score[1 - buyer_team] <= SUN_DOUBLING_GATE
            )
            if not gate:
                self._start_play()
                return
        # Doubling rule 1: the two opponents of the buyer, in priority order.
        self._double_askers = [seat for seat in self.order if team_of(seat) != buyer_team]
        self.phase = DOUBLING
        self._step = _ASK_DOUBLE
        self.to_act = self._double_askers.pop(0)

    def _apply_doubling(self, seat: int, call: str) -> None:
        assert self.buyer is not None
        if self._step == _ASK_DOUBLE:
            if call == PASS:
                if self._double_askers:
                    self.to_act = self._double_askers.pop(0)
                else:
                    self._start_play()  # both passed: x1
                return
            # The first to double is the doubler; the second opponent is not asked.
            self.doubler = seat
            self.last_raiser = seat
            self.double = 2
            self.closed = call == DOUBLE_CLOSED
            if self.mode == MODE_SUN:
                self._start_play()  # doubling rule 3: in Sun the ladder ends after the double
                return
            self._step = _ASK_TRIPLE
            self.to_act = self.buyer
            return
        if call == PASS:
            self._start_play()  # a pass ends the ladder at the last raise
            return
        if self._step == _ASK_TRIPLE:
            self.double = 3
            self.last_raiser = seat
            self.closed = False  # RULES.md 3.3.1: Triple is open
            self._step = _ASK_FOUR
            self.to_act = self.doubler
            return
        if self._step == _ASK_FOUR:
            self.double = 4
            self.last_raiser = seat
            self.closed = call == FOUR_CLOSED
            self._step = _ASK_GAHWA
            self.to_act = self.buyer
            return
        assert self._step == _ASK_GAHWA
        # Reading: result field "double" stays 4 in a Gahwa hand.
        self.gahwa = True
        self.last_raiser = seat
        self.closed = False  # RULES.md 3.3.1: Gahwa is open
        self._start_play()

    def _start_play(self) -> None:
        """RULES.md 3.2.6: P1 leads the first trick whoever bought."""
        self.phase = PLAY
        self._step = ""
        self.trick = []
        self.to_act = self.order[0]

    def _apply_card(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < N_PLAYERS:
            self.to_act = (seat + 1) % N_PLAYERS
            return
        trump = self._trump_suit()
        played = [c for _, c in self.trick]
        winner = self.trick[trick_winner_index(played, trump)][0]
        self.trick_winners.append(winner)
        self.tricks[team_of(winner)] += 1
        self.card_points[team_of(winner)] += sum(card_points(c, trump) for c in played)
        self.trick = []
        if len(self.trick_winners) < N_TRICKS:
            self.to_act = winner  # the trick winner leads the next trick
            return
        # RULES.md 3.6.1: the last trick is worth 10 more.
        self.card_points[team_of(winner)] += LAST_TRICK_BONUS
        self._score_hand()

    def _score_hand(self) -> None:
        assert self.buyer is not None and self.mode is not None
        team = counted_team(self.projects, self.dealer)
        counted: list[list[str]] = [[], []]
        if team is not None:
            for seat in (team, team + 2):
                counted[team].extend(p.kind for p in self.projects[seat])
        baloots = [0, 0]
        for seat in self.baloot_holders:
            baloots[team_of(seat)] += 1
        kaboot = next((t for t in (0, 1) if self.tricks[t] == N_TRICKS), None)
        raiser_team = None if self.last_raiser is None else team_of(self.last_raiser)
        self._score = score_hand(
            self.mode,
            team_of(self.buyer),
            self.card_points,
            counted,
            baloots,
            self.options,
            kaboot=kaboot,
            double=self.double,
            raiser_team=raiser_team,
            gahwa=self.gahwa,
        )
        self._end_hand()

    def _end_hand(self) -> None:
        self.phase = OVER
        self.to_act = None

    # -- result ------------------------------------------------------------------------------------

    def counted_projects(self) -> list[list[Project]]:
        """The counted projects per team (RULES.md 3.5.1), listed by seat, strongest first."""
        team = counted_team(self.projects, self.dealer)
        listed: list[list[Project]] = [[], []]
        if team is not None:
            for seat in sorted((team, team + 2)):
                listed[team].extend(self.projects[seat])
        return listed

    def result(self) -> dict[str, Any]:
        """Return the hand's result (JSON-compatible, the fields of docs/baloot.md); valid once
        ``phase == "over"``."""
        if self.phase != OVER:
            raise RuntimeError("the hand is not over")
        if self.void:
            points: list[int] = [0, 0]
            made: bool | None = None
            match_winner: int | None = None
            baloot = [0, 0]
            projects: list[list[dict[str, Any]]] = [[], []]
            kaboot = None
        else:
            assert self._score is not None
            points = list(self._score.points)
            made = self._score.made
            match_winner = self._score.match_winner
            baloot = list(self._score.baloot)
            projects = [[p.as_dict() for p in team] for team in self.counted_projects()]
            kaboot = next((t for t in (0, 1) if self.tricks[t] == N_TRICKS), None)
        return {
            "bidder": self.buyer,
            "contract": None,
            "malzoom": False,
            "trump": self._trump_suit(),
            "trick_winners": list(self.trick_winners),
            "tricks": list(self.tricks),
            "made": made,
            "points": list(points),
            "match_winner": match_winner,
            "forced_joker_lead": False,
            "mode": self.mode,
            "buyer": self.buyer,
            "ashkal": self.ashkal,
            "void": self.void,
            "kawesh": self.kawesh,
            "card_points": list(self.card_points),
            "projects": projects,
            "baloot": baloot,
            "kaboot": kaboot,
            "double": self.double,
            "gahwa": self.gahwa,
            "closed": self.closed,
            "game_points": list(points),
        }


# --------------------------------------------------------------------------------------------------
# The match (RULES.md 3.6.6)
# --------------------------------------------------------------------------------------------------


class RefMatch(MatchState):
    """A Baloot match: banks hand results, decides the end of the match and rotates the deal."""

    def __init__(self, preset: str, options: Mapping[str, Any], first_dealer: int) -> None:
        if preset != PRESET:
            raise ValueError(f"the Baloot reference engine plays preset 'baloot', not {preset!r}")
        if not 0 <= first_dealer < N_PLAYERS:
            raise ValueError(f"first dealer seat {first_dealer} out of range for 4 players")
        self.preset: str = PRESET
        self.options: dict[str, Any] = resolve_options(PRESET, options)
        self._start(self.options, first_dealer)
        self.score: list[int] = [0, 0]

    def _bank(self, result: Mapping[str, Any]) -> None:
        # RULES.md 3.2.6 / 3.2.5: the deal passes to dealer + 1 after every hand, void included;
        # 3.2.7: after a Kawesh the same dealer redeals.
        if not result.get("kawesh"):
            self.dealer = (self.dealer + 1) % N_PLAYERS
        if result["match_winner"] is not None:
            # RULES.md 3.6.5: Gahwa (gahwa = match): the winner of the hand wins the match.
            self._finish(int(result["match_winner"]), REASON_GAHWA)
            return
        for team in (0, 1):
            self.score[team] += int(result["points"][team])
        # RULES.md 3.6.6: the first team to the target wins; both on the same hand: the higher
        # total; an exact tie plays another hand.
        reached = [team for team in (0, 1) if self.score[team] >= self.target]
        if len(reached) == 1:
            self._finish(reached[0], REASON_TARGET)
        elif len(reached) == 2 and self.score[0] != self.score[1]:
            self._finish(0 if self.score[0] > self.score[1] else 1, REASON_TARGET)


# --------------------------------------------------------------------------------------------------
# Random play
# --------------------------------------------------------------------------------------------------


def deal(dealer: int, rng: random.Random) -> tuple[list[list[str]], str, list[str]]:
    """Shuffle the deck uniformly; return the first deal (five cards each, from ``dealer + 1``),
    the face-up card and the eleven cards left for the completion, in dealing order."""
    cards = deck()
    rng.shuffle(cards)
    hands: list[list[str]] = [[] for _ in range(N_PLAYERS)]
    for k, seat in enumerate(priority_order(dealer)):
        hands[seat] = cards[FIRST_DEAL * k : FIRST_DEAL * (k + 1)]
    face_up = cards[N_PLAYERS * FIRST_DEAL]
    return hands, face_up, cards[N_PLAYERS * FIRST_DEAL + 1 :]


def completion_from(rest: Sequence[str], dealer: int, taker: int) -> list[list[str]]:
    """Give the eleven remaining cards out from ``dealer + 1``: 3 each, 2 to ``taker``."""
    completion: list[list[str]] = [[] for _ in range(N_PLAYERS)]
    position = 0
    for seat in priority_order(dealer):
        size = COMPLETION_TAKER if seat == taker else COMPLETION_OTHER
        completion[seat] = list(rest[position : position + size])
        position += size
    return completion


def play_random_hand(
    preset: str,
    options: Mapping[str, Any],
    dealer: int,
    rng: random.Random,
    match_score: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Deal a hand uniformly, play it choosing uniformly among the legal actions at every decision,
    and return its result."""
    hands, face_up, rest = deal(dealer, rng)
    hand = RefHand(
        preset, options, dealer, hands, face_up=face_up, completion=None, match_score=match_score
    )
    while hand.phase != OVER:
        if hand.phase == COMPLETION:
            assert hand.taker is not None
            hand.complete(completion_from(rest, dealer, hand.taker))
        else:
            hand.apply(rng.choice(hand.legal_actions()))
    return hand.result()


def resolve_first_dealer(options: Mapping[str, Any], rng: random.Random) -> int:
    """Apply option ``first_dealer``: ``"random"`` or a seat."""
    choice = resolve_options(PRESET, options)["first_dealer"]
    if choice == "random":
        return rng.randrange(N_PLAYERS)
    if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < N_PLAYERS:
        return choice
    raise ValueError(f"bad first_dealer option: {choice!r}")
