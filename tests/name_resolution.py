"""No call written with literals resolves to a function outside the extension (docs/guarantees.md#names-on-the-search_path).

Generated from the catalog, not from a list: every function of the extension that SQL can call with
literals (no pseudo-type argument or result), at every number of arguments its defaults allow, and
every non-empty set of its arguments written as literals (a quoted literal; a bare integer for
integer arguments; true for booleans), the other arguments typed casts. For each such call it plants
the overload that call would prefer: the literal positions as text (the preferred type of an
untyped literal), and for integer positions double precision or numeric (the numeric category's
preferred type, and numeric). Each plant is made by an unprivileged role, once in a schema after the
extension's on the search_path and once in the extension's own schema, and the call is made by a
superuser and, as that role, through a superuser's SECURITY DEFINER wrapper. A planted function
raises an error carrying a token; the call must not raise it, and must give what the same call gives
with nothing planted and only the extension's schema on the path (the same value, or the same
error; for volatile functions, the same SQLSTATE or a value).

The control, in a database whose extension lacks the overloads and text twins (dropped), must see
planted functions run: the check can fail.

    python tests/name_resolution.py HOST PORT
"""

import itertools
import sys

import psycopg
from psycopg import sql

TOKEN = "planted-function-ran-7f3a"
ROLE = "name_resolution_attacker"
MARKER = "For untyped literals: "

# A valid value for each argument type, as text, and how a literal of it is written.
VALUES = {
    "uuid": "018cc820-db2e-4000-9318-2b65fb840cd1",
    "timestamptz": "2024-01-02 03:04:05.678+00",
    "bytea": "\\x0102030405060708090a",
    "text": None,  # by function: see text_value
    "int2": "1",
    "int4": "1",
    "int8": "1",
    "bool": "true",
}
INTEGER_TYPES = {"int2", "int4", "int8"}


def connect(host, port, dbname):
    return psycopg.connect(host=host, port=port, user="postgres", dbname=dbname, autocommit=True)


def setup(admin, host, port, dbname, control):
    admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(dbname)))
    admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    conn = connect(host, port, dbname)
    conn.execute("CREATE SCHEMA ids")
    conn.execute("CREATE EXTENSION comb_ext SCHEMA ids")
    conn.execute(f"GRANT CREATE, USAGE ON SCHEMA ids TO {ROLE}")
    conn.execute(f"CREATE SCHEMA att AUTHORIZATION {ROLE}")
    if control:
        # 0.5.0's catalog: no text twins of the enum functions, no overloads for literals.
        extras = conn.execute(
            """SELECT p.oid::regprocedure::text FROM pg_proc p
               JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
               JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
               WHERE starts_with(coalesce(obj_description(p.oid, 'pg_proc'), ''), %s)
                  OR (p.prosrc LIKE '%%\\_named\\_wrapper' AND p.prosrc <> 'comb_uuid_named_wrapper')""",
            (MARKER,),
        ).fetchall()
        assert len(extras) > 50, extras
        conn.execute("SET search_path = ids")
        for (signature,) in extras:
            conn.execute(f"ALTER EXTENSION comb_ext DROP FUNCTION {signature}")
            conn.execute(f"DROP FUNCTION {signature}")
        conn.execute("RESET search_path")
    return conn


def catalog(conn):
    """(name, [type names], [type schema], nargs, ndefaults, volatile, arg type categories) of every function."""
    return conn.execute(
        """SELECT p.proname, array_agg(t.typname ORDER BY a.n), array_agg(tn.nspname ORDER BY a.n),
                  p.pronargs, p.pronargdefaults, p.provolatile <> 'i', array_agg(t.typtype ORDER BY a.n)
           FROM pg_proc p
           JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
           JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
           CROSS JOIN LATERAL unnest(p.proargtypes) WITH ORDINALITY AS a(t, n)
           JOIN pg_type t ON t.oid = a.t JOIN pg_namespace tn ON tn.oid = t.typnamespace
           WHERE p.prokind = 'f' AND NOT p.proretset
             AND NOT starts_with(coalesce(obj_description(p.oid, 'pg_proc'), ''), %s)
             AND NOT EXISTS (SELECT FROM pg_type r WHERE r.typtype = 'p'
                             AND (r.oid = ANY (p.proargtypes::oid[]) OR r.oid = p.prorettype))
           GROUP BY p.oid, p.proname, p.pronargs, p.pronargdefaults, p.provolatile ORDER BY p.oid""",
        (MARKER,),
    ).fetchall()


