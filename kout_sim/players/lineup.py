"""Player specs (``NAME[:KEY=VALUE,...]``) and line-ups (who sits where), validated in Python."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .ismcts import ROLLOUT
from .registry import N_PARAMS, PLAYERS, PlayerType, policy_family


@dataclass(frozen=True)
class PlayerSpec:
    """A player type with every parameter value (defaults filled in)."""

    name: str
    params: tuple[tuple[str, float], ...]

    def __str__(self) -> str:
        """The spec as text: ``NAME`` or ``NAME:KEY=VALUE,...``."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v:g}" for k, v in self.params)

    @property
    def type(self) -> PlayerType:
        """The player type of this spec in the registry."""
        return PLAYERS[self.name]


def parse_player(spec: str, family: str) -> PlayerSpec:
    """Parse ``NAME[:KEY=VALUE,...]`` for a game family; ``ValueError`` names what is wrong."""
    family = policy_family(family)
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a player spec must be a non-empty string, got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r}; valid: {', '.join(sorted(PLAYERS))}")
    player = PLAYERS[name]
    if family not in player.params:
        raise ValueError(f"player {name!r} does not play {family} presets")
    known = {p.name: p for p in player.params_for(family)}
    values = {p.name: p.default for p in known.values()}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, text = item.partition("=")
        key = key.strip()
        if not eq:
            raise ValueError(f"player {name!r}: expected KEY=VALUE, got {item!r}")
        if key not in known:
            valid = ", ".join(known) or "none"
            raise ValueError(f"player {name!r} has no parameter {key!r}; valid: {valid}")
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"player {name!r}: {key} must be a number, got {text!r}") from None
        p = known[key]
        if not math.isfinite(value) or not p.low <= value <= p.high:
            raise ValueError(f"player {name!r}: {key}={text} is outside {p.low:g}..{p.high:g}")
        values[key] = value
    return PlayerSpec(name, tuple(values.items()))


@dataclass(frozen=True)
class Lineup:
    """The player of every seat, and the arrays the kernels read."""

    seats: tuple[PlayerSpec, ...]

    @property
    def kinds(self) -> np.ndarray:
        """int64[6]: the policy kind of each seat."""
        out = np.zeros(6, dtype=np.int64)
        for seat, spec in enumerate(self.seats):
            out[seat] = spec.type.kind
        return out

    def params(self, family: str) -> np.ndarray:
        """float64[6, N_PARAMS]: each seat's parameter row."""
        out = np.zeros((6, N_PARAMS), dtype=np.float64)
        family = policy_family(family)
        for seat, spec in enumerate(self.seats):
            slots = {p.name: p.index for p in spec.type.params_for(family)}
            for key, value in spec.params:
                out[seat, slots[key]] = value
            if spec.type.rollout is not None:
                for p in PLAYERS[spec.type.rollout].params_for(family):
                    out[seat, ROLLOUT + p.index] = p.default
        return out

    def swapped(self) -> Lineup:
        """The same players with the teams exchanged: seat ``s`` gets seat ``s + 1``'s player."""
        n = len(self.seats)
        return Lineup(tuple(self.seats[(s + 1) % n] for s in range(n)))

    def describe(self) -> list[str]:
        """One spec string per seat, every parameter spelled out (run metadata)."""
        return [str(s) for s in self.seats]

    def teams(self) -> tuple[str, str] | None:
        """The two team specs when each team's seats share one player, else ``None``."""
        team0 = {str(s) for s in self.seats[0::2]}
        team1 = {str(s) for s in self.seats[1::2]}
        if len(team0) == 1 and len(team1) == 1:
            return team0.pop(), team1.pop()
        return None


def parse_lineup(players: str | Sequence[str] | Lineup, n_players: int, family: str) -> Lineup:
    """A line-up from one spec (every seat), two (team 0, team 1) or ``n_players`` (per seat)."""
    if isinstance(players, Lineup):
        if len(players.seats) != n_players:
            raise ValueError(f"line-up has {len(players.seats)} seats, the preset {n_players}")
        return players
    specs: list[Any] = [players] if isinstance(players, str) else list(players)
    parsed = [parse_player(s, family) for s in specs]
    if len(parsed) == 1:
        seats = parsed * n_players
    elif len(parsed) == 2:
        seats = [parsed[s % 2] for s in range(n_players)]
    elif len(parsed) == n_players:
        seats = parsed
    else:
        raise ValueError(
            f"give 1 player (every seat), 2 (team 0, team 1) or {n_players} (one per seat), "
            f"got {len(parsed)}"
        )
    return Lineup(tuple(seats))
