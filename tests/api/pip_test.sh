#!/usr/bin/env bash
# `pip install .` as the README gives it: a venv that sees Debian's setuptools
# (--system-site-packages), `pip install --no-build-isolation SOURCE` (setup.py builds the
# extension with CMake in BUILD/pip, kept between runs), then with no PYTHONPATH: the README's
# Python example verbatim, the package's doctests, the typed example under `mypy --strict` against
# the installed stubs; then a Python without the package wheel (a plain venv, pyenv's when
# present). Usage: pip_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1 build_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset PYTHONPATH
# CMake takes the launcher from the environment: with ccache, the objects scripts/build.sh compiled
# with the same flags are reused (most of the library), not compiled a second time.
command -v ccache >/dev/null && export CMAKE_CXX_COMPILER_LAUNCHER=ccache
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
py="$work/venv/bin/python"
KALAH_PIP_BUILD_DIR="$build_dir/pip" "$py" -m pip install --no-build-isolation --no-index \
  --quiet "$source_dir" > "$work/pip.out" 2>&1 || { cat "$work/pip.out"; exit 1; }
cd "$work"
where=$("$py" -c "import kalah; print(kalah.__file__)")
case "$where" in
  "$work/venv/"*) echo "ok: installed in the venv: $where" ;;
  *) echo "FAIL: kalah imported from $where, not the venv" >&2; exit 1 ;;
esac
# The README's Python block, as written, against a database in KALAH_DB.
export HOME="$work" KALAH_DB="$work/db"
"$build_dir/tools/kalah" build --pits 6 --max-seeds 12 --capture empty > /dev/null
sed -n '/^```python$/,/^```$/p' "$source_dir/README.md" | sed '1d;$d' > readme.py
"$py" readme.py > readme.out
head -1 readme.out | grep -q ' 6$' || { cat readme.out; echo "FAIL: the README's example" >&2; exit 1; }
echo "ok: the README's Python example"
"$py" -c "import doctest, kalah, sys; sys.exit(doctest.testmod(kalah).failed != 0)"
echo "ok: doctests"
if "$py" -c "import mypy" 2>/dev/null; then
  "$py" -m mypy --strict --no-incremental "$source_dir/examples/python/perfect_play.py"
  "$py" "$source_dir/examples/python/perfect_play.py" 4 3 | tail -1
else
  echo "mypy is not installed (python3-mypy): the stubs are not checked"
fi

# A Python with setuptools but not the package wheel (pyenv's, a plain venv: the README's command
# failed there with "invalid command 'bdist_wheel'"): Debian's own in a venv that does not see
# Debian's packages, and pyenv's when this machine has one (not installable from Debian).
plain_install() {  # PYTHON NAME BUILD_SUFFIX
  "$1" -m venv "$work/$2"
  if "$work/$2/bin/python" -c "import wheel" 2>/dev/null; then
    echo "note: $2 has the package wheel: the fallback is not exercised"
  fi
  KALAH_PIP_BUILD_DIR="$build_dir/pip$3" "$work/$2/bin/python" -m pip install \
    --no-build-isolation --no-index --quiet "$source_dir" > "$work/$2.out" 2>&1 ||
    { cat "$work/$2.out"; echo "FAIL: pip install with $2" >&2; exit 1; }
  "$work/$2/bin/python" -c "import kalah; assert kalah.solve(pits=4, seeds=3, db=None)['value'] == 6"
  "$work/$2/bin/python" -m pip uninstall --yes --quiet kalah
  echo "ok: pip install with $2 ($("$work/$2/bin/python" --version)), no package wheel"
}
plain_install /usr/bin/python3 plain-venv ""  # the same interpreter: its CMake build again
for pyenv in "$HOME"/.pyenv/versions/3.1[1-9]*/bin/python3 /root/.pyenv/versions/3.1[1-9]*/bin/python3; do
  if [ -x "$pyenv" ]; then plain_install "$pyenv" pyenv-venv -pyenv; break; fi
done
