#!/usr/bin/env python3
"""A full disk under the marks: the part of tests/disk_full.sh that generates (it says what is checked).

    disk_full.py HOST PORT COMB_EXT_DIR    (COMB_EXT_DIR: the tmpfs the data directory's comb_ext/ links to)
Prints the figures; exits 1 if any check fails.
"""

import ctypes
import errno
import os
import struct
import sys
import time

import psycopg

HOST, PORT, SMALL = sys.argv[1:4]
SECONDS = 4.0
BACK_OFF = 0.1  # RETRY_AFTER_US in src/server/high_water.rs
# A write when the back-off ends, and a write ahead beside it: at most two a back-off, and the first.
MOST_CREATED = 2 * int(SECONDS / BACK_OFF) + 2

failures = []


def check(ok, what):
    print(("ok      " if ok else "FAILED  ") + what, flush=True)
    if not ok:
        failures.append(what)


# Files created in comb_ext/, counted by the kernel (inotify), not by the code under test.
libc = ctypes.CDLL(None, use_errno=True)
IN_CREATE = 0x100
watch = libc.inotify_init1(os.O_NONBLOCK)
if watch < 0 or libc.inotify_add_watch(watch, SMALL.encode(), IN_CREATE) < 0:
    sys.exit(f"disk_full: inotify on {SMALL}: {os.strerror(ctypes.get_errno())}")


def created():
    """The names created in comb_ext/ since the last call."""
    names = []
    while True:
        try:
            data = os.read(watch, 65536)
        except BlockingIOError:
            return names
        offset = 0
        while offset < len(data):
            _wd, _mask, _cookie, length = struct.unpack_from("iIII", data, offset)
            names.append(data[offset + 16 : offset + 16 + length].rstrip(b"\0").decode())
            offset += 16 + length


def left_behind():
    return sorted(n for n in os.listdir(SMALL) if n.endswith(".tmp"))


fill = os.path.join(SMALL, "fill")
with open(fill, "wb", buffering=0) as f:
    try:
        while True:
            f.write(b"\0" * 4096)
    except OSError as error:
        if error.errno != errno.ENOSPC:
            raise
print(f"comb_ext/ is full: {os.path.getsize(fill)} bytes of filler", flush=True)

conn = psycopg.connect(host=HOST, port=PORT, dbname="postgres", user="postgres", autocommit=True)
for family, call in [("sno", "sno_new()"), ("muid", "muid_new()"), ("uid8", "uid8_new()")]:
    created()
    issued = refused = 0
    message, other = None, None
    start = time.monotonic()
    while time.monotonic() - start < SECONDS:
        try:
            conn.execute(f"SELECT {call}")
            issued += 1
        except psycopg.Error as error:
            if error.diag.sqlstate == "58030":
                refused += 1
                message = error.diag.message_primary
            else:
                other = f"{error.diag.sqlstate}: {error.diag.message_primary}"
                break
    temporaries = [n for n in created() if n.endswith(".tmp")]
    print(f"{family}: {SECONDS:.0f} s of {call}: {issued} issued, {refused} refused with 58030 ({message})", flush=True)
    check(other is None, f"{family}: no error but 58030: {other}")
    check(
        refused > 0 and message is not None and f"comb_ext/{family}.mark" in message and "No space left on device" in message,
        f"{family}: calls past the mark written ahead refused with 58030 naming the file and ENOSPC",
    )
    check(not left_behind(), f"{family}: no temporary file left behind: {left_behind()}")
    check(
        len(temporaries) <= MOST_CREATED,
        f"{family}: {len(temporaries)} temporary files created for {refused} refused calls (at most {MOST_CREATED}: one a {BACK_OFF:.1f} s back-off)",
    )

os.remove(fill)
for family, call in [("sno", "sno_new()"), ("muid", "muid_new()"), ("uid8", "uid8_new()")]:
    start = time.monotonic()
    error = None
    while time.monotonic() - start < 2.0:
        try:
            conn.execute(f"SELECT {call}")
            error = None
            break
        except psycopg.Error as e:
            error = e
            time.sleep(0.01)
    check(error is None, f"{family}: with space again, a call succeeds after {time.monotonic() - start:.2f} s: {error}")
check(not left_behind(), f"nothing left behind: {left_behind()}")

print("disk_full: " + ("generation part passed" if not failures else f"FAILED ({len(failures)} checks)"), flush=True)
sys.exit(1 if failures else 0)
