#!/usr/bin/env python3
"""Hypertables keyed by the time inside an id, with TimescaleDB 2.19 (issue 33; docs/partitioning.md).

For each time-ordered family, a hypertable with one chunk a day on the id column: through `partition_func`
(a one-argument IMMUTABLE decoder, id -> timestamptz) for uuid, sno and uid8 ids, and TimescaleDB's integer
partitioning (an interval counted in ids) for uid8 time_sequential too. Then, per table:

1. 3 days of rows at 1-minute spacing with explicit times (4,320: 1,440 a chunk), and 200 rows from the
   column's DEFAULT (the generator, now): every row in the chunk whose range holds its decoded time.
   Control: with each row's time read a day late, every row is outside its chunk's range.
2. EXPLAIN of one day, in each form the docs give (comb_in_range, the floor bounds, the decoder in the
   WHERE clause): which chunks are read, with PostgreSQL's constraint_exclusion on and off (off: only
   TimescaleDB's own exclusion is left), and the count, which must be the day's 1,440 rows every time.

Then what TimescaleDB's exclusion does with constants it decodes through the partition_func, pinned as seen
(each function below says why): `id < c` and `id >= c` for a c in a chunk's first instant that is not its
smallest id; uid8 bounds given as constants, ids or not; constants the decoder refuses.

Run by the test command on 17, and on 15 (tests/timescaledb.sh; 2.19.3 builds against 14-17). Prints what it
finds (docs/partitioning.md quotes it) and exits 1 when a check fails.

    timescaledb.py HOST PORT DBNAME   (timescaledb preloaded and created, comb_ext in schema ids;
                                       tests/timescaledb.sh makes such a cluster and runs this)
"""

import datetime
import sys

import psycopg

HOST, PORT, DB = sys.argv[1], sys.argv[2], sys.argv[3]
DAY_US = 86_400_000_000
UID8_DAY = 86_400_000 << 22  # uid8 time_sequential is ms << 22: a day is a constant span of ids

failures = []
checks = []


def check(ok, what):
    print(("ok      " if ok else "FAILED  ") + what, flush=True)
    checks.append(what)
    if not ok:
        failures.append(what)


# create_hypertable's partition_func is a regproc, read from text by name alone: comb_ext's uuid decoders
# have a text overload of the same name (sql/finalize.sql), so the name is ambiguous (42725) and the signature
# is given instead, 'ids.comb_timestamp_uuidv7(uuid)'::regprocedure. TimescaleDB keeps the function's
# schema and name and later finds it among the same-named ones by its argument type.
COMB_FORMATS = ["postgresql", "uuidv7", "sqlserver", "legacy", "postgresql_sqldatetime", "binary"]


def comb(fmt, floor_ops=(">=", "<"), bounds_read=(1, 1)):
    """A COMB table of format fmt, partitioned through comb_timestamp_<fmt>(uuid); floor_ops:
    the operators of the format's order (what comb_in_range rewrites into); bounds_read: chunks that
    comb_in_range and the floor bounds read, with constraint_exclusion on and off."""
    forms = {"comb_in_range": f"ids.comb_in_range(id, {{lo}}, {{hi}}, '{fmt}')"}
    if floor_ops:
        ge, lt = floor_ops
        forms["comb_floor bounds"] = f"id {ge} ids.comb_floor_{fmt}({{lo}}) AND id {lt} ids.comb_floor_{fmt}({{hi}})"
    # The partition_func itself, which the chunks' CHECK constraints are written in.
    forms["decoder in WHERE"] = f"ids.comb_timestamp_{fmt}(id) >= {{lo}} AND ids.comb_timestamp_{fmt}(id) < {{hi}}"
    return dict(
        name=f"comb_{fmt}", type="uuid", default=f"ids.comb_uuid('{fmt}')",
        at=f"ids.comb_uuid(t, '{fmt}')", decode=f"ids.comb_timestamp({{x}}, '{fmt}')",
        hypertable=f"by_range('id', interval '1 day', partition_func => 'ids.comb_timestamp_{fmt}(uuid)'::regprocedure)",
        forms=forms,
        reads={"comb_in_range": bounds_read, "comb_floor bounds": bounds_read, "decoder in WHERE": (1, 4)})


