#!/usr/bin/env bash
# comb_ext's SQL edition (portable/, docs/portable.md) on a throwaway cluster of this major:
#  1. portable/dist/ is what portable/build.py makes of portable/*.sql;
#  2. psql -f install as a role with only CREATE on one schema (no superuser, no CREATE on the
#     database), in a database where no comb_ext library is loaded or declared; every entry of
#     tests/vectors/ for sno, muid and uid8 (tests/portable_ids.py vectors) and for the COMB family
#     (tests/portable_comb_vectors.py), the text forms against Python's base64 and python-ulid
#     (tests/text_forms.py), comb_ext_adopt (tests/portable_adopt.py), and comb_uuid's generator (tests/portable_comb_behaviour.py,
#     with TEMP granted for it); overloads and operators planted in the edition's schema by a role
#     granted CREATE there never run in the edition's place (tests/portable_planting.py, in a
#     database of its own); a second install into the same schema and an
#     install into a schema without CREATE are refused; the uninstall stops while a table uses sno and
#     then removes every object;
#     muid_new, the one generator (docs/portable.md): 8 sessions at once with rollbacks, no value
#     twice; a cancel behind the timeline's lock leaves none; after a crash restart it goes on past
#     every value issued;
#     among roles that do not trust each other (tests/portable_trust.py, issue 31): two installs in one
#     database never issue the same muid, a role with only CONNECT and USAGE cannot stop muid_new by
#     any lock it can name, schema names with "$'\ and schemas where another role can create are
#     refused, the medallion is one per install whatever the session settings, a cancel behind
#     the timeline's table lock leaves none, and with a state schema no CREATE RULE/TRIGGER left
#     waiting stalls muid_new; an install and uninstall with a state schema;
#  3. pg_tle (when its tarball is beside the repo): pgtle.install_extension by a pgtle_admin member
#     that is no superuser, CREATE EXTENSION by a role with only CREATE on one schema, the same
#     vectors, DROP EXTENSION; the name comb_ext
#     itself is refused here (55000), as this server has the compiled edition's control file;
#  4. the differential test against the compiled edition (installed by scripts/test.sh before this
#     runs): random inputs through both, every result and SQLSTATE equal; 100,000 cases per function
#     on 18, 20,000 on the other majors, for sno, muid and uid8 and the COMB family (tests/portable_diff.py).
#   bash tests/portable.sh WORKDIR MAJOR [--quick]   (PGBIN: the major's binaries; port COMB_EXT_TEST_PORT+40)
# --quick is the quick cell, not the full run: 2.'s install by the unprivileged role with its two refusals,
# the vectors (sno, muid, uid8, the COMB family; the text forms on 10,000 ids), comb_ext_adopt, then 4. on a sample of 2,000
# cases per function; it skips (and says so) the shadowing search_path, planting, comb_uuid's generator,
# muid_new's sessions and crash restart, the roles that do not trust each other, the uninstall, and pg_tle (3.).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/common.sh"

take_quick "$@"
set -- "${ARGS[@]}"
WORK=${1:?workdir}
MAJOR=${2:?major}
PORT=$((${COMB_EXT_TEST_PORT:-54330} + 40))
PYTHON=${COMB_EXT_PYTHON:-${COMB_EXT_CACHE:-/var/cache/comb_ext}/venv/bin/python}
CASES=20000 SESSIONS=8 CALLS=2000
[ "$MAJOR" = 18 ] && CASES=100000 CALLS=5000
text_forms_count=()  # tests/text_forms.py's default, 100,000 ids of each kind
if [ "$QUICK" = 1 ]; then
    CASES=2000 text_forms_count=(10000)
    echo "portable --quick: THE QUICK CELL ONLY, not the full run: the SQL edition's install by a role with only CREATE on one schema, its vectors, the text forms on ${text_forms_count[0]} ids, and the differential on $CASES cases per function"
fi
CLUSTER="$WORK/cluster"
started=$(date +%s)
lap() { echo "  ($(($(date +%s) - started)) s so far)"; }

python3 "$REPO/portable/build.py" --check

pgtle=no
if [ "$QUICK" = 1 ]; then
    echo "portable --quick: pg_tle skipped in --quick (not built, not preloaded)"
