"""Reference engine for Kout: Kuwaiti Kout Bo (RULES.md §1) and Bahraini Kout (RULES.md §2).

This is the executable specification that the fast engine is compared against, action by action. It
is plain, slow, obvious Python written directly from ``shared/RULES.md``; it shares no code with the
rest of the package.

Conventions (RULES.md 0.1, 0.2): seats ``0..n-1`` in playing order, the next seat after ``s`` is
``(s + 1) % n``, team = seat parity. Cards are canonical strings (see ``_cards``). Actions are:

* auction: ``"pass"`` or an ``int`` bid;
* trump choice: a suit letter ``"S"``, ``"H"``, ``"D"`` or ``"C"``;
* play: a card string.

Size: one module on purpose: RULES.md sections 1 and 2 written once, clause by clause, as the
independent twin of the numba engine (see :mod:`kout_sim.reference.baloot`).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, SupportsIndex

from ._cards import (
    BH_JOKER,
    BIG_JOKER,
    SMALL_JOKER,
    SUITS,
    draw_value,
    is_joker,
    rank_value,
    suit_of,
    suited_cards,
)
from ._match import MatchState
from .options import resolve_options

Action = str | int
PASS = "pass"

# Phases of a hand.
AUCTION = "auction"
TRUMP = "trump"
PLAY = "play"
OVER = "over"

# Match-end reasons.
REASON_TARGET = "target"
REASON_KOUT = "kout"
REASON_BAWAN_FIRST_HAND = "bawan_first_hand"
REASON_INZILI = "inzili"
REASON_FORCED_JOKER = "forced_joker"

# Named contracts and thresholds.
BAB = 5  # the lowest bid (RULES.md 1.3 / 2.3); a forced Kout Bo Bab is Malzoom
INZILI = 8  # Bahraini Kout: all eight tricks (RULES.md 2.3)
JIKER_ONLY_CONTRACT = 8  # Kout Bo: the bidding team may lead RJ only (RULES.md 1.6(b))
BAWAN = 9  # Kout Bo: all nine tricks (RULES.md 1.3)
MALZOOM_POINTS = 5  # RULES.md 1.10
BAWAN_MADE_POINTS = 36  # RULES.md 1.10
BAWAN_FAILED_POINTS = 18  # RULES.md 1.10
KOUT_POINTS = 51  # RULES.md 1.12(b)

# Families.
KOUT_BO = "kout_bo"
KOUT_BH = "kout_bh"


@dataclass(frozen=True)
class _Preset:
    """The fixed facts of one preset (the table at the top of RULES.md)."""

    name: str
    family: str
    n_players: int
    lowest_rank: str
    missing: tuple[str, ...]
    jokers: tuple[str, ...]
    n_tricks: int  # = cards dealt to each player
    min_bid: int
    max_bid: int

    def deck(self) -> list[str]:
        """Return the preset's cards: suit by suit (S, H, D, C), low to high, then the jokers."""
        return suited_cards(self.lowest_rank, self.missing) + list(self.jokers)


_PRESETS: dict[str, _Preset] = {
    # RULES.md table: 6..A minus 6H 6D, + RJ BJ = 36; 9 cards each; bids 5..9 (RULES.md 1.3).
    "kout_bo_4": _Preset(
        name="kout_bo_4",
        family=KOUT_BO,
        n_players=4,
        lowest_rank="6",
        missing=("6H", "6D"),
        jokers=(BIG_JOKER, SMALL_JOKER),
        n_tricks=9,
        min_bid=5,
        max_bid=9,
    ),
    # RULES.md table: the full 52 + RJ BJ = 54; 9 cards each; bids 5..9 (RULES.md 1.3).
    "kout_bo_6": _Preset(
        name="kout_bo_6",
        family=KOUT_BO,
        n_players=6,
        lowest_rank="2",
        missing=(),
        jokers=(BIG_JOKER, SMALL_JOKER),
        n_tricks=9,
        min_bid=5,
        max_bid=9,
    ),
    # RULES.md table: 7..A minus 7D, + JK = 32; 8 cards each; bids 5..8 (RULES.md 2.3).
    "kout_bh_4": _Preset(
        name="kout_bh_4",
        family=KOUT_BH,
        n_players=4,
        lowest_rank="7",
        missing=("7D",),
        jokers=(BH_JOKER,),
        n_tricks=8,
        min_bid=5,
        max_bid=8,
    ),
    # RULES.md table: 3..A minus 3D, + JK = 48; 8 cards each; bids 5..8 (RULES.md 2.3).
    "kout_bh_6": _Preset(
        name="kout_bh_6",
        family=KOUT_BH,
        n_players=6,
        lowest_rank="3",
        missing=("3D",),
        jokers=(BH_JOKER,),
        n_tricks=8,
        min_bid=5,
        max_bid=8,
    ),
}


