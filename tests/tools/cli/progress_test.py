"""`kalah solve`'s progress (ctest: progress_test): lines with --progress, JSON lines with
--progress --json, a line rewritten in place on a terminal (a pseudo-terminal here), the warning
before a search that cannot end soon, and Ctrl-C's report of the bounds with the estimate. The
search is Kalah(6,4) with no database, stopped after a few seconds.

usage: python3 progress_test.py KALAH_EXECUTABLE
"""
import json
import os
import pty
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

EXE = sys.argv.pop(1)
SOLVE = [EXE, "solve", "--seeds", "4", "--no-db", "--no-store", "--threads", "1"]


def interrupted(args, seconds=2.5):
    """Runs args, Ctrl-C after `seconds`; returns (exit status, stdout, stderr)."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(seconds)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    return p.returncode, out, err


class Progress(unittest.TestCase):
    def test_progress_lines(self):
        code, out, err = interrupted(SOLVE + ["--progress"])
        self.assertEqual(code, 130, err)
        lines = err.splitlines()
        self.assertIn("will likely take over an hour", lines[0])
        self.assertRegex(lines[0], r"take (about \d+(\.\d)? hours( \(\d+ days\))?|far more than "
                                   r"10,000 hours) at \d+ million nodes/s on 1 thread ")
        self.assertIn("--value-only", lines[0])
        progress = [l for l in lines[1:] if re.match(r"\s*\d+\.\d s", l)]
        self.assertGreaterEqual(len(progress), 2, err)
        self.assertRegex(progress[-1], r"\d+\.\d s, [\d.e+]+ nodes: value in \[-?\d+, \+?\d+\], "
                                       r"\d of 6 moves valued; estimate [+-]?\d+ at depth \d+")
        self.assertRegex(out, r"interrupted after \d+ nodes, \d+\.\d\d s: "
                              r"the value for South lies in")
        self.assertRegex(out, r"estimate: [+-]?\d+ \(a heuristic search \d+ plies deep, "
                              r"best pit \d\)")

    def test_ctrl_c_gives_the_estimate_wherever_the_output_goes(self):
        # Pipes, no --progress: the warning's promise of the bounds and the estimate is kept.
        code, out, err = interrupted(SOLVE)
        self.assertEqual(code, 130, err)
        self.assertIn("Ctrl-C prints the bounds and the estimate so far", err)
        self.assertRegex(out, r"the value for South lies in")
        self.assertRegex(out, r"estimate: [+-]?\d+ \(a heuristic search \d+ plies deep")

    def test_progress_json_lines(self):
        code, out, err = interrupted(SOLVE + ["--progress", "--json"])
        self.assertEqual(code, 130, err)
        reports = [json.loads(l) for l in err.splitlines() if l.startswith("{")]
        self.assertGreaterEqual(len(reports), 2, err)
        last = reports[-1]
        for key in ("running", "estimate", "lower", "upper", "done", "total", "moves", "nodes",
                    "seconds"):
            self.assertIn(key, last)
        self.assertTrue(last["lower"] <= last["estimate"]["value"] <= last["upper"], last)
        self.assertEqual([r["seconds"] for r in reports], sorted(r["seconds"] for r in reports))
        answer = json.loads(out)
        self.assertTrue(answer["interrupted"])
        self.assertTrue(answer["lower"] <= answer["estimate"]["value"] <= answer["upper"], answer)
        # The nodes searched so far, before the end (not only after each test).
        self.assertTrue(any(r["nodes"] > 0 for r in reports[:-1]), reports)

    def test_time_ends_the_solve_with_its_bounds(self):
        start = time.monotonic()
        run = subprocess.run(SOLVE + ["--time", "2", "--json"], capture_output=True, text=True,
                             timeout=30)
        self.assertLess(time.monotonic() - start, 3 if os.environ.get("KALAH_SANITIZED") != "1"
                        else 6)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertNotIn("will likely take over an hour", run.stderr)
        answer = json.loads(run.stdout)
        self.assertEqual((answer["interrupted"], answer["stopped"]), (True, "deadline"))
        self.assertTrue(answer["lower"] <= answer["estimate"]["value"] <= answer["upper"], answer)
        # The line the estimate expects, starting with its best move; every move has its own.
        line = answer["estimate"]["line"]
        first_pit = lambda turn: turn[2:].split("-")[0]  # "S:3-6": 3
        self.assertTrue(line and first_pit(line[0]) == str(answer["estimate"]["best"]), answer)
        self.assertTrue(all(m["line"][0][:2] == "S:" and first_pit(m["line"][0]) == str(m["pit"])
                            for m in answer["estimate"]["moves"]), answer)

    def test_time_prints_every_moves_line_best_first(self):
        # The text, as the JSON: every move's estimate and line (only the best's was printed),
        # best first as the board lists them.
        run = subprocess.run(SOLVE + ["--time", "1"], capture_output=True, text=True, timeout=30)
        self.assertEqual(run.returncode, 0, run.stderr)
        rows = re.findall(r"^  pit (\d) +([+-]?\d+) +S:(\d)", run.stdout.split(
            "estimated moves, best first (not proven):\n")[1], re.M)
        self.assertEqual(sorted(int(pit) for pit, _, _ in rows), [1, 2, 3, 4, 5, 6], run.stdout)
        self.assertTrue(all(pit == first for pit, _, first in rows), rows)
        values = [int(v) for _, v, _ in rows]
        self.assertEqual(values, sorted(values, reverse=True))

    def test_a_terminal_gets_one_line_rewritten_in_place(self):
        code, text = on_terminal(SOLVE, interrupt_after=2.5)
        self.assertEqual(code, 130)
        # Updates overwrite each other: a carriage return, the text, erase to the end of the line
        # (a terminal's newlines are "\r\n" too: those do not count).
        updates = re.findall(r"\r([^\r\n]+)\x1b\[K", text)
        self.assertGreaterEqual(len(updates), 2, repr(text))
        self.assertRegex(updates[-1], r"estimate [+-]?\d+ at depth \d+")
        self.assertIn("the value for South lies in", text)
        self.assertRegex(text, r"expected line \(not proven\): S:\d")

    def test_a_note_erases_the_progress_line_first(self):
        # The answer store's first note came right after the progress line, on it: "...6 of 6
        # moves valuedkalah: answers are kept in ...".
        with tempfile.TemporaryDirectory() as db:
            subprocess.run([EXE, "build", "--db", db, "--pits", "5", "--max-seeds", "8"],
                           check=True, capture_output=True)
            code, text = on_terminal([EXE, "solve", "--pits", "5", "--seeds", "3", "--db", db],
                                     env={**os.environ, "KALAH_STORE": "on"})
            self.assertEqual(code, 0, text)
            self.assertIn("\r\x1b[Kkalah: answers are kept in", text)
            # info reads every value: it says which layer it is at (it said nothing for 8 s).
            code, text = on_terminal([EXE, "info", "--db", db])
            self.assertEqual(code, 0, text)
            self.assertRegex(text, r"\rkalah-m5-standard-immediate-owner: reading layer \d of "
                                   r"8\.\.\.\x1b\[K")


def on_terminal(args, interrupt_after=None, env=None):
    """Runs args on a pseudo-terminal (Ctrl-C after `interrupt_after` seconds): (exit code,
    everything it wrote)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(args[0], args, env or os.environ)
    output, start, sent = b"", time.monotonic(), False
    while True:
        if not sent and interrupt_after and time.monotonic() - start > interrupt_after:
            os.kill(pid, signal.SIGINT)
            sent = True
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), output.decode()

if __name__ == "__main__":
    unittest.main()
