#!/usr/bin/env bash
# Quick restarts do not creep: a server restarted RESTARTS times in a row, each time right after a
# burst of muid_new() and a watermark, and right after it one more of each. A generator resumes at
# its mark on disk (up to 2 s past what it issued), and 0.5.0 then reserved 2 s past that again, so
# muid and the watermarks' floor ran further ahead of the clock at every such restart (0.5.0 here:
# muid 3.8 s ahead after the first, 16.1 s after the eighth). Now the marks must stay where the
# first restarts put them: each restart's `ahead` (comb_ext_marks()) within 0.6 s of the second's,
# and under 3.5 s. The margin is the reading's jitter on a loaded machine (one restart read 0.35 s
# above the second in a gate run, the next ones back at it), under 0.5.0's creep of 0.8 s per restart.
#   bash tests/quick_restarts.sh WORK_DIR [RESTARTS]   (expects comb_ext installed; port COMB_EXT_TEST_PORT + 44)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=$1
RESTARTS=${2:-8}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 44))
cluster_stop "$DIR"
rm -rf "$DIR"
trap 'cluster_stop "$DIR"' EXIT
cluster_start "$DIR" "$PORT"
sql() { cluster_psql "$DIR" "$PORT" -d postgres -qAt "$@"; }
sql -c "CREATE EXTENSION comb_ext"
aheads=()
failures=0
for i in $(seq 1 "$RESTARTS"); do
    sql -c "SELECT count(muid_new()) FROM generate_series(1, 10000)" -c "SELECT comb_watermark() IS NOT NULL" >/dev/null
    as_postgres "$PGBIN/pg_ctl" -D "$DIR" -m fast -w -l "$DIR/server.log" restart >/dev/null
    sql -c "SELECT muid_new() IS NOT NULL" -c "SELECT comb_watermark() IS NOT NULL" >/dev/null
    ahead=$(sql -c "SELECT string_agg(round(extract(epoch FROM ahead)::numeric, 3)::text, ' ' ORDER BY family) FROM comb_ext_marks() WHERE family IN ('muid', 'watermark')")
    aheads+=("$ahead")
done
echo "quick restarts: seconds the muid and watermark marks lie ahead of the clock after each of $RESTARTS restarts: $(printf '[%s] ' "${aheads[@]}")"
read -r muid2 floor2 <<<"${aheads[1]}"
for i in "${!aheads[@]}"; do
    read -r muid floor <<<"${aheads[i]}"
    if ! awk -v m="$muid" -v f="$floor" -v m2="$muid2" -v f2="$floor2" -v i="$i" \
        'BEGIN { exit !(m < 3.5 && f < 3.5 && (i < 1 || (m - m2 < 0.6 && f - f2 < 0.6))) }'; then
        echo "quick restarts: FAILED after restart $((i + 1)): muid $muid s, watermark $floor s ahead (after the second: $muid2 s, $floor2 s)" >&2
        failures=$((failures + 1))
    fi
done
[ "$failures" -eq 0 ]