def _preset(name: str) -> _Preset:
    """Look up a preset by name; raise ValueError for anything but the four Kout presets."""
    try:
        return _PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset for the Kout reference engine: {name!r}") from None


def deck(preset: str) -> list[str]:
    """Return the cards of ``preset`` (a fresh list, in a fixed canonical order)."""
    return _preset(preset).deck()


def n_players(preset: str) -> int:
    """Return the number of players of ``preset``."""
    return _preset(preset).n_players


def team_of(seat: int) -> int:
    """Return the team of ``seat``: seat parity (RULES.md 0.2)."""
    return seat % 2


def _next_seat_on_team(seat: int, team: int, n: int) -> int:
    """Return "the next seat on team ``team`` after ``seat``" (RULES.md 0.2).

    That is ``seat + 1`` if that seat is on ``team``, else ``seat + 2`` (mod ``n``).
    """
    if team_of((seat + 1) % n) == team:
        return (seat + 1) % n
    return (seat + 2) % n


def _canonical_action(action: object) -> Action | None:
    """Return ``action`` as a ``str`` or a plain ``int`` (an int-like bid, such as a numpy integer,
    becomes an int); None for anything else (floats, bools, ...), which is never legal."""
    if isinstance(action, str):
        return action
    if isinstance(action, bool):
        return None
    if isinstance(action, SupportsIndex):
        return operator.index(action)
    return None


# --------------------------------------------------------------------------------------------------
# One hand
# --------------------------------------------------------------------------------------------------


