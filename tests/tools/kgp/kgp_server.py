"""A KGP server written for the tests (kgp_test.py, kgp_verify_test.py): loopback, one client
(`kalah kgp`), every wait bounded."""
import re
import socket
import subprocess
import time


class Timeout(AssertionError):
    pass


class Server:
    """A KGP server for one client: sends lines, reads the client's with deadlines."""

    def __init__(self, exe, *client_args):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        port = self.listener.getsockname()[1]
        self.client = subprocess.Popen([exe, "kgp", "--port", str(port), *client_args],
                                       stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.listener.settimeout(30)
        self.conn, _ = self.listener.accept()
        self.conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # lines go at once
        self.buffer = b""
        self.next_id = 2

    def send(self, line, with_id=True):
        """Sends a command, returning its id."""
        cid = self.next_id
        self.next_id += 2
        text = f"{cid} {line}" if with_id else line
        self.conn.sendall(text.encode() + b"\r\n")
        return cid

    def raw(self, data):
        self.conn.sendall(data)

    def read(self, timeout=30):
        """The client's next command line, or None at the end of the connection."""
        deadline = time.time() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.time()
            if left <= 0:
                raise Timeout(f"no line from the client within {timeout} s")
            self.conn.settimeout(left)
            try:
                chunk = self.conn.recv(4096)
            except socket.timeout:
                continue
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        assert line.endswith(b"\r"), line
        return line[:-1].decode()

    def expect(self, pattern, timeout=30):
        """Reads until a line matches; returns the match and the lines before it."""
        seen = []
        while True:
            line = self.read(timeout)
            if line is None:
                raise AssertionError(f"connection closed before {pattern!r}; read {seen}")
            m = re.fullmatch(pattern, line)
            if m:
                return m, seen
            seen.append(line)

    def greet(self):
        self.send("kgp 1 1 0", with_id=False)
        _, before = self.expect(r"mode freeplay")
        self.assertion_names = [b for b in before if b.startswith("set info:name")]
        return before

    def finish(self, timeout=30):
        self.conn.close()
        self.listener.close()
        _, err = self.client.communicate(timeout=timeout)
        return self.client.returncode, err


def moves_for(server, cid, stop_after=None):
    """The moves sent for state `cid` until its yield (or until the server's stop)."""
    moves, start = [], time.time()
    while True:
        timeout = 30 if stop_after is None else max(0.01, stop_after - (time.time() - start))
        try:
            line = server.read(timeout)
        except Timeout:
            if stop_after is None:
                raise
            server.send(f"@{cid} stop", with_id=True)
            return moves, False
        m = re.fullmatch(rf"@{cid} (move (\d+)|yield)", line)
        if not m:
            continue  # set info:comment and the like
        if m.group(1) == "yield":
            return moves, True
        moves.append(int(m.group(2)))
