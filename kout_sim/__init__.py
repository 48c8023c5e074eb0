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

from importlib import import_module
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562) and keep it as a module attribute."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kout_sim' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
