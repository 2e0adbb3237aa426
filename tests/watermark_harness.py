#!/usr/bin/env python3
"""Adversarial check of the watermark functions (issue 21) for one id family.

16 writer sessions insert rows in transactions of 1-20 rows: ids made by the column default and by
explicit calls inserted later in the transaction, a delay of 0-200 ms between making ids and
committing (1-4 s for 1% of them), 10% rolled back, savepoints rolled back to or released, and 5% prepared (PREPARE
TRANSACTION) and then committed or rolled back from another connection after a delay. The harness
records exactly which ids committed. 2 reader sessions (READ COMMITTED, autocommit) poll the
documented pattern, one statement for the bound W and the next for the rows:

    SELECT <bound>;
    SELECT id FROM t WHERE id > $last AND id < $W ORDER BY id LIMIT 500;

After the writers stop and every prepared transaction is resolved, each reader drains until a poll
begun after that returns less than a page and its W lies past every committed id. Then every reader
must have seen every committed id exactly once, in strictly increasing order, and no other id.

--churn makes every transaction one row, prepared and at once committed (COMMIT PREPARED) by its
writer, until --cycles cycles or --seconds: prepared transactions then keep taking over the
processes of ones just finished while the readers scan them (0.5.0's watermark cleared a slot a
PREPARE had just taken over, and passed its ids).

--mode watermark uses the family's watermark function; --mode clock uses a bound read off the clock,
which skips rows whose ids were made before a poll and committed after it: the control, which must
report skips (run it with --expect-skips), so that the checks are shown to catch the failure.

On a Citus coordinator, --distributed makes the table a distributed table keyed on id: the writers'
transactions touch several shards (committed on the workers by two-phase commit) and none is
prepared by the harness (Citus refuses PREPARE TRANSACTION for them). --bound-dsn takes statement 1
on another node (a worker), which sees none of the coordinator's transactions: the control for "W
is per node".

Exit status 0 when the run met its expectation, 1 when not or when it could not start, 2 on a
usage error.
"""

import argparse
import base64
import bisect
import collections
import contextlib
import dataclasses
import heapq
import random
import statistics
import sys
import threading
import time
import uuid

try:
    import psycopg
except ImportError as error:  # the driver must fail here, not skip: no psycopg is no test
    sys.exit(
        f"watermark_harness: cannot import psycopg ({error}); "
        "scripts/setup.sh installs it into the venv tests/watermark.sh uses"
    )

WRITERS = 16
READERS = 2
PAGE = 500
MAX_ROWS = 20
ROLLBACK_SHARE = 0.10
PREPARE_SHARE = 0.05
SAVEPOINT_SHARE = 0.30
PREPARED_COMMIT_SHARE = 0.75
# Prepared transactions a run keeps open at once; the cluster has max_prepared_transactions = 20.
MAX_PREPARED = 16
DRAIN_LIMIT_S = 60.0


@dataclasses.dataclass(frozen=True)
class Family:
    sql_type: str
    generator: str
    watermark: str  # the bound under test, called alone as statement 1
    clock: str  # the control's bound: the clock, which ids made earlier and committed later fall behind
    time_us: object  # unix µs an id holds, to report how far W trails the clock
    minimum: object  # the reader's first cursor: below every id the generator makes
    key: object  # Python sort key that orders ids as PostgreSQL does


def uuid_key(value):
    # PostgreSQL orders uuid by memcmp of its 16 bytes: big-endian, as uuid.UUID.bytes is.
    return value.bytes


def sno_key(value):
    # sno text is sixteen 5-bit groups, most significant first (src/rules/sno.rs), over an alphabet
    # in ASCII order (23456789abcdefghijklmnopqrstuvwx), so text order is byte order. The run's end
    # checks this against ORDER BY id anyway.
    return value


