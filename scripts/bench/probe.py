#!/usr/bin/env python3
"""What a probe costs per call from Python against C++ (issue goal: Python within 2x of the
C++ board-level probe), on the same positions of one database.

usage: scripts/bench/probe.py [DIR [CAPTURE]]   (default: a 6-pit, 16-seed empty-capture
    database built in a temporary directory; needs build/ with Python and -DKALAH_EXPERIMENTS=ON:
    scripts/build.sh -DKALAH_EXPERIMENTS=ON)

Draws 100,000 positions the database holds (random legal play from the starts of Kalah(m, n), a
fixed seed, kept once their pits hold at most the top layer's seeds), then times, per call: C++
Database::probe_board over the list and on one board again and again
(build/tools/bench/kalah-probe-bench, built with -DKALAH_EXPERIMENTS=ON), and Python's db.probe() in
a plain loop over the same list, with Position objects (the board-level path) and with text.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
sys.path.insert(0, os.path.join(BUILD, "python"))
import kalah  # noqa: E402


def seeds(p):
    bins = [int(b) for b in p.absolute.split(",")[:-1]]
    return sum(bins) - bins[p.pits] - bins[-1]


def positions(db, count, rng):
    out = []
    while len(out) < count:
        p = kalah.Position.start(pits=db.pits, seeds=rng.randint(1, 4), **db.rules)
        while not p.is_over and len(out) < count:
            if seeds(p) <= db.max_seeds and rng.random() < 0.5:
                out.append(p)
            p = p.play(rng.choice(p.legal_moves))
    return out


def per_call(loop, calls):
    start = time.perf_counter()
    loop()
    return (time.perf_counter() - start) / calls * 1e9


def main():
    with tempfile.TemporaryDirectory() as tmp:
        directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tmp, "db")
        capture = sys.argv[2] if len(sys.argv) > 2 else "empty"
        if len(sys.argv) < 2:
            subprocess.run([os.path.join(BUILD, "tools", "kalah"), "build", "--db", directory,
                            "--pits", "6", "--max-seeds", "16", "--capture", capture],
                           check=True, stdout=subprocess.DEVNULL)
        db = kalah.Database(directory, capture=capture)
        ps = positions(db, 100_000, random.Random(27))
        texts = [p.absolute for p in ps]
        listing = os.path.join(tmp, "positions")
        with open(listing, "w") as f:
            f.write("\n".join(texts) + "\n")
        rounds = 10
        cpp = json.loads(subprocess.run(
            [os.path.join(BUILD, "tools", "bench", "kalah-probe-bench"), directory, capture,
             listing, str(rounds)], check=True, capture_output=True, text=True).stdout)
        probe = db.probe
        for p in ps:  # warm, as the C++ side is
            probe(p)

        def objects():
            for _ in range(rounds):
                for p in ps:
                    probe(p)

        def same():
            p = ps[0]
            for _ in range(rounds * len(ps)):
                probe(p)

        def floor():  # the loop and a call of a C function of one argument that does nothing
            p = ps[0]
            for _ in range(rounds * len(ps)):
                id(p)

        def text():
            for t in texts:
                probe(t)

        py_objects = per_call(objects, rounds * len(ps))
        py_same = per_call(same, rounds * len(ps))
        py_text = per_call(text, len(texts))
        py_floor = per_call(floor, rounds * len(ps))
        print(f"database: {directory} (m={db.pits}, layers 1..{db.max_seeds}, {capture} capture), "
              f"{len(ps):,} positions")
        print(f"C++ probe_board: {cpp['list']:.0f} ns a call over the list, "
              f"{cpp['same']:.0f} ns on one board again and again")
        print(f"Python db.probe(Position): {py_objects:.0f} ns a call over the list: "
              f"{py_objects / cpp['list']:.2f}x the C++ probe; {py_same:.0f} ns on one "
              f"again and again: {py_same / cpp['same']:.2f}x")
        print(f"Python's own cost of such a loop and call (id(p)): {py_floor:.0f} ns")
        print(f"Python db.probe(text): {py_text:.0f} ns a call "
              f"({py_text / cpp['list']:.1f}x the C++ probe)")


if __name__ == "__main__":
    main()
