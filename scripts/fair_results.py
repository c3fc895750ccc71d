#!/usr/bin/env python3
"""The "Fair starts" tables of docs/results.md: `kalah fair` over each game and capture rule (end
immediate, remainder owner, as FairKalah), every fair start certified and the certificate checked
by tools/checker/check_certificate.py, and a sample of the other candidates settled a second way (no
database, one thread). Then tools/server/fair_starts.json (the board's "fair start") from the
records.

usage: fair_results.py [GAME ...]    e.g. 6,4,empty; every game by default

Each game's record goes to RESULTS/fair-M-N-CAPTURE.json (RESULTS: $KALAH_RESULTS, default
docs/results/); a game whose record exists is not run again (delete it to redo it). Databases
are built (or reused) under $KALAH_DB (default ~/.cache/kalah/db), one directory per pits,
capture and top layer, as scripts/new_results.py does. Certificates go to $KALAH_CERTS (default
/tmp/kalah-fair-certificates); a game's are kept in RESULTS/fair-M-N-CAPTURE.tar.xz when that
archive comes to 1 MB or less.
"""
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
import time

from new_results import CHECKER, DB, KALAH, RESULTS, ROOT, database, run

CERTS = os.environ.get("KALAH_CERTS", "/tmp/kalah-fair-certificates")
SAMPLE = 200  # candidates settled again a second way, per game

# m, n, seeds moved (K), the database's top layer (0: none). Both capture rules each. Kalah(7,3)
# and Kalah(5,5), (5,6), (6,5) with one seed moved: two would take hours each (docs/results.md).
GAMES = [
    (6, 4, 2, 28), (4, 3, 2, 28), (4, 4, 2, 28), (4, 5, 2, 28), (4, 6, 2, 28), (6, 3, 2, 28),
    (5, 3, 2, 28), (5, 4, 2, 28), (5, 5, 1, 28), (5, 6, 1, 28), (7, 3, 1, 22), (6, 5, 1, 28),
]


def fair(m, n, moved, capture, where, *extra):
    return json.loads(run([KALAH, "fair", "--pits", str(m), "--seeds", str(n), "--moved",
                           str(moved), "--capture", capture, "--json"] + where + list(extra)))


def candidates(m, n, moved):
    """Every candidate as absolute text (tests/parallel/fair_test.cpp's brute force, again)."""
    start = tuple(0 if i in (m, 2 * m + 1) else n for i in range(2 * m + 2))
    seen, level = {start}, [start]
    for _ in range(moved):
        nxt = []
        for b in level:
            for i in range(2 * m + 2):
                if i in (m, 2 * m + 1) or b[i] == 0:
                    continue
                for j in range(2 * m + 2):
                    if j != i:
                        c = list(b)
                        c[i] -= 1
                        c[j] += 1
                        if tuple(c) not in seen:
                            seen.add(tuple(c))
                            nxt.append(tuple(c))
        level = nxt
    seen.discard(start)
    return sorted(",".join(map(str, b)) + ",S" for b in seen)


def second_way(m, n, moved, capture, top, answer):
    """SAMPLE candidates valued again by `kalah solve --value-only` (MTD(f) by the query path, not
    fair's null-window tests) on one thread, without a database (m <= 4) or with one four layers
    smaller: the signs that disagree, how many were compared and how."""
    every = candidates(m, n, moved)
    assert len(every) == answer["candidates"]
    sample = random.Random(f"{m},{n},{capture}").sample(every, min(SAMPLE, len(every)))
    where, how = ["--no-db"], "no database"
    if m > 4 and top > 4:
        where = ["--db", layers(m, capture, top, top - 4)]
        how = f"database of {top - 4} seeds"
    fair_set, below = set(answer["fair"]), set(answer["below"])
    disagree = 0
    for p in sample:
        args = [KALAH, "solve", p, "--pits", str(m), "--capture", capture, "--value-only",
                "--threads", "1", "--no-store", "--json"] + where
        v = json.loads(run(args))["value"]
        expected = 0 if p in fair_set else -1 if p in below else 1
        disagree += (v > 0) - (v < 0) != expected
    return disagree, len(sample), how + ", one thread, kalah solve --value-only"


def layers(m, capture, top, fewer):
    """A directory of links to layers 1..fewer of the database of `top` layers."""
    d = os.path.join(DB, f"m{m}-{capture}-s{top}")
    out = os.path.join(DB, f"m{m}-{capture}-s{fewer}-of-{top}")
    os.makedirs(out, exist_ok=True)
    for s in range(1, fewer + 1):
        name = f"kalah-m{m}-{capture}-immediate-owner-s{s}.kdb"
        if not os.path.exists(os.path.join(out, name)):
            os.symlink(os.path.join(d, name), os.path.join(out, name))
    return out


def certify(answer, d, keep):
    """Checks every certificate in one run of the checker (the layers read once): how many it
    proved worth a final margin of 0, and their bytes; they are archived in `keep`."""
    files = [c["file"] for c in answer.get("certificates", [])]
    if not files:
        return 0, []
    check = subprocess.run([sys.executable, CHECKER, *files] + (["--db", d] if d else []),
                           stdout=subprocess.PIPE, text=True)
    proven = check.stdout.count(": final margin +0 for the player to move")
    archive(files, keep)
    return proven if check.returncode == 0 else 0, [c["bytes"] for c in answer["certificates"]]


