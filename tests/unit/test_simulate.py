"""Runs: identical rows whatever the workers, resumable shards, atomic files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest

import kout_sim
from kout_sim.engine import layout as L
from kout_sim.io.store import Store
from kout_sim.rules import get_rules
from kout_sim.sim import available_workers, play_random_hands, run, shard

WORKERS = [1, 2] if available_workers() >= 2 else [1]


def _tables(path: Path) -> dict[str, pl.DataFrame]:
    return {name: frame.collect() for name, frame in kout_sim.load(path).items()}


@pytest.fixture
def small_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "SHARD_MATCHES", 200)
    monkeypatch.setattr(run, "SHARD_HANDS", 1_000)


@pytest.mark.usefixtures("small_shards")
@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "baloot"])
def test_same_rows_with_any_number_of_workers(tmp_path: Path, preset: str) -> None:
    runs = [
        _tables(kout_sim.simulate(preset, matches=1_000, seed=5, out=tmp_path / f"w{w}", workers=w))
        for w in WORKERS
    ]
    for other in runs[1:]:
        for name in ("hands", "matches"):
            assert runs[0][name].equals(other[name])
    assert runs[0]["matches"]["match"].to_list() == list(range(1_000))


@pytest.mark.usefixtures("small_shards")
def test_interrupted_run_resumes_to_the_same_rows(tmp_path: Path) -> None:
    whole = _tables(kout_sim.simulate(matches=1_000, seed=8, out=tmp_path / "whole"))
    part = kout_sim.simulate(matches=1_000, seed=8, out=tmp_path / "part")
    # an interruption leaves some shards missing (never half-written: files are renamed into place)
    for k in (1, 3):
        (part / "matches" / f"part-{k:05d}.parquet").unlink()
    (part / "hands" / "part-00004.parquet").unlink()
    (part / "matches" / "part-00004.parquet").unlink()
    kout_sim.simulate(matches=1_000, seed=8, out=part, resume=True)
    resumed = _tables(part)
    for name in ("hands", "matches"):
        assert whole[name].sort(["match"]).equals(resumed[name].sort(["match"]))
    assert not list(part.rglob(".*tmp*"))


@pytest.mark.usefixtures("small_shards")
def test_hands_mode_rows_match_the_batch_kernel(tmp_path: Path) -> None:
    path = kout_sim.simulate("kout_bo_6", players="random", hands=2_500, seed=3, out=tmp_path / "h")
    hands = _tables(path)["hands"]
    assert len(hands) == 2_500 and "matches" not in kout_sim.load(path)
    rows = play_random_hands(get_rules("kout_bo_6"), 2_500, 3)
    assert hands["contract"].to_list() == rows[:, L.R_CONTRACT].tolist()
    assert hands["hand_seat0"].to_list() == rows[:, L.R_HAND].tolist()


def test_resume_with_other_settings_is_refused(tmp_path: Path) -> None:
    path = kout_sim.simulate(matches=50, seed=1, out=tmp_path / "r")
    with pytest.raises(ValueError, match="seed=1"):
        kout_sim.simulate(matches=50, seed=2, out=path, resume=True)
    with pytest.raises(ValueError, match="exists"):
        kout_sim.simulate(matches=50, seed=1, out=path)


def test_shards_are_made_one_at_a_time_even_for_the_largest_count() -> None:
    from kout_sim.sim.batch import MAX_COUNT

    spec = run.RunSpec("kout_bo_4", {}, ["random"] * 4, 0, "hands", MAX_COUNT, 250_000, False)
    assert spec.n_shards == 40_000
    shards = spec.shards(skip={0, 2})
    assert next(shards) == (1, 250_000, 250_000) and next(shards) == (3, 750_000, 250_000)
    odd = run.RunSpec("kout_bo_4", {}, ["random"] * 4, 0, "hands", 1_001, 250, False)
    assert list(odd.shards())[-1] == (4, 1_000, 1) and odd.n_shards == 5


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"hands": 10**10 + 1}, "hands must be at most 10,000,000,000"),
        ({"matches": 2**64}, "matches must be at most"),
        ({"matches": 0}, "matches must be a positive integer"),
        ({"hands": 5, "matches": 5}, "give either matches or hands, not both"),
        ({"hands": 5, "seed": 2**63}, "seed must be at most 2^63 - 1"),
        ({"hands": 5, "seed": -1}, "seed must be a non-negative integer"),
        ({"hands": 5, "scheduler": "local:x"}, "positive N"),
    ],
)
def test_bad_counts_and_seeds_are_refused_before_the_folder_is_made(
    tmp_path: Path, kwargs: dict[str, Any], words: str
) -> None:
    with pytest.raises(ValueError, match=words.replace("^", r"\^")):
        kout_sim.simulate(players="random", out=tmp_path / "r", **kwargs)
    assert not (tmp_path / "r").exists()


def test_resume_plays_only_the_shards_missing_from_one_listing(tmp_path: Path) -> None:
    spec = run.RunSpec("kout_bo_4", {}, ["random"] * 4, 0, "hands", 5_000, 1_000, False)
    folder = kout_sim.simulate(players="random", hands=3_000, seed=0, out=tmp_path / "r")
    assert run.complete_shards(Store(folder), spec) == {0}  # one 250,000-hand shard
    (folder / "hands" / ".part-00001.parquet.tmp-1").write_bytes(b"half")  # not complete
    assert run.complete_shards(Store(folder), spec) == {0}


def test_load_refuses_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a run folder"):
        kout_sim.load(tmp_path)


def test_data_dictionary_is_current() -> None:
    from kout_sim.io.schema import data_dictionary

    docs = Path(__file__).parents[2] / "docs" / "data.md"
    assert docs.read_text() == data_dictionary(), "regenerate: python -m kout_sim.io.schema"


@pytest.mark.usefixtures("small_shards")
@pytest.mark.parametrize("preset", ["kout_bo_6", "baloot"])
def test_actions_table_has_one_row_per_decision(tmp_path: Path, preset: str) -> None:
    path = kout_sim.simulate(preset, matches=300, seed=2, out=tmp_path / "a", actions=True)
    tables = _tables(path)
    hands, actions = tables["hands"], tables["actions"]
    assert len(actions) == hands["n_actions"].sum()
    per_hand = actions.group_by("match", "hand").agg(
        pl.len().alias("n"), pl.col("ply").max().alias("last")
    )
    joined = hands.join(per_hand, on=["match", "hand"])
    assert (joined["n"] == joined["n_actions"]).all() and (joined["last"] == joined["n"] - 1).all()
    assert (actions["n_legal"] >= 1).all() and actions["action"].null_count() == 0
    # the calls column is the hand's non-card decisions in order (card texts have 2 characters)
    for key in ((0, 0), (5, 1)):
        one = actions.filter((pl.col("match") == key[0]) & (pl.col("hand") == key[1])).sort("ply")
        calls = hands.filter((pl.col("match") == key[0]) & (pl.col("hand") == key[1]))["calls"]
        assert [a for a in one["action"] if len(a) != 2] == calls[0].split(" ")


@pytest.mark.usefixtures("small_shards")
def test_bidder_features_match_the_dealt_hand(tmp_path: Path) -> None:
    from kout_sim import cards as C

    path = kout_sim.simulate("kout_bo_4", hands=2_000, seed=6, out=tmp_path / "f")
    hands = _tables(path)["hands"]
    for row in hands.head(300).iter_rows(named=True):
        hand = C.cards_of(row[f"hand_seat{row['bidder']}"])
        trump = "SHDC".index(row["trump"])
        trumps = [c for c in hand if c < 52 and c // 13 == trump]
        assert row["bidder_trump_length"] == len(trumps)
        assert row["bidder_jokers"] == sum(c in (C.BJ, C.RJ) for c in hand)
        assert row["bidder_trump_honours"] == sum(c % 13 >= 9 for c in trumps)
        assert row["bidder_side_aces"] == sum(c < 52 and c % 13 == 12 for c in hand) - any(
            c % 13 == 12 for c in trumps
        )
        assert row["bidder_voids"] == sum(
            not any(c // 13 == s for c in hand if c < 52) for s in range(4)
        )
        for joker, column in ((C.BJ, "bj_holder"), (C.RJ, "rj_holder")):
            holder = [s for s in range(4) if row[f"hand_seat{s}"] >> joker & 1]
            assert [row[column]] == holder
        assert row["jk_holder"] is None
        assert len(row["trick_winners"]) == row["n_tricks_played"]
        assert sum(1 for w in row["trick_winners"] if int(w) % 2 == 0) == row["tricks_team0"]


@pytest.mark.usefixtures("small_shards")
def test_local_dask_cluster_gives_the_same_rows(tmp_path: Path) -> None:
    local = _tables(kout_sim.simulate(matches=600, seed=11, out=tmp_path / "threads", workers=1))
    dask = _tables(
        kout_sim.simulate(matches=600, seed=11, out=tmp_path / "dask", scheduler="local:2")
    )
    for name in ("hands", "matches"):
        assert (
            local[name]
            .sort("match", "hand" if name == "hands" else "match")
            .equals(dask[name].sort("match", "hand" if name == "hands" else "match"))
        )


@pytest.mark.usefixtures("small_shards")
@pytest.mark.parametrize(
    ("preset", "unit"), [("kout_bo_4", "hands"), ("kout_bh_4", "matches"), ("baloot", "matches")]
)
def test_summary_counted_while_playing_equals_the_tables(
    tmp_path: Path, preset: str, unit: str
) -> None:
    """The counts the shards record as they are played add up to the counts of the tables."""
    from analyses.summary import format_summary, summarize
    from kout_sim.io.counts import summary_counts

    size = {"hands": 5_000, "matches": 600}[unit]
    counts: dict[str, Any] = {unit: size}  # hands=size or matches=size
    folder = kout_sim.simulate(preset, **counts, seed=4, out=tmp_path / "r", workers=2)
    meta = Store(folder).read_json("run.json")
    assert "summary" in meta
    tables = kout_sim.load(folder)
    n_seats = get_rules(preset).n_players
    scanned = summary_counts(tables["hands"], tables.get("matches"), meta["family"], n_seats)
    assert meta["summary"] == scanned
    assert summarize(folder) == format_summary(meta, scanned, str(folder))


@pytest.mark.usefixtures("small_shards")
@pytest.mark.parametrize("preset", ["kout_bo_4", "kout_bh_4", "baloot"])
def test_summary_shows_the_reports_net_points_with_intervals_forced_bids_apart(
    tmp_path: Path, preset: str
) -> None:
    """Every row of the simulate summary is the report's row of the same bid (analyses.bid_success
    / the report's by_contract): hands, made rate and Wilson interval, and the bidding team's mean
    net points with its interval (RULES.md 1.10, 2.10); the forced bids (RULES.md 1.3, 2.3) come
    after the free ones, under their own heading."""
    from analyses import bid_success as bs
    from analyses._common import load_run, mean_table, rate_table
    from analyses.summary import summarize

    folder = kout_sim.simulate(preset, players="random", hands=6_000, seed=2, out=tmp_path / "r")
    text = summarize(folder).splitlines()
    prepared = bs.prepare(load_run(folder)["hands"]).collect()
    made = rate_table(prepared, ["bid", "forced"], pl.col("made"))
    points = mean_table(prepared, ["bid", "forced"], "net_points")
    rows = made.join(points, on=["bid", "forced"], how="left", suffix="_pts")
    forced_at = next(
        (i for i, line in enumerate(text) if line.startswith("forced: the dealer")), len(text)
    )
    assert rows["forced"].any() == (forced_at < len(text))
    for r in rows.iter_rows(named=True):
        label = r["bid"]
        if r["forced"]:
            label += " Malzoom" if preset == "kout_bo_4" and label == "5" else " forced"
        lines = [x for x in text if x[:10].strip() == label]
        assert len(lines) == 1, (label, text)
        line = lines[0]
        assert (text.index(line) > forced_at) == r["forced"]
        rate = r["rate"] if preset != "baloot" else 1 - r["rate"]  # Baloot: buyer fails
        assert f"{r['rows']:,}" in line and f"{rate:.1%}" in line
        if r["mean"] is None:  # an Inzili: no value in points
            assert preset == "kout_bh_4" and label.startswith("8")
            continue
        assert f"{r['mean']:+.2f} " in line and f"{r['low_pts']:+.2f}..{r['high_pts']:+.2f}" in line
    if preset == "kout_bo_4":  # random bidding: a bid of 9 fails almost always, about -17.7 a hand
        nine = next(x for x in text if x.strip().startswith("9 "))
        assert -18.5 < float(nine.split()[5]) < -16.5


@pytest.mark.parametrize("unit", ["hands", "matches"])
def test_a_searching_shard_reports_progress_per_hand_with_the_same_rows(unit: str) -> None:
    """A searching shard moves the progress bar every two hands (every match in a match run)
    instead of once per shard, and its rows are those of one kernel call."""
    players = ["ismcts:iterations=5", "heuristic"]
    size = 5 if unit == "hands" else 2
    spec = shard.RunSpec("kout_bo_4", {}, players, 9, unit, size, size, True)
    steps: list[int] = []
    stepwise = shard.play_shard(spec, {}, 3, size, 1, progress=steps.append)
    whole = shard.play_shard(spec, {}, 3, size, 1)
    assert steps == ([2, 2, 1] if unit == "hands" else [1, 1])
    assert stepwise.keys() == whole.keys()
    for name in whole:
        assert stepwise[name].equals(whole[name]), name


@pytest.mark.usefixtures("small_shards")
def test_kawesh_hands_counted_and_the_dealer_redeals(tmp_path: Path) -> None:
    """RULES.md 3.2.7 (K): the heuristic calls Kawesh whenever it may; simulate counts the Kawesh
    hands apart from the passed-out ones, and the same dealer deals the next hand."""
    folder = kout_sim.simulate(
        "baloot", options={"profile": "kammelna"}, matches=300, seed=6, out=tmp_path / "k"
    )
    hands = _tables(folder)["hands"].sort(["match", "hand"])
    kawesh = hands.filter(pl.col("calls").str.contains("kawesh"))
    assert len(kawesh) > 10  # about one hand in 60 deals someone five 7s, 8s and 9s
    assert kawesh["calls"].str.ends_with("kawesh").all() and kawesh["mode"].is_null().all()
    assert Store(folder).read_json("run.json")["summary"]["buys"]["kawesh"][0] == len(kawesh)
    following = hands.with_columns(
        pl.col("dealer").shift(-1).over("match").alias("next_dealer"),
        pl.col("calls").str.contains("kawesh").alias("is_kawesh"),
    ).filter(pl.col("next_dealer").is_not_null())
    same = following["next_dealer"] == following["dealer"]
    assert (same == following["is_kawesh"]).all()
