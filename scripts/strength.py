#!/usr/bin/env python3
"""How good kalah's moves are where nothing is proven: seeds lost per move.

Positions with --min-seeds..--max-seeds seeds on the pits are sampled from random games (a fixed
seed) of Kalah(6,4) and Kalah(6,5) under both capture rules. A `kalah serve` with no database
(an empty --db directory: as if each position were far above the database, so that what is
measured is the move search, not proving) and one thread is asked for its move
(/api/v1/move) within each budget. Every move of every position is valued exactly by a full
analysis over the judge database (kalah's Python module; the answers are kept in its answer
store, so a rerun judges at once), and a move's loss is the best move's value minus its own.

Prints, per budget and game, the mean loss per move, how many moves were optimal, the
distribution of losses and the won or drawn positions given away (a win turned into a draw or
a loss, a draw into a loss); with --json, one object per line too.
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import kalah


def board_seeds(position):
    bins = position.absolute.split(",")[:-1]
    m = (len(bins) - 2) // 2
    return sum(int(b) for i, b in enumerate(bins) if i not in (m, 2 * m + 1))


def sample(rng, seeds, capture, count, lo, hi):
    """One position a random game, with lo..hi seeds on the pits, from `count` games."""
    out = []
    while len(out) < count:
        p = kalah.Position.start(pits=6, seeds=seeds, capture=capture)
        candidates = []
        while not p.is_over:
            if lo <= board_seeds(p) <= hi:
                candidates.append(p)
            p = p.play(rng.choice(p.legal_moves))
        if candidates:
            out.append(rng.choice(candidates))
    return out


class Server:
    """`kalah serve` on a free loopback port with the given threads and database directory:
    None, an empty one (no database); "default", kalah's own default directory."""

    def __init__(self, kalah_bin, threads, db=None):
        self.empty = None if db else tempfile.mkdtemp(prefix="kalah-strength-")
        tables = [] if db == "default" else ["--db", db or self.empty]
        self.proc = subprocess.Popen(
            [kalah_bin, "serve", *tables, "--port", "0", "--threads", str(threads), "--json",
             "--no-store", "--max-budget-ms", "600000"],
            stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        try:
            self.url = json.loads(line)["url"].rstrip("/")
        except (ValueError, KeyError):
            self.url = "http://" + line.split("http://")[1].split()[0].rstrip("/")

    def move(self, position, budget):
        q = urllib.parse.urlencode({"position": position.absolute,
                                    "capture": position.rules["capture"],
                                    "budget_ms": int(budget * 1000)})
        t0 = time.monotonic()
        with urllib.request.urlopen(f"{self.url}/api/v1/move?{q}", timeout=budget + 60) as r:
            answer = json.load(r)
        answer["wall"] = time.monotonic() - t0
        return answer

    def close(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait()
        if self.empty:
            os.rmdir(self.empty)


def judge(db, position):
    """Every move's exact value (final margin for the mover), by pit."""
    a = db.analyse(position, threads=0)
    return {m["pit"]: m["value"] for m in a["moves"]}


def bucket(loss):
    for name, top in (("0", 0), ("1", 1), ("2", 2), ("3-4", 4), ("5-8", 8)):
        if loss <= top:
            return name
    return "9+"


def report(label, rows, as_json):
    n = len(rows)
    losses = [r["loss"] for r in rows]
    dist = {}
    for x in losses:
        dist[bucket(x)] = dist.get(bucket(x), 0) + 1
    given = sum(1 for r in rows if r["given_away"])
    mean = sum(losses) / n
    depth = sorted(r["depth"] for r in rows)[n // 2]
    wall = sum(r["wall"] for r in rows) / n
    order = ["0", "1", "2", "3-4", "5-8", "9+"]
    print(f"{label:34} {n:4} positions: {mean:5.2f} seeds lost a move, "
          f"{losses.count(0):3} optimal, "
          f"{given:2} given away; losses " +
          " ".join(f"{k}:{dist.get(k, 0)}" for k in order) +
          f"; median depth {depth}, {wall:.2f} s a move", flush=True)
    if as_json:
        print(json.dumps({"label": label, "positions": n, "mean_loss": round(mean, 3),
                          "optimal": losses.count(0), "given_away": given,
                          "distribution": {k: dist.get(k, 0) for k in order},
                          "median_depth": depth, "seconds_per_move": round(wall, 3)}))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kalah", required=True, help="the kalah binary whose moves are measured")
    ap.add_argument("--judge-db", required=True,
                    help="database directory with m = 6 layers of both capture rules")
    ap.add_argument("--positions", type=int, default=25, help="per game and capture rule")
    ap.add_argument("--budgets", default="0.1,1", help="seconds a move, comma-separated")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--min-seeds", type=int, default=30)
    ap.add_argument("--max-seeds", type=int, default=48)
    ap.add_argument("--games", default="4,5", help="seeds a pit at the start, comma-separated")
    ap.add_argument("--threads", type=int, default=1, help="the server's threads")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="list every move that was not best")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    sets = []
    for n in (int(x) for x in args.games.split(",")):
        for capture in ("standard", "empty"):
            sets.append((f"Kalah(6,{n}) {capture}", capture,
                         sample(rng, n, capture, args.positions, args.min_seeds, args.max_seeds)))
    dbs = {c: kalah.Database(args.judge_db, capture=c) for c in ("standard", "empty")}
    t0 = time.monotonic()
    values = {}
    for _, capture, positions in sets:
        for p in positions:
            values[(capture, p.absolute)] = judge(dbs[capture], p)
    print(f"judged {len(values)} positions in {time.monotonic() - t0:.1f} s "
          f"(database {args.judge_db}, layers 1..{dbs['standard'].max_seeds})", flush=True)

    server = Server(args.kalah, args.threads)
    try:
        for budget in (float(x) for x in args.budgets.split(",")):
            everything = []
            for label, capture, positions in sets:
                rows = []
                for p in positions:
                    v = values[(capture, p.absolute)]
                    answer = server.move(p, budget)
                    best = max(v.values())
                    chosen = v[answer["pit"]]
                    given = (best > 0 and chosen <= 0) or (best == 0 and chosen < 0)
                    rows.append({"loss": best - chosen, "depth": answer.get("depth", 0),
                                 "wall": answer["wall"], "given_away": given})
                    if args.verbose and best != chosen:
                        print(f"  {p.absolute} {capture}: pit {answer['pit']} ({chosen:+d}, "
                              f"said {answer['value']:+d} at depth {answer.get('depth', 0)}), "
                              f"best {best:+d}: {sorted(v.items())}"
                              + (" GIVEN AWAY" if given else ""), flush=True)
                report(f"{label}, {budget:g} s", rows, args.json)
                everything += rows
            report(f"all, {budget:g} s", everything, args.json)
    finally:
        server.close()


if __name__ == "__main__":
    main()