# name: the table; type: the id column's; default: the generator; at: an id made at time `t` (a column of
# generate_series); decode: the time of an id `{x}`; internal: TimescaleDB's coordinate of an id (µs since
# 1970 of the decoded time for a partition_func; the id itself for integer partitioning), and `shift`, a
# day in that unit; forms: one day [lo, hi) as a condition, per form.
UID8 = dict(type="bigint", default="ids.uid8_new('time_sequential')",
            at="ids.uid8_from_parts((extract(epoch FROM t) * 1000)::bigint, 0, 5, 0, 'time_sequential')",
            decode="ids.uid8_timestamp({x})")
UID8_MS_BOUNDS = ("id >= ((extract(epoch FROM {lo}) * 1000)::bigint << 22)"
                  " AND id < ((extract(epoch FROM {hi}) * 1000)::bigint << 22)")
UID8_DECODER = "ids.uid8_timestamp(id) >= {lo} AND ids.uid8_timestamp(id) < {hi}"
UID8_FLOOR_BOUNDS = "id >= ids.uid8_floor({lo}) AND id < ids.uid8_floor({hi})"
FAMILIES = [
    comb("postgresql"),
    comb("uuidv7"),
    # TimescaleDB takes a condition on the column only in the column type's default btree operators: the
    # SQL Server order's #>=# and #<# are not, so nothing but the decoder excludes chunks.
    comb("sqlserver", ("OPERATOR(ids.#>=#)", "OPERATOR(ids.#<#)"), bounds_read=(4, 4)),
    # legacy: SQL Server order, SQL Server datetime clock (1/300 s); postgresql_sqldatetime: that clock in
    # PostgreSQL order; binary: .NET ToByteArray order, whose ~>=~ and ~<~ are not the default operators either.
    comb("legacy", ("OPERATOR(ids.#>=#)", "OPERATOR(ids.#<#)"), bounds_read=(4, 4)),
    comb("postgresql_sqldatetime"),
    comb("binary", ("OPERATOR(ids.~>=~)", "OPERATOR(ids.~<~)"), bounds_read=(4, 4)),
    dict(name="muid", type="uuid", default="ids.muid_new()",
         at="ids.muid_pack(t, 77::bigint, 0)", decode="ids.muid_timestamp({x})",
         hypertable="by_range('id', interval '1 day', partition_func => 'ids.muid_timestamp(uuid)'::regprocedure)",
         forms={
             "muid floor bounds": "id >= ids.muid_floor({lo}) AND id < ids.muid_floor({hi})",
             "decoder in WHERE": "ids.muid_timestamp(id) >= {lo} AND ids.muid_timestamp(id) < {hi}",
         },
         reads={"muid floor bounds": (1, 1), "decoder in WHERE": (1, 4)}),
    dict(UID8, name="uid8_ids", internal="{x}", shift=UID8_DAY,
         # Integer partitioning: the interval is a day of ids, and chunks start at multiples of it, which
         # are the ids' ms << 22 at each UTC midnight (since 1970-01-01 is a midnight).
         hypertable=f"by_range('id', {UID8_DAY})",
         forms={"uid8_floor bounds": UID8_FLOOR_BOUNDS, "ms << 22 bounds": UID8_MS_BOUNDS, "decoder in WHERE": UID8_DECODER},
         # uid8_floor is immutable: constants at plan time. Its upper bound, the next day's first id, is
         # 4096 past the next chunk's start, so that chunk is read too (the count stays right). The ms << 22
         # bounds hold extract(), which is stable: the plan keeps every chunk and ChunkAppend drops the
         # others when it starts (EXPLAIN runs that too), against the chunks' CHECK on the raw column.
         reads={"uid8_floor bounds": (2, 2), "ms << 22 bounds": (1, 1), "decoder in WHERE": (4, 4)}),
    dict(UID8, name="uid8_time",
         hypertable="by_range('id', interval '1 day', partition_func => 'ids.uid8_timestamp(bigint)'::regprocedure)",
         forms={
             # Ids, and constants at plan time: TimescaleDB decodes them and picks the day's chunk.
             "uid8_floor bounds": UID8_FLOOR_BOUNDS,
             # ms << 22 is not an id: without the mode bit uid8_timestamp reads it as a 'spread' id.
             "ms << 22 bounds": UID8_MS_BOUNDS,
             "decoder in WHERE": UID8_DECODER,
         },
         # The ms << 22 bounds are not constants at plan time (extract() is stable), and the chunks' CHECK is
         # on the decoder, so nothing excludes a chunk: see uid8_literal_bounds for them as constants.
         reads={"uid8_floor bounds": (1, 1), "ms << 22 bounds": (4, 4), "decoder in WHERE": (1, 4)}),
    dict(name="sno", type="ids.sno", default="ids.sno_new()",
         at="ids.sno_from_parts(t, 0, 9, 0)", decode="ids.sno_time({x})",
         hypertable="by_range('id', interval '1 day', partition_func => 'ids.sno_time(ids.sno)'::regprocedure)",
         forms={
             "sno_floor bounds": "id OPERATOR(ids.>=) ids.sno_floor({lo}) AND id OPERATOR(ids.<) ids.sno_floor({hi})",
             "decoder in WHERE": "ids.sno_time(id) >= {lo} AND ids.sno_time(id) < {hi}",
         },
         reads={"sno_floor bounds": (1, 1), "decoder in WHERE": (1, 4)}),
]


