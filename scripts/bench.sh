#!/usr/bin/env bash
# Benchmarks: builds kalah (Release), runs `kalah bench --json` (m = 6, layers <= 20 by default;
# pass --max-seeds 24 for the full workstation figure, and any other bench option) and prints its
# figures, compares its signature with the recorded one, times the same build on one
# thread and in lean mode, a one-position query in a fresh process, and Kalah(6,4)'s value with the benchmark
# database, then its full analysis, alone and on 50 positions of games (KALAH_BENCH_POSITIONS).
# Exits 1 when the signature differs from the recorded one. The other benchmarks and models are
# in scripts/bench/.
set -euo pipefail
cd "$(dirname "$0")/.."
export KALAH_STORE=off  # searches are measured as searches, never answered from the store
scripts/install-deps.sh
scripts/build.sh -DKALAH_EXPERIMENTS=ON  # tools/bench's executables too
kalah=build/tools/kalah
dir=$(mktemp -d /tmp/kalah-bench-XXXXXX)
one=$(mktemp -d /tmp/kalah-bench-1-XXXXXX)
lean=$(mktemp -d /tmp/kalah-bench-lean-XXXXXX)
trap 'rm -rf "$dir" "$one" "$lean"' EXIT

# field FILE EXPRESSION: a value out of a JSON object (o), e.g. 'o["build"]["seconds"]'.
field() { python3 -c "import json, sys; o = json.load(open(sys.argv[1])); print($2)" "$1"; }

"$kalah" bench --keep "$dir" --json "$@" >"$dir.json"
bench=$dir.json
python3 - "$bench" <<'EOF'
import json, sys
o = json.load(open(sys.argv[1]))
r = o["rules"]
print(f'bench: m={o["pits"]} capture={r["capture"]} end={r["end"]} remainder={r["remainder"]}, '
      f'layers 1..{o["max_seeds"]}, {o["threads"]} threads')
b = o["build"]
for l in b["layers"]:
    if l["seeds"] >= 16:
        print(f'layer {l["seeds"]:3}: {l["seconds"]:.2f} s, '
              f'{l["boards"] / l["compute_seconds"] / 1e6:.2f} M boards/s; largest piece '
              f'{l["largest_piece"]} boards (1/{l["boards"] / l["largest_piece"]:.0f} of the layer), '
              f'speed-up bound {l["boards"] / l["critical_path"]:.0f}x')
if b["built_boards"]:
    print(f'build:  {b["built_boards"]} boards in {b["seconds"]:.2f} s: '
          f'{b["built_boards"] / b["seconds"] / 1e6:.2f} M boards/s (computing '
          f'{b["compute_seconds"]:.2f} s), {b["file_bytes"] / b["built_boards"]:.3f} bytes/board; '
          f'peak memory {b["peak_memory_bytes"] / 2**20:.0f} MiB')
p, s = o["probe"], o["search"]
print(f'probe:  {p["probes"]} random boards: cold cache {p["probes"] / p["cold_seconds"] / 1e6:.2f} M/s, '
      f'warm {p["probes"] / p["warm_seconds"] / 1e6:.2f} M/s, 1 thread')
print(f'search: {s["game"]} by search alone: {s["value"]:+d}, {s["nodes"]} nodes in '
      f'{s["seconds"]:.3f} s ({s["nodes"] / s["seconds"] / 1e6:.2f} M nodes/s)')
EOF

# The signature against the recorded one: the database's for this workload
# (scripts/bench/signatures.txt), the search's in the golden node counts (the Kalah(4,4) value line
# of tests/data/golden-nodes.txt, which tests/golden_test.cpp checks too).
status=0
workload=$(field "$bench" '"m=%d capture=%s end=%s remainder=%s, layers 1..%d" % (o["pits"], o["rules"]["capture"], o["rules"]["end"], o["rules"]["remainder"], o["max_seeds"])')
signature=$(field "$bench" '"database %s  search %d" % (o["signature"]["database"], o["signature"]["search"])')
database=$(grep -F "$workload |" scripts/bench/signatures.txt | sed 's/.* | //' || true)
nodes=$(awk '$1 == 4 && $2 == 4 && $3 == "standard" && $4 == "immediate" && $5 == "owner" && $6 == "value" && $7 == 0 {print $9}' tests/data/golden-nodes.txt)
recorded="$database  search $nodes"
if [ -z "$database" ] || [ -z "$nodes" ]; then
  echo "signature: $signature; none recorded for '$workload' (add it to scripts/bench/signatures.txt)"
elif [ "$recorded" = "$signature" ]; then
  echo "signature: $signature, matches the recorded one"
else
  echo "signature: $signature DIFFERS from the recorded one ($recorded): database bytes or search nodes changed" >&2
  status=1
fi