class RefHand:
    """One hand of Kout, from the auction to the end of play.

    Parameters
    ----------
    preset
        ``"kout_bo_4"``, ``"kout_bo_6"``, ``"kout_bh_4"`` or ``"kout_bh_6"``.
    options
        The options as given; ``resolve_options`` fills in the defaults (RULES.md 1.2, 1.6,
        1.11, 1.12(c), 2.2, 2.11).
    dealer
        The dealer's seat.
    hands
        ``n`` lists of card strings as dealt, in seat order.

    Public state (read-only by convention): ``phase``, ``to_act``, ``hands`` (cards still held),
    ``bids`` (``(seat, action)`` in auction order), ``bidder``, ``contract``, ``malzoom``,
    ``trump``, ``trick`` (the ``(seat, card)`` plays of the trick in progress), ``led_suit``,
    ``rankless_lead``, ``trick_winners``, ``tricks`` (per team) and ``history`` (every
    ``(seat, action)`` applied).
    """

    def __init__(
        self, preset: str, options: Mapping[str, Any], dealer: int, hands: Sequence[Sequence[str]]
    ) -> None:
        self._preset = _preset(preset)
        self.preset: str = self._preset.name
        self.options: dict[str, Any] = resolve_options(self.preset, options)
        self.n: int = self._preset.n_players
        self.is_bo: bool = self._preset.family == KOUT_BO
        self._validate_deal(dealer, hands)
        self.dealer: int = dealer
        self.hands: list[list[str]] = [list(hand) for hand in hands]
        # RULES.md 1.11: only Kout Bo has option play_all_tricks; Bahraini Kout stops early (2.9).
        self.play_all_tricks: bool = self.is_bo and bool(self.options["play_all_tricks"])

        # Auction state (RULES.md 1.3 / 2.3).
        self.bids: list[tuple[int, Action]] = []
        self.bidder: int | None = None
        self.contract: int | None = None
        self.malzoom: bool = False
        self.trump: str | None = None

        # Play state.
        self.trick: list[tuple[int, str]] = []
        self.led_suit: str | None = None
        # RULES.md 1.8: the card led to the trick in progress is a rankless joker.
        self.rankless_lead: bool = False
        self.trick_winners: list[int] = []
        self.tricks: list[int] = [0, 0]
        self.completed_cards: set[str] = set()  # cards in completed tricks, for RULES.md 1.6(c)
        self.forced_joker_lead: bool = False
        self.match_winner: int | None = None
        self.made: bool | None = None
        self.points: list[int] = [0, 0]
        self.history: list[tuple[int, Action]] = []

        # RULES.md 1.3 / 2.3: the auction opens at the dealer's right, dealer + 1.
        self.phase: str = AUCTION
        self.to_act: int | None = (dealer + 1) % self.n

    def _validate_deal(self, dealer: int, hands: Sequence[Sequence[str]]) -> None:
        """Cheap sanity checks on the deal (the caller is expected to have validated it already)."""
        if not 0 <= dealer < self.n:
            raise ValueError(f"dealer seat {dealer} out of range for {self.n} players")
        if len(hands) != self.n or any(len(hand) != self._preset.n_tricks for hand in hands):
            raise ValueError(f"{self.preset} deals {self.n} hands of {self._preset.n_tricks} cards")
        cards = [card for hand in hands for card in hand]
        if sorted(cards) != sorted(self._preset.deck()):
            raise ValueError(f"the hands are not a deal of the {self.preset} deck")

    # -- small helpers -----------------------------------------------------------------------------

    def _bidding_team(self) -> int:
        assert self.bidder is not None
        return team_of(self.bidder)

    def _contract(self) -> int:
        assert self.contract is not None
        return self.contract

    def _trump(self) -> str:
        assert self.trump is not None
        return self.trump

    # -- legal actions -----------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Return the legal actions of the seat to act ([] once the hand is over).

        Auction: ``"pass"`` first (when allowed), then the allowed bids in increasing order. Trump:
        suit letters in ``S H D C`` order. Play: card strings in the order the player was dealt
        them.
        """
        if self.phase == AUCTION:
            return self._legal_auction()
        if self.phase == TRUMP:
            return self._legal_trump()
        if self.phase == PLAY:
            return list(self._legal_cards())  # list[str] -> list[Action]
        return []

    def _legal_auction(self) -> list[Action]:
        # RULES.md 1.3 / 2.3: a bid must be higher than the standing bid, within min_bid..max_bid.
        lowest = self._preset.min_bid if self.contract is None else self.contract + 1
        bids: list[Action] = list(range(lowest, self._preset.max_bid + 1))
        # RULES.md 1.3 / 2.3: if the first n-1 seats all passed, the dealer (the n-th speaker) may
        # not pass.
        dealer_forced = len(self.bids) == self.n - 1 and self.contract is None
        if dealer_forced:
            return bids
        return [PASS, *bids]

    def _legal_trump(self) -> list[Action]:
        if self.is_bo:
            # RULES.md 1.4: the bidder names any of the four suits.
            return list(SUITS)
        # RULES.md 2.4: a suit the bidder holds at least one card of.
        assert self.bidder is not None
        held = {suit_of(card) for card in self.hands[self.bidder] if not is_joker(card)}
        return [suit for suit in SUITS if suit in held]

    def _legal_cards(self) -> list[str]:
        assert self.to_act is not None
        hand = self.hands[self.to_act]
        if not self.trick:
            return self._legal_leads(self.to_act, hand)
        return self._legal_follows(hand)

    def _legal_leads(self, seat: int, hand: list[str]) -> list[str]:
        non_jokers = [card for card in hand if not is_joker(card)]
        if not self.is_bo:
            # RULES.md 2.8: the joker may not be led while its holder has any other card. (A hand of
            # only the joker never reaches this point: the hand ended at the start of the trick, see
            # _start_trick.)
            return non_jokers
        # RULES.md 1.6: a joker may be led only when (a), (b) or (c) holds; any suited card may be
        # led.
        leadable_jokers = [
            card for card in hand if is_joker(card) and self._joker_lead_allowed(seat, card)
        ]
        legal = [card for card in hand if not is_joker(card) or card in leadable_jokers]
        if legal:
            return legal
        # RULES.md 1.8: the leader holds nothing but jokers, none of which he may lead: he must lead
        # one anyway (any of them).
        return list(hand)

    def _joker_lead_allowed(self, seat: int, joker: str) -> bool:
        """RULES.md 1.6: may ``seat`` lead ``joker`` now?"""
        contract = self._contract()
        trump = self._trump()
        # RULES.md 1.6, option joker_lead_scope: "bidding_team" limits (a) and (b) to the bidding
        # team, "anyone" applies them to every seat.
        scope_ok = (
            self.options["joker_lead_scope"] == "anyone" or team_of(seat) == self._bidding_team()
        )
        # RULES.md 1.6(a): contract 9, leader on the bidding team: either joker.
        if scope_ok and contract == BAWAN:
            return True
        # RULES.md 1.6(b): contract 8, leader on the bidding team: RJ only.
        if scope_ok and contract == JIKER_ONLY_CONTRACT and joker == BIG_JOKER:
            return True
        # RULES.md 1.6(c): trump A, K, Q and J all played in completed tricks: either joker, by
        # anyone.
        honours = [rank + trump for rank in "AKQJ"]
        return all(card in self.completed_cards for card in honours)

    def _legal_follows(self, hand: list[str]) -> list[str]:
        led = self.led_suit
        if led is None:
            # RULES.md 1.8: after a rankless joker lead, until the first non-joker card is played
            # there is no led suit to follow: any card is legal.
            return list(hand)
        # RULES.md 1.5 / 2.6: follow the led suit if able; a void player plays any card. RULES.md
        # 1.7: after a legal Kout Bo joker lead the led suit is trump, so "follow" means "play trump
        # if you hold trump".
        following = [card for card in hand if not is_joker(card) and suit_of(card) == led]
        if not following:
            return list(hand)
        # RULES.md 1.5 / 1.7 / 2.6: a joker is always legal when following, even holding the led
        # suit.
        return [card for card in hand if is_joker(card) or card in following]

    # -- applying actions --------------------------------------------------------------------------

    def apply(self, action: object) -> None:
        """Apply ``action`` for the seat to act.

        Raises ValueError if it is not in ``legal_actions()``: a forbidden play is an error, never
        silently corrected (RULES.md 0.5).
        """
        canonical = _canonical_action(action)
        if canonical is None or canonical not in self.legal_actions():
            raise ValueError(
                f"illegal action {action!r} in phase {self.phase!r} for seat {self.to_act}"
            )
        seat = self.to_act
        assert seat is not None
        self.history.append((seat, canonical))
        if self.phase == AUCTION:
            assert isinstance(canonical, int) or canonical == PASS
            self._apply_bid(seat, canonical)
        elif self.phase == TRUMP:
            assert isinstance(canonical, str)
            self._apply_trump(canonical)
        else:
            assert isinstance(canonical, str)
            self._apply_card(seat, canonical)

    def _apply_bid(self, seat: int, action: Action) -> None:
        dealer_forced = len(self.bids) == self.n - 1 and self.contract is None
        self.bids.append((seat, action))
        if action != PASS:
            assert isinstance(action, int)
            self.contract = action
            self.bidder = seat
            # RULES.md 1.3: a forced dealer bid of exactly 5 is Malzoom (Kout Bo only; RULES.md 2.3:
            # a forced Bab scores like any Bab in Bahraini Kout).
            self.malzoom = self.is_bo and dealer_forced and action == BAB
        if len(self.bids) == self.n:
            # RULES.md 1.3 / 2.3: one pass around the table; the highest bidder is the bidder.
            self.phase = TRUMP
            self.to_act = self.bidder
        else:
            self.to_act = (seat + 1) % self.n

    def _apply_trump(self, suit: str) -> None:
        self.trump = suit
        self.phase = PLAY
        assert self.bidder is not None
        if self.is_bo:
            # RULES.md 1.4: the bidder leads the first trick himself.
            self._start_trick(self.bidder)
        else:
            # RULES.md 2.5: the first lead is bidder + 1.
            self._start_trick((self.bidder + 1) % self.n)

    def _start_trick(self, leader: int) -> None:
        self.trick = []
        self.led_suit = None
        self.rankless_lead = False
        self.to_act = leader
        if not self.is_bo and self.hands[leader] == [BH_JOKER]:
            # RULES.md 2.8: the leader's only card is the joker: it is forced onto the table and the
            # other team wins the whole match at once; no trick and no hand score are recorded.
            self.forced_joker_lead = True
            self.match_winner = 1 - team_of(leader)
            self.made = None
            self.points = [0, 0]
            self._end_hand()

    def _apply_card(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        if not self.trick:
            if is_joker(card):
                # Only Kout Bo jokers are ever led (RULES.md 2.8 forbids the Bahraini lead).
                if self._joker_lead_allowed(seat, card):
                    # RULES.md 1.7: a legal joker lead is a trump lead.
                    self.led_suit = self._trump()
                else:
                    # RULES.md 1.8: an unleadable joker led perforce is rankless; no led suit yet.
                    self.rankless_lead = True
                    self.led_suit = None
            else:
                self.led_suit = suit_of(card)
        elif self.led_suit is None and not is_joker(card):
            # RULES.md 1.8: the first non-joker card played to the trick sets the led suit.
            self.led_suit = suit_of(card)
        self.trick.append((seat, card))
        if len(self.trick) == self.n:
            self._complete_trick()
        else:
            self.to_act = (seat + 1) % self.n

    def _strength(self, card: str) -> int:
        """Strength of ``card`` in the current trick: larger wins; 0 for a card that cannot win."""
        trump = self._trump()
        led = self.led_suit
        if self.is_bo:
            # RULES.md 1.1: RJ > trump A > BJ > trump K, Q, J, ... > led suit > others (never win).
            if card == BIG_JOKER:
                return 300
            if card == "A" + trump:
                return 299
            if card == SMALL_JOKER:
                return 298
        elif card == BH_JOKER:
            # RULES.md 2.7: the joker wins any trick it is in.
            return 300
        if suit_of(card) == trump:
            # RULES.md 1.1 / 2.7: then the highest trump.
            return 200 + rank_value(card)
        if suit_of(card) == led:
            # RULES.md 1.1 / 2.7: else the highest card of the led suit.
            return 100 + rank_value(card)
        return 0

    def _trick_winner(self) -> int:
        contenders = self.trick
        if self.rankless_lead:
            # RULES.md 1.8: the rankless joker never wins; the strongest of the others does.
            contenders = self.trick[1:]
        best_seat, _ = max(contenders, key=lambda play: self._strength(play[1]))
        return best_seat

    def _complete_trick(self) -> None:
        winner = self._trick_winner()
        self.trick_winners.append(winner)
        self.tricks[team_of(winner)] += 1
        self.completed_cards.update(card for _, card in self.trick)
        if self._outcome_fixed() and not self.play_all_tricks:
            # RULES.md 1.11 / 2.9: play stops as soon as the result is fixed.
            self._score_hand()
            return
        if len(self.trick_winners) == self._preset.n_tricks:
            self._score_hand()
            return
        # RULES.md 1.9: the trick winner leads the next trick (RULES.md 2.9: the early stop above
        # was checked first, then _start_trick checks for a forced joker lead).
        self._start_trick(winner)

    def _outcome_fixed(self) -> bool:
        """RULES.md 1.11 / 2.9: is the outcome fixed?

        It is once the bidding team reached the bid, or the defenders took ``n_tricks - bid + 1``.
        """
        contract = self._contract()
        bidding = self._bidding_team()
        # 10 - bid in Kout Bo (9 tricks), 9 - bid in Bahraini Kout (8 tricks).
        defenders_needed = self._preset.n_tricks - contract + 1
        return self.tricks[bidding] >= contract or self.tricks[1 - bidding] >= defenders_needed

    def _score_hand(self) -> None:
        contract = self._contract()
        bidding = self._bidding_team()
        defenders = 1 - bidding
        # RULES.md 1.10: "made" means the bidding team took at least the bid.
        self.made = self.tricks[bidding] >= contract
        points = [0, 0]
        if self.is_bo:
            # RULES.md 1.10: the hand score table; exactly one team scores.
            if self.malzoom:
                made_value, failed_value = MALZOOM_POINTS, MALZOOM_POINTS
            elif contract == BAWAN:
                made_value, failed_value = BAWAN_MADE_POINTS, BAWAN_FAILED_POINTS
            else:
                made_value, failed_value = contract, 2 * contract
            if self.made:
                points[bidding] = made_value
            else:
                points[defenders] = failed_value
        elif contract == INZILI:
            # RULES.md 2.10: a made Inzili wins the match at once, a failed one loses it; the
            # counter does not move.
            self.match_winner = bidding if self.made else defenders
        elif self.made:
            # RULES.md 2.10: made 5/6/7 scores 5/6/7 for the bidding team.
            points[bidding] = contract
        else:
            # RULES.md 2.10: failed 5/6/7 gives the other team 10/12/14.
            points[defenders] = 2 * contract
        self.points = points
        self._end_hand()

    def _end_hand(self) -> None:
        self.phase = OVER
        self.to_act = None

    # -- result ------------------------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """Return the hand's result (JSON-compatible); valid once ``phase == "over"``."""
        if self.phase != OVER:
            raise RuntimeError("the hand is not over")
        return {
            "bidder": self.bidder,
            "contract": self.contract,
            "malzoom": self.malzoom,
            "trump": self.trump,
            "trick_winners": list(self.trick_winners),
            "tricks": list(self.tricks),
            "made": self.made,
            "points": list(self.points),
            "match_winner": self.match_winner,
            "forced_joker_lead": self.forced_joker_lead,
        }


