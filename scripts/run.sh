#!/usr/bin/env bash
# The README's main job: installs what is missing, builds kalah, builds (or reuses) the default
# endgame database and the opening book of Kalah(6,4) beside it, and solves Kalah(6,4) under both
# capture rules, printing the value of every opening move and the best line: from the book, so
# that a second run answers at once.
#
# The default database: m = 6, both capture rules, every board with up to ${KALAH_DB_SEEDS:-22}
# seeds, kept in ${KALAH_DB:-${XDG_CACHE_HOME:-$HOME/.cache}/kalah/db} (kalah's default
# directory) and reused by later runs; the book holds every position within ${KALAH_BOOK_PLIES:-0}
# plies of the start (0: the start alone). What it costs: docs/costs.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
db=${KALAH_DB:-${XDG_CACHE_HOME:-$HOME/.cache}/kalah/db}
max_seeds=${KALAH_DB_SEEDS:-22}
for capture in empty standard; do
  build/tools/kalah build --db "$db" --max-seeds "$max_seeds" --capture "$capture"
  echo
done
for capture in empty standard; do
  build/tools/kalah book build --pits 6 --seeds 4 --capture "$capture" --db "$db" \
    --plies "${KALAH_BOOK_PLIES:-0}"
  build/tools/kalah solve --pits 6 --seeds 4 --capture "$capture" --db "$db"
  echo
done