def archive(files, keep):
    """The certificates as the xz-compressed tar file `keep`, kept when it comes to 1 MB or less
    (small games' certificates repeat the same records and shrink many times over; Kalah(6,4)'s
    hardly: 5.4 and 10 MB, left out as the other results' big certificates)."""
    with tarfile.open(keep, "w:xz") as tar:
        for f in sorted(files):
            tar.add(f, arcname=os.path.basename(f))
    if os.path.getsize(keep) > 1 << 20:
        os.remove(keep)


def record(m, n, moved, top, capture):
    path = os.path.join(RESULTS, f"fair-{m}-{n}-{capture}.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    start = time.time()
    d = database(m, capture, top)
    built = time.time() - start
    where = ["--db", d] if d else ["--no-db"]
    certs = os.path.join(CERTS, f"{m}-{n}-{capture}")
    shutil.rmtree(certs, ignore_errors=True)
    answer = fair(m, n, moved, capture, where, "--certificates", certs)
    closest = None
    if not answer["fair"]:  # none within K seeds: the values, for the closest to 0
        exact = fair(m, n, moved, capture, where, "--exact")
        closest = min((int(v) for v in exact["values"]), key=abs)
    start = time.time()
    accepted, sizes = certify(answer, d, os.path.join(RESULTS, f"fair-{m}-{n}-{capture}.tar.xz"))
    r = {"game": [m, n, capture], "moved": moved, "database": top,
         "build_seconds": round(built, 1), "answer": answer,
         "closest": closest, "certificates_accepted": accepted,
         "certificate_bytes": sum(sizes), "check_seconds": round(time.time() - start, 1)}
    start = time.time()
    r["second_way"] = dict(zip(("disagreements", "compared", "how"),
                               second_way(m, n, moved, capture, top, answer)))
    r["second_way"]["seconds"] = round(time.time() - start, 1)
    with open(path, "w") as f:
        json.dump(r, f, indent=1)
    return r


# The published counts this checks (Kalah(6,4), both seeds moved): FairKalah's (Neller, CG 2022;
# the Ludii game) and Pham & Neller's manuscript's archive.
PUBLISHED = {(6, 4, "empty"): "254 (3 + 251): FairKalah", (6, 4, "standard"): "323: Pham & Neller"}
BEGIN, END = "<!-- fair starts: scripts/fair_results.py -->", "<!-- end of fair starts -->"


def row(r):
    m, n, capture = r["game"]
    a = r["answer"]
    one = sum(1 for p in a["fair"] if distance(m, n, p) == 1)
    found = f"**{len(a['fair'])}** ({one} + {len(a['fair']) - one})" if r["moved"] == 2 \
        else f"**{len(a['fair'])}**"
    if not a["fair"]:
        found = f"none (closest: {r['closest']:+d})"
    values = " ".join(f"{k}: {v:,}" for k, v in a["values"].items())
    w = r["second_way"]
    second = f"{w['disagreements']} of {w['compared']} disagree ({w['how']}, {w['seconds']:.0f} s)"
    certs = (f"{r['certificates_accepted']} of {len(a['fair'])} accepted, "
             f"{r['certificate_bytes'] / 1024:,.0f} KiB, checked in {r['check_seconds']:.0f} s"
             if a["fair"] else "-")
    return (f"| Kalah({m},{n}) | {capture} | {r['moved']} | {a['candidates']:,} | {found} | "
            f"{PUBLISHED.get((m, n, capture), '-')} | {values} | ≤ {r['database']} "
            f"({r['build_seconds']:.0f} s to build) | {a['seconds']:.1f} s | {certs} | {second} |")


def distance(m, n, position):
    bins = [int(x) for x in position.split(",")[:-1]]
    start = [0 if i in (m, 2 * m + 1) else n for i in range(2 * m + 2)]
    return sum(max(0, s - b) for s, b in zip(start, bins))


def markdown(records):
    """Rewrites the table between BEGIN and END in docs/results.md."""
    path = os.path.join(ROOT, "docs", "results.md")
    with open(path) as f:
        text = f.read()
    head = ("| game | capture | seeds moved | candidates | fair (one + two seeds) | published | "
            "South's results | database | time | certificates | second way |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n")
    table = head + "".join(row(r) + "\n" for r in records)
    before, rest = text.split(BEGIN)
    after = rest.split(END)[1]
    with open(path, "w") as f:
        f.write(before + BEGIN + "\n" + table + END + after)


def board_tables():
    tables = []
    for path in sorted(glob.glob(os.path.join(RESULTS, "fair-*.json"))):
        with open(path) as f:
            a = json.load(f)["answer"]
        tables.append({k: a[k] for k in ("pits", "seeds", "moved", "fair")} | a["rules"])
    with open(os.path.join(ROOT, "tools", "fair_starts.json"), "w") as f:
        json.dump({"tables": tables}, f, separators=(",", ":"))
        f.write("\n")


def main():
    os.makedirs(RESULTS, exist_ok=True)
    wanted = set(sys.argv[1:])
    records = []
    for m, n, moved, top in GAMES:
        for capture in ("empty", "standard"):
            path = os.path.join(RESULTS, f"fair-{m}-{n}-{capture}.json")
            if wanted and f"{m},{n},{capture}" not in wanted:
                if os.path.exists(path):  # done before: in the table all the same
                    with open(path) as f:
                        records.append(json.load(f))
                continue
            r = record(m, n, moved, top, capture)
            records.append(r)
            a = r["answer"]
            print(f"Kalah({m},{n}) {capture}: {len(a['fair'])} fair of {a['candidates']}, "
                  f"{a['values']}, {a['seconds']:.1f} s", flush=True)
    board_tables()
    markdown(records)


if __name__ == "__main__":
    main()
