#!/usr/bin/env bash
# campaign_test.sh KALAH [NP]: scripts/campaign.sh on Kalah(4,8) over a 12-seed database (about
# 6 s of search), over NP processes: stopped by --hours, stopped by SIGTERM (a second call meanwhile
# refused by the run's lock), killed with kill -9 (every process of the run) while it searches, then
# resumed to the end. Its value must be one uninterrupted solve's, the last call must resume from a
# checkpoint, and the log must hold each start and stop. A bad first call leaves nothing that
# blocks the call that fixes it.
set -uo pipefail
kalah=$(readlink -f "$1") np=${2:-1}
campaign=$(dirname "$(readlink -f "$0")")/../../scripts/campaign.sh
work=$(mktemp -d /tmp/kalah-campaign.XXXXXX)
trap 'rm -rf "$work"' EXIT
export KALAH_STORE=off
run=$work/run
fail() { echo "FAIL: $*"; cat "$run/log" 2>/dev/null; exit 1; }
"$kalah" build --db "$work/db" --pits 4 --max-seeds 12 >/dev/null || fail "build"
want=$("$kalah" solve --pits 4 --seeds 8 --capture standard --db "$work/db" --value-only |
       grep '^value: ') || fail "the uninterrupted solve"
each=(--kalah "$kalah" --np "$np" --threads 1 --every 1)

"$campaign" "$run" --db "$work/db" --pits 4 --seeds abc "${each[@]}" 2>/dev/null
rc=$?; [[ $rc -eq 2 ]] || fail "a bad first call: exit $rc, not 2"
"$campaign" "$run" --db "$work/db" --pits 4 --seeds 8 --capture $'empty\n--no-db' "${each[@]}" \
  2>/dev/null
rc=$?; [[ $rc -eq 2 ]] || fail "an argument with a line break: exit $rc, not 2"
[[ ! -e $run/game ]] || fail "a bad first call wrote $run/game"
mkdir "$work/linked" && ln -s "$work/elsewhere" "$work/linked/lock"
"$campaign" "$work/linked" --db "$work/db" --pits 4 --seeds 8 "${each[@]}" 2>/dev/null
rc=$?; [[ $rc -eq 2 ]] || fail "a lock that is a symbolic link: exit $rc, not 2"
[[ ! -e $work/elsewhere ]] || fail "the lock was opened through a symbolic link"
"$campaign" "$run" --db "$work/db" --pits 4 --seeds 8 --capture standard "${each[@]}" --hours 0.0006
rc=$?; [[ $rc -eq 3 ]] || fail "stopped by --hours: exit $rc, not 3"
"$campaign" "$run" --seeds 9 "${each[@]}" 2>/dev/null
rc=$?; [[ $rc -eq 2 ]] || fail "a second game in the same run: exit $rc, not 2"

"$campaign" "$run" "${each[@]}" & pid=$!
sleep 1
"$campaign" "$run" "${each[@]}" 2>/dev/null
rc=$?; [[ $rc -eq 75 ]] || fail "a second call on a running run: exit $rc, not 75"
kill -TERM "$pid"
wait "$pid"
rc=$?; [[ $rc -eq 143 ]] || fail "stopped by SIGTERM: exit $rc, not 143"
for _ in $(seq 50); do pgrep -f "$run/checkpoint" >/dev/null || break; sleep 0.1; done
! pgrep -f "$run/checkpoint" >/dev/null || fail "a search of the run outlived the call by 5 s"
grep -q ' stop: SIGTERM' "$run/log" || fail "no stop line for SIGTERM in the log"
[[ ! -e $run/answer.tmp ]] || fail "SIGTERM left the answer in answer.tmp"

setsid "$campaign" "$run" "${each[@]}" & pid=$!
sleep 1.5
kill -9 -- -"$pid"
wait "$pid" 2>/dev/null

"$campaign" "$run" "${each[@]}"
rc=$?; [[ $rc -eq 0 ]] || fail "the resumed run: exit $rc, not 0"
got=$(grep '^value: ' "$run/answer")
[[ $got == "$want" ]] || fail "the campaign found '$got', one solve '$want'"
[[ $(grep -c ' start: ' "$run/log") -eq 4 ]] || fail "not four starts in the log"
[[ $(grep -c ' value: ' "$run/log") -eq 1 ]] || fail "the killed run was not killed while it searched"
grep -q ' stop: --hours reached' "$run/log" || fail "no stop by --hours in the log"
last=$(grep -n ' start: ' "$run/log" | tail -n 1 | cut -d: -f1)
tail -n +"$last" "$run/log" | grep -q 'resuming from ' || fail "the last run did not resume"
grep -q 'resumed from a checkpoint' "$run/answer" || fail "the answer does not say it resumed"
echo "campaign over $np process(es): stopped, killed and resumed: $got"
