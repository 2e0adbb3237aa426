"""Active-active logical replication (docs/guarantees.md, "Several servers"): two primaries, each subscribed
to the other's publication with origin = none (PostgreSQL 16 and later), writers on both at once, every
generator as a table's primary key default.

Configured as the docs say for several servers: each its own comb_ext.uid8_cluster_id (1 and 2); the sno
partition and the medallion derived (they differ by each server's own system identifier and start draw).
Passes when, after the writers stop and both have applied each other's rows:
  - no id was made on both servers (the rows each made, compared);
  - both hold every row of both, and the subscriptions report no apply error (and, from 18, no conflict);
  - no "duplicate key" in either server's log.
The control: one more table, published apart, with the same uid8 cluster id (3) and generator id (5, pinned) set
on both servers, one writer on each, starting once the clock has passed every uid8 made above, its subscriptions
enabled once they stop; it must see ids made on both and the apply fail on them, or the harness could not see a
conflict. (Both pinned: a cluster id alone repeats ids only where the two servers' sessions claim the same
generator ids, which their process ids decide.)
On a major before 16 it prints one line saying it skipped, and why.

    python tests/active_active.py WORK_DIR --pg-config PATH [--port-base N] [--seconds S]   (ports N, N + 1)
"""

import argparse
import os
import shutil
import subprocess
import sys
import threading
import time

import psycopg

AS_POSTGRES = ["sudo", "-u", "postgres", "-H", "--"] if os.geteuid() == 0 else []
TABLES = {
    "t_sno": ("sno", "sno_new()"),
    "t_muid": ("uuid", "muid_new()"),
    "t_uid8_time_sequential": ("bigint", "uid8_new('time_sequential')"),
    "t_uid8_spread": ("bigint", "uid8_new('spread')"),
    "t_comb": ("uuid", "comb_uuid()"),
}
CONTROL = "t_uid8_control"


def as_postgres(*command):
    done = subprocess.run(AS_POSTGRES + [str(c) for c in command], capture_output=True, text=True)
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-3000:] + done.stderr[-3000:])
        done.check_returncode()
    return done


class Node:
    def __init__(self, name, work, bindir, port):
        self.name, self.bindir, self.port = name, bindir, port
        self.dir = os.path.join(work, name)

    def initdb(self, cluster_id):
        shutil.rmtree(self.dir, ignore_errors=True)
        as_postgres(os.path.join(self.bindir, "initdb"), "-D", self.dir, "--auth=trust", "--username=postgres",
                    "--encoding=UTF8", "--locale=C.UTF-8")
        with open(os.path.join(self.dir, "postgresql.conf"), "a") as conf:
            for line in [f"port = {self.port}", "listen_addresses = ''", f"unix_socket_directories = '{self.dir}'",
                         "wal_level = logical", "shared_preload_libraries = 'comb_ext'", "max_connections = 60",
                         f"comb_ext.uid8_cluster_id = {cluster_id}"]:
                conf.write(line + "\n")
        as_postgres(os.path.join(self.bindir, "pg_ctl"), "-D", self.dir, "-l", os.path.join(self.dir, "server.log"),
                    "-w", "-t", "60", "start")

    def stop(self):
        subprocess.run(AS_POSTGRES + [os.path.join(self.bindir, "pg_ctl"), "-D", self.dir, "-m", "immediate", "-w",
                                      "stop"], capture_output=True)

    def connect(self):
        return psycopg.connect(host=self.dir, port=self.port, user="postgres", dbname="postgres", autocommit=True)

    def conninfo(self):
        return f"host={self.dir} port={self.port} user=postgres dbname=postgres"

    def one(self, query):
        with self.connect() as conn:
            return conn.execute(query).fetchone()[0]

    def log(self):
        with open(os.path.join(self.dir, "server.log"), errors="replace") as f:
            return f.read()


def subscribe(node, other, name, publication, enabled=True):
    with node.connect() as conn:
        conn.execute(f"CREATE SUBSCRIPTION {name} CONNECTION '{other.conninfo()}' PUBLICATION {publication} "
                     f"WITH (origin = none, copy_data = false, enabled = {str(enabled).lower()})")


def write(node, tables, seconds, sessions, errors):
    """`sessions` sessions on `node` inserting batches into each table until `seconds` have passed."""
    def one():
        try:
            with node.connect() as conn:
                end = time.time() + seconds
                while time.time() < end:
                    for table in tables:
                        conn.execute(f"INSERT INTO {table} (node) SELECT %s FROM generate_series(1, 500)",
                                     (node.name,))
        except psycopg.Error as e:
            errors.append(f"{node.name}: {e.sqlstate} {e}")
    return [threading.Thread(target=one) for _ in range(sessions)]


def run(threads):
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def own_ids(node, table):
    with node.connect() as conn:
        return {r[0] for r in conn.execute(f"SELECT id::text FROM {table} WHERE node = %s", (node.name,))}


