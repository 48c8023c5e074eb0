"""The layers of docs/ARCHITECTURE.md hold: checked on the import graph, not by reading the code."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import importlinter.api  # noqa: F401  (configures import-linter's adapters)
import pytest
from importlinter.application import use_cases

ROOT = Path(__file__).resolve().parents[2]


def test_import_contracts_of_pyproject_hold(capsys: pytest.CaptureFixture[str]) -> None:
    """The import-linter contracts in pyproject.toml: the layers, and the reference apart from numba."""
    config = str(ROOT / "pyproject.toml")
    assert use_cases.read_user_options(config).contracts_options, "no contract in pyproject.toml"
    kept = use_cases.lint_imports(config_filename=config, cache_dir=None, no_logo=True)
    assert kept, capsys.readouterr().out


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(root: str) -> None:
        nonlocal counter
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle() -> None:
    """No two modules of the project import each other, directly or through others (lazy imports
    in function bodies included)."""
    graph = grimp.build_graph("kout_sim", "analyses")
    assert _cycles(graph) == []


def test_cycle_finder_finds_a_circle() -> None:
    """The circle finder itself: a -> b -> c -> a is one component, d outside it."""
    graph = grimp.ImportGraph()
    for name in ("a", "b", "c", "d"):
        graph.add_module(name)
    graph.add_import(importer="a", imported="b")
    graph.add_import(importer="b", imported="c")
    graph.add_import(importer="c", imported="a")
    graph.add_import(importer="d", imported="a")
    assert _cycles(graph) == [["a", "b", "c"]]


LONG = 600  # lines: a module longer than this says why at its top (docs/ARCHITECTURE.md)


def _long_modules_without_a_reason(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") <= LONG:
            continue
        doc = ast.get_docstring(ast.parse(text)) or ""
        if "Size:" not in doc and f"{LONG} lines" not in doc:
            found.append(str(path.relative_to(root.parent)))
    return found


def test_a_long_module_says_why_at_its_top() -> None:
    """Issue 18's rule: no module over about 600 lines without a reason written at its top."""
    assert _long_modules_without_a_reason(ROOT / "kout_sim") == []
    assert _long_modules_without_a_reason(ROOT / "analyses") == []


def test_the_long_module_check_finds_a_long_module(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "short.py").write_text('"""Short."""\n')
    (package / "long.py").write_text('"""Long."""\n' + "x = 1\n" * (LONG + 1))
    (package / "kept.py").write_text('"""Long.\n\nSize: one algorithm."""\n' + "x = 1\n" * LONG)
    assert _long_modules_without_a_reason(package) == ["pkg/long.py"]
