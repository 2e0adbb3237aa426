#!/usr/bin/env python3
"""Partitioning by the time inside an id, with pg_partman 5.5.0 or by hand (issue 33; docs/partitioning.md).

For each family whose order is its time order, a table partitioned by range on the id, one child a day:
pg_partman's create_parent with an encoder/decoder pair (uuid ids), its integer partitioning (uid8
time_sequential), or plain declarative partitioning kept by a few statements (sno). Then, per family:

1. 3 days of rows at 1-minute spacing with explicit times (4,320: 1,440 a child), and 200 rows from the
   column's DEFAULT (the generator, now): every row in the child whose range holds its time, none in
   the default partition. Control: with each row's time read a day late, every row is outside.
2. Maintenance with a retention of 2 days: run_maintenance (or the hand-kept recipe) makes the future
   children and drops the one whose whole day is older than the retention.
3. 100 rows 10 days ahead land in the default partition; partition_data_proc, or what works instead,
   moves them into a child of their own.
4. EXPLAIN of one day's range (comb_in_range for the COMBs, the family's floor bounds otherwise) scans
   one child.

5. Names: every overload of the encoders and decoders the sets use, planted first on a session's
   search_path, is never called by create_parent or run_maintenance (control: an unqualified call is).

Run by the test command on 15 and 18 (tests/partman.sh). Prints what it finds (docs/partitioning.md quotes
it) and exits 1 when a check fails.

    partman.py HOST PORT DBNAME   (pg_partman in schema partman, comb_ext in schema ids, both created;
                                   tests/partman.sh makes such a cluster and runs this)
"""

import sys

import psycopg

HOST, PORT, DB = sys.argv[1], sys.argv[2], sys.argv[3]
DAY_MS = 86_400_000
UID8_DAY = DAY_MS << 22  # uid8 time_sequential is ms << 22: a day is a constant span of ids

failures = []
checks = []


def check(ok, what):
    print(("ok      " if ok else "FAILED  ") + what, flush=True)
    checks.append(what)
    if not ok:
        failures.append(what)


# name: the table; type/key: the column and the partition key; default: the generator; at: an id
# made at time `t` (a column of generate_series); decode: the time of an id written as text `{x}`
# (decode_bound: of a partition bound, when that differs);
# how: 'encoder' (pg_partman with p_time_encoder/p_time_decoder), 'id' (pg_partman's integer
# partitioning), 'hand' (declarative, kept by statements); day_range: one day [lo, hi) as a condition;
# expect_scans: children its plan scans, when not 1 (a mismatch shown on purpose, docs/partitioning.md).
COMB_RANGE = "ids.comb_in_range(id, {lo}, {hi}, '{fmt}'::ids.comb_format)"


def comb_set(name, fmt, **given):
    """A COMB table of format fmt, kept by pg_partman with that format's encoder and decoder
    (comb_floor_<fmt>, comb_timestamp_<fmt>) unless `given` says otherwise."""
    return dict(dict(name=name, type="uuid", key="id", default=f"ids.comb_uuid('{fmt}')",
                     at=f"ids.comb_uuid(t, '{fmt}')", decode=f"ids.comb_timestamp({{x}}::uuid, '{fmt}')",
                     how="encoder", enc=f"ids.comb_floor_{fmt}", dec=f"ids.comb_timestamp_{fmt}",
                     day_range=COMB_RANGE.replace("{fmt}", fmt)), **given)


