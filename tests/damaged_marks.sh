#!/usr/bin/env bash
# Marks on disk that are damaged but still parse, or that a clock far ahead wrote, are refused
# (this version's files, comb_ext/sno.mark and the others, and 0.4.0's, comb_ext/sno and the others,
# which a start after an upgrade folds in): sno_new, muid_new and uid8_new fail with XX001 naming
# the file and the value, issue nothing,
# leave the file as it is, and do not spin (every call returns at once, and the backends use no
# CPU to speak of). Removing the file, the documented recovery, makes the generator work again.
#   bash tests/damaged_marks.sh WORK_DIR    (expects comb_ext installed; port COMB_EXT_TEST_PORT + 20, default 54350)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"
DIR=$1
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 20))
cluster_stop "$DIR"
rm -rf "$DIR"
trap 'cluster_stop "$DIR"' EXIT
cluster_start "$DIR" "$PORT" "shared_preload_libraries = 'comb_ext'"
sql() { cluster_psql "$DIR" "$PORT" -d postgres -qAt "$@"; }
sql -c "CREATE EXTENSION comb_ext"

now_us=$(($(date +%s%N) / 1000))
day_us=86400000000
# Each family's unit: sno counts 4 ms units since 2010-01-01, muid µs, uid8 ms since 1970.
sno_units() { echo $(((${1} - 1262304000000000) / 4000)); }
in_2100_us=4102444800000000
cases=(
    "reservation 0|sno 0 0 0|muid 0|uid8 -1"
    "negative|sno -5 0 0|muid -5|uid8 -5"
    "i64::MIN|sno -9223372036854775808 0 0|muid -9223372036854775808|uid8 -9223372036854775808"
    "i64::MAX|sno 9223372036854775807 0 0|muid 9223372036854775807|uid8 9223372036854775807"
    "in 2100|sno $(sno_units $in_2100_us) 0 0|muid $in_2100_us|uid8 $((in_2100_us / 1000))"
    "two days ahead|sno $(sno_units $((now_us + 2 * day_us))) 0 0|muid $((now_us + 2 * day_us))|uid8 $(((now_us + 2 * day_us) / 1000))"
    "sno wall_safe -1|sno $(sno_units "$now_us") -1 0|-|-"
    "sno drifts past 32 bits|sno $(sno_units "$now_us") 0 4294967296|-|-"
    "not a mark|sno 1 2|muid x|uid8 1 2"
    "dangling symbolic link|link|link|link"
    "symbolic link to /dev/zero (read without a bound, it filled the backend's memory)|devzero|devzero|devzero"
    "symbolic link to a valid mark|goodlink|goodlink|goodlink"
    "FIFO (opened without O_NONBLOCK, it held every caller)|fifo|fifo|fifo"
    "8 KiB of text|big|big|big"
    "0.4.0's file two days ahead|sno $(sno_units $((now_us + 2 * day_us))) 0 0|muid $((now_us + 2 * day_us))|uid8 $(((now_us + 2 * day_us) / 1000))|legacy"
)
# A file's text if it is a regular file (cat would block on a FIFO and never end on /dev/zero).
regular_text() { if [ -f "$1" ] && [ ! -p "$1" ] && [ "$(readlink -f "$1")" != /dev/zero ]; then cat "$1"; fi; }
declare -A generator=([sno]="sno_new()" [muid]="muid_new()" [uid8]="uid8_new()") marks=()
failures=0
# A case names each family's mark, or - for a family it leaves without one (not checked), and
# "legacy" if the marks are 0.4.0's files.
for case in "${cases[@]}"; do
    IFS='|' read -r name marks[sno] marks[muid] marks[uid8] legacy <<<"$case"
    suffix=.mark
    [ "$legacy" = legacy ] && suffix=
    cluster_stop "$DIR"
    mkdir -p "$DIR/comb_ext"
    for family in sno muid uid8; do
        file="$DIR/comb_ext/$family$suffix"
        rm -f "$DIR/comb_ext/$family" "$DIR/comb_ext/$family.mark" "$DIR/comb_ext/$family.target"
        if [ "${marks[$family]}" = - ]; then
            continue
        elif [ "${marks[$family]}" = link ]; then
            ln -s "$DIR/comb_ext/$family.gone" "$file"
        elif [ "${marks[$family]}" = devzero ]; then
            ln -s /dev/zero "$file"
        elif [ "${marks[$family]}" = goodlink ]; then
            printf '%s high-water v1 %s\n' "$family" "$([ "$family" = sno ] && echo "$(sno_units "$now_us") 0 0" || echo 1)" \
                >"$DIR/comb_ext/$family.target"
            ln -s "$DIR/comb_ext/$family.target" "$file"
        elif [ "${marks[$family]}" = fifo ]; then
            mkfifo "$file"
        elif [ "${marks[$family]}" = big ]; then
            { printf '%s high-water v1 1\n' "$family"; head -c 8192 /dev/zero | tr '\0' ' '; } >"$file"
        else
            values="${marks[$family]#"$family "}"
            printf '%s high-water v1 %s\n' "$family" "$values" >"$file"
        fi
    done
    chown -hR postgres:postgres "$DIR/comb_ext"
    cluster_start "$DIR" "$PORT"
    refused=()
    for family in sno muid uid8; do
        [ "${marks[$family]}" != - ] || continue
        refused+=("${generator[$family]}")
        before=$(ls -l "$DIR/comb_ext/$family$suffix"; regular_text "$DIR/comb_ext/$family$suffix")
        started=$(date +%s%N)
        # Three calls in one session: each fails the same way (the mark stays unresumed).
        out=$(sql -v ON_ERROR_STOP=0 -c "\\set VERBOSITY verbose" -c "SELECT ${generator[$family]}" \
            -c "SELECT ${generator[$family]}" -c "SELECT ${generator[$family]}" 2>&1 || true)
        ms=$((($(date +%s%N) - started) / 1000000))
        after=$(ls -l "$DIR/comb_ext/$family$suffix"; regular_text "$DIR/comb_ext/$family$suffix")
        errors=$(grep -c "ERROR:  XX001: .*comb_ext/$family$suffix " <<<"$out" || true)
        if [ "$errors" != 3 ] || [ "$before" != "$after" ] || [ "$ms" -gt 3000 ]; then
            echo "damaged marks: $name, $family: $errors of 3 calls failed with XX001 naming the file in $ms ms; file unchanged: $([ "$before" = "$after" ] && echo yes || echo no)" >&2
            echo "$out" >&2
            failures=$((failures + 1))
        fi
    done
    echo "damaged marks: $name: refused by ${refused[*]}, e.g. $(grep -m1 -o 'ERROR:  XX001: .*' <<<"$out" | cut -c1-160)"
