#!/usr/bin/env bash
# The search over several processes (parallel/frontier_search.h, mpi/search.h): `mpirun -np P kalah
# solve` gives one process's answer on random positions of every variant (P = 1, 2, 3; m = 3, 4,
# 5; value and full analysis; with and without a database), its frontier small enough that the
# processes do the work; a job with one process killed mid-search ends (no hang), and its rerun
# from the checkpoint gives the value. tests/parallel/frontier_test.cpp checks the same search with its
# processes simulated, far more positions. Usage: mpi_search_test.sh KALAH (-DKALAH_MPI=ON).
set -euo pipefail
kalah=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export KALAH_STORE=off
source "$(dirname "$0")/mpi_lib.sh"

# pos=a random position of m pits a row with s - m to s + m seeds (mover's pits / opponent's /
# stores). Not a function run in $(...): RANDOM would not advance in this shell.
RANDOM=28
position() {
  local m=$1 s=$2 pits i total=0
  while ((total < s - m || total > s + m)); do
    pits=() total=0
    for ((i = 0; i < 2 * m; i++)); do
      pits+=($((RANDOM % (s / m + 1))))
      total=$((total + pits[i]))
    done
  done
  pos="$(IFS=,; echo "${pits[*]:0:m}")/$(IFS=,; echo "${pits[*]:m}")/$((RANDOM % 5)),$((RANDOM % 5))"
}

# Everything but the time and the counts, which differ between runs.
answer() { sed -E 's/, "(nodes|probes|seconds|earlier_nodes)": [0-9.e+-]+//g'; }

n=0
for capture in standard empty; do
  for end in immediate on-turn; do
    for remainder in owner discard; do
      rules=(--capture "$capture" --end "$end" --remainder "$remainder")
      db="$work/db-$capture-$end-$remainder"
      "$kalah" build --db "$db" --pits 4 --max-seeds 10 "${rules[@]}" >/dev/null
      # P cycles through 1, 2, 3; each variant has a full analysis over a database, and without
      # one a value (m = 3) or a full analysis (m = 5), by turns.
      alone="3 14 --no-db --value-only"
      [ $((n % 4)) -eq 2 ] && alone="5 18 --no-db"
      for c in "4 18 --db $db" "$alone"; do
        read -r m s flags <<<"$c"
        p=$((n % 3 + 1))
        n=$((n + 1))
        position "$m" "$s"
        read -ra args <<<"--pits $m $pos ${rules[*]} $flags --json"
        "$kalah" solve "${args[@]}" | answer >"$work/one" || fail "kalah solve ${args[*]}"
        "${mpi[@]}" -np "$p" "$kalah" solve "${args[@]}" --frontier 2 --threads 1 \
          >"$work/many.json" 2>"$work/many.err" || { cat "$work/many.err"; fail "mpirun -np $p: ${args[*]}"; }
        answer <"$work/many.json" >"$work/many"
        cmp -s "$work/one" "$work/many" ||
          { diff "$work/one" "$work/many"; fail "mpirun -np $p differs: ${args[*]}"; }
        grep -q "jobs" "$work/many.err" || fail "no job ran over the processes: ${args[*]}"
      done
      echo "ok: $capture $end $remainder"
    done
  done
done

# Kill process 1 of 2 while the search runs; the job ends by itself, and the rerun, from the
# checkpoint, gives one process's value.
args=(--pits 5 --seeds 4 --no-db --value-only --json --threads 1)
expected=$("$kalah" solve "${args[@]}" | answer)
ckpt="$work/checkpoint"
"${mpi[@]}" -np 2 "$kalah" solve "${args[@]}" --checkpoint "$ckpt" --checkpoint-every 0.2 \
  >"$work/killed.out" 2>&1 &
job=$!
rank1=""
for _ in $(seq 300); do
  if [ -n "$(ls "$ckpt" 2>/dev/null)" ]; then
    find_rank1 "kalah solve --pits 5 --seeds 4"
    [ -n "$rank1" ] && break
  fi
  sleep 0.05
done
[ -n "$rank1" ] || { kill "$job" 2>/dev/null; cat "$work/killed.out"; fail "no checkpoint, or rank 1 not found"; }
kill_rank1 "$job" "checkpoint $ckpt" "$work/killed.out"
echo "ok: killing rank 1 ended the search (exit $status)"
got=$("${mpi[@]}" -np 2 "$kalah" solve "${args[@]}" --checkpoint "$ckpt" 2>"$work/rerun.err" | answer)
[ "$got" = "$expected" ] || { cat "$work/rerun.err"; fail "the rerun said $got, one process $expected"; }
grep -q "resuming from" "$work/rerun.err" || { cat "$work/rerun.err"; fail "the rerun did not resume"; }
echo "ok: the rerun from the checkpoint gives one process's value"
