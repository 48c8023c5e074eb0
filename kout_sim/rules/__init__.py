"""Rule systems as data: presets, options and their validation (compiled by :mod:`kout_sim.engine.tables`)."""

from .options import Option, RulesError
from .presets import PRESETS, Preset, Rules, get_preset, get_rules, preset_names

__all__ = [
    "PRESETS",
    "Option",
    "Preset",
    "Rules",
    "RulesError",
    "get_preset",
    "get_rules",
    "preset_names",
]
