#!/usr/bin/env bash
# Reproduces the published Kalah results (Irving, Donkers & Uiterwijk 2000; Rawlings 2015) with
# `kalah solve` and writes the tables to docs/results.md. Exits 1 on any mismatch.
#
#   bash scripts/verify_results.sh           every published configuration (long: about 65 minutes
#                                            on 2 cores from nothing, half of it solving Kalah(6,5)
#                                            with standard capture; 7 GiB of memory)
#   bash scripts/verify_results.sh --quick   only games with 2mn <= 32 seeds (about a minute)
#   bash scripts/verify_results.sh --new [GAME ...]
#                                            the New results section instead: games nobody had
#                                            published, solved, certified and checked by
#                                            tools/checker/check_certificate.py (scripts/new_results.py;
#                                            GAME is e.g. 7,3,empty)
#
# Each game is solved for its value alone (kalah solve --value-only). Games with more than 24
# seeds use an endgame database of their m, built (or reused) in ${KALAH_DB:-$HOME/.cache/kalah/db}:
# m = 4 up to 36 seeds, m = 5 up to 32, m = 6 up to ${KALAH_DB_SEEDS:-28} (about 10 minutes per
# capture rule here; 28 seeds give 5.6e9 boards, 2.2 GB on disk).
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
scripts/install-deps.sh
scripts/build.sh
if [ "${1:-}" = "--new" ]; then
  shift
  exec /usr/bin/python3 scripts/new_results.py "$@"  # Debian's, with python3-zstandard
fi
kalah=build/tools/kalah
db=${KALAH_DB:-${XDG_CACHE_HOME:-$HOME/.cache}/kalah/db}
m6_seeds=${KALAH_DB_SEEDS:-28}

# Published first-player margins, empty capture (m = 4..6), and win/draw/loss for m = 1..3.
declare -A published=(
  [4,1]=2 [4,2]=6 [4,3]=8 [4,4]=2 [4,5]=2 [4,6]=0
  [5,1]=0 [5,2]=0 [5,3]=8 [5,4]=12 [5,5]=2 [5,6]=2
  [6,1]=2 [6,2]=10 [6,3]=2 [6,4]=10 [6,5]=12
)
wdl=(DLWLWD WLLLWW DWWWWL)
declare -A published_standard=([4,3]=6 [6,4]=8 [6,5]=10)

failures=0
rows_empty=()
rows_standard=()

# solve M N CAPTURE -> "value nodes seconds"
solve() {
  local m=$1 n=$2 capture=$3 args=(--no-db)
  if (( 2 * m * n > 24 )); then
    local top=36
    (( m == 5 )) && top=32
    (( m == 6 )) && top=$m6_seeds
    "$kalah" build --db "$db" --pits "$m" --max-seeds "$top" --capture "$capture" >/dev/null
    args=(--db "$db")
  fi
  "$kalah" solve --pits "$m" --seeds "$n" --capture "$capture" --value-only --json "${args[@]}" |
    python3 -c 'import json, sys; o = json.load(sys.stdin); print(o["value"], o["nodes"], o["seconds"])'
}

result_of() { (( $1 > 0 )) && echo W || { (( $1 < 0 )) && echo L || echo D; }; }

# check PUBLISHED COMPUTED: sets status to ok or MISMATCH (counted), or - if nothing is published.
check() {
  if [ -z "$1" ]; then
    status="-"
  elif [ "$1" = "$2" ]; then
    status=ok
  else
    status=MISMATCH
    failures=$((failures + 1))
  fi
}

for m in 1 2 3 4 5 6; do
  for n in 1 2 3 4 5 6; do
    (( m == 6 && n == 6 )) && continue
    (( quick && 2 * m * n > 32 )) && continue
    read -r value nodes seconds < <(solve "$m" "$n" empty)
    if (( m <= 3 )); then
      want=${wdl[$((m - 1))]:$((n - 1)):1}
      got=$(result_of "$value")
      shown="$got ($value)"
    else
      want=${published[$m,$n]}
      got=$value
      shown=$value
    fi
    check "$want" "$got"
    row="| Kalah($m,$n) | empty | $want | $shown | $seconds | $nodes | $status |"
    echo "$row"
    rows_empty+=("$row")
  done
done

for m in 1 2 3 4 5 6; do
  for n in 1 2 3 4 5; do
    (( quick && 2 * m * n > 32 )) && continue
    read -r value nodes seconds < <(solve "$m" "$n" standard)
    want=${published_standard[$m,$n]:-}
    check "$want" "$value"
    row="| Kalah($m,$n) | standard | ${want:--} | $value | $seconds | $nodes | $status |"
    echo "$row"
    rows_standard+=("$row")
  done
done

mkdir -p docs
{
  echo "# Reproduced results"
  echo
  echo "Written by \`scripts/verify_results.sh$([ $quick = 1 ] && echo ' --quick')\` on $(date -u +%Y-%m-%d)," \
       "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
  echo "Values are the first player's final margin with perfect play (end immediate, remainder"
  echo "owner); for m <= 3 the paper gives win/draw/loss only. Seconds and nodes are for the value"
  echo "alone (\`kalah solve --value-only\`) on $(nproc) cores, not counting the database build; games"
  echo "over 24 seeds use an endgame database (m = 4: up to 36 seeds, m = 5: 32, m = 6: $m6_seeds)."
  echo
  echo "## Empty capture: published (Irving, Donkers & Uiterwijk 2000)"
  echo
  echo "| game | capture | published | computed | seconds | nodes | check |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows_empty[@]}"
  echo
  echo "## Standard capture (published: Kalah(4,3), Kalah(6,4), Kalah(6,5) by Rawlings 2015)"
  echo
  echo "| game | capture | published | computed | seconds | nodes | check |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows_standard[@]}"
  # The New results section (scripts/new_results.py) is kept as it is.
  if [ -f docs/results.md ]; then sed -n '/^## New results/,$p' docs/results.md | sed '1s/^/\n/'; fi
} > docs/results.md.new
mv docs/results.md.new docs/results.md
echo "wrote docs/results.md; $failures mismatch(es)"
(( failures == 0 ))
