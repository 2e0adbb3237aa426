"""The backfill recipe of docs/adopting.md ("Adding a time-ordered column beside the old key"), run as written
there while writers insert.

The two sql blocks of that section are read from the page and run statement by statement, in a database of
their own, on `orders` (100,000 rows, ten to a millisecond, and a bigserial key) and `order_items` (a child with a
foreign key to it), while WRITERS sessions each insert an order and then an item for it, a transaction at a time.
Every statement whose comment names a lock and that can run inside a transaction is run inside one, and the
strongest lock it holds on its table at the end must be the one named.

It passes when:
- no insert failed (they may wait for the instants of ACCESS EXCLUSIVE);
- every order has a uid, no two are equal, and the unique index and NOT NULL are in place and valid;
- every order the batches filled holds its created_at's millisecond: comb_timestamp(uid, 'uuidv7') =
  date_trunc('milliseconds', created_at);
- every item's order_uid is its order's uid, and the new foreign key is valid;
- every row the writers committed is there.
The control fills a copy of the old rows with comb_uuid('uuidv7') (the time of the fill), not the row's time:
the millisecond check must find it wrong.

    python tests/backfill.py HOST PORT
Prints one line per part and "backfill: N passed, N failed"; exits 1 on a failure.
"""

import os
import re
import sys
import time

import psycopg

from adopt import WRITERS, Writers

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(REPO, "docs", "adopting.md")
SECTION = "## Adding a time-ordered column beside the old key"
OLD_ROWS = 100_000
DATABASE = "comb_ext_backfill"
# Table-level lock modes, weakest to strongest (PostgreSQL's conflict table order).
MODES = ["ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE", "SHARE ROW EXCLUSIVE",
         "EXCLUSIVE", "ACCESS EXCLUSIVE"]
STAMPED = "comb_timestamp(uid, 'uuidv7') = date_trunc('milliseconds', created_at)"


