#!/usr/bin/env bash
# The Debian packages on a clean Debian 12: a root made by mmdebstrap from Debian's archive (the
# "apt" variant: essential packages and apt, nothing of kalah's), the packages of `cpack -G DEB`
# installed there with apt-get (which must pull every dependency), then, inside it: kalah
# --version, a small build, solve, query and a certificate checked; the C++ example compiled
# against libkalah-dev; `import kalah`. About 3 minutes here (the root 45 s, the dependencies and
# a compiler from the archive the rest); needs root and the network to deb.debian.org.
#
# usage: scripts/deb_test.sh [BUILD_DIR]     (default build; configured and built already)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
command -v mmdebstrap >/dev/null || scripts/install-deps.sh mmdebstrap
# In the build directory, not /tmp: the root's programs must be allowed to run (a /tmp mounted
# noexec would refuse them).
tmp=$(mktemp -d "$(cd "$build" && pwd)/deb-test.XXXXXX")
root=$tmp/root
cleanup() {
  umount "$root/proc" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

(cd "$build" && cpack -G DEB -B "$tmp/debs" >/dev/null)
# Open MPI only in the package of the MPI build, kalah-mpi, never in kalah.
for deb in "$tmp"/debs/kalah_*.deb "$tmp"/debs/kalah-mpi_*.deb; do
  [ -e "$deb" ] || continue
  depends=$(dpkg-deb -f "$deb" Depends)
  case "$(basename "$deb"):$depends" in
    kalah_*mpi*) echo "FAIL: $(basename "$deb") depends on MPI: $depends" >&2; exit 1 ;;
    kalah-mpi_*mpi*) echo "deb_test: $(basename "$deb"), the MPI build's own package, has Open MPI" ;;
    kalah-mpi_*) echo "FAIL: $(basename "$deb") without Open MPI: $depends" >&2; exit 1 ;;
  esac
done
mmdebstrap --quiet --variant=apt --mode=root bookworm "$root" http://deb.debian.org/debian
mkdir -p "$root/kalah"
cp "$tmp"/debs/*.deb "$root/kalah/"
cp -r examples "$root/kalah/examples"
mount -t proc proc "$root/proc" 2>/dev/null || echo "deb_test: /proc not mounted in the root (refused)"
inside() {
  chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive \
    bash -euo pipefail -c "$1"
}

inside 'apt-get update -q >/kalah/apt.log && apt-get install -y -q /kalah/*.deb >>/kalah/apt.log 2>&1' ||
  { cat "$root/kalah/apt.log"; exit 1; }
inside 'kalah --version'
inside 'kalah build --db /tmp/db --pits 4 --max-seeds 10 >/dev/null && kalah info --db /tmp/db >/tmp/info &&
        head -3 /tmp/info'
inside 'kalah solve --pits 4 --seeds 3 --db /tmp/db --value-only | grep "value: +6"'
inside 'echo "0,0,2,1/1,2,0,2/15,14" | kalah query --db /tmp/db | grep "^value: -1"'
inside 'apt-get install -y -q python3-zstandard >/dev/null 2>&1 &&
        kalah solve --pits 4 --seeds 2 --db /tmp/db --value-only --certificate /tmp/c.cert >/dev/null &&
        kalah-check-certificate /tmp/c.cert --db /tmp/db | grep "^PROVEN"'
inside 'python3 -c "import kalah; print(\"python:\", kalah.__version__, kalah.solve(pits=4, seeds=3)[\"value\"])"'
inside 'apt-get install -y -q g++ cmake make >/dev/null 2>&1 &&
        cmake -S /kalah/examples/engine -B /tmp/engine >/dev/null && cmake --build /tmp/engine >/dev/null &&
        /tmp/engine/engine /tmp/db "2,2,2,2/2,2,2,2"'
echo "deb_test: $(cd "$tmp/debs" && echo *.deb) install and run on a clean Debian 12"
