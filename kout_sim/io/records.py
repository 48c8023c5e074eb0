"""The int64 records the kernels write, described field by field: one description per row kind.

The kernels fill plain int64 rows at the offsets of :mod:`kout_sim.engine.layout` (``R_*``: a hand
row, ``X_*``: a match row) and :mod:`kout_sim.drivers.fork` (``F_*``: a joker fork record,
``F_*`` and ``G_*``: a bid fork record, one branch). This module names each field of each kind
once, with its offset, its width (entries) and its meaning, as :class:`Record`. From it follow a
numpy structured dtype per kind (``rows.view(HAND_ROW.dtype)`` names the fields of an
``int64[n, R_SIZE]`` array without a copy) and the field every table column is read from
(:class:`kout_sim.io.schema.Column`'s ``field``). The offsets stay in the kernels' modules (an edit
there recompiles the kernels); ``tests/unit/test_records.py`` checks that every offset constant of
a kind is described here and that no two fields overlap.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..drivers import fork as FK
from ..engine import layout as L


@dataclass(frozen=True)
class Field:
    """One field of a record: ``width`` int64 entries from ``offset``."""

    name: str
    offset: int
    width: int
    meaning: str


def _f(name: str, offset: int, meaning: str, width: int = 1) -> Field:
    return Field(name, offset, width, meaning)


@dataclass(frozen=True)
class Record:
    """A row kind: its size in int64 entries and its fields (the rest of the row is unused)."""

    name: str
    size: int
    fields: tuple[Field, ...]

    def __getitem__(self, name: str) -> Field:
        """The field ``name``."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.name} has no field {name!r}")

    @cached_property
    def dtype(self) -> np.dtype[np.void]:
        """The numpy structured dtype of one row: every field by name (a field of several entries
        as a sub-array), at its byte offset, in a row of ``size`` int64 entries."""
        return np.dtype(
            {
                "names": [f.name for f in self.fields],
                "formats": [
                    np.int64 if f.width == 1 else (np.int64, (f.width,)) for f in self.fields
                ],
                "offsets": [8 * f.offset for f in self.fields],
                "itemsize": 8 * self.size,
            }
        )

    def view(self, rows: np.ndarray) -> np.ndarray:
        """``rows`` (C-contiguous ``int64[n, size]``) as ``n`` structured records, without a copy."""
        if rows.ndim != 2 or rows.shape[1] != self.size or rows.dtype != np.int64:
            raise ValueError(
                f"{self.name} rows are int64[n, {self.size}], not {rows.dtype}{rows.shape}"
            )
        return np.ascontiguousarray(rows).view(self.dtype)[:, 0]

    def column(self, rows: np.ndarray, name: str, entry: int = 0) -> np.ndarray:
        """Entry ``entry`` of the field ``name`` of every row of ``rows`` (a view, no copy)."""
        f = self[name]
        if not 0 <= entry < f.width:
            raise IndexError(f"{self.name} field {name!r} has {f.width} entries, not {entry + 1}")
        return rows[:, f.offset + entry]


