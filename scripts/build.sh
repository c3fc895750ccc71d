#!/usr/bin/env bash
# Configures and builds kalah (Release, with the Python module) into build/; extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DKALAH_PYTHON=ON "$@" >/dev/null
cmake --build build -j"$(nproc)"
