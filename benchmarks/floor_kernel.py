"""The floor of a random hand's cost per card: a plain bitmask kernel, the whole hand in registers.

Issue 20 compares the engine's cost per card of whole random kout_bo_4 hands (``play_all_tricks``)
with OpenSpiel's C++ engine. This kernel says how low that figure can go on the machine at hand
with the engine's own random choice, whatever the engine's design: it plays Kout-like hands with
far less than the rules ask and none of the engine's bookkeeping:

- the deal: the engine's shuffle of 36 cards (``rng.below_of``, the stream in four locals), nine
  cards to each of four seats, a random trump suit (no auction, no calls);
- nine tricks of four cards, every card a uniformly random legal one (follow the led suit when
  possible, RULES.md 1.5) chosen as the engine chooses (``below`` on the number of legal cards,
  then ``_jit.nth_bit``); the trick goes to the highest trump, else the highest card of the led
  suit (1.9), and its winner leads the next;
- no jokers, no early stop, no scoring, no state array, no result row: the four hands, the
  leader, the led suit and the stream are locals.

The engine does all of that and more per hand, so its figure cannot go below this one on the
same machine. ``side_by_side.py`` times the three (kout_sim, this floor, OpenSpiel) in the same
rounds.

    PYTHONPATH=. python benchmarks/floor_kernel.py [--hands 300000] [--repeats 7] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

import numba
import numpy as np

from kout_sim.engine._jit import nth_bit, popcount
from kout_sim.engine.rng import below_of

N_SEATS = 4
N_TRICKS = 9
CARDS_A_HAND = N_SEATS * N_TRICKS
SUIT_CARDS = np.array([0x1FF << (13 * s + 4) for s in range(4)], dtype=np.int64)
"""The cards of each suit in the 36-card deck: ranks 6 to A of the engine's card ids."""


@numba.njit(nogil=True, cache=False)
def plain_hands(n_hands: int, seed: int, tricks: np.ndarray) -> int:
    """Play ``n_hands`` hands (see the module docstring); ``tricks[i]`` receives the tricks of
    seats 0 and 2 in hand ``i``. Returns the cards played."""
    s0 = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) | np.uint64(1)
    s1 = np.uint64(0xBF58476D1CE4E5B9)
    s2 = np.uint64(0x94D049BB133111EB)
    s3 = np.uint64(seed) + np.uint64(0x8CB92BA72F3D8DD7)
    deck = np.empty(CARDS_A_HAND, dtype=np.int64)
    k = 0
    for suit in range(4):
        for rank in range(4, 13):
            deck[k] = 13 * suit + rank
            k += 1
    cards = 0
    for h in range(n_hands):
        for i in range(CARDS_A_HAND - 1, 0, -1):  # Fisher-Yates, as the engine shuffles
            j, s0, s1, s2, s3 = below_of(s0, s1, s2, s3, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        h0 = np.int64(0)
        h1 = np.int64(0)
        h2 = np.int64(0)
        h3 = np.int64(0)
        for i in range(N_TRICKS):
            h0 |= np.int64(1) << deck[i]
            h1 |= np.int64(1) << deck[N_TRICKS + i]
            h2 |= np.int64(1) << deck[2 * N_TRICKS + i]
            h3 |= np.int64(1) << deck[3 * N_TRICKS + i]
        trump, s0, s1, s2, s3 = below_of(s0, s1, s2, s3, 4)
        leader = np.int64(h & 3)
        won = 0
        for _ in range(N_TRICKS):
            best = np.int64(-1)
            winner = leader
            led = np.int64(0)
            for p in range(N_SEATS):
                seat = (leader + p) & 3
                hand = h0 if seat == 0 else (h1 if seat == 1 else (h2 if seat == 2 else h3))
                follow = hand & SUIT_CARDS[led]
                legal = hand if (p == 0 or follow == 0) else follow
                pick, s0, s1, s2, s3 = below_of(s0, s1, s2, s3, popcount(legal))
                card = nth_bit(legal, pick)
                bit = np.int64(1) << card
                if seat == 0:
                    h0 ^= bit
                elif seat == 1:
                    h1 ^= bit
                elif seat == 2:
                    h2 ^= bit
                else:
                    h3 ^= bit
                suit = (card * 79) >> 10  # card // 13 for card ids 0..63
                if p == 0:
                    led = suit
                strength = card + 64 if suit == trump else (card if suit == led else -1)
                if strength > best:
                    best = strength
                    winner = seat
            leader = winner
            won += 1 - (winner & 1)
        tricks[h] = won
        cards += CARDS_A_HAND
    return cards


def floor_per_card(hands: int, seed: int) -> tuple[Callable[[], float], int]:
    """A call timing ``hands`` plain hands and returning ns per card; and the cards a call plays.
    Compiled and warmed up."""
    tricks = np.zeros(hands, dtype=np.int64)
    plain_hands(min(hands, 100), seed, tricks)

    def timed() -> float:
        t0 = time.perf_counter()
        cards = plain_hands(hands, seed, tricks)
        return (time.perf_counter() - t0) * 1e9 / cards

    return timed, hands * CARDS_A_HAND


def main(argv: Sequence[str] | None = None) -> None:
    """The command line: the floor alone, median ns a card."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=300_000, help="hands a round")
    parser.add_argument("--repeats", type=int, default=7, help="rounds (median)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in ("hands", "repeats", "seed"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be positive")
    timed, cards = floor_per_card(args.hands, args.seed)
    runs = [timed() for _ in range(args.repeats)]
    print(
        f"plain bitmask kernel, {args.hands:,} hands ({cards:,} cards) a round: "
        f"{statistics.median(runs):.2f} ns a card (median of {args.repeats}; rounds "
        + ", ".join(f"{x:.1f}" for x in runs)
        + ")"
    )


if __name__ == "__main__":
    main()
