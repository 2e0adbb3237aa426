"""Copies, clones, failovers and upgrades of a data directory, as one matrix (docs/guarantees.md).

Built from three lists, every combination run by the same code:
  generators  sno_new(), muid_new(), uid8_new('time_sequential'), uid8_new('spread'), comb_uuid(), and inserts
              into a bigserial table brought over to 'uid8' by comb_ext_adopt;
  events      cp -a of a stopped server; a file copy of a running one taken between pg_backup_start and
              pg_backup_stop (pg_start_backup/pg_stop_backup before 15); one pg_basebackup restored
              twice; two clones promoted; a failover with the same explicit identities and the new
              primary's clock 1 s, 4 s and 60 s behind the old one's (libfaketime); pg_upgrade --copy
              (the new cluster beside its source) and --link (the old cluster cannot start again: the
              values it issued before are compared), each of the last with its settings carried over;
  writes      after each event, in turn: touch postgresql.conf, ALTER SYSTEM of an unrelated setting,
              ALTER SYSTEM of the same identity values (failover), ALTER SYSTEM of only the sno
              partition, and last the documented remedy, new values of the identity settings;
and copies (cp -a) of servers on which each subset of the generators ran before the copy: none, each
one alone, all; and copies (cp -a) of servers whose explicit identity values live in one place each (PLACES:
the configuration file, a database's, a role's, a role's in one database, two databases with different
values), the copy first checked by a session whose values are derived.

In each phase every server of the event runs SESSIONS sessions of every generator at once; every other uid8
session is held to one generator id, so its values run ahead of the clock (its cell's line says how far). A cell is
(event, phase, generator); it passes when each server did what the docs promise there (values, or the
refusal with its SQLSTATE in every session) and no value of the event, including what the old primary
or the upgraded cluster issued before, appears twice. One line per cell (the values each server made,
the duplicates, the refusals by SQLSTATE, what the docs promise, PASS or FAIL), then
"event matrix: N passed, N failed[, N skipped]" (skipped: no libfaketime for the failovers). A control
(one sno partition set on a source and its copy after the copy was seen, the registry of values held by
running servers made unusable) must repeat values.
Default: everything, 4 sessions x 8,000 values; --short: a failover 4 s behind, no pg_upgrade --link, three
events, three subsets and two places (the configuration file, two databases), 4 x 4,000; --long: 8 x 25,000; --quick: the quick cell, one event row (cp -a of a
stopped server, every generator, every phase of that row) and its control, 2 x 2,000 (no other event, no
failover, no subsets, no pg_upgrade; it says so in its first line).

    python tests/event_matrix.py WORK_DIR --pg-config PATH [--port-base N] [--short | --long | --quick]
"""

import argparse
import collections
import os
import pwd
import shutil
import subprocess
import sys
import threading
import time

import psycopg

FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
GENERATORS = {
    "sno": "sno_new()",
    "muid": "muid_new()",
    "uid8_time_sequential": "uid8_new('time_sequential')",
    "uid8_spread": "uid8_new('spread')",
    "comb": "comb_uuid()",
    "adopted_uid8": "adopted_insert()",
}
IDENTITY_OF = {"sno": "sno", "muid": "muid", "uid8_time_sequential": "uid8", "uid8_spread": "uid8", "comb": None,
               "adopted_uid8": "uid8"}
# A table brought over by comb_ext_adopt (docs/adopting.md) is a generator like the others: a bigserial key with
# 1,000 old rows, adopted to 'uid8', whose new rows take uid8_new('time_sequential') from the adopted default.
# Its values come from a function that inserts one row and returns its key, so every cell calls it as it calls
# the others; a key made twice on one server fails its insert (23505), across servers it is a duplicate.
INSTALL = [
    "CREATE EXTENSION comb_ext",
    "CREATE TABLE adopted (id bigserial PRIMARY KEY, n int)",
    "INSERT INTO adopted (n) SELECT 0 FROM generate_series(1, 1000)",
    "SELECT comb_ext_adopt('adopted', 'id', 'uid8')",
    "CREATE FUNCTION adopted_insert() RETURNS bigint LANGUAGE sql VOLATILE "
    "AS 'INSERT INTO adopted (n) VALUES (1) RETURNING id'",
]
REFUSED = "55000"  # docs/guarantees.md: a copy, upgrade or promotion refuses until the setting is set apart
SETTING = {"sno": "comb_ext.sno_partition", "muid": "comb_ext.medallion", "uid8": "comb_ext.uid8_cluster_id"}

counts = collections.Counter()


# initdb and postgres refuse root.
AS_POSTGRES = ["sudo", "-u", "postgres", "-H", "--"] if os.geteuid() == 0 else []


def as_postgres(*command, **kwargs):
    done = subprocess.run(AS_POSTGRES + [str(c) for c in command], capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-3000:] + done.stderr[-3000:])
        done.check_returncode()
    return done


def chown_postgres(path):
    if os.geteuid() == 0:
        subprocess.run(["chown", "-R", "postgres:postgres", str(path)], check=True)


