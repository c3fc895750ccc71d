#!/usr/bin/env python3
"""The "New results" of docs/results.md: games whose values nobody had published, each solved by
`kalah solve` (every opening move's value and a best line), proven by a certificate that
tools/checker/check_certificate.py checks with code of its own, and cross-checked a second way
(another database size or none, on one thread). Run by `scripts/verify_results.sh --new`.

usage: new_results.py [GAME ...]    e.g. 7,3,empty; all games by default

Each game's record goes to RESULTS/NAME.json (RESULTS: $KALAH_RESULTS, default docs/results/) with
its certificate, and a game whose record exists is not solved again (delete the record to redo
it); the section of docs/results.md is then written from every record. Databases are built (or
reused) in directories of their own under $KALAH_DB (default ~/.cache/kalah/db), named by pits,
capture and top layer. What each game costs here is in the table itself.
"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KALAH = os.environ.get("KALAH_EXE", os.path.join(ROOT, "build", "tools", "kalah"))
CHECKER = os.path.join(ROOT, "tools", "check_certificate.py")
DB = os.environ.get("KALAH_DB") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "kalah", "db")
RESULTS = os.environ.get("KALAH_RESULTS", os.path.join(ROOT, "docs", "results"))

# m, n, capture, the database's top layer (value and certificate), the second way's (0: no
# database), and the full analysis's (every opening move valued, and the pie rule's value). A
# record holding the value alone gets the full analysis added: Kalah(7,4) and Kalah(8,3)
# standard were certified with small databases and analysed later with bigger ones (Kalah(7,4)
# standard's value: 4.0e9 nodes with 18 seeds, 5.6e8 with 22).
GAMES = [
    (1, 6, "standard", 0, 0, 0),
    (2, 6, "standard", 0, 0, 0),
    (3, 6, "standard", 0, 0, 0),
    (4, 6, "standard", 28, 24, 28),
    (5, 6, "standard", 32, 28, 32),
    (7, 3, "empty", 18, 0, 18),
    (7, 3, "standard", 18, 0, 18),
    (8, 3, "empty", 16, 14, 16),
    (8, 3, "standard", 16, 18, 20),
    (7, 4, "empty", 18, 20, 22),
    (7, 4, "standard", 18, 20, 22),
]


def name(m, n, capture):
    return f"kalah-{m}-{n}-{capture}"


def run(args, **kw):
    """Runs a command, returning its stdout (stderr passes through: progress and notes)."""
    print("+", " ".join(args), flush=True)
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, text=True, **kw).stdout


def database(m, capture, top):
    """DB/m{m}-{capture}-s{top}, holding layers 1..top of (m, capture), built if need be (a
    rerun checks the layers and keeps them)."""
    if top == 0:
        return None
    d = os.path.join(DB, f"m{m}-{capture}-s{top}")
    run([KALAH, "build", "--db", d, "--pits", str(m), "--max-seeds", str(top),
         "--capture", capture])
    return d


def solve(m, n, capture, top, *extra):
    d = database(m, capture, top)
    args = [KALAH, "solve", "--pits", str(m), "--seeds", str(n), "--capture", capture,
            "--json", "--no-store"] + (["--db", d] if d else ["--no-db"]) + list(extra)
    return json.loads(run(args)), d


def record(m, n, capture, top, second, full):
    path = os.path.join(RESULTS, name(m, n, capture) + ".json")
    r = None
    if os.path.exists(path):
        with open(path) as f:
            r = json.load(f)
    # Saved after each step, so that a stopped run keeps what it proved: a long pie rule comes
    # after the full analysis it starts from.
    if r is None:
        r = certified(m, n, capture, top, second, full == top)
        save(path, r)
    if r.get("analysis", "full") == "value":  # the first records, all full, do not say
        analyse(r, full)
        save(path, r)
    if "pie" not in r:
        if "full" in r:
            pie(r, full, checkpoint(r, full))
        else:
            pie(r, top)
        save(path, r)
    return r


def save(path, r):
    with open(path, "w") as f:
        json.dump(r, f, indent=1)


def certified(m, n, capture, top, second, analysed):
    """The value with its certificate (and every opening move's value if `analysed`), checked,
    and again a second way."""
    cert = os.path.join(RESULTS, name(m, n, capture) + ".cert")
    full, d = solve(m, n, capture, top, "--certificate", cert,
                    *([] if analysed else ["--value-only"]))
    start = time.monotonic()
    checked = run([sys.executable, CHECKER, cert] + (["--db", d] if d else []))
    check_seconds = time.monotonic() - start
    other, _ = solve(m, n, capture, second, "--value-only", "--threads", "1")
    r = {
        "m": m, "n": n, "capture": capture, "value": full["value"],
        "moves": [[mv["turn"], mv["value"]] for mv in full.get("moves", [])],
        "best_line": full.get("best_line", []), "nodes": full["nodes"],
        "seconds": full["seconds"], "analysis": "full" if analysed else "value",
        "database": top, "certificate": full["certificate"],
        "checked": "PROVEN" in checked and f"exactly {full['value']:+d}" in checked,
        "check_seconds": check_seconds,
        "second": {"database": second, "threads": 1, "value": other["value"],
                   "nodes": other["nodes"], "seconds": other["seconds"]},
        "date": time.strftime("%Y-%m-%d"),
    }
    return r


def checkpoint(r, top):
    """The full analysis and the pie rule keep checkpoints here: a long run stopped goes on, and
    the pie rule starts from the full analysis."""
    return ["--checkpoint",
            os.path.join(DB, "checkpoints", f"{name(r['m'], r['n'], r['capture'])}-s{top}")]


def analyse(r, top):
    """Adds the full analysis with the database up to `top` to a record of the value alone: its
    value must be the certified one."""
    args = checkpoint(r, top)
    a, _ = solve(r["m"], r["n"], r["capture"], top, *args)
    if a["value"] != r["value"]:
        sys.exit(f"{name(r['m'], r['n'], r['capture'])}: the full analysis gives "
                 f"{a['value']:+d}, the certified value is {r['value']:+d}")
    r["moves"] = [[mv["turn"], mv["value"]] for mv in a["moves"]]
    r["best_line"] = a["best_line"]
    r["analysis"] = "full"
    # A run resumed from a checkpoint counts the earlier runs' nodes apart, and only its own
    # seconds: the record says so.
    r["full"] = {"database": top, "nodes": a["nodes"] + a.get("earlier_nodes", 0),
                 "seconds": a["seconds"], "resumed": "earlier_nodes" in a,
                 "date": time.strftime("%Y-%m-%d")}


def pie(r, top, extra=()):
    """The pie rule's value and an opening reaching it (`--pie --value-only`: null-window tests
    that value that opening alone, docs/design.md §1)."""
    p, _ = solve(r["m"], r["n"], r["capture"], top, "--pie", "--value-only", *extra)
    r["pie"] = {"value": p["value"], "opening": p["best_opening"], "seconds": p["seconds"],
                "nodes": p["nodes"] + p.get("earlier_nodes", 0), "database": top,
                "value_only": True, "resumed": "earlier_nodes" in p}


def count(x):
    """12345 -> "12,345"; beyond a million, 1.5e9."""
    if x < 1_000_000:
        return f"{x:,}"
    exponent = len(str(int(x))) - 1
    return f"{x / 10 ** exponent:.1f}e{exponent}"


def seconds(x):
    return f"{x:.1f} s" if x < 120 else f"{x / 60:.1f} min"


def size(b):
    if b < 1024:
        return f"{b} B"
    return f"{b / 1024:,.0f} KiB" if b < 1 << 20 else f"{b / (1 << 20):.1f} MiB"


def row(r):
    moves = (" ".join(f"{t}: {v:+d}".replace("+0", "0") for t, v in r["moves"]) if r["moves"]
             else "not computed (value alone)")
    c = r["certificate"]
    pie = f"{r['pie']['value']:+d} ({r['pie']['opening']})" if "pie" in r else "not computed"
    pie = pie.replace("+0", "0") + (", tests" if r.get("pie", {}).get("value_only") else "")
    second = r["second"]
    agree = "same" if second["value"] == r["value"] else f"DIFFERS: {second['value']:+d}"
    value = f"{r['value']:+d}" if r["value"] else "0"
    # The full analysis's nodes and time, with its database first when it was a bigger one.
    analysed = r.get("full", r)
    resumed = analysed.get("resumed")
    total = " (all runs)" if resumed else ""
    took = ("runs resumed from checkpoints (the notes say how long)" if resumed
            else seconds(analysed["seconds"]))
    db = f"≤ {r['database']}" if r["database"] else "none"
    if "full" in r:
        db = (f"≤ {analysed['database']} (value alone with {db}: {count(r['nodes'])}, "
              f"{seconds(r['seconds'])})")
    return (f"| Kalah({r['m']},{r['n']}) | {r['capture']} | **{value}** | {moves} | "
            f"{pie} | {count(analysed['nodes'])}{total} | "
            f"{took} | {db} | "
            f"{size(c['bytes'])}, {count(c['positions'])} positions, "
            f"{seconds(c['seconds'])} | {'yes' if r['checked'] else 'NO'} "
            f"({seconds(r['check_seconds'])}) | "
            f"{'≤ ' + str(second['database']) if second['database'] else 'none'}, 1 thread: "
            f"{agree} ({seconds(second['seconds'])}) |")


def section(records):
    lines = [
        "## New results",
        "",
        "Games whose values had not been published, under end immediate and remainder owner (as",
        "the tables above). Each is the first player's final margin with perfect play, proven by a",
        "certificate that `tools/checker/check_certificate.py` (its own rules, ranking and layer "
        "decoder;",
        "nothing shared with kalah's C++) accepted, reading the leaves from the database's layer",
        "files, which it trusts (`kalah verify --full` recomputes them). The full analysis (every",
        "opening move's value, in opening order; a turn like 3-6 is one opening with an extra",
        "move) ran on 2 cores; nodes and seconds are its own (the value search's, where the",
        "openings say \"value alone\"). Where the database names two, the full analysis ran",
        "later with a bigger database than the value and its certificate. The certificate's",
        "seconds are writing it on one thread after the value. The pie-rule value is the best",
        "opening once the opponent may swap (\"tests\": found by `--pie --value-only`, null-window",
        "tests that value the best opening alone, docs/design.md §1; the others valued every",
        "opening). Second way: the value again with another database",
        "(or none) on one thread. Reproduce a row with `scripts/verify_results.sh --new",
        "m,n,capture` (records and certificates in docs/results/).",
        "",
        "| game | capture | value | opening moves | pie rule | nodes | seconds | database | "
        "certificate | checked independently | second way |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [row(r) for r in records]
    lines += ["", "Best lines (each turn of the two players in turn; the full analysis's):", ""]
    lines += [f"- Kalah({r['m']},{r['n']}) {r['capture']}: {' '.join(r['best_line'])}"
              for r in records if r["best_line"]]
    return "\n".join(lines) + "\n"


NOTES = "## Notes on the new results"


def write_section(records):
    """Replaces the New results section of docs/results.md, keeping the notes written by hand
    after it (from NOTES on)."""
    path = os.path.join(ROOT, "docs", "results.md")
    with open(path) as f:
        text = f.read()
    at, notes = text.find("## New results"), text.find(NOTES)
    head = text[:at] if at >= 0 else text[:notes] if notes >= 0 else text
    tail = "\n" + text[notes:] if notes >= 0 else ""
    with open(path, "w") as f:
        f.write(head.rstrip("\n") + "\n\n" + section(records) + tail)


def main():
    wanted = set(sys.argv[1:])
    os.makedirs(RESULTS, exist_ok=True)
    records = []
    for m, n, capture, top, second, full in GAMES:
        if wanted and f"{m},{n},{capture}" not in wanted:
            path = os.path.join(RESULTS, name(m, n, capture) + ".json")
            if os.path.exists(path):
                with open(path) as f:
                    records.append(json.load(f))
            continue
        records.append(record(m, n, capture, top, second, full))
        print(row(records[-1]), flush=True)
    write_section(records)
    bad = [r for r in records if not r["checked"] or r["second"]["value"] != r["value"]]
    print(f"wrote the New results of docs/results.md: {len(records)} games, {len(bad)} failing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
