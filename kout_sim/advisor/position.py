"""Read a partial hand record for the advisor: the advising seat's cards known, the others ``null``.

The engine needs every hand to replay a record, so the unknown hands get a *placeholder*: one deal
of the cards the advising seat cannot see that replays the record legally. It is built on the way,
action by action: whenever the current placeholder would make another seat's recorded action
illegal (a card it does not hold, a failure to follow while holding the suit, a Bahraini trump it
does not hold), the hidden cards are dealt again by the exact sampler
(:func:`kout_sim.players.sampler.determinize`, from the advising seat's point of view, so every
fact the record has shown so far holds) until the action is legal. The placeholder is never used
as information: the advisor samples its deals afresh from the final position, and what the record
has shown about the hands travels in the engine's public state (``S_VOIDS``, the trick counters),
which does not depend on the placeholder.

A record with every hand given is replayed as it is (one known deal: nothing is sampled).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import cards as C
from ..engine import baloot as EB
from ..engine import kout as EK
from ..engine import layout as L
from ..engine.rng import seed_stream
from ..engine.step import NumbaHand
from ..errors import IllegalAction, InvalidRecord
from ..players.sampler import determinize
from ..replay import (
    _call_reason,
    _card,
    _card_reason,
    _list_field,
    _match_score,
    _need,
    _norm_call,
    _once,
    _rules_of,
    _run_hand,
    _seat,
    _seat_cards,
    _seat_lists,
    _sorted_actions,
    get_engine,
)
from ..rules import Rules

MAX_TRIES = 200_000
"""Redeals of the hidden cards tried to make one recorded action of another seat legal."""
LANE_PLACEHOLDER = 7
"""Random lane of the placeholder deal (the advisor's samples use lanes of their own)."""


@dataclass
class Position:
    """The decision to advise: the state after the record, and what the advising seat knows.

    ``S`` holds a deal consistent with the record (every hand, when ``known``; else a placeholder
    for the hidden ones: see the module notes). ``plays`` lists every card played, with its seat.
    """

    rules: Rules
    S: np.ndarray
    seat: int
    known: bool
    plays: list[tuple[int, int]] = field(default_factory=list)
    match_score: tuple[int, int] = (0, 0)

    @property
    def phase(self) -> str:
        """The phase of the hand at the decision, by name."""
        return L.PHASE_NAMES[int(self.S[L.S_PHASE])]


def _legal_mask(S: np.ndarray, P: np.ndarray, STR: np.ndarray, baloot: bool) -> int:
    if baloot:
        return int(EB.legal_mask(S, P, STR))
    return int(EK.legal_mask(S, P, STR))


def _hands_field(
    record: Mapping[str, Any], key: str, rules: Rules, sizes: list[int], seen: dict[int, str]
) -> list[list[int] | None]:
    """``record[key]``: ``n`` hands, each a list of card texts or ``null`` (unknown)."""
    out: list[list[int] | None] = []
    for seat, hand in enumerate(_seat_lists(_need(record, key, "record"), rules, "record", key)):
        if hand is None:
            out.append(None)
            continue
        kind = "a list of card texts or null"
        out.append(_seat_cards(hand, rules, "record", key, seat, sizes, seen, kind=kind))
    return out


def read_position(record: Any, seat: int | None = None, seed: int = 0) -> Position:
    """The position a (partial) hand record stops at, for the advisor.

    Raises
    ------
    InvalidRecord
        A malformed record, an unknown advising hand, or a record that stops where the advising
        seat is not to act.
    IllegalAction
        A recorded action no deal of the unknown hands makes legal.
    """
    rules = _rules_of(record)
    dealer = _seat(_need(record, "dealer", "record"), rules, "record.dealer")
    if seat is not None:
        seat = _seat(seat, rules, "seat")
    baloot = rules.is_baloot
    n = rules.n_players
    seen: dict[int, str] = {}
    first = 5 if baloot else rules.n_tricks
    hands = _hands_field(record, "hands", rules, [first] * n, seen)
    given = [s for s in range(n) if hands[s] is not None]
    if len(given) == n:
        pos = _replay_known(record, rules, dealer)
        _check_to_act(pos, seat)
        return pos
    if len(given) != 1:
        raise InvalidRecord(
            "record.hands: give every hand, or only the advising seat's with null for the others "
            f"(hands given for seats {given})"
        )
    observer = given[0]
    if seat is not None and seat != observer:
        raise InvalidRecord(
            f"record.hands[{seat}] is null: the advisor needs the advising seat's own cards"
        )
    rng = np.zeros(4, dtype=np.uint64)
    seed_stream(rng, seed, 0, LANE_PLACEHOLDER)
    replay = _Replay(record, rules, dealer, observer, hands, seen, rng, seed)
    pos = replay.run()
    _check_to_act(pos, observer)
    return pos


def _replay_known(record: Mapping[str, Any], rules: Rules, dealer: int) -> Position:
    hand = _run_hand(record, rules, dealer, get_engine("numba"), "record", "")
    S = np.array(hand.S, dtype=np.int64)  # type: ignore[attr-defined]
    score = _match_score(record, "record") if rules.is_baloot else (0, 0)
    to_act = int(S[L.S_TO_ACT])
    plays = _plays_with_seats(record, rules, dealer, S)
    return Position(rules, S, to_act, True, plays, score)


def _plays_with_seats(
    record: Mapping[str, Any], rules: Rules, dealer: int, S: np.ndarray
) -> list[tuple[int, int]]:
    """The seat of every recorded card play, from the trick winners of the replayed state."""
    n = rules.n_players
    texts = _list_field(record, "plays", "record")
    baloot = rules.is_baloot
    if baloot:
        leader = (dealer + 1) % n  # RULES.md 3.2.6
    else:
        bidder = int(S[L.S_BIDDER])
        leader = (bidder + int(NumbaHand.from_state(rules, S).P[L.P_FIRST_LEAD])) % n
    out: list[tuple[int, int]] = []
    for i, text in enumerate(texts):
        trick, k = divmod(i, n)
        if k == 0 and trick > 0:
            leader = int(S[L.S_WINNERS + trick - 1])
        out.append(((leader + k) % n, C.parse_card(text)))
    return out


def _check_to_act(pos: Position, seat: int | None) -> None:
    phase = pos.phase
    if phase == "over":
        raise InvalidRecord("record: the hand is over; there is no decision to advise")
    to_act = int(pos.S[L.S_TO_ACT])
    if seat is not None and to_act != seat:
        raise InvalidRecord(
            f"record: seat {seat} is not to act: the record stops at seat {to_act}'s "
            f"{'card' if phase == 'play' else 'call'} ({phase} phase)"
        )
    pos.seat = to_act


class _Replay:
    """Drive the numba engine through a partial record with a placeholder for the hidden hands."""

    def __init__(
        self,
        record: Mapping[str, Any],
        rules: Rules,
        dealer: int,
        observer: int,
        hands: list[list[int] | None],
        seen: dict[int, str],
        rng: np.ndarray,
        seed: int,
    ) -> None:
        self.record = record
        self.rules = rules
        self.observer = observer
        self.rng = rng
        self.baloot = rules.is_baloot
        self.family = rules.family
        self.n = rules.n_players
        self.seen = seen
        own = C.mask_of(hands[observer] or [])
        self.own_texts = set(C.format_mask(own))
        self.score = _match_score(record, "record") if self.baloot else (0, 0)
        hidden = rules.deck_mask & ~own
        self.face_up = -1
        if self.baloot:
            self.face_up = _card(_need(record, "face_up", "record"), rules, "record.face_up")
            _once(self.face_up, "face_up", seen, "record")
            hidden &= ~(1 << self.face_up)
        cards = np.array(C.cards_of(hidden), dtype=np.int64)
        cards = cards[np.random.default_rng(seed).permutation(len(cards))]
        size = 5 if self.baloot else rules.n_tricks
        masks = [0] * self.n
        k = 0
        for s in range(self.n):
            if s == observer:
                masks[s] = own
                continue
            masks[s] = C.mask_of(int(c) for c in cards[k : k + size])
            k += size
        face = None if not self.baloot else self.face_up
        self.hand = NumbaHand(rules, dealer, masks, face_up=face, match_score=self.score)
        self.S = self.hand.S
        self.P, self.STR = self.hand.P, self.hand.STR
        self.n_action = 0
        self.plays: list[tuple[int, int]] = []
        self.played: list[str] = []
        self.completion: list[list[int] | None] | None = None
        if self.baloot and self.record.get("completion") is not None:
            self.completion = _hands_field(record, "completion", rules, [-1] * 4, seen)
            if self.completion[observer] is None:
                raise InvalidRecord(
                    f"record.completion[{observer}] is null: the advisor needs the advising "
                    "seat's own completion cards"
                )
            if any(c is not None for s, c in enumerate(self.completion) if s != observer):
                raise InvalidRecord(
                    "record.completion: give every seat's completion, or only the advising "
                    "seat's with null for the others"
                )

    # ---- one action ----------------------------------------------------------------------------

    def _legal(self, S: np.ndarray) -> int:
        return _legal_mask(S, self.P, self.STR, self.baloot)

    def _redeal_until(self, idx: int) -> bool:
        """Deal the hidden cards again until the phase-relative action ``idx`` is legal."""
        tmp = np.empty_like(self.S)
        for _ in range(MAX_TRIES):
            if determinize(self.S, self.P, self.STR, self.observer, self.rng, tmp) < 0:
                return False
            if (self._legal(tmp) >> idx) & 1:
                self.S[:] = tmp
                return True
        return False

    def act(self, action: Any, index: str, card: bool = False) -> None:
        hand = self.hand
        idx = hand._index(action)
        seat = int(self.S[L.S_TO_ACT])
        legal_now = self._legal(self.S)
        if not (legal_now >> idx) & 1:
            ok = False
            if seat != self.observer and not (card and action in self.own_texts):
                ok = self._redeal_until(idx)
            if not ok:
                self._illegal(action, index, seat, card)
        hand.apply(action)
        self.n_action += 1

    def _illegal(self, action: Any, index: str, seat: int, card: bool) -> None:
        trick = None
        where = f"{index} (action {self.n_action})"
        if seat == self.observer:
            legal = _sorted_actions(self.hand.legal_actions())
        else:
            legal = ["(depends on the unknown hands)"]
        reason = None
        if card:
            trick = len(self.played) // self.n + 1
            place = len(self.played) % self.n + 1
            where = f"{index} (action {self.n_action}; trick {trick}, card {place})"
            dealt: list[set[str]] = [set() for _ in range(self.n)]
            dealt[self.observer] = set(self.own_texts)
            mine = self.completion[self.observer] if self.completion is not None else None
            if mine is not None:
                dealt[self.observer] |= set(C.format_mask(C.mask_of(mine)))
            if self.baloot and self.S[L.B_TAKER] == self.observer:
                dealt[self.observer].add(C.format_card(self.face_up))
            if seat == self.observer:
                reason = _card_reason(self.family, seat, action, dealt, self.played, legal)
            elif action in dealt[self.observer]:
                reason = f"seat {self.observer} (the advising seat) holds {action}"
            elif action in self.played:
                reason = f"{action} was already played (plays[{self.played.index(action)}])"
            else:
                reason = (
                    "no deal of the unknown hands consistent with the record so far lets seat "
                    f"{seat} play it (what its earlier plays showed, RULES.md 1.5, 2.6, 3.4)"
                )
        elif seat == self.observer:
            reason = _call_reason(self.family, action, legal)
        else:
            reason = "no deal of the unknown hands makes this call legal (RULES.md 2.4)"
        raise IllegalAction(where, seat, action, legal, trick=trick, reason=reason)

    # ---- the record ----------------------------------------------------------------------------

    def _complete(self) -> None:
        """Baloot: the advising seat's recorded completion, the others' from the hidden cards."""
        if self.completion is None:
            raise InvalidRecord(
                "record.completion is missing: the auction is over; give the advising seat's "
                "completion cards (null for the others)"
            )
        sizes = self.hand.completion_sizes()
        mine = self.completion[self.observer] or []
        if len(mine) != sizes[self.observer]:
            raise InvalidRecord(
                f"record.completion[{self.observer}] has {len(mine)} cards; seat {self.observer} "
                f"receives {sizes[self.observer]}"
            )
        # the placeholder first deals (or the stock) may hold the advising seat's completion
        # cards: each such card of another seat's first deal is swapped for a stock card (both are
        # hidden to the advising seat, and the calls already made do not depend on them)
        mine_mask = C.mask_of(mine)
        held = 1 << self.face_up
        for s in range(4):
            held |= int(self.S[L.S_HAND + s])
        rest_mask = self.rules.deck_mask & ~held & ~mine_mask
        for s in range(4):
            if s == self.observer:
                continue
            hand = int(self.S[L.S_HAND + s])
            for c in C.cards_of(hand & mine_mask):
                r = C.cards_of(rest_mask)[0]
                rest_mask &= ~(1 << r)
                hand = (hand & ~(1 << c)) | (1 << r)
            self.S[L.S_HAND + s] = hand
        rest = C.cards_of(rest_mask)
        masks = []
        k = 0
        for s in range(4):
            if s == self.observer:
                masks.append(C.mask_of(mine))
            else:
                masks.append(C.mask_of(rest[k : k + sizes[s]]))
                k += sizes[s]
        self.hand.complete(masks)

    def run(self) -> Position:
        record, rules = self.record, self.rules
        calls = _list_field(record, "calls", "record")
        plays = _list_field(record, "plays", "record")
        if self.baloot:
            if record.get("trump") is not None:
                raise InvalidRecord(
                    "record.trump: Baloot records have no trump field (the calls give the trump)"
                )
            for i, raw in enumerate(calls):
                if self.hand.phase == "completion":
                    self._complete()
                if not isinstance(raw, str) or raw not in L.BALOOT_CALL_NAMES:
                    raise InvalidRecord(
                        f"record.calls[{i}]: unknown Baloot call {raw!r}; calls are "
                        + ", ".join(L.BALOOT_CALL_NAMES)
                    )
                if self.hand.phase not in ("auction", "doubling"):
                    raise InvalidRecord(
                        f"record.calls[{i}] = {raw!r}: no call is due ({self.hand.phase} phase)"
                    )
                self.act(raw, f"calls[{i}]")
            if self.hand.phase == "completion" and (plays or self.completion is not None):
                self._complete()
        else:
            for i, raw in enumerate(calls):
                call = _norm_call(raw, f"record.calls[{i}]")
                if self.hand.phase != "auction":
                    raise InvalidRecord(
                        f"record.calls[{i}]: the auction is over after {i} calls; this call is extra"
                    )
                self.act(call, f"calls[{i}]")
            trump = record.get("trump")
            if trump is not None:
                if self.hand.phase == "auction":
                    raise InvalidRecord("record.trump is given but the auction is not complete")
                try:
                    suit = C.SUITS[C.parse_suit(trump)]
                except ValueError as exc:
                    raise InvalidRecord(f"record.trump: {exc}") from None
                self.act(suit, "trump")
        for i, raw in enumerate(plays):
            card = _card(raw, rules, f"record.plays[{i}]")
            text = C.format_card(card)
            if self.hand.phase == "over":
                raise InvalidRecord(f"record.plays[{i}] = {raw!r}: the hand ended after {i} plays")
            if self.hand.phase != "play":
                raise InvalidRecord(f"record.plays given but the {self.hand.phase} is not complete")
            seat = int(self.S[L.S_TO_ACT])
            self.act(text, f"plays[{i}]", card=True)
            self.played.append(text)
            self.plays.append((seat, card))
        if self.hand.phase == "completion":
            raise InvalidRecord(
                "record: the auction is over but the completion is not given: give the advising "
                "seat's completion cards (null for the others)"
            )
        S = np.array(self.S, dtype=np.int64)
        return Position(rules, S, self.observer, False, self.plays, self.score)