class Server:
    """A cluster run as the postgres OS user, its socket in its own directory."""

    def __init__(self, matrix, name):
        self.matrix, self.name = matrix, name
        self.dir = os.path.join(matrix.work, name)
        self.port = matrix.ports.pop(0)
        self.faketime_file = None
        self.clock_behind = 0

    def initdb(self, *lines):
        shutil.rmtree(self.dir, ignore_errors=True)
        as_postgres(self.matrix.bin("initdb"), "-D", self.dir, "--auth=trust", "--username=postgres",
                    "--encoding=UTF8", "--locale=C.UTF-8")
        self.own_port(*lines)

    def own_port(self, *lines):
        """A copy's configuration is its source's: later lines give it a port and socket of its own."""
        with open(os.path.join(self.dir, "postgresql.conf"), "a") as conf:
            for line in [f"port = {self.port}", "listen_addresses = ''", f"unix_socket_directories = '{self.dir}'",
                         "unix_socket_permissions = 0770", "max_connections = 100", *lines]:
                conf.write(line + "\n")

    def start(self, clock_offset=None):
        if clock_offset is None:
            as_postgres(self.matrix.bin("pg_ctl"), "-D", self.dir, "-l", os.path.join(self.dir, "server.log"),
                        "-w", "-t", "60", "start")
            return
        # As cluster_start_faketime in scripts/lib/common.sh: the postmaster itself, not pg_ctl.
        self.clock_behind = -clock_offset
        self.faketime_file = os.path.join(self.matrix.work, f"{self.name}.faketime")
        with open(self.faketime_file, "w") as f:
            f.write(f"{clock_offset:+d}\n")
        os.chmod(self.faketime_file, 0o644)
        log = open(os.path.join(self.dir, "server.log"), "a")
        faketime = [f"LD_PRELOAD={FAKETIME}", f"FAKETIME_TIMESTAMP_FILE={self.faketime_file}",
                    "FAKETIME_CACHE_DURATION=1", "FAKETIME_DONT_FAKE_MONOTONIC=1"]
        subprocess.Popen(AS_POSTGRES + ["env", *faketime, self.matrix.bin("postgres"), "-D", self.dir],
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
        for _ in range(300):
            try:
                self.connect().close()
                return
            except psycopg.OperationalError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not start under faketime")

    def done(self):
        """Stopped for good: its port goes back to the pool."""
        self.stop()
        if self.port not in self.matrix.ports:
            self.matrix.ports.append(self.port)

    def stop(self, mode="fast"):
        if os.path.exists(os.path.join(self.dir, "postmaster.pid")):
            subprocess.run(AS_POSTGRES + [self.matrix.bin("pg_ctl"), "-D", self.dir, "-m", mode, "-w", "stop"],
                           capture_output=True)

    def connect(self, **kwargs):
        return psycopg.connect(host=self.dir, port=self.port, user="postgres", dbname="postgres", autocommit=True,
                               **kwargs)

    def run(self, *statements):
        with self.connect() as conn:
            for statement in statements:
                conn.execute(statement)

    def set_settings(self, settings):
        """ALTER SYSTEM and reload (LOAD first: before 17, ALTER SYSTEM knows a module's settings only once loaded)."""
        self.run("LOAD 'comb_ext'", *[f"ALTER SYSTEM SET {k} = '{v}'" for k, v in settings.items()],
                 "SELECT pg_reload_conf()")

    def wait_out_of_recovery(self):
        for _ in range(600):
            with self.connect() as conn:
                if not conn.execute("SELECT pg_is_in_recovery()").fetchone()[0]:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} still in recovery")


class Scope:
    """Sessions of one server in one database as one role: where per-database and per-role settings apply."""

    def __init__(self, server, dbname, user="postgres"):
        self.server, self.dbname, self.user = server, dbname, user
        self.name = f"{server.name}[{dbname}{'' if user == 'postgres' else ' as ' + user}]"

    def connect(self):
        return psycopg.connect(host=self.server.dir, port=self.server.port, user=self.user, dbname=self.dbname,
                               autocommit=True)


# Where an explicit identity value lives (docs/guarantees.md: every value a setting has is recorded when a
# copy is seen, whichever session sees it first). Each row: the statements that set values there (VALUES is
# replaced by each setting's), the scopes whose sessions have them, and the scope that sees the copy first,
# whose values are derived (the configuration file's row gives it a database that sets its own back to derived).
DERIVED = {"sno": -1, "muid": "", "uid8": -1}
PLACES = [
    ("the configuration file (ALTER SYSTEM)", ["ALTER SYSTEM SET {setting} = '{value}'"], ["a"],
     ["ALTER DATABASE plain SET {setting} = '{derived}'"]),
    ("a database's own values (ALTER DATABASE)", ["ALTER DATABASE a SET {setting} = '{value}'"], ["a"], []),
    ("a role's own values (ALTER ROLE)", ["ALTER ROLE r SET {setting} = '{value}'"], ["plain as r"], []),
    ("a role's own values in one database (ALTER ROLE ... IN DATABASE)",
     ["ALTER ROLE r IN DATABASE a SET {setting} = '{value}'"], ["a as r"], []),
    ("two databases with different values (ALTER DATABASE)",
     ["ALTER DATABASE a SET {setting} = '{value}'", "ALTER DATABASE b SET {setting} = '{other}'"], ["a", "b"], []),
]


