"""The errors of the public API. Both are ``ValueError`` subclasses with a one-line message."""

from __future__ import annotations

from typing import Any


class InvalidRecord(ValueError):
    """A malformed record: bad field, unknown card or preset, wrong sizes, incomplete or overlong."""


class IllegalAction(ValueError):
    """An action the rules forbid at that point of a record.

    Attributes
    ----------
    index : str
        Where the action sits in the record, e.g. ``"plays[7]"`` or ``"hands[2].calls[1]"``.
    seat : int
        The seat that acted.
    action : Any
        The action as given.
    legal : list
        The legal actions at that point.

    trick : int or None
        The trick of a card play, numbered from 1 (None for a call).
    reason : str or None
        Why the rules forbid it, citing RULES.md, when it can be told.
    """

    def __init__(
        self,
        index: str,
        seat: int,
        action: Any,
        legal: list[Any],
        *,
        trick: int | None = None,
        reason: str | None = None,
    ) -> None:
        self.index = index
        self.seat = seat
        self.action = action
        self.legal = legal
        self.trick = trick
        self.reason = reason
        why = f": {reason}" if reason else ""
        super().__init__(
            f"illegal action at {index}: seat {seat} cannot play {action!r}{why}; legal: {legal!r}"
        )
