# mpi_lib.sh: what the MPI tests share; sourced, after `set -euo pipefail`.
# As root (CI), Open MPI wants to be told; processes may outnumber cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --oversubscribe --bind-to none)
fail() { echo "FAIL: $*" >&2; exit 1; }

# rank1=the pid of MPI rank 1 among the processes whose command line matches $1 (empty if none).
find_rank1() {
  local p
  rank1=""
  for p in $(pgrep -f "$1" || true); do
    grep -qz '^OMPI_COMM_WORLD_RANK=1$' "/proc/$p/environ" 2>/dev/null && rank1=$p
  done
  return 0
}

# kill_rank1 JOB PATTERN OUT: SIGKILL to rank 1 ($rank1); the job (mpirun, a child of this
# shell) must then end by itself within 30 s, with a non-zero status (in $status), or the test
# fails (OUT, the job's output, shown), its processes (matching PATTERN) killed.
kill_rank1() {
  local job=$1 pattern=$2 out=$3
  kill -9 "$rank1"
  status=0
  for _ in $(seq 300); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$job" 2>/dev/null; then
    pkill -9 -f "$pattern" || true
    fail "the job hung after rank 1 was killed"
  fi
  wait "$job" || status=$?
  [ "$status" -ne 0 ] || { cat "$out"; fail "a job with a killed rank exited 0"; }
}
