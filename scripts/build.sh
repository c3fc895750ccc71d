#!/usr/bin/env bash
# Configures and builds kalah (Release, with the Python module) into build/; extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache, when present, lets pip's build of the same sources (tests/api/pip_test.sh) reuse the
# objects.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DKALAH_PYTHON=ON "${launcher[@]}" "$@" >/dev/null
cmake --build build -j"$(nproc)"
