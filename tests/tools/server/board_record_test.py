"""Game records with headers, comments and variations, and their review (ctest:
board_record_test), in headless Chromium: a game the board exports is the text Python's
kalah.Game reads and writes back unchanged, and a record Python writes the board imports and
exports unchanged; "analyse this game" reviews what is not proven, and stops.

usage: python3 board_record_test.py KALAH_EXECUTABLE   (kalah's Python module on PYTHONPATH)
"""
import sys
import unittest

from selenium.webdriver.common.by import By

from browser_session import BoardCase

BoardCase.exe = sys.argv.pop(1)
try:
    import kalah
except ImportError:  # the Python module is not built: nothing to compare with
    kalah = None


class Records(BoardCase):
    def comment(self, text):
        box = self.browser.find_element(By.ID, "comment")
        box.clear()
        box.send_keys(text)

    def exported(self):
        self.script("$('record-panel').open = true")
        self.click("#export")
        return self.browser.find_element(By.ID, "record-text").get_attribute("value")

    @unittest.skipIf(kalah is None, "kalah's Python module is not built")
    def test_the_board_and_python_read_each_others_records(self):
        # The main line S:3-6 N:2 and a variation S:1 N:4, comments on two turns, the players.
        self.open("moves=S:3-6+N:2&lines=S:1+N:4")
        self.wait(lambda: self.history() == ["S:3-6", "N:2"])
        self.comment("the book's {best}")  # braces cannot be held: a space instead
        self.script("goTo(path()[2])")  # the end of S:3-6
        self.comment("an extra turn")
        self.script("goTo(leaves()[1])")  # the variation's end
        self.comment("gives away the game")
        self.script("$('record-panel').open = true")
        for side, name in (("south", "Ada"), ("north", "kalah (strong)")):
            self.browser.find_element(By.ID, f"{side}-name").send_keys(name)
        text = self.exported()
        self.assertIn("south: Ada\nnorth: kalah (strong)\ndate: ", text)
        self.assertIn("moves: S:3-6 {an extra turn} N:2 {the book's best}\n", text)
        self.assertIn("lines: S:1 N:4 {gives away the game}\n", text)
        game = kalah.Game.from_text(text)
        self.assertEqual(game.text(), text)
        self.assertEqual((game.record(), game.comments, game.headers["south"]),
                         ("S:3-6 N:2", {2: "an extra turn", 3: "the book's best"}, "Ada"))
        self.assertEqual([v.record() for v in game.variations], ["S:1 N:4"])

        # Python's record, changed, imported by the board and exported again: the same text.
        game.comments[3] = "North's only sensible answer"
        game.headers["result"] = "unfinished"
        game.variations.append(kalah.Game.from_record("S:2 {quiet} N:1", game.start))
        self.browser.execute_script("arguments[0].value = arguments[1]; $('import').click()",
                                    self.browser.find_element(By.ID, "record-text"), game.text())
        self.wait(lambda: self.exported() == game.text(), seconds=10)  # once it is imported

    def test_analyse_this_game_reviews_what_is_not_proven(self):
        # Kalah(6,4) over 14 seeds: the first review's 300 ms prove none of these positions.
        # The deeper review asks each for 2 s, says how far it is, and can be stopped.
        self.open("moves=S:1+N:1+S:2")
        note = lambda: self.browser.find_element(By.ID, "review-note").text
        self.script("$('review-budget').value = '2000'")
        self.click("#deep-review")
        self.wait(lambda: note().startswith("position 1 of "), seconds=5)
        total = int(note().split(" of ")[1].split(",")[0])
        self.assertGreaterEqual(total, 2)
        self.click("#deep-review")  # stop
        self.wait(lambda: note().startswith("stopped: "), seconds=5)
        self.click("#deep-review")  # again, to its end
        self.wait(lambda: note().startswith("reviewed the "), seconds=5 + 3 * total)
        self.assertRegex(note(), r"^reviewed the \d+ positions? not proven before: \d+ proven$")


if __name__ == "__main__":
    unittest.main(verbosity=2)