HAND_ROW = Record(
    "hand row",
    L.R_SIZE,
    (
        _f("dealer", L.R_DEALER, "dealer seat"),
        _f("bidder", L.R_BIDDER, "seat that won the auction (-1: none)"),
        _f("contract", L.R_CONTRACT, "winning bid (tricks)"),
        _f("malzoom", L.R_MALZOOM, "1: a forced dealer bid of exactly 5 (RULES.md 1.3)"),
        _f("trump", L.R_TRUMP, "trump suit (0..3 S H D C; negative: none)"),
        _f("tricks", L.R_TRICKS, "tricks taken by team 0, team 1", 2),
        _f("n_done", L.R_N_DONE, "tricks played before the hand stopped"),
        _f("made", L.R_MADE, "1: the bidding team made its contract (-1: forced joker lead)"),
        _f("points", L.R_POINTS, "points banked by team 0, team 1", 2),
        _f("match_winner", L.R_MATCH_WINNER, "team that won the match with this hand (-1: none)"),
        _f("forced_joker", L.R_FORCED_JOKER, "1: a forced joker lead ended the hand"),
        _f("joker_leads", L.R_JOKER_LEADS, "bitmask of jokers led with permission"),
        _f("joker_forced", L.R_JOKER_FORCED, "bitmask of jokers led rankless"),
        _f("n_actions", L.R_N_ACTIONS, "decisions in the hand"),
        _f("hand", L.R_HAND, "each seat's dealt hand (card bitmask)", 6),
        _f("match", L.R_MATCH, "match index (stream index of the match)"),
        _f("hand_idx", L.R_HAND_IDX, "hand number within the match"),
        _f("score_before", L.R_SCORE_BEFORE, "match score before the hand, team 0, team 1", 2),
        _f("score_after", L.R_SCORE_AFTER, "match score after the hand, team 0, team 1", 2),
        _f("mode", L.R_MODE, "Baloot: 0 void, 1 Sun, 2 Hokum"),
        _f("card_points", L.R_CARD_PTS, "Baloot: card points of team 0, team 1", 2),
        _f("double", L.R_DOUBLE, "Baloot: multiplier of the doubling ladder"),
        _f("gahwa", L.R_GAHWA, "Baloot: 1: played as a Gahwa"),
        _f("kaboot", L.R_KABOOT, "Baloot: team that took every trick (-1: none)"),
        _f("project_team", L.R_PROJ_TEAM, "Baloot: team whose projects counted (-1: none)"),
        _f("project_points", L.R_PROJ_GP, "Baloot: project game points of team 0, team 1", 2),
        _f("baloot_seat", L.R_BALOOT_SEAT, "Baloot: seat holding K+Q of trump (-1: none)"),
        _f("ashkal", L.R_ASHKAL, "Baloot: 1: the Sun was bought by Ashkal"),
        _f("face_up", L.R_FACE_UP, "Baloot: the face-up card"),
        _f("calls", L.R_CALLS, "the calls in order, one byte each (call index + 1)", 4),
        _f("winners", L.R_WINNERS, "seat winning each trick, one byte each (seat + 1)", 2),
        _f("n_calls", L.R_N_CALLS, "calls in the hand"),
        _f("bidder_projects", L.R_BIDDER_PROJ, "Baloot: the buyer's project codes (0: none)", 2),
        _f("first_deal", L.R_FIRST_DEAL, "Baloot: each seat's five-card first deal", 4),
        _f("b_trump_length", L.R_B_TRUMP_LEN, "trumps in the bidder's hand (-1: none)"),
        _f("b_honours", L.R_B_HONOURS, "the bidder's top four trumps held (-1: none)"),
        _f("b_jokers", L.R_B_JOKERS, "jokers in the bidder's hand (-1: does not apply)"),
        _f("b_side_aces", L.R_B_SIDE_ACES, "aces outside trump in the bidder's hand"),
        _f("b_side_kings", L.R_B_SIDE_KINGS, "kings outside trump in the bidder's hand"),
        _f("b_voids", L.R_B_VOIDS, "suits missing from the bidder's hand"),
        _f("b_card_points", L.R_B_CARD_PTS, "Baloot: card points of the buyer's cards"),
        _f("holders", L.R_HOLDER, "seat dealt BJ, RJ, JK (-1: not in the deck)", 3),
    ),
)
"""A hand row (``int64[R_SIZE]``) of the batch drivers (:mod:`kout_sim.engine.layout` ``R_*``)."""

MATCH_ROW = Record(
    "match row",
    L.X_SIZE,
    (
        _f("match", L.X_MATCH, "match index (its random stream index)"),
        _f("first_dealer", L.X_FIRST_DEALER, "dealer of the first hand"),
        _f("n_hands", L.X_N_HANDS, "hands played"),
        _f("winner", L.X_WINNER, "winning team"),
        _f("reason", L.X_REASON, "why the match ended (an index of REASON_NAMES)"),
        _f("score", L.X_SCORE, "final score of team 0, team 1", 2),
    ),
)
"""A match row (``int64[X_SIZE]``, :mod:`kout_sim.engine.layout` ``X_*``)."""

_FORK_HEAD = (
    _f("hand", FK.F_HAND, "stream index of the hand"),
    _f("dealer", FK.F_DEALER, "dealer seat"),
)
"""The first fields of both fork records."""


