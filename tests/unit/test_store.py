"""The run folder guarded: --overwrite replaces only a run, damaged shards are found on every read
and replayed by --resume, a full disk leaves no temporary file, a second writer is locked out."""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import kout_sim
from kout_sim.cli import main
from kout_sim.io import store as S
from kout_sim.io.read import check_run, verify
from kout_sim.sim import run, shard

SETTINGS: dict[str, Any] = {"players": "random", "matches": 60, "seed": 11}
CORRUPTIONS = ("truncate", "garbage", "zeros", "delete")


@pytest.fixture(autouse=True)
def small_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "SHARD_MATCHES", 20)  # three shards of 20 matches
    monkeypatch.setattr(run, "SHARD_HANDS", 500)


def _simulate(out: Path, **extra: Any) -> Path:
    return Path(kout_sim.simulate(**{**SETTINGS, **extra}, out=out))


def _meta(folder: Path) -> dict[str, Any]:
    return dict(json.loads((folder / "run.json").read_text()))


def _frame(table: Any) -> pl.DataFrame:
    """A ``pyarrow.Table`` as a polars frame."""
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.parquet"))}


def _stamp(path: Path) -> tuple[int, int]:
    return path.stat().st_ino, path.stat().st_mtime_ns


def _corrupt(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif how == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif how == "zeros":
        path.write_bytes(bytes(len(data)))
    else:
        path.unlink()


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run never interrupted (three shards of 20 matches)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(run, "SHARD_MATCHES", 20)
        return _simulate(tmp_path_factory.mktemp("whole") / "run")


# ------------------------------------------------------------------------------------ overwrite


def test_a_run_json_names_its_writer_and_holds_every_shard(whole: Path) -> None:
    meta = _meta(whole)
    assert meta["writer"] == "kout-sim" and meta["status"] == "complete"
    assert sorted(meta["shards"]) == [
        f"{t}/part-{k:05d}.parquet" for t in ("hands", "matches") for k in range(3)
    ]
    for name, entry in meta["shards"].items():
        assert entry == S.file_entry(S.Store(whole).fs, str(whole / name))
    assert not (whole / ".lock").exists()


def test_overwrite_refuses_a_folder_that_is_not_a_run_and_leaves_it_untouched(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "holiday.jpg").write_bytes(b"not a run")
    with pytest.raises(ValueError, match="not a run folder written by kout-sim"):
        _simulate(folder, overwrite=True)
    assert [p.name for p in folder.iterdir()] == ["holiday.jpg"]
    assert (folder / "holiday.jpg").read_bytes() == b"not a run"


def test_overwrite_refuses_a_file_and_leaves_it_untouched(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("keep me")
    result = CliRunner().invoke(
        main,
        ["simulate", "--players", "random", "--matches", "5", "--out", str(target), "--overwrite"],
    )
    assert result.exit_code == 2
    assert "is a file, not a run folder" in result.output and "Traceback" not in result.output
    assert target.read_text() == "keep me"


def test_overwrite_replaces_a_run_and_keeps_a_file_that_is_not_part_of_it(tmp_path: Path) -> None:
    folder = _simulate(tmp_path / "run")
    (folder / "notes.txt").write_text("mine")
    _simulate(folder, overwrite=True, seed=12)
    assert (folder / "notes.txt").read_text() == "mine"
    assert _meta(folder)["seed"] == 12 and _meta(folder)["status"] == "complete"
    check_run(folder)


def test_forks_duel_study_and_report_refuse_to_replace_what_they_did_not_write(
    tmp_path: Path,
) -> None:
    from analyses.duel import duel
    from analyses.report import write_report
    from analyses.studies import run_study
    from kout_sim.sim.fork import write_forks

    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "data.csv").write_text("a,b\n")
    with pytest.raises(ValueError, match="not a run folder written by kout-sim"):
        write_forks(folder, hands=10, players="random", overwrite=True)
    with pytest.raises(ValueError, match="not a duel folder written by kout-sim"):
        duel("kout_bo_4", "random", "random", matches=2, out=folder, overwrite=True)
    with pytest.raises(ValueError, match="not a study folder written by kout-sim"):
        run_study("seats", "kout_bo_4", out=folder, matches=2, overwrite=True)
    page = tmp_path / "page.html"
    page.write_text("<html>my page</html>")
    with pytest.raises(ValueError, match="is not a kout-sim report; not replacing it"):
        write_report([str(_simulate(tmp_path / "r"))], page)
    assert [p.name for p in folder.iterdir()] == ["data.csv"]
    assert (folder / "data.csv").read_text() == "a,b\n"
    assert page.read_text() == "<html>my page</html>"


# ---------------------------------------------------------------------------------- corruption


@pytest.mark.parametrize("how", CORRUPTIONS)
@pytest.mark.parametrize("shard", ["matches/part-00001.parquet", "hands/part-00002.parquet"])
def test_a_damaged_shard_is_refused_by_every_reader_and_replayed_by_resume(
    tmp_path: Path, whole: Path, how: str, shard: str
) -> None:
    from analyses.report import write_report
    from kout_sim.sim.records import match_record

    folder = _simulate(tmp_path / "run")
    number = shard.rsplit("/", 1)[1]  # the shard's files of every table are played again
    untouched = {n: _stamp(folder / n) for n in _files(folder) if not n.endswith(number)}
    _corrupt(folder / shard, how)
    for read in (
        lambda: kout_sim.load(folder),
        lambda: write_report([str(folder)], tmp_path / "r.html"),
        lambda: match_record(folder, 25),
    ):
        with pytest.raises(ValueError, match=f"is damaged: {shard}: ") as caught:
            read()
        message = str(caught.value)
        assert "\n" not in message and "--resume replays it" in message
    assert not (tmp_path / "r.html").exists()
    # kout-sim verify: one line naming the shard, exit 1
    result = CliRunner().invoke(main, ["verify", str(folder)])
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{folder}/{shard}: ")
    # --resume plays exactly that shard again: every file as in the run never damaged
    _simulate(folder, resume=True)
    assert _files(folder) == _files(whole)
    assert _meta(folder)["shards"] == _meta(whole)["shards"]
    assert {n: _stamp(folder / n) for n in untouched} == untouched
    assert CliRunner().invoke(main, ["verify", str(folder)]).exit_code == 0


def test_verify_finds_an_altered_shard_that_keeps_its_size_and_footer(tmp_path: Path) -> None:
    folder = _simulate(tmp_path / "run")
    path = folder / "hands" / "part-00000.parquet"
    data = bytearray(path.read_bytes())
    data[100] ^= 0xFF  # a flipped bit in a column page: the footer still reads
    path.write_bytes(bytes(data))
    runs, problems = verify(folder)
    assert runs == [str(folder)]
    assert problems == [
        f"{folder}/hands/part-00000.parquet: altered (its SHA-256 differs from the manifest's)"
    ]


def test_a_shard_from_another_writer_is_reported(tmp_path: Path) -> None:
    folder = _simulate(tmp_path / "run")
    other = _simulate(tmp_path / "other", seed=8)
    (folder / "matches" / "part-00001.parquet").write_bytes(
        (other / "matches" / "part-00001.parquet").read_bytes()
    )
    with pytest.raises(ValueError, match=r"matches/part-00001.parquet: (altered|truncated)"):
        kout_sim.load(folder)


def test_an_incomplete_run_is_refused_with_how_to_finish_it(tmp_path: Path) -> None:
    folder = _simulate(tmp_path / "run")
    meta = _meta(folder)
    (folder / "run.json").write_text(json.dumps({**meta, "status": "running"}))
    with pytest.raises(ValueError, match=r"incomplete \(status 'running'\).*--resume"):
        kout_sim.load(folder)
    assert set(kout_sim.load(folder, verify=False)) == {"hands", "matches"}


# ---------------------------------------------------------------------------- a full disk


def test_a_full_disk_leaves_no_temporary_file_and_a_failed_status(
    tmp_path: Path, whole: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = pq.write_table
    calls = {"n": 0}

    def full_disk(table: Any, where: Any, **options: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 4:  # the second shard's matches file: half written, then ENOSPC
            where.write(b"PAR1" + bytes(1000))
            raise OSError(errno.ENOSPC, "No space left on device")
        real(table, where, **options)

    monkeypatch.setattr(pq, "write_table", full_disk)
    folder = tmp_path / "run"
    with pytest.raises(ValueError) as caught:
        _simulate(folder, workers=1)
    message = str(caught.value)
    assert "\n" not in message and "No space left on device" in message and "--resume" in message
    assert not [p for p in folder.rglob("*") if ".tmp-" in p.name]
    assert not (folder / ".lock").exists()
    meta = _meta(folder)
    assert meta["status"] == "failed" and "No space left on device" in meta["error"]
    with pytest.raises(ValueError, match=r"incomplete .status 'failed': No space left"):
        kout_sim.load(folder)
    monkeypatch.setattr(pq, "write_table", real)
    (folder / "hands" / ".part-00002.parquet.tmp-99999").write_bytes(b"left by a killed writer")
    _simulate(folder, resume=True)
    assert not [p for p in folder.rglob("*") if ".tmp-" in p.name]
    assert _files(folder) == _files(whole)
    meta = _meta(folder)
    assert meta["status"] == "complete" and "error" not in meta
    assert meta["summary"] == _meta(whole)["summary"] and meta["seconds"] > 0


# ------------------------------------------------------------------------------------ the lock


def _lock(folder: Path, pid: int, host: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".lock").write_text(json.dumps({"pid": pid, "host": host, "started": 0}))


def test_a_run_folder_being_written_is_refused_to_a_second_writer(tmp_path: Path) -> None:
    folder = _simulate(tmp_path / "run")
    before = _files(folder)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _lock(folder, sleeper.pid, socket.gethostname())
        for kwargs in ({"overwrite": True, "seed": 12}, {"resume": True}):
            with pytest.raises(ValueError, match=f"being written by pid {sleeper.pid} on host"):
                _simulate(folder, **kwargs)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert _files(folder) == before and _meta(folder)["seed"] == SETTINGS["seed"]
    # its writer gone, the lock is stale: the next writer takes it over
    _simulate(folder, overwrite=True, seed=12)
    assert _meta(folder)["seed"] == 12 and not (folder / ".lock").exists()


def test_a_lock_of_another_host_is_never_taken_over(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    _lock(folder, 1, "elsewhere.example")
    with pytest.raises(ValueError, match=r"elsewhere\.example.*remove .*\.lock"):
        _simulate(folder, resume=True)


# -------------------------------------------------------------------------- stopping a shard


def test_a_stoppable_shard_has_the_rows_of_one_call_and_stops_when_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    monkeypatch.setattr(shard, "STOP_HANDS", 300)
    monkeypatch.setattr(shard, "STOP_MATCHES", 7)
    for unit, size in (("hands", 1_000), ("matches", 30)):
        spec = shard.RunSpec("kout_bo_4", {}, ["random"] * 4, 3, unit, size, size, True)
        one = shard.play_shard(spec, {}, 0, size, 1)
        steps = shard.play_shard(spec, {}, 0, size, 1, stop=threading.Event())
        for name in one:
            assert _frame(one[name]).equals(_frame(steps[name]))
        stopped = threading.Event()
        stopped.set()
        with pytest.raises(shard.Stopped):
            shard.play_shard(spec, {}, 0, size, 1, stop=stopped)


def test_a_real_full_disk_fails_in_one_line_with_no_temporary_file(tmp_path: Path) -> None:
    """On a 256 KiB tmpfs where this process may mount one (else the monkeypatched writer above
    stands for it): the run fails, a resume on the still-full disk fails the same way, and neither
    leaves a temporary file."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)]
    try:
        subprocess.run(mount, check=True, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        pytest.skip("no tmpfs can be mounted here")
    try:
        folder = disk / "run"
        for extra in ({}, {"resume": True}):
            with pytest.raises(ValueError, match="failed: No space left on device") as caught:
                _simulate(folder, matches=600, **extra)
            assert "\n" not in str(caught.value)
            assert not [p for p in folder.rglob("*") if ".tmp-" in p.name]
            assert _meta(folder)["status"] == "failed" and not (folder / ".lock").exists()
    finally:
        subprocess.run(["umount", str(disk)], check=False, capture_output=True, timeout=30)


def test_verify_checks_every_run_of_a_folder_and_names_a_run_without_a_manifest(
    tmp_path: Path,
) -> None:
    first, second = _simulate(tmp_path / "duel" / "ab"), _simulate(tmp_path / "duel" / "ba")
    result = CliRunner().invoke(main, ["verify", str(tmp_path / "duel")])
    assert result.exit_code == 0 and "2 run(s), every shard whole" in result.stdout
    # a run written before the manifest existed is read as it is, and verify says so
    meta = _meta(second)
    del meta["shards"], meta["writer"]
    (second / "run.json").write_text(json.dumps(meta))
    assert kout_sim.load(second)["matches"].collect().height == SETTINGS["matches"]
    runs, problems = verify(tmp_path / "duel")
    assert runs == [str(first), str(second)]
    assert problems == [f"{second}: no shard manifest (written before kout-sim kept one)"]
    result = CliRunner().invoke(main, ["verify", str(tmp_path / "nothing-here")])
    assert result.exit_code == 2 and "holds none" in result.output
