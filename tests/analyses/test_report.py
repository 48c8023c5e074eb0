"""Strategy reports on small runs: every number the report's JSON carries is recomputed here from
the parquet files with plain polars and numpy (not through the analyses functions), and the page is
checked to be self-contained. Studies: a tiny ``all`` study expands to its runs."""

from __future__ import annotations

import html
import importlib
import json
import math
import re
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import kout_sim
from analyses import bid_success, studies
from analyses import report as rp
from analyses.commands import shown_path, with_out
from analyses.render import CSS, METHOD_TITLE, STYLE, render_html, seat_groups
from analyses.section import (
    MIN_N,
    SUMMARY_MAX,
    Column,
    Paragraph,
    Report,
    ReportInput,
    Section,
    Table,
    expand,
)
from kout_sim.cli import main

Z = 1.96


def wilson(k: int, n: int) -> tuple[float, float]:
    """Textbook Wilson score interval (written out again here on purpose)."""
    p = k / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denom
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))


def normal_ci(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    half = Z * float(x.std(ddof=1)) / math.sqrt(len(x))
    return m, m - half, m + half


def blob(html_text: str) -> dict[str, Any]:
    found = re.search(
        r'<script type="application/json" id="report-data">(.*?)</script>', html_text, re.S
    )
    assert found, "no report-data JSON in the page"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def rows(data: dict[str, Any], section: str, table: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = data["sections"][section]["tables"][table]["rows"]
    return out


def raw_hands(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(folder / "hands" / "*.parquet")


def raw_matches(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(folder / "matches" / "*.parquet")


def kout_hand_columns(raw: pl.DataFrame, n_seats: int = 4) -> dict[str, np.ndarray]:
    """forced, net points, strength bucket of every hand, with numpy."""
    bidder = raw["bidder"].to_numpy().astype(int)
    dealer = raw["dealer"].to_numpy().astype(int)
    passes = np.array([c.split(" ").count("pass") for c in raw["calls"].to_list()])
    forced = (bidder == dealer) & (passes == n_seats - 1)
    p0 = raw["points_team0"].to_numpy().astype(int)
    p1 = raw["points_team1"].to_numpy().astype(int)
    team = bidder % 2
    net = np.where(team == 0, p0 - p1, p1 - p0)
    strength = (
        raw["bidder_trump_length"].fill_null(0).to_numpy().astype(int)
        + raw["bidder_jokers"].fill_null(0).to_numpy().astype(int)
        + raw["bidder_trump_honours"].fill_null(0).to_numpy().astype(int)
    )
    return {
        "forced": forced,
        "net": net,
        "bucket": np.clip(strength, 4, 12),
        "contract": raw["contract"].to_numpy().astype(int),
        "made": raw["made"].to_numpy().astype(bool),
        "rel": (bidder - dealer) % n_seats,
    }


@pytest.fixture(scope="session")
def kout_report(
    kout_run: Path, kout_matches_run: Path, sweep_runs: dict[int, Path], runs_root: Path
) -> tuple[str, dict[str, Any], Path]:
    out = runs_root / "reports" / "kout.html"
    paths = [kout_run, kout_matches_run, *sweep_runs.values()]
    rp.write_report(paths, out, title="test report")
    text = out.read_text()
    return text, blob(text), out


def test_by_contract_recomputed(
    kout_report: tuple[str, dict[str, Any], Path], kout_run: Path
) -> None:
    _, data, _ = kout_report
    h = kout_hand_columns(raw_hands(kout_run))
    table = rows(data, "bid_success", "by_contract")
    assert sum(r["rows"] for r in table) == len(h["net"]) == 3_000
    for r in table:
        sel = (h["contract"] == int(r["bid"])) & (h["forced"] == r["forced"])
        k, n = int(h["made"][sel].sum()), int(sel.sum())
        assert (r["made_k"], r["made_n"], r["share_k"], r["share_n"]) == (k, n, n, 3_000)
        assert r["made_rate"] == pytest.approx(k / n)
        assert (r["made_low"], r["made_high"]) == pytest.approx(wilson(k, n), abs=1e-12)
        assert (r["share_low"], r["share_high"]) == pytest.approx(wilson(n, 3_000), abs=1e-12)
        if n > 1:
            mean, low, high = normal_ci(h["net"][sel].astype(float))
            assert (r["points_mean"], r["points_low"], r["points_high"]) == pytest.approx(
                (mean, low, high)
            )
    malzoom = [r for r in table if r["bid"] == "5" and r["forced"]]
    assert malzoom and malzoom[0]["rows"] == raw_hands(kout_run)["malzoom"].sum()


def test_bid_guide_recomputed(
    kout_report: tuple[str, dict[str, Any], Path], kout_run: Path
) -> None:
    _, data, _ = kout_report
    h = kout_hand_columns(raw_hands(kout_run))
    free = ~h["forced"]
    guide = rows(data, "bid_guide", "guide")
    assert guide, "no bucket had a bid with 30 hands"
    for r in guide:
        means = {}
        for bid in range(5, 10):
            sel = free & (h["bucket"] == r["strength_bucket"]) & (h["contract"] == bid)
            if sel.sum() >= MIN_N:
                means[str(bid)] = (h["net"][sel].mean(), int(sel.sum()), sel)
        best = max(means, key=lambda b: means[b][0])
        assert r["best_bid"] == best and r["candidates"] == len(means)
        mean, n, sel = means[best]
        assert r["n"] == n and r["mean"] == pytest.approx(mean)
        assert (r["low"], r["high"]) == pytest.approx(normal_ci(h["net"][sel].astype(float))[1:])
        k = int(h["made"][sel].sum())
        assert r["made_k"] == k and (r["made_low"], r["made_high"]) == pytest.approx(wilson(k, n))
    # the pooled ranges: every number recomputed on the pooled hands
    ranges = rows(data, "bid_guide", "guide_ranges")
    assert ranges
    for r in ranges:
        in_range = free & (h["bucket"] >= r["from_bucket"]) & (h["bucket"] <= r["to_bucket"])
        cands = {
            b: h["net"][in_range & (h["contract"] == b)]
            for b in range(5, 10)
            if (in_range & (h["contract"] == b)).sum() >= MIN_N
        }
        top = max(cands, key=lambda b: cands[b].mean())
        assert r["best_bid"] == str(top) and r["n"] == len(cands[top])
        assert r["mean"] == pytest.approx(cands[top].mean())
        sel = in_range & (h["contract"] == top)
        assert r["made_k"] == h["made"][sel].sum() and r["made_n"] == sel.sum()
    # the summary states the guidance as numbers, the same numbers
    first = ranges[0]
    sentence = next(s for s in data["summary"] if s.startswith("With a hand of"))
    assert f"bid {first['best_bid']}" in sentence
    assert f"{100 * first['made_rate']:.1f}%" in sentence
    assert f"n={first['made_n']:,}" in sentence and f"{first['mean']:+.2f}" in sentence


def test_seats_recomputed(
    kout_report: tuple[str, dict[str, Any], Path], kout_run: Path, kout_matches_run: Path
) -> None:
    _, data, _ = kout_report
    h = kout_hand_columns(raw_hands(kout_run))
    for r in rows(data, "seats", "bid_share"):
        k = int((h["rel"] == r["seat_rel"]).sum())
        assert (r["k"], r["n"]) == (k, 3_000)
        assert (r["low"], r["high"]) == pytest.approx(wilson(k, 3_000))
    m = raw_matches(kout_matches_run)
    won = (m["winner"].to_numpy() == m["first_dealer"].to_numpy() % 2).sum()
    overall = next(
        r for r in rows(data, "seats", "first_dealer_wins") if r["first_dealer_team"] == "any"
    )
    assert len(m) == 150 and (overall["k"], overall["n"]) == (won, 150)
    # the match-length sweep (different teams) is not read as a seat study; the first deal's
    # advantage is a fact of the rules, not advice: it goes to the method section
    assert "first dealer" in " ".join(m["text"] for m in data["method"])
    assert "first dealer" not in " ".join(data["summary"])


def test_match_length_recomputed(
    kout_report: tuple[str, dict[str, Any], Path], sweep_runs: dict[int, Path]
) -> None:
    _, data, _ = kout_report
    lengths = {r["target"]: r for r in rows(data, "match_length", "hands_per_match")}
    wins = {r["target"]: r for r in rows(data, "match_length", "stronger_side_wins")}
    assert sorted(lengths) == [31, 101]  # the sweep, not the equal-teams run at 101
    for target, folder in sweep_runs.items():
        m = raw_matches(folder)
        n_hands = m["n_hands"].to_numpy().astype(float)
        mean, low, high = normal_ci(n_hands)
        r = lengths[target]
        assert r["n"] == len(m) == 100
        assert (r["mean"], r["low"], r["high"]) == pytest.approx((mean, low, high))
        assert r["median"] == np.median(n_hands) and r["max"] == n_hands.max()
        k = int((m["winner"] == 0).sum())
        assert (wins[target]["k"], wins[target]["n"]) == (k, 100)
        assert (wins[target]["low"], wins[target]["high"]) == pytest.approx(wilson(k, 100))
        reasons = {r["reason"]: r for r in rows(data, "match_length", "end_reasons")}
        assert set(reasons) <= {"target", "kout", "bawan_first_hand"}
    sentence = next(s for s in data["summary"] if s.startswith("From target 31 to 101"))
    assert f"{lengths[101]['mean']:.1f}" in sentence


def test_page_is_self_contained_and_small(kout_report: tuple[str, dict[str, Any], Path]) -> None:
    text, data, out = kout_report
    refs = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)["']""", text, re.I)
    assert refs and all(r.startswith(("data:", "#")) for r in refs), refs
    assert "<link" not in text and "@import" not in text and "url(" not in text
    assert text.count("data:image/png;base64,") >= 3
    assert out.stat().st_size < 2_000_000
    assert data["title"] == "test report" and data["preset"] == "kout_bo_4"
    assert [s for s in data["sections"]] == ["bid_success", "bid_guide", "match_length", "seats"]
    # atomic write: no temporary file left beside the report
    assert [p.name for p in out.parent.iterdir()] == ["kout.html"]


def test_every_run_has_metadata_and_a_command_that_reproduces_it(
    kout_report: tuple[str, dict[str, Any], Path], kout_run: Path, tmp_path: Path
) -> None:
    text, data, _ = kout_report
    # the runs and the report are outside the current folder: named by their own names
    meta = next(r for r in data["runs"] if r["folder"] == kout_run.name)
    assert meta["seed"] == 11 and meta["count"] == 3_000 and meta["preset"] == "kout_bo_4"
    assert meta["version"] and "git_revision" in meta and meta["players"][0].startswith("heuristic")
    expected = "kout-sim simulate --preset kout_bo_4 --players heuristic --hands 3000 --seed 11 --out kout_bo_4"
    assert meta["command"] == expected
    assert data["commands"]["report"].startswith("kout-sim report --run kout_bo_4 --run ")
    assert data["commands"]["report"].endswith("--out kout.html --title 'test report'")
    assert str(kout_run.parent) not in text  # no absolute path of this machine in the page
    # the command writes the same rows again
    args = shlex.split(meta["command"])[1:]
    args[args.index("--out") + 1] = str(tmp_path / "again")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert raw_hands(tmp_path / "again").equals(raw_hands(kout_run))
    sweep = [r for r in data["runs"] if r["unit"] == "matches" and r["options"]["target"] == 31]
    assert "--option target=31" in sweep[0]["command"]
    assert "--players heuristic --players random:pass=0.8" in sweep[0]["command"]


def test_sections_follow_the_data(
    kout_run: Path, baloot_run: Path, bh_run: Path, tmp_path: Path
) -> None:
    only_hands = rp.write_report([kout_run], tmp_path / "a.html")
    assert [s.key for s in only_hands.sections] == ["bid_success", "bid_guide", "seats"]

    baloot = rp.write_report([baloot_run], tmp_path / "b.html")
    keys = [s.key for s in baloot.sections]
    assert "baloot_modes" in keys and "match_length" in keys
    data = blob((tmp_path / "b.html").read_text())
    raw = raw_hands(baloot_run)
    shares = {r["mode"]: r for r in rows(data, "baloot_modes", "mode_shares")}
    for mode in ("sun", "hokum"):
        k = int((raw["mode"] == mode).sum())
        assert (shares[mode]["k"], shares[mode]["n"]) == (k, len(raw))
    fails = {
        r["mode"]: r
        for r in rows(data, "baloot_modes", "buyer_results")
        if r["measure"] == "buyer_fails"
    }
    sun = raw.filter(pl.col("mode") == "sun")
    assert fails["sun"]["k"] == int((~sun["made"]).sum()) and fails["sun"]["n"] == len(sun)

    rp.write_report([bh_run], tmp_path / "c.html")
    data = blob((tmp_path / "c.html").read_text())
    assert "baloot_modes" not in data["sections"]
    # the Inzili (8) wins or loses the match, not points: not in the expected-points tables
    assert all(r["bid"] != "8" for r in rows(data, "bid_guide", "expected_points"))
    reasons = {r["reason"] for r in rows(data, "match_length", "end_reasons")}
    assert reasons == {"target", "inzili", "forced_joker"}


def test_mixed_presets_are_refused(kout_run: Path, bh_run: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mix presets"):
        rp.write_report([kout_run, bh_run], tmp_path / "x.html")
    result = CliRunner().invoke(
        main, ["report", "--run", str(kout_run), "--run", str(bh_run), "--out", "x.html"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: the runs mix presets (kout_bh_4, kout_bo_4)")
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "x.html").exists()


def test_other_runs_are_passed_through_to_new_sections(kout_run: Path, tmp_path: Path) -> None:
    other = tmp_path / "fork-run"
    (other / "forks").mkdir(parents=True)
    pl.DataFrame({"x": [1, 2, 3]}).write_parquet(other / "forks" / "part-00000.parquet")
    (other / "run.json").write_text(json.dumps({"preset": "kout_bo_4", "kind": "fork"}))

    def fork_section(inp: ReportInput) -> Section | None:
        runs = [r for r in inp.other_runs if r.kind == "fork"]
        if not runs:
            return None
        total = int(runs[0].tables["forks"].select(pl.col("x").sum()).collect().item())
        sec = Section("fork", "Forks", findings=[f"sum {total}"])
        sec.blocks.append(Table("t", "caption", pl.DataFrame({"total": [total]}), []))
        return sec

    report = rp.write_report(
        [kout_run, other], tmp_path / "r.html", sections=(*rp.SECTIONS, fork_section)
    )
    assert fork_section not in rp.SECTIONS  # the report's own list is left as it was
    assert [r.kind for r in report.inp.other_runs] == ["fork"]
    data = blob((tmp_path / "r.html").read_text())
    assert data["sections"]["fork"]["tables"]["t"]["rows"] == [{"total": 6}]
    assert {"section": "fork", "text": "sum 6"} in data["method"]  # not advice: not summed up


def test_paths_are_shown_relative_never_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert shown_path("data/studies/x/../y") == "data/studies/y"
    assert shown_path(tmp_path / "data" / "run") == "data/run"  # inside the current folder
    assert shown_path("/elsewhere/runs/bids") == "bids"  # outside: by its name
    command = "kout-sim forks --hands 5 --out /home/me/forks"
    assert with_out(command, "forks") == "kout-sim forks --hands 5 --out forks"


def test_study_folder_expands_to_its_runs(tmp_path: Path) -> None:
    folder = tmp_path / "study"
    result = CliRunner().invoke(
        main,
        [
            "study",
            "all",
            "--preset",
            "kout_bo_4",
            "--hands",
            "2000",
            "--matches",
            "30",
            "--seed",
            "5",
            "--workers",
            "1",
            "--out",
            str(folder),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        f"kout-sim report --run {folder} --out {folder / 'report.html'}"
    )
    meta = json.loads((folder / "study.json").read_text())
    assert meta["name"] == "all" and meta["preset"] == "kout_bo_4" and meta["status"] == "complete"
    paths = [r["path"] for r in meta["runs"]]
    targets = studies.TARGETS["kout_bo"]
    assert paths == [
        "bids",
        *[f"match-length/target-{t}" for t in targets],
        "seats",
        "joker-forks",
        "joker-context",
        "joker-forks-bid_margin0",
        "joker-context-bid_margin0",
        "bid-forks",
    ]
    for entry in meta["runs"]:
        run = json.loads((folder / entry["path"] / "run.json").read_text())
        assert run["status"] == "complete" and run["count"] == (
            30 if entry["kind"] == "matches" else 2000
        )
        command = {"joker_forks": "forks", "bid_forks": "forks --kind bid"}.get(
            entry["kind"], "simulate"
        )
        assert entry["command"].startswith(f"kout-sim {command} --preset kout_bo_4")
        # a context run's command plays its hands again into its play/ folder
        played = "/play" if entry["kind"] == "joker_context" else ""
        assert entry["command"].endswith(f"--out {folder / entry['path']}{played}")
        if entry["path"].endswith("bid_margin0"):
            assert "--players heuristic:bid_margin=0" in entry["command"]
    runs, found = expand([folder])
    assert [r.folder for r in runs] == [folder / p for p in paths]
    assert [r.shown for r in runs] == [f"study/{p}" for p in paths]
    assert found[0]["command"] == with_out(meta["command"], "study")
    assert found[0]["command"].endswith("--out study") and found[0]["folder"] == "study"
    report = rp.write_report([folder], folder / "report.html")
    data = blob((folder / "report.html").read_text())
    lengths = rows(data, "match_length", "hands_per_match")
    assert [r["target"] for r in lengths] == list(targets)
    assert data["commands"]["studies"] == [found[0]["command"]]
    assert str(tmp_path) not in (folder / "report.html").read_text()
    assert {r.study for r in report.inp.runs} == {
        "bids",
        "match-length",
        "seats",
        "joker-lead",
        "bid-forks",
    }
    guide = next(s for s in report.sections if s.key == "bid_guide")
    assert guide.title == "Bid guide: every call tried on the same hands"  # the paired guide
    # the summary is advice only; the pairing gains of both kinds of forks are method items
    check_summary(data)
    method = [m["text"] for m in data["method"]]
    assert any(m.startswith("Pairing:") for m in method)  # the bid forks'
    assert any(m.startswith("Pairing (net)") for m in method)  # the joker forks'
    assert not any("Pairing" in s or "narrower" in s for s in data["summary"])
    page = (folder / "report.html").read_text()
    assert page.index('id="method"') > page.index('id="joker"')
    assert all(html.escape(m, quote=True) in page for m in method)
    # the joker's advice comes from a study with two line-ups: it says whether it holds
    for item in data["summary_items"]:
        if item["section"] == "joker" and "contract 9" not in item["text"]:
            assert "heuristic:bid_margin=0" in item["holds"], item
            assert re.search(r"(holds|reverses|not separated from 0|too few forks)", item["holds"])


def test_hand_runs_of_different_players_are_not_pooled(kout_run: Path, tmp_path: Path) -> None:
    other = kout_sim.simulate(
        "kout_bo_4", players="random", hands=500, seed=3, out=tmp_path / "random", workers=1
    )
    with pytest.raises(ValueError, match="differ in players or options"):
        rp.write_report([kout_run, other], tmp_path / "r.html")


def test_the_sections_are_an_explicit_list_each_beside_its_analysis() -> None:
    """The report shows the sections of SECTIONS in that order, each defined in the module of its
    analysis; importing a module registers nothing."""
    expected = [
        ("analyses.bid_success", "bid_success_section"),
        # the paired guide, or bid_success's without bid forks
        ("analyses.bid_forks", "bid_guide_section"),
        ("analyses.hand_model_section", "hand_model_section"),  # only with a bid fork run
        ("analyses.match_length", "match_length_section"),
        ("analyses.baloot_modes", "baloot_modes_section"),
        ("analyses.seats", "seats_section"),
        ("analyses.joker_section", "joker_section"),
        ("analyses.ladder_section", "ladder_section"),
    ]
    assert [(f.__module__, f.__name__) for f in rp.SECTIONS] == expected
    assert list(rp.SECTIONS) == [getattr(importlib.import_module(m), f) for m, f in expected]
    assert isinstance(rp.SECTIONS, tuple)


def test_the_report_guide_is_bid_success_bid_guide(
    kout_report: tuple[str, dict[str, Any], Path], kout_run: Path
) -> None:
    """Every number of the report's bid guide is the one bid_success.bid_guide and
    bid_success.guide_ranges give for the same hands (no second computation in the report)."""
    _, data, _ = kout_report
    hands = ReportInput.from_runs(expand([kout_run])[0]).bid_hands()
    assert hands is not None
    ev = bid_success.expected_points(hands[0])
    guide = bid_success.bid_guide(ev, min_n=MIN_N)
    shown = rows(data, "bid_guide", "guide")
    assert len(shown) == guide.height
    for r, g in zip(shown, guide.iter_rows(named=True)):
        assert same_row(r, {k: v for k, v in g.items() if k != "preset"})
    ranges = bid_success.guide_ranges(hands[0], guide, min_n=MIN_N)
    shown = rows(data, "bid_guide", "guide_ranges")
    assert len(shown) == ranges.height
    for r, g in zip(shown, ranges.iter_rows(named=True)):
        assert same_row(
            {k: v for k, v in r.items() if k != "strength"},
            {k: v for k, v in g.items() if k != "preset"},
        )
        assert r["strength"] == bid_success.strength_label(
            r["from_bucket"], r["to_bucket"], "kout_bo"
        )


def same_row(shown: dict[str, Any], computed: dict[str, Any]) -> bool:
    """The same columns, the same values (floats to rounding: polars may sum a group in another
    order from one call to the next)."""
    return set(shown) == set(computed) and all(
        shown[k] == pytest.approx(v, rel=1e-12) if isinstance(v, float) else shown[k] == v
        for k, v in computed.items()
    )


def check_summary(data: dict[str, Any]) -> None:
    """The summary of a report's JSON: at most SUMMARY_MAX sentences, each a piece of advice
    with a number and the players it comes from; every finding of every section is in the summary
    or in the method section, once."""
    summary, items = data["summary"], data["summary_items"]
    assert 0 < len(summary) <= SUMMARY_MAX and len(items) == len(summary)
    for sentence, item in zip(summary, items):
        assert sentence.startswith(item["text"]) and f"players: {item['players']}" in sentence
        assert item["players"] and re.search(r"\d", item["text"])
        advice = [a["text"] for a in data["sections"][item["section"]]["advice"]]
        assert item["text"] in advice
    shown = [(i["section"], i["text"]) for i in items]
    method = [(m["section"], m["text"]) for m in data["method"]]
    assert not set(shown) & set(method)
    every = [(k, f) for k, sec in data["sections"].items() for f in sec["findings"]]
    assert sorted(shown + method) == sorted(every)


def test_the_summary_is_advice_with_players_and_the_method_has_its_own_section(
    kout_report: tuple[str, dict[str, Any], Path],
) -> None:
    text, data, _ = kout_report
    check_summary(data)
    # the small report's advice: the bid guide first, then the match length
    sections = [i["section"] for i in data["summary_items"]]
    assert sections == sorted(sections, key=["bid_guide", "match_length"].index)
    assert all(i["players"] == "heuristic" for i in data["summary_items"][:-1])
    assert "Free bids are made" in " ".join(m["text"] for m in data["method"])
    # the page: the summary list, then the sections, then the method section before the runs
    assert text.count('<ul class="summary">') == 1
    summary_html = text.split('<ul class="summary">')[1].split("</ul>")[0]
    assert summary_html.count("<li>") == len(data["summary"])
    assert f'<h2 id="method">{METHOD_TITLE}</h2>' in text
    assert text.index('id="seats"') < text.index('id="method"') < text.index('id="runs"')
    method_html = text.split('<h2 id="method">')[1].split('<h2 id="runs">')[0]
    for m in data["method"]:
        assert html.escape(m["text"], quote=True) in method_html
    # nothing else is lost: every table of every section is on the page and in the JSON
    for key, sec in data["sections"].items():
        for table in sec["tables"]:
            assert f'<table id="{table}">' in text, (key, table)


def test_the_summary_keeps_the_advice_of_highest_priority(kout_run: Path) -> None:
    """Ten advice items of three priorities: the summary keeps the eight of highest priority in
    the report's order, the method section the rest and every other finding."""
    inp = ReportInput.from_runs(expand([kout_run])[0])
    one, two = Section("one", "One"), Section("two", "Two")
    one.findings.append("method of one")
    for i in range(5):
        one.advise(f"one {i}: 1%", "heuristic", priority=i % 3)
        two.advise(f"two {i}: 2%", "random", "holds under heuristic", priority=2 - i % 3)
    two.blocks.append(Paragraph("body"))
    report = Report(inp, [one, two])
    kept = [a.text for _, a in report.summary()]
    priorities = {a.text: a.priority for s in (one, two) for a in s.advice}
    assert len(kept) == SUMMARY_MAX
    left = [t for t in priorities if t not in kept]
    assert min(priorities[t] for t in kept) >= max(priorities[t] for t in left)
    assert kept == [t for t in priorities if t in kept]  # the report's order
    assert [f for _, f in report.method()] == ["method of one", *left]
    labels = {a.text: a.label for _, a in report.summary()}
    assert labels["two 0: 2%"] == "players: random; holds under heuristic"
    assert labels["one 2: 1%"].startswith("players: heuristic; not checked under other players")


# ------------------------------------------------------------------------ layout at 1280 px

LONG = "heuristic:" + ",".join(f"parameter_{i}={i / 7:.6f}" for i in range(40))
"""A player spec of one 800-character token (no space to break it at)."""


def test_the_players_of_a_run_are_grouped_by_seat() -> None:
    """One line per distinct spec, naming its seats in the order of their first seat; a list that
    is not one spec per seat (a ladder rung's player, a duel's two teams) comes as it is."""
    assert seat_groups(["h"] * 4, 4) == [("seats 0, 1, 2, 3", "h")]
    assert seat_groups(["h", "r", "h", "r"], 4) == [("seats 0, 2", "h"), ("seats 1, 3", "r")]
    assert seat_groups(["r", "h", "h", "h"], 4) == [("seat 0", "r"), ("seats 1, 2, 3", "h")]
    assert seat_groups(["a", "b"], 4) == [("", "a"), ("", "b")]


def test_the_head_and_each_run_are_one_line_of_the_page(
    kout_report: tuple[str, dict[str, Any], Path], kout_run: Path
) -> None:
    """The page's head (the stylesheet inside it, the CSS's tokens) is one line after the doctype;
    each run of "Runs and how to reproduce them" is one line whose players list each spec once with
    its seats."""
    text, data, _ = kout_report
    lines = text.splitlines()
    assert lines[0] == "<!DOCTYPE html>"
    assert lines[1].startswith('<html lang="en"><head>') and lines[1].endswith("</head><body>")
    style = [line for line in lines if "<style>" in line or "</style>" in line]
    assert len(style) == 1 and f"<style>{STYLE}</style>" in style[0]
    assert STYLE.split() == CSS.split() and "\n" not in STYLE

    def seats_of(folder: str) -> list[str]:
        (line,) = [line for line in lines if line.startswith(f"<h3>{html.escape(folder)}</h3>")]
        assert line.endswith("</details>") and "<pre>kout-sim simulate " in line
        found = re.search(r'<ul class="seats">(.*)</ul></details>$', line)
        assert found
        return re.findall(r"<li>(.*?)</li>", found.group(1))

    hands = next(r for r in data["runs"] if r["folder"] == kout_run.name)
    heuristic = html.escape(hands["players"][0])
    assert len(set(hands["players"])) == 1 and heuristic.startswith("heuristic:")
    assert seats_of(kout_run.name) == [f"seats 0, 1, 2, 3: <code>{heuristic}</code>"]
    sweep = next(r for r in data["runs"] if r["unit"] == "matches" and r["options"]["target"] == 31)
    team0, team1 = (html.escape(p) for p in sweep["players"][:2])
    assert team1.startswith("random:pass=0.8")
    assert seats_of(sweep["folder"]) == [
        f"seats 0, 2: <code>{team0}</code>",
        f"seats 1, 3: <code>{team1}</code>",
    ]


def _cell(column: str) -> Callable[[dict[str, Any]], str]:
    return lambda row: str(row[column])


def _long_report(kout_run: Path, out: Path) -> Path:
    """The report of ``kout_run`` with a section whose paragraph, table cell, advice and finding
    carry :data:`LONG`, and a report command as long: the worst case for the page's width."""

    def long_section(inp: ReportInput) -> Section:
        sec = Section("long", "Long tokens")
        sec.advise(f"With {LONG}, bid 7: made 81% of the time.", LONG)
        sec.findings.append(f"Method of {LONG}.")
        sec.blocks.append(Paragraph(f"Players {LONG}."))
        frame = pl.DataFrame({"spec": [LONG], **{f"column {i}": [i] for i in range(30)}})
        cols = [Column(c, _cell(c)) for c in frame.columns]
        sec.blocks.append(Table("wide", f"A wide table of {LONG}", frame, cols))
        return sec

    report = rp.build_report(
        ReportInput.from_runs(expand([kout_run])[0]),
        f"kout-sim report --run {LONG} --out x.html",
        (*rp.SECTIONS, long_section),
    )
    out.write_text(render_html(report))
    return out


def test_the_css_keeps_the_page_within_1280_px(kout_run: Path, tmp_path: Path) -> None:
    """Without a browser: long tokens wrap anywhere in text, every table is inside a box that
    scrolls sideways, figures shrink to the text, and no width in the CSS exceeds 1280 px."""
    css = {sel.strip(): body for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", CSS)}
    wrapping = next(sel for sel, body in css.items() if "overflow-wrap:anywhere" in body)
    assert {"p", "li", "pre", "code", "h3", "caption"} <= set(wrapping.split(","))
    assert "overflow-x:auto" in css[".scroll"] and "max-width:100%" in css["img"]
    widths = [int(w) for w in re.findall(r"(\d+)px", CSS)]
    assert widths and max(widths) <= 1280
    text = _long_report(kout_run, tmp_path / "long.html").read_text()
    body = text.split("</style>")[1]
    assert body.count("<table") == body.count('<div class="scroll"><table') > 0
    assert "style=" not in body and "width=" not in body


def _chromium() -> str | None:
    return next((c for c in ("chromium", "chromium-browser") if shutil.which(c)), None)


PROBE = """<script>
window.addEventListener('load', () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.right > width + 0.5 && !el.closest('.scroll')) out.push(el.tagName + ' ' + box.right);
  }
  out.push('page ' + document.documentElement.scrollWidth + ' of ' + width);
  const p = document.createElement('pre'); p.id = 'probe'; p.textContent = out.join('\\n');
  document.body.appendChild(p);
});
</script>"""


@pytest.mark.skipif(_chromium() is None, reason="no headless Chromium on this machine")
def test_nothing_overflows_at_1280_px_in_a_headless_browser(kout_run: Path, tmp_path: Path) -> None:
    """Headless Chromium lays the worst-case page out at 1280 px (every <details> opened): no
    element outside a scrolling table box reaches past the window, and the page does not scroll
    sideways. Skipped where Chromium is absent (it is not a requirement of the project)."""
    page = _long_report(kout_run, tmp_path / "long.html")
    page.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    chromium = _chromium()
    assert chromium
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"]
    dom = subprocess.run(
        [chromium, *args, "--virtual-time-budget=5000", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run"
    lines = html.unescape(found.group(1)).splitlines()
    page_width, window = (int(float(x)) for x in lines[-1].split()[1::2])
    assert window > 1200 and page_width <= window, lines[-1]
    assert lines[:-1] == [], lines[:10]
    shot = tmp_path / "long.png"
    subprocess.run(
        [chromium, *args, f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
