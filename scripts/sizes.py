#!/usr/bin/env python3
"""The house's size rules: no source file over 350 lines, no function over 80, no line of C++,
Python or CMake over 100 columns (.clang-format's limit).

A file's length is its physical lines; a function's, the physical lines from its definition's
first line to its closing brace (or, in Python, its last line), as universal-ctags reports them
for C++ and Python (`end:` field). ctags gives no end for JavaScript, so a JavaScript function is
measured from its `function` line to the brace that closes it.

usage: scripts/sizes.py [--top N]    prints the longest files and functions; exits 1 when a rule
                                      is broken or universal-ctags is missing (tests/sizes_test)
"""
import json
import subprocess
import sys
from pathlib import Path

MAX_FILE_LINES = 350
MAX_FUNCTION_LINES = 80
MAX_COLUMNS = 100
COLUMN_RULED = (".cpp", ".h", ".py", ".pyi", ".cmake", "CMakeLists.txt")
SOURCES = (".cpp", ".h", ".py", ".pyi", ".js", ".sh", ".cmake", ".css", ".html")
FOLDERS = ("api", "base", "cmake", "db", "examples", "include", "mpi", "python", "query",
           "scripts", "solver", "store", "tests", "tools")


def tracked_sources(root):
    """The sources git tracks; outside a checkout, every file under the source folders."""
    try:
        out = subprocess.run(["git", "ls-files"], cwd=root, check=True, capture_output=True,
                             text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = [str(p.relative_to(root)) for top in FOLDERS for p in (root / top).rglob("*")
               if p.is_file()]
    return [p for p in out
            if p.endswith(SOURCES + ("CMakeLists.txt",)) and not p.startswith("tests/data/")]


def ctags_functions(root, files):
    """(lines, path, first line, name) of every C++ and Python function ctags knows the end of."""
    wanted = [f for f in files if f.endswith((".cpp", ".h", ".py"))]
    try:
        out = subprocess.run(
            ["ctags", "--output-format=json", "--fields=+ne", "--kinds-C++=f",
             "--kinds-Python=fm", "-o", "-", *wanted],
            cwd=root, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        sys.exit("sizes.py: needs universal-ctags (apt-get install universal-ctags)")
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") == "tag" and "end" in tag:
            yield tag["end"] - tag["line"] + 1, tag["path"], tag["line"], tag["name"]


def javascript_functions(root, files):
    """The same for JavaScript, by brace matching from each line that opens a function."""
    for path in (f for f in files if f.endswith(".js")):
        lines = (root / path).read_text().splitlines()
        for i, text in enumerate(lines):
            if "function" not in text and "=>" not in text:
                continue
            if not text.rstrip().endswith("{"):
                continue
            depth = 0
            for j in range(i, len(lines)):
                depth += lines[j].count("{") - lines[j].count("}")
                if depth <= 0:
                    yield j - i + 1, path, i + 1, text.strip()[:60]
                    break


def wide_lines(root, files):
    """path:line of every line over MAX_COLUMNS characters in the files the column rule covers."""
    for path in (f for f in files if f.endswith(COLUMN_RULED)):
        for i, text in enumerate((root / path).read_text().splitlines()):
            if len(text) > MAX_COLUMNS:
                yield f"{path}:{i + 1} ({len(text)} columns)"


def main():
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 10
    root = Path(__file__).resolve().parent.parent
    files = tracked_sources(root)
    file_sizes = sorted(((len((root / f).read_text().splitlines()), f) for f in files),
                        reverse=True)
    functions = sorted([*ctags_functions(root, files), *javascript_functions(root, files)],
                       reverse=True)
    print(f"longest files (at most {MAX_FILE_LINES} lines):")
    for n, f in file_sizes[:top]:
        print(f"  {n:5d}  {f}")
    print(f"longest functions (at most {MAX_FUNCTION_LINES} lines):")
    for n, path, line, name in functions[:top]:
        print(f"  {n:5d}  {path}:{line}  {name}")
    long_files = [f for n, f in file_sizes if n > MAX_FILE_LINES]
    long_functions = [f"{p}:{l} {name}" for n, p, l, name in functions if n > MAX_FUNCTION_LINES]
    wide = list(wide_lines(root, files))
    for what in long_files + long_functions + wide:
        print(f"too long: {what}")
    return 1 if long_files or long_functions or wide else 0


if __name__ == "__main__":
    sys.exit(main())