done

# No spin: 10 s of calls, 10 ms apart, against a wall_safe of -1 (which once made sno_new spin at
# 93% of a CPU until comb_ext.max_clock_wait): every call is refused at once, and the backend's
# CPU time (from /proc) stays small.
cluster_stop "$DIR"
find "$DIR/comb_ext" -mindepth 1 -maxdepth 1 ! -name identity -exec rm -rf {} +  # the marks, not the identity record
printf 'sno high-water v1 %s -1 0\n' "$(sno_units "$now_us")" >"$DIR/comb_ext/sno.mark"
chown -hR postgres:postgres "$DIR/comb_ext"
cluster_start "$DIR" "$PORT"
PGAPPNAME=spin_check sql >"$DIR/spin.out" 2>&1 <<'SQL' &
CREATE TEMP TABLE t (started timestamptz, refused int);
INSERT INTO t VALUES (clock_timestamp(), 0);
DO $$
BEGIN
    WHILE clock_timestamp() < (SELECT started FROM t) + interval '10 s' LOOP
        BEGIN
            PERFORM sno_new();
            RAISE EXCEPTION 'issued a value';
        EXCEPTION WHEN data_corrupted THEN
            UPDATE t SET refused = refused + 1;
        END;
        PERFORM pg_sleep(0.01);
    END LOOP;
END $$;
SELECT refused FROM t;
SQL
sleep 1
backend=$(sql -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'spin_check'")
[ -n "$backend" ] || { cat "$DIR/spin.out" >&2; echo "damaged marks: the calling session ended early" >&2; exit 1; }
ticks_before=$(awk '{print $14 + $15}' "/proc/$backend/stat")
sleep 8
ticks_after=$(awk '{print $14 + $15}' "/proc/$backend/stat")
wait
refused=$(tail -n1 "$DIR/spin.out")
cpu_share=$(((ticks_after - ticks_before) * 100 / ($(getconf CLK_TCK) * 8)))
echo "damaged marks: sno with wall_safe -1: $refused calls in 10 s, each refused at once; the calling backend used ${cpu_share}% of a CPU"
[ "$refused" -gt 100 ] 2>/dev/null || { cat "$DIR/spin.out" >&2; echo "damaged marks: too few refusals in 10 s" >&2; failures=$((failures + 1)); }
[ "$cpu_share" -lt 50 ] || { echo "damaged marks: the backend used ${cpu_share}% of a CPU" >&2; failures=$((failures + 1)); }
grep -q -- ' -1 0$' "$DIR/comb_ext/sno.mark" || { echo "damaged marks: the sno mark was rewritten" >&2; failures=$((failures + 1)); }

# The documented recovery: with the file removed (no stored value can repeat here), it works.
cluster_stop "$DIR"
rm -f "$DIR/comb_ext/sno.mark"
cluster_start "$DIR" "$PORT"
sql -c "SELECT sno_new() IS NOT NULL AND muid_new() IS NOT NULL AND uid8_new() IS NOT NULL" | grep -qx t ||
    { echo "damaged marks: generators fail after the marks were removed" >&2; failures=$((failures + 1)); }
[ "$failures" -eq 0 ] || { echo "damaged marks: $failures failures" >&2; exit 1; }
echo "damaged marks: passed"
