"""`kalah book build` and the answer store end to end (ctest: book_test): the book of Kalah(4,3)
within 3 plies equals `kalah solve --no-store` on every position it holds; a killed build
resumes, keeping what it had; afterwards `solve`, `query --search` and `serve` answer those
positions from the store.

usage: python3 book_test.py KALAH_EXECUTABLE
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse
import urllib.request

EXE = sys.argv.pop(1)


def kalah(*args, **kw):
    return subprocess.run([EXE, *args], check=True, capture_output=True, text=True, **kw).stdout


def comparable(answer):
    return {k: answer[k] for k in ("value", "board_value", "moves", "best_line", "absolute")}


class Book(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.db = os.path.join(self.tmp.name, "db")
        kalah("build", "--db", self.db, "--pits", "4", "--max-seeds", "10")
        self.env = {k: v for k, v in os.environ.items() if k != "KALAH_STORE"}  # the store on

    def tearDown(self):
        self.tmp.cleanup()

    def book(self, plies, **kw):
        out = kalah("book", "build", "--db", self.db, "--pits", "4", "--seeds", "3",
                    "--plies", str(plies), "--json", env=self.env, **kw)
        events = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(events[-1]["event"], "done")
        return events[:-1], events[-1]

    def test_the_book_equals_solve_and_is_answered_from_the_store(self):
        positions, done = self.book(3)
        self.assertEqual(done["positions"], len(positions))
        self.assertEqual(done["book_positions"], done["analysed"])
        searched = [p for p in positions if p["source"] == "analysed"]
        self.assertGreater(len(searched), 20)
        for p in searched:
            fresh = json.loads(kalah("solve", p["position"], "--db", self.db, "--no-store",
                                     "--json", env=self.env))
            stored = json.loads(kalah("solve", p["position"], "--db", self.db, "--json",
                                      env=self.env))
            self.assertEqual(fresh["source"], "search")
            self.assertEqual(stored["source"], "store", p)
            self.assertEqual(comparable(stored), comparable(fresh), p)
            self.assertEqual(p["value"], fresh["value"])
            # The record it names leads there from the start.
            moved = json.loads(kalah("solve", "--pits", "4", "--seeds", "3", "--moves",
                                     p["moves"], "--db", self.db, "--json", env=self.env))
            self.assertEqual(moved["absolute"], p["position"])
        query = json.loads(kalah("query", "--db", self.db, "--search", "--json",
                                 searched[-1]["position"], env=self.env))
        self.assertEqual(query["source"], "store")
        # The book answers query without --search too, the start among its positions.
        start = json.loads(kalah("query", "--db", self.db, "--json", "--pits", "4",
                                 "3,3,3,3/3,3,3,3", env=self.env))
        self.assertEqual((start["source"], start["value"]), ("store", positions[0]["value"]))
        info = kalah("info", "--db", self.db, "--pits", "4", env=self.env)
        self.assertIn(f"opening book: {done['book_positions']} positions", info)

        server = subprocess.Popen([EXE, "serve", "--db", self.db, "--port", "0", "--json"],
                                  stdout=subprocess.PIPE, text=True, env=self.env)
        try:
            url = json.loads(server.stdout.readline())["url"]
            for p in searched:
                q = urllib.parse.urlencode({"position": p["position"], "pits": 4})
                with urllib.request.urlopen(f"{url}api/v1/analyse?{q}", timeout=30) as r:
                    answer = json.loads(r.read())
                self.assertEqual(answer["source"], "store", answer)
                self.assertEqual(answer["value"], p["value"])
        finally:
            server.terminate()
            server.wait(timeout=30)
            server.stdout.close()

    def test_a_killed_build_resumes(self):
        # Kalah(4,3) is solved in milliseconds: kill the build as soon as a few are written.
        build = subprocess.Popen([EXE, "book", "build", "--db", self.db, "--pits", "4",
                                  "--seeds", "3", "--plies", "4", "--json"],
                                 stdout=subprocess.PIPE, text=True, env=self.env)
        for _ in range(30):
            if json.loads(build.stdout.readline())["event"] == "done":
                break
        build.send_signal(signal.SIGKILL)
        build.wait(timeout=30)
        build.stdout.close()
        positions, done = self.book(4)
        self.assertGreater(done["kept"], 0)
        self.assertEqual(done["kept"] + done["analysed"] + done["in_database"], len(positions))
        again, done2 = self.book(4)
        self.assertEqual(done2["analysed"], 0)
        self.assertEqual(done2["kept"], done["kept"] + done["analysed"])
        leftovers = [f for f in os.listdir(os.path.join(self.db, "answers",
                                                        "kalah-m4-standard-immediate-owner"))
                     if not f.endswith(".book")]
        self.assertEqual(leftovers, [])

    def test_the_book_is_listed(self):
        built, _ = self.book(2)
        in_book = {p["moves"]: p["value"] for p in built if p["source"] == "analysed"}
        out = kalah("book", "list", "--db", self.db, "--pits", "4", "--seeds", "3", "--json",
                    env=self.env)
        listed = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(listed[-1], {**listed[-1], "event": "done", "positions": len(in_book)})
        self.assertEqual({p["moves"]: p["value"] for p in listed[:-1]}, in_book)
        text = kalah("book", "list", "--db", self.db, "--pits", "4", "--seeds", "3", "--plies", "1",
                     env=self.env)
        self.assertRegex(text, r"\[1/5\] ply 0 \(start\) +value +\+6 +book .* best S:2-3\n")
        self.assertIn("holds 5 positions within 1 ply in ", text)

    def test_a_damaged_record_stays_in_the_book_and_is_written_again(self):
        # The start's record edited: the other positions are listed all the same, and a search
        # of the start writes its record again, in the book (never evictable), not as an answer.
        self.book(1)
        store = os.path.join(self.db, "answers", "kalah-m4-standard-immediate-owner")
        records = sorted(os.listdir(store))
        self.assertEqual(len(records), 5)
        start = json.loads(kalah("solve", "--pits", "4", "--seeds", "3", "--db", self.db,
                                 "--json", env=self.env))
        self.assertEqual(start["source"], "store")
        damaged = [f for f in records if f"position {start['absolute']}\n" in
                   open(os.path.join(store, f), errors="replace").read()]
        self.assertEqual(len(damaged), 1, records)
        with open(os.path.join(store, damaged[0]), "r+b") as f:
            f.seek(40)
            f.write(b"#")
        listed = subprocess.run([EXE, "book", "list", "--db", self.db, "--pits", "4", "--seeds",
                                 "3", "--plies", "1"], capture_output=True, text=True,
                                env=self.env)
        self.assertIn("holds 4 positions within 1 ply", listed.stdout)
        self.assertIn("the record of (start) is damaged", listed.stderr)
        again = json.loads(kalah("query", "--search", "--db", self.db, "--json",
                                 start["position"], env=self.env).splitlines()[-1])
        self.assertEqual((again["value"], again["source"]), (6, "search"))
        self.assertEqual(sorted(os.listdir(store)), records)  # the same .book names, no .answer
        self.assertIn("holds 5 positions within 1 ply",
                      kalah("book", "list", "--db", self.db, "--pits", "4", "--seeds", "3",
                            "--plies", "1", env=self.env))

    def test_usage(self):
        for args, message in [(["book"], "say what to do"),
                              (["book", "burn"], "no book action 'burn' (build or list)"),
                              (["book", "build", "--seeds", "3", "--pits", "4"], "give --plies"),
                              (["book", "build", "--seeds", "3", "--pits", "4", "--plies", "2",
                                "--no-db"], "unrecognised option '--no-db'"),
                              (["book", "build", "--seeds", "3", "--pits", "5", "--plies", "2",
                                "--db", self.db], "")]:
            r = subprocess.run([EXE, *args], capture_output=True, text=True, env=self.env)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(message, r.stderr)
            self.assertEqual(r.stderr.count("\n"), 1, r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
