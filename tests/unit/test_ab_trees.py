"""benchmarks/ab_trees.py: a git revision as a second package beside the checkout, one process."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import ab_trees

ROOT = Path(__file__).resolve().parents[2]
HAS_HISTORY = (
    shutil.which("git") is not None
    and subprocess.run(
        ["git", "rev-parse", "--verify", "HEAD"], cwd=ROOT, capture_output=True
    ).returncode
    == 0
)
needs_git = pytest.mark.skipif(not HAS_HISTORY, reason="not a git checkout")


@needs_git
def test_the_revision_is_exported_as_the_package_kout_base(tmp_path: Path) -> None:
    ab_trees.export_base("HEAD", tmp_path)
    assert (tmp_path / "kout_base" / "__init__.py").is_file()
    assert (tmp_path / "kout_base" / "sim" / "batch.py").is_file()
    assert not (tmp_path / "kout_sim").exists()


@needs_git
def test_a_renamed_copy_keeps_its_compiled_kernels_in_folders_of_its_own(tmp_path: Path) -> None:
    """Two packages sharing a cache folder would share an index whose entries name the other's
    modules: a later process without ``kout_base`` could not read its own kernels' index."""
    ab_trees.export_base("HEAD", tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        base_jit = importlib.import_module("kout_base.engine._jit")
    finally:
        sys.path.remove(str(tmp_path))
    from kout_sim.engine import _jit as head_jit

    root = tmp_path / "cache"
    ours = head_jit._cache_folder(head_jit.PACKAGE / "engine" / "rng.py", root)[1]
    theirs = base_jit._cache_folder(base_jit.PACKAGE / "engine" / "rng.py", root)[1]
    assert ours == str(
        root / "engine" / "rng" / head_jit.source_digest(head_jit.PACKAGE / "engine" / "rng.py")
    )
    assert theirs.startswith(str(root / "~kout_base" / "engine" / "rng"))


def test_the_checkout_is_copied_as_it_stands_as_the_package_kout_head(tmp_path: Path) -> None:
    ab_trees.export_checkout(tmp_path)
    head = tmp_path / "kout_head"
    for part in ("__init__.py", "sim/batch.py", "engine/_jit.py"):
        assert (head / part).read_bytes() == (ROOT / "kout_sim" / part).read_bytes()
    assert not list(head.rglob("__pycache__"))
    assert not (tmp_path / "kout_sim").exists()


@needs_git
def test_an_unknown_revision_is_one_line_naming_it(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        ab_trees.export_base("no-such-revision-xyz", tmp_path)
    message = str(stop.value)
    assert "no-such-revision-xyz" in message and "\n" not in message


def test_too_few_hands_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as stop:
        ab_trees.main(["--base", "HEAD", "--hands", "10"])
    assert stop.value.code == 2


@pytest.mark.slow
@needs_git
def test_the_checkout_against_its_own_head_gives_the_same_rows() -> None:
    result = ab_trees.compare("HEAD", "kout_bh_4", "random", 2_000, 2, 0)
    assert result["same_rows"] is True
    assert result["rounds"] == 2 and result["ratio_min"] > 0 and result["wall_ratio_min"] > 0


def test_the_solver_mode_takes_at_least_one_deal() -> None:
    with pytest.raises(SystemExit) as stop:
        ab_trees.main(["--base", "HEAD", "--solver", "--deals", "0"])
    assert stop.value.code == 2


@pytest.mark.slow
@needs_git
def test_the_solver_against_its_own_head_gives_the_same_values_and_nodes() -> None:
    result = ab_trees.compare_solver("HEAD", "kout_bh_4", 4, 1, 3)
    assert result["same_values"] is True
    assert result["base_nodes_mean"] == result["head_nodes_mean"] > 0
    assert result["ratio_median"] > 0
