"""`kalah play` in a terminal (ctest: play_test): under tmux, scripted keys play whole games of
Kalah(4,3) against kalah, choosing among the legal pits the prompt lists; kalah, who holds the
won side, never ends with less than the start's value (+6, as `kalah solve` says); hint and undo
work; bad keys get a line and the prompt again; the record it prints replays to the end; a whole
turn typed as 2-3 is played, and extra turns, captures and the final sweep are said; --hints
reports a blunder with the seeds it gave away; --level beginner plays and says so.

usage: python3 play_test.py KALAH_EXECUTABLE
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

EXE = sys.argv.pop(1)


class Terminal:
    """One `kalah play` in a detached tmux window, read as the user sees it. Each has a tmux
    server of its own: a new session on a server just killed can fail while it exits."""

    def __init__(self, args, env="KALAH_DB=/nonexistent"):
        self.socket = f"kalah-play-test-{random.getrandbits(32):08x}"
        command = " ".join([EXE, "play", *args])
        self.tmux("new-session", "-d", "-x", "120", "-y", "50", "-s", "play",
                  f"{env} {command}; echo '[exited '$?']'; sleep 600")
        self.tmux("set-option", "-t", "play", "history-limit", "20000")

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True,
                              capture_output=True, text=True).stdout

    def screen(self):
        return self.tmux("capture-pane", "-p", "-J", "-t", "play", "-S", "-20000")

    def wait_for(self, pattern, after=0, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = self.screen()
            found = list(re.finditer(pattern, text))
            if len(found) > after:
                return found[-1], text
            time.sleep(0.05)
        raise AssertionError(f"no {pattern!r} within {timeout} s; the screen:\n{self.screen()}")

    def keys(self, text):
        self.tmux("send-keys", "-t", "play", "-l", "--", text)
        self.tmux("send-keys", "-t", "play", "Enter")

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


PROMPT = r"your move, (South|North): pit([ 0-9]*); h hint, u undo, q quit > "


class Play(unittest.TestCase):
    def setUp(self):
        self.term = None

    def tearDown(self):
        if self.term:
            self.term.close()

    def play_out(self, term, rng, first_keys=()):
        """Answers each new prompt with a random legal pit until the game ends."""
        prompts = 0
        pending = list(first_keys)
        while True:
            match, text = term.wait_for(PROMPT + r"|\[exited \d+\]", after=0)
            count = len(re.findall(PROMPT, text))
            if "[exited" in match.group(0):
                return text
            if count <= prompts:
                time.sleep(0.05)
                continue
            prompts = count
            if pending:
                term.keys(pending.pop(0))
                continue
            legal = match.group(2).split()
            self.assertTrue(legal, text)
            term.keys(rng.choice(legal))

    def test_kalah_never_gives_away_a_won_game(self):
        value = json.loads(subprocess.run(
            [EXE, "solve", "--pits", "4", "--seeds", "3", "--no-db", "--json"],
            check=True, capture_output=True, text=True).stdout)["value"]
        self.assertEqual(value, 6)
        for seed in range(3):
            rng = random.Random(seed)
            self.term = Terminal(["--pits", "4", "--seeds", "3", "--side", "N", "--time", "2"])
            text = self.play_out(self.term, rng)
            self.term.close()
            self.term = None
            self.assertIn("[exited 0]", text)
            result = re.search(r"game over: South (\d+), North (\d+): (.*)", text)
            self.assertTrue(result, text)
            south, north = int(result.group(1)), int(result.group(2))
            self.assertEqual(south + north, 24, text)
            self.assertGreaterEqual(south - north, value, text)  # perfect play keeps the win
            self.assertIn("South (kalah) wins by", result.group(3))
            # Every move of kalah's is proven, and what South is proven to get never drops.
            verdicts = re.findall(r"kalah \(South\) plays \d \((.*?)\)\n", text)
            self.assertTrue(verdicts, text)
            margins = []
            for v in verdicts:
                m = re.fullmatch(r"best play: South wins by (\d+), proven", v)
                self.assertTrue(m, v)
                margins.append(int(m.group(1)))
            self.assertEqual(margins, sorted(margins), text)
            self.assertEqual(margins[0], value)
            self.assertGreaterEqual(south - north, margins[-1])
            record = re.search(r"record: (.*)", text).group(1).strip()
            replay = re.search(r"replay: kalah solve (.*) --moves '(.*)'", text)
            self.assertEqual(replay.group(2), record)
            end = json.loads(subprocess.run(
                [EXE, "solve", *replay.group(1).split(), "--moves", record, "--no-db", "--json"],
                check=True, capture_output=True, text=True).stdout)
            self.assertTrue(end["finished"], end)
            self.assertEqual(abs(end["value"]), south - north, end)

    def test_hint_undo_and_bad_keys(self):
        self.term = Terminal(["--pits", "4", "--seeds", "3", "--time", "2"])
        term = self.term
        term.wait_for(PROMPT)
        term.keys("h")
        match, _ = term.wait_for(r"hint: pit (\d) \(best play: South wins by 6, proven\)")
        expected = r"; type a pit with seeds \(1 2 3 4\), h, u or q"
        term.keys("9")
        term.wait_for(r"'9' is not a pit" + expected)
        term.keys("-1")
        term.wait_for(r"'-1' is not a pit" + expected)
        term.keys("\x1b[2Jx")  # an escape sequence comes back escaped, not played on the screen
        term.wait_for(r"'\\x1b\[2Jx' is not a pit" + expected)
        term.keys("1-2")  # pit 1 ends the turn: nothing is played
        term.wait_for(r"1 ends the turn: '1-2' cannot be played" + expected)
        # Pit 4 passes the turn: kalah answers, then the prompt is South's again.
        term.keys("4")
        term.wait_for(r"kalah \(North\) plays \d")
        _, text = term.wait_for(PROMPT, after=5)
        term.keys("u")
        _, text = term.wait_for(PROMPT, after=6)
        # Back at the start: the start's drawing again, all four pits playable.
        lines = text.rstrip().splitlines()
        self.assertRegex(lines[-1], r"pit 1 2 3 4;")
        self.assertEqual([line.strip() for line in lines[-5:-2]],
                         ["3   3   3   3", "0                   0", "3   3   3   3"], text)
        term.keys("q")
        _, text = term.wait_for(r"\[exited 0\]")
        self.assertIn("record: \n", text)

    def test_a_whole_turn_is_typed_at_once(self):
        # Kalah(4,3): pit 2 ends in the store (an extra turn), then pit 3.
        self.term = Terminal(["--pits", "4", "--seeds", "3", "--time", "1"])
        self.term.wait_for(PROMPT)
        self.term.keys("2-3")
        self.term.wait_for(r"you play 2: extra turn\n(.|\n)*you play 3\n")
        self.term.wait_for(r"kalah \(North\) plays \d")
        self.term.keys("q")
        _, text = self.term.wait_for(r"\[exited 0\]")
        self.assertRegex(text, r"record: S:2-3 N:")

    def test_a_capture_is_said(self):
        # Pit 1's seed ends in empty pit 2, opposite North's 5: it captures 6.
        self.term = Terminal(["--pits", "4", "--no-db", "1,0,3,3/2,2,5,2/0,0"])
        self.term.wait_for(PROMPT)
        self.term.keys("1")
        self.term.wait_for(r"you play 1: captures 6\n")
        self.term.keys("q")
        self.term.wait_for(r"\[exited 0\]")

    def test_the_final_sweep_is_said(self):
        # Pit 4's seed ends in the store and empties South's row: no extra turn, the game is
        # over and North's 8 seeds go to North.
        self.term = Terminal(["--pits", "4", "--no-db", "0,0,0,1/2,2,2,2/5,5"])
        self.term.wait_for(PROMPT)
        self.term.keys("4")
        _, text = self.term.wait_for(r"\[exited 0\]")
        self.assertIn("you play 4\n", text)
        self.assertIn("the seeds left on the board go to their owners: South's row 0, North's "
                      "row 8\ngame over: South 6, North 13: North (kalah) wins by 7", text)

    def value(self, position, *flags):
        """The exact value of a position for its mover, from `kalah solve` (no database)."""
        out = subprocess.run([EXE, "solve", "--pits", "4", "--no-db", "--json", "--value-only",
                              *flags, "--position", position], check=True, capture_output=True,
                             text=True, env={"KALAH_STORE": "off", "PATH": "/usr/bin:/bin"})
        return json.loads(out.stdout)["value"]

    def test_a_blunder_is_reported_with_its_loss(self):
        # Kalah(4,3) with --hints: South's 1 gives North the move in a position worth -6 to South
        # where the start is worth +6: 12 seeds given away, as kalah solve's values say.
        start, after = self.value("3,3,3,3/3,3,3,3"), -self.value("3,3,3,3/0,4,4,4")
        self.term = Terminal(["--pits", "4", "--seeds", "3", "--no-db", "--hints", "--time", "2"])
        self.term.wait_for(PROMPT)
        self.term.keys("1")
        self.term.wait_for(re.escape(f"coach: that turn gave away {start - after} seeds "
                                     f"({start:+d} before it, {after:+d} after it, proven)"))
        self.term.keys("q")
        self.term.wait_for(r"\[exited 0\]")

    def test_a_weaker_level_plays_and_says_so(self):
        self.term = Terminal(["--pits", "4", "--seeds", "3", "--no-db", "--level", "beginner"])
        self.term.wait_for(r"kalah plays North at level beginner \(1 s a move, within 8 seeds")
        self.term.wait_for(PROMPT)
        self.term.keys("3")  # the last seed in the store: an extra turn, then 1 passes the turn
        self.term.wait_for(PROMPT, after=1)
        self.term.keys("1")
        self.term.wait_for(
            r"kalah \(North\) plays \d.*\(beginner: a move within 8 seeds of the best, "
            r"(the best|\d+ below it), (proven|estimated)\)")
        self.term.keys("q")
        self.term.wait_for(r"\[exited 0\]")

    def test_the_hint_and_the_coach_read_the_answer_store(self):
        # Kalah(6,3) over 10 seeds: 0.1 s proves nothing, but the store holds the start's
        # analysis (a solve put it there), so the hint and the verdict on South's first turn are
        # proven at once. Before, both were "estimated" here.
        with tempfile.TemporaryDirectory() as db:
            env = {**os.environ, "KALAH_STORE": "on"}  # the tests' is off
            run = lambda *args: subprocess.run([EXE, *args, "--pits", "6", "--db", db],
                                               check=True, capture_output=True, env=env)
            run("build", "--max-seeds", "10")
            run("solve", "--seeds", "3")
            self.term = Terminal(["--pits", "6", "--seeds", "3", "--db", db, "--hints",
                                  "--time", "0.1"], env="KALAH_STORE=on")
            self.term.wait_for(PROMPT)
            self.term.keys("h")
            self.term.wait_for(r"hint: pit \d \(best play: South [a-z ]+\d*, proven\)")
            self.term.keys("1")
            self.term.wait_for(r"coach: .*, proven\)")
            self.term.keys("q")
            self.term.wait_for(r"\[exited 0\]")


if __name__ == "__main__":
    if not shutil.which("tmux"):
        sys.exit("tmux is needed (apt-get install tmux)")
    unittest.main(verbosity=2)
