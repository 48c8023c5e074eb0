"""Reference double-dummy solver: plain brute-force minimax over the reference engine.

This is the executable specification that the fast solver (``kout_sim.solver``) is tested
against. It is deliberately naive: a full minimax over every legal card at every node, with NO
alpha-beta, no transposition table, no move ordering and no pruning of any kind. Every position
is a private copy of a reference :class:`~kout_sim.reference.kout.RefHand` or
:class:`~kout_sim.reference.baloot.RefHand`, and every move is made with the reference engine's
own ``legal_actions`` / ``apply``, so the legal cards and the trick winners are exactly the
reference engine's (RULES.md §1, §2, §3). It is meant for small endgames (up to 3-4 tricks left).
It shares no code with ``kout_sim.engine`` or ``kout_sim.solver``.

Value semantics (fixed; the fast solver implements the same)
-------------------------------------------------------------
Both sides know every card (double dummy). The team that bought the hand maximises, the other
team minimises.

Kout (``kout_bo_*``, ``kout_bh_*``): the value is the bidding team's tricks at the END of the
hand, the tricks already taken included.

1. Every trick is played: the early stop of RULES.md 1.11 / 2.9 does not end the search (the
   search copies have ``play_all_tricks`` set). A Kout hand record that ended by the early stop
   is solved from there: play goes on to the last trick.
2. Bahraini Kout forced joker (RULES.md 2.8 with 2.9): when a trick is about to start, the
   leader's only card is ``JK`` and the outcome is NOT yet fixed (bidding team's tricks <
   contract and defenders' tricks < ``n_tricks - contract + 1``), the line ends there. Its value
   is ``-1`` when the leader is on the bidding team (that team loses the match: worse than any
   trick count) and ``n_tricks + 1`` when the leader is a defender (the bidding team wins the
   match: better than any trick count). These sentinels go through the minimax like any value.
3. Bahraini Kout, outcome already fixed, the leader's only card is ``JK``: there is no forced
   joker end (the early stop came first, 2.9). The ``JK`` is led as an ordinary lead and wins
   the trick (2.7). The joker sets no led suit; the first non-joker card played would set it.
   All hands are the same size when a trick starts, so this only happens on the last trick:
   everyone else has one card left, and the ``JK`` takes that trick.
4. A record whose hand is already a forced-joker end (``forced_joker_lead``) gives the sentinel
   of 2. (for the team that loses) with empty ``cards``.
5. Kout Bo joker rules come from the reference engine unchanged, also after the early-stop
   point: 1.6 lead permissions (contract, bidding team, option ``joker_lead_scope``, (c) trump
   A K Q J fallen in completed tricks), 1.7 a joker lead is a trump lead, 1.8 the rankless
   unleadable joker.

Baloot (``baloot``): the value is the buyer team's card points at the end of the hand
(RULES.md 3.6.1): points captured in tricks (3.1: Sun / non-trump vs Hokum trump points) plus 10
for the last trick, the points already captured included.

6. Baloot has no early stop; the value is card points only: no projects, no game points, no
   kaboot bonus. The legal cards are the reference engine's (closed double 3.3.1, mercy,
   overtrump and undertrump options 3.4.2-3.4.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from kout_sim.errors import InvalidRecord
from kout_sim.reference import baloot as B
from kout_sim.reference import kout as K
from kout_sim.reference._cards import BH_JOKER
from kout_sim.replay import _need, _rules_of, _run_hand, _seat, get_engine

Hand = TypeVar("Hand", K.RefHand, B.RefHand)

__all__ = ["solve_record"]


def solve_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """Solve a hand record double dummy by brute-force minimax.

    Parameters
    ----------
    record
        A hand record as in ``docs/records.md`` (Kout: ``rules``, ``options``, ``dealer``,
        ``hands``, ``calls``, ``trump``, ``plays``; Baloot: ``hands`` (first deal), ``face_up``,
        ``calls``, ``completion``, ``plays``). The auction must be complete; the plays may stop
        anywhere in the play phase, mid-trick included.

    Returns
    -------
    dict
        Kout: ``{"tricks": int, "to_act": int | None, "cards": {card: int}}``, ``tricks`` the
        bidding team's tricks at the end of the hand under perfect play (or a forced-joker
        sentinel, see the module docstring). Baloot: ``{"points": int, "to_act": int | None,
        "cards": {card: int}}``, ``points`` the buyer team's card points at the end. ``cards``
        maps every legal card of the seat to act (canonical text) to the value after that card
        is played; ``to_act`` is that seat. A Kout record over by the early stop is solved
        from there (play goes on); if the next leader then holds only ``JK`` (semantics 3),
        ``cards`` is ``{"JK": value}``. A hand already over (every trick played, or a
        forced-joker end) gives its final value, ``to_act`` None and empty ``cards``.

    Raises
    ------
    InvalidRecord
        Malformed record, or a hand that is not in the play phase (auction, trump choice,
        completion or doubling incomplete; a void Baloot hand).
    IllegalAction
        An action the rules forbid in the record.
    """
    rules = _rules_of(record)
    dealer = _seat(_need(record, "dealer", "record"), rules, "record.dealer")
    hand = _run_hand(record, rules, dealer, get_engine("reference"), "record", "")
    if isinstance(hand, B.RefHand):
        return _solve_baloot(hand)
    assert isinstance(hand, K.RefHand)
    return _solve_kout(hand)


# --------------------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------------------


class _Copier:
    """Copies reference hands of one class, so that playing on a copy leaves the original alone.

    A reference hand holds immutable values (str, int, None, tuples, frozensets, frozen
    dataclasses), flat lists of them, lists of lists (``hands``, ``projects``), sets and the
    options dict; nothing mutable sits deeper, and every list is homogeneous. The plan, read
    once from a sample hand, names the lists of lists (copied two levels deep) and the other
    lists, sets and dicts (copied one level); everything else is shared. This is what
    ``copy.deepcopy`` would give, about ten times faster.
    """

    def __init__(self, sample: K.RefHand | B.RefHand) -> None:
        self.nested: list[str] = []
        self.flat: list[str] = []
        for name, value in vars(sample).items():
            if isinstance(value, list) and value and isinstance(value[0], list):
                self.nested.append(name)
            elif isinstance(value, list | set | dict):
                self.flat.append(name)

    def copy(self, hand: Hand) -> Hand:
        """Return an independent copy of ``hand`` (same class, copied state)."""
        new = object.__new__(type(hand))
        state = vars(new)
        state.update(vars(hand))
        for name in self.nested:
            state[name] = [list(item) for item in state[name]]
        for name in self.flat:
            state[name] = state[name].copy()
        return new

    def after(self, hand: Hand, card: str) -> Hand:
        """Return a copy of ``hand`` with ``card`` played by the seat to act (reference
        ``apply``, which checks it against the reference ``legal_actions``)."""
        child = self.copy(hand)
        child.apply(card)
        return child


def _cards_of(hand: K.RefHand | B.RefHand) -> list[str]:
    """The legal cards of the seat to act, from the reference engine."""
    return [str(card) for card in hand.legal_actions()]


# --------------------------------------------------------------------------------------------------
# Kout (RULES.md §1, §2)
# --------------------------------------------------------------------------------------------------


def _root(search: _KoutSearch | _BalootSearch, hand: Any, key: str) -> dict[str, Any]:
    """The answer at a position with a seat to act: each legal card's minimax value after it,
    and the best of them for that seat's side under ``key`` (``"tricks"`` or ``"points"``). The
    copier copies before every move, so the record's hand itself is never changed."""
    cards = {card: search.value(search.copier.after(hand, card)) for card in _cards_of(hand)}
    values = cards.values()
    best = max(values) if search.maximises(hand.to_act) else min(values)
    return {key: best, "to_act": hand.to_act, "cards": cards}


