"""The analysis board as a lichess user uses it (ctest: board_review_test), in headless Chromium:
the computer's pits are locked while it thinks; a variation keeps the main line and round-trips
through the address, and can be promoted; a finished game shows the board swept and the final
score; every bad address parameter shows an error naming it and leaves the page usable; the
evaluation graph and the mistake marks of a finished database endgame agree with the API's exact
values; at 320 and 390 px with 1 to 8 pits, and at 1280 and 1920 px, nothing overflows and the
pits stay round under the widest badges; a short
game played with the keyboard alone; a game record exported and imported; a "fair start" is one
of `kalah fair`'s table for the game, and a game without one says so. Saves the screenshots
of docs/ (board-desktop.png, board-phone.png, board-review.png) in DIR.

usage: python3 board_review_test.py KALAH_EXECUTABLE DIR
"""
import json
import os
import sys
import unittest
import urllib.parse
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_session import BoardCase, START

BoardCase.exe, SHOTS = sys.argv.pop(1), sys.argv.pop(1)
# Marks by the seeds a turn gave away (tools/server/board_review.js, docs/board.md).
def mark(before, after):
    loss = max(0, before - after)
    worse = (after > 0) - (after < 0) < (before > 0) - (before < 0)
    return "??" if loss >= 6 or worse else "?" if loss >= 3 else "?!" if loss >= 1 else ""


