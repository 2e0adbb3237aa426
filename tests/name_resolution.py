"""Calls mean what they say, and the boundary of name resolution is where docs/guarantees.md puts it
(docs/guarantees.md#names-on-the-search_path).

Generated from the catalog, not from a list:

1. Every function of the extension that SQL can call (no pseudo-type argument; record results and
   set-returning functions included), at every number of arguments its defaults allow, and every
   argument position, called with the other arguments typed casts and that one written each way a
   client writes it: a quoted literal; a bare numeral or boolean at integer and boolean positions;
   NULL; and, through psycopg's extended protocol, an untyped parameter (a Python str, sent with type
   0, as node-postgres, lib/pq and psql's \\bind send every parameter) and a smallint parameter at
   integer positions (psycopg sends a Python int below 2^15 as int2); the untyped-parameter calls again
   through node-postgres (tests/node, pinned by its lock file; skipped, with a line, without node). The search_path is the
   extension's schema alone: nothing planted. Each call must resolve (never 42725 "not unique" or
   42883) and give what the typed call gives (the same value, or the same SQLSTATE; for volatile
   functions the same SQLSTATE or a value). Where another function of the extension takes text at
   that position (the overloads sql/finalize.sql makes, comb_uuid(text)), PostgreSQL prefers it for
   an untyped value, so the call must give what that function's original gives typed: an untyped
   key id in comb_mask(id, 'uuidv7', $3) is read as a key (bytea), as the docs say; a bare
   numeral is the key id.
2. The boundary: the check query of docs/guarantees.md lists, for the schemas on the search_path and
   the extension's own, every role other than the owner that may CREATE there. With only the
   extension's schema and pg_catalog on the path it lists nothing; granting CREATE on a schema of
   the path, or on the extension's schema, to a role makes it list exactly that (schema, role).
3. The control, which shows the boundary is real: on such a path a function planted by that role
   takes an untyped literal's call (comb_timestamp(text, text) after the extension's schema, and a
   variadic comb_uuid in the extension's schema makes comb_uuid() ambiguous). The check must fail
   without the duty the docs put on the caller.

    python tests/name_resolution.py HOST PORT
"""

import sys

import psycopg
from psycopg import sql

ROLE = "name_resolution_other"
MARKER = "For untyped literals: casts its arguments and calls "
TOKEN = "planted-function-ran-7f3a"
NODE_PG = "8.23.1"  # tests/node/package.json

# docs/guarantees.md's check, word for word (tests/name_resolution.py reads it from there).
CHECK_BEGIN = "-- names check: begin"
CHECK_END = "-- names check: end"

VALUES = {
    "uuid": "018cc820-db2e-4000-9318-2b65fb840cd1",
    "timestamptz": "2024-01-02 03:04:05.678+00",
    "bytea": "\\x000102030405060708090a0b0c0d0e0f",
    "int2": "1",
    "int4": "1",
    "int8": "1",
    "bool": "true",
    # comb_ext_adopt's table and column: a table main() makes (the first call adopts it, the others find it adopted).
    "regclass": "att.adopt_me",
    "name": "id",
}
INTEGER_TYPES = {"int2", "int4", "int8"}

# Text arguments of the text forms (docs/ids-that-do-not-tell-their-age.md), by function and position.
TEXT_VALUES = {
    ("comb_text", 1): "crockford",
    ("comb_parse", 0): "01HK421PSEE009661BCQXR836H",
    ("comb_parse", 1): "crockford",
    ("typeid_text", 1): "order",
    ("typeid_parse", 0): "order_01hk421psee009661bcqxr836h",
    ("typeid_parse", 1): "order",
    ("typeid_prefix", 0): "order_01hk421psee009661bcqxr836h",
    ("uid8_parse", 0): "8000000000001",
    ("comb_ext_adopt", 2): "uid8",
}


def connect(host, port, dbname):
    return psycopg.connect(host=host, port=port, user="postgres", dbname=dbname, autocommit=True)


