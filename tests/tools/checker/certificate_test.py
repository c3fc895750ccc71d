"""`kalah solve --certificate` against the independent checker (ctest: certificate_test).

Random positions of every rule variant (m = 3..5, with and without a database) get certificates that
tools/checker/check_certificate.py accepts, proving the value `kalah solve` printed; a certificate
that claims another value, lacks a move, plays an empty pit or has a move too many, or plays a pit
the board lacks, is rejected (exit 1); a damaged or missing layer file, a layer named by a path or
as another variant's file, a forged layer inside --db and a position line that is not the certified
board are unreadable input (exit 2); so are, within a memory limit and without a traceback, a huge
leaf-layer, a moves frame that claims 50 MB, a FIFO and digits that are not ASCII.

usage: python3 certificate_test.py KALAH_EXECUTABLE CHECK_CERTIFICATE_PY
"""
import itertools
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import unittest

import zstandard

EXE = sys.argv.pop(1)
CHECKER = sys.argv.pop(1)
sys.path.insert(0, os.path.dirname(CHECKER))
import certificate_layers  # noqa: E402 (the checker's own reader: to forge what it must refuse)
VARIANTS = list(itertools.product(("standard", "empty"), ("immediate", "on-turn"),
                                  ("owner", "discard")))


def rule_flags(variant):
    capture, end, remainder = variant
    return ["--capture", capture, "--end", end, "--remainder", remainder]


def random_position(rng, m, seeds):
    """A side-relative position with `seeds` on the board and a move for the mover."""
    while True:
        pits = [0] * (2 * m)
        for _ in range(seeds):
            pits[rng.randrange(2 * m)] += 1
        if any(pits[:m]) and any(pits[m:]):
            return ",".join(map(str, pits[:m])) + "/" + ",".join(map(str, pits[m:]))


def check(path, db=None, *extra):
    args = [sys.executable, CHECKER, path] + (["--db", db] if db else []) + list(extra)
    return subprocess.run(args, capture_output=True, text=True)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def rewrite(path, out, value=None, moves=None, line=None):
    """A copy of the certificate at `path` with its value line, its moves or one of its lines
    (`line`: a function of a line) replaced."""
    data = read_bytes(path)
    end = data.index(b"\nend\n") + 5
    head, frame = data[:end].decode(), data[end:]
    if line is not None:
        head = "\n".join(line(text) for text in head.split("\n"))
    if value is not None:
        head = "\n".join(f"value {value}" if line.startswith("value ") else line
                         for line in head.split("\n"))
    if moves is not None:
        head = "\n".join(f"moves {len(moves)}" if line.startswith("moves ") else line
                         for line in head.split("\n"))
        frame = zstandard.ZstdCompressor(write_checksum=True).compress(bytes(moves))
    with open(out, "wb") as f:
        f.write(head.encode() + frame)


def moves_of(path):
    data = read_bytes(path)
    return bytearray(zstandard.ZstdDecompressor().decompress(data[data.index(b"\nend\n") + 5:]))


def forge_layer(genuine, other, out):
    """`other` (a layer file of another capture rule, same pits, seeds and remainder) made to look
    like `genuine` to every check but the body checksum: its header's capture rule and body
    checksum field are the genuine file's, its header checksum recomputed."""
    head = bytearray(read_bytes(other))
    real = read_bytes(genuine)
    head[13] = real[13]  # capture
    head[64:72] = real[64:72]  # the body checksum field
    head[80:88] = bytes(8)
    head[80:88] = certificate_layers.checksum(bytes(head[:128])).to_bytes(8, "little")
    with open(out, "wb") as f:
        f.write(bytes(head))


