#!/usr/bin/env bash
# A long solve run as a campaign (docs/cluster.md, "A Kalah(6,6) campaign"): started, stopped,
# killed and resumed any number of times, over one process or `mpirun -np P`, its progress in a
# log. The first call names the game and the database; each later call with the run directory
# alone goes on where the last one stopped, from the search's checkpoint (saved by process 0 every
# --every seconds: a kill loses at most that much).
#
# usage: scripts/campaign.sh RUN [--db DIR] [--pits M] [--seeds N] [--capture RULE] [--end RULE]
#                                [--remainder RULE] [--np P] [--threads T] [--hostfile FILE]
#                                [--every SECONDS] [--hours H] [--kalah EXE]
#   game (the first call only; defaults: Kalah(6,6), empty capture): --db (required), --pits,
#   --seeds, --capture, --end, --remainder. Each call: --np (default 1: no mpirun), --threads
#   (per process; default all cores), --hostfile, --every (default 60), --hours (stop after H
#   hours, then resume with another call), --kalah (default build/tools/kalah; P > 1 needs one
#   built with -DKALAH_MPI=ON).
# RUN holds: game (the game's options, written once kalah accepted them), checkpoint/ (the
# search's), log (a dated line at each start and stop, each checkpoint, each change of the bounds
# and each minute: nodes, bounds, the estimate), answer (the last answer; a failed call leaves
# it), lock (one call at a time: a second is refused, naming the first's pid). SIGTERM, SIGINT
# or SIGHUP stop the search as Ctrl-C does (its checkpoint saved, its answer kept, a stop line
# logged) and end the call with 128 + the signal. Exit: 0 proven (in answer); 3 stopped by --hours
# (call again to go on); 1 the search failed (the log says why); 2 usage; 75 RUN in use.
set -uo pipefail
usage() { sed -n 8,19p "$0" >&2; exit 2; }
[[ $# -ge 1 && $1 != -* ]] || usage
run=$1; shift
game=() np=1 threads=0 hostfile= every=60 hours=
kalah=${KALAH:-$(dirname "$(readlink -f "$0")")/../build/tools/kalah}
while [[ $# -gt 0 ]]; do
  [[ $# -ge 2 ]] || usage
  case $1 in
    --db) game+=("$1" "$(readlink -m -- "$2")") ;;
    --pits|--seeds|--capture|--end|--remainder) game+=("$1" "$2") ;;
    --np) np=$2 ;;
    --threads) threads=$2 ;;
    --hostfile) hostfile=$2 ;;
    --every) every=$2 ;;
    --hours) hours=$2 ;;
    --kalah) kalah=$2 ;;
    *) usage ;;
  esac
  shift 2
done
for a in "${game[@]}"; do  # RUN/game holds one argument a line
  [[ $a != *$'\n'* ]] || { echo "campaign: an argument holds a line break: $a" >&2; exit 2; }
done
for n in "$np" "$threads" "$every"; do [[ $n =~ ^[0-9]+$ ]] || usage; done
[[ -z $hours || $hours =~ ^[0-9]*\.?[0-9]+$ ]] || usage
[[ -x $kalah ]] || { echo "campaign: no kalah executable at $kalah" >&2; exit 2; }

mkdir -p "$run" || exit 2
for f in lock lock.pid; do  # opened for writing below: never through a link
  [[ ! -L $run/$f ]] || { echo "campaign: $run/$f is a symbolic link; refused" >&2; exit 2; }
done
exec 9>>"$run/lock"
if ! flock -n 9; then
  holder=$(cat "$run/lock.pid" 2>/dev/null || echo '?')
  echo "campaign: $run is in use by the call of pid $holder" >&2
  exit 75
fi
echo $$ >"$run/lock.pid"
if [[ -s $run/game ]]; then
  [[ ${#game[@]} -eq 0 ]] || { echo "campaign: $run already runs $(tr '\n' ' ' <"$run/game")-" \
    "give the run directory alone to resume it" >&2; exit 2; }
  mapfile -t game <"$run/game"
else
  [[ " ${game[*]} " == *" --db "* ]] || { echo "campaign: the first call needs --db" >&2; exit 2; }
  defaults=(--pits 6 --seeds 6 --capture empty)
  for ((i = 0; i < ${#defaults[@]}; i += 2)); do
    [[ " ${game[*]} " == *" ${defaults[i]} "* ]] || game+=("${defaults[i]}" "${defaults[i + 1]}")
  done
  # kalah checks the game before anything is written: a bad first call leaves nothing behind.
  # The lock stays (removing it while held would let a second call lock another file).
  said=$("$kalah" solve "${game[@]}" --value-only --no-store --threads 1 --time 0.01 \
    2>&1 >/dev/null)
  if [[ $? -eq 2 ]]; then
    echo "$said" >&2
    exit 2
  fi
  printf '%s\n' "${game[@]}" >"$run/game.tmp" && mv "$run/game.tmp" "$run/game"
fi

args=(solve "${game[@]}" --value-only --progress --checkpoint "$run/checkpoint"
      --checkpoint-every "$every" --threads "$threads")
[[ -n $hours ]] && args+=(--time "$(python3 -c "print(max(1, round($hours * 3600)))")")
command=("$kalah" "${args[@]}")
if [[ $np -gt 1 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
  export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
  command=(mpirun --bind-to none -np "$np" ${hostfile:+--hostfile "$hostfile"} "${command[@]}")
fi

# Dated lines appended to the log: every line but the search's progress, and of that a line when
# the bounds change or a minute after the last one kept (--progress says something every second).
log() {
  local line bounds kept= last=-60
  while IFS= read -r line; do
    if [[ $line =~ ^\ +[0-9.]+\ s,.*(value[^,;]*) ]]; then
      bounds=${BASH_REMATCH[1]}
      [[ $bounds != "$kept" || $SECONDS -ge $((last + 60)) ]] || continue
      kept=$bounds last=$SECONDS
    fi
    printf '%s %s\n' "$(date -u +%FT%TZ)" "$line"
  done >>"$run/log"
}
echo "start: ${command[*]}" | log
# The search in the background, so that a signal to this call reaches it: it stops as after
# Ctrl-C, saving its checkpoint and printing what it proved.
exec {logfd}> >(log)
logger=$!
signal=
forward() {
  signal=$1
  kill -INT "$child" 2>/dev/null
}
trap 'forward TERM' TERM
trap 'forward INT' INT
trap 'forward HUP' HUP
"${command[@]}" 2>&$logfd >"$run/answer.tmp" &
child=$!
while true; do
  wait "$child"
  status=$?
  kill -0 "$child" 2>/dev/null || break  # else a trap interrupted the wait
done
exec {logfd}>&-
wait "$logger"
if [[ -n $signal ]]; then
  mv "$run/answer.tmp" "$run/answer"
  grep '^stopped \|^interrupted ' "$run/answer" | log
  echo "stop: SIG$signal (the search exited $status); call scripts/campaign.sh $run to go on" | log
  trap - "$signal"
  kill -"$signal" $$
fi
if [[ $status -ne 0 ]]; then  # the last answer stays; what this call printed goes to the log
  log <"$run/answer.tmp"
  rm -f "$run/answer.tmp"
  echo "stop: the search failed (exit $status); fix what the lines above say, then call again" | log
  exit 1
fi
mv "$run/answer.tmp" "$run/answer"
if grep -q '^value: ' "$run/answer"; then
  grep '^value: \|^nodes: ' "$run/answer" | log
  exit 0
fi
grep '^stopped ' "$run/answer" | log
echo "stop: --hours reached; call scripts/campaign.sh $run to go on" | log
exit 3
