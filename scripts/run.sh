#!/usr/bin/env bash
# The README's main job: installs what is missing, builds, and solves a game.
# For now (no database yet) it solves Kalah(6,3) under both capture rules by search alone.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
for capture in empty standard; do
  build/tools/kalah solve --pits 6 --seeds 3 --capture "$capture"
  echo
done
