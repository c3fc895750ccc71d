"""kalah.Position and kalah.Game against the command line (ctest: python_position_test).

usage: python3 python_position_test.py KALAH_EXECUTABLE   (with the module on PYTHONPATH)"""
import json
import random
import subprocess
import sys
import unittest

import kalah

EXE = sys.argv.pop(1)


def cli(*args):
    out = subprocess.run([EXE, *args], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


class Positions(unittest.TestCase):
    def test_position_plays_as_the_command_line(self):
        # Random games of every rule variant: legal moves, each move's position and the end of
        # the game against `kalah solve --json` (its moves and finished), the score at the end
        # against the value of the finished position.
        rng = random.Random(27)
        variants = [(c, e, r) for c in ("standard", "empty") for e in ("immediate", "on-turn")
                    for r in ("owner", "discard")]
        for capture, end, remainder in variants:
            rules = dict(capture=capture, end=end, remainder=remainder)
            flags = ["--capture", capture, "--end", end, "--remainder", remainder]
            for pits, seeds in ((3, 2), (4, 2), (5, 1)):
                p = kalah.Position.start(pits=pits, seeds=seeds, **rules)
                self.assertEqual(p.rules, rules)
                game = kalah.Game(p)
                while True:
                    expected = cli("solve", *flags, "--no-db", "--json", p.absolute)[0]
                    self.assertEqual((p.notation, p.absolute), (expected["position"],
                                                                 expected["absolute"]))
                    self.assertEqual(p.is_over, expected["finished"], p.notation)
                    # One fixed orientation, whoever is to move.
                    bins = list(map(int, expected["absolute"].split(",")[:-1]))
                    self.assertEqual((p.south, p.stores[0], p.north, p.stores[1]),
                                     (tuple(bins[:pits]), bins[pits], tuple(bins[pits + 1:-1]),
                                      bins[-1]))
                    self.assertEqual(p.to_move, expected["to_move"])
                    self.assertEqual(p.legal_moves, [m["pit"] for m in expected["moves"]])
                    for m in expected["moves"]:
                        self.assertEqual(p.play(m["pit"]).notation, m["position"])
                        game.play(m["pit"])
                        game.undo()
                    self.assertEqual(kalah.Position.from_string(p.absolute, **rules), p)
                    if p.is_over:
                        self.assertEqual(p.score, expected["value"], p.notation)
                        break
                    with self.assertRaisesRegex(ValueError, "not a legal move"):
                        p.play(pits + 1)
                    p = game.play(rng.choice(p.legal_moves)).position
                # The game's record is the command line's: it replays to the same end, and back.
                replayed = cli("solve", *flags, "--no-db", "--json", "--value-only", "--position",
                               game.start.absolute, "--moves", game.record())[0]
                self.assertEqual(replayed["absolute"], game.position.absolute)
                self.assertEqual(kalah.Game.from_record(game.record(), game.start), game)
                with self.assertRaisesRegex(ValueError, "the game is over"):
                    p.play(1)

    def test_a_turn_of_the_wrong_side_is_refused_as_the_command_line_does(self):
        start = kalah.Position.start(pits=4, seeds=3)
        error = subprocess.run([EXE, "solve", "--no-db", "--position", start.absolute,
                                "--moves", "S:1 S:2"], capture_output=True, text=True).stderr
        with self.assertRaises(ValueError) as raised:
            kalah.Game.from_record("S:1 S:2", start)
        self.assertEqual(str(raised.exception), "game record, turn 2 (S:2), pit 2: North is to "
                                                 "move, not South")
        self.assertIn(str(raised.exception), error)


if __name__ == "__main__":
    unittest.main()
