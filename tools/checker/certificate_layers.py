"""What the certificate checker (tools/checker/check_certificate.py) reads besides the certificate:
positions in the absolute notation, and the layer files a certificate reads its leaves from, their
header, index and blocks checked and decoded, and boards ranked into them, written from the
documents alone (docs/design.md sections 4 and 6, db/layer_file.h's layout, base/checksum.h's
hash), sharing no code with kalah's C++.
"""

import math
import os
import re
import stat
import struct
from collections import OrderedDict

import zstandard

from value_codes import checksum, value_block, value_lines_block  # noqa: F401 (checksum: tests)


class BadInput(Exception):
    """Input that cannot be read: a malformed certificate, a missing or damaged layer file."""


def whole_number(text, what):
    """An ASCII decimal integer (an optional minus, digits 0-9 only: not '²' or Arabic-Indic
    digits, which Python's int() and isdigit() would take); BadInput otherwise."""
    if not isinstance(text, str) or not re.fullmatch(r"-?[0-9]{1,20}", text):
        raise BadInput(f"{what} is not a whole number: {text!r}")
    return int(text)


def open_regular(path, named=True):
    """A regular file opened for reading in binary: a FIFO, a device or a directory at the name
    (or behind a symbolic link) is refused at once, never read. BadInput's message starts with
    the path when `named`."""
    said = f"{path}: " if named else ""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise BadInput(f"{said}{e.strerror}") from e
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise BadInput(f"{said}not a regular file")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


# --- Positions (docs/design.md section 2) ------------------------------------------------------

def position_board(m, text):
    """The board (the mover's pits, then the opponent's) of an absolute position, 2m+2 bins
    counter-clockwise from South's first pit with S or N first or last (docs/design.md section
    2); None when it is not one."""
    parts = text.replace(":", ",").split(",")
    side = parts.pop() if parts and parts[-1] in ("S", "N") else parts.pop(0) if parts else ""
    if side not in ("S", "N") or len(parts) != 2 * m + 2 or \
            not all(p.isascii() and p.isdigit() for p in parts):
        return None
    bins = [int(p) for p in parts]
    south, north = bins[:m], bins[m + 1:2 * m + 1]
    try:
        return bytes(south + north if side == "S" else north + south)
    except ValueError:  # a pit over 255
        return None


def position_stores(m, text):
    """The mover's store minus the opponent's of an absolute position (position_board's)."""
    parts = text.replace(":", ",").split(",")
    side = parts.pop() if parts[-1] in ("S", "N") else parts.pop(0)
    south, north = whole_number(parts[m], "a store"), whole_number(parts[2 * m + 1], "a store")
    return south - north if side == "S" else north - south


# --- Layer files (docs/design.md sections 4 and 6, db/layer_file.h) ---------------------------

HEADER = struct.Struct("<8sIBBBBHBBIQQQQIIQQQ")
CODES = {"capture": ("standard", "empty"), "end": ("immediate", "on-turn"),
         "remainder": ("owner", "discard")}


def layer_file_name(rules, s):
    """The only name a layer file of these rules and seeds may have (db/file_names.h)."""
    return f"kalah-m{rules.m}-{rules.capture}-{rules.end}-{rules.remainder}-s{s}.kdb"


def converted(version, written_format):
    """Why a layer file's bytes may differ from those a certificate names though its values do
    not: `kalah build` rewrites a layer in the other format (db/layer_file.h's version)."""
    if written_format is not None and written_format != version:
        return (f"the layer was rewritten in format {version} since the certificate was written "
                f"over format {written_format}; its values are the same, but a certificate "
                "names the bytes it read: write the certificate again")
    if written_format is None:
        return ("not the file the certificate was written over (if the database was converted "
                "to another format since, its values are the same: write the certificate again)")
    return "not the file the certificate was written over"


