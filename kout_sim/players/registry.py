"""The player types and their parameters: names, meanings, defaults and ranges, in one place.

Each parameter is one float64 slot of the seat's parameter row (its position in ``params`` is its
index in the kernel). Parameters may differ by game family (Kout, Baloot).
"""

from __future__ import annotations

from dataclasses import dataclass

from .baloot_heuristic import BALOOT_PARAMS
from .ismcts import ISMCTS_KOUT_PARAMS, ISMCTS_PARAMS
from .kinds import KIND_HEURISTIC, KIND_ISMCTS, KIND_PIMC, KIND_RANDOM, SEARCH_KINDS, Param
from .kout_heuristic import KOUT_PARAMS
from .pimc import PIMC_KOUT_PARAMS, PIMC_PARAMS

N_PARAMS = 32  # float64 slots per seat in the kernels' parameter rows (16.. : a search's rollouts)


@dataclass(frozen=True)
class PlayerType:
    """A policy: its kernel kind and its parameters per family (``"kout"``, ``"baloot"``)."""

    name: str
    kind: int
    summary: str
    params: dict[str, tuple[Param, ...]]
    rollout: str | None = None  # player whose default row fills slots ROLLOUT.. (searches)

    @property
    def searching(self) -> bool:
        """Does the policy search (its line-ups use the drivers compiled with the searches)?"""
        return self.kind in SEARCH_KINDS

    def params_for(self, family: str) -> tuple[Param, ...]:
        """The policy's parameters in game family ``family`` (none if it has none there)."""
        return self.params.get(family, ())


_RANDOM_PARAMS = (
    Param(
        "pass",
        0,
        -1.0,
        -1.0,
        1.0,
        "probability of passing whenever a pass and another call are legal "
        "(-1: every legal action equally likely)",
    ),
)

PLAYERS: dict[str, PlayerType] = {
    "random": PlayerType(
        "random",
        KIND_RANDOM,
        "every legal action equally likely",
        {"kout": _RANDOM_PARAMS, "baloot": _RANDOM_PARAMS},
    ),
    "heuristic": PlayerType(
        "heuristic",
        KIND_HEURISTIC,
        "rule-of-thumb bidding and card play of a competent player (see docs/players.md)",
        {"kout": KOUT_PARAMS, "baloot": BALOOT_PARAMS},
    ),
    "ismcts": PlayerType(
        "ismcts",
        KIND_ISMCTS,
        "single-observer information set Monte Carlo tree search with heuristic rollouts",
        {"kout": ISMCTS_KOUT_PARAMS, "baloot": ISMCTS_PARAMS},
        rollout="heuristic",
    ),
    "pimc": PlayerType(
        "pimc",
        KIND_PIMC,
        "perfect-information Monte Carlo: the hidden hands sampled, each sample solved double "
        "dummy, the card best over the samples (calls by the heuristic)",
        {"kout": PIMC_KOUT_PARAMS, "baloot": PIMC_PARAMS},
        rollout="heuristic",
    ),
}

KINDS = {p.kind: p.name for p in PLAYERS.values()}


def players_markdown() -> str:
    """The players and every parameter as Markdown (``docs/players.md`` is generated from it)."""
    lines = [
        "# Players",
        "",
        "Generated from `kout_sim/players` (`python -m kout_sim.players > docs/players.md`).",
        "A player is named `NAME[:KEY=VALUE,...]`; `--players` takes one spec for every seat, two",
        "for team 0 (even seats) and team 1 (odd seats), or one per seat. Every run records the",
        "specs of its seats with every parameter spelled out (`players` in `run.json`).",
    ]
    for player in PLAYERS.values():
        lines += ["", f"## `{player.name}`", "", player.summary + "."]
        for family, params in player.params.items():
            lines += [
                "",
                f"### {family.capitalize()} presets",
                "",
                "| parameter | default | range | meaning |",
                "|---|---:|---|---|",
            ]
            lines += [
                f"| `{p.name}` | {p.default:g} | {p.low:g} .. {p.high:g} | {p.meaning} |"
                for p in params
            ]
            if not params:
                lines.append("| (none) | | | |")
    return "\n".join(lines) + "\n"


def policy_family(family: str) -> str:
    """The parameter family of a preset family: ``"baloot"``, or ``"kout"`` for both Kout games."""
    return "baloot" if family == "baloot" else "kout"


def register(player: PlayerType) -> None:
    """Add a player type (used by the policy modules when they are imported)."""
    PLAYERS[player.name] = player
    KINDS[player.kind] = player.name


def player_help() -> str:
    """Every player type and its parameters, as text (``kout-sim players``)."""
    lines = []
    for player in PLAYERS.values():
        lines.append(f"{player.name}: {player.summary}")
        for family, params in player.params.items():
            for p in params:
                lines.append(
                    f"    [{family}] {p.name} = {p.default:g}  ({p.low:g}..{p.high:g}): {p.meaning}"
                )
    return "\n".join(lines)


__all__ = ["N_PARAMS", "PLAYERS", "Param", "PlayerType", "policy_family", "register"]