SNO_TO_BASE32 = str.maketrans("23456789abcdefghijklmnopqrstuvwx", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
SNO_EPOCH_US = 1_262_304_000_000_000  # 2010-01-01


def sno_time_us(value):
    # Bits 79..41 count 4 ms units since 2010 (src/rules/sno.rs).
    raw = base64.b32decode(value.translate(SNO_TO_BASE32))
    return SNO_EPOCH_US + (int.from_bytes(raw[:5], "big") >> 1) * 4000


# The one table the watermark functions drop into.
FAMILIES = {
    "comb": Family(
        sql_type="uuid",
        generator="comb_uuid()",
        watermark="comb_watermark()",
        clock="comb_floor(clock_timestamp())",
        time_us=lambda v: int.from_bytes(v.bytes[:6], "big") * 1000,  # postgresql format: bytes 0-5 unix ms
        minimum=uuid.UUID(int=0),
        key=uuid_key,
    ),
    "sno": Family(
        sql_type="sno",
        generator="sno_new()",
        watermark="sno_watermark()",
        clock="sno_floor(clock_timestamp())",
        time_us=sno_time_us,
        minimum="2222222222222222",  # ten zero bytes
        key=sno_key,
    ),
    "muid": Family(
        sql_type="uuid",
        generator="muid_new()",
        watermark="muid_watermark()",
        clock="muid_pack((extract(epoch FROM clock_timestamp()) * 1e6)::bigint, 0)",
        time_us=lambda v: v.int >> 76,  # the top 52 bits: unix µs
        minimum=uuid.UUID(int=0),
        key=uuid_key,
    ),
    "uid8": Family(
        sql_type="bigint",
        generator="uid8_new('time_sequential')",
        watermark="uid8_watermark()",
        clock="uid8_from_parts((extract(epoch FROM clock_timestamp()) * 1000)::bigint, 0, 0, 0, 'time_sequential')",
        time_us=lambda v: ((v % 2**64) >> 22) * 1000,  # time_sequential: ms << 22
        minimum=-(2**63),
        key=int,
    ),
}


class Run:
    """What the threads share: the table, the stop signals, the bookkeeping and the first failure."""

    def __init__(self, args, family):
        self.args = args
        self.family = family
        self.table = f"watermark_{args.family}"
        self.prepare_share = 0.0 if args.distributed else PREPARE_SHARE
        self.lock = threading.Lock()
        self.stop_writers = threading.Event()
        self.writers_done = threading.Event()  # every transaction, prepared ones too, is resolved
        self.abort = threading.Event()
        self.failures = []
        self.committed = set()
        self.origin = {}  # committed id: (writer, txn, how made, how committed, when), for reports of skips
        self.started = time.monotonic()
        self.started_wall = time.time()  # to place an id's own time on the run's clock
        self.not_committed = set()  # made, maybe inserted, never committed
        self.max_committed_key = None
        self.counts = dict.fromkeys(
            (
                "transactions committed",
                "transactions rolled back",
                "transactions prepared",
                "prepared committed",
                "prepared rolled back",
                "savepoints rolled back to",
                "savepoints released",
                "long transactions",
                "ids made by the default",
                "ids made by explicit calls",
                "2PC cycles",
            ),
            0,
        )
        self.prepared = []  # heap of (due, gid, commit or not, ((id, origin), ...))
        self.prepared_cond = threading.Condition(self.lock)
        self.prepared_open = 0
        self.writers_stopped = False

    def connect(self):
        conn = psycopg.connect(self.args.dsn, autocommit=True, application_name=f"watermark {self.args.family}")
        if self.args.distributed:
            # Citus otherwise serialises each multi-shard INSERT with shard locks taken statement by
            # statement, and the writers' transactions of several INSERTs deadlock on them. INSERTs
            # commute: Citus's own setting for that.
            conn.execute("SET citus.all_modifications_commutative = on")
        return conn

    def fail(self, message):
        with self.lock:
            self.failures.append(message)
        self.abort.set()
        self.stop_writers.set()

    def count(self, name, n=1):
        with self.lock:
            self.counts[name] += n


def guarded(run, name, body):
    """Run a thread's body; any exception fails the run loudly instead of dying in the thread."""

    def target():
        try:
            body()
        except Exception as error:  # noqa: BLE001 - every error is a failure of the run
            run.fail(f"{name}: {type(error).__name__}: {error}")

    return threading.Thread(target=target, name=name, daemon=True)


class Writer:
    def __init__(self, run, number):
        self.run = run
        self.number = number
        self.rng = random.Random(run.args.seed * 1000 + number)
        self.serial = 0

    def body(self):
        run = self.run
        with run.connect() as conn:
            while not run.stop_writers.is_set():
                self.transaction(conn)

    def plan(self):
        """A transaction's steps: ('default', k) inserts k rows with default ids; ('make', i) makes
        explicit id i, inserted by a later ('insert', i); ('sleep', s); one savepoint span at most."""
        if self.run.args.churn:
            return [("default", 1)]
        rows = self.rng.randint(1, MAX_ROWS)
        steps = []
        made = 0
        while rows > 0:
            k = min(rows, self.rng.choice((1, 1, 1, 2, 3, 5)))
            if self.rng.random() < 0.5:
                steps.append(("default", k))
            else:
                for _ in range(k):
                    steps.append(("make", made))
                    made += 1
            rows -= k
        # Each explicit id is inserted at a random later point, so it waits behind others.
        for i in range(made):
            at = next(p for p, s in enumerate(steps) if s == ("make", i))
            steps.insert(self.rng.randint(at + 1, len(steps)), ("insert", i))
        # The delay between making ids and committing, 0-200 ms, in one to three parts; a few
        # transactions hold their ids for seconds, so that a W trailing the clock by a fixed margin
        # fails too.
        if self.rng.random() < self.run.args.long_share:
            delay = self.rng.uniform(1, self.run.args.long_delay)
            self.run.count("long transactions")
        else:
            delay = self.rng.uniform(0, 0.2)
        cuts = sorted(self.rng.uniform(0, delay) for _ in range(self.rng.randint(0, 2)))
        parts = [b - a for a, b in zip([0.0, *cuts], [*cuts, delay], strict=True)]
        for part in parts[:-1]:
            steps.insert(self.rng.randint(1, len(steps)), ("sleep", part))
        steps.append(("sleep", parts[-1]))
        if self.rng.random() < SAVEPOINT_SHARE:
            a = self.rng.randint(0, len(steps) - 1)
            b = self.rng.randint(a + 1, len(steps))
            end = "rollback to" if self.rng.random() < 0.5 else "release"
            steps.insert(b, (end, None))
            steps.insert(a, ("savepoint", None))
        return steps

    def transaction(self, conn):
        run, fam = self.run, self.run.family
        self.serial += 1
        txn = self.number * 10_000_000 + self.serial
        steps = self.plan()
        live = []  # ids inserted and not rolled back to a savepoint
        made = []  # every id this transaction made
        explicit = {}
        explicit_ids = set()
        mark = None
        conn.execute("BEGIN")
        for step, arg in steps:
            if step == "default":
                cur = conn.execute(
                    f"INSERT INTO {run.table} (writer, txn) SELECT %s, %s FROM generate_series(1, %s) RETURNING id",
                    (self.number, txn, arg),
                )
                ids = [r[0] for r in cur.fetchall()]
                live += ids
                made += ids
                run.count("ids made by the default", len(ids))
            elif step == "make":
                explicit[arg] = conn.execute(f"SELECT {fam.generator}").fetchone()[0]
                made.append(explicit[arg])
                run.count("ids made by explicit calls")
            elif step == "insert":
                conn.execute(
                    f"INSERT INTO {run.table} (id, writer, txn, explicit) VALUES (%s::{fam.sql_type}, %s, %s, true)",
                    (explicit[arg], self.number, txn),
                )
                live.append(explicit[arg])
                explicit_ids.add(explicit[arg])
            elif step == "sleep":
                time.sleep(arg)
            elif step == "savepoint":
                conn.execute("SAVEPOINT s")
                mark = len(live)
            elif step == "rollback to":
                conn.execute("ROLLBACK TO SAVEPOINT s")
                del live[mark:]
                run.count("savepoints rolled back to")
            elif step == "release":
                conn.execute("RELEASE SAVEPOINT s")
                run.count("savepoints released")
        lost = set(made) - set(live)
        if run.args.churn:
            # 2PC churn: PREPARE, then COMMIT PREPARED at once, so that prepared transactions take
            # over the processes of ones just finished while the readers' watermarks scan them.
            gid = f"watermark-{run.args.family}-{txn}"
            conn.execute(f"PREPARE TRANSACTION '{gid}'")
            conn.execute(f"COMMIT PREPARED '{gid}'")
            with run.lock:
                run.counts["2PC cycles"] += 1
                run.committed.update(live)
                when = time.monotonic() - run.started
                for v in live:
                    run.origin[v] = (self.number, txn, "default", "COMMIT PREPARED", when)
                if run.args.cycles and run.counts["2PC cycles"] >= run.args.cycles:
                    run.stop_writers.set()
            return
        outcome = self.rng.random()
        if outcome < ROLLBACK_SHARE:
            conn.execute("ROLLBACK")
            with run.lock:
                run.counts["transactions rolled back"] += 1
                run.not_committed.update(made)
            return
        if outcome < ROLLBACK_SHARE + run.prepare_share:
            with run.lock:
                prepare = run.prepared_open < MAX_PREPARED
                if prepare:
                    run.prepared_open += 1
            if prepare:
                gid = f"watermark-{run.args.family}-{txn}"
                conn.execute(f"PREPARE TRANSACTION '{gid}'")
                due = time.monotonic() + self.rng.uniform(0, run.args.prepared_delay)
                commit = self.rng.random() < PREPARED_COMMIT_SHARE
                with run.lock:
                    run.counts["transactions prepared"] += 1
                    run.not_committed.update(lost)
                    origins = [(v, (self.number, txn, "explicit" if v in explicit_ids else "default")) for v in live]
                    heapq.heappush(run.prepared, (due, gid, commit, tuple(origins)))
                    run.prepared_cond.notify_all()
                return
        conn.execute("COMMIT")
        with run.lock:
            run.counts["transactions committed"] += 1
            run.committed.update(live)
            when = time.monotonic() - run.started
            for v in live:
                run.origin[v] = (self.number, txn, "explicit" if v in explicit_ids else "default", "COMMIT", when)
            run.not_committed.update(lost)


def resolver(run):
    """COMMIT PREPARED or ROLLBACK PREPARED each prepared transaction once its delay is up, from a
    connection of its own (not the session that prepared it)."""
    with run.connect() as conn:
        while not run.abort.is_set():
            with run.lock:
                if not run.prepared:
                    if run.stop_writers.is_set() and run.writers_stopped:
                        return
                    run.prepared_cond.wait(0.05)
                    continue
                due, gid, commit, origins = run.prepared[0]
                wait = due - time.monotonic()
                if wait > 0:
                    run.prepared_cond.wait(min(wait, 0.05))
                    continue
                heapq.heappop(run.prepared)
            conn.execute(f"{'COMMIT' if commit else 'ROLLBACK'} PREPARED '{gid}'")
            with run.lock:
                run.prepared_open -= 1
                ids = [v for v, _ in origins]
                if commit:
                    run.counts["prepared committed"] += 1
                    run.committed.update(ids)
                    when = time.monotonic() - run.started
                    for v, origin in origins:
                        run.origin[v] = (*origin, "COMMIT PREPARED", when)
                else:
                    run.counts["prepared rolled back"] += 1
                    run.not_committed.update(ids)


class Reader:
    def __init__(self, run, number):
        self.run = run
        self.number = number
        self.rng = random.Random(run.args.seed * 1000 + 500 + number)
        self.seen = []
        self.duplicates = 0
        self.out_of_order = []  # (previous, id) pairs against the Python key
        self.outside_bounds = []  # rows the server returned outside (last, W) by the Python key
        self.polls = 0
        self.seen_while_writing = 0
        self.trace_keys = []  # the cursor after each poll that moved it, and when, and that poll's W
        self.trace = []
        self.lags = []
        self.drain_s = None
        self.last_w = None

    def body(self):
        run, fam = self.run, self.run.family
        bound = fam.clock if run.args.mode == "clock" else fam.watermark
        # Statement 1: W, and the clock, to report how far W trails it (decoded here, so that no
        # SQL decoder can fail on an odd W).
        first = f"SELECT {bound}, clock_timestamp()"
        second = (
            f"SELECT id FROM {run.table} WHERE id > %s::{fam.sql_type} AND id < %s::{fam.sql_type} "
            f"ORDER BY id LIMIT {PAGE}"
        )
        last = fam.minimum
        seen = set()
        drain_start = None
        bound_node = psycopg.connect(run.args.bound_dsn, autocommit=True) if run.args.bound_dsn else None
        with run.connect() as conn, (bound_node or contextlib.nullcontext()):
            while not run.abort.is_set():
                after_end = run.writers_done.is_set()
                if after_end and drain_start is None:
                    drain_start = time.monotonic()
                w, now = (bound_node or conn).execute(first).fetchone()
                if w is None:
                    run.fail(f"reader {self.number}: {bound} returned NULL")
                    return
                lag = now.timestamp() - fam.time_us(w) / 1e6
                rows = conn.execute(second, (last, w)).fetchall()
                self.polls += 1
                self.last_w = w
                self.lags.append(lag)
                if not after_end:
                    self.seen_while_writing = len(self.seen) + len(rows)
                wk, lk = fam.key(w), fam.key(last)
                for (value,) in rows:
                    k = fam.key(value)
                    if not (lk < k < wk):
                        self.outside_bounds.append((last, w, value))
                    if k <= lk:
                        self.out_of_order.append((last, value))
                    if value in seen:
                        self.duplicates += 1
                    seen.add(value)
                    self.seen.append(value)
                    last, lk = value, k
                if rows:
                    self.trace_keys.append(lk)
                    self.trace.append((time.monotonic() - run.started, w))
                if after_end and len(rows) < PAGE and wk > run.max_committed_key:
                    self.drain_s = time.monotonic() - drain_start
                    return
                if after_end and time.monotonic() - drain_start > DRAIN_LIMIT_S:
                    run.fail(
                        f"reader {self.number}: W ({w}) did not pass the highest committed id within "
                        f"{DRAIN_LIMIT_S:.0f} s of the writers' end"
                    )
                    return
                if len(rows) < PAGE:
                    time.sleep(self.rng.uniform(0, run.args.poll_pause))


def setup(args, family):
    with psycopg.connect(args.dsn, autocommit=True) as conn:
        bound = family.clock if args.mode == "clock" else family.watermark
        name = bound.split("(")[0]
        if not conn.execute("SELECT 1 FROM pg_proc WHERE proname = %s", (name,)).fetchone():
            version = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'comb_ext'").fetchone()
            raise SystemExit(
                f"watermark_harness: {name}() does not exist (comb_ext "
                f"{version[0] if version else 'not installed'}): this build has no watermark for {args.family}"
            )
        prepared = conn.execute("SELECT count(*) FROM pg_prepared_xacts").fetchone()[0]
        if prepared:
            raise SystemExit(f"watermark_harness: {prepared} prepared transactions are left over from an earlier run")
        table = f"watermark_{args.family}"
        conn.execute(f"DROP TABLE IF EXISTS {table}")
        conn.execute(
            f"CREATE TABLE {table} (id {family.sql_type} PRIMARY KEY DEFAULT {family.generator}, "
            "writer int NOT NULL, txn bigint NOT NULL, explicit boolean NOT NULL DEFAULT false)"
        )
        if args.distributed:
            conn.execute("SELECT create_distributed_table(%s, 'id')", (table,))


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", required=True, help="libpq connection string")
    parser.add_argument("--family", required=True, choices=sorted(FAMILIES))
    parser.add_argument("--mode", choices=("watermark", "clock"), default="watermark")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--expect-skips", action="store_true", help="the control: pass only if rows were skipped")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument(
        "--prepared-delay", type=float, default=0.5, help="longest wait before resolving a prepared transaction, s"
    )
    parser.add_argument("--long-share", type=float, default=0.01, help="share of transactions held 1 s or more")
    parser.add_argument("--long-delay", type=float, default=4, help="longest hold of those, s")
    parser.add_argument("--distributed", action="store_true", help="a Citus distributed table (on the coordinator)")
    parser.add_argument("--bound-dsn", default=None, help="take W on this node instead (the per-node control)")
    parser.add_argument("--poll-pause", type=float, default=0.02, help="longest pause between a reader's polls, s")
    parser.add_argument(
        "--churn",
        action="store_true",
        help="2PC churn: every transaction one row, PREPARE and COMMIT PREPARED at once, from every writer",
    )
    parser.add_argument("--cycles", type=int, default=0, help="with --churn, stop after this many cycles (or --seconds)")
    args = parser.parse_args()
    if args.seed is None:
        args.seed = random.randrange(2**31)
    family = FAMILIES[args.family]
    setup(args, family)

    run = Run(args, family)
    writers = [guarded(run, f"writer {i}", Writer(run, i).body) for i in range(WRITERS)]
    readers_ = [Reader(run, i) for i in range(READERS)]
    readers = [guarded(run, f"reader {r.number}", r.body) for r in readers_]
    resolve = guarded(run, "resolver", lambda: resolver(run))
    started = time.monotonic()
    for t in [*readers, resolve, *writers]:
        t.start()
    run.stop_writers.wait(args.seconds)
    run.stop_writers.set()
    for t in writers:
        t.join()
    with run.lock:
        run.writers_stopped = True
        run.prepared_cond.notify_all()
    resolve.join()
    wrote_s = time.monotonic() - started
    with run.lock:
        if run.committed:
            run.max_committed_key = max(family.key(v) for v in run.committed)
        else:
            run.max_committed_key = family.key(family.minimum)
    run.writers_done.set()
    for t in readers:
        t.join()
    total_s = time.monotonic() - started

    # The harness's own books against the table: the committed set, and the Python key's order
    # against the server's ORDER BY id.
    with psycopg.connect(args.dsn, autocommit=True) as conn:
        in_table = [r[0] for r in conn.execute(f"SELECT id FROM {run.table} ORDER BY id")]
        left = [r[0] for r in conn.execute("SELECT gid FROM pg_prepared_xacts WHERE gid LIKE 'watermark-%'")]
        for gid in left:  # after a failure, so that the next run starts clean
            conn.execute(f"ROLLBACK PREPARED '{gid}'")
        left_prepared = len(left)
    if set(in_table) != run.committed:
        run.failures.append(
            f"bookkeeping: the table holds {len(in_table)} ids, the harness counted {len(run.committed)} committed; "
            f"{len(set(in_table) - run.committed)} in the table only, {len(run.committed - set(in_table))} counted only"
        )
    if in_table != sorted(in_table, key=family.key):
        run.failures.append("the Python sort key does not order ids as ORDER BY id does")
    if left_prepared:
        run.failures.append(f"{left_prepared} prepared transactions left unresolved")
    overlap = run.committed & run.not_committed
    if overlap:
        run.failures.append(f"bookkeeping: {len(overlap)} ids counted both committed and not")

    print(
        f"{args.family} ({family.sql_type} PRIMARY KEY DEFAULT {family.generator}), mode {args.mode}, seed {args.seed}:"
    )
    print(f"  writing {wrote_s:.1f} s, whole run {total_s:.1f} s; {WRITERS} writers, {READERS} readers")
    print(f"  rows committed {len(run.committed)}, ids made and not committed {len(run.not_committed)}")
    print("  " + ", ".join(f"{k} {v}" for k, v in run.counts.items()))
    skipped_total = 0
    broken = 0
    for r in readers_:
        seen = set(r.seen)
        skipped = len(run.committed - seen)
        phantom = len(seen - run.committed)
        skipped_total += skipped
        broken += r.duplicates + len(r.out_of_order) + len(r.outside_bounds) + phantom
        lag = (
            f"W trails the clock by median {1000 * statistics.median(r.lags):.1f} ms, "
            f"p99 {1000 * percentile(r.lags, 0.99):.1f} ms, max {1000 * max(r.lags):.1f} ms"
            if r.lags
            else "no W"
        )
        drain = f"{r.drain_s:.2f} s" if r.drain_s is not None else "did not finish"
        print(
            f"  reader {r.number}: rows seen {len(r.seen)} ({r.seen_while_writing} while the writers ran), "
            f"skipped {skipped}, duplicates {r.duplicates}, "
            f"out of order {len(r.out_of_order)}, outside (last, W) {len(r.outside_bounds)}, not committed {phantom}; "
            f"{r.polls} polls, drain {drain}; {lag}"
        )
        missed = run.committed - seen
        if missed:
            kinds = collections.Counter(f"{run.origin[v][2]} ids, {run.origin[v][3]}" for v in missed)
            print("    skipped by kind: " + "; ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())))
        for value in sorted(missed, key=family.key)[:3]:
            writer, txn, made, how, when = run.origin[value]
            at = bisect.bisect_right(r.trace_keys, family.key(value))
            passed = (
                f"the cursor passed it at +{r.trace[at][0]:.3f} s under W {r.trace[at][1]}"
                if at < len(r.trace)
                else "never passed"
            )
            print(
                f"    skipped: {value} ({made}, writer {writer} txn {txn}, {how} at +{when:.3f} s; "
                f"its own time +{family.time_us(value) / 1e6 - run.started_wall:.3f} s); {passed}"
            )
        for label, items in (("out of order", r.out_of_order), ("outside (last, W)", r.outside_bounds)):
            for item in items[:3]:
                print(f"    {label}: {item}")
        if r.drain_s is None and not run.abort.is_set():
            run.failures.append(f"reader {r.number} did not drain")
        if r.seen_while_writing == 0 and run.committed:
            # Safe but useless: a W that lets nothing through until the writers stop.
            run.failures.append(f"reader {r.number} saw no row while the writers ran")
    if broken:
        run.failures.append(f"{broken} rows seen twice, out of order, outside their bounds or never committed")
    if not run.committed:
        run.failures.append("no row committed: nothing was tested")
    if args.expect_skips:
        if skipped_total == 0:
            run.failures.append("the control skipped no row: the harness did not show it can catch a skip")
    elif skipped_total:
        run.failures.append(f"{skipped_total} committed rows skipped (summed over readers)")
    for failure in run.failures:
        print(f"  FAILED: {failure}")
    verdict = (
        "FAILED" if run.failures else ("ok: rows were skipped, as the control must show" if args.expect_skips else "ok")
    )
    print(f"  {verdict}")
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
