#!/usr/bin/env bash
# The installed package as a user meets it (ctest: install_test):
#  - cmake --install into a temporary prefix; examples/probe built against it with
#    find_package(kalah CONFIG) and run on a small database; the same program built with only
#    pkg-config's flags;
#  - cpack -G DEB, each package holding its part, the program's unpacked and run.
#  - with the Python module built, the prefix is ~/.local (HOME a temporary directory), where the
#    module goes to the user site: `import kalah` works with no PYTHONPATH; the .deb holds it in
#    /usr/lib/python3/dist-packages.
# usage: install_test.sh SOURCE_DIR BUILD_DIR [CXXFLAGS]   (CXXFLAGS: the sanitizers libkalah
# was built with, which its users must link too)
set -euo pipefail
src=$1 build=$2 cxxflags=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
prefix=$HOME/.local

cmake --install "$build" --prefix "$prefix" >/dev/null
"$prefix/bin/kalah" --version
"$prefix/bin/kalah" build --db "$tmp/db" --pits 4 --max-seeds 8 >/dev/null
# The installed certificate checker proves what the installed solver certifies.
"$prefix/bin/kalah" solve --pits 4 --seeds 2 --db "$tmp/db" --value-only \
  --certificate "$tmp/k42.cert" >/dev/null
"$prefix/bin/kalah-check-certificate" "$tmp/k42.cert" --db "$tmp/db" >"$tmp/check.out"
grep -q "^PROVEN" "$tmp/check.out"

cmake -S "$src/examples/probe" -B "$tmp/probe" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_FLAGS="$cxxflags" >/dev/null
cmake --build "$tmp/probe" >/dev/null
positions=("0,0,2,1/1,2,0,2/15,14" "1,0,0,3/0,2,1,0/4,9" "4,4,4,4/4,4,4,4")
"$tmp/probe/probe" "$tmp/db" "${positions[@]}"

# An engine of its own probing the database at its leaves (the board-level probe).
cmake -S "$src/examples/engine" -B "$tmp/engine" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_FLAGS="$cxxflags" >/dev/null
cmake --build "$tmp/engine" >/dev/null
"$tmp/engine/engine" "$tmp/db" "2,1,3,0/1,2,0,3" "2,2,2,2/2,2,2,2" "0,4,1,2/5,0,2,1/10,12"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig:$(dirname "$(find "$prefix" -name kalah.pc)")
# shellcheck disable=SC2046  # pkg-config's flags are words
g++ $cxxflags -o "$tmp/probe-pc" "$src/examples/probe/main.cpp" $(pkg-config --cflags --libs kalah) \
  -Wl,-rpath,"$(pkg-config --variable=libdir kalah)"
"$tmp/probe-pc" "$tmp/db" "${positions[0]}" >/dev/null
echo "pkg-config build: ok"

# The Python package, when built: in the user site, importable with no PYTHONPATH; installed
# under /usr/local (staged with DESTDIR), in Debian's /usr/local/lib/python3.X/dist-packages,
# which that Python searches.
python_module=""
if [ -d "$build/python/kalah" ]; then
  python_module=$(find "$prefix" -path '*/kalah/_kalah.cpython-*.so')
  [ -n "$python_module" ] || { echo "FAIL: no Python package under $prefix" >&2; exit 1; }
  (cd "$tmp" && env -u PYTHONPATH /usr/bin/python3 -c \
    "import kalah; print('python module', kalah.__version__, kalah.__file__, kalah.Database('$tmp/db').probe('${positions[0]}'))")
  DESTDIR=$tmp/stage cmake --install "$build" --prefix /usr/local --component python >/dev/null
  site=$(cd "$tmp/stage" && find . -path '*/kalah/__init__.py' | sed 's|^\.||; s|/kalah/__init__.py$||')
  env -u PYTHONPATH /usr/bin/python3 -c "import sys; assert '$site' in sys.path, sys.path"
  echo "/usr/local install: $site, on /usr/bin/python3's path"
fi

# The Debian packages (cmake/install.cmake): each holds its part (scripts/deb_test.sh installs
# them on a clean Debian 12).
(cd "$build" && cpack -G DEB -B "$tmp/deb" >/dev/null)
contents() { dpkg-deb -c "$(ls "$tmp"/deb/"$1"_*.deb)" >"$tmp/$1.list"; grep -q "$2" "$tmp/$1.list"; }
# The program's package: kalah, or kalah-mpi from a build with -DKALAH_MPI=ON.
program=kalah
if compgen -G "$tmp/deb/kalah-mpi_*.deb" >/dev/null; then program=kalah-mpi; fi
contents "$program" "usr/bin/kalah$"
contents "$program" "usr/bin/kalah-check-certificate"
contents "$program" "usr/share/doc/kalah/json.md"
if command -v help2man >/dev/null; then contents "$program" "usr/share/man/man1/kalah.1"; fi
contents libkalah0 "usr/lib/.*libkalah.so.0"
contents libkalah-dev "usr/include/kalah/kalah.h"
contents libkalah-dev "usr/lib/.*libkalah.so -> "
if [ -n "$python_module" ]; then
  contents python3-kalah "usr/lib/python3/dist-packages/kalah/_kalah.cpython-"
  contents python3-kalah "usr/lib/python3/dist-packages/kalah/py.typed"
fi
deb=$(ls "$tmp"/deb/"$program"_*.deb)
dpkg-deb -I "$deb" | grep -E "Package|Version|Depends"
dpkg-deb -x "$deb" "$tmp/root"
"$tmp/root/usr/bin/kalah" solve --pits 3 --seeds 2 --json >"$tmp/solve.json"
grep -q '"value"' "$tmp/solve.json"
echo "debian packages: $(cd "$tmp/deb" && echo *.deb); usr/bin/kalah runs"
