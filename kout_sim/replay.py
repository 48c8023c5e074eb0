"""The replay API: real game logs and rule cases enter the engine here.

``replay_hand(record)``, ``legal_actions(record)`` and ``replay_match(record)`` validate a record
(see ``docs/records.md``), drive an engine through it action by action and report the result.
Every problem is an :class:`~kout_sim.errors.InvalidRecord` or
:class:`~kout_sim.errors.IllegalAction` with a one-line message.

Both engines run behind the same driver: ``engine="numba"`` (default) or ``engine="reference"``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from . import cards as C
from .errors import IllegalAction, InvalidRecord
from .rules import Rules, RulesError, get_rules

Action = str | int


class HandEngine(Protocol):
    """What the driver needs of one hand in an engine."""

    @property
    def phase(self) -> str: ...

    @property
    def to_act(self) -> int | None: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> None: ...

    def result(self) -> dict[str, Any]: ...


class MatchEngine(Protocol):
    """What the driver needs of a match in an engine."""

    @property
    def dealer(self) -> int: ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def reason(self) -> str | None: ...

    @property
    def score(self) -> Any: ...

    def apply_hand(self, hand: Any) -> None: ...


@dataclass(frozen=True)
class Engine:
    """A pair of factories: a hand from (rules, dealer, hands as card texts), a match."""

    new_hand: Callable[[Rules, int, list[list[str]]], HandEngine]
    new_match: Callable[[Rules, int], MatchEngine]


def _numba_engine() -> Engine:
    from .engine.step import NumbaHand, NumbaMatch

    def new_hand(rules: Rules, dealer: int, hands: list[list[str]]) -> HandEngine:
        masks = [C.mask_of(C.parse_card(c) for c in hand) for hand in hands]
        return NumbaHand(rules, dealer, masks)

    return Engine(new_hand, NumbaMatch)


def _reference_engine() -> Engine:
    from . import reference as R

    class _RefMatch:
        def __init__(self, rules: Rules, first_dealer: int) -> None:
            self._m = R.RefMatch(rules.name, dict(rules.options), first_dealer)

        dealer = property(lambda self: self._m.dealer)
        over = property(lambda self: self._m.over)
        winner = property(lambda self: self._m.winner)
        reason = property(lambda self: self._m.reason)
        score = property(lambda self: self._m.score)

        def apply_hand(self, hand: Any) -> None:
            self._m.apply_hand(hand.result())

    def new_hand(rules: Rules, dealer: int, hands: list[list[str]]) -> HandEngine:
        ref: HandEngine = R.RefHand(rules.name, dict(rules.options), dealer, hands)
        return ref

    return Engine(new_hand, _RefMatch)


ENGINES: dict[str, Callable[[], Engine]] = {"numba": _numba_engine, "reference": _reference_engine}


def get_engine(name: str) -> Engine:
    """The engine called ``name`` (``numba`` or ``reference``)."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}; valid engines: {', '.join(ENGINES)}")
    return ENGINES[name]()


# ---- record parsing -------------------------------------------------------------------------------


