"""kout_sim: Monte-Carlo simulation and analytics for Gulf partnership trick-taking card games.

Public API
----------
- :func:`get_rules`, :func:`preset_names`: the presets and their options (rules as data).
- :func:`replay_hand`, :func:`legal_actions`, :func:`replay_match`: records in, results out.
- :func:`simulate`, :func:`load`: runs written as parquet shards, read back as polars LazyFrames.
- :func:`solve`: the double-dummy value of a position and of each legal card (docs/solver.md).
- :func:`advise`: what the seat to act should call or play, from its own cards (docs/advise.md).
- :class:`IllegalAction`, :class:`InvalidRecord`, :class:`RulesError`: the errors (all ``ValueError``).

The names are imported on first use (PEP 562): ``import kout_sim.rules`` or a command that needs
only the engine does not pay for polars, the advisor and the analyses (a cached start to the first
hand stays under a second, docs/compile.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import attach
from ._version import __version__

if TYPE_CHECKING:
    from .advisor import advise
    from .errors import IllegalAction, InvalidRecord
    from .replay import legal_actions, replay_hand, replay_match
    from .rules import RulesError, get_rules, preset_names
    from .sim import load, simulate
    from .solver import solve

_LAZY = {
    "advise": ".advisor",
    "IllegalAction": ".errors",
    "InvalidRecord": ".errors",
    "legal_actions": ".replay",
    "replay_hand": ".replay",
    "replay_match": ".replay",
    "RulesError": ".rules",
    "get_rules": ".rules",
    "preset_names": ".rules",
    "load": ".sim",
    "simulate": ".sim",
    "solve": ".solver",
}

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
    "solve",
]


__getattr__, __dir__ = attach(__name__, _LAZY)
