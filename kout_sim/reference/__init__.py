"""Reference engine: plain-Python rules from RULES.md §1-§3, the executable spec.

Kout (RULES.md §1, §2) lives in :mod:`.kout`, Saudi Baloot (RULES.md §3) in :mod:`.baloot`. The
names exported here dispatch on the preset: ``"baloot"`` goes to the Baloot engine, every other
preset to the Kout engine, unchanged. (``deck`` and ``draw_first_dealer`` stay Kout-only: Baloot
has no first-dealer draw, and its deck is :func:`.baloot.deck`.) :func:`play_random_match` is one
match loop for both, over the dispatching names.

Slow and obvious on purpose; it shares no code with the fast engine it is compared against.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from . import baloot as _baloot
from . import kout as _kout
from .kout import deck, draw_first_dealer

BALOOT = _baloot.PRESET


def RefHand(
    preset: str,
    options: Mapping[str, Any],
    dealer: int,
    hands: Sequence[Sequence[str]],
    *,
    face_up: str | None = None,
    completion: Sequence[Sequence[str]] | None = None,
    match_score: Sequence[int] | None = None,
) -> _kout.RefHand | _baloot.RefHand:
    """One hand of ``preset``: a Baloot hand (``face_up`` required; ``completion`` may be None
    and given later) or a Kout hand (no keyword arguments)."""
    if preset == BALOOT:
        if face_up is None:
            raise ValueError("a Baloot hand needs its face_up card")
        return _baloot.RefHand(
            preset,
            options,
            dealer,
            hands,
            face_up=face_up,
            completion=completion,
            match_score=match_score,
        )
    if face_up is not None or completion is not None or match_score is not None:
        raise ValueError(f"face_up, completion and match_score are Baloot-only, not for {preset!r}")
    return _kout.RefHand(preset, options, dealer, hands)


def RefMatch(
    preset: str, options: Mapping[str, Any], first_dealer: int
) -> _kout.RefMatch | _baloot.RefMatch:
    """A match of ``preset`` (Baloot or Kout)."""
    if preset == BALOOT:
        return _baloot.RefMatch(preset, options, first_dealer)
    return _kout.RefMatch(preset, options, first_dealer)


def n_players(preset: str) -> int:
    """Return the number of players of ``preset``."""
    if preset == BALOOT:
        return _baloot.N_PLAYERS
    return _kout.n_players(preset)


def play_random_hand(
    preset: str,
    options: Mapping[str, Any],
    dealer: int,
    rng: random.Random,
    match_score: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Deal a hand of ``preset``, play it uniformly at random, return its result.

    ``match_score`` (Baloot only) feeds the Sun doubling gate (RULES.md 3.3.2).
    """
    if preset == BALOOT:
        return _baloot.play_random_hand(preset, options, dealer, rng, match_score)
    if match_score is not None:
        raise ValueError(f"match_score is Baloot-only, not for {preset!r}")
    return _kout.play_random_hand(preset, options, dealer, rng)


def resolve_first_dealer(preset: str, options: Mapping[str, Any], rng: random.Random) -> int:
    """The first dealer of a match of ``preset`` by option ``first_dealer`` (Kout's default: the
    low draw of RULES.md 1.2 / 2.2 on a deck shuffled by ``rng``)."""
    if preset == BALOOT:
        return _baloot.resolve_first_dealer(options, rng)
    return _kout.resolve_first_dealer(preset, options, rng)


def play_random_match(
    preset: str, options: Mapping[str, Any], rng: random.Random
) -> dict[str, Any]:
    """Play a whole match of ``preset`` with random play, each hand by :func:`play_random_hand`
    (a Baloot hand is given the match score before it).

    Returns ``{"first_dealer", "hands" (the hand results), "score", "winner", "reason"}``.
    """
    first_dealer = resolve_first_dealer(preset, options, rng)
    match = RefMatch(preset, options, first_dealer)
    results: list[dict[str, Any]] = []
    while not match.over:
        before = list(match.score) if isinstance(match, _baloot.RefMatch) else None
        result = play_random_hand(preset, options, match.dealer, rng, before)
        match.apply_hand(result)
        results.append(result)
    score = match.score
    return {
        "first_dealer": first_dealer,
        "hands": results,
        "score": list(score) if isinstance(score, list) else score,
        "winner": match.winner,
        "reason": match.reason,
    }


__all__ = [
    "RefHand",
    "RefMatch",
    "deck",
    "draw_first_dealer",
    "n_players",
    "play_random_hand",
    "play_random_match",
    "resolve_first_dealer",
]
