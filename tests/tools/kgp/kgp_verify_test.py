"""`kalah kgp --verify N` (ctest: kgp_verify_test): verify mode against a KGP server written
here, whose problems (a board and a move) are judged by the test's own sowing, written seed by
seed from the rules (KGP's: standard capture, a game ends when a row is empty, the seeds left go
to their owner). The client answers every problem, counts the server's judgements and leaves
after N, with exit status 1 when one was wrong.

usage: python3 kgp_verify_test.py KALAH_EXECUTABLE
"""
import random
import sys
import unittest

import kgp_server

EXE = sys.argv.pop(1)


def kgp_sow(n, stores, south, north, pit):
    """KGP's sowing for South, seed by seed (the test's own, independent of kalah's): the board
    literal after it (a finished game's seeds collected to their owners) and whether South moves
    again."""
    rows, stores = [south[:], north[:]], stores[:]
    seeds, rows[0][pit] = rows[0][pit], 0
    side, i, last = 0, pit + 1, None  # last: where the last seed fell, (side, pit) or "store"
    while seeds:
        if i == n:
            if side == 0:
                stores[0] += 1
                seeds -= 1
                last = "store"
            side, i = 1 - side, 0
            continue
        rows[side][i] += 1
        seeds -= 1
        last = (side, i)
        i += 1
    repeat = last == "store"
    if not repeat and last[0] == 0 and rows[0][last[1]] == 1 and rows[1][n - 1 - last[1]] > 0:
        stores[0] += rows[1][n - 1 - last[1]] + 1
        rows[0][last[1]] = rows[1][n - 1 - last[1]] = 0
    if not any(rows[0]) or not any(rows[1]):
        stores = [stores[0] + sum(rows[0]), stores[1] + sum(rows[1])]
        rows = [[0] * n, [0] * n]
    return "<" + ",".join(map(str, [n, *stores, *rows[0], *rows[1]])) + ">", repeat


class Verify(unittest.TestCase):
    def test_verify_mode_answers_every_problem(self):
        s = kgp_server.Server(EXE, "--no-db", "--verify", "40")
        s.send("kgp 1 1 0", with_id=False)
        s.expect(r"mode verify")
        rng = random.Random(7)
        wrong = None
        for k in range(40):
            n = rng.randint(1, 11)
            south = [rng.randint(0, 2 * n) for _ in range(n)]
            north = [rng.randint(0, 2 * n) for _ in range(n)]
            if not any(south):
                south[0] = 1
            stores = [rng.randint(0, 4 * n), rng.randint(0, 4 * n)]
            pit = rng.choice([i for i in range(n) if south[i]])
            literal = "<" + ",".join(map(str, [n, *stores, *south, *north])) + ">"
            cid = s.send(f"problem {literal} {pit}")
            m, _ = s.expect(rf"(\d+)@{cid} solution (<[\d,]+>) (true|false)")
            expected = kgp_sow(n, stores, south, north, pit)
            got = (m.group(2), m.group(3) == "true")
            self.assertEqual(got, expected, f"{literal} pit {pit}")
            if k == 20:  # a server that disagrees once: the client says so and exits 1
                wrong = s.send(f"@{m.group(1)} error \"Was a repeat move\"", with_id=False)
            else:
                s.send(f"@{m.group(1)} ok", with_id=False)
        s.expect(r"goodbye")
        code, err = s.finish()
        self.assertIsNotNone(wrong)
        self.assertEqual(code, 1, err)
        self.assertIn("verify: 40 solutions judged, 39 right, 1 wrong", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
