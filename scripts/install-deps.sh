#!/usr/bin/env bash
# Installs the Debian 12 packages kalah builds with, and any named as arguments, if missing
# (needs root or sudo).
set -euo pipefail
packages=(g++ cmake make libboost-program-options-dev libtbb-dev libzstd-dev libgtest-dev "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