# The default format as users write it, DEFAULT comb_uuid().
POSTGRESQL_DEFAULT = dict(default="ids.comb_uuid()", at="ids.comb_uuid(t)", decode="ids.comb_timestamp({x}::uuid)")
FAMILIES = [
    comb_set("comb_pg_uuid7pair", "postgresql", **POSTGRESQL_DEFAULT,
             enc="partman.uuid7_time_encoder", dec="partman.uuid7_time_decoder"),
    comb_set("comb_pg", "postgresql", **POSTGRESQL_DEFAULT),
    # Bounds from the postgresql format's floor (not v7s: the same milliseconds, but below
    # comb_in_range's uuidv7 bounds, so a day's range reaches into the next child).
    comb_set("comb_v7", "uuidv7", decode_bound="ids.comb_timestamp({x}::uuid)",
             enc="ids.comb_floor_postgresql", dec="ids.comb_timestamp_postgresql", expect_scans=2),
    comb_set("comb_v7_floor", "uuidv7"),
    comb_set("comb_sqldatetime", "postgresql_sqldatetime"),
    # SQL Server order: the partition key in that operator class.
    comb_set("comb_sqlserver", "sqlserver", key="id ids.uuid_sqlserver_ops"),
    comb_set("comb_legacy", "legacy", key="id ids.uuid_sqlserver_ops"),
    comb_set("comb_ticks", "ticks", key="id ids.uuid_sqlserver_ops"),
    dict(name="muid", type="uuid", key="id", default="ids.muid_new()",
         at="ids.muid_pack(t, 77::bigint, 0)", decode="ids.muid_timestamp({x}::uuid)", how="encoder",
         enc="ids.muid_floor", dec="ids.muid_timestamp",
         day_range="id >= ids.muid_floor({lo}) AND id < ids.muid_floor({hi})"),
    dict(name="uid8", type="bigint", key="id", default="ids.uid8_new('time_sequential')",
         at="ids.uid8_from_parts((extract(epoch FROM t) * 1000)::bigint, 0, 5, 0, 'time_sequential')",
         decode="ids.uid8_timestamp({x}::bigint)", how="id",
         # pg_partman's integer partitioning, an interval of a day of ids: children start at its multiples,
         # each UTC midnight's ms << 22 (not ids: below every id of that millisecond, whose mode bit, 4096,
         # is set). p_start_partition is rounded down to one (pg_partman does), so uid8_floor serves; and
         # p_offset_id must stay 0: partition_data_id ignores it and would make overlapping children.
         # uid8_floor(hi) is the next day's first id, 4096 past its child's start: the plan reads that
         # child too (an index probe that finds nothing) and the count is right.
         bound="ids.uid8_floor({t})", expect_scans=2,
         decode_bound="to_timestamp(({x}::bigint >> 22) / 1000.0)",
         day_range="id >= ids.uid8_floor({lo}) AND id < ids.uid8_floor({hi})"),
    dict(name="sno", type="ids.sno", key="id", default="ids.sno_new()",
         at="ids.sno_from_parts(t, 0, 9, 0)", decode="ids.sno_time({x}::ids.sno)", how="hand",
         # sno's operators live in comb_ext's schema: named with it, so no search_path is needed.
         hand_bound="ids.sno_floor({t})", decode_bound="ids.sno_time({x}::ids.sno)",
         day_range="id OPERATOR(ids.>=) ids.sno_floor({lo}) AND id OPERATOR(ids.<) ids.sno_floor({hi})"),
    # No btree order of a uuid is the binary formats' time order: partitioned by the decoded time, an
    # expression (so no unique index: PostgreSQL refuses one whose key has an expression).
    dict(name="comb_binary", type="uuid", key="ids.comb_timestamp_binary(id)", default="ids.comb_uuid('binary')",
         at="ids.comb_uuid(t, 'binary')", decode="ids.comb_timestamp({x}::uuid, 'binary')", how="hand",
         hand_bound="{t}", decode_bound="{x}::timestamptz", unique=False,
         day_range="ids.comb_timestamp_binary(id) >= {lo} AND ids.comb_timestamp_binary(id) < {hi}"),
]
conn = psycopg.connect(host=HOST, port=PORT, dbname=DB, user="postgres", autocommit=True,
                       options="-c TimeZone=UTC")
notices = []
conn.add_notice_handler(lambda d: notices.append(f"{d.severity}: {d.message_primary}"))


def q(sql, params=None):
    with conn.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchall() if cur.description else None


def q1(sql, params=None):
    return q(sql, params)[0][0]


def attempt(sql):
    """Run sql; return None, or the error's SQLSTATE and message."""
    try:
        q(sql)
        return None
    except psycopg.Error as e:
        return f"{e.sqlstate}: {e.diag.message_primary}"