# --------------------------------------------------------------------------------------------------
# The match
# --------------------------------------------------------------------------------------------------


def _owner(score: int) -> int | None:
    """RULES.md 2.12: owner of the signed score: team 0 if > 0, team 1 if < 0, nobody if 0."""
    if score > 0:
        return 0
    if score < 0:
        return 1
    return None


class RefMatch(MatchState):
    """A match: banks hand results, decides the end of the match and rotates the deal.

    ``score`` is ``[team0, team1]`` in Kout Bo and a signed ``int`` in Bahraini Kout (team 0 up,
    team 1 down).
    """

    def __init__(self, preset: str, options: Mapping[str, Any], first_dealer: int) -> None:
        self._preset = _preset(preset)
        self.preset: str = self._preset.name
        self.options: dict[str, Any] = resolve_options(self.preset, options)
        self.n: int = self._preset.n_players
        self.is_bo: bool = self._preset.family == KOUT_BO
        if not 0 <= first_dealer < self.n:
            raise ValueError(f"first dealer seat {first_dealer} out of range for {self.n} players")
        self._start(self.options, first_dealer)
        self.score: list[int] | int = [0, 0] if self.is_bo else 0

    def _bank(self, result: Mapping[str, Any]) -> None:
        if self.is_bo:
            self._apply_bo(result)
        else:
            self._apply_bh(result)

    def _apply_bo(self, result: Mapping[str, Any]) -> None:
        score = self.score
        assert isinstance(score, list)
        points = result["points"]
        for team in (0, 1):
            score[team] += int(points[team])
        bidding = team_of(int(result["bidder"]))
        # RULES.md 1.12, checked in order after each hand; the first that holds decides the match.
        if self.n_hands == 1 and result["contract"] == BAWAN and result["made"]:
            # RULES.md 1.12(a): a Bawan made on the first hand of the match wins it at once.
            self._finish(bidding, REASON_BAWAN_FIRST_HAND)
        else:
            for team in (0, 1):
                # RULES.md 1.12(b): Kout: a team at 51 or more while the other has exactly 0.
                if score[team] >= KOUT_POINTS and score[1 - team] == 0:
                    self._finish(team, REASON_KOUT)
                    break
            else:
                for team in (0, 1):
                    # RULES.md 1.12(c): the first team to reach the target.
                    if score[team] >= self.target:
                        self._finish(team, REASON_TARGET)
                        break
        # RULES.md 1.2: after every hand the deal passes to dealer + 1.
        self.dealer = (self.dealer + 1) % self.n

    def _apply_bh(self, result: Mapping[str, Any]) -> None:
        score = self.score
        assert isinstance(score, int)
        points = result["points"]
        owner_before = _owner(score)
        # RULES.md 2.10: one signed counter: team 0's points add, team 1's subtract.
        score += int(points[0]) - int(points[1])
        self.score = score
        owner_after = _owner(score)
        match_winner = result["match_winner"]
        if match_winner is not None:
            # RULES.md 2.10 (Inzili) / 2.8 (forced joker lead): the hand itself ends the match; the
            # counter did not move. For rotation the round winner is the team that won the match.
            round_winner = int(match_winner)
            self._finish(
                round_winner, REASON_FORCED_JOKER if result["forced_joker_lead"] else REASON_INZILI
            )
        else:
            # RULES.md 2.12: the round winner is the team that scored the hand.
            round_winner = 0 if int(points[0]) > 0 else 1
            if abs(score) >= self.target:
                # RULES.md 2.11: the match ends when |score| reaches the target; the owner wins.
                assert owner_after is not None
                self._finish(owner_after, REASON_TARGET)
        self.dealer = self._rotate_bh(owner_before, owner_after, round_winner)

    def _rotate_bh(
        self, owner_before: int | None, owner_after: int | None, round_winner: int
    ) -> int:
        """RULES.md 2.12: the next dealer, ownership read after the hand's points."""
        dealer = self.dealer
        dealer_team = team_of(dealer)
        # RULES.md 2.12(a): ownership flipped from one team directly to the other (a change to or
        # from 0 is not a flip): the deal passes to the next seat on the team opposite the new
        # owner.
        if owner_before is not None and owner_after is not None and owner_before != owner_after:
            return _next_seat_on_team(dealer, 1 - owner_after, self.n)
        # RULES.md 2.12(b): the dealer's team won the round and the score is 0 or owned by the other
        # team: the dealer deals again.
        if round_winner == dealer_team and owner_after != dealer_team:
            return dealer
        # RULES.md 2.12(c): otherwise the next seat on the team opposite the round winner.
        return _next_seat_on_team(dealer, 1 - round_winner, self.n)