elif bash "$REPO/scripts/pgtle.sh" available "$MAJOR"; then
    bash "$REPO/scripts/pgtle.sh" build "$MAJOR"
    pgtle=yes
fi

cluster_stop "$CLUSTER"
rm -rf "$CLUSTER"
mkdir -p "$WORK"
chown postgres:postgres "$WORK"
if [ $pgtle = yes ]; then
    cluster_start "$CLUSTER" "$PORT" "shared_preload_libraries = 'pg_tle'"
else
    cluster_start "$CLUSTER" "$PORT"
fi
trap 'cluster_stop "$CLUSTER"' EXIT

admin() { cluster_psql "$CLUSTER" "$PORT" -qAt "$@"; }
# psql as ROLE, no superuser.
as_role() {
    local role=$1
    shift
    "$PGBIN/psql" -X -v ON_ERROR_STOP=1 -h "$CLUSTER" -p "$PORT" -U "$role" -qAt "$@"
}
conninfo() { echo "host=$CLUSTER port=$PORT user=$1 dbname=$2"; }
# expect_error SQLSTATE ROLE DB psql-args...: the command must fail with that SQLSTATE.
expect_error() {
    local code=$1 role=$2 db=$3 out
    shift 3
    if out=$(as_role "$role" -d "$db" -v VERBOSITY=verbose "$@" 2>&1); then
        echo "expected $code, but it succeeded: $*" >&2
        return 1
    fi
    grep -q "ERROR:  $code:" <<<"$out" || { echo "expected $code, got: $out" >&2; return 1; }
    echo "  refused as expected ($code): $(grep -m1 'ERROR:' <<<"$out" | cut -c1-150)"
}

# A database and schema where a role can do nothing but CREATE in one schema.
limited_database() {
    local db=$1 role=$2
    admin -d postgres -c "CREATE DATABASE $db"
    admin -d "$db" -c "REVOKE ALL ON DATABASE $db FROM PUBLIC" -c "GRANT CONNECT ON DATABASE $db TO $role" \
        -c "REVOKE CREATE ON SCHEMA public FROM PUBLIC" \
        -c "CREATE SCHEMA ids" -c "GRANT USAGE, CREATE ON SCHEMA ids TO $role" -c "CREATE SCHEMA other" -c "GRANT USAGE ON SCHEMA other TO $role"
}

# No comb_ext library in the database: no extension, no function from a library named comb_ext.
no_library() {
    local db=$1
    [ "$(admin -d "$db" -c "SELECT (SELECT count(*) FROM pg_catalog.pg_extension WHERE extname = 'comb_ext')
        + (SELECT count(*) FROM pg_catalog.pg_proc WHERE probin LIKE '%comb_ext%')")" = 0 ] ||
        { echo "database $db has comb_ext's library" >&2; return 1; }
    echo "  database $db: no comb_ext extension, no function of a comb_ext library"
}

# The differential test against the compiled edition, $CASES cases per function (the last step; in --quick
# the step after the vectors).
differential() {
    say "[pg$MAJOR portable] differential: $CASES random inputs per function through the compiled and the SQL edition, results and SQLSTATEs"
    admin -d postgres -c "CREATE DATABASE diff"
    admin -d diff -c "CREATE SCHEMA compiled" -c "CREATE EXTENSION comb_ext SCHEMA compiled" -c "CREATE SCHEMA ids"
    cluster_psql "$CLUSTER" "$PORT" -qAt -d diff -c 'SET search_path = ids' -f "$REPO/portable/dist/comb_ext_install.sql"
    "$PYTHON" "$REPO/tests/portable_ids.py" diff "$(conninfo postgres diff)" compiled ids "$CASES"
    "$PYTHON" "$REPO/tests/portable_diff.py" "$(conninfo postgres diff)" compiled ids "$CASES"
    # The key functions both editions have for SQL Server and binary order, on random uuids and NULL.
    differ=$(admin -d diff -c "SELECT count(*) FROM (SELECT pg_catalog.gen_random_uuid() AS u FROM pg_catalog.generate_series(1, $CASES)
        UNION ALL SELECT NULL) AS s WHERE compiled.uuid_sqlserver_key(u) IS DISTINCT FROM ids.uuid_sqlserver_key(u)
        OR compiled.uuid_binary_key(u) IS DISTINCT FROM ids.uuid_binary_key(u)")
    [ "$differ" = 0 ] || { echo "  FAILED: uuid_sqlserver_key/uuid_binary_key differ between the editions for $differ of $CASES uuids" >&2; exit 1; }
    echo "  uuid_sqlserver_key, uuid_binary_key: $CASES random uuids and NULL, 0 differences"
    lap
}