START = "date_trunc('day', now()) - interval '3 days'"
PARTMAN_TEXT = q1("SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'pg_partman'")
PARTMAN = tuple(int(part) for part in PARTMAN_TEXT.split("."))
print(f"pg_partman {PARTMAN_TEXT}")
q("CREATE SCHEMA IF NOT EXISTS app")


def children(table):
    """[(child, lower text, upper text)] of app.<table>, default excluded, in bound order."""
    rows = q(
        """SELECT c.relname,
                  (regexp_match(pg_catalog.pg_get_expr(c.relpartbound, c.oid), $$FROM \\('?([^')]+)'?\\) TO \\('?([^')]+)'?\\)$$))[1],
                  (regexp_match(pg_catalog.pg_get_expr(c.relpartbound, c.oid), $$FROM \\('?([^')]+)'?\\) TO \\('?([^')]+)'?\\)$$))[2]
           FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = %s::regclass AND pg_catalog.pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
           ORDER BY c.relname""", (f"app.{table}",))
    return rows


def misplaced(f, shift="0"):
    """Rows whose time lies outside the range their child's bounds decode to, and rows in the default.
    shift: an interval added to each row's time, for the control."""
    name = f["name"]
    decode_bound = f.get("decode_bound", f["decode"])
    lo = decode_bound.format(x="b.lo")
    hi = decode_bound.format(x="b.hi")
    t = f"({f['decode'].format(x='p.id::text')} + interval '{shift}')"
    return q1(
        f"""WITH b AS (
              SELECT c.oid,
                     (regexp_match(pg_catalog.pg_get_expr(c.relpartbound, c.oid), $$FROM \\('?([^')]+)'?\\) TO$$))[1] AS lo,
                     (regexp_match(pg_catalog.pg_get_expr(c.relpartbound, c.oid), $$TO \\('?([^')]+)'?\\)$$))[1] AS hi
              FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = 'app.{name}'::regclass AND pg_catalog.pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT')
            SELECT count(*) FROM app.{name} p LEFT JOIN b ON b.oid = p.tableoid
            WHERE b.oid IS NULL OR NOT ({t} >= {lo} AND {t} < {hi})""")


def relations(plan):
    """The tables an EXPLAIN (FORMAT JSON) plan reads (index scans name their table too; bitmap index scans
    only their index, under the heap scan that names it)."""
    found = set()

    def walk(node):
        if "Relation Name" in node:
            found.add(node["Relation Name"])
        for child in node.get("Plans", []):
            walk(child)

    for top in plan:
        walk(top["Plan"])
    return found


def covering(f, ts):
    """How many children of app.<name> have bounds that decode to a range holding the time ts."""
    decode_bound = f.get("decode_bound", f["decode"])
    return sum(q1(f"SELECT {decode_bound.format(x='%s')} <= {ts} AND {ts} < {decode_bound.format(x='%s')}", (lo, hi))
               for (_c, lo, hi) in children(f["name"]))


def hand_maintain(f, keep_days, ahead_days):
    """The recipe for a table pg_partman cannot take (sno, binary COMBs): one child a day from `keep_days`
    ago to `ahead_days` ahead, children wholly older than that dropped. Bounds from f's hand_bound."""
    name, bound = f["name"], f["hand_bound"]
    for d in range(-keep_days, ahead_days + 1):
        day = f"date_trunc('day', now()) + interval '{d} days'"
        child = q1(f"SELECT 'app.{name}_p' || to_char({day}, 'YYYYMMDD')")
        if not q1("SELECT to_regclass(%s) IS NOT NULL", (child,)):
            q(f"""CREATE TABLE {child} PARTITION OF app.{name}
                  FOR VALUES FROM ({bound.format(t=day)}) TO ({bound.format(t=day + " + interval '1 day'")})""")
    for (child, _lo, hi) in children(name):
        if q1(f"SELECT {f['decode_bound'].format(x='%s')} <= now() - interval '{keep_days} days'", (hi,)):
            q(f"DROP TABLE app.{child}")


