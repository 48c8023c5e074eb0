"""Analysis scripts and helpers built on top of the kout_sim simulation outputs."""

from __future__ import annotations

import importlib
import pkgutil


def load_extensions() -> None:
    """Import every public module of the package, so that a module which adds a report section
    (``analyses.report.SECTIONS``) or a study (``analyses.studies.STUDIES``) when it is imported
    is registered without being named anywhere else."""
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