def _need(record: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in record:
        raise InvalidRecord(f"{where}: missing field {key!r}")
    return record[key]


def _rules_of(record: Any, where: str = "record") -> Rules:
    if not isinstance(record, Mapping):
        raise InvalidRecord(f"{where} must be a JSON object (dict), got {type(record).__name__}")
    try:
        return get_rules(_need(record, "rules", where), record.get("options"))
    except RulesError as exc:
        raise InvalidRecord(f"{where}: {exc}") from None


def _seat(value: Any, rules: Rules, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < rules.n_players:
        raise InvalidRecord(
            f"{what} must be a seat 0..{rules.n_players - 1} of {rules.name}, got {value!r}"
        )
    return value


def _parse_hands(value: Any, rules: Rules, where: str) -> list[list[str]]:
    n, size = rules.n_players, rules.n_tricks
    if not isinstance(value, list) or len(value) != n:
        got = len(value) if isinstance(value, list) else type(value).__name__
        raise InvalidRecord(
            f"{where}.hands must be a list of {n} hands for {rules.name}, got {got}"
        )
    seen: dict[int, int] = {}
    out: list[list[str]] = []
    for seat, hand in enumerate(value):
        if not isinstance(hand, list):
            raise InvalidRecord(f"{where}.hands[{seat}] must be a list of card texts")
        if len(hand) != size:
            raise InvalidRecord(
                f"{where}.hands[{seat}] has {len(hand)} cards; {rules.name} deals {size} to each seat"
            )
        texts = []
        for text in hand:
            card = _card(text, rules, f"{where}.hands[{seat}]")
            if card in seen:
                raise InvalidRecord(
                    f"{where}.hands: duplicate card {C.format_card(card)} "
                    f"(seats {seen[card]} and {seat})"
                )
            seen[card] = seat
            texts.append(C.format_card(card))
        out.append(texts)
    return out


def _card(text: Any, rules: Rules, where: str) -> int:
    try:
        card = C.parse_card(text)
    except ValueError as exc:
        raise InvalidRecord(f"{where}: {exc}") from None
    if not (rules.deck_mask >> card) & 1:
        raise InvalidRecord(f"{where}: card {C.format_card(card)} is not in the {rules.name} deck")
    return card


def _norm_call(value: Any, where: str) -> Action:
    if isinstance(value, str) and value.strip().lower() == "pass":
        return "pass"
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise InvalidRecord(f'{where}: a call is "pass" or an int bid, got {value!r}')


def _list_field(record: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = record.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidRecord(f"{where}.{key} must be a list, got {type(value).__name__}")
    return value


def _run_hand(
    record: Any, rules: Rules, dealer: int, engine: Engine, where: str, prefix: str
) -> HandEngine:
    """Drive a hand through the record's calls, trump and plays; return the engine hand."""
    if not isinstance(record, Mapping):
        raise InvalidRecord(f"{where} must be a JSON object (dict)")
    hands = _parse_hands(_need(record, "hands", where), rules, where)
    calls = _list_field(record, "calls", where)
    plays = _list_field(record, "plays", where)
    trump = record.get("trump")
    hand = engine.new_hand(rules, dealer, hands)
    n_action = 0

    def act(action: Action, index: str) -> None:
        nonlocal n_action
        legal = hand.legal_actions()
        if action not in legal:
            raise IllegalAction(
                f"{prefix}{index} (action {n_action})", hand.to_act or 0, action, legal
            )
        hand.apply(action)
        n_action += 1

    for i, raw in enumerate(calls):
        call = _norm_call(raw, f"{where}.calls[{i}]")
        if hand.phase != "auction":
            raise InvalidRecord(
                f"{where}.calls[{i}]: the auction is over after {i} calls; this call is extra"
            )
        act(call, f"calls[{i}]")
    if trump is not None:
        if hand.phase == "auction":
            raise InvalidRecord(f"{where}.trump is given but the auction is not complete")
        try:
            suit = C.SUITS[C.parse_suit(trump)]
        except ValueError as exc:
            raise InvalidRecord(f"{where}.trump: {exc}") from None
        act(suit, "trump")
    for i, raw in enumerate(plays):
        card = C.format_card(_card(raw, rules, f"{where}.plays[{i}]"))
        if hand.phase == "over":
            raise InvalidRecord(f"{where}.plays[{i}] = {raw!r}: the hand ended after {i} plays")
        if hand.phase != "play":
            missing = "the auction is not complete" if hand.phase == "auction" else "no trump"
            raise InvalidRecord(f"{where}.plays given but {missing}")
        act(card, f"plays[{i}]")
    return hand


def _sorted_actions(actions: list[Action]) -> list[Action]:
    def key(a: Action) -> tuple[int, int]:
        if a == "pass":
            return (0, 0)
        if isinstance(a, int):
            return (1, a)
        if len(a) == 1:
            return (2, C.SUITS.index(a))
        return (3, C.parse_card(a))

    return sorted(actions, key=key)


def replay_hand(record: Any, *, engine: str = "numba") -> dict[str, Any]:
    """Replay a complete hand record and return its result.

    Returns
    -------
    dict
        ``bidder``, ``contract``, ``malzoom``, ``trump``, ``trick_winners``, ``tricks``, ``made``,
        ``points``, ``match_winner``, ``forced_joker_lead`` (see ``docs/records.md``).

    Raises
    ------
    InvalidRecord
        Malformed or incomplete record.
    IllegalAction
        An action the rules forbid.
    """
    rules = _rules_of(record)
    dealer = _seat(_need(record, "dealer", "record"), rules, "record.dealer")
    hand = _run_hand(record, rules, dealer, get_engine(engine), "record", "")
    if hand.phase != "over":
        raise InvalidRecord(
            f"incomplete hand: the record stops in the {hand.phase} phase with seat "
            f"{hand.to_act} to act (use legal_actions for partial records)"
        )
    return hand.result()


def legal_actions(record: Any, *, engine: str = "numba") -> list[Action]:
    """Legal next actions of the seat to act after a partial hand record (``[]`` when over)."""
    rules = _rules_of(record)
    dealer = _seat(_need(record, "dealer", "record"), rules, "record.dealer")
    hand = _run_hand(record, rules, dealer, get_engine(engine), "record", "")
    return _sorted_actions(hand.legal_actions())


def replay_match(record: Any, *, engine: str = "numba") -> dict[str, Any]:
    """Replay a match record hand by hand: results, running score, winner and reason."""
    rules = _rules_of(record)
    first = _seat(_need(record, "first_dealer", "record"), rules, "record.first_dealer")
    hands = _need(record, "hands", "record")
    if not isinstance(hands, list):
        raise InvalidRecord("record.hands must be a list of hand records")
    eng = get_engine(engine)
    m = eng.new_match(rules, first)
    out: list[dict[str, Any]] = []
    for k, hand_record in enumerate(hands):
        where = f"record.hands[{k}]"
        if m.over:
            raise InvalidRecord(
                f"{where}: the match already ended after hand {k - 1} "
                f"(team {m.winner} won, reason {m.reason})"
            )
        if not isinstance(hand_record, Mapping):
            raise InvalidRecord(f"{where} must be a JSON object (dict)")
        dealer = m.dealer
        if hand_record.get("dealer") is not None and hand_record["dealer"] != dealer:
            raise InvalidRecord(
                f"{where}.dealer is {hand_record['dealer']!r} but the rules make seat {dealer} deal"
            )
        hand = _run_hand(hand_record, rules, dealer, eng, where, f"hands[{k}].")
        if hand.phase != "over":
            raise InvalidRecord(f"{where}: incomplete hand (stops in the {hand.phase} phase)")
        m.apply_hand(hand)
        result = hand.result()
        result["dealer"] = dealer
        score = m.score
        result["score_after"] = list(score) if isinstance(score, list) else score
        out.append(result)
    score = m.score
    return {
        "hands": out,
        "score": list(score) if isinstance(score, list) else score,
        "winner": m.winner,
        "reason": m.reason,
    }