def recipe():
    """The section's sql blocks, as (statement, the lock its comment names or None) in order."""
    text = open(PAGE).read()
    section = text[text.index(SECTION):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section[1:] else section
    statements = []
    for block in re.findall(r"```sql\n(.*?)```", section, re.S):
        current, dollar_quoted = [], False
        for line in block.splitlines():
            code, _, comment = line.partition(" -- ") if not dollar_quoted else (line, "", "")
            if not code.strip() and not current:
                continue
            current.append(code.rstrip())
            dollar_quoted ^= code.count("$$") % 2 == 1
            if not dollar_quoted and code.rstrip().endswith(";"):
                named = next((m for m in sorted(MODES, key=len, reverse=True) if comment.strip().startswith(m)), None)
                statements.append(("\n".join(current), named))
                current = []
        if current:
            raise SystemExit(f"backfill: an unterminated statement in {PAGE}: {current}")
    if len(statements) < 10:
        raise SystemExit(f"backfill: found {len(statements)} statements in {PAGE}'s section, expected the recipe")
    return statements


def strongest_lock(conn, statement):
    """Runs `statement` in a transaction and returns the strongest lock it then holds on the table it alters."""
    table = re.search(r"(?:ALTER TABLE|ON)\s+(\w+)", statement).group(1)
    with conn.transaction():
        conn.execute(statement)
        modes = [row[0] for row in conn.execute(
            "SELECT mode FROM pg_locks WHERE locktype = 'relation' AND relation = %s::regclass "
            "AND pid = pg_backend_pid() AND granted", (table,))]
    held = [m for m in MODES if m.replace(" ", "").lower() + "lock" in {x.lower() for x in modes}]
    return table, (held[-1] if held else None)


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    statements = recipe()

    def connect(dbname=DATABASE, autocommit=True):
        return psycopg.connect(host=host, port=port, user="postgres", dbname=dbname, autocommit=autocommit)

    with connect("postgres") as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        conn.execute(f"CREATE DATABASE {DATABASE}")
    with connect() as conn:
        conn.execute("CREATE EXTENSION comb_ext")
        conn.execute("CREATE TABLE orders (id bigserial PRIMARY KEY, created_at timestamptz NOT NULL "
                     "DEFAULT clock_timestamp(), writer int NOT NULL)")
        conn.execute("CREATE TABLE order_items (id bigserial PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders (id))")
        # Ten rows to a millisecond, at different microseconds, so equal times must still get different ids.
        conn.execute("INSERT INTO orders (created_at, writer) SELECT '2024-03-01 00:00:00+00'::timestamptz "
                     f"+ (i / 10) * interval '1 ms' + (i % 10) * interval '37 us', -1 FROM generate_series(0, {OLD_ROWS - 1}) i")
        conn.execute("INSERT INTO order_items (order_id) SELECT id FROM orders")
        conn.execute("ANALYZE orders, order_items")

    writers = Writers(connect, "INSERT INTO orders (writer) VALUES (%s) RETURNING id",
                      "INSERT INTO order_items (order_id) VALUES (%s)")
    writers.start()
    time.sleep(0.5)
    lock_results, started = [], time.monotonic()
    try:
        with connect() as conn:
            for statement, named in statements:
                if statement.startswith("CALL orders_backfill"):
                    # What the batches are to fill: every order without a uid once new rows get one.
                    conn.execute("CREATE TABLE backfill_targets AS SELECT id FROM orders WHERE uid IS NULL")
                if named and not statement.startswith(("CALL", "CREATE UNIQUE INDEX CONCURRENTLY")):
                    table, held = strongest_lock(conn, statement)
                    lock_results.append((statement.split("\n")[0][:70], table, named, held))
                else:
                    conn.execute(statement)
    finally:
        recipe_s = time.monotonic() - started
        time.sleep(0.5)
        commits, errors, waits = writers.stop()
        commits = [key for _, key in commits]

    passed = failed = 0

    def verdict(ok, line):
        nonlocal passed, failed
        ok = bool(ok)
        passed, failed = passed + ok, failed + (not ok)
        print(f"backfill {line}: {'PASS' if ok else 'FAIL'}", flush=True)

    wrong_locks = [r for r in lock_results if r[2] != r[3]]
    verdict(not wrong_locks, f"locks: {len(lock_results)} statements run in a transaction, the lock each held on its "
                             f"table as the page says" + "".join(f"; WRONG {s!r} on {t}: page {n}, held {h}" for s, t, n, h in wrong_locks))
    verdict(not errors and commits, f"writers: {len(commits)} inserts by {WRITERS} writers while the recipe ran "
                                    f"({recipe_s:.1f} s), {len(errors)} failed {sorted(set(errors)) or ''}, "
                                    f"longest {max(waits) * 1000:.0f} ms")
    with connect() as conn:
        rows, missing, distinct, targets, stamped, written = conn.execute(
            f"SELECT count(*), count(*) FILTER (WHERE uid IS NULL), count(DISTINCT uid), "
            f"(SELECT count(*) FROM backfill_targets), "
            f"count(*) FILTER (WHERE id IN (SELECT id FROM backfill_targets) AND {STAMPED}), "
            f"count(*) FILTER (WHERE id = ANY (%s)) FROM orders", (commits,)).fetchone()
        index_valid, not_null = conn.execute(
            "SELECT (SELECT indisvalid AND indisunique FROM pg_index WHERE indexrelid = 'orders_uid'::regclass), "
            "(SELECT attnotnull FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'uid')").fetchone()
        verdict(missing == 0 and distinct == rows and targets >= OLD_ROWS and stamped == targets and index_valid
                and not_null and written == len(commits) and rows == OLD_ROWS + len(commits),
                f"orders: {rows} rows ({OLD_ROWS} old, {len(commits)} by the writers, all there: {written == len(commits)}), "
                f"{missing} without a uid, {rows - distinct} uids twice; {targets} filled by the batches, {stamped} of them "
                f"in their created_at's millisecond; unique index valid {index_valid}, NOT NULL {not_null}")
        items, unmatched, fk_valid = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE c.order_uid IS DISTINCT FROM o.uid), "
            "(SELECT convalidated FROM pg_constraint WHERE conname = 'order_items_order_uid_fkey') "
            "FROM order_items c JOIN orders o ON o.id = c.order_id").fetchone()
        verdict(unmatched == 0 and fk_valid and items == rows,
                f"order_items: {items} rows, {unmatched} whose order_uid is not their order's uid; new foreign key valid {fk_valid}")
        # The control: the recipe's fill with the time of the fill instead of the row's.
        conn.execute("CREATE TABLE control AS SELECT id, created_at, comb_uuid('uuidv7') AS uid FROM orders WHERE writer = -1")
        wrong = conn.execute(f"SELECT count(*) FILTER (WHERE NOT ({STAMPED})) FROM control").fetchone()[0]
        print(f"backfill control (filled with comb_uuid('uuidv7')): {wrong} of {OLD_ROWS} not in their created_at's "
              f"millisecond: {'PASS (the check caught it)' if wrong else 'FAIL (the check saw nothing)'}", flush=True)
        passed, failed = passed + bool(wrong), failed + (not wrong)
    with connect("postgres") as conn:
        conn.execute(f"DROP DATABASE {DATABASE}")
    print(f"backfill: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
