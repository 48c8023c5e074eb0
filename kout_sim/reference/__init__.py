"""Reference engine: plain-Python Kout rules from RULES.md §1 and §2, the executable spec.

Slow and obvious on purpose; it shares no code with the fast engine it is compared against.
"""

from .kout import (
    RefHand,
    RefMatch,
    deck,
    draw_first_dealer,
    n_players,
    play_random_hand,
    play_random_match,
)

__all__ = [
    "RefHand",
    "RefMatch",
    "deck",
    "draw_first_dealer",
    "n_players",
    "play_random_hand",
    "play_random_match",
]