def _fork_tail(width: int) -> tuple[Field, ...]:
    """The last fields of both fork records: the decisions before the fork, the outcome of each
    branch (``width`` entries: two in a joker fork record, one in a bid fork record, a branch)
    and of the hand itself."""
    each = "per branch: " if width > 1 else ""
    outcomes = (
        ("made", FK.F_MADE, "1: the contract made (-1: forced joker lead)"),
        ("net", FK.F_NET, "the seat's team's net points"),
        ("tricks", FK.F_TRICKS, "the seat's team's tricks at the end"),
        ("forced", FK.F_FORCED, "1: a forced joker lead ended the hand"),
        ("match_winner", FK.F_MATCH_WINNER, "team winning the match by the hand alone"),
    )
    return (
        _f("ply", FK.F_PLY, "decisions of the hand before this one"),
        *(_f(name, offset, each + meaning, width) for name, offset, meaning in outcomes),
        _f("illegal", FK.F_ILLEGAL, "1: a policy chose an illegal action in a branch"),
        _f("actual_made", FK.F_ACTUAL_MADE, "the hand itself: made (-1: forced joker lead)"),
        _f("actual_net", FK.F_ACTUAL_NET, "the hand itself: the seat's team's net points"),
        _f("actual_tricks", FK.F_ACTUAL_TRICKS, "the hand itself: the seat's team's tricks"),
        _f("actual_forced", FK.F_ACTUAL_FORCED, "the hand itself: 1: a forced joker lead ended it"),
    )


FORK_RECORD = Record(
    "fork record",
    FK.F_SIZE,
    (
        *_FORK_HEAD,
        _f("trick", FK.F_TRICK, "tricks completed before the decision"),
        _f("seat", FK.F_SEAT, "seat to act"),
        _f("leading", FK.F_LEADING, "1: the seat leads the trick"),
        _f("bidder", FK.F_BIDDER, "bidder seat"),
        _f("contract", FK.F_CONTRACT, "contract (tricks bid)"),
        _f("trump", FK.F_TRUMP, "trump suit (0..3 S H D C)"),
        _f("trumps_out", FK.F_TRUMPS_OUT, "trumps neither played nor in the seat's hand"),
        _f("trumps_held", FK.F_TRUMPS_HELD, "trumps in the seat's hand"),
        _f("jokers_held", FK.F_JOKERS_HELD, "jokers in the seat's hand"),
        _f("joker", FK.F_JOKER, "card of branch 0 (the joker)"),
        _f("other", FK.F_OTHER, "card of branch 1 (the policy's best other card)"),
        _f("chosen", FK.F_CHOSEN, "card the policy played in the hand itself"),
        _f("team_tricks", FK.F_TEAM_TRICKS, "tricks of the seat's team before the decision"),
        *_fork_tail(2),
    ),
)
"""A joker fork record (``int64[F_SIZE]``, :mod:`kout_sim.drivers.fork` ``F_*``)."""

BID_FORK_RECORD = Record(
    "bid fork record",
    FK.F_SIZE,
    (
        *_FORK_HEAD,
        _f("decision", FK.G_DECISION, "bid decisions of the hand forked before this one"),
        _f("seat", FK.F_SEAT, "seat to act"),
        _f("high_bid", FK.G_HIGH_BID, "standing bid before the decision (0: none)"),
        _f("call", FK.G_CALL, "the branch's call (phase-relative call index)"),
        _f("chosen", FK.G_CHOSEN, "the call the policy made in the hand itself"),
        _f("n_legal", FK.G_N_LEGAL, "legal calls at the decision"),
        _f("seat_hand", FK.G_SEAT_HAND, "the seat's cards (bitmask) at the decision"),
        _f("bidder", FK.G_BIDDER, "the branch's final bidder (-1: none)"),
        _f("contract", FK.G_CONTRACT, "the branch's contract"),
        _f("trump", FK.G_TRUMP, "the branch's trump suit (0..3; any other value: none)"),
        _f("score_before", FK.G_SCORE_BEFORE, "the seat's team's match score before the hand"),
        *(
            _f(f"rng{i}", lane, f"word {i} of the branches' random state at the fork")
            for i, lane in enumerate(FK.G_RNG)
        ),
        *_fork_tail(1),
    ),
)
"""A bid fork record, one branch (``int64[F_SIZE]``, :mod:`kout_sim.drivers.fork` ``F_*`` and
``G_*``; the branch's outcome in the first entry of ``F_MADE`` .. ``F_MATCH_WINNER``)."""

RECORDS = (HAND_ROW, MATCH_ROW, FORK_RECORD, BID_FORK_RECORD)
"""Every row kind the kernels write."""
