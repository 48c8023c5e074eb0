"""The text summary of a run (``kout-sim simulate`` prints it): bid success by contract (Baloot:
modes) with the bidding team's net points, and match lengths and endings, from the counts the run
recorded in ``run.json`` (:mod:`kout_sim.io.counts`)."""

from __future__ import annotations

import os
from typing import Any

from kout_sim.io.counts import SUMMARY_TABLES, Summary, summary_counts
from kout_sim.io.read import load
from kout_sim.io.store import Store
from kout_sim.rules import Family, get_rules
from kout_sim.stats import wilson


def summarize(run: str | os.PathLike[str]) -> str:
    """A short text summary of a run: bid success by contract (Baloot: modes) with the bidding
    team's net points, and match lengths and endings. Read from the counts the run recorded in
    ``run.json`` as it played, or (a run resumed, played on a Dask cluster or written by an older
    version) computed from its tables."""
    meta = Store(run).read_json("run.json")
    family = Family(meta.get("family") or get_rules(meta["preset"]).family)
    counts: Summary | None = meta.get("summary")
    if counts is None or SUMMARY_TABLES[family.kind] not in counts:
        tables = load(run)
        n_seats = get_rules(meta["preset"], meta.get("options")).n_players
        counts = summary_counts(tables["hands"], tables.get("matches"), family, n_seats)
    return format_summary({**meta, "family": family}, counts, str(run))


def _mean_ci(n: int, total: int, squares: int) -> tuple[float, float, float] | None:
    """Mean and normal 95% interval of values given by their count, sum and sum of squares (the
    formula of ``analyses._common.mean_columns``)."""
    if n < 1:
        return None
    mean = total / n
    if n < 2:
        return mean, float("nan"), float("nan")
    variance = max(0.0, (squares - total * total / n) / (n - 1))
    half = 1.96 * (variance / n) ** 0.5
    return mean, mean - half, mean + half


def _points_text(n: int, total: int, squares: int) -> str:
    ci = _mean_ci(n, total, squares)
    if ci is None:
        return f"{'-':>8} {'':>15}"
    mean, low, high = ci
    interval = "" if low != low else f"{low:+.2f}..{high:+.2f}"
    return f"{mean:>+8.2f} {interval:>15}"


def _rate_text(k: int, n: int) -> str:
    if n < 1:
        return f"{'-':>7} {'':>13}"
    low, high = wilson(k, n)
    return f"{k / n:>7.1%} {f'{low:.1%}-{high:.1%}':>13}"


def format_summary(meta: dict[str, Any], counts: Summary, run: str) -> str:
    """The text of :func:`summarize` from the run's settings and counts."""
    family = Family(meta.get("family") or get_rules(meta["preset"]).family)
    groups = counts.get(SUMMARY_TABLES[family.kind], {})
    total = sum(c[0] for c in groups.values())
    lines = [
        f"run {run}: preset {meta['preset']}, seed {meta['seed']}, {total:,} hands "
        f"in {meta['seconds']} s",
        f"players {' | '.join(dict.fromkeys(meta['players']))}",
        "",
    ]
    points_header = f"{'net pts':>8} {'95% CI':>15}"
    if family.is_baloot:
        lines += [
            "modes bought (buyer fails, kaboot: rates with 95% Wilson intervals; net pts: the "
            "buyer team's points minus the other team's, a hand)",
            f"{'mode':>8} {'hands':>10} {'share':>7} {'buyer fails':>12} {'95% CI':>13} "
            f"{'kaboot':>7} {points_header}",
        ]
        for mode in sorted(groups):
            n, fails, fails_n, kaboot, net_n, net_sum, net_sq = groups[mode]
            lines.append(
                f"{mode:>8} {n:>10,} {n / total:>7.1%} {_rate_text(fails, fails_n):>26} "
                f"{kaboot / n:>7.1%} {_points_text(net_n, net_sum, net_sq)}"
            )
    else:
        rows = []
        for key, c in groups.items():
            forced, malzoom, contract = key.split(":")
            if forced == "1":
                label = f"{contract} Malzoom" if malzoom == "1" else f"{contract} forced"
            else:
                label = contract
            rows.append((forced == "1", int(contract), label, c))  # free bids first
        lines += [
            "bid success by contract, and the bidding team's net points a hand (its points minus "
            "the other team's), with 95% intervals",
            f"{'contract':>10} {'hands':>10} {'share':>7} {'made':>7} {'95% CI':>13} "
            f"{points_header}",
        ]
        shown_forced = False
        for is_forced, _, label, c in sorted(rows):
            if is_forced and not shown_forced:
                lines.append(
                    "forced: the dealer's bid after every other seat passed (RULES.md 1.3, 2.3)"
                )
                shown_forced = True
            n, made, made_n, net_n, net_sum, net_sq = c
            lines.append(
                f"{label:>10} {n:>10,} {n / total:>7.1%} {_rate_text(made, made_n)} "
                f"{_points_text(net_n, net_sum, net_sq)}"
            )
        if family.is_bahraini:
            lines.append(
                "an Inzili (8) wins or loses the match at once and a forced joker lead loses it: "
                "no net points (RULES.md 2.8, 2.10)"
            )
    if "n_hands" in counts:
        lengths = sorted((int(k), c[0]) for k, c in counts["n_hands"].items())
        n_matches = sum(c for _, c in lengths)
        mean = sum(k * c for k, c in lengths) / n_matches
        lines += [
            "",
            f"{n_matches:,} matches, mean {mean:.2f} hands per match "
            f"(median {_median(lengths, n_matches):.0f}, max {lengths[-1][0]})",
            "match endings: "
            + ", ".join(
                f"{reason} {c[0] / n_matches:.1%}"
                for reason, c in sorted(counts["reasons"].items())
            ),
        ]
    return "\n".join(lines)


def _median(histogram: list[tuple[int, int]], n: int) -> float:
    """The median of the values of a sorted (value, count) histogram of ``n`` values."""

    def nth(i: int) -> int:
        seen = 0
        for value, c in histogram:
            seen += c
            if i < seen:
                return value
        return histogram[-1][0]

    return (nth((n - 1) // 2) + nth(n // 2)) / 2