class Certificates(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.tmp.name, "db")
        for variant in VARIANTS:
            subprocess.run([EXE, "build", "--db", cls.db, "--pits", "4", "--max-seeds", "8",
                            *rule_flags(variant)], check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def certify(self, position, variant, m, db=None, name="c.cert", full=False):
        path = os.path.join(self.tmp.name, name)
        args = [EXE, "solve", position, "--pits", str(m), "--json", "--certificate", path,
                *rule_flags(variant)] + (["--db", db] if db else ["--no-db"])
        answer = json.loads(subprocess.run(args + ([] if full else ["--value-only"]),
                                           check=True, capture_output=True, text=True).stdout)
        self.assertEqual(answer["certificate"]["file"], path)
        self.assertEqual(answer["certificate"]["bytes"], os.path.getsize(path))
        return path, answer["value"]  # stores are 0: the final margin is the board's value

    def assert_proven(self, path, value, db=None):
        r = check(path, db)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"worth exactly {value:+d}", r.stdout)

    def test_every_variant_with_and_without_a_database(self):
        rng = random.Random(20261202)
        for variant in VARIANTS:
            for m, seeds, db in ((3, 14, None), (4, 14, self.db), (4, 9, self.db), (5, 12, None)):
                position = random_position(rng, m, seeds)
                with self.subTest(variant=variant, position=position, db=bool(db)):
                    path, value = self.certify(position, variant, m, db)
                    self.assert_proven(path, value, db)

    def test_full_analysis_and_a_position_inside_the_database(self):
        variant = ("standard", "immediate", "owner")
        path, value = self.certify("3,3,3,3/3,3,3,3", variant, 4, full=True)
        self.assert_proven(path, value)
        path, value = self.certify("1,0,2,1/0,3,0,1", variant, 4, db=self.db)
        self.assertEqual(len(moves_of(path)), 0)  # the root is a leaf
        self.assert_proven(path, value, self.db)

    def test_wrong_claims_are_rejected(self):
        variant = ("empty", "immediate", "owner")
        path, value = self.certify("2,3,1,4/3,0,2,1", variant, 4, self.db)
        self.assert_proven(path, value, self.db)
        bad = os.path.join(self.tmp.name, "bad.cert")
        moves = moves_of(path)
        self.assertGreater(len(moves), 3)
        for what, kwargs in (("value + 2", {"value": value + 2}),
                             ("value - 2", {"value": value - 2}),
                             ("a move short", {"moves": moves[:-1]}),
                             ("a move too many", {"moves": moves + b"\x00"})):
            with self.subTest(what):
                rewrite(path, bad, **kwargs)
                r = check(bad, self.db)
                self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
                self.assertIn("REJECTED", r.stderr)
        # The first move played from a pit the board does not have.
        rewrite(path, bad, moves=bytes([4]) + moves[1:])
        r = check(bad, self.db)
        self.assertEqual(r.returncode, 1)
        self.assertIn("pit 5 cannot be played", r.stderr)

    def test_damaged_or_missing_layers_are_unreadable_input(self):
        variant = ("standard", "on-turn", "discard")
        path, _ = self.certify("2,2,2,2/1,2,2,1", variant, 4, self.db)
        damaged = os.path.join(self.tmp.name, "damaged")
        os.makedirs(damaged, exist_ok=True)
        names = [n for n in os.listdir(self.db) if "standard-on-turn-discard" in n]
        for n in names:
            with open(os.path.join(self.db, n), "rb") as f, \
                    open(os.path.join(damaged, n), "wb") as g:
                g.write(f.read())
        top = os.path.join(damaged, "kalah-m4-standard-on-turn-discard-s8.kdb")
        data = bytearray(read_bytes(top))
        data[130] ^= 0x40  # inside the first block
        with open(top, "wb") as f:
            f.write(bytes(data))
        r = check(path, damaged, "--body-checksums")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("s8.kdb", r.stderr)
        r = check(path, damaged, "--no-body-checksums")  # the checker's own block decoder
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("s8.kdb: block 0: checksum mismatch", r.stderr)
        os.remove(top)
        r = check(path, damaged)
        self.assertEqual(r.returncode, 2)
        self.assertIn("s8.kdb", r.stderr)
        r = check(path)  # no --db
        self.assertEqual(r.returncode, 2)
        self.assertIn("--db", r.stderr)

    def test_only_the_databases_own_files_and_the_certified_board_are_trusted(self):
        variant = ("standard", "immediate", "owner")
        path, value = self.certify("2,3,1,4/3,0,2,1", variant, 4, self.db)
        self.assert_proven(path, value, self.db)
        bad = os.path.join(self.tmp.name, "bad.cert")
        top = "kalah-m4-standard-immediate-owner-s8.kdb"
        outside = os.path.join(self.tmp.name, top)
        with open(outside, "wb") as f:
            f.write(read_bytes(os.path.join(self.db, top)))
        for what, name in (("an absolute path", outside), ("a path up", "../db/" + top),
                           ("another variant's file", top.replace("standard", "empty"))):
            with self.subTest(what):
                rewrite(path, bad, line=lambda text: " ".join(
                    [*text.split()[:2], name, text.split()[3]]) if text.startswith("layer 8 ")
                    else text)
                r = check(bad, self.db)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertIn("layer 8 is named", r.stderr)
        rewrite(path, bad, line=lambda text: "position 3,3,0,0,0,3,3,0,0,0,S"
                if text.startswith("position ") else text)
        r = check(bad, self.db)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("position line", r.stderr)

    def test_a_forged_layer_in_the_database_is_refused_by_its_body_checksum(self):
        variant = ("standard", "immediate", "owner")
        path, value = self.certify("2,3,1,4/3,0,2,1", variant, 4, self.db)
        forged = os.path.join(self.tmp.name, "forged")
        os.makedirs(forged, exist_ok=True)
        for s in range(1, 9):
            name = f"kalah-m4-standard-immediate-owner-s{s}.kdb"
            forge_layer(os.path.join(self.db, name),
                        os.path.join(self.db, name.replace("standard", "empty")),
                        os.path.join(forged, name))
        r = check(path, forged)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("body checksum mismatch", r.stderr)


    def test_bombs_fifos_and_foreign_digits_are_unreadable_within_a_memory_limit(self):
        # Each in a checker limited to 1 GiB of address space: refused with exit 2 and a line,
        # at once, whatever the input claims.
        path, _ = self.certify("1,0,2,1/0,2,1,1", VARIANTS[0], 4, self.db)
        out = os.path.join(self.tmp.name, "bomb.cert")
        huge = zstandard.ZstdCompressor(level=19).compress(bytes(50 << 20))  # 50 MB of pit 1
        fifo = os.path.join(self.tmp.name, "fifo.cert")
        os.mkfifo(fifo)
        cases = [("leaf-layer 100000000", lambda: rewrite(path, out, line=lambda t: (
                     "leaf-layer 100000000" if t.startswith("leaf-layer ") else t))),
                 ("a frame claiming 50 MB", lambda: open(out, "wb").write(
                     read_bytes(path)[:read_bytes(path).index(b"\nend\n") + 5].replace(
                         b"\nmoves ", b"\nmoves 52428800\nx ") + huge)),
                 ("the header's count under the frame's", lambda: open(out, "wb").write(
                     read_bytes(path)[:read_bytes(path).index(b"\nend\n") + 5] + huge)),
                 ("a superscript digit", lambda: rewrite(path, out, line=lambda t: (
                     t.replace("position 1", "position \u00b2", 1)))),
                 ("an Arabic-Indic digit", lambda: rewrite(path, out, line=lambda t: (
                     t.replace("value ", "value \u0663", 1) if t.startswith("value ") else t)))]
        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

        for what, make in cases + [("a FIFO", None)]:
            if make:
                make()
            target = fifo if make is None else out
            r = subprocess.run([sys.executable, CHECKER, target, "--db", self.db],
                               capture_output=True, text=True, timeout=20, preexec_fn=limit)
            self.assertEqual(r.returncode, 2, (what, r.stdout, r.stderr))
            self.assertNotIn("Traceback", r.stderr, what)
            self.assertEqual(r.stderr.count(target), 1, (what, r.stderr))

    def test_a_pit_past_255_and_a_cache_of_no_size_are_unreadable_input(self):
        path, _ = self.certify("1,0,2,1/0,2,1,1", VARIANTS[0], 4)
        out = os.path.join(self.tmp.name, "full.cert")
        rewrite(path, out, line=lambda t: (
            "board " + " ".join(["255"] * 8) if t.startswith("board ")
            else "position 255,255,255,255,0,255,255,255,255,0,S" if t.startswith("position ")
            else t))
        r = check(out)
        self.assertEqual(r.returncode, 2, (r.stdout, r.stderr))
        self.assertIn("more than the 255 a pit holds", r.stderr)
        for size in ("nan", "inf", "-1", "0"):
            r = check(path, None, "--cache-gb", size)
            self.assertEqual(r.returncode, 2, (size, r.stdout, r.stderr))
            self.assertIn("--cache-gb must be a positive number", r.stderr, size)
            self.assertNotIn("Traceback", r.stderr, size)

    def test_every_variant_over_a_database_of_format_2(self):
        # The checker decodes format 2's value blocks by itself too (tools/checker/value_codes.py).
        db = os.path.join(self.tmp.name, "format2")
        shutil.copytree(self.db, db)
        rng = random.Random(20261207)
        for variant in VARIANTS:
            subprocess.run([EXE, "build", "--db", db, "--pits", "4", "--max-seeds", "8",
                            *rule_flags(variant), "--format", "2"], check=True,
                           capture_output=True)
            for seeds in (9, 14):
                position = random_position(rng, 4, seeds)
                with self.subTest(variant=variant, position=position):
                    path, value = self.certify(position, variant, 4, db, name="f2.cert")
                    self.assert_proven(path, value, db)
                    head = read_bytes(path).split(b"\nend\n")[0].decode().split("\n")
                    formats = {t.split()[2] for t in head if t.startswith("layer-format ")}
                    self.assertEqual(formats, {"2"})

    def test_a_converted_database_is_named_as_such(self):
        # A certificate names the bytes it read; after `kalah build --format 1` rewrote the layers
        # (same values, other bytes) the checker says so, rather than that a file is wrong.
        db = os.path.join(self.tmp.name, "converted")
        shutil.copytree(self.db, db)
        path, value = self.certify("1,0,2,1/0,2,1,1", VARIANTS[0], 4, db, name="over2.cert")
        self.assert_proven(path, value, db)
        subprocess.run([EXE, "build", "--db", db, "--pits", "4", "--max-seeds", "8",
                        *rule_flags(VARIANTS[0]), "--format", "1"], check=True, capture_output=True)
        r = check(path, db)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("the layer was rewritten in format 1 since the certificate was written over "
                      "format 3", r.stderr)
        old = os.path.join(self.tmp.name, "old.cert")  # as written before the formats were named
        rewrite(path, old, line=lambda t: "" if t.startswith("layer-format ") else t)
        r = check(old, db)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("if the database was converted to another format since", r.stderr)


if __name__ == "__main__":
    unittest.main()