def day(today, offset):
    """The midnight `offset` days from `today` (a date), as text UTC."""
    return f"{today + datetime.timedelta(days=offset)} 00:00:00+00"


def relations(plan):
    """The chunks a JSON plan reads, in plan order."""
    found = []
    if plan.get("Relation Name", "").startswith("_hyper_"):
        found.append(plan["Relation Name"])
    for child in plan.get("Plans", []):
        found += relations(child)
    return found


def chunks_read(cur, query):
    cur.execute("EXPLAIN (FORMAT JSON, COSTS OFF) " + query)
    return relations(cur.fetchone()[0][0]["Plan"])


def run_family(cur, fam, today):
    name, table = fam["name"], f"app.{fam['name']}"
    internal = fam.get("internal", "(extract(epoch FROM " + fam["decode"] + ") * 1000000)::bigint")
    internal = internal.replace("{x}", "id")
    shift = fam.get("shift", DAY_US)
    print(f"\n== {name}: {fam['hypertable']}", flush=True)
    cur.execute(f"CREATE TABLE {table} (id {fam['type']} NOT NULL DEFAULT {fam['default']}, payload text)")
    try:
        cur.execute(f"SELECT create_hypertable('{table}', {fam['hypertable']})")
    except psycopg.Error as e:
        check(False, f"{name}: create_hypertable: {e.sqlstate} {e.diag.message_primary}")
        return
    cur.execute(
        f"INSERT INTO {table} (id, payload) SELECT {fam['at']}, 'explicit' FROM generate_series("
        "%(first)s::timestamptz, %(today)s::timestamptz - interval '1 minute', interval '1 minute') t",
        {"first": day(today, -3), "today": day(today, 0)})
    cur.execute(f"INSERT INTO {table} (payload) SELECT 'default' FROM generate_series(1, 200)")

    # Each chunk's range, in TimescaleDB's coordinate, from its catalog.
    cur.execute(f"""
        CREATE TEMP TABLE ranges AS
        SELECT format('%I.%I', c.schema_name, c.table_name)::regclass AS chunk, s.range_start, s.range_end
        FROM _timescaledb_catalog.chunk c
        JOIN _timescaledb_catalog.chunk_constraint cc ON cc.chunk_id = c.id
        JOIN _timescaledb_catalog.dimension_slice s ON s.id = cc.dimension_slice_id
        JOIN _timescaledb_catalog.hypertable h ON h.id = c.hypertable_id
        WHERE h.schema_name = 'app' AND h.table_name = '{name}'""")
    # The same ranges as timescaledb_information.chunks gives them: integers for these tables (µs since 1970
    # for a partition_func, ids for integer partitioning), so the catalog read above is the one users see.
    cur.execute(f"""
        SELECT count(*), count(*) FILTER (WHERE (i.range_start_integer, i.range_end_integer) IS DISTINCT FROM (r.range_start, r.range_end))
        FROM timescaledb_information.chunks i
        LEFT JOIN ranges r ON r.chunk = format('%I.%I', i.chunk_schema, i.chunk_name)::regclass
        WHERE i.hypertable_schema = 'app' AND i.hypertable_name = '{name}'""")
    chunks, differ = cur.fetchone()
    check(chunks == 4 and differ == 0,
          f"{name}: timescaledb_information.chunks: {chunks} chunks, {differ} with a range other than the catalog's")
    cur.execute(f"""
        SELECT count(*), count(*) FILTER (WHERE NOT (v >= r.range_start AND v < r.range_end)),
               count(*) FILTER (WHERE NOT (v + {shift} >= r.range_start AND v + {shift} < r.range_end)),
               count(*) FILTER (WHERE r.chunk IS NULL)
        FROM (SELECT tableoid, {internal} AS v FROM {table}) rows LEFT JOIN ranges r ON r.chunk = rows.tableoid""")
    total, misplaced, control_outside, unranged = cur.fetchone()
    check(total == 4520 and misplaced == 0 and unranged == 0,
          f"{name}: {total} rows, {misplaced} outside their chunk's range ({unranged} in a chunk without one)")
    check(control_outside == total, f"{name}: control, each time read a day late: {control_outside} of {total} outside")
    cur.execute(f"""
        SELECT r.chunk::text, r.range_start, r.range_end, count(*) FROM {table} t JOIN ranges r ON r.chunk = t.tableoid
        GROUP BY 1, 2, 3 ORDER BY 2""")
    per_chunk = cur.fetchall()
    for chunk, start, end, n in per_chunk:
        print(f"        {chunk} [{start}, {end}): {n} rows")
    check([n for *_, n in per_chunk] == [1440, 1440, 1440, 200],
          f"{name}: rows per chunk {[n for *_, n in per_chunk]}, expected [1440, 1440, 1440, 200]")
    cur.execute("DROP TABLE ranges")

    # Constants: a bound computed from now() or with timestamptz - interval (stable) is not one at plan time.
    lo, hi = f"'{day(today, -2)}'::timestamptz", f"'{day(today, -1)}'::timestamptz"
    for form, cond in fam["forms"].items():
        query = f"SELECT count(*) FROM {table} WHERE " + cond.format(lo=lo, hi=hi)
        cur.execute(query)
        n = cur.fetchone()[0]
        read = chunks_read(cur, query)
        cur.execute("SET constraint_exclusion = off")
        read_ts_only = chunks_read(cur, query)
        cur.execute("RESET constraint_exclusion")
        print(f"        {form}: {n} rows; reads {len(read)} chunk(s) {read}; "
              f"with constraint_exclusion off {len(read_ts_only)}")
        cur.execute("EXPLAIN (COSTS OFF) " + query)
        print("          EXPLAIN: " + " | ".join(row[0].strip() for row in cur.fetchall()))
        check(n == 1440, f"{name}: {form}: counts {n} rows of the day, expected 1440")
        expected = fam["reads"][form]
        check((len(read), len(read_ts_only)) == expected,
              f"{name}: {form}: reads {len(read)} / {len(read_ts_only)} chunks, expected {expected[0]} / {expected[1]}")
        fam.setdefault("results", {})[form] = (len(read), len(read_ts_only))