# Per core and threads: the same build on one thread (the bench above used all cores).
pits=$(field "$bench" 'o["pits"]')
capture=$(field "$bench" 'o["rules"]["capture"]')
top=$(field "$bench" 'o["max_seeds"]')
"$kalah" build --db "$one" --pits "$pits" --max-seeds "$top" --capture "$capture" --threads 1 \
  --json | tail -n 1 >"$one.json"
t1=$(field "$one.json" 'o["built_seconds"]')
tn=$(field "$bench" 'o["build"]["seconds"]')
echo "threads: 1 thread $t1 s, $(field "$bench" 'o["threads"]') threads $tn s:" \
     "$(field "$bench" "'%.2f' % ($t1 / $tn)")x; peak memory on 1 thread" \
     "$(field "$one.json" "'%.0f MiB' % (o['peak_memory_bytes'] / 2**20)")"
rm -f "$one.json"

# Lean mode on the same layers within three quarters of what the normal build estimates for its
# top layer: the top layers read the lower ones from their files in chunks (retrograde/chunked_layer.h).
limit=$(field "$bench" "'%.4f' % (0.75 * o['build']['layers'][-1]['memory'] / 2**30)")
"$kalah" build --db "$lean" --pits "$pits" --max-seeds "$top" --capture "$capture" \
  --memory "$limit" --json >"$lean.json"
head -n 1 "$lean.json" >"$lean.start.json"
tail -n 1 "$lean.json" >"$lean.done.json"
same=identical
for f in "$dir"/*.kdb; do cmp -s "$f" "$lean/$(basename "$f")" || same=DIFFERENT; done
echo "lean:   --memory $limit (3/4 of the normal estimate): $(field "$lean.done.json" 'o["built_seconds"]') s," \
     "$(field "$lean.done.json" "'%.2f' % (o['built_seconds'] / $tn)")x the normal build's time;" \
     "peak memory $(field "$lean.done.json" "'%.0f MiB' % (o['peak_memory_bytes'] / 2**20)") for an" \
     "estimate of $(field "$lean.start.json" "'%.0f MiB' % (o['estimated_peak_bytes'] / 2**20)"); files $same"
[ "$same" = identical ] || status=1
rm -f "$lean.json" "$lean.start.json" "$lean.done.json" "$bench"

# The parallel search (value only, no database): node rate and 1 -> all threads, best of 3
# each (this machine's times vary by a third from run to run).
python3 - "$kalah" "$(nproc)" <<'PY'
import json, subprocess, sys
kalah, cores = sys.argv[1], sys.argv[2]
def best(threads):
    runs = [json.loads(subprocess.run([kalah, "solve", "--pits", "5", "--seeds", "4", "--value-only",
                                       "--no-db", "--threads", threads, "--json"],
                                      check=True, capture_output=True, text=True).stdout)
            for _ in range(3)]
    return min(runs, key=lambda o: o["seconds"])
one, all_ = best("1"), best("0")
print(f'search threads: Kalah(5,4) value by search alone, best of 3: 1 thread {one["seconds"]:.2f} s '
      f'({one["nodes"] / one["seconds"] / 1e6:.2f} M nodes/s), {cores} threads {all_["seconds"]:.2f} s: '
      f'{one["seconds"] / all_["seconds"]:.2f}x')
PY

start=$(date +%s%N)
"$kalah" query --db "$dir" --capture "$capture" --json 2,1,0,0,1,0/1,0,1,2,1,1/10,12 >/dev/null
end=$(date +%s%N)
echo "query:  one position in a fresh process: $(( (end - start) / 1000000 )) ms"
# Whole-game search over the benchmark database: Kalah(6,4)'s value (nodes are the
# machine-independent measure; they vary slightly between runs, see `kalah solve --help`).
if [ "$pits" = 6 ]; then
  "$kalah" solve --seeds 4 --capture "$capture" --db "$dir" --value-only --json >"$dir.json"
  echo "solve:  Kalah(6,4) $capture capture, value $(field "$dir.json" 'o["value"]')," \
       "$(field "$dir.json" 'o["nodes"]') nodes, $(field "$dir.json" '"%.2f" % o["seconds"]') s"
  value_s=$(field "$dir.json" 'o["seconds"]')
  "$kalah" solve --seeds 4 --capture "$capture" --db "$dir" --json >"$dir.json"
  echo "solve:  Kalah(6,4) $capture capture, full analysis $(field "$dir.json" 'o["nodes"]') nodes," \
       "$(field "$dir.json" '"%.2f" % o["seconds"]') s: $(field "$dir.json" "'%.1f' % (o['seconds'] / $value_s)")x the value"
  rm -f "$dir.json"
  # The same on positions of games: the first 10 plies of random play (fixed seed).
  build/tools/bench/kalah-analysis-bench "$dir" --capture "$capture" \
    --positions "${KALAH_BENCH_POSITIONS:-50}" | tail -n 2 | sed 's/^/games:  /'
fi
exit "$status"
