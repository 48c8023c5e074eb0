"""Card text for the reference engine, written from RULES.md 0.3.

This module is deliberately independent of ``kout_sim.cards``: the reference engine must not share
code with the fast engine it is compared against. A card is its canonical text, a plain ``str``:
rank ``2 3 4 5 6 7 8 9 T J Q K A`` followed by suit ``S H D C`` (``"AS"``, ``"TD"``, ``"7H"``), or a
joker ``"RJ"`` (big), ``"BJ"`` (small) in Kout Bo and ``"JK"`` in Bahraini Kout.
"""

from __future__ import annotations

from collections.abc import Iterable

# RULES.md 0.3: ranks from weakest to strongest, and the four suits.
RANKS: str = "23456789TJQKA"
SUITS: str = "SHDC"

# RULES.md 0.3: the jokers.
BIG_JOKER: str = "RJ"  # Kout Bo's red joker (al-jiker)
SMALL_JOKER: str = "BJ"  # Kout Bo's black joker (al-miker)
BH_JOKER: str = "JK"  # Bahraini Kout's single joker
JOKERS: frozenset[str] = frozenset({BIG_JOKER, SMALL_JOKER, BH_JOKER})

# Rank value used for comparisons inside a suit and for the dealer draw: 2 -> 2 ... A -> 14.
RANK_VALUE: dict[str, int] = {rank: idx + 2 for idx, rank in enumerate(RANKS)}
# RULES.md 1.2 / 2.2: in the dealer draw a joker counts above the Ace (as 15).
JOKER_DRAW_VALUE: int = 15


def is_joker(card: str) -> bool:
    """Return True if ``card`` is one of the jokers (``RJ``, ``BJ`` or ``JK``)."""
    return card in JOKERS


def suit_of(card: str) -> str:
    """Return the suit letter of a suited card; raise ValueError for a joker."""
    if is_joker(card):
        raise ValueError(f"a joker has no suit: {card!r}")
    return card[1]


def rank_value(card: str) -> int:
    """Return the rank value of a suited card (2..14, Ace high); raise ValueError for a joker."""
    if is_joker(card):
        raise ValueError(f"a joker has no rank: {card!r}")
    return RANK_VALUE[card[0]]


def draw_value(card: str) -> int:
    """Return ``card``'s first-dealer draw value: its rank, a joker 15 (RULES.md 1.2, 2.2)."""
    return JOKER_DRAW_VALUE if is_joker(card) else rank_value(card)


def normalize(text: str) -> str:
    """Return the canonical text of a card written as in RULES.md 0.3 (``10`` for ``T``, any case).

    Raises ValueError for text that is not a card.
    """
    upper = text.strip().upper()
    if upper in JOKERS:
        return upper
    if upper.startswith("10"):
        upper = "T" + upper[2:]
    if len(upper) != 2 or upper[0] not in RANKS or upper[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return upper


def suited_cards(lowest_rank: str, missing: Iterable[str] = ()) -> list[str]:
    """Return the suited cards from ``lowest_rank`` to the Ace, suit by suit, minus ``missing``.

    Within a suit the cards run from the lowest rank up to the Ace.
    """
    left_out = set(missing)
    first = RANKS.index(lowest_rank)
    return [rank + suit for suit in SUITS for rank in RANKS[first:] if rank + suit not in left_out]