results = {}
for f in FAMILIES:
    name = f["name"]
    r = results[name] = {}
    print(f"\n== {name}", flush=True)
    q(f"DROP TABLE IF EXISTS app.{name} CASCADE")
    q("DELETE FROM partman.part_config WHERE parent_table = %s", (f"app.{name}",))
    q(f"CREATE TABLE app.{name} (id {f['type']} NOT NULL DEFAULT {f['default']}, note text)"
      f" PARTITION BY RANGE ({f['key']})")
    # A unique key, as tables keyed by these ids have: the partition key itself, in its own order.
    if f.get("unique", True):
        q(f"CREATE UNIQUE INDEX {name}_id ON app.{name} ({f['key']})")
    notices.clear()
    if f["how"] == "encoder":
        err = attempt(f"""SELECT partman.create_parent(p_parent_table := 'app.{name}', p_control := 'id',
            p_interval := '1 day', p_premake := 3, p_start_partition := ({START})::text,
            p_time_encoder := '{f['enc']}', p_time_decoder := '{f['dec']}')""")
    elif f["how"] == "id":
        err = attempt(f"""SELECT partman.create_parent(p_parent_table := 'app.{name}', p_control := 'id',
            p_interval := '{UID8_DAY}', p_premake := 3,
            p_start_partition := ({f['bound'].format(t=START)})::text)""")
    else:
        err = None
        q(f"CREATE TABLE app.{name}_default PARTITION OF app.{name} DEFAULT")
        hand_maintain(f, 3, 3)
    check(err is None, f"{name}: partitioned ({f['how']}){'' if err is None else ': ' + err}")
    if err:
        continue
    made = children(name)
    r["children_made"] = len(made)
    print(f"        children: {', '.join(c for c, _, _ in made)}")

    # 1. Explicit times, then the generator.
    q(f"""INSERT INTO app.{name} (id, note)
          SELECT {f['at']}, 'explicit' FROM generate_series({START}, {START} + interval '3 days' - interval '1 minute',
                                                           interval '1 minute') AS t""")
    q(f"INSERT INTO app.{name} (note) SELECT 'default' FROM generate_series(1, 200)")
    total = q1(f"SELECT count(*) FROM app.{name}")
    per_child = q(f"SELECT tableoid::regclass::text, count(*) FROM app.{name} GROUP BY 1 ORDER BY 1")
    print("        rows: " + ", ".join(f"{c} {n}" for c, n in per_child))
    r["misplaced"] = misplaced(f)
    check(total == 4520 and r["misplaced"] == 0,
          f"{name}: {total} rows (4,320 explicit, 200 default), {r['misplaced']} outside their child's range or in the default")
    # Control: read a day late, every row is outside its child's range, so the check above can fail.
    control = misplaced(f, shift="1 day")
    check(control == total, f"{name}: control, each row's time a day late: {control} of {total} outside their child's range")

    # 2. Maintenance with a retention of 2 days.
    notices.clear()
    before = [c for c, _, _ in children(name)]
    if f["how"] == "hand":
        hand_maintain(f, 2, 5)
        maint_err = None
    else:
        retention = "2 days" if f["how"] == "encoder" else str(2 * UID8_DAY)
        q("UPDATE partman.part_config SET retention = %s, retention_keep_table = false, premake = 5"
          " WHERE parent_table = %s", (retention, f"app.{name}"))
        maint_err = attempt(f"SELECT partman.run_maintenance('app.{name}')")
    after = [c for c, _, _ in children(name)]
    r["maintenance"] = dict(dropped=sorted(set(before) - set(after)), made=sorted(set(after) - set(before)),
                            error=maint_err, notices=list(notices))
    print(f"        maintenance: dropped {r['maintenance']['dropped']}, made {r['maintenance']['made']},"
          f" error {maint_err}, notices {notices}")
    ahead = covering(f, "date_trunc('day', now()) + interval '5 days 12 hours'")
    oldest = covering(f, "date_trunc('day', now()) - interval '3 days' + interval '12 hours'")
    check(len(r["maintenance"]["dropped"]) == 1 and oldest == 0 and ahead == 1 and maint_err is None,
          f"{name}: maintenance (retention 2 days, premake raised to 5) dropped the oldest child ({oldest} left"
          f" for day -3) and made children up to day +5 ({ahead} for it)")

    # 3. Rows with no child yet land in the default partition; move them out.
    q(f"""INSERT INTO app.{name} (id, note)
          SELECT {f['at']}, 'future' FROM generate_series(1, 100) AS i,
                 LATERAL (SELECT date_trunc('day', now()) + interval '10 days' + i * interval '1 minute' AS t) AS s""")
    default_table = f"app.{name}_default"
    r["in_default"] = q1(f"SELECT count(*) FROM {default_table}")
    notices.clear()
    if f["how"] == "hand":
        # Recipe: move the default's rows for the new day into a new table, then attach it.
        day = "date_trunc('day', now()) + interval '10 days'"
        child = q1(f"SELECT 'app.{name}_p' || to_char({day}, 'YYYYMMDD')")
        with conn.transaction():
            q(f"CREATE TABLE {child} (LIKE app.{name} INCLUDING ALL)")
            q(f"""WITH moved AS (DELETE FROM {default_table}
                                 WHERE {f['day_range'].format(lo=day, hi=day + " + interval '1 day'")}
                                 RETURNING *)
                  INSERT INTO {child} SELECT * FROM moved""")
            bound = f["hand_bound"]
            q(f"""ALTER TABLE app.{name} ATTACH PARTITION {child}
                  FOR VALUES FROM ({bound.format(t=day)}) TO ({bound.format(t=day + " + interval '1 day'")})""")
        r["partition_data_proc"] = "not applicable (hand-kept)"
    else:
        r["partition_data_proc"] = attempt(f"CALL partman.partition_data_proc('app.{name}')")
        print(f"        partition_data_proc: {r['partition_data_proc'] or 'ok'}; notices {notices}")
        # pg_partman issue #795 (5.2.4), still so in 5.5.0: the procedure calls partition_data_<control type>,
        # and there is no partition_data_uuid. partition_data_time, which it would have to call, works.
        if f["how"] == "encoder":
            check((r["partition_data_proc"] or "").startswith("42883: function partman.partition_data_uuid("),
                  f"{name}: partition_data_proc fails as pg_partman #795 says (42883, no partition_data_uuid)")
        else:
            check(r["partition_data_proc"] is None, f"{name}: partition_data_proc succeeds")
        if r["partition_data_proc"] is not None and f["how"] == "encoder":
            notices.clear()
            err = attempt(f"SELECT partman.partition_data_time('app.{name}', p_batch_count := 100)")
            print(f"        partition_data_time: {err or 'ok'}; notices {notices}")
            # uuid sets reached partition_data_time in 5.3.0 (pg_partman #789); before, it refuses them.
            works = PARTMAN >= (5, 3, 0)
            check((err is None) == works, f"{name}: partition_data_time {'moves' if works else 'refuses'} the rows"
                  f" on pg_partman {PARTMAN_TEXT}{'' if err is None else ': ' + err}")
            if err is not None:
                # What it does, by hand: the day's rows out of the default, the child made, the rows back.
                day = "date_trunc('day', now()) + interval '10 days'"
                t = f["decode"].format(x="id::text")
                with conn.transaction():
                    q(f"""CREATE TEMP TABLE partman_moved ON COMMIT DROP AS
                          WITH d AS (DELETE FROM {default_table} WHERE {t} >= {day} AND {t} < {day} + interval '1 day'
                                     RETURNING *)
                          SELECT * FROM d""")
                    q(f"SELECT partman.create_partition_time('app.{name}', ARRAY[{day}])")
                    q(f"INSERT INTO app.{name} SELECT * FROM partman_moved")
    left = q1(f"SELECT count(*) FROM {default_table}")
    r["misplaced_after_move"] = misplaced(f)
    check(r["in_default"] == 100 and left == 0 and r["misplaced_after_move"] == 0,
          f"{name}: 100 rows 10 days ahead went to the default ({r['in_default']}), moved out ({left} left),"
          f" {r['misplaced_after_move']} misplaced")

    # 4. One day's range scans one child.
    lo = "date_trunc('day', now()) - interval '1 day'"
    hi = "date_trunc('day', now())"
    # Constants, as an application passes them: the planner prunes at plan time.
    bounds = q(f"SELECT ({lo})::text, ({hi})::text")[0]
    cond = f["day_range"].format(lo=f"'{bounds[0]}'::timestamptz", hi=f"'{bounds[1]}'::timestamptz")
    plan = [row[0] for row in q(f"EXPLAIN (COSTS OFF) SELECT count(*) FROM app.{name} WHERE {cond}")]
    scans = sorted(relations(q1(f"EXPLAIN (COSTS OFF, FORMAT JSON) SELECT count(*) FROM app.{name} WHERE {cond}")))
    n = q1(f"SELECT count(*) FROM app.{name} WHERE {cond}")
    r["explain"] = plan
    print("        EXPLAIN: " + " | ".join(line.strip() for line in plan))
    want = f.get("expect_scans", 1)
    check(len(scans) == want and n == 1440,
          f"{name}: one day's range reads {len(scans)} child(ren) {scans} (expected {want}), counts {n} rows")

