"""The replay API: real game logs and rule cases enter the engine here.

``replay_hand(record)``, ``legal_actions(record)`` and ``replay_match(record)`` validate a record
(see ``docs/records.md``), drive an engine through it action by action and report the result.
Every problem is an :class:`~kout_sim.errors.InvalidRecord` or
:class:`~kout_sim.errors.IllegalAction` with a one-line message.

Both engines run behind the same driver: ``engine="numba"`` (default) or ``engine="reference"``.

Size: just over 600 lines: the record reader, its one-line errors and the driver over both
engines are one public API (``replay_hand``, ``legal_actions``) and are kept together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from . import cards as C
from .engine import layout as L
from .errors import IllegalAction, InvalidRecord
from .rules import Family, Rules, RulesError, get_rules

Action = str | int


class HandEngine(Protocol):
    """What the driver needs of one hand in an engine."""

    @property
    def phase(self) -> str:
        """The phase of the hand, by name."""

    @property
    def to_act(self) -> int | None:
        """The seat to act (None when no seat is)."""

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act."""

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act (``ValueError`` when it is illegal)."""

    def result(self) -> dict[str, Any]:
        """The result of the finished hand."""


class MatchEngine(Protocol):
    """What the driver needs of a match in an engine."""

    @property
    def dealer(self) -> int:
        """The dealer of the next hand."""

    @property
    def over(self) -> bool:
        """Whether the match has ended."""

    @property
    def winner(self) -> int | None:
        """The winning team (None while the match goes on)."""

    @property
    def reason(self) -> str | None:
        """Why the match ended (None while it goes on)."""

    @property
    def score(self) -> Any:
        """The match score: one signed number or one per team."""

    def apply_hand(self, hand: Any) -> None:
        """Bank a finished hand of the same engine."""


@dataclass(frozen=True)
class Deal:
    """The cards of a hand record: dealt hands, and for Baloot the face-up card and match score."""

    hands: list[list[str]]
    face_up: str | None = None
    match_score: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Engine:
    """A pair of factories: a hand from (rules, dealer, deal), a match from (rules, first dealer)."""

    new_hand: Callable[[Rules, int, Deal], HandEngine]
    new_match: Callable[[Rules, int], MatchEngine]


def _numba_engine() -> Engine:
    from .engine.step import NumbaHand, NumbaMatch

    class _Hand(NumbaHand):
        def complete(self, completion: list[list[str]]) -> None:  # type: ignore[override]
            sizes = self.completion_sizes()
            for seat, cards in enumerate(completion):
                if len(cards) != sizes[seat]:
                    taker = self.S[L.B_TAKER]
                    raise ValueError(
                        f"seat {seat} receives {sizes[seat]} completion cards, not {len(cards)} "
                        f"(seat {taker} takes the face-up card)"
                    )
            super().complete([C.mask_of(C.parse_card(c) for c in cards) for cards in completion])

    def new_hand(rules: Rules, dealer: int, deal: Deal) -> HandEngine:
        masks = [C.mask_of(C.parse_card(c) for c in hand) for hand in deal.hands]
        face_up = None if deal.face_up is None else C.parse_card(deal.face_up)
        return _Hand(rules, dealer, masks, face_up=face_up, match_score=deal.match_score)

    return Engine(new_hand, NumbaMatch)


def _reference_engine() -> Engine:
    from . import reference as R

    class _RefMatch:
        def __init__(self, rules: Rules, first_dealer: int) -> None:
            self._m = R.RefMatch(rules.name, dict(rules.given), first_dealer)

        dealer = property(lambda self: self._m.dealer)
        over = property(lambda self: self._m.over)
        winner = property(lambda self: self._m.winner)
        reason = property(lambda self: self._m.reason)
        score = property(lambda self: self._m.score)

        def apply_hand(self, hand: Any) -> None:
            self._m.apply_hand(hand.result())

    def new_hand(rules: Rules, dealer: int, deal: Deal) -> HandEngine:
        if deal.face_up is None:
            kout_hand: HandEngine = R.RefHand(rules.name, dict(rules.given), dealer, deal.hands)
            return kout_hand
        baloot_hand: HandEngine = R.RefHand(
            rules.name,
            dict(rules.given),
            dealer,
            deal.hands,
            face_up=deal.face_up,
            match_score=list(deal.match_score),
        )
        return baloot_hand

    return Engine(new_hand, _RefMatch)


ENGINES: dict[str, Callable[[], Engine]] = {"numba": _numba_engine, "reference": _reference_engine}


def get_engine(name: str) -> Engine:
    """The engine called ``name`` (``numba`` or ``reference``)."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}; valid engines: {', '.join(ENGINES)}")
    return ENGINES[name]()


