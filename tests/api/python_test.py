"""The Python module against the command line (ctest: python_test).

usage: python3 python_test.py KALAH_EXECUTABLE   (with the module on PYTHONPATH)"""
import doctest
import inspect
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import unittest.mock

import kalah

EXE = sys.argv.pop(1)


def cli(*args):
    out = subprocess.run([EXE, *args], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def without_counts(answer):
    # Node counts too: a search on more than one thread shares its table, so its count varies.
    return {k: v for k, v in answer.items() if k not in ("seconds", "nodes", "probes")}


class Module(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        subprocess.run([EXE, "build", "--db", cls.dir, "--pits", "4", "--max-seeds", "10",
                        "--capture", "empty"], check=True, capture_output=True)
        cls.positions = ["0,0,2,1/1,2,0,2/15,14", "3,0,2,1/0,2,1,1/4,5", "1,1,1,1/1,1,1,1",
                         "2,0,0,0/0,0,0,1", "0,0,5,0/2,0,0,3/1,1", "1,0,2,1,6,0,3,1,0,2,N"]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_version_is_the_command_lines(self):
        out = subprocess.run([EXE, "--version"], check=True, capture_output=True, text=True)
        self.assertEqual(out.stdout.split()[1], kalah.__version__)

    def test_solve_returns_the_answer_of_solve_json(self):
        answer = kalah.solve(pits=4, seeds=3, capture="standard")
        self.assertEqual(answer["value"], 6)
        expected = cli("solve", "--pits", "4", "--seeds", "3", "--json")[0]
        self.assertEqual(without_counts(answer), without_counts(expected))

    def test_fair_returns_the_answer_of_fair_json(self):
        # Over a database and without, exact and by sign, as `kalah fair --json`.
        for db, args in ((self.dir, ["--db", self.dir]), (None, ["--no-db"])):
            for exact in (False, True):
                ours = kalah.fair(pits=4, seeds=2, moved=2, capture="empty", db=db, exact=exact)
                theirs = cli("fair", "--pits", "4", "--seeds", "2", "--capture", "empty", *args,
                             "--json", *(["--exact"] if exact else []))[0]
                self.assertEqual(without_counts(ours), without_counts(theirs))
        seen = []  # reports every 50 ms at most: a run of a second or so
        answer = kalah.fair(pits=4, seeds=4, db=None, threads=1, progress=seen.append)
        self.assertTrue(seen, "no progress reported")
        self.assertEqual({r["candidates"] for r in seen}, {answer["candidates"]})
        self.assertEqual([r["settled"] for r in seen], sorted(r["settled"] for r in seen))
        # The command line's progress lines are the same objects: the same keys.
        lines = subprocess.run([EXE, "fair", "--pits", "4", "--seeds", "4", "--no-db", "--json",
                                "--progress"], check=True, capture_output=True, text=True).stderr
        self.assertEqual({tuple(json.loads(l)) for l in lines.splitlines()}, {tuple(seen[-1])})
        with self.assertRaisesRegex(ValueError, "seeds moved must be 1..3, got 4"):
            kalah.fair(pits=3, seeds=2, moved=4, db=None)

    def test_analyse_any_position(self):
        answer = kalah.analyse("2,0,1/0,1,1/3,4", capture="empty")
        expected = cli("solve", "--capture", "empty", "--json", "2,0,1/0,1,1/3,4")[0]
        self.assertEqual(without_counts(answer), without_counts(expected))

    def test_database_probe_and_analyse_agree_with_query(self):
        db = kalah.Database(self.dir, capture="empty")
        self.assertEqual((db.pits, db.max_seeds), (4, 10))
        self.assertEqual(db.rules, {"capture": "empty", "end": "immediate", "remainder": "owner"})
        for pos in self.positions:
            expected = cli("query", "--db", self.dir, "--capture", "empty", "--json", pos)[0]
            self.assertEqual(db.probe(pos), expected["value"], pos)
            self.assertEqual(without_counts(db.analyse(pos)), without_counts(expected), pos)
        self.assertIsNone(db.probe("4,4,4,4/4,4,4,4"))  # 32 seeds: above the top layer
        searched, alone = db.analyse("4,4,4,1/1,1,1,1"), kalah.analyse("4,4,4,1/1,1,1,1",
                                                                       capture="empty")
        self.assertEqual((searched["source"], searched["value"]), ("search", alone["value"]))

    def test_a_damaged_decoded_copy_never_gives_a_value(self):
        old = tempfile.TemporaryDirectory()  # format 1, searched through decoded copies
        self.addCleanup(old.cleanup)
        subprocess.run([EXE, "build", "--db", old.name, "--pits", "4", "--max-seeds", "10",
                        "--capture", "empty", "--format", "1"], check=True, capture_output=True)
        values = lambda d: {p: kalah.Database(d, capture="empty").probe(p) for p in self.positions}
        self.assertEqual(values(old.name), values(self.dir))  # and the copies are written
        self.assertTrue(os.listdir(decoded := os.path.join(old.name, "decoded")))
        for path in (os.path.join(decoded, name) for name in os.listdir(decoded)):
            with open(path, "r+b") as f:
                boards = int.from_bytes(f.read(32)[24:32], "little")
                f.seek(os.path.getsize(path) - boards)  # the values, after an intact header
                f.write(b"\xff" * boards)
        self.assertEqual(values(old.name), values(self.dir))

    def test_default_directory_is_the_command_lines(self):
        with unittest.mock.patch.dict(os.environ, {"KALAH_DB": self.dir}):
            self.assertEqual(kalah.Database(capture="empty").max_seeds, 10)

    def test_rules_not_given_are_the_databases(self):
        db = kalah.Database(self.dir, capture="empty")
        for position in self.positions:
            self.assertEqual(kalah.analyse(position, db=db)["rules"], db.rules)
            self.assertEqual(kalah.analyse(position, db=db)["value"],
                             kalah.analyse(position, **db.rules)["value"])
        self.assertEqual(kalah.solve(seeds=2, db=db)["pits"], 4)  # the database's pits
        self.assertEqual(kalah.solve(seeds=2, db=db)["rules"]["capture"], "empty")
        self.assertEqual(kalah.solve(pits=4, seeds=2)["rules"]["capture"], "standard")

    def test_threads_share_a_database(self):
        db = kalah.Database(self.dir, capture="empty")
        expected = [db.probe(p) for p in self.positions]
        results = []

        def work():
            results.append([db.probe(p) for p in self.positions for _ in range(20)][::20])

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, [expected] * 4)

    def test_ctrl_c_ends_a_long_solve_with_keyboard_interrupt(self):
        proc = subprocess.Popen(
            [sys.executable, "-c", "import kalah, sys\nprint('started', flush=True)\n"
             "try:\n    kalah.solve(pits=6, seeds=5)\nexcept KeyboardInterrupt:\n"
             "    print('interrupted', flush=True)\n    sys.exit(3)\n"],
            stdout=subprocess.PIPE, text=True, env=os.environ)
        self.assertEqual(proc.stdout.readline().strip(), "started")
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, _ = proc.communicate(timeout=30)
        self.assertLess(time.monotonic() - sent, 1.0, "took more than a second to stop")
        self.assertEqual((proc.returncode, out.strip()), (3, "interrupted"))

    def test_exiting_during_a_search_never_aborts(self):
        # The interpreter exiting while a daemon thread searches (it aborted with "terminate
        # called without an active exception" 8 times in 10), the same with a finalizer that
        # lets the daemon wake while the interpreter finalizes without the GIL (then it died
        # of "PyThreadState_Get: ... the GIL is released" every time), and Ctrl-C in a join of
        # a searching thread with a Database open: each ends without an abort.
        daemon = ("import threading, time, kalah\n"
                  "threading.Thread(target=lambda: kalah.solve(pits=6, seeds=6, db=None,"
                  " threads=1), daemon=True).start()\ntime.sleep(0.2)\n")
        slow_exit = ("import gc, time\ngc.disable()\n"
                     "class Slow:\n    def __del__(self, sleep=time.sleep):\n        sleep(0.3)\n"
                     "s = Slow()\ns.cycle = s\ndel s\n" + daemon)
        joined = ("import os, signal, threading, time, kalah\n"
                  f"db = kalah.Database({self.dir!r}, capture='empty')\n"
                  "t = threading.Thread(target=lambda: kalah.analyse('6,6,6,6/6,6,6,6', db=db,"
                  " threads=1, timeout=2))\nt.start()\ntime.sleep(0.2)\n"
                  "os.kill(os.getpid(), signal.SIGINT)\nt.join()\n")
        runs = [(daemon, 0)] * 20 + [(slow_exit, 0)] * 3 + [(joined, -signal.SIGINT)] * 2
        for script, expected in runs:
            run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                 env=os.environ, timeout=60)
            self.assertNotIn("terminate called", run.stderr)
            self.assertIn(run.returncode, (expected, 130), run.stderr)

    def test_a_position_is_accepted_wherever_its_text_is(self):
        db = kalah.Database(self.dir, capture="empty")
        for text in self.positions:
            p = kalah.Position.from_string(text, capture="empty")
            self.assertEqual(db.probe(p), db.probe(text))
            self.assertEqual(without_counts(db.analyse(p)), without_counts(db.analyse(text)))
            value = lambda q, **rules: kalah.analyse(q, **rules)["value"]
            self.assertEqual(value(p), value(text, capture="empty"))
        self.assertIsNone(db.probe(kalah.Position.start(pits=4, seeds=4, capture="empty")))
        with self.assertRaises(ValueError):  # 3 pits against a database of 4
            db.probe(kalah.Position.start(pits=3, seeds=1, capture="empty"))
        standard = kalah.Position.from_string(self.positions[0])
        for call in (db.probe, db.analyse):  # a Position keeps its rules: others are refused
            self.assertRaisesRegex(ValueError,
                                   "holds m=4 capture=empty .*, not m=4 capture=standard", call,
                                   standard)
        empty = kalah.Position.from_string(self.positions[0], capture="empty")
        self.assertRaisesRegex(ValueError, "the Position is of m=4 capture=empty .*, not m=4 "
                               "capture=standard", kalah.analyse, empty, capture="standard")
        for wrong in (None, 3, b"1,1/1,1"):  # neither a Position nor text
            self.assertRaisesRegex(TypeError, "kalah.Position or a str, not", db.probe, wrong)

    def test_options_as_the_command_line(self):
        for args, flags in (({"value_only": True}, ["--value-only"]), ({"pie": True}, ["--pie"]),
                            ({"threads": 1}, ["--threads", "1"])):
            answer = kalah.solve(pits=4, seeds=3, capture="empty", **args)
            expected = cli("solve", "--pits", "4", "--seeds", "3", "--capture", "empty", "--json",
                           *flags)[0]
            self.assertEqual(without_counts(answer), without_counts(expected), args)
        self.assertRaisesRegex(ValueError, "not both", kalah.solve, pits=4, seeds=3, pie=True,
                               value_only=True)
        self.assertRaisesRegex(ValueError, "timeout", kalah.solve, pits=4, seeds=3, timeout=-1)

    def test_a_timeout_returns_the_bounds_proven(self):
        for value_only in (False, True):
            start = time.monotonic()
            answer = kalah.solve(pits=6, seeds=6, timeout=0.2, value_only=value_only)
            self.assertLess(time.monotonic() - start, 5)
            self.assertTrue(answer["interrupted"])
            self.assertNotIn("value", answer)
            self.assertLessEqual(answer["lower"], answer["upper"])
        # Enough time: the value, the same as without a timeout, however large the timeout (a
        # deadline that would overflow the clock is none), on any thread count.
        self.assertEqual(kalah.solve(pits=4, seeds=3, timeout=60)["value"], 6)
        exact = kalah.solve(pits=3, seeds=3)["value"]
        for timeout in (1e10, 1e12, 1e15, 1e18, 1e300, 2**70, float("inf"), None):
            for threads in (1, 2):
                answer = kalah.solve(pits=3, seeds=3, timeout=timeout, threads=threads)
                self.assertNotIn("interrupted", answer, (timeout, threads))
                self.assertEqual(answer["value"], exact, (timeout, threads))
        # Every bad timeout gets the one message.
        messages = set()
        for timeout in (-1, -1e-9, float("nan"), float("-inf")):
            with self.assertRaises(ValueError) as caught:
                kalah.solve(pits=3, seeds=3, timeout=timeout)
            messages.add(str(caught.exception).split("; got")[0])
        self.assertEqual(messages, {"timeout must be a number of seconds, 0 or infinity for "
                                    "none"})

    def test_the_default_database_is_the_command_lines(self):
        # KALAH_DB names this test's database (m = 4, empty capture, up to 10 seeds): solve()
        # and analyse() end their searches at it, as `kalah solve` does; db=None searches alone,
        # and other rules find no database there.
        code = ("import json, kalah; print(json.dumps(["
                "kalah.solve(pits=4, seeds=3, capture='empty', threads=1)['probes'], "
                "kalah.solve(pits=4, seeds=3, capture='empty', db=None)['probes'], "
                "kalah.analyse('0,0,2,1/1,2,0,2/15,14', capture='empty')['source'], "
                "kalah.solve(pits=4, seeds=3)['probes']]))")
        env = dict(os.environ, KALAH_DB=self.dir)
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                             capture_output=True, text=True).stdout
        with_db, alone, source, other_rules = json.loads(out)
        self.assertGreater(with_db, 0)
        self.assertEqual((alone, source, other_rules), (0, "database", 0))
        line = subprocess.run([EXE, "solve", "--pits", "4", "--seeds", "3", "--capture", "empty",
                               "--threads", "1", "--json"], env=env, check=True,
                              capture_output=True, text=True)
        self.assertEqual(json.loads(line.stdout)["probes"], with_db)
        with self.assertRaisesRegex(ValueError, "mine: no such database directory"):
            kalah.solve(pits=4, seeds=3, db="mine")  # any other text is a directory

    def test_progress_and_an_estimate_at_once(self):
        reports = []
        start = time.monotonic()
        answer = kalah.solve(pits=6, seeds=5, db=None, timeout=1.5,
                             progress=lambda r: reports.append((time.monotonic() - start, r)))
        self.assertTrue(answer["interrupted"])
        estimate = answer["estimate"]
        self.assertTrue(estimate["depth"] > 0 and estimate["line"][0][2] == str(estimate["best"]))
        self.assertTrue(answer["lower"] <= estimate["value"] <= answer["upper"], answer)
        first = next(t for t, r in reports if "estimate" in r)
        self.assertLess(first, 0.5, "the first estimate took too long")
        for _, r in reports:
            self.assertTrue(r["running"])
            if "estimate" in r and "lower" in r:
                self.assertTrue(r["lower"] <= r["estimate"]["value"] <= r["upper"], r)
        # A heartbeat: a report at least every half second, the nodes so far in them.
        times = [0] + [t for t, _ in reports] + [time.monotonic() - start]
        self.assertLess(max(b - a for a, b in zip(times, times[1:])), 0.6, times)
        self.assertTrue(any(r["nodes"] > 0 for _, r in reports), reports)

        def fail(report):
            raise RuntimeError("enough")
        start = time.monotonic()
        with self.assertRaisesRegex(RuntimeError, "enough"):
            kalah.solve(pits=6, seeds=5, db=None, progress=fail)
        self.assertLess(time.monotonic() - start, 5)

    def test_the_docstrings_examples(self):
        self.assertEqual(doctest.testmod(kalah).failed, 0)
        self.assertEqual(doctest.testmod(kalah._game).failed, 0)

    def test_a_clean_documented_namespace(self):
        self.assertEqual(dir(kalah), sorted(kalah.__all__))
        for name in kalah.__all__:  # the type aliases' strings are for readers of the source
            thing = getattr(kalah, name)
            if isinstance(thing, type) or inspect.isfunction(thing):
                self.assertTrue(thing.__doc__, name)
        for cls in (kalah.Position, kalah.Game, kalah.Database):
            for name, member in vars(cls).items():
                if not name.startswith("_"):
                    self.assertTrue(getattr(member, "__doc__", None), f"{cls.__name__}.{name}")
        print(kalah.Position.start(pits=3, seeds=2))  # the board as text, for the log

    def test_the_db_argument(self):
        with self.assertRaisesRegex(TypeError, "db must be a Database, a directory .* not int"):
            kalah.analyse("1,1/1,1", db=5)
        by_path = kalah.analyse(self.positions[0], db=self.dir, capture="empty")
        by_database = kalah.analyse(self.positions[0], db=kalah.Database(self.dir, capture="empty"))
        self.assertEqual(without_counts(by_path), without_counts(by_database))
        self.assertEqual(by_path["source"], "database")
        with self.assertRaisesRegex(ValueError, "no such database directory"):
            kalah.analyse("1,1/1,1", db="/nonexistent")

    def test_errors_are_value_errors_with_the_command_lines_message(self):
        db = kalah.Database(self.dir, capture="empty")
        with self.assertRaisesRegex(ValueError, "not a position"):
            db.probe("1,2,3")
        with self.assertRaisesRegex(ValueError, "3 pits per row, expected 4"):
            db.probe("1,1,1/1,1,1")
        with self.assertRaisesRegex(ValueError, "not a capture rule"):
            kalah.solve(pits=4, seeds=3, capture="greedy")
        with self.assertRaisesRegex(ValueError, "it holds m=4 capture=empty"):
            kalah.Database(self.dir, capture="standard")
        with self.assertRaisesRegex(ValueError, "no such database directory"):
            kalah.Database(self.dir + "/missing")
        with self.assertRaisesRegex(ValueError, "pits per row must be 1..8, got -1"):
            kalah.analyse("1,1,1,1/1,1,1,1", pits=-1)
        with self.assertRaisesRegex(ValueError, "pits per row must be 1..8, got -1"):
            kalah.Database(self.dir, capture="empty", pits=-1)
        with self.assertRaisesRegex(ValueError, "holds m=4 capture=empty .*, not m=4 .*=standard"):
            kalah.analyse("1,1,1,1/1,1,1,1", capture="standard",
                          db=kalah.Database(self.dir, capture="empty"))
        with self.assertRaises(TypeError):
            kalah.solve(4, 3)  # keywords only, as on the command line


if __name__ == "__main__":
    unittest.main()
