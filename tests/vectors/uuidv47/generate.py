"""Writes facades.json and siphash.json beside this file, from references independent of comb_ext's code
(PROVENANCE says where each comes from):

  facades.json  uuidv47's encode (its own C, uuidv47.h, through PyPI python-uuidv47 1.0.9, the version
                scripts/setup.sh pins) of edge and seeded random uuidv7s under uuidv47's demo key and 3
                more fixed keys; each façade is also checked to decode back with python-uuidv47.
  siphash.json  the 64 SipHash-2-4 reference vectors of the SipHash paper (key 00..0f, message 00 01 ..
                len-1, len 0..63), as published in veorq/SipHash's vectors.h; the first 13 are checked
                against the ones uuidv47's tests.c quotes, and all 64 against the paper's algorithm
                written out below.

    /var/cache/comb_ext/venv/bin/python tests/vectors/uuidv47/generate.py

Deterministic (seed 47): running it again gives the same files.
"""
import json
import pathlib
import random
import uuid

import python_uuidv47

HERE = pathlib.Path(__file__).resolve().parent
MASK64 = 2**64 - 1

# veorq/SipHash vectors.h, vectors_sip64: SipHash-2-4's output bytes (little-endian) for len 0..63.
VECTORS_H_SIP64 = """
310e0edd47db6f72 fd67dc93c539f874 5a4fa9d909806c0d 2d7efbd796666785 b7877127e09427cf 8da699cd64557618
cee3fe586e46c9cb 37d1018bf50002ab 6224939a79f5f593 b0e4a90bdf82009e f3b9dd94c5bb5d7a a7ad6b22462fb3f4
fbe50e86bc8f1e75 903d84c02756ea14 eef27a8e90ca23f7 e545be4961ca29a1 db9bc2577fcc2a3f 9447be2cf5e99a69
9cd38d96f0b3c14b bd6179a71dc96dbb 98eea21af25cd6be c7673b2eb0cbf2d0 883ea3e395675393 c8ce5ccd8c030ca8
94af49f6c650adb8 eab8858ade92e1bc f315bb5bb835d817 adcf6b0763612e2f a5c91da7acaa4dde 716595876650a2a6
28ef495c53a387ad 42c341d8fa92d832 ce7cf2722f512771 e37859f94623f3a7 381205bb1ab0e012 ae97a10fd434e015
b4a31508beff4d31 81396229f0907902 4d0cf49ee5d4dcca 5c73336a76d8bf9a d0a704536ba93e0e 925958fcd6420cad
a915c29bc8067318 952b79f3bc0aa6d4 f21df2e41d4535f9 87577519048f53a9 10a56cf5dfcd9adb eb75095ccd986cd0
51a9cb9ecba312e6 96afadfc2ce666c7 72fe52975a4364ee 5a1645b276d592a1 b274cb8ebf87870a 6f9bb4203de7b381
eaecb2a30b22a87f 9924a43cc1315724 bd838d3aafbf8db7 0b1a2a3265d51aea 135079a3231ce660 932b2846e4d70666
e1915f5cb1eca46c f325965ca16d629f 575ff28e60381be5 724506eb4c328a95
""".split()

# uuidv47's tests.c, test_siphash_switch_and_vectors_subset: the same vectors for len 0..12.
UUIDV47_TESTS_C = """
310e0edd47db6f72 fd67dc93c539f874 5a4fa9d909806c0d 2d7efbd796666785 b7877127e09427cf 8da699cd64557618
cee3fe586e46c9cb 37d1018bf50002ab 6224939a79f5f593 b0e4a90bdf82009e f3b9dd94c5bb5d7a a7ad6b22462fb3f4
fbe50e86bc8f1e75
""".split()


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & MASK64


