"""What every ``kout-sim`` command shares: the command group, the one-line errors, ``--option``
pairs, the count parameter type and the options several commands spell alike."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, NoReturn

import click


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            _fail(f"--option expects key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


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
"""``--option KEY=VALUE``, repeatable: the preset's options (:func:`_parse_options`)."""

WORKERS = click.option("--workers", type=int, default=None, help="Parallel workers [all cores].")
"""``--workers``, the parallel workers of a command (all cores unless given)."""


class _Group(click.Group):
    """The command group: a usage error (a value click cannot convert, an unknown option) is one
    ``error:`` line and exit status 2, as every other bad input."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        call = dict(args=args, prog_name=prog_name, complete_var=complete_var, **extra)
        if not standalone_mode:
            return super().main(standalone_mode=False, **call)
        try:
            code = super().main(standalone_mode=False, **call)
        except click.UsageError as exc:
            where = f" (see {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
            _fail(" ".join(exc.format_message().split()) + where)
        except click.Abort:
            click.echo("aborted", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kout-sim")
def main() -> None:
    """Monte-Carlo simulation of Gulf partnership trick-taking card games (Kout Bo, ...).

    Run folders are checked before they are read; `kout-sim verify DIR` checks every shard."""
