#!/usr/bin/python3
"""Checks a kalah certificate: a proof that a Kalah board is worth exactly the value it claims.

Written apart from kalah's C++ code and sharing none of it: the rules (sowing, capture, the end of
the game) below, the ranking of boards and the layer files' decoder (certificate_layers.py, beside
this file) follow the documents (docs/design.md sections 1, 3, 4, 6 and 8, db/layer_file.h's
layout, store/certificate.h's format).

A certificate holds two strategies. "V >= v": one move at each of the mover's turns, every reply
of the opponent; "V <= v": the same for the opponent. Both are walked depth first to finished
games (valued by the rules) and to boards with at most leaf-layer seeds (read from the database's
layer files); a bound is remembered per board once proven. The check accepts only when every move
is legal, every reply is covered, every leaf agrees with the bound it must meet and the moves are
used up exactly. What it still trusts is printed: the layer files' values, which
`kalah verify --full DIR` recomputes from their children.

Exit status: 0 the certificate holds, 1 it does not, 2 the input cannot be read (a usage error, a
malformed certificate, a missing or damaged layer file).
"""

import argparse
import os
import signal
import sys
import time

try:
    import zstandard
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("check_certificate.py: needs the zstandard module (Debian: apt-get install "
             "python3-zstandard)")

from certificate_layers import (BadInput, Database, open_regular, position_board,  # noqa: E402
                                position_stores, whole_number)


class Rejected(Exception):
    """The proof does not hold."""


# --- The rules (docs/design.md section 1) -----------------------------------------------------

class Rules:
    def __init__(self, pits, capture, end, remainder):
        if not 1 <= pits <= 8:
            raise BadInput(f"pits {pits} out of range 1..8")
        for name, value, allowed in (("capture", capture, ("standard", "empty")),
                                     ("end", end, ("immediate", "on-turn")),
                                     ("remainder", remainder, ("owner", "discard"))):
            if value not in allowed:
                raise BadInput(f"{name}={value}: not one of {', '.join(allowed)}")
        self.m, self.capture, self.end, self.remainder = pits, capture, end, remainder

    def describe(self):
        return (f"m={self.m} capture={self.capture} end={self.end} "
                f"remainder={self.remainder}")


def play(rules, board, pit):
    """Plays pit (0-based) of the mover. board: bytes, the mover's m pits in sowing order, then
    the opponent's (bytes: the memory of a proof's boards is the checker's largest cost).
    Returns (the board for whoever moves next, seeds the mover gained, extra turn).

    The bins go round: the mover's pits 0..m-1, the mover's store (m), the opponent's pits
    (m+1..2m), the opponent's store (2m+1), which the mover skips. Mover pit i faces bin 2m-i."""
    m = rules.m
    bins = list(board[:m]) + [0] + list(board[m:]) + [0]
    hand, bins[pit], at = bins[pit], 0, pit
    while hand:
        at = (at + 1) % (2 * m + 2)
        if at != 2 * m + 1:
            bins[at] += 1
            hand -= 1
    extra = at == m
    if at < m and bins[at] == 1:  # the last seed fell in an empty pit of the mover's row
        facing = 2 * m - at
        if bins[facing] or rules.capture == "empty":
            bins[m] += 1 + bins[facing]
            bins[at] = bins[facing] = 0
    gain = bins[m]
    mover, opponent = bins[:m], bins[m + 1:2 * m + 1]
    if max(mover + opponent) > 255:  # a pit is a byte here, as in kalah's boards
        raise BadInput(f"a move sows {max(mover + opponent)} seeds into one pit: more than the "
                       "255 a pit holds")
    return bytes(mover + opponent if extra else opponent + mover), gain, extra


def finished_value(rules, board):
    """V of a finished board (None if play goes on): what the remainder rule gives the mover
    minus the opponent."""
    mover, opponent = sum(board[:rules.m]), sum(board[rules.m:])
    over = mover == 0 or (rules.end == "immediate" and opponent == 0)
    if not over:
        return None
    return mover - opponent if rules.remainder == "owner" else 0


# --- The certificate (store/certificate.h) -------------------------------------------------------

# A header is a few hundred bytes; the moves are one byte each, and no proof's moves compress
# more than a thousandfold (what a frame claims beyond that is refused before it is decompressed).
MAX_HEADER = 1 << 16
MAX_RATIO = 1000


