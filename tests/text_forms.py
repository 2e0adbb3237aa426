"""The text forms against independent references, on a server (docs/ids-that-do-not-tell-their-age.md).

    python tests/text_forms.py CONNINFO SCHEMA [COUNT]

SCHEMA holds comb_ext, either edition (the compiled one from scripts/test.sh, the SQL one from
tests/portable.sh). COUNT (default 100000) random uuids and as many random bigints, and the edges:

- comb_text(id, 'base32hex') is Python's base64.b32hexencode of the 16 bytes without its '=' padding
  (what PostgreSQL 19's rtrim(encode(id::bytea, 'base32hex'), '=') gives); comb_text(id, 'crockford') is
  python-ulid's str(ULID.from_uuid(id)); typeid_text(id, 'user') is 'user_' and that in lower case;
  uid8_text is the bigint's 64 bits with the sign bit flipped in 13 Crockford digits;
- every text parses back to its id, in upper and in lower case;
- under COLLATE "C" (and in Python's own string order) the texts sort as the ids do: uuids in byte order,
  bigints as signed integers;
- every bad character at every position of a text of each form is 22P02 naming that position: the
  printable ASCII characters that are not the form's digits, control characters, and non-ASCII ones of
  2, 3 and 4 bytes.

Prints one line per check and exits 1 on any failure.
"""
import base64
import random
import sys
import time
import uuid

import psycopg
import ulid

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
failures = []


def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what)
    if not ok:
        failures.append(what)


def uid8_reference(i):
    u = (i % 2**64) ^ (1 << 63)
    return "".join(CROCKFORD[(u >> (60 - 5 * k)) & 31] for k in range(13))