def check_query(repo_docs):
    text = open(repo_docs).read()
    return text[text.index(CHECK_BEGIN) : text.index(CHECK_END)]


def catalog(conn):
    """Every function SQL can call: oid, name, [types], [type schemas], [typtypes], nargs, ndefaults, volatile, retset."""
    return conn.execute(
        """SELECT p.oid, p.proname, array_agg(t.typname ORDER BY a.n), array_agg(tn.nspname ORDER BY a.n),
                  array_agg(t.typtype ORDER BY a.n), p.pronargs, p.pronargdefaults, p.provolatile <> 'i', p.proretset
           FROM pg_proc p
           JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
           JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
           CROSS JOIN LATERAL unnest(p.proargtypes) WITH ORDINALITY AS a(t, n)
           JOIN pg_type t ON t.oid = a.t JOIN pg_namespace tn ON tn.oid = t.typnamespace
           WHERE p.prokind = 'f'
             AND NOT EXISTS (SELECT FROM pg_type r WHERE r.typtype = 'p' AND r.oid = ANY (p.proargtypes::oid[]))
             AND p.prorettype NOT IN ('internal'::regtype, 'cstring'::regtype)
           GROUP BY p.oid, p.proname, p.pronargs, p.pronargdefaults, p.provolatile, p.proretset ORDER BY p.oid"""
    ).fetchall()


def stands_for(conn):
    """oid -> the oid of the function it calls, for the overloads sql/finalize.sql made; others stand for themselves."""
    rows = conn.execute(
        """SELECT p.oid, substring(obj_description(p.oid, 'pg_proc') FROM 'calls (.*)$')::regprocedure::oid
           FROM pg_proc p WHERE starts_with(coalesce(obj_description(p.oid, 'pg_proc'), ''), %s)""",
        (MARKER,),
    ).fetchall()
    return dict(rows)


def value_of(conn, name, typname, typtype, typschema, position):
    """A valid value for the argument, as text; for an overload's text argument, one of the type it stands for."""
    if typtype == "e":
        labels = conn.execute(f"SELECT enum_range(NULL::{typschema}.{typname})::text[]").fetchone()[0]
        return "time_sequential" if "time_sequential" in labels else labels[0]
    if typname == "sno":
        return conn.execute("SELECT ids.sno_floor('2024-01-02 03:04:05+00'::timestamptz)::text").fetchone()[0]
    if typname == "text":
        if (name, position) in TEXT_VALUES:
            return TEXT_VALUES[(name, position)]
        if name == "muid_parse":
            return conn.execute("SELECT ids.muid_text(ids.muid_pack(1700000000000000, 5))").fetchone()[0]
        if name == "comb_uuid":
            return "postgresql"
        raise SystemExit(f"name_resolution.py: no value for the text argument {position + 1} of {name}: add one")
    return VALUES[typname]


def quoted(value):
    return "'" + value.replace("'", "''") + "'"


def typed(value, typname, typschema):
    return f"CAST({quoted(value)} AS {typschema}.{typname})"


def select(call, retset):
    if retset:
        return f"SELECT array(SELECT r::text FROM {call} r)::text"
    return f"SELECT ({call})::text"


def outcome(conn, query, params=None):
    try:
        row = conn.execute(query, params).fetchone()
        return ("value", None if row[0] is None else str(row[0]))
    except psycopg.Error as e:
        return ("error", e.sqlstate, e.diag.message_primary)


def same(got, expected, volatile):
    if got == expected:
        return True
    if volatile:
        return got[0] == expected[0] == "value" or (got[0] == expected[0] == "error" and got[1] == expected[1])
    return False


def judge(where, got, expected, volatile, failures):
    """A call's outcome against what it may give: ("ambiguous",) in `expected` admits 42725."""
    if expected is not None and ("ambiguous",) in expected and got[0] == "error" and got[1] == "42725":
        return
    if got[0] == "error" and got[1] in ("42725", "42883"):
        failures.append(f"{where}: {got[1]} {got[2]}")
    elif expected is None or expected == [("ambiguous",)]:
        return
    elif not any(same(got, e, volatile) for e in expected if e != ("ambiguous",)):
        failures.append(f"{where}: got {got}, typed {expected}")


