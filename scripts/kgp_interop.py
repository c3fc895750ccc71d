#!/usr/bin/env python3
"""`kalah kgp` against the reference KGP server (KWARC/kalah-game's go-kgp `practice`), on loopback.

For each board (pits x seeds) a practice server is started with its bots and its default 5 s
timeout, `kalah kgp` connects and plays the games the server schedules (against its bots) for
--minutes, and then the server's own record (its SQLite database) is read: per board, the states
kalah was sent (moves the server asked for; single-move positions it plays itself), the moves of
kalah's the server used, the moves it substituted ("[random move]" when no move of kalah's was
registered in time, "[overload move]"), the errors the server reported to kalah (apart from the
early moves it refused, counted on their own), and each game's
result and final margin, replayed from the recorded moves. A game kalah lost is replayed with
`kalah solve` (within --judge-seconds a position) on boards of up to 8 pits: every position kalah
moved from is valued, and the first move that lost a won or drawn position is named.
"""
import argparse
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import json


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def sow(rows, stores, side, pit):
    """KGP's rules on absolute rows ([south, north]); returns whether `side` moves again."""
    n = len(rows[0])
    seeds, rows[side][pit] = rows[side][pit], 0
    at, i, last = side, pit + 1, None
    while seeds:
        if i == n:
            if at == side:
                stores[side] += 1
                seeds -= 1
                last = "store"
            at, i = 1 - at, 0
            continue
        rows[at][i] += 1
        seeds -= 1
        last = (at, i)
        i += 1
    if last != "store" and last[0] == side and rows[side][last[1]] == 1 \
            and rows[1 - side][n - 1 - last[1]] > 0:
        stores[side] += rows[1 - side][n - 1 - last[1]] + 1
        rows[side][last[1]] = rows[1 - side][n - 1 - last[1]] = 0
    if not any(rows[0]) or not any(rows[1]):
        for s in (0, 1):
            stores[s] += sum(rows[s])
            rows[s] = [0] * n
    return last == "store"


def absolute(rows, stores, side):
    """kalah's absolute notation: South's pits, South's store, North's pits, North's store."""
    return ",".join(map(str, rows[0] + [stores[0]] + rows[1] + [stores[1]])) + \
        ("," + ("S" if side == 0 else "N"))


def replay(size, init, moves):
    """The positions before each move and the final stores; moves are (side, pit 0-based)."""
    rows, stores = [[init] * size, [init] * size], [0, 0]
    before = []
    for side, pit in moves:
        before.append(absolute(rows, stores, side))
        sow(rows, stores, side, pit)
    return before, stores


def play_board(args, size, init):
    port, www = free_port(), free_port()
    work = tempfile.mkdtemp(prefix=f"kalah-kgp-{size}x{init}-")
    dbfile = os.path.join(work, "kgp.db")
    server = subprocess.Popen(
        [args.server, "-board-size", str(size), "-board-init", str(init), "-timeout", "5s",
         "-tcpport", str(port), "-wwwport", str(www), "-websocket=false", "-db", dbfile],
        stdout=open(os.path.join(work, "server.log"), "w"), stderr=subprocess.STDOUT)
    time.sleep(2)
    client_log = os.path.join(work, "kalah.log")
    client_args = [args.kalah, "kgp", "--host", "127.0.0.1", "--port", str(port)]
    if args.db:
        client_args += ["--db", args.db]
    client = subprocess.Popen(client_args, stdout=subprocess.DEVNULL,
                              stderr=open(client_log, "w"))
    deadline = time.time() + 60 * args.minutes
    while time.time() < deadline and client.poll() is None:
        time.sleep(5)
    client.send_signal(signal.SIGTERM)
    try:
        client.wait(timeout=10)
    except subprocess.TimeoutExpired:
        client.kill()
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
    return work, dbfile, client_log


