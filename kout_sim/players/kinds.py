"""Kernel ids of the policies (the ``kinds`` array of a line-up) and the parameter record."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KIND_RANDOM = 0
KIND_HEURISTIC = 1
KIND_ISMCTS = 2
KIND_PIMC = 3
SEARCH_KINDS = (KIND_ISMCTS, KIND_PIMC)
"""The kinds that search: their line-ups use the drivers compiled with the searches."""


NO_SEARCH = 0
SEARCH_ISMCTS = 1
SEARCH_PIMC = 2
"""Search classes of a line-up (closure constants of the drivers): no search seat; ISMCTS seats
only; a PIMC seat (ISMCTS seats too, possibly). The double-dummy search PIMC runs is compiled only
into the drivers of the last class: the ISMCTS drivers stay as cheap to compile as before."""


def search_class(kinds: np.ndarray) -> int:
    """The search class of the line-up ``kinds`` (asked on a list: the drivers' wrappers ask it
    once per call, a traced hand from Python once per hand)."""
    seats = kinds.tolist()
    if KIND_PIMC in seats:
        return SEARCH_PIMC
    if KIND_ISMCTS in seats:
        return SEARCH_ISMCTS
    return NO_SEARCH


def searches(kinds: np.ndarray) -> bool:
    """Does a seat of the line-up ``kinds`` search (ISMCTS or PIMC)?"""
    return search_class(kinds) != NO_SEARCH


@dataclass(frozen=True)
class Param:
    """One policy parameter: slot ``index`` of the seat's float64 parameter row."""

    name: str
    index: int
    default: float
    low: float
    high: float
    meaning: str


def auction_params(first: int, per: str, default: int = 0) -> tuple[Param, Param]:
    """The two parameters of the auction-aware sampler (:mod:`kout_sim.players.auction`) of a
    searching player, in slots ``first`` and ``first + 1``; ``per`` names what one draw serves
    (an ISMCTS determinization, a PIMC sample); ``default`` is ``auction``'s default."""
    return (
        Param(
            "auction",
            first,
            default,
            0,
            1,
            "1: keep only sampled deals in which the heuristic would have made the other seats' "
            "observed calls (rejection, kout_sim/players/auction.py); 0: ignore the auction",
        ),
        Param(
            "auction_tries",
            first + 1,
            100,
            1,
            100_000,
            f"with auction=1: deals drawn at most per {per}; if none agrees, the one that "
            "agreed with the most calls is used",
        ),
    )