# ---- record parsing -------------------------------------------------------------------------------


MAX_CALL = 1_000
"""The largest bid a record may spell (any larger integer cannot be a bid of any preset)."""
MAX_MATCH_SCORE = 1_000_000
"""The largest Baloot ``match_score`` of a record (a match ends at its target, at most 1,000)."""


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


def _parse_cards(
    value: Any, rules: Rules, where: str, field: str, sizes: list[int], seen: dict[int, str]
) -> list[list[str]]:
    """A list of per-seat card lists with the given sizes; every card once across ``seen``."""
    return [
        [C.format_card(card) for card in _seat_cards(hand, rules, where, field, seat, sizes, seen)]
        for seat, hand in enumerate(_seat_lists(value, rules, where, field))
    ]


def _seat_lists(value: Any, rules: Rules, where: str, field: str) -> list[Any]:
    """``{where}.{field}``: a list of one entry per seat; else an ``InvalidRecord``."""
    n = rules.n_players
    if not isinstance(value, list) or len(value) != n:
        got = len(value) if isinstance(value, list) else type(value).__name__
        raise InvalidRecord(
            f"{where}.{field} must be a list of {n} hands for {rules.name}, got {got}"
        )
    return value


def _seat_cards(
    hand: Any,
    rules: Rules,
    where: str,
    field: str,
    seat: int,
    sizes: list[int],
    seen: dict[int, str],
    *,
    kind: str = "a list of card texts",
) -> list[int]:
    """``{where}.{field}[{seat}]``: the seat's ``sizes[seat]`` cards (any number when negative),
    each a card of the deck seen nowhere before (``seen``, which then holds them too); else an
    ``InvalidRecord`` that names the place and what it must be (``kind``)."""
    if not isinstance(hand, list):
        raise InvalidRecord(f"{where}.{field}[{seat}] must be {kind}")
    if sizes[seat] >= 0 and len(hand) != sizes[seat]:
        verb = "deals" if field == "hands" else "completes"
        raise InvalidRecord(
            f"{where}.{field}[{seat}] has {len(hand)} cards; {rules.name} {verb} "
            f"{sizes[seat]} to each seat"
        )
    cards = []
    for text in hand:
        card = _card(text, rules, f"{where}.{field}[{seat}]")
        _once(card, f"{field}[{seat}]", seen, where)
        cards.append(card)
    return cards


def _once(card: int, place: str, seen: dict[int, str], where: str) -> None:
    if card in seen:
        raise InvalidRecord(
            f"{where}: duplicate card {C.format_card(card)} (in {seen[card]} and {place})"
        )
    seen[card] = place


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
        if not -MAX_CALL <= value <= MAX_CALL:
            raise InvalidRecord(f"{where}: a bid is a small integer, got {value!r}")
        return value
    raise InvalidRecord(f'{where}: a call is "pass" or an int bid, got {value!r}')


