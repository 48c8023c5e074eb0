"""The report's section "What a hand is worth": the fitted hand model of :mod:`analyses.hand_model`
on the bid forks of ``kout-sim forks --kind bid`` runs of the report's (Kout) preset.

It reads the coefficients of the logistic P(made) in trumps (:func:`analyses.hand_model.worth`),
shows the out-of-sample comparison with the report's hand strength side by side
(:func:`analyses.hand_model.validation`), the calibration by deciles and its plot, and the
coefficients themselves. It is shown only when a bid fork run of the report's preset is given.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from . import hand_model as HM
from .bid_forks import BID_FORKS_KIND
from .columns import text_col
from .fmt import count, num, pct, players_text
from .section import ADVICE_PRIORITY, Column, Paragraph, Plot, ReportInput, Section, Table

SHARE, SEED = 0.3, 0
"""The share of hands held out, and the seed of the split, of the report's validation."""

_WORDS = {
    "jokers": "a joker",
    "trump_honours": "a trump honour (A K Q J, on top of its length)",
    "side_aces": "a side ace",
    "side_kings": "a side king",
    "voids": "a void",
    "seat_1": "speaking first (seat 1)",
    "seat_2": "seat 2",
    "seat_3": "seat 3",
    "score": "10 points of the team's score",
}


STRENGTH_WEIGHTS = {
    "jokers": 1.0,
    "trump_honours": 1.0,
    "side_aces": 0.0,
    "side_kings": 0.0,
    "voids": 0.0,
}
"""What the report's strength counts each feature, in trumps (a trump counts 1)."""


def misweighted(by: dict[str, dict[str, Any]]) -> tuple[list[str], list[str]]:
    """The features whose 95% interval in trumps (rows of :func:`analyses.hand_model.worth`
    keyed by feature) lies above / below the weight the strength count gives them."""
    above = [f for f, w in STRENGTH_WEIGHTS.items() if f in by and by[f]["low"] > w]
    below = [f for f, w in STRENGTH_WEIGHTS.items() if f in by and by[f]["high"] < w]
    return above, below


def _ratio_text(r: dict[str, Any]) -> str:
    return f"{num(r['ratio'], 2)} ({num(r['low'], 2)}..{num(r['high'], 2)})"


