"""The Kout family's own fields of the hand state ``S``, by name: (field name, offset in ``S``, entries).

The family's part of its record type :data:`kout_sim.engine.state.STATE_DTYPE` (the fields every
family shares are listed there). Not imported by any kernel: the names cost the kernel cache nothing.
"""

from __future__ import annotations

from .. import layout as L

KOUT_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("call_log", L.K_CALL_LOG, 1),
    ("seat_played", L.K_SEAT_PLAYED, 6),
)
