"""The analysis board of `kalah serve` in a real browser (ctest: browser_test): headless Chromium
from Debian (chromium, chromium-driver) driven by python3-selenium loads the page, checks every
move's value against the API, clicks a pit, checks the new position and its values, loads the
shared URL in a fresh page, undoes and redoes with the keyboard, and saves a screenshot; on a
one-thread server, plays moves of the Kalah(6,4) start before any value has arrived; replays a
game record (S:3-6 N:2) from the address and refuses one that cannot be played; plays a
game against the computer to the end and replays it from the address; beyond the database
(the Kalah(6,6) start), shows an estimate with its depth, the bounds and the time at once, and
"best move" plays the estimate's best, said not to be proven; the engine's three best lines
with a depth that only grows, the evaluation bar, a line's turn played by a click, and stop,
which ends the server's work within a second, and go on.

usage: python3 browser_test.py KALAH_EXECUTABLE SCREENSHOT.png
"""
import json
import os
import subprocess
import sys
import time
import unittest
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from browser_session import BoardCase, START

EXE, SCREENSHOT = sys.argv.pop(1), sys.argv.pop(1)
BoardCase.exe = EXE


class Board(BoardCase):
    def test_play_share_undo(self):
        b = self.browser
        b.get(self.url + "?" + urllib.parse.urlencode({"position": START}))
        start = self.api(START)
        self.expect(start)

        best = int(start["best_line"][0][2:].split("-")[0])  # "S:3-6": pit 3
        b.find_element(By.CSS_SELECTOR, f'.pit.playable[data-pit="{best}"]').click()
        after = self.api(next(m for m in start["moves"] if m["pit"] == best)["absolute"])
        self.expect(after)
        b.save_screenshot(SCREENSHOT)

        body = b.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_LEFT)  # undo
        WebDriverWait(b, 30).until(lambda _: self.shown_position() == start["absolute"])
        self.expect(start)
        body.send_keys(Keys.ARROW_RIGHT)  # redo
        WebDriverWait(b, 30).until(lambda _: self.shown_position() == after["absolute"])
        self.expect(after)

        shared = b.current_url  # the rules, the start and the moves are in it, readable
        self.assertNotIn("%2C", shared)
        self.assertIn("moves=S:", shared)
        b.get("about:blank")
        b.get(shared)
        self.expect(after)
        self.assertEqual(b.find_element(By.ID, "history").text.split(), [f"S:{best}"])

    def test_keyboard_plays_a_pit(self):
        b = self.browser
        b.get(self.url + "?" + urllib.parse.urlencode({"position": START}))
        start = self.api(START)
        self.expect(start)
        pit = min(m["pit"] for m in start["moves"])
        b.find_element(By.TAG_NAME, "body").send_keys(str(pit))
        target = next(m for m in start["moves"] if m["pit"] == pit)["absolute"]
        WebDriverWait(b, 30).until(lambda _: self.shown_position() == target)
        self.expect(self.api(target))

    def test_a_game_record_in_the_address_is_replayed(self):
        b = self.browser
        # Kalah(6,4): South's 3 ends in the store (an extra turn), then 6; North's 2.
        b.get(self.url + "?moves=S:3-6+N:2")
        position = "4,4,4,4,4,4,0,4,4,4,4,4,4,0,S"
        for pit in (3, 6, 2):
            q = urllib.parse.urlencode({"position": position})
            with urllib.request.urlopen(f"{self.url}api/v1/moves?{q}", timeout=10) as r:
                position = next(m for m in json.loads(r.read())["moves"]
                                if m["pit"] == pit)["absolute"]
        WebDriverWait(b, 10).until(lambda _: self.shown_position() == position)
        self.assertEqual(b.find_element(By.ID, "history").text.split(), ["S:3-6", "N:2"])
        numbers = b.execute_script(  # in pairs, as lichess: "1. S:3-6 N:2"
            "return [...document.querySelectorAll('#history li')].map(li => li.dataset.number)")
        self.assertEqual(numbers, ["1.", None])
        self.assertIn("moves=S:3-6+N:2", b.current_url)
        b.get(self.url + "?moves=S:3-6+S:1")  # not South's turn after 3-6
        WebDriverWait(b, 10).until(
            lambda _: "cannot be played" in b.find_element(By.ID, "url-error").text)

    def test_a_game_against_the_computer_to_the_end(self):
        # South (the test) plays random legal pits of a database endgame; the computer, North,
        # answers each turn with a perfect move, so South never ends above the start's value.
        import random
        rng = random.Random(7)
        b = self.browser
        b.get(self.url + "?" + urllib.parse.urlencode({"position": START}))
        start = self.api(START)
        Select(b.find_element(By.ID, "computer")).select_by_value("North")
        status = lambda: b.find_element(By.ID, "status").text
        for _ in range(60):
            WebDriverWait(b, 30).until(
                lambda _: "game over" in status() or
                (self.shown_position() or "").endswith(",S") and
                b.find_elements(By.CSS_SELECTOR, ".pit.playable"))
            if "game over" in status():
                break
            position = self.shown_position()
            pits = b.execute_script(  # at once: the board may be redrawn meanwhile
                "return [...document.querySelectorAll('.pit.playable')].map(e => +e.dataset.pit)")
            self.click(f'.pit.playable[data-pit="{rng.choice(pits)}"]')
            WebDriverWait(b, 30).until(lambda _: self.shown_position() != position)
        self.assertIn("game over", status())
        note = b.find_element(By.ID, "computer-note").text
        self.assertRegex(note, r"computer \(North, strong\) played \d(-\d)*: perfect \(database\)")
        # The final margin for South, from the last position's stores.
        bins = list(map(int, self.shown_position().split(",")[:-1]))
        m = (len(bins) - 2) // 2
        south = sum(bins[:m + 1])
        north = sum(bins[m + 1:])
        self.assertLessEqual(south - north, start["value"])
        # The whole game is in the address and replays from it.
        record = b.find_element(By.ID, "history").text.split()
        self.assertTrue(any(t.startswith("N:") for t in record))
        shared = b.current_url
        Select(b.find_element(By.ID, "computer")).select_by_value("nobody")
        b.get("about:blank")
        b.get(shared)
        WebDriverWait(b, 30).until(
            lambda _: b.find_element(By.ID, "history").text.split() == record)

    def test_moves_are_played_before_any_value_arrives(self):
        # A one-thread server and the default page, the start of Kalah(6,4): its values take a
        # long search over this small database, but the pits can be played at once.
        server = subprocess.Popen([EXE, "serve", "--db", self.tmp.name, "--port", "0", "--json",
                                   "--threads", "1"], stdout=subprocess.PIPE, text=True)
        try:
            url = json.loads(server.stdout.readline())["url"]
            b = self.browser
            loaded = time.monotonic()
            b.get(url)
            playable = lambda _: b.find_elements(By.CSS_SELECTOR, ".pit.playable")
            WebDriverWait(b, 10).until(playable)
            print(f"first pit playable {time.monotonic() - loaded:.2f} s after the page was "
                  "asked for", file=sys.stderr)
            for pit in (3, 6, 1):  # 3 earns South an extra turn; 6 and 1 then pass the turn
                self.assertFalse(b.find_elements(
                    By.CSS_SELECTOR, ".pit .value:not(.bounds):not(.estimate)"), "values arrived")
                before = self.shown_position()
                q = urllib.parse.urlencode({"position": before})
                with urllib.request.urlopen(f"{url}api/v1/moves?{q}", timeout=10) as r:
                    moves = json.loads(r.read())["moves"]
                self.click(f'.pit.playable[data-pit="{pit}"]')
                target = next(m for m in moves if m["pit"] == pit)["absolute"]
                WebDriverWait(b, 10).until(lambda _: self.shown_position() == target)
                WebDriverWait(b, 10).until(playable)
            # Left on a position whose analysis takes this server some seconds, the bounds on
            # each move appear as they are proven, before the exact values; leaving the
            # position stops that search.
            b.get(url + "?position=4,3,4,3,3,3/3,3,4,3,3,4")
            shown = time.monotonic()
            WebDriverWait(b, 60).until(
                lambda _: b.find_elements(By.CSS_SELECTOR, "#moves li .muted"))
            print(f"first bounds {time.monotonic() - shown:.1f} s after the position was shown",
                  file=sys.stderr)
            running = lambda search: search and json.loads(urllib.request.urlopen(
                f"{url}api/v1/progress?search={search}", timeout=10).read()).get("running")
            # The page's search: the value's, or the full analysis's that follows it (the name
            # changes in between, before the server has the new one).
            search = WebDriverWait(b, 10).until(
                lambda _: (lambda s: s if running(s) else None)(
                    b.execute_script("return state.search")))
            self.click(".pit.playable")
            WebDriverWait(b, 10).until(lambda _: not running(search))
        finally:
            server.terminate()
            server.wait(timeout=30)
            server.stdout.close()

    def test_beyond_the_database_an_estimate_at_once(self):
        # The start of Kalah(6,6): 72 seeds over a 14-seed database, nothing proven for long.
        b = self.browser
        status = lambda: b.find_element(By.ID, "status").text
        b.get(self.url + "?position=6,6,6,6,6,6/6,6,6,6,6,6")
        loaded = time.monotonic()
        WebDriverWait(b, 10).until(lambda _: "estimate" in status())
        print(f"estimate shown {time.monotonic() - loaded:.2f} s after the page loaded",
              file=sys.stderr)
        self.assertLess(time.monotonic() - loaded, 2)
        self.assertRegex(status(), r"estimate [+-]?\d+ at depth \d+ · \d+\.\d s")
        WebDriverWait(b, 10).until(lambda _: "value in [" in status())
        # Read in one script: the board redraws as the estimate deepens.
        badges = b.execute_script("return [...document.querySelectorAll("
                                  "'.pit.playable .value.estimate')].map(e => e.textContent)")
        self.assertEqual(len(badges), 6)
        self.assertTrue(all(t.startswith("≈") for t in badges), badges)
        self.assertEqual(
            b.execute_script("return document.querySelectorAll('#moves li').length"), 6)
        self.assertFalse(b.find_element(By.ID, "line-panel").is_displayed())  # nothing proven
        before = self.shown_position()
        best = b.execute_script("return state.estimate.best")
        self.click("#step")  # the estimate's best move, said not to be proven
        WebDriverWait(b, 10).until(lambda _: self.shown_position() != before)
        self.assertIn(f"pit {best}", b.find_element(By.ID, "computer-note").text)
        self.assertIn("not proven", b.find_element(By.ID, "computer-note").text)

    def cpu_seconds(self):
        """The server's CPU time so far (user and system), from /proc."""
        with open(f"/proc/{self.server.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def test_the_engine_lines_and_stop(self):
        b = self.browser
        b.get(self.url + "?position=6,6,6,6,6,6/6,6,6,6,6,6")
        lines = lambda: b.execute_script(
            "return [...document.querySelectorAll('#engine-lines li')].map(e => e.textContent)")
        WebDriverWait(b, 10).until(lambda _: len(lines()) == 3)
        for text in lines():
            self.assertRegex(text, r"^≈[+-]?\d+ S:[1-6](-[1-6])*( N:[1-6](-[1-6])*)?")
        depths = []
        for _ in range(10):  # the depth shown never goes back, though searches start again
            depths.append(int(b.find_element(By.ID, "engine-depth").text.split()[-1]))
            time.sleep(0.2)
        self.assertEqual(depths, sorted(depths))
        self.assertTrue(b.execute_script("return state.estimate.line.length > 1"))
        bar = b.find_element(By.ID, "eval-bar")
        self.assertRegex(bar.text, r"^South ≈[+-]?\d+\nNorth$")  # both ends named
        self.assertRegex(bar.get_attribute("aria-valuetext"), r"^about [+-]?\d+ for South$")
        b.save_screenshot(SCREENSHOT.replace(".png", "-engine.png"))  # docs/board-engine.png

        toggle = b.find_element(By.ID, "engine-toggle")
        self.assertEqual(toggle.text, "stop")
        search = b.execute_script("return state.search")
        toggle.click()
        stopped = time.monotonic()
        self.assertEqual(toggle.text, "go on")
        progress = lambda name: json.loads(urllib.request.urlopen(
            f"{self.url}api/v1/progress?search={name}", timeout=10).read())
        WebDriverWait(b, 1).until(lambda _: not progress(search)["running"])
        time.sleep(max(0, stopped + 1 - time.monotonic()))
        before = self.cpu_seconds()
        time.sleep(1)
        self.assertLess(self.cpu_seconds() - before, 0.2, "the server still works")
        toggle.click()  # go on: a new search of the same position
        self.assertEqual(toggle.text, "stop")
        again = b.execute_script("return state.search")
        self.assertNotEqual(again, search)
        WebDriverWait(b, 5).until(lambda _: progress(again)["running"])

        # A line's turn plays the line up to it.
        start = self.shown_position()
        turn = b.execute_script(  # read and clicked at once: the lines are redrawn as they deepen
            "const t = document.querySelector('#engine-lines li .turn'); t.click();"
            "return t.textContent")
        pits = [int(p) for p in turn[2:].split("-")]
        position = start
        for pit in pits:
            position = next(m for m in self.moves(position)["moves"] if m["pit"] == pit)["absolute"]
        WebDriverWait(b, 10).until(lambda _: self.shown_position() == position)

    def test_the_clock_stops_when_the_search_ends(self):
        # Its request ends (here aborted; a budget running out ends it the same way): the time
        # in the status stays where it was, however often the status is drawn again.
        b = self.browser
        b.get(self.url + "?position=6,6,6,6,6,6/6,6,6,6,6,6")
        WebDriverWait(b, 10).until(lambda _: b.execute_script("return !!state.request"))
        time.sleep(0.5)
        b.execute_script("state.request.abort()")
        WebDriverWait(b, 5).until(lambda _: b.execute_script("return state.request === null"))
        clock = lambda: b.execute_script(  # the status's time
            "showAnswer(); return document.getElementById('status').textContent"
            ".match(/[0-9.]+ s$/)[0]")
        first = clock()
        time.sleep(1.2)
        self.assertEqual(clock(), first)

    def test_a_page_closed_mid_search_stops_its_search(self):
        # A second tab analyses Kalah(6,6) (a 60 s search), then is closed: within 2 s the
        # server's search has stopped and its CPU is idle (serve_load_test checks the same of a
        # client that only closes its connection).
        b = self.browser
        b.get("about:blank")  # no search of an earlier test's page
        home = b.current_window_handle
        b.switch_to.new_window("tab")
        b.get(self.url + "?position=6,6,6,6,6,6/6,6,6,6,6,6")
        WebDriverWait(b, 10).until(lambda _: b.execute_script("return state.search"))
        search = b.execute_script("return state.search")
        progress = lambda: json.loads(urllib.request.urlopen(
            f"{self.url}api/v1/progress?search={search}", timeout=10).read())
        WebDriverWait(b, 10).until(lambda _: progress()["running"])
        b.close()
        closed = time.monotonic()
        b.switch_to.window(home)
        while progress()["running"] and time.monotonic() < closed + 10:
            time.sleep(0.05)
        self.assertLess(time.monotonic() - closed, 2)
        before = self.cpu_seconds()
        time.sleep(1)
        self.assertLess(self.cpu_seconds() - before, 0.2, "the server still works")


if __name__ == "__main__":
    unittest.main()