def siphash24(k0, k1, message):
    """SipHash-2-4 as the paper (Aumasson and Bernstein, 2012) defines it: 2 compression rounds per
    8-byte word, 4 finalisation rounds, the length in the last word's top byte."""
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]

    def sipround():
        v[0] = (v[0] + v[1]) & MASK64; v[1] = rotl(v[1], 13); v[1] ^= v[0]; v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & MASK64; v[3] = rotl(v[3], 16); v[3] ^= v[2]
        v[0] = (v[0] + v[3]) & MASK64; v[3] = rotl(v[3], 21); v[3] ^= v[0]
        v[2] = (v[2] + v[1]) & MASK64; v[1] = rotl(v[1], 17); v[1] ^= v[2]; v[2] = rotl(v[2], 32)

    tail = len(message) % 8
    words = [int.from_bytes(message[i:i + 8], "little") for i in range(0, len(message) - tail, 8)]
    words.append(int.from_bytes(message[len(message) - tail:], "little") | (len(message) & 0xFF) << 56)
    for m in words:
        v[3] ^= m
        sipround(); sipround()
        v[0] ^= m
    v[2] ^= 0xFF
    for _ in range(4):
        sipround()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def siphash_vectors():
    assert len(VECTORS_H_SIP64) == 64 and VECTORS_H_SIP64[:13] == UUIDV47_TESTS_C
    key = bytes(range(16))
    k0, k1 = int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little")
    entries = []
    for length, published in enumerate(VECTORS_H_SIP64):
        message = bytes(range(length))
        expected = int.from_bytes(bytes.fromhex(published), "little")
        assert siphash24(k0, k1, message) == expected, f"len {length}"
        entries.append({"key_hex": key.hex(), "message_hex": message.hex(), "output_le_hex": published,
                        "output_u64": expected})
    return entries


# (k0, k1): uuidv47's demo key (demo.c, tests.c), then three more fixed ones.
KEYS = [
    (0x0123456789ABCDEF, 0xFEDCBA9876543210),
    (0, 0),
    (MASK64, MASK64),
    (0x243F6A8885A308D3, 0x13198A2E03707344),  # pi's hex digits, nothing up the sleeve
]


def v7(ts_ms, rand_a, rand_b):
    """The uuidv7 of a 48-bit time, 12 bits of rand_a and 62 of rand_b (RFC 9562's layout)."""
    value = ts_ms << 80 | 0x7 << 76 | rand_a << 64 | 0b10 << 62 | rand_b
    return str(uuid.UUID(int=value))


def v7s(rng):
    top_ts, top_a, top_b = 2**48 - 1, 2**12 - 1, 2**62 - 1
    ids = [v7(ts, a, b) for ts in (0, top_ts) for a, b in ((0, 0), (top_a, top_b))]
    ids += [v7(ts, 0, 0) for ts in (1, 2**47, 0x018F2D9F9A2A)]
    ids += [v7(0x018F2D9F9A2A, 0xDEF, 0x0C3F7B1A2C4D5E6F)]  # uuidv47's demo id
    ids += [v7(rng.getrandbits(48), rng.getrandbits(12), rng.getrandbits(62)) for _ in range(42)]
    return ids


def facades(rng):
    entries = []
    for k0, k1 in KEYS:
        python_uuidv47.set_keys(k0, k1)
        key_hex = (k0.to_bytes(8, "little") + k1.to_bytes(8, "little")).hex()
        for id in v7s(rng):
            facade = python_uuidv47.encode(id)
            assert python_uuidv47.decode(facade) == id
            entries.append({"k0": f"{k0:016x}", "k1": f"{k1:016x}", "key_hex": key_hex, "uuidv7": id,
                            "facade": facade})
    return entries


def main():
    assert python_uuidv47.__version__ == "1.0.9", python_uuidv47.__version__
    rng = random.Random(47)
    for name, entries in (("facades.json", facades(rng)), ("siphash.json", siphash_vectors())):
        (HERE / name).write_text(json.dumps(entries, indent=1) + "\n")
        print(f"{name}: {len(entries)} entries")


if __name__ == "__main__":
    main()
