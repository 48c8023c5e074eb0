"""The deal stream in plain Python: the reference deals a seeded hand or match itself.

Simulation draws every card from a random stream keyed by ``(seed, index, lane)``; lane 0 deals
(the first dealer and the shuffles), lane 1 is the players' choices. The stream is documented in
``docs/reference.md`` ("The deal stream") and written here again from that description, sharing no code
with the kernels, so that the reference engine needs nothing from the fast side to know which cards
a seeded hand or match was dealt:

* **Generator.** xoshiro256** on four 64-bit words, keyed through SplitMix64's mixer ``mix``:
  ``key = mix(mix(seed ^ GAMMA) ^ index * STREAM ^ lane * LANE)`` (the lane mixed in a second
  ``mix``), then word ``i`` is ``mix(key + (i + 1) * GAMMA)``.
* **Uniform integer** in ``[0, n)``: Lemire's multiply-shift on the top 32 bits of a draw, with
  the exact rejection step.
* **Shuffle**: Fisher-Yates from the last card down, ``j = below(i + 1)``.
* **Deck order** before a shuffle: the suited cards suit by suit (S, H, D, C), each from 2 up to A,
  then ``BJ``, ``RJ``, ``JK``; only the preset's cards (RULES.md table).
* **Independent hand** ``index``: the dealer is ``below(n)``, then one shuffle deals the hand.
* **Match** ``index``: the first dealer (option ``first_dealer``: a seat draws nothing, ``random``
  is ``below(n)``, ``low_draw`` shuffles a copy of the deck and deals the draw of RULES.md 1.2 /
  2.2 from it, seats in order 0..n-1, and shuffles that copy again should fewer than ``n`` cards be
  left), then one shuffle of a fresh deck per hand, void Baloot hands included.
* **Kout deal** (RULES.md 0.4): card ``k`` of the shuffled deck goes to seat ``dealer + 1 + k``.
* **Baloot deal** (RULES.md 3.2.1, 3.2.6): cards 0..19 one at a time from ``dealer + 1`` (five
  each), card 20 is turned face up, cards 21..31 are the stock; the completion gives the stock out in
  priority order from ``dealer + 1``, two to the seat that takes the face-up card, three to the
  others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import baloot as B
from . import kout as K
from .options import PLAYERS, resolve_options

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
STREAM = 0xD1B54A32D192ED03
LANE = 0x8CB92BA72F3D8DD7
LANE_DEAL = 0
LANE_PLAY = 1

# The deck order before a shuffle: S H D C, 2 .. A within a suit, then the jokers.
ORDER: tuple[str, ...] = (*(r + s for s in "SHDC" for r in "23456789TJQKA"), "BJ", "RJ", "JK")


def mix(z: int) -> int:
    """SplitMix64's finaliser."""
    z = ((z ^ (z >> 30)) * _M1) & _MASK64
    z = ((z ^ (z >> 27)) * _M2) & _MASK64
    return z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK64


class Stream:
    """One keyed random stream: ``next_u64``, ``below`` and ``shuffle``."""

    def __init__(self, seed: int, index: int, lane: int) -> None:
        key = mix((seed & _MASK64) ^ GAMMA) ^ ((index * STREAM) & _MASK64)
        key = mix(key ^ ((lane * LANE) & _MASK64))
        self.state: list[int] = []
        for _ in range(4):
            key = (key + GAMMA) & _MASK64
            self.state.append(mix(key))

    def next_u64(self) -> int:
        """The next 64 random bits (xoshiro256**)."""
        s0, s1, s2, s3 = self.state
        result = (_rotl((s1 * 5) & _MASK64, 7) * 9) & _MASK64
        t = (s1 << 17) & _MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        self.state = [s0, s1, s2, s3]
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, ``1 <= n < 2**32``."""
        product = (self.next_u64() >> 32) * n
        low = product & _MASK32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                product = (self.next_u64() >> 32) * n
                low = product & _MASK32
        return product >> 32

    def shuffle(self, cards: list[str]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def deck(preset: str) -> list[str]:
    """The cards of ``preset`` in the stream's order (a fresh list)."""
    cards = set(B.deck() if preset == B.PRESET else K.deck(preset))
    return [card for card in ORDER if card in cards]


@dataclass(frozen=True)
class Dealt:
    """The cards of one hand: Kout ``hands`` (n hands); Baloot the five-card first deal in
    ``hands``, the ``face_up`` card and the ``stock`` (eleven cards, in dealing order)."""

    dealer: int
    hands: list[list[str]]
    face_up: str | None = None
    stock: tuple[str, ...] = ()

    def completion(self, taker: int) -> list[list[str]]:
        """Baloot: each seat's completion cards once ``taker`` takes the face-up card."""
        return B.completion_from(self.stock, self.dealer, taker)


def deal_shuffled(preset: str, dealer: int, cards: Sequence[str]) -> Dealt:
    """Deal the shuffled ``cards`` as a hand of ``preset`` (the rules of the module docstring)."""
    n = PLAYERS[preset]
    hands: list[list[str]] = [[] for _ in range(n)]
    if preset == B.PRESET:
        for k in range(n * B.FIRST_DEAL):
            hands[(dealer + 1 + k) % n].append(cards[k])
        return Dealt(dealer, hands, cards[n * B.FIRST_DEAL], tuple(cards[n * B.FIRST_DEAL + 1 :]))
    for k, card in enumerate(cards):
        hands[(dealer + 1 + k) % n].append(card)
    return Dealt(dealer, hands)


def deal_hand(preset: str, stream: Stream, dealer: int) -> Dealt:
    """Shuffle a fresh deck on ``stream`` and deal it from ``dealer + 1``."""
    cards = deck(preset)
    stream.shuffle(cards)
    return deal_shuffled(preset, dealer, cards)


def independent_hand(preset: str, seed: int, index: int) -> Dealt:
    """Hand ``index`` of a seeded run of independent hands: a random dealer, then the deal."""
    stream = Stream(seed, index, LANE_DEAL)
    dealer = stream.below(PLAYERS[preset])
    return deal_hand(preset, stream, dealer)


def first_dealer(preset: str, options: Mapping[str, Any] | None, stream: Stream) -> int:
    """The first dealer of a match on its deal ``stream`` (option ``first_dealer``)."""
    choice = resolve_options(preset, options)["first_dealer"]
    n = PLAYERS[preset]
    if choice == "random":
        return stream.below(n)
    if choice != "low_draw":
        return int(choice)
    return K.low_draw(deck(preset), n, stream)


class MatchDeals:
    """The deal stream of match ``index``: its ``first_dealer``, then :meth:`next_hand` per hand."""

    def __init__(
        self, preset: str, options: Mapping[str, Any] | None, seed: int, index: int
    ) -> None:
        self.preset = preset
        self.stream = Stream(seed, index, LANE_DEAL)
        self.first_dealer: int = first_dealer(preset, options, self.stream)

    def next_hand(self, dealer: int) -> Dealt:
        """The cards of the match's next hand, dealt by ``dealer``."""
        return deal_hand(self.preset, self.stream, dealer)