say "[pg$MAJOR portable] psql -f install as a role with only CREATE on schema ids, in a database without comb_ext's library"
admin -d postgres -c "CREATE ROLE portable_user LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE"
limited_database portable portable_user
no_library portable
as_role portable_user -d portable -c 'SET search_path = ids' -f "$REPO/portable/dist/comb_ext_install.sql"
[ "$(admin -d portable -c "SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = 'portable_user'")" = f ]
expect_error 42710 portable_user portable -c 'SET search_path = ids' -f "$REPO/portable/dist/comb_ext_install.sql"
expect_error 42501 portable_user portable -c 'SET search_path = other' -f "$REPO/portable/dist/comb_ext_install.sql"
lap

say "[pg$MAJOR portable] tests/vectors (sno, muid, uid8) against the SQL edition"
# The installing role had only CREATE on ids; the checks below make temporary tables and functions,
# so TEMP from here to the end of the generator's checks.
admin -d portable -c "GRANT TEMP ON DATABASE portable TO portable_user"
"$PYTHON" "$REPO/tests/portable_ids.py" vectors "$(conninfo portable_user portable)" ids
"$PYTHON" "$REPO/tests/portable_comb_vectors.py" "$(conninfo portable_user portable)" ids
# The text forms against Python's base64 and python-ulid, their order, every bad character at every position.
"$PYTHON" "$REPO/tests/text_forms.py" "$(conninfo portable_user portable)" ids "${text_forms_count[@]}"
# comb_ext_adopt, the compiled edition's own function: COMB and muid adopted, uid8 and sno refused (0A000).
"$PYTHON" "$REPO/tests/portable_adopt.py" "$(conninfo portable_user portable)" ids
if [ "$QUICK" = 1 ]; then
    lap
    say "[pg$MAJOR portable] skipped in --quick: the vectors under a shadowing search_path, planting, comb_uuid's generator, muid_new (sessions, cancel, crash restart), trust (roles that do not trust each other), uninstall, pg_tle"
    differential
    cluster_stop "$CLUSTER"
    echo "portable --quick: passed in $(($(date +%s) - started)) s (the quick cell only: install, vectors, differential on $CASES cases)"
    exit 0
