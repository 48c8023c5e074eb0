#!/usr/bin/env bash
# Regenerates the example reports in reports/: for each preset, the two-command flow
#   kout-sim study all --preset P --seed 2026   (the runs, under data/studies/all-P/, not committed)
#   kout-sim report --run data/studies/all-P --out reports/P.html
# Fixed seeds: the same commands give the same rows and the same numbers on any machine and with any
# number of workers. Run from anywhere: reports/make_reports.sh [PRESET ...] (default: kout_bo_4,
# kout_bh_4 and baloot); WORKERS=N limits the parallel workers (default: all cores).
set -euo pipefail
cd "$(dirname "$0")/.."
make venv >/dev/null
KOUT_SIM=.venv/bin/kout-sim
SEED=2026
workers=()
if [[ -n "${WORKERS:-}" ]]; then workers=(--workers "$WORKERS"); fi

presets=("$@")
if [[ ${#presets[@]} -eq 0 ]]; then presets=(kout_bo_4 kout_bh_4 baloot); fi

for p in "${presets[@]}"; do
  "$KOUT_SIM" study all --preset "$p" --seed "$SEED" --overwrite "${workers[@]}"
  "$KOUT_SIM" report --run "data/studies/all-$p" --out "reports/$p.html"
done
ls -l reports/*.html
