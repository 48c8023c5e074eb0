"""The options several ``kout-sim`` commands spell alike, and the count parameter type
(:class:`Count`) of their ``--matches``, ``--hands`` and ``--samples``."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

import click
from click.decorators import FC

if TYPE_CHECKING:
    _IntParamType = click.ParamType[int]
else:  # pyproject allows click>=8.1, whose ParamType is not subscriptable at run time
    _IntParamType = click.ParamType


class Count(_IntParamType):
    """A count of matches or hands: an integer, with ``_`` or ``,`` between digit groups or in
    exponent notation (``1e6``, ``2.5e5``) when that is a whole number. The range (1..10^10) is
    checked by the command, so Python callers get the same message."""

    name = "count"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """``value`` as a whole number (a click usage error when it is not one)."""
        if isinstance(value, int):
            return value
        text = str(value).strip().replace("_", "").replace(",", "")
        try:
            number = Decimal(text)
        except InvalidOperation:
            number = Decimal("NaN")
        if not number.is_finite() or number != number.to_integral_value():
            self.fail(f"{value!r} is not a whole number", param, ctx)
        return int(number)


COUNT = Count()


PRESET = click.option("--preset", default="kout_bo_4", show_default=True, help="Rule preset.")
"""``--preset``, the rule preset of a command that plays hands (kout_bo_4 unless given)."""

OPTIONS = click.option(
    "--option", "option", multiple=True, metavar="KEY=VALUE", help="Preset option."
)
"""``--option KEY=VALUE``, repeatable: the preset's options (:func:`._base._parse_options`)."""

WORKERS = click.option("--workers", type=int, default=None, help="Parallel workers [all cores].")
"""``--workers``, the parallel workers of a command (all cores unless given)."""


def count_option(name: str, help: str, default: int | None = None) -> Callable[[FC], FC]:
    """``name`` (``--matches``, ``--hands``, ...), a :data:`COUNT`: None unless given (the
    command's default is said in ``help``), or ``default``, shown in the help."""
    if default is None:
        return click.option(name, type=COUNT, default=None, help=help)
    return click.option(name, type=COUNT, default=default, show_default=True, help=help)


def players_option(help: str) -> Callable[[FC], FC]:
    """``--players SPEC``, repeatable: the line-up of a command that plays (``help`` says what one,
    two or more specs mean there and its default)."""
    return click.option("--players", multiple=True, metavar="SPEC", help=help)


def seed_option(help: str | None = None, default: int = 0) -> Callable[[FC], FC]:
    """``--seed``, an integer seed (``default`` unless given, shown in the help)."""
    return click.option("--seed", type=int, default=default, show_default=True, help=help)
