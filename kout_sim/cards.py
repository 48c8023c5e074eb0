"""The one card encoding of kout_sim.

A card is a small integer in a universe of 55 ids:

* ``suit * 13 + rank_idx`` for the 52 suited cards, with suits ``S H D C`` (0..3) and
  ``rank_idx`` 0..12 for ranks ``2 3 4 5 6 7 8 9 T J Q K A``;
* ``52`` = ``BJ`` (small, black joker), ``53`` = ``RJ`` (big, red joker), ``54`` = ``JK`` (the single
  joker of the Bahraini decks, RULES.md 0.3).

A set of cards (a hand, a deck, the cards played) is an ``int`` bitmask with bit ``card`` set.
Every id is below 63, so masks are non-negative ``int64`` values, which is what the kernels use.
A preset's deck is a mask over this universe; strength and points are per-preset tables
(see :mod:`kout_sim.rules`), never implied by the id.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "SHDC"
RANKS = "23456789TJQKA"
N_SUITS = 4
N_RANKS = 13
BJ = 52
RJ = 53
JK = 54
N_CARDS = 55
JOKERS = (BJ, RJ, JK)
JOKER_NAMES = {BJ: "BJ", RJ: "RJ", JK: "JK"}
JOKER_MASK = (1 << BJ) | (1 << RJ) | (1 << JK)

_BY_NAME: dict[str, int] = {}
for _s, _sc in enumerate(SUITS):
    for _r, _rc in enumerate(RANKS):
        _BY_NAME[_rc + _sc] = _s * N_RANKS + _r
        if _rc == "T":
            _BY_NAME["10" + _sc] = _s * N_RANKS + _r
for _id, _name in JOKER_NAMES.items():
    _BY_NAME[_name] = _id


def card_id(suit: int, rank_idx: int) -> int:
    """Id of the suited card with suit index ``suit`` (0..3) and rank index ``rank_idx`` (0..12)."""
    return suit * N_RANKS + rank_idx


def suit_of(card: int) -> int:
    """Suit index of a suited card, ``-1`` for a joker."""
    return card // N_RANKS if card < 52 else -1


def rank_of(card: int) -> int:
    """Rank index (0 = '2' .. 12 = 'A') of a suited card, ``-1`` for a joker."""
    return card % N_RANKS if card < 52 else -1


def parse_card(text: object) -> int:
    """Card id of ``text`` such as ``"AS"``, ``"10D"``, ``"td"`` or ``"RJ"``.

    Raises
    ------
    ValueError
        If ``text`` is not a card name.
    """
    if not isinstance(text, str):
        raise ValueError(f"card must be a string such as 'AS' or 'RJ', got {text!r}")
    card = _BY_NAME.get(text.strip().upper())
    if card is None:
        raise ValueError(
            f"unknown card {text!r}: expected rank {' '.join(RANKS)} (or 10) then suit "
            f"{' '.join(SUITS)}, or a joker RJ, BJ, JK"
        )
    return card


def format_card(card: int) -> str:
    """Canonical text of a card id (``T`` for ten, jokers ``BJ``, ``RJ``, ``JK``)."""
    if card in JOKER_NAMES:
        return JOKER_NAMES[card]
    if not 0 <= card < 52:
        raise ValueError(f"card id out of range: {card}")
    return RANKS[card % N_RANKS] + SUITS[card // N_RANKS]


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of an iterable of card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Card ids set in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def format_mask(mask: int) -> list[str]:
    """Canonical texts of the cards in ``mask``, in id order (suits S H D C, low to high, jokers last)."""
    return [format_card(c) for c in cards_of(mask)]


def suit_mask(suit: int) -> int:
    """Mask of the 13 cards of one suit."""
    return ((1 << N_RANKS) - 1) << (suit * N_RANKS)


def parse_suit(text: object) -> int:
    """Suit index of a suit letter ``S H D C``."""
    if isinstance(text, str) and len(text.strip()) == 1 and text.strip().upper() in SUITS:
        return SUITS.index(text.strip().upper())
    raise ValueError(f"unknown suit {text!r}: expected one of {', '.join(SUITS)}")


def sort_key(text: str) -> int:
    """Sort key that orders card texts by id."""
    return parse_card(text)
