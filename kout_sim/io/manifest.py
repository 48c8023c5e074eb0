"""The one run manifest: what every folder the project writes says of how it was made.

``simulate`` and ``forks`` write it as their ``run.json`` (through :class:`kout_sim.io.store.Manifest`,
which adds the shard entries), ``duel`` as ``duel.json`` and ``study`` as ``study.json``. Each
holds the settings of its kind and the keys of :data:`MANIFEST_KEYS`: the command line that makes
it again, the package version and git revision, the writer, and the seconds spent compiling (or
loading the kernels from the cache) apart from the seconds of the play itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .._version import __version__
from .store import RUN_FILE, WRITER

MANIFEST_KEYS = (
    "command",
    "version",
    "git_revision",
    "writer",
    "compile_seconds",
    "seconds",
)
"""The keys every manifest holds (``git_revision``: None outside a git checkout;
``compile_seconds`` and ``seconds``: once the folder is complete)."""


def git_revision() -> str | None:
    """The git revision of the package's checkout (None outside a git checkout)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except OSError:
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def provenance() -> dict[str, Any]:
    """The version and the git revision of the code writing a folder."""
    return {"version": __version__, "git_revision": git_revision()}


def run_manifest(settings: Mapping[str, Any], command: str | None, **fields: Any) -> dict[str, Any]:
    """The manifest of a folder: its ``settings``, the ``command`` that makes it, the version,
    the git revision and the writer, then ``fields`` (e.g. ``status``, ``compile_seconds``,
    ``seconds``)."""
    return {
        **settings,
        "command": command,
        **provenance(),
        "writer": WRITER,
        **fields,
    }


def runs_under(folder: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The manifests of the runs written under the local ``folder`` (at any depth, the folder
    itself excepted): the ``run.json`` of every folder of shards (``simulate``, ``forks``), not
    those of the folders made of other runs (which would count their runs twice)."""
    root = Path(folder)
    out = []
    for path in sorted(root.rglob(RUN_FILE)):
        if path.parent == root:
            continue
        with contextlib.suppress(OSError, ValueError):
            meta = json.loads(path.read_text())
            if isinstance(meta, dict) and "shards" in meta:
                out.append(meta)
    return out


def total_seconds(manifests: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """``compile_seconds`` and ``seconds`` of a folder made of runs (a duel, a study): the sums of
    those of its runs' manifests (a run without them counts 0)."""
    parts = list(manifests)
    return {
        key: round(sum(float(m.get(key) or 0.0) for m in parts), 3)
        for key in ("compile_seconds", "seconds")
    }
