#!/usr/bin/env bash
# Rawlings' 34-seed database on this machine (issue 50; docs/costs.md): every board of
# m = 6 with up to 34 seeds for one capture rule, built in lean mode, then searched where it lies:
# Kalah(6,5)'s value with a cold and a warm page cache, and Kalah(6,6)'s for at most
# KALAH66_SECONDS (default 1800) with a progress line a second, each step timed with its peak
# memory.
#
#   bash scripts/bench/reach34.sh DIR [empty|standard]
#
# Needs about 16 GiB of disk and a memory limit of KALAH_MEMORY GiB (default 18) for the build.
# It builds in format 1 and then converts: lean mode decodes zstd blocks faster than value
# blocks, and the conversion writes the same files a format-2 build would (value_blocks_test).
# A DIR that already holds layers keeps them (the build resumes).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: reach34.sh DIR [empty|standard]}
capture=${2:-empty}
kalah=build/tools/kalah
export KALAH_STORE=off
timed() {  # label, command...
  local label=$1
  shift
  /usr/bin/time -f "$label: %e s, peak %M KB" "$@"
}
timed "build, format 1" "$kalah" build --db "$dir" --max-seeds 34 --capture "$capture" \
  --memory "${KALAH_MEMORY:-18}" --format 1 >/dev/null
timed "conversion to format 2" "$kalah" build --db "$dir" --max-seeds 34 --capture "$capture" \
  >/dev/null
du -sh "$dir"
if [ -w /proc/sys/vm/drop_caches ]; then
  sync
  echo 3 >/proc/sys/vm/drop_caches
  echo "page cache dropped"
fi
for cache in cold warm; do
  timed "Kalah(6,5), $cache" "$kalah" solve --seeds 5 --capture "$capture" --db "$dir" \
    --value-only --json
done
timed "Kalah(6,6), at most ${KALAH66_SECONDS:-1800} s" "$kalah" solve --seeds 6 \
  --capture "$capture" --db "$dir" --value-only --progress --time "${KALAH66_SECONDS:-1800}"