# --------------------------------------------------------------------------------------------------
# Dealer draw and random play
# --------------------------------------------------------------------------------------------------


class Shuffler(Protocol):
    """What the low draw needs of a random source: ``random.Random`` or a seeded
    :class:`kout_sim.reference.stream.Stream`."""

    def shuffle(self, cards: list[str], /) -> None:
        """Shuffle ``cards`` in place."""


def draw_first_dealer(preset: str, rng: Shuffler) -> int:
    """Choose the first dealer by the low-card draw of RULES.md 1.2 / 2.2 and return the seat
    (:func:`low_draw` from this module's deck order)."""
    return low_draw(deck(preset), n_players(preset), rng)


def low_draw(cards: list[str], n: int, rng: Shuffler) -> int:
    """The low-card draw of RULES.md 1.2 / 2.2 among ``n`` seats from ``cards`` (shuffled here).

    Every seat draws a card from the shuffled deck; the lowest rank deals (a joker counts 15, above
    the Ace); the seats tied for lowest draw again from the rest of the deck. Should fewer cards be
    left than there are seats (practically never), the whole deck is reshuffled and the tied seats
    draw from it.
    """
    rng.shuffle(cards)
    used = 0
    contenders = list(range(n))
    while True:
        if used + n > len(cards):  # the deck ran out: reshuffle it
            rng.shuffle(cards)
            used = 0
        drawn = {seat: draw_value(cards[used + k]) for k, seat in enumerate(contenders)}
        used += len(contenders)
        lowest = min(drawn.values())
        contenders = [seat for seat in contenders if drawn[seat] == lowest]
        if len(contenders) == 1:
            return contenders[0]