def round_trips_and_order(cur, count, rng):
    ids = [uuid.UUID(bytes=rng.randbytes(16)) for _ in range(count)]
    ids += [uuid.UUID(int=0), uuid.UUID(int=2**128 - 1), uuid.UUID(int=1), uuid.UUID(int=1 << 127)]
    rows = []
    for u in ids:
        b32 = base64.b32hexencode(u.bytes).decode("ascii").rstrip("=")
        rows.append((str(u), b32, str(ulid.ULID.from_uuid(u))))
    cur.execute("CREATE TEMP TABLE text_uuids (u uuid, base32hex text, crockford text)")
    with cur.copy("COPY text_uuids FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
    cur.execute("""
        SELECT count(*),
               count(*) FILTER (WHERE comb_text(u, 'base32hex') = base32hex),
               count(*) FILTER (WHERE comb_text(u, 'crockford') = crockford),
               count(*) FILTER (WHERE typeid_text(u, 'user') = 'user_' || lower(crockford)),
               count(*) FILTER (WHERE comb_parse(base32hex, 'base32hex') = u AND comb_parse(lower(base32hex), 'base32hex') = u),
               count(*) FILTER (WHERE comb_parse(crockford, 'crockford') = u AND comb_parse(lower(crockford), 'crockford') = u),
               count(*) FILTER (WHERE typeid_parse('user_' || lower(crockford), 'user') = u
                                  AND typeid_parse(lower(crockford)) = u AND typeid_prefix('user_' || lower(crockford)) = 'user')
        FROM text_uuids""")
    n, b32, crock, typeid, parse_b32, parse_crock, parse_typeid = cur.fetchone()
    check(b32 == n, f"base32hex = Python's base64.b32hexencode without '=': {b32:,} of {n:,} uuids")
    check(crock == n, f"crockford = python-ulid {ulid.__version__}'s str(ULID.from_uuid(id)): {crock:,} of {n:,}")
    check(typeid == n, f"typeid_text(id, 'user') = 'user_' || lower(crockford): {typeid:,} of {n:,}")
    check(parse_b32 == n, f"comb_parse(text, 'base32hex') = id, upper and lower case: {parse_b32:,} of {n:,}")
    check(parse_crock == n, f"comb_parse(text, 'crockford') = id, upper and lower case: {parse_crock:,} of {n:,}")
    check(parse_typeid == n, f"typeid_parse and typeid_prefix give back id and prefix: {parse_typeid:,} of {n:,}")

    # Order: the rank of each row in id order equals its rank in text order, in SQL and in Python.
    cur.execute("""
        SELECT count(*) FILTER (WHERE by_id <> by_base32hex), count(*) FILTER (WHERE by_id <> by_crockford),
               count(*) FILTER (WHERE by_id <> by_typeid)
        FROM (SELECT row_number() OVER (ORDER BY u) AS by_id,
                     row_number() OVER (ORDER BY comb_text(u, 'base32hex') COLLATE "C") AS by_base32hex,
                     row_number() OVER (ORDER BY comb_text(u, 'crockford') COLLATE "C") AS by_crockford,
                     row_number() OVER (ORDER BY typeid_text(u, 'user') COLLATE "C") AS by_typeid
              FROM text_uuids) AS ranks""")
    misplaced = cur.fetchone()
    check(misplaced == (0, 0, 0), f"ORDER BY text COLLATE \"C\" = ORDER BY id (misplaced base32hex, crockford, typeid: {misplaced})")
    by_bytes = [r[1:] for r in sorted(rows, key=lambda r: uuid.UUID(r[0]).bytes)]
    check([r[0] for r in by_bytes] == sorted(r[1] for r in rows) and [r[1] for r in by_bytes] == sorted(r[2] for r in rows),
          "Python's sorted() of the reference texts is the uuids' byte order")

    bigints = [rng.getrandbits(64) - 2**63 for _ in range(count)] + [-(2**63), -1, 0, 1, 2**63 - 1]
    cur.execute("CREATE TEMP TABLE text_bigints (i bigint, text text)")
    with cur.copy("COPY text_bigints FROM STDIN") as copy:
        for i in bigints:
            copy.write_row((i, uid8_reference(i)))
    cur.execute("""
        SELECT count(*), count(*) FILTER (WHERE uid8_text(i) = text),
               count(*) FILTER (WHERE uid8_parse(text) = i AND uid8_parse(lower(text)) = i),
               (SELECT count(*) FROM (SELECT row_number() OVER (ORDER BY i) AS a,
                                             row_number() OVER (ORDER BY uid8_text(i) COLLATE "C") AS b
                                      FROM text_bigints) r WHERE a <> b)
        FROM text_bigints""")
    n, texts, parsed, misplaced = cur.fetchone()
    check(texts == n, f"uid8_text = the sign-flipped 64 bits in 13 Crockford digits: {texts:,} of {n:,} bigints")
    check(parsed == n, f"uid8_parse(uid8_text(i)) = i, upper and lower case: {parsed:,} of {n:,}")
    check(misplaced == 0, f"ORDER BY uid8_text(i) COLLATE \"C\" = ORDER BY i, negatives included ({misplaced} misplaced)")


def bad_characters(cur):
    """Every bad character at every position of one text of each form: 22P02 naming that position."""
    cur.execute("""
        CREATE FUNCTION pg_temp.refused_at(statement text) RETURNS text LANGUAGE plpgsql AS $f$
        BEGIN
            EXECUTE statement;
            RETURN 'accepted';
        EXCEPTION WHEN others THEN
            RETURN SQLSTATE || ' ' || coalesce(substring(SQLERRM FROM 'at position (\\d+)'), 'no position');
        END $f$""")
    good_uuid = "5a5a5a5a-a5a5-5a5a-a5a5-5a5a5a5a5a5a"
    raw = uuid.UUID(good_uuid).bytes
    forms = {
        # form: (good text, the SQL call with %s for the text, the form's digits, characters before the text)
        "base32hex": (base64.b32hexencode(raw).decode().rstrip("="), "comb_parse(%s, 'base32hex')",
                      "0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv", ""),
        "crockford": (str(ulid.ULID.from_uuid(uuid.UUID(good_uuid))), "comb_parse(%s, 'crockford')",
                      CROCKFORD + CROCKFORD.lower() + "IiLlOo", ""),
        # TypeID: _ is the separator, so not a bad character of the suffix (the prefix would take it).
        "typeid": ("order_" + str(ulid.ULID.from_uuid(uuid.UUID(good_uuid))).lower(), "typeid_parse(%s)",
                   CROCKFORD.lower() + "_", "order_"),
        "uid8": (uid8_reference(0x5A5A5A5AA5A5A5A5 - 2**64), "uid8_parse(%s)", CROCKFORD + CROCKFORD.lower() + "IiLlOo", ""),
    }
    strangers = [chr(c) for c in range(32, 127)] + ["\t", "\n", "\r", "\x01", "\x7f", "é", "ß", "€", "中", "😀", "\u00a0"]
    total = 0
    for form, (good, call, digits, head) in forms.items():
        cases = []
        for position in range(len(head) + 1, len(good) + 1):
            for c in strangers:
                if c in digits:
                    continue
                text = good[:position - 1] + c + good[position:]
                cases.append((text, position))
        cur.execute("CREATE TEMP TABLE bad (n int, text text, expected int)")
        with cur.copy("COPY bad FROM STDIN") as copy:
            for n, (text, position) in enumerate(cases):
                copy.write_row((n, text, position))
        cur.execute(f"""
            SELECT count(*), count(*) FILTER (WHERE outcome = '22P02 ' || expected),
                   (array_agg(format('%s -> %s', text, outcome)) FILTER (WHERE outcome <> '22P02 ' || expected))[1:5]
            FROM (SELECT text, expected, pg_temp.refused_at(format($q$SELECT {call}$q$, quote_literal(text))) AS outcome FROM bad) o""")
        n, right, wrong = cur.fetchone()
        total += n
        check(right == n, f"{form}: {n:,} texts with a bad character ({len(strangers)} candidates less the form's digits, "
                          f"at each of {len(good) - len(head)} positions): {right:,} refused with 22P02 at that position"
                          + (f"; e.g. {wrong}" if wrong else ""))
        cur.execute("DROP TABLE bad")
    return total


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    conninfo, schema = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) == 4 else 100_000
    started = time.monotonic()
    rng = random.Random(32)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("SELECT pg_catalog.set_config('search_path', %s, false)", (f"{schema}, pg_catalog",))
        round_trips_and_order(cur, count, rng)
        bad_characters(cur)
    print(f"text forms ({schema}): {len(failures)} failures in {time.monotonic() - started:.1f} s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
