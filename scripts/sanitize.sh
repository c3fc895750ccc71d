#!/usr/bin/env bash
# Sanitizers: the ctest suite (but two tests, below) built with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), then the concurrent block cache, the parallel search's shared transposition
# table and the frontier search's threads under ThreadSanitizer (build-tsan/, std::thread:
# oneTBB is not instrumented, so TSan cannot see its hand-offs and is pointed at code driven by
# threads it can see). Exits 1 on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Line tables only (-g1): reports keep their file:line, and the build takes less time. -O1, the
# level ASan's documentation suggests: on 2 cores the build took 214 s against 335 s at -O2, and
# the suite 156 s against 163 s.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKALAH_SANITIZE=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" >/dev/null
cmake --build build-asan -j"$(nproc)" >/dev/null
# Less two tests that the normal build runs: the golden node counts and lean mode in every
# variant repeat, at 3x the cost here (about 95 s each of the suite's 700), code the other search
# and lean-mode tests run under the sanitizers too.
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" \
  -E '^(Golden.SearchesVisitTheRecordedNodes|LeanMode.EqualsNormalModeInEveryVariant)$'


cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKALAH_TSAN=ON \
  -DKALAH_BUILD_TESTS=OFF >/dev/null
cmake --build build-tsan -j"$(nproc)" --target block_cache_tsan shared_table_tsan frontier_tsan \
  >/dev/null
db=$(mktemp -d /tmp/kalah-tsan-XXXXXX)
trap 'rm -rf "$db"' EXIT
# The database the block cache reads is built by the ASan build's kalah (a file is the same
# whichever build writes it; compiling the whole CLI under TSan too cost a minute of CI).
build-asan/tools/kalah build --db "$db" --pits 5 --max-seeds 12 >/dev/null
TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/tests/tsan/block_cache_tsan "$db"
TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/tests/tsan/shared_table_tsan
TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/tests/tsan/frontier_tsan
