"""comb_ext's SQL edition among roles that do not trust each other (issue 31): what one role with
CREATE on its own schema, or with only CONNECT, can do to another's install.

  python tests/portable_trust.py ADMIN_CONNINFO INSTALLER [--pgtle PGTLE_FILE] [--control] [--prefix P] [--calls N]

ADMIN_CONNINFO is a superuser's connection to the cluster (its dbname is only used to connect);
INSTALLER is the psql installer (portable/dist/comb_ext_install.sql, or an older one). The script
makes its own roles P_porter, P_tenant2, P_caller, P_intruder, P_other, P_member and databases P_db
(default P: trust), dropping any left from an earlier run, and drops them at the end. Tests:

  1 two_installs   two installs in one database (P_porter into ids, P_tenant2 into t2, each with
                   only CREATE on its own schema): 8 + 8 sessions of muid_new() at once, N values
                   each (default 5000), no value twice; each install one medallion, the two differ;
                   8 + 8 sessions of comb_uuid(), no value twice
  2 lockout        P_intruder, with CONNECT and USAGE on ids only, takes every lock it can name
                   while a session calls muid_new() in a loop: session advisory locks on the keys
                   the catalog gives (1668246882 with each OID of the schema's relations, routines
                   and the schema itself modulo 2^31-1, both key orders, and the 64-bit forms),
                   LOCK TABLE in every mode on every relation of the schema (42501 each), PREPAREd
                   SELECT ... FOR UPDATE/SHARE, INSERT, UPDATE and DELETE held in an open
                   transaction, muid_new() itself in an open transaction, and in a loop COMMENT ON,
                   ANALYZE, VACUUM, TRUNCATE, CLUSTER, REINDEX, DROP, ALTER OWNER, setval, nextval;
                   meanwhile every muid_new() of P_caller (statement_timeout 1 s) completes
  3 names          schema names with ', ", $, \ (and $$ inside the dollar-quoted bodies): the
                   installer, and with --pgtle CREATE EXTENSION through pg_tle, refuse each (22023;
                   PostgreSQL's own check in CREATE EXTENSION, first, gives 22P02) and create nothing; a name with a space and upper case installs and works
  4 create_rights  both refuse (42501, naming the role) a schema where another role has
                   CREATE (granted, or as its owner), or PUBLIC has; a member of the installer's
                   role with CREATE is no obstacle
  5 medallion      the derived medallion is one value under three TimeZone/DateStyle pairs and
                   whatever SET comb_ext.medallion says; muid_set_medallion(12345) by the owner
                   pins it in every session (others: 42501; out of range: 22023); NULL unpins it
  6 cancel         muid_new() behind the owner's LOCK TABLE _muid_state IN SHARE UPDATE EXCLUSIVE
                   MODE is cancelled by statement_timeout (57014) and holds no lock afterwards;
                   the next call works once the owner commits
  7 lock_queue     with what test 2 holds, P_intruder leaves CREATE TRIGGER and CREATE RULE on each
                   relation it can name waiting (lock_timeout 0): both ask for a lock that
                   conflicts with what muid_new takes before they check privileges, and a waiting
                   request stops every later conflicting one; P_caller's muid_new() must still
                   complete within 1 s. ids keeps muid_new's relations in ids_state, which
                   P_intruder cannot name; then, not counted, the same against the one-schema
                   install t2 with USAGE granted shows the limit docs/portable.md states

--control: the installer is one without the fixes of issue 31 (c739e04's): every test must FAIL;
exits 1 if any passes. Without it, exits 1 if any fails. Figures are printed either way.
"""
import argparse
import sys
import threading
import time
import traceback

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

MUID_KEY = 1668246882  # 'comb', the first key of c739e04's advisory lock
NODE_LOW, NODE_HIGH = 1 << 40, (1 << 41) - 1  # derived medallions: the nodes' range
MEDALLION_MAX = 17592186044414


class Failed(Exception):
    pass