def copy_tree(source, destination):
    """A file-level copy of a data directory, running or not: files that vanish meanwhile are skipped, as
    backup tools do; the server's lock file and sockets are not copied."""
    def ignore(_directory, names):
        return [n for n in names if n in ("postmaster.pid", "postmaster.opts") or n.startswith(".s.PGSQL.")]

    def copy(src, dst):
        try:
            shutil.copy2(src, dst)
        except FileNotFoundError:
            pass

    shutil.rmtree(destination, ignore_errors=True)
    shutil.copytree(source, destination, ignore=ignore, copy_function=copy, symlinks=True)
    chown_postgres(destination)


def copy_values(cursor, expression, count):
    """`count` values of `expression`, as text, in one COPY."""
    with cursor.copy(f"COPY (SELECT ({expression})::text FROM generate_series(1, {count})) TO STDOUT") as copy:
        return b"".join(bytes(chunk) for chunk in copy).decode().split("\n")[:-1]


# Every other uid8 session is held to one generator id (64 values a millisecond), so its COPY fills its
# milliseconds and runs ahead of the clock whatever the build's speed: the events then meet values issued ahead
# (docs/uid8.md, "Running ahead of the clock"). A session of a role that may not set it (a superuser-only
# setting) is left at the default. How far ahead each cell's last values were: AHEAD_MS, in the cell's line.
ONE_ID = ("SELECT pg_catalog.set_config('comb_ext.uid8_generators_per_session', '1', false) "
          "WHERE (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)")
AHEAD_MS = {}


def generate(server, expression, sessions, per_session, results, key, barrier=None):
    """`sessions` sessions at once, each one COPY of `per_session` values; values and SQLSTATEs into results[key].
    With a barrier, each session connects first and waits there (a refused connection too), so that every party
    starts its COPY together."""
    def one(index):
        values, error, conn = [], None, None
        one_id = expression.startswith("uid8_new") and index % 2 == 1
        try:
            conn = server.connect()
        except psycopg.Error as e:
            error = e.sqlstate or type(e).__name__
        try:
            if barrier is not None:
                barrier.wait(timeout=120)
            if conn is not None:
                with conn.cursor() as cur:
                    if one_id:
                        cur.execute(ONE_ID)
                    values = copy_values(cur, expression, per_session)
                    if one_id and values:
                        # The last value is the session's latest millisecond.
                        ahead = cur.execute("SELECT round(extract(epoch FROM uid8_timestamp(%s::bigint) - "
                                            "clock_timestamp()) * 1000)::int", (values[-1],)).fetchone()[0]
                        with RESULTS_LOCK:
                            AHEAD_MS[key] = max(AHEAD_MS.get(key, ahead), ahead)
        except psycopg.Error as e:
            error = e.sqlstate or type(e).__name__
        except threading.BrokenBarrierError as e:
            error = type(e).__name__
        finally:
            if conn is not None:
                conn.close()
        with RESULTS_LOCK:
            results[key][0].extend(values)
            if error:
                results[key][1][error] += 1
    return [threading.Thread(target=one, args=(i,)) for i in range(sessions)]


RESULTS_LOCK = threading.Lock()

# The control's calls on each server (Matrix.both_repeat_each_other): at a few hundred microseconds a pair, some hundred
# 4 ms units shared by the two servers.
CONTROL_CALLS = 2000


