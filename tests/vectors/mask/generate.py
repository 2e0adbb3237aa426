#!/usr/bin/env python3
"""Vectors of keyed masking (docs/ids-that-do-not-tell-their-age.md#masking), computed from the
construction as that page writes it down, by this independent implementation in plain Python (SipHash-2-4
included, checked against uuidv47's tests.c vectors before use). tests/mask_construction_vectors.rs checks
src/rules/mask.rs against every entry, both ways.

    python3 tests/vectors/mask/generate.py > tests/vectors/mask/mask.json

Deterministic (seeded): rerunning it rewrites the same file.
"""
import json
import random
import uuid

M64 = (1 << 64) - 1


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & M64


def siphash24(k0, k1, message):
    """SipHash-2-4 (Aumasson and Bernstein, 2012), 64-bit output."""
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573

    def rounds(n):
        nonlocal v0, v1, v2, v3
        for _ in range(n):
            v0 = (v0 + v1) & M64; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
            v2 = (v2 + v3) & M64; v3 = rotl(v3, 16); v3 ^= v2
            v0 = (v0 + v3) & M64; v3 = rotl(v3, 21); v3 ^= v0
            v2 = (v2 + v1) & M64; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)

    blocks = len(message) // 8
    for i in range(blocks):
        m = int.from_bytes(message[8 * i:8 * i + 8], "little")
        v3 ^= m
        rounds(2)
        v0 ^= m
    tail = message[8 * blocks:] + bytes(7 - len(message) % 8)
    m = int.from_bytes(tail, "little") | ((len(message) & 0xFF) << 56)
    v3 ^= m
    rounds(2)
    v0 ^= m
    v2 ^= 0xFF
    rounds(4)
    return v0 ^ v1 ^ v2 ^ v3


# uuidv47's tests.c: key 00..0f, message 00, 01, ... of lengths 0 to 12 (the SipHash paper's vectors).
TESTS_C = ["310e0edd47db6f72", "fd67dc93c539f874", "5a4fa9d909806c0d", "2d7efbd796666785", "b7877127e09427cf",
           "8da699cd64557618", "cee3fe586e46c9cb", "37d1018bf50002ab", "6224939a79f5f593", "b0e4a90bdf82009e",
           "f3b9dd94c5bb5d7a", "a7ad6b22462fb3f4", "fbe50e86bc8f1e75"]
for length, expected in enumerate(TESTS_C):
    got = siphash24(0x0706050403020100, 0x0F0E0D0C0B0A0908, bytes(range(length)))
    assert got == int.from_bytes(bytes.fromhex(expected), "little"), length


def key_words(key):
    """A key's 16 bytes are k0 then k1, each little-endian (uuidv47's layout)."""
    return int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little")


# ---- COMB formats: the time field (string bytes, most significant first) and the fixed bits.
BYTES = list(range(16))
SQLSERVER = [10, 11, 12, 13, 14, 15, 8, 9, 7, 6, 5, 4, 3, 2, 1, 0]
DOTNET = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15]
UNIX_END_MS = 253402300800000            # 10000-01-01: RT.Comb's unix clock ends before it
SQL_DAY = 25920000                        # 1/300 s units in a day
TICKS_MAX = 3155378975999999999           # DateTime.MaxValue.Ticks
# format: (significance order, field bytes, largest field value, field maker)
FORMATS = {
    "postgresql": (BYTES, 6, lambda r: r.randrange(UNIX_END_MS)),
    "sqlserver": (SQLSERVER, 6, lambda r: r.randrange(UNIX_END_MS)),
    "legacy": (SQLSERVER, 6, lambda r: r.randrange(65536) << 32 | r.randrange(SQL_DAY)),
    "binary": (DOTNET, 6, lambda r: r.randrange(UNIX_END_MS)),
    "postgresql_sqldatetime": (BYTES, 6, lambda r: r.randrange(65536) << 32 | r.randrange(SQL_DAY)),
    "binary_sqldatetime": (DOTNET, 6, lambda r: r.randrange(65536) << 32 | r.randrange(SQL_DAY)),
    "ticks": (SQLSERVER, 8, lambda r: r.randrange(TICKS_MAX + 1)),
    "uuidv7": (BYTES, 6, lambda r: r.randrange(1 << 48)),
}


def fixed(format_name, position):
    if format_name == "ticks":
        return 0xF0 if position == 7 else 0
    return {6: 0xF0, 8: 0xC0}.get(position, 0)


