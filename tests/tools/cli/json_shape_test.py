"""Every command's --json output has the documented shape (docs/json.md); ctest: json_shape_test.

usage: python3 json_shape_test.py KALAH_EXECUTABLE
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

EXE = sys.argv.pop(1)
VERSION = subprocess.run([EXE, "--version"], capture_output=True, text=True,
                         check=True).stdout.split()[1]
RULES = {"capture", "end", "remainder"}
POSITION = {"position", "absolute", "pits", "rules", "to_move"}
MOVE = {"pit", "value", "result", "turn", "position", "absolute"}


def objects(*args, stdin=None, status=0, env=None):
    run = subprocess.run([EXE, *args], input=stdin, capture_output=True, text=True, env=env)
    if run.returncode != status:
        raise AssertionError(f"kalah {' '.join(args)}: exit {run.returncode}\n{run.stderr}")
    return [json.loads(line) for line in run.stdout.splitlines()]


class Shape(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db = cls.tmp.name
        cls.build = objects("build", "--db", cls.db, "--pits", "4", "--max-seeds", "8", "--json")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def answer(self, obj, command, keys=()):
        self.assertEqual(obj["kalah_version"], VERSION)
        self.assertEqual(obj["command"], command)
        self.assertEqual(list(obj)[:2], ["kalah_version", "command"], "the answer starts with them")
        self.assertLessEqual(set(keys), set(obj), obj)
        if "rules" in keys:
            self.assertEqual(set(obj["rules"]), RULES)

    def analysed(self, obj, command):
        self.answer(obj, command, POSITION | {"value", "result", "moves", "best_line", "source",
                                              "nodes", "probes", "seconds", "finished"})
        self.assertTrue(obj["moves"])
        for move in obj["moves"]:
            self.assertEqual(set(move), MOVE)

    def test_solve(self):
        self.analysed(objects("solve", "--pits", "4", "--seeds", "2", "--json")[0], "solve")
        value = objects("solve", "--pits", "4", "--seeds", "2", "--value-only", "--json")[0]
        self.answer(value, "solve", POSITION | {"value", "result", "value_only", "nodes"})
        pie = objects("solve", "--pits", "3", "--seeds", "2", "--pie", "--json")[0]
        self.answer(pie, "solve", POSITION | {"pie", "value", "best_opening", "openings"})

    def test_interrupted_solve_keeps_the_shape(self):
        proc = subprocess.Popen([EXE, "solve", "--seeds", "6", "--value-only", "--json"],
                                stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130)
        obj = json.loads(out)
        self.answer(obj, "solve", POSITION | {"interrupted", "lower", "upper", "source", "nodes",
                                              "stopped"})
        self.assertEqual(obj["source"], "bounds")
        self.assertEqual(obj["stopped"], "stop")

    def test_bytes_that_are_not_utf8_still_give_valid_json(self):
        # Every JSON answer is UTF-8 whatever was typed: bad bytes in a position come back
        # escaped, and the output decodes strictly.
        run = subprocess.run([EXE, "query", "--db", self.db, "--json", "--keep-going"],
                             input=b"1,\xff,1,1/1,1,1,1\n\xe2\x82\n\xc3\xa9\n", capture_output=True)
        self.assertEqual(run.returncode, 2)
        lines = run.stdout.decode("utf-8", errors="strict").splitlines()
        self.assertEqual(len(lines), 3)
        for line in lines:
            self.assertIn("error", json.loads(line))
        self.assertIn("\\xff", json.loads(lines[0])["input"])
        self.assertEqual(json.loads(lines[2])["input"], "\u00e9")

    def test_query_one_object_per_line(self):
        lines = objects("query", "--db", self.db, "--json", "--keep-going", stdin=(
            "1,1,1,1/1,1,1,1\n# a comment\nx,1\n2,0,1,0/0,1,0,2/3,4\n"), status=2)
        self.assertEqual(len(lines), 3)
        self.analysed(lines[0], "query")
        self.answer(lines[1], "query", {"input", "error"})
        self.analysed(lines[2], "query")

    def test_build_events(self):
        events = [e["event"] for e in self.build]
        self.assertEqual(events, ["start"] + ["layer"] * 8 + ["done"])
        for e in self.build:
            self.answer(e, "build", {"pits", "rules", "event"})
        self.assertLessEqual({"seeds", "boards", "kept", "seconds", "file_bytes"},
                             set(self.build[1]))
        kept = objects("build", "--db", self.db, "--pits", "4", "--max-seeds", "8", "--json")
        self.assertTrue(all(e["kept"] for e in kept if e["event"] == "layer"))

    def test_info_verify_bench(self):
        info = objects("info", "--db", self.db, "--json")[0]
        self.answer(info, "info", {"pits", "rules", "layers", "boards", "bytes", "stored_answers",
                                   "stored_answer_bytes", "book_positions", "book_bytes"})
        self.assertEqual([l["seeds"] for l in info["layers"]], list(range(1, 9)))
        self.assertEqual(info["layers"][0]["written_by"], VERSION)
        self.assertEqual(info["layers"][0]["format"], 3)
        self.assertEqual(info["layers"][0]["coding"], "value lines")
        verify = objects("verify", "--db", self.db, "--json")[0]
        self.answer(verify, "verify", {"pits", "rules", "layers", "problems", "ok"})
        self.assertTrue(verify["ok"])
        bench = objects("bench", "--pits", "3", "--max-seeds", "6", "--probes", "100", "--json")[0]
        self.answer(bench, "bench", {"pits", "rules", "build", "probe", "search", "signature"})

    def test_book(self):
        store_on = {k: v for k, v in os.environ.items() if k != "KALAH_STORE"}
        events = objects("book", "build", "--db", self.db, "--pits", "4", "--seeds", "2",
                         "--plies", "1", "--json", env=store_on)
        for e in events[:-1]:
            self.answer(e, "book", {"pits", "rules", "event", "index", "of", "ply", "moves",
                                    "position", "source", "value", "seconds"})
        self.answer(events[-1], "book", {"pits", "rules", "event", "positions", "analysed", "kept",
                                         "in_database", "nodes", "seconds", "book_positions",
                                         "book_bytes"})

    def test_book_list_and_fair(self):
        store_on = {k: v for k, v in os.environ.items() if k != "KALAH_STORE"}
        objects("book", "build", "--db", self.db, "--pits", "4", "--seeds", "2", "--plies", "1",
                "--json", env=store_on)
        listed = objects("book", "list", "--db", self.db, "--pits", "4", "--seeds", "2", "--json",
                         env=store_on)
        for e in listed[:-1]:
            self.answer(e, "book", {"pits", "rules", "event", "index", "of", "ply", "moves",
                                    "position", "source", "value", "seconds"})
        self.answer(listed[-1], "book", {"pits", "rules", "event", "positions"})
        fair = objects("fair", "--pits", "3", "--seeds", "2", "--moved", "1", "--no-db", "--json")
        self.assertEqual(len(fair), 1)
        self.answer(fair[0], "fair", {"pits", "rules", "seeds", "moved", "exact", "candidates",
                                      "settled", "fair", "below", "values", "seconds"})
        self.assertEqual(sum(fair[0]["values"].values()), fair[0]["candidates"])
        self.assertLessEqual(set(fair[0]["values"]), {"<0", "0", ">0"})
        self.assertEqual(len(fair[0]["fair"]), fair[0]["values"].get("0", 0))
        self.assertEqual(len(fair[0]["below"]), fair[0]["values"].get("<0", 0))
        exact = objects("fair", "--pits", "3", "--seeds", "2", "--moved", "1", "--no-db", "--json",
                        "--exact")[0]
        self.assertTrue(exact["exact"])
        self.assertEqual(sum(c for v, c in exact["values"].items() if int(v) < 0),
                         fair[0]["values"].get("<0", 0))
        self.assertEqual(exact["fair"], fair[0]["fair"])
        self.assertTrue(all(p.endswith(",S") for p in fair[0]["fair"]))

    def test_move_choice(self):
        # /api/v1/move's object, as the library builds it: through a server.
        import urllib.request
        server = subprocess.Popen([EXE, "serve", "--db", self.db, "--port", "0", "--json"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            url = json.loads(server.stdout.readline())["url"]
            for position, keys in [("2,2,2,2/2,2,2,2", {"pit", "proven", "value", "source",
                                                        "extra_turn", "next_position",
                                                        "next_absolute", "seconds"}),
                                   ("0,0,0,0/1,0,0,0/3,4", {"finished", "value", "result"})]:
                with urllib.request.urlopen(f"{url}api/v1/move?position={position}") as r:
                    self.answer(json.loads(r.read()), "serve", POSITION | keys)
        finally:
            server.terminate()
            server.wait(timeout=30)
            server.stdout.close()


if __name__ == "__main__":
    unittest.main()