def chunk_start_hazard(cur, today):
    """TimescaleDB 2.19 turns `id < c` on a partition_func column into `partition_func(id) <
    partition_func(c)` when it picks chunks. For a c that is not the smallest id of its instant, and an
    instant that starts a chunk, the ids of that instant below c are in a chunk it leaves out. `id >= c`
    keeps that chunk and its filter, so it counts right."""
    midnight = f"'{day(today, -1)}'::timestamptz"
    cur.execute(f"SELECT id FROM app.comb_postgresql WHERE ids.comb_timestamp(id, 'postgresql') = {midnight}")
    (row_id,) = cur.fetchone()
    # The largest uuid of the same millisecond: above row_id, and it decodes to the chunk's start.
    c = str(row_id)[:13] + "-ffff-ffff-ffffffffffff"
    print()
    # Expected counts: below c, the two days before and the row; at or above c, the rest of its day and
    # the 200 of today. Pinned as seen, so that a TimescaleDB that fixes < (or a change in how bounds are
    # made) shows up.
    for op, expected_with, expected_without in (("<", 2880, 2881), (">=", 1639, 1639)):
        query = f"SELECT count(*) FROM app.comb_postgresql WHERE id {op} '{c}'"
        cur.execute(query)
        with_exclusion = cur.fetchone()[0]
        cur.execute("SET timescaledb.enable_optimizations = off")
        cur.execute(query)
        without = cur.fetchone()[0]
        cur.execute("RESET timescaledb.enable_optimizations")
        print(f"        id {op} '{c}' (row {row_id} at the chunk's first instant): "
              f"{with_exclusion} rows with TimescaleDB's exclusion, {without} without")
        check((with_exclusion, without) == (expected_with, expected_without),
              f"id {op} c at a chunk's first instant: {with_exclusion} rows, {without} without TimescaleDB's "
              f"planning; expected {expected_with}, {expected_without}")


