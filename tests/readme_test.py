"""Runs the README and docs/guide.md as written (ctest: readme_test).

Every command of their ```sh blocks (the README's first) runs in a scratch directory, with kalah
installed into a temporary prefix (so `kalah`, `pkg-config kalah` and `import kalah` work as after
`cmake --install`) and KALAH_DB and HOME pointing into the scratch directory. Sizes the README gives
for a workstation are made small by the substitutions below, each of which must still match the
README. A comment "# ...: +N" after a command is its expected value. The ```cpp block is written to
probe.cpp for the command that compiles it; the ```python block runs as a script. `kalah serve`
starts in the background on a free port, which the commands after it (curl) use; its page must load.
The indented set-up commands (scripts/run.sh, scripts/test.sh, install, cpack) are what CI and
install_test run; here their scripts must exist.

usage: python3 readme_test.py SOURCE_DIR BUILD_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

SOURCE, BUILD = sys.argv.pop(1), sys.argv.pop(1)
# README text -> what the test runs instead (a smaller database; the query positions fit it).
SIZES = {"--max-seeds 20": "--max-seeds 16"}


def blocks(text, language):
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, re.S | re.M)


class Readme(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.readme = open(os.path.join(SOURCE, "README.md")).read()
        cls.guide = open(os.path.join(SOURCE, "docs", "guide.md")).read()
        cls.tmp = tempfile.TemporaryDirectory()
        root = cls.tmp.name
        # Installed as the README's first install path says: into ~/.local, where Python
        # looks without PYTHONPATH (HOME is the scratch directory).
        prefix = os.path.join(root, ".local")
        home = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        home["HOME"] = root
        subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], check=True,
                       capture_output=True, env=home)
        pc = subprocess.run(["find", prefix, "-name", "kalah.pc"], check=True,
                            capture_output=True, text=True).stdout.split()[0]
        cls.env = dict(home, KALAH_DB=os.path.join(root, "db"),
                       PATH=os.path.join(prefix, "bin") + ":" + os.environ["PATH"],
                       PKG_CONFIG_PATH=os.path.dirname(pc))
        cls.cwd = os.path.join(root, "work")
        os.mkdir(cls.cwd)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def start_server(self, command):
        server = subprocess.Popen(["bash", "-c", f"exec {command} --port 0"], cwd=self.cwd,
                                  env=self.env, stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: (server.terminate(), server.wait(timeout=30)))
        url = re.search(r"http://\S+/", server.stdout.readline()).group(0)
        self.assertIn("kalah analysis board", self.run_shell(f"curl -s {url}").stdout)
        return url

    def run_shell(self, command):
        return subprocess.run(["bash", "-c", command], cwd=self.cwd, env=self.env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=300)

    def test_1_commands(self):
        for old in SIZES:
            self.assertIn(old, self.readme, "a substitution no longer matches the README")
        cpp = blocks(self.readme, "cpp")
        self.assertEqual(len(cpp), 1)
        with open(os.path.join(self.cwd, "probe.cpp"), "w") as f:
            f.write(cpp[0])
        commands = [line for block in blocks(self.readme, "sh") + blocks(self.guide, "sh")
                    for line in block.replace("\\\n", " ").splitlines()]
        self.assertGreaterEqual(len(commands), 10)
        url = None
        for line in commands:
            command, _, comment = line.partition("  #")
            command = command.strip()
            for old, new in SIZES.items():
                command = command.replace(old, new)
            if command.startswith("kalah serve"):
                url = self.start_server(command)
                continue
            if url:
                command = command.replace("http://127.0.0.1:8080/", url)
            with self.subTest(command=command):
                run = self.run_shell(command)
                self.assertEqual(run.returncode, 0, f"{command}\n{run.stdout}\n{run.stderr}")
                self.assertTrue(run.stdout.strip(), command)
                if "--json" in command or command.startswith("curl"):
                    for out in run.stdout.splitlines():
                        self.assertIn("kalah_version", json.loads(out))
                expected = re.search(r": ([+-]\d+)\s*$", comment)
                if expected:
                    value = int(expected.group(1))
                    self.assertRegex(run.stdout,
                                     re.escape(f"value: {expected.group(1)} ") + "|" +
                                     re.escape(f'"value": {value},'))

    def test_2_python(self):
        python = blocks(self.readme, "python")
        self.assertEqual(len(python), 1)
        run = subprocess.run(["/usr/bin/python3", "-c", python[0]], cwd=self.cwd, env=self.env,
                             capture_output=True, text=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertTrue(lines[0].endswith(" 6"), lines)  # kalah.solve(pits=4, seeds=3): +6
        self.assertRegex(lines[1], r"^-?\d+$")
        self.assertIn("'position'", lines[2])
        self.assertIn("North to move", "\n".join(lines[3:8]))  # print(q): the board
        self.assertRegex(lines[8], r"^\((\d+, )+\d+\) \((\d+, )+\d+\) \(\d+, \d+\) North False$")

    def test_3_setup_commands_exist(self):
        for script in re.findall(r"^    bash (scripts/\S+)", self.readme, re.M):
            self.assertTrue(os.access(os.path.join(SOURCE, script), os.X_OK), script)


if __name__ == "__main__":
    unittest.main()
