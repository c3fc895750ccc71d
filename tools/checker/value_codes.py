"""The layer files' block codes for the certificate checker (certificate_layers.py):
base/checksum.h's hash, format 2's value blocks (db/value_blocks.h) and format 3's line blocks
(db/value_lines.h), written from those descriptions alone, sharing no code with kalah's C++. A
block that is not what its description allows raises ValueError saying why.
"""

import struct

P1, P2, MASK = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, (1 << 64) - 1


def bad(why):
    raise ValueError(why)


def checksum(data):
    """base/checksum.h's documented hash: little-endian words (the tail zero-padded), each mixed as
    h = rotl(h ^ (w * P1), 31) * P2, then the length, then an avalanche."""
    h = 0x27D4EB2F165667C5
    padded = data + bytes(-len(data) % 8)
    for (w,) in struct.iter_unpack("<Q", padded):
        h ^= (w * P1) & MASK
        h = ((((h << 31) | (h >> 33)) & MASK) * P2) & MASK
    h ^= (len(data) * P1) & MASK
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & MASK
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & MASK
    return h ^ (h >> 33)


def value_block(data, n, symbols, number):
    """The n values of a format-2 block (db/value_blocks.h's layout, read here from that
    description alone): its checksum, tables and every code checked; ValueError otherwise."""
    contexts, spans = symbols + 1, -(-n // 1024)
    lists_at = 14 + 68 * spans + 2 * (contexts + 1)
    if len(data) < lists_at + 100:
        bad("shorter than its own tables")
    if struct.unpack_from("<Q", data)[0] != checksum(number.to_bytes(8, "little") + data[8:]):
        bad("checksum mismatch")
    k, reserved, stream_at = struct.unpack_from("<BBI", data, 8)
    if k > 3 or reserved != 0:
        bad("a bad Rice parameter")
    offsets = struct.unpack_from(f"<{contexts + 1}H", data, lists_at - 2 * (contexts + 1))
    if offsets[0] != 0 or any(not 0 <= b - a <= symbols for a, b in zip(offsets, offsets[1:])):
        bad("a bad table of values")
    if stream_at != lists_at + offsets[-1] or len(data) < stream_at + 100:
        bad("a bad stream offset")
    lists = [data[lists_at + a:lists_at + b] for a, b in zip(offsets, offsets[1:])]
    if any(v >= symbols for v in data[lists_at:stream_at]):
        bad("a value its layer cannot have")
    stream = data[stream_at:]
    stream_bits = (len(stream) - 100) * 8  # then 100 zero bytes
    values = bytearray(n)
    for first in range(0, n, 32):  # each mini-block of 32 values, from its own start
        span = 14 + 68 * (first // 1024)
        (anchor,) = struct.unpack_from("<I", data, span)
        (start,) = struct.unpack_from("<H", data, span + 4 + 2 * (first % 1024 // 32))
        pos, context = anchor + start, symbols
        if pos >= stream_bits:
            bad("a mini-block offset past its stream")
        for i in range(first, min(n, first + 32)):
            window = int.from_bytes(stream[pos >> 3:(pos >> 3) + 5], "little") >> (pos & 7)
            zeros = 0
            while zeros < 15 and not window >> zeros & 1:
                zeros += 1
            if zeros < 15:  # q zero bits, a one, k low bits
                rank = zeros << k | (window >> (zeros + 1)) & ((1 << k) - 1)
                pos += zeros + 1 + k
            else:  # 15 zero bits, then the rank in 8
                rank = window >> 15 & 0xFF
                pos += 23
            if rank >= len(lists[context]):
                bad("a rank its context does not have")
            context = values[i] = lists[context][rank]
    return bytes(values)


def value_lines_block(data, n, symbols, number):
    """The n values of a format-3 block: its checksum, tables, line index and every code
    checked."""
    size, contexts = len(data), symbols + 1
    index_at = 12 + contexts + (contexts + 7) // 8
    if size < max(64, index_at) or size % 64:
        bad("a size no line block has")
    if struct.unpack_from("<Q", data)[0] != checksum(number.to_bytes(8, "little") + data[8:]):
        bad("checksum mismatch")
    k, g, lines = struct.unpack_from("<BBH", data, 8)
    if k > 3 or g > 8:
        bad("a bad Rice parameter or part size")
    head = -(-(index_at + 2 * lines) // 64) * 64
    if not 0 < lines <= n or head + 64 * lines != size:
        bad("a line count its size does not hold")
    centers, up = data[12:12 + contexts], data[12 + contexts:index_at]
    if any(c >= symbols for c in centers):
        bad("a center no value of its layer has")
    first = list(struct.unpack_from(f"<{lines}H", data, index_at)) + [n]
    if first[0] != 0 or any(not a < b for a, b in zip(first, first[1:])):
        bad("a bad line index")
    values = bytearray(n)
    for j in range(lines):
        line = int.from_bytes(data[head + 64 * j:head + 64 * (j + 1)], "little")
        parts = -(-(first[j + 1] - first[j]) // (1 << g))
        if 9 * (parts - 1) > 512:
            bad("more parts than its line holds")
        for p in range(parts):
            pos = 9 * (parts - 1) if p == 0 else line >> 9 * (p - 1) & 0x1FF
            v = symbols  # a part's first value's context
            for i in range(first[j] + (p << g), min(first[j + 1], first[j] + (p + 1 << g))):
                window = line >> pos
                if window & 0x7FFF:  # q zero bits, a one, k low bits
                    q = (window & -window).bit_length() - 1
                    rank = q << k | window >> (q + 1) & ((1 << k) - 1)
                    pos += q + 1 + k
                else:  # 15 zero bits, then the rank in 9
                    rank = window >> 15 & 0x1FF
                    pos += 24
                if pos > 512:
                    bad("a code past its line")
                d = (rank + 1) >> 1 if rank & 1 else -(rank >> 1)
                v = centers[v] + (d if up[v >> 3] >> (v & 7) & 1 else -d)
                if not 0 <= v < symbols:
                    bad("a value its layer cannot have")
                values[i] = v
    return bytes(values)