def report(args, size, init, dbfile, client_log):
    con = sqlite3.connect(dbfile)
    ids = [r[0] for r in con.execute("SELECT id FROM agent WHERE name = ?", (args.name,))]
    if not ids:
        print(f"Kalah({size},{init}): kalah never played (see {client_log})")
        return
    me = ids[0]
    states = used = substituted = 0
    results = []
    lost = []
    for gid, north, south, state in con.execute(
            "SELECT id, north, south, state FROM game WHERE north = ? OR south = ?", (me, me)):
        if state == "o":
            continue  # still running when the server stopped
        my_side = 0 if south == me else 1
        moves, mine = [], []
        for agent, side, choice, comment in con.execute(
                "SELECT agent, side, choice, comment FROM move WHERE game = ? ORDER BY rowid",
                (gid,)):
            # side: go-kgp's Side, South = false
            s = 1 if side else 0
            moves.append((s, choice))
            if agent == me and comment != "[Auto-move]":
                states += 1
                if comment in ("[random move]", "[overload move]"):
                    substituted += 1
                else:
                    used += 1
                mine.append(len(moves) - 1)
        before, stores = replay(size, init, moves)
        margin = stores[my_side] - stores[1 - my_side]
        results.append(margin)
        if margin < 0:
            lost.append((gid, before, moves, mine, my_side))
    said = [line for line in open(client_log) if "the server says" in line]
    # go-kgp's race: a move that arrives before it registered the board is refused; kalah sends
    # its final move again before yielding, so these cost nothing (docs/design.md §9).
    refused = sum("No state associated with id" in line for line in said)
    errors = len(said) - refused
    wins = sum(1 for m in results if m > 0)
    draws = results.count(0)
    print(f"Kalah({size},{init}): {len(results)} games ({wins} won, {draws} drawn, "
          f"{len(results) - wins - draws} lost; margins {sorted(results)}), {states} states, "
          f"{used} of kalah's moves used, {substituted} substituted, {errors} errors "
          f"({refused} early moves refused and sent again)", flush=True)
    if args.json:
        print(json.dumps({"board": [size, init], "games": len(results), "won": wins,
                          "drawn": draws, "margins": results, "states": states, "used": used,
                          "substituted": substituted, "errors": errors,
                          "refused": refused}))
    for gid, before, moves, mine, my_side in lost:
        if size > 8:
            print(f"  game {gid} lost: boards of {size} pits are beyond kalah's search; not judged")
            continue
        for i in mine:
            r = subprocess.run([args.kalah, "solve", "--json", "--pits", str(size), "--timeout",
                                str(args.judge_seconds), before[i]] +
                               (["--db", args.db] if args.db else []),
                               capture_output=True, text=True)
            try:
                a = json.loads(r.stdout)
            except ValueError:
                a = {"error": r.stderr.strip()}
            if "moves" not in a:
                print(f"  game {gid}: ply {i + 1}, {before[i]}, not valued within "
                      f"{args.judge_seconds} s: {a.get('lower')}..{a.get('upper')} "
                      f"{a.get('error', '')}")
                break
            values = {m["pit"]: m["value"] for m in a["moves"]}
            played = values[moves[i][1] + 1]
            if a["value"] >= 0 and played < 0 or a["value"] > 0 and played == 0:
                print(f"  game {gid}: ply {i + 1} lost it: {before[i]} is worth {a['value']:+d}, "
                      f"pit {moves[i][1] + 1} {played:+d}")
                break
        else:
            print(f"  game {gid} lost: every position kalah moved from was already lost")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kalah", required=True)
    ap.add_argument("--server", required=True, help="go-kgp's practice binary")
    ap.add_argument("--boards", default="6x4,6x6,8x8,12x12", help="PITSxSEEDS, comma-separated")
    ap.add_argument("--minutes", type=float, default=6, help="of play per board")
    ap.add_argument("--db", help="kalah's database directory (default: kalah's own default)")
    ap.add_argument("--name", default="kalah", help="the name kalah kgp tells the server")
    ap.add_argument("--judge-seconds", type=float, default=120,
                    help="to value a position of a lost game")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    for board in args.boards.split(","):
        size, init = map(int, board.split("x"))
        work, dbfile, client_log = play_board(args, size, init)
        report(args, size, init, dbfile, client_log)


if __name__ == "__main__":
    main()
