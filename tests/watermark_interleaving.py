#!/usr/bin/env python3
"""The interleaving that lost a prepared transaction's holding in 0.5.0, forced with gdb in a real
server (max_prepared_transactions = 1, so every PREPARE takes over the same prepared process):

1. Transaction a makes an id, is prepared and committed (COMMIT PREPARED): its process's slot keeps
   a's transaction id and holding.
2. Transaction b makes an id (id_b) and stays open.
3. gdb stops session S inside its watermark scan, at the moment it asks whether a is still prepared
   (the slot read, nothing yet decided): a breakpoint on TransactionIdIsInProgress for a's id.
4. b is prepared while S is stopped: its holding is handed over to the same process's slot, and b's
   backend lets go of its own.
5. S goes on; its watermark W1, and W2 taken next, must not pass id_b (b is still prepared).
6. COMMIT PREPARED b: the next W passes id_b (the check can see a pass).

0.5.0 cleared the slot in step 5 (a had ended), so W2 passed id_b. The breakpoint is on a
PostgreSQL function, so the same test runs against either build. Skips (exit 0, a line saying so)
where gdb or ptrace is unavailable; exit 1 when W passed id_b or the interleaving could not be made.

    tests/watermark_interleaving.py --dsn DSN --work DIR --family comb|sno
"""

import argparse
import os
import platform
import shutil
import subprocess
import sys
import threading
import time

import psycopg

FAMILIES = {"comb": ("comb_uuid()", "comb_watermark()", "uuid"), "sno": ("sno_new()", "sno_watermark()", "sno")}


def skip(why):
    print(f"watermark_interleaving: SKIPPED: {why}")
    sys.exit(0)


def wait_for(path, seconds, gdb):
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        if gdb.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--family", choices=sorted(FAMILIES), default="comb")
    args = parser.parse_args()
    make, watermark, sql_type = FAMILIES[args.family]
    gdb_path = shutil.which("gdb")
    if gdb_path is None:
        skip("no gdb on this machine")
    if platform.machine() != "x86_64":
        skip(f"the breakpoint's condition reads the argument from x86-64's edi; this machine is {platform.machine()}")
    os.makedirs(args.work, exist_ok=True)
    hit, go, ready = (os.path.join(args.work, name) for name in ("hit", "go", "ready"))
    for path in (hit, go, ready):
        if os.path.exists(path):
            os.remove(path)

    a, b, s = (psycopg.connect(args.dsn, autocommit=True) for _ in range(3))
    s_pid = s.execute("SELECT pg_backend_pid()").fetchone()[0]
    s.execute(f"SELECT {watermark}")  # the first watermark since the start reads the records back
    a.execute("BEGIN")
    a.execute(f"SELECT {make}")
    xid_a = a.execute("SELECT txid_current()").fetchone()[0]
    a.execute("PREPARE TRANSACTION 'interleaving_a'")
    a.execute("COMMIT PREPARED 'interleaving_a'")
    b.execute("BEGIN")
    id_b = b.execute(f"SELECT {make}::text").fetchone()[0]

    # Stop S where its scan asks whether a is still prepared (x86-64: the argument in edi).
    script = os.path.join(args.work, "gdb.cmd")
    with open(script, "w") as f:
        f.write(
            f"""set pagination off
set confirm off
handle SIGUSR1 SIGUSR2 SIGINT SIGTERM SIGQUIT SIGPIPE SIGALRM SIGHUP nostop noprint pass
break TransactionIdIsInProgress if ($rdi & 0xffffffff) == {xid_a}
commands
silent
shell touch {hit}
shell while [ ! -e {go} ]; do sleep 0.02; done
delete
detach
quit
end
shell touch {ready}
continue
"""
        )
    log = open(os.path.join(args.work, "gdb.log"), "w")
    gdb = subprocess.Popen([gdb_path, "-q", "-batch", "-p", str(s_pid), "-x", script], stdout=log, stderr=subprocess.STDOUT)
    if not wait_for(ready, 60, gdb):
        gdb.kill()
        text = open(os.path.join(args.work, "gdb.log")).read()
        if "ptrace" in text or "Operation not permitted" in text:
            skip(f"gdb cannot attach to backend {s_pid} (ptrace not permitted): {text.strip().splitlines()[-1]}")
        print(f"watermark_interleaving: FAILED: gdb did not attach to backend {s_pid}:\n{text}")
        sys.exit(1)

    result = {}

    def scan():
        try:
            result["w1"] = s.execute(f"SELECT {watermark}::text").fetchone()[0]
        except Exception as e:  # reported below
            result["error"] = e

    scanner = threading.Thread(target=scan)
    scanner.start()
    if not wait_for(hit, 30, gdb):
        open(go, "w").close()
        scanner.join(30)
        print(f"watermark_interleaving: FAILED: the scan never asked whether transaction {xid_a} was still prepared")
        sys.exit(1)
    # S is stopped mid-scan, a's slot read: b prepares into the same process's slot.
    b.execute("PREPARE TRANSACTION 'interleaving_b'")
    open(go, "w").close()
    scanner.join(60)
    gdb.wait(60)
    if "error" in result or scanner.is_alive():
        print(f"watermark_interleaving: FAILED: the stopped scan did not finish: {result.get('error')}")
        sys.exit(1)
    w1 = result["w1"]
    w2 = s.execute(f"SELECT {watermark}::text").fetchone()[0]
    held = s.execute(
        f"SELECT %s::{sql_type} <= %s::{sql_type}, %s::{sql_type} <= %s::{sql_type}", (w1, id_b, w2, id_b)
    ).fetchone()
    print(f"  {args.family}: a = transaction {xid_a} (committed), b prepared while backend {s_pid} was stopped in its scan")
    print(f"  W1 (the stopped scan) {w1}, W2 (the next) {w2}, b's id {id_b}: held {held[0]}, {held[1]}")
    a.execute("COMMIT PREPARED 'interleaving_b'")
    time.sleep(0.01)
    w3 = s.execute(f"SELECT {watermark}::text, {watermark} > %s::{sql_type}", (id_b,)).fetchone()
    print(f"  after COMMIT PREPARED b: W3 {w3[0]}, past b's id: {w3[1]}")
    if not (held[0] and held[1] and w3[1]):
        print(f"watermark_interleaving: FAILED ({args.family}): W passed the id of a transaction still prepared")
        sys.exit(1)
    print(f"watermark_interleaving: {args.family}: a PREPARE that took over the slot mid-scan kept its holding")


if __name__ == "__main__":
    main()