class _KoutSearch:
    """Minimax over a Kout hand: the bidding team maximises its tricks at the end of the hand."""

    def __init__(self, root: K.RefHand) -> None:
        assert root.bidder is not None and root.contract is not None
        self.bidding: int = K.team_of(root.bidder)
        self.contract: int = root.contract
        # Cards dealt to each seat = tricks in the hand (RULES.md table: 9 Kout Bo, 8 Bahraini).
        self.n_tricks: int = len(K.deck(root.preset)) // K.n_players(root.preset)
        self.copier = _Copier(root)

    def maximises(self, seat: int | None) -> bool:
        """True when ``seat`` is on the bidding team (it maximises the value)."""
        assert seat is not None
        return K.team_of(seat) == self.bidding

    def outcome_fixed(self, hand: K.RefHand) -> bool:
        """RULES.md 1.11 / 2.9: bidding team reached the bid, or defenders took ``n - bid + 1``."""
        defenders_needed = self.n_tricks - self.contract + 1
        return (
            hand.tricks[self.bidding] >= self.contract
            or hand.tricks[1 - self.bidding] >= defenders_needed
        )

    def forced_joker_leader(self, hand: K.RefHand) -> int:
        """The seat that holds only ``JK`` at the start of a trick (the last trick's winner)."""
        # The first trick is never led from a one-card hand, so a trick has been completed.
        leader = hand.trick_winners[-1]
        assert hand.hands[leader] == [BH_JOKER]
        return leader

    def lone_joker_value(self, hand: K.RefHand) -> int:
        """Value of a trick start whose leader holds only ``JK`` (semantics 2 and 3)."""
        leader = self.forced_joker_leader(hand)
        if not self.outcome_fixed(hand):
            # RULES.md 2.8: the forced joker lead; the leader's team loses the match at once.
            if K.team_of(leader) == self.bidding:
                return -1
            return self.n_tricks + 1
        # RULES.md 2.9: the early stop came first, so no forced-joker end. Every hand has one
        # card left (hands are equal at a trick start): the JK is led as an ordinary lead and
        # wins the last trick (RULES.md 2.7), whatever the others play.
        assert all(len(cards) == 1 for cards in hand.hands)
        return hand.tricks[self.bidding] + (1 if K.team_of(leader) == self.bidding else 0)

    def value(self, hand: K.RefHand) -> int:
        """The minimax value of ``hand`` (bidding team's final tricks, or a sentinel)."""
        if hand.phase == K.OVER:
            if hand.forced_joker_lead:
                return self.lone_joker_value(hand)
            # Every trick played (the copies have play_all_tricks set: no early stop).
            return hand.tricks[self.bidding]
        values = [self.value(self.copier.after(hand, card)) for card in _cards_of(hand)]
        return max(values) if self.maximises(hand.to_act) else min(values)


