"""The analysis board over a database with the book of Kalah(6,4)'s start (ctest:
board_book_test), in headless Chromium: the start's exact values show at once, from the book;
every level of the computer moves from the book at once, proven; a game that opens with a
blunder (S:1, then N:3) is marked as one within 3 s, from the start's own table of move values,
before the position after it has a value of its own; bounds that meet are shown as the value,
the position's and a move's.

usage: python3 board_book_test.py KALAH_EXECUTABLE
"""
import json
import sys
import time
import unittest
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_session import BoardCase

BoardCase.exe = sys.argv.pop(1)
KALAH_6_4 = "4,4,4,4,4,4,0,4,4,4,4,4,4,0,S"


class Book(BoardCase):
    # The database a search of the start needs to finish in seconds, and its book: the start.
    max_seeds = 22
    book = ["--seeds", "4", "--plies", "0"]

    def test_the_start_is_answered_from_the_book(self):
        answer = self.api(KALAH_6_4)
        self.assertEqual(answer["source"], "store")
        start = time.monotonic()
        self.browser.get(self.url)
        self.expect(answer)
        self.assertLess(time.monotonic() - start, 5)

    def test_every_level_moves_from_the_book_at_once(self):
        # Before, strong searched 5 s and answered an unproven heuristic move here.
        moves = {m["pit"]: m["value"] for m in self.api(KALAH_6_4)["moves"]}
        for level in ["perfect", "strong", "quick", "casual", "beginner"]:
            q = urllib.parse.urlencode({"position": KALAH_6_4, "level": level})
            with urllib.request.urlopen(f"{self.url}api/v1/move?{q}", timeout=60) as r:
                move = json.loads(r.read())
            self.assertTrue(move["proven"], (level, move))
            self.assertEqual(move["source"], "store", (level, move))
            self.assertEqual(move["value"], moves[move["pit"]], (level, move))
            self.assertLess(move["seconds"], 0.5, (level, move))
        # The board's computer as South at strong: its first turn is played within 0.5 s
        # (0.3 s of it the pause that lets the user see the board).
        self.browser.get(self.url + "?computer=South&level=strong")
        start = time.monotonic()
        self.wait(lambda: "computer (South, strong) played" in
                  self.browser.find_element(By.ID, "computer-note").text, seconds=10)
        note = self.browser.find_element(By.ID, "computer-note").text
        self.assertIn("perfect (store)", note)
        self.assertLess(time.monotonic() - start, 1.5)

    def test_a_blunder_is_marked_from_its_parents_table(self):
        moves = {m["pit"]: m["value"] for m in self.api(KALAH_6_4)["moves"]}
        loss = max(moves.values()) - moves[1]
        self.assertGreaterEqual(loss, 6)  # S:1 gives a blunder's worth away
        self.browser.get(self.url + "?moves=S:1+N:3")
        first = lambda: self.script(
            "const li = document.querySelector('#history li');"
            "return li && [li.dataset.mark, li.className, li.title]")
        WebDriverWait(self.browser, 3).until(lambda _: (first() or [None])[0] == "??")
        mark, classes, title = first()
        self.assertIn("blunder", classes)
        self.assertIn(f"gave away {loss} seeds", title)
        self.assertIn("South: 0 of 1 turns gave nothing away",
                      self.browser.find_element(By.ID, "accuracy").text)

    def test_a_value_from_the_parents_table_is_shown_as_exact(self):
        # After S:1 the start's table gives the position's value: the bar, the status and the
        # engine show it exactly within 1 s (before: "South ≈-8", "value in [+4, +48] ·
        # estimate +8" while its own search ran).
        south = {m["pit"]: m["value"] for m in self.api(KALAH_6_4)["moves"]}[1]
        signed = lambda v: f"+{v}" if v > 0 else str(v)
        self.browser.get(self.url + "?moves=S:1")
        text = lambda id: self.browser.find_element(By.ID, id).text
        WebDriverWait(self.browser, 1).until(
            lambda _: text("eval-text") == f"South {signed(south)}")
        self.assertIn(f"value {signed(-south)}", text("status"))
        self.assertNotIn("estimate", text("status"))
        self.assertIn(f"value {signed(-south)} (exact)",
                      self.script("return document.getElementById('engine-depth').textContent"))

    def test_the_opening_explorer(self):
        # The book holds the start alone (--plies 0): one ply deep there, every move leaves it;
        # the panel lists the moves with the book's values, best first, and a click plays one.
        q = urllib.parse.urlencode({"position": KALAH_6_4})
        with urllib.request.urlopen(f"{self.url}api/v1/book?{q}", timeout=60) as r:
            book = json.loads(r.read())
        self.assertEqual((book["in_book"], book["depth"]), (True, 1))
        self.assertEqual(book["moves"], [{"pit": p, "depth": 0} for p in range(1, 7)])
        values = {m["pit"]: m["value"] for m in self.api(KALAH_6_4)["moves"]}
        self.browser.get(self.url)
        rows = lambda: self.script("return [...document.querySelectorAll('#book-moves li')]"
                                   ".map(li => li.textContent)")
        self.wait(lambda: len(rows()) == 6 and "+" in rows()[0], seconds=5)
        self.assertIn("in the book, 1 ply deep", self.script(
            "return document.getElementById('book-depth').textContent"))
        best = max(values, key=lambda p: (values[p], -p))
        self.assertTrue(rows()[0].startswith(f"pit {best} +{values[best]}"), rows())
        self.assertTrue(all("leaves the book" in row for row in rows()))
        self.click("#book-moves li")
        self.wait(lambda: self.history() == [f"S:{best}"] or self.history()[:1] == [f"S:{best}"])
        self.wait(lambda: self.script("return document.getElementById('book-panel').hidden"))

    def test_a_best_extra_turn_from_the_parents_table_is_exact(self):
        # A move of the start whose best turn goes on (S:3-6): after that whole turn the start's
        # table gives North's value, shown exactly at once (before: "+7 (estimate)" for 14 s).
        move = next(m for m in self.api(KALAH_6_4)["moves"] if "-" in m["turn"])
        signed = lambda v: f"+{v}" if v > 0 else str(v)
        self.browser.get(self.url + "?moves=" + move["turn"])
        text = lambda id: self.browser.find_element(By.ID, id).text
        WebDriverWait(self.browser, 1).until(
            lambda _: text("eval-text") == f"South {signed(move['value'])}")
        self.assertIn(f"value {signed(-move['value'])}", text("status"))
        self.assertNotIn("estimate", self.script(  # the graph's last point is exact
            "return [...document.querySelectorAll('#graph circle')].pop().getAttribute('class')"))

    def test_bounds_that_meet_are_a_value(self):
        # Beyond the database (Kalah(6,6)) while its search runs, the bounds it has proven, set
        # in the page and drawn in the same script (the next progress would redraw them): the
        # position's, and pit 1's, meet; the other moves' do not.
        self.browser.get(self.url + "?pits=6&seeds=6")
        WebDriverWait(self.browser, 10).until(
            lambda b: "estimate" in b.find_element(By.ID, "status").text)
        status, moves = self.script("""
            state.value = null;
            state.proven = {lower: 3, upper: 3};
            state.bounds = state.moves.moves.map(m => m.pit === 1
                ? {pit: 1, lower: -4, upper: -4} : {pit: m.pit, lower: -2, upper: 9});
            showAnswer();
            return [document.getElementById('status').textContent,
                    [...document.querySelectorAll('#moves li')]
                        .map(li => li.textContent.trim())];""")
        self.assertIn("value +3 (win)", status)
        self.assertNotIn("value in", status)
        self.assertNotIn("estimate", status)
        self.assertIn("pit 1 -4", moves)
        self.assertTrue(all("≈" in m and "in -2…+9" in m for m in moves if m != "pit 1 -4"),
                        moves)


if __name__ == "__main__":
    unittest.main(verbosity=2)
