"""The reference engine's own reading of the preset options, written from RULES.md.

The options, their defaults and the values they accept are the ones RULES.md names (§1.2, 1.6,
1.11, 1.12(c); §2.2, 2.11; §3 with the (K) readings of profile ``kammelna``), as tabled in
``docs/records.md`` and ``docs/baloot.md``. This module shares no code with ``kout_sim.rules``
(the fast side's resolution); a test requires both to resolve every preset, profile and option set
to the same values.

Values may be given as JSON values or as the text of a command line: a yes/no option takes a bool or
``true``/``false``/``yes``/``no``/``1``/``0`` (any case), a number or a seat takes an int or its
decimal text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

KOUT_BO = ("kout_bo_4", "kout_bo_6")
KOUT_BH = ("kout_bh_4", "kout_bh_6")
BALOOT = "baloot"
PLAYERS = {"kout_bo_4": 4, "kout_bo_6": 6, "kout_bh_4": 4, "kout_bh_6": 6, BALOOT: 4}

_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0")


class OptionError(ValueError):
    """An unknown preset, an unknown option or a value the option does not accept."""


def _yes_no(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in _TRUE + _FALSE:
        return value.lower() in _TRUE
    raise ValueError(value)


def _whole(value: Any) -> int:
    """An int, or the decimal text of one (a leading ``+`` and spaces allowed); never a bool."""
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text.startswith("+") else text
        if digits.isdigit():
            return int(digits)
    raise ValueError(value)


def _positive(value: Any) -> int:
    number = _whole(value)
    if number <= 0:
        raise ValueError(value)
    return number


def _one_of(*words: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if isinstance(value, str) and value in words:
            return value
        raise ValueError(value)

    return check


def _word_or_seat(n_players: int, *words: str) -> Callable[[Any], Any]:
    """RULES.md 1.2 / 2.2 option ``first_dealer``: one of ``words`` or a seat ``0..n-1``."""

    def check(value: Any) -> Any:
        if isinstance(value, str) and value in words:
            return value
        if isinstance(value, str) and not value.strip().isdigit():
            raise ValueError(value)
        seat = _whole(value)
        if 0 <= seat < n_players:
            return seat
        raise ValueError(value)

    return check


def _sun_claims(value: Any) -> Any:
    """RULES.md 3.2.3: ``sun_before_you`` is yes / no, or ``opponents`` (the (K) reading)."""
    if value == "opponents":
        return value
    return _yes_no(value)


Spec = tuple[Any, Callable[[Any], Any]]  # (default, check)


def _kout_specs(preset: str) -> dict[str, Spec]:
    n = PLAYERS[preset]
    if preset in KOUT_BO:
        return {
            "first_dealer": ("low_draw", _word_or_seat(n, "low_draw", "random")),  # 1.2
            "joker_lead_scope": ("bidding_team", _one_of("bidding_team", "anyone")),  # 1.6
            "play_all_tricks": (False, _yes_no),  # 1.11
            "target": (101, _positive),  # 1.12(c)
        }
    return {
        "first_dealer": ("low_draw", _word_or_seat(n, "low_draw", "random")),  # 2.2
        "target": (31, _positive),  # 2.11
    }


# RULES.md §3, profile ksa (the default): every option's default reading.
_BALOOT_SPECS: dict[str, Spec] = {
    "profile": ("ksa", _one_of("ksa", "kammelna")),
    "sun_before_you": (True, _sun_claims),  # 3.2.3
    "second_sun_chance": (False, _yes_no),  # 3.2.3
    "kawesh": (False, _yes_no),  # 3.2.7
    "ace_sun_restriction": ("p1_only", _one_of("p1_only", "none")),  # 3.2.4
    "doubling": (True, _yes_no),  # 3.3.4
    "mercy": ("partner_winning", _one_of("partner_winning", "none")),  # 3.4.2
    "undertrump_required": (False, _yes_no),  # 3.4.2
    "overtrump_on_trump_lead": ("vs_opponent", _one_of("vs_opponent", "always", "never")),  # 3.4.3
    "baloot_on_loss": ("owner", _one_of("owner", "void", "winner")),  # 3.6.3
    "tie": ("split", _one_of("split", "buyer_loses", "buyer_loses_hokum_only")),  # 3.6.3
    "kaboot_projects": ("all", _one_of("all", "own")),  # 3.6.4
    "doubled_projects": ("by_level", _one_of("by_level", "multiplied")),  # 3.6.5
    "gahwa": ("match", _one_of("match", "bank_152")),  # 3.6.5
    "target": (152, _positive),  # 3.6.6
    "first_dealer": ("random", _word_or_seat(4, "random")),
}

# RULES.md §3: the options marked (K), as profile kammelna reads them.
KAMMELNA: dict[str, Any] = {
    "sun_before_you": "opponents",  # 3.2.3 (K): only the caller's opponents claim Sun
    "second_sun_chance": True,  # 3.2.3 (K)
    "kawesh": True,  # 3.2.7 (K)
    "baloot_on_loss": "winner",  # 3.6.3 (K)
    "tie": "buyer_loses_hokum_only",  # 3.6.3 (K)
    "kaboot_projects": "own",  # 3.6.4 (K)
    "doubled_projects": "multiplied",  # 3.6.5 (K): project points x m
    "gahwa": "bank_152",  # 3.6.5 (K): the winner banks 152
}


def option_names(preset: str) -> list[str]:
    """The options of ``preset``, sorted."""
    return sorted(_specs(preset))


def _specs(preset: str) -> dict[str, Spec]:
    if preset == BALOOT:
        return _BALOOT_SPECS
    if preset in KOUT_BO or preset in KOUT_BH:
        return _kout_specs(preset)
    raise OptionError(f"unknown preset {preset!r}")


def resolve_options(preset: str, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every option of ``preset``: the value given (checked and normalised), else its default.

    Baloot: a profile sets the defaults of the options RULES.md §3 marks (K); an option given
    explicitly wins over the profile. Resolving an already resolved mapping gives it back.

    Raises
    ------
    OptionError
        An unknown preset or option, or a value the option does not accept.
    """
    specs = _specs(preset)
    given = {} if given is None else given
    if not isinstance(given, Mapping):
        raise OptionError(f"options must be a mapping, got {given!r}")
    for name in given:
        if name not in specs:
            raise OptionError(f"unknown option {name!r} for preset {preset!r}")
    out: dict[str, Any] = {}
    for name, (default, check) in specs.items():
        if name not in given:
            out[name] = default
            continue
        try:
            out[name] = check(given[name])
        except ValueError:
            raise OptionError(
                f"option {name!r} of preset {preset!r} does not accept {given[name]!r}"
            ) from None
    if out.get("profile") == "kammelna":
        for name, value in KAMMELNA.items():
            if name not in given:
                out[name] = value
    return out
