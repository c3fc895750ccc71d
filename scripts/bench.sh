#!/usr/bin/env bash
# Benchmarks: builds kalah (Release), runs `kalah bench` (m = 6, layers <= 20 by default; pass
# --max-seeds 24 for the full workstation figure, and any other bench option), then times a
# one-position query (10 seeds) of the benchmark database in a fresh process and solves Kalah(6,4) with it.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
scripts/install-deps.sh
scripts/build.sh
dir=$(mktemp -d /tmp/kalah-bench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
build/tools/kalah bench --keep "$dir" "$@" | tee "$dir.out"
out=$(cat "$dir.out")
# The signature against the recorded one for this workload (scripts/bench-signatures.txt).
workload=$(sed -n '1s/^bench: \(.*\), [0-9]* threads\?$/\1/p' "$dir.out")
signature=$(sed -n 's/^signature: //p' "$dir.out")
rm -f "$dir.out"
recorded=$(grep -F "$workload |" scripts/bench-signatures.txt | sed 's/.* | //' || true)
if [ -z "$recorded" ]; then
  echo "signature: none recorded for '$workload' (add it to scripts/bench-signatures.txt)"
elif [ "$recorded" = "$signature" ]; then
  echo "signature: matches the recorded one"
else
  echo "signature: DIFFERS from the recorded one ($recorded): database bytes or search nodes changed" >&2
  status=1
fi
# The database's own rules, read back from its file names.
file=$(ls "$dir" | grep '\.kdb$' | head -n 1)
capture=$(echo "$file" | cut -d- -f3)
pits=$(echo "$file" | cut -d- -f2 | tr -d m)
top=$(ls "$dir" | grep '\.kdb$' | sed 's/.*-s\([0-9]*\)\.kdb/\1/' | sort -n | tail -n 1)
# Per core and threads: the same build on one thread (the bench above used all cores).
one=$(mktemp -d /tmp/kalah-bench-1-XXXXXX)
single=$(build/tools/kalah build --db "$one" --pits "$pits" --max-seeds "$top" --capture "$capture" \
  --threads 1 | tail -n 1)
rm -rf "$one"
t1=$(sed -n 's/.*built [0-9]* boards in \([0-9.]*\) s.*/\1/p' <<<"$single")
tn=$(sed -n 's/^build: .* in \([0-9.]*\) s:.*/\1/p' <<<"$out")
echo "threads: 1 thread ${t1} s ($(sed -n 's/.*(\([0-9.]* M boards\/s\);.*/\1/p' <<<"$single")), $(nproc) threads ${tn} s:" \
     "$(awk "BEGIN { printf \"%.2f\", $t1 / $tn }")x; peak memory on 1 thread $(sed -n 's/.*peak memory \(.*\)$/\1/p' <<<"$single")"
start=$(date +%s%N)
build/tools/kalah query --db "$dir" --capture "$capture" --json 2,1,0,0,1,0/1,0,1,2,1,1/10,12 >/dev/null
end=$(date +%s%N)
echo "query:  one position in a fresh process: $(( (end - start) / 1000000 )) ms"
# Whole-game search over the benchmark database: Kalah(6,4)'s value (nodes are the
# machine-independent measure; they vary slightly between runs, see `kalah solve --help`).
if [ "$pits" = 6 ]; then
  out=$(build/tools/kalah solve --seeds 4 --capture "$capture" --db "$dir" --value-only --json)
  echo "solve:  Kalah(6,4) $capture capture, value $(grep -o '"value": -\?[0-9]*' <<<"$out" | cut -d' ' -f2)," \
       "$(grep -o '"nodes": [0-9]*' <<<"$out" | cut -d' ' -f2) nodes," \
       "$(grep -o '"seconds": [0-9.e-]*' <<<"$out" | cut -d' ' -f2) s"
fi
exit "$status"
