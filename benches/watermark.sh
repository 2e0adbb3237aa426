#!/usr/bin/env bash
# Benchmark (not a test): what a watermark call costs with SESSIONS other sessions connected (default
# 100), half of them holding ids in open transactions, on a throwaway cluster with a release build.
# A watermark scans every process's slot, so its cost grows with max_connections, not with the ids.
# Prints µs per call of each family's watermark, net of count(*) over the same series, median of 5.
#   bash benches/watermark.sh [SESSIONS] [CALLS]
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
SESSIONS=${1:-100}
CALLS=${2:-20000}
DIR=${COMB_EXT_BENCH_DIR:-/tmp/comb_ext_bench_watermark}
PORT=${COMB_EXT_BENCH_PORT:-54346}
bench_cluster "$DIR" "$PORT" "max_connections = $((SESSIONS + 20))" "jit = off"
sql() { cluster_psql "$DIR" "$PORT" -d postgres -qAt "$@"; }
sql -c "CREATE EXTENSION comb_ext" -c "CREATE EXTENSION dblink"

# One driver session opens the others through dblink and keeps them open while it measures.
sql <<SQL
DO \$\$
DECLARE
    conninfo text := format('dbname=postgres host=%s port=%s user=postgres', current_setting('unix_socket_directories'), current_setting('port'));
BEGIN
    FOR s IN 1..$SESSIONS LOOP
        PERFORM dblink_connect('s' || s, conninfo);
        IF s % 2 = 0 THEN
            PERFORM dblink_exec('s' || s, 'BEGIN');
            PERFORM * FROM dblink('s' || s, 'SELECT comb_uuid()::text, sno_new()::text, muid_new()::text, uid8_new(''time_sequential'')::text') AS t(a text, b text, c text, d text);
        END IF;
    END LOOP;
END \$\$;
SELECT 'holders', count(*) FROM comb_watermark_holders();
CREATE TEMP TABLE t (f text, us float8);
DO \$\$
DECLARE
    f text;
    started timestamptz;
    base float8;
BEGIN
    FOR round IN 1..5 LOOP
        started := clock_timestamp();
        PERFORM count(*) FROM generate_series(1, $CALLS);
        base := extract(epoch FROM clock_timestamp() - started);
        FOREACH f IN ARRAY ARRAY['comb_watermark()', 'sno_watermark()', 'muid_watermark()', 'uid8_watermark()'] LOOP
            started := clock_timestamp();
            EXECUTE format('SELECT count(%s) FROM generate_series(1, $CALLS)', f);
            INSERT INTO t VALUES (f, (extract(epoch FROM clock_timestamp() - started) - base) * 1e6 / $CALLS);
        END LOOP;
    END LOOP;
END \$\$;
SELECT '| \`' || f || '\` | ' || round((percentile_cont(0.5) WITHIN GROUP (ORDER BY us))::numeric, 2) || ' |' FROM t GROUP BY f ORDER BY f;
SQL
