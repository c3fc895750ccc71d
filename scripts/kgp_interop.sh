#!/usr/bin/env bash
# `kalah kgp` against the reference KGP server (scripts/kgp_interop.py): builds kalah, its default
# database if missing (m = 6, standard capture, 22 seeds) and go-kgp's practice server
# (../shared/anchors/kgp-server.sh, or $KALAH_ANCHORS/kgp-server.sh: about 270 Debian packages
# the first time), then plays its bots on loopback on boards (6,4), (6,6), (8,8) and (12,12) for
# 6 minutes each and reports states, moves used and substituted, errors and results, judging
# every lost game. Arguments go to kgp_interop.py (e.g. --boards 6x3 --minutes 10).
set -euo pipefail
cd "$(dirname "$0")/.."
anchors=${KALAH_ANCHORS:-$(pwd)/../shared/anchors}
scripts/install-deps.sh
scripts/build.sh
build/tools/kalah build --pits 6 --max-seeds 22 >&2
server=$("$anchors/kgp-server.sh" build)
python3 scripts/kgp_interop.py --kalah build/tools/kalah --server "$server" "$@"
