"""The command line: help, simulate, bench, replay; bad input exits 2 with one line, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from kout_sim import cards as C
from kout_sim import load, replay_hand
from kout_sim.cli import main


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_help_lists_commands() -> None:
    code, out, _ = _run("--help")
    assert code == 0
    for command in ("simulate", "bench", "replay", "presets", "players"):
        assert command in out


def test_simulate_writes_parquet_and_prints_bid_success(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, stdout, _ = _run("simulate", "--matches", "300", "--seed", "3", "--out", str(out))
    assert code == 0, stdout
    assert "bid success by contract" in stdout and "matches, mean" in stdout
    tables = load(out)
    hands, matches = tables["hands"].collect(), tables["matches"].collect()
    assert len(matches) == 300 and matches["n_hands"].sum() == len(hands)
    meta = json.loads((out / "run.json").read_text())
    assert meta["preset"] == "kout_bo_4" and meta["seed"] == 3


def test_simulate_hands_mode(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, _, _ = _run("simulate", "--preset", "kout_bh_6", "--hands", "500", "--out", str(out))
    assert code == 0
    assert load(out)["hands"].select(pl.len()).collect().item() == 500


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "--preset", "nope"], "unknown preset 'nope'"),
        (["simulate", "--option", "target=0"], "invalid value '0' for option 'target'"),
        (["simulate", "--option", "colour=red"], "unknown option 'colour'"),
        (["simulate", "--option", "target"], "key=value"),
        (["simulate", "--matches", "0"], "matches must be a positive integer"),
        (["simulate", "--players", "genius"], "unknown player 'genius'"),
        (["simulate", "--players", "random:colour=1"], "has no parameter 'colour'"),
        (["simulate", "--players", "random:pass=2"], "pass=2 is outside -1..1"),
        (["simulate", "--players", "random:pass=x"], "pass must be a number"),
        (["simulate", *["--players", "random"] * 3], "give 1 player"),
        (["simulate", "--scheduler", "local:0"], "positive N"),
        (["simulate", "--out", "/proc/forbidden/run"], "cannot create the output folder"),
        (["replay"], "RECORD_FILE"),
        (["replay", "--match", "1"], "--run DIR"),
        (["bench", "--players", "nobody"], "unknown player 'nobody'"),
        (["simulate", "--workers", "99"], "exceeds"),
        (["simulate", "--resume", "--overwrite"], "not both"),
        (["bench", "--preset", "nope"], "unknown preset"),
        (["bench", "--workers", "0"], "workers must be a positive integer"),
        # counts and seeds have an upper bound, checked before anything is built or written
        (["simulate", "--hands", "1e14"], "hands must be at most 10,000,000,000 (10^10)"),
        (["simulate", "--hands", "99999999999999999999"], "hands must be at most"),
        (["simulate", "--matches", "10000000001"], "matches must be at most"),
        (["simulate", "--seed", str(2**63)], "seed must be at most 2^63 - 1"),
        (["simulate", "--hands", "10", "--matches", "5"], "give either matches or hands"),
        (
            ["duel", "--team-a", "random", "--team-b", "random", "--hands", "9", "--matches", "9"],
            "give either matches or hands",
        ),
        (
            ["duel", "--team-a", "random", "--team-b", "random", "--matches", "1e11"],
            "matches must be at most",
        ),
        (["forks", "--hands", "1e11", "--out", "never-made"], "hands must be at most"),
        (["forks", "--seed", "-1", "--out", "never-made"], "seed must be a non-negative"),
        (["study", "bids", "--preset", "kout_bo_4", "--seed", str(2**63 - 2)], "seed + 5"),
        (["study", "bids", "--preset", "kout_bo_4", "--hands", "1e12"], "hands must be at most"),
        (["bench", "--hands", "1e9"], "hands must be an integer in 1..20,000,000"),
        # every integer option is bounded: no traceback, no wrapped column, no endless match
        (["simulate", "--option", f"target={2**63}"], "valid: a positive integer up to 1,000"),
        (["simulate", "--option", "target=40000"], "valid: a positive integer up to 1,000"),
        (["simulate", "--preset", "baloot", "--option", "target=2147483648"], "up to 1,000"),
        (["bench", "--seed", str(2**64)], "seed must be at most 2^63 - 1"),
        (["bench", "--solver", "--seed", str(2**64)], "seed must be at most 2^63 - 1"),
        (["bench", "--solver", "--deals", "0"], "deals must be an integer in 1..1,000,000"),
        (["simulate", "--hands", "10", "--no-par"], "--no-par goes with --solve"),
        (["bench", "--repeats", str(2**70)], "repeats must be an integer in 1..1,000"),
        # usage errors are one line too
        (
            ["simulate", "--hands", "abc"],
            "Invalid value for '--hands': 'abc' is not a whole number",
        ),
        (["simulate", "--hands", "1.5"], "is not a whole number"),
        (["simulate", "--seed", "x"], "Invalid value for '--seed'"),
        (["simulate", "--bogus"], "No such option '--bogus'"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    args: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # where a default run folder (data/runs/...) would appear
    code, stdout, stderr = _run(*args)
    assert code == 2
    assert stderr.startswith("error: ") and words in stderr
    assert stderr.count("\n") == 1 and "Traceback" not in stderr + stdout
    assert not list(tmp_path.iterdir()), "bad input left a (half-made) folder behind"


@pytest.mark.parametrize(("text", "value"), [("1e3", 1000), ("2.5e2", 250), ("1_000", 1000)])
def test_counts_accept_exponent_and_separators(tmp_path: Path, text: str, value: int) -> None:
    out = tmp_path / "run"
    code, _, stderr = _run("simulate", "--players", "random", "--hands", text, "--out", str(out))
    assert code == 0, stderr
    assert json.loads((out / "run.json").read_text())["count"] == value


def test_a_bad_scheduler_leaves_no_run_folder(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, _, stderr = _run("simulate", "--scheduler", "local:0", "--out", str(out))
    assert code == 2 and "positive N" in stderr
    assert not out.exists()


def test_existing_output_folder_needs_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert _run("simulate", "--matches", "10", "--out", str(out))[0] == 0
    code, _, stderr = _run("simulate", "--matches", "10", "--out", str(out))
    assert code == 2 and "exists" in stderr and "--resume" in stderr
    code, _, stderr = _run("simulate", "--matches", "11", "--out", str(out), "--resume")
    assert code == 2 and "count=10" in stderr
    assert _run("simulate", "--matches", "10", "--out", str(out), "--overwrite")[0] == 0


def test_replay_of_a_file_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    record = tmp_path / "record.json"
    record.write_bytes(b'{"rules": "kout_bo_4", "dealer": \xff}')
    code, stdout, stderr = _run("replay", str(record))
    assert code == 2 and stderr.startswith(f"error: cannot read {record}: ")
    assert "utf-8" in stderr and stderr.count("\n") == 1 and "Traceback" not in stderr + stdout


def test_bench_json_has_the_contract_fields() -> None:
    code, stdout, _ = _run(
        "bench", "--hands", "20000", "--repeats", "2", "--json", "--reference", "--workers", "1"
    )
    assert code == 0
    result = json.loads(stdout)
    for key in ("preset", "players", "workers", "hands", "seconds", "hands_per_second"):
        assert key in result
    assert result["reference_hands_per_second"] > 0 and result["speedup"] > 1


def test_replay_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"rules": "kout_bo_4", "dealer": 0, "hands": []}))
    code, _, stderr = _run("replay", str(path))
    assert code == 2 and "list of 4 hands" in stderr
    path.write_text("{not json")
    code, _, stderr = _run("replay", str(path))
    assert code == 2 and "cannot read" in stderr


def test_simulate_baloot_summarises_modes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, stdout, _ = _run("simulate", "--preset", "baloot", "--matches", "100", "--out", str(out))
    assert code == 0 and "modes bought" in stdout and "buyer fails" in stdout
    hands = load(out)["hands"].collect()
    sun = hands.filter(pl.col("mode") == "sun")
    assert len(sun) > 0 and sun["trump"].null_count() == len(sun)  # Sun has no trump
    assert hands["face_up"].null_count() == 0


def test_players_lists_every_parameter() -> None:
    code, out, _ = _run("players")
    assert code == 0 and "random:" in out and "pass = -1" in out


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "baloot"])
def test_replay_a_match_of_a_run_rechecks_it_in_the_reference(tmp_path: Path, preset: str) -> None:
    out = tmp_path / "run"
    args = ["simulate", "--preset", preset, "--matches", "20", "--seed", "4", "--out", str(out)]
    assert _run(*args, "--players", "random", "--players", "random:pass=0.6")[0] == 0
    code, stdout, stderr = _run("replay", "--run", str(out), "--match", "13")
    assert code == 0, stderr
    assert "agrees" in stderr
    record = json.loads(stdout)
    n_hands = load(out)["matches"].collect().filter(pl.col("match") == 13)["n_hands"][0]
    assert record["match"] == 13 and len(record["hands"]) == n_hands
    code, _, stderr = _run("replay", "--run", str(out), "--match", "20")
    assert code == 2 and "0..19" in stderr


@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "baloot"])
def test_replay_a_hand_of_a_hands_run_rechecks_it_in_the_reference(
    tmp_path: Path, preset: str
) -> None:
    out = tmp_path / "run"
    args = ["simulate", "--preset", preset, "--hands", "50", "--seed", "4", "--out", str(out)]
    assert _run(*args)[0] == 0
    code, stdout, stderr = _run("replay", "--run", str(out), "--hand", "17")
    assert code == 0, stderr
    assert "reference re-check: hand 17 agrees" in stderr
    record = json.loads(stdout)
    row = load(out)["hands"].collect().filter(pl.col("match") == 17).row(0, named=True)
    assert record["hand"] == 17 and record["dealer"] == row["dealer"]
    assert record["hands"][0] == C.format_mask(row["hand_seat0"]) or preset == "baloot"
    # the printed record replays alone to the run's points
    result = replay_hand({k: v for k, v in record.items() if k not in ("players", "seed", "hand")})
    assert list(result["points"]) == [row["points_team0"], row["points_team1"]]
    code, _, stderr = _run("replay", "--run", str(out), "--hand", "50")
    assert code == 2 and "0..49" in stderr
    code, _, stderr = _run("replay", "--run", str(out), "--match", "1")
    assert code == 2 and "replay --match needs a run of whole matches" in stderr
    code, _, stderr = _run("replay", "--run", str(out), "--match", "1", "--hand", "1")
    assert code == 2 and "--match K or --hand K" in stderr


def test_forks_writes_the_fork_table_and_prints_the_paired_value(tmp_path: Path) -> None:
    out = tmp_path / "forks"
    code, stdout, _ = _run("forks", "--hands", "3000", "--seed", "2", "--out", str(out))
    assert code == 0, stdout
    forks = load(out)["forks"].collect()
    meta = json.loads((out / "run.json").read_text())
    assert meta["kind"] == "joker_forks" and meta["forks"] == len(forks) > 0
    assert meta["lead_only"] is True and forks["leading"].all()
    assert f"{len(forks):,} forks of 3,000 hands" in stdout and "variance reduction" in stdout
    bidding = forks.filter("bidding_team")
    tricks = int((bidding["tricks_joker"] != bidding["tricks_other"]).sum())
    made = int((bidding["made_joker"] != bidding["made_other"]).sum())
    assert (
        f"the branches differ in tricks in {tricks:,} of {len(bidding):,} forks "
        f"({tricks / len(bidding):.1%}), in the made result in {made:,}"
    ) in stdout


def test_bid_forks_write_the_branches_and_print_each_calls_paired_value(tmp_path: Path) -> None:
    out = tmp_path / "bids"
    code, stdout, _ = _run(
        "forks", "--kind", "bid", "--hands", "400", "--seed", "3", "--out", str(out)
    )
    assert code == 0, stdout
    table = load(out)["bid_forks"].collect()
    meta = json.loads((out / "run.json").read_text())
    assert meta["kind"] == "bid_forks" and meta["at"] == "first" and meta["branches"] == len(table)
    assert meta["forks"] == table["hand"].n_unique() == 400  # a Kout hand always has a free bid
    assert f"{meta['forks']:,} bid forks ({len(table):,} branches) of 400 hands" in stdout
    passes = table.filter(pl.col("call") == "pass")
    assert f"pass     {passes['net'].to_numpy().mean():+.2f} (" in stdout
    assert "narrower (median over" in stdout


@pytest.mark.parametrize("kind", ["joker", "bid"])
def test_forks_run_under_a_search_player(tmp_path: Path, kind: str) -> None:
    """Search players fork too (kout_sim.sim.search_fork): the folder holds the same table as the
    Python call with the same seed and players."""
    out = tmp_path / kind
    args = ["--kind", kind, "--players", "ismcts:iterations=20", "--hands", "30", "--seed", "2"]
    code, stdout, stderr = _run("forks", *args, "--workers", "1", "--out", str(out))
    assert code == 0, stderr
    table = load(out)["forks" if kind == "joker" else "bid_forks"].collect()
    meta = json.loads((out / "run.json").read_text())
    assert "ismcts:iterations=20" in str(meta["players"]) and meta["count"] == 30
    if kind == "joker":
        from kout_sim.sim.fork import joker_forks

        again = joker_forks("kout_bo_4", 30, 2, "ismcts:iterations=20", workers=1)
    else:
        from kout_sim.sim.bid_fork import bid_forks

        again = bid_forks("kout_bo_4", 30, 2, "ismcts:iterations=20", workers=1)
    assert len(table) > 0 and table.equals(again)
    assert "of 30 hands" in stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--preset", "baloot"], "Kout preset"),
        (["--hands", "0"], "positive"),
        (["--kind", "bid", "--at", "lead"], "--at lead is for joker forks"),
        (["--at", "every"], "--at every is for --kind bid"),
        (["--kind", "cards"], "Invalid value for '--kind'"),
    ],
)
def test_forks_bad_input_is_one_line_exit_2(tmp_path: Path, args: list[str], words: str) -> None:
    code, _, stderr = _run("forks", *args, "--out", str(tmp_path / "f"))
    assert code == 2 and words in stderr and len(stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "code", "stream", "text"),
    [
        (["--version"], 0, "stdout", "kout-sim, version"),
        (["simulate", "--preset", "nope", "--hands", "5"], 2, "stderr", "error: unknown preset"),
    ],
)
def test_console_entry_point_flushes_and_keeps_the_exit_status(
    args: list[str], code: int, stream: str, text: str
) -> None:
    """``kout-sim`` (cli.run) skips the interpreter teardown: output and exit status survive."""
    import subprocess
    import sys

    script = f"import sys; sys.argv = ['kout-sim', *{args!r}]; from kout_sim.cli import run; run()"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == code
    assert text in getattr(done, stream)
    assert "Traceback" not in done.stderr
