#!/usr/bin/env bash
# Prepared transactions and their records of watermark holdings (comb_ext/prepared/<xid>), for all
# four families (uid8 as time_sequential), on one server with max_prepared_transactions = 4:
# 1. Records are bounded: 300 PREPARE / COMMIT PREPARED cycles with no watermark taken leave at
#    most one record per prepared transaction's process; a PREPARE that fails (its GID in use)
#    leaves none; once a watermark is taken, no record of an ended transaction is left (0.5.0: one
#    file per cycle, kept for ever).
# 2. A transaction prepared in database B holds B's watermarks, from its record, and not A's, nor
#    shows among A's holders (0.5.0: server-wide); comb_ext_marks() shows its record in B alone, and
#    its times only to roles with the privileges of its role and to pg_read_all_stats.
# 3. After a restart, a prepared transaction whose record was deleted (as after a restored backup,
#    PITR or a promotion), one whose record lies two days past the clock, and one whose record is
#    damaged each hold every watermark of their database at 1970-01-01 (sno: its smallest id),
#    with a WARNING, until they end; W passes their ids once all three are rolled back. B's, whose
#    record is whole, holds B's watermarks at its ids, not at 1970.
# 4. A standby made with pg_basebackup -R, a transaction prepared on the primary after the backup (so
#    its record is not in the copy; WAL brings the transaction), comb_watermark_holders() asked on the
#    standby while in recovery, then the standby promoted: there it holds every W at 1970 until it is
#    rolled back.
#   bash tests/watermark_prepared.sh WORK_DIR   (expects comb_ext installed; port COMB_EXT_TEST_PORT + 40, default 54370)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
source "$REPO/scripts/lib/watermark_families.sh"
WORK=${1:?usage: tests/watermark_prepared.sh WORK_DIR}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 40))
dir="$WORK/cluster"
records="$dir/comb_ext/prepared"

mkdir -p "$WORK"
chown postgres:postgres "$WORK"
cluster_stop "$dir"
rm -rf "$dir"
standby="$WORK/standby"
trap 'cluster_stop "$standby"; cluster_stop "$dir"' EXIT
cluster_start "$dir" "$PORT" "shared_preload_libraries = 'comb_ext'" "max_prepared_transactions = 4" >/dev/null

# The server q (and every helper) talks to: the primary, or the standby in part 4.
on_dir=$dir on_port=$PORT
q() { cluster_psql "$on_dir" "$on_port" -qAt "$@"; }
failures=0
fail() { echo "  FAILED: $*"; failures=$((failures + 1)); }
# check DB LABEL SQL [PSQL_OPTION...]: SQL returns a boolean and a figure; the figure is printed, a false (or
# an error) fails.
check() {
    local out
    if ! out=$(q -d "$1" -F $'\t' "${@:4}" -c "$3" 2>&1); then
        fail "$2: $out"
    elif [ "${out%%$'\t'*}" = t ]; then
        echo "  $2: ${out#*$'\t'}"
    else
        fail "$2: ${out#*$'\t'}"
    fi
}
record_count() { find "$records" -type f 2>/dev/null | wc -l; }
# prepare DB GID: a transaction that makes an id of every family and is prepared as GID; sets
# XID[GID] and ID[GID.family].
declare -A XID=() ID=()
prepare() {
    local out
    out=$(q -d "$1" -F ' ' -c "BEGIN" -c "SELECT txid_current()" \
        -c "SELECT comb_uuid(), sno_new(), muid_new(), uid8_new('time_sequential'::uid8_mode)" -c "PREPARE TRANSACTION '$2'")
    XID[$2]=$(sed -n 1p <<<"$out")
    read -r "ID[$2.comb]" "ID[$2.sno]" "ID[$2.muid]" "ID[$2.uid8]" <<<"$(sed -n 2p <<<"$out")"
}
# held DB GID LABEL [AT_1970]: every W of DB is at or below GID's ids (and at 1970, sno's epoch, if AT_1970).
held() {
    local f at
    for f in "${FAMILIES[@]}"; do
        at="true"
        [ "${4:-}" = at_1970 ] && at="${TIMEFN[$f]}(w) < '2010-01-01 00:00:00.001+00'"
        [ "${4:-}" = by_record ] && at="${TIMEFN[$f]}(w) > '2020-01-01'"
        check "$1" "$3, $f" "SELECT w <= '${ID[$2.$f]}'::${TYPE[$f]} AND $at, format('W %s at %s', w, ${TIMEFN[$f]}(w)) FROM (SELECT ${WFN[$f]} AS w) x"
    done
}
# passed DB GID LABEL: every W of DB is past GID's ids.
passed() {
    local f
    for f in "${FAMILIES[@]}"; do
        check "$1" "$3, $f" "SELECT w > '${ID[$2.$f]}'::${TYPE[$f]}, format('W %s > %s', w, '${ID[$2.$f]}') FROM (SELECT pg_sleep(0.01), ${WFN[$f]} AS w) x"
    done
}
# COMB_EXT_VERSION: the control against an earlier release (CREATE EXTENSION ... VERSION).
q -d postgres -c "CREATE EXTENSION comb_ext${COMB_EXT_VERSION:+ VERSION '$COMB_EXT_VERSION'}" -c "CREATE DATABASE other" \
    -c "CREATE ROLE peer LOGIN" -c "CREATE ROLE stats LOGIN IN ROLE pg_read_all_stats"