def hand_model_section(inp: ReportInput) -> Section | None:
    """The hand model's section (see the module docstring), or None without a bid fork run of
    the report's preset (or for Baloot, whose calls are not bid levels)."""
    runs = [r for r in inp.other_runs if r.kind == BID_FORKS_KIND and r.preset == inp.preset]
    if not runs or inp.family.is_baloot:
        return None
    forks = pl.concat([r.tables["bid_forks"].collect() for r in runs], how="diagonal_relaxed")
    forks = forks.filter(pl.col("decision") == 0)
    if forks["hand"].n_unique() < 2 * HM.MIN_HANDS:
        return None
    valid = HM.validation(forks, SHARE, SEED)
    ratios = HM.worth(forks)
    coefs = HM.coefficients(forks, "made")
    points = HM.coefficients(forks, "net")
    cal = HM.calibration(forks, SHARE, SEED)
    n_hands = forks["hand"].n_unique()
    used = [f for f in HM.FEATURES if f in set(coefs["feature"].to_list())] if len(coefs) else []
    dropped = [f for f in HM.FEATURES if f not in used]
    sec = Section("hand_model", "What a hand is worth: a fitted model against the strength count")
    sec.blocks.append(
        Paragraph(
            f"On the same {n_hands:,} bid forks as the bid guide (every call played on each hand), "
            "one model per call was fitted: a logistic regression for the chance that the seat's "
            "team buys and makes the contract, and a least-squares line for the net points, on the "
            "hand's jokers, trumps (the length of its long suit, the suit it would name), the A K Q "
            "J of that suit, its side aces and kings, and its voids. Every call's model is fitted "
            "on the same hands, so the calls' models differ by the call alone. "
            + (
                "Seat and score do not vary here (the first free decision of independent hands "
                "is always the first seat at 0-0), so they are left out. "
                if {"seat_1", "score"} <= set(dropped)
                else ""
            )
            + f"The models were checked on {pct(SHARE, 0)} of the hands held out (whole hands: "
            "every call of a held-out hand is held out) against the report's strength, the long "
            "suit plus its honours plus one per joker."
        )
    )
    for call in ("5", "6", "7", "8"):
        here = ratios.filter(pl.col("call") == call) if len(ratios) else ratios
        if here.is_empty():
            continue
        by = {r["feature"]: r for r in here.iter_rows(named=True)}
        parts = [
            f"{_WORDS[f]} about {_ratio_text(by[f])}"
            for f in ("jokers", "side_aces", "trump_honours", "side_kings", "voids")
            if f in by
        ]
        above, below = misweighted(by)
        verdict = "; the strength count (a trump, a joker and an honour 1 each, side cards 0) "
        verdict += (
            "gives too little to " + ", ".join(_WORDS[f] for f in above) if above else "agrees"
        )
        if below:
            verdict += " and too much to " + ", ".join(_WORDS[f] for f in below)
        sec.advise(
            f"For a bid of {call} (its chance of being made), counted in trumps: "
            + ", ".join(parts)
            + " (95% intervals, delta method)"
            + verdict
            + ".",
            players_text(runs, inp.family),
            priority=ADVICE_PRIORITY["hand_model"],
        )
        sec.data["strength_misweighted"] = {"call": call, "too_little": above, "too_much": below}
        break
    bids = valid.filter(pl.col("call") != "pass") if len(valid) else valid
    if not bids.is_empty() and "auc_model" in bids.columns:
        lo_m, hi_m = bids["auc_model"].min(), bids["auc_model"].max()
        lo_s, hi_s = bids["auc_strength"].min(), bids["auc_strength"].max()
        better = bool((bids["auc_model"] > bids["auc_strength"]).all())
        sec.findings.append(
            f"On held-out hands the model ranks made against failed bids with an AUC of "
            f"{num(lo_m, 2)} to {num(hi_m, 2)} (bids 5 and up), the strength count with "
            f"{num(lo_s, 2)} to {num(hi_s, 2)}; "
            + (
                "the model is better for every bid, so the strength count should be replaced by "
                "the model's chance of making the bid."
                if better
                else "the strength count is as good for some bids, so it is kept beside the model."
            )
        )
        sec.data["auc_range"] = {
            "model": [lo_m, hi_m],
            "strength": [lo_s, hi_s],
            "model_better_for_every_bid": better,
        }
    if not valid.is_empty():
        sec.blocks.append(
            Table(
                "validation",
                "Out of sample, per call: the model against the strength count on the held-out "
                "hands (AUC of made: 0.5 is chance; Brier: mean squared error of the predicted "
                "chance; R²: share of the variance of the net points explained).",
                valid,
                [
                    text_col("call", "call"),
                    Column(
                        "hands fitted / held out",
                        lambda r: f"{count(r['train_hands'])} / {count(r['test_hands'])}",
                    ),
                    Column("made (held out)", lambda r: pct(r["made_rate"])),
                    Column("AUC model", lambda r: num(r.get("auc_model"), 3)),
                    Column("AUC strength", lambda r: num(r.get("auc_strength"), 3)),
                    Column("Brier model", lambda r: num(r.get("brier_model"), 4)),
                    Column("Brier strength", lambda r: num(r.get("brier_strength"), 4)),
                    Column("R² points model", lambda r: num(r.get("r2_model"), 3)),
                    Column("R² points strength", lambda r: num(r.get("r2_strength"), 3)),
                ],
            )
        )
    if not ratios.is_empty():
        sec.blocks.append(
            Table(
                "worth_in_trumps",
                "Each card feature in trumps, per call: its coefficient in the logistic model "
                "of made divided by the trump's (one more card of the long suit), 95% "
                "delta-method interval. Calls whose trump coefficient is not separated from 0 "
                "are left out.",
                ratios.filter(pl.col("call") != "pass"),
                [
                    text_col("call", "call"),
                    text_col("feature", "feature"),
                    Column("in trumps (95% CI)", _ratio_text),
                ],
            )
        )
    if not cal.is_empty():
        sec.blocks.append(
            Plot(
                "calibration",
                "Calibration on the held-out hands: the observed made rate (95% interval) "
                "against the model's predicted chance, per decile of the prediction, one line "
                "per call; calibrated points lie on the diagonal.",
                HM.figure(cal),
            )
        )
        sec.blocks.append(
            Table(
                "calibration",
                "Calibration by deciles of the predicted chance of making it (held-out hands).",
                cal,
                [
                    text_col("call", "call"),
                    text_col("decile", "decile"),
                    Column("hands", lambda r: count(r["n"])),
                    Column("predicted", lambda r: pct(r["predicted"])),
                    Column(
                        "observed (95% CI)",
                        lambda r: f"{pct(r['observed'])} ({pct(r['low'])}..{pct(r['high'])})",
                    ),
                ],
            )
        )
    for key, table, what in (
        ("coefficients_made", coefs, "log odds of made"),
        ("coefficients_points", points, "net points (robust HC1 errors)"),
    ):
        if table.is_empty():
            continue
        sec.blocks.append(
            Table(
                key,
                f"The fitted coefficients, per call and feature, on every hand: {what}.",
                table,
                [
                    text_col("call", "call"),
                    text_col("feature", "feature"),
                    Column(
                        "coefficient (95% CI)",
                        lambda r: (
                            f"{num(r['coef'], 3, True)} ({num(r['low'], 3)}..{num(r['high'], 3)})"
                        ),
                    ),
                    Column("hands", lambda r: count(r["hands"])),
                ],
            )
        )
    return sec