def read_certificate(path):
    """The certificate's fields, layers and moves; BadInput (without the path, which the caller
    names) for anything that is not a readable certificate of format 1."""
    with open_regular(path, named=False) as f:
        head = f.read(MAX_HEADER)
        end = head.find(b"\nend\n")
        if not head.startswith(b"kalah certificate") or end < 0:
            raise BadInput("not a kalah certificate (no header ending in an 'end' line)")
        f.seek(end + 5)
        frame = f.read()
    fields, layers, formats = {}, {}, {}
    for line in head[:end].decode("utf-8", "replace").split("\n"):
        key, _, rest = line.partition(" ")
        parts = rest.split()
        if key in ("layer", "layer-format") and len(parts) != (3 if key == "layer" else 2):
            raise BadInput(f"bad {key} line {line!r}")
        if key == "layer":
            layers[whole_number(parts[0], "a layer line's seeds")] = (parts[1], parts[2])
        elif key == "layer-format":  # since kalah 0.10: what a conversion since would change
            formats[whole_number(parts[0], "a layer's seeds")] = whole_number(parts[1], "format")
        else:
            fields[key] = rest
    if fields.get("kalah") != "certificate 1":
        raise BadInput("not a kalah certificate of format 1")
    try:
        rules = dict(kv.split("=", 1) for kv in fields["rules"].split())
        rules = Rules(whole_number(rules["m"], "m"), rules["capture"], rules["end"],
                      rules["remainder"])
        board = bytes(whole_number(x, "a pit") for x in fields["board"].split())
        value = whole_number(fields["value"], "value")
        top = whole_number(fields["leaf-layer"], "leaf-layer")
        count = whole_number(fields["moves"], "moves")
    except (KeyError, ValueError) as e:  # bytes() refuses counts outside 0..255
        raise BadInput(f"a header line is missing or malformed ({e})") from e
    if not 1 <= rules.m <= 16 or len(board) != 2 * rules.m:
        raise BadInput(f"the board does not have 2m pits (m = {rules.m})")
    if position_board(rules.m, fields.get("position", "")) != board:
        raise BadInput("its position line is not the board it certifies")
    if len(layers) != top or sorted(layers) != list(range(1, top + 1)):
        raise BadInput(f"layers 1..{top} are not each listed once")
    layers = {s: (name, stamp, formats.get(s)) for s, (name, stamp) in layers.items()}
    declared = zstandard.frame_content_size(frame) if len(frame) >= 4 else -1
    if declared != count or count > MAX_RATIO * len(frame):
        raise BadInput(f"the moves' frame holds {declared} bytes for the header's {count} moves "
                       f"in {len(frame)} bytes")
    try:
        moves = zstandard.ZstdDecompressor().decompress(frame, max_output_size=count)
    except zstandard.ZstdError as e:
        raise BadInput(f"the moves do not decompress: {e}") from e
    if len(moves) != count:
        raise BadInput(f"{len(moves)} moves, the header says {count}")
    return rules, board, value, top, layers, moves, fields


class Checker:
    """The walk of store/certificate.h and solver/proof.h, with the moves it reads."""

    def __init__(self, rules, top, database, moves):
        self.rules, self.top, self.db, self.moves = rules, top, database, moves
        self.next = 0
        self.lower, self.upper = {}, {}
        self.positions = self.finished = 0
        self.progress = sys.stderr.isatty()
        self.path = []

    def fail(self, board, claim):
        line = " ".join(str(p + 1) for p in self.path) or "(none)"
        m = self.rules.m
        shown = ",".join(map(str, board[:m])) + "/" + ",".join(map(str, board[m:]))
        raise Rejected(f"board {shown} (after pits {line}): {claim}")

    def counted(self):
        """One more position expanded; on a terminal, a progress line every 2^20."""
        self.positions += 1
        if self.progress and self.positions % (1 << 20) == 0:
            print(f"\r  {self.positions} positions, {self.next} of {len(self.moves)} moves read",
                  end="", file=sys.stderr, flush=True)

    def known(self, board):
        """V of a finished board or one in the database, else None."""
        v = finished_value(self.rules, board)
        if v is not None:
            self.finished += 1
            return v
        if sum(board) <= self.top:
            return self.db.value(board)
        return None

    def at_least(self, board, r):
        if r <= -sum(board):
            return
        v = self.known(board)
        if v is not None:
            if v < r:
                self.fail(board, f"claimed V >= {r}, but V = {v}")
            return
        if self.lower.get(board, r - 1) >= r:
            return
        if self.next >= len(self.moves):
            self.fail(board, f"claimed V >= {r}, but the certificate has no move left")
        pit = self.moves[self.next]
        self.next += 1
        if pit >= self.rules.m or board[pit] == 0:
            self.fail(board, f"pit {pit + 1} cannot be played")
        self.counted()
        self.follow(board, pit, r, self.at_least, self.at_most)
        self.lower[board] = r  # above what it held (else it returned): play is acyclic

    def at_most(self, board, r):
        if r >= sum(board):
            return
        v = self.known(board)
        if v is not None:
            if v > r:
                self.fail(board, f"claimed V <= {r}, but V = {v}")
            return
        if self.upper.get(board, r + 1) <= r:
            return
        self.counted()
        for pit in range(self.rules.m):
            if board[pit]:
                self.follow(board, pit, r, self.at_most, self.at_least)
        self.upper[board] = r

    def follow(self, board, pit, r, same, other):
        """Plays pit and asks the child the claim "the mover's V is r" leads to: the same claim
        (less the gain) when the mover moves again, else the other one on gain - r."""
        child, gain, extra = play(self.rules, board, pit)
        self.path.append(pit)
        if extra:
            same(child, r - gain)
        else:
            other(child, gain - r)
        self.path.pop()

    def check(self, board, value):
        self.at_least(board, value)
        self.at_most(board, value)
        if self.next != len(self.moves):
            raise Rejected(f"{len(self.moves) - self.next} moves left unread: the certificate "
                           "was not written for this walk")


