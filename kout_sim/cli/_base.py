"""What every ``kout-sim`` command shares: the command group, the one-line errors and the
``--option`` pairs; the options several commands spell alike are in :mod:`._options`."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _interrupted(stop: KeyboardInterrupt, rest: str) -> NoReturn:
    """Exit with status 130 after a run stopped by Ctrl-C, printing why (``stop``) and the
    command that finishes it (``rest``)."""
    click.echo(f"{stop}:\n  {rest}", err=True)
    sys.exit(130)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            _fail(f"--option expects key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


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