class Matrix:
    def __init__(self, args):
        self.args = args
        self.work = os.path.abspath(args.work)
        self.bindir = subprocess.run([args.pg_config, "--bindir"], check=True, capture_output=True,
                                     text=True).stdout.strip()
        self.ports = list(range(args.port_base, args.port_base + args.ports))
        self.servers = []
        self.sessions, self.per_session = {"quick": (2, 2000), "short": (4, 4000), "full": (4, 8000),
                                           "long": (8, 25000)}[args.size]
        os.makedirs(self.work, exist_ok=True)
        chown_postgres(self.work)

    def bin(self, name):
        return os.path.join(self.bindir, name)

    def server(self, name):
        s = Server(self, name)
        self.servers.append(s)
        return s

    def stop_all(self):
        for s in self.servers:
            s.stop("immediate")

    # -- one phase: every generator on every server at once --------------------------------------
    def phase(self, event, phase, roles, seen, expect):
        """roles: [(server, role)]; seen: per generator, every value of the event so far (the old
        primary's included); expect(role, generator) -> None (values) or the SQLSTATE every session gets."""
        results = {(s.name, g): ([], collections.Counter()) for s, _ in roles for g in GENERATORS}
        threads = []
        for s, _ in roles:
            for g, expression in GENERATORS.items():
                threads += generate(s, expression, self.sessions, self.per_session, results, (s.name, g))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for g in GENERATORS:
            made, refusals, ok, duplicates = [], [], True, 0
            for s, role in roles:
                values, errors = results[(s.name, g)]
                made.append(f"{s.name}={len(values)}")
                if errors:
                    refusals.append(f"{s.name}:" + ",".join(f"{k}x{n}" for k, n in sorted(errors.items())))
                wanted = expect(role, g)
                if wanted is None:
                    ok &= len(values) == self.sessions * self.per_session and not errors
                else:
                    ok &= not values and errors == collections.Counter({wanted: self.sessions})
                for v in values:
                    if v in seen[g]:
                        duplicates += 1
                    else:
                        seen[g].add(v)
            ok &= duplicates == 0
            wants = ",".join(sorted({f"{role}:{expect(role, g) or 'values'}" for _, role in roles}))
            ahead = [f"{s.name}={AHEAD_MS.pop((s.name, g))}" for s, _ in roles if (s.name, g) in AHEAD_MS]
            self.report(f"{event} | {phase} | {g}", f"made {' '.join(made)}; duplicates {duplicates}; "
                        f"refused {' '.join(refusals) or 'none'}; expected {wants}"
                        + (f"; one-id sessions ahead ms {' '.join(ahead)}" if ahead else ""), ok)

    def report(self, cell, figures, ok):
        counts["passed" if ok else "failed"] += 1
        print(f"{cell}: {figures}: {'PASS' if ok else 'FAIL'}", flush=True)

    def skip(self, cell, why):
        counts["skipped"] += 1
        print(f"{cell}: SKIPPED ({why})", flush=True)

    # -- the writes after an event -----------------------------------------------------------------
    def phases(self, event, roles, seen, explicit, old_burst=None):
        """Every phase after an event, as steps (a generator: failovers interleave their first
        phases). `explicit`: the copies carry explicit identities (sno partition, medallion, uid8
        cluster id) set on their source; otherwise they run with the derived ones."""
        copies = [s for s, role in roles if role != "source"]
        changed = set()  # identity settings set to a new value on the copies since the event

        def expect(role, g):
            family = IDENTITY_OF[g]
            if role == "source" or family is None or family in changed:
                return None
            # uid8's cluster id (16 values, none drawn) always; sno and muid only when explicit.
            return REFUSED if family == "uid8" or explicit else None

        if old_burst:
            burst_end, burst = old_burst  # when the old primary issued, by the real clock
            # From where the new primary's clock enters the burst, so that the phases after fall in it too.
            time.sleep(max(0.0, burst_end + roles[0][0].clock_behind - burst + 0.5 - time.time()))
            with roles[0][0].connect() as conn:
                clock = conn.execute("SELECT extract(epoch FROM clock_timestamp())::float8").fetchone()[0]
            print(f"{event}: the new primary's clock reads {burst_end - clock:.1f} s before the end of the old "
                  f"primary's {burst:.0f} s burst", flush=True)
        self.phase(event, "as found", roles, seen, expect)
        yield
        writes = [("touch postgresql.conf", None), ("ALTER SYSTEM SET work_mem", {"work_mem": "5MB"})]
        if explicit:
            writes.append(("ALTER SYSTEM of the same identity values", "same"))
        writes.append(("ALTER SYSTEM of only comb_ext.sno_partition", "sno"))
        writes.append(("new values of the identity settings", "all"))
        for label, write in writes:
            for n, copy in enumerate(copies, 1):
                if write is None:
                    os.utime(os.path.join(copy.dir, "postgresql.conf"))
                    copy.run("SELECT pg_reload_conf()")
                elif write == "same":
                    copy.set_settings(explicit)
                elif write == "sno":
                    copy.set_settings({SETTING["sno"]: 4200 + n})
                elif write == "all":
                    copy.set_settings({SETTING["sno"]: 4200 + n, SETTING["muid"]: f"0x{0x20000000000 + n:x}",
                                       SETTING["uid8"]: 10 + n})
                else:
                    copy.set_settings(write)
            if write == "sno":
                changed.add("sno")
            elif write == "all":
                changed.update(("sno", "muid", "uid8"))
            time.sleep(1)
            self.phase(event, f"after {label}", roles, seen, expect)
            yield
        # The refusal belongs to the copied value, not to the server: a session that made values with
        # the new one, then sets the copied one back (an explicit 0 is the derived uid8 cluster id
        # outside Citus), is refused.
        def sqlstate_of(conn, statement):
            try:
                conn.execute(statement)
                return "value"
            except psycopg.Error as e:
                return e.sqlstate

        for setting, value in (explicit or {SETTING["uid8"]: 0}).items():
            family = next(f for f, s in SETTING.items() if s == setting)
            for g in [g for g in GENERATORS if IDENTITY_OF[g] == family]:
                outcomes = []
                for copy in copies:
                    with copy.connect() as conn:
                        before = sqlstate_of(conn, f"SELECT {GENERATORS[g]}")
                        conn.execute(f"SET {setting} = '{value}'")
                        outcomes.append((copy.name, before, sqlstate_of(conn, f"SELECT {GENERATORS[g]}")))
                self.report(f"{event} | after new values, a session's SET {setting} = {value} (the copied value) | {g}",
                            " ".join(f"{n}: {b}, then {a}" for n, b, a in outcomes)
                            + f"; expected value, then {REFUSED}",
                            all(b == "value" and a == REFUSED for _, b, a in outcomes))

    # -- the events ----------------------------------------------------------------------------------
    def fresh_source(self, name, ran=tuple(GENERATORS), settings=None):
        s = self.server(name)
        s.initdb()
        s.start()
        s.run(*INSTALL)
        if not self.servers[:-1]:
            with s.connect() as conn:
                version = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'comb_ext'").fetchone()[0]
                print(f"comb_ext {version} on {conn.execute('SHOW server_version').fetchone()[0]}, "
                      f"{self.sessions} sessions x {self.per_session} values per server and generator", flush=True)
        if settings:
            s.set_settings(settings)
        if ran:
            s.run(f"SELECT {', '.join(GENERATORS[g] for g in ran)}")
        return s

    def cp_stopped(self, source):
        source.stop()
        copy = self.server("cp_copy")
        copy_tree(source.dir, copy.dir)
        copy.own_port()
        source.start()
        copy.start()
        return [copy]

    def running_copy(self, source):
        """A file copy of the running source between backup start and stop, written as the docs of
        continuous archiving say: the label from the stop function, and the WAL up to the stop."""
        copy = self.server("running_copy")
        with source.connect() as conn:
            new_names = int(conn.execute("SHOW server_version_num").fetchone()[0]) >= 150000
            if new_names:
                conn.execute("SELECT pg_backup_start('event matrix', true)")
            else:
                conn.execute("SELECT pg_start_backup('event matrix', true, false)")
            copy_tree(source.dir, copy.dir)
            stop = "pg_backup_stop(false)" if new_names else "pg_stop_backup(false)"
            _lsn, label, tablespaces = conn.execute(f"SELECT * FROM {stop}").fetchone()
        copy_tree(os.path.join(source.dir, "pg_wal"), os.path.join(copy.dir, "pg_wal"))
        with open(os.path.join(copy.dir, "backup_label"), "w") as f:
            f.write(label)
        if tablespaces:
            with open(os.path.join(copy.dir, "tablespace_map"), "w") as f:
                f.write(tablespaces)
        chown_postgres(copy.dir)
        copy.own_port()
        copy.start()
        return [copy]

    def basebackup(self, source, directory, *options):
        shutil.rmtree(directory, ignore_errors=True)
        as_postgres(self.bin("pg_basebackup"), "-h", source.dir, "-p", source.port, "-U", "postgres", "-D", directory,
                    "-X", "stream", "-c", "fast", *options)

    def restored_twice(self, source):
        backup = os.path.join(self.work, "backup")
        self.basebackup(source, backup)
        copies = []
        for n in (1, 2):
            copy = self.server(f"restored_{n}")
            copy_tree(backup, copy.dir)
            copy.own_port()
            copy.start()
            copies.append(copy)
        return copies

    def promoted_clones(self, source):
        copies = []
        for n in (1, 2):
            copy = self.server(f"promoted_{n}")
            self.basebackup(source, copy.dir, "-R")
            copy.own_port()
            copy.start()
            copies.append(copy)
        for copy in copies:
            copy.run("SELECT pg_promote()")
            copy.wait_out_of_recovery()
        return copies

    def pg_upgrade(self, old, new, mode):
        """pg_upgrade OLD into NEW (a fresh initdb, its settings carried over as postgresql.auto.conf is)."""
        old.stop()
        new.initdb()
        shutil.copy(os.path.join(old.dir, "postgresql.auto.conf"), os.path.join(new.dir, "postgresql.auto.conf"))
        chown_postgres(new.dir)
        # --copy is the default, and an option only from 16.
        options = [] if mode == "copy" and "--copy" not in as_postgres(self.bin("pg_upgrade"), "--help").stdout \
            else [f"--{mode}"]
        as_postgres(self.bin("pg_upgrade"), "-b", self.bindir, "-B", self.bindir, "-d", old.dir, "-D", new.dir,
                    "-p", old.port, "-P", new.port, "-s", self.work, "-U", "postgres", *options, cwd=new.dir)

    # -- the matrix ------------------------------------------------------------------------------------
    def copy_events(self, source):
        events = [("cp -a of a stopped server", self.cp_stopped),
                  ("file copy of a running server during a backup", self.running_copy),
                  ("one backup restored twice", self.restored_twice),
                  ("two promoted clones", self.promoted_clones)]
        if self.args.size == "short":
            events = [events[0], events[1], events[3]]
        elif self.args.size == "quick":
            events = [events[0]]
        for event, make in events:
            copies = make(source)
            roles = [(source, "source")] + [(c, "copy") for c in copies]
            run_all(self.phases(event, roles, collections.defaultdict(set), explicit=None))
            for c in copies:
                c.done()
            if make == self.cp_stopped:
                self.control(source)

    def control(self, source):
        """One sno partition set on a source and a cp -a copy of it after the copy was seen, with the
        registry of values held by running servers (src/server/live_copies.rs) made unusable: its
        directory opened to others, where the defence does not apply. Values repeat, so the matrix
        sees repeats.

        The copy is the control's own. A server that resumes with the clock behind its sno mark takes
        that for a step back and toggles its tick-tock bit (src/rules/sno.rs), so two servers whose
        first values after their start fell on either side of the mark write different ticks and never
        repeat each other, which is what failed the control in the gates on a34f6d1 and 3581948. The
        source stops until the clock has passed its mark, so neither toggles."""
        with source.connect() as conn:
            mark = conn.execute("SELECT extract(epoch FROM mark)::float8 FROM comb_ext_marks() WHERE family = 'sno'").fetchone()
        source.stop()
        if mark is not None and mark[0] is not None:
            time.sleep(max(0.0, mark[0] - time.time()) + 0.2)
        copy = self.server("control_copy")
        copy_tree(source.dir, copy.dir)
        copy.own_port()
        source.start()
        copy.start()
        # The copy seen first (a value, or a refusal that records it), as in the rows above: a partition
        # set only afterwards lifts the refusal of a copy.
        try:
            copy.run("SELECT sno_new()")
        except psycopg.Error:
            pass
        try:
            self.control_on(source, copy)
        finally:
            copy.done()

    def control_on(self, source, copy):
        registry = f"/dev/shm/comb_ext-{pwd.getpwnam('postgres').pw_uid}"
        for s in (source, copy):
            s.set_settings({SETTING["sno"]: 77})
        time.sleep(1)
        # First as it is: the server that takes the value first holds it, the other is refused.
        self.one_holds_the_partition(source, copy)
        os.chmod(registry, 0o755)
        try:
            self.both_repeat_each_other(source, copy)
        finally:
            os.chmod(registry, 0o700)
        source.run("ALTER SYSTEM RESET comb_ext.sno_partition", "SELECT pg_reload_conf()")
        time.sleep(1)

    def one_holds_the_partition(self, source, copy):
        """The registry usable: the server that takes the partition first holds it, the other is refused."""
        results = {s.name: ([], collections.Counter()) for s in (source, copy)}
        barrier = threading.Barrier(2 * self.sessions)
        threads = [t for s in (source, copy) for t in generate(s, GENERATORS["sno"], self.sessions, self.per_session,
                                                                 results, s.name, barrier)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        values = [v for made, _ in results.values() for v in made]
        duplicates = len(values) - len(set(values))
        made = f"made {' '.join(f'{k}={len(v[0])}' for k, v in results.items())}; duplicates {duplicates}"
        made += "".join(f"; {k} failed {dict(errors)}" for k, (_, errors) in results.items() if errors)
        # Exactly one made every value it was asked for; every session of the other was refused.
        full = [name for name, (v, errors) in results.items() if len(v) == self.sessions * self.per_session and not errors]
        refused = [name for name, (v, errors) in results.items() if not v and errors == {"55000": self.sessions}]
        self.report("cp -a, one explicit sno partition set on both after the copy | sno",
                    f"{made}; refused {' '.join(refused) or 'none'}; expected one server's values and the other "
                    f"refused (55000: held by a running server)", duplicates == 0 and len(full) == 1 and len(refused) == 1)

    def both_repeat_each_other(self, source, copy):
        """The registry unusable: both make values, and they repeat each other's."""
        # Values repeat only where both servers issue in the same 4 ms unit on the same tick (control() puts
        # both on one tick). One session on each server, calls alternating between them, one value a call:
        # each unit restarts the server's sequence at the same lower bound, so every unit both servers' calls
        # share repeats a value, whatever the machine's load.
        made = {s.name: [] for s in (source, copy)}
        with source.connect() as a, copy.connect() as b:
            for _ in range(CONTROL_CALLS):
                for server, conn in ((source, a), (copy, b)):
                    made[server.name].append(conn.execute(f"SELECT ({GENERATORS['sno']})::text").fetchone()[0])
            ticks = {server.name: conn.execute("SELECT array_agg(DISTINCT sno_tick(v::sno)) FROM unnest(%s::text[]) v",
                                               (made[server.name],)).fetchone()[0] for server, conn in ((source, a), (copy, b))}
        values = [v for vs in made.values() for v in vs]
        duplicates = len(values) - len(set(values))
        self.report("control: cp -a, one explicit sno partition set on both after the copy, the registry unusable | sno",
                    f"made {' '.join(f'{k}={len(v)}' for k, v in made.items())} (calls alternating between the two), "
                    f"ticks {' '.join(f'{k}={v}' for k, v in ticks.items())}; duplicates {duplicates}; "
                    f"expected duplicates (the matrix must see repeats)", duplicates > 0)

    def places(self):
        """cp -a of a server whose explicit identity values live in one place (PLACES), the copy first seen by
        a session whose values are derived; then the values set apart where they live."""
        # The source's values at offsets 0 and 1, the copy's new ones at 10 and 11 (uid8: 6, 7, then 12, 13).
        values = lambda n: {"sno": 300 + n, "muid": f"0x{0x10000000300 + n:x}",  # noqa: E731
                            "uid8": 6 + n if n < 10 else 2 + n}
        rows = PLACES if self.args.size == "full" else [PLACES[0], PLACES[-1]]
        for row, (place, statements, explicit_scopes, plain_statements) in enumerate(rows):
            source = self.fresh_source("place_source", ran=())
            source.run("CREATE ROLE r LOGIN SUPERUSER", "CREATE DATABASE plain", "CREATE DATABASE a",
                       "CREATE DATABASE b", "LOAD 'comb_ext'")

            def set_values(server, offset):
                with server.connect() as conn:
                    conn.execute("LOAD 'comb_ext'")
                    for family, setting in SETTING.items():
                        for statement in statements:
                            conn.execute(statement.format(setting=setting, value=values(offset)[family],
                                                          other=values(offset + 1)[family]))
                        for statement in plain_statements:
                            conn.execute(statement.format(setting=setting, derived=DERIVED[family]))
                    conn.execute("SELECT pg_reload_conf()")

            set_values(source, 0)
            for dbname in ("plain", "a", "b"):
                with Scope(source, dbname).connect() as conn:
                    for statement in INSTALL:
                        conn.execute(statement)
            scopes = lambda server: [Scope(server, "plain")] + [  # noqa: E731
                Scope(server, *s.split(" as ")) for s in explicit_scopes]
            # Values made where each value lives before the copy, so the source has marks past them.
            for scope in scopes(source):
                with scope.connect() as conn:
                    conn.execute(f"SELECT {', '.join(GENERATORS.values())}")
            copy = self.cp_stopped(source)[0]
            # The first check on the copy comes from a session whose values are all derived.
            with Scope(copy, "plain").connect() as conn:
                first = dict(conn.execute("SELECT setting, refused FROM comb_ext_identity()").fetchall())
            print(f"{place}: the copy first checked from {Scope(copy, 'plain').name}: refused "
                  f"{', '.join(k for k, v in first.items() if v) or 'nothing'}", flush=True)
            roles = [(scope, "source") for scope in scopes(source)] + [(scopes(copy)[0], "plain")] + [
                (scope, "explicit") for scope in scopes(copy)[1:]]
            changed = set()

            def expect(role, g):
                family = IDENTITY_OF[g]
                if role == "source" or family is None or (role == "explicit" and family in changed):
                    return None
                # The derived uid8 cluster id (0) is the source's too; derived sno and muid differ by themselves.
                return REFUSED if family == "uid8" or role == "explicit" else None

            seen = collections.defaultdict(set)
            event = f"cp -a, explicit values in {place}"
            self.phase(event, "as found", roles, seen, expect)
            set_values(copy, 10)
            changed.update(("sno", "muid", "uid8"))
            time.sleep(1)
            self.phase(event, "after new values where they live", roles, seen, expect)
            copy.done()
            source.done()
            shutil.rmtree(source.dir, ignore_errors=True)

    def subsets(self):
        subsets = [()] + [(g,) for g in GENERATORS] + [tuple(GENERATORS)]
        if self.args.size == "short":
            subsets = [(), ("sno",), tuple(GENERATORS)]
        for ran in subsets:
            label = "none" if not ran else "all" if len(ran) == len(GENERATORS) else "+".join(ran)
            source = self.fresh_source("subset", ran)
            copy = self.cp_stopped(source)[0]
            roles = [(source, "source"), (copy, "copy")]

            def expect(role, g):
                return REFUSED if role == "copy" and IDENTITY_OF[g] == "uid8" else None
            self.phase(f"cp -a of a server where {label} ran", "as found", roles, collections.defaultdict(set), expect)
            copy.done()
            source.done()

    def failovers(self, skews):
        """The old primary F runs every generator with explicit identities for BURST seconds, then
        crashes; each standby (its clock SKEW s behind) is promoted. Each standby is its own cell,
        compared with F's values. Returns the cells to run later (those whose clock is far behind
        wait until their clock reaches F's burst)."""
        if not os.path.exists(FAKETIME):
            for skew in skews:
                self.skip(f"failover, new primary's clock {skew} s behind", f"no libfaketime at {FAKETIME}")
            return []
        explicit = {SETTING["sno"]: 101, SETTING["muid"]: "0x10000000101", SETTING["uid8"]: 3}
        old = self.fresh_source("failover_old", settings=explicit)
        standbys = []
        for skew in skews:
            s = self.server(f"failover_new_{skew}s")
            self.basebackup(old, s.dir, "-R")
            s.own_port()
            s.start(clock_offset=-skew)
            standbys.append((skew, s))
        burst = 6.0
        seen = collections.defaultdict(set)
        stop = threading.Event()
        lock = threading.Lock()

        def keep_generating(expression, g):
            try:
                with old.connect() as conn:
                    while not stop.is_set():
                        values = copy_values(conn.cursor(), expression, 200)
                        with lock:
                            seen[g].update(values)
                        time.sleep(0.01)  # a steady load, not the most the old primary can make
            except psycopg.Error:
                pass
        threads = [threading.Thread(target=keep_generating, args=(e, g)) for g, e in GENERATORS.items()]
        for t in threads:
            t.start()
        time.sleep(burst)
        stop.set()
        for t in threads:
            t.join()
        burst_end = time.time()
        old.stop("immediate")
        old.done()
        print(f"failover: the old primary issued {', '.join(f'{g} {len(v)}' for g, v in seen.items())} "
              f"in {burst:.0f} s, then stopped (immediate)", flush=True)
        for _, s in standbys:
            s.run("SELECT pg_promote()")
            s.wait_out_of_recovery()
        cells = []
        for skew, s in standbys:
            # The new primary's first values should fall where its clock meets the old primary's burst.
            cells.append((f"failover, new primary's clock {skew} s behind", [(s, "new primary")],
                          collections.defaultdict(set, {g: set(v) for g, v in seen.items()}), explicit,
                          (burst_end, burst)))
        return cells

    def upgrades(self, source):
        """pg_upgrade --copy beside its running source; then --link, with explicit identities, whose
        old cluster cannot start again: compared with what it issued before."""
        new = self.server("upgraded_copy")
        self.pg_upgrade(source, new, "copy")
        source.start()
        new.start()
        run_all(self.phases("pg_upgrade --copy", [(source, "source"), (new, "copy")], collections.defaultdict(set),
                            explicit=None))
        new.done()
        if self.args.size == "short":
            return
        explicit = {SETTING["sno"]: 201, SETTING["muid"]: "0x10000000201", SETTING["uid8"]: 5}
        source.set_settings(explicit)
        time.sleep(1)
        seen = collections.defaultdict(set)
        results = {g: ([], collections.Counter()) for g in GENERATORS}
        threads = [t for g, e in GENERATORS.items()
                   for t in generate(source, e, self.sessions, self.per_session, results, g)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for g, (values, _) in results.items():
            seen[g].update(values)
        linked = self.server("upgraded_link")
        self.pg_upgrade(source, linked, "link")
        log = os.path.join(source.dir, "server.log")
        start = [self.bin("pg_ctl"), "-D", source.dir, "-l", log, "-w", "-t", "10", "start"]
        refused = subprocess.run(AS_POSTGRES + start, capture_output=True).returncode != 0
        print(f"pg_upgrade --link: the old cluster issued {', '.join(f'{g} {len(v)}' for g, v in seen.items())} "
              f"before; it {'cannot' if refused else 'CAN'} start again", flush=True)
        linked.start()
        run_all(self.phases("pg_upgrade --link", [(linked, "upgraded")], seen, explicit=explicit))
        linked.done()


def run_all(steps):
    for _ in steps:
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("work")
    parser.add_argument("--pg-config", required=True)
    parser.add_argument("--port-base", type=int, default=54400)
    parser.add_argument("--ports", type=int, default=30, help="how many ports from --port-base it may use")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--short", dest="size", action="store_const", const="short")
    size.add_argument("--long", dest="size", action="store_const", const="long")
    size.add_argument("--quick", dest="size", action="store_const", const="quick",
                      help="the quick cell: cp -a of a stopped server and its control only")
    parser.set_defaults(size="full")
    args = parser.parse_args()
    matrix = Matrix(args)
    started = time.time()
    try:
        if args.size == "quick":
            print("event matrix --quick: THE QUICK CELL ONLY, not the matrix: cp -a of a stopped server, every "
                  "generator and phase of that row, and the control; no other event, failover, subset or pg_upgrade",
                  flush=True)
            source = matrix.fresh_source("source")
            matrix.copy_events(source)
        else:
            skews = [4] if args.size == "short" else [1, 4, 60]
            failovers = matrix.failovers(skews)
            # Each new primary's first phase runs when its clock meets the old primary's burst, the
            # nearest first (the 60 s one waits for it).
            steps = [(cell, matrix.phases(*cell)) for cell in failovers]
            for cell, cell_steps in steps:
                if cell[1][0][0].clock_behind < 30:
                    next(cell_steps)
            for cell, cell_steps in steps:
                run_all(cell_steps)
                cell[1][0][0].done()
            source = matrix.fresh_source("source")
            matrix.copy_events(source)
            matrix.subsets()
            matrix.places()
            matrix.upgrades(source)
    finally:
        matrix.stop_all()
    summary = f"event matrix: {counts['passed']} passed, {counts['failed']} failed"
    if counts["skipped"]:
        summary += f", {counts['skipped']} skipped"
    print(f"({time.time() - started:.0f} s)")
    print(summary)
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
