"""The rule book ships with the repository (docs/RULES.md) and every citation of it resolves.

The project's rule book lives in ``../shared/RULES.md`` beside the repository on the project's
machine; ``docs/RULES.md`` is its copy, so a clone on its own still holds the rules every comment,
doc page and ``kout-sim presets`` line cites by number (``RULES.md 2.8``, ``RULES.md §3``, ...).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "docs" / "RULES.md"
SHARED = Path(os.environ.get("KOUT_SIM_SHARED_RULES", ROOT.parent / "shared" / "RULES.md"))
"""The shared rule book: ``../shared/RULES.md`` beside the clone (``KOUT_SIM_SHARED_RULES`` names
another path, e.g. from a worktree elsewhere)."""

RULE_ID = r"§ ?\d+(?:\.\d+)*|\d+(?:\.\d+)+(?:\([a-z]\))?"
RULE_LIST = f"(?:{RULE_ID})(?:(?:, | / | and |-)(?:{RULE_ID}))*"
CITATION = re.compile(r"RULES\.md(?:\]\([^)]*\))?`?,?[ ]+(" + RULE_LIST + ")")
SCANNED = ("kout_sim", "analyses", "tests", "benchmarks", "docs", "notebooks", "reports")
SUFFIXES = (".py", ".md", ".ipynb", ".yaml", ".json", ".html")


def rule_ids(text: str) -> dict[str, str]:
    """Every rule number of the rule book, with its text: sections (``1``), subsections (``3.6``)
    and the numbered rules of each (``1.8``, ``3.6.3``)."""
    ids: dict[str, str] = {}
    current: str | None = None
    prefix: str | None = None
    for line in text.splitlines():
        heading = re.match(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? ", line)
        if heading:
            prefix = heading.group(2)
            current = prefix
            ids[prefix] = line
            continue
        item = re.match(r"^(\d+)\. ", line)
        if item and prefix is not None:
            current = f"{prefix}.{item.group(1)}"
            ids[current] = line
        elif current is not None and current.count(".") and line.startswith(" "):
            ids[current] += "\n" + line
    return ids


def cited(text: str) -> list[str]:
    """The rule numbers ``text`` cites as ``RULES.md N.M`` (lists and ranges split)."""
    out = []
    for match in CITATION.finditer(text):
        out += re.findall(RULE_ID, match.group(1))
    return out


def _exists(rule: str, ids: dict[str, str]) -> bool:
    rule = rule.lstrip("§ ")
    letter = re.search(r"\(([a-z])\)$", rule)
    base = rule[: letter.start()] if letter else rule
    if base not in ids:
        return False
    return letter is None or f"({letter.group(1)})" in ids[base]


def test_rulebook_is_in_the_repository() -> None:
    assert RULEBOOK.is_file(), "docs/RULES.md is missing: copy ../shared/RULES.md"
    ids = rule_ids(RULEBOOK.read_text())
    # the sections and a few rules the code leans on most
    for rule in ("0", "1", "2", "3", "1.6", "1.12", "2.8", "3.2.3", "3.6.3", "3.7"):
        assert rule in ids, rule


@pytest.mark.skipif(not SHARED.is_file(), reason="no ../shared/RULES.md beside this clone")
def test_rulebook_is_the_shared_rulebook_byte_for_byte() -> None:
    assert RULEBOOK.read_bytes() == SHARED.read_bytes(), (
        "docs/RULES.md differs from ../shared/RULES.md: copy the shared rule book again"
    )


def test_parser_reads_rule_numbers_and_citations() -> None:
    ids = rule_ids("## 1. A\n1. **x** (a) one\n   (b) two\n2. y\n## 3. B\n### 3.6 S\n1. z\n")
    assert set(ids) == {"1", "1.1", "1.2", "3", "3.6", "3.6.1"}
    assert _exists("1.1(b)", ids) and not _exists("1.2(a)", ids) and not _exists("1.3", ids)
    assert cited("see RULES.md 1.8, 2.8 and [RULES.md](docs/RULES.md) §3; RULES.md 1.6-1.7") == [
        "1.8",
        "2.8",
        "§3",
        "1.6",
        "1.7",
    ]


def _scanned_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in SCANNED:
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in SUFFIXES)
    return [p for p in files if p.is_file() and p != RULEBOOK]


def test_every_cited_rule_number_exists_in_the_rulebook() -> None:
    ids = rule_ids(RULEBOOK.read_text())
    missing = []
    n = 0
    for path in _scanned_files():
        for rule in cited(path.read_text(errors="replace")):
            n += 1
            if not _exists(rule, ids):
                missing.append(f"{path.relative_to(ROOT)}: RULES.md {rule}")
    assert n > 100, "the citation scan found almost nothing: is the pattern broken?"
    assert not missing, "citations of rules docs/RULES.md does not have: " + "; ".join(missing)


def test_every_option_of_kout_sim_presets_cites_an_existing_rule() -> None:
    from kout_sim.rules import PRESETS

    ids = rule_ids(RULEBOOK.read_text())
    missing = []
    for name, preset in PRESETS.items():
        for opt in preset.options.values():
            for rule in re.findall(r"\b\d+\.\d+(?:\.\d+)?(?:\([a-z]\))?", opt.meaning):
                if not _exists(rule, ids):
                    missing.append(f"{name}.{opt.name}: {rule}")
    assert not missing, missing


def test_every_link_to_the_rulebook_resolves() -> None:
    links = 0
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#]*RULES\.md)(?:#[^)]*)?\)", path.read_text()):
            links += 1
            assert (path.parent / target).resolve() == RULEBOOK, f"{path.name}: {target}"
    assert links >= 5


def test_presets_command_names_the_rulebook() -> None:
    from click.testing import CliRunner

    from kout_sim.cli import main

    out = CliRunner().invoke(main, ["presets"]).stdout
    assert out.splitlines()[0] == "Rule numbers refer to the rule book docs/RULES.md."