def set_fixed(b, format_name, facade):
    if format_name == "ticks":
        b[7] = 0xC0 | b[7] & 0x0F
        return
    version = 0x70 if format_name == "uuidv7" and not facade else 0x40
    b[6] = version | b[6] & 0x0F
    b[8] = 0x80 | b[8] & 0x3F


def comb_id(r, format_name):
    order, length, field = FORMATS[format_name]
    b = bytearray(r.randbytes(16))
    set_fixed(b, format_name, False)
    for position, byte in zip(order[:length], field(r).to_bytes(length, "big")):
        b[position] = byte
    return bytes(b)


def counter_slots(format_name):
    """The 12 bits right after the time field in the format's order (the generator's fraction of the clock
    unit), skipping fixed bits, which are always a byte's high bits: (position, mask, shift, width). Ticks
    has none."""
    order, length, _ = FORMATS[format_name]
    remaining = 0 if format_name == "ticks" else 12
    slots = []
    for position in order[length:]:
        if remaining == 0:
            break
        width = 8 - bin(fixed(format_name, position)).count("1")
        take = min(width, remaining)
        remaining -= take
        shift = width - take
        slots.append((position, ((1 << take) - 1) << shift, shift, take))
    return slots


# Laid out as UUIDv7: uuidv47 leaves the 12 bits after the time alone, and these stay uuidv47's bit for bit.
UUIDV7_LAYOUT = ("uuidv7", "postgresql")


def comb_mask(id_bytes, format_name, key):
    """uuidv47's construction on the format's time field: XOR it with SipHash-2-4 of the other bytes
    (string order, fixed bits cleared), then the façade's fixed bits (version 4, variant 10; ticks: its
    marker). Outside the UUIDv7 layout, the 12 bits after the time field are also left out of the hash's
    input and XORed with the hash's bits 48-59."""
    order, length, _ = FORMATS[format_name]
    time = order[:length]
    slots = [] if format_name in UUIDV7_LAYOUT else counter_slots(format_name)
    hidden = {position: mask for position, mask, _, _ in slots}
    message = bytes(b & ~(fixed(format_name, p) | hidden.get(p, 0)) & 0xFF
                    for p, b in enumerate(id_bytes) if p not in time)
    h = siphash24(*key_words(key), message)
    mask = h.to_bytes(8, "big")[8 - length:]
    b = bytearray(id_bytes)
    for position, m in zip(time, mask):
        b[position] ^= m
    value, remaining = (h >> 48) & 0xFFF, 12
    for position, _, shift, take in slots:
        remaining -= take
        b[position] ^= ((value >> remaining) & ((1 << take) - 1)) << shift
    set_fixed(b, format_name, True)
    return bytes(b)


# ---- muid (128 bits), sno (80), uid8 (64): 8 Feistel rounds; the round function is SipHash-2-4 of
# ("F", family tag, round number, the right half big-endian), cut to the half's width. "F" keeps every
# round input's length (11, 8, 7 bytes) off uuidv47's 10 under the shared key.
FEISTEL = {"muid": (128, 1), "sno": (80, 2), "uid8": (64, 3)}
ROUNDS = 8


def feistel_mask(value, family, key):
    bits, tag = FEISTEL[family]
    half = bits // 2
    half_mask = (1 << half) - 1
    left, right = value >> half, value & half_mask
    for round_number in range(ROUNDS):
        message = b"F" + bytes([tag, round_number]) + right.to_bytes(half // 8, "big")
        left, right = right, left ^ (siphash24(*key_words(key), message) & half_mask)
    return left << half | right


def main():
    r = random.Random(47)
    keys = [bytes.fromhex("efcdab89674523011032547698badcfe"), bytes(16), bytes([0xFF] * 16), r.randbytes(16)]
    comb = []
    for key in keys:
        for format_name in FORMATS:
            for _ in range(12):
                id_bytes = comb_id(r, format_name)
                comb.append({"format": format_name, "key": key.hex(), "id": str(uuid.UUID(bytes=id_bytes)),
                             "facade": str(uuid.UUID(bytes=comb_mask(id_bytes, format_name, key)))})
    feistel = []
    for key in keys:
        for family, (bits, _) in FEISTEL.items():
            top = (1 << bits) - 1
            for value in [0, 1, top, top >> 1, 1 << (bits - 1)] + [r.randrange(top + 1) for _ in range(10)]:
                feistel.append({"family": family, "key": key.hex(), "id": f"{value:0{bits // 4}x}",
                                "masked": f"{feistel_mask(value, family, key):0{bits // 4}x}"})
    print(json.dumps({"comb": comb, "feistel": feistel}, indent=1))


main()
