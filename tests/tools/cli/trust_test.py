"""What a user trusts of kalah's files and options (ctest: trust_test): the key file is read only
as a regular file of a line, whatever is at its name (a FIFO, /dev/zero, a directory, a dangling
link), each refused at once with a message naming it; a relative KALAH_KEY_FILE works; a key's
existing directory keeps its mode; a key readable by others is warned about; every empty path
option is refused; a certificate's directory is checked before the search, and a certificate
replaces a regular file and nothing else.

usage: python3 trust_test.py KALAH_EXECUTABLE
"""
import os
import stat
import subprocess
import sys
import tempfile
import time
import unittest

EXE = sys.argv.pop(1)


class Trust(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.tmp.name, "db")
        subprocess.run([EXE, "build", "--db", cls.db, "--pits", "3", "--max-seeds", "6"],
                       check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def solve(self, key, cwd=None):
        """A solve that opens the answer store (so reads the key), within 10 s."""
        env = dict(os.environ, KALAH_KEY_FILE=key)
        env.pop("KALAH_STORE", None)
        start = time.monotonic()
        run = subprocess.run([EXE, "solve", "--pits", "3", "--seeds", "2", "--db", self.db,
                              "--value-only"], capture_output=True, text=True, env=env,
                             cwd=cwd, timeout=10)
        return run, time.monotonic() - start

    def test_what_is_at_the_keys_name_is_refused_at_once(self):
        fifo = os.path.join(self.tmp.name, "fifo.key")
        os.mkfifo(fifo)
        dangling = os.path.join(self.tmp.name, "dangling.key")
        os.symlink(os.path.join(self.tmp.name, "nowhere"), dangling)
        directory = os.path.join(self.tmp.name, "dir.key")
        os.mkdir(directory)
        for key, said in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"),
                          (directory, "a directory"),
                          (dangling, "is a symbolic link to a missing")):
            run, seconds = self.solve(key)
            self.assertEqual(run.returncode, 0, run.stderr)  # the search goes on without a store
            self.assertIn("value: +4 for South", run.stdout)
            self.assertIn(f"the answer store's key {key}: {said}", run.stderr)
            self.assertLess(seconds, 5)

    def test_a_relative_key_file_and_a_shared_directory(self):
        work = os.path.join(self.tmp.name, "work")
        os.mkdir(work)
        run, _ = self.solve(os.path.join("keys", "store.key"), cwd=work)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertNotIn("store's key", run.stderr)
        self.assertTrue(os.path.isfile(os.path.join(work, "keys", "store.key")))
        self.assertEqual(stat.S_IMODE(os.stat(os.path.join(work, "keys")).st_mode), 0o700)
        team = os.path.join(self.tmp.name, "team")
        os.mkdir(team)
        os.chmod(team, 0o2775)
        run, _ = self.solve(os.path.join(team, "store.key"))
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(stat.S_IMODE(os.stat(team).st_mode), 0o2775,
                         "a team's directory's mode was changed")
        os.chmod(os.path.join(team, "store.key"), 0o644)
        run, _ = self.solve(os.path.join(team, "store.key"))
        self.assertIn("can be read by others (mode 644)", run.stderr)

    def test_every_empty_path_is_refused(self):
        game = ["--pits", "3", "--seeds", "2"]
        for option, args in (("--certificate", ["solve", *game]),
                             ("--checkpoint", ["solve", *game]),
                             ("--db", ["solve", *game]), ("--certificates", ["fair", *game]),
                             ("--checkpoint", ["fair", *game]), ("--db", ["info"]),
                             ("--db", ["build", "--max-seeds", "3"]), ("--host", ["serve"])):
            run = subprocess.run([EXE, *args, option, ""], capture_output=True, text=True,
                                 timeout=10)
            self.assertEqual(run.returncode, 2, (option, args))
            self.assertIn(f"{option} is empty", run.stderr, (option, args))

    def test_nonsense_numbers_are_named(self):
        for args, said in ((["solve", "--seeds", "-3"], "--seeds must be 0 or more"),
                           (["book", "build", "--pits", "3", "--seeds", "2", "--plies", "-1"],
                            "--plies must be 0 or more, got -1")):
            run = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=10)
            self.assertEqual(run.returncode, 2, args)
            self.assertIn(said, run.stderr, args)

    def test_a_certificates_directory_is_checked_before_the_search(self):
        start = time.monotonic()
        run = subprocess.run([EXE, "solve", "--pits", "5", "--seeds", "5", "--no-db",
                              "--value-only", "--certificate", "/nonexistent/dir/x.cert"],
                             capture_output=True, text=True, timeout=30)
        self.assertEqual(run.returncode, 2)
        self.assertIn("/nonexistent/dir does not exist", run.stderr)
        self.assertLess(time.monotonic() - start, 2)

    def test_a_certificate_replaces_a_file_and_nothing_else(self):
        # A device, a link (dangling or not) or a directory at its name is refused before the
        # search and left as it was (as root, /dev/full became a regular file).
        d = self.tmp.name
        target = os.path.join(d, "target")
        with open(target, "w") as f:
            f.write("mine")
        os.symlink(target, os.path.join(d, "link"))
        os.symlink(os.path.join(d, "nowhere"), os.path.join(d, "dangling"))
        os.mkfifo(os.path.join(d, "fifo"))
        os.mkdir(os.path.join(d, "dir"))
        for name, said in (("link", "symbolic link"), ("dangling", "symbolic link"),
                           ("fifo", "FIFO"), ("dir", "directory"), ("/dev/null", "device")):
            path = os.path.join(d, name)
            before = os.lstat(path)
            run = subprocess.run([EXE, "solve", "--pits", "3", "--seeds", "2", "--db", self.db,
                                  "--value-only", "--certificate", path],
                                 capture_output=True, text=True, timeout=30)
            self.assertEqual(run.returncode, 2, (name, run.stderr))
            self.assertIn(said, run.stderr, name)
            self.assertEqual(len(run.stderr.strip().splitlines()), 1, run.stderr)
            after = os.lstat(path)
            self.assertEqual((stat.S_IFMT(before.st_mode), before.st_ino),
                             (stat.S_IFMT(after.st_mode), after.st_ino), name)
        with open(target) as f:
            self.assertEqual(f.read(), "mine")
        fine = os.path.join(d, "fine.cert")
        for _ in range(2):  # written, then replaced
            run = subprocess.run([EXE, "solve", "--pits", "3", "--seeds", "2", "--db", self.db,
                                  "--value-only", "--certificate", fine],
                                 capture_output=True, text=True, timeout=30)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertTrue(stat.S_ISREG(os.lstat(fine).st_mode))


if __name__ == "__main__":
    unittest.main()
