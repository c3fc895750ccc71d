#!/usr/bin/env bash
# Installs the Debian 12 packages kalah builds with, and any named as arguments, if missing
# (needs root or sudo).
set -euo pipefail
packages=(g++ cmake make libboost-program-options-dev libtbb-dev libzstd-dev libgtest-dev
          libxxhash-dev libsodium-dev
          pybind11-dev python3-dev pkg-config dpkg-dev help2man ccache
          python3-venv python3-pip python3-setuptools python3-mypy
          chromium chromium-driver python3-selenium python3-zstandard curl tmux "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null; then
    # Without root or sudo: say what to install and let the build find out whether it can go on.
    echo "not root and no sudo: as root, run" >&2
    echo "  apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 0
  fi
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
