#!/usr/bin/env python3
"""How soon a first estimate arrives beyond the database (issue goal: within 200 ms), from the
board's server, the command line and Python, for the starts of Kalah(6,6), (7,4), (8,3) and
(6,21) and an out-of-book Kalah(6,4) position (S:1 N:6 S:2).

usage: scripts/bench/estimate_latency.py [DB_DIR]   (default: kalah's default directory; needs
    build/ with the Python module: scripts/build.sh)

- serve: a named /api/v1/analyse, /api/v1/progress polled every 5 ms until it has `estimate`;
- moves: the same as the board asks (value_only=1), until the estimate has every legal move's;
- CLI: `kalah solve --progress --json` until a progress line with `estimate` is read (wall time
  from the spawn, so the process's start and the database's opening count);
- Python: `kalah.analyse(..., progress=f, timeout=1)` until f is given an estimate (reports
  reach Python at most every 50 ms).
Each is the time from the request; one run a position, and the median of three runs.
"""
import concurrent.futures
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KALAH = os.path.join(ROOT, "build", "tools", "kalah")
sys.path.insert(0, os.path.join(ROOT, "build", "python"))
import kalah  # noqa: E402


def positions():
    out = [(f"Kalah({m},{n}) start", kalah.Position.start(pits=m, seeds=n))
           for m, n in ((6, 6), (7, 4), (8, 3), (6, 21))]
    p = kalah.Position.start(pits=6, seeds=4)
    for pit in (1, 6, 2):
        p = p.play(pit)
    out.append(("Kalah(6,4) after S:1 N:6 S:2", p))
    return out


def by_serve(url, p, run, every_move=False):
    """The position's estimate, or (every_move) every legal move's, as the board asks for them:
    a value search first (value_only=1), its bounds and estimates shown as they come."""
    name = f"latency-{run}-{time.monotonic_ns()}"
    q = {"position": p.absolute, "budget_ms": 2000, "search": name}
    if every_move:
        q["value_only"] = 1
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        t0 = time.monotonic()
        answer = pool.submit(urllib.request.urlopen, f"{url}api/v1/analyse?" +
                             urllib.parse.urlencode(q), timeout=30)
        waited = None  # none within the request's budget
        while time.monotonic() - t0 < 2:
            with urllib.request.urlopen(f"{url}api/v1/progress?search={name}", timeout=10) as r:
                e = json.loads(r.read()).get("estimate")
                if e and (not every_move or len(e.get("moves", [])) == len(p.legal_moves)):
                    waited = time.monotonic() - t0
                    break
            time.sleep(0.005)
        urllib.request.urlopen(f"{url}api/v1/cancel?search={name}", timeout=10).read()
        answer.result().read()
    return waited


def by_cli(tables, p):
    t0 = time.monotonic()
    # The database serves its own pit count; other boards are searched without one.
    tables = tables if p.pits == 6 else ["--no-db"]
    proc = subprocess.Popen([KALAH, "solve", *tables, "--no-store", "--progress", "--json",
                             "--pits", str(p.pits), "--position", p.absolute],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    waited = None
    for line in proc.stderr:
        if line.startswith("{") and "estimate" in json.loads(line):
            waited = time.monotonic() - t0
            break
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    return waited


def by_python(p):
    seen = []
    t0 = time.monotonic()

    def progress(report):
        if "estimate" in report and not seen:
            seen.append(time.monotonic() - t0)
    kalah.analyse(p, timeout=1, progress=progress)
    return seen[0] if seen else None


def main():
    # Without a directory, kalah's own default (KALAH_DB, else ~/.cache/kalah/db).
    tables = ["--db", sys.argv[1]] if len(sys.argv) > 1 else []
    server = subprocess.Popen([KALAH, "serve", *tables, "--port", "0", "--json", "--no-store"],
                              stdout=subprocess.PIPE, text=True)
    url = json.loads(server.stdout.readline())["url"]
    try:
        print(f"first estimate, ms (median of 3; database {' '.join(tables) or 'the default'})")
        print(f"{'position':32} {'serve':>8} {'moves':>8} {'CLI':>8} {'Python':>8}")
        for label, p in positions():
            cells = []
            for f in (lambda r: by_serve(url, p, r), lambda r: by_serve(url, p, r, True),
                      lambda r: by_cli(tables, p), lambda r: by_python(p)):
                times = [f(r) for r in range(3)]
                cells.append(f"{statistics.median(times) * 1000:8.0f}"
                             if None not in times else "    none")
            print(f"{label:32} {' '.join(cells)}", flush=True)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
