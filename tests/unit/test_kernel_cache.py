"""The kernels' compile cache is keyed by each source file's import closure (engine/_jit.py).

Numba checks a cached kernel against its own file only; the cache stays correct because every
file's entries are keyed by the digest of all the sources it imports. These tests check that the
closure covers everything a kernel's compiled code can depend on (every dispatcher it calls), that
it is no wider than the imports (an edit of a player leaves the engine's kernels cached), and that
the digest follows the sources.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import types
from pathlib import Path

import pytest
from numba.core.registry import CPUDispatcher

import kout_sim
from kout_sim.engine import _jit as J


def _closure(path: Path) -> set[Path]:
    seen: set[Path] = set()
    todo = [path]
    while todo:
        file = todo.pop()
        if file not in seen:
            seen.add(file)
            todo.extend(J._imports(file) - seen)
    return seen


def _kernel_modules() -> list[types.ModuleType]:
    modules = []
    for info in pkgutil.walk_packages(kout_sim.__path__, "kout_sim."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        if any(isinstance(v, CPUDispatcher) for v in vars(module).values()):
            modules.append(module)
    return modules


def _code_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _callees(dispatcher: CPUDispatcher) -> list[object]:
    """Every global or closure value a kernel's code names (dispatchers, modules, constants)."""
    func = dispatcher.py_func
    found = [func.__globals__[n] for n in _code_names(func.__code__) if n in func.__globals__]
    if func.__closure__:
        found += [cell.cell_contents for cell in func.__closure__]
    return found


def _source(value: object) -> Path | None:
    if isinstance(value, CPUDispatcher):
        file = value.py_func.__code__.co_filename
    elif isinstance(value, types.ModuleType):
        file = getattr(value, "__file__", None) or ""
    else:
        return None
    path = Path(file).resolve()
    return path if path.is_relative_to(J.PACKAGE) else None


def test_kernel_cache_closure_covers_every_callee() -> None:
    """Every kout_sim dispatcher or module a kernel names lies in its file's import closure, so an
    edit of any code a kernel inlines changes the key of that kernel's cache."""
    modules = _kernel_modules()
    assert len(modules) >= 15
    checked = 0
    for module in modules:
        path = Path(module.__file__ or "").resolve()
        closure = _closure(path)
        for value in vars(module).values():
            if not isinstance(value, CPUDispatcher):
                continue
            if Path(value.py_func.__code__.co_filename).resolve() != path:
                continue  # imported from another module: checked there
            for callee in _callees(value):
                source = _source(callee)
                if source is not None:
                    assert source in closure, (module.__name__, value.py_func.__name__, source)
                    checked += 1
    assert checked > 200


def test_kernel_cache_closure_follows_the_layers() -> None:
    """The engine's kernels do not depend on the players or drivers (an edit of a player keeps them
    cached); the play loop depends on both."""
    names = ("kout/__init__.py", "kout/hand.py", "baloot/__init__.py", "baloot/hand.py", "game.py")
    engine = {J.PACKAGE / "engine" / name for name in names}
    for path in engine:
        layers = {p.relative_to(J.PACKAGE).parts[0] for p in _closure(path)}
        assert layers == {"engine"}, (path, layers)
    play = _closure(J.PACKAGE / "drivers" / "play.py")
    assert J.PACKAGE / "engine" / "kout" / "hand.py" in play
    assert J.PACKAGE / "players" / "kout_heuristic.py" in play
    assert J.PACKAGE / "drivers" / "fork.py" not in play


def test_kernel_cache_relative_imports_resolve() -> None:
    """``from ..engine import layout as L`` names the submodule, ``from ..engine.layout import X``
    the module, ``from .. import cards`` the module ``cards`` (not the package's __init__)."""
    deps = J._imports(J.PACKAGE / "io" / "features.py")
    assert J.PACKAGE / "cards.py" in deps
    assert J.PACKAGE / "__init__.py" not in deps
    fork = J._imports(J.PACKAGE / "drivers" / "fork.py")
    assert J.PACKAGE / "engine" / "layout.py" in fork
    assert J.PACKAGE / "drivers" / "loop.py" in fork  # from .loop import (...)


def test_kernel_cache_digest_changes_with_an_imported_source(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The digest of a file changes when a file it imports changes, not when an unrelated one does."""
    pkg = tmp_path / "kout_sim"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "players").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "engine" / "__init__.py").write_text("")
    (pkg / "players" / "__init__.py").write_text("")
    (pkg / "engine" / "layout.py").write_text("X = 1\n")
    (pkg / "engine" / "kout.py").write_text("from .layout import X\n")
    (pkg / "players" / "bot.py").write_text("from ..engine import kout\n")
    monkeypatch.setattr(J, "PACKAGE", pkg)
    J.forget_sources()
    try:
        before = J.source_digest(pkg / "engine" / "kout.py")
        bot_before = J.source_digest(pkg / "players" / "bot.py")
        J.forget_sources()
        (pkg / "players" / "bot.py").write_text("from ..engine import kout  # edited\n")
        assert J.source_digest(pkg / "engine" / "kout.py") == before
        assert J.source_digest(pkg / "players" / "bot.py") != bot_before
        J.forget_sources()
        (pkg / "engine" / "layout.py").write_text("X = 2\n")
        assert J.source_digest(pkg / "engine" / "kout.py") != before
    finally:
        J.forget_sources()


def test_kernel_cache_locator_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel's cache folder is its module path and its closure digest below the cache root."""
    from kout_sim.engine.kout import hand as K

    dispatcher = next(
        v
        for v in vars(K).values()
        if isinstance(v, CPUDispatcher) and v.py_func.__module__ == K.__name__
    )
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    path = Path(dispatcher.py_func.__code__.co_filename)
    locator = J.KernelCacheLocator.from_function(dispatcher.py_func, str(path))
    assert locator is not None
    digest = J.source_digest(path.resolve())
    assert locator.get_cache_path() == str(tmp_path / "engine" / "kout" / "hand" / digest)
    assert locator.get_source_stamp() == digest


def test_kernel_cache_import_scan_reads_statements_at_any_depth() -> None:
    """Only import statements are parsed: at module level, in a function body, parenthesised over
    lines; an import-looking line of a docstring that is no statement does not break the scan."""
    source = b'''"""Docs.

from the engine import the kernels (prose, not a statement)
"""
from .layout import (
    A,
    B,
)
import numpy as np


def f():
    from ..players import policy
    return policy
'''
    found = [ast.dump(s) for s in J._import_statements(source)]
    assert len(found) == 3
    assert "module='layout'" in found[0] and "name='B'" in found[0]
    assert "name='numpy'" in found[1]
    assert "module='players'" in found[2] and "level=2" in found[2]