class Review(BoardCase):
    def test_the_computer_cannot_be_played_for(self):
        self.open(urllib.parse.urlencode({"position": START, "computer": "North",
                                          "level": "perfect"}))
        first = self.script("return +document.querySelector('.pit.playable').dataset.pit")
        self.click(f'.pit.playable[data-pit="{first}"]')
        # While it thinks: its pits are locked, to clicks, keys and the page's own play().
        self.wait(lambda: self.script("return !!state.thinking && !!state.moves"))
        locked = self.script("""return [document.querySelectorAll('.pit.playable').length,
            [1,2,3,4,5,6].some(p => play(p)), document.getElementById('thinking').hidden,
            document.getElementById('thinking').textContent]""")
        self.assertEqual(locked[:3], [0, False, False])
        self.assertIn("the computer (North) is thinking", locked[3])
        # Then it plays its whole turn and names it (read at once, when its turn is over).
        self.wait(lambda: self.script("return !state.thinking && (current().endsWith(',S') || "
                                      "!!(state.moves && state.moves.finished))"), 60)
        note, turns = self.script("""return [document.getElementById('computer-note').textContent,
            [...document.querySelectorAll('#history li')].map(li => li.firstChild.textContent)]""")
        self.assertRegex(note, r"^computer \(North, perfect\) played [\d-]+: perfect")
        self.assertEqual("N:" + note.split("played ")[1].split(":")[0],
                         [t for t in turns if t.startswith("N:")][0])

    def test_a_fair_start_is_one_of_the_table(self):
        # Kalah(6,4), empty capture: one of FairKalah's starts at random
        # (tools/server/fair_starts.json).
        self.open(urllib.parse.urlencode({"position": START, "capture": "empty"}))
        Select(self.browser.find_element(By.ID, "pits")).select_by_value("6")
        self.script("document.getElementById('seeds').value = 4; newGame()")
        with urllib.request.urlopen(f"{self.url}fair_starts.json", timeout=10) as r:
            tables = json.load(r)["tables"]
        table = [t for t in tables if (t["pits"], t["seeds"], t["capture"]) == (6, 4, "empty")][0]
        self.click("#fair-start")
        self.wait(lambda: self.script("return state.root.position") in table["fair"])
        self.wait(lambda: self.params().get("position", "").endswith(",S"))
        self.assertIn(f"of {len(table['fair'])}",
                      self.script("return document.getElementById('computer-note').textContent"))
        # A game without a table says so, and keeps its start.
        Select(self.browser.find_element(By.ID, "pits")).select_by_value("2")
        before = self.script("return state.root.position")
        self.click("#fair-start")
        self.wait(lambda: "no fair start of Kalah(2," in
                  self.script("return document.getElementById('computer-note').textContent"))
        self.assertEqual(self.script("return state.root.position"), before)

    def test_a_variation_keeps_the_main_line_and_round_trips(self):
        self.open(urllib.parse.urlencode({"position": START}))
        body = self.browser.find_element(By.TAG_NAME, "body")
        pits = [m["pit"] for m in self.moves(self.api(START)["absolute"])["moves"]]
        for _ in range(3):  # three plies of the main line, the first legal pit each
            before = self.params()["position"]
            self.wait(lambda: self.script("return !!state.moves"))
            self.click(".pit.playable")
            self.wait(lambda: self.params()["position"] != before)
        main = self.params()["moves"]
        body.send_keys(Keys.HOME)
        self.wait(lambda: "moves" in self.params() and self.params().get("ply") == "0")
        self.wait(lambda: self.script("return !!state.moves"))
        other = pits[-1]
        self.click(f'.pit.playable[data-pit="{other}"]')
        self.wait(lambda: "lines" in self.params())
        p = self.params()
        self.assertEqual(p["moves"], main)  # the main line kept
        self.assertTrue(p["lines"].startswith(f"S:{other}"), p)
        self.assertEqual(p["line"], "1")
        shared = self.browser.current_url
        self.browser.get("about:blank")
        self.browser.get(shared)
        self.wait(lambda: self.history()[:1] == [f"S:{other}"])
        self.assertEqual(self.params()["moves"], main)
        buttons = self.script(
            "return [...document.querySelectorAll('.variation')].map(e => e.textContent)")
        self.assertEqual(buttons, ["main: " + main, p["lines"]])
        self.click("#promote")
        self.wait(lambda: self.params()["moves"] == p["lines"])
        self.assertEqual(self.params()["lines"], main)

    def test_the_end_of_a_game_shows_the_swept_score(self):
        # South's row is empty: North's 6 seeds go to North's store, 12 + 6 = 18 against 10.
        self.open("position=0,0,0,0,0,0,10,1,2,3,0,0,0,12,S")
        status = lambda: self.browser.find_element(By.ID, "status").text
        self.wait(lambda: "game over" in status())
        self.assertEqual(status(), "game over: South 10, North 18: North wins by 8")
        self.wait(lambda: self.script("return !state.sowing"))
        shown = self.script(
            "return [...document.querySelectorAll('#board .seeds')].map(e => +e.textContent)")
        self.assertEqual(sorted(shown), [0] * 12 + [10, 18])
        self.open("position=0,0,0,0,0,0,10,1,2,3,0,0,0,12,S&remainder=discard")
        self.wait(lambda: status() == "game over: South 10, North 12: North wins by 2")

    def test_every_bad_parameter_is_named_and_the_page_stays_usable(self):
        bad = {"moves=S:9": "there is no pit 9 (pits 1..6)", "moves=N:1": "moves",
               "pits=9&seeds=3": "pits=9: pits is 1..8", "pits=8&seeds=30": "seeds is 1..15",
               "position=garbage": "position=garbage",
               "capture=weird": "capture=weird", "end=never": "end=never",
               "remainder=x": "remainder=x", "level=god": "level=god",
               "computer=Bob": "computer=Bob",
               "flip=2": "flip=2", "moves=S:1&ply=99": "ply=99", "moves=S:1&line=5": "line=5",
               "lines=S:1;S:9": "lines", "start=1,2&moves=S:1": "start=1,2", "color=red": "'color'"}
        for query, named in bad.items():
            with self.subTest(query=query):
                self.browser.get(self.url + "?" + query)
                self.wait(lambda: self.browser.find_element(By.ID, "url-error").is_displayed())
                self.assertIn(named, self.browser.find_element(By.ID, "url-error").text)
                self.wait(lambda: self.script(
                    "return document.querySelectorAll('.pit.playable').length") > 0)
                shown = self.script("""return ['capture', 'end', 'remainder', 'computer', 'level']
                    .map(id => document.getElementById(id).value)""")
                self.assertIn(shown[0], ["standard", "empty"])
                self.assertIn(shown[1], ["immediate", "on-turn"])
                self.assertIn(shown[2], ["owner", "discard"])
                self.assertIn(shown[3], ["nobody", "North", "South"])
                self.assertNotEqual(shown[4], "")
                self.assertEqual(self.script("return document.getElementById('undo').disabled"),
                                 self.script("return !state.node.parent"))
                self.assertNotIn("error", self.browser.find_element(By.ID, "status").text)

    def test_graph_and_marks_of_a_finished_game(self):
        # A game of the database endgame: South plays its best, North its worst (marks), to the end.
        position, record, values = self.api(START)["absolute"], [], []
        while True:
            a = self.api(position)
            values.append(a["value"] if a["absolute"].endswith(",S") else -a["value"])
            if a.get("finished"):
                break
            south = position.endswith(",S")
            move = (max if south else min)(a["moves"], key=lambda m: (m["value"], -m["pit"]))
            side = "S" if south else "N"
            if record and record[-1][0] == side:
                record[-1][1].append(move["pit"])
            else:
                record.append((side, [move["pit"]]))
            position = move["absolute"]
        text = " ".join(f"{s}:" + "-".join(map(str, p)) for s, p in record)
        self.open(urllib.parse.urlencode({"position": START, "moves": text, "ply": 0}))
        plies = len(values) - 1
        circles = lambda: self.script("""return [...document.querySelectorAll('#graph circle')]
            .map(c => [+c.dataset.ply, +c.dataset.value, c.classList.contains('exact')])""")
        self.wait(lambda: len(circles()) == plies + 1, 60)
        self.assertEqual(circles(), [[i, v, True] for i, v in enumerate(values)])
        # Each turn's mark from the values before and after it, for the side that played it.
        expected, ply = [], 0
        for side, pits in record:
            sign = 1 if side == "S" else -1
            expected.append(mark(sign * values[ply], sign * values[ply + len(pits)]))
            ply += len(pits)
        self.wait(lambda: self.script(
            "return document.querySelectorAll('#history li').length") == len(record))
        shown = self.script("""return [...document.querySelectorAll('#history li')]
            .map(li => li.dataset.mark || '')""")
        self.assertEqual(shown, expected)
        self.assertTrue(any(expected))
        names = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}
        dots = self.script("""return [...document.querySelectorAll('#graph circle')]
            .map(c => ['inaccuracy', 'mistake', 'blunder'].find(k => c.classList.contains(k))
                      || '')""")
        ends = [sum(len(p) for _, p in record[:i + 1]) for i in range(len(record))]
        self.assertEqual([dots[e] for e in ends], [names.get(m, "") for m in expected])
        self.assertEqual(sum(map(bool, dots)), sum(map(bool, expected)))
        self.assertRegex(self.browser.find_element(By.ID, "accuracy").text,
                         r"South: (\d+) of \1 turns gave nothing away \(100%\), 0 seeds")
        self.browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        self.wait(lambda: "game over" in self.browser.find_element(By.ID, "status").text)
        self.browser.save_screenshot(os.path.join(SHOTS, "board-review.png"))

    def test_a_long_move_list_never_overlaps_and_hidden_values_are_hidden(self):
        # 30 turns of Kalah(6,6) (each ply the move that keeps the most seeds on the pits), at
        # 1280 and 390 px: no two entries of the move list overlap; with "hide values" no value,
        # result or bound is on the page.
        def on_pits(absolute):
            bins = [int(b) for b in absolute.split(",")[:-1]]
            return sum(bins) - bins[6] - bins[13]
        position, record = "6,6,6,6,6,6,0,6,6,6,6,6,6,0,S", []
        while len(record) < 30:
            m = self.moves(position)
            if m["finished"]:
                break
            move = max(m["moves"], key=lambda mv: (on_pits(mv["absolute"]), -mv["pit"]))
            side = "S" if position.endswith(",S") else "N"
            if record and record[-1][0] == side:
                record[-1][1].append(move["pit"])
            else:
                record.append((side, [move["pit"]]))
            position = move["absolute"]
        self.assertEqual(len(record), 30)
        text = " ".join(f"{s}:" + "-".join(map(str, p)) for s, p in record)
        for width in (1280, 390):
            with self.subTest(width=width):
                self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": 900, "deviceScaleFactor": 1,
                    "mobile": width < 600})
                self.open(urllib.parse.urlencode({"position": "6,6,6,6,6,6/6,6,6,6,6,6",
                                                  "moves": text}))
                self.wait(lambda: self.script(
                    "return document.querySelectorAll('#history li').length") == len(record))
                overlaps = self.script("""
                    const r = [...document.querySelectorAll('#history li')]
                      .map(li => li.getBoundingClientRect());
                    const out = [];
                    for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++)
                      if (r[i].left < r[j].right - 0.5 && r[j].left < r[i].right - 0.5 &&
                          r[i].top < r[j].bottom - 0.5 && r[j].top < r[i].bottom - 0.5)
                        out.push([i, j]);
                    return out""")
                self.assertEqual(overlaps, [])
        self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.open(urllib.parse.urlencode({"position": START, "moves": "S:1"}))
        self.wait(lambda: "value" in self.browser.find_element(By.ID, "status").text)
        self.click("#hide")
        shown = self.script("return document.body.innerText")
        self.assertNotRegex(shown, r"\b(win|loss|draw|value|estimate)\b|\u2248|\[[+-]?\d+, ")

    def test_a_start_by_its_numbers_and_a_seeds_box_that_keeps_the_game(self):
        self.open("pits=8&seeds=3")
        self.assertEqual(self.script("return state.root.position"),
                         ",".join(["3"] * 8 + ["0"] + ["3"] * 8 + ["0", "S"]))
        self.assertEqual(self.script("return [+$('pits').value, +$('seeds').value]"), [8, 3])
        before = self.script("return state.root.position")
        for typed in ("", "30"):  # empty, and over 254 / 16 = 15 for 8 pits
            self.script(f"$('seeds').value = '{typed}'; $('seeds').onchange()")
            self.assertEqual(self.script("return state.root.position"), before, typed)
            self.assertIn("seeds: give a whole number 1..15 for 8 pits",
                          self.script("return $('computer-note').textContent"))

    def test_phone_layouts(self):
        sizes = [(w, m) for w in (320, 390) for m in range(1, 9)] + [(w, m) for w in (1280, 1920)
                                                                     for m in (1, 6, 8)]
        for width, pits in sizes:
            with self.subTest(width=width, pits=pits):
                self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 600})
                row = ",".join(["4"] * pits)
                self.open(f"position={row}/{row}")
                # The widest badges there are: bounds on every pit.
                boxes = self.script("""
                    state.answer = null; state.estimate = null;
                    state.bounds =
                        state.moves.moves.map(m => ({pit: m.pit, lower: -44, upper: 48}));
                    drawBoard();
                    const box = e => e.getBoundingClientRect();
                    return { page: document.documentElement.scrollWidth, view: innerWidth,
                             pits: [...document.querySelectorAll('#board .pit')]
                                 .map(e => [box(e).width, box(e).height]),
                             stores: [...document.querySelectorAll('#board .store')]
                                 .map(e => [box(e).left, box(e).right]),
                             badges: document.querySelectorAll('.pit .value.bounds').length,
                             review: box(document.getElementById('review')).top,
                             board: box(document.getElementById('board')).bottom,
                             controls: box(document.getElementById('game-controls')).top }""")
                self.assertLessEqual(boxes["page"], boxes["view"], boxes)
                self.assertEqual(boxes["badges"], pits)
                for w, h in boxes["pits"]:
                    self.assertAlmostEqual(w, h, delta=1, msg=boxes)
                    self.assertAlmostEqual(w, boxes["pits"][0][0], delta=1, msg=boxes)
                for left, right in boxes["stores"]:
                    self.assertGreaterEqual(left, 0)
                    self.assertLessEqual(right, width)
                # On a phone the game's controls come right after the board, before the panels
                # (they sat below every panel: issue 61).
                self.assertGreater(boxes["review"], boxes["board"])
                if width < 600:
                    self.assertLess(boxes["board"], boxes["controls"])
                    self.assertLess(boxes["controls"], boxes["review"])
                if width == 390 and pits == 6:
                    self.browser.save_screenshot(os.path.join(SHOTS, "board-phone.png"))
        self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def test_keyboard_only(self):
        # Kalah(3,1) to its end: Tab to a pit and Enter once, then the number keys; ← → Home End.
        self.open("position=1,1,1/1,1,1")
        for _ in range(20):
            ActionChains(self.browser).send_keys(Keys.TAB).perform()
            if self.script("return !!(document.activeElement.dataset || {}).pit"):
                break
        before = self.params()["position"]
        ActionChains(self.browser).send_keys(Keys.ENTER).perform()
        self.wait(lambda: self.params()["position"] != before)
        for _ in range(12):
            self.wait(lambda: self.script("return !!state.moves"))
            if self.script("return !!state.moves.finished"):
                break
            pit = self.script("return state.moves.moves[0].pit")
            before = self.params()["position"]
            ActionChains(self.browser).send_keys(str(pit)).perform()
            self.wait(lambda: self.params()["position"] != before)
        self.wait(lambda: "game over" in self.browser.find_element(By.ID, "status").text)
        end = self.params()["position"]
        ActionChains(self.browser).send_keys(Keys.HOME).perform()
        self.wait(lambda: self.params()["position"] == "1,1,1,0,1,1,1,0,S")
        self.wait(lambda: self.script(  # pits a screen reader names and Tab reaches
            "return document.querySelectorAll("
            "'.pit[role=button][tabindex=\"0\"][aria-label]').length") == 3)
        ActionChains(self.browser).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.END).perform()
        self.wait(lambda: self.params()["position"] == end)

    def test_a_record_is_exported_and_imported(self):
        self.open(urllib.parse.urlencode({"start": START, "moves": "S:4 N:1", "lines": "S:3 N:1",
                                          "capture": "standard"}))
        self.wait(lambda: self.history()[:2] == ["S:4", "N:1"])
        self.browser.find_element(By.CSS_SELECTOR, "#record-panel summary").click()
        self.click("#export")
        text = self.browser.find_element(By.ID, "record-text").get_attribute("value")
        self.assertIn("moves: S:4 N:1", text)
        self.assertIn("lines: S:3 N:1", text)
        self.open("position=1,1,1/1,1,1")  # another game, then the record back
        self.script(f"importRecord({json.dumps(text)})")
        self.wait(lambda: self.params().get("moves") == "S:4 N:1")
        self.assertEqual(self.params()["lines"], "S:3 N:1")
        self.browser.set_window_size(1280, 900)
        self.browser.save_screenshot(os.path.join(SHOTS, "board-desktop.png"))


if __name__ == "__main__":
    unittest.main()
