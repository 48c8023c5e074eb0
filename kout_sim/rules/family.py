"""The families of rule systems, and the one place that spells their names.

Every preset belongs to one :class:`Family` (RULES.md §1 Kuwaiti Kout Bo, §2 Bahraini Kout, §3
Saudi Baloot). Code asks a family (or :class:`kout_sim.rules.Rules`) what it is instead of
comparing names: ``rules.is_baloot``, ``family.is_bahraini``. A :class:`Family` is a ``str``
equal to its name, so a family read back from a run's settings is ``Family(text)``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

Kind = Literal["kout", "baloot"]
"""The kind of game: one kernel bundle and one set of player parameters per kind."""


class Family(StrEnum):
    """A preset's family, named as the runs record it."""

    KOUT_BO = "kout_bo"
    """Kuwaiti Kout Bo (RULES.md §1)."""
    KOUT_BH = "kout_bh"
    """Bahraini Kout (RULES.md §2)."""
    BALOOT = "baloot"
    """Saudi Baloot, Sun and Hokum (RULES.md §3)."""

    @property
    def is_baloot(self) -> bool:
        """Saudi Baloot (RULES.md §3)."""
        return self is Family.BALOOT

    @property
    def is_kout(self) -> bool:
        """Either Kout game (RULES.md §1, §2): an auction of contracts, jokers in the deck."""
        return self is not Family.BALOOT

    @property
    def is_kuwaiti(self) -> bool:
        """Kuwaiti Kout Bo (RULES.md §1)."""
        return self is Family.KOUT_BO

    @property
    def is_bahraini(self) -> bool:
        """Bahraini Kout (RULES.md §2)."""
        return self is Family.KOUT_BH

    @property
    def kind(self) -> Kind:
        """``"baloot"``, or ``"kout"`` for both Kout games (they share kernels and players)."""
        return "baloot" if self is Family.BALOOT else "kout"