def _list_field(record: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = record.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidRecord(f"{where}.{key} must be a list, got {type(value).__name__}")
    return value


def _suit(card: str) -> str | None:
    """The suit letter of a card text; None for a joker."""
    return None if card in ("RJ", "BJ", "JK") else card[-1]


_FOLLOW_RULE = {Family.KOUT_BO: "1.5", Family.KOUT_BH: "2.6", Family.BALOOT: "3.4.1"}
_JOKER_LEAD_RULE = {
    Family.KOUT_BO: "a joker may be led only by the bidding team at 9 (RJ also at 8), or "
    "by anyone once the trump A, K, Q and J are out (RULES.md 1.6)",
    Family.KOUT_BH: "the joker may not be led while its holder has another card (RULES.md 2.8)",
}


def _card_reason(
    family: Family, seat: int, card: str, dealt: list[set[str]], plays: list[str], legal: list[Any]
) -> str | None:
    """Why ``seat`` may not play ``card`` after ``plays`` (the cards played so far in the hand,
    tricks of ``len(dealt)`` cards), told from the cards alone (RULES.md numbers cited)."""
    n = len(dealt)
    if card in plays:
        return f"{card} was already played (plays[{plays.index(card)}])"
    if card not in dealt[seat]:
        holder = next((s for s, cards in enumerate(dealt) if card in cards), None)
        return f"seat {seat} does not hold {card}" + (
            f" (seat {holder} does)" if holder is not None else ""
        )
    trick = plays[len(plays) - len(plays) % n :]
    others = {_suit(c) for c in legal if isinstance(c, str) and _suit(c) is not None}
    if not trick:
        if _suit(card) is None:
            return _JOKER_LEAD_RULE.get(family)
        if family.is_baloot and _suit(card) not in others:
            return "the hand is closed: no trump lead while holding another suit (RULES.md 3.3.1)"
        return None
    led = trick[0]
    if len(others) == 1:
        (must,) = others
        if _suit(card) == must:
            return "a higher trump must be played when able (RULES.md 3.4.2, 3.4.3)"
        if _suit(led) is None and family.is_kuwaiti:
            return f"after a joker lead, trump ({must}) must be played while held (RULES.md 1.7)"
        if must == _suit(led) or (_suit(led) is None and not family.is_kuwaiti):
            rule = _FOLLOW_RULE[family]
            return f"the led suit ({must}) must be followed while held (RULES.md {rule})"
        if family.is_baloot:
            return (
                f"void in the led suit {_suit(led)}, trump ({must}) must be played while the "
                "partner is not winning the trick (RULES.md 3.4.2)"
            )
    return None


def _call_reason(family: Family, action: Action, legal: list[Any]) -> str | None:
    """Why a Kout call is not legal, when it can be told."""
    if family.is_baloot:
        return None
    bids = [a for a in legal if isinstance(a, int)]
    if action == "pass" and bids and "pass" not in legal:
        rule = "1.3" if family.is_kuwaiti else "2.3"
        return f"every other seat passed, so the dealer must bid (RULES.md {rule})"
    if isinstance(action, int) and bids and action < min(bids):
        return f"a bid must be above the standing bid ({min(bids) - 1})"
    if isinstance(action, str) and len(action) == 1 and family.is_bahraini:
        return "the bidder names a suit he holds at least one card of (RULES.md 2.4)"
    return None


def _act(
    hand: HandEngine,
    action: Action,
    index: str,
    n_action: int,
    family: Family,
    cards: tuple[list[set[str]], list[str]] | None = None,
) -> int:
    """Apply one recorded action after checking it against the legal set; the next action index.

    ``cards`` (a card play): every seat's dealt cards and the cards played before it, to say
    which trick it is (from 1) and why the card is refused."""
    legal = hand.legal_actions()
    if action not in legal:
        seat = hand.to_act if hand.to_act is not None else -1
        trick, reason = None, None
        where = f"{index} (action {n_action})"
        if cards is not None and isinstance(action, str):
            dealt, played = cards
            trick = len(played) // len(dealt) + 1
            place = len(played) % len(dealt) + 1
            where = f"{index} (action {n_action}; trick {trick}, card {place})"
            if seat >= 0:
                reason = _card_reason(family, seat, action, dealt, played, legal)
        elif seat >= 0:
            reason = _call_reason(family, action, legal)
        raise IllegalAction(where, seat, action, legal, trick=trick, reason=reason)
    hand.apply(action)
    return n_action + 1


def _run_hand(
    record: Any,
    rules: Rules,
    dealer: int,
    engine: Engine,
    where: str,
    prefix: str,
    match_score: tuple[int, int] | None = None,
) -> HandEngine:
    """Drive a hand through the record's calls, trump and plays; return the engine hand."""
    if not isinstance(record, Mapping):
        raise InvalidRecord(f"{where} must be a JSON object (dict)")
    if rules.is_baloot:
        return _run_baloot_hand(record, rules, dealer, engine, where, prefix, match_score)
    seen: dict[int, str] = {}
    size = rules.n_tricks
    hands = _parse_cards(
        _need(record, "hands", where), rules, where, "hands", [size] * rules.n_players, seen
    )
    calls = _list_field(record, "calls", where)
    plays = _list_field(record, "plays", where)
    trump = record.get("trump")
    hand = engine.new_hand(rules, dealer, Deal(hands))
    n_action = 0
    dealt = [set(h) for h in hands]
    played: list[str] = []

    def act(action: Action, index: str, card: bool = False) -> None:
        nonlocal n_action
        cards = (dealt, played) if card else None
        n_action = _act(hand, action, f"{prefix}{index}", n_action, rules.family, cards)

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
        act(card, f"plays[{i}]", card=True)
        played.append(card)
    return hand


def _match_score(record: Mapping[str, Any], where: str) -> tuple[int, int]:
    value = record.get("match_score")
    if value is None:
        return (0, 0)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise InvalidRecord(f"{where}.match_score must be [team0, team1] integers, got {value!r}")
    if not all(0 <= v <= MAX_MATCH_SCORE for v in value):
        raise InvalidRecord(
            f"{where}.match_score must be two scores 0..{MAX_MATCH_SCORE:,}, got {value!r}"
        )
    return (value[0], value[1])


def _run_baloot_hand(
    record: Mapping[str, Any],
    rules: Rules,
    dealer: int,
    engine: Engine,
    where: str,
    prefix: str,
    match_score: tuple[int, int] | None,
) -> HandEngine:
    """Drive a Baloot hand record (docs/baloot.md): first deal, face-up, calls, completion, plays."""
    if record.get("trump") is not None:
        raise InvalidRecord(
            f"{where}.trump: Baloot records have no trump field (the calls give the trump)"
        )
    seen: dict[int, str] = {}
    hands = _parse_cards(_need(record, "hands", where), rules, where, "hands", [5] * 4, seen)
    face_up = _card(_need(record, "face_up", where), rules, f"{where}.face_up")
    _once(face_up, "face_up", seen, where)
    raw_completion = record.get("completion")
    completion = None
    if raw_completion:
        completion = _parse_cards(raw_completion, rules, where, "completion", [-1] * 4, seen)
        if len(seen) != 32:
            raise InvalidRecord(
                f"{where}: hands, face_up and completion hold {len(seen)} cards, not the 32 of the deck"
            )
    if match_score is None:
        match_score = _match_score(record, where)
    calls = _list_field(record, "calls", where)
    plays = _list_field(record, "plays", where)
    hand = engine.new_hand(rules, dealer, Deal(hands, C.format_card(face_up), match_score))
    n_action = 0
    # every seat's eight cards (the completion gives three more; the face-up card is in it)
    dealt = [set(h) | set(completion[s] if completion else []) for s, h in enumerate(hands)]
    for s in range(4):
        if completion and len(completion[s]) == 2:  # this seat took the face-up card
            dealt[s].add(C.format_card(face_up))
    played: list[str] = []

    def act(action: Action, index: str, card: bool = False) -> None:
        nonlocal n_action
        cards = (dealt, played) if card else None
        n_action = _act(hand, action, f"{prefix}{index}", n_action, Family.BALOOT, cards)

    def complete(before: str) -> None:
        if completion is None:
            raise InvalidRecord(f"{where}.completion is missing: the auction is over {before}")
        try:
            hand.complete(completion)  # type: ignore[attr-defined]
        except ValueError as exc:
            raise InvalidRecord(f"{where}.completion: {exc}") from None

    for i, raw in enumerate(calls):
        if hand.phase == "completion":
            complete(f"before calls[{i}]")
        if not isinstance(raw, str) or raw not in L.BALOOT_CALL_NAMES:
            raise InvalidRecord(
                f"{where}.calls[{i}]: unknown Baloot call {raw!r}; calls are "
                + ", ".join(L.BALOOT_CALL_NAMES)
            )
        if hand.phase not in ("auction", "doubling"):
            raise InvalidRecord(
                f"{where}.calls[{i}] = {raw!r}: no call is due ({hand.phase} phase)"
            )
        act(raw, f"calls[{i}]")
    if hand.phase == "completion":
        # docs/records.md: a finished auction needs its completion (never "[]": the hand is not over)
        complete("before the first play" if plays else "after the calls")
    if hand.phase == "over" and completion is not None and hand.result().get("void"):
        raise InvalidRecord(f"{where}.completion is given but the hand is void (all passed twice)")
    for i, raw in enumerate(plays):
        card = C.format_card(_card(raw, rules, f"{where}.plays[{i}]"))
        if hand.phase == "over":
            raise InvalidRecord(f"{where}.plays[{i}] = {raw!r}: the hand ended after {i} plays")
        if hand.phase != "play":
            raise InvalidRecord(f"{where}.plays given but the {hand.phase} is not complete")
        act(card, f"plays[{i}]", card=True)
        played.append(card)
    return hand


def _sorted_actions(actions: list[Action]) -> list[Action]:
    def key(a: Action) -> tuple[int, int]:
        if a == "pass":
            return (0, 0)
        if isinstance(a, int):
            return (1, a)
        if a in L.BALOOT_CALL_NAMES:
            return (1, L.BALOOT_CALL_NAMES.index(a))
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
        score = m.score
        before = (score[0], score[1]) if isinstance(score, list) else (0, 0)
        hand = _run_hand(hand_record, rules, dealer, eng, where, f"hands[{k}].", before)
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
