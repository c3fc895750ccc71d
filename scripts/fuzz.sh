#!/usr/bin/env bash
# Fuzzing: builds the libFuzzer targets of tests/fuzz with clang (address and undefined-behaviour
# sanitizers on) into build-fuzz/ and runs each for SECONDS (default 30) from a copy of its seed
# corpus in tests/fuzz/corpus. A crash stops the run with exit 1 and leaves the input that caused
# it in build-fuzz/ (crash-*, leak-*, timeout-*); reproduce with build-fuzz/tests/fuzz/TARGET FILE.
#
#   bash scripts/fuzz.sh 20            every target 20 s (what CI runs)
#   bash scripts/fuzz.sh 3600 layer_file   one target, an hour
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=("${@:-position options layer_file json http kgp answer checkpoint}")
read -r -a targets <<<"${targets[*]}"
scripts/install-deps.sh clang libclang-rt-14-dev
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKALAH_FUZZ=ON -DKALAH_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
for t in "${targets[@]}"; do
  work=$(mktemp -d /tmp/kalah-fuzz-"$t"-XXXXXX)
  cp tests/fuzz/corpus/"$t"/* "$work"/
  echo "fuzz_$t: ${seconds} s"
  if ! build-fuzz/tests/fuzz/fuzz_"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
      -artifact_prefix=build-fuzz/ -print_final_stats=1 "$work" >"$work.log" 2>&1; then
    tail -n 40 "$work.log"
    echo "fuzz_$t: FAILED (input saved in build-fuzz/)"
    exit 1
  fi
  echo "fuzz_$t: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work.log" | grep -o '[0-9]*$') inputs, no failure"
  rm -rf "$work" "$work.log"
done