# Text arguments of the text forms (docs/ids-that-do-not-tell-their-age.md), by function and position.
TEXT_FORM_VALUES = {
    ("comb_text", 1): "crockford",
    ("comb_parse", 0): "01HK421PSEE009661BCQXR836H",
    ("comb_parse", 1): "crockford",
    ("typeid_text", 1): "order",
    ("typeid_parse", 0): "order_01hk421psee009661bcqxr836h",
    ("typeid_parse", 1): "order",
    ("typeid_prefix", 0): "order_01hk421psee009661bcqxr836h",
    ("uid8_parse", 0): "8000000000001",
}


def value_of(conn, name, typname, typtype, typschema, position):
    if typtype == "e":
        labels = conn.execute(f"SELECT enum_range(NULL::{typschema}.{typname})::text[]").fetchone()[0]
        return "time_sequential" if "time_sequential" in labels else labels[0]
    if typname == "sno":
        return conn.execute("SELECT ids.sno_floor('2024-01-02 03:04:05+00'::timestamptz)::text").fetchone()[0]
    if typname == "text":
        if (name, position) in TEXT_FORM_VALUES:
            return TEXT_FORM_VALUES[(name, position)]
        if name == "comb_uuid":
            return "postgresql"
        if name == "muid_parse":
            return conn.execute("SELECT ids.muid_text(ids.muid_pack(1700000000000000, 5))").fetchone()[0]
        return "time_sequential" if name.startswith("uid8") else "postgresql"
    return VALUES[typname]


def literal(value, typname):
    if typname in INTEGER_TYPES or typname == "bool":
        return value
    return "'" + value.replace("'", "''") + "'"


def typed(value, typname, typschema):
    return f"CAST({literal(value, 'text')} AS {typschema}.{typname})"


def outcome(conn, query):
    try:
        row = conn.execute(query).fetchone()
        return ("value", None if row[0] is None else str(row[0]))
    except psycopg.Error as e:
        return ("error", e.sqlstate, e.diag.message_primary)


def run(host, port, dbname, control):
    admin = connect(host, port, "postgres")
    for leftover in ("name_resolution", "name_resolution_control"):  # from an interrupted run
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(leftover)))
    admin.execute(f"DROP ROLE IF EXISTS {ROLE}")
    admin.execute(f"CREATE ROLE {ROLE} LOGIN")
    conn = setup(admin, host, port, dbname, control)
    functions = catalog(conn)
    stats = dict(functions=len(functions), arguments=0, calls=0, plants=0, blocked=0, compared=0)
    failures = []
    for name, types, schemas, nargs, ndefaults, volatile, typtypes in functions:
        values = [value_of(conn, name, t, k, s, i) for i, (t, k, s) in enumerate(zip(types, typtypes, schemas))]
        stats["arguments"] += nargs
        for arity in range(max(1, nargs - ndefaults), nargs + 1):
            for count in range(1, arity + 1):
                for literals in itertools.combinations(range(arity), count):
                    args = [
                        literal(values[i], types[i]) if i in literals else typed(values[i], types[i], schemas[i])
                        for i in range(arity)
                    ]
                    call = f"{name}({', '.join(args)})"
                    # What the call gives with nothing planted and only the extension's schema on the path.
                    conn.execute("SET search_path = ids")
                    baseline = outcome(conn, f"SELECT ({call})::text")
                    conn.execute("RESET search_path")
                    integer_plants = ["float8", "numeric"] if any(types[i] in INTEGER_TYPES for i in literals) else [None]
                    for integer_plant in integer_plants:
                        plant_types = [
                            ("pg_catalog." + integer_plant if types[i] in INTEGER_TYPES else "pg_catalog.text")
                            if i in literals
                            else f"{schemas[i]}.{types[i]}"
                            for i in range(arity)
                        ]
                        for schema in ("att", "ids"):
                            stats["plants"] += 1
                            planted = plant(conn, schema, name, plant_types)
                            if not planted:
                                stats["blocked"] += 1
                            for caller in ("superuser", "definer"):
                                stats["calls"] += 1
                                got = call_as(conn, caller, call)
                                where = f"{caller}: {call} with {schema}.{name}({', '.join(plant_types)}) planted"
                                if got[0] == "error" and TOKEN in (got[2] or ""):
                                    failures.append(f"planted function ran: {where}")
                                elif not volatile:
                                    stats["compared"] += 1
                                    if got != baseline:
                                        failures.append(f"{where}: got {got}, with nothing planted {baseline}")
                                elif got[0] == "error" and got[1] != baseline[1]:
                                    failures.append(f"{where}: got {got}, with nothing planted {baseline}")
                            if planted:
                                conn.execute(f"SET ROLE {ROLE}")
                                conn.execute(f"DROP FUNCTION {schema}.{name}({', '.join(plant_types)})")
                                conn.execute("RESET ROLE")
    conn.close()
    admin.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(dbname)))
    admin.close()
    return stats, failures


