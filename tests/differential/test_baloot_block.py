"""RULES.md 3.5.2: the Baloot block, both engines over every hand where it can matter."""

import itertools

import numpy as np

from kout_sim import cards as C
from kout_sim.engine import layout as L
from kout_sim.engine.baloot import hand as NB
from kout_sim.engine.tables import tables_of
from kout_sim.reference import baloot as RB
from kout_sim.rules import get_rules


def test_baloot_block_agrees_on_every_four_kings_or_queens_hand() -> None:
    # Trump spades: K and Q of spades, four Kings or four Queens, and any three more cards. The
    # numba engine blocks the Baloot when its reading counts the four of a kind; the reference
    # engine reads its projects independently (RULES.md 3.5.1) and does the same.
    _, STR = tables_of(get_rules("baloot"))
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    n = blocked = 0
    for quad in "KQ":
        base = {f"{quad}{s}" for s in "SHDC"} | {"KS", "QS"}
        rest = sorted(set(RB.deck()) - base)
        for extra in itertools.combinations(rest, 8 - len(base)):
            cards = sorted(base | set(extra))
            S[:] = 0
            S[L.S_DEALER] = 3
            S[L.B_MODE] = L.MODE_HOKUM
            S[L.S_TRUMP] = 0
            S[L.B_BALOOT_SEAT] = -1
            S[L.S_HAND] = C.mask_of(C.parse_card(c) for c in cards)
            NB._projects(S, STR)
            numba_has = int(S[L.B_BALOOT_SEAT]) == 0
            assert numba_has == RB.has_baloot(cards, "S"), cards
            n += 1
            blocked += not numba_has
    # both readings occur: mostly blocked, but a trump run through the K or Q keeps it sometimes
    assert n == 2 * 2925 and 0 < n - blocked < blocked