q -d other -c "CREATE EXTENSION comb_ext${COMB_EXT_VERSION:+ VERSION '$COMB_EXT_VERSION'}"

say "1. records are bounded: PREPARE / COMMIT PREPARED cycles, a failed PREPARE, a watermark"
for i in $(seq 1 300); do
    printf "BEGIN; SELECT comb_uuid(), sno_new(); PREPARE TRANSACTION 'cycle'; COMMIT PREPARED 'cycle';\n"
done | q -d postgres >/dev/null
count=$(record_count)
[ "$count" -le 4 ] && echo "  300 cycles, no watermark taken: $count records (at most max_prepared_transactions = 4)" ||
    fail "300 cycles, no watermark taken: $count records, more than max_prepared_transactions = 4"
q -d postgres -c "SELECT comb_watermark()" >/dev/null
count=$(record_count)
[ "$count" -eq 0 ] && echo "  after a watermark: $count records" || fail "after a watermark: $count records of ended transactions"
prepare postgres in_use
if q -d postgres -c "BEGIN" -c "SELECT muid_new()" -c "PREPARE TRANSACTION 'in_use'" >/dev/null 2>"$WORK/in_use.err"; then
    fail "PREPARE with a GID in use succeeded"
fi
count=$(record_count)
[ "$count" -eq 1 ] && echo "  a PREPARE that failed ($(grep -o 'ERROR: .*' "$WORK/in_use.err")): $count record, the prepared one's" ||
    fail "after a failed PREPARE: $count records, not 1"
q -d postgres -c "COMMIT PREPARED 'in_use'"

say "2. a transaction prepared in database other holds other's watermarks, not postgres's"
prepare other elsewhere
passed postgres elsewhere "in postgres, W passes other's prepared ids"
check postgres "in postgres, holders" "SELECT count(*) = 0, count(*) || ' rows for it' FROM comb_watermark_holders() WHERE prepared_xid = ${XID[elsewhere]}"
held other elsewhere "in other, W held by its prepared transaction" by_record
check other "in other, holders" "SELECT count(*) = 4, count(*) || ' rows for it' FROM comb_watermark_holders() WHERE prepared_xid = ${XID[elsewhere]}"
# comb_ext_marks()'s prepared rows, filtered as the holders are (0.6.0 at 2e93f6b: every row, times
# included, to anyone in any database).
marks_row="FROM comb_ext_marks() WHERE family = 'prepared' AND file LIKE '%/${XID[elsewhere]}'"
check postgres "comb_ext_marks() to peer, in postgres" "SELECT count(*) = 0, count(*) || ' rows of other''s prepared transaction' $marks_row" -U peer
check other "comb_ext_marks() to peer, in other" "SELECT count(*) = 1 AND bool_and(record IS NULL AND problem IS NULL), count(*) || ' row, record ' || coalesce(min(record)::text, 'NULL') $marks_row" -U peer
check postgres "comb_ext_marks() to a member of pg_read_all_stats, in postgres" "SELECT count(*) = 1 AND bool_and(record[1] > 0), count(*) || ' row, record ' || coalesce(min(record)::text, 'NULL') $marks_row" -U stats
check other "comb_ext_marks() to a superuser, in other" "SELECT count(*) = 1 AND bool_and(record[1] > 0), count(*) || ' row, record ' || coalesce(min(record)::text, 'NULL') $marks_row"