def plant(conn, schema, name, plant_types):
    """The overload an attacker would plant; False when the extension already holds that signature there."""
    params = ", ".join(f"a{i} {t}" for i, t in enumerate(plant_types))
    conn.execute(f"SET ROLE {ROLE}")
    try:
        conn.execute(
            f"CREATE FUNCTION {schema}.{name}({params}) RETURNS text LANGUAGE plpgsql "
            f"AS $$BEGIN RAISE EXCEPTION '{TOKEN} as %', current_user; END$$"
        )
        return True
    except psycopg.errors.DuplicateFunction:
        return False
    finally:
        conn.execute("RESET ROLE")


def call_as(conn, caller, call):
    if caller == "superuser":
        conn.execute("SET search_path = ids, att")
        try:
            return outcome(conn, f"SELECT ({call})::text")
        finally:
            conn.execute("RESET search_path")
    # A superuser's SECURITY DEFINER function with a pinned search_path, called by the role.
    conn.execute(
        "CREATE OR REPLACE FUNCTION public.definer_wrapper() RETURNS text SECURITY DEFINER "
        "SET search_path = ids, att, pg_temp LANGUAGE plpgsql "
        f"AS $body$BEGIN RETURN ({call})::text; END$body$"
    )
    conn.execute(f"SET ROLE {ROLE}")
    try:
        return outcome(conn, "SELECT public.definer_wrapper()")
    finally:
        conn.execute("RESET ROLE")


def main():
    host, port = sys.argv[1], sys.argv[2]
    stats, failures = run(host, port, "name_resolution", control=False)
    print(
        f"name resolution: {stats['functions']} functions, {stats['arguments']} arguments, "
        f"{stats['plants']} plants ({stats['blocked']} refused: the extension holds that signature), "
        f"{stats['calls']} calls ({stats['compared']} compared value for value): {len(failures)} failures"
    )
    for failure in failures[:40]:
        print("  FAIL", failure)
    control_stats, control_failures = run(host, port, "name_resolution_control", control=True)
    ran = sum(1 for f in control_failures if f.startswith("planted function ran"))
    print(
        f"control (no overloads, no text twins, as 0.5.0): {control_stats['calls']} calls, "
        f"{ran} ran a planted function, {len(control_failures)} failures"
    )
    connect(host, port, "postgres").execute(f"DROP ROLE IF EXISTS {ROLE}")
    if failures:
        sys.exit(1)
    if ran == 0:
        print("the control ran no planted function: the check cannot fail")
        sys.exit(1)


if __name__ == "__main__":
    main()