def through_node(host, port, dbname, driver_calls, failures):
    """The untyped-parameter calls through node-postgres (tests/node), which types no parameter: None when it
    is not installed (scripts/setup.sh installs it where npm is)."""
    import json
    import os
    import shutil
    import subprocess

    modules = os.path.join(os.environ.get("COMB_EXT_CACHE", "/var/cache/comb_ext"), "node-pg", "node_modules")
    if shutil.which("node") is None or not os.path.isdir(os.path.join(modules, "pg")):
        return None
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "node", "calls.cjs")
    run = subprocess.run(
        ["node", script, host, str(port), dbname],
        input=json.dumps([{"sql": sql, "params": params} for sql, params, _, _ in driver_calls]),
        capture_output=True, text=True, env={**os.environ, "NODE_PATH": modules}, check=False,
    )
    if run.returncode != 0:
        failures.append(f"node-postgres: {run.stderr.strip()[:400]}")
        return 0
    outcomes = json.loads(run.stdout)
    for (sql, params, expected, volatile), got in zip(driver_calls, outcomes):
        got = tuple(got) if got[0] == "error" else ("value", got[1])
        judge(f"node-postgres: {sql} with {params!r}", got, expected, volatile, failures)
    return len(outcomes)


def calls_mean_what_they_say(conn, failures, driver_calls):
    functions = catalog(conn)
    originals = stands_for(conn)
    by_oid = {f[0]: f for f in functions}
    stats = dict(functions=len(functions), calls=0, shared=0, casts=0)
    # (argument type, name): a one-argument function named as a type of the extension (uid8_mode(bigint)).
    type_names = {(f[2][0], f[1]) for f in functions if f[5] >= 1}
    type_names = {
        key for key in type_names
        if conn.execute("SELECT to_regtype(%s) IS NOT NULL", (f"ids.{key[1]}",)).fetchone()[0]
    }
    for oid, name, types, schemas, typtypes, nargs, ndefaults, volatile, retset in functions:
        # An overload's values are its original's, written as text where it takes text; a text argument where
        # another function of the name takes an enum (a twin, as 0.6.0 had before its release) gets a label.
        source = by_oid[originals.get(oid, oid)]
        value_types = list(zip(source[2], source[4], source[3]))
        for i, (t, _, _) in enumerate(value_types):
            enum = next((f for f in functions if f[1] == name and f[5] == source[5] and f[2][i] != t and f[4][i] == "e"), None)
            if t == "text" and enum is not None:
                value_types[i] = (enum[2][i], "e", enum[3][i])
        values = [value_of(conn, name, t, k, s, i) for i, (t, k, s) in enumerate(value_types)]
        for arity in range(nargs - ndefaults, nargs + 1):
            if arity == 0:
                continue
            typed_args = [typed(values[i], types[i], schemas[i]) for i in range(arity)]
            baseline = outcome(conn, select(f"{name}({', '.join(typed_args)})", retset))
            for position in range(arity):
                # The other functions of the extension that take these arguments but another type here: an
                # untyped value may go to one of them by PostgreSQL's rules (text first), or be ambiguous
                # (42725). What each gives typed is what the untyped call may give.
                siblings = [
                    f for f in functions if f[1] == name and f[0] != oid and f[5] >= arity and f[5] - f[6] <= arity
                    and f[2][position] != types[position]
                    and all(f[2][j] == types[j] for j in range(arity) if j != position)
                ]
                # PostgreSQL's rule: an untyped value goes to a candidate that takes text there if there is one
                # (this function, or the one such sibling); else to one of the candidates, or it is ambiguous.
                texts = [f for f in siblings if f[2][position] == "text"]
                allowed = [baseline]
                if types[position] != "text" and texts:
                    allowed = []
                for sibling in (texts if types[position] != "text" and texts else [] if texts else siblings):
                    target = by_oid.get(originals.get(sibling[0], sibling[0]))
                    if target is not None and target[0] == oid:
                        allowed.append(baseline)
                    elif target is not None:
                        args = list(typed_args)
                        args[position] = typed(values[position], target[2][position], target[3][position])
                        allowed.append(outcome(conn, select(f"{name}({', '.join(args)})", target[8])))
                if siblings and not texts and types[position] != "text":
                    stats["shared"] += 1
                    stats.setdefault("where", []).append(f"{name}/{arity} argument {position + 1}")
                    allowed.append(("ambiguous",))
                literal_allowed = list(allowed)
                if arity == 1 and (types[0], name) in type_names:
                    # A one-argument call named as a type, of a quoted literal, is PostgreSQL's cast to that type.
                    stats["casts"] += 1
                    literal_allowed = [outcome(conn, f"SELECT CAST({quoted(values[0])} AS ids.{name})::text")]
                forms = [("quoted literal", quoted(values[position]), None, literal_allowed)]
                forms.append(("NULL", "NULL", None, [("ambiguous",)] if ("ambiguous",) in allowed else None))
                forms.append(("untyped parameter", "%s", (values[position],), allowed))
                if types[position] in INTEGER_TYPES:
                    forms.append(("bare numeral", values[position], None, [baseline]))
                    forms.append(("smallint parameter", "%s", (int(values[position]),), [baseline]))
                if types[position] == "bool":
                    forms.append(("bare boolean", values[position], None, [baseline]))
                for form, written, params, expected in forms:
                    args = list(typed_args)
                    args[position] = written
                    call = f"{name}({', '.join(args)})"
                    stats["calls"] += 1
                    if form == "untyped parameter":
                        # The same call through node-postgres, later (driver_calls): $1, sent untyped.
                        driver_calls.append((select(call, retset).replace("%s", "$1"), list(params), expected, volatile))
                    got = outcome(conn, select(call, retset), params)
                    where = f"{call} ({form} at argument {position + 1}{f', {params!r}' if params else ''})"
                    judge(where, got, expected, volatile, failures)
    return stats