# 5. The encoders and decoders resolve no name on the caller's search_path. Every overload of each one
# the sets use is planted, with a counter, in a schema first on a session's search_path; that session
# makes a new set and runs maintenance on every set. Control: an unqualified call there runs a plant.
print("\n== names on the search_path", flush=True)
used = sorted({f[k].split(".", 1)[1] for f in FAMILIES if f["how"] == "encoder" for k in ("enc", "dec")
               if f[k].startswith("ids.")})
q("DROP SCHEMA IF EXISTS plant CASCADE")
q("CREATE SCHEMA plant")
q("CREATE TABLE plant.calls (name text)")
q("GRANT ALL ON SCHEMA plant TO PUBLIC")
planted = []
for fname in used:
    for args, ret in q("""SELECT pg_catalog.pg_get_function_identity_arguments(p.oid), pg_catalog.format_type(p.prorettype, NULL)
                          FROM pg_catalog.pg_proc p WHERE p.pronamespace = 'ids'::regnamespace AND p.proname = %s""", (fname,)):
        q(f"""CREATE FUNCTION plant.{fname}({args}) RETURNS {ret} LANGUAGE plpgsql
              AS $$BEGIN INSERT INTO plant.calls VALUES ('{fname}'); RETURN NULL; END$$""")
        planted.append(f"{fname}({args})")
