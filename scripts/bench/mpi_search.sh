#!/usr/bin/env bash
# The search over several processes measured against one process (docs/cluster.md): Kalah(6,5)'s
# value with a 28-seed database and Kalah(6,4)'s full analysis with a 22-seed one (empty capture),
# by one process on every core and by `mpirun -np P` for P = 1 (every core) and P = 2, 3, 4 (one
# thread each; beyond the cores they oversubscribe). Checks every answer equals one process's and
# prints time, nodes, the ratio to one process, and the processes' own note (jobs, threads busy,
# bytes sent a node, nodes by process). Rounds alternate the runs, as the machine drifts.
# Usage: scripts/bench/mpi_search.sh DB28 DB22 [KALAH] [ROUNDS]   (KALAH built with -DKALAH_MPI=ON)
set -euo pipefail
db28=$1 db22=$2
kalah=${3:-build/tools/kalah}
rounds=${4:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 KALAH_STORE=off
work=$(mktemp -d /tmp/kalah-mpi-search.XXXXXX)
trap 'rm -rf "$work"' EXIT
cores=$(nproc)

games=("--seeds 5 --capture empty --db $db28 --value-only" "--seeds 4 --capture empty --db $db22")
names=("Kalah(6,5) value, 28 seeds" "Kalah(6,4) full analysis, 22 seeds")
# The answer without its counts and time.
answer() { python3 -c 'import json,sys; a=json.load(sys.stdin); [a.pop(k, None) for k in ("nodes","probes","seconds")]; print(json.dumps(a, sort_keys=True))'; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

for g in 0 1; do
  read -ra args <<<"${games[$g]}"
  echo "== ${names[$g]}"
  for r in $(seq "$rounds"); do
    "$kalah" solve "${args[@]}" --json --threads "$cores" >"$work/one.json"
    answer <"$work/one.json" >"$work/one"
    printf "one process, %d threads: %8.1f s  %12s nodes\n" "$cores" \
      "$(field seconds <"$work/one.json")" "$(field nodes <"$work/one.json")"
    base=$(field seconds <"$work/one.json")
    for p in 1 2 3 4; do
      threads=1
      [ "$p" -eq 1 ] && threads=$cores
      mpirun --oversubscribe --bind-to none -np "$p" "$kalah" solve "${args[@]}" --json \
        --threads "$threads" >"$work/p.json" 2>"$work/p.err"
      answer <"$work/p.json" | cmp -s - "$work/one" || { echo "FAIL: P=$p differs"; exit 1; }
      t=$(field seconds <"$work/p.json")
      printf "P=%d, %d thread(s) each:  %8.1f s  %12s nodes  %.2fx   %s\n" "$p" "$threads" "$t" \
        "$(field nodes <"$work/p.json")" "$(python3 -c "print($t / $base)")" \
        "$(grep -o 'threads: .*' "$work/p.err" | cut -c10- || true)"
    done
  done
done
echo "every answer equals one process's"