def check_rows(conn, check):
    return sorted(tuple(r) for r in conn.execute(check).fetchall())


def boundary(conn, check, failures):
    """The check lists nothing on a path of the extension's schema alone, and exactly each grant made."""
    cases = 0
    conn.execute("SET search_path = ids")
    cases += 1
    rows = check_rows(conn, check)
    if rows:
        failures.append(f"check on search_path ids: {rows}, expected nothing")
    for path, grant_on in (("ids, att", "att"), ("ids, att", "ids"), ("att, ids", "att")):
        conn.execute(f"SET search_path = {path}")
        conn.execute(f"GRANT CREATE ON SCHEMA {grant_on} TO {ROLE}")
        cases += 1
        rows = check_rows(conn, check)
        if rows != [(grant_on, ROLE)]:
            failures.append(f"check on search_path {path}, CREATE on {grant_on} granted to {ROLE}: {rows}")
        conn.execute(f"REVOKE CREATE ON SCHEMA {grant_on} FROM {ROLE}")
    conn.execute("GRANT CREATE ON SCHEMA att TO PUBLIC")
    conn.execute("SET search_path = ids, att")
    cases += 1
    rows = check_rows(conn, check)
    if rows != [("att", "PUBLIC")]:
        failures.append(f"check with CREATE on att granted to PUBLIC: {rows}")
    conn.execute("REVOKE CREATE ON SCHEMA att FROM PUBLIC")
    conn.execute("RESET search_path")
    return cases