fi
# The bodies name built-in functions pg_catalog.name: a schema that shadows them, ahead of pg_catalog
# in the caller's search_path, changes nothing.
admin -d portable -c "CREATE SCHEMA shadow" -c "GRANT USAGE ON SCHEMA shadow TO portable_user" -f - <<'SQL'
CREATE FUNCTION shadow.substr(text, integer, integer) RETURNS text LANGUAGE sql AS $$ SELECT text 'z' $$;
CREATE FUNCTION shadow.substr(bytea, integer) RETURNS bytea LANGUAGE sql AS $$ SELECT bytea '\x00' $$;
CREATE FUNCTION shadow.ascii(text) RETURNS integer LANGUAGE sql AS $$ SELECT 0 $$;
CREATE FUNCTION shadow.replace(text, text, text) RETURNS text LANGUAGE sql AS $$ SELECT text 'z' $$;
CREATE FUNCTION shadow.encode(bytea, text) RETURNS text LANGUAGE sql AS $$ SELECT text '00' $$;
CREATE FUNCTION shadow.int8send(bigint) RETURNS bytea LANGUAGE sql AS $$ SELECT bytea '\x00' $$;
CREATE FUNCTION shadow.lpad(text, integer, text) RETURNS text LANGUAGE sql AS $$ SELECT text 'z' $$;
CREATE FUNCTION shadow.to_hex(bigint) RETURNS text LANGUAGE sql AS $$ SELECT text 'z' $$;
CREATE FUNCTION shadow.upper(text) RETURNS text LANGUAGE sql AS $$ SELECT text 'z' $$;
CREATE FUNCTION shadow.length(bytea) RETURNS integer LANGUAGE sql AS $$ SELECT 0 $$;
-- What comb_uuid()'s inlined body calls.
CREATE FUNCTION shadow.overlay(bit, bit, integer, integer) RETURNS bit LANGUAGE sql AS $$ SELECT B'0' $$;
CREATE FUNCTION shadow.substring(bytea, integer) RETURNS bytea LANGUAGE sql AS $$ SELECT bytea '\x00' $$;
CREATE FUNCTION shadow.uuid_send(uuid) RETURNS bytea LANGUAGE sql AS $$ SELECT bytea '\x00' $$;
CREATE FUNCTION shadow.gen_random_uuid() RETURNS uuid LANGUAGE sql AS $$ SELECT uuid '00000000-0000-4000-8000-000000000000' $$;
CREATE FUNCTION shadow.clock_timestamp() RETURNS timestamptz LANGUAGE sql AS $$ SELECT timestamptz '2001-01-01 00:00+00' $$;
CREATE FUNCTION shadow.timestamptz_send(timestamptz) RETURNS bytea LANGUAGE sql AS $$ SELECT bytea '\x00' $$;
CREATE FUNCTION shadow.div(numeric, numeric) RETURNS numeric LANGUAGE sql AS $$ SELECT 0::numeric $$;
CREATE FUNCTION shadow.set_config(text, text, boolean) RETURNS text LANGUAGE sql AS $$ SELECT text '0' $$;
CREATE FUNCTION shadow.current_setting(text, boolean) RETURNS text LANGUAGE sql AS $$ SELECT text '0' $$;
SQL
echo "  again with search_path = shadow, pg_catalog, ids (shadow has its own substr, ascii, replace, encode, int8send, lpad, to_hex, upper, length, overlay, substring, uuid_send, gen_random_uuid, clock_timestamp, timestamptz_send, div, set_config, current_setting)"
"$PYTHON" "$REPO/tests/portable_ids.py" vectors "$(conninfo portable_user portable)" "shadow, pg_catalog, ids"
# comb_uuid() is inlined, so its body is parsed in the caller's search_path. Under the shadowing one,
# 1000 values from the clock must be distinct with distinct random tails, increasing, version 4
# variant 10, and hold the time they were made; then 1000 more from a session state set at
# 2100-01-01 00:00 UTC (position 4102444800000 * 4096) must go on from it, one counter step each.
comb_check="(pg_catalog.count(DISTINCT id) OPERATOR(pg_catalog.=) 1000)
       AND (pg_catalog.count(DISTINCT pg_catalog.substr(id::text, 20, 17)) OPERATOR(pg_catalog.=) 1000)
       AND pg_catalog.bool_and((pg_catalog.substr(id::text, 15, 1) OPERATOR(pg_catalog.=) '4')
                               AND (pg_catalog.substr(id::text, 20, 1) OPERATOR(pg_catalog.=) ANY ('{8,9,a,b}')))
       AND pg_catalog.bool_and(nxt IS NULL OR (id OPERATOR(pg_catalog.<) nxt))"
comb_made="FROM (SELECT id, pg_catalog.lead(id) OVER (ORDER BY n) AS nxt
          FROM (SELECT n, comb_uuid() AS id FROM pg_catalog.generate_series(1, 1000) n) made) g"
shadowed=$(as_role portable_user -d portable -c "SET search_path = shadow, pg_catalog, ids" -c "
    SELECT $comb_check
       AND pg_catalog.bool_and((ids.comb_timestamp(id) OPERATOR(pg_catalog.>=) (pg_catalog.now() OPERATOR(pg_catalog.-) interval '1 minute'))
                               AND (ids.comb_timestamp(id) OPERATOR(pg_catalog.<=) (pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) interval '1 minute')))
    $comb_made" -c "SELECT pg_catalog.set_config('comb_portable.next_postgresql', '16803613900800000', false) IS NULL" -c "
    SELECT $comb_check
       AND pg_catalog.bool_and(ids.comb_timestamp(id) OPERATOR(pg_catalog.=) timestamptz '2100-01-01 00:00+00')
       AND (pg_catalog.current_setting('comb_portable.next_postgresql') OPERATOR(pg_catalog.=) '16803613900801000')
    $comb_made")
