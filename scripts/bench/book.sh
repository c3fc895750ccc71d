#!/usr/bin/env bash
# The opening book from the board's side: starts `kalah serve` over DIR and asks
# /api/v1/analyse for every position within K plies of the start of Kalah(6,N) (the positions the
# book holds), printing how many came from the store and the time to each full answer (median,
# 99th percentile, worst), measured at the client.
#
#   bash scripts/bench/book.sh DIR N CAPTURE K      e.g.  bash scripts/bench/book.sh db 3 empty 4
#
# Build the book first: kalah book build --db DIR --seeds N --capture CAPTURE --plies K.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1 seeds=$2 capture=$3 plies=$4
python3 - build/tools/kalah "$dir" "$seeds" "$capture" "$plies" <<'PY'
import json, subprocess, sys, time, urllib.parse, urllib.request
kalah, db, seeds, capture, plies = sys.argv[1:]
events = [json.loads(l) for l in subprocess.run(
    [kalah, "book", "build", "--db", db, "--seeds", seeds, "--capture", capture, "--plies", plies,
     "--json"], check=True, capture_output=True, text=True).stdout.splitlines()]
done = events.pop()
if done["analysed"]:
    sys.exit(f"the book was not complete: {done['analysed']} positions analysed now")
server = subprocess.Popen([kalah, "serve", "--db", db, "--port", "0", "--json"],
                          stdout=subprocess.PIPE, text=True)
try:
    url = json.loads(server.stdout.readline())["url"]
    times, sources = [], {}
    for e in events:
        q = urllib.parse.urlencode({"position": e["position"], "capture": capture})
        start = time.perf_counter()
        with urllib.request.urlopen(f"{url}api/v1/analyse?{q}", timeout=600) as r:
            answer = json.loads(r.read())
        times.append(time.perf_counter() - start)
        sources[answer["source"]] = sources.get(answer["source"], 0) + 1
    times.sort()
    ms = lambda t: f"{t * 1000:.1f} ms"
    print(f"Kalah(6,{seeds}) {capture} capture, book within {plies} plies: {len(times)} positions "
          f"from {sources}; full answer median {ms(times[len(times) // 2])}, "
          f"p99 {ms(times[int(len(times) * 0.99)])}, worst {ms(times[-1])}")
finally:
    server.terminate()
    server.wait(timeout=30)
PY