def apply_errors(node, subscription):
    """apply_error_count, and from 18 the conflicts counted (confl_*), of one subscription."""
    with node.connect() as conn:
        columns = [r[0] for r in conn.execute(
            "SELECT attname FROM pg_attribute WHERE attrelid = 'pg_catalog.pg_stat_subscription_stats'::regclass "
            "AND attname LIKE 'confl%' AND attnum > 0")]
        conflicts = " + ".join(columns) if columns else "0"
        return conn.execute(f"SELECT apply_error_count, {conflicts} FROM pg_stat_subscription_stats "
                            "WHERE subname = %s", (subscription,)).fetchone()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("work")
    parser.add_argument("--pg-config", required=True)
    parser.add_argument("--port-base", type=int, default=54480)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    bindir = subprocess.run([args.pg_config, "--bindir"], check=True, capture_output=True, text=True).stdout.strip()
    version = subprocess.run([args.pg_config, "--version"], check=True, capture_output=True, text=True).stdout
    major = int(version.split()[1].split(".")[0])
    if major < 16:
        print(f"active-active logical replication: skipped on {major} (origin = none needs PostgreSQL 16 or later)")
        return 0
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    if AS_POSTGRES:
        subprocess.run(["chown", "postgres:postgres", work], check=True)
    a, b = Node("a", work, bindir, args.port_base), Node("b", work, bindir, args.port_base + 1)
    failures = []
    try:
        for node, cluster_id in ((a, 1), (b, 2)):
            node.initdb(cluster_id)
            with node.connect() as conn:
                conn.execute("CREATE EXTENSION comb_ext")
                for table, (kind, default) in {**TABLES, CONTROL: ("bigint", "uid8_new()")}.items():
                    conn.execute(f"CREATE TABLE {table} (id {kind} PRIMARY KEY DEFAULT {default}, node text NOT NULL)")
                conn.execute(f"CREATE PUBLICATION main FOR TABLE {', '.join(TABLES)}")
                conn.execute(f"CREATE PUBLICATION control FOR TABLE {CONTROL}")
        subscribe(a, b, "a_from_b", "main")
        subscribe(b, a, "b_from_a", "main")
        errors = []
        run(write(a, TABLES, args.seconds, 4, errors) + write(b, TABLES, args.seconds, 4, errors))
        failures += errors
        # Each server's rows have reached the other once both hold the same number of both.
        made = {t: (a.one(f"SELECT count(*) FROM {t} WHERE node = 'a'"),
                    b.one(f"SELECT count(*) FROM {t} WHERE node = 'b'")) for t in TABLES}
        deadline = time.time() + 180
        while time.time() < deadline:
            if all(n.one(f"SELECT count(*) FROM {t}") == sum(made[t]) for t in TABLES for n in (a, b)):
                break
            time.sleep(1)
        for table in TABLES:
            both = own_ids(a, table) & own_ids(b, table)
            held = [n.one(f"SELECT count(*) FROM {table}") for n in (a, b)]
            ok = not both and held == [sum(made[table])] * 2
            print(f"{table}: made a={made[table][0]} b={made[table][1]}; made on both {len(both)}; "
                  f"held a={held[0]} b={held[1]}: {'PASS' if ok else 'FAIL'}", flush=True)
            if not ok:
                failures.append(table)
        for node, subscription in ((a, "a_from_b"), (b, "b_from_a")):
            errors_seen, conflicts = apply_errors(node, subscription)
            duplicates = node.log().count("duplicate key")
            print(f"{subscription}: apply errors {errors_seen}, conflicts {conflicts}, 'duplicate key' in the log "
                  f"{duplicates}", flush=True)
            if errors_seen or conflicts or duplicates:
                failures.append(subscription)

        # The control: one uid8 cluster id and one pinned generator id on both servers, its writers starting
        # at the clock on both. A generator id starts past the last millisecond any session issued on it, and
        # the ids above ran up to 2 s ahead of the clock on one server or the other (the gate on c9b99f8 saw
        # none made on both, one server's writer starting 2 s ahead): wait until the clock has passed them.
        newest = float(a.one("SELECT extract(epoch FROM greatest((SELECT max(uid8_timestamp(id)) FROM "
                             "t_uid8_time_sequential), (SELECT max(uid8_timestamp(id)) FROM t_uid8_spread)))"))
        while time.time() < newest + 0.05:
            time.sleep(0.05)
        for node in (a, b):
            with node.connect() as conn:
                conn.execute("ALTER SYSTEM SET comb_ext.uid8_cluster_id = 3")
                conn.execute("ALTER SYSTEM SET comb_ext.uid8_generator_id = 5")
                conn.execute("SELECT pg_reload_conf()")
        time.sleep(1)
        # Subscribed but not applying while they write: a writer that met the other's rows would fail on its
        # own insert (23505) and stop, where the control must see them made on both and then the apply fail.
        subscribe(a, b, "a_control", "control", enabled=False)
        subscribe(b, a, "b_control", "control", enabled=False)
        run(write(a, [CONTROL], 3, 1, []) + write(b, [CONTROL], 3, 1, []))
        for node, subscription in ((a, "a_control"), (b, "b_control")):
            with node.connect() as conn:
                conn.execute(f"ALTER SUBSCRIPTION {subscription} ENABLE")
        time.sleep(5)
        both = own_ids(a, CONTROL) & own_ids(b, CONTROL)
        stalled = sum(apply_errors(n, s)[0] + apply_errors(n, s)[1] for n, s in ((a, "a_control"), (b, "b_control")))
        ok = len(both) > 0 and stalled > 0
        print(f"control (uid8 cluster id 3 and generator id 5 on both): made on both {len(both)}; apply errors and conflicts {stalled}; "
              f"expected both above 0: {'PASS' if ok else 'FAIL'}", flush=True)
        if not ok:
            failures.append("control")
    finally:
        a.stop()
        b.stop()
    print(f"active-active logical replication: {'passed' if not failures else 'FAILED: ' + ', '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
