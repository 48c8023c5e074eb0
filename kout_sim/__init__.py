"""kout_sim: Monte-Carlo simulation and analytics for Gulf partnership trick-taking card games.

Public API
----------
- :func:`get_rules`, :func:`preset_names`: the presets and their options (rules as data).
- :func:`replay_hand`, :func:`legal_actions`, :func:`replay_match`: records in, results out.
- :func:`simulate`, :func:`load`: runs written as parquet shards, read back as polars LazyFrames.
- :func:`advise`: what the seat to act should call or play, from its own cards (docs/advise.md).
- :class:`IllegalAction`, :class:`InvalidRecord`, :class:`RulesError`: the errors (all ``ValueError``).
"""

from __future__ import annotations

from ._version import __version__
from .advise import advise
from .errors import IllegalAction, InvalidRecord
from .replay import legal_actions, replay_hand, replay_match
from .rules import RulesError, get_rules, preset_names
from .sim import load, simulate

__all__ = [
    "IllegalAction",
    "InvalidRecord",
    "RulesError",
    "__version__",
    "advise",
    "get_rules",
    "legal_actions",
    "load",
    "preset_names",
    "replay_hand",
    "replay_match",
    "simulate",
]