def check(path, args, databases):
    """Checks one certificate and prints what it proves: 0 proven, 1 not, 2 unreadable. The
    layers it reads are kept in `databases` for the next certificates of the same layers."""
    start = time.monotonic()
    try:
        rules, board, value, top, layers, moves, fields = read_certificate(path)
        if top and not args.db:
            raise BadInput(f"the certificate's leaves are layers 1..{top} of a database: give --db")
        key = (rules.describe(), repr(layers))
        if key not in databases:
            databases.clear()  # one database's cache at a time
            databases[key] = Database(args.db or ".", rules, layers, args.body_checksums,
                                      int(args.cache_gb * (1 << 30)) // 65536)
        database = databases[key]
        reads = database.reads
        checker = Checker(rules, top, database, moves)
        checker.check(board, value)
        if checker.progress:
            print("\r\033[K", end="", file=sys.stderr)
    except BadInput as e:
        # A layer's problem names its file already; the certificate's is named here.
        print(f"check_certificate.py: {path}: {e}", file=sys.stderr)
        return 2
    except (MemoryError, zstandard.ZstdError) as e:
        print(f"check_certificate.py: {path}: cannot be read: {e!r}", file=sys.stderr)
        return 2
    except Rejected as e:
        print(f"REJECTED: {path}: {e}", file=sys.stderr)
        return 1
    seconds = time.monotonic() - start
    m = rules.m
    print(f"PROVEN: {path}: the board "
          f"{','.join(map(str, board[:m]))}/{','.join(map(str, board[m:]))} "
          f"({rules.describe()}) is worth exactly {value:+d} to the player to move")
    if "position" in fields:
        margin = value + position_stores(m, fields["position"])
        print(f"  position {fields['position']}: final margin {margin:+d} for the player to move")
    print(f"  {checker.positions} positions expanded, {len(moves)} moves read, "
          f"{checker.finished} finished games valued, {database.reads - reads} database values "
          f"read, {seconds:.1f} s")
    if top:
        print(f"  trusted: the values of these layer files in {args.db} (header, index and zstd "
              "frame checksums checked" + (", body checksums recomputed)" if args.body_checksums
                                          else "; body checksums not recomputed)"))
        inside = os.path.realpath(args.db) + os.sep
        for s in sorted(database.layers):
            layer = database.layers[s]
            real = os.path.realpath(layer.path)  # a link out of --db is named where it leads
            shown = os.path.basename(layer.path) if real.startswith(inside) else \
                f"{os.path.basename(layer.path)} -> {real} (outside {args.db})"
            print(f"    {shown}  checksum {layer.body_checksum:016x}  "
                  f"{layer.decoded} blocks decoded")
        print(f"  `kalah verify --full {args.db}` recomputes every layer's values from their "
              "children")
    else:
        print("  trusted: nothing but this checker (every leaf is a finished game)")
    return 0


def main():
    parser = argparse.ArgumentParser(
        description="Checks kalah certificates (kalah solve --certificate FILE, kalah fair "
                    "--certificates DIR) with code of its own: the value each claims is proven "
                    "when every move is legal, every reply is covered and every leaf agrees with "
                    "the rules or the database.",
        epilog="Exit status: 0 every certificate proven, 1 one not proven, 2 unreadable input.")
    parser.add_argument("certificate", nargs="+",
                        help="one or more: those of the same database share its layers' reading")
    parser.add_argument("--db", metavar="DIR",
                        help="the database directory whose layers the certificate's leaves are in "
                             "(needed when its leaf-layer is above 0)")
    parser.add_argument("--no-body-checksums", dest="body_checksums", action="store_false",
                        help="do not recompute the body checksum of each layer file the proof "
                             "reads (they are by default: about 5 s for Kalah(6,4) over a "
                             "22-seed database), trusting that the files in --db are the ones "
                             "the certificate names")
    parser.add_argument("--body-checksums", dest="body_checksums", action="store_true",
                        help=argparse.SUPPRESS)  # the default now; kept for old scripts
    parser.add_argument("--cache-gb", type=float, default=2, metavar="GB",
                        help="decoded blocks kept (default 2); a cache that holds the layers the "
                             "proof reads (1 GB per 10^9 boards) decodes each block once")
    args = parser.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends it quietly, as any filter
    if not 0 < args.cache_gb <= 1e6:  # nan and inf too
        parser.error(f"--cache-gb must be a positive number of GB, at most 10^6, "
                     f"not {args.cache_gb}")
    sys.setrecursionlimit(1_000_000)
    databases = {}
    results = [check(path, args, databases) for path in args.certificate]
    return 2 if 2 in results else 1 if 1 in results else 0


if __name__ == "__main__":
    sys.exit(main())
