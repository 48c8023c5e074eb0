"""Rule systems as data: families, presets, options and their validation (compiled by :mod:`kout_sim.engine.tables`)."""

from .family import Family, Kind
from .options import Option, RulesError
from .presets import (
    PRESETS,
    BalootPreset,
    KoutPreset,
    Preset,
    Rules,
    get_preset,
    get_rules,
    preset_names,
)

__all__ = [
    "PRESETS",
    "BalootPreset",
    "Family",
    "Kind",
    "KoutPreset",
    "Option",
    "Preset",
    "Rules",
    "RulesError",
    "get_preset",
    "get_rules",
    "preset_names",
]
