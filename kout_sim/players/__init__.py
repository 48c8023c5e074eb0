"""Players: the policies that make the decisions, and the line-ups that seat them.

A player is named by a spec string ``NAME[:KEY=VALUE[,KEY=VALUE...]]`` (``random``,
``random:pass=0.8``, ``heuristic:bid_margin=0.5``). A line-up seats players: one spec for every
seat, two specs for team 0 (even seats) and team 1 (odd seats), or one spec per seat. The kernels
see a line-up as ``kinds`` (int64[6], the policy of each seat) and ``params`` (float64[6,
N_PARAMS], each seat's parameter row); the metadata of a run records the specs with every
parameter spelled out.
"""

from __future__ import annotations

from .lineup import Lineup, PlayerSpec, parse_lineup, parse_player
from .registry import KINDS, N_PARAMS, PLAYERS, Param, PlayerType, player_help

__all__ = [
    "KINDS",
    "N_PARAMS",
    "PLAYERS",
    "Lineup",
    "Param",
    "PlayerSpec",
    "PlayerType",
    "parse_lineup",
    "parse_player",
    "player_help",
]
