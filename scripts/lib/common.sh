# Shared by the scripts: where PostgreSQL lives (15, the system server, unless PG_CONFIG says otherwise), and a throwaway cluster run as the postgres OS
# user on a Unix socket of its own (listen_addresses is empty: nothing listens on TCP).
# shellcheck shell=bash

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
PGBIN=${PGBIN:-$(dirname "$PG_CONFIG")}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

say() { printf '\n==> [%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

# take_quick ARG...: a harness's --quick flag, wherever it stands. Sets QUICK (1 or 0) and ARGS, the
# other arguments in order; the caller goes on with: set -- "${ARGS[@]}".
take_quick() {
    local arg
    QUICK=0 ARGS=()
    for arg in "$@"; do
        if [ "$arg" = --quick ]; then QUICK=1; else ARGS+=("$arg"); fi
    done
}

# The venv scripts/setup.sh makes: psycopg and the harnesses' other modules.
PYTHON=${COMB_EXT_VENV:-${COMB_EXT_CACHE:-/var/cache/comb_ext}/venv}/bin/python

# need_psycopg NAME: a harness without psycopg fails rather than skips (its property would go untested).
need_psycopg() {
    if ! "$PYTHON" -c 'import psycopg' 2>/dev/null; then
        echo "$1: no psycopg for $PYTHON; run scripts/setup.sh (it makes that venv)" >&2
        exit 1
    fi
}

# Run a command as the postgres OS user (initdb and postgres refuse root).
as_postgres() { sudo -u postgres -H -- "$@"; }

# cluster_start DIR PORT [postgresql.conf lines...]: create DIR if needed, start it if it is not
# running. The socket lives in DIR itself.
cluster_start() {
    local dir=$1 port=$2
    shift 2
    if [ ! -f "$dir/PG_VERSION" ]; then
        mkdir -p "$dir"
        chown postgres:postgres "$dir"
        chmod 0700 "$dir"
        as_postgres "$PGBIN/initdb" -D "$dir" --auth=trust --username=postgres --encoding=UTF8 --locale=C.UTF-8 >/dev/null
        {
            echo "port = $port"
            echo "listen_addresses = ''"
            echo "unix_socket_directories = '$dir'"
            echo "unix_socket_permissions = 0770"
            for line in "$@"; do echo "$line"; done
        } >>"$dir/postgresql.conf"
    fi
    if ! as_postgres "$PGBIN/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
        as_postgres "$PGBIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >/dev/null
    fi
}

cluster_stop() {
    local dir=$1
    if [ -f "$dir/PG_VERSION" ] && as_postgres "$PGBIN/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
        as_postgres "$PGBIN/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
    fi
}

# harness_cluster DIR PORT [postgresql.conf lines...]: a harness's own cluster, made anew (stopped and removed
# first), and stopped when the script exits.
harness_cluster() {
    local dir=$1 port=$2
    shift 2
    cluster_stop "$dir"
    rm -rf "$dir"
    # shellcheck disable=SC2064 # the directory is fixed now
    trap "cluster_stop '$dir'" EXIT
    cluster_start "$dir" "$port" "$@"
}

# cluster_kill9 DIR: kill -9 of the cluster's postmaster and all its processes at once (as a power cut leaves
# them: no shutdown checkpoint, no exit callbacks), then wait until every one is gone. Prints the postmaster's
# pid and how many processes it had.
cluster_kill9() {
    local postmaster processes
    postmaster=$(head -n1 "$1/postmaster.pid")
    processes="$postmaster $(pgrep -P "$postmaster" | tr '\n' ' ')"
    # shellcheck disable=SC2086
    kill -9 $processes
    # shellcheck disable=SC2086
    while kill -0 $processes 2>/dev/null; do sleep 0.1; done
    echo "$postmaster $(($(wc -w <<<"$processes") - 1))"
}

# cluster_start_faketime DIR PORT OFFSET_FILE: start an initialised, stopped cluster with its wall
# clock shifted by the offset in OFFSET_FILE (libfaketime, re-read every second, so the offset can
# be changed under the running server; the monotonic clock is left alone).
# The postmaster is started by itself, not through pg_ctl: pg_ctl -w never sees it come up, and
# pg_ctl -W exits at once, removing the libfaketime semaphore that its child, the postmaster, is
# about to open (seen in CI: "sem_open failed", no server). The subshell keeps the server out of
# a script's bare `wait`; its output is dropped so a kill -9 of the server is not reported.
cluster_start_faketime() {
    local dir=$1 port=$2 offset=$3
    (as_postgres sh -c 'exec env LD_PRELOAD=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 \
        FAKETIME_TIMESTAMP_FILE="$2" FAKETIME_CACHE_DURATION=1 FAKETIME_DONT_FAKE_MONOTONIC=1 \
        "$3/postgres" -D "$1" </dev/null >>"$1/server.log" 2>&1' sh "$dir" "$offset" "$PGBIN" \
        </dev/null >/dev/null 2>&1 &)
    cluster_wait_ready "$dir" "$port" && return 0
    echo "cluster in $dir did not start under faketime" >&2
    return 1
}

# faketime_step OFFSET_FILE OFFSET: set a running faketime server's clock offset and wait until it
# has taken hold (libfaketime re-reads the file once a whole second has passed).
faketime_step() { echo "$2" >"$1"; sleep 2.5; }

# cluster_wait_ready DIR PORT: wait up to 30 s for the server to take connections.
cluster_wait_ready() {
    local dir=$1 port=$2
    for _ in $(seq 1 300); do
        cluster_psql "$dir" "$port" -d postgres -qAt -c "SELECT 1" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    return 1
}

# cluster_psql DIR PORT [psql args...]
cluster_psql() {
    local dir=$1 port=$2
    shift 2
    "$PGBIN/psql" -X -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres "$@"
}

# pool_download URL FILE SHA256 LOG: fetch a pinned file from the Debian pool with apt's own downloader (the
# machine's apt proxy settings apply), which refuses a file whose SHA-256 differs; sha256sum checks again in case
# an old apt-helper ignored the hash. On failure FILE is removed and one phrase says why (apt's error, or the
# checksum); the whole output is in LOG.
pool_download() {
    local url=$1 file=$2 sha=$3 log=$4 reason
    if /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$url" "$file" "SHA256:$sha" >"$log" 2>&1 &&
        echo "$sha  $file" | sha256sum -c --status; then
        return 0
    fi
    reason=$(sed -n 's/^E: Failed to fetch [^ ]* *//p' "$log" | sed 's/ *\[IP:.*//' | tr -s ' ' | head -n1)
    echo "${reason:-SHA-256 differs from the pinned one}"
    rm -f "$file" "$file.FAILED"
    return 1
}

# Benchmarks: install what is missing and a release build of comb_ext, then start a fresh
# cluster in DIR on PORT (further arguments are postgresql.conf lines), stopped when the script exits.
bench_cluster() {
    local dir=$1 port=$2
    shift 2
    bash "$REPO/scripts/setup.sh"
    say "installing comb_ext (release build)"
    bash "$REPO/scripts/install.sh" --release --pg-config "$PG_CONFIG" >/dev/null
    cluster_stop "$dir"
    rm -rf "$dir"
    cluster_start "$dir" "$port" "$@"
    trap "cluster_stop '$dir'" EXIT
}

# A/B benchmarks (benches/*_ab.sh): a fresh cluster directory DIR; the server's comb_ext.so kept, and put
# back and the cluster stopped when the script exits.
ab_begin() {
    local dir=$1
    AB_KEEP=$(mktemp -d)
    cp "$("$PG_CONFIG" --pkglibdir)/comb_ext.so" "$AB_KEEP/" 2>/dev/null || true
    cluster_stop "$dir"
    rm -rf "$dir"
    trap "cluster_stop '$dir'; [ -f '$AB_KEEP/comb_ext.so' ] && ab_put_library '$AB_KEEP/comb_ext.so'; rm -rf '$AB_KEEP'" EXIT
}

# FILE as the server's comb_ext.so, by rename: running backends keep what they mapped.
ab_put_library() {
    local libdir
    libdir=$("$PG_CONFIG" --pkglibdir)
    cp "$1" "$libdir/.ab.tmp"
    mv -fT "$libdir/.ab.tmp" "$libdir/comb_ext.so"
}

# The comb_ext.so of STAGE (`cargo pgrx package --out-dir STAGE`).
ab_install_library() {
    ab_put_library "$1$("$PG_CONFIG" --pkglibdir)/comb_ext.so"
}
