"""`kalah fair` end to end (ctest: fair_cli_test): a run killed midway (SIGKILL) and run again with
the same --checkpoint gives the table of a run never stopped, and says what it resumed; a line of
the log edited by hand is not believed; the certificates of the fair starts (with and without a
database) are accepted by tools/checker/check_certificate.py, and one claiming 0 for a candidate
that is not fair is refused.

usage: python3 fair_cli_test.py KALAH_EXECUTABLE CHECK_CERTIFICATE_PY
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

EXE = sys.argv.pop(1)
CHECKER = sys.argv.pop(1)
# About 4 s on one thread without a database: long enough to be killed midway, a second in.
LONG = ["fair", "--pits", "5", "--seeds", "3", "--moved", "2", "--no-db", "--threads", "1",
        "--json"]


def fair(*args, check=True):
    run = subprocess.run([EXE, *args], capture_output=True, text=True)
    if check and run.returncode != 0:
        raise AssertionError(f"kalah {' '.join(args)}: exit {run.returncode}\n{run.stderr}")
    return run


def table(stdout):
    """The answer without what depends on the run (its time)."""
    out = json.loads(stdout)
    del out["seconds"]
    return out


def check(paths, db=None):
    args = [sys.executable, CHECKER, *paths] + (["--db", db] if db else [])
    return subprocess.run(args, capture_output=True, text=True)


class Fair(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_killed_midway_resumes_to_the_same_table(self):
        whole = table(fair(*LONG).stdout)
        self.assertEqual(whole["settled"], whole["candidates"])
        ck = os.path.join(self.tmp.name, "ck")
        proc = subprocess.Popen([EXE, *LONG, "--checkpoint", ck, "--progress"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in proc.stderr:  # the first progress line: a second in, candidates settled
            if json.loads(line).get("settled", 0) > 0:
                break
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        log, = [os.path.join(ck, f) for f in os.listdir(ck) if f.endswith(".log")]
        with open(log) as f:
            logged = len(f.readlines()) - 1
        self.assertGreater(logged, 0)
        self.assertLess(logged, whole["candidates"], "the run was not killed midway")
        again = fair(*LONG, "--checkpoint", ck)
        self.assertIn(f"resumed {logged} candidates", again.stderr)
        self.assertEqual(table(again.stdout), whole)

        # A line edited by hand (its bounds changed, the keyed hash left) is settled again.
        with open(log) as f:
            lines = f.readlines()
        fields = lines[1].split()
        fields[1:3] = ["1", "1"] if fields[1:3] != ["1", "1"] else ["-1", "-1"]
        lines[1] = " ".join(fields) + "\n"
        with open(log, "w") as f:
            f.writelines(lines)
        edited = fair(*LONG, "--checkpoint", ck)
        self.assertIn("1 line(s) ignored", edited.stderr)
        self.assertEqual(table(edited.stdout), whole)

    def certificates(self, pits, seeds, db=None):
        out = os.path.join(self.tmp.name, "certs")
        where = ["--db", db] if db else ["--no-db"]
        run = fair("fair", "--pits", str(pits), "--seeds", str(seeds), "--moved", "2", *where,
                   "--certificates", out, "--json")
        answer = json.loads(run.stdout)
        self.assertGreater(len(answer["fair"]), 0)
        self.assertEqual(len(answer["certificates"]), len(answer["fair"]))
        files = [c["file"] for c in answer["certificates"]]
        result = check(files, db)  # all in one run: the layers are read once
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(result.stdout.count("is worth exactly"), len(files))
        for position in answer["fair"]:
            self.assertIn(f"position {position}: final margin +0 for", result.stdout)
        return answer

    def test_fair_starts_are_certified_without_a_database(self):
        self.certificates(3, 2)

    def test_fair_starts_are_certified_over_a_database(self):
        db = os.path.join(self.tmp.name, "db")
        fair("build", "--db", db, "--pits", "4", "--max-seeds", "6")
        self.certificates(4, 2, db)

    def test_a_certificate_claiming_a_candidate_is_fair_is_refused(self):
        # A candidate that is not fair, certified with its true value, then claiming 0.
        answer = json.loads(fair("fair", "--pits", "3", "--seeds", "2", "--moved", "1", "--no-db",
                                 "--exact", "--json").stdout)
        self.assertTrue(any(v != "0" for v in answer["values"]))
        cert = os.path.join(self.tmp.name, "c.cert")
        position = "2,2,1,1,2,2,2,0,S"  # one seed from South's third pit to its store
        solved = json.loads(fair("solve", position, "--pits", "3", "--no-db", "--value-only",
                                 "--certificate", cert, "--json").stdout)
        self.assertNotEqual(solved["value"], 0)
        self.assertEqual(check([cert]).returncode, 0)
        with open(cert, "rb") as f:
            data = f.read()
        head_end = data.index(b"\nend\n") + 5
        head = data[:head_end].decode().split("\n")
        stores = 1  # South's store minus North's
        head = [f"value {-stores}" if line.startswith("value ") else line for line in head]
        forged = os.path.join(self.tmp.name, "forged.cert")
        with open(forged, "wb") as f:
            f.write("\n".join(head).encode() + data[head_end:])
        refused = check([forged])
        self.assertEqual(refused.returncode, 1, refused.stdout + refused.stderr)


if __name__ == "__main__":
    unittest.main()