print(f"        planted {len(planted)} overloads of {len(used)} functions: {', '.join(used)}")
hostile = psycopg.connect(host=HOST, port=PORT, dbname=DB, user="postgres", autocommit=True,
                          options="-c TimeZone=UTC -c search_path=plant,ids,partman,public")
with hostile.cursor() as cur:
    cur.execute("CREATE TABLE app.planted (id uuid NOT NULL DEFAULT ids.comb_uuid('uuidv7'), note text) PARTITION BY RANGE (id)")
    cur.execute(f"""SELECT partman.create_parent(p_parent_table := 'app.planted', p_control := 'id', p_interval := '1 day',
                    p_premake := 2, p_start_partition := ({START})::text,
                    p_time_encoder := 'ids.comb_floor_uuidv7', p_time_decoder := 'ids.comb_timestamp_uuidv7')""")
    cur.execute("INSERT INTO app.planted (note) SELECT 'default' FROM generate_series(1, 10)")
    cur.execute("UPDATE partman.part_config SET premake = 4")
    cur.execute("SELECT partman.run_maintenance()")
    cur.execute("SELECT count(*) FROM partman.show_partitions('app.planted')")
    planted_children = cur.fetchone()[0]
    cur.execute("SELECT count(*) FROM ONLY app.planted_default")
    planted_default = cur.fetchone()[0]
    calls = q1("SELECT count(*) FROM plant.calls")
    check(calls == 0 and planted_children >= 7 and planted_default == 0,
          f"with {len(planted)} overloads planted first on the search_path, create_parent and run_maintenance of every"
          f" set ran {calls} of them ({planted_children} children of the new set, {planted_default} rows in its default)")
    cur.execute("SELECT comb_floor_uuidv7('2026-11-25 00:00:00+00')")
    control = q1("SELECT count(*) FROM plant.calls")
    check(control == 1, f"control: an unqualified call on that search_path runs the plant ({control} call)")
hostile.close()

print()
if failures:
    print(f"partman: {len(failures)} of {len(checks)} checks failed")
    sys.exit(1)
print(f"partman: {len(checks)} checks passed")