def uid8_literal_bounds(cur, today):
    """uid8 through a partition_func with bounds given as constants: TimescaleDB decodes each constant
    with the partition_func to pick chunks, so a bound must be an id of the same mode. The first
    time_sequential id of each midnight picks the day's chunk; ms << 22, which is not an id (no mode
    bit: uid8_timestamp reads it as a 'spread' id, in 1970), picks none, and the count is wrong."""
    cur.execute("SELECT (extract(epoch FROM %(t)s::timestamptz) * 1000)::bigint", {"t": day(today, -2)})
    lo_ms = cur.fetchone()[0]
    hi_ms = lo_ms + 86_400_000
    cur.execute("SELECT ids.uid8_from_parts(%s, 0, 0, 0, 'time_sequential'), ids.uid8_from_parts(%s, 0, 0, 0, 'time_sequential')",
                (lo_ms, hi_ms))
    lo_id, hi_id = cur.fetchone()
    print()
    for what, lo, hi, expected in (("first ids", lo_id, hi_id, (1440, 1)), ("ms << 22", lo_ms << 22, hi_ms << 22, (0, 0))):
        query = f"SELECT count(*) FROM app.uid8_time WHERE id >= {lo} AND id < {hi}"
        cur.execute(query)
        n = cur.fetchone()[0]
        read = chunks_read(cur, query)
        print(f"        uid8_time, constant bounds, {what}: id >= {lo} AND id < {hi}: {n} rows, {len(read)} chunk(s)")
        check((n, len(read)) == expected,
              f"uid8_time: constant {what} bounds count {n} rows from {len(read)} chunk(s), expected {expected[0]} from {expected[1]}")


def decoder_errors_in_planning(cur):
    """TimescaleDB applies the partition_func to a constant the column is compared with while it plans,
    so a constant the decoder refuses makes the query fail, where a plain table answers it: a v4 uuid
    looked up in a uuidv7 table, the largest uuid as an upper bound in a postgresql one."""
    print()
    for table, cond, plain_count in (("comb_uuidv7", "id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", 0),
                                     ("comb_postgresql", "id < 'ffffffff-ffff-ffff-ffff-ffffffffffff'", 4520)):
        query = f"SELECT count(*) FROM app.{table} WHERE {cond}"
        try:
            cur.execute(query)
            outcome = f"{cur.fetchone()[0]} rows"
        except psycopg.Error as e:
            outcome = f"{e.sqlstate} {e.diag.message_primary}"
        cur.execute("SET timescaledb.enable_optimizations = off")
        cur.execute(query)
        plain = cur.fetchone()[0]
        cur.execute("RESET timescaledb.enable_optimizations")
        print(f"        {table} WHERE {cond}: {outcome}; without TimescaleDB's planning {plain} rows")
        check(outcome.startswith("22") and plain == plain_count,
              f"{table}: a constant the decoder refuses fails the query in planning ({outcome[:5]}), "
              f"{plain} rows without TimescaleDB's planning")


