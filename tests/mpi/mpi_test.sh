#!/usr/bin/env bash
# The build over several processes (mpi/build.h): `mpirun -np P kalah build` writes the same
# files as one process, byte for byte: P = 3 for every variant of m = 4, P = 1, 2, 3 for the first
# and for m = 6 up to 16 seeds; a job with one process killed mid-layer ends (no hang) and its
# rerun resumes to the same files. Usage: mpi_test.sh KALAH (built with -DKALAH_MPI=ON).
set -euo pipefail
kalah=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/mpi_lib.sh"

# same DIR_A DIR_B: the same layer files, byte for byte.
same() {
  local a=$1 b=$2 n=0
  for f in "$a"/*.kdb; do
    cmp -s "$f" "$b/$(basename "$f")" || fail "$b/$(basename "$f") differs from $f"
    n=$((n + 1))
  done
  [ "$(ls "$b"/*.kdb | wc -l)" -eq "$n" ] || fail "$b has other files than $a"
}

variants=()
for capture in standard empty; do
  for end in immediate on-turn; do
    for remainder in owner discard; do
      variants+=("--capture $capture --end $end --remainder $remainder")
    done
  done
done
cases=()
for v in "${variants[@]}"; do cases+=("--pits 4 --max-seeds 12 $v"); done
cases+=("--pits 6 --max-seeds 16 --capture empty" "--pits 6 --max-seeds 16 --capture standard")
for c in "${cases[@]}"; do
  read -ra args <<<"$c"
  one="$work/one"
  rm -rf "$one"
  "$kalah" build --db "$one" "${args[@]}" >/dev/null
  # Every variant over 3 processes (an uneven split of each layer); 1 and 2 only once per pit
  # count (the first 4-pit variant and the 6-pit cases): each launch costs seconds of the suite.
  processes="3"
  [[ "$c" == "${cases[0]}" || "$c" == *"--pits 6"* ]] && processes="1 2 3"
  for p in $processes; do
    dir="$work/p$p"
    rm -rf "$dir"
    "${mpi[@]}" -np "$p" "$kalah" build --db "$dir" "${args[@]}" --threads 1 >"$work/out" 2>&1 ||
      { cat "$work/out"; fail "mpirun -np $p: $c"; }
    same "$one" "$dir"
  done
  echo "ok: $c ($processes processes)"
done

# Kill process 1 of 2 (MPI rank 1) while layer 18 is being built; the job must end by itself, saying so.
dir="$work/killed"
args=(--pits 6 --max-seeds 19 --capture empty --threads 1)
"${mpi[@]}" -np 2 "$kalah" build --db "$dir" "${args[@]}" >"$work/killed.out" 2>&1 &
job=$!
rank1=""
for _ in $(seq 3000); do  # up to 5 min: a loaded machine took over one
  if [ -f "$dir/kalah-m6-empty-immediate-owner-s17.kdb" ]; then
    find_rank1 "kalah build --db $dir"
    break
  fi
  sleep 0.1
done
[ -n "$rank1" ] || { kill "$job" 2>/dev/null; fail "rank 1 not found while layer 18 was built"; }
kill_rank1 "$job" "kalah build --db $dir" "$work/killed.out"
[ ! -f "$dir/kalah-m6-empty-immediate-owner-s19.kdb" ] || fail "the killed job finished"
echo "ok: killing rank 1 ended the job (exit $status): $(grep -m1 -i -E 'process|signal|kill' "$work/killed.out" || true)"
# The rerun keeps the complete layers, resumes, and comes out as one process builds.
"${mpi[@]}" -np 3 "$kalah" build --db "$dir" "${args[@]}" >"$work/resumed.out" 2>&1 ||
  { cat "$work/resumed.out"; fail "the rerun failed"; }
grep -q "(kept)" "$work/resumed.out" || { cat "$work/resumed.out"; fail "the rerun kept no layer"; }
one="$work/one19"
"$kalah" build --db "$one" "${args[@]}" >/dev/null
same "$one" "$dir"
ls "$dir" | grep -q '\.tmp' && fail "temporary files left after the rerun"
echo "ok: the rerun over 3 processes resumed to identical files"