def deal(preset: str, dealer: int, rng: random.Random) -> list[list[str]]:
    """Shuffle the deck uniformly; deal one card at a time from ``dealer + 1`` (RULES.md 0.4)."""
    n = n_players(preset)
    cards = deck(preset)
    rng.shuffle(cards)
    hands: list[list[str]] = [[] for _ in range(n)]
    for idx, card in enumerate(cards):
        hands[(dealer + 1 + idx) % n].append(card)
    return hands


def play_random_hand(
    preset: str, options: Mapping[str, Any], dealer: int, rng: random.Random
) -> dict[str, Any]:
    """Deal a hand, play it choosing uniformly among the legal actions, and return its result."""
    hand = RefHand(preset, options, dealer, deal(preset, dealer, rng))
    while hand.phase != OVER:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand.result()


def resolve_first_dealer(preset: str, options: Mapping[str, Any], rng: random.Random) -> int:
    """Apply option ``first_dealer`` (RULES.md 1.2 / 2.2): "low_draw", "random" or a seat."""
    choice = resolve_options(preset, options)["first_dealer"]
    if choice == "low_draw":
        return draw_first_dealer(preset, rng)
    if choice == "random":
        return rng.randrange(n_players(preset))
    if isinstance(choice, int) and not isinstance(choice, bool):
        return choice
    raise ValueError(f"bad first_dealer option: {choice!r}")
