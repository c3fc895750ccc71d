#!/usr/bin/env python3
"""A match of kalah against CMancala's AI (LifesLight/CMancala), a time a move, one thread each.

Each opening is 2..4 random plies from the start (a fixed seed); it is played twice, kalah South
then North, for --openings x 2 games. kalah moves through `kalah serve --threads 1`
(/api/v1/move with budget_ms, its default database and book); CMancala through its interactive
mode (`time T`, its default cache, no opening book, one `step` a move, the position after the
opening given by `load`). Every game is kept in kalah's notation, replayed with kalah's rules
(kalah's Python module) to check each move's legality, and scored from the replay; CMancala's
"Player N wins, score: a - b" is checked against it. Standard capture, 6 pits (CMancala's rules).

Prints each game (opening, colour, margin for kalah, plies), then games won, drawn and lost, the
sum of margins and the time a move of each program; with --json one object per game and a
summary.
"""
import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import kalah
from strength import Server


def cm_code(position):
    """CMancala's board code: the side to move in bit 0, then 8 bits a cell, cells in kalah's
    absolute order (South's pits, South's store, North's pits, North's store); its first 5
    hex digits (always 0) dropped."""
    *cells, side = position.absolute.split(",")
    value = 1 if side == "S" else 0
    for i, c in enumerate(cells):
        value |= int(c) << (1 + 8 * i)
    return f"{value:032x}"[5:]


def to_cm(pit, side):
    """kalah's pit (1 = the mover's leftmost) to CMancala's number: Player 2 counts from its
    store."""
    return pit if side == "S" else 7 - pit


class CMancala:
    def __init__(self, binary, seeds, seconds, kalah_side, position):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        human = "1" if kalah_side == "S" else "2"
        ai = "2" if human == "1" else "1"
        self.send("progress false", f"stones {seeds}", f"time {seconds}", "book false",
                  "autoplay false", f"player {human} human", f"player {ai} ai", "start",
                  f"load {cm_code(position)}")

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def step(self, human_move=None):
        """One move: CMancala's (None) or the human's (kalah's, in CMancala's numbering)."""
        self.send("step", *([str(human_move)] if human_move is not None else []))
        for line in self.proc.stdout:
            m = re.search(r"Move: (\d+)", line)
            if m:
                return int(m.group(1))
        raise RuntimeError("CMancala stopped")

    def result(self):
        for line in self.proc.stdout:
            m = re.search(r"(Player \d wins|Draw), score: (\d+) - (\d+)", line)
            if m:
                return int(m.group(2)), int(m.group(3))
        raise RuntimeError("CMancala gave no result")

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()


def opening(rng, seeds):
    while True:
        p = kalah.Position.start(pits=6, seeds=seeds)
        record = []
        for _ in range(rng.randint(2, 4)):
            pit = rng.choice(p.legal_moves)
            record.append(f"{p.to_move}:{pit}")
            p = p.play(pit)
        if not p.is_over:
            return p, record


def play(args, server, seeds, start, record, kalah_side):
    cm = CMancala(args.cmancala, seeds, args.seconds, kalah_side, start)
    p, moves, times = start, list(record), {"kalah": [], "cmancala": []}
    try:
        while not p.is_over:
            side = p.to_move
            t0 = time.monotonic()
            if side == kalah_side:
                pit = server.move(p, args.seconds)["pit"]
                times["kalah"].append(time.monotonic() - t0)
                echoed = cm.step(to_cm(pit, side))
                if echoed != to_cm(pit, side):
                    raise RuntimeError(f"CMancala played {echoed} for kalah's {pit}")
            else:
                pit = to_cm(cm.step(), side)  # the mapping is its own inverse
                times["cmancala"].append(time.monotonic() - t0)
            if pit not in p.legal_moves:
                raise RuntimeError(f"illegal move {side}:{pit} in {p.absolute}")
            moves.append(f"{side}:{pit}")
            p = p.play(pit)
        south, north = cm.result()
    finally:
        cm.close()
    # kalah's score is the mover's final margin (each row's seeds to its owner).
    south_margin = p.score if p.to_move == "S" else -p.score
    if south - north != south_margin:
        raise RuntimeError(f"scores differ: CMancala {south}-{north}, kalah's replay "
                           f"{south_margin:+d} for South")
    margin = south_margin if kalah_side == "S" else -south_margin
    return {"seeds": seeds, "kalah": kalah_side, "opening": " ".join(record),
            "moves": " ".join(moves), "margin": margin, "times": times}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kalah", required=True)
    ap.add_argument("--cmancala", required=True, help="CMancala's Mancala binary")
    ap.add_argument("--db", default="default",
                    help="kalah's database directory (default: kalah's default)")
    ap.add_argument("--seeds", type=int, default=6, help="a pit at the start")
    ap.add_argument("--openings", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=1.0, help="a move, for each program")
    ap.add_argument("--parallel", type=int, default=1,
                    help="games at once (each program thinks on one thread)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    openings = [opening(rng, args.seeds) for _ in range(args.openings)]
    servers = [Server(args.kalah, 1, args.db) for _ in range(args.parallel)]
    jobs = [(start, record, side) for start, record in openings for side in "SN"]

    def run(i):
        start, record, side = jobs[i]
        return play(args, servers[i % args.parallel], args.seeds, start, record, side)

    games = []
    try:
        with ThreadPoolExecutor(args.parallel) as pool:
            for g in pool.map(run, range(len(jobs))):
                games.append(g)
                print(f"Kalah(6,{g['seeds']}) {g['opening']:<16} kalah {g['kalah']}: "
                      f"{g['margin']:+d} ({len(g['moves'].split())} plies)", flush=True)
                if args.json:
                    print(json.dumps(g), flush=True)
    finally:
        for s in servers:
            s.close()
    margins = [g["margin"] for g in games]
    won, drawn = sum(m > 0 for m in margins), margins.count(0)
    per_move = {who: [t for g in games for t in g["times"][who]] for who in ("kalah", "cmancala")}
    summary = {"seeds": args.seeds, "seconds": args.seconds, "games": len(games), "won": won,
               "drawn": drawn, "lost": len(games) - won - drawn, "margin_sum": sum(margins),
               "kalah_s_per_move": statistics.mean(per_move["kalah"]),
               "cmancala_s_per_move": statistics.mean(per_move["cmancala"])}
    print(f"Kalah(6,{args.seeds}), {args.seconds} s a move: kalah won {won}, drew {drawn}, lost "
          f"{summary['lost']} of {len(games)}; margins sum {sum(margins):+d}; seconds a move: "
          f"kalah {summary['kalah_s_per_move']:.2f} "
          f"(max {max(per_move['kalah']):.2f}), CMancala {summary['cmancala_s_per_move']:.2f} "
          f"(max {max(per_move['cmancala']):.2f})")
    if args.json:
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
