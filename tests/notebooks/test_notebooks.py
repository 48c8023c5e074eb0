"""The notebooks under notebooks/: each runs top to bottom on small settings and draws its figures,
and none is committed with outputs.

A notebook is executed with nbclient in a kernel on this interpreter (``sys.executable``, through a
kernelspec written to a temporary folder, so a ``python3`` kernelspec elsewhere on the machine cannot
pick another Python), with the repository root as working folder. A cell is injected after the one
tagged ``parameters`` to shrink the runs (``MATCHES``, ``HANDS``, the match ``TARGETS`` of a sweep)
and to write them under ``tmp_path`` (``OUT``: a run folder, or the parent of a notebook's runs).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
KERNEL = "python3"
# per cell: the first run of a game family on a cold numba cache compiles its kernels (minutes)
CELL_TIMEOUT = 900


def _ids(path: Path) -> str:
    return path.stem


def _kernel_manager(tmp_path: Path) -> AsyncKernelManager:
    """A kernel manager whose ``python3`` kernel is this interpreter, whatever else is installed."""
    spec_dir = tmp_path / "kernels" / KERNEL
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "kout_sim test kernel",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    specs = KernelSpecManager(kernel_dirs=[str(spec_dir.parent)], ensure_native_kernel=False)
    km = AsyncKernelManager(kernel_name=KERNEL, kernel_spec_manager=specs)
    assert km.kernel_spec is not None and km.kernel_spec.argv[0] == sys.executable
    return km


def _parameters_index(nb: nbformat.NotebookNode) -> int:
    tagged = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "a notebook needs exactly one cell tagged 'parameters'"
    return tagged[0]


def _overrides(source: str, tmp_path: Path) -> dict[str, object]:
    """Small settings for the names the parameters cell defines."""
    small: dict[str, object] = {
        "MATCHES": 200,
        "HANDS": 2000,
        "TARGETS": [31, 61],
        "CAL_DEALS": 16,  # 06_advisor's calibration: 120 deals of 100 samples took 116 s of the suite
        "CAL_SAMPLES": 20,
        "OUT": str(tmp_path / "run"),
    }
    return {k: v for k, v in small.items() if re.search(rf"^{k}\s*=", source, re.MULTILINE)}


def _outputs(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_runs_and_draws_its_figures(path: Path, tmp_path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    at = _parameters_index(nb)
    overrides = _overrides(nb.cells[at].source, tmp_path)
    lines = [f"{name} = {value!r}" for name, value in overrides.items()]
    # the kernel must run this checkout's package, not some other install
    lines += [
        "import kout_sim as _kout_sim",
        "from pathlib import Path as _Path",
        f"assert _Path(_kout_sim.__file__).resolve().is_relative_to({str(ROOT)!r}), _kout_sim.__file__",
    ]
    injected = nbformat.v4.new_code_cell("\n".join(lines))
    injected.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(at + 1, injected)

    client = NotebookClient(
        nb,
        km=_kernel_manager(tmp_path),
        kernel_name=KERNEL,
        timeout=CELL_TIMEOUT,
        resources={"metadata": {"path": str(ROOT)}},
    )
    # raises CellExecutionError, with the cell's traceback, if a cell fails; cleanup_kc: the client
    # does not own a kernel manager it was given, so shut the kernel and its channels down explicitly
    client.execute(cleanup_kc=True)

    outputs = _outputs(nb)
    assert not [o for o in outputs if o.output_type == "error"]
    figures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert figures, f"{path.name} drew no figure"
    if "OUT" in overrides:
        # OUT is a run folder, or the parent of a notebook's several run folders
        runs = list((tmp_path / "run").rglob("run.json"))
        assert runs, "the runs did not go to the overridden OUT"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_is_committed_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    _parameters_index(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name} cell {i} has outputs (run nbstripout on it)"
            assert cell.execution_count is None, f"{path.name} cell {i} has an execution count"


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, "no notebooks/*.ipynb found"


def test_every_notebook_is_listed_in_the_notebooks_readme() -> None:
    listed = (ROOT / "notebooks" / "README.md").read_text()
    missing = [nb.name for nb in NOTEBOOKS if f"| `{nb.name}` |" not in listed]
    assert not missing, f"notebooks/README.md does not list {missing}"