class Run:
    def __init__(self, admin, installer, prefix, calls, pgtle=None):
        self.admin = admin
        self.installer_text = open(installer).read()
        self.pgtle_text = open(pgtle).read() if pgtle else None
        self.extension = f"{prefix}_comb"
        self.p = prefix
        self.calls = calls
        self.db = f"{prefix}_db"
        self.porter, self.tenant2 = f"{prefix}_porter", f"{prefix}_tenant2"
        self.caller, self.intruder = f"{prefix}_caller", f"{prefix}_intruder"
        self.other, self.member = f"{prefix}_other", f"{prefix}_member"
        self.roles = [self.porter, self.tenant2, self.caller, self.intruder, self.other, self.member]
        self.problems = []

    # ---- connections and helpers -------------------------------------------------------------

    def conninfo(self, role=None, db=None, **options):
        kw = {"dbname": db or self.db}
        if role:
            kw["user"] = role
        if options:
            kw["options"] = " ".join(f"-c {k}={v}" for k, v in options.items())
        return make_conninfo(self.admin, **kw)

    def connect(self, role=None, db=None, autocommit=True, **options):
        return psycopg.connect(self.conninfo(role, db, **options), autocommit=autocommit)

    def sql_admin(self, *statements, db=None):
        with self.connect(None, db or self.db) as c:
            for s in statements:
                c.execute(s)

    def check(self, ok, what):
        if not ok:
            self.problems.append(what)
            print(f"    NOT AS EXPECTED: {what}")
        return ok

    def install(self, role, schema, state=None):
        """None if the installer succeeded, else (SQLSTATE, message). state: the schema for
        muid_new's relations (comb_ext_install.state_schema), else the edition's own."""
        with self.connect(role) as c:
            c.execute(sql.SQL("SET search_path = {}").format(sql.Identifier(schema)))
            if state:
                c.execute("SELECT pg_catalog.set_config('comb_ext_install.state_schema', %s, false)", (state,))
            try:
                c.execute(self.installer_text)
                return None
            except psycopg.Error as e:
                return e.sqlstate, (e.diag.message_primary or str(e))

    def create_extension(self, role, schema):
        """The pg_tle path: None if CREATE EXTENSION succeeded (then dropped again: a database holds
        an extension once), else (SQLSTATE, message)."""
        with self.connect(role) as c:
            try:
                c.execute(sql.SQL("CREATE EXTENSION {} SCHEMA {}").format(sql.Identifier(self.extension), sql.Identifier(schema)))
            except psycopg.Error as e:
                return e.sqlstate, (e.diag.message_primary or str(e))
            c.execute(sql.SQL("DROP EXTENSION {}").format(sql.Identifier(self.extension)))
            return None

    def attempts(self, role, schema):
        """[(way, outcome)]: CREATE EXTENSION through pg_tle (with --pgtle), then the psql installer."""
        ways = [("pg_tle", self.create_extension)] if self.pgtle_text else []
        return [(way, f(role, schema)) for way, f in ways + [("installer", self.install)]]

    def objects(self, of, name):
        """Functions, types, relations and operators in schema name (of="namespace"), or owned by
        role name (of="owner": what a refused install must leave as it was)."""
        catalog = "pg_catalog.pg_namespace AS o WHERE o.nspname" if of == "namespace" else "pg_catalog.pg_roles AS o WHERE o.rolname"
        with self.connect() as c:
            return c.execute(f"""SELECT (SELECT count(*) FROM pg_catalog.pg_proc WHERE pro{of} = o.oid)
                + (SELECT count(*) FROM pg_catalog.pg_type WHERE typ{of} = o.oid)
                + (SELECT count(*) FROM pg_catalog.pg_class WHERE rel{of} = o.oid)
                + (SELECT count(*) FROM pg_catalog.pg_operator WHERE opr{of} = o.oid)
                FROM {catalog} = %s""", (name,)).fetchone()[0]

    def schema_for(self, name, *create_roles, usage=()):
        """A schema owned by the superuser with USAGE and CREATE for create_roles only."""
        ident = sql.Identifier(name)
        self.sql_admin(sql.SQL("CREATE SCHEMA {}").format(ident),
                       *[sql.SQL("GRANT USAGE, CREATE ON SCHEMA {} TO {}").format(ident, sql.Identifier(r)) for r in create_roles],
                       *[sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(ident, sql.Identifier(r)) for r in usage])

    # ---- setup and teardown ------------------------------------------------------------------

    def teardown(self):
        with self.connect(None, "postgres") as c:
            c.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.db)))
            for r in self.roles:
                c.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(r)))

    def setup(self):
        self.teardown()
        with self.connect(None, "postgres") as c:
            for r in self.roles:
                c.execute(sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE").format(sql.Identifier(r)))
            c.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(self.porter), sql.Identifier(self.member)))
            c.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.db)))
        I = sql.Identifier
        self.sql_admin(
            # Nothing for PUBLIC: no TEMP, no CREATE on public; CONNECT for the test roles only.
            sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC").format(I(self.db)),
            sql.SQL("REVOKE CREATE ON SCHEMA public FROM PUBLIC"),
            *[sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(I(self.db), I(r)) for r in self.roles])
        # ids keeps muid_new's relations in ids_state, which only P_porter can use (the layout
        # docs/portable.md recommends); t2 is a one-schema install.
        self.schema_for("ids", self.porter, usage=[self.caller, self.intruder])
        self.schema_for("ids_state", self.porter)
        self.schema_for("t2", self.tenant2, usage=[self.caller])
        for role, schema, state in ((self.porter, "ids", "ids_state"), (self.tenant2, "t2", None)):
            got = self.install(role, schema, state)
            if got is not None:
                raise Failed(f"install by {role} into {schema}: {got}")
        if self.pgtle_text:
            # Registered by the superuser (a pgtle_admin member would do), under a name of its own.
            self.sql_admin("CREATE EXTENSION pg_tle",
                           sql.SQL("SET comb_ext_install.extension_name = {}").format(sql.Literal(self.extension)),
                           self.pgtle_text)
            print(f"  pg_tle: extension {self.extension} registered from {self.pgtle_text.splitlines()[0][3:60]}...")
        print(f"  database {self.db}: {self.porter} installed into ids (muid_new's state in ids_state), {self.tenant2} into t2, "
              "each with only CREATE on its own schemas")

    # ---- 1: two installs in one database -----------------------------------------------------

    def sessions(self, work, per_install):
        """work(conn, schema, i) -> list, from per_install sessions of each install at once."""
        results, errors = {}, []

        def one(role, schema, i):
            try:
                with self.connect(role) as c:
                    results[(schema, i)] = work(c, schema, i)
            except Exception as e:  # reported below
                errors.append(f"{schema} session {i}: {e}")

        threads = [threading.Thread(target=one, args=(role, schema, i))
                   for role, schema in ((self.porter, "ids"), (self.tenant2, "t2")) for i in range(per_install)]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return results, errors, time.monotonic() - started

    def test_two_installs(self):
        calls, batch = self.calls, 500

        def muids(c, schema, i):
            got = []
            for _ in range(calls // batch):
                got += [r[0] for r in c.execute(sql.SQL("SELECT {}.muid_new()::text FROM pg_catalog.generate_series(1, %s)")
                                                .format(sql.Identifier(schema)), (batch,))]
            return got

        results, errors, elapsed = self.sessions(muids, 8)
        self.check(not errors, f"muid_new sessions failed: {errors[:3]}")
        every = [v for r in results.values() for v in r]
        per = {s: [v for (schema, _), r in results.items() if schema == s for v in r] for s in ("ids", "t2")}
        twice = len(every) - len(set(every))
        across = len(set(per["ids"]) & set(per["t2"]))
        medallions = {s: sorted({int(v.replace("-", "")[13:24], 16) for v in per[s]}) for s in per}
        print(f"    muid_new: {len(per['ids'])} values from 8 sessions of ids and {len(per['t2'])} from 8 of t2 at once, "
              f"{elapsed:.1f} s: {twice} identical ({across} in both installs)")
        print(f"    medallions: ids {', '.join(hex(m) for m in medallions['ids'])}; t2 {', '.join(hex(m) for m in medallions['t2'])}")
        self.check(len(every) == 16 * (calls // batch) * batch, f"muid_new: {len(every)} values")
        self.check(twice == 0, f"muid_new: {twice} identical values of {len(every)} from the two installs")
        self.check(len(medallions["ids"]) == 1 and len(medallions["t2"]) == 1 and medallions["ids"] != medallions["t2"],
                   "muid_new: each install one medallion, the two different")

        def combs(c, schema, i):
            return [r[0] for r in c.execute(sql.SQL("SELECT {}.comb_uuid()::text FROM pg_catalog.generate_series(1, 5000)")
                                            .format(sql.Identifier(schema)))]

        results, errors, elapsed = self.sessions(combs, 8)
        self.check(not errors, f"comb_uuid sessions failed: {errors[:3]}")
        every = [v for r in results.values() for v in r]
        twice = len(every) - len(set(every))
        print(f"    comb_uuid: {len(every)} values from 8 + 8 sessions at once, {elapsed:.1f} s: {twice} identical")
        self.check(len(every) == 80000 and twice == 0, f"comb_uuid: {twice} identical values of {len(every)}")

    # ---- 2: a role with only CONNECT and USAGE takes every lock it can name -------------------

    def measure(self, what, seconds, schema="ids", bound=True):
        """P_caller's muid_new() (statement_timeout 1 s) for that long, or until 2 fail; bound: none
        may fail, so none waited 1 s in the server, where statement_timeout cancels it (else the
        figures are only printed). The latencies are the client's: under load they include this
        process's threads' turns (a gate run read 1.25 s with no call cancelled), so they are printed,
        not bounded."""
        latencies, errors = [], {}
        with self.connect(self.caller, statement_timeout="1s") as c:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and sum(errors.values()) < 2:
                t0 = time.monotonic()
                try:
                    c.execute(sql.SQL("SELECT {}.muid_new()").format(sql.Identifier(schema)))
                except psycopg.Error as e:
                    errors[e.sqlstate] = errors.get(e.sqlstate, 0) + 1
                latencies.append(time.monotonic() - t0)
        latencies.sort()
        print(f"      {what}: {len(latencies)} calls of muid_new(), {sum(errors.values())} failed{' ' + str(errors) if errors else ''}, "
              f"median {latencies[len(latencies) // 2] * 1000:.1f} ms, worst {latencies[-1] * 1000:.1f} ms")
        if bound:
            self.check(not errors, f"muid_new {what}: {errors} (worst {latencies[-1]:.3f} s)")
        return bool(errors) or latencies[-1] >= 1.0

    # Every schema but the system's: the edition's relations wherever they are, not only in ids (the
    # intruder can name those of a schema it has USAGE on; the others it is refused at once).
    USER_SCHEMAS = "SELECT n.oid FROM pg_catalog.pg_namespace AS n WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp_)'"

    @classmethod
    def relations(cls, conn):
        """(oid, qualified name, relkind, first column) of every relation outside the system's schemas
        (and pg_tle's)."""
        return conn.execute(f"""SELECT c.oid::bigint, pg_catalog.format('%I.%I', n.nspname, c.relname), c.relkind::text,
                (SELECT pg_catalog.quote_ident(a.attname) FROM pg_catalog.pg_attribute AS a
                 WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum LIMIT 1)
            FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
            WHERE n.oid IN ({cls.USER_SCHEMAS})
              AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend AS d JOIN pg_catalog.pg_extension AS e ON e.oid = d.refobjid
                              WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objid = c.oid
                                AND d.deptype = 'e' AND e.extname = 'pg_tle')  -- pg_tle's own, some readable by all
            ORDER BY n.nspname = 'ids' DESC, 2""").fetchall()

    def test_lockout(self):
        schema = "ids"
        stop = threading.Event()
        loop = {"values": 0, "errors": []}

        def background():
            with self.connect(self.caller, statement_timeout="3s") as c:
                while not stop.is_set():
                    try:
                        c.execute("SELECT ids.muid_new() FROM pg_catalog.generate_series(1, 20)")
                        loop["values"] += 20
                    except psycopg.Error as e:
                        loop["errors"].append(e.sqlstate)

        def attempt(conn, statement):
            """Run in a savepoint: kept (its locks held) if it works, else rolled back; its SQLSTATE."""
            conn.execute("SAVEPOINT a")
            try:
                conn.execute(statement)
                conn.execute("RELEASE SAVEPOINT a")
                return None
            except psycopg.Error as e:
                conn.execute("ROLLBACK TO SAVEPOINT a")
                return e.sqlstate

        bg = threading.Thread(target=background)
        bg.start()
        conns = []
        try:
            conns.append(advisory := self.connect(self.intruder, lock_timeout="3s"))
            conns.append(locker := self.connect(self.intruder, autocommit=False, lock_timeout="3s"))
            conns.append(calling := self.connect(self.intruder, autocommit=False, statement_timeout="2s"))
            relations = self.relations(advisory)
            print(f"    {self.intruder} (CONNECT, USAGE on {schema} only) sees {len(relations)} relations outside the system's schemas: "
                  + ", ".join(f"{name} ({kind})" for _, name, kind, _ in relations))

            # Phase 1: what it can hold. Session advisory locks on every key the catalog gives.
            oids = [r[0] for r in relations]
            oids += [r[0] for r in advisory.execute(f"SELECT p.oid::bigint FROM pg_catalog.pg_proc AS p WHERE p.pronamespace IN ({self.USER_SCHEMAS})")]
            oids += [r[0] for r in advisory.execute(f"SELECT oid::bigint FROM ({self.USER_SCHEMAS}) AS n")]
            keys = set()
            for oid in oids:
                m = oid % 2147483647
                keys |= {(MUID_KEY, m), (m, MUID_KEY), (oid,), ((MUID_KEY << 32) | oid,), ((oid << 32) | MUID_KEY,)}
            taken = 0
            for key in sorted(keys):
                try:
                    advisory.execute("SELECT pg_catalog.pg_advisory_lock(" + ", ".join(
                        f"{k}::integer" if len(key) == 2 else f"{k}::bigint" for k in key) + ")")
                    taken += 1
                except psycopg.Error:
                    pass
            print(f"    held: {taken} session advisory locks of {len(keys)} keys "
                  f"(1668246882 and each of {len(oids)} OIDs of the schemas, their relations and routines: both orders, 64-bit forms)")

            # LOCK TABLE in every mode, in an open transaction, each kept if it was granted.
            modes = ["ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE",
                     "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"]
            refused, granted = {}, []
            for oid, name, kind, col in relations:
                for mode in modes:
                    code = attempt(locker, f"LOCK TABLE {name} IN {mode} MODE")
                    if code is None:
                        granted.append(f"{mode} on {name}")
                    refused[code] = refused.get(code, 0) + 1
            print(f"    LOCK TABLE in 8 modes on each: "
                  + ", ".join(f"{n} {'granted' if c is None else c}" for c, n in sorted(refused.items(), key=str)))
            self.check(not granted, f"{self.intruder} was granted LOCK TABLE: {granted}")
            # (The harness's own check: the statements were well formed and reached the relation.)
            self.check(set(refused) <= {"42501", "42809"}, f"LOCK TABLE refused otherwise than 42501/42809: {refused}")

            # PREPAREd statements take their locks at parse time, before any privilege check.
            prepared, failed = 0, {}
            for i, (oid, name, kind, col) in enumerate(relations):
                statements = [f"SELECT * FROM {name}"]
                statements += [f"SELECT * FROM {name} FOR {s}" for s in ("UPDATE", "NO KEY UPDATE", "SHARE", "KEY SHARE")]
                statements += [f"INSERT INTO {name} DEFAULT VALUES", f"DELETE FROM {name}"]
                if col:
                    statements.append(f"UPDATE {name} SET {col} = {col}")
                for j, s in enumerate(statements):
                    code = attempt(locker, f"PREPARE trust_{i}_{j} AS {s}")
                    if code is None:
                        prepared += 1
                    else:
                        failed[code] = failed.get(code, 0) + 1
            # muid_new itself, in a transaction left open.
            try:
                calling.execute("SELECT ids.muid_new()")
                own = "muid_new() in another"
            except psycopg.Error as e:
                own = f"muid_new() in another, which failed ({e.sqlstate})"
            with self.connect() as a:
                held = a.execute(f"""SELECT pg_catalog.string_agg(DISTINCT l.mode || ' on ' || l.relation::regclass::text, ', ')
                    FROM pg_catalog.pg_locks AS l WHERE l.pid = ANY(%s) AND l.locktype = 'relation' AND l.granted
                    AND l.relation IN (SELECT oid FROM pg_catalog.pg_class WHERE relnamespace IN ({self.USER_SCHEMAS}))""",
                                 ([locker.info.backend_pid, calling.info.backend_pid],)).fetchone()[0]
            # (Well formed: held, or refused for want of privilege, as where the intruder cannot name
            # the relations at all, which is the layout's point.)
            self.check("42601" not in failed and (prepared > 0 or set(failed) <= {"42501", "42809"}), f"PREPARE: {prepared} held, refused {failed}")
            print(f"    held in open transactions: {prepared} PREPAREd statements"
                  + (f" ({', '.join(f'{n} refused {c}' for c, n in failed.items())})" if failed else "")
                  + f" in one, {own}; relation locks held: {held or 'none'}")
            self.measure("with all that held", 1.5)

            # Phase 2: in a loop, what could take a lock before its privilege check.
            attempts = {"n": 0, "codes": {}, "ran": set()}

            def pester():
                statements = []
                for oid, name, kind, col in relations:
                    what = {"S": "SEQUENCE", "v": "VIEW", "i": "INDEX"}.get(kind, "TABLE")
                    statements += [f"COMMENT ON {what} {name} IS 'mine'", f"ANALYZE {name}", f"VACUUM {name}",
                                   f"TRUNCATE {name}", f"CLUSTER {name}", f"REINDEX TABLE {name}", f"DROP {what} {name}",
                                   f"ALTER TABLE {name} OWNER TO CURRENT_USER"]
                    if kind == "S":
                        statements += [f"SELECT pg_catalog.setval('{name}', 1)", f"SELECT pg_catalog.nextval('{name}')"]
                with self.connect(self.intruder, lock_timeout="3s") as c:
                    c.add_notice_handler(lambda d: None)
                    while not stop.is_set():
                        for s in statements:
                            try:
                                c.execute(s)
                                code = "ok"
                                # A non-owner's ANALYZE and VACUUM skip the relation with a warning.
                                if not s.startswith(("ANALYZE", "VACUUM")):
                                    attempts["ran"].add(s)
                            except psycopg.Error as e:
                                code = e.sqlstate
                            attempts["n"] += 1
                            attempts["codes"][code] = attempts["codes"].get(code, 0) + 1

            pesterers = [threading.Thread(target=pester) for _ in range(2)]
            for t in pesterers:
                t.start()
            time.sleep(0.2)
            self.measure("and 2 sessions looping over COMMENT ON, ANALYZE, VACUUM, TRUNCATE, CLUSTER, REINDEX, DROP, ALTER OWNER, setval, nextval", 1.5)
            stop.set()
            for t in pesterers:
                t.join()
            codes = ", ".join(f"{n} {c}" for c, n in sorted(attempts["codes"].items()))
            print(f"      those {attempts['n']} statements: {codes} (ok: ANALYZE and VACUUM skipping, with a warning)")
            self.check(not attempts["ran"], f"{self.intruder} ran: {sorted(attempts['ran'])}")
            self.check("42601" not in attempts["codes"], f"statements the server could not parse: {attempts['codes']}")

        finally:
            stop.set()
            for c in conns:
                c.close()
            bg.join()
        print(f"    the muid_new loop in another session of {self.caller} meanwhile: {loop['values']} values, "
              f"{len(loop['errors'])} failed {loop['errors'][:3] if loop['errors'] else ''}")
        self.check(not loop["errors"], f"the muid_new loop beside it failed: {loop['errors'][:3]}")

    # ---- 3: schema names that break out of a literal or a dollar quote -----------------------

    def test_names(self):
        bad = ["a'b", 'a"b', "a$$b", "a\\b", "x$$ LANGUAGE sql AS $$ SELECT 1 $$ --",
               "x'::regclass; DROP TABLE t2._muid_timeline; --", "$comb_ext_script$", "back\\'slash"]
        before = self.objects("owner", self.porter)
        for name in bad:
            self.schema_for(name, self.porter)
            for way, got in self.attempts(self.porter, name):
                print(f"    schema {name!r}, {way}: {'installed' if got is None else got[0] + ' ' + got[1][:90]}")
                # Through CREATE EXTENSION, PostgreSQL (15.4 and later) refuses first, with 22P02.
                expected = ("22023", "22P02") if way == "pg_tle" else ("22023",)
                self.check(got is not None and got[0] in expected, f"schema {name!r}, {way}: {got}, expected a refusal ({' or '.join(expected)})")
            left = self.objects("namespace", name)
            self.check(left == 0, f"schema {name!r}: {left} objects left")
        after = self.objects("owner", self.porter)
        print(f"    objects owned by {self.porter} before and after: {before}, {after}")
        self.check(before == after, f"the refused installs left {after - before} objects of {self.porter}")
        self.check(self.objects("namespace", "t2") > 0 and self.objects("owner", self.tenant2) > 0, "t2's install is still there")

        good = "Odd IDs 2"
        self.schema_for(good, self.porter, usage=[self.caller])
        for way, got in self.attempts(self.porter, good):
            self.check(got is None, f"schema {good!r}, {way}: {got}, expected an install")
        if got is None:
            with self.connect(self.caller) as c:
                s = sql.Identifier(good)
                m = c.execute(sql.SQL("SELECT {s}.muid_medallion({s}.muid_new()), {s}.comb_uuid() IS NOT NULL, "
                                      "{s}.sno_from_parts('2024-01-01 00:00+00', 1, 2, 3)::text").format(s=s)).fetchone()
            print(f"    schema {good!r}: installed; muid_new() medallion {hex(m[0])}, comb_uuid() {m[1]}, sno_from_parts {m[2]}")
            self.check(m[1] and m[2] is not None, f"schema {good!r}: {m}")

    # ---- 4: another role, or PUBLIC, with CREATE on the schema -------------------------------

    def test_create_rights(self):
        cases = [("shared", "granted to", self.other), ("public_create", "granted to", "PUBLIC"),
                 ("owned", "owned by", self.other), ("member", "granted to", self.member)]
        for schema, how, who in cases:
            self.schema_for(schema, self.porter)
            if how == "owned by":
                self.sql_admin(sql.SQL("ALTER SCHEMA {} OWNER TO {}").format(sql.Identifier(schema), sql.Identifier(who)))
            else:
                self.sql_admin(sql.SQL("GRANT CREATE ON SCHEMA {} TO {}").format(
                    sql.Identifier(schema), sql.SQL("PUBLIC") if who == "PUBLIC" else sql.Identifier(who)))
            for way, got in self.attempts(self.porter, schema):
                print(f"    schema {schema}, CREATE {how} {who}, {way}: "
                      + ("installed" if got is None else f"{got[0]} {got[1][:110]}"))
                if who == self.member:
                    self.check(got is None, f"schema {schema} (CREATE for {who}, a member of {self.porter}), {way}: {got}, expected an install")
                else:
                    self.check(got is not None and got[0] == "42501" and who.lower() in got[1].lower(),
                               f"schema {schema} (CREATE {how} {who}), {way}: {got}, expected 42501 naming {who}")
            if who != self.member:
                self.check(self.objects("namespace", schema) == 0, f"schema {schema}: objects left")

    # ---- 5: the medallion -------------------------------------------------------------------

    SETTINGS = [("UTC", "ISO"), ("America/New_York", "SQL, DMY"), ("Asia/Kolkata", "German")]

    def medallions(self, schema, role, extra=None):
        seen = []
        for tz, ds in self.SETTINGS:
            with self.connect(role) as c:
                c.execute("SELECT pg_catalog.set_config('TimeZone', %s, false), pg_catalog.set_config('DateStyle', %s, false)", (tz, ds))
                if extra:
                    c.execute(extra)
                seen.append(c.execute(sql.SQL("SELECT {s}.muid_medallion({s}.muid_new())").format(s=sql.Identifier(schema))).fetchone()[0])
        return seen

    def test_medallion(self):
        def outcome(role, statement, params=()):
            with self.connect(role) as c:
                try:
                    return "ok", c.execute(statement, params).fetchone()[0]
                except psycopg.Error as e:
                    return "error", e.sqlstate

        derived = self.medallions("ids", self.porter)
        print(f"    derived medallion of ids under {', '.join(f'{tz}/{ds}' for tz, ds in self.SETTINGS)}: {', '.join(hex(m) for m in derived)}")
        self.check(len(set(derived)) == 1 and NODE_LOW <= derived[0] <= NODE_HIGH,
                   f"derived medallion: {len(set(derived))} values under three TimeZone/DateStyle pairs")
        overridden = self.medallions("ids", self.caller, "SET comb_ext.medallion = '42'")
        print(f"    with SET comb_ext.medallion = '42' in {self.caller}'s sessions: {', '.join(hex(m) for m in overridden)}")
        self.check(set(overridden) == {derived[0]}, "a session's SET comb_ext.medallion changed the medallion")

        pinned = outcome(self.porter, "SELECT ids.muid_set_medallion(12345)")
        print(f"    {self.porter}: muid_set_medallion(12345): {pinned}")
        self.check(pinned[0] == "ok", f"muid_set_medallion(12345) by the owner: {pinned}")
        seen = self.medallions("ids", self.porter) + self.medallions("ids", self.caller, "SET comb_ext.medallion = '42'")
        print(f"    then, in 3 sessions of {self.porter} and 3 of {self.caller} with SET comb_ext.medallion = '42': {sorted(set(seen))}")
        self.check(set(seen) == {12345}, f"pinned medallion: {sorted(set(seen))}, expected 12345 only")
        other = self.medallions("t2", self.tenant2)
        self.check(len(set(other)) == 1 and other[0] not in (12345, derived[0]), f"t2's medallion {other} kept its own")

        for role, value, expected in ((self.caller, 1, "42501"), (self.intruder, 1, "42501"),
                                      (self.porter, MEDALLION_MAX + 1, "22023"), (self.porter, -1, "22023")):
            got = outcome(role, "SELECT ids.muid_set_medallion(%s)", (value,))
            print(f"    {role}: ids.muid_set_medallion({value}): {got[1] if got[0] == 'error' else 'ran'}")
            self.check(got == ("error", expected), f"ids.muid_set_medallion({value}) by {role}: {got}, expected {expected}")
        again = self.medallions("ids", self.caller)
        self.check(set(again) == {12345}, f"after the refused calls: {again}")
        got = outcome(self.porter, "SELECT ids.muid_set_medallion(NULL)")
        back = self.medallions("ids", self.caller)
        print(f"    {self.porter}: muid_set_medallion(NULL): {got}; then {', '.join(hex(m) for m in back)}")
        self.check(got[0] == "ok" and set(back) == {derived[0]}, f"unpinned: {back}, expected {hex(derived[0])}")

    # ---- 6: a cancel behind the owner's table lock -------------------------------------------

    def test_cancel(self):
        with self.connect(self.porter, autocommit=False) as owner, self.connect(self.caller) as waiter, self.connect() as admin:
            owner.execute("LOCK TABLE ids_state._muid_state IN SHARE UPDATE EXCLUSIVE MODE")
            waiter.execute("SET statement_timeout = '300ms'")
            t0 = time.monotonic()
            try:
                waiter.execute("SELECT ids.muid_new()")
                got = "ok"
            except psycopg.Error as e:
                got = e.sqlstate
            waited = time.monotonic() - t0
            locks = admin.execute("""SELECT pg_catalog.count(*), pg_catalog.string_agg(l.locktype || ' ' || l.mode || ' '
                    || coalesce(l.relation::regclass::text, l.objid::text), ', ')
                FROM pg_catalog.pg_locks AS l WHERE l.pid = %s AND l.locktype IN ('relation', 'advisory')""",
                                  (waiter.info.backend_pid,)).fetchone()
            owner.commit()
            try:
                after = waiter.execute("SELECT ids.muid_new() IS NOT NULL").fetchone()[0]
            except psycopg.Error as e:
                after = e.sqlstate
        print(f"    muid_new() behind {self.porter}'s SHARE UPDATE EXCLUSIVE lock on ids_state._muid_state: {got} after {waited * 1000:.0f} ms; "
              f"locks of that session then: {locks[0]} {locks[1] or ''}; after the owner's commit: {after}")
        self.check(got == "57014", f"muid_new behind the lock: {got}, expected 57014")
        self.check(locks[0] == 0, f"locks left behind: {locks[1]}")
        self.check(after is True, f"muid_new after the owner's commit: {after}")


    # ---- 7: a lock request left waiting, before its privilege check --------------------------

    def test_lock_queue(self):
        """P_intruder holds nothing but what its own muid_new() call leaves in its open transaction;
        CREATE TRIGGER (SHARE ROW EXCLUSIVE) and CREATE RULE (ACCESS EXCLUSIVE) queue their lock
        before they check ownership, and a waiting request stops every later conflicting one."""
        with self.connect(self.intruder, autocommit=False) as holder, self.connect() as admin:
            holder.execute("SELECT ids.muid_new()")
            relations = self.relations(holder)
            held = admin.execute(f"""SELECT pg_catalog.string_agg(l.mode || ' on ' || l.relation::regclass::text, ', ' ORDER BY 1)
                FROM pg_catalog.pg_locks AS l WHERE l.pid = %s AND l.locktype = 'relation'
                AND l.relation IN (SELECT oid FROM pg_catalog.pg_class WHERE relnamespace IN ({self.USER_SCHEMAS}))""",
                                 (holder.info.backend_pid,)).fetchone()[0]
            refused = {}
            print(f"    {self.intruder}: BEGIN; SELECT ids.muid_new(); left open, holds {held or 'nothing'}; then, in another session, with lock_timeout 0:")
            for oid, name, kind, col in relations:
                for statement in (f"CREATE TRIGGER mine BEFORE UPDATE ON {name} FOR EACH ROW "
                                  f"EXECUTE FUNCTION pg_catalog.suppress_redundant_updates_trigger()",
                                  f"CREATE RULE mine AS ON UPDATE TO {name} DO INSTEAD NOTHING"):
                    waiting = {}

                    def wait(c):
                        try:
                            c.execute(statement)
                            waiting["code"] = "ok"
                        except psycopg.Error as e:
                            waiting["code"] = e.sqlstate

                    with self.connect(self.intruder, lock_timeout="0", statement_timeout="10s") as c:
                        t = threading.Thread(target=wait, args=(c,))
                        t.start()
                        t.join(0.3)
                        if t.is_alive():  # still waiting for its lock
                            self.measure(f"while CREATE {statement.split(' ')[1]} ... ON {name} waits", 0.5)
                            c.cancel()
                        t.join()
                    self.check(waiting.get("code") in ("42501", "42809", "57014"), f"{statement}: {waiting}, expected a refusal or a wait")
                    if waiting.get("code") != "57014":
                        refused[waiting.get("code")] = refused.get(waiting.get("code"), 0) + 1
            print(f"      refused at once (not waiting): {', '.join(f'{n} {c}' for c, n in sorted(refused.items(), key=str)) or 'none'}")
        self.single_schema_limit()

    def single_schema_limit(self):
        """Not a test: the limit docs/portable.md states for a one-schema install (t2), shown with
        figures. A role with USAGE on that schema, as every caller has, can name muid_new's
        relations and leave a CREATE RULE waiting on one, and muid_new waits behind it."""
        self.sql_admin(sql.SQL("GRANT USAGE ON SCHEMA t2 TO {}").format(sql.Identifier(self.intruder)))
        try:
            with self.connect(self.intruder, autocommit=False) as holder, \
                    self.connect(self.intruder, lock_timeout="0", statement_timeout="10s") as c:
                holder.execute("SELECT t2.muid_new()")
                waiting = {}

                def wait():
                    try:
                        c.execute("CREATE RULE mine AS ON UPDATE TO t2._muid_state DO INSTEAD NOTHING")
                    except psycopg.Error as e:
                        waiting["code"] = e.sqlstate

                t = threading.Thread(target=wait)
                t.start()
                t.join(0.3)
                stalled = t.is_alive() and self.measure("one-schema install t2, while CREATE RULE ... ON t2._muid_state waits",
                                                        1.5, schema="t2", bound=False)
                c.cancel()
                t.join()
            print(f"      the documented limit of a one-schema install (docs/portable.md, threat model): "
                  f"{'muid_new stalled' if stalled else 'no stall seen'}, not counted as a result")
        finally:
            self.sql_admin(sql.SQL("REVOKE USAGE ON SCHEMA t2 FROM {}").format(sql.Identifier(self.intruder)))

TESTS = ["two_installs", "lockout", "names", "create_rights", "medallion", "cancel", "lock_queue"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("admin")
    ap.add_argument("installer")
    ap.add_argument("--control", action="store_true", help="the installer predates the fixes: every test must fail")
    ap.add_argument("--prefix", default="trust")
    ap.add_argument("--calls", type=int, default=5000, help="muid_new values per session in test 1")
    ap.add_argument("--only", nargs="*", choices=TESTS)
    ap.add_argument("--pgtle", metavar="PGTLE_FILE", help="also CREATE EXTENSION through pg_tle (preloaded) in tests 3 and 4, "
                    "registered from this file (portable/dist/comb_ext_pgtle.sql)")
    args = ap.parse_args()
    started = time.monotonic()
    run = Run(args.admin, args.installer, args.prefix, args.calls, args.pgtle)
    run.setup()
    outcomes = {}
    try:
        for number, name in enumerate(TESTS, 1):
            if args.only and name not in args.only:
                continue
            print(f"  {number} {name}:")
            t0 = time.monotonic()
            run.problems = []
            try:
                getattr(run, "test_" + name)()
            except (psycopg.Error, Failed) as e:
                run.check(False, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
                          + (f" ({e.sqlstate})" if isinstance(e, psycopg.Error) else ""))
            except Exception:
                traceback.print_exc()
                run.check(False, "the test itself broke")
            outcomes[name] = not run.problems
            print(f"    {number} {name}: {'passed' if outcomes[name] else 'FAILED'} ({time.monotonic() - t0:.1f} s)")
    finally:
        run.teardown()
    failed = [n for n, ok in outcomes.items() if not ok]
    passed = [n for n, ok in outcomes.items() if ok]
    if args.control:
        print(f"  control ({args.installer}): {len(failed)} of {len(outcomes)} tests fail as they must"
              + (f"; these PASSED on it: {', '.join(passed)}" if passed else "") + f", {time.monotonic() - started:.1f} s")
        sys.exit(1 if passed else 0)
    print(f"  {'FAILED: ' + ', '.join(failed) if failed else 'passed'}: {len(passed)} of {len(outcomes)} tests, "
          f"{time.monotonic() - started:.1f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
