"""`kalah kgp` against a KGP server written here (ctest: kgp_test): loopback, every wait bounded.
The client greets and asks for freeplay, answers ping, ignores unknown options; on database
positions it plays a perfect move (checked against `kalah query`) and yields; on the Kalah(6,6)
start and on an 11-pit board it moves legally before the server's stop; a board its database
cannot serve is searched without it; boards of millions of seeds yield within --time, and a stop
during their search leaves ping answered at once; malformed lines get a one-line complaint and
the client goes on; goodbye ends it with exit 0, a wrong version with 1. A first move the server
refuses (as go-kgp's race does) is sent again, after its comment, before the yield (verify mode:
kgp_verify_test.py).

usage: python3 kgp_test.py KALAH_EXECUTABLE
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import kgp_server
from kgp_server import Timeout, moves_for

EXE = sys.argv.pop(1)


def Server(*client_args):
    return kgp_server.Server(EXE, *client_args)


class Kgp(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.tmp.name, "db")
        subprocess.run([EXE, "build", "--db", cls.db, "--pits", "4", "--max-seeds", "14"],
                       check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_greeting_ping_and_goodbye(self):
        s = Server("--no-db", "--name", "kalah-under-test")
        before = s.greet()
        self.assertIn('set info:name "kalah-under-test"', before)
        cid = s.send('ping "hello"')
        s.expect(rf'@{cid} pong "hello"')
        s.send("set time:clock 5")
        s.send("set some:option-nobody-knows 1")
        cid = s.send("ping")
        s.expect(rf"@{cid} pong")
        s.send("goodbye")
        code, err = s.finish()
        self.assertEqual(code, 0, err)
        self.assertEqual(err, "")

    def test_database_positions_are_played_perfectly(self):
        s = Server("--db", self.db, "--time", "5")
        s.greet()
        boards = ["<4,0,0,3,3,3,3,3,3,3,3>", "<4,5,3,0,2,1,4,3,0,1,2>",
                  "<4,10,6,1,0,0,2,0,3,1,1>", "<4,2,9,0,0,4,1,0,2,2,0>"]
        for literal in boards:
            n, south, north, *pits = map(int, literal[1:-1].split(","))
            cid = s.send(f"state {literal}")
            moves, yielded = moves_for(s, cid)
            self.assertTrue(yielded and moves, literal)
            pit = moves[-1]
            self.assertGreater(pits[pit - 1], 0, literal)
            # kalah query on the same position (South to move, absolute bins).
            bins = pits[:n] + [south] + pits[n:] + [north]
            answer = json.loads(subprocess.run(
                [EXE, "query", "--db", self.db, "--search", "--json",
                 ",".join(map(str, bins)) + ",S"],
                check=True, capture_output=True, text=True).stdout)
            values = {mv["pit"]: mv["value"] for mv in answer["moves"]}
            self.assertEqual(values[pit], answer["value"], f"{literal}: pit {pit} of {values}")
        s.send("goodbye")
        self.assertEqual(s.finish()[0], 0)

    def test_big_boards_move_legally_before_stop(self):
        s = Server("--no-db", "--time", "30")
        s.greet()
        for literal, budget in [("<6,0,0," + ",".join(["6"] * 12) + ">", 2.0),
                                ("<11,3,4," + ",".join(str(i % 7) for i in range(22)) + ">", 1.0)]:
            pits = list(map(int, literal[1:-1].split(",")))[3:]
            cid = s.send(f"state {literal}")
            start = time.time()
            moves, yielded = moves_for(s, cid, stop_after=budget)
            self.assertFalse(yielded, literal)  # not proven in time: the stop ends it
            self.assertTrue(moves, f"no move for {literal} within {budget} s")
            self.assertTrue(all(pits[m - 1] > 0 and m <= len(pits) // 2 for m in moves), moves)
            cid = s.send("ping")  # still responsive, and silent about the stopped board
            _, before = s.expect(rf"@{cid} pong")
            self.assertLess(time.time() - start, budget + 5)
        s.send("goodbye")
        self.assertEqual(s.finish()[0], 0)

    def test_a_12_pit_board_gets_an_estimated_move_at_once(self):
        s = Server("--no-db", "--time", "30")
        s.greet()
        cid = s.send("state <12,0,0," + ",".join(["12"] * 24) + ">")
        start = time.time()
        while not (m := re.fullmatch(rf"@{cid} move (\d+)", s.read(5))):
            pass
        waited = time.time() - start
        print(f"first move {waited * 1000:.0f} ms after a 12 x 12 board", file=sys.stderr)
        self.assertLess(waited, 1.0)
        self.assertIn(int(m.group(1)), range(1, 13))
        s.send(f"@{cid} stop", with_id=True)
        s.send("goodbye")
        self.assertEqual(s.finish()[0], 0)

    def test_a_board_the_database_cannot_serve_is_searched_without_it(self):
        s = Server("--db", self.db, "--time", "2")  # pits 4 only
        s.greet()
        for literal in ("<3,0,0,1,2,3,3,2,1>", "<4,0,0,3,3,3,3,3,3,3,3>"):
            cid = s.send(f"state {literal}")
            moves, yielded = moves_for(s, cid)
            self.assertTrue(moves and yielded, literal)
        s.send("goodbye")
        code, err = s.finish()
        self.assertEqual(code, 0, err)
        self.assertIn("boards of 3 pits a row without a database", err)

    def test_huge_boards_yield_in_time_and_stop_is_answered_at_once(self):
        s = Server("--no-db", "--time", "1")
        s.greet()
        for literal in ("<8,0,0," + ",".join(["1000000"] * 16) + ">",
                        "<1000,0,0," + ",".join(["999999"] * 2000) + ">"):
            cid = s.send(f"state {literal}")
            start = time.time()
            moves, yielded = moves_for(s, cid)
            self.assertTrue(moves and yielded, literal[:20])
            self.assertLess(time.time() - start, 2.5, f"{literal[:20]}: yield after --time 1")
        s.send("goodbye")
        self.assertEqual(s.finish(timeout=10)[0], 0)
        s = Server("--no-db", "--time", "60")
        s.greet()
        for literal in ("<8,0,0," + ",".join(["1000000"] * 16) + ">",
                        "<1000,0,0," + ",".join(["999999"] * 2000) + ">"):
            cid = s.send(f"state {literal}")
            moves_for(s, cid, stop_after=0.5)  # sends the stop
            start = time.time()
            cid = s.send("ping")
            s.expect(rf"@{cid} pong", timeout=5)
            latency = time.time() - start
            print(f"pong {latency * 1000:.1f} ms after a stop during {literal[:12]}...",
                  file=sys.stderr)
            self.assertLess(latency, 0.1)
        start = time.time()
        s.send("goodbye")
        self.assertEqual(s.finish(timeout=10)[0], 0)
        self.assertLess(time.time() - start, 2)

    def test_a_flood_of_states_is_coalesced_and_pings_are_answered_at_once(self):
        # 20,000 boards at once: a ping after them is answered within a second (at once on an
        # idle machine), the last board is played, and the client ends at goodbye.
        s = Server("--no-db", "--time", "1")
        s.greet()
        board = "<6,0,0," + ",".join(["4"] * 12) + ">"
        flood = b"".join(f"{2 * k + 1000} state {board}\r\n".encode() for k in range(20000))
        s.raw(flood)
        start = time.time()
        cid = s.send("ping")
        s.expect(rf"@{cid} pong", timeout=10)
        latency = time.time() - start
        print(f"pong {latency * 1000:.1f} ms after 20,000 states", file=sys.stderr)
        self.assertLess(latency, 1)
        last = 2 * 19999 + 1000
        s.expect(rf"@{last} yield", timeout=10)
        s.send("goodbye")
        self.assertEqual(s.finish(timeout=10)[0], 0)

    def test_malformed_lines_are_refused_and_the_client_goes_on(self):
        s = Server("--no-db", "--time", "1")
        s.greet()
        bad = ["state <3,0,0>", "state <a,b>", "state 3,0,0,1,1,1,1,1,1", "state",
               "state <1,0,0,0,0>", '"unterminated', "@x move", "12@ stop"]
        for line in bad:
            s.send(line, with_id=False)
        s.raw(b"state <" + b"1," * 9000 + b"1>\r\n")
        s.raw(b"\xff\xfe\x00 nonsense\r\n")
        cid = s.send("state <3,0,0,1,2,3,3,2,1>")
        moves, yielded = moves_for(s, cid)
        self.assertTrue(moves and yielded)
        s.send("goodbye")
        code, err = s.finish()
        self.assertEqual(code, 0, err)
        lines = err.splitlines()
        self.assertGreaterEqual(len(lines), len(bad), err)
        self.assertTrue(all(l.startswith("kalah kgp: ") for l in lines), err)
        self.assertRegex(err, r"a line of 1[6-8]\d\d\d characters; KGP allows 16384")

    def test_a_refused_first_move_is_sent_again_before_yield(self):
        # go-kgp registers a board only after sending it: a move that arrives first is refused
        # ("No state associated with id"), and at a yield it plays a random move for an
        # unregistered one. This server refuses the first move of every board.
        s = Server("--db", self.db, "--time", "3")
        s.greet()
        for literal in ("<4,5,3,0,2,1,4,3,0,1,2>", "<4,0,0,3,3,3,3,3,3,3,3>"):
            cid = s.send(f"state {literal}")
            lines, refused, accepted = [], None, []
            while True:
                line = s.read()
                lines.append(line)
                m = re.fullmatch(rf"@{cid} move (\d+)", line)
                if m and refused is None:
                    refused = int(m.group(1))
                    s.send('error "No state associated with id"', with_id=False)
                elif m:
                    accepted.append(int(m.group(1)))
                elif line == f"@{cid} yield":
                    break
            self.assertIsNotNone(refused, lines)
            self.assertTrue(accepted, f"{literal}: only the refused move was sent: {lines}")
            # The comment comes just before the final move, which go-kgp records it with.
            self.assertRegex(lines[-3], r'^set info:comment "(proven:|estimate) ', lines)
            self.assertEqual(lines[-2], f"@{cid} move {accepted[-1]}", lines)
        s.send("goodbye")
        self.assertEqual(s.finish()[0], 0)

    def test_wrong_version_and_lost_server(self):
        s = Server("--no-db")
        s.send("kgp 2 0 0", with_id=False)
        s.expect(r'error "kalah speaks KGP 1.x"')
        code, err = s.finish()
        self.assertEqual(code, 1)
        self.assertIn("the server speaks KGP 2.x; kalah speaks 1.x", err)
        s = Server("--no-db")
        s.greet()
        code, err = s.finish()
        self.assertEqual(code, 1)
        self.assertIn("closed the connection without 'goodbye'", err)

    def test_no_server(self):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        r = subprocess.run([EXE, "kgp", "--port", str(port)], capture_output=True, text=True,
                           timeout=30)
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"^kalah kgp: cannot connect to localhost:\d+: .*\n$")


if __name__ == "__main__":
    unittest.main(verbosity=2)
