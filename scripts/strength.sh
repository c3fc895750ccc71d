#!/usr/bin/env bash
# How good kalah's moves are where nothing is proven (scripts/strength.py): builds kalah and, if
# missing, the judge database (m = 6, both capture rules, layers 1..28: about 6 min and 2.1 GiB
# of disk each on 2 cores, 4 GiB of memory), then measures seeds lost a move at 0.1 s and 1 s on
# one thread with no database, on 200 positions of random Kalah(6,4)/(6,5) games.
# Environment: KALAH_JUDGE_DB (default /tmp/kalah-judge28). Arguments go to strength.py
# (e.g. --positions 100 --budgets 1 --verbose).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
judge=${KALAH_JUDGE_DB:-/tmp/kalah-judge28}
for capture in standard empty; do
  build/tools/kalah build --db "$judge" --pits 6 --max-seeds 28 --capture "$capture" >&2
done
PYTHONPATH=build/python python3 scripts/strength.py --kalah build/tools/kalah --judge-db "$judge" "$@"
