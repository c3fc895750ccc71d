#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole ctest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