def now_relative(cur):
    """Bounds from now() are stable: TimescaleDB's plan-time exclusion cannot use them, and ChunkAppend excludes
    at executor start only against the chunks' CHECK, which is on the partition function. So the decoder form
    excludes the chunks outside [now() - 2 days, now() - 1 day) (it spans two days: 2 of 4 left), comb_in_range
    none."""
    print()
    window = "now() - interval '2 days', now() - interval '1 day'"
    for form, cond, expected in (
            ("decoder", "ids.comb_timestamp_uuidv7(id) >= now() - interval '2 days' AND ids.comb_timestamp_uuidv7(id) < now() - interval '1 day'", 2),
            ("comb_in_range", f"ids.comb_in_range(id, {window}, 'uuidv7')", 0)):
        cur.execute(f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM app.comb_uuidv7 WHERE {cond}")
        plan = [row[0].strip() for row in cur.fetchall()]
        excluded = [int(line.rsplit(":", 1)[1]) for line in plan if line.startswith("Chunks excluded during startup:")]
        print(f"        now()-relative, {form}: {excluded or 'no ChunkAppend'} chunk(s) excluded during startup")
        check(excluded == [expected], f"comb_uuidv7: now()-relative window, {form}: {excluded} excluded at executor start, expected [{expected}]")


def drop_old_chunks(cur, today):
    """Retention the Apache edition has: drop_chunks, with a time through a partition function and with an id
    (uid8_floor) under integer partitioning. Each drops the chunk of the oldest day and keeps the rest."""
    print()
    for table, older_than in (("comb_uuidv7", "%(t)s::timestamptz"), ("uid8_ids", "ids.uid8_floor(%(t)s::timestamptz)")):
        cur.execute(f"SELECT count(*) FROM drop_chunks('app.{table}', older_than => {older_than})", {"t": day(today, -2)})
        dropped = cur.fetchone()[0]
        cur.execute(f"SELECT count(*) FROM app.{table}")
        left = cur.fetchone()[0]
        print(f"        drop_chunks('app.{table}', older_than => {older_than % {'t': repr(day(today, -2))}}): {dropped} dropped, {left} rows left")
        check((dropped, left) == (1, 3080), f"{table}: drop_chunks older than day -2 dropped {dropped} chunk(s), {left} rows left; expected 1, 3080")


def main():
    with psycopg.connect(host=HOST, port=PORT, dbname=DB, user="postgres", autocommit=True) as conn:
        cur = conn.cursor()
        cur.execute("SET TimeZone = 'UTC'")
        cur.execute("SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'")
        print("timescaledb", cur.fetchone()[0])
        cur.execute("CREATE SCHEMA IF NOT EXISTS app")
        cur.execute("SELECT current_date")
        today = cur.fetchone()[0]
        # A partition_func must take the column alone: comb_timestamp's second argument (the format, with
        # a default) makes TimescaleDB refuse it.
        cur.execute("CREATE TABLE app.comb_direct (id uuid NOT NULL)")
        try:
            cur.execute("SELECT create_hypertable('app.comb_direct', by_range('id', interval '1 day', "
                        "partition_func => 'ids.comb_timestamp'))")
            check(False, "comb_timestamp itself as partition_func was accepted")
        except psycopg.Error as e:
            check(True, f"comb_timestamp itself as partition_func refused: {e.diag.message_primary}; {e.diag.message_hint}")
        # By name alone a uuid decoder is ambiguous (its text overload): hence the regprocedure above.
        try:
            cur.execute("SELECT create_hypertable('app.comb_direct', by_range('id', interval '1 day', "
                        "partition_func => 'ids.comb_timestamp_uuidv7'))")
            check(False, "comb_timestamp_uuidv7 by name alone as partition_func was accepted")
        except psycopg.Error as e:
            check(e.sqlstate == "42725", f"comb_timestamp_uuidv7 by name alone as partition_func: {e.sqlstate} {e.diag.message_primary}")
        for fam in FAMILIES:
            run_family(cur, fam, today)
        uid8_literal_bounds(cur, today)
        decoder_errors_in_planning(cur)
        chunk_start_hazard(cur, today)
        now_relative(cur)
        drop_old_chunks(cur, today)
        print("\nchunks read by one day's query (constraint_exclusion on / off):")
        for fam in FAMILIES:
            for form, (on, off) in fam.get("results", {}).items():
                print(f"  {fam['name']:28} {form:18} {on} / {off}")
    if failures:
        print(f"\ntimescaledb: {len(failures)} of {len(checks)} checks failed")
        sys.exit(1)
    print(f"\ntimescaledb: {len(checks)} checks passed")


main()
