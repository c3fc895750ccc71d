#!/usr/bin/env bash
# The build over several processes measured against one process (docs/cluster.md): builds
# m = 6 up to S seeds (default 24), empty capture, from nothing, in one process and over P = 1..4
# processes (on this machine: --oversubscribe, one thread each; one process alone uses every
# core), checks that the files are identical and prints, per P: time, peak memory per process against the
# estimate, and per layer: time, exchange rounds, bytes sent a board.
# Usage: scripts/bench/mpi_build.sh [S] [KALAH]   (KALAH built with -DKALAH_MPI=ON)
set -euo pipefail
seeds=${1:-24}
kalah=${2:-build/tools/kalah}
work=$(mktemp -d /tmp/kalah-mpi-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(build --max-seeds "$seeds" --capture empty --json)
"$kalah" "${args[@]}" --db "$work/one" >"$work/one.json"
for p in 1 2 3 4; do
  threads=1
  [ "$p" -eq 1 ] && threads=$(nproc)
  mpirun --oversubscribe --bind-to none -np "$p" "$kalah" "${args[@]}" --db "$work/p$p" \
    --threads "$threads" >"$work/p$p.json"
  for f in "$work"/one/*.kdb; do
    cmp -s "$f" "$work/p$p/$(basename "$f")" || { echo "FAIL: $p processes: $(basename "$f") differs"; exit 1; }
  done
done
python3 - "$work" "$seeds" <<'PY'
import json, re, sys
work, seeds = sys.argv[1], int(sys.argv[2])
def load(name):
    return [json.loads(l) for l in open(f"{work}/{name}.json")]
one = load("one")
t_one = next(e for e in one if e["event"] == "done")["built_seconds"]
layers_one = {e["seeds"]: e["seconds"] for e in one if e["event"] == "layer"}
print(f"one process, {next(e for e in one if e['event'] == 'start')['threads']} threads: "
      f"{t_one:.1f} s, peak {next(e for e in one if e['event'] == 'done')['peak_memory_bytes'] / 2**20:.0f} MiB")
print("files identical for P = 1..4")
show = [s for s in range(max(1, seeds - 3), seeds + 1)]
print("P  threads  time     vs one  peak per process          estimate  " +
      "  ".join(f"layer {s}: s, rounds, B/board" for s in show))
for p in (1, 2, 3, 4):
    ev = load(f"p{p}")
    start = next(e for e in ev if e["event"] == "start")
    done = next(e for e in ev if e["event"] == "done")
    notes = [e["text"] for e in ev if e["event"] == "note"]
    peaks = next(n for n in notes if n.startswith("peak memory per process"))
    peak = re.findall(r"([\d.]+ (?:B|KiB|MiB|GiB|TiB))", peaks)
    layer = {e["seeds"]: e["seconds"] for e in ev if e["event"] == "layer"}
    traffic = {}
    for n in notes:
        m = re.match(r"layer (\d+) over the processes: (\d+) exchange rounds .* ([\d.]+) bytes sent a board", n)
        if m: traffic[int(m.group(1))] = (int(m.group(2)), float(m.group(3)))
    cols = "  ".join(f"{layer[s]:6.1f} {traffic.get(s, (0, 0))[0]:4d} {traffic.get(s, (0, 0))[1]:5.2f}" for s in show)
    print(f"{p}  {start['threads']:7d}  {done['built_seconds']:6.1f}  {done['built_seconds'] / t_one:5.2f}x  "
          f"{', '.join(peak[:-1]):24s} {peak[-1]:>8s}  {cols}")
print("one process per layer: " + "  ".join(f"{s}: {layers_one[s]:.1f} s" for s in show))
PY