class Layer:
    """One layer file: its header and index checked when opened, its body checksum recomputed
    when the proof first reads from it (unless told not to), blocks decoded on demand."""

    def __init__(self, path, rules, s, expect_checksum, body_checksums, written_format=None):
        self.path, self.s, self.rules = path, s, rules
        self.body_unchecked = body_checksums
        try:
            with open_regular(path) as f:
                raw = f.read(128)
                size = os.fstat(f.fileno()).st_size
                fields = HEADER.unpack_from(raw) if len(raw) == 128 else None
                if fields is None:
                    raise BadInput(f"{path}: shorter than a header")
                (magic, version, m, capture, end, remainder, layer, encoding, coding,
                 self.per_block, self.boards, self.blocks, index_at, file_size, flags, _writer,
                 self.body_checksum, index_checksum, header_checksum) = fields
                zeroed = raw[:80] + bytes(8) + raw[88:]
                expect = {
                    "magic": (magic, b"KALAHDB\x1a"),
                    "format version": (version, version if version in (1, 2, 3) else "1, 2 or 3"),
                    "pits": (m, rules.m),
                    "capture": (CODES["capture"][capture] if capture < 2 else capture,
                                rules.capture),
                    "end": (CODES["end"][end] if end < 2 else end, rules.end),
                    "remainder": (CODES["remainder"][remainder] if remainder < 2 else remainder,
                                  rules.remainder),
                    "layer": (layer, s),
                    "value encoding": (encoding, 1 if rules.remainder == "owner" else 2),
                    "block coding": (coding, version - 1),
                    "boards": (self.boards, layer_size(rules.m, s)),
                    "blocks": (self.blocks, -(-self.boards // max(self.per_block, 1))),
                    "complete flag": (flags & 1, 1),
                    "header checksum": (header_checksum, checksum(zeroed)),
                    "body checksum": (f"{self.body_checksum:016x}", expect_checksum),
                }
                for field, (got, want) in expect.items():
                    if got != want and field == "body checksum":
                        raise BadInput(f"{path}: {field} is {got!r}, expected {want!r}: "
                                       + converted(version, written_format))
                    if got != want:
                        raise BadInput(f"{path}: {field} is {got!r}, expected {want!r}")
                if size != file_size:
                    raise BadInput(f"{path}: the file has {size} bytes, its header says "
                                   f"{file_size}")
                f.seek(index_at)
                raw_index = f.read(8 * (self.blocks + 1))
                if len(raw_index) != 8 * (self.blocks + 1) or checksum(raw_index) != index_checksum:
                    raise BadInput(f"{path}: block index damaged")
                self.index = [w for (w,) in struct.iter_unpack("<Q", raw_index)]
                if self.index[0] != 128 or self.index[-1] != index_at:
                    raise BadInput(f"{path}: block index does not span the blocks")
                self.file_size, self.version = file_size, version
        except OSError as e:
            raise BadInput(f"{path}: {e.strerror}") from e
        self.file = open_regular(path)
        self.decoded = 0

    def check_body(self):
        """The body checksum recomputed: a file whose header was made to name the genuine
        checksum over other values is refused here."""
        self.file.seek(128)
        if checksum(self.file.read(self.file_size - 128)) != self.body_checksum:
            raise BadInput(f"{self.path}: body checksum mismatch: not the layer file it claims")
        self.body_unchecked = False

    def block(self, i):
        if self.body_unchecked:
            self.check_body()
        self.file.seek(self.index[i])
        frame = self.file.read(self.index[i + 1] - self.index[i])
        want = min(self.per_block, self.boards - i * self.per_block)
        top = self.s if self.rules.remainder == "owner" else 2 * self.s
        if self.version in (2, 3):
            decode = value_block if self.version == 2 else value_lines_block
            try:
                values = decode(frame, want, top + 1, i)
            except ValueError as e:
                raise BadInput(f"{self.path}: block {i}: {e}") from e
        else:
            try:  # each frame carries zstd's checksum of its content, checked here
                values = zstandard.ZstdDecompressor().decompress(frame)
            except zstandard.ZstdError as e:
                raise BadInput(f"{self.path}: block {i}: {e}") from e
        if len(values) != want or max(values) > top:
            raise BadInput(f"{self.path}: block {i} holds values its layer cannot have")
        self.decoded += 1
        return values


def layer_size(m, s):
    return math.comb(s + 2 * m - 1, 2 * m - 1)


class Database:
    """V of boards with at most `top` seeds, read through a cache of decoded blocks (2 GiB:
    the leaves of a proof lie all over the layers, and a block decodes in about a millisecond)."""

    def __init__(self, directory, rules, stamps, body_checksums, cache_blocks=32768):
        self.rules, self.m = rules, rules.m
        for s, (name, *_) in stamps.items():  # a file in `directory`, by its one name, or none
            if name != layer_file_name(rules, s):
                raise BadInput(f"layer {s} is named {name!r}, not {layer_file_name(rules, s)!r}: "
                               "a certificate reads the database's own files in --db, no other")
        self.layers = {s: Layer(os.path.join(directory, name), rules, s, stamp, body_checksums,
                                written_format)
                       for s, (name, stamp, written_format) in stamps.items()}
        self.cache, self.cache_blocks = OrderedDict(), cache_blocks
        self.reads = 0
        m, top = rules.m, max(stamps, default=0)
        self.rows = [math.comb(k + m - 1, m - 1) for k in range(top + 1)]
        # offset[s][k]: boards of layer s with fewer than k seeds in the mover's row.
        self.offset = [[sum(self.rows[j] * self.rows[s - j] for j in range(k))
                        for k in range(s + 1)] for s in range(top + 1)]
        self.comb = [[math.comb(n, j) for j in range(m)] for n in range(top + m)]

    def row_rank(self, row):
        """The combinatorial number system, read from the pit next to the store back."""
        m, rank, bar = self.m, 0, 0
        for j in range(m - 1):
            bar += row[m - 1 - j]
            rank += self.comb[bar + j][j + 1]
        return rank

    def value(self, board):
        m = self.m
        mover, opponent = board[:m], board[m:]
        k, s = sum(mover), sum(board)
        rank = (self.offset[s][k] + self.row_rank(mover) * self.rows[s - k]
                + self.row_rank(opponent))
        layer = self.layers[s]
        block, at = divmod(rank, layer.per_block)
        key = (s, block)
        values = self.cache.get(key)
        if values is None:
            values = self.cache[key] = layer.block(block)
            if len(self.cache) > self.cache_blocks:
                self.cache.popitem(last=False)
        else:
            self.cache.move_to_end(key)
        self.reads += 1
        code = values[at]
        return 2 * code - s if self.rules.remainder == "owner" else code - s
