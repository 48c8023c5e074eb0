"""Baloot's own fields of the hand state ``S``, by name: (field name, offset in ``S``, entries).

The family's part of its record type :data:`kout_sim.engine.state.STATE_DTYPE` (the fields every
family shares are listed there). Not imported by any kernel: the names cost the kernel cache nothing.
"""

from __future__ import annotations

from .. import layout as L

BALOOT_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("face_up", L.B_FACE_UP, 1),
    ("round", L.B_ROUND, 1),
    ("stage", L.B_STAGE, 1),
    ("hokum_bidder", L.B_HOKUM_BIDDER, 1),
    ("hokum_suit", L.B_HOKUM_SUIT, 1),
    ("sun_caller", L.B_SUN_CALLER, 1),
    ("sun_ashkal", L.B_SUN_ASHKAL, 1),
    ("passed", L.B_PASSED, 1),
    ("mode", L.B_MODE, 1),
    ("ashkal", L.B_ASHKAL, 1),
    ("void", L.B_VOID, 1),
    ("taker", L.B_TAKER, 1),
    ("doubler", L.B_DOUBLER, 1),
    ("double", L.B_DOUBLE, 1),
    ("gahwa", L.B_GAHWA, 1),
    ("closed", L.B_CLOSED, 1),
    ("dbl_stage", L.B_DBL_STAGE, 1),
    ("card_points", L.B_CARD_PTS, 2),
    ("proj_team", L.B_PROJ_TEAM, 1),
    ("baloot_seat", L.B_BALOOT_SEAT, 1),
    ("kaboot", L.B_KABOOT, 1),
    ("match_score", L.B_MATCH_SCORE, 2),
    ("proj", L.B_PROJ, 8),
    ("proj_raw", L.B_PROJ_RAW, 2),
    ("proj_gp", L.B_PROJ_GP, 2),
    ("stock", L.B_STOCK, 11),
    ("baloot_to", L.B_BALOOT_TO, 1),
)
