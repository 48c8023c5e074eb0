"""Named options of the presets: defaults, validation and the one-line error messages."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class RulesError(ValueError):
    """An unknown preset, unknown option or out-of-range option value."""


@dataclass(frozen=True)
class Option:
    """One named option: its default, what it accepts, and what it means.

    ``check`` receives the raw value and returns the normalised value or raises ``ValueError``
    with a short reason; ``accepts`` is the human description of the valid values.
    """

    name: str
    default: Any
    accepts: str
    meaning: str
    check: Callable[[Any], Any]


def choice(*values: str) -> Callable[[Any], Any]:
    """Validator for a value from a fixed list of strings."""

    def _check(value: Any) -> Any:
        if isinstance(value, str) and value in values:
            return value
        raise ValueError("not one of the choices")

    return _check


def boolean(value: Any) -> bool:
    """Validator for a bool (also ``"true"``/``"false"`` from a command line)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.lower() in ("true", "1", "yes")
    raise ValueError("not a boolean")


MAX_TARGET = 1_000
"""The largest match target accepted: a match of a larger one may run for tens of thousands of
hands (a Bahraini match is a tug of war), beyond what a match's columns count (docs/records.md)."""


def positive_int(value: Any) -> int:
    """Validator for a positive integer (also its decimal text)."""
    if isinstance(value, bool):
        raise ValueError("not an integer")
    if isinstance(value, str) and value.strip().lstrip("+").isdigit():
        value = int(value)
    if isinstance(value, int) and value > 0:
        return int(value)
    raise ValueError("not a positive integer")


def target_int(value: Any) -> int:
    """Validator for a match target: an integer 1..:data:`MAX_TARGET` (also its decimal text)."""
    number = positive_int(value)
    if number > MAX_TARGET:
        raise ValueError("too large")
    return number


def seat_or(n_players: int, *values: str) -> Callable[[Any], Any]:
    """Validator for one of ``values`` or a seat number ``0..n_players-1``."""

    def _check(value: Any) -> Any:
        if isinstance(value, str) and value in values:
            return value
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n_players:
            return int(value)
        raise ValueError("not a choice or seat")

    return _check


def resolve_options(
    preset: str, specs: Mapping[str, Option], given: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Fill defaults into ``given`` and validate every value.

    Raises
    ------
    RulesError
        Naming the unknown option (with the valid names) or the bad value (with what is accepted).
    """
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise RulesError(f"options must be a mapping of option name to value, got {given!r}")
    unknown = sorted(set(given) - set(specs))
    if unknown:
        raise RulesError(
            f"unknown option {unknown[0]!r} for preset {preset!r}; valid options: "
            + ", ".join(sorted(specs))
        )
    out: dict[str, Any] = {}
    for name, spec in specs.items():
        if name not in given:
            out[name] = spec.default
            continue
        try:
            out[name] = spec.check(given[name])
        except ValueError:
            raise RulesError(
                f"invalid value {given[name]!r} for option {name!r} of preset {preset!r}; "
                f"valid: {spec.accepts}"
            ) from None
    return out