def _dealt_hands(hand: K.RefHand) -> list[list[str]]:
    """The hands as dealt: the cards still held plus the cards each seat played (history)."""
    dealt = [list(cards) for cards in hand.hands]
    for seat, action in hand.history:
        # Calls are "pass", int bids and one-letter trump suits; a card text has two letters.
        if isinstance(action, str) and len(action) == 2:
            dealt[seat].append(action)
    return dealt


def _search_root(hand: K.RefHand) -> K.RefHand:
    """Replay ``hand``'s actions on a fresh reference hand that plays every trick (semantics 1).

    The record's own hand stops at the early stop of RULES.md 1.11 / 2.9; the copy has
    ``play_all_tricks`` set before any action, so it goes on past that point (in Bahraini Kout
    too: the reference engine reads that attribute for the early stop in both families). The
    actions replayed are the record's, already checked by the replay driver.
    """
    root = K.RefHand(hand.preset, hand.options, hand.dealer, _dealt_hands(hand))
    root.play_all_tricks = True
    for _, action in hand.history:
        root.apply(action)
    return root


def _solve_kout(hand: K.RefHand) -> dict[str, Any]:
    if hand.phase == K.AUCTION:
        raise InvalidRecord(
            f"cannot solve: the auction is incomplete ({len(hand.bids)} of {hand.n} calls); "
            "solve_record needs a hand in the play phase"
        )
    if hand.phase == K.TRUMP:
        raise InvalidRecord(
            f"cannot solve: the auction is incomplete (seat {hand.bidder} has not named trump); "
            "solve_record needs a hand in the play phase"
        )
    root = _search_root(hand)
    search = _KoutSearch(root)
    if root.phase == K.OVER and root.forced_joker_lead:
        leader = search.forced_joker_leader(root)
        value = search.lone_joker_value(root)
        if not search.outcome_fixed(root):
            # Semantics 4: the record's hand is a forced-joker end; nothing is left to decide.
            return {"tricks": value, "to_act": None, "cards": {}}
        # Semantics 3: the leader's lone JK opens the last trick as an ordinary lead.
        return {"tricks": value, "to_act": leader, "cards": {BH_JOKER: value}}
    if root.phase == K.OVER:
        # Every trick has been played: the final count.
        return {"tricks": root.tricks[search.bidding], "to_act": None, "cards": {}}
    return _root(search, root, "tricks")


# --------------------------------------------------------------------------------------------------
# Baloot (RULES.md §3)
# --------------------------------------------------------------------------------------------------


class _BalootSearch:
    """Minimax over a Baloot hand: the buyer team maximises its card points (RULES.md 3.6.1)."""

    def __init__(self, root: B.RefHand) -> None:
        assert root.buyer is not None
        self.buyer_team: int = B.team_of(root.buyer)
        self.copier = _Copier(root)

    def maximises(self, seat: int | None) -> bool:
        """True when ``seat`` is on the buyer's team (it maximises the value)."""
        assert seat is not None
        return B.team_of(seat) == self.buyer_team

    def value(self, hand: B.RefHand) -> int:
        """The minimax value of ``hand``: the buyer team's card points at the end."""
        if hand.phase == B.OVER:
            # RULES.md 3.6.1: the reference engine's card points include the last trick's 10.
            return hand.card_points[self.buyer_team]
        values = [self.value(self.copier.after(hand, card)) for card in _cards_of(hand)]
        return max(values) if self.maximises(hand.to_act) else min(values)


def _solve_baloot(hand: B.RefHand) -> dict[str, Any]:
    if hand.phase == B.OVER and hand.void:
        raise InvalidRecord("cannot solve: the Baloot hand is void (all passed twice), no play")
    if hand.phase == B.AUCTION:
        raise InvalidRecord(
            f"cannot solve: the auction is incomplete ({len(hand.calls)} calls, seat "
            f"{hand.to_act} to call); solve_record needs a hand in the play phase"
        )
    if hand.phase == B.COMPLETION:
        raise InvalidRecord(
            "cannot solve: the auction is over but the record gives no completion cards"
        )
    if hand.phase == B.DOUBLING:
        raise InvalidRecord(
            f"cannot solve: the doubling is incomplete (seat {hand.to_act} to call); "
            "solve_record needs a hand in the play phase"
        )
    search = _BalootSearch(hand)
    if hand.phase == B.OVER:
        # Every trick has been played: the final card points.
        return {"points": hand.card_points[search.buyer_team], "to_act": None, "cards": {}}
    return _root(search, hand, "points")
