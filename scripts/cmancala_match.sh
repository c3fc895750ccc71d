#!/usr/bin/env bash
# kalah against CMancala's AI (scripts/cmancala_match.py): builds kalah, its default database if
# missing (m = 6, standard capture, 22 seeds: about a minute) and CMancala
# (../shared/anchors/cmancala.sh, or $KALAH_ANCHORS/cmancala.sh), then plays the match:
# Kalah(6,6) at 1 s a move, 50 openings x both colours by default. Arguments go to the match
# (e.g. --seeds 4 --openings 25 --parallel 2: games at once, one core each).
set -euo pipefail
cd "$(dirname "$0")/.."
anchors=${KALAH_ANCHORS:-$(pwd)/../shared/anchors}
scripts/install-deps.sh
scripts/build.sh
build/tools/kalah build --pits 6 --max-seeds 22 >&2
cmancala=$("$anchors/cmancala.sh" build)
cd scripts
PYTHONPATH=../build/python python3 cmancala_match.py --kalah ../build/tools/kalah --cmancala "$cmancala" "$@"
