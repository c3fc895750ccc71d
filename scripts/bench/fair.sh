#!/usr/bin/env bash
# The fair starts' goal (docs/results.md, "Fair starts"): both Kalah(6,4) tables (empty and
# standard capture, 6,396 candidates each, two seeds moved) on this machine, the database they
# use built first on top of the default one, each step timed.
#
#   bash scripts/bench/fair.sh        a database of 28 seeds (8.3 minutes in all on 2 cores)
#   bash scripts/bench/fair.sh 22     the default database as it is (no build: empty capture 4.5
#                                     minutes, standard far longer, 0.8 s a candidate at first)
#
# The default database (22 seeds, both capture rules) must exist: `kalah solve --seeds 4` builds
# it. Its layer files are copied to a scratch directory, so it is never changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
seeds=${1:-28}
export KALAH_STORE=off
kalah=build/tools/kalah
default=${KALAH_DB:-${XDG_CACHE_HOME:-$HOME/.cache}/kalah/db}
dir=$(mktemp -d /tmp/kalah-fair-bench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
for s in $(seq 1 22); do
  for capture in empty standard; do
    cp "$default/kalah-m6-$capture-immediate-owner-s$s.kdb" "$dir/"
  done
done
total=0  # milliseconds
step() {  # step NAME COMMAND...: runs it, prints and adds up its wall time
  local name=$1 start ms
  shift
  start=$(date +%s%N)
  "$@" >"$dir/$name.out" 2>&1
  ms=$((($(date +%s%N) - start) / 1000000))
  total=$((total + ms))
  printf '%-32s %5d.%d s\n' "$name" $((ms / 1000)) $((ms % 1000 / 100))
}
for capture in empty standard; do
  [ "$seeds" -gt 22 ] &&
    step "build $capture 23..$seeds" "$kalah" build --db "$dir" --max-seeds "$seeds" --capture "$capture"
done
for capture in empty standard; do
  step "fair Kalah(6,4) $capture" "$kalah" fair --seeds 4 --capture "$capture" --db "$dir" --json
  python3 -c "import json, sys; a = json.load(open(sys.argv[1])); print(f'  {len(a[\"fair\"])} fair of {a[\"candidates\"]}: {a[\"values\"]}')" \
    "$dir/fair Kalah(6,4) $capture.out"
done
printf '%-32s %5d.%d s (goal: under 1800 s)\n' "in all" $((total / 1000)) $((total % 1000 / 100))
