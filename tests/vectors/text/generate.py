"""Writes uuid.json and uid8.json beside this file: the text forms of edge and random ids, made by
independent references, never by comb_ext's code:

  base32hex   Python's base64.b32hexencode of the 16 bytes, the '=' padding stripped (what PostgreSQL 19's
              rtrim(encode(id::bytea, 'base32hex'), '=') gives)
  crockford   python-ulid's str(ULID.from_uuid(id)) (PyPI python-ulid, the version scripts/setup.sh pins)
  uid8        the 64 bits with the sign bit flipped, 13 Crockford digits, written out here from that
              definition (no library has this form)

    /var/cache/comb_ext/venv/bin/python tests/vectors/text/generate.py

Deterministic (seed 32): running it again gives the same files.
"""
import base64
import json
import pathlib
import random
import uuid

import ulid

HERE = pathlib.Path(__file__).resolve().parent
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def uuids(rng):
    ids = [0, 2**128 - 1]
    ids += [1 << bit for bit in range(128)]
    ids += [(2**128 - 1) ^ (1 << bit) for bit in range(0, 128, 7)]
    ids += [0xFF << (8 * byte) for byte in range(16)]
    ids += [rng.getrandbits(128) for _ in range(200)]
    # uuidv7-looking ids: the version and variant bits set.
    for _ in range(50):
        v = rng.getrandbits(128)
        v = (v & ~(0xF << 76)) | (0x7 << 76)
        v = (v & ~(0x3 << 62)) | (0x2 << 62)
        ids.append(v)
    return ids


def uid8s(rng):
    ids = [-(2**63), -(2**63) + 1, -1, 0, 1, 2**63 - 1]
    ids += [1 << bit for bit in range(63)] + [-(1 << bit) for bit in range(64)]
    ids += [rng.getrandbits(64) - 2**63 for _ in range(200)]
    return ids


def uid8_text(i):
    u = (i + 2**64) % 2**64 ^ (1 << 63)
    return "".join(CROCKFORD[(u >> (60 - 5 * k)) & 31] for k in range(13))


def main():
    rng = random.Random(32)
    entries = []
    for v in uuids(rng):
        raw = v.to_bytes(16, "big")
        u = uuid.UUID(bytes=raw)
        entries.append({
            "uuid": str(u),
            "base32hex": base64.b32hexencode(raw).decode().rstrip("="),
            "crockford": str(ulid.ULID.from_uuid(u)),
        })
    (HERE / "uuid.json").write_text(json.dumps(entries, indent=1) + "\n")
    rows = [{"int64": i, "text": uid8_text(i)} for i in uid8s(rng)]
    (HERE / "uid8.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(f"wrote {len(entries)} uuids and {len(rows)} uid8s, python-ulid {ulid.__version__}")


if __name__ == "__main__":
    main()
