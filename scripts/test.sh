#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole ctest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# Open MPI for the build over several processes (tests/mpi/mpi_test.sh); universal-ctags for the
# house's size rules (scripts/sizes.py).
scripts/install-deps.sh openmpi-bin libopenmpi-dev universal-ctags
scripts/build.sh -DKALAH_MPI=ON
ctest --test-dir build --output-on-failure -j"$(nproc)"