[ "$shadowed" = "$(printf 't\nf\nt')" ] || { echo "  FAILED: comb_uuid() under search_path = shadow, pg_catalog, ids: values not as the edition makes them ($shadowed)" >&2; exit 1; }
echo "  comb_uuid() under that search_path: 1000 values from the clock and 1000 from a session state, distinct, increasing, version 4 variant 10, random tails, holding their time"
admin -d portable -c "DROP SCHEMA shadow CASCADE" 2>/dev/null
lap

say "[pg$MAJOR portable] overloads and operators planted in the edition's schema by a role granted CREATE there after the install: none runs"
# Its own database: it makes roles planting_owner/planter/caller, installs as the first, grants
# CREATE to the second, plants overloads of every function and operators on the edition's and the
# base types (from the catalog), then calls every public function and the vectors (tests/portable_planting.py).
admin -d postgres -c "CREATE DATABASE planting"
"$PYTHON" "$REPO/tests/portable_planting.py" "$(conninfo postgres planting)" ids --install "$REPO/portable/dist/comb_ext_install.sql"
admin -d postgres -c "DROP DATABASE planting"
lap

say "[pg$MAJOR portable] comb_uuid's generator as the installing role: order, sub-millisecond fraction, session state, clock step back, EXPLAIN of comb_in_range and the SQL Server key"
"$PYTHON" "$REPO/tests/portable_comb_behaviour.py" "$(conninfo portable_user portable)" ids
admin -d portable -c "REVOKE TEMP ON DATABASE portable FROM portable_user"
lap

say "[pg$MAJOR portable] muid_new: $SESSIONS sessions at once, a cancel behind the timeline's lock, a timeline ahead of the clock, a crash restart"
admin -d postgres -c "CREATE ROLE portable_app LOGIN NOSUPERUSER"
admin -d portable -c "GRANT CONNECT ON DATABASE portable TO portable_app" -c "GRANT USAGE ON SCHEMA ids TO portable_app"
# Another role calls it with no privilege on the timeline (muid_new is SECURITY DEFINER) and cannot move it.
expect_error 42501 portable_app portable -c "SELECT pg_catalog.setval('ids._muid_timeline', 1)"
out=$("$PYTHON" "$REPO/tests/portable_ids.py" generator "$(conninfo portable_app portable)" "$(conninfo portable_user portable)" ids "$SESSIONS" "$CALLS") ||
    { echo "$out"; exit 1; }
echo "$out"
highest=$(sed -n 's/^  highest timestamp issued: //p' <<<"$out")
as_postgres "$PGBIN/pg_ctl" -D "$CLUSTER" -m immediate -w stop >/dev/null
cluster_start "$CLUSTER" "$PORT"
"$PYTHON" "$REPO/tests/portable_ids.py" timeline "$(conninfo portable_user portable)" ids "$highest"
lap

say "[pg$MAJOR portable] roles that do not trust each other (issue 31): two installs in one database, a CONNECT-only role's locks, quote characters in schema names, another role's CREATE, the medallion, a cancel behind the table lock, a CREATE RULE/TRIGGER left waiting"
# Its own roles trust_* and database trust_db, dropped at the end (tests/portable_trust.py).
trust_args=()
[ $pgtle = yes ] && trust_args=(--pgtle "$REPO/portable/dist/comb_ext_pgtle.sql")  # CREATE EXTENSION's refusals too
"$PYTHON" "$REPO/tests/portable_trust.py" "$(conninfo postgres postgres)" "$REPO/portable/dist/comb_ext_install.sql" "${trust_args[@]}"
lap

