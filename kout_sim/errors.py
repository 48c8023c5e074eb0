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
    """

    def __init__(self, index: str, seat: int, action: Any, legal: list[Any]) -> None:
        self.index = index
        self.seat = seat
        self.action = action
        self.legal = legal
        super().__init__(
            f"illegal action at {index}: seat {seat} cannot play {action!r}; legal: {legal!r}"
        )