def control(conn, failures):
    """Where the check lists a role, that role can take calls: the boundary is the caller's duty."""
    ran = []
    conn.execute(f"GRANT CREATE ON SCHEMA att, ids TO {ROLE}")
    conn.execute(f"SET ROLE {ROLE}")
    conn.execute(
        "CREATE FUNCTION att.comb_timestamp(text, text) RETURNS timestamptz LANGUAGE plpgsql "
        f"AS $$BEGIN RAISE EXCEPTION '{TOKEN}'; END$$"
    )
    conn.execute(
        "CREATE FUNCTION ids.comb_uuid(VARIADIC text[] DEFAULT '{}') RETURNS uuid LANGUAGE sql AS $$SELECT NULL::uuid$$"
    )
    conn.execute("RESET ROLE")
    conn.execute("SET search_path = ids, att")
    got = outcome(conn, "SELECT comb_timestamp('018cc820-db2e-4000-9318-2b65fb840cd1', 'postgresql')::text")
    if got[0] == "error" and TOKEN in (got[2] or ""):
        ran.append("comb_timestamp(text, text) after the extension's schema took an untyped literal's call")
    got = outcome(conn, "SELECT comb_uuid()::text")
    if got[0] == "error" and got[1] == "42725":
        ran.append("a variadic comb_uuid in the extension's schema made comb_uuid() ambiguous")
    conn.execute("RESET search_path")
    conn.execute("DROP FUNCTION att.comb_timestamp(text, text)")
    conn.execute("DROP FUNCTION ids.comb_uuid(text[])")
    conn.execute(f"REVOKE CREATE ON SCHEMA att, ids FROM {ROLE}")
    if len(ran) != 2:
        failures.append(f"control: only {ran} of the two planted functions took calls: the check could not fail")
    return ran


def main():
    host, port = sys.argv[1], sys.argv[2]
    docs = sys.argv[3] if len(sys.argv) > 3 else __file__.rsplit("/tests/", 1)[0] + "/docs/guarantees.md"
    check = check_query(docs)
    admin = connect(host, port, "postgres")
    admin.execute("DROP DATABASE IF EXISTS name_resolution")
    admin.execute(f"DROP ROLE IF EXISTS {ROLE}")
    admin.execute(f"CREATE ROLE {ROLE} LOGIN")
    admin.execute("CREATE DATABASE name_resolution")
    conn = connect(host, port, "name_resolution")
    conn.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")  # 13 and 14 grant it; 15 and later do not
    conn.execute("CREATE SCHEMA ids")
    conn.execute("CREATE EXTENSION comb_ext SCHEMA ids")
    conn.execute("CREATE SCHEMA att")
    conn.execute("CREATE TABLE att.adopt_me (id bigserial PRIMARY KEY)")
    failures = []
    driver_calls = []
    conn.execute("SET search_path = ids")
    stats = calls_mean_what_they_say(conn, failures, driver_calls)
    conn.execute("RESET search_path")
    print(
        f"calls: {stats['functions']} functions, {stats['calls']} calls (each argument quoted, NULL, an untyped and "
        f"a smallint parameter, bare numerals and booleans; {stats['shared']} positions where other functions of the "
        f"name take another type and none text, so that an untyped value may be ambiguous, {stats['casts']} one-argument calls named as a type): {len(failures)} failures"
    )
    print(f"  where an untyped value may be ambiguous: {', '.join(stats.get('where', []))}")
    before = len(failures)
    through = through_node(host, port, "name_resolution", driver_calls, failures)
    if through is None:
        print("node-postgres: SKIPPED: node or node-postgres not installed (scripts/setup.sh installs it where npm is)")
    else:
        print(f"node-postgres {NODE_PG}: {through} calls with an untyped parameter, {len(failures) - before} failures")
    before = len(failures)
    cases = boundary(conn, check, failures)
    print(f"the check of docs/guarantees.md: {cases} search_path and grant cases, {len(failures) - before} failures")
    ran = control(conn, failures)
    print(f"control (CREATE granted on a schema of the path and on the extension's): {len(ran)} of 2 plants took calls")
    for failure in failures[:40]:
        print("  FAIL", failure)
    conn.close()
    admin.execute("DROP DATABASE name_resolution")
    admin.execute(f"DROP ROLE {ROLE}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
