"""`kalah serve` under load and abuse (ctest: serve_load_test), loopback only, bounded in time.

While 200 idle connections, 20 clients sending a header byte at a time and 20 long searches are
held against it, database answers stay under 50 ms (p99 of 100; 150 sanitized); slow and idle
clients are cut off at the request timeout; oversized headers get 431, other methods 405, ranges
are not served; the memory after floods returns near its start; SIGTERM stops running searches and
the server within a second. On one thread, a second tab's analysis answers within its own budget
while a first tab's long search runs, and moves, database answers and cancels stay under 50 ms.

usage: python3 serve_load_test.py KALAH_EXECUTABLE
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

EXE = sys.argv.pop(1)
TIMEOUT_MS = 3000
# What "answers promptly" allows: 50 ms, three times that under AddressSanitizer, which slows
# the server 2-3x (a p99 of 52 ms there on 2 loaded cores); a blocked answer waits seconds.
SANITIZED = os.environ.get("KALAH_SANITIZED") == "1"
PROMPT_MS = 150 if SANITIZED else 50


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


class ServeLoad(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        subprocess.run([EXE, "build", "--db", cls.tmp.name, "--pits", "4", "--max-seeds", "10"],
                       check=True, capture_output=True)
        cls.server = subprocess.Popen(
            [EXE, "serve", "--db", cls.tmp.name, "--port", "0", "--json", "--threads", "2",
             "--budget-ms", "8000", "--timeout-ms", str(TIMEOUT_MS)],
            stdout=subprocess.PIPE, text=True)
        cls.url = json.loads(cls.server.stdout.readline())["url"]
        cls.port = int(cls.url.rsplit(":", 1)[1].strip("/"))

    @classmethod
    def tearDownClass(cls):
        if cls.server.poll() is None:
            cls.server.kill()
            cls.server.wait()
        cls.tmp.cleanup()

    def raw(self, request, read=True):
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
            s.sendall(request)
            if not read:
                return b""
            data = b""
            while chunk := s.recv(65536):
                data += chunk
            return data

    def status_of(self, request):
        return int(self.raw(request).split(b" ", 2)[1])

    def db_answer_ms(self, i):
        # 100 different positions of at most 10 seeds (no answer from the cache).
        pits = [(i >> k) & 1 for k in range(6)] + [2, 2]
        pos = ",".join(map(str, pits[:4])) + "/" + ",".join(map(str, pits[4:])) + f"/{i},0"
        t0 = time.monotonic()
        with urllib.request.urlopen(f"{self.url}api/v1/analyse?position={pos}", timeout=10) as r:
            answer = json.loads(r.read())
        self.assertEqual(answer["source"], "database")
        return (time.monotonic() - t0) * 1000

    def test_1_database_answers_stay_fast_under_abuse(self):
        stop = threading.Event()
        idle = [socket.create_connection(("127.0.0.1", self.port)) for _ in range(200)]

        def slow_header():
            try:
                with socket.create_connection(("127.0.0.1", self.port)) as s:
                    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                    while not stop.is_set():
                        s.sendall(b"a")
                        time.sleep(0.2)
            except OSError:
                pass  # cut off by the server's timeout

        def long_search(i):
            pos = f"6,6,6,6,6,{i % 6 + 1}/6,6,6,6,6,6/0,0"
            try:
                urllib.request.urlopen(f"{self.url}api/v1/analyse?position={pos}",
                                       timeout=30).read()
            except OSError:
                pass

        threads = [threading.Thread(target=slow_header) for _ in range(20)]
        threads += [threading.Thread(target=long_search, args=(i,)) for i in range(20)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        latencies = sorted(self.db_answer_ms(i) for i in range(100))
        stop.set()
        p99 = latencies[98]
        print(f"database answers under load: median {latencies[50]:.1f} ms, p99 {p99:.1f} ms, "
              f"max {latencies[-1]:.1f} ms")
        self.assertLess(p99, PROMPT_MS)
        # Idle and slow connections are closed by the server at the request timeout.
        time.sleep(TIMEOUT_MS / 1000 + 0.5)
        for s in idle:
            s.settimeout(2)
            self.assertEqual(s.recv(1), b"", "an idle connection was kept past the timeout")
            s.close()
        for t in threads:
            t.join(timeout=30)

    def test_2_limits_and_methods(self):
        self.assertEqual(self.status_of(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 +
                                        b"\r\n\r\n"), 431)
        many = b"".join(b"X-%d: 1\r\n" % i for i in range(5000))
        self.assertEqual(self.status_of(b"GET / HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n"), 431)
        for method in (b"POST", b"OPTIONS", b"PUT", b"DELETE"):
            self.assertEqual(self.status_of(method + b" /api/v1/analyse HTTP/1.1\r\nHost: x\r\n"
                                            b"Content-Length: 0\r\nConnection: close\r\n\r\n"), 405)
        self.assertEqual(self.status_of(b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\n"
                                        b"Connection: close\r\n\r\n"), 204)
        # Bytes that are not UTF-8 in the path and in a parameter: the errors are valid JSON.
        for target in (b"/\xff\xfe", b"/api/v1/analyse?position=1,\xff/2",
                       b"/api/v1/analyse?\xc3=1"):
            answer = self.raw(
                b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            body = answer.split(b"\r\n\r\n", 1)[1]
            self.assertIn("error", json.loads(body.decode("utf-8", errors="strict")), target)
        page = self.raw(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        ranged = self.raw(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nRange: bytes=" +
                          b",".join([b"0-"] * 1000) + b"\r\n\r\n")
        self.assertEqual(len(ranged), len(page), "a multi-range request amplified the answer")

    def test_3_memory_returns_after_floods(self):
        before = rss_kib(self.server.pid)
        for _ in range(3):
            threads = [threading.Thread(target=self.raw, args=(
                b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 15000
                + b"\r\nConnection: close\r\n\r\n",))
                for _ in range(100)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        after = rss_kib(self.server.pid)
        print(f"resident memory: {before} KiB before 300 requests with 15 KB of headers, "
              f"{after} after")
        if os.environ.get("KALAH_SANITIZED") != "1":  # AddressSanitizer keeps what is freed
            self.assertLess(after, before + 32 * 1024)

    def test_5_sigterm_stops_running_searches_at_once(self):
        searches = [threading.Thread(target=lambda: self.raw(
            b"GET /api/v1/analyse?position=6,6,6,6,6,6/6,6,6,6,6,6/0,0 HTTP/1.1\r\n"
            b"Host: x\r\n\r\n"))
            for _ in range(3)]
        for t in searches:
            t.start()
        time.sleep(1.0)
        sent = time.monotonic()
        self.server.send_signal(signal.SIGTERM)
        self.server.wait(timeout=10)
        took = time.monotonic() - sent
        print(f"SIGTERM with searches running: exited in {took * 1000:.0f} ms")
        self.assertLess(took, 1.0)
        self.assertEqual(self.server.returncode, 0)

    def test_4_budgeted_analyses_answer_in_time_and_database_answers_stay_fast(self):
        # 150 analyses at once, each with a budget of 2 s: every one answered within 1.5 times
        # its budget (with bounds when it found no search slot), database answers prompt meanwhile.
        budget = 2000
        times = []

        def analysis(i):
            pos = f"6,6,6,6,{i % 6 + 1},{i // 6 % 6 + 1}/6,6,6,6,6,6/0,0"
            t0 = time.monotonic()
            with urllib.request.urlopen(f"{self.url}api/v1/analyse?position={pos}"
                                        f"&budget_ms={budget}", timeout=30) as r:
                answer = json.loads(r.read())
            times.append((time.monotonic() - t0) * 1000)
            self.assertTrue(answer["interrupted"] or answer["source"] == "search", answer)

        threads = [threading.Thread(target=analysis, args=(i,)) for i in range(150)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        latencies = sorted(self.db_answer_ms(i) for i in range(100))
        for t in threads:
            t.join(timeout=30)
        times.sort()
        print(f"150 analyses of budget {budget} ms: median {times[len(times) // 2]:.0f} ms, "
              f"max {times[-1]:.0f} ms; database answers meanwhile: median "
              f"{latencies[50]:.1f} ms, p99 {latencies[98]:.1f} ms", file=sys.stderr)
        self.assertEqual(len(times), 150)
        self.assertLess(times[-1], 1.5 * budget * (2 if SANITIZED else 1))
        self.assertLess(latencies[98], PROMPT_MS)


class Fairness(unittest.TestCase):
    """Two tabs on a one-thread server: neither starves the other."""

    def test_a_second_tabs_search_is_not_held_by_the_first(self):
        with tempfile.TemporaryDirectory() as db:
            subprocess.run([EXE, "build", "--db", db, "--pits", "4", "--max-seeds", "8"],
                           check=True, capture_output=True)
            server = subprocess.Popen([EXE, "serve", "--db", db, "--port", "0", "--json",
                                       "--threads", "1", "--max-budget-ms", "60000"],
                                      stdout=subprocess.PIPE, text=True)
            try:
                self.tabs(json.loads(server.stdout.readline())["url"])
            finally:
                server.kill()
                server.wait()

    def test_a_short_budget_is_kept_while_every_slot_is_busy(self):
        # serve --threads 2 runs 8 searches at once: a ninth, of 200 ms, waits for a slot within
        # its budget and then answers with what it has (it used to wait for a slot to free).
        with tempfile.TemporaryDirectory() as db:
            server = subprocess.Popen([EXE, "serve", "--db", db, "--port", "0", "--json",
                                       "--threads", "2"], stdout=subprocess.PIPE, text=True)
            try:
                url = json.loads(server.stdout.readline())["url"]
                busy = [threading.Thread(target=urllib.request.urlopen, args=(
                    f"{url}api/v1/analyse?position=6,6,6,6,6,{i + 1}/6,6,6,6,6,6&budget_ms=3000",),
                    kwargs={"timeout": 30}) for i in range(8)]
                for t in busy:
                    t.start()
                time.sleep(0.5)
                t0 = time.monotonic()
                with urllib.request.urlopen(f"{url}api/v1/analyse?position=5,5,5,5,5,5/"
                                            "5,5,5,5,5,5&budget_ms=200", timeout=30) as r:
                    answer = json.loads(r.read())
                took = time.monotonic() - t0
                for t in busy:
                    t.join(timeout=30)
            finally:
                server.kill()
                server.wait()
        print(f"a 200 ms analysis beside 8 busy ones: {took * 1000:.0f} ms", file=sys.stderr)
        self.assertTrue(answer["interrupted"], answer)
        self.assertLess(took, 0.5 * (2 if SANITIZED else 1))

    def test_a_search_stops_when_its_client_leaves(self):
        # A page closed mid-search closes its connection: the search stops at once (before,
        # it ran on until its budget: 45-50 s of a core for a board's 60 s analysis).
        with tempfile.TemporaryDirectory() as db:
            server = subprocess.Popen([EXE, "serve", "--db", db, "--port", "0", "--json",
                                       "--max-budget-ms", "60000"],
                                      stdout=subprocess.PIPE, text=True)
            try:
                url = json.loads(server.stdout.readline())["url"]
                port = int(url.rsplit(":", 1)[1].strip("/"))

                def running():
                    with urllib.request.urlopen(f"{url}api/v1/progress?search=gone") as r:
                        return json.loads(r.read()).get("running", True)

                client = socket.create_connection(("127.0.0.1", port), timeout=10)
                client.sendall(b"GET /api/v1/analyse?position=6,6,6,6,6,6/6,6,6,6,6,6"
                               b"&search=gone&budget_ms=60000 HTTP/1.1\r\nHost: x\r\n\r\n")
                deadline = time.monotonic() + 10
                while not running() and time.monotonic() < deadline:
                    time.sleep(0.05)
                self.assertTrue(running())
                time.sleep(0.5)
                client.close()
                left = time.monotonic()
                while running() and time.monotonic() < left + 10:
                    time.sleep(0.02)
                took = time.monotonic() - left
                cpu = cpu_seconds(server.pid)
                time.sleep(1.0)
                cpu = cpu_seconds(server.pid) - cpu
            finally:
                server.kill()
                server.wait()
        print(f"a search whose client left: stopped in {took * 1000:.0f} ms, then "
              f"{cpu:.2f} s of CPU in a second", file=sys.stderr)
        self.assertLess(took, 1.0)
        self.assertLess(cpu, 0.1)

    def tabs(self, url):
        def get(path):
            with urllib.request.urlopen(url + path, timeout=60) as r:
                return json.loads(r.read())
        first = {}
        a = threading.Thread(target=lambda: first.update(get(
            "api/v1/analyse?position=6,6,6,6,6,6/6,6,6,6,6,6&search=tabA&budget_ms=30000")))
        a.start()
        time.sleep(0.5)
        start = time.monotonic()
        second = get("api/v1/analyse?position=5,5,5,5,5,5/5,5,5,5,5,5&search=tabB"
                     "&budget_ms=2000")
        self.assertLess(time.monotonic() - start, 6, "the second tab waited for the first")
        self.assertIn("lower", second)
        latencies = []
        for path in ("api/v1/moves?position=6,6,6,6,6,6/6,6,6,6,6,6",
                     "api/v1/analyse?position=1,0,2,1/0,1,1,2&pits=4",  # in the database
                     "api/v1/progress?search=tabA"):
            for _ in range(10):
                t = time.monotonic()
                get(path)
                latencies.append(time.monotonic() - t)
        t = time.monotonic()
        self.assertTrue(get("api/v1/cancel?search=tabA")["cancelled"])
        latencies.append(time.monotonic() - t)
        a.join(timeout=30)
        self.assertTrue(first.get("interrupted"), first)
        latencies.sort()
        print(f"on one thread beside a search: median {latencies[len(latencies) // 2] * 1000:.1f}"
              f" ms, worst {latencies[-1] * 1000:.1f} ms", file=sys.stderr)
        self.assertLess(latencies[-1] * 1000, PROMPT_MS)


if __name__ == "__main__":
    unittest.main()