say "3. after a restart: a record deleted, one two days past the clock, one damaged"
for gid in deleted ahead damaged; do prepare postgres "$gid"; done
cluster_stop "$dir"
rm "$records/${XID[deleted]}"
now_us=$(($(date +%s) * 1000000))
printf 'comb %s sno - muid - uid8 -\n' $((now_us + 2 * 86400 * 1000000)) >"$records/${XID[ahead]}"
printf 'comb 12x sno\n' >"$records/${XID[damaged]}"
cluster_start "$dir" "$PORT" >/dev/null
warnings=$(q -d postgres -c "SELECT comb_watermark()" 2>&1 >/dev/null | grep -c "has no valid record" || true)
[ "$warnings" -eq 3 ] && echo "  the first watermark warned of 3 prepared transactions without a valid record" ||
    fail "$warnings warnings of prepared transactions without a valid record, not 3"
for gid in deleted ahead damaged; do
    held postgres "$gid" "held at 1970 with the records of deleted, ahead and damaged gone or refused ($gid's ids)" at_1970
done
held other elsewhere "in other, its record read back after the restart" by_record
check postgres "holders of the three" "SELECT count(*) = 12 AND bool_and(held_since = 'epoch'), format('%s rows, held since %s', count(*), min(held_since)) FROM comb_watermark_holders() WHERE prepared_xid IN (${XID[deleted]}, ${XID[ahead]}, ${XID[damaged]})"
for gid in deleted ahead; do
    q -d postgres -c "ROLLBACK PREPARED '$gid'"
    held postgres damaged "$gid rolled back, damaged still prepared" at_1970
done
q -d postgres -c "ROLLBACK PREPARED 'damaged'"
for gid in deleted ahead damaged; do passed postgres "$gid" "all three rolled back, W passes $gid's ids"; done
q -d other -c "COMMIT PREPARED 'elsewhere'"
passed other elsewhere "in other, committed: W passes its ids"

say "4. a standby promoted with a transaction prepared after its base backup"
cluster_stop "$standby"
rm -rf "$standby"
as_postgres "$PGBIN/pg_basebackup" -h "$dir" -p "$PORT" -U postgres -D "$standby" -R -X stream 2>"$WORK/basebackup.log"
printf "port = %s\nunix_socket_directories = '%s'\n" $((PORT + 1)) "$standby" >>"$standby/postgresql.conf"
cluster_start "$standby" $((PORT + 1)) >/dev/null
prepare postgres after_backup
lsn=$(q -d postgres -c "SELECT pg_current_wal_lsn()")
on_dir=$standby on_port=$((PORT + 1))
# (A standby lists no prepared transaction in pg_prepared_xacts: wait for the replay instead.)
for _ in $(seq 1 100); do
    [ "$(q -d postgres -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ] && break
    sleep 0.1
done
check postgres "standby, in recovery: the PREPARE replayed, holders asked" "SELECT pg_is_in_recovery() AND pg_last_wal_replay_lsn() >= '$lsn' AND NOT EXISTS (SELECT FROM pg_ls_dir('comb_ext/prepared', true, false) f WHERE f = '${XID[after_backup]}'), format('replayed to %s, no record of transaction ${XID[after_backup]}, %s holders shown', pg_last_wal_replay_lsn(), (SELECT count(*) FROM comb_watermark_holders()))"
q -d postgres -c "SELECT pg_promote()" >/dev/null
warnings=$(q -d postgres -c "SELECT comb_watermark()" 2>&1 >/dev/null | grep -c "has no valid record" || true)
[ "$warnings" -eq 1 ] && echo "  promoted: the first watermark warned of after_backup" || fail "promoted: $warnings warnings, not 1"
held postgres after_backup "promoted: held at 1970 by after_backup, prepared after the backup" at_1970
q -d postgres -c "ROLLBACK PREPARED 'after_backup'"
passed postgres after_backup "promoted: after_backup rolled back, W passes its ids"
cluster_stop "$standby"
on_dir=$dir on_port=$PORT
q -d postgres -c "ROLLBACK PREPARED 'after_backup'"
q -d postgres -c "SELECT comb_watermark()" >/dev/null
count=$(record_count)
[ "$count" -eq 0 ] && echo "  records left: $count" || fail "records left: $count"

if [ "$failures" -gt 0 ]; then
    echo "watermark_prepared: $failures FAILED" >&2
    exit 1
fi
echo "watermark_prepared: records bounded, per database, and a prepared transaction without a valid record holds W at 1970 until it ends"