say "[pg$MAJOR portable] uninstall: refused while a table uses sno, then every object gone"
as_role portable_user -d portable -c "CREATE TABLE ids.keep (id ids.sno, mode ids.uid8_mode)"
expect_error 2BP01 portable_user portable -c 'SET search_path = ids' -f "$REPO/portable/dist/comb_ext_uninstall.sql"
as_role portable_user -d portable -c "DROP TABLE ids.keep"
as_role portable_user -d portable -c 'SET search_path = ids' -f "$REPO/portable/dist/comb_ext_uninstall.sql"
left=$(admin -d portable -c "SELECT (SELECT count(*) FROM pg_catalog.pg_proc WHERE pronamespace = 'ids'::regnamespace)
    + (SELECT count(*) FROM pg_catalog.pg_type WHERE typnamespace = 'ids'::regnamespace)
    + (SELECT count(*) FROM pg_catalog.pg_class WHERE relnamespace = 'ids'::regnamespace)")
[ "$left" = 0 ] || { echo "uninstall left $left objects in schema ids" >&2; exit 1; }
echo "  schema ids is empty again"
# With a state schema (comb_ext_install.state_schema): muid_new's relations there, and the
# uninstaller, given the same setting, removes them too.
admin -d portable -c "CREATE SCHEMA ids_state" -c "GRANT USAGE, CREATE ON SCHEMA ids_state TO portable_user"
as_role portable_user -d portable -c 'SET search_path = ids' -c 'SET comb_ext_install.state_schema = ids_state' -f "$REPO/portable/dist/comb_ext_install.sql"
placed=$(admin -d portable -c "SELECT pg_catalog.string_agg(c.relnamespace::regnamespace || '.' || c.relname, ' ' ORDER BY c.relname)
    FROM pg_catalog.pg_class AS c WHERE c.relnamespace IN ('ids'::regnamespace, 'ids_state'::regnamespace)")
[ "$placed" = "ids_state._muid_state ids_state._muid_state_pkey ids_state._muid_timeline" ] ||
    { echo "  FAILED: with state schema ids_state the relations are: $placed" >&2; exit 1; }
[ -n "$(as_role portable_user -d portable -c 'SELECT ids.muid_new()')" ]
as_role portable_user -d portable -c 'SET search_path = ids' -c 'SET comb_ext_install.state_schema = ids_state' -f "$REPO/portable/dist/comb_ext_uninstall.sql"
left=$(admin -d portable -c "SELECT (SELECT count(*) FROM pg_catalog.pg_proc WHERE pronamespace = 'ids'::regnamespace)
    + (SELECT count(*) FROM pg_catalog.pg_class WHERE relnamespace IN ('ids'::regnamespace, 'ids_state'::regnamespace))")
[ "$left" = 0 ] || { echo "uninstall with a state schema left $left objects" >&2; exit 1; }
echo "  with comb_ext_install.state_schema = ids_state: muid_new's three relations there, none in ids; uninstalled, both empty"
lap

if [ $pgtle = yes ]; then
    say "[pg$MAJOR portable] pg_tle: install_extension by a pgtle_admin member (no superuser), CREATE EXTENSION by a role with only CREATE on schema ids"
    admin -d postgres -c "CREATE ROLE portable_tle LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE" \
        -c "CREATE ROLE portable_tle_admin LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE"
    limited_database tle portable_tle
    admin -d tle -c "CREATE EXTENSION pg_tle" -c "GRANT pgtle_admin TO portable_tle_admin" -c "GRANT CONNECT ON DATABASE tle TO portable_tle_admin"
    no_library tle
    if [ -f "$("$PGBIN/pg_config" --sharedir)/extension/comb_ext.control" ]; then
        expect_error 55000 portable_tle_admin tle -f "$REPO/portable/dist/comb_ext_pgtle.sql"
    fi
    as_role portable_tle_admin -d tle -c "SET comb_ext_install.extension_name = 'comb_ext_portable'" -f "$REPO/portable/dist/comb_ext_pgtle.sql"
    as_role portable_tle -d tle -c "CREATE EXTENSION comb_ext_portable SCHEMA ids"
    admin -d tle -c "GRANT TEMP ON DATABASE tle TO portable_tle"  # for the checks' temporary tables
    "$PYTHON" "$REPO/tests/portable_ids.py" vectors "$(conninfo portable_tle tle)" ids
    "$PYTHON" "$REPO/tests/portable_comb_vectors.py" "$(conninfo portable_tle tle)" ids
    as_role portable_tle -d tle -c "DROP EXTENSION comb_ext_portable"
    as_role portable_tle_admin -d tle -c "SELECT pgtle.uninstall_extension('comb_ext_portable')" >/dev/null
    lap
else
    say "[pg$MAJOR portable] pg_tle: not run (no ../shared/third_party/pg_tle-*.tar.gz, or no PostgreSQL $MAJOR build)"
fi

differential

cluster_stop "$CLUSTER"
echo "portable: passed in $(($(date +%s) - started)) s"
