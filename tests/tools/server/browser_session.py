"""The shared fixture of the browser tests (browser_test.py, board_review_test.py,
board_book_test.py): a database of standard Kalah (14 seeds unless a test asks for more, and
a book if it asks for one), `kalah serve` over it and headless Chromium from Debian
(chromium, chromium-driver) driven by python3-selenium; helpers that read what the board shows.
"""
import json
import os
import subprocess
import tempfile
import unittest
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

START = "3,0,2,1,0,2/1,2,0,1,2,0/16,18"  # a Kalah(6,4) endgame: 14 seeds on the pits


class BoardCase(unittest.TestCase):
    exe = None  # the kalah executable, set by the test script
    max_seeds = 14  # the database's
    book = None  # `kalah book build` arguments, e.g. a Kalah(6,4) book of the start

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        subprocess.run([cls.exe, "build", "--db", cls.tmp.name, "--max-seeds", str(cls.max_seeds)],
                       check=True, capture_output=True)
        env = None  # ctest's: KALAH_STORE=off, no answer store
        if cls.book:  # kept in the answer store, which the server must then read
            env = {k: v for k, v in os.environ.items() if k != "KALAH_STORE"}
            subprocess.run([cls.exe, "book", "build", "--db", cls.tmp.name, *cls.book], check=True,
                           capture_output=True, env=env)
        cls.server = subprocess.Popen([cls.exe, "serve", "--db", cls.tmp.name, "--port", "0",
                                       "--json"], stdout=subprocess.PIPE, text=True, env=env)
        cls.url = json.loads(cls.server.stdout.readline())["url"]
        options = Options()
        for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                    "--window-size=1000,820"]:
            options.add_argument(arg)
        cls.browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.server.terminate()
        cls.server.wait(timeout=30)
        cls.tmp.cleanup()

    def api(self, position):
        q = urllib.parse.urlencode({"position": position})
        with urllib.request.urlopen(f"{self.url}api/v1/analyse?{q}", timeout=60) as r:
            return json.loads(r.read())

    def shown_values(self):
        """{pit: value} of the player to move, as the board shows them, once it shows them."""
        WebDriverWait(self.browser, 30).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, ".pit.playable .value"))
        shown = self.browser.execute_script(  # in one script: the board redraws as it sows
            "return [...document.querySelectorAll('.pit.playable')]"
            ".map(e => [+e.dataset.pit, (e.querySelector('.value') || {}).textContent])")
        return {pit: int(value) if value and value.lstrip("+-").isdigit() else value
                for pit, value in shown}

    def click(self, css):
        """Clicks the element, again if the board was redrawn under it (bounds, values)."""
        def attempt(_):
            try:
                self.browser.find_element(By.CSS_SELECTOR, css).click()
                return True
            except StaleElementReferenceException:
                return False
        WebDriverWait(self.browser, 10).until(attempt)

    def shown_position(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.browser.current_url).query)
        return query.get("position", [None])[0]  # none while a game record is replayed

    def expect(self, answer):
        self.assertEqual(self.shown_values(), {m["pit"]: m["value"] for m in answer["moves"]})
        self.assertEqual(self.shown_position(), answer["absolute"])
        WebDriverWait(self.browser, 30).until(
            lambda b: f"value {'+' if answer['value'] > 0 else ''}{answer['value']}"
            in b.find_element(By.ID, "status").text)

    def moves(self, position, url=None):
        """/api/v1/moves's answer for a position (standard rules)."""
        q = urllib.parse.urlencode({"position": position})
        with urllib.request.urlopen(f"{url or self.url}api/v1/moves?{q}", timeout=10) as r:
            return json.loads(r.read())

    def script(self, code):
        """Runs JavaScript in the page and returns its value: what it reads is read at once."""
        return self.browser.execute_script(code)

    def params(self):
        """The page's address parameters, one value each."""
        q = urllib.parse.parse_qs(urllib.parse.urlparse(self.browser.current_url).query)
        return {k: v[0] for k, v in q.items()}

    def history(self):
        """The game record as the page lists it, a word a turn."""
        return self.browser.find_element(By.ID, "history").text.split()

    def wait(self, condition, seconds=30):
        WebDriverWait(self.browser, seconds).until(lambda _: condition())

    def open(self, query):
        """The board at ?QUERY, once it shows the position's moves or answer."""
        self.browser.get(self.url + "?" + query)
        self.wait(lambda: self.script("return !!(state.moves || state.answer)"))
