"""Layer files written to under a running kalah (ctest: rewrite_test): `kalah serve` and a Python
process that probe a database whose layers are then rewritten in place (bytes XORed, or another
variant's file copied onto the name, which keeps the inode) give no wrong exact value and do not
crash; the layers below those written are answered as before.

usage: python3 rewrite_test.py KALAH_EXECUTABLE   (with the module on PYTHONPATH for its Python
part; without it that part is skipped)
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest
import urllib.error
import urllib.request

EXE = sys.argv.pop(1)
NAME = "kalah-m4-{}-immediate-owner-s{}.kdb"
WRITTEN = (6, 7, 8)  # the layers rewritten; the others are left alone


def positions(seeds, count, rng):
    """Random side-relative positions of m = 4 with `seeds` seeds on the pits."""
    out = []
    while len(out) < count:
        pits = [0] * 8
        for _ in range(seeds):
            pits[rng.randrange(8)] += 1
        if sum(pits[:4]) and sum(pits[4:]):
            out.append(",".join(map(str, pits[:4])) + "/" + ",".join(map(str, pits[4:])) + "/1,0")
    return out


def xor_in_place(path, rng):
    with open(path, "r+b") as f:  # the same inode, as dd conv=notrunc
        data = bytearray(f.read())
        for _ in range(200):
            at = rng.randrange(128, len(data))
            data[at] ^= rng.randrange(1, 256)
        f.seek(0)
        f.write(data)


def copy_onto(source, path):
    with open(source, "rb") as f:
        data = f.read()
    with open(path, "r+b") as f:  # cp onto the name: truncated and written, the same inode
        f.truncate(0)
        f.write(data)


class Rewritten(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db, cls.other = (os.path.join(cls.tmp.name, d) for d in ("db", "other"))
        for directory, capture in ((cls.db, "standard"), (cls.other, "empty")):
            subprocess.run([EXE, "build", "--db", directory, "--pits", "4", "--max-seeds", "10",
                            "--capture", capture], check=True, capture_output=True)
        rng = random.Random(60)
        # Each layer's first 10 read before the change (its block checked), the rest after: the
        # server's cache of answers holds none of those.
        cls.by_layer = {s: positions(s, 40, rng) for s in range(2, 11)}
        every = [p for ps in cls.by_layer.values() for p in ps]
        out = subprocess.run([EXE, "query", "--db", cls.db, "--json"], check=True, text=True,
                             capture_output=True, input="\n".join(every))
        cls.truth = {p: json.loads(a)["value"] for p, a in zip(every, out.stdout.splitlines())}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def rewrite(self, directory):
        """Rewrites the layers WRITTEN of `directory` in place: XOR, then another file copied."""
        rng = random.Random(4)
        for s in WRITTEN[:2]:
            xor_in_place(os.path.join(directory, NAME.format("standard", s)), rng)
        copy_onto(os.path.join(self.other, NAME.format("empty", WRITTEN[2])),
                  os.path.join(directory, NAME.format("standard", WRITTEN[2])))

    def test_a_server_gives_no_wrong_value_and_answers_the_other_layers(self):
        db = os.path.join(self.tmp.name, "served")
        subprocess.run(["cp", "-r", self.db, db], check=True)
        server = subprocess.Popen([EXE, "serve", "--db", db, "--port", "0", "--json",
                                   "--no-store"], stdout=subprocess.PIPE, text=True)
        try:
            url = json.loads(server.stdout.readline())["url"]

            def ask(position):
                query = f"api/v1/analyse?pits=4&position={position}"
                try:
                    with urllib.request.urlopen(url + query, timeout=30) as r:
                        return json.loads(r.read())
                except urllib.error.HTTPError as e:
                    return json.loads(e.read())

            for ps in self.by_layer.values():  # every block read and checked before the change
                for p in ps[:10]:
                    self.assertEqual(ask(p)["value"], self.truth[p], p)
            self.rewrite(db)
            # The first answer after the change finds it and is withheld, whatever it read; then
            # only the layers written are refused.
            first = ask(self.by_layer[2][10])
            self.assertIn("changed while in use", first.get("error", ""), first)
            wrong = refused = 0
            for s, ps in self.by_layer.items():
                for p in ps[11 if s == 2 else 10:]:
                    answer = ask(p)
                    if "value" in answer and answer.get("source") == "database":
                        wrong += answer["value"] != self.truth[p]
                    else:
                        refused += 1
                        # A position's analysis reads its moves' layers, never a higher one: the
                        # layers below those written are all answered.
                        self.assertGreaterEqual(s, min(WRITTEN), answer)
            self.assertIsNone(server.poll(), "the server died")
            self.assertEqual(wrong, 0)
            self.assertGreater(refused, 0)
        finally:
            server.kill()
            server.wait()

    @unittest.skipUnless(os.environ.get("PYTHONPATH"), "the module is not on PYTHONPATH")
    def test_python_gives_no_wrong_value(self):
        db = os.path.join(self.tmp.name, "python")
        subprocess.run(["cp", "-r", self.db, db], check=True)
        script = f"""
import json, sys, kalah
db = kalah.Database({db!r}, capture="standard")
truth = json.loads(sys.stdin.readline())
for p in truth:
    assert db.probe(kalah.Position.from_string(p)) == truth[p]
print("read", flush=True)
sys.stdin.readline()  # the layers are rewritten meanwhile
wrong = refused = 0
for p in truth:
    for probe in (lambda: db.probe(kalah.Position.from_string(p)), lambda: db.probe(p)):
        try:
            wrong += probe() != truth[p]
        except RuntimeError:
            refused += 1
print(json.dumps([wrong, refused]))
"""
        proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        proc.stdin.write(json.dumps(self.truth) + "\n")
        proc.stdin.flush()
        self.assertEqual(proc.stdout.readline().strip(), "read")
        self.rewrite(db)
        out, _ = proc.communicate("\n", timeout=60)
        self.assertEqual(proc.returncode, 0, out)
        wrong, refused = json.loads(out)
        self.assertEqual(wrong, 0)
        self.assertGreater(refused, 0)


if __name__ == "__main__":
    unittest.main()
